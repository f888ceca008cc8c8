"""/api/deposits over HTTP: envelope and list shape, every call's path, texts, and permissions per
role and firm (staff of the firm write, holders read, everyone else gets 404)."""
from __future__ import annotations

import json

import pytest

from tests import factories as f
from tests.factories_portfolios import cash, make_deposit, make_institution, make_portfolio_world, post

TD, ACA = "Term Deposits", "At Call Account"
NOT_FOUND = "NotFoundError: Deposit not found"
NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"


@pytest.fixture
def w(db):
    return make_portfolio_world()


@pytest.fixture
def bank(db):
    return make_institution("Harbour Bank", product_types="Term Deposits,At Call Account")


def _buy_body(w, bank, **change):
    body = {"investment_id": w.portfolio.id, "ProviderProductType": TD, "institution_id": bank.id,
            "StartDate": "2026-01-05", "MaturityTerm": 3, "Rate": 4.25, "amount": 5000, "DealID": "D100"}
    body.update(change)
    return body


def test_buy_list_get_and_move_money(client, w, bank):
    cash(w.portfolio, "8000.00")
    h = f.headers(w.adviser)
    created = f.ok_result(client.post("/api/deposits", headers=h, json=_buy_body(w, bank)))
    assert created["message"] == "Transaction added"
    dep = created["deposit"]
    assert dep["name"] == "Harbour Bank TD 3 months 05/04/2026 4.25%" and dep["code"] == "TDD100"
    did = dep["id"]

    where = json.dumps({"investment_id": w.portfolio.id, "ProviderProductType": TD})
    listed = f.ok_result(client.get("/api/deposits", headers=h, params={"where": where}))
    assert listed["totals"] == [{"count": 1}] and [r["id"] for r in listed["rows"]] == [did]
    aca_where = json.dumps({"investment_id": w.portfolio.id, "ProviderProductType": ACA})
    assert f.ok_result(client.get("/api/deposits", headers=h, params={"where": aca_where}))["rows"] == []

    sold = f.ok_result(client.post(f"/api/deposits/{did}/sell", headers=h, json={"StartDate": "2026-04-05", "amount": "5000"}))
    assert sold["deposit"]["closed"] is True and sold["transaction"]["TransactionType"] == "Credit"
    paid = f.ok_result(client.post(f"/api/deposits/{did}/income", headers=h, json={"StartDate": "2026-04-05", "amount": "52.40"}))
    assert paid["transaction"]["type"] == "td_income"
    got = f.ok_result(client.get(f"/api/deposits/{did}", headers=h))
    assert [t["type"] for t in got["transactions"]] == ["td_buy", "td_sell", "td_income"]
    assert [t["amount"] for t in got["transactions"]] == ["5000.00", "5000.00", "52.40"]

    updated = f.ok_result(client.put(f"/api/deposits/{did}/transactions/{paid['transaction']['id']}", headers=h,
                                     json={"StartDate": "2026-04-06", "amount": "52.50"}))
    assert updated["message"] == "Transaction updated" and updated["transaction"]["amount"] == "52.50"


def test_at_call_calls(client, w, bank):
    cash(w.portfolio, "3000.00")
    h = f.headers(w.admin)
    dep = f.ok_result(client.post("/api/deposits", headers=h, json=_buy_body(w, bank, ProviderProductType=ACA,
                                                                           amount=1000, Rate="")))["deposit"]
    assert dep["DealStatus"] == "Pending – Rate to Confirm" and dep["name"] == "Harbour Bank ACA"
    did = dep["id"]
    accrued = f.ok_result(client.post(f"/api/deposits/{did}/interest-accrual", headers=h,
                                      json={"deposit_id": did, "investment_id": w.portfolio.id, "StartDate": "2026-01-31",
                                            "amount": 2.5}))
    assert accrued["deposit"]["balance"] == "1002.50"
    added = f.ok_result(client.post(f"/api/deposits/{did}/deposit", headers=h, json={"StartDate": "2026-02-01", "amount": 100}))
    assert added["transaction"]["type"] == "aca_deposit" and added["deposit"]["balance"] == "1102.50"
    edited = f.ok_result(client.put(f"/api/deposits/{did}", headers=h, json={"StartDate": "2026-01-05", "Rate": "4.1"}))
    assert edited["deposit"]["DealStatus"] == "Pending – Bank to Process" and edited["deposit"]["name"] == "Harbour Bank ACA 4.10%"


def test_refusals_carry_the_texts(client, w, bank):
    h = f.headers(w.adviser)
    dep = f.ok_result(client.post("/api/deposits", headers=h, json=_buy_body(w, bank)))["deposit"]
    before = f.ok_result(client.get(f"/api/deposits/{dep['id']}", headers=h))

    early = f.failure(client.post(f"/api/deposits/{dep['id']}/sell", headers=h,
                                  json={"StartDate": "04/01/2026", "amount": "1"}), 400)
    assert early["message"] == "ValidationError: The date can't be before the deposit start date 05/01/2026."
    assert early["errors"] == {"StartDate": "The date can't be before the deposit start date 05/01/2026."}
    over = f.failure(client.post(f"/api/deposits/{dep['id']}/sell", headers=h,
                                 json={"StartDate": "2026-02-01", "amount": "5000.01"}), 400)
    assert over["message"] == "ValidationError: The amount can't be more than the deposit balance $5,000.00."
    empty = f.failure(client.post("/api/deposits", headers=h, json={"investment_id": w.portfolio.id}), 400)
    assert empty["message"] == "ValidationError: Please, fill all required fields with valid data"
    assert empty["errors"]["ProviderProductType"] == "Please, select product type. "
    assert f.failure(client.post(f"/api/deposits/{dep['id']}/sell", headers=h, json=[1, 2]), 400)["errors"] == {
        "StartDate": "Please, enter date. ", "amount": "Please, enter amount. "}
    bad_where = f.failure(client.get("/api/deposits", headers=h, params={"where": "{oops"}), 400)
    assert bad_where["message"] == "ValidationError: Please, enter a valid value. "
    # nothing was written by the refusals
    assert f.ok_result(client.get(f"/api/deposits/{dep['id']}", headers=h)) == before


