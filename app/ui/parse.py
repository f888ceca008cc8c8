"""Reading what a browser sends to event handlers (any handler can be called with any argument)."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any


def to_int(value: Any) -> int | None:
    """An integer, or None when the value is not one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def positive_int(value: Any) -> int | None:
    """A positive integer (an id, a page number), or None."""
    number = to_int(value)
    return number if number is not None and number > 0 else None


def decimal_or_none(value: Any) -> Decimal | None:
    """A finite Decimal, or None when the value is empty or not a number."""
    if value in (None, ""):
        return None
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def person_name(value: Any) -> str:
    """'First Last' of a {first_name, last_name} dict, '' for anything else."""
    if not isinstance(value, dict):
        return ""
    return f"{value.get('first_name') or ''} {value.get('last_name') or ''}".strip()
