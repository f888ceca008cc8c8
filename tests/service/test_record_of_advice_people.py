"""The record of advice says whether its approver or decliner was a superuser (spec 002 s6), and
prints the holder's and the practice's addresses; read back from the PDF as the client reads it."""
from __future__ import annotations

from app.db.engine import session_scope
from app.db.tables import Portfolio
from app.domain.firms import read_firm_form
from app.domain.users import read_user_form
from app.domain.wire import rendered
from app.services import firms, users
from tests.advice_edge import records_of_advice, tps
from tests import factories as f
from tests.factories import actor
from tests.service.test_firm_documents import _validated, pdf_text, world  # noqa: F401 - the fixture

HOLDER = {"streetNumber": "12", "streetName": "Pitt Street", "suburb": "Sydney", "state": "NSW", "postcode": "2000"}
PRACTICE = {"unitNumber": "4", "streetNumber": "1", "streetName": "Macquarie Place", "suburb": "Sydney",
            "state": "NSW", "postcode": "2000"}


def _decide(who, tp: dict, action: str) -> dict:
    tps.decide(actor=actor(who), tp_id=tp["id"], action=action)
    return records_of_advice.record(actor=actor(who), tp_id=tp["id"])


def test_a_superusers_approval_says_so_on_the_record_and_its_pdf(world):  # noqa: F811
    w, _, _ = world
    rec = _decide(w.superuser, _validated(w), "approve")
    assert rec["decided_by_superuser"] is True
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=rec["id"])[1]))
    assert f"Approved by {w.superuser.first_name} {w.superuser.last_name} (superuser) on" in text


def test_a_clients_decline_is_not_a_superusers(world):  # noqa: F811
    w, _, _ = world
    rec = _decide(w.client, _validated(w), "decline")
    assert rec["decided_by_superuser"] is False
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=rec["id"])[1]))
    assert f"Declined by {w.client.first_name} {w.client.last_name} on" in text and "(superuser)" not in text


def test_the_record_prints_the_holders_and_the_practices_addresses(world):  # noqa: F811
    w, _, _ = world
    users.update_user(actor=actor(w.admin), user_id=w.client.id, form=read_user_form({"address": HOLDER}))
    current = rendered(firms.get_firm(actor=actor(w.admin), firm_id=w.firm.id))
    firms.update_firm(actor=actor(w.admin), firm_id=w.firm.id, form=read_firm_form({"name": current["name"], "address": PRACTICE}))
    tp = _validated(w)
    rec = records_of_advice.record(actor=actor(w.client), tp_id=tp["id"])
    assert rec["client_address"] == ["12 Pitt Street", "Sydney NSW 2000"]  # the owner's, the portfolio has none
    assert rec["practice_address"] == ["4/1 Macquarie Place", "Sydney NSW 2000"]
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])[1]))
    assert "12 Pitt Street, Sydney NSW 2000" in text and "4/1 Macquarie Place, Sydney NSW 2000" in text

    with session_scope() as s:  # the portfolio's own holder address comes first (a trust's, a company's)
        p = s.get(Portfolio, w.portfolio.id)
        p.address_street_number, p.address_street_name, p.address_suburb = "9", "Trust Lane", "Parramatta"
        p.address_state, p.address_postcode, p.address_country = "NSW", "2150", "Australia"
        s.add(p)
    rec = records_of_advice.record(actor=actor(w.client), tp_id=tp["id"])
    assert rec["client_address"] == ["9 Trust Lane", "Parramatta NSW 2150"]
