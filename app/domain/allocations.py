"""Allocation totals and rows shared by the model form and the portfolio form (spec 002 s4).

Progress bars: the class allocation total is success at exactly 100, warning below 100 and danger
above 100; the industry group total is danger above 100, else success. The colours are names of
the theme's semantic colours; `BAR_COLOR_SCHEMES` maps them to Radix colour schemes.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable, Literal, Mapping

from app.domain import validators as v
from app.domain.money import as_decimal as _as_decimal, percent_1dp_label
from app.domain.parsing import as_id

BarColor = Literal["success", "warning", "danger"]
HUNDRED = Decimal(100)
BAR_COLOR_SCHEMES: dict[str, str] = {"success": "green", "warning": "amber", "danger": "red"}
PERCENT_FIELDS = ("allocation", "min", "max")
ALREADY_SELECTED = "Already selected."


def class_total_color(total: Decimal) -> BarColor:
    """Class allocation: success at exactly 100, warning below, danger above."""
    total = _as_decimal(total)
    if total == HUNDRED:
        return "success"
    return "warning" if total < HUNDRED else "danger"


def industry_total_color(total: Decimal) -> BarColor:
    """Industry group allocation: danger above 100, else success."""
    return "danger" if _as_decimal(total) > HUNDRED else "success"


def allocation_total(values: Iterable[Any]) -> Decimal:
    """The sum of the allocations that are numbers; blank and invalid entries count as 0
    (the row shows its own error), so the bar follows the user as they type."""
    total = Decimal(0)
    for value in values:
        try:
            number = v.parse_decimal(value)
        except ValueError:
            continue
        if number is not None:
            total += number
    return total


def total_text(total: Decimal) -> str:
    """The totals bar caption: 'Total: 85.0%'."""
    return f"Total: {percent_1dp_label(total)}"


def bar_width(total: Decimal) -> str:
    """CSS width of the bar's fill: the total clamped to 0..100 percent."""
    total = max(Decimal(0), min(_as_decimal(total), HUNDRED))
    return f"{total.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def check_allocation_row(allocation: Any, min_: Any = None, max_: Any = None) -> dict[str, str]:
    """Per-field errors of one allocation row ({'allocation'|'min'|'max': text}): each a number
    from 0 to 100 (empty is allowed), and max greater than min."""
    errors = v.FieldErrors()
    for key, value in (("allocation", allocation), ("min", min_), ("max", max_)):
        errors.check(key, v.float_(value), v.positive(value), _not_above_100(value))
    if "min" not in errors and "max" not in errors:
        min_err, max_err = v.min_max(min_, max_)
        errors.check("min", min_err)
        errors.check("max", max_err)
    return dict(errors)


def _not_above_100(value: Any) -> str | None:
    try:
        number = v.parse_decimal(value)
    except ValueError:
        return None
    return v.LESS_THAN.format(n=100) if number is not None and number > HUNDRED else None


def flag_unknown_choices(errors: v.FieldErrors, rows: Iterable[dict[str, Any]], list_name: str, key: str,
                         label: str, known: set[int]) -> None:
    """A "select a <label>" error on each allocation row (of the form's `list_name`) whose chosen
    `key` id is not among the `known` ones (gone, or not the firm's to use)."""
    for row in rows:
        if row[key] not in known:
            errors.check(f"{list_name}.{row['index']}.{key}", v.REQUIRED_SELECT.format(label=label))


def chosen_id(errors: v.FieldErrors, prefix: str, field: str, value: Any, label: str,
              earlier: Iterable[Mapping[str, Any]], *, required: bool = True) -> int | None:
    """The id an allocation row chose (`value`, sent as `field`); None when the row is to be skipped:
    nothing chosen ("select a <label>" when `required`, or when what was sent is not an id) or
    the same choice as an `earlier` row ("Already selected.")."""
    chosen = as_id(value)
    if chosen is None:
        if required or not v.is_empty(value):
            errors.check(f"{prefix}.{field}", v.REQUIRED_SELECT.format(label=label))
        return None
    if any(e[field] == chosen for e in earlier):
        errors.check(f"{prefix}.{field}", ALREADY_SELECTED)
        return None
    return chosen


@dataclass(frozen=True)
class ClassAllocation:
    """An asset class as a model (or a portfolio's own allocation) sets it: its target allocation
    and the band around it, % of the portfolio."""

    class_id: int
    title: str
    is_cash: bool
    allocation: Decimal
    min: Decimal | None
    max: Decimal | None
