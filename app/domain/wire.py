"""How a typed value names a field in the REST payloads, where the payload's name (the
specification's, e.g. 'ProviderProductType', 'class') is not the field's own: the field's
metadata carries it, and the API's renderer (app.api.schemas.rendered) writes it under that name.

    product_type: str = field(metadata=wire("ProviderProductType"))

A field some answers carry only when it has a value (a warning, the first row's count of a page)
is marked so, and is left out of the payload when it is None:

    message: str | None = field(default=None, metadata=only_when_set())
"""
from __future__ import annotations

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
