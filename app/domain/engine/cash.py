"""Step 7 of the target calculation (target.py): cash.

Cash after trades = cash + sells - brokerage - buys. Below the cash floor (eligibility.py): buys
are cut from the lowest priority up (FFL buys last); then flexible holdings are sold pro rata to
their target values (each sell at least the minimum trade amount). When even selling every
flexible holding would not reach the floor, nothing more is sold and the target is flagged Not
Enough Cash (if the cash is below zero, holdings are still sold pro rata to bring it to zero, and
sells whose brokerage exceeds their value are cancelled). The adviser's edits are never cut nor
sold for cash: when they cost cash that is not there, the calculation is refused ("Edits").
"""
from __future__ import annotations

from decimal import ROUND_CEILING, Decimal
from typing import NamedTuple, cast

from app.domain.engine import errors as E
from app.domain.engine import reasons as R
from app.domain.engine.eligibility import Eligibility
from app.domain.engine.limits import brokerage_fee
from app.domain.engine.places import Places
from app.domain.engine.positions import Positions
from app.domain.engine.results import Reason
from app.domain.engine.snapshot import Brokerage
from app.domain.engine.working import FLEX, ONE, ZERO, Inputs, Line
from app.domain.money import format_aud


class CashAfter(NamedTuple):
    """Step 7's answer (the lines' final target units are their `tgt`)."""

    cash: Decimal  # the cash after trades
    not_enough_cash: bool  # below the cash floor
    reasons: tuple[Reason, ...]  # the target's own reasons (Not Enough Cash)


def fee(line: Line, units: Decimal, brokerage: Brokerage) -> Decimal:
    """The brokerage of the trade from the current units to `units` at last close."""
    if units == line._fee_units:
        return line._fee
    d = line.value_of(units) - line.cur_value
    value = brokerage_fee(d if d > 0 else -d, brokerage) if units != line.cur_units else ZERO
    line._fee_units, line._fee = units, value
    return value


def effect(line: Line, brokerage: Brokerage, units: Decimal | None = None) -> Decimal:
    """The cash a line's trade moves (negative for buys), brokerage included."""
    tgt = line.tgt if units is None else units
    if tgt == line.cur_units:
        return ZERO
    d = line.value_of(tgt) - line.cur_value
    return -d - fee(line, tgt, brokerage)


def keep_min_cash(inputs: Inputs, pos: Positions, places: Places, eligibility: Eligibility) -> CashAfter:
    """Step 7 (CalculationError not_enough_cash_to_add / not_enough_cash_to_set)."""
    brokerage = inputs.snapshot.brokerage
    lines = places.lines
    cash = pos.cash
    for line in lines:
        cash += effect(line, brokerage)
    floor = eligibility.cash_floor
    mta = inputs.mta
    if cash < floor:
        buys = [line for line in lines if line.tgt > line.cur_units and not line.edited]
        buys.sort(key=lambda line: (line.action.urgent, -line.rank))
        for line in buys:
            assert line.price is not None  # a buy not edited: a flexible line, which has a price (places._assign)
            deficit = floor - cash
            if deficit <= 0:
                break
            before = effect(line, brokerage)
            k = min(line.tgt - line.cur_units, (deficit / line.price).to_integral_value(rounding=ROUND_CEILING))
            new = line.tgt - k
            while True:
                freed = effect(line, brokerage, new) - before
                if freed >= deficit or new <= line.cur_units:
                    break
                new -= 1
            if new < line.cur_units:
                new = line.cur_units
            if new > line.cur_units and not line.action.urgent and mta and \
                    line.value_of(new) - line.cur_value < mta:
                new = line.cur_units
            cash += effect(line, brokerage, new) - before
            line.tgt = new
            line.add(R.CUT_FOR_CASH, "the buy is cut to keep the minimum cash" if new > line.cur_units
                     else "not bought: cut to keep the minimum cash")
    if cash < floor:
        flex = [line for line in lines if line.role == FLEX and line.tgt > 0 and not line.edited]
        achievable = cash
        for line in flex:
            achievable += effect(line, brokerage, ZERO) - effect(line, brokerage)
        goal = floor if achievable >= floor else (ZERO if cash < 0 <= achievable else None)
        if goal is not None:
            for _ in range(25):
                short = goal - cash
                pool = [line for line in flex if line.tgt > 0]
                if short <= 0 or not pool:
                    break
                # flexible lines, which have a price (places._assign)
                total = sum((line.tgt * cast(Decimal, line.price) for line in pool), ZERO)
                for line in pool:
                    assert line.price is not None  # (the same)
                    share = short * line.tgt * line.price / total
                    k = max(ONE, (share / line.price).to_integral_value(rounding=ROUND_CEILING))
                    new = line.tgt - k
                    if new < 0:
                        new = ZERO
                    if 0 < new < line.cur_units and not line.action.urgent and mta and \
                            line.cur_value - line.value_of(new) < mta:
                        lowest = line.cur_units - (mta / line.price).to_integral_value(rounding=ROUND_CEILING)
                        new = max(min(new, lowest), ZERO)
                    before = effect(line, brokerage)
                    line.tgt = new
                    cash += effect(line, brokerage) - before
                    line.add(R.SOLD_FOR_CASH, "sold pro rata to restore the minimum cash")
    if cash < 0:  # sells whose brokerage exceeds their value only cost cash
        for line in sorted(lines, key=lambda x: -x.rank):
            if cash >= 0:
                break
            moved = effect(line, brokerage)
            if line.tgt < line.cur_units and moved < 0 and not line.edited:
                line.tgt = line.cur_units
                cash -= moved
                line.add(R.KEPT_FOR_CASH, "not sold: its brokerage exceeds its value")
    if cash < floor:  # the edits that cost cash cannot be paid: refused (see "Edits")
        costly = [line for line in lines if line.edited and effect(line, brokerage) < 0]
        if any(line.added for line in costly):
            raise E.CalculationError("not_enough_cash_to_add", E.NOT_ENOUGH_CASH_TO_ADD)
        if costly:
            raise E.CalculationError("not_enough_cash_to_set", E.NOT_ENOUGH_CASH_TO_SET.format(
                codes=", ".join(sorted({line.code for line in costly}))))
    not_enough_cash = cash < floor
    reasons: tuple[Reason, ...] = ()
    if not_enough_cash:
        reasons = (Reason(R.NOT_ENOUGH_CASH, f"Not Enough Cash: the cash after trades of {format_aud(cash)} is below "
                                             f"the minimum cash of {format_aud(floor)}"),)
    return CashAfter(cash=cash, not_enough_cash=not_enough_cash, reasons=reasons)
