"""/api/firms and firm logos over HTTP: envelope, list shape, permissions, validation, files."""
from __future__ import annotations

import pytest

from app.domain.roles import Role
from tests import factories as f

INVALID_FORM = "ValidationError: Please, fill all required fields with valid data"
NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"
FIRM_NOT_FOUND = "NotFoundError: Firm not found"

FIRM = {
    "name": "Harbourside Wealth",
    "abn": "53004085616",
    "car": "1234567",
    "phone": "0292501234",
    "email": "info@harbourside.com.au",
    "website": "https://harbourside.com.au",
    "licensee": {"name": "Harbourside Licensee", "abn": "12345678901", "afsl": "456789", "phone": "0292509999",
                 "email": "compliance@harbourside.com.au", "website": "https://licensee.com.au",
                 "fsgLink": "https://licensee.com.au/fsg", "privacyPolicyLink": "https://licensee.com.au/privacy"},
    "fee": "0.11",
    "maxFee": "250",
    "minFee": "19.95",
    "ausiexCode": "HWP001",
}


@pytest.fixture
def world(db):
    return f.make_world()


def _key(url: str) -> str:
    assert url.startswith("/api/files/")
    return url.rsplit("/", 1)[1]


# ---- CRUD ----------------------------------------------------------------------------------------
def test_superuser_crud(client, world):
    h = f.headers(world.superuser)
    created = f.ok_result(client.post("/api/firms", headers=h, json=FIRM))
    assert created["name"] == "Harbourside Wealth" and created["maxFee"] == "250.00" and created["fee"] == "0.11"
    assert created["licensee"]["fsgLink"] == "https://licensee.com.au/fsg"
    fid = created["id"]
    assert f.ok_result(client.get(f"/api/firms/{fid}", headers=h)) == created

    updated = f.ok_result(client.put(f"/api/firms/{fid}", headers=h, json={**FIRM, "name": "Harbourside Group", "version": created["version"]}))
    assert updated["name"] == "Harbourside Group" and updated["version"] == created["version"] + 1

    assert f.ok_result(client.delete(f"/api/firms/{fid}", headers=h)) == {"message": "Firm is deleted"}
    assert f.failure(client.get(f"/api/firms/{fid}", headers=h), 404)["message"] == FIRM_NOT_FOUND
    assert f.get_firm_row(fid).deleted_at is not None
    f.failure(client.delete(f"/api/firms/{fid}", headers=h), 404)


def test_list_shape_paging_sort_and_search(client, world):
    h = f.headers(world.superuser)
    for name in ("Charlie Co", "alpha partners", "Delta Group"):
        f.make_firm(name)
    result = f.ok_result(client.get("/api/firms", headers=h))
    assert set(result) == {"rows", "totals"}
    assert result["totals"] == [{"count": 5}]
    assert [r["name"] for r in result["rows"]] == ["Alpha Advisory", "alpha partners", "Bravo Wealth", "Charlie Co", "Delta Group"]
    alpha = next(r for r in result["rows"] if r["name"] == "Alpha Advisory")
    assert (alpha["advisers"], alpha["clients"]) == (1, 1)

    result = f.ok_result(client.get("/api/firms", headers=h, params={"limit": 2, "offset": 2}))
    assert result["totals"][0]["count"] == 5 and [r["name"] for r in result["rows"]] == ["Bravo Wealth", "Charlie Co"]
    result = f.ok_result(client.get("/api/firms", headers=h, params={"sort": "name", "order": "desc", "limit": 1}))
    assert [r["name"] for r in result["rows"]] == ["Delta Group"]
    result = f.ok_result(client.get("/api/firms", headers=h, params={"search": "ALPHA"}))
    assert result["totals"][0]["count"] == 2
    result = f.ok_result(client.get("/api/firms", headers=h, params={"sort": "created_at", "order": "asc", "limit": 1}))
    assert result["rows"][0]["name"] == "Alpha Advisory"
    f.failure(client.get("/api/firms", headers=h, params={"limit": "lots"}), 400)


# ---- validation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, errors",
    [
        ({"name": ""}, {"name": "Please, enter firm name. "}),
        ({"website": "harbourside"}, {"website": "Please, enter a valid website. "}),
        ({"email": "info@harbourside"}, {"email": "Please, enter a valid email. "}),
        ({"maxFee": "10", "minFee": "20"}, {"maxFee": "Max must not be less than Min", "minFee": "Min must be less than Max"}),
        ({"ausiexCode": "hwp001"}, {"ausiexCode": "Broker code must begin with three uppercase letters."}),
        ({"fee": "1.5.0"}, {"fee": "Please, enter a valid number. "}),
        # a fee in dollars must fit its column (NUMERIC(14,2)): refused, not a database error
        ({"minFee": 1000000000000.0, "maxFee": ""}, {"minFee": "Value has to be less than 1000000000000."}),
        ({"maxFee": "1000000000000"}, {"maxFee": "Value has to be less than 1000000000000."}),
    ],
)
def test_invalid_create_writes_nothing(client, world, change, errors):
    h = f.headers(world.superuser)
    body = f.failure(client.post("/api/firms", headers=h, json={**FIRM, **change}), 400)
    assert body == {"success": False, "message": INVALID_FORM, "errors": errors}
    assert f.count_firms() == 2


