"""``python -m symcal.kernel DIR [--json]``: re-check a folder of certificate files (see :mod:`.cli`)."""

import sys

from symcal.kernel.cli import main

sys.exit(main())
