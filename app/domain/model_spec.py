"""A model as the calculation engine reads it: an immutable tree, loaded in a few queries for any
number of models (app.services.models.load_models_for_engine). Percentages are Decimals
(0..100), never floats. Classes are ordered by priority, assets inside a class by priority."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Iterator

from app.domain.allocations import ClassAllocation

EQUAL_AMOUNTS = "equal_amounts"
PERCENTAGES = "percentages"


@dataclass(frozen=True)
class AssetRef:
    """A listed asset as the model refers to it."""

    id: int
    code: str
    class_id: int
    type_id: int | None
    industry_group_id: int | None
    last_close_price: Decimal | None


@dataclass(frozen=True)
class ModelAssetSpec:
    asset: AssetRef
    priority: int
    alternate: AssetRef | None  # bought instead when the asset cannot be (spec: alternates)
    percentage: Decimal | None  # percentages method: the asset's share of the portfolio
    included_at: datetime | None
    inclusion_price: Decimal | None

    @property
    def asset_id(self) -> int:
        return self.asset.id


@dataclass(frozen=True)
class ClassSpec(ClassAllocation):
    assets_limit: int | None
    priority: int
    assets: tuple[ModelAssetSpec, ...] = ()


@dataclass(frozen=True)
class TypeSpec:
    type_id: int
    allocation: Decimal | None
    min: Decimal | None
    max: Decimal | None


@dataclass(frozen=True)
class IndustryGroupSpec:
    industry_group_id: int
    allocation: Decimal | None
    min: Decimal | None
    max: Decimal | None
    priority: int


@dataclass(frozen=True)
class EquivalentSpec:
    asset_id: int
    eq_asset_id: int


@dataclass(frozen=True)
class ModelSpec:
    id: int
    firm_id: int
    name: str
    status: str
    allocation_method: str
    availability: str
    version: int
    analyst_recommendations: bool
    class_allocation: bool
    type_allocation: bool
    industry_group_allocation: bool
    deleted: bool
    classes: tuple[ClassSpec, ...] = ()
    types: tuple[TypeSpec, ...] = ()
    industry_groups: tuple[IndustryGroupSpec, ...] = ()
    equivalents: tuple[EquivalentSpec, ...] = ()

    @property
    def is_percentages(self) -> bool:
        return self.allocation_method == PERCENTAGES

    @property
    def cash_class(self) -> ClassSpec | None:
        return next((c for c in self.classes if c.is_cash), None)

    def assets(self) -> Iterator[tuple[ClassSpec, ModelAssetSpec]]:
        """Every (class, asset) pair in class then asset priority order."""
        for cls in self.classes:
            for asset in cls.assets:
                yield cls, asset

    @property
    def asset_ids(self) -> frozenset[int]:
        return frozenset(a.asset.id for _, a in self.assets())

    def percentages(self) -> dict[int, Decimal]:
        """asset id -> percentage of the portfolio (percentages method; assets without one are absent)."""
        return {a.asset.id: a.percentage for _, a in self.assets() if a.percentage is not None}

    def equivalents_of(self, asset_id: int) -> tuple[int, ...]:
        """The assets equivalent to `asset_id`, in either direction of the pairs."""
        out: list[int] = []
        for pair in self.equivalents:
            if pair.asset_id == asset_id and pair.eq_asset_id not in out:
                out.append(pair.eq_asset_id)
            elif pair.eq_asset_id == asset_id and pair.asset_id not in out:
                out.append(pair.asset_id)
        return tuple(out)
