"""The water-filling of one class (steps 3-4 of target.py): the class's budget is shared by a
"level" lambda between its flexible lines. A line's model weight is lambda x weight, and its
target at lambda is

    BUY/SB  min(cap, weight)            ACC  max(current, weight), at most the cap
    TAP     min(current, weight, cap)   TSP  min(cap, current, (min(weight, current) + current) / 2)

i.e. min(upper, max(lower, base + slope x lambda)): the line's shape (`set_shape`). lambda is
solved exactly so that the targets add up to the budget (lines held below their cap by TAP / TSP,
or capped, leave their share to the others).

This is the engine's innermost loop (every class, every round of the industry group caps): the
shape is kept on the line itself (no record per line and solve), and the breakpoint search, which
evaluates every line at every breakpoint, writes "value at lambda" out inline (a function call per
line and breakpoint made `solve` about 15% slower); the two loops that run once per solve (at 0 and
at the level found) write the same rule as min(max(...)).
"""
from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from app.domain.engine.working import HALF, INF, M_ACC, M_BUY, M_TAP, ZERO, Line


class Solution(NamedTuple):
    """The level found for a budget (each line's `f` is set to its target at that level)."""

    lam: Decimal | None  # None when every line is at its upper bound
    capacity: Decimal  # the most the lines can take (may be INF)
    excess: Decimal  # what of the budget nobody could take


def set_shape(line: Line) -> None:
    """The line's shape from its mode (BUY/SB, ACC, TAP, TSP) within its cap `hi`; a constant
    (slope 0, base = lower = upper) when it has no weight."""
    hi = line.hi
    w = line.weight
    mode = line.mode
    if mode == M_BUY:
        base, slope, lower, upper = ZERO, w, ZERO, hi
    elif mode == M_ACC:
        base, slope, lower, upper = ZERO, w, min(line.cur_exact, hi), hi
    elif mode == M_TAP:
        base, slope, lower, upper = ZERO, w, ZERO, min(line.cur_exact, hi)
    else:  # TSP
        base, slope, lower, upper = line.cur_exact * HALF, w * HALF, ZERO, min(line.cur_exact, hi)
    if slope <= 0:  # no weight: a constant
        base = lower = upper = min(upper, max(lower, base))
        slope = ZERO
    line.base = base
    line.slope = slope
    line.lower = lower
    line.upper = upper


def natural(line: Line, lam: Decimal | None) -> Decimal:
    """The line's target at `lam` without its cap (to tell whether the cap binds)."""
    w = line.weight
    cur = line.cur_exact
    if lam is None:
        return INF if line.mode in (M_BUY, M_ACC) and w > 0 else cur
    x = w * lam
    mode = line.mode
    if mode == M_BUY:
        return x
    if mode == M_ACC:
        return max(cur, x)
    if mode == M_TAP:
        return min(cur, x)
    return (min(x, cur) + cur) * HALF


def solve(flex: list[Line], budget: Decimal) -> Solution:
    """Set each line's `f` so that they add up to `budget` where possible."""
    if not flex:
        return Solution(ZERO, ZERO, max(budget, ZERO))
    g0 = ZERO
    capacity = ZERO
    for line in flex:  # value at 0
        set_shape(line)
        g0 += min(max(line.base + line.slope * ZERO, line.lower), line.upper)
        capacity += line.upper
    if budget <= g0:
        lam: Decimal | None = ZERO
    elif capacity != INF and budget >= capacity:
        lam = None
    else:
        points = set()
        for line in flex:
            slope = line.slope
            if slope > 0:
                base = line.base
                if base < line.lower:
                    points.add((line.lower - base) / slope)
                if line.upper != INF and base < line.upper:
                    points.add((line.upper - base) / slope)
        prev, gprev = ZERO, g0
        lam = None
        for p in sorted(points):
            if p <= 0:
                continue
            gp = ZERO
            for line in flex:  # value at p
                v = line.base + line.slope * p
                if v < line.lower:
                    v = line.lower
                if v > line.upper:
                    v = line.upper
                gp += v
            if gp >= budget:
                lam = prev + (budget - gprev) * (p - prev) / (gp - gprev) if gp != gprev else p
                break
            prev, gprev = p, gp
        if lam is None:  # past the last breakpoint: the unbounded lines take the rest (each is past
            slope = ZERO  # its lower bound's breakpoint, whatever the last digit of that division)
            for line in flex:
                if line.slope > 0 and line.upper == INF:
                    slope += line.slope
            lam = prev + (budget - gprev) / slope
    total = ZERO
    if lam is None:
        for line in flex:  # value beyond every breakpoint
            line.f = v = line.upper if line.slope > 0 else line.base
            total += v
    else:
        for line in flex:  # value at lam
            line.f = v = min(max(line.base + line.slope * lam, line.lower), line.upper)
            total += v
    excess = budget - total if lam is None and budget > total else ZERO
    return Solution(lam, capacity, excess)
