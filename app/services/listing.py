"""Shared list mechanics: page-size and sort whitelists (never getattr on a client string)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Mapping, TypeVar

PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 100
MAX_LIMIT = 1000
Row = TypeVar("Row")


def page(limit: int | str | None, offset: int | str | None, default: int = DEFAULT_PAGE_SIZE) -> tuple[int, int]:
    """A page's limit (within 1..MAX_LIMIT, `default` when none or not a number) and offset (0 or more)."""
    try:
        limit_i = int(limit) if limit not in (None, "") else default
    except (TypeError, ValueError):
        limit_i = default
    try:
        offset_i = int(offset) if offset not in (None, "") else 0
    except (TypeError, ValueError):
        offset_i = 0
    return max(1, min(limit_i, MAX_LIMIT)), max(0, offset_i)


def order_by(sort: object, order: object, columns: Mapping[str, Any], default: str) -> list[Any]:
    """SQL ORDER BY clauses for a whitelisted sort key; `columns` maps a key to one column or a tuple."""
    key = sort if isinstance(sort, str) and sort in columns else default
    descending = str(order or "").lower() in ("desc", "descending", "-1")
    cols = columns[key] if isinstance(columns[key], (tuple, list)) else (columns[key],)
    return [c.desc() if descending else c.asc() for c in cols]


@dataclass(frozen=True)
class Page(Generic[Row]):
    """A page of a list and the count of all the rows that match."""

    rows: tuple[Row, ...]
    total: int
