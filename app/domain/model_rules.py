"""Model form rules (spec 000 s4-s5): pure validation of a model form, no database.

`read_form(data)` reads the form as sent (a REST body, by the payload's names) into a ModelForm; the
model screen builds its ModelForm itself. `clean_model(form, cash_class_id=..., owner_required=...)`
returns `(values, errors, message)`:
- `values`: the ModelValues the service stores (Decimals, ints, bools);
- `errors`: {field: text} with keys as the form names them ("name", "allocation_classes.0.allocation",
  "allocation_classes.1.assets.0.asset_id", "equivalents.1", ...);
- `message`: None when the model may be saved, else the form-level text to show.

Rules:
- Always: the name; every number a percentage from 0 to 100 with at most 4 decimals; max greater
  than min; an asset in one class only; an alternate different from its asset; no class, type or
  industry group twice.
- Active saves only ("Fields are required when the status is active"): every class has an
  allocation and every row its selection; equivalents rows complete; class allocations total
  100 (percentages method: asset percentages plus the cash allocation); equal amounts: the sum of
  class max values at least 100 (an empty max counts as 100, no cap); industry groups total <= 100.
- Drafts need only a name: incomplete rows (no class, asset, type, group or equivalent chosen)
  are dropped, empty allocations are stored as 0.
The cash class (`cash_class_id`) is added with allocation 0 when the payload lacks it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

from app.domain import validators as v
from app.domain.allocations import check_allocation_row, chosen_id
from app.domain.errors import not_found
from app.domain.money import percent_trimmed_text as percent_text  # noqa: F401  (the form's text of a percentage)
from app.domain import rich_text
from app.domain.models import COMMENTARY_TYPES, AllocationMethod, Availability, ModelStatus, derive_availability
from app.domain.parsing import as_bool, as_id

# ---- texts (spec 000 s4, s5, s8) ------------------------------------------------------------------
INVALID_FORM = "Please, fill all required fields with valid data."
SELECT_ALL_EQUIVALENTS = "Please, select all equivalents"
TOTAL_ALLOCATION = "Total allocation has to be 100%."
INDUSTRY_GROUPS_TOTAL = "Industry groups total allocation has to be less or equal to 100%."
MAX_SUM = "Sum of Max allocations should be more than 100."
SELECT_FIRM = v.REQUIRED_SELECT.format(label="firm")  # 'Please, select firm. '
SELECT_SHARING_FIRM = "Please, select firm for sharing"
FIRM_CHANGE_CONFIRM = "Are you sure you want to change Firm? All added classes will be removed."
CREATED = {ModelStatus.ACTIVE: "Model created and activated.", ModelStatus.DRAFT: "Model created as draft."}
SAVED = {ModelStatus.ACTIVE: "Model saved and activated.", ModelStatus.DRAFT: "Model saved as draft."}
DELETED = "Model is deleted"
MODEL_CHANGED = "This model was changed by someone else. Reload it and apply your changes again."
VERSION_NOT_FOUND = not_found("Model version")
# Texts the specification does not give (kept short, in its style).
ASSET_NOT_AVAILABLE = "Asset {ref} is not available"
ASSETS_NOT_AVAILABLE = "Assets {refs} are not available"
ASSET_IN_TWO_CLASSES = "The asset is already in this model."
SAME_ALTERNATE = "The alternate asset must differ from the asset."
SAME_EQUIVALENT = "The equivalent must differ from the asset."
NAME_LABEL = "model name"

STATUS_TITLES = ModelStatus.value_titles()
METHOD_TITLES = {AllocationMethod.EQUAL_AMOUNTS.value: "Equal Amounts", AllocationMethod.PERCENTAGES.value: "Percentages"}
AVAILABILITY_TITLES = Availability.value_titles()

HUNDRED = Decimal(100)
PLACES = Decimal("0.0001")  # percentages are stored as NUMERIC(9,4)
NAME_MAX = 200
ASSETS_LIMIT_MAX = 10_000
COMMENTARY_MAX = 20_000


# ---- small parsers ------------------------------------------------------------------------------
def _int(value: Any) -> int | None:
    """A whole number (may be 0 or negative), or None when empty or not a whole number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("-")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 9:
        return None
    return sign * int(digits)


