"""The engine's invariants (design/engine.md "Invariants") on random models and portfolios, most
of them with random edits by the adviser (units set, assets added: target.py "Edits"). An edit
may break an invariant only for the asset it sets; the others hold for everything else."""
from __future__ import annotations

import dataclasses
import json
import os
import random
from decimal import ROUND_HALF_UP, Decimal as D

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from app.domain import engine as E
from app.domain.engine import actions as ACT
from app.domain.engine import reasons as R
from app.domain.engine.limits import limits_for
from app.domain.engine.trades import generate_trades_to_stored
from app.domain.model_spec import EQUAL_AMOUNTS, PERCENTAGES, AssetRef, ClassSpec, EquivalentSpec, IndustryGroupSpec, ModelAssetSpec, ModelSpec
from app.domain.models import SHORT_TERM_ACTIONS

CASH = 1
# ENGINE_EXAMPLES raises the count for a deeper run (e.g. 5000); the default keeps each test under ~2 s
PROPERTY = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "120")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

prices = st.sampled_from(["0.55", "1.20", "2.345", "4.10", "7.5", "12.01", "19.99", "33.30", "48.00", "75.25",
                          "99.99", "150.00", "249.50", "410.00"])
money = st.integers(min_value=0, max_value=400_000).map(lambda n: D(n) / 4)


def _partition(draw, total: int, parts: int) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    out, prev = [], 0
    for c in cuts + [total]:
        out.append(c - prev)
        prev = c
    return out


