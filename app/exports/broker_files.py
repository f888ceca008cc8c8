"""Broker files: pure builders over `app.domain.orders.Order` rows (layouts in app.domain.orders).

The trade file is an Excel workbook; the Desktop Broker and AUSIEX files are CSV, as their
bulk-order imports take them. Every cell is written as text or a number, never as a formula: a
text cell that starts with = + - @ stays text in Excel.
"""
from __future__ import annotations

import csv
import io
from decimal import Decimal
from itertools import chain, islice
from typing import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.styles import Alignment, Font, PatternFill

from app.domain import orders as order_rules
from app.exports import xlsx_stream

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
_NUMERIC = {"Quantity", "Limit Price", "Trigger Price"}
_HEADER_FILL = PatternFill("solid", fgColor="1F3A5F")


def put_text(cell, value: str) -> None:
    """A text cell that Excel never runs as a formula."""
    cell.value = value
    cell.data_type = "s"


def xlsx(kind: str, orders: Iterable[order_rules.Order], *, extra_header: Sequence[str] = (),
         extra: Iterable[Sequence[str]] = ()) -> bytes:
    """The `kind` workbook of `orders` (an iterable, consumed once: a firm's file holds tens of
    thousands of orders, streamed into the sheet by app.exports.xlsx_stream)."""
    header = list(order_rules.COLUMNS[kind]) + list(extra_header)
    numeric = [name in _NUMERIC for name in header]
    extras = iter(extra) if extra_header else None

    def cells(order: order_rules.Order) -> list:
        values = order_rules.file_row(kind, order) + (list(next(extras)) if extras is not None else [])
        return [Decimal(v) if numeric[c] and v != "" else v for c, v in enumerate(values)]

    stream = (cells(o) for o in orders)
    first = list(islice(stream, 200))  # column widths from the first rows
    widths = [len(h) + 2 for h in header]
    for values in first:
        for c, value in enumerate(values):
            widths[c] = min(max(widths[c], len(str(value)) + 2), 48)
    wb = Workbook()
    ws = wb.active
    ws.title = order_rules.FILE_TITLES[kind][:31]
    for c, (title, width) in enumerate(zip(header, widths), start=1):
        cell = ws.cell(row=1, column=c)
        put_text(cell, title)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(horizontal="center")
        ws.column_dimensions[get_column_letter(c)].width = width
    ws.freeze_panes = "A2"
    return xlsx_stream.with_rows(wb, chain(first, stream), first_row=2, columns=len(header))


def csv_bytes(kind: str, orders: Iterable[order_rules.Order]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(order_rules.COLUMNS[kind])
    for order in orders:
        writer.writerow(order_rules.file_row(kind, order))
    return buffer.getvalue().encode("utf-8")


def build(kind: str, orders: Iterable[order_rules.Order]) -> tuple[bytes, str]:
    """(file bytes, media type) of the `kind` broker file."""
    if kind == order_rules.TRADE_FILE:
        return xlsx(kind, orders), XLSX
    return csv_bytes(kind, orders), CSV
