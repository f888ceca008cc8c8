"""/api/users, /api/me uploads and /api/logo over HTTP: filters, validation, tenancy, soft delete, images."""
from __future__ import annotations

import json

import pytest

from app.domain.roles import Role, UserStatus
from tests import factories as f

INVALID_FORM = "ValidationError: Please, fill all required fields with valid data"
NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"
USER_NOT_FOUND = "NotFoundError: User not found"
NEW = {"first_name": "Nina", "last_name": "North", "email": "nina@example.com"}


@pytest.fixture
def world(db):
    return f.make_world()


def _ids(result):
    return [r["id"] for r in result["rows"]]


# ---- list ------------------------------------------------------------------------------------------
def test_list_shape_default_sort_and_paging(client, world):
    h = f.headers(world.admin_a)
    for first in ("Zed", "aaron", "Mike"):
        f.make_user(Role.CLIENT, world.firm_a, first_name=first, last_name="Extra")
    result = f.ok_result(client.get("/api/users", headers=h))
    assert set(result) == {"rows", "totals"} and result["totals"] == [{"count": 6}]
    names = [r["first_name"].lower() for r in result["rows"]]
    assert names == sorted(names) and names[0] == "aaron"  # name ascending by default
    page = f.ok_result(client.get("/api/users", headers=h, params={"limit": 2, "offset": 4}))
    assert page["totals"] == [{"count": 6}] and [r["first_name"] for r in page["rows"]] == [result["rows"][4]["first_name"], result["rows"][5]["first_name"]]
    short = f.ok_result(client.get("/api/users", headers=h, params={"shortened": 1, "limit": 1}))
    assert set(short["rows"][0]) == {"id", "name", "role", "firm_id"}
    no_me = f.ok_result(client.get("/api/users", headers=h, params={"include_current_user": 0}))
    assert world.admin_a.id not in _ids(no_me) and no_me["totals"] == [{"count": 5}]


def test_list_filters(client, world):
    h = f.headers(world.admin_a)
    disabled = f.make_user(Role.ADVISER, world.firm_a, first_name="Dora", status=UserStatus.DISABLED)
    deleted = f.make_user(Role.CLIENT, world.firm_a, first_name="Dexter", status=UserStatus.DELETED)

    result = f.ok_result(client.get("/api/users?role[]=client", headers=h))
    assert _ids(result) == [world.client_a.id]
    result = f.ok_result(client.get("/api/users?role[]=client&role[]=adviser", headers=h))
    assert set(_ids(result)) == {world.client_a.id, world.adviser_a.id, disabled.id}
    result = f.ok_result(client.get("/api/users?status[]=disabled", headers=h))
    assert _ids(result) == [disabled.id]
    result = f.ok_result(client.get("/api/users?status[]=deleted", headers=h))
    assert _ids(result) == [deleted.id] and result["rows"][0]["status"] == "deleted"
    result = f.ok_result(client.get("/api/users", headers=h))
    assert deleted.id not in _ids(result) and result["totals"] == [{"count": 4}]
    result = f.ok_result(client.get("/api/users", headers=h, params={"search": "dora"}))
    assert _ids(result) == [disabled.id]
    result = f.ok_result(client.get("/api/users", headers=h, params={"search": world.client_a.email.upper()}))
    assert _ids(result) == [world.client_a.id]


def test_created_at_range(client, world):
    h = f.headers(world.superuser)
    early = f.make_user(Role.CLIENT, world.firm_a, created_at=f.at(2024, 3, 1, 0))
    late = f.make_user(Role.CLIENT, world.firm_a, created_at=f.at(2024, 3, 31, 23))
    outside = f.make_user(Role.CLIENT, world.firm_a, created_at=f.at(2024, 4, 1, 0))
    window = json.dumps({"from": "2024-03-01", "to": "2024-03-31"})
    result = f.ok_result(client.get("/api/users", headers=h, params={"created_at": window}))
    assert set(_ids(result)) == {early.id, late.id} and result["totals"] == [{"count": 2}]
    result = f.ok_result(client.get("/api/users", headers=h, params={"created_at": json.dumps({"from": "2024-04-01"})}))
    assert outside.id in _ids(result) and early.id not in _ids(result)
    result = f.ok_result(client.get("/api/users", headers=h, params={"created_at": json.dumps({"to": "2024-03-01T12:00:00Z"})}))
    assert _ids(result) == [early.id]
    body = f.failure(client.get("/api/users", headers=h, params={"created_at": "{not json"}), 400)
    assert body == {"success": False, "message": "ValidationError: Please, enter a valid date format. ",
                    "errors": {"created_at": "Please, enter a valid date format. "}}
    f.failure(client.get("/api/users", headers=h, params={"created_at": json.dumps({"from": "31/03/2024"})}), 400)


def test_firm_filter_only_for_superuser(client, world):
    admin = f.ok_result(client.get("/api/users", headers=f.headers(world.admin_a), params={"firm_id": world.firm_b.id}))
    assert {r["firm_id"] for r in admin["rows"]} == {world.firm_a.id}
    su = f.ok_result(client.get("/api/users", headers=f.headers(world.superuser), params={"firm_id": world.firm_b.id}))
    assert {r["firm_id"] for r in su["rows"]} == {world.firm_b.id} and su["totals"] == [{"count": 3}]


