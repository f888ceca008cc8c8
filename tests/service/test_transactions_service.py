"""Cash transactions, the opening balance and asset transactions (app.services.transactions) on a
real database: every form, statuses and totals, the delete and edit rules, the error flow, the
asset panel, permissions, atomicity and (PostgreSQL) two concurrent sells."""
from __future__ import annotations

import threading
from datetime import date, datetime, timezone
from decimal import Decimal as D

import pytest
from sqlmodel import func, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, CashTransaction, Portfolio
from app.domain import transaction_rules as rules
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.services import postings
from app.services import transactions as typed
from tests.transactions_edge import tx
from tests import factories as f
from tests.factories_assets import make_asset
from tests.factories_portfolios import cash, make_deposit, make_portfolio_world, post

UTC = timezone.utc


@pytest.fixture
def w(db):
    return make_portfolio_world()


@pytest.fixture
def bhp(db):
    return make_asset("BHP", name="BHP Group Limited", last_close_price=D("50.00"),
                      last_close_date=datetime(2026, 4, 1, tzinfo=UTC))


def staff(w):
    return f.actor(w.adviser)


def counts(portfolio_id: int) -> tuple[int, int]:
    with session_scope() as s:
        a = s.exec(select(func.count()).select_from(AssetTransaction).where(AssetTransaction.investment_id == portfolio_id)).one()
        c = s.exec(select(func.count()).select_from(CashTransaction).where(CashTransaction.investment_id == portfolio_id)).one()
    return a, c


def book(portfolio_id: int) -> postings.Book:
    with session_scope() as s:
        return postings.book(s, s.get(Portfolio, portfolio_id))


def add(w, **data):
    return tx.add_asset_transaction(actor=staff(w), data={"investment_id": w.portfolio.id, **data})


def buy(w, asset, quantity="100", price="30.00", day="05/01/2026", **extra):
    return add(w, type="purchase", asset_id=asset.id, quantity=quantity, price=price, trade_at=day, **extra)


def sell(w, asset, quantity, price="40.00", day="05/02/2026", **extra):
    return add(w, type="sell", asset_id=asset.id, quantity=quantity, price=price, trade_at=day, **extra)


def invalid(call) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value


# ---- cash transactions ---------------------------------------------------------------------------
def test_cash_forms_list_and_totals_count_only_executed(w):
    a = staff(w)
    pid = w.portfolio.id
    ob = tx.set_opening_balance(actor=a, investment_id=pid, data={"price": "10000", "trade_at": "01/01/2026"})
    assert ob["notice"] == "Opening balance has been changed" and ob["changed"] is True and ob["price"] == "10000.00"
    made = tx.create_cash_transaction(actor=a, data={"investment_id": pid, "type": "credit", "price": "500",
                                                     "trade_at": "02/01/2026", "description": "top up"})
    assert made["notice"] == "Transaction added" and made["class"] == "Credit" and made["form"] == "credit"
    assert made["amount"] == "500.00" and made["description"] == "top up" and made["can_delete"] is True
    tx.create_cash_transaction(actor=a, data={"investment_id": pid, "type": "withdrawal", "price": "200.50",
                                              "trade_at": "03/01/2026"})
    tx.create_cash_transaction(actor=a, data={"investment_id": pid, "type": "income", "amount": "75.25",
                                              "trade_at": "04/01/2026"})
    for status in ("pending", "pending_approval", "processing", "processing_error"):
        tx.create_cash_transaction(actor=a, data={"investment_id": pid, "type": "withdrawal", "price": "1000",
                                                  "trade_at": "06/01/2026", "status": status})
    page = tx.list_cash_transactions(actor=a, investment_id=pid)
    assert page["count"] == 8 and len(page["rows"]) == 8 and page["limit"] == 12
    # totals ignore pending, pending approval, processing and processing error
    assert page["cash_in"] == "10575.25" and page["cash_out"] == "200.50" and page["balance"] == "10374.75"
    assert book(pid).cash_balance == D("10374.75")
    rows = page["rows"]
    assert [r["trade_at"][:10] for r in rows] == ["2026-01-06"] * 4 + ["2026-01-04", "2026-01-03", "2026-01-02", "2026-01-01"]
    assert [r["class"] for r in rows[4:]] == ["Income", "Withdrawal", "Credit", "Opening Balance"]
    assert rows[5]["amount"] == "-200.50" and rows[5]["price"] == "200.50"
    assert sorted(r["status_label"] for r in rows[:4]) == ["Pending", "Pending approval", "Processing", "Processing error"]
    assert rows[-1]["can_delete"] is False and rows[-1]["can_edit"] is False  # the opening balance
    pending_approval = next(r for r in rows if r["status"] == "pending_approval")
    assert pending_approval["can_delete"] is False and pending_approval["counted"] is False
    oldest_first = tx.list_cash_transactions(actor=a, investment_id=pid, reverse="false")
    assert oldest_first["rows"][0]["class"] == "Opening Balance"


