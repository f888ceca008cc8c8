"""The transaction rules (app.domain.transaction_rules): every form's validation with the spec's
texts, the delete and edit rules, the asset panel's filters, the units check and the upload file."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal as D

import pytest
from hypothesis import given, settings, strategies as st

from app.domain import ledger
from app.domain import transaction_rules as r
from app.domain.errors import ValidationError
from app.domain.recommendations import FileProblem, LineError
from app.domain.uploads import file_type_error
from app.domain.transactions import Cash, CashType, Kind, Status
from tests.factories import csv_bytes, xlsx_bytes
from tests.factories_portfolios import TRANSACTION_HEADER

UTC = timezone.utc
DAY = datetime(2026, 1, 5, tzinfo=UTC)


# ---- texts ----------------------------------------------------------------------------------------
def test_spec_texts_are_verbatim():
    assert r.TRANSACTION_ADDED == "Transaction added"
    assert r.TRANSACTION_UPDATED == "Transaction updated"
    assert r.TRANSACTION_CREATED == "Transaction created"
    assert r.TRANSACTION_REMOVED == "Transaction has been removed"
    assert r.OPENING_BALANCE_CHANGED == "Opening balance has been changed"
    assert r.FILE_UPLOADED == "File uploaded"
    assert r.INVALID_FILE_TYPE == "Invalid file type!"
    assert r.NOT_ENOUGH_ASSETS == "Not enough assets to sell"
    assert r.INVALID == "Please, fill all required fields with valid data"
    assert r.NOT_UPLOADED.format(lines="3, 7") == "Transactions are not uploaded due to line(s): 3, 7"
    assert r.DELETE_QUESTION == "Are you sure you want to delete this transaction?"
    assert r.PAGE_SIZES == (12, 24, 32) and r.DEFAULT_PAGE_SIZE == 12


# ---- form names --------------------------------------------------------------------------------
@pytest.mark.parametrize("name, kind", [
    ("purchase", Kind.ASSET_BUY), ("Buy", Kind.ASSET_BUY), ("asset_buy", Kind.ASSET_BUY), ("sell", Kind.PARCEL),
    ("parcel", Kind.PARCEL), ("Dividend", Kind.DIVIDEND), ("interest", Kind.INTEREST),
    ("Capital Return", Kind.CAPITAL_RETURN), ("capital-return", Kind.CAPITAL_RETURN),
    ("reconstruction", Kind.RECONSTRUCTION), ("withdrawal", None), ("td_buy", None), ("", None), (None, None),
])
def test_asset_kind(name, kind):
    assert r.asset_kind(name) is kind


def test_cash_forms():
    assert r.cash_form("Withdrawal") == (CashType.CASH, Cash.OUT)
    assert r.cash_form("credit") == (CashType.CASH, Cash.IN)
    assert r.cash_form("income") == (CashType.INCOME, Cash.IN)
    assert r.cash_form("cash", "decrease") == (CashType.CASH, Cash.OUT)
    assert r.cash_form("cash", "sideways") is None and r.cash_form("purchase") is None
    assert r.cash_form_name("cash", "decrease") == "withdrawal" and r.cash_form_name("income", "increase") == "income"
    assert r.cash_form_name("opening_balance", "increase") is None


# ---- dates ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, expected", [
    ("05/01/2026", DAY), ("2026-01-05", DAY), (date(2026, 1, 5), DAY), (datetime(2026, 1, 5), DAY),
    ("2026-01-05T10:00:00+10:00", DAY), ("2026-01-05T00:00:00Z", DAY),
    (datetime(2026, 1, 5, 20, tzinfo=timezone(timedelta(hours=10))), datetime(2026, 1, 5, 10, tzinfo=UTC)),
    ("", None), (None, None),
])
def test_parse_moment(value, expected):
    assert r.parse_moment(value) == expected


@pytest.mark.parametrize("value", ["31/02/2026", "yesterday", "2026-13-01", 20260105, "01/01/0001"])
def test_parse_moment_refuses(value):
    with pytest.raises(ValueError):
        r.parse_moment(value)


# ---- asset forms -------------------------------------------------------------------------------
def test_purchase_form():
    values, errors = r.clean_asset_form(Kind.ASSET_BUY, {
        "code": " bhp ", "trade_at": "05/01/2026", "quantity": "100", "price": 45.12, "fee": "19.95", "gst": "1.99",
        "settlement_date": "07/01/2026", "contract_note": "CN1", "order_id": "O-9", "limit_price": "45.2",
        "description": "first buy", "status": "Pending approval"})
    assert errors == {}
    assert values["code"] == "BHP" and values["asset_id"] is None and values["kind"] is Kind.ASSET_BUY
    assert values["quantity"] == D(100) and values["price"] == D("45.12") and values["fee"] == D("19.95")
    assert values["gst"] == D("1.99") and values["limit_price"] == D("45.2")
    assert values["trade_at"] == DAY and values["settlement_at"] == DAY + timedelta(days=2)
    assert values["status"] == "pending_approval" and values["description"] == "first buy"
    assert values["contract_note"] == "CN1" and values["order_id"] == "O-9"
    assert values["amount"] is None and values["ratio"] is None


def test_purchase_form_errors_use_the_shared_texts():
    _, errors = r.clean_asset_form(Kind.ASSET_BUY, {})
    assert errors == {"asset_id": "Please, select asset. ", "trade_at": "Please, enter date. ",
                      "quantity": "Please, enter quantity. ", "price": "Please, enter price. "}
    _, errors = r.clean_asset_form("parcel", {"asset_id": 3, "trade_at": "bad", "quantity": "0", "price": "-1",
                                              "fee": "1.999", "gst": "abc", "status": "lost"})
    assert errors == {"trade_at": "Please, enter a valid date format. ", "quantity": "Value has to be greater than 0.",
                      "price": "Please, enter positive value", "fee": "Max 2 decimals",
                      "gst": "Please, enter a valid number. ", "status": "Please, enter a valid value. "}
    _, errors = r.clean_asset_form(Kind.ASSET_BUY, {"asset_id": 1, "trade_at": "05/01/2026", "quantity": 1,
                                                    "price": 1, "settlement_at": "04/01/2026",
                                                    "contract_note": "x" * 81})
    assert errors == {"settlement_at": r.SETTLEMENT_BEFORE_TRADE, "contract_note": "Max length should be 80 characters. "}
    _, errors = r.clean_asset_form(Kind.ASSET_BUY, {"asset_id": 1, "trade_at": "05/01/2026", "quantity": "+1",
                                                    "price": "1e3"})
    assert errors == {"quantity": "Please, enter a valid number. ", "price": "Please, enter a valid number. "}


def test_quantities_keep_six_decimals_money_two():
    values, errors = r.clean_asset_form(Kind.ASSET_BUY, {"asset_id": 1, "trade_at": DAY, "quantity": "10.1234567",
                                                         "price": "0.0000004", "fee": "0"})
    # the quantity rounds half-up to 6 places; a price rounding to 0 is not above zero
    assert values["quantity"] == D("10.123457") and errors == {"price": "Value has to be greater than 0."}
    assert values["fee"] is None or values["fee"] == 0


def test_dividend_with_franking_credits():
    values, errors = r.clean_asset_form(Kind.DIVIDEND, {"asset_id": "7", "date": "2026-03-10", "amount": "70.00",
                                                        "franking_credits": "30.00", "ex_date": "01/03/2026",
                                                        "status": "pending"})
    assert errors == {}
    assert values["amount"] == D("70.00") and values["franking_credits"] == D("30.00") and values["asset_id"] == 7
    assert values["ex_date"] == datetime(2026, 3, 1, tzinfo=UTC)
    assert values["status"] == "executed"  # a dividend has no status of its own
    _, errors = r.clean_asset_form(Kind.DIVIDEND, {"asset_id": 7, "date": "2026-03-10", "amount": "70.00",
                                                   "franking_credits": "30.01"})
    assert errors == {"franking_credits": r.FRANKING_TOO_HIGH}
    _, errors = r.clean_asset_form(Kind.DIVIDEND, {"asset_id": 7, "date": "2026-03-10"})
    assert errors == {"amount": "Please, enter amount. "}


def test_interest_form():
    values, errors = r.clean_asset_form(Kind.INTEREST, {"asset_id": 7, "trade_at": DAY, "amount": "12.5",
                                                        "franking_credits": "4"})
    assert errors == {} and values["amount"] == D("12.5") and values["franking_credits"] is None


def test_capital_return_takes_an_amount_or_a_price_per_unit():
    values, errors = r.clean_asset_form(Kind.CAPITAL_RETURN, {"asset_id": 7, "trade_at": DAY, "amount": "150"})
    assert errors == {} and values["amount"] == D(150) and values["price"] is None
    values, errors = r.clean_asset_form(Kind.CAPITAL_RETURN, {"asset_id": 7, "trade_at": DAY, "price": "0.25"})
    assert errors == {} and values["amount"] is None and values["price"] == D("0.25")
    _, errors = r.clean_asset_form(Kind.CAPITAL_RETURN, {"asset_id": 7, "trade_at": DAY})
    assert errors == {"amount": "Please, enter amount. "}
    assert r.capital_return_amount(D(333), D("0.015")) == D("5.00")  # 4.995 half-up


@pytest.mark.parametrize("ratio, error", [
    ("1:2", None), ("10:1", None), ("99999:1", None), ("", "Please, enter ratio. "), ("0:1", "Please, enter a valid value. "),
    ("1:0", "Please, enter a valid value. "), ("1/2", "Please, enter a valid value. "),
    ("123456:1", "Please, enter a valid value. "), ("1.5:1", "Please, enter a valid value. "),
])
def test_reconstruction_ratio(ratio, error):
    values, errors = r.clean_asset_form(Kind.RECONSTRUCTION, {"asset_id": 7, "trade_at": DAY, "ratio": ratio})
    assert errors.get("ratio") == error
    if error is None:
        assert values["ratio"] == ratio and values["status"] == "executed"


def test_deposit_kinds_have_no_form_here():
    _, errors = r.clean_asset_form(Kind.TD_BUY, {"asset_id": 7, "trade_at": DAY})
    assert errors == {"type": "Please, enter a valid value. "}


# ---- cash forms --------------------------------------------------------------------------------
def test_cash_form():
    values, errors = r.clean_cash_form({"type": "withdrawal", "price": "250.00", "trade_at": "05/01/2026",
                                        "description": " rent ", "status": "pending"})
    assert errors == {}
    assert values == {"cash_type": CashType.CASH, "action": Cash.OUT, "price": D("250.00"), "trade_at": DAY,
                      "settlement_at": None, "status": "pending", "description": "rent"}
    values, _ = r.clean_cash_form({"type": "income", "amount": 10, "date": DAY})
    assert values["cash_type"] is CashType.INCOME and values["action"] is Cash.IN and values["status"] == "executed"
    _, errors = r.clean_cash_form({"price": "0", "trade_at": "x"})
    assert errors == {"type": "Please, select type. ", "price": "Value has to be greater than 0.",
                      "trade_at": "Please, enter a valid date format. "}
    _, errors = r.clean_cash_form({"type": "credit", "price": "10.001", "trade_at": DAY, "description": "d" * 501})
    assert errors == {"price": "Max 2 decimals", "description": "Max length should be 500 characters. "}


def test_opening_balance_form_and_changes():
    values, errors = r.clean_opening_balance({"price": "0", "trade_at": "01/01/2026"})
    assert errors == {} and values == {"price": D(0), "trade_at": datetime(2026, 1, 1, tzinfo=UTC)}
    _, errors = r.clean_opening_balance({})
    assert errors == {"price": "Please, enter amount. ", "trade_at": "Please, enter date. "}
    current = {"price": D("1000.00"), "trade_at": DAY}
    assert r.changed_fields(current, {"price": D(1000), "trade_at": DAY}) == {}
    assert r.changed_fields(current, {"price": D(1500), "trade_at": DAY}) == {"price": D(1500)}
    with pytest.raises(ValidationError) as caught:
        r.raise_if_invalid({"price": "x"})
    assert caught.value.message == r.INVALID and caught.value.fields == {"price": "x"}
    r.raise_if_invalid({})


# ---- delete and edit rules ------------------------------------------------------------------------
def test_delete_rules():
    assert r.delete_refusal(status="executed", cash_type="opening_balance") == r.NO_DELETE_OPENING_BALANCE
    assert r.delete_refusal(status="pending_approval") == r.NO_DELETE_PENDING_APPROVAL
    assert r.delete_refusal(status="executed", om_status="success") == r.NO_DELETE_OM_SUCCESS
    for status in ("pending", "executed", "processing", "processing_error"):
        assert r.can_delete(status=status, om_status="error", cash_type="cash")
    assert r.can_delete(status="executed", cash_type="linked")


def test_edit_rules():
    assert r.edit_refusal(status="pending") == r.NO_EDIT_PENDING
    assert r.edit_refusal(status="pending_approval") == r.NO_EDIT_PENDING_APPROVAL
    assert r.edit_refusal(status="executed", om_status="success") == r.NO_EDIT_OM_SUCCESS
    assert r.can_edit(status="executed") and r.can_edit(status="processing")
    assert r.new_transaction_question(status="processing_error") == r.ERROR_QUESTION
    assert r.new_transaction_question(status="processing", om_status="cancelled") == r.CANCELLED_QUESTION
    assert r.new_transaction_question(status="executed") is None


def test_cash_edit_rules():
    assert r.cash_edit_refusal(cash_type="opening_balance", status="executed", linked=False) == r.EDIT_IN_OPENING_BALANCE
    assert r.cash_edit_refusal(cash_type="linked", status="executed", linked=True) == r.EDIT_IN_ASSET_TRANSACTIONS
    assert r.cash_edit_refusal(cash_type="linked", status="executed", linked=True, deposit=True) == r.DEPOSIT_FORMS_ONLY
    assert r.cash_edit_refusal(cash_type="cash", status="pending_approval", linked=False) == r.NO_EDIT_PENDING_APPROVAL
    assert r.cash_edit_refusal(cash_type="income", status="pending", linked=False) is None


# ---- the asset panel --------------------------------------------------------------------------
def test_status_labels_and_display_quantity():
    assert r.status_label("asset_buy", "pending") == "Draft"
    assert r.status_label("parcel", "processing") == "Placed"
    assert r.status_label("parcel", "processing_error") == "Error"
    assert r.status_label("asset_buy", "executed") == "Executed"
    assert r.status_label("dividend", "executed") is None and r.status_label("reconstruction", "executed") is None
    assert r.display_quantity("parcel", D(40)) == D(-40) and r.display_quantity("asset_buy", D(40)) == D(40)
    assert r.display_quantity("dividend", None) is None


def test_panel_filters():
    every = r.panel_filter([])
    assert all(every.accepts(k.value, s.value) for k in (Kind.ASSET_BUY, Kind.DIVIDEND) for s in Status)
    draft = r.panel_filter(["draft"])
    assert draft.accepts("asset_buy", "pending") and not draft.accepts("asset_buy", "executed")
    assert not draft.accepts("dividend", "executed")
    pending = r.panel_filter(["pending"])
    assert pending.accepts("parcel", "pending_approval") and not pending.accepts("parcel", "pending")
    mixed = r.panel_filter(["executed", "dividend", "placed", "error", "nonsense"])
    assert mixed.accepts("parcel", "executed") and mixed.accepts("interest", "executed")
    assert mixed.accepts("parcel", "processing") and mixed.accepts("asset_buy", "processing_error")
    assert not mixed.accepts("asset_buy", "pending")
    typed = r.panel_filter([], ["sell", "dividend"])
    assert typed.accepts("parcel", "pending") and typed.accepts("dividend", "executed")
    assert not typed.accepts("asset_buy", "executed")


# ---- units ------------------------------------------------------------------------------------------
def _buy(day, units, price="10"):
    return r.ledger_trade("asset_buy", trade_day=day, quantity=D(units), price=D(price))


def _sell(day, units, price="12"):
    return r.ledger_trade("parcel", trade_day=day, quantity=D(units), price=D(price))


def test_ledger_trade_mapping():
    trade = r.ledger_trade("asset_buy", trade_day=date(2026, 1, 5), quantity=D(10), price=D(2), fee=D("9.95"),
                           gst=D("0.99"))
    assert trade == ledger.Trade("buy", date(2026, 1, 5), D(10), D(2), D("10.94"))
    assert r.ledger_trade("parcel", trade_day=date(2026, 1, 5), quantity=D(1), price=D(2)).kind == "sell"
    assert r.ledger_trade("capital_return", trade_day=date(2026, 1, 5), amount=D(5)).amount == D(5)
    assert r.ledger_trade("reconstruction", trade_day=date(2026, 1, 5), ratio="1:2").ratio == "1:2"
    for kind in ("dividend", "interest", "td_buy", "aca_income", "cash_increase"):
        assert r.ledger_trade(kind, trade_day=date(2026, 1, 5), amount=D(5)) is None


def test_units_book_checks_in_order():
    d1, d2, d3 = date(2026, 1, 5), date(2026, 2, 5), date(2026, 3, 5)
    book = r.UnitsBook({1: [_buy(d1, 100)]})
    book.check(1, _sell(d2, 100))
    with pytest.raises(ValidationError, match="^Not enough assets to sell$"):
        book.check(1, _sell(d2, 101))
    with pytest.raises(ValidationError, match="^Not enough assets to sell$"):
        book.check(2, _sell(d2, 1))  # nothing held
    book.add(1, _sell(d2, 60))
    with pytest.raises(ValidationError, match="^Not enough assets to sell$"):
        book.check(1, _sell(d3, 41))  # the earlier sell took 60
    with pytest.raises(ValidationError, match="^Not enough assets to sell$"):
        book.check(1, _buy(d1, 0) and _sell(date(2026, 1, 4), 1))  # before the first buy nothing is held
    book.add(1, _buy(d3, 10))
    assert book.held_on(1, d2) == D(40) and book.held_on(1, d3) == D(50) and book.held_on(1, date(2025, 1, 1)) == 0
    book.check(1, None)  # a kind without units passes
    with pytest.raises(ValidationError, match="^Please, enter a valid value. $"):
        book.check(1, r.ledger_trade("reconstruction", trade_day=d3, ratio="0:1"))


# ---- the upload file ---------------------------------------------------------------------------
def test_parse_upload_csv():
    data = csv_bytes([
        ("05/01/2026", "Purchase", "bhp", "100", "$45.00", "19.95", "", "", "", "first"),
        ("2026-02-05", "sell", "BHP", "40", "50", "19.95", "", "", "", ""),
        ("10/03/2026", "dividend", "BHP", "", "", "", "$1,050.00", "450.00", "", ""),
        ("", "", "", "", "", "", "", "", "", ""),  # blank lines are skipped but keep the numbering
        ("12/03/2026", "reconstruction", "BHP", "", "", "", "", "", "1:2", ""),
        ("13/03/2026", "Withdrawal", "", "", "", "", "500", "", "", "rent"),
        ("14/03/2026", "capital return", "BHP", "", "0.5", "", "", "", "", ""),
    ], TRANSACTION_HEADER)
    lines, errors = r.parse_upload(data)
    assert errors == []
    assert [(l.line, l.form, l.kind, l.code) for l in lines] == [
        (2, "purchase", Kind.ASSET_BUY, "BHP"), (3, "sell", Kind.PARCEL, "BHP"), (4, "dividend", Kind.DIVIDEND, "BHP"),
        (6, "reconstruction", Kind.RECONSTRUCTION, "BHP"), (7, "withdrawal", None, None),
        (8, "capital_return", Kind.CAPITAL_RETURN, "BHP")]
    assert lines[0].values["price"] == D(45) and lines[0].values["description"] == "first"
    assert lines[2].values["amount"] == D(1050) and lines[2].values["franking_credits"] == D(450)
    assert lines[4].cash == (CashType.CASH, Cash.OUT) and lines[4].values["price"] == D(500)
    assert lines[5].values["price"] == D("0.5")


def test_parse_upload_reports_every_wrong_line():
    data = csv_bytes([
        ("05/01/2026", "purchase", "BHP", "100", "45", "", "", "", "", ""),
        ("31/02/2026", "purchase", "BHP", "100", "45", "", "", "", "", ""),
        ("05/01/2026", "swap", "BHP", "", "", "", "", "", "", ""),
        ("05/01/2026", "sell", "", "-5", "45", "", "", "", "", ""),
        ("05/01/2026", "reconstruction", "BHP", "", "", "", "", "", "2-1", ""),
        ("05/01/2026", "credit", "", "", "", "", "", "", "", ""),
        ("05/01/2026", "", "BHP", "", "", "", "", "", "", ""),
    ], TRANSACTION_HEADER)
    lines, errors = r.parse_upload(data)
    assert [l.line for l in lines] == [2]
    assert [(e.line, e.text) for e in errors] == [
        (3, "date: Please, enter a valid date format."),
        (4, "type: unknown type swap"),
        (5, "code: Please, enter asset code."), (5, "quantity: Please, enter positive value"),
        (6, "ratio: Please, enter a valid value."),
        (7, "amount: Please, enter amount."),
        (8, "type: Please, select type."),
    ]
    failure = r.upload_failure(errors)
    assert failure.message == "Transactions are not uploaded due to line(s): 3, 4, 5, 6, 7, 8"
    assert failure.fields["5"] == "code: Please, enter asset code.; quantity: Please, enter positive value"
    assert set(failure.fields) == {"3", "4", "5", "6", "7", "8"}


def test_upload_failure_names_at_most_fifty_lines():
    failure = r.upload_failure([LineError(n, "x") for n in range(60, 1, -1)])
    assert failure.message == ("Transactions are not uploaded due to line(s): "
                               + ", ".join(str(n) for n in range(2, 52)) + " and 9 more")
    assert len(failure.fields) == 59


def test_parse_upload_xlsx_with_real_dates_and_numbers():
    header = ("Trade Date", "Transaction Type", "Asset Code", "Units", "Unit Price", "Brokerage", "Amount",
              "Franking Credits", "Status")
    data = xlsx_bytes([
        (datetime(2026, 1, 5), "Buy", "cba", 10, 120.5, 9.95, None, None, "pending"),
        (date(2026, 1, 6), "Interest", "CBA", None, None, None, 12.34, None, None),
        ("07/01/2026", "Income", None, None, None, None, 100, None, "executed"),
    ], header)
    lines, errors = r.parse_upload(data)
    assert errors == []
    assert lines[0].values["trade_at"] == DAY and lines[0].values["price"] == D("120.5")
    assert lines[0].values["fee"] == D("9.95") and lines[0].values["status"] == "pending"
    assert lines[1].values["amount"] == D("12.34") and lines[1].values["trade_at"] == DAY + timedelta(days=1)
    assert lines[2].cash == (CashType.INCOME, Cash.IN) and lines[2].values["price"] == D(100)


@pytest.mark.parametrize("data, text", [
    (b"", r.FILE_NO_TRANSACTIONS),
    (b"date,type\n", r.FILE_NO_TRANSACTIONS),
    (b"\n\n", r.FILE_NO_TRANSACTIONS),
    (b"code,quantity\nBHP,1\n", "The header row must name the columns date, type, code, quantity, price, fee, gst, "
                                "amount, franking_credits, ratio, description, status (missing: date, type)"),
    (b"PK\x03\x04garbage", "The file could not be read: upload a CSV file or an Excel workbook (.xlsx)"),
])
def test_parse_upload_file_problems(data, text):
    with pytest.raises(FileProblem) as caught:
        r.parse_upload(data)
    assert str(caught.value) == text


def test_upload_file_types():
    for ok in ("text/csv", "application/vnd.ms-excel", "application/octet-stream", "", None,
               "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"):
        assert file_type_error(ok) is None
    assert file_type_error("image/png") == "Invalid file type!"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_any_bytes(data):
    try:
        lines, errors = r.parse_upload(data)
    except FileProblem as problem:
        assert str(problem)
        return
    assert all(isinstance(e, LineError) and e.line >= 2 for e in errors)
    assert {l.line for l in lines}.isdisjoint({e.line for e in errors})


_cell = st.one_of(st.sampled_from(["", "BHP", "buy", "sell", "dividend", "credit", "05/01/2026", "1:2", "-1", "1.5",
                                   "abc", "2026-13-01", "$1,000.50"]), st.text(max_size=6))


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(_cell, min_size=4, max_size=10), max_size=8))
def test_fuzz_text_tables(rows):
    data = csv_bytes([[c.replace(",", "").replace("\n", "").replace("\r", "").replace('"', "") for c in row]
                      for row in rows], TRANSACTION_HEADER)
    try:
        lines, errors = r.parse_upload(data)
    except FileProblem:
        return
    for line in lines:
        assert line.values["trade_at"] is not None and (line.kind is None) != (line.cash is None)
        if line.kind is not None:
            assert line.code == line.code.upper()
