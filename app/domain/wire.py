"""How a typed value names a field in the REST payloads, where the payload's name (the
specification's, e.g. 'ProviderProductType', 'class') is not the field's own: the field's
metadata carries it, and the API's renderer (app.api.schemas.rendered) writes it under that name.

    product_type: str = field(metadata=wire("ProviderProductType"))
"""
from __future__ import annotations

WIRE = "wire"  # the metadata key


def wire(name: str) -> dict[str, str]:
    """The metadata of a field named `name` in the payloads."""
    return {WIRE: name}
