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
from openpyxl.cell import WriteOnlyCell
from openpyxl.utils import get_column_letter
from openpyxl.styles import Alignment, Font, PatternFill

from app.domain import orders as order_rules

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
_NUMERIC = {"Quantity", "Limit Price"}
_HEADER_FILL = PatternFill("solid", fgColor="1F3A5F")
_FORMULA_START = ("=", "+", "-", "@")


def put_text(cell, value: str) -> None:
    """A text cell that Excel never runs as a formula."""
    cell.value = value
    cell.data_type = "s"


def xlsx(kind: str, orders: Sequence[order_rules.Order], *, extra_header: Sequence[str] = (),
         extra: Sequence[Sequence[str]] = ()) -> bytes:
    """A write-only workbook (streamed rows: a firm's file holds tens of thousands of orders)."""
    header = list(order_rules.COLUMNS[kind]) + list(extra_header)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(order_rules.FILE_TITLES[kind][:31])
    widths = [len(h) + 2 for h in header]
    rows = [order_rules.file_row(kind, o) + (list(extra[n]) if extra else []) for n, o in enumerate(orders)]
    for values in rows[:200]:  # column widths from the first rows
        for c, value in enumerate(values):
            widths[c] = min(max(widths[c], len(str(value)) + 2), 48)
    for c, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = width
    ws.freeze_panes = "A2"
    head_cells = []
    for title in header:
        cell = WriteOnlyCell(ws)
        put_text(cell, title)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(horizontal="center")
        head_cells.append(cell)
    ws.append(head_cells)
    numeric = [name in _NUMERIC for name in header]
    for values in rows:
        out: list = []
        for c, value in enumerate(values):
            if numeric[c] and value != "":
                out.append(Decimal(value))
            elif value[:1] in _FORMULA_START:  # only such text needs a cell forced to text
                cell = WriteOnlyCell(ws)
                put_text(cell, value)
                out.append(cell)
            else:
                out.append(value)
        ws.append(out)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


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
