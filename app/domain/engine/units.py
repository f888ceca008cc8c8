"""Step 5 of the target calculation (target.py): whole units.

floor(target value / last close) for flexible lines (TAP and TSP never above the units held; a
value within the tolerance of the current one keeps the current units); fixed lines keep their
units, pinned ones take the adviser's, the others go to zero. The residue stays in cash.
"""
from __future__ import annotations

from decimal import ROUND_FLOOR

from app.domain.engine.places import Places
from app.domain.engine.working import EPS, FIXED, M_TAP, M_TSP, OUT, PINNED, TINY, ZERO


def whole_units(places: Places) -> None:
    """Step 5: each line's target units (`tgt`)."""
    for line in places.lines:
        role = line.role
        if role == FIXED:
            line.tgt = line.cur_units
        elif role == PINNED:
            assert line.pin is not None  # set with the role (places._pin)
            line.tgt = line.pin
        elif role == OUT:
            line.tgt = ZERO
        else:
            f = line.f
            if abs(f - line.cur_exact) <= EPS:
                line.tgt = line.cur_units
            else:
                assert line.price is not None  # a flexible line has a price (places._assign)
                units = ((f + TINY) / line.price).to_integral_value(rounding=ROUND_FLOOR)
                if units < 0:
                    units = ZERO
                if line.mode in (M_TAP, M_TSP) and units > line.cur_units:
                    units = line.cur_units
                line.tgt = units
