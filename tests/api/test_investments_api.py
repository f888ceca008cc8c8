"""/api/investments over HTTP: every call's path and shape (rows + totals.count), the texts, and the
permissions per role and firm - superuser, administrator, adviser, client holder, client who holds
nothing, another firm (404)."""
from __future__ import annotations

import pytest

from app.services import reference_data
from tests import factories as f
from tests import factories_assets as fa
from tests import factories_models as fm
from tests import factories_portfolios as fp

NOT_FOUND = "NotFoundError: Portfolio not found"
NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


def test_crud_round_trip(client, w):
    h = f.headers(w.admin)
    created = f.ok_result(client.post("/api/investments", headers=h, json={
        "name": "Nguyen Company", "type": "COMPANY", "company_name": "Nguyen Pty Ltd", "inactive": None,
        "users": [{"id": w.client.id, "is_owner": True}], "adviser": w.adviser.id, "fee_percent": None}))
    assert created["message"] == "Portfolio is created/updated"
    assert created["inactive"] is True and created["tax_treatment"] == "fifo" and created["sell_look_back_period"] == 0
    pid = created["id"]
    got = f.ok_result(client.get(f"/api/investments/{pid}", headers=h))
    assert got["company_name"] == "Nguyen Pty Ltd" and got["type_title"] == "Company" and got["version"] == 1

    saved = f.ok_result(client.put(f"/api/investments/{pid}", headers=h, json={**got, "name": "Nguyen Holdings"}))
    assert saved["name"] == "Nguyen Holdings" and saved["version"] == 2
    stale = f.failure(client.put(f"/api/investments/{pid}", headers=h, json={**got, "name": "Late"}), 409)
    assert stale["message"] == ("ConflictError: This portfolio was changed by someone else. "
                                "Reload it and apply your changes again.")

    bad = f.failure(client.post("/api/investments", headers=h, json={"name": ""}), 400)
    assert bad["message"] == "ValidationError: Please, fill all required fields with valid data."
    assert bad["errors"] == {"name": "Please, enter portfolio name. ", "type": "Please, select portfolio type. "}

    assert f.ok_result(client.delete(f"/api/investments/{pid}", headers=h)) == {"message": "Portfolio is deleted"}
    assert f.failure(client.get(f"/api/investments/{pid}", headers=h), 404)["message"] == NOT_FOUND


def test_list_shape_filters_and_by_models(client, w):
    broker = fp.make_broker("Bell Direct Test")
    model = fm.make_model(w.firm, name="Growth", availability="with_practice")
    fp.make_portfolio(w.firm, holders=[w.client], name="Apple", broker_id=broker.id, model=model)
    fp.make_portfolio(w.firm, holders=[w.client], name="Zed", inactive=True)
    h = f.headers(w.admin)
    body = f.ok_result(client.get("/api/investments", headers=h))
    assert body["totals"] == {"count": 2} and [r["name"] for r in body["rows"]] == ["Apple", "Smith Family"]
    body = f.ok_result(client.get("/api/investments?activityStatus=all&sort=name&order=desc&limit=2&offset=0", headers=h))
    assert [r["name"] for r in body["rows"]] == ["Zed", "Smith Family"] and body["totals"]["count"] == 3
    assert f.ok_result(client.get("/api/investments?activityStatus=inactive", headers=h))["totals"]["count"] == 1
    by = lambda q: [r["name"] for r in f.ok_result(client.get(f"/api/investments?{q}", headers=h))["rows"]]  # noqa: E731
    assert by("broker_id=-2") == ["Smith Family"] and by(f"broker_id={broker.id}") == ["Apple"] and len(by("broker_id=-1")) == 2
    assert by(f"client_id={w.co_holder.id}") == ["Smith Family"]
    assert by(f"adviser_id={w.adviser.id}") == ["Smith Family"]
    assert by(f"model_id={model.id}") == ["Apple"] and by(f"firm_id={w.firm.id}") == ["Apple", "Smith Family"]
    assert by("search=smith") == ["Smith Family"]
    assert by("tp_calculation=1") == ["Apple"] and by("approved=1") == []
    found = f.ok_result(client.post("/api/investments-by-models", headers=h, json=[model.id]))
    assert [r["name"] for r in found["rows"]] == ["Apple"] and found["totals"] == {"count": 1}
    found = f.ok_result(client.post("/api/investments-by-models?activityStatus=all", headers=h,
                                    json={"model_ids": [model.id, 12345]}))
    assert found["totals"]["count"] == 1


@pytest.mark.parametrize("who, count", [
    ("superuser", 2), ("admin", 1), ("adviser", 1), ("client", 1), ("co_holder", 1), ("stranger", 0),
    ("other_adviser", 1), ("other_client", 1),
])
def test_who_lists_what(client, w, who, count):
    body = f.ok_result(client.get("/api/investments", headers=f.headers(getattr(w, who))))
    assert body["totals"]["count"] == count
    if who in ("admin", "adviser", "client", "co_holder"):
        assert [r["name"] for r in body["rows"]] == ["Smith Family"]


