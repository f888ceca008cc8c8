"""Cash transactions, opening balance, asset transactions and upload over HTTP: every path, the
envelope and shapes, and who may do what per role and firm."""
from __future__ import annotations

from decimal import Decimal as D

import pytest

from tests import factories as f
from tests.factories_assets import make_asset
from tests.factories_portfolios import make_portfolio_world, post

NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"
PORTFOLIO_NOT_FOUND = "NotFoundError: Portfolio not found"
TX_NOT_FOUND = "NotFoundError: Transaction not found"


@pytest.fixture
def w(db):
    return make_portfolio_world()


@pytest.fixture
def bhp(db):
    return make_asset("BHP", name="BHP Group Limited", last_close_price=D("50"))


def test_openapi_lists_every_path(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    expected = {
        "/api/investments/{investment_id}/cash-transactions": {"get"},
        "/api/cash-transactions": {"post"},
        "/api/cash-transactions/{transaction_id}": {"get", "put", "delete"},
        "/api/investments/{investment_id}/opening-balance": {"get", "put"},
        "/api/investments/{investment_id}/asset-transactions": {"get"},
        "/api/investments/{investment_id}/asset-transactions/{asset_id}": {"get"},
        "/api/transactions": {"post"},
        "/api/transactions/{transaction_id}": {"get", "put", "delete"},
        "/api/transactions/upload": {"post"},
    }
    for path, methods in expected.items():
        assert methods <= set(paths[path]), path
    params = {p["name"] for p in paths["/api/investments/{investment_id}/asset-transactions"]["get"]["parameters"]}
    assert {"page", "offset", "limit", "order", "reverse"} <= params
    params = {p["name"] for p in paths["/api/investments/{investment_id}/asset-transactions/{asset_id}"]["get"]["parameters"]}
    assert {"statuses[]", "types[]"} <= params


def test_the_whole_flow_as_an_adviser(client, w, bhp):
    h = f.headers(w.adviser)
    pid = w.portfolio.id
    ob = f.ok_result(client.put(f"/api/investments/{pid}/opening-balance", headers=h,
                                json={"price": 10000, "trade_at": "2026-01-01"}))
    assert ob["notice"] == "Opening balance has been changed" and ob["price"] == "10000.00"
    assert f.ok_result(client.get(f"/api/investments/{pid}/opening-balance", headers=h))["id"] == ob["id"]

    bought = f.ok_result(client.post("/api/transactions", headers=h, json={
        "investment_id": pid, "type": "purchase", "code": "bhp", "quantity": 100, "price": 30.5, "fee": 9.95,
        "trade_at": "05/01/2026", "contract_note": "CN-1"}))
    assert bought["notice"] == "Transaction added" and bought["amount"] == "3059.95" and "message" not in bought
    sold = f.ok_result(client.post("/api/transactions", headers=h, json={
        "investment_id": pid, "type": "sell", "asset_id": bhp.id, "quantity": 40, "price": 35,
        "trade_at": "05/02/2026"}))
    too_many = f.failure(client.post("/api/transactions", headers=h, json={
        "investment_id": pid, "type": "sell", "asset_id": bhp.id, "quantity": 61, "price": 35,
        "trade_at": "06/02/2026"}), 400)
    assert too_many["message"] == "ValidationError: Not enough assets to sell"
    bad = f.failure(client.post("/api/transactions", headers=h, json={"investment_id": pid, "type": "dividend"}), 400)
    assert bad["message"] == "ValidationError: Please, fill all required fields with valid data"
    assert bad["errors"] == {"asset_id": "Please, select asset. ", "trade_at": "Please, enter date. ",
                             "amount": "Please, enter amount. "}
    credit = f.ok_result(client.post("/api/cash-transactions", headers=h, json={
        "investment_id": pid, "type": "credit", "price": "250", "trade_at": "2026-01-03"}))
    assert credit["class"] == "Credit"

    page = f.ok_result(client.get(f"/api/investments/{pid}/cash-transactions", headers=h))
    assert set(page) >= {"rows", "count", "balance", "cash_in", "cash_out"}
    assert page["count"] == 4 and page["balance"] == str(D("10000") - D("3059.95") + D("1400.00") + D("250.00"))
    assert [r["class"] for r in page["rows"]] == ["Sell", "Buy", "Credit", "Opening Balance"]
    assert f.ok_result(client.get(f"/api/investments/{pid}/cash-transactions?limit_per_page=24&page=1",
                                  headers=h))["limit"] == 24

    panel = f.ok_result(client.get(f"/api/investments/{pid}/asset-transactions?page=1&limit=12&order=code&reverse=0",
                                   headers=h))
    assert isinstance(panel, list) and panel[0]["total_rows"] == 1 and panel[0]["remaining_quantity"] == "60"
    rows = f.ok_result(client.get(f"/api/investments/{pid}/asset-transactions/{bhp.id}?statuses[]=executed",
                                  headers=h))
    assert [r["display_quantity"] for r in rows] == ["-40", "100"]
    assert f.ok_result(client.get(f"/api/investments/{pid}/asset-transactions/{bhp.id}?statuses[]=draft",
                                  headers=h)) == []

    got = f.ok_result(client.get(f"/api/transactions/{bought['id']}", headers=h))
    assert got["contract_note"] == "CN-1" and got["can_edit"] is True
    changed = f.ok_result(client.put(f"/api/transactions/{bought['id']}", headers=h, json={"fee": "0"}))
    assert changed["notice"] == "Transaction updated" and changed["amount"] == "3050.00"
    gone = f.ok_result(client.delete(f"/api/transactions/{sold['id']}", headers=h))
    assert gone == {"notice": "Transaction has been removed"}
    assert f.ok_result(client.delete(f"/api/cash-transactions/{credit['id']}", headers=h))["notice"] \
        == "Transaction has been removed"
    refused = f.failure(client.delete(f"/api/cash-transactions/{ob['id']}", headers=h), 400)
    assert refused["message"] == "ValidationError: An opening balance cannot be deleted"


def test_error_flow_needs_confirmation(client, w, bhp):
    h = f.headers(w.adviser)
    failed = post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=10, price="30", status="processing_error")
    asked = f.failure(client.put(f"/api/transactions/{failed.id}", headers=h, json={"price": 31}), 409)
    assert asked["message"].startswith("ConflictError: This transaction failed in order management.")
    made = f.ok_result(client.put(f"/api/transactions/{failed.id}", headers=h, json={"price": 31, "confirm": True}))
    assert made["notice"] == "Transaction created" and made["replaces_id"] == failed.id