def test_client_cannot_list(client, world):
    assert f.failure(client.get("/api/users", headers=f.headers(world.client_a)), 403)["message"] == NOT_ALLOWED


# ---- create ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, errors",
    [
        ({"first_name": ""}, {"first_name": "Please, enter first name. "}),
        ({"email": "nina-at-example.com"}, {"email": "Please, enter a valid email. "}),
        ({"role": ""}, {"role": "Please, select user type. "}),
        ({"first_name": "", "last_name": "", "email": ""},
         {"first_name": "Please, enter first name. ", "last_name": "Please, enter last name. ", "email": "Please, enter email. "}),
    ],
)
def test_create_validation(client, world, change, errors):
    body = f.failure(client.post("/api/users", headers=f.headers(world.admin_a), json={**NEW, "role": "client", **change}), 400)
    assert body == {"success": False, "message": INVALID_FORM, "errors": errors}
    assert f.outbox() == []


def test_create_unique_email(client, world):
    body = f.failure(client.post("/api/users", headers=f.headers(world.admin_a),
                                 json={**NEW, "email": world.adviser_b.email.upper(), "role": "client"}), 400)
    assert body["errors"] == {"email": "Email should be unique."}


def test_superuser_must_pick_a_firm(client, world):
    h = f.headers(world.superuser)
    body = f.failure(client.post("/api/users", headers=h, json={**NEW, "role": "adviser"}), 400)
    assert body["errors"] == {"firm_id": "Please, select firm. "}
    created = f.ok_result(client.post("/api/users", headers=h, json={**NEW, "role": "adviser", "firm_id": world.firm_b.id}))
    assert created["firm"] == {"id": world.firm_b.id, "name": "Bravo Wealth"}


def test_administrator_creates_in_own_firm(client, world):
    created = f.ok_result(client.post("/api/users", headers=f.headers(world.admin_a),
                                      json={**NEW, "role": "adviser", "firm_id": world.firm_b.id}))
    assert created["firm_id"] == world.firm_a.id and created["role"] == "adviser"
    assert f.get_user_row(created["id"]).firm_id == world.firm_a.id


def test_adviser_creates_clients_only(client, world):
    h = f.headers(world.adviser_a)
    body = f.failure(client.post("/api/users", headers=h, json={**NEW, "role": "adviser"}), 403)
    assert body["message"] == NOT_ALLOWED
    created = f.ok_result(client.post("/api/users", headers=h, json={**NEW, "role": "client"}))
    assert created["adviser_id"] == world.adviser_a.id and created["firm_id"] == world.firm_a.id


def test_client_cannot_create(client, world):
    f.failure(client.post("/api/users", headers=f.headers(world.client_a), json={**NEW, "role": "client"}), 403)
    assert f.outbox() == []


# ---- tenancy ---------------------------------------------------------------------------------------
def test_other_firm_user_ids_are_not_found(client, world):
    h = f.headers(world.admin_a)
    uid = world.client_b.id
    assert f.failure(client.get(f"/api/users/{uid}", headers=h), 404)["message"] == USER_NOT_FOUND
    f.failure(client.put(f"/api/users/{uid}", headers=h, json={"first_name": "Hacked"}), 404)
    f.failure(client.delete(f"/api/users/{uid}", headers=h), 404)
    f.failure(client.post(f"/api/users-photo-upload/{uid}", headers=h, files={"file": ("p.png", f.png_bytes(), "image/png")}), 404)
    f.failure(client.post(f"/api/users-signature/{uid}", headers=h, files={"signature": ("s.png", f.png_bytes(), "image/png")}), 404)
    f.failure(client.get("/api/users/not-a-number", headers=h), 404)
    row = f.get_user_row(uid)
    assert row.first_name != "Hacked" and row.status == "active" and row.photo is None


def test_update_user_over_http(client, world):
    h = f.headers(world.admin_a)
    uid = world.client_a.id
    result = f.ok_result(client.put(f"/api/users/{uid}", headers=h, json={"first_name": "Renamed", "version": 1}))
    assert result["first_name"] == "Renamed" and result["last_name"] == world.client_a.last_name and result["version"] == 2
    body = f.failure(client.put(f"/api/users/{uid}", headers=h, json={"first_name": "Stale", "version": 1}), 409)
    assert body["message"].startswith("ConflictError: ")


# ---- delete ----------------------------------------------------------------------------------------
def test_soft_delete(client, world):
    h = f.headers(world.admin_a)
    uid = world.client_a.id
    assert f.ok_result(client.delete(f"/api/users/{uid}", headers=h)) == {"message": "User is deleted"}
    assert f.get_user_row(uid).status == "deleted"
    assert uid not in _ids(f.ok_result(client.get("/api/users", headers=h)))
    assert _ids(f.ok_result(client.get("/api/users?status[]=deleted", headers=h))) == [uid]
    f.failure(client.post("/api/signin", json={"email": world.client_a.email, "password": f.PASSWORD}), 401)


