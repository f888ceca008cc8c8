"""The audit trail (app.services.audit): what is recorded, in the change's own transaction, and who
may read it."""
from __future__ import annotations

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import AuditEvent, Portfolio
from app.domain.errors import AuthenticationError, NotFound, PermissionDenied, ValidationError
from app.domain.roles import Role
from app.domain.firms import read_firm_form
from app.domain.portfolios import read_portfolio_form
from app.domain.users import read_profile_form
from app.domain.wire import rendered
from app.services import audit, auth, firms, portfolios, users
from tests import audit_edge
from tests import factories as f
from tests import factories_portfolios as fp


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


def a(user):
    return f.actor(user)


def _events(**where) -> list[AuditEvent]:
    with session_scope() as s:
        query = select(AuditEvent)
        for key, value in where.items():
            query = query.where(getattr(AuditEvent, key) == value)
        return list(s.exec(query.order_by(AuditEvent.id)).all())


def test_sign_ins_are_recorded_with_the_address(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="jo@example.com")
    audit.set_origin("203.0.113.7")
    auth.signin(email="jo@example.com", password=f.PASSWORD)
    with pytest.raises(AuthenticationError):
        auth.signin(email="jo@example.com", password="Wrong1234")
    with pytest.raises(AuthenticationError):
        auth.signin(email="nobody@example.com", password="Wrong1234")
    rows = _events(object_type="session")
    assert [(e.action, e.actor_email, e.ip) for e in rows] == [
        ("signin", "jo@example.com", "203.0.113.7"), ("signin.failed", "jo@example.com", "203.0.113.7"),
        ("signin.failed", "nobody@example.com", "203.0.113.7")]
    assert rows[0].actor_id == user.id and rows[0].firm_id == user.firm_id
    assert rows[1].actor_id is None and rows[2].object_id is None


def test_a_password_change_is_recorded_without_any_password(db):
    user = f.make_user(Role.ADVISER, f.make_firm())
    users.update_me(actor=f.actor(user), form=read_profile_form({"oldPassword": f.PASSWORD, "password": "Brand9New",
                                                             "rptPassword": "Brand9New"}))
    [event] = _events(action="password.changed")
    assert event.actor_id == user.id and event.object_id == user.id
    text = f"{event.before} {event.after}"
    assert "Brand9New" not in text and f.PASSWORD not in text and "password_hash" not in text


def test_a_change_keeps_before_and_after_of_what_changed(w):
    current = rendered(firms.get_firm(actor=a(w.superuser), firm_id=w.firm.id))
    firms.update_firm(actor=a(w.superuser), firm_id=w.firm.id, form=read_firm_form({**current, "phone": "02 9000 1234"}))
    [event] = _events(action="firm.updated")
    row = audit_edge.list_events(actor=a(w.superuser), action="firm.updated")[0][0]
    assert row["before"] == {"phone": None} and row["after"] == {"phone": "02 9000 1234"}
    assert event.firm_id == w.firm.id and row["object_label"] == w.firm.name
    assert row["action_title"] == "Firm changed"


def test_approval_settings_and_model_links_are_recorded_against_the_portfolio(w):
    portfolios.update_portfolio(actor=a(w.admin), portfolio_id=w.portfolio.id,
                                form=read_portfolio_form({"approval_settings": {"client_send_tp_to_other_email": True,
                                                                                "client_tp_other_email": "a@x.com"}}))
    rows, total = audit_edge.portfolio_history(actor=a(w.adviser), investment_id=w.portfolio.id)
    assert total == 1 and rows[0]["action"] == "portfolio.updated"
    assert rows[0]["after"]["approval_settings"]["client_tp_other_email"] == "a@x.com"
    assert rows[0]["before"]["approval_settings"]["client_send_tp_to_other_email"] is False
    # the client holding the portfolio reads its history; another firm's adviser cannot
    assert audit_edge.portfolio_history(actor=a(w.client), investment_id=w.portfolio.id)[1] == 1
    with pytest.raises(NotFound):
        audit_edge.portfolio_history(actor=a(w.other_adviser), investment_id=w.portfolio.id)


def test_an_event_is_kept_only_with_its_change(w):
    with pytest.raises(RuntimeError):
        with session_scope() as s:
            audit.record(s, a(w.admin), "firm.updated", "firm", w.firm.id, firm_id=w.firm.id, after={"x": 1})
            raise RuntimeError("the change failed")
    assert _events() == []
    # a refused change leaves no event either
    with pytest.raises(ValidationError):
        firms.update_firm(actor=a(w.superuser), firm_id=w.firm.id, form=read_firm_form({"name": ""}))
    assert _events() == []


def test_who_reads_the_trail(w):
    other_admin = f.make_user(Role.ADMINISTRATOR, w.other_firm)
    for firm, admin in ((w.firm, w.admin), (w.other_firm, other_admin)):
        with session_scope() as s:
            audit.record(s, a(admin), "firm.updated", "firm", firm.id, firm_id=firm.id, label=firm.name)
    assert audit_edge.list_events(actor=a(w.superuser))[1] == 2
    assert audit_edge.list_events(actor=a(w.superuser), firm_id=w.other_firm.id)[1] == 1
    mine, total = audit_edge.list_events(actor=a(w.admin))
    assert total == 1 and mine[0]["firm_id"] == w.firm.id
    # an administrator cannot widen the scope to another firm
    assert audit_edge.list_events(actor=a(w.admin), firm_id=w.other_firm.id)[0][0]["firm_id"] == w.firm.id
    for user in (w.adviser, w.client):
        with pytest.raises(PermissionDenied):
            audit_edge.list_events(actor=a(user))


def test_filters(w):
    with session_scope() as s:
        audit.record(s, a(w.admin), "firm.updated", "firm", w.firm.id, firm_id=w.firm.id)
        audit.record(s, a(w.adviser), "portfolio.updated", "portfolio", w.portfolio.id, firm_id=w.firm.id)
    superuser = a(w.superuser)
    assert [r["action"] for r in audit_edge.list_events(actor=superuser, who=w.adviser.email[:6].upper())[0]] == \
        ["portfolio.updated"]
    assert audit_edge.list_events(actor=superuser, object_type="portfolio", object_id=w.portfolio.id)[1] == 1
    assert audit_edge.list_events(actor=superuser, date_from="2000-01-01", date_to="2000-01-02")[1] == 0
    with pytest.raises(ValidationError):
        audit_edge.list_events(actor=superuser, action="nonsense")
    with pytest.raises(ValidationError):
        audit_edge.list_events(actor=superuser, date_from="not a date")



def test_a_bulk_run_and_each_of_its_portfolios_are_recorded(db):
    from app.jobs import runner
    from app.services import bulk_runs
    from tests.factories_advice import make_book

    book = make_book(3)
    f.update_row(Portfolio, book.portfolio_ids[1], model_id=None)
    run = rendered(bulk_runs.start_for_investments(actor=f.actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids))
    runner.wait_in_process()
    [started] = _events(action="bulk_run.started")
    assert started.object_id == run["id"] and started.actor_id == book.adviser.id
    calculated = {e.object_id: e for e in _events(action="target_portfolio.calculated")}
    assert set(calculated) == set(book.portfolio_ids)
    assert all(e.actor_email == book.adviser.email and e.firm_id == book.firm.id for e in calculated.values())
    assert '"error": "The portfolio is not linked to a model"' in calculated[book.portfolio_ids[1]].after
    history, total = audit_edge.portfolio_history(actor=f.actor(book.adviser), investment_id=book.portfolio_ids[0])
    assert total == 1 and history[0]["after"]["bulk_run"] == run["id"]
