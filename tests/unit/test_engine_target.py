"""calculate_target: actions, exceptions, equivalents, caps, limits, cash (hand-checked figures).

Unless a test says otherwise: brokerage is zero, cash class 1 has 10%, class 2 has 90%, and the
portfolio is worth $100,000."""
from __future__ import annotations

import pytest

from app.domain import engine as E
from app.domain.engine import reasons as R
from tests.unit.engine_builders import A, C, CASH, D, H, M, PERCENTAGES, Q, S, by_code, cls_of, codes, rec

BHP, CBA, CSL = A(10, "BHP", "40"), A(11, "CBA", "100"), A(12, "CSL", "250")
GMG, SCG = A(20, "GMG", "20"), A(21, "SCG", "4")
WOW = A(30, "WOW", "35")
BASE = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL))


def target(snapshot: E.Snapshot) -> E.Target:
    t = E.calculate_target(snapshot)
    assert t.value == t.value_after + t.brokerage  # money adds up in every test
    return t


def units(t: E.Target) -> dict[str, D]:
    return {a.code: a.target_units for a in t.assets}


# ---- actions -------------------------------------------------------------------------------------
def test_buy_splits_the_class_equally():
    # class 2: 90% of 100,000 = 90,000; three equal shares of 30,000: 750 BHP, 300 CBA, 120 CSL
    t = target(S(BASE, cash=100_000))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 120}
    assert t.cash_after == D("10000.00") and not t.not_enough_cash
    bhp = by_code(t)["BHP"]
    assert (bhp.target_value, bhp.target_percent, bhp.delta_units, bhp.action) == (D("30000.00"), D("30.0000"), 750, "BUY")
    assert R.MODEL_WEIGHT in codes(bhp)
    cls = cls_of(t, 2)
    assert (cls.target_percent, cls.result_percent, cls.current_percent) == (D("90.0000"), D("90.0000"), D(0))


def test_buy_sells_an_overweight_holding_down_to_its_weight():
    # BHP 1000 x 40 = 40,000 + cash 60,000: BHP sells 250 to 30,000
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)]))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 120}
    assert by_code(t)["BHP"].delta_value == D("-10000.00")
    assert t.cash_after == D("10000.00")


def test_acc_does_not_sell_an_overweight_holding_down():
    # ACC BHP keeps 40,000; the other 50,000 of the class: 25,000 each = 250 CBA, 100 CSL
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "ACC"),)))
    assert units(t) == {"BHP": 1000, "CBA": 250, "CSL": 100}
    assert R.ACC_KEPT in codes(by_code(t)["BHP"])
    assert t.cash_after == D("10000.00")


def test_acc_buys_up_to_the_model_weight():
    # ACC BHP 250 units = 10,000 (cash 90,000): it buys up to 30,000 like a BUY
    t = target(S(BASE, cash=90_000, holdings=[H(BHP, 250)], recommendations=(rec(BHP, "ACC"),)))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 120}


def test_sb_takes_half_the_weight_of_a_buy():
    # weights 1/2, 1, 1: one share = 90,000 / 2.5 = 36,000; BHP 18,000 = 450, CBA 360, CSL 144
    t = target(S(BASE, cash=100_000, recommendations=(rec(BHP, "SB"),)))
    assert units(t) == {"BHP": 450, "CBA": 360, "CSL": 144}
    assert R.SPECULATIVE_BUY in codes(by_code(t)["BHP"])


def test_hold_keeps_the_current_units_and_the_rest_of_the_class_shares_the_remainder():
    # HOLD BHP 1000 = 40,000 fixed; 50,000 left: 25,000 each
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "HOLD", comment="wait"),)))
    assert units(t) == {"BHP": 1000, "CBA": 250, "CSL": 100}
    bhp = by_code(t)["BHP"]
    assert bhp.fixed and R.RECOMMENDATION_HOLD in codes(bhp)


def test_hold_never_buys_a_new_position():
    # BHP not held: its weight goes to CBA and CSL, 45,000 each
    t = target(S(BASE, cash=100_000, recommendations=(rec(BHP, "HOLD", comment="wait"),)))
    assert units(t) == {"BHP": 0, "CBA": 450, "CSL": 180}
    assert R.NEVER_BUY in codes(by_code(t)["BHP"])


def test_sell_targets_zero():
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "SELL"),)))
    assert units(t) == {"BHP": 0, "CBA": 450, "CSL": 180}
    bhp = by_code(t)["BHP"]
    assert bhp.full_sell and R.RECOMMENDATION_SELL in codes(bhp)


def test_sa_is_a_full_sell_even_below_the_minimum_trade_amount():
    # 10 BHP = $400, below the $1,000 minimum: sold all the same
    t = target(S(BASE, cash=99_600, holdings=[H(BHP, 10)], recommendations=(rec(BHP, "SA"),),
                 limits={"min_trade_amount": D(1000)}))
    bhp = by_code(t)["BHP"]
    assert (bhp.target_units, bhp.full_sell) == (0, True)
    assert R.RECOMMENDATION_SA in codes(bhp)


