"""A portfolio's (or a client's) performance as an Excel workbook (openpyxl): the heading with the
firm's name, the periods (TWR, income, capital growth, IRR, the model, the difference), why the
portfolio differs from the model, and the value over time at each month's end. Rates are numbers
with a one-decimal percent format (green when positive, red when negative), money with a dollar
format; an empty figure reads N/A."""
from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.styles import Alignment

from app.domain.performance import PerformanceReport
from app.domain.timezones import file_day
from app.exports import performance_table as T
from app.exports.file_names import safe_name
from app.exports.xlsx_styles import BOLD as _BOLD, HEAD_FILL as _HEAD, MEDIA_TYPE, MONEY, TITLE as _TITLE

PERFORMANCE = '[Color10]0.0%;[Red]-0.0%;0.0%'
POINTS = '0.00;[Red]-0.00;0.00'


def filename(r: PerformanceReport, offset_minutes: int, now: datetime) -> str:
    """'<portfolio or client> - Performance - 31-12-2025.xlsx' (the date in the browser's offset)."""
    return f"{safe_name(r.title)} - Performance - {file_day(now, offset_minutes)}.xlsx"


def _rate(value: Decimal | None):
    return T.NA if value is None else float(value / 100)


def _points(value: Decimal | None):
    return T.NA if value is None else float(value)


def _put(ws, row: int, col: int, value, fmt: str | None = None, bold: bool = False):
    cell = ws.cell(row=row, column=col, value=value)
    if fmt and not isinstance(value, str):
        cell.number_format = fmt
    if not isinstance(value, str) or value == T.NA:
        cell.alignment = Alignment(horizontal="right")
    if bold:
        cell.font = _BOLD
    return cell


def _header(ws, row: int, columns: tuple[str, ...]) -> None:
    for col, title in enumerate(columns, 1):
        cell = _put(ws, row, col, title, bold=True)
        cell.fill = _HEAD


def build(r: PerformanceReport) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = T.TITLE
    ws.cell(row=1, column=1, value=f"{T.TITLE} - {r.title}").font = _TITLE
    row = 2
    for label, text in T.heading(r):
        _put(ws, row, 1, label, bold=True)
        ws.cell(row=row, column=2, value=text)
        row += 1
    if r.message:
        ws.cell(row=row + 1, column=1, value=r.message)
        row += 2
    row += 1
    _header(ws, row, T.PERIOD_COLUMNS)
    for p in r.periods:
        row += 1
        start, end = T.period_dates(p)
        _put(ws, row, 1, p.title)
        _put(ws, row, 2, start)
        _put(ws, row, 3, end)
        for col, value in enumerate(T.period_values(p), 4):
            _put(ws, row, col, _rate(value), PERFORMANCE)
    row += 2
    _put(ws, row, 1, T.WHY_TITLE, bold=True)
    row += 1
    _header(ws, row, T.WHY_COLUMNS)
    for p in r.periods:
        row += 1
        _put(ws, row, 1, p.title)
        for col, value in enumerate(T.why_values(p), 2):
            _put(ws, row, col, _points(value), POINTS)
    if r.portfolios:
        row += 2
        _put(ws, row, 1, "Portfolios", bold=True)
        row += 1
        _header(ws, row, ("Portfolio", "Model", "Value", "Financial year to date", "Since inception"))
        for line in r.portfolios:
            row += 1
            _put(ws, row, 1, line.name)
            _put(ws, row, 2, line.model_name or "None")
            _put(ws, row, 3, float(line.value), MONEY)
            _put(ws, row, 4, _rate(line.fytd), PERFORMANCE)
            _put(ws, row, 5, _rate(line.since_inception), PERFORMANCE)
    row += 2
    _put(ws, row, 1, T.VALUE_TITLE, bold=True)
    row += 1
    _header(ws, row, T.VALUE_COLUMNS)
    for m in T.month_ends(r.chart):
        row += 1
        _put(ws, row, 1, m.day.strftime("%d/%m/%Y"))
        _put(ws, row, 2, float(m.value), MONEY)
        _put(ws, row, 3, float(m.invested), MONEY)
        _put(ws, row, 4, T.NA if m.model_value is None else float(m.model_value), MONEY)
    row += 2
    for note in T.NOTES:
        ws.cell(row=row, column=1, value=note)
        row += 1
    for col, width in zip("ABCDEFGHI", (26, 34, 14, 20, 14, 16, 26, 12, 12)):
        ws.column_dimensions[col].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
