"""The coverage map as data: one module per paper (``duchi2010``, ``ramaswamy2013``, ``xia2009``,
``uematsu2013``, ``calauzenes2013``), each with ``PAPER``, ``SOURCE`` (the file name of the paper's
plain text, found by ``symcal.coverage.papers_dir``), ``EXTERNAL_LABELS`` (numbered labels the text
cites from other works) and ``ENTRIES`` (the paper's statements in reading order, as
``symcal.coverage.entry.Entry``)."""

PAPERS = ("duchi2010", "ramaswamy2013", "xia2009", "uematsu2013", "calauzenes2013")