@st.composite
def snapshots(draw) -> E.Snapshot:
    percentages = draw(st.booleans())
    n_classes = draw(st.integers(1, 4))
    class_ids = [CASH] + [2 + i for i in range(n_classes)]
    n_assets = draw(st.integers(1, 12))
    n_outside = draw(st.integers(0, 5))
    groups = [None, 1, 2, 3]
    universe = []  # (id, code, price, group)
    for i in range(n_assets + n_outside):
        price = draw(st.one_of(st.none(), prices)) if draw(st.integers(0, 9)) == 0 else draw(prices)
        universe.append((100 + i, f"A{i:02d}", None if price is None else D(price), draw(st.sampled_from(groups))))
    model_assets = universe[:n_assets]
    outside = universe[n_assets:]
    # which class each model asset is in (the cash class may hold some, rarely)
    homes = [draw(st.sampled_from(class_ids[1:] + ([CASH] if draw(st.integers(0, 5)) == 0 else []))) for _ in model_assets]
    pcts: dict[int, int] = {}
    if percentages:
        shares = _partition(draw, 100, len(model_assets) + 1)
        for (aid, *_), share in zip(model_assets, shares):
            pcts[aid] = share
        cash_own = shares[-1]
        allocations = {cid: sum(pcts[a[0]] for a, h in zip(model_assets, homes) if h == cid) for cid in class_ids}
        allocations[CASH] += cash_own
    else:
        parts = _partition(draw, 100, len(class_ids))
        allocations = dict(zip(class_ids, parts))
    classes = []
    for rank, cid in enumerate(class_ids):
        alloc = D(allocations[cid])
        lo = hi = None
        if draw(st.integers(0, 3)) == 0:
            lo = max(D(0), alloc - draw(st.integers(0, 10)))
            hi = min(D(100), alloc + draw(st.integers(1, 20)))
        limit = draw(st.one_of(st.none(), st.integers(1, 6))) if draw(st.booleans()) else None
        assets = []
        for (aid, code, price, group), home in zip(model_assets, homes):
            if home != cid:
                continue
            alternate = None
            if outside and draw(st.integers(0, 6)) == 0:
                o = draw(st.sampled_from(outside))
                alternate = AssetRef(o[0], o[1], cid, None, o[3], o[2])
            assets.append(ModelAssetSpec(AssetRef(aid, code, cid, None, group, price), len(assets) + 1, alternate,
                                         D(pcts[aid]) if percentages else None, None, None))
        classes.append(ClassSpec(cid, f"C{cid}", cid == CASH, alloc, lo, hi, limit,
                                 draw(st.integers(1, 5)) if draw(st.booleans()) else rank + 1, tuple(assets)))
    equivalents = []
    if outside and draw(st.booleans()):
        for _ in range(draw(st.integers(1, 3))):
            a, b = draw(st.sampled_from(model_assets)), draw(st.sampled_from(outside))
            equivalents.append(EquivalentSpec(a[0], b[0]))
    model_groups = tuple(IndustryGroupSpec(g, D(draw(st.integers(5, 60))), None,
                                           D(draw(st.integers(5, 60))) if draw(st.booleans()) else None, g)
                         for g in (1, 2, 3) if draw(st.booleans()))
    model = ModelSpec(id=draw(st.integers(1, 3)), firm_id=1, name="Random", status="active",
                      allocation_method=PERCENTAGES if percentages else EQUAL_AMOUNTS, availability="all",
                      version=1, analyst_recommendations=draw(st.booleans()), class_allocation=True,
                      type_allocation=False, industry_group_allocation=draw(st.booleans()), deleted=False,
                      classes=tuple(classes), industry_groups=model_groups, equivalents=tuple(equivalents))
    # holdings: model assets and others, whole units
    holdings = []
    for aid, code, price, group in universe:
        if price is not None and draw(st.integers(0, 2)) == 0:
            cls = next((h for (a, *_), h in zip(model_assets, homes) if a == aid), draw(st.sampled_from(class_ids + [9])))
            holdings.append(E.Holding(aid, code, cls, group, D(draw(st.integers(1, 3000))), price))
    quotes = [E.AssetQuote(aid, code, 2, group, price) for aid, code, price, group in outside]
    pending = []
    if holdings and draw(st.integers(0, 3)) == 0:
        h = draw(st.sampled_from(holdings))
        n = D(draw(st.integers(1, int(h.units))))
        pending.append(E.PendingTrade(h.asset_id, E.DECREASE, n, (n * h.last_close_price).quantize(D("0.01")), D("9.95")))
    if draw(st.integers(0, 3)) == 0:
        a = draw(st.sampled_from(universe))
        if a[2] is not None:
            n = D(draw(st.integers(1, 200)))
            pending.append(E.PendingTrade(a[0], E.INCREASE, n, (n * a[2]).quantize(D("0.01")), D("9.95")))
    cash = draw(money) + D(draw(st.integers(0, 1))) * 50_000
    if pending:  # keep the cash after pending buys non-negative
        cash += sum((p.value + p.brokerage for p in pending if p.action == E.INCREASE), D(0))
    deposits = tuple(E.DepositHolding(i, D(draw(st.integers(100, 50_000))), draw(st.sampled_from([None] + class_ids)))
                     for i in range(draw(st.integers(0, 2))))
    customs = tuple(E.CustomHolding(i, f"Custom {i}", D(draw(st.integers(100, 50_000))), draw(st.sampled_from(class_ids + [9])))
                    for i in range(draw(st.integers(0, 2))))
    exceptions = []
    for aid, code, price, group in universe:
        if draw(st.integers(0, 6)) == 0:
            action = draw(st.sampled_from(E.EXCEPTION_ACTIONS))
            sub = None
            if action == E.SUBSTITUTE:
                sub = draw(st.sampled_from(outside))[0] if outside else None
            exceptions.append(E.PortfolioException(action, asset_id=aid, substitute_asset_id=sub))
    for ch in customs:
        if draw(st.booleans()):
            exceptions.append(E.PortfolioException(draw(st.sampled_from(E.EXCEPTION_ACTIONS)), custom_holding_id=ch.id))
    recs = []
    for aid, code, price, group in universe:
        kind = draw(st.integers(0, 3))
        if kind == 1:
            recs.append(E.Recommendation(aid, action=draw(st.sampled_from(SHORT_TERM_ACTIONS)),
                                         limit_price=price * D("0.98") if price is not None and draw(st.booleans()) else None,
                                         comment=draw(st.sampled_from([None, "note"]))))
        elif kind == 2:
            recs.append(E.Recommendation(aid, long_term=draw(st.sampled_from(["buy", "hold", "sell"])),
                                         long_term_comment=draw(st.sampled_from([None, "why"]))))
    custom_classes = draw(st.integers(0, 4)) == 0
    rows = ()
    if custom_classes:
        parts = _partition(draw, 100, len(class_ids))
        rows = tuple(E.ClassAllocation(cid, D(p), None, None) for cid, p in zip(class_ids, parts))
    own_groups = draw(st.integers(0, 2)) == 0
    settings_ = E.PortfolioSettings(
        class_allocation=custom_classes, classes=rows,
        industry_group_allocation=own_groups,
        industry_groups=tuple(E.IndustryGroupCap(g, D(draw(st.integers(5, 60)))) for g in (1, 2, 3) if draw(st.booleans())),
        min_asset_allocation=D(draw(st.integers(1, 8))) if draw(st.integers(0, 3)) == 0 else None,
        min_asset_allocation_value=D(draw(st.integers(100, 20_000))) if draw(st.integers(0, 3)) == 0 else None,
        max_asset_allocation_value=D(draw(st.integers(1_000, 80_000))) if draw(st.integers(0, 2)) == 0 else None,
        max_exposure=D(draw(st.integers(3, 40))) if draw(st.booleans()) else None,
        min_trade_amount=D(draw(st.integers(0, 3000))) if draw(st.booleans()) else None,
        min_cash_allocation=D(draw(st.integers(0, 15))) if draw(st.booleans()) else None,
        min_cash_allocation_value=D(draw(st.integers(0, 20_000))) if draw(st.booleans()) else None,
        percentages_max_exposure=D(draw(st.integers(3, 40))) if draw(st.booleans()) else None,
        percentages_min_trade_amount=D(draw(st.integers(0, 3000))) if draw(st.booleans()) else None,
        percentages_min_cash_balance=D(draw(st.integers(0, 15))) if draw(st.booleans()) else None,
        percentages_min_cash_balance_value=D(draw(st.integers(0, 20_000))) if draw(st.booleans()) else None,
        exceptions=tuple(exceptions),
    )
    brokerage = E.Brokerage(D(draw(st.sampled_from(["0", "0.1", "0.11", "0.5", "1"]))),
                            D(draw(st.sampled_from(["0", "9.95", "19.95"]))) if draw(st.booleans()) else None,
                            D(draw(st.sampled_from(["30", "100"]))) if draw(st.booleans()) else None)
    if not holdings and not deposits and not customs and cash <= 0:
        cash = D(10_000)
    return E.Snapshot(model=model, holdings=tuple(holdings), cash=cash, deposits=deposits, custom_holdings=customs,
                      pending_trades=tuple(pending), settings=settings_, brokerage=brokerage, recommendations=tuple(recs),
                      quotes=tuple(quotes), portfolio_id=1)


