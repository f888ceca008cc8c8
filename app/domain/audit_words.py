"""The audit trail's changes in the screens' words and numbers (the trail keeps the stored values):
'Status: Validation Required -> Approval Required' rather than 'status: draft -> validated',
'Quantity: 24' rather than 'quantity: 24.000000', 'Kind: Target portfolios' rather than 'kind: tp'.

A field's value is read with the vocabulary of the event it belongs to (a target portfolio's status,
a trade recommendations' status, a user's, a model's ...); numbers lose their trailing zeros; yes /
no for flags; 'empty' for nothing. Pure: the screen and the Excel file both read their text here."""
from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from app.domain.advice import NOT_ENOUGH_CASH, TP_KEY_LABELS, TIStatus
from app.domain.model_rules import AVAILABILITY_TITLES, METHOD_TITLES, STATUS_TITLES as MODEL_STATUS_TITLES
from app.domain.money import number_text
from app.domain.orders import FILE_TITLES
from app.domain.roles import Role, UserStatus

EMPTY = "empty"
RUN_KINDS = {"tp": "Target portfolios", "tr": "Trade recommendations"}
# field names whose screen words are not the name's own
FIELD_WORDS = {"tp": "Target portfolio", "ip": "Address", "hin": "HIN", "abn": "ABN", "afsl": "AFSL", "car": "CAR",
               "url": "URL", "id": "Id"}
_NUMBER = re.compile(r"^-?\d+\.\d+$")
_COUNTED = re.compile(r"\bof 1 portfolios\b")


def _vocabularies(action: str, object_type: str) -> dict[str, Mapping[str, str]]:
    """field -> {stored value: screen word} for an event."""
    if action.startswith(("target_portfolio.", "record_of_advice.")):
        return {"status": TP_KEY_LABELS}
    if action.startswith("trade_instruction."):
        return {"status": TIStatus.value_titles()}
    if object_type == "user":
        return {"status": {st.value: st.title for st in UserStatus}, "role": Role.value_titles()}
    if object_type == "model":
        return {"status": MODEL_STATUS_TITLES, "allocation_method": METHOD_TITLES, "availability": AVAILABILITY_TITLES}
    if object_type == "bulk_run":
        return {"kind": RUN_KINDS}
    if object_type == "broker_file":
        return {"kind": FILE_TITLES}
    return {}


def field_words(key: str) -> str:
    """'not_enough_cash' -> 'Not enough cash'."""
    if key in FIELD_WORDS:
        return FIELD_WORDS[key]
    words = key.strip("_").replace("_", " ")
    return words[:1].upper() + words[1:] if words else key


def value_words(value: Any, vocabulary: Mapping[str, str] | None = None) -> str:
    """A stored value as the screens show it."""
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    if vocabulary and str(value) in vocabulary:
        return vocabulary[str(value)]
    if isinstance(value, (int, Decimal, float)) or (isinstance(value, str) and _NUMBER.match(value)):
        try:
            return number_text(Decimal(str(value)))
        except InvalidOperation:
            return str(value)
    return str(value)


def change_lines(action: str, object_type: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """One line per field, by field name: 'Status: Validation Required -> Approval Required' (only an
    after: 'Kind: Target portfolios'). A draft flagged not enough cash reads as Not Enough Cash."""
    words = _vocabularies(action, object_type)
    if words.get("status") is TP_KEY_LABELS:
        after = dict(after)
        if after.get("not_enough_cash") and after.get("status") == "draft":
            after["status"] = NOT_ENOUGH_CASH
            after.pop("not_enough_cash")
    lines = []
    for key in sorted(set(before) | set(after)):
        vocabulary = words.get(key)
        if key in before:
            lines.append(f"{field_words(key)}: {value_words(before.get(key), vocabulary)} -> "
                         f"{value_words(after.get(key), vocabulary)}")
        else:
            lines.append(f"{field_words(key)}: {value_words(after.get(key), vocabulary)}")
    return lines


def object_words(label: str) -> str:
    """An object's stored label as the screens say it ('... of 1 portfolios' -> '... of 1 portfolio')."""
    return _COUNTED.sub("of 1 portfolio", label or "")
