"""A portfolio's broker credentials over REST: stored encrypted at rest, never answered after saving
("saved" / "not set"), audited without the values, for staff of the portfolio's firm only."""
from __future__ import annotations

import json
import stat

import pytest
from cryptography.fernet import Fernet
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import AuditEvent, Portfolio
from app.services import broker_credentials as bc
from app.settings import settings
from tests import factories as f
from tests import factories_portfolios as fp

CODE, SECRET = "MQ-AUTH-7731", "s3cret Pa55word!"
FORM = {"macquarieAuthCode": CODE, "macquarieAuthPass": SECRET, "macquarieCodeExpiryDate": "31/12/2099"}


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


@pytest.fixture
def own_key(monkeypatch):
    key = Fernet.generate_key().decode()
    monkeypatch.setattr(settings, "broker_credentials_key", key)
    return key


def _path(w) -> str:
    return f"/api/investments/{w.portfolio.id}/broker-credentials"


def _row(w) -> Portfolio:
    return fp.portfolio_row(w.portfolio.id)


def test_saved_credentials_are_encrypted_and_never_answered(client, w, own_key):
    h = f.headers(w.adviser)
    before = f.ok_result(client.get(_path(w), headers=h))
    assert (before["macquarieAuthCode"], before["macquarieAuthPass"], before["macquarieCodeExpiryDate"]) == (
        "not set", "not set", None)

    response = client.put(_path(w), headers=h, json=FORM)
    saved = f.ok_result(response)
    assert saved["message"] == "Broker credentials are saved"
    assert (saved["macquarieAuthCode"], saved["macquarieAuthPass"], saved["macquarieCodeExpiryDate"],
            saved["expired"]) == ("saved", "saved", "2099-12-31", False)
    for answer in (response.text, client.get(_path(w), headers=h).text,
                   client.get(f"/api/investments/{w.portfolio.id}", headers=h).text):
        assert CODE not in answer and SECRET not in answer

    row = _row(w)
    assert CODE not in row.broker_auth_code_secret and SECRET not in row.broker_auth_pass_secret
    assert Fernet(own_key).decrypt(row.broker_auth_pass_secret.encode()).decode() == SECRET
    with session_scope() as s:
        login = bc.for_broker(s, s.get(Portfolio, w.portfolio.id))
    assert (login.auth_code, login.password, str(login.code_expiry_date)) == (CODE, SECRET, "2099-12-31")

    # an empty password keeps the saved one; a new expiry date is saved
    kept = f.ok_result(client.put(_path(w), headers=h, json={"macquarieAuthCode": "", "macquarieAuthPass": "",
                                                            "macquarieCodeExpiryDate": "2000-01-31"}))
    assert (kept["macquarieAuthPass"], kept["macquarieCodeExpiryDate"], kept["expired"]) == ("saved", "2000-01-31", True)
    assert _row(w).broker_auth_pass_secret == row.broker_auth_pass_secret

    removed = f.ok_result(client.delete(_path(w), headers=h))
    assert (removed["message"], removed["macquarieAuthCode"], removed["macquarieAuthPass"]) == (
        "Broker credentials are removed", "not set", "not set")
    assert _row(w).broker_auth_code_secret is None and _row(w).broker_auth_pass_secret is None

    with session_scope() as s:
        events = s.exec(select(AuditEvent).where(AuditEvent.object_id == w.portfolio.id,
                                                 AuditEvent.action.like("portfolio.broker_credentials%"))
                        .order_by(AuditEvent.id)).all()
    assert [(e.action, json.loads(e.after)) for e in events] == [
        ("portfolio.broker_credentials_changed", {"authorisation code": "changed", "password": "changed",
                                                  "code expiry date": "2099-12-31"}),
        ("portfolio.broker_credentials_changed", {"code expiry date": "2000-01-31"}),
        ("portfolio.broker_credentials_removed", {"broker credentials": "removed"}),
    ]
    assert all(CODE not in (e.after or "") + (e.before or "") and SECRET not in (e.after or "") for e in events)


def test_bad_input_gets_the_specifications_texts(client, w, own_key):
    h = f.headers(w.admin)
    empty = f.failure(client.put(_path(w), headers=h, json={}), 400)
    assert empty["errors"] == {"macquarieAuthCode": "Please, enter Macquarie authorisation code. ",
                               "macquarieAuthPass": "Please, enter Macquarie password. ",
                               "macquarieCodeExpiryDate": "Please, enter code expiry date. "}
    bad_date = f.failure(client.put(_path(w), headers=h, json={**FORM, "macquarieCodeExpiryDate": "31/02/2099"}), 400)
    assert bad_date["errors"] == {"macquarieCodeExpiryDate": "Please, enter a valid date format. "}
    too_long = f.failure(client.put(_path(w), headers=h, json={**FORM, "macquarieAuthCode": "X" * 101}), 400)
    assert too_long["errors"] == {"macquarieAuthCode": "Max length should be 100 characters. "}
    assert _row(w).broker_auth_code_secret is None


def test_only_staff_of_the_portfolios_firm(client, w, own_key):
    assert f.failure(client.get(_path(w), headers=f.headers(w.client)), 403)
    assert f.failure(client.put(_path(w), headers=f.headers(w.client), json=FORM), 403)
    assert f.failure(client.put(_path(w), headers=f.headers(w.other_adviser), json=FORM), 404)
    assert f.ok_result(client.put(_path(w), headers=f.headers(w.superuser), json=FORM))["macquarieAuthCode"] == "saved"


def test_without_a_configured_key_one_is_made_in_the_data_folder(w, data_dir, monkeypatch):
    monkeypatch.setattr(settings, "broker_credentials_key", "")
    key_file = data_dir / bc.KEY_FILE
    key_file.unlink(missing_ok=True)
    bc.save_credentials(actor=f.actor(w.adviser), investment_id=w.portfolio.id,
                        update=bc.CredentialsUpdate(auth_code=CODE, password=SECRET, code_expiry_date="2099-12-31"))
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert Fernet(key_file.read_bytes()).decrypt(_row(w).broker_auth_code_secret.encode()).decode() == CODE

    # another key cannot read them
    monkeypatch.setattr(settings, "broker_credentials_key", Fernet.generate_key().decode())
    with session_scope() as s, pytest.raises(RuntimeError, match="cannot be read"):
        bc.for_broker(s, s.get(Portfolio, w.portfolio.id))
    monkeypatch.setattr(settings, "broker_credentials_key", "not-a-key")
    with pytest.raises(RuntimeError, match="not a Fernet key"):
        bc.credentials_status(actor=f.actor(w.adviser), investment_id=w.portfolio.id) and bc._fernet()
