"""How a typed value names a field in the REST payloads, where the payload's name (the
specification's, e.g. 'ProviderProductType', 'class') is not the field's own: the field's
metadata carries it, and the API's renderer (app.api.schemas.rendered) writes it under that name.

    product_type: str = field(metadata=wire("ProviderProductType"))
"""
from __future__ import annotations

import dataclasses
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any

WIRE = "wire"  # the metadata key


def wire(name: str) -> dict[str, str]:
    """The metadata of a field named `name` in the payloads."""
    return {WIRE: name}


def rendered(value: Any) -> Any:
    """A service's typed value as its payload reads it (the API's answers, and the JSON a service
    keeps, such as a model version's snapshot): a dataclass as the object of its fields (by the
    name `wire` gives it where the payload's differs), Decimal as its digits ('1234.50': the service
    rounds to the places it shows), a day or an instant in ISO 8601 (as
    app.domain.timezones.iso_json writes it), an enum as its value; lists, tuples and dicts item
    by item. Anything else is already JSON."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.metadata.get(WIRE, item.name): rendered(getattr(value, item.name))
                for item in dataclasses.fields(value)}
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
