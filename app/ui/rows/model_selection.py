"""A model as the bulk screens' model selection lists it."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class BulkModelRow:
    id: int = 0
    name: str = ""
    firm: str = ""
    method: str = ""  # the allocation method's title (bulk calculation shows it)
    status: str = ""
    status_title: str = ""
