"""Reading what a browser sends to event handlers (any handler can be called with any argument)."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from collections.abc import Mapping
from typing import Any

FORM_DATA_ENTRIES_KEY = "__reflex_form_data__"  # the wire key of a form's [name, value] entries


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


def _submitted(form: Any) -> Mapping[str, Any]:
    """A submitted form's fields by name ({} for anything that is not a form)."""
    if not isinstance(form, Mapping):
        return {}
    if FORM_DATA_ENTRIES_KEY in form and isinstance(form[FORM_DATA_ENTRIES_KEY], list):
        return {str(pair[0]): pair[1] for pair in form[FORM_DATA_ENTRIES_KEY]
                if isinstance(pair, (list, tuple)) and len(pair) == 2}
    return form


def form_text(form: Any, name: str, limit: int = 200) -> str | None:
    """A text field of a submitted form (None when the form did not send it). Password fields are
    read from the submission itself: the page's state never holds them, and a field typed before
    the page's own load event had run is still what the user submitted."""
    value = _submitted(form).get(name)
    return value[:limit] if isinstance(value, str) else None


def form_id(form: Any, name: str) -> int | None:
    """An id a submitted form carries (a hidden input's, as text or a number), None when it sent none."""
    return positive_int(_submitted(form).get(name))
