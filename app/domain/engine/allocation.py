"""Steps 3-4 of the target calculation (target.py): split and caps, in one water-filling per class
(waterfill.py).

What a class cannot take goes to the other classes in priority order, each up to its max % (the
cash class takes none: what is left stays in cash). Industry groups over their cap scale their
flexible members down; those become capped and the allocation is repeated until no group is over.
Caps: the smaller of max exposure % x V and max asset allocation value (eligibility.py); they do
not move fixed (Lock, HOLD) holdings, and they win over ACC's "never sell down". Industry group
caps: the portfolio's own when switched on, else the model's (max, else allocation) when its
industry group allocation is on.
"""
from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple, cast

from app.domain.engine import actions as A
from app.domain.engine import reasons as R
from app.domain.engine.classes import Classes
from app.domain.engine.places import Places
from app.domain.engine.positions import Positions
from app.domain.engine.waterfill import natural, solve
from app.domain.engine.working import (
    EPS, FIXED, FLEX, HUNDRED, INF, M_ACC, M_TAP, M_TSP, PCT, PINNED, ZERO, ClassState, Inputs, Line, fmt,
)
from app.domain.money import format_aud


class GroupMeta(NamedTuple):
    """An industry group's allocation as the target shows it, and its cap."""

    target: Decimal | None  # %
    min: Decimal | None  # %
    max: Decimal | None  # %
    priority: int
    cap: Decimal | None  # %


class Allocation(NamedTuple):
    """Steps 3-4's answer (each flexible line's value is its `f`)."""

    groups: dict[int, GroupMeta]  # industry group id -> its allocation (the portfolio's or the model's)
    group_caps: dict[int, Decimal]  # industry group id -> its cap in dollars
    leftover: Decimal  # what no class could take: it stays in cash


_PCT_TEXTS: dict[Decimal | None, str] = {}


def allocate(inputs: Inputs, pos: Positions, classes: Classes, places: Places) -> Allocation:
    """Steps 3-4: each flexible line's value (`f`) within its caps, and the reasons that shaped it."""
    V = pos.value
    groups = group_allocation(inputs)
    caps = {gid: meta.cap * V / HUNDRED for gid, meta in groups.items() if meta.cap is not None}
    members: dict[int, list[Line]] = {}
    for line in places.lines:
        if line.group_id in caps:
            members.setdefault(line.group_id, []).append(line)
    changed = True
    for _ in range(2 * len(caps) + 3):
        leftover = _allocate(classes.items, V)
        changed = _scale_groups(caps, members, bound_only=True)
        if not changed:
            break
    if changed:  # not settled (never seen): scale the groups down once more, the excess stays in cash
        leftover = _allocate(classes.items, V)
        _scale_groups(caps, members, bound_only=False)
    # reasons of the allocation
    limits = inputs.limits
    cap_texts = {
        "industry_group": (R.CAPPED_INDUSTRY_GROUP, "capped by its industry group's cap"),
        "max_value": (R.CAPPED_MAX_VALUE, "capped by the maximum asset allocation value of "
                                          f"{format_aud(limits.max_asset_value or ZERO)}"),
        "max_exposure": (R.CAPPED_MAX_EXPOSURE, f"capped by the maximum exposure of {fmt(limits.max_exposure)}%"),
    }
    percentages = inputs.percentages
    for c in classes.items:
        if c.received > EPS:
            c.add(R.RECEIVED_OVERFLOW, f"received {format_aud(c.received)} that capped assets of other classes "
                                       "could not take")
        for line in c.flex:
            _weight_reason(line, c, percentages)
            if line.hi != INF and line.f >= line.hi - EPS and natural(line, c.lam) > line.hi + EPS:
                assert line.cap_kind is not None  # set with its cap `hi` (eligibility, _scale_groups)
                code, text = cap_texts[line.cap_kind]
                line.add(code, text)
            if c.received > EPS:
                line.add(R.OVERFLOW, "includes the excess of capped assets of other classes")
    if leftover > EPS:
        classes.cash.add(R.LEFTOVER_TO_CASH, f"{format_aud(leftover)} no class could take stays in cash")
    return Allocation(groups=groups, group_caps=caps, leftover=leftover)


