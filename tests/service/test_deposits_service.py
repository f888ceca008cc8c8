"""Term deposits and at-call accounts through app.services.deposits, on a real database: the book
moves through postings, refused writes leave nothing, names and codes, enabling rules, edits,
reprocess and permissions."""
from __future__ import annotations

import json
from decimal import Decimal as D

import pytest
from sqlmodel import func, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, CashTransaction, Deposit, Portfolio
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.api.schemas import path_id, rendered
from app.domain import deposits as rules
from app.services import deposits as typed


class service:  # noqa: N801 - stands for the module, as the edges call it
    """app.services.deposits called as its edges call it (the API, the screen): the sent form read
    once into the service's DepositForm, `where` into its DepositFilter, an id that may be text
    through path_id; the typed answer rendered as the payload a client reads."""

    @staticmethod
    def _id(value):
        return value if isinstance(value, int) else path_id(value)

    @staticmethod
    def buy(*, actor, data):
        return rendered(typed.buy(actor=actor, form=rules.read_form(data)))

    @staticmethod
    def sell(*, actor, deposit_id, data):
        return rendered(typed.sell(actor=actor, deposit_id=service._id(deposit_id), form=rules.read_form(data)))

    @staticmethod
    def interest_accrual(*, actor, deposit_id, data):
        return rendered(typed.interest_accrual(actor=actor, deposit_id=service._id(deposit_id),
                                               form=rules.read_form(data)))

    @staticmethod
    def at_call_deposit(*, actor, deposit_id, data):
        return rendered(typed.at_call_deposit(actor=actor, deposit_id=service._id(deposit_id),
                                              form=rules.read_form(data)))

    @staticmethod
    def income(*, actor, deposit_id, data):
        return rendered(typed.income(actor=actor, deposit_id=service._id(deposit_id), form=rules.read_form(data)))

    @staticmethod
    def update_deposit(*, actor, deposit_id, data):
        return rendered(typed.update_deposit(actor=actor, deposit_id=service._id(deposit_id),
                                             form=rules.read_form(data)))

    @staticmethod
    def update_transaction(*, actor, deposit_id, transaction_id, data):
        return rendered(typed.update_transaction(actor=actor, deposit_id=service._id(deposit_id),
                                                 transaction_id=service._id(transaction_id),
                                                 form=rules.read_form(data)))

    @staticmethod
    def reprocess(*, actor, deposit_id, data=None):
        return rendered(typed.reprocess(actor=actor, deposit_id=service._id(deposit_id),
                                        form=rules.read_form(data or {})))

    @staticmethod
    def get_deposit(*, actor, deposit_id):
        return rendered(typed.get_deposit(actor=actor, deposit_id=service._id(deposit_id)))

    @staticmethod
    def amm_transactions(*, actor, deposit_id):
        return rendered(typed.amm_transactions(actor=actor, deposit_id=service._id(deposit_id)))

    @staticmethod
    def overview(*, actor, portfolio_id):
        return rendered(typed.overview(actor=actor, portfolio_id=service._id(portfolio_id)))

    @staticmethod
    def list_deposits(*, actor, where=None, limit=None, offset=None):
        page = typed.list_deposits(actor=actor, where=rules.read_filter(where), limit=limit, offset=offset)
        return rendered(page.rows), page.total
from app.services import postings
from tests.factories import actor
from tests.factories_portfolios import cash, make_deposit, make_institution, make_portfolio_world, post

TD, ACA = "Term Deposits", "At Call Account"


@pytest.fixture
def w(db):
    return make_portfolio_world()


@pytest.fixture
def bank(db):
    return make_institution("Westpac Test", provider_type="Bank", product_types="Cash Account,Term Deposits,At Call Account")


