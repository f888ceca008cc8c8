"""The financial-year tax report as an Excel workbook (openpyxl): one sheet per portfolio, headed by
the firm's name, the portfolio and the financial year, then the summary, income, realised gains and
losses by parcel, capital returns and the unrealised position at 30 June (app.exports.tax_report_tables).
Money cells are numbers with a dollar format (negative in red with a minus sign), units numbers,
dates real dates shown DD/MM/YYYY."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from app.exports.file_names import safe_name
from app.exports.tax_report_tables import Section, Units, header_lines, sections
from app.domain.tax_report import TaxReport
from app.exports.xlsx_styles import BOLD as _BOLD, HEAD_FILL as _HEAD_FILL, MEDIA_TYPE, MONEY, TITLE as _TITLE

UNITS = '#,##0.######'
DATE = "DD/MM/YYYY"


def filename(title: str, year: int) -> str:
    """'<portfolio or client> - Tax report FY2026.xlsx'."""
    return f"{safe_name(title)} - Tax report FY{year}.xlsx"


def _put(ws, row: int, column: int, value, *, bold: bool = False) -> None:
    if isinstance(value, Units):
        cell = ws.cell(row=row, column=column, value=value.value)
        cell.number_format = UNITS
    elif isinstance(value, Decimal):
        cell = ws.cell(row=row, column=column, value=value)
        cell.number_format = MONEY
    elif isinstance(value, date):
        cell = ws.cell(row=row, column=column, value=value)
        cell.number_format = DATE
    else:
        cell = ws.cell(row=row, column=column, value=value if value is not None else "")
    if isinstance(value, (Units, Decimal)):
        cell.alignment = Alignment(horizontal="right")
    if bold:
        cell.font = _BOLD


def _section(ws, row: int, section: Section) -> int:
    ws.cell(row=row, column=1, value=section.title).font = Font(bold=True, size=12)
    row += 1
    if not section.rows and section.empty:
        ws.cell(row=row, column=1, value=section.empty)
        return row + 2
    for i, head in enumerate(section.headers, start=1):
        cell = ws.cell(row=row, column=i, value=head)
        cell.font, cell.fill = _BOLD, _HEAD_FILL
    row += 1
    for line in section.rows:
        for i, value in enumerate(line, start=1):
            _put(ws, row, i, value)
        row += 1
    if section.totals:
        for i, value in enumerate(section.totals, start=1):
            _put(ws, row, i, value, bold=True)
        row += 1
    return row + 1


def _sheet_title(name: str, taken: set[str]) -> str:
    base = "".join(ch for ch in name if ch not in '[]:*?/\\')[:28] or "Portfolio"
    title, n = base, 2
    while title.casefold() in taken:
        title, n = f"{base[:25]} {n}", n + 1
    taken.add(title.casefold())
    return title


def build(*, title: str, label: str, firm_name: str, reports: list[TaxReport]) -> bytes:
    wb = Workbook()
    wb.remove(wb.active)
    taken: set[str] = set()
    if not reports:
        ws = wb.create_sheet("Tax report")
        ws.cell(row=1, column=1, value=firm_name).font = _TITLE
        ws.cell(row=2, column=1, value=f"Tax report {label}: {title}")
        ws.cell(row=4, column=1, value="No portfolios to report.")
    for r in reports:
        ws = wb.create_sheet(_sheet_title(r.portfolio_name, taken))
        ws.cell(row=1, column=1, value=firm_name).font = _TITLE
        ws.cell(row=2, column=1, value=f"Tax report {r.label}").font = _BOLD
        row = 3
        for name, value in header_lines(r):
            ws.cell(row=row, column=1, value=name).font = _BOLD
            ws.cell(row=row, column=2, value=value)
            row += 1
        for flag in r.flags:
            ws.cell(row=row, column=1, value=flag).font = Font(color="CE2C31")
            row += 1
        row += 1
        if r.empty:
            ws.cell(row=row, column=1, value=r.message)
            continue
        for section in sections(r):
            row = _section(ws, row, section)
        for column, width in zip("ABCDEFGHIJKLM", (34, 16, 14, 14, 14, 14, 16, 14, 26, 14, 16, 14, 40)):
            ws.column_dimensions[column].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