EDIT_ERRORS = {"assets_limit", "not_enough_cash_to_add", "not_enough_cash_to_set"}


@st.composite
def edited_snapshots(draw) -> E.Snapshot:
    """A random snapshot and, three times in four, random edits of its target: assets added (quoted
    assets not in the target, holdings the model does not place) to a class of the model, and
    units set (0, the current units, the calculated ones, or others) on assets of the target."""
    snap = draw(snapshots())
    if draw(st.integers(0, 3)) == 0:
        return snap
    try:
        base = E.calculate_target(snap)
    except E.CalculationError:
        return snap
    in_target = {a.asset_id for a in base.assets}
    class_ids = [c.class_id for c in snap.model.classes]
    candidates = sorted({q.asset_id for q in snap.quotes if q.asset_id not in in_target}
                        | {a.asset_id for a in base.assets if a.kind == "unmodelled"})
    added = []
    if candidates:
        for aid in draw(st.lists(st.sampled_from(candidates), max_size=2, unique=True)):
            added.append(E.AddedAsset(aid, draw(st.sampled_from([None] + class_ids))))
    prices = {a.asset_id: (a.price, a.current_units, a.target_units) for a in base.assets}
    for q in snap.quotes:
        prices.setdefault(q.asset_id, (q.last_close_price, D(0), D(0)))
    pool = sorted(in_target | {a.asset_id for a in added})
    overrides = []
    for aid in draw(st.lists(st.sampled_from(pool), min_size=0 if added else 1, max_size=3)):
        price, current, calculated = prices[aid]
        units = draw(st.sampled_from([D(0), current, calculated, (current / 2).to_integral_value(),
                                      current + draw(st.integers(1, 400))]))
        overrides.append(E.TargetOverride(aid, units if price is not None else D(0)))
    return dataclasses.replace(snap, added=tuple(added), overrides=tuple(overrides))


