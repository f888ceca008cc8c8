"""Drift and work queues of the dashboard: figures against hand-computed values, tenancy, the
superuser's firm filter, filters and order, the bounded number of queries, and the queue counts.

The model (tests.factories_models.payload, equal amounts): Australian Equities 60 % (band 50-70;
BHP 45.00 and CBA 120.00, 30 % each), Fixed Income 35 % (30-40; VAF 46.00), Cash 5 % (no band).
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from app.db.engine import session_scope
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.domain.drift import read_min_breach
from app.services import drift
from tests.factories import actor, at
from tests.factories_advice import make_target_portfolio, make_trade, make_trade_instruction
from tests.factories_models import count_queries, make_model, make_universe, set_price
from tests.factories_portfolios import cash, make_custom_holding, make_portfolio, make_portfolio_world, post

D = Decimal
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def world(db):
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    other_model = make_model(actor(w.other_adviser), u, name="Other Growth")
    bhp, cba, vaf = u.stocks[0], u.stocks[1], u.fixed[0]
    # Smith Family: 10,000 in, 100 BHP bought at 45.00 with a 10.00 fee -> cash 5,490.00, BHP 4,500.00
    smith = w.portfolio
    with session_scope() as s:
        from app.db.tables import Portfolio

        row = s.get(Portfolio, smith.id)
        row.model_id = model["id"]
        s.add(row)
    cash(smith, "10000.00")
    post(smith, "asset_buy", asset_id=bhp.id, quantity=100, price="45.00", fee="10.00")
    # Balanced: 100,000 in; 700 BHP, 250 CBA, 700 VAF (10.00 fee each) -> every class inside its band
    balanced = make_portfolio(w.firm, holders=[w.co_holder], adviser=w.adviser, model=model["id"], name="Balanced")
    cash(balanced, "100000.00")
    post(balanced, "asset_buy", asset_id=bhp.id, quantity=700, price="45.00", fee="10.00")
    post(balanced, "asset_buy", asset_id=cba.id, quantity=250, price="120.00", fee="10.00")
    post(balanced, "asset_buy", asset_id=vaf.id, quantity=700, price="46.00", fee="10.00")
    # Property: 10,000 cash and a 5,000.00 custom holding in Fixed Income
    prop = make_portfolio(w.firm, holders=[w.stranger], adviser=w.adviser, model=model["id"], name="Property")
    cash(prop, "10000.00")
    make_custom_holding(prop, "Unit trust", value="5000.00", asset_class=u.bonds)
    # no model: not measured
    make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name="Unlinked")
    # firm B: all cash, far outside
    with session_scope() as s:
        from app.db.tables import Portfolio

        row = s.get(Portfolio, w.other_portfolio.id)
        row.model_id = other_model["id"]
        s.add(row)
    cash(w.other_portfolio, "1000.00")
    return type("World", (), dict(w=w, u=u, model=model, other_model=other_model, smith=smith, balanced=balanced,
                                  prop=prop))


def _row(report, name):
    return next(r for r in report.rows if r.name == name)


def _cls(row, title):
    return next(c for c in row.classes if c.title == title)


def _asset(row, code):
    return next(a for a in row.assets if a.code == code)


def test_figures_against_hand_computed_values(world):
    report = drift.report(actor=actor(world.w.adviser))
    smith = _row(report, "Smith Family")
    assert smith.value == D("9990.00")                       # 4,500.00 + 5,490.00
    assert smith.client_name == f"{world.w.client.first_name} {world.w.client.last_name}"
    assert smith.adviser_name == f"{world.w.adviser.first_name} {world.w.adviser.last_name}"
    assert smith.model_name == "Balanced Growth" and smith.model_id == world.model["id"]
    eq = _cls(smith, "Australian Equities")
    assert (eq.value, eq.current, eq.target, eq.min, eq.max) == (D("4500.00"), D("45.05"), D(60), D(50), D(70))
    assert (eq.breach, eq.side) == (D("4.95"), "below")      # 50 - 45.05
    fi = _cls(smith, "Fixed Income")
    assert (fi.current, fi.breach, fi.side) == (D("0.00"), D("30.00"), "below")
    cash_row = _cls(smith, "Cash")
    assert (cash_row.value, cash_row.current, cash_row.breach) == (D("5490.00"), D("54.95"), D("0.00"))
    assert smith.largest_breach == D("30.00") and smith.out_of_band == 2
    bhp = _asset(smith, "BHP")
    assert (bhp.units, bhp.value, bhp.current, bhp.weight, bhp.difference) == (
        D(100), D("4500.00"), D("45.05"), D("30.00"), D("15.05"))
    assert (_asset(smith, "CBA").current, _asset(smith, "CBA").weight, _asset(smith, "CBA").difference) == (
        D("0.00"), D("30.00"), D("-30.00"))
    assert _asset(smith, "VAF").weight == D("35.00")

    balanced = _row(report, "Balanced")
    assert balanced.value == D("99970.00")   # 31,500 + 30,000 + 32,200 + 6,270 cash
    assert [(c.title, c.current, c.breach) for c in balanced.classes] == [
        ("Australian Equities", D("61.52"), D("0.00")), ("Fixed Income", D("32.21"), D("0.00")),
        ("Cash", D("6.27"), D("0.00"))]
    assert balanced.largest_breach == 0 and balanced.out_of_band == 0

    prop = _row(report, "Property")        # the custom holding counts toward its class
    assert prop.value == D("15000.00")
    assert _cls(prop, "Fixed Income").current == D("33.33") and _cls(prop, "Fixed Income").breach == 0
    assert _cls(prop, "Australian Equities").breach == D("50.00")


def test_breached_first_then_by_name_and_unlinked_left_out(world):
    report = drift.report(actor=actor(world.w.adviser))
    assert [r.name for r in report.rows] == ["Property", "Smith Family", "Balanced"]
    assert report.count == 3 and report.breached == 2
    assert dict(report.histogram) == {"In band": 1, "0-2 pp": 0, "2-5 pp": 0, "5-10 pp": 0, "10+ pp": 2}
    assert report.value_by_model == [("Balanced Growth", D("124960.00"))]
    by_name = drift.report(actor=actor(world.w.adviser), sort="name", order="asc")
    assert [r.name for r in by_name.rows] == ["Balanced", "Property", "Smith Family"]
    assert [r.name for r in drift.page_of(by_name.rows, 20, 20)] == []


def test_a_new_last_close_moves_the_drift(world):
    set_price(world.u.stocks[0].id, "60.00")  # BHP 100 x 60 = 6,000; value 11,490
    smith = _row(drift.report(actor=actor(world.w.adviser)), "Smith Family")
    assert smith.value == D("11490.00")
    assert _cls(smith, "Australian Equities").current == D("52.22")
    assert _cls(smith, "Australian Equities").breach == 0


def test_filters(world):
    a = actor(world.w.adviser)
    assert [r.name for r in drift.report(actor=a, min_breach=read_min_breach("40")).rows] == ["Property"]
    assert [r.name for r in drift.report(actor=a, min_breach=read_min_breach("0.01")).rows] == ["Property", "Smith Family"]
    assert drift.report(actor=a, model_id=world.other_model["id"]).rows == []
    assert drift.report(actor=a, adviser_id=world.w.other_adviser.id).rows == []
    assert [r.name for r in drift.report(actor=a, investment_ids=[world.balanced.id]).rows] == ["Balanced"]
    with pytest.raises(ValidationError):
        drift.report(actor=a, min_breach=read_min_breach("lots"))
    one = drift.portfolio(actor=a, investment_id=world.smith.id)
    assert one is not None and one.largest_breach == D("30.00")
    report = drift.report(actor=a)
    assert [m.name for m in report.models] == ["Balanced Growth"]
    assert [o.id for o in report.advisers] == [world.w.adviser.id]


def test_tenancy_and_superuser_firm_filter(world):
    w = world.w
    for who in (w.adviser, w.admin):
        names = {r.name for r in drift.report(actor=actor(who)).rows}
        assert "Other Family" not in names and names == {"Smith Family", "Balanced", "Property"}
        assert drift.portfolio(actor=actor(who), investment_id=w.other_portfolio.id) is None
        with pytest.raises(NotFound):
            drift.report(actor=actor(who), firm_id=w.other_firm.id)
        with pytest.raises(NotFound):
            drift.queues(actor=actor(who), firm_id=w.other_firm.id)
    other = drift.report(actor=actor(w.other_adviser))
    assert [r.name for r in other.rows] == ["Other Family"]
    assert other.rows[0].largest_breach == D("50.00")  # all cash: equities 0 % against a 50 % minimum
    every = drift.report(actor=actor(w.superuser))
    assert {r.name for r in every.rows} == {"Smith Family", "Balanced", "Property", "Other Family"}
    only_b = drift.report(actor=actor(w.superuser), firm_id=w.other_firm.id)
    assert [r.name for r in only_b.rows] == ["Other Family"] and only_b.firm_id == w.other_firm.id
    with pytest.raises(PermissionDenied):
        drift.report(actor=actor(w.client))
    with pytest.raises(PermissionDenied):
        drift.queues(actor=actor(w.client))


def test_the_whole_firm_in_a_fixed_number_of_queries(world):
    a = actor(world.w.adviser)
    drift.report(actor=a)  # the model cache is warm from here
    with count_queries() as few:
        drift.report(actor=a)
    for n in range(6):
        p = make_portfolio(world.w.firm, holders=[world.w.client], adviser=world.w.adviser, model=world.model["id"],
                           name=f"More {n}")
        cash(p, "1000.00")
        post(p, "asset_buy", asset_id=world.u.stocks[1].id, quantity=2, price="120.00", fee="1.00")
    with count_queries() as many:
        assert drift.report(actor=a).count == 9
    assert len(many) == len(few)


def test_a_reconstruction_is_replayed_through_the_ledger(world):
    # 2 for 1 on the Smith Family's 100 BHP -> 200 units (4 x 45 ... value 9,000)
    post(world.smith, "reconstruction", asset_id=world.u.stocks[0].id, ratio="2:1", day="2026-01-06")
    smith = _row(drift.report(actor=actor(world.w.adviser)), "Smith Family")
    assert _asset(smith, "BHP").units == D(200)
    assert smith.value == D("14490.00")


# ---- queues -------------------------------------------------------------------------------------------
def _ti(portfolio, status, *, approved_trades=0, asset=None):
    now = at("2026-03-01", hour=9)
    ti = make_trade_instruction(portfolio, status, created_at=now, updated_at=now, payload=json.dumps({}))
    for _ in range(approved_trades):
        make_trade(ti, asset, "increase", "10", price="45.00", fee="10.00", amount="460.00", decision="approved",
                   asset_price=D("45.00"), current_units=D(0), updated_at=now, approved_at=now)


def test_queue_counts(world):
    w = world.w
    make_target_portfolio(world.smith, 1, "draft", day="2026-03-01")
    make_target_portfolio(world.balanced, 1, "validated", day="2026-02-01", validated="2026-02-28")
    make_target_portfolio(world.prop, 1, "draft", day="2026-03-05", not_enough_cash=True)
    extra = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, model=world.model["id"], name="Zed")
    make_target_portfolio(extra, 1, "failed", day="2026-03-02", error="boom")
    make_target_portfolio(w.other_portfolio, 1, "draft", day="2026-03-01")  # firm B
    _ti(world.smith, "pending_validation")
    _ti(world.balanced, "pending_approval")
    _ti(world.prop, "approved", approved_trades=2, asset=world.u.stocks[0])
    _ti(w.other_portfolio, "pending_validation")

    q = drift.queues(actor=actor(w.adviser), now=NOW)
    assert (q.to_validate, q.to_validate_oldest_days) == (1, 9)
    assert (q.not_enough_cash, q.calculation_error) == (1, 1)
    assert (q.awaiting_client, q.awaiting_client_oldest_days) == (1, 10)  # validated 28/02, not calculated 01/02
    assert [(r.portfolio_name, r.days) for r in q.awaiting] == [("Balanced", 10)]
    assert (q.trades_to_validate, q.trades_to_approve) == (1, 1)
    assert (q.trades_to_export, q.trades_to_export_portfolios) == (2, 1)

    everyone = drift.queues(actor=actor(w.superuser), now=NOW)
    assert (everyone.to_validate, everyone.trades_to_validate) == (2, 2)
    firm_b = drift.queues(actor=actor(w.superuser), firm_id=w.other_firm.id, now=NOW)
    assert (firm_b.to_validate, firm_b.trades_to_validate, firm_b.awaiting_client, firm_b.trades_to_export) == (1, 1, 0, 0)
    other = drift.queues(actor=actor(w.other_adviser), now=NOW)
    assert (other.to_validate, other.trades_to_validate, other.not_enough_cash) == (1, 1, 0)


def test_the_list_without_asset_rows_has_the_same_figures(world):
    post(world.smith, "reconstruction", asset_id=world.u.stocks[0].id, ratio="2:1", day="2026-01-06")
    a = actor(world.w.adviser)
    full, slim = drift.report(actor=a), drift.report(actor=a, with_assets=False)
    assert [r.name for r in slim.rows] == [r.name for r in full.rows]
    for f, s in zip(full.rows, slim.rows):
        assert s.assets == []
        assert (s.value, s.largest_breach, s.out_of_band) == (f.value, f.largest_breach, f.out_of_band)
        assert [(c.class_id, c.value, c.current, c.breach) for c in s.classes] == [
            (c.class_id, c.value, c.current, c.breach) for c in f.classes]