def test_cash_list_paging(w):
    a = staff(w)
    for day in range(1, 31):
        cash(w.portfolio, "10.00", day=date(2026, 1, day))
    first = tx.list_cash_transactions(actor=a, investment_id=w.portfolio.id)
    assert first["count"] == 30 and len(first["rows"]) == 12 and first["rows"][0]["trade_at"][:10] == "2026-01-30"
    third = tx.list_cash_transactions(actor=a, investment_id=w.portfolio.id, page=3)
    assert len(third["rows"]) == 6 and third["rows"][-1]["trade_at"][:10] == "2026-01-01"
    assert len(tx.list_cash_transactions(actor=a, investment_id=w.portfolio.id, limit=24)["rows"]) == 24
    assert len(tx.list_cash_transactions(actor=a, investment_id=w.portfolio.id, limit=32)["rows"]) == 30
    assert tx.list_cash_transactions(actor=a, investment_id=w.portfolio.id, limit=500)["limit"] == 12  # not offered
    by_offset = tx.list_cash_transactions(actor=a, investment_id=w.portfolio.id, offset=29)
    assert [r["trade_at"][:10] for r in by_offset["rows"]] == ["2026-01-01"]


def test_linked_rows_take_their_class_from_the_asset_transaction(w, bhp):
    buy(w, bhp)
    sell(w, bhp, "10")
    add(w, type="dividend", asset_id=bhp.id, amount="70.00", franking_credits="30.00", trade_at="10/03/2026",
        ex_date="01/03/2026")
    add(w, type="interest", asset_id=bhp.id, amount="5.00", trade_at="11/03/2026")
    add(w, type="capital_return", asset_id=bhp.id, amount="45.00", trade_at="12/03/2026")
    deposit = make_deposit(w.portfolio)
    post(w.portfolio, "td_buy", deposit_id=deposit.id, amount="2000.00", day="2026-03-13")
    post(w.portfolio, "td_income", deposit_id=deposit.id, amount="12.00", day="2026-03-14")
    rows = tx.list_cash_transactions(actor=staff(w), investment_id=w.portfolio.id)["rows"]
    # a term deposit's income is interest; Interest Income is a deposit sell's (below)
    assert [r["class"] for r in rows] == ["Interest", "Buy", "Capital Return", "Interest", "Dividend", "Sell", "Buy"]
    dividend = rows[4]
    assert dividend["payload"] == {"description": None, "ex_date": "2026-03-01T00:00:00+00:00", "franking_credits": "30.00"}
    assert dividend["linked_transaction"]["asset"] == {"id": bhp.id, "code": "BHP", "name": "BHP Group Limited"}
    assert dividend["linked_transaction"]["type_label"] == "Dividend" and dividend["can_edit"] is False
    deposit_row = rows[1]
    assert deposit_row["linked_transaction"]["deposit"]["deal_id"] == deposit.deal_id
    assert deposit_row["can_delete"] is False and deposit_row["can_edit"] is False
    assert rows[6]["price"] == "3000.00" and rows[5]["price"] == "400.00"


def test_opening_balance_unchanged_form_writes_nothing_and_changes_only_what_changed(w):
    a = staff(w)
    pid = w.portfolio.id
    assert tx.get_opening_balance(actor=a, investment_id=pid) is None
    first = tx.set_opening_balance(actor=a, investment_id=pid, data={"price": "1000", "trade_at": "2026-01-01"})
    with session_scope() as s:
        stamp = s.get(CashTransaction, first["id"]).updated_at
    same = tx.set_opening_balance(actor=a, investment_id=pid, data={"price": 1000.0, "trade_at": "01/01/2026"})
    assert same["changed"] is False and same["changed_fields"] == [] and same["notice"] == rules.OPENING_BALANCE_CHANGED
    with session_scope() as s:
        assert s.get(CashTransaction, first["id"]).updated_at == stamp
    changed = tx.set_opening_balance(actor=a, investment_id=pid, data={"price": "1500.5", "trade_at": "01/01/2026"})
    assert changed["changed"] is True and changed["changed_fields"] == ["price"] and changed["id"] == first["id"]
    assert tx.get_opening_balance(actor=a, investment_id=pid) == {
        "id": first["id"], "investment_id": pid, "price": "1500.50", "trade_at": "2026-01-01T00:00:00+00:00"}
    error = invalid(lambda: tx.set_opening_balance(actor=a, investment_id=pid, data={"price": "-1"}))
    assert error.message == rules.INVALID
    assert error.fields == {"price": "Please, enter positive value", "trade_at": "Please, enter date. "}
    assert counts(pid) == (0, 1)


