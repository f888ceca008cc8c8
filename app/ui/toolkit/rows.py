"""Row types several screens hold (a screen's own rows live with its state)."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Option:
    """A choice of a select: what is sent and what is shown."""

    value: str = ""
    label: str = ""


@dataclasses.dataclass
class Detail:
    """One line of a details list: a label and its value as shown."""

    label: str = ""
    value: str = ""
