"""/api/models over HTTP: envelope and list shape, every call's path, texts, tenancy and roles."""
from __future__ import annotations

import pytest

from tests import factories as f
from tests import factories_models as fm

INVALID = "ValidationError: Please, fill all required fields with valid data."
NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"
NOT_FOUND = "NotFoundError: Model not found"


@pytest.fixture
def world(db):
    return f.make_world()


@pytest.fixture
def u(db):
    return fm.make_universe()


def _create(client, user, data):
    return f.ok_result(client.post("/api/models", headers=f.headers(user), json=data))


def test_crud_history_versions_and_details(client, world, u):
    h = f.headers(world.admin_a)
    created = f.ok_result(client.post("/api/models", headers=h, json=fm.payload(u)))
    assert created["message"] == "Model created and activated."
    mid = created["id"]
    got = f.ok_result(client.get(f"/api/models/{mid}", headers=h))
    assert got["name"] == "Balanced Growth" and got["can_edit"] is True and got["version_id"] == 1
    assert [c["title"] for c in got["allocation_classes"]] == ["Australian Equities", "Fixed Income", "Cash"]

    saved = f.ok_result(client.put(f"/api/models/{mid}", headers=h, json={**got, "name": "Renamed", "status": "draft"}))
    assert saved["message"] == "Model saved as draft." and saved["version"] == 2
    # the read shape goes back as a payload unchanged: same content, next version
    assert saved["allocation_classes"] == got["allocation_classes"]
    assert saved["equivalents"] == got["equivalents"] and saved["industry_groups_allocations"] == got["industry_groups_allocations"]

    stale = f.failure(client.put(f"/api/models/{mid}", headers=h, json={**got, "name": "Late"}), 409)
    assert stale["message"] == "ConflictError: This model was changed by someone else. Reload it and apply your changes again."

    history = f.ok_result(client.get(f"/api/models/{mid}/history", headers=h))
    assert history["count"] == 2 and [r["version_id"] for r in history["rows"]] == [2, 1]
    assert history["rows"][0]["moderator"] == {"first_name": world.admin_a.first_name, "last_name": "Tester"}
    assert set(history["rows"][0]) == {"created_at", "moderator", "model_id", "version_id"}
    page = f.ok_result(client.get(f"/api/models/{mid}/history?limit=1&offset=1", headers=h))
    assert page["count"] == 2 and [r["version_id"] for r in page["rows"]] == [1]
    ascending = f.ok_result(client.get(f"/api/models/{mid}/history?orderDirection=asc", headers=h))
    assert [r["version_id"] for r in ascending["rows"]] == [1, 2]

    old = f.ok_result(client.get(f"/api/models/{mid}/versions/1", headers=h))
    assert old["name"] == "Balanced Growth" and old["is_version"] is True and old["status"] == "active"
    assert f.failure(client.get(f"/api/models/{mid}/versions/9", headers=h), 404)["message"] == "NotFoundError: Model version not found"

    details = f.ok_result(client.get(f"/api/models/{mid}/details", headers=h))
    assert details["model"]["name"] == "Renamed"
    assert details["classes"][0]["assets"][0]["code"] == "BHP" and details["classes"][0]["assets"][0]["dividend_yield"] == "5.1000"

    assert f.ok_result(client.delete(f"/api/models/{mid}", headers=h)) == {"message": "Model is deleted"}
    assert f.failure(client.get(f"/api/models/{mid}", headers=h), 404)["message"] == NOT_FOUND
    assert f.failure(client.delete(f"/api/models/{mid}", headers=h), 404)["message"] == NOT_FOUND
    assert fm.model_row(mid).deleted_at is not None


