"""A repeated request (a double click on Validate, a second tab) carries the row version it was
made against: the second of two identical requests is refused as a conflict and nothing it asks
for happens twice (002 s9: repeat clicks are ignored)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import AuditEvent, Portfolio, TargetPortfolio, TradeInstruction
from app.domain import advice
from app.domain.errors import Conflict
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from tests.factories import actor, update_row
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio_world, post
from tests.factories_recommendations import make_short_term


@pytest.fixture
def world(db):
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    make_short_term(SimpleNamespace(id=model["id"]), u.stocks[1], "BUY")
    update_row(Portfolio, w.portfolio.id, model_id=model["id"], inactive=False)
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    return w


def _audited(action: str, object_id: int) -> int:
    with session_scope() as s:
        return len(s.exec(select(AuditEvent).where(AuditEvent.action == action,
                                                   AuditEvent.object_id == object_id)).all())


def _row_version(table, row_id: int) -> int:
    with session_scope() as s:
        return s.get(table, row_id).row_version


def test_validating_a_target_portfolio_twice_acts_once(world):
    w = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    version = _row_version(TargetPortfolio, tp["id"])
    first = tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=version)
    assert first["status"] == "validated"
    with pytest.raises(Conflict) as err:  # the double click's second request, made against the old copy
        tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=version)
    assert err.value.message == advice.EDITED_ELSEWHERE
    assert _row_version(TargetPortfolio, tp["id"]) == version + 1
    assert _audited("target_portfolio.validated", w.portfolio.id) == 1  # on the portfolio's audit trail
    # the current copy still works: the client approves once, a repeat of it is refused too
    current = version + 1
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve", row_version=current)
    with pytest.raises(Conflict):
        tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve", row_version=current)
    assert _audited("record_of_advice.approved", w.portfolio.id) == 1


def test_validating_trade_recommendations_twice_acts_once(world):
    w = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    version = _row_version(TradeInstruction, ti["id"])
    assert tis.validate(actor=actor(w.adviser), ti_id=ti["id"], row_version=version)["status"] == "pending_approval"
    with pytest.raises(Conflict) as err:
        tis.validate(actor=actor(w.adviser), ti_id=ti["id"], row_version=version)
    assert err.value.message == advice.EDITED_ELSEWHERE
    history, _ = tis.history(actor=actor(w.adviser), ti_id=ti["id"])
    assert [h["action"] for h in history].count("validated") == 1
    assert _row_version(TradeInstruction, ti["id"]) == version + 1
    # the client's Approve all, clicked twice: the second is refused and the decisions stand once
    current = version + 1
    done = tis.confirm(actor=actor(w.client), ti_id=ti["id"], is_approve_all=True, row_version=current)
    assert done["status"] == "approved"
    with pytest.raises(Conflict):
        tis.confirm(actor=actor(w.client), ti_id=ti["id"], is_approve_all=True, row_version=current)
    history, _ = tis.history(actor=actor(w.adviser), ti_id=ti["id"])
    assert [h["action"] for h in history].count("confirmed decisions") == 1
