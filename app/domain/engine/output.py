"""The answer of the target calculation (target.py, design/engine.md "Output"): per asset its
current and target units, value and %, and the reasons that shaped it; the holdings never traded;
per class and industry group the target %, result %, min and max, and for one outside its min /
max (or above its cap) the causes found (e.g. capped assets, no price, cut for cash, whole units).

Money adds up to the cent: a trade's value at last close is the change of its position's value
(each position valued to the cent), so V = V after the trades + brokerage exactly.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import cast

from app.domain.engine import reasons as R
from app.domain.engine.allocation import Allocation
from app.domain.engine.cash import CashAfter, fee as cash_fee
from app.domain.engine.classes import Classes
from app.domain.engine.eligibility import Eligibility
from app.domain.engine.places import Places
from app.domain.engine.positions import Positions
from app.domain.engine.results import AllocationTarget, AssetTarget, HoldingTarget, Reason, Target, build
from app.domain.engine.snapshot import DONT_HOLD, EXCEPTION_LABELS, MANUAL_TRADE_DECISION, TargetOverride
from app.domain.engine.working import (
    EPS, FIXED, FLEX, HALF_CENT, HUNDRED, PCT, PCT_ZERO, PINNED, ZERO, ClassState, Inputs, Line, fmt, pct, reason,
)


def build_target(inputs: Inputs, pos: Positions, classes: Classes, places: Places, eligibility: Eligibility,
                 allocation: Allocation, after: CashAfter) -> Target:
    """The target portfolio: per asset, per holding never traded, per class and industry group."""
    V = pos.value
    mta = inputs.mta
    brokerage = inputs.snapshot.brokerage
    lines = places.lines
    assets: list[AssetTarget] = []
    buys = sells = fees = ZERO
    class_current: dict[int, Decimal] = {c.id: c.others for c in classes.items}
    class_result: dict[int, Decimal] = dict(class_current)
    class_current[classes.cash.id] += pos.cash
    class_result[classes.cash.id] += after.cash
    group_current: dict[int | None, Decimal] = {}
    group_result: dict[int | None, Decimal] = {}
    residue: dict[int, Decimal] = {}
    half_up = ROUND_HALF_UP
    for line in lines:
        tgt = line.tgt
        cur = line.cur_units
        cv = line.cur_value
        class_id = line.class_id
        gid = line.group_id
        role = line.role
        action = line.action
        if tgt == cur:
            tv, dv, fee, tp = cv, ZERO, ZERO, None
        else:
            tv = line.value_of(tgt)
            dv = tv - cv
            fee = cash_fee(line, tgt, brokerage)
            if dv > 0:
                buys += dv
            else:
                sells -= dv
            fees += fee
            tp = (tv * HUNDRED / V).quantize(PCT, rounding=half_up) if tv else PCT_ZERO
            class_current[class_id] += cv
            class_result[class_id] += tv
            group_current[gid] = group_current.get(gid, ZERO) + cv
            group_result[gid] = group_result.get(gid, ZERO) + tv
        cp = (cv * HUNDRED / V).quantize(PCT, rounding=half_up) if cv else PCT_ZERO
        if tp is None:
            tp = cp
            if cv:
                class_current[class_id] += cv
                class_result[class_id] += cv
                group_current[gid] = group_current.get(gid, ZERO) + cv
                group_result[gid] = group_result.get(gid, ZERO) + cv
        if role == FLEX:
            weight = line.f
            floored = tgt * cast(Decimal, line.price)  # a flexible line has a price (places._assign)
            if weight > floored + EPS:
                residue[class_id] = residue.get(class_id, ZERO) + weight - floored
            wp = (weight * HUNDRED / V).quantize(PCT, rounding=half_up) if weight else PCT_ZERO
        elif role == FIXED:
            wp = cp
        elif role == PINNED:
            wp = tp
        else:
            wp = PCT_ZERO
        assets.append(build(AssetTarget, {
            "asset_id": line.asset_id, "code": line.code, "class_id": class_id, "industry_group_id": gid,
            "kind": line.kind, "model_asset_id": line.model_asset_id, "rank": line.rank, "action": action.code,
            "base_action": action.base, "recommendation_source": line.source, "comment": line.comment,
            "limit_price": line.limit_price, "exception": line.exception, "manual_trade_decision": line.manual,
            "fixed": role == FIXED, "price": line.price, "current_units": cur, "target_units": tgt,
            "delta_units": tgt - cur, "current_value": cv, "target_value": tv, "delta_value": dv,
            "current_percent": cp, "target_percent": tp, "weight_percent": wp, "brokerage": fee,
            "full_sell": tgt == 0 and line.held, "stop_loss": action.stop_loss and tgt < cur,
            "urgent": action.urgent and tgt != cur, "reasons": tuple(line.reasons),
        }))
    holdings: list[HoldingTarget] = []
    for d, value in pos.deposits:
        cid = d.class_id if d.class_id is not None else classes.cash.id
        holdings.append(HoldingTarget("deposit", d.id, d.name, cid, value, pct(value, V), None,
                                      (reason(R.NOT_TRADED, "a deposit: never traded, counts toward its class"),)))
    for ch, value in pos.customs:
        exc = places.exc_custom.get(ch.id)
        reasons = [reason(R.NOT_TRADED, "a custom holding: never traded, counts toward its class")]
        if exc is not None and exc.action in (DONT_HOLD, MANUAL_TRADE_DECISION):
            reasons.append(reason(R.MANUAL, f"{EXCEPTION_LABELS[exc.action]}: needs a manual decision"))
        holdings.append(HoldingTarget("custom", ch.id, ch.name, ch.class_id, value, pct(value, V),
                                      exc.action if exc is not None else None, tuple(reasons)))
    class_targets = tuple(_class_result(c, class_current[c.id], class_result[c.id], residue.get(c.id, ZERO), V,
                                        classes.items, lines, after.not_enough_cash)
                          for c in sorted(classes.items, key=lambda c: c.rank))
    groups = _group_results(group_current, group_result, V, lines, allocation)
    snap, model = inputs.snapshot, inputs.model
    return Target(
        portfolio_id=snap.portfolio_id, model_id=model.id, model_version=model.version,
        allocation_method=model.allocation_method, value=V, cash=pos.cash, cash_after=after.cash,
        min_cash=eligibility.cash_floor, min_trade_amount=mta, buys=buys, sells=sells, brokerage=fees,
        not_enough_cash=after.not_enough_cash, assets=tuple(assets), holdings=tuple(holdings), classes=class_targets,
        industry_groups=groups, reasons=after.reasons,
        overrides=tuple(TargetOverride(aid, units) for aid, units in places.pins.items()), added=snap.added,
    )


def _class_result(c: ClassState, current: Decimal, result: Decimal, residue: Decimal, V: Decimal,
                  all_classes: list[ClassState], all_lines: list[Line], not_enough_cash: bool) -> AllocationTarget:
    reasons = list(c.reasons)
    lines = c.lines
    tolerance = HALF_CENT * (len(lines) + 1)
    if c.min is not None and result < c.min * V / HUNDRED - tolerance:
        causes: dict[str, list[str]] = {}
        for line in lines:
            for code in line.codes:
                if code in R.SHORTFALL_CAUSES:
                    causes.setdefault(code, []).append(line.code)
        if not c.flex:
            causes.setdefault(R.NO_ASSETS, [])
        if residue > 0:
            causes.setdefault(R.WHOLE_UNITS, [])
        if c.is_cash and not_enough_cash:
            causes.setdefault(R.NOT_ENOUGH_CASH, [])
        texts = [_cause_text(code, who) for code, who in sorted(causes.items())]
        reasons.append(Reason(R.BELOW_MIN, f"below its minimum of {fmt(c.min)}%: " + "; ".join(texts)))
        reasons.extend(Reason(code, _cause_text(code, who)) for code, who in sorted(causes.items()))
    if c.max is not None and result > c.max * V / HUNDRED + tolerance:
        causes = {}
        kept = [line.code for line in lines if line.held and line.tgt >= line.cur_units]
        if kept or c.others > 0:
            causes[R.FIXED_HOLDINGS] = kept
        for line in lines:
            for code in line.codes:
                if code in R.EXCESS_CAUSES:
                    causes.setdefault(code, []).append(line.code)
        for code in c.codes:
            if code in R.EXCESS_CAUSES:
                causes.setdefault(code, [])
        if c.is_cash:  # (a flexible line has a price: places._assign)
            if residue > 0 or any(other is not c and any(
                    line.role == FLEX and line.f > line.tgt * cast(Decimal, line.price) for line in other.lines)
                    for other in all_classes):
                causes.setdefault(R.WHOLE_UNITS, [])
            for line in all_lines:
                for code in (R.BELOW_MIN_TRADE, R.CUT_FOR_CASH, R.SOLD_FOR_CASH, R.KEPT_FOR_CASH, R.EDITED):
                    if code in line.codes:
                        causes.setdefault(code, []).append(line.code)
            for other in all_classes:
                if R.ALLOCATION_CLAMPED in other.codes:
                    causes.setdefault(R.ALLOCATION_CLAMPED, []).append(other.label)
        texts = [_cause_text(code, who) for code, who in sorted(causes.items())]
        reasons.append(Reason(R.ABOVE_MAX, f"above its maximum of {fmt(c.max)}%: " + "; ".join(texts)))
        reasons.extend(Reason(code, _cause_text(code, who)) for code, who in sorted(causes.items())
                       if code not in c.codes)
    return build(AllocationTarget, {
        "id": c.id, "title": c.title, "is_cash": c.is_cash, "target_percent": pct(c.target, V), "min": c.min,
        "max": c.max, "current_value": current, "current_percent": pct(current, V), "result_value": result,
        "result_percent": pct(result, V), "reasons": tuple(reasons),
    })


def _group_results(current: dict[int | None, Decimal], result: dict[int | None, Decimal], V: Decimal,
                   lines: list[Line], allocation: Allocation) -> tuple[AllocationTarget, ...]:
    groups, caps = allocation.groups, allocation.group_caps
    capped = {line.group_id for line in lines if R.CAPPED_INDUSTRY_GROUP in line.codes}
    ids = [gid for gid in groups]
    for gid in sorted((g for g in result if g is not None), key=int):
        if gid not in groups:
            ids.append(gid)
    out = []
    for gid in ids:
        meta = groups.get(gid)
        cur = current.get(gid, ZERO)
        res = result.get(gid, ZERO)
        reasons: list[Reason] = []
        cap = caps.get(gid)
        if cap is not None and res > cap + HALF_CENT:
            fixed = [line.code for line in lines if line.group_id == gid and line.role == FIXED and line.held]
            edited = [line.code for line in lines if line.group_id == gid and line.role == PINNED and line.tgt]
            kinds = "locked, HOLD and edited" if edited else "locked and HOLD"
            reasons.append(Reason(R.ABOVE_CAP, f"above its cap: its {kinds} holdings alone exceed it ("
                                  + ", ".join(fixed + edited) + ")"))
        if cap is not None and gid in capped:
            assert meta is not None  # a group with a cap is one of `groups` (allocation.allocate)
            reasons.append(Reason(R.CAPPED_INDUSTRY_GROUP, f"its assets are scaled down to its cap of {fmt(meta.cap)}%"))
        out.append(build(AllocationTarget, {
            "id": gid, "title": "", "is_cash": False, "target_percent": meta.target if meta else None,
            "min": meta.min if meta else None, "max": meta.max if meta else None, "current_value": cur,
            "current_percent": pct(cur, V) if cur else PCT_ZERO, "result_value": res,
            "result_percent": pct(res, V) if res else PCT_ZERO, "reasons": tuple(reasons),
        }))
    return tuple(out)


_CAUSE_TEXTS = {
    R.NO_ASSETS: "the class has no asset that can be bought",
    R.NO_PRICE: "no last close price",
    R.EXCLUDED: "excluded by a Don't hold exception",
    R.LOCKED: "locked",
    R.RECOMMENDATION_SELL: "recommendation SELL",
    R.RECOMMENDATION_SA: "recommendation SA",
    R.RECOMMENDATION_HOLD: "recommendation HOLD",
    R.NEVER_BUY: "the recommendation never buys a new position",
    R.TAKE_PROFIT: "recommendation TAP never buys",
    R.TAKE_SOME_PROFIT: "recommendation TSP never buys and sells only half of the part above the model weight",
    R.ASSETS_LIMIT: "beyond the assets limit",
    R.MIN_ASSET_ALLOCATION: "below the minimum asset allocation",
    R.CAPPED_MAX_EXPOSURE: "capped by the maximum exposure",
    R.CAPPED_MAX_VALUE: "capped by the maximum asset allocation value",
    R.CAPPED_INDUSTRY_GROUP: "capped by an industry group's cap",
    R.BELOW_MIN_TRADE: "trades below the minimum trade amount are not made",
    R.RAISED_TO_MIN_TRADE: "sells raised to the minimum trade amount",
    R.CUT_FOR_CASH: "buys cut to keep the minimum cash",
    R.SOLD_FOR_CASH: "sold to restore the minimum cash",
    R.KEPT_FOR_CASH: "sells whose brokerage exceeds their value are not made",
    R.WHOLE_UNITS: "whole units: the residue stays in cash",
    R.REPLACED: "replaced by a substitution asset",
    R.NOT_IN_MODEL: "holdings not in the model are sold",
    R.FIXED_HOLDINGS: "holdings that are kept (locked, HOLD, ACC, TAP, TSP, deposits, custom holdings)",
    R.LEFTOVER_TO_CASH: "what no class could take stays in cash",
    R.MIN_CASH: "the minimum cash",
    R.ALLOCATION_CLAMPED: "the allocation lies outside the class's min / max",
    R.ACC_KEPT: "recommendation ACC does not sell an overweight holding down",
    R.EDITED: "set by the adviser",
}


def _cause_text(code: str, who: list[str]) -> str:
    text = _CAUSE_TEXTS.get(code, code)
    names = sorted(set(who))
    return f"{text} ({', '.join(names)})" if names else text
