"""/api/industry-groups over HTTP: envelopes, list shapes, permissions, texts, unique titles,
delete blocked by linked assets (with its helper text), and the reorder call."""
from __future__ import annotations

import pytest

from tests import factories as f
from tests import factories_assets as fa
from tests import factories_industry_groups as g

NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"


@pytest.fixture
def world(db):
    return f.make_world()


def test_superuser_crud_and_reorder(client, world):
    h = f.headers(world.superuser)
    created = f.ok_result(client.post("/api/industry-groups", headers=h, json={"title": " Energy "}))
    assert created == {"id": created["id"], "title": "Energy", "color": "#3e63dd", "idx": 0, "assets_count": 0}
    materials = f.ok_result(client.post("/api/industry-groups", headers=h, json={"title": "Materials", "color": "#12A594"}))
    assert materials["color"] == "#12a594" and materials["idx"] == 1
    assert f.ok_result(client.get(f"/api/industry-groups/{created['id']}", headers=h)) == created

    updated = f.ok_result(client.put(f"/api/industry-groups/{created['id']}", headers=h,
                                     json={"id": created["id"], "title": "Energy & Utilities", "color": "#e54666", "idx": 0}))
    assert (updated["title"], updated["color"], updated["idx"]) == ("Energy & Utilities", "#e54666", 0)

    listed = f.ok_result(client.get("/api/industry-groups", headers=h))
    assert listed["totals"] == [{"count": 2}]
    assert [r["title"] for r in listed["rows"]] == ["Energy & Utilities", "Materials"]

    reordered = f.ok_result(client.put("/api/industry-groups-reorder", headers=h,
                                       json=[{"id": materials["id"], "idx": 0}, {"id": created["id"], "idx": 1}]))
    assert reordered["message"] == "Industry groups has been reordered"
    assert [(r["title"], r["idx"]) for r in reordered["rows"]] == [("Materials", 0), ("Energy & Utilities", 1)]
    main = f.ok_result(client.get("/api/industry-groups/main-list", headers=h))
    assert main == [{"id": materials["id"], "title": "Materials", "color": "#12a594"},
                    {"id": created["id"], "title": "Energy & Utilities", "color": "#e54666"}]

    assert f.ok_result(client.delete(f"/api/industry-groups/{created['id']}", headers=h)) == {"message": "Industry group deleted"}
    assert f.failure(client.get(f"/api/industry-groups/{created['id']}", headers=h), 404)["message"] == \
        "NotFoundError: Industry group not found"
    assert g.order() == ["Materials"]


def test_staff_read_and_clients_are_refused(client, world):
    energy = fa.make_group("Energy")
    fa.make_asset("WDS", group=energy)
    for user in (world.admin_a, world.adviser_b):
        h = f.headers(user)
        rows = f.ok_result(client.get("/api/industry-groups", headers=h))["rows"]
        assert rows == [{"id": energy.id, "title": "Energy", "color": "#3e63dd", "idx": 0, "assets_count": 1}]
        assert f.ok_result(client.get("/api/industry-groups/main-list", headers=h)) == [
            {"id": energy.id, "title": "Energy", "color": "#3e63dd"}]
    h = f.headers(world.client_a)
    for response in (client.get("/api/industry-groups", headers=h), client.get("/api/industry-groups/main-list", headers=h),
                     client.get(f"/api/industry-groups/{energy.id}", headers=h)):
        assert f.failure(response, 403)["message"] == NOT_ALLOWED
    assert f.failure(client.get("/api/industry-groups"), 401)["message"].startswith("AuthenticationError: ")


@pytest.mark.parametrize("who", ["admin_a", "adviser_a", "client_a"])
def test_only_the_superuser_writes(client, world, who):
    energy, materials = fa.make_groups("Energy", "Materials")
    h = f.headers(getattr(world, who))
    before = g.state()
    responses = [
        client.post("/api/industry-groups", headers=h, json={"title": "Utilities"}),
        client.put(f"/api/industry-groups/{energy.id}", headers=h, json={"title": "Oil"}),
        client.delete(f"/api/industry-groups/{materials.id}", headers=h),
        client.put("/api/industry-groups-reorder", headers=h, json=[{"id": energy.id, "idx": 1}, {"id": materials.id, "idx": 0}]),
    ]
    for response in responses:
        assert f.failure(response, 403)["message"] == NOT_ALLOWED
    assert g.state() == before