def test_reconstruction_warning_is_the_message(client, w, bhp):
    h = f.headers(w.adviser)
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=10, price="30")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=10, price="30", status="pending")
    result = f.ok_result(client.post("/api/transactions", headers=h, json={
        "investment_id": w.portfolio.id, "type": "reconstruction", "asset_id": bhp.id, "ratio": "1:2",
        "trade_at": "2026-02-01"}))
    assert result["notice"] == "Transaction added" and result["message"].startswith("A pending transaction exists")


def test_upload_multipart(client, w, bhp):
    h = f.headers(w.adviser)
    good = b"date,type,code,quantity,price,amount\n05/01/2026,buy,BHP,10,30,\n06/01/2026,credit,,,,100\n"
    result = f.ok_result(client.post("/api/transactions/upload", headers=h, data={"investment_id": str(w.portfolio.id)},
                                     files={"file": ("t.csv", good, "text/csv")}))
    assert result["notice"] == "File uploaded" and result["count"] == 2
    bad = b"date,type,code,quantity,price\n05/01/2026,buy,XYZ,10,30\n06/01/2026,sell,BHP,11,30\n"
    failed = f.failure(client.post("/api/transactions/upload", headers=h, data={"investment_id": str(w.portfolio.id)},
                                   files={"file": ("t.csv", bad, "text/csv")}), 400)
    assert failed["message"] == "ValidationError: Transactions are not uploaded due to line(s): 2, 3"
    assert failed["errors"] == {"2": "code: unknown asset code XYZ", "3": "quantity: Not enough assets to sell"}
    wrong_type = f.failure(client.post("/api/transactions/upload", headers=h, data={"investment_id": str(w.portfolio.id)},
                                       files={"file": ("t.png", good, "image/png")}), 400)
    assert wrong_type["message"] == "ValidationError: Invalid file type!"
    no_file = f.failure(client.post("/api/transactions/upload", headers=h, data={"investment_id": str(w.portfolio.id)}), 400)
    assert no_file["message"] == "ValidationError: Please, select file. "
    client_side = f.failure(client.post("/api/transactions/upload", headers=f.headers(w.client),
                                        data={"investment_id": str(w.portfolio.id)},
                                        files={"file": ("t.csv", good, "text/csv")}), 403)
    assert client_side["message"] == NOT_ALLOWED
    other = f.failure(client.post("/api/transactions/upload", headers=f.headers(w.other_adviser),
                                  data={"investment_id": str(w.portfolio.id)},
                                  files={"file": ("t.csv", good, "text/csv")}), 404)
    assert other["message"] == PORTFOLIO_NOT_FOUND