@pytest.mark.parametrize("change, message, errors", [
    ({"name": ""}, INVALID, {"name": "Please, enter model name. "}),
    ({"equivalents": [{"asset_id": None, "eq_asset_id": None}]}, "ValidationError: Please, select all equivalents",
     {"equivalents.0": "Please, select all equivalents"}),
    ({"firms": [999999]}, "ValidationError: Please, select firm for sharing", {"firms": "Please, select firm for sharing"}),
])
def test_validation_failures(client, world, u, change, message, errors):
    body = f.failure(client.post("/api/models", headers=f.headers(world.admin_a), json=fm.payload(u, **change)), 400)
    assert body["message"] == message
    assert body["errors"] == errors
    assert f.ok_result(client.get("/api/models", headers=f.headers(world.admin_a)))["totals"] == [{"count": 0}]


def test_totals_texts(client, world, u):
    h = f.headers(world.admin_a)
    data = fm.payload(u)
    data["allocation_classes"][0]["allocation"] = "61"
    assert f.failure(client.post("/api/models", headers=h, json=data), 400)["message"] == \
        "ValidationError: Total allocation has to be 100%."
    data = fm.payload(u)
    for row, top in zip(data["allocation_classes"], ("60", "35", "4")):
        row["max"] = top
    assert f.failure(client.post("/api/models", headers=h, json=data), 400)["message"] == \
        "ValidationError: Sum of Max allocations should be more than 100."
    data = fm.payload(u, industry_groups_allocations=[{"industry_group_id": u.banks.id, "allocation": "101"}])
    assert f.failure(client.post("/api/models", headers=h, json=data), 400)["message"] == INVALID
    data = fm.payload(u, industry_groups_allocations=[{"industry_group_id": u.banks.id, "allocation": "60"},
                                                      {"industry_group_id": u.miners.id, "allocation": "41"}])
    assert f.failure(client.post("/api/models", headers=h, json=data), 400)["message"] == \
        "ValidationError: Industry groups total allocation has to be less or equal to 100%."
    assert f.failure(client.post("/api/models", headers=h, json=[1, 2]), 400)["message"].startswith("ValidationError:")
    su = f.headers(world.superuser)
    body = f.failure(client.post("/api/models", headers=su, json=fm.payload(u)), 400)
    assert body["errors"] == {"ownerId": "Please, select firm. "}
    created = f.ok_result(client.post("/api/models", headers=su, json=fm.payload(u, ownerId=world.firm_b.id, status="draft")))
    assert created["message"] == "Model created as draft." and created["owner"][0]["id"] == world.firm_b.id


def test_list_shape_query_parameters_and_superuser_firm_filter(client, world, u):
    for name in ("Gamma", "alpha", "Beta"):
        _create(client, world.admin_a, fm.payload(u, name=name))
    _create(client, world.admin_b, fm.payload(u, name="Delta", status="draft"))
    h = f.headers(world.admin_a)
    result = f.ok_result(client.get("/api/models", headers=h))
    assert set(result) == {"rows", "totals"} and result["totals"] == [{"count": 3}]
    assert [r["name"] for r in result["rows"]] == ["alpha", "Beta", "Gamma"]
    result = f.ok_result(client.get("/api/models?limit=1&offset=1&sort=name&order=desc", headers=h))
    assert [r["name"] for r in result["rows"]] == ["Beta"] and result["totals"] == [{"count": 3}]
    assert [r["name"] for r in f.ok_result(client.get("/api/models?search=amm", headers=h))["rows"]] == ["Gamma"]
    for flag in ("link", "tp_calculation", "tr_calculation", "str_upload", "recommendations_upload"):
        assert f.ok_result(client.get(f"/api/models?{flag}=1", headers=h))["totals"] == [{"count": 3}]

    su = f.headers(world.superuser)
    assert f.ok_result(client.get("/api/models", headers=su))["totals"] == [{"count": 4}]
    only_b = f.ok_result(client.get(f"/api/models?firmId={world.firm_b.id}", headers=su))
    assert [(r["name"], r["firm"]["name"]) for r in only_b["rows"]] == [("Delta", "Bravo Wealth")]
    assert f.ok_result(client.get("/api/models?firmId=-2", headers=su))["totals"] == [{"count": 4}]
    assert f.ok_result(client.get("/api/models?tp_calculation=1", headers=su))["totals"] == [{"count": 3}]
    # limit/offset that are not numbers fall back to the defaults
    assert f.ok_result(client.get("/api/models?limit=abc&offset=-3", headers=su))["totals"] == [{"count": 4}]