def _counts(portfolio_id: int) -> tuple[int, int, int]:
    with session_scope() as s:
        deposits = s.exec(select(func.count()).select_from(Deposit).where(Deposit.investment_id == portfolio_id)).one()
        assets = s.exec(select(func.count()).select_from(AssetTransaction)
                        .where(AssetTransaction.investment_id == portfolio_id)).one()
        cashes = s.exec(select(func.count()).select_from(CashTransaction)
                        .where(CashTransaction.investment_id == portfolio_id)).one()
    return deposits, assets, cashes


def _cash(portfolio_id: int) -> D:
    with session_scope() as s:
        return postings.cash_balance(s, portfolio_id)


def _balances(portfolio_id: int) -> dict[int, D]:
    with session_scope() as s:
        return postings.deposit_balances(s, [portfolio_id])[portfolio_id]


def _buy(w, bank, **change):
    data = {"investment_id": w.portfolio.id, "ProviderProductType": TD, "institution_id": bank.id,
            "StartDate": "2026-01-05", "MaturityTerm": "6", "Rate": "4.5", "amount": "10000", "DealID": "12345",
            "AccountNumber": "778899", "CutOffTime": "14:00"}
    data.update(change)
    return service.buy(actor=actor(w.adviser), data=data)


# ---- buy ---------------------------------------------------------------------------------------------
def test_buy_creates_the_deposit_and_moves_cash_out(w, bank):
    cash(w.portfolio, "25000.00")
    result = _buy(w, bank)
    assert result["message"] == "Transaction added"
    dep, tx = result["deposit"], result["transaction"]
    assert dep["name"] == "Westpac Test TD 6 months 05/07/2026 4.50%" and dep["code"] == "TD12345"
    assert dep["short_name"] == "Westpac Test TD 4.50%"
    assert dep["ProviderName"] == "Westpac Test" and dep["ProviderType"] == "Bank"
    assert dep["institution"] == {"id": bank.id, "title": "Westpac Test"}
    assert dep["MaturityDate"] == "2026-07-05" and dep["MaturityTerm"] == 6 and dep["Rate"] == "4.5000"
    assert dep["DealStatus"] == "Pending – Bank to Process" and dep["AutoMatured"] is True
    assert dep["balance"] == "10000.00" and dep["closed"] is False
    assert tx["type"] == "td_buy" and tx["status"] == "executed" and tx["amount"] == "10000.00"
    assert tx["deposit_id"] == dep["id"] and tx["date"] == "2026-01-05" and tx["amm_type"] == "Placement"
    assert tx["TransactionType"] == "Debit" and tx["payload"]["CutOffTime"] == "14:00"
    # the cash moved out of the cash account in the same write, as a linked cash transaction
    assert _cash(w.portfolio.id) == D("15000.00")
    assert _balances(w.portfolio.id) == {dep["id"]: D("10000.00")}
    with session_scope() as s:
        linked = s.exec(select(CashTransaction).where(CashTransaction.linked_transaction_id == tx["id"])).one()
    assert (linked.action, linked.price, linked.status) == ("decrease", D("10000.00"), "executed")
    assert json.loads(linked.payload)["description"] == "Term Deposit Buy: Westpac Test TD 6 months 05/07/2026 4.50%"


def test_buy_without_a_rate_waits_for_it_and_gets_its_own_deal_id(w, bank):
    result = _buy(w, bank, Rate="", DealID="", ProviderProductType=ACA)
    dep = result["deposit"]
    assert dep["DealStatus"] == "Pending – Rate to Confirm"
    assert dep["DealID"] == f"{dep['id']:06d}" and dep["code"] == f"ACA{dep['id']:06d}"
    assert dep["name"] == "Westpac Test ACA" and dep["MaturityDate"] is None
    assert result["transaction"]["type"] == "aca_buy"


