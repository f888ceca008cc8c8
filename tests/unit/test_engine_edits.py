"""calculate_target with the adviser's edits (spec 001 s4 mode EDIT, s5 texts; target.py "Edits"):
an asset's units set (TargetOverride), an asset added to a class (AddedAsset), the rest of the
portfolio recalculated around them. Hand-checked figures.

Unless a test says otherwise: brokerage is zero, cash class 1 has 10%, class 2 has 90% (BHP $40,
CBA $100, CSL $250), and the portfolio is $100,000 of cash."""
from __future__ import annotations

import pytest

from app.domain import engine as E
from app.domain.engine import reasons as R
from tests.unit.engine_builders import A, C, CASH, D, H, M, PERCENTAGES, Q, S, by_code, cls_of, codes, rec

BHP, CBA, CSL = A(10, "BHP", "40", group=1), A(11, "CBA", "100", group=1), A(12, "CSL", "250")
GMG = A(20, "GMG", "20")
WOW = A(30, "WOW", "35")
NOP = A(31, "NOP", None)
BASE = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL))
MIN_CASH = {"min_cash_allocation": D(10)}


def pin(asset: A, units) -> E.TargetOverride:
    return E.TargetOverride(asset.id, D(str(units)))


def add(asset: A, class_id: int | None = None) -> E.AddedAsset:
    return E.AddedAsset(asset.id, class_id)


def target(snapshot: E.Snapshot) -> E.Target:
    t = E.calculate_target(snapshot)
    assert t.value == t.value_after + t.brokerage  # money adds up in every test
    assert t.cash_after == t.cash + t.sells - t.buys - t.brokerage
    return t


def units(t: E.Target) -> dict[str, D]:
    return {a.code: a.target_units for a in t.assets}


def fails(snapshot: E.Snapshot) -> E.CalculationError:
    with pytest.raises(E.CalculationError) as info:
        E.calculate_target(snapshot)
    return info.value


# ---- setting an asset's units ------------------------------------------------------------------
def test_a_set_asset_is_fixed_and_the_rest_of_its_class_shares_what_is_left():
    # BHP set to 500 = 20,000; class 2 keeps 90,000: 70,000 left, 35,000 each = 350 CBA, 140 CSL
    t = target(S(BASE, cash=100_000, overrides=(pin(BHP, 500),)))
    assert units(t) == {"BHP": 500, "CBA": 350, "CSL": 140}
    bhp = by_code(t)["BHP"]
    assert R.EDITED in codes(bhp) and "set by the adviser: 500 units" in {r.text for r in bhp.reasons}
    assert (bhp.fixed, bhp.target_value, bhp.weight_percent) == (False, D("20000.00"), D("20.0000"))
    assert R.MODEL_WEIGHT not in codes(bhp)
    assert t.cash_after == D("10000.00") and cls_of(t, 2).result_percent == D("90.0000")
    assert t.overrides == (E.TargetOverride(BHP.id, D(500)),) and t.added == ()


def test_zero_removes_an_asset_and_a_held_one_is_sold_in_full():
    # BHP 1000 = 40,000 sold; CBA and CSL share 90,000: 450 CBA, 180 CSL
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], overrides=(pin(BHP, 0),)))
    assert units(t) == {"BHP": 0, "CBA": 450, "CSL": 180}
    bhp = by_code(t)["BHP"]
    assert bhp.full_sell and bhp.delta_value == D("-40000.00")
    assert "set by the adviser to zero: removed" in {r.text for r in bhp.reasons}
    assert t.cash_after == D("10000.00")


def test_the_last_override_of_an_asset_wins_and_units_are_normalised():
    t = target(S(BASE, cash=100_000, overrides=(pin(BHP, 100), pin(BHP, "500.000000"))))
    assert by_code(t)["BHP"].target_units == 500
    assert t.overrides == (E.TargetOverride(BHP.id, D(500)),) and str(t.overrides[0].target_units) == "500"


