"""Row types several screens hold (a screen's own rows live with its state)."""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Mapping

from app.ui.display import text


@dataclasses.dataclass
class Option:
    """A choice of a select: what is sent and what is shown."""

    value: str = ""
    label: str = ""


def options_of(found: Iterable[Mapping[str, Any]], label: str = "name") -> list[Option]:
    """A select's choices from a service's rows: each row's id, shown by its `label` field."""
    return [Option(value=str(row["id"]), label=text(row[label])) for row in found]


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