def test_max_fee_cleared_when_fee_empty(client, world):
    h = f.headers(world.superuser)
    created = f.ok_result(client.post("/api/firms", headers=h, json={**FIRM, "fee": "", "maxFee": "250"}))
    assert created["fee"] is None and created["maxFee"] is None
    assert f.ok_result(client.get(f"/api/firms/{created['id']}", headers=h))["maxFee"] is None


def test_version_conflict_is_409(client, world):
    h = f.headers(world.superuser)
    fid = world.firm_a.id
    f.ok_result(client.put(f"/api/firms/{fid}", headers=h, json={**FIRM, "version": 1}))
    body = f.failure(client.put(f"/api/firms/{fid}", headers=h, json={**FIRM, "name": "Late", "version": 1}), 409)
    assert body["message"] == "ConflictError: This firm was changed by someone else. Reload it and apply your changes again."
    assert f.get_firm_row(fid).name == "Harbourside Wealth"


# ---- permissions --------------------------------------------------------------------------------
def test_administrator_limits(client, world):
    h = f.headers(world.admin_a)
    own, other = world.firm_a.id, world.firm_b.id
    assert f.ok_result(client.get(f"/api/firms/{own}", headers=h))["name"] == "Alpha Advisory"
    assert f.ok_result(client.put(f"/api/firms/{own}", headers=h, json={**FIRM, "name": "Alpha Updated"}))["name"] == "Alpha Updated"
    listed = f.ok_result(client.get("/api/firms", headers=h))
    assert [r["id"] for r in listed["rows"]] == [own] and listed["totals"] == [{"count": 1}]

    assert f.failure(client.get(f"/api/firms/{other}", headers=h), 404)["message"] == FIRM_NOT_FOUND
    f.failure(client.put(f"/api/firms/{other}", headers=h, json={**FIRM, "name": "Taken Over"}), 404)
    f.failure(client.post(f"/api/firms-logo-upload/{other}", headers=h, files={"file": ("logo.png", f.png_bytes(), "image/png")}), 404)
    assert f.get_firm_row(other).name == "Bravo Wealth"

    assert f.failure(client.post("/api/firms", headers=h, json=FIRM), 403)["message"] == NOT_ALLOWED
    assert f.failure(client.delete(f"/api/firms/{own}", headers=h), 403)["message"] == NOT_ALLOWED
    f.failure(client.delete(f"/api/firms/{other}", headers=h), 403)
    assert f.count_firms() == 2 and f.get_firm_row(own).deleted_at is None


def test_client_and_adviser_limits(client, world):
    hc = f.headers(world.client_a)
    assert f.failure(client.get("/api/firms", headers=hc), 403)["message"] == NOT_ALLOWED
    f.failure(client.post("/api/firms", headers=hc, json=FIRM), 403)
    ha = f.headers(world.adviser_a)
    assert f.ok_result(client.get("/api/firms", headers=ha))["totals"] == [{"count": 1}]
    f.failure(client.put(f"/api/firms/{world.firm_a.id}", headers=ha, json=FIRM), 403)
    f.failure(client.get("/api/firms"), 401)


def test_deleted_firm_users_cannot_sign_in(client, world):
    session = f.headers(world.adviser_a)
    f.ok_result(client.post("/api/signin", json={"email": world.admin_a.email, "password": f.PASSWORD}))
    f.ok_result(client.delete(f"/api/firms/{world.firm_a.id}", headers=f.headers(world.superuser)))
    f.failure(client.post("/api/signin", json={"email": world.admin_a.email, "password": f.PASSWORD}), 401)
    f.failure(client.get("/api/me", headers=session), 401)
    f.ok_result(client.post("/api/signin", json={"email": world.admin_b.email, "password": f.PASSWORD}))
    listed = f.ok_result(client.get("/api/firms", headers=f.headers(world.superuser)))
    assert [r["id"] for r in listed["rows"]] == [world.firm_b.id]


