"""What the model screens show of a model: the rows of the list, the lines of the form as typed (and
what the service reads of them), the details' cards and the history's rows, built from the service's
read models (app.services.models)."""
from __future__ import annotations

import dataclasses
from typing import Any

from app.domain import rich_text
from app.domain.allocations import allocation_total
from app.domain.models import AllocationMethod, Availability
from app.domain.timezones import iso_json
from app.services.models import (
    AssetBrief, AssetFacts, DetailAsset as ModelDetailAsset, ModelAssetLine, ModelClassLine, ModelDetail, ModelGroupLine,
    ModelSummary, ModelTypeLine,
)
from app.ui.display import NA, input_number as _num_text, percent_1dp, price_up_to_4dp, sign_of, text as _text
from app.ui.parse import to_int as _int
from app.ui.toolkit.rows import AllocationRange, ClassBand


RANGE_FIELDS = ("allocation", "min", "max")


def blank_as_none(text: str) -> str | None:
    text = (text or "").strip()
    return text or None


def whole_number_text(text: str) -> str | None:
    """A whole number as its digits ('007' -> '7'); anything else as typed, for the service to name it."""
    text = (text or "").strip()
    if not text:
        return None
    number = _int(text)
    return str(number) if number is not None else text


def without(lines: list[Any], i: int) -> list[Any]:
    """`lines` less row i (a new list, so the change is sent)."""
    return [line for k, line in enumerate(lines) if k != i]


def classes_total(classes: list["ClassLine"], percentages: list["PercentLine"], method: str):
    """What the class-allocation bar shows: the class allocations; for the percentages method the
    asset percentages plus the cash class's own allocation (as app.domain.model_rules adds them)."""
    if method == AllocationMethod.PERCENTAGES.value:
        cash = [c.allocation for c in classes if c.is_cash]
        return allocation_total([p.allocation for p in percentages] + cash)
    return allocation_total([c.allocation for c in classes])


def model_commentaries(model: ModelDetail) -> tuple[str, str]:
    """(market, recommendation): the model's two commentaries."""
    return rich_text.as_html(model.commentary("market")), rich_text.as_html(model.commentary("recommendation"))


@dataclasses.dataclass
class ModelRow:
    id: int = 0
    name: str = ""
    status: str = ""
    status_title: str = ""
    method_title: str = ""
    firm_name: str = ""
    availability_title: str = ""
    assets_count: int = 0
    updated_at: str = ""
    can_edit: bool = False


@dataclasses.dataclass
class AssetRef:
    """An asset a line of the form names (an alternate, a side of an equivalence): id 0 when none is chosen."""

    id: int = 0
    code: str = ""
    name: str = ""


@dataclasses.dataclass
class AssetLine:
    asset_id: int = 0
    code: str = ""
    name: str = ""
    alt: AssetRef = dataclasses.field(default_factory=AssetRef)
    priority: str = ""


@dataclasses.dataclass
class ClassLine(ClassBand):
    assets_limit: str = ""
    priority: str = ""
    assets: list[AssetLine] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class TypeLine(AllocationRange):
    type_id: int = 0
    title: str = ""


@dataclasses.dataclass
class GroupLine(AllocationRange):
    industry_group_id: int = 0
    title: str = ""
    color: str = ""
    priority: str = ""


@dataclasses.dataclass
class EquivalentLine:
    asset: AssetRef = dataclasses.field(default_factory=AssetRef)
    eq: AssetRef = dataclasses.field(default_factory=AssetRef)


@dataclasses.dataclass
class PercentLine:
    asset_id: int = 0
    class_id: int = 0
    class_title: str = ""
    code: str = ""
    name: str = ""
    allocation: str = ""
    alt: AssetRef = dataclasses.field(default_factory=AssetRef)


@dataclasses.dataclass
class ClassOption:
    id: int = 0
    title: str = ""
    is_cash: bool = False


@dataclasses.dataclass
class GroupOption:
    id: int = 0
    title: str = ""
    color: str = ""


@dataclasses.dataclass
class AssetFigures:
    """What a details card shows of an asset (and again of its alternate): its code, name, price and
    returns, each return with its sign (up, down or flat) for the colour."""

    code: str = ""
    name: str = ""
    price: str = ""
    one_month: str = ""
    one_month_sign: str = ""
    since_inclusion: str = ""
    since_inclusion_sign: str = ""
    dividend_yield: str = ""
    dividend_yield_sign: str = ""


