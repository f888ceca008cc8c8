"""Broker files: pure builders over `app.domain.orders.Order` rows (layouts in app.domain.orders).

The trade file is an Excel workbook; the Desktop Broker and AUSIEX files are CSV, as their
bulk-order imports take them. Every cell is written as text or a number, never as a formula: a
text cell that starts with = + - @ stays text in Excel.
"""
from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill

from app.domain import orders as order_rules

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
_NUMERIC = {"Quantity", "Limit Price"}
_HEADER_FILL = PatternFill("solid", fgColor="1F3A5F")


def put_text(cell, value: str) -> None:
    """A text cell that Excel never runs as a formula."""
    cell.value = value
    cell.data_type = "s"


def xlsx(kind: str, orders: Sequence[order_rules.Order], *, extra_header: Sequence[str] = (),
         extra: Sequence[Sequence[str]] = ()) -> bytes:
    header = list(order_rules.COLUMNS[kind]) + list(extra_header)
    wb = Workbook(write_only=False)
    ws = wb.active
    ws.title = order_rules.FILE_TITLES[kind][:31]
    for c, title in enumerate(header, start=1):
        cell = ws.cell(row=1, column=c)
        put_text(cell, title)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(horizontal="center")
    widths = [len(h) + 2 for h in header]
    for r, order in enumerate(orders, start=2):
        values = order_rules.file_row(kind, order) + (list(extra[r - 2]) if extra else [])
        for c, value in enumerate(values, start=1):
            cell = ws.cell(row=r, column=c)
            if header[c - 1] in _NUMERIC and value != "":
                cell.value = Decimal(value)
                cell.number_format = "#,##0" if header[c - 1] == "Quantity" else "0.000"
            else:
                put_text(cell, value)
            widths[c - 1] = min(max(widths[c - 1], len(str(value)) + 2), 48)
    for c, width in enumerate(widths, start=1):
        ws.column_dimensions[ws.cell(row=1, column=c).column_letter].width = width
    ws.freeze_panes = "A2"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def csv_bytes(kind: str, orders: Iterable[order_rules.Order]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(order_rules.COLUMNS[kind])
    for order in orders:
        writer.writerow(order_rules.file_row(kind, order))
    return buffer.getvalue().encode("utf-8")


def build(kind: str, orders: Sequence[order_rules.Order]) -> tuple[bytes, str]:
    """(file bytes, media type) of the `kind` broker file."""
    if kind == order_rules.TRADE_FILE:
        return xlsx(kind, orders), XLSX
    return csv_bytes(kind, orders), CSV
