"""The water-filling of one class (steps 3-4 of target.py): the class's budget is shared by a
"level" lambda between its flexible lines. A line's model weight is lambda x weight, and its
target at lambda is

    BUY/SB  min(cap, weight)            ACC  max(current, weight), at most the cap
    TAP     min(current, weight, cap)   TSP  min(cap, current, (min(weight, current) + current) / 2)

i.e. min(U, max(L, a + b x lambda)) - the line's `Shape`. lambda is solved exactly so that the
targets add up to the budget (lines held below their cap by TAP / TSP, or capped, leave their share
to the others).
"""
from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from app.domain.engine.working import HALF, INF, M_ACC, M_BUY, M_TAP, ZERO, Line


class Shapes(NamedTuple):
    """The flexible lines' targets as functions of the level, column by column: line i's target
    at lambda is min(up[i], max(lo[i], a[i] + b[i] x lambda)) (a constant when b[i] is 0)."""

    a: list[Decimal]
    b: list[Decimal]
    lo: list[Decimal]
    up: list[Decimal]


class Solution(NamedTuple):
    """The level found for a budget (each line's `f` is set to its target at that level)."""

    lam: Decimal | None  # None when every line is at its upper bound
    capacity: Decimal  # the most the lines can take (may be INF)
    excess: Decimal  # what of the budget nobody could take


def shapes(flex: list[Line]) -> Shapes:
    """The shape of each line (module text): BUY/SB, ACC, TAP or TSP within its cap `hi`."""
    a_s: list[Decimal] = []
    b_s: list[Decimal] = []
    lo_s: list[Decimal] = []
    up_s: list[Decimal] = []
    for line in flex:
        hi = line.hi
        w = line.weight
        mode = line.mode
        if mode == M_BUY:
            a, b, lo, up = ZERO, w, ZERO, hi
        elif mode == M_ACC:
            a, b, lo, up = ZERO, w, min(line.cur_exact, hi), hi
        elif mode == M_TAP:
            a, b, lo, up = ZERO, w, ZERO, min(line.cur_exact, hi)
        else:  # TSP
            a, b, lo, up = line.cur_exact * HALF, w * HALF, ZERO, min(line.cur_exact, hi)
        if b <= 0:  # no weight: a constant
            a = lo = up = min(up, max(lo, a))
            b = ZERO
        a_s.append(a)
        b_s.append(b)
        lo_s.append(lo)
        up_s.append(up)
    return Shapes(a_s, b_s, lo_s, up_s)


def at(a: Decimal, b: Decimal, lo: Decimal, up: Decimal, lam: Decimal | None) -> Decimal:
    """A shape's value at `lam` (None: beyond every breakpoint)."""
    if lam is None:
        return up if b > 0 else a
    v = a + b * lam
    if v < lo:
        v = lo
    if v > up:
        v = up
    return v


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
    columns = shapes(flex)
    rows = list(zip(*columns))  # (a, b, lo, up) of each line, in the order of Shapes' fields
    g0 = ZERO
    capacity = ZERO
    for a, b, lo, up in rows:
        g0 += at(a, b, lo, up, ZERO)
        capacity += up
    if budget <= g0:
        lam: Decimal | None = ZERO
    elif capacity != INF and budget >= capacity:
        lam = None
    else:
        points = set()
        for a, b, lo, up in rows:
            if b > 0:
                if a < lo:
                    points.add((lo - a) / b)
                if up != INF and a < up:
                    points.add((up - a) / b)
        prev, gprev = ZERO, g0
        lam = None
        for p in sorted(points):
            if p <= 0:
                continue
            gp = ZERO
            for a, b, lo, up in rows:
                gp += at(a, b, lo, up, p)
            if gp >= budget:
                lam = prev + (budget - gprev) * (p - prev) / (gp - gprev) if gp != gprev else p
                break
            prev, gprev = p, gp
        if lam is None:  # past the last breakpoint: the unbounded lines take the rest (each is past
            slope = ZERO  # its lower bound's breakpoint, whatever the last digit of that division)
            for b, up in zip(columns.b, columns.up):
                if b > 0 and up == INF:
                    slope += b
            lam = prev + (budget - gprev) / slope
    total = ZERO
    for line, (a, b, lo, up) in zip(flex, rows):
        line.f = f = at(a, b, lo, up, lam)
        total += f
    excess = budget - total if lam is None and budget > total else ZERO
    return Solution(lam, capacity, excess)