def test_a_set_asset_wins_over_lock_and_the_rest_of_its_class_is_recalculated():
    # BHP locked at 1000 but set to 800 (32,000): CBA and CSL share 58,000 = 290 CBA, 116 CSL
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], overrides=(pin(BHP, 800),),
                 limits={"exceptions": (E.PortfolioException(E.LOCK, asset_id=BHP.id),)}))
    assert units(t) == {"BHP": 800, "CBA": 290, "CSL": 116}
    assert not by_code(t)["BHP"].fixed and R.LOCKED not in codes(by_code(t)["BHP"])
    assert t.cash_after == D("10000.00")


def test_a_set_asset_wins_over_a_sell_recommendation_and_the_minimum_trade_amount():
    # BHP SELL set to 10 units ($400, below the $1,000 minimum trade): kept at 10.
    # CBA and CSL share 89,600: 44,800 = 448 CBA, 179 CSL (179.2)
    t = target(S(BASE, cash=100_000, overrides=(pin(BHP, 10),), recommendations=(rec(BHP, "SELL"),),
                 limits={"min_trade_amount": D(1000)}))
    assert units(t) == {"BHP": 10, "CBA": 448, "CSL": 179}
    assert R.RECOMMENDATION_SELL not in codes(by_code(t)["BHP"]) and R.BELOW_MIN_TRADE not in codes(by_code(t)["BHP"])
    assert t.cash_after == D("10050.00")  # 100,000 - 400 - 44,800 - 44,750


def test_a_set_asset_wins_over_the_cap_and_the_capped_rest_leaves_the_excess_in_cash():
    # max exposure 20% = 20,000. CSL set to 100 = 25,000 (above the cap, kept); 65,000 left for
    # BHP and CBA, each capped at 20,000; the other 25,000 no class can take stays in cash
    t = target(S(BASE, cash=100_000, overrides=(pin(CSL, 100),), limits={"max_exposure": D(20)}))
    assert units(t) == {"BHP": 500, "CBA": 200, "CSL": 100}
    assert R.CAPPED_MAX_EXPOSURE in codes(by_code(t)["BHP"]) and R.CAPPED_MAX_EXPOSURE not in codes(by_code(t)["CSL"])
    assert t.cash_after == D("35000.00")
    assert R.LEFTOVER_TO_CASH in {r.code for r in cls_of(t, CASH).reasons}


def test_a_set_asset_counts_toward_its_industry_group_cap():
    # group 1 (BHP, CBA) capped at 30% = 30,000. BHP set to 1000 = 40,000 alone exceeds it: CBA
    # gets nothing and CSL takes the rest of the class, 50,000 = 200 CSL
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL), groups=((1, 30),))
    t = target(S(model, cash=100_000, overrides=(pin(BHP, 1000),)))
    assert units(t) == {"BHP": 1000, "CBA": 0, "CSL": 200}
    group = next(g for g in t.industry_groups if g.id == 1)
    assert group.result_value == D("40000.00")
    assert any(r.code == R.ABOVE_CAP and "edited" in r.text and "BHP" in r.text for r in group.reasons)


def test_a_class_pushed_over_its_share_is_paid_by_cutting_other_buys_for_the_minimum_cash():
    # class 2 (60%) and class 3 (30%, GMG). CSL set to 320 = 80,000: BHP and CBA get nothing; GMG's
    # 30,000 would leave -10,000 in cash: its buy is cut to 500 (10,000) to keep the 10,000 minimum
    model = M(C(CASH, 10), C(2, 60, BHP, CBA, CSL), C(3, 30, GMG))
    t = target(S(model, cash=100_000, overrides=(pin(CSL, 320),), limits=MIN_CASH))
    assert units(t) == {"BHP": 0, "CBA": 0, "CSL": 320, "GMG": 500}
    assert R.CUT_FOR_CASH in codes(by_code(t)["GMG"]) and R.CUT_FOR_CASH not in codes(by_code(t)["CSL"])
    assert t.cash_after == D("10000.00") and not t.not_enough_cash
    above = cls_of(t, 2)
    assert above.result_percent == D("80.0000")


