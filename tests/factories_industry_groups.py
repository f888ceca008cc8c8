"""Test data for industry groups: groups, assets linked to them and model allocations, written
straight to the tables (the `db` fixture empties every table after each test)."""
from __future__ import annotations

import itertools
from typing import Any

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetClass, IndustryGroup, Model, ModelIndustryGroup

_counter = itertools.count(1)


def make_group(title: str | None = None, color: str = "#3e63dd", idx: int | None = None) -> IndustryGroup:
    with session_scope() as s:
        if idx is None:
            idx = len(s.exec(select(IndustryGroup.id)).all())
        group = IndustryGroup(title=title or f"Group {next(_counter):04d}", color=color, idx=idx)
        s.add(group)
        s.flush()
        return group


def make_groups(*titles: str) -> list[IndustryGroup]:
    return [make_group(t) for t in titles]


def _equities_class_id() -> int:
    with session_scope() as s:
        found = s.exec(select(AssetClass).where(AssetClass.title == "Australian Equities")).first()
        if found is None:
            found = AssetClass(title="Australian Equities", is_cash=False)
            s.add(found)
            s.flush()
        return found.id


def make_asset(group: IndustryGroup | int | None, code: str | None = None, firm_id: int | None = None) -> Asset:
    class_id = _equities_class_id()
    group_id = group.id if isinstance(group, IndustryGroup) else group
    with session_scope() as s:
        asset = Asset(code=code or f"T{next(_counter):04d}", name="Test asset", class_id=class_id,
                      industry_group_id=group_id, firm_id=firm_id)
        s.add(asset)
        s.flush()
        return asset


def make_model_allocation(firm_id: int, group: IndustryGroup, allocation: str = "20") -> ModelIndustryGroup:
    from decimal import Decimal

    with session_scope() as s:
        model = Model(firm_id=firm_id, name=f"Model {next(_counter):04d}")
        s.add(model)
        s.flush()
        row = ModelIndustryGroup(model_id=model.id, industry_group_id=group.id, allocation=Decimal(allocation))
        s.add(row)
        s.flush()
        return row


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