def test_tap_sells_only_the_part_above_the_model_weight():
    # BHP 1000 = 40,000 against a weight of 30,000: sells 250
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "TAP"),)))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 120}
    assert R.TAKE_PROFIT in codes(by_code(t)["BHP"])


def test_tap_never_buys_up_and_leaves_its_share_to_the_others():
    # BHP 250 = 10,000 kept; 80,000 left for CBA and CSL: 40,000 each
    t = target(S(BASE, cash=90_000, holdings=[H(BHP, 250)], recommendations=(rec(BHP, "TAP"),)))
    assert units(t) == {"BHP": 250, "CBA": 400, "CSL": 160}


def test_tap_and_tsp_never_buy_a_new_position():
    t = target(S(BASE, cash=100_000, recommendations=(rec(BHP, "TAP"), rec(CBA, "TSP"))))
    assert units(t) == {"BHP": 0, "CBA": 0, "CSL": 360}
    assert R.NEVER_BUY in codes(by_code(t)["BHP"]) and R.NEVER_BUY in codes(by_code(t)["CBA"])


def test_tsp_sells_half_of_the_part_above_the_model_weight():
    # BHP 1000 = 40,000. With a weight w for every asset: (w + 40,000) / 2 + 2w = 90,000, w = 28,000;
    # BHP keeps 28,000 + (40,000 - 28,000) / 2 = 34,000 = 850 units; CBA 280, CSL 112
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "TSP"),)))
    assert units(t) == {"BHP": 850, "CBA": 280, "CSL": 112}
    assert R.TAKE_SOME_PROFIT in codes(by_code(t)["BHP"])


def test_ffl_is_exempt_from_the_minimum_trade_amount_and_urgent():
    # BHP 760 = 30,400 with TAP; weight 30,000: sell 10 units = $400 < $1,000 minimum
    snap = dict(cash=69_600, holdings=[H(BHP, 760)], limits={"min_trade_amount": D(1000)})
    plain = target(S(BASE, recommendations=(rec(BHP, "TAP"),), **snap))
    assert by_code(plain)["BHP"].target_units == 760
    assert R.BELOW_MIN_TRADE in codes(by_code(plain)["BHP"])
    fast = target(S(BASE, recommendations=(rec(BHP, "FFL/TAP"),), **snap))
    bhp = by_code(fast)["BHP"]
    assert (bhp.target_units, bhp.urgent, bhp.base_action) == (750, True, "TAP")
    assert R.FAST_FOLLOW in codes(bhp)


def test_sl_sell_is_a_stop_loss_at_the_recommendation_price():
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "SL/SELL", price="38"),)))
    bhp = by_code(t)["BHP"]
    assert (bhp.target_units, bhp.stop_loss, bhp.full_sell, bhp.limit_price) == (0, True, True, D(38))
    assert R.STOP_LOSS in codes(bhp)


def test_sl_tsp_is_a_stop_loss_sell_of_half_the_excess():
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "SL/TSP", price="39"),)))
    bhp = by_code(t)["BHP"]
    assert (bhp.target_units, bhp.stop_loss, bhp.full_sell) == (850, True, False)


def test_recommendations_short_term_then_long_term_then_buy():
    recs = (rec(BHP, "SELL", long_term="buy"), rec(CBA, long_term="sell"))
    t = target(S(BASE, cash=100_000, recommendations=recs))
    assert (by_code(t)["BHP"].action, by_code(t)["BHP"].recommendation_source) == ("SELL", "short_term")
    assert (by_code(t)["CBA"].action, by_code(t)["CBA"].recommendation_source) == ("SELL", "long_term")
    assert (by_code(t)["CSL"].action, by_code(t)["CSL"].recommendation_source) == ("BUY", "default")
    # a model without analyst recommendations reads the long-term ones only
    t = target(S(M(C(CASH, 10), C(2, 90, BHP, CBA, CSL), analyst=False), cash=100_000, recommendations=recs))
    assert by_code(t)["BHP"].action == "BUY" and by_code(t)["CBA"].action == "SELL"


def test_an_unknown_action_code_fails_the_calculation():
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(BASE, cash=100_000, recommendations=(rec(BHP, "MAYBE"),)))
    assert error.value.code == "unknown_action" and "MAYBE" in error.value.message


# ---- exceptions ----------------------------------------------------------------------------------
def _exc(action: str, asset: A, substitute: A | None = None) -> E.PortfolioException:
    return E.PortfolioException(action, asset_id=asset.id, substitute_asset_id=substitute.id if substitute else None)


