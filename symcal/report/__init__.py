"""Reports: terminal table, JSON (the interface contract) and Markdown."""

from symcal.report.render import agrees, is_erratum, markdown_report, second_opinion_summary, table, to_json

__all__ = ["agrees", "is_erratum", "markdown_report", "second_opinion_summary", "table", "to_json"]