@pytest.mark.parametrize("who, read, write", [
    ("superuser", 200, 200),
    ("admin", 200, 200),
    ("adviser", 200, 200),
    ("client", 200, 403),        # a holder reads, never changes
    ("co_holder", 200, 403),
    ("stranger", 404, 404),      # a client of the firm who holds nothing
    ("other_adviser", 404, 404),  # another firm
    ("other_client", 404, 404),
])
def test_permissions_per_role_and_firm(client, w, who, read, write):
    h = f.headers(getattr(w, who))
    pid = w.portfolio.id
    response = client.get(f"/api/investments/{pid}", headers=h)
    if read == 200:
        assert f.ok_result(response)["name"] == "Smith Family"
    else:
        assert f.failure(response, 404)["message"] == NOT_FOUND

    model = fm.make_model(w.firm, name="Harbour Model", availability="with_practice")
    calls = [
        lambda: client.put(f"/api/investments/{pid}", headers=h, json={"name": "Changed"}),
        lambda: client.post("/api/investments-buy-model", headers=h, json={"investment_id": pid, "model_id": model.id}),
        lambda: client.put(f"/api/investments/{pid}/unlinkModel", headers=h),
        lambda: client.get(f"/api/investments/{pid}/linkable-models", headers=h),
        lambda: client.delete(f"/api/investments/{pid}", headers=h),
    ]
    for call in calls:
        response = call()
        if write == 200:
            assert response.status_code == 200, response.text
        else:
            expected = NOT_ALLOWED if write == 403 else NOT_FOUND
            assert f.failure(response, write)["message"] == expected
    if write == 200:
        assert fp.portfolio_row(pid).deleted_at is not None
    else:
        row = fp.portfolio_row(pid)
        assert row.deleted_at is None and row.name == "Smith Family" and row.model_id is None


def test_clients_create_nothing_and_other_firms_people_are_refused(client, w):
    assert f.failure(client.post("/api/investments", headers=f.headers(w.client), json={
        "name": "Mine", "type": "SAVINGS"}), 403)["message"] == NOT_ALLOWED
    bad = f.failure(client.post("/api/investments", headers=f.headers(w.admin), json={
        "name": "Mixed", "type": "SAVINGS", "users": [{"id": w.other_client.id}], "adviser": w.other_adviser.id}), 400)
    assert bad["errors"] == {"users": "Holders must be clients of the portfolio's firm.",
                             "adviser": "The adviser must be an adviser of the portfolio's firm."}


def test_buy_model_and_unlink(client, w):
    fa.make_cash_class()
    h = f.headers(w.adviser)
    pid = w.portfolio.id
    foreign = fm.make_model(w.other_firm, name="Shared Income", availability="with_practice", shared=[w.firm])
    hidden = fm.make_model(w.other_firm, name="Hidden", availability="only_superuser")
    holding = fp.make_custom_holding(pid, "Unit Trust")
    models = f.ok_result(client.get(f"/api/investments/{pid}/linkable-models", headers=h))
    assert [(m["name"], m["cross_firm"]) for m in models["rows"]] == [("Shared Income", True)] and models["count"] == 1
    assert f.failure(client.post("/api/investments-buy-model", headers=h, json={"investment_id": pid, "model_id": hidden.id}),
                     404)["message"] == "NotFoundError: Model not found"
    linked = f.ok_result(client.post("/api/investments-buy-model", headers=h, json={"investment_id": pid,
                                                                                   "model_id": foreign.id}))
    assert linked == {"investment_id": pid, "model_id": foreign.id, "modelName": "Shared Income",
                      "customAssetClassesChanged": True, "message": "Model linked"}
    got = f.ok_result(client.get(f"/api/investments/{pid}", headers=h))
    assert got["model"]["name"] == "Shared Income"
    assert got["firm_ids"] == {"owner_firm_id": w.firm.id, "model_firm_id": w.other_firm.id}
    assert got["custom_holdings"][0]["classTitle"] == "Cash" and holding.id == got["custom_holdings"][0]["id"]
    unlinked = f.ok_result(client.put(f"/api/investments/{pid}/unlinkModel", headers=h))
    assert unlinked["message"] == "Model unlinked"
    again = f.failure(client.put(f"/api/investments/{pid}/unlinkModel", headers=h), 400)
    assert again["message"] == "ValidationError: The portfolio is not linked to a model"


def test_brokers_institutions_and_form_options(client, w):
    reference_data.ensure_reference_data()
    h = f.headers(w.client)
    brokers = f.ok_result(client.get("/api/brokers", headers=h))["rows"]
    assert {"CommSec", "Macquarie Online Trading", "AUSIEX"} <= {b["name"] for b in brokers}
    where = '{"product_types": {"contains": "Cash Account"}}'
    cash = f.ok_result(client.get("/api/institutions", headers=h, params={"where": where}))["rows"]
    everything = f.ok_result(client.get("/api/institutions", headers=h))["rows"]
    assert 0 < len(cash) < len(everything) and all("Cash Account" in i["product_types"] for i in cash)
    at_call = f.ok_result(client.get("/api/institutions", headers=h, params={"where": '{"product_types": "At Call Account"}'}))
    assert {"Building Society", "Credit Union"} <= {i["provider_type"] for i in at_call["rows"]}
    assert f.failure(client.get("/api/brokers"), 401)["success"] is False
    options = f.ok_result(client.get("/api/investments-form-options", headers=f.headers(w.admin)))
    assert {c["id"] for c in options["clients"]} == {w.client.id, w.co_holder.id, w.stranger.id}
    assert f.failure(client.get("/api/investments-form-options", headers=h), 403)["message"] == NOT_ALLOWED


def test_openapi_lists_the_calls(client, db):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/investments", "/api/investments/{investment_id}", "/api/investments-by-models",
                 "/api/investments-buy-model", "/api/investments/{investment_id}/unlinkModel", "/api/brokers",
                 "/api/institutions"):
        assert path in paths