def test_dont_hold_sells_never_buys_and_gives_its_weight_to_the_class():
    settings = E.PortfolioSettings(exceptions=(_exc(E.DONT_HOLD, BHP),))
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], settings=settings))
    assert units(t) == {"BHP": 0, "CBA": 450, "CSL": 180}
    assert R.EXCLUDED in codes(by_code(t)["BHP"]) and by_code(t)["BHP"].exception == E.DONT_HOLD
    t = target(S(BASE, cash=100_000, settings=settings))
    assert units(t)["BHP"] == 0


def test_substitute_takes_the_place_priority_and_weight():
    # WOW replaces BHP: 30,000 / 35 = 857.14 -> 857 units; BHP (held) is sold
    settings = E.PortfolioSettings(exceptions=(_exc(E.SUBSTITUTE, BHP, WOW),))
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], settings=settings, quotes=(Q(WOW),)))
    assert units(t) == {"BHP": 0, "WOW": 857, "CBA": 300, "CSL": 120}
    wow, bhp = by_code(t)["WOW"], by_code(t)["BHP"]
    assert (wow.kind, wow.model_asset_id, wow.class_id, wow.rank) == ("substitute", BHP.id, 2, 0)
    assert R.SUBSTITUTE in codes(wow) and R.REPLACED in codes(bhp) and bhp.kind == "replaced"
    # the residue of whole units stays in cash: 30,000 - 857 x 35 = 5
    assert t.cash_after == D("10005.00")


def test_lock_keeps_the_units_whatever_the_recommendation_and_counts_toward_the_class():
    settings = E.PortfolioSettings(exceptions=(_exc(E.LOCK, BHP),))
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], settings=settings, recommendations=(rec(BHP, "SELL"),)))
    assert units(t) == {"BHP": 1000, "CBA": 250, "CSL": 100}
    assert by_code(t)["BHP"].fixed and R.LOCKED in codes(by_code(t)["BHP"])


def test_manual_trade_decision_is_calculated_as_usual_and_flagged():
    settings = E.PortfolioSettings(exceptions=(_exc(E.MANUAL_TRADE_DECISION, BHP),))
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], settings=settings))
    bhp = by_code(t)["BHP"]
    assert (bhp.target_units, bhp.manual_trade_decision) == (750, True)
    assert R.MANUAL in codes(bhp)


# ---- equivalents, alternates, unmodelled holdings, deposits, custom holdings ----------------------
BHPX = A(40, "BHPX", "40")
EQ_MODEL = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL), equivalents=((BHP, BHPX),))


def test_a_held_equivalent_keeps_the_model_assets_place():
    t = target(S(EQ_MODEL, cash=60_000, holdings=[H(BHPX, 1000)]))
    assert units(t) == {"BHPX": 750, "CBA": 300, "CSL": 120}  # BHP itself is not bought
    bhpx = by_code(t)["BHPX"]
    assert (bhpx.kind, bhpx.model_asset_id, bhpx.class_id) == ("equivalent", BHP.id, 2)
    assert R.EQUIVALENT in codes(bhpx)


def test_an_equivalent_held_beside_the_model_asset_is_sold():
    t = target(S(EQ_MODEL, cash=20_000, holdings=[H(BHP, 1000), H(BHPX, 1000)]))
    assert units(t)["BHPX"] == 0 and units(t)["BHP"] == 750
    assert R.NOT_IN_MODEL in codes(by_code(t)["BHPX"])


def test_an_alternate_is_bought_when_the_model_asset_has_no_price():
    xyz, abc = A(50, "XYZ", None), A(51, "ABC", "60")
    model = M(C(CASH, 10), C(2, 90, xyz, CBA, CSL, alt={"XYZ": abc}))
    t = target(S(model, cash=100_000))
    assert units(t) == {"ABC": 500, "CBA": 300, "CSL": 120}
    assert by_code(t)["ABC"].kind == "alternate" and R.ALTERNATE in codes(by_code(t)["ABC"])


def test_an_asset_without_a_price_is_not_bought_and_says_why():
    xyz = A(50, "XYZ", None)
    t = target(S(M(C(CASH, 10), C(2, 90, xyz, CBA, CSL)), cash=100_000))
    assert units(t) == {"XYZ": 0, "CBA": 450, "CSL": 180}
    assert R.NO_PRICE in codes(by_code(t)["XYZ"])


def test_unmodelled_holdings_are_sold_unless_locked():
    xyz, abc = A(50, "XYZ", "50"), A(51, "ABC", "10")
    settings = E.PortfolioSettings(exceptions=(_exc(E.LOCK, abc),))
    # XYZ 100 x 50 = 5,000 sold; ABC 500 x 10 = 5,000 locked (class 2): the class's listed
    # assets get 90,000 - 5,000 = 85,000, i.e. 28,333.33 each -> 708 BHP, 283 CBA, 113 CSL
    t = target(S(BASE, cash=90_000, holdings=[H(xyz, 100), H(abc, 500)], settings=settings))
    assert units(t) == {"BHP": 708, "CBA": 283, "CSL": 113, "ABC": 500, "XYZ": 0}
    assert (by_code(t)["XYZ"].kind, by_code(t)["XYZ"].action, by_code(t)["XYZ"].full_sell) == ("unmodelled", "SELL", True)
    assert R.NOT_IN_MODEL in codes(by_code(t)["XYZ"]) and R.LOCKED in codes(by_code(t)["ABC"])


