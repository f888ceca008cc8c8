"""A model prepared once for many portfolios: classes and assets in priority order, the
equivalents as a lookup, the model's consistency checked. `prepare_model` caches by model id and
version (checking that the cached entry was made from an equal ModelSpec), so a bulk run over
thousands of portfolios of the same model prepares it once."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from app.domain.engine import errors as E
from app.domain.model_spec import ClassSpec, ModelAssetSpec, ModelSpec
from app.domain.money import number_text

ZERO = Decimal(0)
HUNDRED = Decimal(100)
CACHE_SIZE = 512


class KnownAsset(Protocol):
    """What the calculation knows of a listed asset: a model's AssetRef, a snapshot's AssetQuote
    or Holding as it is (no copy per asset), or an AssetInfo where a price had to be filled in."""

    # read-only members, so that frozen dataclasses (AssetRef, AssetQuote, Holding) are KnownAssets
    @property
    def code(self) -> str: ...
    @property
    def class_id(self) -> int: ...
    @property
    def industry_group_id(self) -> int | None: ...
    @property
    def last_close_price(self) -> Decimal | None: ...  # positive, or None when unknown (cannot be valued or bought)


@dataclass(frozen=True, slots=True)
class AssetInfo:
    """A KnownAsset whose price is not its source's (not positive: None, or another source's)."""

    code: str
    class_id: int
    industry_group_id: int | None
    last_close_price: Decimal | None


def known_asset(source: KnownAsset) -> KnownAsset:
    """`source` itself when its price is usable (positive or None), else a copy without it."""
    price = source.last_close_price
    if price is None or price > 0:
        return source
    return AssetInfo(source.code, source.class_id, source.industry_group_id, None)


@dataclass(frozen=True)
class PreparedAsset:
    spec: ModelAssetSpec
    asset_id: int
    class_id: int
    priority: int
    rank: int  # position in the whole model: class priority, then asset priority
    percentage: Decimal  # percentages method (0 when unset under equal amounts)


@dataclass(frozen=True)
class PreparedClass:
    class_id: int
    title: str
    is_cash: bool
    allocation: Decimal  # the model's class allocation (percentages: the assets' total, cash: its own + assets')
    min: Decimal | None
    max: Decimal | None
    assets_limit: int | None
    priority: int
    rank: int
    assets: tuple[PreparedAsset, ...]
    percentage_total: Decimal  # the sum of the assets' percentages


@dataclass(frozen=True)
class PreparedModel:
    spec: ModelSpec
    classes: tuple[PreparedClass, ...]
    class_by_id: dict[int, PreparedClass]
    cash_class_id: int | None
    asset_ids: frozenset[int]
    equivalents: dict[int, tuple[int, ...]]  # asset id -> equivalent asset ids, in the model's order
    percentages: bool
    problems: tuple[tuple[str, str], ...]  # (code, message): inconsistencies found
    total_allocation: Decimal
    info: dict[int, KnownAsset]  # asset id -> what is known of it: model assets, alternates

    def check(self, custom_classes: bool) -> None:
        """Raise the first problem that matters: the class total does not when the portfolio uses
        its own class allocation."""
        for code, message in self.problems:
            if code == "model_total" and custom_classes:
                continue
            raise E.CalculationError(code, message)


def _build(spec: ModelSpec) -> PreparedModel:
    percentages = spec.is_percentages
    ordered: list[ClassSpec] = sorted(spec.classes, key=lambda c: c.priority)  # stable: loader order on ties
    problems: list[tuple[str, str]] = []
    classes: list[PreparedClass] = []
    asset_ids: list[int] = []
    rank = 0
    for class_rank, cls in enumerate(ordered):
        assets: list[PreparedAsset] = []
        pct_total = ZERO
        for a in sorted(cls.assets, key=lambda x: x.priority):
            pct = a.percentage if a.percentage is not None else ZERO
            if percentages and a.percentage is None:
                problems.append(("model_percentage", E.MODEL_PERCENTAGE_MISSING.format(model=spec.name, code=a.asset.code)))
            pct_total += pct
            assets.append(PreparedAsset(a, a.asset.id, cls.class_id, a.priority, rank, pct))
            asset_ids.append(a.asset.id)
            rank += 1
        allocation = cls.allocation if cls.allocation is not None else ZERO
        if percentages:
            if not cls.is_cash and allocation != pct_total:
                problems.append(("model_percentage", E.MODEL_CLASS_PERCENTAGES.format(
                    model=spec.name, title=cls.title, total=number_text(pct_total),
                    allocation=number_text(allocation))))
            if cls.is_cash and allocation < pct_total:
                problems.append(("model_percentage", E.MODEL_CLASS_PERCENTAGES.format(
                    model=spec.name, title=cls.title, total=number_text(pct_total),
                    allocation=number_text(allocation))))
        classes.append(PreparedClass(
            class_id=cls.class_id, title=cls.title, is_cash=cls.is_cash, allocation=allocation, min=cls.min,
            max=cls.max, assets_limit=cls.assets_limit, priority=cls.priority, rank=class_rank,
            assets=tuple(assets), percentage_total=pct_total,
        ))
    cash = next((c for c in classes if c.is_cash), None)
    if cash is None:
        problems.insert(0, ("no_cash_class", E.NO_CASH_CLASS.format(model=spec.name)))
    total = sum((c.allocation for c in classes), ZERO)
    if total != HUNDRED:
        problems.append(("model_total", E.MODEL_TOTAL.format(model=spec.name, total=number_text(total))))
    equivalents: dict[int, list[int]] = {}
    for pair in spec.equivalents:
        for one, other in ((pair.asset_id, pair.eq_asset_id), (pair.eq_asset_id, pair.asset_id)):
            if one == other:
                continue
            seen = equivalents.setdefault(one, [])
            if other not in seen:
                seen.append(other)
    info: dict[int, KnownAsset] = {}
    for prepared in classes:
        for pa in prepared.assets:
            ref = pa.spec.asset
            info[ref.id] = known_asset(ref)
    for prepared in classes:
        for pa in prepared.assets:
            alt = pa.spec.alternate
            if alt is not None and alt.id not in info:
                info[alt.id] = known_asset(alt)
    return PreparedModel(
        spec=spec, info=info, classes=tuple(classes), class_by_id={c.class_id: c for c in classes},
        cash_class_id=cash.class_id if cash else None, asset_ids=frozenset(asset_ids),
        equivalents={k: tuple(v) for k, v in equivalents.items()}, percentages=percentages,
        problems=tuple(problems), total_allocation=total,
    )


_cache: dict[tuple[int, int], PreparedModel] = {}
_lock = threading.Lock()


def prepare_model(spec: ModelSpec) -> PreparedModel:
    """The prepared model, made once per model id and version (and rebuilt when a different
    ModelSpec arrives under the same key, e.g. a draft edited in place)."""
    key = (spec.id, spec.version)
    cached = _cache.get(key)
    if cached is not None and (cached.spec is spec or cached.spec == spec):
        return cached
    prepared = _build(spec)
    with _lock:
        if len(_cache) >= CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = prepared
    return prepared


def clear_cache() -> None:
    with _lock:
        _cache.clear()