def test_cash_update_and_delete_rules(w, bhp):
    a = staff(w)
    pid = w.portfolio.id
    made = tx.create_cash_transaction(actor=a, data={"investment_id": pid, "type": "withdrawal", "price": "100",
                                                     "trade_at": "02/01/2026", "description": "fees"})
    changed = tx.update_cash_transaction(actor=a, transaction_id=made["id"], data={"type": "credit", "price": "120"})
    assert changed["notice"] == "Transaction updated" and changed["class"] == "Credit" and changed["price"] == "120.00"
    assert changed["description"] == "fees" and changed["trade_at"].startswith("2026-01-02")
    renamed = tx.update_cash_transaction(actor=a, transaction_id=made["id"], data={"payload": {"description": "rent"}})
    assert renamed["description"] == "rent" and renamed["price"] == "120.00"
    error = invalid(lambda: tx.update_cash_transaction(actor=a, transaction_id=made["id"], data={"price": "abc"}))
    assert error.fields == {"price": "Please, enter a valid number. "}

    ob = tx.set_opening_balance(actor=a, investment_id=pid, data={"price": "10", "trade_at": "01/01/2026"})
    assert invalid(lambda: tx.update_cash_transaction(actor=a, transaction_id=ob["id"], data={"price": "5"})).message \
        == rules.EDIT_IN_OPENING_BALANCE
    assert invalid(lambda: tx.delete_cash_transaction(actor=a, transaction_id=ob["id"])).message \
        == rules.NO_DELETE_OPENING_BALANCE
    waiting = tx.create_cash_transaction(actor=a, data={"investment_id": pid, "type": "credit", "price": "1",
                                                        "trade_at": "02/01/2026", "status": "pending_approval"})
    assert invalid(lambda: tx.delete_cash_transaction(actor=a, transaction_id=waiting["id"])).message \
        == rules.NO_DELETE_PENDING_APPROVAL
    bought = buy(w, bhp)
    assert invalid(lambda: tx.update_cash_transaction(actor=a, transaction_id=bought["linked_transaction_id"],
                                                      data={"price": "1"})).message == rules.EDIT_IN_ASSET_TRANSACTIONS
    # deleting the cash side of a purchase deletes the purchase with it
    assert tx.delete_cash_transaction(actor=a, transaction_id=bought["linked_transaction_id"]) == {
        "notice": "Transaction has been removed"}
    assert counts(pid) == (0, 3)
    # ... unless order management executed it
    done = buy(w, bhp)
    with session_scope() as s:
        row = s.get(AssetTransaction, done["id"])
        row.om_status = "success"
        s.add(row)
    assert invalid(lambda: tx.delete_cash_transaction(actor=a, transaction_id=done["linked_transaction_id"])).message \
        == rules.NO_DELETE_OM_SUCCESS
    assert tx.delete_cash_transaction(actor=a, transaction_id=made["id"])["notice"] == rules.TRANSACTION_REMOVED
    with pytest.raises(NotFound, match="^Transaction not found$"):
        tx.delete_cash_transaction(actor=a, transaction_id=made["id"])