def _target(snap: E.Snapshot) -> E.Target:
    try:
        return E.calculate_target(snap)
    except E.CalculationError as error:  # a portfolio of nothing (e.g. pending sells of everything)
        if snap.overrides or snap.added:  # an edit the portfolio cannot take: refused with its text
            assert error.code in EDIT_ERRORS | {"class_not_in_model"}, error
        else:
            assert error.code == "no_value"
        assume(False)


def _edited(a: E.AssetTarget) -> bool:
    """Its units were set by the adviser: the only asset an edit may take out of an invariant."""
    return any(r.code == R.EDITED for r in a.reasons)


def _resolved(snap: E.Snapshot, a: E.AssetTarget) -> ACT.Action:
    recs = {r.asset_id: r for r in snap.recommendations}
    rec = recs.get(a.asset_id) or (recs.get(a.model_asset_id) if a.model_asset_id is not None else None)
    return ACT.resolve(rec, snap.model.analyst_recommendations).action


def _exceptions(snap: E.Snapshot) -> dict[int, str]:
    out: dict[int, str] = {}
    for e in snap.settings.exceptions:
        if e.asset_id is not None:
            out.setdefault(e.asset_id, e.action)
    return out


def _caps(snap: E.Snapshot, t: E.Target):
    limits = limits_for(snap.settings, snap.model.allocation_method)
    asset_cap, _ = limits.asset_cap(t.value)
    if snap.settings.industry_group_allocation:
        groups = {}
        for g in snap.settings.industry_groups:
            groups.setdefault(g.industry_group_id, g.allocation * t.value / 100)
    elif snap.model.industry_group_allocation:
        groups = {g.industry_group_id: (g.max if g.max is not None else g.allocation) * t.value / 100
                  for g in snap.model.industry_groups}
    else:
        groups = {}
    return limits, asset_cap, groups


# ---- invariants ---------------------------------------------------------------------------------
@PROPERTY
@given(edited_snapshots())
def test_nothing_forbidden_is_bought_and_nothing_locked_changes(snap):
    t = _target(snap)
    exc = _exceptions(snap)
    for a in t.assets:
        if _edited(a):
            continue
        if exc.get(a.asset_id) == E.LOCK:
            assert a.target_units == a.current_units, a
        if exc.get(a.asset_id) == E.DONT_HOLD:
            assert a.target_units <= a.current_units, a
        if a.kind in ("unmodelled", "replaced"):
            assert a.target_units <= a.current_units, a
            continue
        if _resolved(snap, a).base in ACT.NEVER_BUY:
            assert a.target_units <= a.current_units, a
        if _resolved(snap, a).base == ACT.HOLD and a.current_units > 0 and exc.get(a.asset_id) != E.DONT_HOLD:
            assert a.target_units == a.current_units, a


@PROPERTY
@given(edited_snapshots())
def test_no_asset_above_its_caps(snap):
    t = _target(snap)
    _, cap, _ = _caps(snap, t)
    if cap is None:
        return
    for a in t.assets:
        if a.fixed or R.KEPT_FOR_CASH in {r.code for r in a.reasons} or a.price is None or _edited(a):
            assert a.price is not None or a.target_units == 0
            continue
        assert a.target_units * a.price <= cap, (a.code, a.target_units * a.price, cap)


