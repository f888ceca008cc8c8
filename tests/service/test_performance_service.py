"""Performance of a portfolio and of a client (app.services.performance) against a real database:
figures checked by hand from the stored closes and transactions, the model's weights by version,
and who may read what.

The model (tests.factories_models.payload, equal amounts): BHP 30 %, CBA 30 %, VAF 35 %, cash 5 %.
The Smith Family portfolio: 10,000.00 in on 02/01/2026; 100 BHP bought at 45.00 with a 10.00 fee
on 05/01 (value 9,990.00: the fee is the day's loss); BHP closes 49.50 on 06/01 (+10 %) and a 50.00
dividend arrives (value 5,490.00 + 50.00 + 4,950.00 = 10,490.00); 5,000.00 more comes in on 07/01
with nothing else moving.
"""
from __future__ import annotations

import json
from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from app.api.schemas import path_id
from app.db.engine import session_scope
from app.db.tables import AssetPrice, ModelVersion, Portfolio
from app.domain.errors import NotFound, ValidationError
from app.services import performance
from tests.factories import actor
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio_world, post

D = Decimal


def closes(asset_id: int, rows: dict[str, str]) -> None:
    with session_scope() as s:
        for day, close in rows.items():
            s.add(AssetPrice(asset_id=asset_id, price_date=date.fromisoformat(day), close=D(close)))


@pytest.fixture
def world(db):
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    bhp, cba, vaf = u.stocks[0], u.stocks[1], u.fixed[0]
    with session_scope() as s:
        row = s.get(Portfolio, w.portfolio.id)
        row.model_id = model["id"]
        s.add(row)
    closes(bhp.id, {"2026-01-02": "45.00", "2026-01-05": "45.00", "2026-01-06": "49.50", "2026-01-07": "49.50"})
    closes(cba.id, {"2026-01-02": "120.00", "2026-01-05": "120.00", "2026-01-06": "120.00", "2026-01-07": "120.00"})
    closes(vaf.id, {"2026-01-02": "46.00", "2026-01-05": "46.00", "2026-01-06": "46.00", "2026-01-07": "46.00"})
    cash(w.portfolio, "10000.00", type="opening_balance", day="2026-01-02")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=100, price="45.00", fee="10.00", day="2026-01-05")
    post(w.portfolio, "dividend", asset_id=bhp.id, amount="50.00", franking_credits="21.43", day="2026-01-06")
    cash(w.portfolio, "5000.00", day="2026-01-07")
    w.model, w.bhp = model, bhp
    return w


def by_period(report):
    return {line.period: line for line in report.periods}


def test_the_portfolio_figures_match_the_hand_computed_ones(world):
    report = performance.portfolio_performance(actor=actor(world.adviser), portfolio_id=world.portfolio.id)
    assert report.title == "Smith Family" and report.firm_name == "Harbour Test"
    assert report.model_name == "Balanced Growth"
    assert report.as_at == date(2026, 1, 7) and report.inception == date(2026, 1, 2)
    assert report.value == D("15490.00")
    since = by_period(report)["inception"]
    # TWR: 10,000 -> 9,990 (-0.1 %) -> 10,490 (+5.005 %) -> 15,490 on 10,490 + 5,000 (0 %) = +4.90 %
    assert since.twr == D("4.90")
    # income: the 50.00 on the 9,990.00 invested, linked with the growth before it (0.999): 0.50 %
    assert since.income == D("0.50") and since.capital == D("4.40")
    assert since.net_flows == D("15000.00") and since.income_received == D("50.00")
    assert since.start_value == 0 and since.end_value == D("15490.00")
    # the model: 30 % BHP earns 10 % on 06/01, nothing else moves: +3.00 %
    assert since.model == D("3.00") and since.difference == D("1.90")
    parts = since.cash_drag + since.drift + since.trades_not_taken + since.other
    assert abs(parts - since.difference) <= D("0.02")
    # why, on 06/01 (linked with the growth before it, 0.999; the model earns 3 % that day): the
    # portfolio held 54.95 % cash against 5 % (-0.4995 x 3 % = -1.50), BHP at 45.05 % against 30 %
    # ((0.1505) x (10 % - 3 %) = +1.05), and not CBA and VAF, which earned 0 against the model's 3 %
    # ((0.30 + 0.35) x 3 % = +1.95); the rest is the dividend the closes do not carry, and the fee
    assert (since.cash_drag, since.drift, since.trades_not_taken, since.other) == (
        D("-1.50"), D("1.05"), D("1.95"), D("0.40"))
    # money-weighted (the 5,000 arrived after the gain, so the IRR is below the TWR): over the 6
    # days from the close of 01/01, 10,000 in at once and 5,000 after 5 days give 15,490 after 6:
    # 10,000 u^6 + 5,000 u = 15,490 with u the daily factor; the period's rate is u^6 - 1
    u = (1 + float(since.irr) / 100) ** (1 / 6)
    assert 10000 * u ** 6 + 5000 * u == pytest.approx(15490, abs=0.6)
    assert since.irr < since.twr
    assert not since.annualised
    lines = by_period(report)
    assert not lines["1y"].available and lines["1y"].twr is None
    assert lines["fytd"].partial and lines["fytd"].twr == D("4.90")
    # the chart: one point a valuation day, the money put in, and the model's path with the same flows
    assert [p.day for p in report.chart] == [date(2026, 1, d) for d in (2, 5, 6, 7)]
    assert [p.value for p in report.chart] == [D("10000.00"), D("9990.00"), D("10490.00"), D("15490.00")]
    assert [p.invested for p in report.chart] == [D("10000.00")] * 3 + [D("15000.00")]
    assert report.chart[2].model_value == D("10300.00") and report.chart[3].model_value == D("15300.00")


