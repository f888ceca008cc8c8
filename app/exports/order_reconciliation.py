"""The day's order reconciliation as an Excel workbook: the totals by broker, then every order event
of the day (placed, filled, partly filled, expired, cancelled, rejected), so that the operations
team ticks off a broker's confirmations against what was sent. Figures are numbers, text stays text."""
from __future__ import annotations

import io
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill

from app.domain.timezones import day_text
from app.exports.broker_files import put_text

_HEADER_FILL = PatternFill("solid", fgColor="1F3A5F")
TOTAL_COLUMNS = ("Broker", "Placed", "Filled", "Partly filled", "Expired", "Cancelled", "Rejected", "Buys filled ($)",
                 "Sells filled ($)")
LINE_COLUMNS = ("Broker", "Portfolio", "Account", "Reference", "Side", "Code", "Event", "Units", "Value ($)", "Order",
                "Expiry", "Status now")


def _header(ws, row: int, titles: tuple[str, ...]) -> None:
    for c, title in enumerate(titles, start=1):
        cell = ws.cell(row=row, column=c)
        put_text(cell, title)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _HEADER_FILL


def xlsx(recon: Any, firm_name: str) -> bytes:
    """`recon`: app.services.orders.Reconciliation (its day, totals by broker and lines)."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Reconciliation"
    put_text(ws.cell(row=1, column=1), f"{firm_name} - Orders of {day_text(recon.day)}")
    ws.cell(row=1, column=1).font = Font(bold=True, size=13)
    _header(ws, 3, TOTAL_COLUMNS)
    row = 4
    for t in recon.totals:
        put_text(ws.cell(row=row, column=1), t.broker)
        for c, value in enumerate((t.placed, t.filled, t.partly_filled, t.expired, t.cancelled, t.rejected), start=2):
            ws.cell(row=row, column=c, value=value)
        for c, value in ((8, t.buys), (9, t.sells)):
            ws.cell(row=row, column=c, value=value).number_format = "#,##0.00"
        row += 1
    if not recon.totals:
        put_text(ws.cell(row=row, column=1), "No order was placed, filled or closed that day.")
        row += 1
    row += 1
    _header(ws, row, LINE_COLUMNS)
    for line in recon.lines:
        row += 1
        o = line.order
        for c, text in enumerate((o.broker_name or "No broker", o.investment_name, o.account, o.reference, o.side,
                                  o.asset_code, line.event_label), start=1):
            put_text(ws.cell(row=row, column=c), text)
        ws.cell(row=row, column=8, value=line.units).number_format = "#,##0"
        ws.cell(row=row, column=9, value=line.value).number_format = "#,##0.00"
        for c, text in ((10, o.price_text), (11, o.expiry_text), (12, o.status_label)):
            put_text(ws.cell(row=row, column=c), text)
    for c, width in enumerate((18, 28, 14, 12, 6, 8, 14, 10, 14, 36, 12, 14), start=1):
        ws.column_dimensions[ws.cell(row=3, column=c).column_letter].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