def _percent(value: Any) -> Decimal | None:
    """A validated percentage (check_allocation_row ran first) as a Decimal with 4 places."""
    number = v.parse_decimal(value)
    return None if number is None else number.quantize(PLACES, rounding=ROUND_HALF_UP)


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _choice(errors: v.FieldErrors, field: str, value: str | None, allowed: tuple[str, ...], default: str) -> str:
    text = _text(value) or default
    if text not in allowed:
        errors.check(field, v.DEFAULT)
        return default
    return text


def _allocation_fields(errors: v.FieldErrors, prefix: str, row: RangeForm) -> tuple[Decimal | None, Decimal | None,
                                                                                      Decimal | None]:
    """(allocation, min, max) of a row: numbers 0..100, max greater than min (shared row check)."""
    row_errors = check_allocation_row(row.allocation, row.min, row.max)
    out: list[Decimal | None] = []
    for key, value in (("allocation", row.allocation), ("min", row.min), ("max", row.max)):
        if key in row_errors:
            errors.check(f"{prefix}.{key}", row_errors[key])
            out.append(None)
        else:
            out.append(_percent(value))
    return out[0], out[1], out[2]


def _priority(errors: v.FieldErrors, field: str, value: str | None, default: int) -> int:
    if v.is_empty(value):
        return default
    number = _int(value)
    if number is None:
        errors.check(field, v.NUMBER)
        return default
    return number


# ---- the form as sent ------------------------------------------------------------------------------
# Each field of a form is the text that was sent (a number as its text), None when left out; the
# rules below check it with the specification's texts. A choice (a class, an asset, a type, ...) is
# an id: None when not sent (or empty), 0 when sent but naming no record. The switches are read as
# the flags they are.
@dataclass(frozen=True)
class RangeForm:
    """An allocation row's allocation, min and max as typed (% of the portfolio)."""
    allocation: str | None = None
    min: str | None = None
    max: str | None = None


@dataclass(frozen=True)
class AssetRowForm:
    asset_id: int | None = None
    alt_asset_id: int | None = None
    priority: str | None = None


@dataclass(frozen=True)
class ClassRowForm(RangeForm):
    class_id: int | None = None
    assets_limit: str | None = None
    priority: str | None = None
    assets: tuple[AssetRowForm, ...] = ()


@dataclass(frozen=True)
class TypeRowForm(RangeForm):
    type_id: int | None = None


@dataclass(frozen=True)
class GroupRowForm(RangeForm):
    industry_group_id: int | None = None
    priority: str | None = None


@dataclass(frozen=True)
class EquivalentRowForm:
    asset_id: int | None = None
    eq_asset_id: int | None = None


@dataclass(frozen=True)
class PercentageRowForm:
    """An asset's share of the model (percentages method) and the alternative picked on its row."""
    asset_id: int | None = None
    allocation: str | None = None
    alternative: int | None = None


@dataclass(frozen=True)
class CommentaryForm:
    type: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class ModelForm:
    """The model form (POST/PUT /api/models, the model screen) as sent."""
    name: str | None = None
    status: str | None = None
    allocation_method: str | None = None
    owner_id: int | None = None  # the owner firm a superuser chooses (ownerId)
    version: str | None = None  # the version the edit read (version, or version_id)
    investment: bool = False
    all: bool = False
    firms: tuple[int, ...] = ()  # the firms it is shared with (0: an entry naming no firm)
    analyst_recommendations: bool = True  # spec 000 s4: the four switches are on by default
    class_allocation: bool = True
    type_allocation: bool = True
    industry_group_allocation: bool = True
    allocation_classes: tuple[ClassRowForm, ...] = ()
    allocation_types: tuple[TypeRowForm, ...] = ()
    industry_groups_allocations: tuple[GroupRowForm, ...] = ()
    equivalents: tuple[EquivalentRowForm, ...] = ()
    assets_percentages_allocations: tuple[PercentageRowForm, ...] = ()
    commentaries: tuple[CommentaryForm, ...] = ()


def _sent_text(value: object) -> str | None:
    if value is None:
        return None
    return format(value, "f") if isinstance(value, Decimal) else str(value)


