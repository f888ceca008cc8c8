"""Trade instructions: generation from the right target portfolio, validation outcomes, decline
all, decisions and confirm, editing and adding transactions, history, the auto-approval sweep."""
from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest

from app.db.engine import session_scope
from app.db.tables import Portfolio
from app.db.types import utcnow
from app.domain.errors import NotFound, PermissionDenied, ValidationError
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
    return w, u, model


def _approved_target(w) -> dict:
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    return tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")


def test_generation_needs_an_approved_target_when_approval_is_required(world):
    w, _, _ = world
    tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)  # a draft only
    # refused before calculating (001 s6: Calculate Trade Recommendations requires a target portfolio)
    with pytest.raises(ValidationError) as err:
        tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    assert err.value.message == "There is no target portfolio to generate trade recommendations from"
    tp = _approved_target(w)
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    assert ti["status"] == "pending_validation" and ti["version"] == 1 and ti["target_portfolio_id"] == tp["id"]
    assert ti["transactions"], "the target buys CBA and VAF with the cash"
    # value = units x price: 569 x 45.00 = 25,605.00; 251 x 120.00 = 30,120.00; 764 x 46.00 = 35,144.00
    assert sorted((t["asset_code"], Decimal(t["quantity"]), Decimal(t["price"]), Decimal(t["value"]))
                  for t in ti["transactions"]) == [
        ("BHP", Decimal("569"), Decimal("45.00"), Decimal("25605.00")),
        ("CBA", Decimal("251"), Decimal("120.00"), Decimal("30120.00")),
        ("VAF", Decimal("764"), Decimal("46.00"), Decimal("35144.00")),
    ]
    for t in ti["transactions"]:
        assert t["payload"]["str_on_ti_generation"]["text"]
    assert ti["actor_label"] == "Calculated by"


def test_clients_and_administrators_cannot_generate(world):
    w, _, _ = world
    for who in (w.client, w.admin):
        with pytest.raises(PermissionDenied):
            tis.generate(actor=actor(who), investment_ids=[w.portfolio.id])
    with pytest.raises(NotFound):
        tis.generate(actor=actor(w.other_adviser), investment_ids=[w.portfolio.id])
    with pytest.raises(ValidationError):
        tis.generate(actor=actor(w.adviser), investment_ids=[])


def test_validate_then_client_confirms_decisions(world):
    w, u, _ = world
    _approved_target(w)
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    validated = tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    assert validated["status"] == "pending_approval" and validated["message"] == "Trades validated"
    assert {t["status"] for t in validated["transactions"]} == {"pending_approval"}
    assert validated["permissions"]["approve"] is True  # an adviser may approve on an active portfolio
    first, *rest = validated["transactions"]
    with pytest.raises(PermissionDenied):
        tis.confirm(actor=actor(w.co_holder), ti_id=ti["id"], is_approve_all=True)
    done = tis.confirm(actor=actor(w.client), ti_id=ti["id"], decisions={first["id"]: "declined",
                                                                        **{t["id"]: "approved" for t in rest}})
    assert done["message"] == "Trades confirmed"
    assert done["status"] == ("partially_approved" if rest else "declined")
    history, total = tis.history(actor=actor(w.adviser), ti_id=ti["id"])
    assert total == 3 and history[0]["action"] == "confirmed decisions"


def test_without_approval_required_validation_approves(world):
    w, _, _ = world
    _approved_target(w)
    update_row(Portfolio, w.portfolio.id, approval_settings=json.dumps({"tr_approval_required": False, "tr_approval_request": False,
                                                       "tr_auto_approval": "never"}))
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    validated = tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    assert validated["status"] == "approved"
    assert {t["status"] for t in validated["transactions"]} == {"approved"}


def test_decline_all(world):
    w, _, _ = world
    _approved_target(w)
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    out = tis.decline_all(actor=actor(w.adviser), ti_id=ti["id"])
    assert out["status"] == "not_validated" and not out["validated"]
    assert {t["status"] for t in out["transactions"]} == {"not_valid"}


