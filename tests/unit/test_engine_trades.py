"""trade_figures and generate_trades (spec 002 s5, design/engine.md "Trade instructions")."""
from __future__ import annotations

import pytest

from app.domain import engine as E
from app.domain import validators
from app.domain.errors import ValidationError
from tests.unit.engine_builders import A, C, CASH, D, H, M, Q, S, rec

BROKERAGE = E.Brokerage(D("0.11"), D("19.95"), D(100))
BHP, CBA, CSL = A(10, "BHP", "40"), A(11, "CBA", "100"), A(12, "CSL", "250")
BASE = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL))


# ---- trade_figures --------------------------------------------------------------------------------
def test_a_buy_adds_brokerage_to_its_amount():
    # 100 x 12.345 = 1,234.50; 0.11% = 1.36 -> the $19.95 minimum; amount 1,254.45
    f = E.trade_figures(E.INCREASE, D(100), D("12.345"), BROKERAGE, D(500))
    assert (f.value, f.brokerage, f.amount, f.cost_base, f.pending) == (
        D("1234.50"), D("19.95"), D("1254.45"), D("1254.45"), D("1254.45"))


def test_a_sell_takes_brokerage_off_its_cost_base():
    # 2,000 x 60 = 120,000; 0.11% = 132 -> the $100 maximum
    f = E.trade_figures(E.DECREASE, D(2000), D(60), BROKERAGE, D(500))
    assert (f.value, f.brokerage, f.amount, f.cost_base, f.pending) == (
        D("120000.00"), D("100.00"), D("120000.00"), D("119900.00"), D("120000.00"))


def test_pending_is_zero_below_the_minimum_trade_amount_unless_exempt():
    f = E.trade_figures("BUY", D(10), D(40), BROKERAGE, D(500))  # 400 + 19.95 = 419.95 < 500
    assert (f.amount, f.pending) == (D("419.95"), 0)
    assert E.trade_figures("BUY", D(10), D(40), BROKERAGE, D(500), exempt=True).pending == D("419.95")
    assert E.trade_figures("SELL", D(10), D(40), BROKERAGE, D(400)).pending == D("400.00")  # not below
    assert E.trade_figures("SELL", D(10), D(40), BROKERAGE, None).pending == D("400.00")


def test_value_is_rounded_half_up_to_the_cent():
    assert E.trade_figures(E.INCREASE, D(3), D("0.335"), E.Brokerage(), 0).value == D("1.01")  # 1.005
    assert E.trade_figures(E.INCREASE, D(7), D("1.234567"), None, 0).value == D("8.64")  # 8.641969


def test_editing_units_or_price_recomputes_with_the_same_function():
    before = E.trade_figures(E.DECREASE, D(500), D(40), BROKERAGE, D(1000))
    after = E.trade_figures(E.DECREASE, D(20), D(40), BROKERAGE, D(1000))
    assert (before.pending, after.value, after.brokerage, after.cost_base, after.pending) == (
        D("20000.00"), D("800.00"), D("19.95"), D("780.05"), 0)


def test_trade_figures_refuses_negative_or_non_numbers():
    with pytest.raises(ValidationError) as error:
        E.trade_figures(E.INCREASE, D(-1), D(40), BROKERAGE, 0)
    assert error.value.message == validators.POSITIVE
    with pytest.raises(ValidationError) as error:
        E.trade_figures(E.INCREASE, "abc", D(40), BROKERAGE, 0)
    assert error.value.message == validators.NUMBER
    with pytest.raises(ValueError):
        E.trade_figures("hold", D(1), D(40), BROKERAGE, 0)


# ---- generate_trades ------------------------------------------------------------------------------
def test_transactions_sells_first_with_figures_flags_and_the_recommendation_kept():
    recs = (rec(BHP, "SL/SELL", price="38", comment="Breach"), rec(CSL, "BUY", price="245", comment="Add"))
    snap = S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=recs, brokerage=BROKERAGE,
             limits={"min_trade_amount": D(500)})
    t = E.calculate_target(snap)
    trades = E.generate_trades(snap, t)
    assert [(x.code, x.action, x.display_action, x.units) for x in trades.transactions] == [
        ("BHP", E.DECREASE, "SELL", 1000), ("CBA", E.INCREASE, "BUY", 450), ("CSL", E.INCREASE, "BUY", 180)]
    bhp, cba, csl = trades.transactions
    # BHP: a full sell and a stop loss at the recommendation's price 38: 38,000, fee 41.80
    assert (bhp.price, bhp.limit_price, bhp.last_close_price, bhp.value, bhp.brokerage, bhp.cost_base) == (
        D(38), D(38), D(40), D("38000.00"), D("41.80"), D("37958.20"))
    assert (bhp.full_sell, bhp.stop_loss, bhp.urgent) == (True, True, False)
    assert bhp.str_on_ti_generation == "SL/SELL: Breach" and bhp.recommendation_action == "SL/SELL"
    # CSL at its limit price 245: 180 x 245 = 44,100, fee 48.51, amount 44,148.51
    assert (csl.price, csl.value, csl.brokerage, csl.amount, csl.pending) == (
        D(245), D("44100.00"), D("48.51"), D("44148.51"), D("44148.51"))
    assert cba.str_on_ti_generation == "BUY" and cba.price == D(100)
    assert trades.buys == cba.amount + csl.amount and trades.sells == bhp.cost_base
    assert trades.brokerage == bhp.brokerage + cba.brokerage + csl.brokerage
    assert trades.min_trade_amount == D(500)


