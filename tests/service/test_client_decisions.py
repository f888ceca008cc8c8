"""What awaits a client's decision (records_of_advice.awaiting_decision), the rule that offers and
allows 'Calculate Trade Recommendations' (001 s6: the Calculate Target Portfolio rule, and a model
with analyst recommendations, short-term recommendations and a target portfolio), and that clients
never read trade recommendations that are still staff only (pending validation, not validated)."""
from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest

from app.db.engine import session_scope
from app.db.tables import Model, Portfolio, ShortTermRecommendation, TargetPortfolio, TradeInstruction
from app.db.types import utcnow
from app.domain import advice
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.services import trade_approval_report
from tests.advice_edge import records_of_advice, tps
from tests import trade_instructions_edge as tis
from tests.factories import actor, update_row
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio, make_portfolio_world, post
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
    return SimpleNamespace(w=w, u=u, model=model)


def _validated_target(w) -> dict:
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    return tps.validate(actor=actor(w.adviser), tp_id=tp["id"])


def _pending_trades(w) -> dict:
    tp = _validated_target(w)
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    return tis.validate(actor=actor(w.adviser), ti_id=ti["id"])


# ---- A: what awaits the client ----------------------------------------------------------------------
def test_awaiting_lists_the_record_of_advice_then_the_trades_of_owned_portfolios_only(world):
    w = world.w
    assert records_of_advice.awaiting_decision(actor=actor(w.client)) == {"records": [], "trades": []}
    tp = _validated_target(w)
    later = utcnow() + timedelta(days=3, hours=1)
    got = records_of_advice.awaiting_decision(actor=actor(w.client), now=later)
    assert [(r["tp_id"], r["investment_id"], r["portfolio"], r["version"]) for r in got["records"]] == [
        (tp["id"], w.portfolio.id, "Smith Family", 1)]
    assert got["records"][0]["waiting_days"] == 3 and got["records"][0]["sent_at"] == tp["validated_at"]
    assert got["trades"] == []
    # a holder who is not an owner, a client of the firm who holds nothing, another firm's client:
    # nothing to decide (and never another's portfolio)
    for who in (w.co_holder, w.stranger, w.other_client):
        assert records_of_advice.awaiting_decision(actor=actor(who)) == {"records": [], "trades": []}
    # staff decide elsewhere
    for who in (w.adviser, w.admin, w.superuser):
        with pytest.raises(PermissionDenied):
            records_of_advice.awaiting_decision(actor=actor(who))

    # approved: the record leaves the list; validated trades arrive, with their undecided items
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    assert records_of_advice.awaiting_decision(actor=actor(w.client)) == {"records": [], "trades": []}  # staff only yet
    ti = tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    got = records_of_advice.awaiting_decision(actor=actor(w.client))
    assert got["records"] == []
    [row] = got["trades"]
    assert (row["ti_id"], row["investment_id"], row["version"]) == (ti["id"], w.portfolio.id, ti["version"])
    # trades count trades: the "please note" items are counted apart
    assert row["items"] == len(ti["transactions"]) > 0
    assert row["notes"] == len(ti["tradeRecommendationNotes"])
    # decided: nothing awaits any more
    tis.confirm(actor=actor(w.client), ti_id=ti["id"], is_approve_all=True)
    assert records_of_advice.awaiting_decision(actor=actor(w.client)) == {"records": [], "trades": []}


def test_awaiting_skips_superseded_records_and_deleted_portfolios(world):
    w = world.w
    first = _validated_target(w)
    tps.decide(actor=actor(w.client), tp_id=first["id"], action="decline")
    assert records_of_advice.awaiting_decision(actor=actor(w.client))["records"] == []
    second = _validated_target(w)
    assert [r["tp_id"] for r in records_of_advice.awaiting_decision(actor=actor(w.client))["records"]] == [second["id"]]
    # a second owned portfolio waiting longer comes first
    older = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, model=world.model["id"], name="Older Savings")
    cash(older, "20000.00")
    tp = tps.calculate(actor=actor(w.adviser), investment_id=older.id)
    tp = tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    update_row(TargetPortfolio, tp["id"], validated_at=utcnow() - timedelta(days=9))
    rows = records_of_advice.awaiting_decision(actor=actor(w.client))["records"]
    assert [(r["portfolio"], r["waiting_days"]) for r in rows] == [("Older Savings", 9), ("Smith Family", 0)]
    update_row(Portfolio, older.id, deleted_at=utcnow())
    assert [r["portfolio"] for r in records_of_advice.awaiting_decision(actor=actor(w.client))["records"]] == [
        "Smith Family"]


