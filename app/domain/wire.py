"""How a typed value names a field in the REST payloads, where the payload's name (the
specification's, e.g. 'ProviderProductType', 'class') is not the field's own: the field's
metadata carries it, and the API's renderer (app.api.schemas.rendered) writes it under that name.

    product_type: str = field(metadata=wire("ProviderProductType"))

A field some answers carry only when it has a value (a warning, the first row's count of a page)
is marked so, and is left out of the payload when it is None:

    message: str | None = field(default=None, metadata=only_when_set())
"""
from __future__ import annotations

import dataclasses
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any

import orjson

WIRE = "wire"  # the metadata key
WHEN_SET = "when_set"  # the metadata key of a field left out when None

# A payload's free JSON (what a transaction keeps beside its columns: a comment, a description, the
# deposit forms' TransactionType and CutOffTime ...).
Json = str | int | float | bool | None | list["Json"] | dict[str, "Json"]


def wire(name: str) -> dict[str, str]:
    """The metadata of a field named `name` in the payloads."""
    return {WIRE: name}


def only_when_set() -> dict[str, bool]:
    """The metadata of a field the payload carries only when it is not None."""
    return {WHEN_SET: True}


def rendered(value: Any) -> Any:
    """A service's typed value as its payload reads it (the API's answers, and the JSON a service
    keeps, such as a model version's snapshot): a dataclass as the object of its fields (by the
    name `wire` gives it where the payload's differs), Decimal as its digits ('1234.50': the service
    rounds to the places it shows), a day or an instant in ISO 8601 (as
    app.domain.timezones.iso_json writes it), an enum as its value; lists, tuples and dicts item
    by item; a field marked only_when_set is left out while it is None. Anything else is already
    JSON."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.metadata.get(WIRE, item.name): rendered(getattr(value, item.name))
                for item in dataclasses.fields(value)
                if not (item.metadata.get(WHEN_SET) and getattr(value, item.name) is None)}
    if isinstance(value, (list, tuple)):
        return [rendered(item) for item in value]
    if isinstance(value, dict):
        return {key: rendered(item) for key, item in value.items()}
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def json_text(value: dict[str, Any]) -> str:
    """A payload kept as JSON text (a transaction's or a recommendation's `payload` column), as
    json.loads reads it back; written by orjson, since bulk runs and broker files store hundreds of
    thousands."""
    return orjson.dumps(value).decode()
