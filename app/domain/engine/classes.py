"""Step 1 of the target calculation (target.py): the classes and their targets.

T_c = allocation_c x V, the allocation being the model's or, when the portfolio's custom class
allocation is on, the portfolio's (min and max likewise). An allocation outside its class's
[min, max] is brought inside (ours). Deposits and custom holdings count toward their class. The
cash class's own target (the largest of its allocation and the minimum cash) is settled with the
cash floor in eligibility.py.
"""
from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from app.domain.engine import errors as E
from app.domain.engine import reasons as R
from app.domain.engine.positions import Positions
from app.domain.engine.snapshot import ClassAllocation
from app.domain.engine.working import HUNDRED, ZERO, ClassState, Inputs, fmt


class Classes(NamedTuple):
    """Step 1's answer: the classes in the order they were met (the model's, then the portfolio's
    own, then any a holding needs: `get` adds those)."""

    items: list[ClassState]
    by_id: dict[int, ClassState]
    cash: ClassState
    custom_ids: frozenset[int]  # the classes of the portfolio's own class allocation
    min_cash: Decimal  # the minimum cash in dollars
    value: Decimal  # V
    custom: bool

    def get(self, class_id: int) -> ClassState:
        """The class of `class_id`, added (allocation 0) when neither the model nor the portfolio
        has it."""
        c = self.by_id.get(class_id)
        if c is None:
            c = ClassState(class_id, "", False, ZERO, None, None, None, len(self.items), False)
            self.items.append(c)
            self.by_id[class_id] = c
            _class_target(c, self.value, self.custom)
        return c


def class_targets(inputs: Inputs, pos: Positions) -> Classes:
    """Step 1 (CalculationError custom_total when the portfolio's own allocation is not 100%)."""
    prep, V, custom = inputs.prep, pos.value, inputs.custom
    rows: dict[int, ClassAllocation] = {}
    if custom:
        total = ZERO
        for row in inputs.settings.classes:
            if row.class_id not in rows:
                rows[row.class_id] = row
                total += Decimal(row.allocation)
        if total != HUNDRED:
            raise E.CalculationError("custom_total", E.CUSTOM_TOTAL)
    items: list[ClassState] = []
    by_id: dict[int, ClassState] = {}
    for pc in prep.classes:
        if custom:
            own = rows.get(pc.class_id)
            alloc, mn, mx = (Decimal(own.allocation), own.min, own.max) if own is not None else (ZERO, None, None)
        else:
            alloc, mn, mx = pc.allocation, pc.min, pc.max
        c = ClassState(pc.class_id, pc.title, pc.is_cash, alloc, mn, mx, pc.assets_limit, pc.rank, True,
                       pc.percentage_total)
        items.append(c)
        by_id[c.id] = c
    for class_id in sorted(rows):
        if class_id not in by_id:
            row = rows[class_id]
            c = ClassState(class_id, "", False, Decimal(row.allocation), row.min, row.max, None, len(items), False)
            items.append(c)
            by_id[c.id] = c
    for c in items:
        _class_target(c, V, custom)
    assert prep.cash_class_id is not None  # PreparedModel.check refused a model without one (no_cash_class)
    classes = Classes(items=items, by_id=by_id, cash=by_id[prep.cash_class_id], custom_ids=frozenset(rows),
                      min_cash=inputs.limits.min_cash(V), value=V, custom=custom)
    # deposits and custom holdings count toward their class
    for d, value in pos.deposits:
        c = classes.get(d.class_id if d.class_id is not None else prep.cash_class_id)
        c.fixed += value
        c.others += value
    for ch, value in pos.customs:
        c = classes.get(ch.class_id)
        c.fixed += value
        c.others += value
    return classes


def _class_target(c: ClassState, V: Decimal, custom: bool) -> None:
    eff = c.allocation
    if c.min is not None and eff < c.min:
        eff = c.min
    if c.max is not None and eff > c.max:
        eff = c.max
    if eff != c.allocation:
        c.add(R.ALLOCATION_CLAMPED, f"the allocation of {fmt(c.allocation)}% is brought within "
                                    f"{fmt(c.min) or '0'}%-{fmt(c.max) or '100'}%")
    if custom and c.in_model:
        c.add(R.CUSTOM_ALLOCATION, "the portfolio's own class allocation applies")
    c.effective = eff
    c.target = eff * V / HUNDRED
