"""Reading ids and flags from what a request carries (a path, a query string, a form or JSON): the one
place each is parsed, so that every door reads them alike."""
from __future__ import annotations

import json
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


def ids_of(value: Any, *, json_text: bool = False) -> list[int]:
    """The ids of a list (or of one id alone), each read by as_id; what names no id is left out.
    With json_text, a JSON array sent as text ('[1, 2]') is read as that list."""
    if json_text and isinstance(value, str) and value.strip().startswith("["):
        value = json.loads(value)
    items = value if isinstance(value, (list, tuple)) else [value]
    return [i for i in (as_id(item) for item in items) if i is not None]


def as_bool(value: Any, default: bool = False) -> bool:
    """JSON booleans, and the strings/numbers a form or query string sends ('1', 'true', 'on')."""
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def firm_choice(value: Any) -> int | None:
    """A report's firm as a query or a screen names it: None for every firm (nothing, '-1' or '-2',
    the lists' 'All firms'; the report then reads the actor's own firm, or a superuser's every
    firm), else its id; 0 for text that names no firm (the report answers not found)."""
    text = "" if value is None else str(value).strip()
    if text in ("", "-1", "-2"):
        return None
    return as_id(text) or 0