# ---- asset transactions: every form ----------------------------------------------------------------
def test_every_asset_form_moves_units_and_cash(w, bhp):
    pid = w.portfolio.id
    cash(w.portfolio, "10000.00", day="2026-01-01")
    bought = buy(w, bhp, "100", "30.00", fee="9.95", gst="0.99", settlement_at="07/01/2026", contract_note="CN-1",
                 order_id="ORD-1", limit_price="30.10", description="initial")
    assert bought["notice"] == "Transaction added" and "message" not in bought
    assert bought["status"] == "executed" and bought["status_label"] == "Executed" and bought["action"] == "buy"
    assert bought["amount"] == "3010.94" and bought["cost"] == "3010.94" and bought["value"] == "3000.00"
    assert bought["unit_cost"] == "30.1094" and bought["display_quantity"] == "100"
    assert (bought["contract_note"], bought["order_id"], bought["limit_price"], bought["gst"]) == ("CN-1", "ORD-1", "30.1", "0.99")
    assert bought["settlement_at"].startswith("2026-01-07") and bought["description"] == "initial"
    assert bought["code"] == "BHP" and bought["linked_transaction_id"] is not None and bought["can_edit"] is True
    sold = add(w, type="sell", code="bhp", quantity="40", price="35", fee="10", trade_at="05/02/2026")
    assert sold["action"] == "sell" and sold["display_quantity"] == "-40" and sold["amount"] == "1390.00"
    dividend = add(w, type="dividend", asset_id=bhp.id, amount="42.00", franking_credits="18.00", trade_at="10/03/2026")
    assert dividend["status_label"] is None and dividend["franking_credits"] == "18.00"
    add(w, type="interest", asset_id=bhp.id, amount="3.50", trade_at="11/03/2026")
    per_unit = add(w, type="capital_return", asset_id=bhp.id, price="0.50", trade_at="12/03/2026")
    assert per_unit["amount"] == "30.00" and per_unit["quantity"] == "60"  # 60 held x 0.50
    recon = add(w, type="reconstruction", asset_id=bhp.id, ratio="1:2", trade_at="13/03/2026")
    assert recon["ratio"] == "1:2" and recon["linked_transaction_id"] is None and "message" not in recon
    b = book(pid)
    assert b.positions[bhp.id].units == D(30)
    assert b.cash_balance == D("10000.00") - D("3010.94") + D("1390.00") + D("42.00") + D("3.50") + D("30.00")
    # FIFO: 40 of the parcel (3010.94 x 40/100 = 1204.38) sold for 1390.00
    assert b.positions[bhp.id].realised_gain == D("1390.00") - D("1204.38")
    assert counts(pid) == (6, 6)


def test_a_sell_beyond_the_units_held_writes_nothing(w, bhp):
    buy(w, bhp, "100")
    before = counts(w.portfolio.id)
    error = invalid(lambda: sell(w, bhp, "101"))
    assert error.message == "Not enough assets to sell"
    assert invalid(lambda: sell(w, bhp, "10", day="04/01/2026")).message == "Not enough assets to sell"  # before the buy
    assert invalid(lambda: sell(w, bhp, "101", status="pending")).message == "Not enough assets to sell"
    other = make_asset("CBA")
    assert invalid(lambda: sell(w, other, "1")).message == "Not enough assets to sell"
    assert counts(w.portfolio.id) == before
    sell(w, bhp, "100")
    assert book(w.portfolio.id).positions[bhp.id].units == 0


def test_form_errors_and_unknown_assets(w, bhp):
    error = invalid(lambda: add(w, type="purchase", trade_at="x", quantity="0"))
    assert error.message == "Please, fill all required fields with valid data"
    assert error.fields == {"asset_id": "Please, select asset. ", "trade_at": "Please, enter a valid date format. ",
                            "quantity": "Value has to be greater than 0.", "price": "Please, enter price. "}
    assert invalid(lambda: add(w, type="swap")).fields == {"type": "Please, select type. "}
    assert invalid(lambda: add(w, type="purchase", code="zzz", quantity=1, price=1, trade_at="05/01/2026")).fields == {
        "code": "unknown asset code ZZZ"}
    private = make_asset("OWN", firm=w.other_firm)  # another firm's private asset is not usable here
    assert invalid(lambda: add(w, type="purchase", asset_id=private.id, quantity=1, price=1,
                               trade_at="05/01/2026")).fields == {"asset_id": "Please, select asset. "}
    assert invalid(lambda: add(w, type="reconstruction", asset_id=bhp.id, ratio="2", trade_at="05/01/2026")).fields == {
        "ratio": "Please, enter a valid value. "}
    assert counts(w.portfolio.id) == (0, 0)


def test_statuses_and_totals_ignore_what_is_not_executed(w, bhp):
    for status in ("pending", "pending_approval", "processing", "processing_error"):
        row = buy(w, bhp, "10", status=status)
        assert row["status"] == status
    labels = {r["status"]: r["status_label"] for r in tx.list_transactions_of_asset(
        actor=staff(w), investment_id=w.portfolio.id, asset_id=bhp.id)}
    assert labels == {"pending": "Draft", "pending_approval": "Pending approval", "processing": "Placed",
                      "processing_error": "Error"}
    b = book(w.portfolio.id)
    assert b.positions == {} and b.cash_balance == 0
    page = tx.list_cash_transactions(actor=staff(w), investment_id=w.portfolio.id)
    assert page["count"] == 4 and (page["cash_in"], page["cash_out"], page["balance"]) == ("0.00", "0.00", "0.00")