def test_units_that_cash_cannot_pay_are_refused():
    # CSL set to 400 = 100,000: everything else is cut and sold, and the cash is still 0 < 10,000
    error = fails(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], overrides=(pin(CSL, 400),), limits=MIN_CASH))
    assert (error.code, error.message) == ("not_enough_cash_to_set",
                                           "Not enough cash to buy the target units set for CSL")
    # without a minimum cash the same edit invests every dollar
    t = target(S(BASE, cash=60_000, holdings=[H(BHP, 1000)], overrides=(pin(CSL, 400),)))
    assert units(t) == {"BHP": 0, "CBA": 0, "CSL": 400} and t.cash_after == 0


def test_a_shortfall_without_an_edit_that_takes_cash_is_only_flagged():
    # a portfolio short of cash: BHP locked, the cash 5,000 below the 10% minimum (10,000). Setting
    # CBA (not held) to 0 takes no cash: the usual Not Enough Cash flag, no error
    t = target(S(BASE, cash=5_000, holdings=[H(BHP, 2375)], overrides=(pin(CBA, 0),), limits={
        **MIN_CASH, "exceptions": (E.PortfolioException(E.LOCK, asset_id=BHP.id),)}))
    assert t.not_enough_cash and t.cash_after == D("5000.00")


def test_override_errors():
    snap = dict(cash=100_000)
    for units_ in ("-1", "1.5", "NaN"):
        error = fails(S(BASE, overrides=(pin(BHP, units_),), **snap))
        assert (error.code, error.message) == ("override_units",
                                               "The target units of BHP must be a whole number, zero or more")
    error = fails(S(BASE, overrides=(pin(WOW, 10),), quotes=(Q(WOW),), **snap))
    assert (error.code, error.message) == ("not_in_target", "Asset WOW is not in the target portfolio: add it first")
    model = M(C(CASH, 10), C(2, 90, BHP, NOP))
    error = fails(S(model, overrides=(pin(NOP, 10),), **snap))
    assert (error.code, error.message) == ("missing_price", "Asset NOP has no last close price")
    assert units(target(S(model, overrides=(pin(NOP, 0),), **snap))) == {"BHP": 2250, "NOP": 0}


def test_a_holding_the_model_does_not_place_can_be_kept_and_trades_as_its_own_recommendation():
    # WOW 100 (3,500) is not in the model: sold, unless set. Set to 150: bought up by 50
    snap = S(BASE, cash=96_500, holdings=[H(WOW, 100)], overrides=(pin(WOW, 150),))
    t = target(snap)
    wow = by_code(t)["WOW"]
    assert (wow.kind, wow.target_units, wow.action) == ("unmodelled", 150, "BUY")
    assert R.NOT_IN_MODEL not in codes(wow)
    # class 2 keeps 90,000: 5,250 for WOW, 84,750 / 3 = 28,250 each: 706 BHP, 282 CBA, 113 CSL
    assert units(t) == {"BHP": 706, "CBA": 282, "CSL": 113, "WOW": 150}
    trades = E.generate_trades(snap, t)
    buy = next(tx for tx in trades.transactions if tx.code == "WOW")
    assert (buy.action, buy.units, buy.recommendation_action) == (E.INCREASE, 50, "BUY")


# ---- adding an asset ----------------------------------------------------------------------------
def test_an_added_asset_takes_an_equal_share_of_its_class():
    # 4 places: 22,500 each = 562 BHP (22,480), 225 CBA, 90 CSL, 642 WOW (22,470)
    t = target(S(BASE, cash=100_000, quotes=(Q(WOW),), added=(add(WOW, 2),)))
    assert units(t) == {"BHP": 562, "CBA": 225, "CSL": 90, "WOW": 642}
    wow = by_code(t)["WOW"]
    assert (wow.kind, wow.model_asset_id, wow.class_id, wow.rank, wow.action) == ("added", None, 2, 500_000, "BUY")
    assert {R.ADDED, R.MODEL_WEIGHT} <= codes(wow)
    assert "added to Class 2 by the adviser" in {r.text for r in wow.reasons}
    assert t.cash_after == D("10050.00")
    assert t.added == (E.AddedAsset(WOW.id, 2),)
    # no class: the asset's own class (2)
    assert units(target(S(BASE, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),)))) == units(t)