def test_delete_rules(client, world):
    body = f.failure(client.delete(f"/api/users/{world.adviser_a.id}", headers=f.headers(world.admin_a)), 403)
    assert body["message"] == NOT_ALLOWED
    for person in (world.admin_a, world.superuser, world.adviser_a):
        f.failure(client.delete(f"/api/users/{person.id}", headers=f.headers(person)), 403)
    f.failure(client.delete(f"/api/users/{world.client_a.id}", headers=f.headers(world.client_a)), 403)
    assert all(f.get_user_row(u.id).status == "active" for u in (world.admin_a, world.adviser_a, world.superuser, world.client_a))
    f.ok_result(client.delete(f"/api/users/{world.adviser_a.id}", headers=f.headers(world.superuser)))


# ---- images ----------------------------------------------------------------------------------------
def test_user_photo_and_signature(client, world, data_dir):
    h = f.headers(world.admin_a)
    uid = world.adviser_a.id
    png = f.png_bytes((10, 10))
    photo = f.ok_result(client.post(f"/api/users-photo-upload/{uid}", headers=h, files={"file": ("p.png", png, "image/png")}))
    assert client.get(photo["photo_url"]).content == png
    sig = f.ok_result(client.post(f"/api/users-signature/{uid}", headers=h, files={"signature": ("s.png", png, "image/png")}))
    assert sig["photo_url"] == photo["photo_url"] and sig["signature_url"]
    assert len(f.stored_files(data_dir)) == 2

    body = f.failure(client.post(f"/api/users-photo-upload/{uid}", headers=h, files={"file": ("p.txt", b"text", "text/plain")}), 400)
    assert body == {"success": False, "message": "ValidationError: Incorrect file format", "errors": {"file": "Incorrect file format"}}
    body = f.failure(client.post(f"/api/users-signature/{uid}", headers=h,
                                 files={"signature": ("s.png", f.padded_png(2_048_000), "image/png")}), 400)
    assert body == {"success": False, "message": "ValidationError: Image size should be less than 2Mb",
                    "errors": {"signature": "Image size should be less than 2Mb"}}
    assert len(f.stored_files(data_dir)) == 2

    after = f.ok_result(client.put(f"/api/users/{uid}", headers=h, json={"isPhotoRemoved": True, "isSignatureRemoved": True}))
    assert after["photo_url"] is None and after["signature_url"] is None and f.stored_files(data_dir) == []


def test_own_photo_signature_and_default_logo(client, world, data_dir):
    hc = f.headers(world.client_a)
    png = f.png_bytes()
    me = f.ok_result(client.post("/api/me-photo-upload", headers=hc, files={"file": ("me.png", png, "image/png")}))
    assert me["id"] == world.client_a.id and me["photo_url"]
    me = f.ok_result(client.post("/api/me-signature-upload", headers=hc, files={"signature": ("sig.png", png, "image/png")}))
    assert me["signature_url"]
    body = f.failure(client.post("/api/me-photo-upload", headers=hc, files={"file": ("me.gif", b"GIF8 not really", "image/gif")}), 400)
    assert body["message"] == "ValidationError: Incorrect file format"

    f.failure(client.post("/api/logo", headers=f.headers(world.admin_a), files={"file": ("l.png", png, "image/png")}), 403)
    hs = f.headers(world.superuser)
    logo = f.ok_result(client.post("/api/logo", headers=hs, files={"file": ("l.png", png, "image/png")}))
    assert client.get(logo["default_logo_url"]).content == png
    body = f.failure(client.post("/api/logo", headers=hs, files={"file": ("l.png", b"nope", "image/png")}), 400)
    assert body["message"] == "ValidationError: Incorrect file format"
    assert f.ok_result(client.post("/api/logo", headers=hs, json={"isLogoRemoved": True}))["default_logo_url"] is None
    assert f.failure(client.post("/api/logo", headers=hs, json={}), 400)["message"] == "ValidationError: Please, select file. "
    assert len(f.stored_files(data_dir)) == 2  # the client's photo and signature


def test_adviser_options(client, world):
    result = f.ok_result(client.get("/api/advisers-options", headers=f.headers(world.superuser), params={"firm_id": world.firm_b.id}))
    assert result == {"rows": [{"id": world.adviser_b.id, "name": f"{world.adviser_b.first_name} {world.adviser_b.last_name}"}]}


@pytest.mark.parametrize("sort", ["name", "email", "role", "status", "firm", "created_at", "logined_at", "bogus"])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_every_sort_key_works(client, world, sort, order):
    f.update_user_row(world.adviser_b.id, logined_at=f.at(2024, 5, 1))
    result = f.ok_result(client.get("/api/users", headers=f.headers(world.superuser), params={"sort": sort, "order": order}))
    assert result["totals"] == [{"count": 7}] and len(result["rows"]) == 7
    if sort == "email":
        emails = [r["email"] for r in result["rows"]]
        assert emails == sorted(emails, reverse=order == "desc")
    if sort == "firm":
        firms = [r["firm"]["name"] if r["firm"] else "" for r in result["rows"]]
        assert firms == sorted(firms, key=str.lower, reverse=order == "desc")