def group_allocation(inputs: Inputs) -> dict[int, GroupMeta]:
    """industry group id -> its allocation: the portfolio's own groups when switched on, else the
    model's when its industry group allocation is on."""
    out: dict[int, GroupMeta] = {}
    settings = inputs.settings
    if settings.industry_group_allocation:
        for i, g in enumerate(settings.industry_groups):
            if g.industry_group_id not in out:
                cap = Decimal(g.allocation)
                out[g.industry_group_id] = GroupMeta(target=cap, min=None, max=cap, priority=i, cap=cap)
    elif inputs.model.industry_group_allocation:
        for mg in sorted(inputs.model.industry_groups, key=lambda x: x.priority):
            if mg.industry_group_id not in out:
                model_cap = mg.max if mg.max is not None else mg.allocation
                out[mg.industry_group_id] = GroupMeta(target=mg.allocation, min=mg.min, max=model_cap,
                                                      priority=mg.priority, cap=model_cap)
    return out


def _allocate(classes: list[ClassState], V: Decimal) -> Decimal:
    """One water-filling of every class, then the overflow to the other classes; what no class
    could take."""
    excess = ZERO
    for c in classes:
        c.allotted = c.budget
        c.received = ZERO
        solution = solve(c.flex, c.budget)
        c.lam = solution.lam
        c.capacity = solution.capacity
        if not c.is_cash:  # what the cash class's listed assets cannot take is its own cash
            excess += solution.excess
    for d in classes:
        if excess <= EPS:
            break
        if d.is_cash or not d.flex:
            continue
        taken = sum((line.f for line in d.flex), ZERO)
        ceiling = (d.max if d.max is not None else HUNDRED) * V / HUNDRED
        room = min(ceiling - d.fixed - taken, d.capacity - taken)
        if room <= EPS:
            continue
        give = min(excess, room)
        d.allotted = max(d.allotted, taken) + give
        solution = solve(d.flex, d.allotted)
        d.lam = solution.lam
        d.capacity = solution.capacity
        absorbed = sum((line.f for line in d.flex), ZERO) - taken
        d.received += absorbed
        excess -= absorbed
    return max(excess, ZERO)


def _scale_groups(caps: dict[int, Decimal], members: dict[int, list[Line]], bound_only: bool) -> bool:
    """Groups over their cap get their flexible members bounded (bound_only) or also cut at
    once. True when a bound changed."""
    changed = False
    for gid in sorted(caps):
        cap = caps[gid]
        flex = [line for line in members.get(gid, ()) if line.role == FLEX]
        fixed = ZERO
        for line in members.get(gid, ()):
            if line.role == FIXED:
                fixed += line.cur_exact
            elif line.role == PINNED and line.pin:
                assert line.price is not None  # units set above zero need a price (places._pin: missing_price)
                fixed += line.pin * line.price
        taken = sum((line.f for line in flex), ZERO)
        if fixed + taken <= cap + EPS:
            continue
        allowed = max(cap - fixed, ZERO)
        scale = allowed / taken if taken > 0 else ZERO
        for line in flex:
            bound = line.f * scale
            if bound < line.hi:
                line.hi = bound
                line.cap_kind = "industry_group"
                changed = True
            if not bound_only:
                line.f = min(line.f, bound)
    return changed


def _weight_reason(line: Line, c: ClassState, percentages: bool) -> None:
    a = line.action
    text: str | None
    if line.added:  # (under percentages an added line's percentage is set: places.place_assets)
        text = (f"the average percentage of {c.label}: {fmt(cast(Decimal, line.percentage).quantize(PCT))}%"
                if percentages else f"an equal share of {c.label}")
    elif percentages:
        text = _PCT_TEXTS.get(line.percentage)
        if text is None:
            text = _PCT_TEXTS[line.percentage] = (f"model percentage {fmt(line.percentage)}% (an excluded "
                                                  "asset's share is spread pro rata in its class)")
    else:
        text = c.weight_text
        if text is None:
            text = c.weight_text = f"model weight: an equal share of {c.label}"
    line.add(R.MODEL_WEIGHT, text)
    if a.base == A.SB:
        line.add(R.SPECULATIVE_BUY, f"recommendation {a.code}: half the weight of a BUY asset")
    lam = c.lam
    if line.mode == M_ACC and lam is not None and line.cur_exact > line.weight * lam + EPS and \
            line.f > line.weight * lam + EPS:  # kept above its weight: whole, or down to its cap only
        line.add(R.ACC_KEPT, f"recommendation {a.code}: the overweight holding is not sold down"
                 + ("" if line.f >= line.cur_exact - EPS else " below its cap"))
    elif line.mode == M_TAP:
        line.add(R.TAKE_PROFIT, f"recommendation {a.code}: never bought; only the part above the model weight is sold")
    elif line.mode == M_TSP:
        line.add(R.TAKE_SOME_PROFIT, f"recommendation {a.code}: never bought; half of the part above the model "
                                     "weight is sold")
