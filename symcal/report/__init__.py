"""Reports: terminal table, JSON (the interface contract), Markdown, self-contained HTML
(:mod:`symcal.report.html`, also the notebook reprs), LaTeX (:mod:`symcal.report.latex`) and
pictures (:mod:`symcal.report.plot`, the ``plot`` extra)."""

from symcal.report.html import html_table, report_html
from symcal.report.render import agrees, is_erratum, markdown_report, second_opinion_summary, table, to_json

__all__ = ["agrees", "html_table", "is_erratum", "markdown_report", "report_html", "second_opinion_summary",
           "table", "to_json"]