def test_buy_refusals_write_nothing(w, bank):
    cash(w.portfolio, "1000.00")
    before = _counts(w.portfolio.id)
    with pytest.raises(ValidationError) as caught:
        _buy(w, bank, amount="", StartDate="")
    assert caught.value.message == "Please, fill all required fields with valid data"
    assert caught.value.fields == {"StartDate": "Please, enter start date. ", "amount": "Please, enter amount. "}
    cash_only = make_institution("Cash Only Bank", product_types="Cash Account")
    with pytest.raises(ValidationError) as caught:
        _buy(w, bank, institution_id=cash_only.id)
    assert caught.value.fields == {"institution_id": "The institution does not offer this product type."}
    _buy(w, bank)
    with pytest.raises(ValidationError) as caught:
        _buy(w, bank)  # the same DealID again in this portfolio
    assert caught.value.message == "Deal ID should be unique." and set(caught.value.fields) == {"DealID"}
    assert _counts(w.portfolio.id) == (before[0] + 1, before[1] + 1, before[2] + 1)


def test_buy_by_provider_name_without_an_institution(w, db):
    result = service.buy(actor=actor(w.admin), data={
        "investment_id": w.portfolio.id, "ProviderProductType": TD, "ProviderName": "Local Credit Union",
        "ProviderType": "Credit Union", "StartDate": "05/01/2026", "MaturityDate": "05/01/2027", "amount": "500.50"})
    assert result["deposit"]["ProviderType"] == "Credit Union" and result["deposit"]["MaturityTerm"] == 12
    assert result["deposit"]["institution"] is None


# ---- sell, income, accrual, at-call deposit ----------------------------------------------------------
def test_sell_beyond_the_balance_is_refused_and_nothing_is_written(w, bank):
    cash(w.portfolio, "20000.00")
    dep = _buy(w, bank)["deposit"]
    before = (_counts(w.portfolio.id), _cash(w.portfolio.id))
    with pytest.raises(ValidationError) as caught:
        service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-07-05", "amount": "10000.01"})
    assert caught.value.message == "The amount can't be more than the deposit balance $10,000.00."
    assert caught.value.fields == {"amount": "The amount can't be more than the deposit balance $10,000.00."}
    assert (_counts(w.portfolio.id), _cash(w.portfolio.id)) == before


def test_a_date_before_the_start_is_refused_and_nothing_is_written(w, bank):
    dep = _buy(w, bank, ProviderProductType=ACA)["deposit"]
    before = _counts(w.portfolio.id)
    for call in (service.sell, service.interest_accrual, service.at_call_deposit):
        with pytest.raises(ValidationError) as caught:
            call(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "04/01/2026", "amount": "10"})
        assert caught.value.message == "The date can't be before the deposit start date 05/01/2026."
        assert caught.value.fields == {"StartDate": "The date can't be before the deposit start date 05/01/2026."}
    assert _counts(w.portfolio.id) == before