def test_validation_texts(client, world):
    h = f.headers(world.superuser)
    energy = fa.make_group("Energy")
    body = f.failure(client.post("/api/industry-groups", headers=h, json={"title": ""}), 400)
    assert body == {"success": False, "message": "ValidationError: Please, enter title. ",
                    "errors": {"title": "Please, enter title. "}}
    body = f.failure(client.post("/api/industry-groups", headers=h, json={"title": "ENERGY"}), 400)
    assert body["message"] == "ValidationError: Title should be unique." and body["errors"] == {"title": "Title should be unique."}
    body = f.failure(client.post("/api/industry-groups", headers=h, json={"title": "Gold", "color": "gold"}), 400)
    assert body["errors"] == {"color": "Please, choose a valid color (#rrggbb). "}
    other = fa.make_group("Materials")
    body = f.failure(client.put(f"/api/industry-groups/{other.id}", headers=h, json={"title": "energy "}), 400)
    assert body["message"] == "ValidationError: Title should be unique."
    # odd bodies are answered, never a server error
    for payload in ([1, 2], "text", None):
        f.failure(client.post("/api/industry-groups", headers=h, json=payload), 400)
    for payload in ({"title": ["a"]}, {"title": {"x": 1}}, {"title": True}):
        body = f.failure(client.post("/api/industry-groups", headers=h, json=payload), 400)
        assert body["errors"] == {"title": "Please, enter title. "}
    for payload in ({"title": "Gold", "color": 123456}, {"title": "Gold", "color": ["#ffffff"]}):
        body = f.failure(client.post("/api/industry-groups", headers=h, json=payload), 400)
        assert body["errors"] == {"color": "Please, choose a valid color (#rrggbb). "}
    assert f.ok_result(client.post("/api/industry-groups", headers=h, json={"title": 12}))["title"] == "12"
    assert g.order() == ["Energy", "Materials", "12"]
    assert f.failure(client.put("/api/industry-groups/abc", headers=h, json={"title": "X"}), 404)["message"] == \
        "NotFoundError: Industry group not found"
    assert energy.id


def test_delete_blocked_with_linked_assets_names_the_group_and_the_helper(client, world):
    h = f.headers(world.superuser)
    energy = fa.make_group("Energy")
    fa.make_asset("WDS", group=energy)
    body = f.failure(client.delete(f"/api/industry-groups/{energy.id}", headers=h), 409)
    assert body == {"success": False, "message": "ConflictError: The industry group Energy has linked assets.",
                    "errors": {"helper": "Please, relink them to other industry groups first."}}
    assert g.order() == ["Energy"]


@pytest.mark.parametrize(
    "payload, status, message",
    [
        (None, 400, "ValidationError: Please, send every industry group once with its position."),
        ([], 400, "ValidationError: Please, send every industry group once with its position."),
        ({"id": 1, "idx": 0}, 400, "ValidationError: Please, send every industry group once with its position."),
        ("x", 400, "ValidationError: Please, send every industry group once with its position."),
        ([{"id": "A", "idx": 0}], 400, "ValidationError: Please, send every industry group once with its position."),
        ("ONE", 409, "ConflictError: The industry groups were changed by someone else. Reload the list and try again."),
    ],
)
def test_reorder_refusals(client, world, payload, status, message):
    h = f.headers(world.superuser)
    energy, materials = fa.make_groups("Energy", "Materials")
    if payload == "ONE":
        payload = [{"id": materials.id, "idx": 0}]
    before = g.state()
    assert f.failure(client.put("/api/industry-groups-reorder", headers=h, json=payload), status)["message"] == message
    assert g.state() == before
    assert energy.id