def test_reprocess(client, w):
    dep = make_deposit(w.portfolio, deal_id="55", deal_status="Pending – Bank to Process")
    errored = post(w.portfolio, "td_buy", deposit_id=dep.id, amount="900.00", status="processing_error")
    h = f.headers(w.adviser)
    amm = f.ok_result(client.get(f"/api/deposits/{dep.id}/amm-transactions", headers=h))
    assert [(t["amm_type"], t["status_label"], t["can_reprocess"]) for t in amm["transactions"]] == [("Placement", "Error", True)]
    done = f.ok_result(client.post(f"/api/deposits/{dep.id}/reprocess", headers=h, json=amm))
    assert done["title"] == "Success" and done["message"] == "Transaction was sended to reprocessing"
    assert done["deposit"]["DealStatus"] == "Pending – AMM to Process"
    assert done["transactions"][0]["id"] == errored.id and done["transactions"][0]["status_label"] == "Placed"
    again = f.failure(client.post(f"/api/deposits/{dep.id}/reprocess", headers=h, json=amm), 400)
    assert again["message"] == "ValidationError: There is no transaction in error or pending to reprocess."


WRITES = [
    ("post", "/api/deposits/{id}/sell", {"StartDate": "2026-02-01", "amount": "1"}),
    ("post", "/api/deposits/{id}/income", {"StartDate": "2026-02-01", "amount": "1"}),
    ("put", "/api/deposits/{id}", {"StartDate": "2026-01-05", "MaturityTerm": 6, "Rate": "4"}),
    ("post", "/api/deposits/{id}/reprocess", {}),
]


def test_permissions_per_role_and_firm(client, w, bank):
    dep = make_deposit(w.portfolio, deal_id="P1", deal_status="Pending – Bank to Process")
    post(w.portfolio, "td_buy", deposit_id=dep.id, amount="100.00")
    post(w.portfolio, "td_income", deposit_id=dep.id, amount="1.00", status="processing_error")
    other = make_deposit(w.other_portfolio, deal_id="P2")
    where = {"where": json.dumps({"investment_id": w.portfolio.id})}

    # holders read, and cannot change anything
    for reader in (w.client, w.co_holder):
        h = f.headers(reader)
        assert f.ok_result(client.get(f"/api/deposits/{dep.id}", headers=h))["can_edit"] is False
        assert f.ok_result(client.get("/api/deposits", headers=h, params=where))["totals"] == [{"count": 1}]
        for method, path, body in WRITES:
            assert f.failure(getattr(client, method)(path.format(id=dep.id), headers=h, json=body), 403)["message"] == NOT_ALLOWED
        assert f.failure(client.post("/api/deposits", headers=h, json=_buy_body(w, bank)), 403)["message"] == NOT_ALLOWED

    # another firm's staff and clients, and a client of the firm who does not hold it: not found
    for outsider in (w.other_adviser, w.other_client, w.stranger):
        h = f.headers(outsider)
        assert f.failure(client.get(f"/api/deposits/{dep.id}", headers=h), 404)["message"] == NOT_FOUND
        assert f.failure(client.get(f"/api/deposits/{dep.id}/amm-transactions", headers=h), 404)["message"] == NOT_FOUND
        assert f.failure(client.get("/api/deposits", headers=h, params=where), 404)["message"] == "NotFoundError: Portfolio not found"
        for method, path, body in WRITES:
            assert f.failure(getattr(client, method)(path.format(id=dep.id), headers=h, json=body), 404)["message"] == NOT_FOUND
        assert f.failure(client.post("/api/deposits", headers=h, json=_buy_body(w, bank)), 404)
    assert [r["id"] for r in f.ok_result(client.get("/api/deposits", headers=f.headers(w.other_adviser)))["rows"]] == [other.id]

    # staff of the firm and the superuser write
    for staff, deal in ((w.admin, "S1"), (w.adviser, "S2"), (w.superuser, "S3")):
        h = f.headers(staff)
        assert f.ok_result(client.post("/api/deposits", headers=h, json=_buy_body(w, bank, DealID=deal)))["deposit"]["DealID"] == deal
        assert f.ok_result(client.post(f"/api/deposits/{dep.id}/sell", headers=h,
                                       json={"StartDate": "2026-02-01", "amount": "1"}))["message"] == "Transaction added"
    assert f.ok_result(client.post(f"/api/deposits/{dep.id}/reprocess", headers=f.headers(w.adviser), json={}))["title"] == "Success"
    assert f.ok_result(client.get(f"/api/deposits/{other.id}", headers=f.headers(w.superuser)))["id"] == other.id

    # no token at all
    assert client.get(f"/api/deposits/{dep.id}").status_code == 401