def test_partial_then_full_redemption_closes_the_term_deposit(w, bank):
    cash(w.portfolio, "10000.00")
    dep = _buy(w, bank)["deposit"]
    part = service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-03-01", "amount": "4000"})
    assert part["transaction"]["type"] == "td_sell" and part["transaction"]["TransactionType"] == "Credit"
    assert part["transaction"]["amm_type"] == "Redemption"
    assert part["deposit"]["balance"] == "6000.00" and part["deposit"]["closed"] is False
    full = service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-07-05", "amount": "6000"})
    assert full["deposit"]["balance"] == "0.00" and full["deposit"]["closed"] is True and full["deposit"]["closed_at"]
    assert _cash(w.portfolio.id) == D("10000.00")
    # a closed deposit takes no more redemptions, but the term deposit's interest may still be paid
    with pytest.raises(ValidationError) as caught:
        service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-07-06", "amount": "1"})
    assert caught.value.fields["deposit_id"] == "This deposit is closed."
    paid = service.income(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-07-06", "amount": "225.00"})
    assert paid["transaction"]["type"] == "td_income" and paid["transaction"]["amm_type"] == "Interest Accrual"
    assert _cash(w.portfolio.id) == D("10225.00")
    assert service.overview(actor=actor(w.adviser), portfolio_id=w.portfolio.id)["enabled"] == {
        "buy": True, "sell": False, "interest_accrual": False, "deposit": False, "income": False}


def test_at_call_account_accrual_deposit_and_withdrawal(w, bank):
    cash(w.portfolio, "5000.00")
    dep = _buy(w, bank, ProviderProductType=ACA, amount="1000")["deposit"]
    accrued = service.interest_accrual(actor=actor(w.adviser), deposit_id=dep["id"],
                                       data={"StartDate": "2026-02-01", "amount": "3.75", "deposit_id": dep["id"]})
    assert accrued["transaction"]["type"] == "aca_income" and accrued["deposit"]["balance"] == "1003.75"
    assert _cash(w.portfolio.id) == D("4000.00")  # accrued interest stays in the account
    added = service.at_call_deposit(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-02-02", "amount": "500"})
    assert added["transaction"]["type"] == "aca_deposit" and added["deposit"]["balance"] == "1503.75"
    assert _cash(w.portfolio.id) == D("3500.00")
    out = service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-03-01", "amount": "1503.75"})
    assert out["transaction"]["type"] == "aca_sell" and out["transaction"]["amm_type"] == "Withdrawal"
    assert out["deposit"]["balance"] == "0.00" and out["deposit"]["closed"] is False  # an at-call account stays open
    assert _cash(w.portfolio.id) == D("5003.75")
    # a term deposit takes neither accruals nor at-call deposits; an at-call account no interest payments
    td = _buy(w, bank, DealID="TD2")["deposit"]
    with pytest.raises(ValidationError) as caught:
        service.at_call_deposit(actor=actor(w.adviser), deposit_id=td["id"], data={"StartDate": "2026-02-02", "amount": "5"})
    assert caught.value.fields == {"deposit_id": "Please, select an at-call account: this form is for at-call accounts only."}
    with pytest.raises(ValidationError):
        service.income(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-02-02", "amount": "5"})


def test_a_body_naming_another_deposit_or_portfolio_is_refused(w, bank):
    dep = _buy(w, bank)["deposit"]
    other = _buy(w, bank, DealID="999")["deposit"]
    with pytest.raises(NotFound):
        service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"deposit_id": other["id"], "StartDate": "2026-02-01", "amount": "1"})
    with pytest.raises(NotFound):
        service.sell(actor=actor(w.adviser), deposit_id=dep["id"],
                     data={"investment_id": w.other_portfolio.id, "StartDate": "2026-02-01", "amount": "1"})


# ---- reading, enabling rules -------------------------------------------------------------------------
def test_list_filters_and_enabling_rules(w, bank):
    assert service.overview(actor=actor(w.adviser), portfolio_id=w.portfolio.id)["enabled"] == {
        "buy": True, "sell": False, "interest_accrual": False, "deposit": False, "income": False}
    td = _buy(w, bank, StartDate="2026-01-05")["deposit"]
    over = service.overview(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert over["enabled"] == {"buy": True, "sell": True, "interest_accrual": False, "deposit": False, "income": True}
    assert over["portfolio"] == {"id": w.portfolio.id, "name": "Smith Family"} and over["can_edit"] is True
    aca = _buy(w, bank, ProviderProductType=ACA, DealID="A1", StartDate="2026-02-01")["deposit"]
    assert service.overview(actor=actor(w.adviser), portfolio_id=w.portfolio.id)["enabled"] == {
        "buy": True, "sell": True, "interest_accrual": True, "deposit": True, "income": True}
    make_deposit(w.other_portfolio, deal_id="X1")

    rows, total = service.list_deposits(actor=actor(w.adviser), where=json.dumps({"investment_id": w.portfolio.id}))
    assert total == 2 and [r["id"] for r in rows] == [aca["id"], td["id"]]  # newest start first
    rows, total = service.list_deposits(actor=actor(w.adviser),
                                        where={"investment_id": w.portfolio.id, "ProviderProductType": "At Call Account"})
    assert total == 1 and rows[0]["code"] == "ACAA1" and rows[0]["balance"] == "10000.00"
    rows, total = service.list_deposits(actor=actor(w.adviser))  # everything the adviser sees: not the other firm's
    assert total == 2
    rows, total = service.list_deposits(actor=actor(w.superuser))
    assert total == 3
    rows, _ = service.list_deposits(actor=actor(w.adviser), where={"investment_id": w.portfolio.id, "closed": True})
    assert rows == []
    with pytest.raises(ValidationError):
        service.list_deposits(actor=actor(w.adviser), where="{not json")

    got = service.get_deposit(actor=actor(w.client), deposit_id=td["id"])
    assert [t["type"] for t in got["transactions"]] == ["td_buy"] and got["can_edit"] is False
    assert got["transactions"][0]["can_reprocess"] is False and got["transactions"][0]["can_edit"] is False


# ---- permissions -------------------------------------------------------------------------------------
def test_permissions_staff_write_holders_read_others_not_found(w, bank):
    dep = _buy(w, bank)["deposit"]
    move = {"StartDate": "2026-02-01", "amount": "1"}
    for reader in (w.client, w.co_holder, w.admin, w.adviser, w.superuser):
        assert service.get_deposit(actor=actor(reader), deposit_id=dep["id"])["id"] == dep["id"]
    for outsider in (w.stranger, w.other_adviser, w.other_client):
        with pytest.raises(NotFound) as caught:
            service.get_deposit(actor=actor(outsider), deposit_id=dep["id"])
        assert caught.value.message == "Deposit not found"
        with pytest.raises(NotFound):
            service.sell(actor=actor(outsider), deposit_id=dep["id"], data=move)
        with pytest.raises(NotFound):
            service.buy(actor=actor(outsider), data={"investment_id": w.portfolio.id})
        with pytest.raises(NotFound):
            service.list_deposits(actor=actor(outsider), where={"investment_id": w.portfolio.id})
    for holder in (w.client, w.co_holder):
        with pytest.raises(PermissionDenied):
            service.sell(actor=actor(holder), deposit_id=dep["id"], data=move)
        with pytest.raises(PermissionDenied):
            service.buy(actor=actor(holder), data={"investment_id": w.portfolio.id})
        with pytest.raises(PermissionDenied):
            service.reprocess(actor=actor(holder), deposit_id=dep["id"], data={})
    assert service.sell(actor=actor(w.superuser), deposit_id=dep["id"], data=move)["deposit"]["balance"] == "9999.00"
    with pytest.raises(NotFound):
        service.get_deposit(actor=actor(w.adviser), deposit_id="abc")


# ---- editing -----------------------------------------------------------------------------------------
def test_editing_the_deposit_confirms_the_rate_and_changes_the_placement(w, bank):
    cash(w.portfolio, "20000.00")
    dep = _buy(w, bank, Rate="")["deposit"]
    assert dep["DealStatus"] == "Pending – Rate to Confirm"
    edited = service.update_deposit(actor=actor(w.adviser), deposit_id=dep["id"], data={
        "StartDate": "2026-01-05", "MaturityTerm": "12", "Rate": "4.8", "amount": "12000",
        "ProviderName": "Someone Else", "DealID": "changed"})
    assert edited["message"] == "Transaction updated"
    d = edited["deposit"]
    assert d["DealStatus"] == "Pending – Bank to Process" and d["Rate"] == "4.8000" and d["MaturityDate"] == "2027-01-05"
    assert d["ProviderName"] == "Westpac Test" and d["DealID"] == "12345"  # identity fields are fixed
    assert d["balance"] == "12000.00" and _cash(w.portfolio.id) == D("8000.00")
    live = service.update_deposit(actor=actor(w.adviser), deposit_id=dep["id"], data={
        "StartDate": "2026-01-05", "MaturityTerm": "12", "Rate": "4.8", "DealStatus": "Live"})
    assert live["deposit"]["DealStatus"] == "Live" and live["deposit"]["balance"] == "12000.00"
    with pytest.raises(ValidationError) as caught:
        service.update_deposit(actor=actor(w.adviser), deposit_id=dep["id"], data={
            "StartDate": "2026-01-05", "MaturityTerm": "12", "Rate": "4.8", "DealStatus": "Pending – Bank to Process"})
    assert caught.value.fields == {"DealStatus": "The deal status can't change from 'Live' to 'Pending – Bank to Process'."}


def test_editing_keeps_the_balance_and_dates_valid(w, bank):
    cash(w.portfolio, "20000.00")
    dep = _buy(w, bank)["deposit"]
    sold = service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-03-01", "amount": "6000"})
    tid = sold["transaction"]["id"]
    with pytest.raises(ValidationError) as caught:  # the placement can't shrink below what was redeemed
        service.update_deposit(actor=actor(w.adviser), deposit_id=dep["id"],
                               data={"StartDate": "2026-01-05", "MaturityTerm": "6", "Rate": "4.5", "amount": "5000"})
    assert caught.value.fields == {"amount": "This change would leave the deposit balance below zero."}
    with pytest.raises(ValidationError) as caught:  # nor start after its redemption
        service.update_deposit(actor=actor(w.adviser), deposit_id=dep["id"],
                               data={"StartDate": "2026-03-02", "MaturityTerm": "6", "Rate": "4.5"})
    assert caught.value.fields == {"StartDate": "The start date can't be after the deposit's transaction of 01/03/2026."}
    with pytest.raises(ValidationError) as caught:  # the redemption is checked against the balance without itself
        service.update_transaction(actor=actor(w.adviser), deposit_id=dep["id"], transaction_id=tid,
                                   data={"StartDate": "2026-03-01", "amount": "10000.01"})
    assert caught.value.fields == {"amount": "The amount can't be more than the deposit balance $10,000.00."}
    full = service.update_transaction(actor=actor(w.adviser), deposit_id=dep["id"], transaction_id=tid,
                                      data={"StartDate": "2026-03-02", "amount": "10000", "description": "Broken early"})
    assert full["deposit"]["closed"] is True and full["transaction"]["date"] == "2026-03-02"
    assert full["transaction"]["description"] == "Broken early" and _cash(w.portfolio.id) == D("20000.00")
    back = service.update_transaction(actor=actor(w.adviser), deposit_id=dep["id"], transaction_id=tid,
                                      data={"StartDate": "2026-03-02", "amount": "100"})
    assert back["deposit"]["closed"] is False and back["deposit"]["balance"] == "9900.00"  # reopened
    other = _buy(w, bank, DealID="OTHER")["deposit"]
    with pytest.raises(NotFound):
        service.update_transaction(actor=actor(w.adviser), deposit_id=other["id"], transaction_id=tid,
                                   data={"StartDate": "2026-03-02", "amount": "1"})


# ---- AMM view and reprocess --------------------------------------------------------------------------
def test_reprocess_sends_errored_and_pending_transactions_back_to_processing(w, bank):
    dep = make_deposit(w.portfolio, deal_id="777", deal_status="Pending – Bank to Process", start="2026-01-05")
    placed = post(w.portfolio, "td_buy", deposit_id=dep.id, amount="5000.00", status="processing_error", day="2026-01-05")
    pending = post(w.portfolio, "td_income", deposit_id=dep.id, amount="10.00", status="pending", day="2026-02-05")
    done = post(w.portfolio, "td_income", deposit_id=dep.id, amount="20.00", status="executed", day="2026-03-05")

    view = service.amm_transactions(actor=actor(w.adviser), deposit_id=dep.id)
    flags = {t["id"]: (t["amm_type"], t["status_label"], t["can_reprocess"]) for t in view["transactions"]}
    assert flags == {placed.id: ("Placement", "Error", True), pending.id: ("Interest Accrual", "Draft", True),
                     done.id: ("Interest Accrual", "Executed", False)}
    client_view = service.amm_transactions(actor=actor(w.client), deposit_id=dep.id)
    assert not any(t["can_reprocess"] for t in client_view["transactions"])

    with pytest.raises(ValidationError) as caught:
        service.reprocess(actor=actor(w.adviser), deposit_id=dep.id, data={"transaction_id": done.id})
    assert caught.value.message == "There is no transaction in error or pending to reprocess."

    result = service.reprocess(actor=actor(w.adviser), deposit_id=dep.id,
                               data={**view, "transaction_id": placed.id})
    assert (result["title"], result["message"]) == ("Success", "Transaction was sended to reprocessing")
    assert result["deposit"]["DealStatus"] == "Pending – AMM to Process"
    assert [t["id"] for t in result["transactions"]] == [placed.id]
    with session_scope() as s:
        row = s.get(AssetTransaction, placed.id)
        linked = s.exec(select(CashTransaction).where(CashTransaction.linked_transaction_id == placed.id)).one()
        assert row.status == linked.status == "processing"
        assert json.loads(row.payload)["reprocessed"]["from"] == "processing_error"
        assert s.get(AssetTransaction, pending.id).status == "pending"

    everything = service.reprocess(actor=actor(w.admin), deposit_id=dep.id, data={"id": dep.id})
    assert [t["id"] for t in everything["transactions"]] == [pending.id]
    with pytest.raises(ValidationError):
        service.reprocess(actor=actor(w.admin), deposit_id=dep.id, data={})
    with pytest.raises(NotFound):
        service.reprocess(actor=actor(w.admin), deposit_id=dep.id, data={"id": dep.id + 1000})
    with pytest.raises(NotFound):
        service.reprocess(actor=actor(w.other_adviser), deposit_id=dep.id, data={})


def test_reprocess_keeps_a_live_deal_live(w):
    dep = make_deposit(w.portfolio, deal_id="888", deal_status="Live", product_type=ACA, maturity=None)
    post(w.portfolio, "aca_buy", deposit_id=dep.id, amount="100.00", day="2026-01-05")
    post(w.portfolio, "aca_sell", deposit_id=dep.id, amount="50.00", status="processing_error", day="2026-02-05")
    result = service.reprocess(actor=actor(w.adviser), deposit_id=dep.id, data={})
    assert result["deposit"]["DealStatus"] == "Live" and result["deposit"]["balance"] == "100.00"
    with session_scope() as s:
        assert s.get(Portfolio, w.portfolio.id) is not None
        assert s.get(Deposit, dep.id).deal_status == "Live"


@pytest.mark.postgres
def test_two_concurrent_redemptions_cannot_both_pass(w, bank):
    import threading

    cash(w.portfolio, "10000.00")
    dep = _buy(w, bank)["deposit"]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def redeem():
        barrier.wait()
        try:
            service.sell(actor=actor(w.adviser), deposit_id=dep["id"], data={"StartDate": "2026-03-01", "amount": "6000"})
            outcomes.append("sold")
        except ValidationError as exc:
            outcomes.append(exc.message)

    threads = [threading.Thread(target=redeem) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["The amount can't be more than the deposit balance $4,000.00.", "sold"]
    assert _balances(w.portfolio.id) == {dep["id"]: D("4000.00")}


def test_list_pages(w):
    ids = [make_deposit(w.portfolio, deal_id=f"P{n}", start=f"2026-01-0{n}").id for n in range(1, 6)]
    rows, total = service.list_deposits(actor=actor(w.admin), where={"investment_id": w.portfolio.id}, limit=2, offset=1)
    assert total == 5 and [r["id"] for r in rows] == [ids[3], ids[2]]
