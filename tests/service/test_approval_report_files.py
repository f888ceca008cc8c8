"""The approval report's files (001 s7 downloads): the two Excel variants under their own names, and
trades sent to the broker named as their orders are (Placed, Executed), never 'Approved', on the
screen, in the Excel file and in the PDF, read back as their receiver reads them."""
from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.db.tables import AssetTransaction
from app.services import trade_approval_report as report
from tests.factories import actor, update_row
from tests.factories_advice import make_trade, make_trade_instruction
from tests.factories_assets import make_asset, make_class
from tests.factories_portfolios import cash, make_portfolio_world, post


@pytest.fixture
def book(db):
    """Approved trades of one portfolio: CBA not sent, BHP placed with the broker, WES executed, CSL
    rejected by the broker (offered again: Approved)."""
    w = make_portfolio_world()
    equities = make_class("Australian Equities")
    a = {code: make_asset(code, equities, name=code, last_close_price=D(price)) for code, price in
         (("BHP", "45.10"), ("CBA", "120.00"), ("WES", "60.00"), ("CSL", "280.00"))}
    cash(w.portfolio, "100000.00")
    ti = make_trade_instruction(w.portfolio.id, validated=True).id
    trades = {code: make_trade(ti, a[code], "increase", "10").id for code in ("CBA", "BHP", "WES", "CSL")}
    for code, status in (("BHP", "processing"), ("WES", "executed"), ("CSL", "processing_error")):
        row = post(w.portfolio, "asset_buy", status=status, asset_id=a[code].id, quantity="10",
                   price=a[code].last_close_price, fee="19.95")
        update_row(AssetTransaction, row.id, trade_transaction_id=trades[code])
    return w


def test_trades_with_the_broker_are_named_as_their_orders(book):
    [group] = report.generate(actor=actor(book.adviser), statuses=["sad"])
    labels = {item.asset_code: item.tr_status_label for item in group.items}
    assert labels == {"CBA": "Approved", "BHP": "Placed", "WES": "Executed", "CSL": "Approved"}

    pdf = report.export(actor=actor(book.adviser), file_format="pdf", statuses=["sad"])
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.data)).pages)
    cells = [line.strip() for line in text.splitlines()]
    # each row's cells: code, action, quantity, price, value, status
    shown = {code: cells[cells.index(code) + 5] for code in ("CBA", "BHP", "WES", "CSL")}
    assert shown == labels

    xlsx = report.export(actor=actor(book.adviser), file_format="xlsx", statuses=["sad"], mode="standart")
    sheet = load_workbook(io.BytesIO(xlsx.data)).active
    header = [c.value for c in sheet[1]]
    by_code = {row[header.index("Code")]: row[header.index("Item status")] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert by_code == labels


def test_the_two_excel_variants_have_their_own_names(book):
    standard = report.export(actor=actor(book.adviser), file_format="xlsx", statuses=["sad"], mode="standart")
    simple = report.export(actor=actor(book.adviser), file_format="xlsx", statuses=["sad"], mode="simple")
    pdf = report.export(actor=actor(book.adviser), file_format="pdf", statuses=["sad"])
    assert len({standard.name, simple.name, pdf.name}) == 3
    assert standard.name.startswith("Trade Recommendations - ") and standard.name.endswith(".xlsx")
    assert simple.name.startswith("Trade Recommendations - Simple - ") and simple.name.endswith(".xlsx")
    assert [c.value for c in load_workbook(io.BytesIO(simple.data)).active[1]][:2] == ["Portfolio", "Code"]
