"""Reference data a firm may use (asset classes, asset types, assets): the shared rows (no firm)
plus the firm's own. The one place that writes that clause."""
from __future__ import annotations

from typing import Iterable

from sqlalchemy import or_
from sqlmodel import Session, col, select


def own_or_shared(column, firm_id: int | None):
    """WHERE clause on a table's firm column: the shared rows plus `firm_id`'s own; only the shared
    rows when no firm is given."""
    return column.is_(None) if firm_id is None else or_(column.is_(None), column == firm_id)


def usable_ids(s: Session, table, ids: Iterable[int], firm_id: int | None) -> set[int]:
    """Those of `ids` that name rows of `table` (asset classes, asset types) the firm may use."""
    ids = set(ids)
    if not ids:
        return set()
    return set(s.exec(select(table.id).where(col(table.id).in_(ids), own_or_shared(table.firm_id, firm_id))).all())
