"""The cash report and the pending target portfolios report as an Excel workbook (openpyxl) and a
PDF document (xhtml2pdf, A4 landscape). Pure builders over a report of
app.services.advice_reports (rows, totals, the filters it was made with); no database.

The house style of the holdings exports: a title, what the report is of (firm, statuses, when, in
the browser's offset), then one table with a totals row. Money cells are numbers with a dollar
format (negative in red with a minus sign), dates are date cells shown DD/MM/YYYY. Text cells are
written as text, never formulas: a name that starts with = + - @ stays text in Excel.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from html import escape
from typing import Any, Callable

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, PatternFill, Side
from openpyxl.utils import get_column_letter
from app.exports.pdf import render

from app.domain.advice import TP_KEY_LABELS
from app.exports.broker_files import XLSX, put_text
from app.exports.holdings_pdf import CSS as HOLDINGS_CSS, money as html_money
from app.exports.file_names import safe_name
from app.exports.holdings_xlsx import MONEY, landscape_bytes
from app.domain.timezones import day_text, file_day, local_time, moment_text
from app.exports.xlsx_styles import BOLD as _BOLD, HEAD_FILL as _HEAD_FILL, TITLE as _TITLE

PDF = "application/pdf"
DATE = "DD/MM/YYYY"
TITLES = {"cash": "Cash Report", "pending": "Pending Target Portfolios"}
EMPTY = {"cash": "No portfolio has a target portfolio in the chosen status.",
         "pending": "No target portfolio is waiting for validation or approval."}

_TOTAL_FILL = PatternFill("solid", fgColor="F3F4F8")
_THIN = Side(style="thin", color="C8CDD6")


@dataclass(frozen=True)
class Column:
    title: str
    attr: str
    kind: str = "text"   # text | money | date | int
    width: int = 16
    pdf_width: str = ""
    total: bool = False  # summed in the totals row


# the portfolio's columns both reports open with: (title, attribute, xlsx width)
_PORTFOLIO_COLUMNS = (("Portfolio", "portfolio_name", 30), ("Firm", "firm", 24), ("Owners", "owners", 28),
                      ("Adviser", "adviser", 20), ("Model", "model", 24), ("Status", "status_label", 20))
_DATE = Column("Date", "date", "date", 12, "6%")


def _portfolio_columns(*pdf_widths: str) -> tuple[Column, ...]:
    """The opening columns with their PDF widths (each report shares the page its own way)."""
    return tuple(Column(title, attr, width=width, pdf_width=pdf_width)
                 for (title, attr, width), pdf_width in zip(_PORTFOLIO_COLUMNS, pdf_widths, strict=True))


CASH_COLUMNS = (
    *_portfolio_columns("12%", "8%", "11%", "8%", "8%", "7%"),
    _DATE,
    Column("Portfolio Value", "value", "money", 16, "7%", True),
    Column("Cash", "cash", "money", 16, "7%", True),
    Column("Placed Buys", "placed_buys", "money", 14, "6%", True),
    Column("Cash After Trades", "cash_after", "money", 18, "7%", True),
    Column("Minimum Cash", "min_cash", "money", 16, "7%", True),
    Column("Cash to Invest (Raise)", "cash_to_invest", "money", 20, "7%", True),
)
PENDING_COLUMNS = (
    *_portfolio_columns("14%", "10%", "13%", "9%", "10%", "9%"),
    Column("Message", "error_message", width=40, pdf_width="11%"),
    _DATE,
    Column("Calculated By", "calculated_by", width=20, pdf_width="8%"),
    Column("Days Waiting", "days_waiting", "int", 13, "5%"),
    Column("Value", "value", "money", 16, "7%", True),
)


def columns(report: Any) -> tuple[Column, ...]:
    """The report's columns; the firm column only when the report covers every firm."""
    cols = CASH_COLUMNS if report.kind == "cash" else PENDING_COLUMNS
    return tuple(c for c in cols if c.attr != "firm" or report.firm_id is None)


def filename(report: Any, file_type: str, offset_minutes: int, now: datetime | None = None) -> str:
    """'<firm> - Cash Report - 31-12-2025.xlsx' (the date in the browser's offset)."""
    day = file_day(now or report.generated_at, offset_minutes)
    return f"{safe_name(report.firm_name or 'All firms')} - {TITLES[report.kind]} - {day}.{file_type}"


def _statuses_text(report: Any) -> str:
    if getattr(report, "every_status", False) or not report.statuses:
        text = "All statuses" if report.kind == "cash" else "All pending statuses"
    else:
        text = ", ".join(TP_KEY_LABELS[k] for k in report.statuses)
    if report.kind == "pending" and report.not_enough_cash:
        text += " (Not Enough Cash only)"
    return text


def _meta(report: Any, offset: int) -> list[tuple[str, str | int]]:
    when = local_time(report.generated_at, offset)
    return [("Firm", report.firm_name or "All firms"), ("Status", _statuses_text(report)),
            ("Portfolios", report.count), ("Date", moment_text(when))]


