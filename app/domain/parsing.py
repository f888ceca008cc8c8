"""Reading ids and flags from what a request carries (a path, a query string, a form or JSON): the one
place each is parsed, so that every door reads them alike."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ID_LIMIT = 2**31  # ids are 32-bit: a bigger number names nothing


def as_id(value: Any) -> int | None:
    """A positive 32-bit id (also of a picked option {id, ...}), or None for anything else: empty,
    not a whole number, zero or negative, too big, a boolean."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, Mapping):
        return as_id(value.get("id"))
    if isinstance(value, float):
        value = int(value) if value.is_integer() else None
        return as_id(value)
    if isinstance(value, int):
        return value if 0 < value < ID_LIMIT else None
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 10:
        return None
    return as_id(int(text))


def as_bool(value: Any, default: bool = False) -> bool:
    """JSON booleans, and the strings/numbers a form or query string sends ('1', 'true', 'on')."""
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    return str(value).strip().lower() in ("1", "true", "yes", "on")
