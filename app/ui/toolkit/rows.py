"""Row types several screens hold (a screen's own rows live with its state)."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Option:
    """A choice of a select: what is sent and what is shown."""

    value: str = ""
    label: str = ""


@dataclasses.dataclass
class ClassBand:
    """An asset class with its target allocation and band, as a model or portfolio form edits them."""

    class_id: int = 0
    title: str = ""
    is_cash: bool = False
    allocation: str = ""
    min: str = ""
    max: str = ""


@dataclasses.dataclass
class Detail:
    """One line of a details list: a label and its value as shown."""

    label: str = ""
    value: str = ""