def test_deposits_and_custom_holdings_count_toward_their_class():
    # cash 70,000 + custom holding 20,000 (class 2) + deposit 10,000 (class 3) = 100,000
    # class 2: 60,000 - 20,000 = 40,000 -> 20,000 each: 500 BHP, 200 CBA
    # class 3: 30,000 - 10,000 = 20,000 -> 1,000 GMG; cash after 10,000
    model = M(C(CASH, 10), C(2, 60, BHP, CBA), C(3, 30, GMG))
    t = target(S(model, cash=70_000, custom_holdings=(E.CustomHolding(1, "Farm", D(20_000), 2),),
                 deposits=(E.DepositHolding(7, D(10_000), 3, "TD"),)))
    assert units(t) == {"BHP": 500, "CBA": 200, "GMG": 1000}
    assert t.cash_after == D("10000.00")
    assert [(h.kind, h.class_id, h.value, h.percent) for h in t.holdings] == [
        ("deposit", 3, D("10000.00"), D("10.0000")), ("custom", 2, D("20000.00"), D("20.0000"))]
    assert cls_of(t, 2).result_percent == D("60.0000") and cls_of(t, 3).result_percent == D("30.0000")


def test_a_deposit_without_a_class_counts_as_cash():
    t = target(S(BASE, cash=90_000, deposits=(E.DepositHolding(7, D(10_000)),)))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 120}
    assert t.cash_after == D("0.00") and cls_of(t, CASH).result_percent == D("10.0000")


def test_pending_trades_count_as_done():
    # a pending buy of 250 BHP (10,000 + 10 brokerage) and a pending sell of 100 CSL (25,000 - 10)
    pending = (E.PendingTrade(BHP.id, E.INCREASE, D(250), D(10_000), D(10)),
               E.PendingTrade(CSL.id, E.DECREASE, D(100), D(25_000), D(10)))
    t = target(S(BASE, cash=75_020, holdings=[H(CSL, 220)], pending_trades=pending))
    # V = 250 x 40 + 120 x 250 + (75,020 - 10,010 + 24,990 = 90,000) = 130,000 -> 39,000 each
    assert t.value == D("130000.00") and t.cash == D("90000.00")
    assert {a.code: a.current_units for a in t.assets} == {"BHP": 250, "CBA": 0, "CSL": 120}
    assert units(t) == {"BHP": 975, "CBA": 390, "CSL": 156}


# ---- caps -----------------------------------------------------------------------------------------
def test_max_exposure_caps_an_asset_and_the_excess_flows_to_other_classes_then_cash():
    # class 2 (60%): 30,000 each, capped at 20% = 20,000; the 20,000 excess goes to class 3
    # (30%: 15,000 each), which can take 10,000 before its assets reach the cap; 10,000 stays in cash
    model = M(C(CASH, 10), C(2, 60, BHP, CBA), C(3, 30, GMG, SCG, max=50))
    t = target(S(model, cash=100_000, limits={"max_exposure": D(20)}))
    assert units(t) == {"BHP": 500, "CBA": 200, "GMG": 1000, "SCG": 5000}
    assert R.CAPPED_MAX_EXPOSURE in codes(by_code(t)["BHP"])
    assert {R.OVERFLOW, R.CAPPED_MAX_EXPOSURE} <= codes(by_code(t)["GMG"])
    assert R.RECEIVED_OVERFLOW in {r.code for r in cls_of(t, 3).reasons}
    assert R.LEFTOVER_TO_CASH in {r.code for r in cls_of(t, CASH).reasons}
    assert t.cash_after == D("20000.00")


def test_a_class_takes_overflow_only_up_to_its_max():
    # as above, class 3 may reach 35%: it takes 5,000 only (17,500 each); 15,000 stays in cash
    model = M(C(CASH, 10), C(2, 60, BHP, CBA), C(3, 30, GMG, SCG, max=35))
    t = target(S(model, cash=100_000, limits={"max_exposure": D(20)}))
    assert units(t) == {"BHP": 500, "CBA": 200, "GMG": 875, "SCG": 4375}
    assert cls_of(t, 3).result_percent == D("35.0000")
    assert t.cash_after == D("25000.00")


