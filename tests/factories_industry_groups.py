"""Reading industry groups and their model allocations back (groups and assets are made with
tests.factories_assets; a model allocating to a group with tests.factories_models.make_model)."""
from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import IndustryGroup, ModelIndustryGroup


def model_allocations(group_id: int) -> list[ModelIndustryGroup]:
    with session_scope() as s:
        return list(s.exec(select(ModelIndustryGroup).where(ModelIndustryGroup.industry_group_id == group_id)).all())


def group_rows() -> list[IndustryGroup]:
    """Every group in stored order."""
    with session_scope() as s:
        return list(s.exec(select(IndustryGroup).order_by(col(IndustryGroup.idx), col(IndustryGroup.id))).all())


def order() -> list[str]:
    return [g.title for g in group_rows()]


def state() -> list[tuple[Any, ...]]:
    """(id, title, color, idx) of every group: compare before and after a refused write."""
    return [(g.id, g.title, g.color, g.idx) for g in group_rows()]