@PROPERTY
@given(edited_snapshots())
def test_no_industry_group_above_its_cap(snap):
    t = _target(snap)
    _, _, groups = _caps(snap, t)
    for gid, cap in groups.items():
        members = [a for a in t.assets if a.industry_group_id == gid]
        total = sum((a.target_units * a.price for a in members if a.price is not None), D(0))
        if total <= cap:
            continue
        fixed = sum((a.current_units * a.price for a in members if a.fixed), D(0))
        fixed += sum((a.target_units * a.price for a in members if _edited(a) and a.target_units), D(0))
        kept = [a for a in members if R.KEPT_FOR_CASH in {r.code for r in a.reasons}]
        assert fixed > cap or kept, (gid, total, cap)
        assert all(a.target_units == 0 or a.fixed or a in kept or _edited(a) for a in members)
        group = next(g for g in t.industry_groups if g.id == gid)
        assert R.ABOVE_CAP in {r.code for r in group.reasons}


@PROPERTY
@given(edited_snapshots())
def test_classes_within_min_max_unless_a_reason_says_why(snap):
    t = _target(snap)
    for c in t.classes:
        codes = {r.code for r in c.reasons}
        if c.min is not None and c.result_value < c.min * t.value / 100 - D("0.01") * (len(t.assets) + 1):
            assert R.BELOW_MIN in codes and codes & R.SHORTFALL_CAUSES, c
        if c.max is not None and c.result_value > c.max * t.value / 100 + D("0.01") * (len(t.assets) + 1):
            assert R.ABOVE_MAX in codes and codes & R.EXCESS_CAUSES, c
            if not c.is_cash and R.BELOW_MIN_TRADE not in codes:
                # a class above its max buys nothing
                assert all(a.target_units <= a.current_units for a in t.assets if a.class_id == c.id
                           and not _edited(a)), c


@PROPERTY
@given(edited_snapshots())
def test_units_are_whole_and_no_sell_exceeds_the_holding(snap):
    t = _target(snap)
    for a in t.assets:
        assert a.target_units >= 0
        if a.target_units != a.current_units:
            assert a.target_units == a.target_units.to_integral_value(), a
    trades = E.generate_trades(snap, t)
    held = {a.asset_id: a.current_units for a in t.assets}
    for tx in trades.transactions:
        assert tx.units > 0 and tx.units == tx.units.to_integral_value()
        if tx.action == E.DECREASE:
            assert tx.units <= held[tx.asset_id]


@PROPERTY
@given(edited_snapshots())
def test_cash_after_trades_is_never_negative_and_keeps_the_minimum(snap):
    t = _target(snap)
    assert t.cash_after >= 0 or t.cash < 0
    limits = limits_for(snap.settings, snap.model.allocation_method)
    if not t.not_enough_cash:
        assert t.cash_after >= t.min_cash >= limits.min_cash(t.value)
    else:
        assert t.cash_after < t.min_cash
        assert R.NOT_ENOUGH_CASH in {r.code for r in t.reasons}


@PROPERTY
@given(edited_snapshots())
def test_no_trade_below_the_minimum_trade_amount_but_ffl_and_full_sells(snap):
    t = _target(snap)
    mta = limits_for(snap.settings, snap.model.allocation_method).min_trade_amount
    for a in t.assets:
        if a.target_units == a.current_units:
            continue
        exempt = ACT.parse_action(a.action).urgent or (a.target_units == 0 and a.current_units > 0) or _edited(a)
        assert exempt or abs(a.delta_value) >= mta, (a.code, a.delta_value, mta, a.reasons)
    for tx in E.generate_trades(snap, t).transactions:
        assert tx.pending in (0, tx.amount)
        assert tx.pending == tx.amount or (tx.amount < mta and not tx.full_sell and not tx.urgent)
        assert tx.pending == tx.amount or _edited(t.asset(tx.asset_id)) or tx.amount < mta


