"""The holdings of a portfolio as an Excel workbook (openpyxl).

One sheet: a header (portfolio, model, owners, date in the browser's offset), the totals, the class
allocation (actual against target), then one section per asset class listing its holdings. Money
cells are numbers with a dollar format (negative in red with a minus sign), percentages are
numbers with a one-decimal percent format, listed units have no decimals; empty figures show N/A."""
from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, PatternFill, Side
from openpyxl.utils import get_column_letter

from app.domain.money import format_aud
from app.domain.holdings import Holdings, Line, sections
from app.domain.timezones import day_text, file_day, local_time
from app.exports.file_names import safe_name
from app.exports.xlsx_styles import BOLD as _BOLD, HEAD_FILL as _HEAD_FILL, MEDIA_TYPE, MONEY, TITLE as _TITLE

PERCENT = '0.0%;[Red]-0.0%'
PERFORMANCE = '[Color10]0.0%;[Red]-0.0%;0.0%'  # green when positive, red when negative
UNITS = '#,##0'
NA = "N/A"
COLUMNS = ("Code", "Name", "Quantity", "Cost", "Value", "Allocation", "6 Month Return", "Since Purchase",
           "Dividend Yield", "Fee")
WIDTHS = (14, 44, 12, 16, 16, 12, 15, 15, 14, 10)

_CLASS_FILL = PatternFill("solid", fgColor="D5DEF0")
_THIN = Side(style="thin", color="C8CDD6")
_BOTTOM = Border(bottom=_THIN)


def filename(h: Holdings, offset_minutes: int, now: datetime | None = None) -> str:
    """'<portfolio> - Holdings - 31-12-2025.xlsx' (the date in the browser's offset)."""
    day = file_day(now or h.as_at, offset_minutes)
    return f"{safe_name(h.portfolio.name)} - Holdings - {day}.xlsx"


def _fraction(percent: Decimal | None):
    """A stored percentage (12.5) as the cell value Excel's percent format expects (0.125)."""
    return NA if percent is None else float(Decimal(percent) / 100)


def _money(value: Decimal | None):
    return NA if value is None else float(value)


def _put(ws, row: int, col: int, value, fmt: str | None = None, **style):
    cell = ws.cell(row=row, column=col, value=value)
    if fmt and not isinstance(value, str):
        cell.number_format = fmt
    if isinstance(value, (int, float)) or value == NA:
        cell.alignment = Alignment(horizontal="right")
    for key, item in style.items():
        setattr(cell, key, item)
    return cell


def _line(ws, row: int, line: Line) -> None:
    _put(ws, row, 1, line.code)
    _put(ws, row, 2, line.name if not line.detail else f"{line.name} ({line.detail})")
    _put(ws, row, 3, float(line.quantity) if line.quantity is not None else "", UNITS)
    _put(ws, row, 4, _money(line.cost) if line.cost is not None else "", MONEY)
    _put(ws, row, 5, _money(line.value), MONEY)
    _put(ws, row, 6, _fraction(line.allocation), PERCENT)
    if line.kind == "share":
        _put(ws, row, 7, _fraction(line.six_months_return), PERFORMANCE)
        _put(ws, row, 8, _fraction(line.since_purchase), PERFORMANCE)
        _put(ws, row, 9, _fraction(line.dividend_yield), PERFORMANCE)
    if line.kind == "custom":
        _put(ws, row, 10, _fraction(line.fee) if line.fee is not None else NA, PERCENT)


def landscape_bytes(wb: Workbook, ws) -> bytes:
    """The workbook as .xlsx bytes, its sheet `ws` without grid lines and printed landscape, one
    page wide."""
    ws.sheet_view.showGridLines = False
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def build(h: Holdings, offset_minutes: int) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Holdings"
    p = h.portfolio
    owners = p.owners_text or NA
    when = local_time(h.as_at, offset_minutes)

    _put(ws, 1, 1, "Portfolio Holdings", font=_TITLE)
    header = (("Portfolio", p.name), ("Model", p.model_name or "Not linked"), ("Owners", owners),
              ("Date", day_text(when)))
    row = 2
    for label, value in header:
        _put(ws, row, 1, label, font=_BOLD)
        ws.cell(row=row, column=2, value=value)
        row += 1

    row += 1
    _put(ws, row, 1, "Totals", font=_BOLD)
    row += 1
    t = h.totals
    for label, value in (("Total value", t.value), ("Cash", t.cash), ("Shares", t.shares_value),
                         ("Deposits", t.deposits), ("Custom holdings", t.custom_holdings)):
        _put(ws, row, 1, label)
        _put(ws, row, 2, _money(value), MONEY)
        ws.cell(row=row, column=2).alignment = Alignment(horizontal="left")
        row += 1

    row += 1
    _put(ws, row, 1, "Class allocation", font=_BOLD)
    row += 1
    for col, label in enumerate(("Class", "", "", "", "Value", "Actual", "Target"), start=1):
        if label:
            _put(ws, row, col, label, font=_BOLD, fill=_HEAD_FILL)
    row += 1
    for c in h.classes:
        _put(ws, row, 1, c.title)
        _put(ws, row, 5, _money(c.value), MONEY)
        _put(ws, row, 6, _fraction(c.actual), PERCENT)
        _put(ws, row, 7, _fraction(c.target), PERCENT)
        row += 1

    for section in sections(h):
        row += 1
        k = section.klass
        title = f"{k.title}  {format_aud(k.value)}"
        for col in range(1, len(COLUMNS) + 1):
            ws.cell(row=row, column=col).fill = _CLASS_FILL
        _put(ws, row, 1, title, font=_BOLD, fill=_CLASS_FILL)
        row += 1
        for col, label in enumerate(COLUMNS, start=1):
            cell = _put(ws, row, col, label, font=_BOLD, fill=_HEAD_FILL, border=_BOTTOM)
            if col >= 3:
                cell.alignment = Alignment(horizontal="right")
        row += 1
        if not section.lines:
            _put(ws, row, 2, "Nothing held in this class")
            row += 1
        for line in section.lines:
            _line(ws, row, line)
            row += 1

    for i, width in enumerate(WIDTHS, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    return landscape_bytes(wb, ws)