def test_a_period_ending_earlier_and_an_invalid_date(world):
    report = performance.portfolio_performance(actor=actor(world.adviser), portfolio_id=world.portfolio.id,
                                               until=performance.read_until("05/01/2026"))
    assert report.as_at == date(2026, 1, 5) and report.value == D("9990.00")
    assert by_period(report)["inception"].twr == D("-0.10")
    with pytest.raises(ValidationError):
        performance.portfolio_performance(actor=actor(world.adviser), portfolio_id=world.portfolio.id,
                                          until=performance.read_until("31/02/2026"))


def test_the_model_version_in_force_on_each_day(world):
    # an earlier version (saved 01/01/2026) held only VAF; the current one (saved today) the 30/30/35 mix
    with session_scope() as s:
        current = s.exec(__import__("sqlmodel").select(ModelVersion).where(ModelVersion.model_id == world.model["id"])).first()
        shape = json.loads(current.snapshot)
        for c in shape["allocation_classes"]:
            if c["assets"] and c["assets"][0]["asset_id"] == world.bhp.id:
                c["allocation"] = "0"
        s.add(ModelVersion(model_id=world.model["id"], version=0, snapshot=json.dumps(shape),
                           created_at=datetime(2026, 1, 1, tzinfo=timezone.utc)))
        current.created_at = datetime(2026, 1, 6, 12, tzinfo=timezone.utc)
        s.add(current)
    report = performance.portfolio_performance(actor=actor(world.adviser), portfolio_id=world.portfolio.id)
    assert report.model_basis == performance.MODEL_BASIS_VERSIONS
    # on 05/01 -> 06/01 the version in force (saved 01/01) holds no BHP: the model earns nothing
    assert by_period(report)["inception"].model == D("0.00")


def test_who_may_read_a_portfolios_performance(world):
    assert performance.portfolio_performance(actor=actor(world.client), portfolio_id=world.portfolio.id).value
    for outsider in (world.other_adviser, world.stranger, world.other_client):
        with pytest.raises(NotFound):
            performance.portfolio_performance(actor=actor(outsider), portfolio_id=world.portfolio.id)
    with pytest.raises(NotFound):
        performance.portfolio_performance(actor=actor(world.adviser), portfolio_id=path_id("nope"))


def test_a_clients_performance_across_their_portfolios(world):
    mine = performance.client_performance(actor=actor(world.client))
    assert mine.client_id == world.client.id and mine.value == D("15490.00")
    assert [p.name for p in mine.portfolios] == ["Smith Family"]
    assert by_period(mine)["inception"].twr == D("4.90") and by_period(mine)["inception"].model == D("3.00")
    assert performance.client_performance(actor=actor(world.adviser), client_id=world.client.id).value == D("15490.00")
    with pytest.raises(NotFound):
        performance.client_performance(actor=actor(world.client), client_id=world.co_holder.id)
    with pytest.raises(NotFound):
        performance.client_performance(actor=actor(world.other_adviser), client_id=world.client.id)
    with pytest.raises(NotFound):
        performance.client_performance(actor=actor(world.adviser), client_id=world.adviser.id)


def test_a_portfolio_without_transactions_says_so(world):
    report = performance.portfolio_performance(actor=actor(world.other_adviser), portfolio_id=world.other_portfolio.id)
    assert report.periods == () and report.chart == () and report.message == performance.NO_HISTORY


def test_a_holding_bought_before_the_first_stored_close_is_valued_at_its_trade_price(world):
    post(world.portfolio, "asset_buy", asset_id=world.model["allocation_classes"][0]["assets"][1]["asset_id"],
         quantity=10, price="100.00", fee="0", day="2025-12-01")  # CBA, whose closes start on 02/01/2026
    cash(world.portfolio, "1000.00", type="opening_balance", day="2025-12-01")
    report = performance.portfolio_performance(actor=actor(world.adviser), portfolio_id=world.portfolio.id)
    assert report.inception == date(2025, 12, 1)
    assert report.chart[0].value == D("1000.00")     # 1,000 in, 1,000 of CBA at 100.00, no cash left