def test_edit_and_add_transactions(world):
    w, u, _ = world
    _approved_target(w)
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    t = ti["transactions"][0]
    edited = tis.update_transaction(actor=actor(w.adviser), tx_id=t["id"], quantity="10", price="2.50")
    assert edited["value"] == "25.00" and edited["user_action"] == "changed price and quantity"
    with pytest.raises(ValidationError) as err:
        tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code="wes", action="sell", quantity="1")
    assert err.value.message == "Not enough assets to sell"
    with pytest.raises(ValidationError) as err:
        tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code="ZZZ", action="buy", quantity="1")
    assert err.value.message == "Invalid code"
    added = tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code="wes", action="buy", quantity="10")
    assert added["asset_code"] == "WES" and added["user_action"] == "added" and added["value"] == "600.00"
    with pytest.raises(ValidationError) as err:
        tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code="WES", action="buy", quantity="10")
    assert err.value.message == "Transaction already exists"
    codes = {t["asset_code"] for t in ti["transactions"]}
    with pytest.raises(ValidationError) as err:
        tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code=sorted(codes)[0], action="buy", quantity="3")
    assert "is already in these trade recommendations" in err.value.message
    with pytest.raises(PermissionDenied):
        tis.update_transaction(actor=actor(w.client), tx_id=t["id"], quantity="1")


def test_auto_approval_sweep(world):
    w, _, _ = world
    _approved_target(w)
    update_row(Portfolio, w.portfolio.id, approval_settings=json.dumps({"tr_approval_required": True, "tr_approval_request": True,
                                                       "tr_auto_approval": "2_days"}))
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    validated = tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    assert validated["auto_approve_at"] is not None
    assert tis.sweep_auto_approvals(utcnow() + timedelta(days=1)) == 0
    assert tis.sweep_auto_approvals(utcnow() + timedelta(days=3)) == 1
    assert tis.sweep_auto_approvals(utcnow() + timedelta(days=3)) == 0
    after = tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)
    assert after["status"] == "approved" and {t["status"] for t in after["transactions"]} == {"approved"}


def test_adding_a_trade_cannot_use_another_firms_private_asset(world):
    from tests.factories_assets import make_asset, make_cash_class

    w, _, _ = world
    make_asset("PRVX", make_cash_class(), name="Other firm's private fund", firm=w.other_firm, price="10.00")
    _approved_target(w)
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    with pytest.raises(ValidationError) as err:
        tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code="prvx", action="buy", quantity="10",
                            price="1.00")
    assert err.value.message == "Invalid code"
    own = make_asset("OWNX", make_cash_class(), name="Our own fund", firm=w.firm, price="10.00")
    added = tis.add_transaction(actor=actor(w.adviser), ti_id=ti["id"], code="ownx", action="buy", quantity="10",
                                price="1.00")
    assert added["asset_id"] == own.id


def test_clients_do_not_see_trades_pending_validation(world):
    w, _, _ = world
    _approved_target(w)
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    assert tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)["id"] == ti["id"]
    assert tis.get(actor=actor(w.client), investment_id=w.portfolio.id) is None
    assert tis.list_versions(actor=actor(w.client), investment_id=w.portfolio.id) == ([], 0)
    with pytest.raises(NotFound):
        tis.history(actor=actor(w.client), ti_id=ti["id"])
    tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    assert tis.get(actor=actor(w.client), investment_id=w.portfolio.id)["id"] == ti["id"]



def test_a_request_naming_another_firms_portfolio_is_refused_whole(world):
    """Generating for the firm's portfolio and another firm's calculates neither (not the own one first)."""
    from sqlalchemy import func
    from sqlmodel import select

    from app.db.tables import TradeInstruction

    w, _, _ = world
    _approved_target(w)
    with pytest.raises(NotFound) as refused:
        tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id, w.other_portfolio.id])
    assert refused.value.message == "Portfolio not found"
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(TradeInstruction)).one() == 0
    assert len(tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])) == 1