@dataclasses.dataclass
class DetailAsset:
    asset_id: int = 0
    url: str = ""
    group_title: str = ""
    group_color: str = ""
    figures: AssetFigures = dataclasses.field(default_factory=AssetFigures)
    has_alt: bool = False
    alt: AssetFigures = dataclasses.field(default_factory=AssetFigures)


@dataclasses.dataclass
class DetailClass:
    class_id: int = 0
    title: str = ""
    allocation: str = ""
    assets: list[DetailAsset] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class HistoryRow:
    version: int = 0
    created_at: str = ""
    who: str = ""
    current: bool = False


def availability_label(value: str) -> str:
    """The model's title of an availability, but the screens name every firm's in full."""
    return "All firms" if value == Availability.ALL else Availability.title_of(value)


def model_row(model: ModelSummary) -> ModelRow:
    return ModelRow(
        id=model.id, name=model.name, status=model.status, status_title=model.status_title,
        method_title=model.allocation_method_title, firm_name=_text(model.firm.name),
        availability_title=availability_label(model.availability), assets_count=model.assets_count,
        updated_at=_text(iso_json(model.updated_at)), can_edit=model.can_edit,
    )


def priority_text(priority: int | None, index: int) -> str:
    return _text(priority if priority is not None else index + 1)


def asset_ref(asset: AssetBrief | None) -> AssetRef:
    """An asset a saved line names (none: id 0)."""
    return AssetRef() if asset is None else AssetRef(id=asset.id, code=_text(asset.code), name=_text(asset.name))


def asset_line(entry: ModelAssetLine, index: int) -> AssetLine:
    return AssetLine(asset_id=entry.asset_id, code=_text(entry.code), name=_text(entry.name),
                     alt=asset_ref(entry.alt_asset), priority=priority_text(entry.priority, index))


def ranges_shown(entry: ModelClassLine | ModelTypeLine | ModelGroupLine) -> dict[str, str]:
    """allocation, min and max of a saved line as the form shows them."""
    return {"allocation": _num_text(entry.allocation), "min": _num_text(entry.min), "max": _num_text(entry.max)}


def range_form(line: AllocationRange) -> dict[str, str | None]:
    """allocation, min and max of a line on the form as the service reads them."""
    return {"allocation": blank_as_none(line.allocation), "min": blank_as_none(line.min), "max": blank_as_none(line.max)}


def range_typed(line: AllocationRange) -> bool:
    """Something is typed in the line's allocation, min or max (a type line left empty is not sent)."""
    return any(getattr(line, key).strip() for key in RANGE_FIELDS)


def class_line(entry: ModelClassLine, index: int) -> ClassLine:
    return ClassLine(class_id=entry.class_id, title=_text(entry.title), is_cash=entry.is_cash,
                     assets_limit=_text(entry.assets_limit), priority=priority_text(entry.priority, index),
                     assets=[asset_line(a, j) for j, a in enumerate(entry.assets)], **ranges_shown(entry))


def asset_figures(asset: AssetFacts) -> AssetFigures:
    return AssetFigures(
        code=asset.code, name=asset.name, price=price_up_to_4dp(asset.price),
        one_month=percent_1dp(asset.one_month_return, NA), one_month_sign=sign_of(asset.one_month_return),
        since_inclusion=percent_1dp(asset.since_inclusion_return, NA),
        since_inclusion_sign=sign_of(asset.since_inclusion_return),
        dividend_yield=percent_1dp(asset.dividend_yield, NA), dividend_yield_sign=sign_of(asset.dividend_yield),
    )


def detail_asset(entry: ModelDetailAsset) -> DetailAsset:
    group, alt = entry.industry_group, entry.alt_asset
    return DetailAsset(asset_id=entry.asset_id, url=_text(entry.url),
                       group_title=_text(group.title) if group is not None else "",
                       group_color=_text(group.color) if group is not None else "", figures=asset_figures(entry),
                       has_alt=alt is not None, alt=asset_figures(alt) if alt is not None else AssetFigures())