def test_an_added_asset_follows_its_recommendation_and_its_units_can_be_set():
    t = target(S(BASE, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),), recommendations=(rec(WOW, "HOLD"),)))
    assert by_code(t)["WOW"].target_units == 0 and R.NEVER_BUY in codes(by_code(t)["WOW"])
    # set to 200 (7,000): the other three share 83,000 = 27,666.67 each: 691 BHP, 276 CBA, 110 CSL
    t = target(S(BASE, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),), overrides=(pin(WOW, 200),)))
    assert units(t) == {"BHP": 691, "CBA": 276, "CSL": 110, "WOW": 200}


def test_an_added_asset_under_percentages_takes_the_average_percentage_of_its_class():
    # percentages 50 / 30 / 10 and WOW the average 30: 120 shares of 90,000 = 750 per %.
    # BHP 37,500 = 937 (37,480), CBA 22,500 = 225, CSL 7,500 = 30, WOW 22,500 = 642 (22,470)
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, pct={"BHP": 50, "CBA": 30, "CSL": 10}), method=PERCENTAGES)
    t = target(S(model, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),)))
    assert units(t) == {"BHP": 937, "CBA": 225, "CSL": 30, "WOW": 642}
    assert "the average percentage of Class 2: 30%" in {r.text for r in by_code(t)["WOW"].reasons}


def test_a_held_asset_the_model_does_not_place_can_be_added():
    # WOW 100 held (3,500) would be sold; added, it keeps a place: 4 x 22,500
    t = target(S(BASE, cash=96_500, holdings=[H(WOW, 100)], added=(add(WOW, 2),)))
    assert by_code(t)["WOW"].kind == "added" and units(t) == {"BHP": 562, "CBA": 225, "CSL": 90, "WOW": 642}


def test_an_added_asset_is_not_dropped_by_the_minimum_asset_allocation():
    # min asset allocation 25,000: four shares of 22,500 are too small. The lowest-priority model
    # asset not held (CSL) is dropped, not the added WOW: three shares of 30,000
    t = target(S(BASE, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),),
                 limits={"min_asset_allocation_value": D(25_000)}))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 0, "WOW": 857}
    assert R.MIN_ASSET_ALLOCATION in codes(by_code(t)["CSL"])


def test_adding_errors():
    snap = dict(cash=100_000, quotes=(Q(WOW), Q(GMG, class_id=7)))
    error = fails(S(BASE, added=(add(BHP),), **snap))
    assert (error.code, error.message) == ("already_in_target", "Asset BHP is already in the target portfolio")
    error = fails(S(BASE, added=(add(WOW), add(WOW)), **snap))
    assert error.code == "already_in_target"
    error = fails(S(BASE, added=(E.AddedAsset(999),), **snap))
    assert (error.code, error.message) == ("unknown_asset", "Asset #999 is unknown")
    for item in (add(GMG), add(WOW, 7)):
        error = fails(S(BASE, added=(item,), **snap))
        assert error.code == "class_not_in_model" and error.message.endswith("can only be added to a class of the model")
    assert by_code(target(S(BASE, added=(add(GMG, 2),), **snap)))["GMG"].class_id == 2


# ---- assets limit -----------------------------------------------------------------------------
def test_adding_to_a_class_at_its_assets_limit_is_refused_until_a_place_is_freed():
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, limit=3))
    error = fails(S(model, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),)))
    assert (error.code, error.message) == ("assets_limit", "Assets limit is exceeded")
    # CSL removed (set to 0) frees its place: BHP, CBA and WOW share 90,000
    t = target(S(model, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),), overrides=(pin(CSL, 0),)))
    assert units(t) == {"BHP": 750, "CBA": 300, "CSL": 0, "WOW": 857}