# ---- logos --------------------------------------------------------------------------------------
def test_logo_upload_is_stored_and_served(client, world, data_dir):
    h = f.headers(world.admin_a)
    png = f.png_bytes((32, 16))
    result = f.ok_result(client.post(f"/api/firms-logo-upload/{world.firm_a.id}", headers=h,
                                     files={"file": ("logo.png", png, "image/png")}))
    key = _key(result["logo"])
    assert result["licensee_logo"] is None
    assert f.stored_files(data_dir) == [key]
    served = client.get(result["logo"])  # no token needed: the key is unguessable
    assert served.status_code == 200 and served.content == png
    assert served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert f.ok_result(client.get(f"/api/firms/{world.firm_a.id}", headers=h))["logo"] == result["logo"]

    lic = f.ok_result(client.post(f"/api/firms-logo-upload/{world.firm_a.id}", headers=h,
                                  files={"file": ("lic.png", png, "image/png")}, data={"isLicenseeLogo": "true"}))
    assert lic["logo"] == result["logo"] and lic["licensee_logo"] and lic["licensee_logo"] != lic["logo"]
    assert client.get(lic["licensee_logo"]).content == png


def test_image_check_ignores_the_declared_type_and_name(client, world, data_dir):
    h = f.headers(world.superuser)
    png = f.png_bytes()
    result = f.ok_result(client.post(f"/api/firms-logo-upload/{world.firm_a.id}", headers=h,
                                     files={"file": ("logo.txt", png, "text/plain")}))
    assert result["logo"].endswith(".png")
    body = f.failure(client.post(f"/api/firms-logo-upload/{world.firm_a.id}", headers=h,
                                 files={"file": ("evil.png", b"<script>alert(1)</script>", "image/png")}), 400)
    assert body["message"] == "ValidationError: Incorrect file format"
    assert len(f.stored_files(data_dir)) == 1


@pytest.mark.parametrize(
    "content, message",
    [
        (b"hello, I am a text file\n", "Incorrect file format"),
        (f.padded_png(2_048_000), "Image size should be less than 2Mb"),
        (f.padded_png(3_000_000), "Image size should be less than 2Mb"),
    ],
)
def test_bad_logo_is_refused_and_nothing_stored(client, world, data_dir, content, message):
    h = f.headers(world.superuser)
    body = f.failure(client.post(f"/api/firms-logo-upload/{world.firm_a.id}", headers=h,
                                 files={"file": ("logo.png", content, "image/png")}), 400)
    assert body == {"success": False, "message": f"ValidationError: {message}", "errors": {"file": message}}
    assert f.stored_files(data_dir) == []
    assert f.get_firm_row(world.firm_a.id).logo is None


def test_logo_upload_needs_a_file(client, world):
    h = f.headers(world.superuser)
    body = f.failure(client.post(f"/api/firms-logo-upload/{world.firm_a.id}", headers=h), 400)
    assert body["message"] == INVALID_FORM


def test_removal_flags(client, world, data_dir):
    h = f.headers(world.superuser)
    fid = world.firm_a.id
    logo = f.ok_result(client.post(f"/api/firms-logo-upload/{fid}", headers=h, files={"file": ("a.png", f.png_bytes(), "image/png")}))["logo"]
    f.ok_result(client.post(f"/api/firms-logo-upload/{fid}", headers=h, files={"file": ("b.png", f.png_bytes(), "image/png")},
                            data={"isLicenseeLogo": "1"}))
    assert len(f.stored_files(data_dir)) == 2
    after = f.ok_result(client.put(f"/api/firms/{fid}", headers=h, json={**FIRM, "isLogoRemoved": True}))
    assert after["logo"] is None and after["licensee_logo"] is not None
    assert f.failure(client.get(logo), 404)["message"] == "NotFoundError: File not found"
    after = f.ok_result(client.put(f"/api/firms/{fid}", headers=h, json={**FIRM, "isLicenseeLogoRemoved": True}))
    assert after["licensee_logo"] is None and f.stored_files(data_dir) == []


@pytest.mark.parametrize("key", ["nope", "../../etc/passwd", "%2e%2e%2fapp.db", "0" * 32 + ".png", "0" * 32 + ".svg"])
def test_files_endpoint_serves_only_stored_keys(client, key):
    assert client.get(f"/api/files/{key}").status_code == 404


@pytest.mark.parametrize("sort", ["name", "created_at", "advisers", "clients", "bogus"])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_every_sort_key_works(client, world, sort, order):
    f.make_user(Role.CLIENT, world.firm_b)
    result = f.ok_result(client.get("/api/firms", headers=f.headers(world.superuser), params={"sort": sort, "order": order}))
    assert result["totals"] == [{"count": 2}]
    if sort == "clients":
        counts = [r["clients"] for r in result["rows"]]
        assert counts == sorted(counts, reverse=order == "desc")
