"""The address form over REST: users, firms and portfolios (the holder's address) store it, answer it
in their payloads, keep it when a write leaves it out, remove it for {}, and refuse bad parts with the
specification's texts under 'address.<field>'."""
from __future__ import annotations

import pytest

from app.db.engine import session_scope
from app.db.tables import AuditEvent
from sqlmodel import select
from tests import factories as f
from tests import factories_portfolios as fp

SYDNEY = {"propertyName": "Harbour House", "unitNumber": "3", "streetNumber": "12A", "streetName": "George Street",
          "suburb": "Sydney", "state": "nsw", "postcode": "2000", "country": ""}
STORED = {**SYDNEY, "state": "NSW", "country": "Australia"}
NOTHING = {key: None for key in SYDNEY}
BAD = {**SYDNEY, "streetNumber": "12#", "streetName": "George Strasse", "postcode": "200", "state": ""}
BAD_ERRORS = {
    "address.streetNumber": "Please, enter a valid street number (e.g 12D, 12345). ",
    "address.streetName": "Please, enter a valid street type. ",
    "address.postcode": "Length must be exactly 4 characters. ",
    "address.state": "Please, select state. ",
}


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


def _round_trip(client, h, path: str, created: dict, body: dict) -> None:
    """`created` was made with SYDNEY: read back, kept by a write without it, refused when bad
    (nothing changes), removed by {}."""
    assert created["address"] == STORED
    assert f.ok_result(client.get(f"{path}/{created['id']}", headers=h))["address"] == STORED
    kept = f.ok_result(client.put(f"{path}/{created['id']}", headers=h, json={**body, "version": created["version"]}))
    assert kept["address"] == STORED
    bad = f.failure(client.put(f"{path}/{created['id']}", headers=h, json={**body, "version": kept["version"],
                                                                           "address": BAD}), 400)
    assert bad["errors"] == BAD_ERRORS
    assert f.ok_result(client.get(f"{path}/{created['id']}", headers=h))["address"] == STORED
    cleared = f.ok_result(client.put(f"{path}/{created['id']}", headers=h, json={**body, "version": kept["version"],
                                                                                 "address": {}}))
    assert cleared["address"] == NOTHING


def test_a_client_user_has_an_address(client, w):
    h = f.headers(w.admin)
    body = {"first_name": "Nina", "last_name": "North", "email": "nina@example.com", "role": "client"}
    created = f.ok_result(client.post("/api/users", headers=h, json={**body, "address": SYDNEY}))
    _round_trip(client, h, "/api/users", created, body)
    partial = f.failure(client.post("/api/users", headers=h, json={**body, "email": "other@example.com",
                                                                    "address": {"streetNumber": "4"}}), 400)
    assert partial["errors"] == {"address.streetName": "Please, enter street name. ",
                                 "address.suburb": "Please, enter suburb. ",
                                 "address.state": "Please, select state. ",
                                 "address.postcode": "Please, enter postcode. "}


def test_a_firm_has_an_address(client, w):
    h = f.headers(w.superuser)
    body = {"name": "Harbourside Wealth"}
    created = f.ok_result(client.post("/api/firms", headers=h, json={**body, "address": SYDNEY}))
    _round_trip(client, h, "/api/firms", created, body)


def test_a_portfolio_has_its_holders_address_and_the_change_is_audited(client, w):
    h = f.headers(w.adviser)
    body = {"name": "Nguyen Trust", "type": "TRUST", "trustee_name": "Nguyen Pty Ltd",
            "users": [{"id": w.client.id, "is_owner": True}]}
    created = f.ok_result(client.post("/api/investments", headers=h, json={**body, "address": SYDNEY}))
    _round_trip(client, h, "/api/investments", created, {"name": "Nguyen Trust"})
    with session_scope() as s:
        changes = s.exec(select(AuditEvent.before, AuditEvent.after).where(
            AuditEvent.action == "portfolio.updated", AuditEvent.object_id == created["id"])).all()
    assert any("George Street" in (before or "") and '"address"' in (after or "") for before, after in changes)


def test_the_openapi_document_types_the_address(client, w):
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    assert set(schemas["AddressFields"]["properties"]) == set(SYDNEY)
    assert set(schemas["AddressBody"]["properties"]) == set(SYDNEY)
