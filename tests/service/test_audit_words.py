"""The audit trail as people read it: the Changes column and the Excel file in the screens' words and
numbers (a status's label, '24' for 24.000000, 'Target portfolios' for tp, '1 portfolio'), and a From
date after the To date said so rather than answered with nothing."""
from __future__ import annotations

import io

import pytest
import reflex as rx
from openpyxl import load_workbook
from reflex.istate.data import RouterData

from app.db.engine import session_scope
from app.domain.audit_words import change_lines, object_words
from app.domain.errors import ValidationError
from app.services import audit, auth
from app.ui.states.audit import AuditState, audit_row
from tests import audit_edge
from tests import factories as f
from tests import factories_portfolios as fp


def test_change_lines_use_the_screens_vocabulary():
    assert change_lines("trade_instruction.validated", "portfolio", {}, {
        "status": "pending_approval", "trade_recommendations": 3, "what": "validated"}) == [
        "Status: Pending approval", "Trade recommendations: 3", "What: validated"]
    assert change_lines("target_portfolio.validated", "portfolio", {}, {"status": "validated", "target_portfolio": 2}) \
        == ["Status: Approval Required", "Target portfolio: 2"]
    assert change_lines("target_portfolio.calculated", "portfolio", {}, {
        "status": "draft", "not_enough_cash": True, "target_portfolio": 4}) == [
        "Status: Not Enough Cash", "Target portfolio: 4"]
    assert change_lines("order.executed", "portfolio", {}, {"quantity": "24.000000", "price": "45.100000",
                                                            "side": "BUY"}) == [
        "Price: 45.1", "Quantity: 24", "Side: BUY"]
    assert change_lines("bulk_run.started", "bulk_run", {}, {"kind": "tp", "portfolios": 1, "refused": 0}) == [
        "Kind: Target portfolios", "Portfolios: 1", "Refused: 0"]
    assert change_lines("user.updated", "user", {"status": "active", "phone": None, "role": "client"},
                        {"status": "disabled", "phone": "02 9000 1234", "role": "adviser"}) == [
        "Phone: empty -> 02 9000 1234", "Role: Client -> Adviser", "Status: Active -> Disabled"]
    assert change_lines("model.updated", "model", {"allocation_method": "equal_amounts", "analyst_recommendations": True},
                        {"allocation_method": "percentages", "analyst_recommendations": False}) == [
        "Allocation method: Equal Amounts -> Percentages", "Analyst recommendations: yes -> no"]
    assert object_words("Target portfolios of 1 portfolios") == "Target portfolios of 1 portfolio"
    assert object_words("Target portfolios of 11 portfolios") == "Target portfolios of 11 portfolios"


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


def _record(w, action: str, object_type: str, after: dict, label: str | None = None) -> None:
    with session_scope() as s:
        audit.record(s, f.actor(w.admin), action, object_type, w.portfolio.id, label=label or w.portfolio.name,
                     firm_id=w.firm.id, after=after)


def test_the_screens_rows_and_the_excel_file_read_the_same_words(w):
    _record(w, "order.executed", "portfolio", {"order": "WA7", "side": "BUY", "code": "BHP", "quantity": "24.000000"})
    _record(w, "bulk_run.started", "bulk_run", {"kind": "tp", "portfolios": 1}, label="Target portfolios of 1 portfolios")
    shown = [audit_row(e) for e in audit.list_events(actor=f.actor(w.admin)).rows]
    assert shown[0].changes == "Kind: Target portfolios\nPortfolios: 1"
    assert shown[0].object == "Bulk calculation: Target portfolios of 1 portfolio"
    assert shown[1].changes == "Code: BHP\nOrder: WA7\nQuantity: 24\nSide: BUY"

    client = f.api_client()
    path = "/api/audit-events/export-excel"
    response = client.get(f"{path}?token={f.ticket(f.session_token(w.admin), path)}&client-timezone-offset=-600")
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[1][3:5] == ("Bulk calculation: Target portfolios of 1 portfolio", "Kind: Target portfolios\nPortfolios: 1")
    assert rows[2][4] == "Code: BHP\nOrder: WA7\nQuantity: 24\nSide: BUY"
    assert not any("24.000000" in str(cell) or "kind: tp" in str(cell) for row in rows for cell in row)


def test_a_from_date_after_the_to_date_is_said(w):
    with pytest.raises(ValidationError) as refused:
        audit_edge.list_events(actor=f.actor(w.admin), date_from="2026-03-10", date_to="2026-03-01")
    assert refused.value.message == audit.DATES_REVERSED
    rows, total = audit_edge.list_events(actor=f.actor(w.admin), date_from="2026-03-01", date_to="2026-03-01")
    assert total == len(rows)  # one day is a range

    root = rx.State(_reflex_internal_init=True)
    state = root.get_substate(AuditState.get_full_name().split(".")[1:])
    state.token, _ = auth.signin(email=w.admin.email, password=f.PASSWORD)
    state.router = RouterData.from_router_data({"asPath": "/audit", "headers": {"origin": "http://localhost"}})
    handlers = type(state).event_handlers
    handlers["on_load"].fn(state)
    assert state.total >= 1 and state.date_error == ""  # the sign-in above
    handlers["set_filter"].fn(state, "date_to", "2026-03-01")
    handlers["set_filter"].fn(state, "date_from", "2026-03-10")
    assert state.date_error == audit.DATES_REVERSED and state.rows == [] and state.total == 0
    handlers["set_filter"].fn(state, "date_from", "2026-02-10")
    assert state.date_error == ""
    handlers["clear_filters"].fn(state)
    assert state.date_error == "" and state.total >= 1


def test_the_trails_filters_are_kept_in_its_address(w):
    from urllib.parse import parse_qs, urlsplit

    def screen(path: str):
        state = rx.State(_reflex_internal_init=True).get_substate(AuditState.get_full_name().split(".")[1:])
        state.token, _ = auth.signin(email=w.admin.email, password=f.PASSWORD)
        state.router = RouterData.from_router_data({"asPath": path, "headers": {"origin": "http://localhost"}})
        return state

    state = screen("/audit")
    handlers = type(state).event_handlers
    handlers["on_load"].fn(state)
    action = state.actions[1].value
    sent = handlers["set_filter"].fn(state, "action", action)
    assert any("replaceState" in str(e) for e in sent)  # the browser's address follows
    handlers["set_who"].fn(state, w.admin.email[:5])
    address = state._address()
    assert parse_qs(urlsplit(address).query) == {"action": [action], "who": [w.admin.email[:5]]}
    # the address opened again (Back, a reload, a bookmark) shows the trail as it was left; what the
    # screen would not take (a firm an administrator is not offered) is left out
    again = screen(address + "&date_from=2026-01-01&firm=nonsense")
    handlers["on_load"].fn(again)
    assert (again.filters.action, again.filters.who, again.filters.date_from) == (action, w.admin.email[:5], "2026-01-01")
    assert again.filters.firm == "all" and again.total == len(again.rows)