# ---- Excel --------------------------------------------------------------------------------------------
def _cell(ws, row: int, col: int, value: Any, column: Column, offset: int):
    cell = ws.cell(row=row, column=col)
    if value is None or value == "":
        return cell
    if column.kind == "money":
        cell.value = Decimal(value)
        cell.number_format = MONEY
        cell.alignment = Alignment(horizontal="right")
    elif column.kind == "date":
        cell.value = local_time(value, offset).date()
        cell.number_format = DATE
        cell.alignment = Alignment(horizontal="right")
    elif column.kind == "int":
        cell.value = int(value)
        cell.alignment = Alignment(horizontal="right")
    else:
        put_text(cell, str(value))
    return cell


def xlsx(report: Any, offset: int = 0) -> bytes:
    """The whole report as a workbook of one sheet."""
    cols = columns(report)
    wb = Workbook()
    ws = wb.active
    ws.title = TITLES[report.kind][:31]
    put_text(ws.cell(row=1, column=1), TITLES[report.kind])
    ws.cell(row=1, column=1).font = _TITLE
    r = 2
    for label, value in _meta(report, offset):
        put_text(ws.cell(row=r, column=1), label)
        ws.cell(row=r, column=1).font = _BOLD
        if isinstance(value, int):
            ws.cell(row=r, column=2, value=value).alignment = Alignment(horizontal="left")
        else:
            put_text(ws.cell(row=r, column=2), value)
        r += 1
    r += 1
    header_row = r
    for c, column in enumerate(cols, start=1):
        cell = ws.cell(row=r, column=c)
        put_text(cell, column.title)
        cell.font = _BOLD
        cell.fill = _HEAD_FILL
        cell.border = Border(bottom=_THIN)
        if column.kind != "text":
            cell.alignment = Alignment(horizontal="right")
    r += 1
    if not report.rows:
        put_text(ws.cell(row=r, column=1), EMPTY[report.kind])
        r += 1
    for item in report.rows:
        for c, column in enumerate(cols, start=1):
            _cell(ws, r, c, getattr(item, column.attr), column, offset)
        r += 1
    put_text(ws.cell(row=r, column=1), "Total")
    for c, column in enumerate(cols, start=1):
        cell = ws.cell(row=r, column=c)
        cell.font = _BOLD
        cell.fill = _TOTAL_FILL
        cell.border = Border(top=_THIN)
        if column.total and column.attr in report.totals:
            cell.value = Decimal(report.totals[column.attr])
            cell.number_format = MONEY
            cell.alignment = Alignment(horizontal="right")
    for c, column in enumerate(cols, start=1):
        ws.column_dimensions[get_column_letter(c)].width = column.width
    ws.freeze_panes = ws.cell(row=header_row + 1, column=2)
    return landscape_bytes(wb, ws)


# ---- PDF ----------------------------------------------------------------------------------------------
CSS = HOLDINGS_CSS + """
.total td { font-weight: bold; background-color: #f3f4f8; border-top: 0.5pt solid #b9bbc6; }
.error { color: #ce2c31; }
"""


def _html_cell(value: Any, column: Column, offset: int) -> str:
    if value is None or value == "":
        return ""
    if column.kind == "money":
        return html_money(Decimal(value))
    if column.kind == "date":
        return day_text(local_time(value, offset))
    if column.kind == "int":
        return f"{int(value):,}"
    if column.attr == "error_message":
        return f'<span class="error">{escape(str(value))}</span>'
    return escape(str(value))


def html(report: Any, offset: int = 0) -> str:
    cols = columns(report)
    num = ' class="num"'
    head = "".join(f'<th width="{c.pdf_width}"{num if c.kind != "text" else ""}>{escape(c.title)}</th>' for c in cols)
    cells: Callable[[Any], str] = lambda item: "".join(  # noqa: E731
        f'<td{num if c.kind != "text" else ""}>{_html_cell(getattr(item, c.attr), c, offset)}</td>' for c in cols)
    body = "".join(f"<tr>{cells(item)}</tr>" for item in report.rows) or \
        f'<tr><td class="muted" colspan="{len(cols)}">{escape(EMPTY[report.kind])}</td></tr>'
    total = "".join(
        f'<td{num if c.kind != "text" else ""}>'
        f'{"Total" if n == 0 else html_money(Decimal(report.totals[c.attr])) if c.total and c.attr in report.totals else ""}'
        "</td>" for n, c in enumerate(cols))
    meta = "".join(f'<tr><td class="label">{escape(label)}</td><td>{escape(str(value))}</td></tr>'
                   for label, value in _meta(report, offset))
    when = local_time(report.generated_at, offset)
    title = TITLES[report.kind]
    return (
        f"<html><head><meta charset=\"utf-8\"><style>{CSS}</style></head><body>"
        f"<h1>{escape(title)}</h1><table class=\"meta\">{meta}</table><br/>"
        f"<table repeat=\"1\"><thead><tr>{head}</tr></thead><tbody>{body}"
        f"<tr class=\"total\">{total}</tr></tbody></table>"
        f"<div id=\"footer\">{escape(title)} &middot; {escape(report.firm_name or 'All firms')} &middot; "
        f"{moment_text(when)} &middot; page <pdf:pagenumber> of <pdf:pagecount></div>"
        "</body></html>"
    )


def pdf(report: Any, offset: int = 0) -> bytes:
    return render(html(report, offset))


__all__ = ["CASH_COLUMNS", "PDF", "PENDING_COLUMNS", "XLSX", "columns", "filename", "html", "pdf", "xlsx"]