def test_max_asset_allocation_value_caps_an_asset():
    # 30,000 each capped at 25,000: 625 BHP, 250 CBA, 100 CSL; 15,000 more stays in cash
    t = target(S(BASE, cash=100_000, limits={"max_asset_allocation_value": D(25_000)}))
    assert units(t) == {"BHP": 625, "CBA": 250, "CSL": 100}
    assert all(R.CAPPED_MAX_VALUE in codes(a) for a in t.assets)
    assert t.cash_after == D("25000.00")


def test_percentages_variants_apply_to_percentages_models():
    # the percentages method reads percentages_max_exposure, not max_exposure
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, pct={"BHP": 30, "CBA": 30, "CSL": 30}), method=PERCENTAGES)
    t = target(S(model, cash=100_000, limits={"max_exposure": D(5), "percentages_max_exposure": D(20)}))
    assert units(t) == {"BHP": 500, "CBA": 200, "CSL": 80}


def test_an_industry_group_above_its_cap_is_scaled_down_and_its_excess_goes_to_the_class():
    # BHP and CBA (group 1) would hold 60,000; the portfolio caps group 1 at 40%: 20,000 each;
    # the 20,000 excess goes to CSL (group 2): 50,000 = 200 units
    bhp, cba, csl = A(10, "BHP", "40", group=1), A(11, "CBA", "100", group=1), A(12, "CSL", "250", group=2)
    model = M(C(CASH, 10), C(2, 90, bhp, cba, csl))
    settings = E.PortfolioSettings(industry_group_allocation=True, industry_groups=(E.IndustryGroupCap(1, D(40)),))
    t = target(S(model, cash=100_000, settings=settings))
    assert units(t) == {"BHP": 500, "CBA": 200, "CSL": 200}
    assert R.CAPPED_INDUSTRY_GROUP in codes(by_code(t)["BHP"])
    group = next(g for g in t.industry_groups if g.id == 1)
    assert (group.result_percent, group.max, group.target_percent) == (D("40.0000"), D(40), D(40))


def test_the_models_industry_group_max_is_the_cap_when_the_portfolio_has_none():
    bhp, cba, csl = A(10, "BHP", "40", group=1), A(11, "CBA", "100", group=1), A(12, "CSL", "250", group=2)
    model = M(C(CASH, 10), C(2, 90, bhp, cba, csl), groups=((1, 30, 40),))
    assert units(target(S(model, cash=100_000))) == {"BHP": 500, "CBA": 200, "CSL": 200}
    switched_off = M(C(CASH, 10), C(2, 90, bhp, cba, csl), groups=((1, 30, 40),), group_allocation=False)
    assert units(target(S(switched_off, cash=100_000))) == {"BHP": 750, "CBA": 300, "CSL": 120}


def test_locked_holdings_above_a_cap_stay_and_the_group_says_why():
    bhp, cba = A(10, "BHP", "40", group=1), A(11, "CBA", "100", group=1)
    model = M(C(CASH, 10), C(2, 90, bhp, cba, CSL))
    settings = E.PortfolioSettings(industry_group_allocation=True, industry_groups=(E.IndustryGroupCap(1, D(30)),),
                                   exceptions=(_exc(E.LOCK, bhp),))
    t = target(S(model, cash=60_000, holdings=[H(bhp, 1000)], settings=settings))
    assert units(t)["BHP"] == 1000 and units(t)["CBA"] == 0  # the group is full with BHP alone (40%)
    group = next(g for g in t.industry_groups if g.id == 1)
    assert R.ABOVE_CAP in {r.code for r in group.reasons}


def test_a_class_above_its_max_because_of_fixed_holdings_says_why():
    model = M(C(CASH, 10), C(2, 50, BHP, CBA, max=60), C(3, 40, GMG))
    settings = E.PortfolioSettings(exceptions=(_exc(E.LOCK, BHP),))
    t = target(S(model, cash=30_000, holdings=[H(BHP, 1750)], settings=settings))  # BHP 70,000 = 70%
    reasons = {r.code for r in cls_of(t, 2).reasons}
    assert {R.ABOVE_MAX, R.FIXED_HOLDINGS} <= reasons
    assert units(t)["CBA"] == 0


def test_a_class_below_its_min_records_why():
    # class 3's only asset has no price: nothing can be bought; its 30% stays in cash
    xyz = A(50, "XYZ", None)
    model = M(C(CASH, 10), C(2, 60, BHP, CBA), C(3, 30, xyz, min=25))
    t = target(S(model, cash=100_000))
    reasons = {r.code for r in cls_of(t, 3).reasons}
    assert {R.BELOW_MIN, R.NO_PRICE, R.NO_ASSETS} <= reasons
    assert next(r for r in cls_of(t, 3).reasons if r.code == R.BELOW_MIN).text.startswith("below its minimum of 25%")