def test_a_set_asset_takes_a_place_of_the_assets_limit_before_the_flexible_ones():
    # limit 2: CSL set to 100 (25,000, a new position) takes a place; BHP keeps the other, CBA is
    # beyond the limit; BHP gets the rest of the class, 65,000 = 1625
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, limit=2))
    t = target(S(model, cash=100_000, overrides=(pin(CSL, 100),)))
    assert units(t) == {"BHP": 1625, "CBA": 0, "CSL": 100}
    assert R.ASSETS_LIMIT in codes(by_code(t)["CBA"])
    # two new positions set in a class limited to one
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL, limit=1))
    error = fails(S(model, cash=100_000, overrides=(pin(CSL, 100), pin(CBA, 100))))
    assert error.message == "Assets limit is exceeded"
    # held positions set are kept like locked ones (no new position is opened)
    t = target(S(model, cash=50_000, holdings=[H(CSL, 100), H(CBA, 250)], overrides=(pin(CSL, 100), pin(CBA, 200))))
    assert units(t) == {"BHP": 0, "CBA": 200, "CSL": 100}


# ---- cash for added assets ----------------------------------------------------------------------
def test_adding_an_asset_cash_cannot_pay_for_is_refused():
    # BHP locked 1000 (40,000) and CBA held on HOLD 400 (40,000), cash 20,000, min cash 10,000.
    # WOW added gets the class's other 10,000 = 285 units (9,975) + 1% brokerage 99.75: the cash
    # would be 9,925.25, and there is no other buy to cut nor flexible holding to sell
    model = M(C(CASH, 10), C(2, 90, BHP, CBA))
    limits = {**MIN_CASH, "exceptions": (E.PortfolioException(E.LOCK, asset_id=BHP.id),)}
    snap = dict(cash=20_000, holdings=[H(BHP, 1000), H(CBA, 400)], quotes=(Q(WOW),), limits=limits,
                recommendations=(rec(CBA, "HOLD"),), brokerage=E.Brokerage(D(1), D(20)))
    error = fails(S(model, added=(add(WOW),), **snap))
    assert (error.code, error.message) == ("not_enough_cash_to_add", "Not enough cash to add asset")
    # the same set to units: the added asset's text still applies
    assert fails(S(model, added=(add(WOW),), overrides=(pin(WOW, 285),), **snap)).code == "not_enough_cash_to_add"
    # with another buy in the class (CSL), that one is cut for cash instead:
    # 5,000 each: CSL 20 (5,000 + 50.00), WOW 142 (4,970 + 49.70): cash 9,930.30, 69.70 short;
    # CSL cut to 19 (4,750 + 47.50): cash 10,182.80
    model = M(C(CASH, 10), C(2, 90, BHP, CBA, CSL))
    t = target(S(model, added=(add(WOW),), **snap))
    assert units(t) == {"BHP": 1000, "CBA": 400, "CSL": 19, "WOW": 142}
    assert R.CUT_FOR_CASH in codes(by_code(t)["CSL"]) and R.CUT_FOR_CASH not in codes(by_code(t)["WOW"])
    assert t.cash_after == D("10182.80") and not t.not_enough_cash


# ---- storing --------------------------------------------------------------------------------------
def test_the_edits_survive_json_and_older_stored_targets_read_without_them():
    t = target(S(BASE, cash=100_000, quotes=(Q(WOW),), added=(add(WOW),), overrides=(pin(BHP, 500), pin(WOW, 100))))
    data = t.to_dict()
    assert data["overrides"] == [{"asset_id": BHP.id, "target_units": "500"}, {"asset_id": WOW.id, "target_units": "100"}]
    assert data["added"] == [{"asset_id": WOW.id, "class_id": None}]
    assert E.Target.from_dict(data) == t
    old = {k: v for k, v in data.items() if k not in ("overrides", "added")}
    assert E.Target.from_dict(old).overrides == () and E.Target.from_dict(old).added == ()
