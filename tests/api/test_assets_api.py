"""The asset universe REST API: envelopes, query names, permissions, lookups and the price upload."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests import factories as f
from tests import factories_assets as fa


@pytest.fixture
def world(db):
    return f.make_world()


@pytest.fixture
def uni(db):
    return fa.make_asset_world()


def test_every_call_needs_a_signed_in_user(client, uni):
    for method, path in (("get", "/api/assets"), ("get", f"/api/assets/{uni.bhp.id}"), ("get", "/api/asset-classes"),
                         ("get", "/api/asset-types"), ("get", "/api/assets-search?query=b"),
                         ("get", "/api/assets-by-code/bhp"), ("get", f"/api/assets/{uni.bhp.id}/prices")):
        f.failure(getattr(client, method)(path), 401)
    f.failure(client.post("/api/asset-prices-upload", files={"file": ("p.csv", b"code,date,close\n", "text/csv")}), 401)


def test_clients_are_refused(client, world, uni):
    h = f.headers(world.client_a)
    for path in ("/api/assets", f"/api/assets/{uni.bhp.id}", "/api/asset-classes", "/api/asset-types",
                 "/api/assets-search?query=b", "/api/assets-by-code/BHP", f"/api/assets/{uni.bhp.id}/prices"):
        body = f.failure(client.get(path, headers=h), 403)
        assert body["message"] == "PermissionError: You are not allowed to perform this action"


def test_list_with_query_names_and_totals(client, world, uni):
    fa.make_asset("BONLY", uni.equities, firm=world.firm_b)
    h = f.headers(world.adviser_a)
    result = f.ok_result(client.get("/api/assets", headers=h))
    assert [r["code"] for r in result["rows"]] == ["BHP", "CBA", "VAS"] and result["totals"] == [{"count": 3}]
    result = f.ok_result(client.get(f"/api/assets?search=bh&classId={uni.equities.id}&industryGroupId={uni.materials.id}",
                                    headers=h))
    assert [r["code"] for r in result["rows"]] == ["BHP"]
    assert result["rows"][0]["industry_group"] == {"id": uni.materials.id, "title": "Materials", "color": "#e5484d"}
    result = f.ok_result(client.get(f"/api/assets?typeId={uni.etf.id}&sort=name&order=desc&limit=20&offset=0", headers=h))
    assert [r["code"] for r in result["rows"]] == ["VAS"]
    su = f.headers(world.superuser)
    assert f.ok_result(client.get(f"/api/assets?firmId={world.firm_b.id}", headers=su))["totals"] == [{"count": 4}]
    assert f.ok_result(client.get("/api/assets?firmId=-2", headers=su))["totals"] == [{"count": 4}]


def test_get_one_prices_and_another_firms_private_asset(client, world, uni):
    private = fa.make_asset("BPRIV", uni.equities, firm=world.firm_b)
    fa.add_prices(uni.bhp, [(date(2024, 6, 27), "45.10"), (date(2024, 6, 28), "45.125")])
    h = f.headers(world.adviser_a)
    assert f.ok_result(client.get(f"/api/assets/{uni.bhp.id}", headers=h))["prices_count"] == 2
    prices = f.ok_result(client.get(f"/api/assets/{uni.bhp.id}/prices?limit=1", headers=h))
    assert prices == {"rows": [{"date": "2024-06-28", "close": "45.125"}], "totals": [{"count": 2}]}
    body = f.failure(client.get(f"/api/assets/{private.id}", headers=h), 404)
    assert body["message"] == "NotFoundError: Asset not found"
    f.failure(client.get(f"/api/assets/{private.id}/prices", headers=h), 404)
    f.failure(client.get("/api/assets/abc", headers=h), 404)


def test_lookup_by_code_uppercases(client, world, uni):
    h = f.headers(world.adviser_a)
    assert f.ok_result(client.get("/api/assets-by-code/bhp?has_class=true", headers=h))["id"] == uni.bhp.id
    body = f.failure(client.get("/api/assets-by-code/xyz", headers=h), 404)
    assert body["message"] == "NotFoundError: Asset XYZ is not found"


def test_search_for_pickers(client, world, uni):
    fa.make_asset("ABHP", uni.equities, name="Alpha BHP Tracker", firm=world.firm_a)
    h = f.headers(world.adviser_a)
    result = f.ok_result(client.get("/api/assets-search?query=bhp", headers=h))
    assert [r["code"] for r in result["rows"]] == ["BHP", "ABHP"]
    result = f.ok_result(client.get(f"/api/assets-search?query=&classId={uni.cash.id}", headers=h))
    assert result["rows"] == []
    su = f.headers(world.superuser)
    result = f.ok_result(client.get(f"/api/assets-search?query=bhp&firmId={world.firm_b.id}", headers=su))
    assert [r["code"] for r in result["rows"]] == ["BHP"]


def test_classes_and_types(client, world, uni):
    h = f.headers(world.adviser_a)
    classes = f.ok_result(client.get(f"/api/asset-classes?firmId={world.firm_a.id}", headers=h))
    assert classes["rows"][0]["title"] == "Cash" and classes["totals"] == [{"count": 2}]
    assert [t["title"] for t in f.ok_result(client.get("/api/asset-types", headers=h))["rows"]] == ["ETF", "Share"]

    f.failure(client.post("/api/asset-classes", json={"title": "Crypto"}, headers=f.headers(world.admin_a)), 403)
    su = f.headers(world.superuser)
    created = f.ok_result(client.post("/api/asset-classes", json={"title": "Crypto"}, headers=su))
    assert created["title"] == "Crypto" and created["message"] == "Asset class is created"
    renamed = f.ok_result(client.put(f"/api/asset-classes/{created['id']}", json={"title": "Digital Assets"}, headers=su))
    assert renamed["title"] == "Digital Assets"
    body = f.failure(client.put(f"/api/asset-classes/{uni.cash.id}", json={"title": "Money"}, headers=su), 400)
    assert body["errors"] == {"title": 'The cash class has to keep "Cash" in its title.'}
    body = f.failure(client.delete(f"/api/asset-classes/{uni.cash.id}", headers=su), 400)
    assert body["message"] == "ValidationError: The cash class cannot be deleted."
    assert f.ok_result(client.delete(f"/api/asset-classes/{created['id']}", headers=su)) == {"message": "Asset class is deleted"}

    t = f.ok_result(client.post("/api/asset-types", json={"title": "Hybrid"}, headers=su))
    assert f.ok_result(client.put(f"/api/asset-types/{t['id']}", json={"title": "Hybrids"}, headers=su))["title"] == "Hybrids"
    body = f.failure(client.post("/api/asset-types", json={"title": "share"}, headers=su), 400)
    assert body["message"] == "ValidationError: Title should be unique."


def test_create_and_update_assets(client, world, uni):
    su = f.headers(world.superuser)
    payload = {"code": "wds", "name": "Woodside Energy Group Ltd", "class_id": uni.equities.id, "type_id": uni.share.id,
               "industry_group_id": uni.materials.id, "dividend_yield": "8.1", "url": "https://www.woodside.com"}
    f.failure(client.post("/api/assets", json=payload, headers=f.headers(world.admin_a)), 403)
    created = f.ok_result(client.post("/api/assets", json=payload, headers=su))
    assert created["code"] == "WDS" and created["dividend_yield"] == "8.1000"
    body = f.failure(client.post("/api/assets", json={**payload, "code": "WDS "}, headers=su), 400)
    assert body["message"] == "ValidationError: Code should be unique." and body["errors"] == {"code": "Code should be unique."}
    body = f.failure(client.post("/api/assets", json={"code": "", "name": ""}, headers=su), 400)
    assert body["message"] == "ValidationError: Please, fill all required fields with valid data"
    assert body["errors"] == {"code": "Please, enter code. ", "name": "Please, enter name. ",
                              "class_id": "Please, select class. "}
    updated = f.ok_result(client.put(f"/api/assets/{created['id']}", json={**payload, "name": "Woodside"}, headers=su))
    assert updated["name"] == "Woodside"
    f.failure(client.put(f"/api/assets/{created['id']}", json=payload, headers=f.headers(world.adviser_a)), 403)


# ---- the price upload ---------------------------------------------------------------------------------
def _upload(client, user, data, filename="prices.csv", content_type="text/csv"):
    return client.post("/api/asset-prices-upload", files={"file": (filename, data, content_type)}, headers=f.headers(user))


def test_upload_csv_with_a_rejected_line(client, world, uni):
    data = f.csv_bytes([("BHP", "27/06/2024", "44"), ("bhp", "2024-06-28", "45.10"), ("XYZ", "28/06/2024", "1"),
                        ("CBA", "28/06/2024", "abc")], fa.PRICE_HEADER)
    result = f.ok_result(_upload(client, world.superuser, data))
    assert (result["imported"], result["updated"], result["assets"]) == (2, 0, 1)
    assert [r["message"] for r in result["rejected"]] == ["Line 4: unknown asset code XYZ",
                                                        "Line 5: close must be a positive number"]
    assert result["message"] == "The file upload is now complete"
    one = f.ok_result(client.get(f"/api/assets/{uni.bhp.id}", headers=f.headers(world.adviser_a)))
    assert one["last_close_price"] == "45.10" and one["last_close_date"].startswith("2024-06-28")


def test_upload_with_every_line_rejected_is_refused_with_the_lines(client, world, uni):
    fa.add_prices(uni.bhp, [(date(2024, 6, 27), "45")])
    data = f.csv_bytes([("XYZ", "28/06/2024", "1"), ("BHP", "28/06/2024", "-2")], fa.PRICE_HEADER)
    body = f.failure(_upload(client, world.superuser, data), 400)
    assert body["message"] == "ValidationError: No price was imported: every line of the file was rejected."
    assert (body["result"]["imported"], body["result"]["updated"], body["result"]["assets"]) == (0, 0, 0)
    assert [r["message"] for r in body["result"]["rejected"]] == ["Line 2: unknown asset code XYZ",
                                                                "Line 3: close must be a positive number"]
    assert fa.prices_of(uni.bhp) == {date(2024, 6, 27): Decimal("45.000000")} and fa.count_prices() == 1


def test_upload_excel(client, world, uni):
    data = f.xlsx_bytes([("CBA", date(2024, 6, 28), 121.5)], fa.PRICE_HEADER, sheet="Prices")
    result = f.ok_result(_upload(client, world.superuser, data, "prices.xlsx", f.XLSX))
    assert result["imported"] == 1 and result["rejected"] == []
    assert fa.asset_row(uni.cba.id).last_close_price == Decimal("121.500000")


def test_upload_refusals_write_nothing(client, world, uni):
    good = f.csv_bytes([("BHP", "28/06/2024", "45")], fa.PRICE_HEADER)
    body = f.failure(_upload(client, world.superuser, good, "p.png", "image/png"), 400)
    assert body["message"] == "ValidationError: Invalid file type!"
    body = f.failure(_upload(client, world.superuser, b"code,close\nBHP,45\n"), 400)
    assert body["message"] == ("ValidationError: The file has no date column: the first line must name the columns "
                               "code, date and close.")
    for user in (world.admin_a, world.adviser_a, world.client_a):
        f.failure(_upload(client, user, good), 403)
    f.failure(client.post("/api/asset-prices-upload", headers=f.headers(world.superuser)), 400)  # no file part
    assert fa.count_prices() == 0