# ---- step 2: assets limit, minimum asset allocation ---------------------------------------------
def test_assets_limit_counts_fixed_holdings_first():
    # limit 2: the held HOLD BHP takes one place, CBA the other; CSL is not bought
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, limit=2))
    t = target(S(model, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(BHP, "HOLD", comment="x"),)))
    assert units(t) == {"BHP": 1000, "CBA": 500, "CSL": 0}
    assert R.ASSETS_LIMIT in codes(by_code(t)["CSL"])


def test_min_asset_allocation_drops_the_lowest_priority_asset_not_held():
    # V = 30,000: class 2 = 27,000, three shares of 9,000 < 10,000: CSL (last, not held) is dropped;
    # two shares of 13,500: 337 BHP, 135 CBA
    t = target(S(BASE, cash=30_000, limits={"min_asset_allocation_value": D(10_000)}))
    assert units(t) == {"BHP": 337, "CBA": 135, "CSL": 0}
    assert R.MIN_ASSET_ALLOCATION in codes(by_code(t)["CSL"])
    # a held CSL stays: CBA (the lowest priority not held) goes instead
    t = target(S(BASE, cash=27_500, holdings=[H(CSL, 10)], limits={"min_asset_allocation_value": D(10_000)}))
    assert units(t)["CBA"] == 0 and units(t)["CSL"] == 54 and units(t)["BHP"] == 337


def test_min_asset_allocation_percent_of_the_portfolio():
    # 10% of 30,000 = 3,000 < 9,000: nothing is dropped
    t = target(S(BASE, cash=30_000, limits={"min_asset_allocation": D(10)}))
    assert units(t) == {"BHP": 225, "CBA": 90, "CSL": 36}


# ---- steps 5-7 ------------------------------------------------------------------------------------
def test_target_units_are_floored_and_the_residue_stays_in_cash():
    odd = A(10, "ODD", "33.33")
    t = target(S(M(C(CASH, 10), C(2, 90, odd)), cash=100_000))
    # 90,000 / 33.33 = 2700.27 -> 2700 units = 89,991.00; cash after 10,009.00
    assert units(t) == {"ODD": 2700}
    assert (by_code(t)["ODD"].target_value, t.cash_after) == (D("89991.00"), D("10009.00"))


def test_a_trade_below_the_minimum_trade_amount_is_dropped():
    # BHP 740 needs 10 more (= $400 < $500): not traded, the 400 stays in cash
    t = target(S(BASE, cash=70_400, holdings=[H(BHP, 740)], limits={"min_trade_amount": D(500)}))
    assert units(t) == {"BHP": 740, "CBA": 300, "CSL": 120}
    assert R.BELOW_MIN_TRADE in codes(by_code(t)["BHP"])
    assert t.cash_after == D("10400.00")


def test_a_sell_a_cap_requires_is_raised_to_the_minimum_trade_amount():
    # BHP 510 = 20,400 above the 20% cap (20,000): selling 10 units ($400) is below $1,000,
    # so it sells 25 units ($1,000) instead; never above the cap
    model = M(C(CASH, 10), C(2, 60, BHP, CBA), C(3, 30, GMG, SCG))
    t = target(S(model, cash=79_600, holdings=[H(BHP, 510)], limits={"max_exposure": D(20), "min_trade_amount": D(1000)}))
    bhp = by_code(t)["BHP"]
    assert bhp.target_units == 485 and R.RAISED_TO_MIN_TRADE in codes(bhp)


def test_min_cash_cuts_buys_from_the_lowest_priority_up():
    # min cash 15,000: the class still targets 90,000, so cash after would be 10,000;
    # CSL (the lowest priority) buys 5,000 less: 100 units instead of 120
    t = target(S(BASE, cash=100_000, limits={"min_cash_allocation_value": D(15_000)}))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 100}
    assert R.CUT_FOR_CASH in codes(by_code(t)["CSL"])
    assert t.cash_after == D("15000.00") and not t.not_enough_cash
    assert R.MIN_CASH in {r.code for r in cls_of(t, CASH).reasons}


def test_min_cash_sells_flexible_holdings_pro_rata_when_there_are_no_buys():
    # holdings on target (30,000 each), cash 10,000; min cash 16,000: sell 6,000 pro rata,
    # 2,000 each = 50 BHP, 20 CBA, 8 CSL
    holdings = [H(BHP, 750), H(CBA, 300), H(CSL, 120)]
    t = target(S(BASE, cash=10_000, holdings=holdings, limits={"min_cash_allocation_value": D(16_000)}))
    assert units(t) == {"BHP": 700, "CBA": 280, "CSL": 112}
    assert all(R.SOLD_FOR_CASH in codes(a) for a in t.assets)
    assert t.cash_after == D("16000.00") and not t.not_enough_cash


def test_min_cash_percent_of_the_portfolio():
    # 12% of 100,000 = 12,000: CSL buys 2,000 less (112 units)
    t = target(S(BASE, cash=100_000, limits={"min_cash_allocation": D(12)}))
    assert units(t)["CSL"] == 112 and t.cash_after == D("12000.00")