def _sent_id(value: object) -> int | None:
    """None when not sent (or empty); 0 when sent but naming no record."""
    return None if v.is_empty(value) else (as_id(value) or 0)


def _rows(data: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    """The rows sent under `key` (a row that is not an object reads as an empty row)."""
    rows = data.get(key) or []
    if not isinstance(rows, (list, tuple)):
        return []
    return [row if isinstance(row, Mapping) else {} for row in rows]


def _range(row: Mapping[str, object]) -> dict[str, str | None]:
    return {"allocation": _sent_text(row.get("allocation")), "min": _sent_text(row.get("min")),
            "max": _sent_text(row.get("max"))}


def _chosen(row: Mapping[str, object], field: str) -> int | None:
    """What an allocation row sent as its choice: `field`, or `id`."""
    return _sent_id(row.get(field, row.get("id")))


def read_form(data: Mapping[str, object]) -> ModelForm:
    """The form from the keys sent, by the payload's names (as the REST bodies carry them)."""
    if not isinstance(data, Mapping):
        data = {}
    firms = data.get("firms") or []
    version = data.get("version", data.get("version_id"))
    return ModelForm(
        name=_sent_text(data.get("name")), status=_sent_text(data.get("status")),
        allocation_method=_sent_text(data.get("allocation_method")), owner_id=as_id(data.get("ownerId")),
        version=_sent_text(version),
        investment=as_bool(data.get("investment")), all=as_bool(data.get("all")),
        firms=tuple(as_id(raw) or 0 for raw in (firms if isinstance(firms, (list, tuple)) else [firms])),
        analyst_recommendations=as_bool(data.get("analyst_recommendations"), default=True),
        class_allocation=as_bool(data.get("class_allocation"), default=True),
        type_allocation=as_bool(data.get("type_allocation"), default=True),
        industry_group_allocation=as_bool(data.get("industry_group_allocation"), default=True),
        allocation_classes=tuple(ClassRowForm(
            class_id=_chosen(row, "class_id"), assets_limit=_sent_text(row.get("assets_limit")),
            priority=_sent_text(row.get("priority")),
            assets=tuple(AssetRowForm(asset_id=_sent_id(a.get("asset_id")), alt_asset_id=_sent_id(a.get("alt_asset_id")),
                                      priority=_sent_text(a.get("priority"))) for a in _rows(row, "assets")),
            **_range(row)) for row in _rows(data, "allocation_classes")),
        allocation_types=tuple(TypeRowForm(type_id=_chosen(row, "type_id"), **_range(row))
                               for row in _rows(data, "allocation_types")),
        industry_groups_allocations=tuple(GroupRowForm(
            industry_group_id=_chosen(row, "industry_group_id"), priority=_sent_text(row.get("priority")), **_range(row))
            for row in _rows(data, "industry_groups_allocations")),
        equivalents=tuple(EquivalentRowForm(asset_id=_sent_id(row.get("asset_id")), eq_asset_id=_sent_id(row.get("eq_asset_id")))
                          for row in _rows(data, "equivalents")),
        assets_percentages_allocations=tuple(PercentageRowForm(
            asset_id=_sent_id(row.get("asset_id", row.get("id"))), allocation=_sent_text(row.get("allocation")),
            alternative=_sent_id(row.get("alternative"))) for row in _rows(data, "assets_percentages_allocations")),
        commentaries=tuple(CommentaryForm(type=_sent_text(row.get("type")), description=_sent_text(row.get("description")))
                           for row in _rows(data, "commentaries")),
    )


# ---- what the rules make of it --------------------------------------------------------------------
@dataclass(frozen=True)
class AssetValues:
    asset_id: int
    alt_asset_id: int | None
    priority: int
    percentage: Decimal | None  # the percentages method's share of the portfolio
    index: int  # the row's position on the form (for its errors)


@dataclass(frozen=True)
class ClassValues:
    class_id: int
    allocation: Decimal
    min: Decimal | None
    max: Decimal | None
    assets_limit: int | None
    priority: int
    assets: tuple[AssetValues, ...]
    index: int | None  # None: the cash class the rules added


@dataclass(frozen=True)
class TypeValues:
    type_id: int
    allocation: Decimal | None
    min: Decimal | None
    max: Decimal | None
    index: int


@dataclass(frozen=True)
class GroupValues:
    industry_group_id: int
    allocation: Decimal | None
    min: Decimal | None
    max: Decimal | None
    priority: int
    index: int


@dataclass(frozen=True)
class EquivalentValues:
    asset_id: int
    eq_asset_id: int
    index: int


@dataclass(frozen=True)
class CommentaryValues:
    type: str
    description: str


@dataclass(frozen=True)
class ModelValues:
    """The model the rules read from the form, as the service stores it."""
    name: str
    status: str
    allocation_method: str
    owner_id: int | None
    firms: tuple[int, ...]
    investment: bool
    all: bool
    availability: str
    analyst_recommendations: bool
    class_allocation: bool
    type_allocation: bool
    industry_group_allocation: bool
    classes: tuple[ClassValues, ...]
    types: tuple[TypeValues, ...]
    industry_groups: tuple[GroupValues, ...]
    equivalents: tuple[EquivalentValues, ...]
    commentaries: tuple[CommentaryValues, ...]
    version: int | None


# ---- the rules --------------------------------------------------------------------------------
def clean_model(form: ModelForm, *, cash_class_id: int | None = None,
                owner_required: bool = False) -> tuple[ModelValues, v.FieldErrors, str | None]:
    """Validate a model form (see the module text). `owner_required`: a superuser creating a
    model must choose the owner firm (ownerId)."""
    errors = v.FieldErrors()

    name = _text(form.name)
    errors.check("name", v.required(name, NAME_LABEL), v.max_length(name, NAME_MAX))
    status = _choice(errors, "status", form.status, tuple(s.value for s in ModelStatus), ModelStatus.DRAFT.value)
    method = _choice(errors, "allocation_method", form.allocation_method,
                     tuple(m.value for m in AllocationMethod), AllocationMethod.EQUAL_AMOUNTS.value)
    active = status == ModelStatus.ACTIVE.value
    percentages = method == AllocationMethod.PERCENTAGES.value

    if owner_required and form.owner_id is None:
        errors.check("ownerId", SELECT_FIRM)

    # availability: the two switches and the shared firms (kept whatever the availability)
    firms: list[int] = []
    for firm_id in form.firms:
        if not firm_id:
            errors.check("firms", SELECT_SHARING_FIRM)
        elif firm_id not in firms:
            firms.append(firm_id)

    # classes and their assets
    classes: list[ClassValues] = []
    class_of_asset: dict[int, int] = {}
    for ci, row in enumerate(form.allocation_classes):
        prefix = f"allocation_classes.{ci}"
        allocation, low, high = _allocation_fields(errors, prefix, row)
        limit_raw = row.assets_limit
        errors.check(f"{prefix}.assets_limit", v.number(limit_raw),
                     None if v.number(limit_raw) else v.greater_than(limit_raw, 0),
                     None if v.number(limit_raw) else v.less_than(limit_raw, ASSETS_LIMIT_MAX))
        assets_limit = None if v.is_empty(limit_raw) or f"{prefix}.assets_limit" in errors else int(str(limit_raw).strip())
        priority = _priority(errors, f"{prefix}.priority", row.priority, ci + 1)
        class_id = chosen_id(errors, prefix, "class_id", row.class_id, "class",
                             [{"class_id": c.class_id} for c in classes], required=active)
        if class_id is None:
            continue
        assets: list[AssetValues] = []
        for ai, asset_row in enumerate(row.assets):
            aprefix = f"{prefix}.assets.{ai}"
            asset_id = asset_row.asset_id or None
            alt_id = asset_row.alt_asset_id or None
            if asset_id is None:
                if active or asset_row.asset_id is not None:
                    errors.check(f"{aprefix}.asset_id", v.REQUIRED_SELECT.format(label="asset"))
                continue
            if asset_row.alt_asset_id is not None and alt_id is None:
                errors.check(f"{aprefix}.alt_asset_id", v.DEFAULT)
            if asset_id in class_of_asset:
                errors.check(f"{aprefix}.asset_id", ASSET_IN_TWO_CLASSES)
                continue
            if alt_id is not None and alt_id == asset_id:
                errors.check(f"{aprefix}.alt_asset_id", SAME_ALTERNATE)
                alt_id = None
            class_of_asset[asset_id] = class_id
            assets.append(AssetValues(asset_id=asset_id, alt_asset_id=alt_id,
                                      priority=_priority(errors, f"{aprefix}.priority", asset_row.priority, ai + 1),
                                      percentage=None, index=ai))
        if active and not percentages and allocation is None and f"{prefix}.allocation" not in errors:
            errors.check(f"{prefix}.allocation", v.REQUIRED.format(label="allocation"))
        classes.append(ClassValues(class_id=class_id, allocation=allocation or Decimal(0), min=low, max=high,
                                   assets_limit=assets_limit, priority=priority, assets=tuple(assets), index=ci))

    if cash_class_id is not None and not any(c.class_id == cash_class_id for c in classes):
        classes.append(ClassValues(class_id=cash_class_id, allocation=Decimal(0), min=None, max=None, assets_limit=None,
                                   priority=max([c.priority for c in classes], default=0) + 1, assets=(), index=None))

    # percentages method: a share of the portfolio per listed asset
    if percentages:
        shares: dict[int, tuple[int, Decimal | None]] = {}  # asset id -> (row index, percentage)
        alternatives: dict[int, int] = {}
        for pi, share_row in enumerate(form.assets_percentages_allocations):
            asset_id = share_row.asset_id or None
            if asset_id is None or asset_id not in class_of_asset:
                continue  # a row of an asset no longer listed in a class
            value = share_row.allocation
            err = v.float_(value) or v.positive(value) or (
                v.LESS_THAN.format(n=100) if (_percent(value) or 0) > HUNDRED else None)
            if err:
                errors.check(f"assets_percentages_allocations.{pi}.allocation", err)
                shares[asset_id] = (pi, None)
                continue
            shares[asset_id] = (pi, _percent(value))
            alt = share_row.alternative or None
            if alt is not None and alt != asset_id:
                alternatives[asset_id] = alt
        with_shares: list[ClassValues] = []
        for cls in classes:
            shared_assets: list[AssetValues] = []
            for asset in cls.assets:
                index, share = shares.get(asset.asset_id, (None, None))
                alt_id = asset.alt_asset_id if asset.alt_asset_id is not None else alternatives.get(asset.asset_id)
                shared_assets.append(replace(asset, percentage=share, alt_asset_id=alt_id))
                if share is None and active:
                    key = (f"assets_percentages_allocations.{index}.allocation" if index is not None
                           else f"assets_percentages_allocations.asset_{asset.asset_id}")
                    errors.check(key, v.REQUIRED.format(label="allocation"))
            in_assets = sum((a.percentage or Decimal(0) for a in shared_assets), Decimal(0))
            if cls.class_id != cash_class_id:
                allocation = in_assets  # a class's allocation is the sum of its assets' percentages
            elif shared_assets:
                allocation = cls.allocation + in_assets  # the cash class: its own allocation plus its assets'
            else:
                allocation = cls.allocation
            with_shares.append(replace(cls, allocation=allocation, assets=tuple(shared_assets)))
        classes = with_shares

    # types and industry groups
    types: list[TypeValues] = []
    for ti, type_row in enumerate(form.allocation_types):
        prefix = f"allocation_types.{ti}"
        allocation, low, high = _allocation_fields(errors, prefix, type_row)
        type_id = chosen_id(errors, prefix, "type_id", type_row.type_id, "type",
                            [{"type_id": t.type_id} for t in types], required=active)
        if type_id is None:
            continue
        types.append(TypeValues(type_id=type_id, allocation=allocation, min=low, max=high, index=ti))

    groups: list[GroupValues] = []
    for gi, group_row in enumerate(form.industry_groups_allocations):
        prefix = f"industry_groups_allocations.{gi}"
        allocation, low, high = _allocation_fields(errors, prefix, group_row)
        priority = _priority(errors, f"{prefix}.priority", group_row.priority, gi + 1)
        group_id = chosen_id(errors, prefix, "industry_group_id", group_row.industry_group_id, "industry group",
                             [{"industry_group_id": g.industry_group_id} for g in groups], required=active)
        if group_id is None:
            continue
        groups.append(GroupValues(industry_group_id=group_id, allocation=allocation, min=low, max=high,
                                  priority=priority, index=gi))

    # equivalents: both sides chosen (active saves); incomplete rows of a draft are dropped
    equivalents: list[EquivalentValues] = []
    incomplete: list[int] = []
    for ei, pair in enumerate(form.equivalents):
        asset_id, eq_id = pair.asset_id or None, pair.eq_asset_id or None
        if asset_id is None or eq_id is None:
            incomplete.append(ei)
            continue
        if asset_id == eq_id:
            errors.check(f"equivalents.{ei}", SAME_EQUIVALENT)
            continue
        if any((e.asset_id, e.eq_asset_id) == (asset_id, eq_id) for e in equivalents):
            continue  # the same pair twice is one pair
        equivalents.append(EquivalentValues(asset_id=asset_id, eq_asset_id=eq_id, index=ei))

    commentaries: list[CommentaryValues] = []
    for ki, commentary in enumerate(form.commentaries):
        description = rich_text.sanitise(commentary.description)
        if not description:
            continue
        kind = _choice(errors, f"commentaries.{ki}.type", commentary.type, COMMENTARY_TYPES, COMMENTARY_TYPES[0])
        errors.check(f"commentaries.{ki}.description", v.max_length(description, COMMENTARY_MAX))
        commentaries.append(CommentaryValues(type=kind, description=description))

    values = ModelValues(
        name=name, status=status, allocation_method=method, owner_id=form.owner_id, firms=tuple(firms),
        investment=form.investment, all=form.all,
        availability=derive_availability(form.investment, form.all, len(firms)).value,
        analyst_recommendations=form.analyst_recommendations, class_allocation=form.class_allocation,
        type_allocation=form.type_allocation, industry_group_allocation=form.industry_group_allocation,
        classes=tuple(classes), types=tuple(types), industry_groups=tuple(groups), equivalents=tuple(equivalents),
        commentaries=tuple(commentaries), version=None if v.is_empty(form.version) else _int(form.version),
    )

    # ---- the form-level verdict ----
    if active:
        for ei in incomplete:
            errors.check(f"equivalents.{ei}", SELECT_ALL_EQUIVALENTS)
    if set(errors) == {"firms"}:
        return values, errors, SELECT_SHARING_FIRM
    if any(not key.startswith("equivalents.") or text != SELECT_ALL_EQUIVALENTS for key, text in errors.items()):
        return values, errors, INVALID_FORM
    if not active:
        return values, errors, None
    if incomplete:
        return values, errors, SELECT_ALL_EQUIVALENTS
    total = sum((c.allocation for c in classes), Decimal(0))
    if total != HUNDRED:
        errors.check("assets_percentages_allocations" if percentages else "allocation_classes", TOTAL_ALLOCATION)
        return values, errors, TOTAL_ALLOCATION
    if not percentages:
        max_sum = sum((HUNDRED if c.max is None else c.max for c in classes), Decimal(0))
        if max_sum < HUNDRED:
            errors.check("allocation_classes", MAX_SUM)
            return values, errors, MAX_SUM
    group_total = sum((g.allocation or Decimal(0) for g in groups), Decimal(0))
    if group_total > HUNDRED:
        errors.check("industry_groups_allocations", INDUSTRY_GROUPS_TOTAL)
        return values, errors, INDUSTRY_GROUPS_TOTAL
    return values, errors, None


def unavailable_message(refs: list[str]) -> str:
    """'Asset BHP is not available' or 'Assets BHP, 12 are not available'."""
    if len(refs) == 1:
        return ASSET_NOT_AVAILABLE.format(ref=refs[0])
    return ASSETS_NOT_AVAILABLE.format(refs=", ".join(refs))


def owner_filter(sent: object) -> int | None:
    """The superuser's owner-firm filter of the model lists as sent: None for all firms ('-2' or
    nothing), else the firm's id; text naming no firm reads as 0, which owns no model."""
    text = str(sent if sent is not None else "").strip()
    if text in ("", "-2"):
        return None
    return as_id(text) or 0