def test_ffl_trades_are_urgent_and_keep_their_pending_amount():
    snap = S(BASE, cash=69_600, holdings=[H(BHP, 760)], recommendations=(rec(BHP, "FFL/TAP"),),
             limits={"min_trade_amount": D(1000)})
    trades = E.generate_trades(snap, E.calculate_target(snap))
    bhp = next(x for x in trades.transactions if x.code == "BHP")
    assert (bhp.units, bhp.urgent, bhp.value, bhp.pending) == (10, True, D("400.00"), D("400.00"))


def test_a_full_sell_below_the_minimum_trade_keeps_its_pending_amount():
    snap = S(BASE, cash=99_600, holdings=[H(BHP, 10)], recommendations=(rec(BHP, "SA"),),
             limits={"min_trade_amount": D(1000)})
    trades = E.generate_trades(snap, E.calculate_target(snap))
    bhp = next(x for x in trades.transactions if x.code == "BHP")
    assert (bhp.full_sell, bhp.pending, bhp.units) == (True, D("400.00"), 10)


def test_manual_trade_decisions_become_notes_instead_of_transactions():
    settings = E.PortfolioSettings(exceptions=(E.PortfolioException(E.MANUAL_TRADE_DECISION, asset_id=BHP.id),))
    snap = S(BASE, cash=60_000, holdings=[H(BHP, 1000)], settings=settings)
    trades = E.generate_trades(snap, E.calculate_target(snap))
    assert "BHP" not in [x.code for x in trades.transactions]
    note = next(n for n in trades.notes if n.source == "manual_trade_decision")
    assert (note.asset_id, note.action, note.units, note.price, note.value) == (BHP.id, E.DECREASE, 250, D(40), D("10000.00"))
    assert note.text == "Manual Trade Decision: the calculation would SELL 250 BHP at 40 ($10,000.00)"


def test_hold_recommendations_with_a_comment_become_notes():
    recs = (rec(BHP, "HOLD", comment="Results due"), rec(CBA, "HOLD"))
    snap = S(BASE, cash=40_000, holdings=[H(BHP, 1000), H(CBA, 200)], recommendations=recs)
    trades = E.generate_trades(snap, E.calculate_target(snap))
    notes = [(n.source, n.code, n.text) for n in trades.notes]
    assert notes == [("hold_comment", "BHP", "Results due")]  # CBA's HOLD has no comment
    assert {x.code for x in trades.transactions} == {"CSL"}


def test_custom_holdings_with_dont_hold_or_manual_decision_become_notes():
    settings = E.PortfolioSettings(exceptions=(E.PortfolioException(E.DONT_HOLD, custom_holding_id=5),))
    snap = S(BASE, cash=90_000, custom_holdings=(E.CustomHolding(5, "Farm", D(10_000), 2),), settings=settings)
    trades = E.generate_trades(snap, E.calculate_target(snap))
    assert [(n.custom_holding_id, n.code, n.text) for n in trades.notes] == [
        (5, "Farm", "Don't hold: Farm is a custom holding, which is not traded here; it needs a manual decision")]


def test_an_older_target_is_traded_against_todays_holdings_and_prices():
    old = S(BASE, cash=100_000)
    target = E.calculate_target(old)  # 750 BHP, 300 CBA, 120 CSL
    # today: 700 BHP were bought meanwhile, and CBA now closes at 104
    cba_today = A(11, "CBA", "104")
    today = S(BASE, cash=72_000, holdings=[H(BHP, 700)], quotes=(Q(cba_today),))
    trades = E.generate_trades(today, target)
    assert [(x.code, x.units, x.price, x.value) for x in trades.transactions] == [
        ("BHP", 50, D(40), D("2000.00")), ("CBA", 300, D(104), D("31200.00")), ("CSL", 120, D(250), D("30000.00"))]


def test_fixed_assets_never_trade_even_when_today_differs():
    recs = (rec(BHP, "HOLD", comment="keep"),)
    target = E.calculate_target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=recs))
    today = S(BASE, cash=64_000, holdings=[H(BHP, 900)], recommendations=recs)
    trades = E.generate_trades(today, target)
    assert "BHP" not in [x.code for x in trades.transactions]


def test_str_on_generation():
    assert E.str_on_generation("FFL/SELL", "Profit warning") == "FFL/SELL: Profit warning"
    assert E.str_on_generation("BUY", None) == "BUY"


def test_trades_survive_json():
    snap = S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "HOLD", comment="c"),))
    trades = E.generate_trades(snap, E.calculate_target(snap))
    assert E.Trades.from_dict(trades.to_dict()) == trades