def test_not_enough_cash_when_nothing_can_restore_the_minimum():
    # everything is held under HOLD: nothing to cut, nothing flexible to sell
    recs = tuple(rec(a, "HOLD", comment="keep") for a in (BHP, CBA, CSL))
    holdings = [H(BHP, 1000), H(CBA, 300), H(CSL, 120)]
    t = target(S(BASE, cash=1_000, holdings=holdings, recommendations=recs, limits={"min_cash_allocation_value": D(5_000)}))
    assert t.not_enough_cash and t.cash_after == D("1000.00")
    assert units(t) == {"BHP": 1000, "CBA": 300, "CSL": 120}
    assert R.NOT_ENOUGH_CASH in {r.code for r in t.reasons}


def test_brokerage_is_paid_from_cash_and_money_adds_up():
    # 0.1% with a $20 minimum and $25 maximum: 30,000 -> 30 -> 25 each (75 in all)
    t = target(S(BASE, cash=100_000, brokerage=E.Brokerage(D("0.1"), D(20), D(25))))
    assert t.brokerage == D("75.00") and t.cash_after == D("9925.00")
    assert t.value_after == D("99925.00")


def test_brokerage_can_cut_the_last_buy_to_keep_the_minimum_cash():
    # a 1% fee (300 a buy) leaves 100,000 - 3 x 30,300 = 9,100 < min cash 10,000 (10%): 900 short.
    # CSL 3 units less frees 750 + 7.50 = 757.50 (not enough), 4 units 1,000 + 10 = 1,010:
    # 116 CSL, cash after 9,100 + 1,010 = 10,110
    t = target(S(BASE, cash=100_000, brokerage=E.Brokerage(D(1)), limits={"min_cash_allocation": D(10)}))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 116}
    assert t.cash_after == D("10110.00") and t.brokerage == D("890.00")


# ---- allocation methods --------------------------------------------------------------------------
PCT_MODEL = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, pct={"BHP": 30, "CBA": 20, "CSL": 40}), method=PERCENTAGES)


def test_percentages_method_gives_each_asset_its_percentage():
    t = target(S(PCT_MODEL, cash=100_000))
    assert units(t) == {"BHP": 750, "CBA": 200, "CSL": 160}
    assert R.MODEL_WEIGHT in codes(by_code(t)["BHP"]) and "30%" in by_code(t)["BHP"].reasons[0].text


def test_percentages_method_spreads_an_excluded_share_pro_rata_in_its_class():
    # CBA SELL: its 20% goes 30:40 to BHP and CSL: 38,571.43 (964 units) and 51,428.57 (205 units)
    t = target(S(PCT_MODEL, cash=100_000, recommendations=(rec(CBA, "SELL"),)))
    assert units(t) == {"BHP": 964, "CBA": 0, "CSL": 205}


def test_custom_class_allocation_overrides_the_model():
    settings = E.PortfolioSettings(class_allocation=True, classes=(E.ClassAllocation(CASH, D(40)), E.ClassAllocation(2, D(60))))
    t = target(S(BASE, cash=100_000, settings=settings))
    assert units(t) == {"BHP": 500, "CBA": 200, "CSL": 80}
    assert cls_of(t, 2).target_percent == D("60.0000")
    bad = E.PortfolioSettings(class_allocation=True, classes=(E.ClassAllocation(CASH, D(40)),))
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(BASE, cash=100_000, settings=bad))
    assert error.value.message == "Total class allocation has to be 100%."


# ---- errors and determinism ---------------------------------------------------------------------
def test_an_inconsistent_model_fails_with_a_clear_message():
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(M(C(CASH, 10), C(2, 80, BHP), name="Growth"), cash=1000))
    assert error.value.code == "model_total"
    assert error.value.message == "The model Growth cannot be used: its class allocations add up to 90%, not 100%"
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(M(C(2, 100, BHP), name="Growth"), cash=1000))
    assert (error.value.code, error.value.message) == ("no_cash_class", "The model Growth has no cash class")
    missing = M(C(CASH, 10), C(2, 90, BHP, CBA, pct={"BHP": 90}), method=PERCENTAGES, name="Growth")
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(missing, cash=1000))
    assert error.value.message == "The model Growth cannot be used: asset CBA has no percentage"
    assert isinstance(error.value, E.CalculationError) and error.value.kind == "ValidationError"


def test_held_assets_without_a_price_fail_the_calculation():
    xyz, abc = A(50, "XYZ", None), A(51, "ABC", None)
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(BASE, cash=1000, holdings=[H(xyz, 10, price=None), H(abc, 5, price=None)]))
    assert (error.value.code, error.value.message) == ("missing_price", "Assets ABC, XYZ have no last close price")
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(BASE, cash=1000, holdings=[H(xyz, 10, price=None)]))
    assert error.value.message == "Asset XYZ has no last close price"