@PROPERTY
@given(edited_snapshots())
def test_money_adds_up_to_the_cent(snap):
    t = _target(snap)
    before = (sum((a.current_value for a in t.assets), D(0)) + sum((h.value for h in t.holdings), D(0)) + t.cash)
    assert before == t.value
    assert t.value == t.value_after + t.brokerage
    assert t.brokerage == sum((a.brokerage for a in t.assets), D(0))
    assert t.cash_after == t.cash + t.sells - t.buys - t.brokerage
    for a in t.assets:
        assert a.target_units == a.current_units or a.target_value == (a.target_units * a.price).quantize(D("0.01"), rounding=ROUND_HALF_UP)


@PROPERTY
@given(edited_snapshots(), st.randoms(use_true_random=False))
def test_the_same_snapshot_always_gives_the_same_result(snap, rnd: random.Random):
    first = _target(snap)
    E.clear_cache()
    assert _target(snap) == first
    shuffled = E.Snapshot(
        model=snap.model, holdings=tuple(rnd.sample(snap.holdings, len(snap.holdings))), cash=snap.cash,
        deposits=snap.deposits, custom_holdings=snap.custom_holdings,
        pending_trades=tuple(rnd.sample(snap.pending_trades, len(snap.pending_trades))), settings=snap.settings,
        brokerage=snap.brokerage, recommendations=tuple(rnd.sample(snap.recommendations, len(snap.recommendations))),
        quotes=tuple(rnd.sample(snap.quotes, len(snap.quotes))), portfolio_id=snap.portfolio_id,
        overrides=snap.overrides, added=snap.added,
    )
    assert _target(shuffled) == first
    assert E.generate_trades(snap, first) == E.generate_trades(shuffled, first)
    assert E.Target.from_dict(first.to_dict()) == first
    # a bulk run trades to the stored target, reading only what trading needs: the same trades
    stored = json.loads(json.dumps(first.to_dict()))
    assert generate_trades_to_stored(snap, stored) == E.generate_trades(snap, first)


@PROPERTY
@given(edited_snapshots())
def test_the_edits_are_honoured(snap):
    t = _target(snap)
    pins = {o.asset_id: o.target_units for o in snap.overrides}  # the last one of an asset wins
    for aid, units in pins.items():
        a = t.asset(aid)
        assert a is not None and a.target_units == units and _edited(a) and not a.fixed, a
    for item in snap.added:
        a = t.asset(item.asset_id)
        assert a.kind == "added" and R.ADDED in {r.code for r in a.reasons}
        if item.class_id is not None:
            assert a.class_id == item.class_id
    assert {o.asset_id for o in t.overrides} == set(pins) and t.added == snap.added
    assert E.Target.from_dict(t.to_dict()) == t
    # the trades take today's portfolio to the edited units
    trades = {tx.asset_id: tx for tx in E.generate_trades(snap, t).transactions}
    for aid, units in pins.items():
        a = t.asset(aid)
        if a.manual_trade_decision or units == a.current_units:
            assert aid not in trades
        else:
            tx = trades[aid]
            assert (tx.units, tx.action) == (abs(units - a.current_units), E.INCREASE if units > a.current_units else E.DECREASE)


@PROPERTY
@given(snapshots())
def test_setting_every_asset_at_its_calculated_units_changes_nothing(snap):
    first = _target(snap)
    assume(not first.not_enough_cash)
    pinned = dataclasses.replace(snap, overrides=tuple(E.TargetOverride(a.asset_id, a.target_units)
                                                       for a in first.assets))
    again = E.calculate_target(pinned)
    assert {a.asset_id: a.target_units for a in again.assets} == {a.asset_id: a.target_units for a in first.assets}
    assert (again.cash_after, again.brokerage, again.not_enough_cash) == (first.cash_after, first.brokerage, False)