def test_reconstruction_with_a_pending_transaction_warns(w, bhp):
    buy(w, bhp, "100")
    plain = add(w, type="reconstruction", asset_id=bhp.id, ratio="2:1", trade_at="01/02/2026")
    assert "message" not in plain
    buy(w, bhp, "10", status="pending", day="02/02/2026")
    warned = add(w, type="reconstruction", asset_id=bhp.id, ratio="1:1", trade_at="03/02/2026")
    assert warned["message"] == rules.PENDING_EXISTS and warned["notice"] == "Transaction added"
    assert book(w.portfolio.id).positions[bhp.id].units == D(200)


# ---- editing -------------------------------------------------------------------------------------
def test_update_recomputes_and_syncs_cash(w, bhp):
    a = staff(w)
    row = buy(w, bhp, "100", "30.00", fee="10")
    changed = tx.update_asset_transaction(actor=a, transaction_id=row["id"],
                                          data={"quantity": "50", "contract_note": "CN-9", "type": "purchase"})
    assert changed["notice"] == "Transaction updated" and changed["amount"] == "1510.00"
    assert changed["price"] == "30" and changed["contract_note"] == "CN-9" and changed["fee"] == "10.00"
    with session_scope() as s:
        c = s.get(CashTransaction, row["linked_transaction_id"])
        assert c.price == D("1510.00") and c.status == "executed"
    assert book(w.portfolio.id).cash_balance == D("-1510.00")
    div = add(w, type="dividend", asset_id=bhp.id, amount="70", franking_credits="10", trade_at="10/03/2026")
    tx.update_asset_transaction(actor=a, transaction_id=div["id"], data={"amount": "80", "franking_credits": "20",
                                                                        "description": "final"})
    with session_scope() as s:
        c = s.get(CashTransaction, div["linked_transaction_id"])
        assert c.price == D("80.00") and '"franking_credits": "20.00"' in c.payload and '"final"' in c.payload
    commented = tx.update_asset_transaction(actor=a, transaction_id=div["id"], data={"payload": {"comment": "paid"}})
    assert commented["description"] == "paid" and commented["payload"] == {"comment": "paid"}
    cleared = tx.update_asset_transaction(actor=a, transaction_id=div["id"], data={"description": ""})
    assert cleared["description"] is None and cleared["amount"] == "80.00"
    # a status change to processing takes the cash out of the totals
    tx.update_asset_transaction(actor=a, transaction_id=row["id"], data={"status": "processing"})
    assert book(w.portfolio.id).cash_balance == D("80.00")


def test_update_refusals(w, bhp):
    a = staff(w)
    row = buy(w, bhp, "100")
    sell(w, bhp, "80")
    # the buy cannot shrink below what a later sell took; nothing changes
    assert invalid(lambda: tx.update_asset_transaction(actor=a, transaction_id=row["id"], data={"quantity": "50"})).message \
        == "Not enough assets to sell"
    assert book(w.portfolio.id).positions[bhp.id].units == D(20)
    assert invalid(lambda: tx.update_asset_transaction(actor=a, transaction_id=row["id"], data={"type": "sell"})).fields \
        == {"type": rules.TYPE_FIXED}
    other = make_asset("CBA")
    assert invalid(lambda: tx.update_asset_transaction(actor=a, transaction_id=row["id"],
                                                       data={"asset_id": other.id})).fields == {"asset_id": rules.ASSET_FIXED}
    draft = buy(w, bhp, "1", status="pending")
    assert draft["can_edit"] is False
    assert invalid(lambda: tx.update_asset_transaction(actor=a, transaction_id=draft["id"], data={"quantity": 2})).message \
        == rules.NO_EDIT_PENDING
    waiting = buy(w, bhp, "1", status="pending_approval")
    assert invalid(lambda: tx.update_asset_transaction(actor=a, transaction_id=waiting["id"], data={})).message \
        == rules.NO_EDIT_PENDING_APPROVAL
    with session_scope() as s:
        r = s.get(AssetTransaction, row["id"])
        r.om_status = "success"
        s.add(r)
    assert invalid(lambda: tx.update_asset_transaction(actor=a, transaction_id=row["id"], data={"fee": 1})).message \
        == rules.NO_EDIT_OM_SUCCESS
    assert tx.get_asset_transaction(actor=a, transaction_id=row["id"])["can_edit"] is False