def test_a_portfolio_of_nothing_or_an_oversold_pending_trade_fails():
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(BASE, cash=0))
    assert error.value.code == "no_value"
    with pytest.raises(E.CalculationError) as error:
        E.calculate_target(S(BASE, cash=1000, holdings=[H(BHP, 5)],
                             pending_trades=(E.PendingTrade(BHP.id, E.DECREASE, D(6), D(240)),)))
    assert (error.value.code, error.value.message) == ("oversold", "Pending trades sell more BHP than the portfolio holds")


def test_the_same_snapshot_gives_the_same_target_and_it_survives_json():
    snap = S(BASE, cash=60_000, holdings=[H(BHP, 1000)], recommendations=(rec(CBA, "SB"),),
             brokerage=E.Brokerage(D("0.11"), D("19.95")))
    first = target(snap)
    E.clear_cache()
    assert target(snap) == first
    assert E.Target.from_dict(first.to_dict()) == first
    # SB CBA: shares 1 : 1/2 : 1 of 90,000, BHP 36,000 = 900 units
    assert first.to_dict()["assets"][0]["target_units"] == "900"


def test_a_model_changed_under_the_same_id_and_version_is_prepared_again():
    first = target(S(BASE, cash=100_000))
    edited = M(C(CASH, 40), C(2, 60, BHP, CBA, CSL))  # same id 1, version 1
    assert units(target(S(edited, cash=100_000))) == {"BHP": 500, "CBA": 200, "CSL": 80}
    assert units(first) == {"BHP": 750, "CBA": 300, "CSL": 120}


def test_limits_for_chooses_by_allocation_method():
    settings = E.PortfolioSettings(max_exposure=D(10), min_trade_amount=D(100), min_cash_allocation=D(2),
                                   min_cash_allocation_value=D(500), percentages_max_exposure=D(20),
                                   percentages_min_trade_amount=D(200), percentages_min_cash_balance=D(3),
                                   percentages_min_cash_balance_value=D(700), min_asset_allocation=D(1),
                                   max_asset_allocation_value=D(9000))
    equal = E.limits_for(settings, "equal_amounts")
    pct = E.limits_for(settings, "percentages")
    assert (equal.max_exposure, equal.min_trade_amount, equal.min_cash_percent, equal.min_cash_value) == (10, 100, 2, 500)
    assert (pct.max_exposure, pct.min_trade_amount, pct.min_cash_percent, pct.min_cash_value) == (20, 200, 3, 700)
    assert (equal.min_asset_percent, pct.min_asset_percent) == (1, None)
    assert equal.max_asset_value == pct.max_asset_value == 9000
    assert E.min_trade_amount(settings, "percentages") == 200
    assert E.min_trade_amount(E.PortfolioSettings(), "equal_amounts") == 0
    assert equal.min_cash(D(100_000)) == D("2000.00") and pct.min_cash(D(10_000)) == D("700.00")


def test_brokerage_fee_is_clamped_and_rounded_half_up():
    b = E.Brokerage(D("0.11"), D("19.95"), D(100))
    assert E.brokerage_fee(D(1000), b) == D("19.95")  # 1.10 -> minimum
    assert E.brokerage_fee(D(50_000), b) == D("55.00")
    assert E.brokerage_fee(D(100_000), b) == D("100.00")  # 110 -> maximum
    assert E.brokerage_fee(D("20454.55"), E.Brokerage(D("0.11"))) == D("22.50")  # 22.500005 -> 22.50
    assert E.brokerage_fee(D("4.55"), E.Brokerage(D(10))) == D("0.46")  # 0.455 -> 0.46 (half up)
    assert E.brokerage_fee(D(0), b) == 0


def test_every_recommendation_code_of_the_specification_is_understood():
    from app.domain.models import LONG_TERM_ACTIONS, SHORT_TERM_ACTIONS
    parsed = {code: E.parse_action(code) for code in SHORT_TERM_ACTIONS}
    assert {c: (a.base, a.urgent, a.stop_loss) for c, a in parsed.items() if "/" in c} == {
        "FFL/HOLD": ("HOLD", True, False), "FFL/SA": ("SA", True, False), "FFL/SELL": ("SELL", True, False),
        "FFL/TAP": ("TAP", True, False), "FFL/TSP": ("TSP", True, False), "SL/SELL": ("SELL", False, True),
        "SL/TAP": ("TAP", False, True), "SL/TSP": ("TSP", False, True)}
    assert [E.parse_action(code).base for code in LONG_TERM_ACTIONS] == ["BUY", "SELL", "HOLD"]
    with pytest.raises(E.CalculationError):
        E.parse_action("SL/BUY")  # a stop loss applies to SELL, TAP and TSP only