# ---- B: Calculate Trade Recommendations ------------------------------------------------------------
def test_calculate_trade_recommendations_needs_model_recommendations_and_a_target(world):
    w, model_id = world.w, world.model["id"]
    adviser = actor(w.adviser)
    # no target portfolio yet: offered (the role rule) but not allowed, and the service refuses
    check = tis.can_calculate(actor=adviser, investment_id=w.portfolio.id)
    assert check == {"offered": True, "allowed": False, "reason": advice.NO_TARGET}
    with pytest.raises(ValidationError) as err:
        tis.generate(actor=adviser, investment_ids=[w.portfolio.id])
    assert err.value.message == advice.NO_TARGET
    with session_scope() as s:
        assert s.query(TradeInstruction).count() == 0  # refused: nothing stored

    tp = _validated_target(w)
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    assert tis.can_calculate(actor=adviser, investment_id=w.portfolio.id) == {"offered": True, "allowed": True,
                                                                              "reason": ""}
    # the model's analyst recommendations switched off
    update_row(Model, model_id, analyst_recommendations=False)
    assert tis.can_calculate(actor=adviser, investment_id=w.portfolio.id)["reason"] == advice.ANALYST_RECOMMENDATIONS_OFF
    with pytest.raises(ValidationError, match="switched off"):
        tis.generate(actor=adviser, investment_ids=[w.portfolio.id])
    # switched on, but no short-term recommendations
    update_row(Model, model_id, analyst_recommendations=True)
    with session_scope() as s:
        for r in s.query(ShortTermRecommendation).filter(ShortTermRecommendation.model_id == model_id).all():
            r.status = "deleted"
            s.add(r)
    assert tis.can_calculate(actor=adviser, investment_id=w.portfolio.id)["reason"] == advice.NO_RECOMMENDATIONS
    with pytest.raises(ValidationError) as err:
        tis.generate(actor=adviser, investment_ids=[w.portfolio.id])
    assert err.value.message == advice.NO_RECOMMENDATIONS
    # no model
    update_row(Portfolio, w.portfolio.id, model_id=None)
    assert tis.can_calculate(actor=adviser, investment_id=w.portfolio.id)["reason"] == advice.NO_MODEL


def test_calculate_trade_recommendations_follows_the_target_portfolio_role_rule(world):
    w = world.w
    tp = _validated_target(w)
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    # clients and administrators: never offered, refused
    for who in (w.client, w.admin):
        assert tis.can_calculate(actor=actor(who), investment_id=w.portfolio.id)["offered"] is False
        with pytest.raises(PermissionDenied):
            tis.generate(actor=actor(who), investment_ids=[w.portfolio.id])
    # an adviser on an inactive portfolio with an approved target portfolio: not offered
    update_row(Portfolio, w.portfolio.id, inactive=True)
    assert tis.can_calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)["offered"] is False
    with pytest.raises(PermissionDenied):
        tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    # the superuser always (the requirements hold)
    assert tis.can_calculate(actor=actor(w.superuser), investment_id=w.portfolio.id)["allowed"] is True
    [ti] = tis.generate(actor=actor(w.superuser), investment_ids=[w.portfolio.id])
    assert ti["status"] == "pending_validation"
    # the screen's flags say the same, with the reason
    flags = tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)["permissions"]
    assert flags["calculate_offered"] is False and flags["calculate"] is False


# ---- B: clients never read staff-only trade recommendations --------------------------------------------
def test_clients_never_read_trade_recommendations_pending_validation(world):
    w = world.w
    first = _pending_trades(w)
    tis.confirm(actor=actor(w.client), ti_id=first["id"], is_approve_all=True)
    [pending] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])  # version 2, staff only
    assert pending["status"] == "pending_validation"
    client = actor(w.client)
    # the single view: the newest the client may see is version 1; version 2 is not found
    assert tis.get(actor=client, investment_id=w.portfolio.id)["version"] == 1
    with pytest.raises(NotFound):
        tis.get(actor=client, investment_id=w.portfolio.id, version=2)
    # the versions list and the history
    rows, total = tis.list_versions(actor=client, investment_id=w.portfolio.id)
    assert [r["version"] for r in rows] == [1] and total == 1
    with pytest.raises(NotFound):
        tis.history(actor=client, ti_id=pending["id"])
    # the export of the screen: the client's newest is version 1, version 2 is not found
    assert trade_approval_report.portfolio_export(actor=client, investment_id=w.portfolio.id,
                                                  file_format="xlsx").data
    with pytest.raises(NotFound):
        trade_approval_report.portfolio_export(actor=client, investment_id=w.portfolio.id, file_format="xlsx",
                                               version=2)
    # staff see it
    assert tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)["version"] == 2


def test_clients_never_export_trade_recommendations_declined_before_validation(world):
    """'Decline all' by the adviser leaves the recommendations 'Not validated': never sent to the
    client, so never exported to them either (as the screen, which does not show them)."""
    w = world.w
    tp = _validated_target(w)
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    tis.decline_all(actor=actor(w.adviser), ti_id=ti["id"])
    client = actor(w.client)
    assert tis.get(actor=client, investment_id=w.portfolio.id) is None
    with pytest.raises(NotFound):
        trade_approval_report.portfolio_export(actor=client, investment_id=w.portfolio.id, file_format="xlsx")
    with pytest.raises(NotFound):
        trade_approval_report.portfolio_export(actor=client, investment_id=w.portfolio.id, file_format="pdf",
                                               version=ti["version"])


# ---- the demo data ---------------------------------------------------------------------------------------
def test_each_main_demo_client_finds_a_record_of_advice_awaiting_on_first_sign_in(db):
    from sqlmodel import select

    from app.db.tables import User
    from app.services import demo
    from app.services.demo_advice import FIRM_KEYS

    demo.load_demo_data()
    for key in FIRM_KEYS:
        with session_scope() as s:
            client = s.exec(select(User).where(User.email == f"client@{key}.example.com")).one()
        got = records_of_advice.awaiting_decision(actor=actor(client))
        assert len(got["records"]) == 1, key
        record = records_of_advice.record(actor=actor(client), tp_id=got["records"][0]["tp_id"])
        assert record["status"] == "validated" and record["can_decide"], key
    # loading again leaves it as it is (one record, the same)
    with session_scope() as s:
        client = s.exec(select(User).where(User.email == "client@harbour.example.com")).one()
    before = records_of_advice.awaiting_decision(actor=actor(client))
    demo.load_demo_data()
    assert records_of_advice.awaiting_decision(actor=actor(client)) == before