@pytest.mark.parametrize("who, can_read, can_write", [
    ("superuser", True, True), ("admin", True, True), ("adviser", True, True),
    ("client", True, False), ("co_holder", True, False),
    ("stranger", False, False), ("other_adviser", False, False), ("other_client", False, False),
])
def test_permissions_per_role_and_firm(client, w, bhp, who, can_read, can_write):
    h = f.headers(getattr(w, who))
    pid = w.portfolio.id
    row = post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=10, price="30")
    reads = [
        client.get(f"/api/investments/{pid}/cash-transactions", headers=h),
        client.get(f"/api/investments/{pid}/opening-balance", headers=h),
        client.get(f"/api/investments/{pid}/asset-transactions", headers=h),
        client.get(f"/api/investments/{pid}/asset-transactions/{bhp.id}", headers=h),
    ]
    single = client.get(f"/api/transactions/{row.id}", headers=h)
    if can_read:
        for response in reads + [single]:
            f.ok_result(response)
        assert f.ok_result(single)["can_edit"] is can_write
    else:
        for response in reads:
            assert f.failure(response, 404)["message"] == PORTFOLIO_NOT_FOUND
        assert f.failure(single, 404)["message"] == TX_NOT_FOUND

    writes = [
        client.post("/api/cash-transactions", headers=h, json={"investment_id": pid, "type": "credit", "price": 1,
                                                               "trade_at": "2026-01-01"}),
        client.put(f"/api/investments/{pid}/opening-balance", headers=h, json={"price": 1, "trade_at": "2026-01-01"}),
        client.post("/api/transactions", headers=h, json={"investment_id": pid, "type": "purchase",
                                                          "asset_id": bhp.id, "quantity": 1, "price": 1,
                                                          "trade_at": "2026-01-01"}),
        client.put(f"/api/transactions/{row.id}", headers=h, json={"fee": 1}),
    ]
    if can_write:
        for response in writes:
            f.ok_result(response)
        assert f.ok_result(client.delete(f"/api/transactions/{row.id}", headers=h))["notice"] \
            == "Transaction has been removed"
    else:
        status = 403 if who in ("client", "co_holder", "stranger", "other_client") else 404
        for response in writes:
            body = f.failure(response, status)
            assert body["message"] == (NOT_ALLOWED if status == 403 else
                                       (TX_NOT_FOUND if "/transactions/" in str(response.url) else PORTFOLIO_NOT_FOUND))
        assert f.failure(client.delete(f"/api/transactions/{row.id}", headers=h), status)


def test_bad_ids_and_no_token(client, w):
    h = f.headers(w.adviser)
    assert f.failure(client.get("/api/investments/abc/cash-transactions", headers=h), 404)["message"] == PORTFOLIO_NOT_FOUND
    assert f.failure(client.get("/api/transactions/999999", headers=h), 404)["message"] == TX_NOT_FOUND
    assert f.failure(client.delete("/api/cash-transactions/0", headers=h), 404)["message"] == TX_NOT_FOUND
    assert f.failure(client.get(f"/api/investments/{w.portfolio.id}/cash-transactions"), 401)
    assert f.failure(client.post("/api/transactions", headers=h, json=[1, 2]), 400)