def test_an_errored_transaction_is_replaced_by_a_new_one_after_confirmation(w, bhp):
    a = staff(w)
    failed = buy(w, bhp, "100", status="processing_error")
    assert failed["can_edit"] is True and failed["edit_question"] == rules.ERROR_QUESTION
    with pytest.raises(Conflict) as caught:
        tx.update_asset_transaction(actor=a, transaction_id=failed["id"], data={"price": "31"})
    assert caught.value.message == rules.ERROR_QUESTION
    assert counts(w.portfolio.id) == (1, 1)
    made = tx.update_asset_transaction(actor=a, transaction_id=failed["id"], data={"price": "31"}, confirm=True)
    assert made["notice"] == "Transaction created" and made["replaces_id"] == failed["id"] and made["id"] != failed["id"]
    assert made["status"] == "pending" and made["price"] == "31" and made["quantity"] == "100"
    assert counts(w.portfolio.id) == (2, 2)
    listed = tx.list_transactions_of_asset(actor=a, investment_id=w.portfolio.id, asset_id=bhp.id)
    assert [r["id"] for r in listed] == [made["id"]]  # the replaced one is not listed
    # a cancelled one asks its own question
    cancelled = buy(w, bhp, "5", status="processing")
    with session_scope() as s:
        r = s.get(AssetTransaction, cancelled["id"])
        r.om_status = "cancelled"
        s.add(r)
    with pytest.raises(Conflict, match="cancelled in order management"):
        tx.update_asset_transaction(actor=a, transaction_id=cancelled["id"], data={})
    # the replaced row can still be deleted: the new one stops pointing at it
    assert tx.delete_asset_transaction(actor=a, transaction_id=failed["id"])["notice"] == rules.TRANSACTION_REMOVED
    assert tx.get_asset_transaction(actor=a, transaction_id=made["id"])["replaces_id"] is None


# ---- deleting --------------------------------------------------------------------------------------
def test_delete_rules_and_cash_goes_too(w, bhp):
    a = staff(w)
    first = buy(w, bhp, "100")
    later = sell(w, bhp, "80")
    assert invalid(lambda: tx.delete_asset_transaction(actor=a, transaction_id=first["id"])).message \
        == "Not enough assets to sell"
    assert counts(w.portfolio.id) == (2, 2)
    assert tx.delete_asset_transaction(actor=a, transaction_id=later["id"]) == {"notice": "Transaction has been removed"}
    waiting = buy(w, bhp, "1", status="pending_approval")
    assert waiting["can_delete"] is False
    assert invalid(lambda: tx.delete_asset_transaction(actor=a, transaction_id=waiting["id"])).message \
        == rules.NO_DELETE_PENDING_APPROVAL
    draft = buy(w, bhp, "1", status="pending")
    # deleting an executed one while the asset has a pending one warns
    removed = tx.delete_asset_transaction(actor=a, transaction_id=first["id"])
    assert removed == {"notice": "Transaction has been removed", "message": rules.PENDING_EXISTS}
    assert tx.delete_asset_transaction(actor=a, transaction_id=draft["id"]) == {"notice": rules.TRANSACTION_REMOVED}
    assert counts(w.portfolio.id) == (1, 1)
    deposit = make_deposit(w.portfolio)
    row = post(w.portfolio, "td_buy", deposit_id=deposit.id, amount="100.00")
    assert invalid(lambda: tx.delete_asset_transaction(actor=a, transaction_id=row.id)).message == rules.DEPOSIT_FORMS_ONLY


