"""Small builders for the engine tests: models, holdings and snapshots in a line each."""
from __future__ import annotations

from decimal import Decimal as D
from typing import Any

from app.domain import engine as E
from app.domain.model_spec import (
    EQUAL_AMOUNTS, PERCENTAGES, AssetRef, ClassSpec, EquivalentSpec, IndustryGroupSpec, ModelAssetSpec, ModelSpec,
)

CASH = 1  # the cash class id in these tests


class A:
    """A listed asset of the test universe."""

    def __init__(self, asset_id: int, code: str, price: Any, group: int | None = None, class_id: int | None = None):
        self.id = asset_id
        self.code = code
        self.price = None if price is None else D(str(price))
        self.group = group
        self.class_id = class_id

    def ref(self, class_id: int) -> AssetRef:
        return AssetRef(self.id, self.code, self.class_id or class_id, None, self.group, self.price)


def C(class_id: int, allocation: Any, *assets: Any, min: Any = None, max: Any = None, limit: int | None = None,
      title: str | None = None, cash: bool = False, priority: int | None = None, pct: dict | None = None,
      alt: dict | None = None) -> dict:
    return dict(class_id=class_id, allocation=D(str(allocation)), assets=assets, min=None if min is None else D(str(min)),
                max=None if max is None else D(str(max)), limit=limit, title=title or f"Class {class_id}",
                cash=cash or class_id == CASH, priority=priority, pct=pct or {}, alt=alt or {})


def M(*classes: dict, method: str = EQUAL_AMOUNTS, equivalents: tuple = (), groups: tuple = (), analyst: bool = True,
      group_allocation: bool = True, model_id: int = 1, version: int = 1, name: str = "Test model") -> ModelSpec:
    specs = []
    for i, c in enumerate(classes):
        assets = []
        for j, a in enumerate(c["assets"]):
            pct = c["pct"].get(a.code)
            alternate = c["alt"].get(a.code)
            assets.append(ModelAssetSpec(
                asset=a.ref(c["class_id"]), priority=j + 1,
                alternate=alternate.ref(c["class_id"]) if alternate is not None else None,
                percentage=None if pct is None else D(str(pct)), included_at=None, inclusion_price=None))
        specs.append(ClassSpec(class_id=c["class_id"], title=c["title"], is_cash=c["cash"], allocation=c["allocation"],
                               min=c["min"], max=c["max"], assets_limit=c["limit"],
                               priority=c["priority"] if c["priority"] is not None else i + 1, assets=tuple(assets)))
    return ModelSpec(
        id=model_id, firm_id=1, name=name, status="active", allocation_method=method, availability="all",
        version=version, analyst_recommendations=analyst, class_allocation=True, type_allocation=False,
        industry_group_allocation=group_allocation, deleted=False, classes=tuple(specs),
        industry_groups=tuple(IndustryGroupSpec(g[0], D(str(g[1])), None, D(str(g[2])) if len(g) > 2 and g[2] is not None else None, i + 1)
                              for i, g in enumerate(groups)),
        equivalents=tuple(EquivalentSpec(a.id, b.id) for a, b in equivalents),
    )


def H(asset: A, units: Any, class_id: int = 2, price: Any = "model") -> E.Holding:
    p = asset.price if price == "model" else (None if price is None else D(str(price)))
    return E.Holding(asset.id, asset.code, asset.class_id or class_id, asset.group, D(str(units)), p)


def Q(asset: A, class_id: int = 2) -> E.AssetQuote:
    return E.AssetQuote(asset.id, asset.code, asset.class_id or class_id, asset.group, asset.price)


def S(model: ModelSpec, cash: Any = 0, holdings: tuple = (), **kw: Any) -> E.Snapshot:
    settings = kw.pop("settings", None) or E.PortfolioSettings(**kw.pop("limits", {}))
    return E.Snapshot(model=model, holdings=tuple(holdings), cash=D(str(cash)), settings=settings, **kw)


def rec(asset: A, action: str | None = None, price: Any = None, comment: str | None = None,
        long_term: str | None = None) -> E.Recommendation:
    return E.Recommendation(asset.id, action=action, limit_price=None if price is None else D(str(price)),
                            comment=comment, long_term=long_term, long_term_comment=comment if long_term else None)


def by_code(target: E.Target) -> dict[str, E.AssetTarget]:
    return {a.code: a for a in target.assets}


def codes(asset: E.AssetTarget) -> set[str]:
    return {r.code for r in asset.reasons}


def cls_of(target: E.Target, class_id: int) -> E.AllocationTarget:
    return next(c for c in target.classes if c.id == class_id)


__all__ = ["A", "C", "CASH", "D", "EQUAL_AMOUNTS", "H", "M", "PERCENTAGES", "Q", "S", "by_code", "cls_of", "codes", "rec"]
