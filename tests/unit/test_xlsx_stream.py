"""Streamed workbook rows (app.exports.xlsx_stream) and the broker workbook built on them, read
back with openpyxl."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from openpyxl import Workbook, load_workbook

from app.domain import orders as order_rules
from app.exports import broker_files, xlsx_stream


def _read(data: bytes):
    return load_workbook(io.BytesIO(data)).active


def test_rows_keep_text_as_text_and_numbers_as_numbers():
    wb = Workbook()
    wb.active.append(["Name", "Amount", "Note"])
    rows = [["=SUM(A1:A9)", Decimal("1234.50"), "+61 400"],
            ["-minus", 7, "@at"],
            [" padded ", None, "a & b < c > d"],
            ["bell\x07gone", Decimal("1E+3"), ""]]
    ws = _read(xlsx_stream.with_rows(wb, iter(rows), first_row=2, columns=3))
    values = [[c.value for c in row] for row in ws.iter_rows(min_row=2)]
    assert values == [["=SUM(A1:A9)", 1234.5, "+61 400"], ["-minus", 7, "@at"],
                      [" padded ", None, "a & b < c > d"], ["bellgone", 1000, None]]
    assert ws["A2"].data_type == "s" and ws["C3"].data_type == "s"
    assert ws["B2"].data_type == "n"
    assert ws.max_row == 5 and ws.max_column == 3


def test_no_rows_leaves_the_header():
    wb = Workbook()
    wb.active.append(["Only"])
    ws = _read(xlsx_stream.with_rows(wb, [], first_row=2, columns=1))
    assert [[c.value for c in row] for row in ws.iter_rows()] == [["Only"]]


def test_broker_workbook_header_and_orders():
    order = order_rules.Order(
        reference="WA17", portfolio_name="=Smith Family", hin="0012345678", broker_account="B-77",
        broker_name="Desktop Broker", side="BUY", code="BHP", quantity=Decimal("120"), order_type="LIMIT",
        limit_price=Decimal("45.125"), expiry=date(2026, 12, 1), row_type="New", adviser_name="James Nguyen",
        adviser_code="HWP001")
    data = broker_files.xlsx(order_rules.TRADE_FILE, [order, order])
    ws = _read(data)
    header = [c.value for c in ws[1]]
    assert header == list(order_rules.COLUMNS[order_rules.TRADE_FILE])
    assert ws["A1"].font.bold and ws.freeze_panes == "A2"
    row = dict(zip(header, [c.value for c in ws[2]]))
    assert row["Quantity"] == 120 and row["Limit Price"] == 45.125
    assert ws["A2"].value == "=Smith Family" and ws["A2"].data_type == "s"
    assert ws.max_row == 3
