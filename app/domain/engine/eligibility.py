"""Step 2 of the target calculation (target.py), second half: which flexible places remain, and
what each class's flexible assets share.

- Fixed places (Lock, HOLD held) and the adviser's set units count toward their class's fixed value.
- The cash floor (the minimum cash step 7 keeps): the minimum cash, raised so that the cash class
  reaches its own min % (ours); the cash class target is at least the minimum cash.
- At most `assets_limit` places of a class hold something, counting the fixed ones first, then
  flexible ones in priority order.
- Equal amounts: while a flexible asset's share of the class would fall below the minimum asset
  allocation, the lowest-priority flexible asset not held is dropped.
- Budgets: the class target less its fixed value (the cash class: less the cash floor as well;
  percentages, model classes: at most its assets' percentages).
- The asset cap (max exposure, max asset allocation value) of every flexible place.
"""
from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple, cast

from app.domain.engine import errors as E
from app.domain.engine import reasons as R
from app.domain.engine.classes import Classes
from app.domain.engine.limits import AssetCap
from app.domain.engine.places import Places
from app.domain.engine.positions import Positions
from app.domain.engine.working import FIXED, FLEX, HUNDRED, OUT, PINNED, ZERO, ClassState, Inputs
from app.domain.money import format_aud, to_cents


class Eligibility(NamedTuple):
    """Step 2's second answer (the flexible places are in each class's `flex`)."""

    cash_floor: Decimal  # the cash step 7 keeps
    asset_cap: AssetCap  # the cap of one asset, in dollars


def eligible_assets(inputs: Inputs, pos: Positions, classes: Classes, places: Places) -> Eligibility:
    """Step 2, second half (CalculationError assets_limit when the adviser's edits exceed it)."""
    V = pos.value
    for line in places.lines:
        if line.role == FIXED:
            line.cls.fixed += line.cur_exact
        elif line.role == PINNED and line.pin:
            assert line.price is not None  # units set above zero need a price (places._pin: missing_price)
            line.cls.fixed += line.pin * line.price
    # the cash floor: the minimum cash, raised so that the cash class reaches its min % (ours)
    cash = classes.cash
    min_cash = classes.min_cash
    floor = min_cash
    if cash.min is not None:
        floor = max(floor, to_cents(cash.min * V / HUNDRED - cash.fixed))
    if min_cash > cash.target:
        cash.target = Decimal(min_cash)
        cash.add(R.MIN_CASH, f"the cash target is the minimum cash of {format_aud(min_cash)}")
    percentages = inputs.percentages
    for c in classes.items:
        if c.limit is not None:
            fixed = sum(1 for line in c.lines if line.role == FIXED and line.held)
            # a pinned line's units are set with its role (places._pin)
            pinned = [line for line in c.lines if line.role == PINNED and cast(Decimal, line.pin) > 0]
            if fixed + len(pinned) > c.limit and any(line.added or not line.held for line in pinned):
                raise E.CalculationError("assets_limit", E.ASSETS_LIMIT)
            slots = c.limit - fixed - len(pinned)
            for line in c.lines:
                if line.role != FLEX:
                    continue
                if slots > 0:
                    slots -= 1
                elif line.added:
                    raise E.CalculationError("assets_limit", E.ASSETS_LIMIT)
                else:
                    line.role = OUT
                    line.add(R.ASSETS_LIMIT, f"beyond the class's assets limit of {c.limit}")
        _budget(c, floor, V, percentages and not inputs.custom)
    min_share = inputs.limits.min_asset_allocation(V) if not percentages else ZERO
    if min_share > 0:
        for c in classes.items:
            flex = [line for line in c.lines if line.role == FLEX]
            while flex:
                weights = sum((line.weight for line in flex), ZERO)
                unit = c.budget / weights if weights > 0 else ZERO
                if all(unit * line.weight >= min_share for line in flex):
                    break
                candidates = [line for line in flex if not line.held and not line.added]
                if not candidates:
                    break
                drop = candidates[-1]
                drop.role = OUT
                drop.add(R.MIN_ASSET_ALLOCATION, "not bought: its share would be below the minimum asset "
                                                 f"allocation of {format_aud(min_share)}")
                flex.remove(drop)
    for c in classes.items:
        c.flex = [line for line in c.lines if line.role == FLEX]
    cap = inputs.limits.asset_cap(V)
    if cap.value is not None:
        for c in classes.items:
            for line in c.flex:
                line.hi = cap.value
                line.cap_kind = cap.kind
    return Eligibility(cash_floor=floor, asset_cap=cap)


def _budget(c: ClassState, floor: Decimal, V: Decimal, by_percentages: bool) -> None:
    if c.is_cash:
        budget = c.target - c.fixed - floor
        if by_percentages:
            budget = min(budget, c.pct_total * V / HUNDRED)
        c.budget = max(budget, ZERO)
    else:
        c.budget = c.target - c.fixed
