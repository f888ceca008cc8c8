"""What the report workbooks (holdings, performance, tax report, the advice reports) share: the
media type, the money format (negative in red with a minus sign) and the heading styles."""
from __future__ import annotations

from openpyxl.styles import Font, PatternFill

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MONEY = '"$"#,##0.00;[Red]-"$"#,##0.00'
BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
HEAD_FILL = PatternFill("solid", fgColor="E8ECF4")  # a table's header row