# ---- the asset panel ------------------------------------------------------------------------------
def test_asset_panel_totals_sorting_paging_and_expansion(w, bhp):
    a = staff(w)
    cba = make_asset("CBA", name="Commonwealth Bank", last_close_price=D("100"))
    unpriced = make_asset("ZZZ", name="No Price Ltd")
    buy(w, bhp, "100", "30.00", fee="10", day="05/01/2026")
    buy(w, bhp, "50", "40.00", fee="10", day="05/02/2026")
    sell(w, bhp, "120", "45.00", fee="10", day="05/03/2026")
    add(w, type="dividend", asset_id=bhp.id, amount="55.50", franking_credits="23.79", trade_at="10/03/2026")
    buy(w, cba, "10", "90", day="06/03/2026")
    buy(w, unpriced, "1", "1", day="01/01/2026", status="pending")
    deposit = make_deposit(w.portfolio)
    post(w.portfolio, "td_buy", deposit_id=deposit.id, amount="100.00")

    rows = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id)
    assert [r["code"] for r in rows] == ["BHP", "CBA", "ZZZ"]  # latest trade first; deposits not listed
    assert rows[0]["total_rows"] == 3 and "total_rows" not in rows[1]
    first = rows[0]
    # FIFO: 100 @ 3010 + 20 of 2010 (804.00) = 3814.00 cost; proceeds 5390.00
    assert first["quantity"] == "150" and first["remaining_quantity"] == "30" and first["price"] == "50"
    assert first["realised_gain_loss"] == "1576.00" and first["cost"] == "1206.00" and first["value"] == "1500.00"
    assert first["unrealised_gain_loss"] == "294.00"
    assert first["total_bought_value"] == "5000.00" and first["total_sold_value"] == "5400.00"
    assert first["bought_price"] == "33.333333" and first["transactions_count"] == 4
    assert rows[2]["remaining_quantity"] == "0" and rows[2]["value"] is None and rows[2]["pending_count"] == 1

    by_value = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, order="value", reverse="0")
    assert [r["code"] for r in by_value] == ["CBA", "BHP", "ZZZ"]  # unknown values last
    by_code = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, order="code", reverse="true")
    assert [r["code"] for r in by_code] == ["ZZZ", "CBA", "BHP"]
    bogus = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, order="__class__")
    assert [r["code"] for r in bogus] == ["BHP", "CBA", "ZZZ"]

    expanded = tx.list_transactions_of_asset(actor=a, investment_id=w.portfolio.id, asset_id=bhp.id)
    assert [r["type"] for r in expanded] == ["dividend", "parcel", "asset_buy", "asset_buy"]
    assert expanded[0]["total_rows"] == 4 and expanded[1]["display_quantity"] == "-120"
    only_dividends = tx.list_transactions_of_asset(actor=a, investment_id=w.portfolio.id, asset_id=bhp.id,
                                                   statuses=["dividend"])
    assert [r["type"] for r in only_dividends] == ["dividend"]
    executed = tx.list_transactions_of_asset(actor=a, investment_id=w.portfolio.id, asset_id=bhp.id,
                                             statuses=["executed"], types=["sell"])
    assert [r["type"] for r in executed] == ["parcel"]
    assert tx.list_transactions_of_asset(actor=a, investment_id=w.portfolio.id, asset_id=bhp.id, statuses=["draft"]) == []


def test_asset_panel_pages_with_load_more(w):
    a = staff(w)
    assets = [make_asset(f"A{n:02d}") for n in range(30)]
    for n, asset in enumerate(assets):
        buy(w, asset, "1", "1", day=date(2026, 1, 1 + n))
    first = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id)
    second = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, page=2)
    third = tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, page=3)
    assert len(first) == 12 and len(second) == 12 and len(third) == 6 and first[0]["total_rows"] == 30
    assert [r["code"] for r in first + second + third] == [f"A{n:02d}" for n in range(29, -1, -1)]
    assert tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, page=4) == []
    assert len(tx.list_asset_positions(actor=a, investment_id=w.portfolio.id, limit=32)) == 30


# ---- permissions ------------------------------------------------------------------------------------
def test_permissions(w, bhp):
    row = buy(w, bhp, "10")
    holder, co_holder = f.actor(w.client), f.actor(w.co_holder)
    for reader in (holder, co_holder, f.actor(w.admin), f.actor(w.superuser)):
        assert tx.list_cash_transactions(actor=reader, investment_id=w.portfolio.id)["count"] == 1
        assert tx.list_asset_positions(actor=reader, investment_id=w.portfolio.id)[0]["code"] == "BHP"
        assert tx.get_asset_transaction(actor=reader, transaction_id=row["id"])["id"] == row["id"]
    client_view = tx.get_asset_transaction(actor=holder, transaction_id=row["id"])
    assert client_view["can_edit"] is False and client_view["can_delete"] is False
    assert tx.list_cash_transactions(actor=holder, investment_id=w.portfolio.id)["rows"][0]["can_delete"] is False
    for outsider in (f.actor(w.stranger), f.actor(w.other_adviser), f.actor(w.other_client)):
        with pytest.raises(NotFound, match="^Portfolio not found$"):
            tx.list_cash_transactions(actor=outsider, investment_id=w.portfolio.id)
        with pytest.raises(NotFound, match="^Portfolio not found$"):
            tx.list_asset_positions(actor=outsider, investment_id=w.portfolio.id)
    with pytest.raises(NotFound, match="^Transaction not found$"):
        tx.get_asset_transaction(actor=f.actor(w.other_adviser), transaction_id=row["id"])
    with pytest.raises(NotFound, match="^Transaction not found$"):
        tx.delete_asset_transaction(actor=f.actor(w.other_adviser), transaction_id=row["id"])
    with pytest.raises(PermissionDenied):
        tx.add_asset_transaction(actor=holder, data={"investment_id": w.portfolio.id, "type": "purchase"})
    with pytest.raises(PermissionDenied):
        tx.delete_asset_transaction(actor=holder, transaction_id=row["id"])
    with pytest.raises(PermissionDenied):
        tx.set_opening_balance(actor=holder, investment_id=w.portfolio.id, data={})
    # staff of the firm and the superuser write
    for writer in (f.actor(w.admin), f.actor(w.superuser)):
        made = tx.create_cash_transaction(actor=writer, data={"investment_id": w.portfolio.id, "type": "credit",
                                                              "price": "1", "trade_at": "01/01/2026"})
        tx.delete_cash_transaction(actor=writer, transaction_id=made["id"])
    assert counts(w.portfolio.id) == (1, 1)


