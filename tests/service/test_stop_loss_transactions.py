"""The asset transactions panel marks stop-loss transactions (spec 002 s4): those whose generating
recommendation action is stop-loss sell, tap or tsp."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal as D

import pytest

from app.db.engine import session_scope
from app.domain.transactions import generating_action, is_stop_loss
from app.services import postings
from tests.transactions_edge import tx
from tests import factories as f
from tests.factories_advice import make_trade, make_trade_instruction
from tests.factories_assets import make_asset
from tests.factories_portfolios import make_portfolio_world, post


def _recommended(action: str) -> str:
    return json.dumps({"recommendation_action": action, "str_on_ti_generation": {"action": action, "comment": None}})


@pytest.mark.parametrize("action,expected", [
    ("SL/SELL", True), ("SL/TAP", True), ("sl/tsp", True), ("SELL", False), ("FFL/SELL", False), ("TAP", False),
    (None, False), ("", False),
])
def test_stop_loss_actions(action, expected):
    assert is_stop_loss(action) is expected


def test_the_generating_action_is_read_from_the_recommendation_at_generation_first():
    assert generating_action({"str_on_ti_generation": {"action": "SL/TAP"}, "recommendation_action": "SELL"}) == "SL/TAP"
    assert generating_action({"recommendation_action": "sl/sell"}) == "SL/SELL"
    assert generating_action({"instruction": "SL/TSP", "order_type": "stop_loss"}) == "SL/TSP"
    assert generating_action({"comment": "x"}) is None and generating_action(None) is None


def test_the_panel_marks_transactions_generated_by_a_stop_loss_recommendation(db):
    w = make_portfolio_world()
    bhp = make_asset("BHP", name="BHP Group Limited", last_close_price=D("50.00"),
                     last_close_date=datetime(2026, 4, 1, tzinfo=timezone.utc))
    instruction = make_trade_instruction(w.portfolio)
    stop = make_trade(instruction, bhp, "decrease", "10", payload=_recommended("SL/SELL"))
    plain = make_trade(instruction, bhp, "decrease", "5", payload=_recommended("SELL"))
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity="100", price="30.00", day="2026-01-05")
    # placed with the broker as a broker file does: linked to the recommendation line
    with session_scope() as s:
        stop_id, sell_id = postings.record_trades(
            s, actor_id=w.adviser.id, status="processing", trade_at=datetime(2026, 2, 5, tzinfo=timezone.utc),
            entries=[postings.TradeEntry(portfolio_id=w.portfolio.id, kind="parcel", asset_id=bhp.id, quantity=D(10),
                                         price=D("45.00"), fee=D("19.95"), trade_transaction_id=stop.id,
                                         payload={"order_type": "stop_loss", "file": "desktop_broker"}),
                     postings.TradeEntry(portfolio_id=w.portfolio.id, kind="parcel", asset_id=bhp.id, quantity=D(5),
                                         price=D("48.00"), fee=D("19.95"), trade_transaction_id=plain.id)])
    # a transaction keyed in by hand whose payload records a stop-loss recommendation
    typed = post(w.portfolio, "parcel", asset_id=bhp.id, quantity="1", price="44.00", day="2026-02-07",
                 payload={"str_on_ti_generation": {"action": "SL/TSP"}})

    rows = tx.list_transactions_of_asset(actor=f.actor(w.adviser), investment_id=w.portfolio.id, asset_id=bhp.id)
    marks = {r["id"]: (r["stop_loss"], r["stop_loss_label"], r["recommendation_action"]) for r in rows}
    assert marks[stop_id] == (True, "Stop loss", "SL/SELL")
    assert marks[sell_id] == (False, None, "SELL")
    assert marks[typed.id] == (True, "Stop loss", "SL/TSP")
    assert sum(1 for mark in marks.values() if mark[0]) == 2

    one = tx.get_asset_transaction(actor=f.actor(w.client), transaction_id=stop_id)
    assert one["stop_loss"] is True and one["status_label"] == "Placed"
