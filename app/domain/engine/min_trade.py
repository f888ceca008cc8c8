"""Step 6 of the target calculation (target.py): the minimum trade amount.

A trade whose value at last close is below it is dropped (target = current), except FFL actions,
full sells (any sell of the whole holding) and the adviser's set units. A sell that a cap
requires (the holding is above its asset cap, or dropping it would leave its industry group above
its cap) is raised to the minimum trade amount instead (ours).
"""
from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

from app.domain.engine import reasons as R
from app.domain.engine.allocation import Allocation
from app.domain.engine.eligibility import Eligibility
from app.domain.engine.places import Places
from app.domain.engine.working import EPS, FIXED, PINNED, ZERO, Inputs
from app.domain.money import format_aud


def apply_min_trade(inputs: Inputs, places: Places, eligibility: Eligibility, allocation: Allocation) -> None:
    """Step 6: the lines' target units (`tgt`) after the minimum trade amount."""
    mta = inputs.mta
    if not mta or mta <= 0:
        return
    below = f"the trade is below the minimum trade amount of {format_aud(mta)}: not traded"
    raised = f"the sell a cap requires is raised to the minimum trade amount of {format_aud(mta)}"
    caps = allocation.group_caps
    asset_cap = eligibility.asset_cap.value
    lines = places.lines
    group_total: dict[int, Decimal] = {}
    if caps:
        for line in lines:
            if line.group_id in caps and line.price is not None:
                group_total[line.group_id] = group_total.get(line.group_id, ZERO) + line.tgt * line.price
    for line in lines:
        if line.tgt == line.cur_units or line.action.urgent or line.role == PINNED:
            continue
        if line.tgt == 0 and line.held:  # a full sell
            continue
        value = abs(line.value_of(line.tgt) - line.cur_value)
        if value >= mta:
            continue
        if line.tgt > line.cur_units:
            line.tgt = line.cur_units
            line.add(R.BELOW_MIN_TRADE, below)
            continue
        assert line.price is not None  # a sell: the asset is held, so it has a price (positions: missing_price)
        must = asset_cap is not None and line.cur_exact > asset_cap + EPS and line.role != FIXED
        gid = line.group_id
        if not must and gid in caps:
            back = (line.cur_units - line.tgt) * line.price
            must = group_total[gid] + back > caps[gid] + EPS
        if must:
            units = (mta / line.price).to_integral_value(rounding=ROUND_CEILING)
            new = min(line.tgt, line.cur_units - units)
            if new < 0:
                new = ZERO
            if gid in caps:
                group_total[gid] -= (line.tgt - new) * line.price
            line.tgt = new
            line.add(R.RAISED_TO_MIN_TRADE, raised)
        else:
            if gid in caps:
                group_total[gid] += (line.cur_units - line.tgt) * line.price
            line.tgt = line.cur_units
            line.add(R.BELOW_MIN_TRADE, below)