# ---- atomicity and concurrency -------------------------------------------------------------------------
def test_nothing_is_half_written(w, bhp, monkeypatch):
    buy(w, bhp, "10")
    before = counts(w.portfolio.id)

    def broken(*args, **kwargs):
        raise RuntimeError("boom after the rows were flushed")

    monkeypatch.setattr(typed, "asset_transaction_row", broken)
    with pytest.raises(RuntimeError):
        buy(w, bhp, "5")
    assert counts(w.portfolio.id) == before
    monkeypatch.undo()
    with pytest.raises(ValidationError):
        tx.create_transaction(actor=staff(w), data={"investment_id": w.portfolio.id, "type": "credit", "price": "x"})
    assert counts(w.portfolio.id) == before
    # createTransaction dispatches cash forms to the cash transactions
    made = tx.create_transaction(actor=staff(w), data={"investment_id": w.portfolio.id, "type": "credit",
                                                       "price": "5", "trade_at": "01/01/2026"})
    assert made["class"] == "Credit"


def test_the_ledger_mapping_is_the_one_postings_uses(w, bhp):
    buy(w, bhp, "100", "30", fee="9.95", gst="0.99")
    sell(w, bhp, "10", "35", fee="5")
    add(w, type="capital_return", asset_id=bhp.id, amount="12.34", trade_at="01/03/2026")
    add(w, type="reconstruction", asset_id=bhp.id, ratio="3:2", trade_at="02/03/2026")
    add(w, type="dividend", asset_id=bhp.id, amount="12.34", trade_at="03/03/2026")
    with session_scope() as s:
        for row in s.exec(select(AssetTransaction)).all():
            mine = rules.ledger_trade(row.type, trade_day=row.trade_at.date(), quantity=row.quantity, price=row.price,
                                      fee=row.fee, gst=row.gst, ratio=row.ratio, amount=row.amount)
            assert mine == postings._ledger_trade(row)


@pytest.mark.postgres
def test_two_concurrent_sells_cannot_both_pass(w, bhp):
    buy(w, bhp, "100")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def seller():
        barrier.wait()
        try:
            sell(w, bhp, "60")
            outcomes.append("sold")
        except ValidationError as exc:
            outcomes.append(exc.message)

    threads = [threading.Thread(target=seller) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["Not enough assets to sell", "sold"]
    assert book(w.portfolio.id).positions[bhp.id].units == D(40)


def test_interest_income_comes_from_a_linked_term_deposit_or_at_call_sell(w):
    """Spec 002 s4: 'Interest Income comes from a linked at-call-account or term-deposit sell'; a
    listed asset's sell stays 'Sell'."""
    term = make_deposit(w.portfolio)
    at_call = make_deposit(w.portfolio, product_type="At Call Account", maturity=None)
    post(w.portfolio, "td_buy", deposit_id=term.id, amount="2000.00", day="2026-04-01")
    post(w.portfolio, "aca_buy", deposit_id=at_call.id, amount="500.00", day="2026-04-02")
    post(w.portfolio, "td_sell", deposit_id=term.id, amount="2045.00", day="2026-04-03")
    post(w.portfolio, "aca_sell", deposit_id=at_call.id, amount="501.20", day="2026-04-04")
    rows = tx.list_cash_transactions(actor=staff(w), investment_id=w.portfolio.id)["rows"]
    assert [(r["class"], r["amount"], r["linked_transaction"]["type"]) for r in rows] == [
        ("Interest Income", "501.20", "aca_sell"), ("Interest Income", "2045.00", "td_sell"),
        ("Buy", "-500.00", "aca_buy"), ("Buy", "-2000.00", "td_buy")]