def test_tenancy_and_roles(client, world, u):
    own = _create(client, world.admin_a, fm.payload(u))
    shared = _create(client, world.admin_a, fm.payload(u, name="Shared", firms=[world.firm_b.id]))
    everyone = _create(client, world.admin_a, fm.payload(u, name="Everyone", all=True))
    hb = f.headers(world.adviser_b)
    assert f.failure(client.get(f"/api/models/{own['id']}", headers=hb), 404)["message"] == NOT_FOUND
    assert f.failure(client.put(f"/api/models/{own['id']}", headers=hb, json=fm.payload(u)), 404)["message"] == NOT_FOUND
    assert f.failure(client.get(f"/api/models/{own['id']}/history", headers=hb), 404)["message"] == NOT_FOUND
    for model in (shared, everyone):
        got = f.ok_result(client.get(f"/api/models/{model['id']}", headers=hb))
        assert got["can_edit"] is False
        f.ok_result(client.get(f"/api/models/{model['id']}/details", headers=hb))
        assert f.failure(client.put(f"/api/models/{model['id']}", headers=hb, json=fm.payload(u)), 403)["message"] == NOT_ALLOWED
        assert f.failure(client.delete(f"/api/models/{model['id']}", headers=hb), 403)["message"] == NOT_ALLOWED
    assert sorted(r["name"] for r in f.ok_result(client.get("/api/models", headers=hb))["rows"]) == ["Everyone", "Shared"]

    hc = f.headers(world.client_a)
    mid = own["id"]
    for method, path, body in [
        ("get", "/api/models", None), ("get", f"/api/models/{mid}", None), ("post", "/api/models", fm.payload(u)),
        ("put", f"/api/models/{mid}", fm.payload(u)), ("delete", f"/api/models/{mid}", None),
        ("get", f"/api/models/{mid}/history", None), ("get", f"/api/models/{mid}/versions/1", None),
        ("get", f"/api/models/{mid}/details", None), ("get", "/api/models-form-options", None),
    ]:
        response = client.request(method.upper(), path, headers=hc, json=body)
        assert f.failure(response, 403)["message"] == NOT_ALLOWED, path
    assert f.failure(client.get("/api/models"), 401)["success"] is False
    assert f.failure(client.get("/api/models/abc", headers=f.headers(world.admin_a)), 404)["message"] == NOT_FOUND


def test_form_options(client, world, u):
    options = f.ok_result(client.get("/api/models-form-options", headers=f.headers(world.admin_a)))
    assert set(options) == {"classes", "types", "industry_groups", "firms"}
    assert options["firms"] == [{"id": world.firm_b.id, "name": "Bravo Wealth"}]
    su = f.ok_result(client.get(f"/api/models-form-options?firmId={world.firm_a.id}", headers=f.headers(world.superuser)))
    assert [x["name"] for x in su["firms"]] == ["Alpha Advisory", "Bravo Wealth"]
    assert {"id": u.cash.id, "title": "Cash", "is_cash": True} in su["classes"]


def test_openapi_lists_the_model_paths(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/models", "/api/models/{model_id}", "/api/models/{model_id}/history",
                 "/api/models/{model_id}/versions/{version}", "/api/models/{model_id}/details", "/api/models-form-options"):
        assert path in paths
    assert {"get", "post"} <= set(paths["/api/models"]) and {"get", "put", "delete"} <= set(paths["/api/models/{model_id}"])
