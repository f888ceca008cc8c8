"""Model form rules (spec 000 s4-s5): pure validation of a model payload, no database.

`clean_model(data, cash_class_id=..., owner_required=...)` returns `(values, errors, message)`:
- `values`: the cleaned payload (Decimals, ints, bools) the service stores;
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

STATUS_TITLES = {ModelStatus.DRAFT.value: "Draft", ModelStatus.ACTIVE.value: "Active"}
METHOD_TITLES = {AllocationMethod.EQUAL_AMOUNTS.value: "Equal Amounts", AllocationMethod.PERCENTAGES.value: "Percentages"}
AVAILABILITY_TITLES = {Availability.NOBODY.value: "Nobody", Availability.WITH_PRACTICE.value: "With practice",
                       Availability.ONLY_SUPERUSER.value: "Only superuser", Availability.ALL.value: "All"}

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


def _rows(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    rows = data.get(key) or []
    if not isinstance(rows, (list, tuple)):
        return []
    return [row if isinstance(row, Mapping) else {} for row in rows]


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _choice(errors: v.FieldErrors, field: str, value: Any, allowed: tuple[str, ...], default: str) -> str:
    text = _text(value) or default
    if text not in allowed:
        errors.check(field, v.DEFAULT)
        return default
    return text


def _allocation_fields(errors: v.FieldErrors, prefix: str, row: Mapping[str, Any]) -> dict[str, Decimal | None]:
    """allocation/min/max of a row: numbers 0..100, max greater than min (shared row check)."""
    row_errors = check_allocation_row(row.get("allocation"), row.get("min"), row.get("max"))
    out: dict[str, Decimal | None] = {}
    for key in ("allocation", "min", "max"):
        if key in row_errors:
            errors.check(f"{prefix}.{key}", row_errors[key])
            out[key] = None
        else:
            out[key] = _percent(row.get(key))
    return out


def _priority(errors: v.FieldErrors, field: str, value: Any, default: int) -> int:
    if v.is_empty(value):
        return default
    number = _int(value)
    if number is None:
        errors.check(field, v.NUMBER)
        return default
    return number


def _chosen(row: Mapping[str, Any], field: str) -> Any:
    """What an allocation row sent as its choice: `field`, or `id`."""
    return row.get(field, row.get("id"))


# ---- the payload --------------------------------------------------------------------------------
def clean_model(data: Mapping[str, Any], *, cash_class_id: int | None = None,
                owner_required: bool = False) -> tuple[dict[str, Any], v.FieldErrors, str | None]:
    """Validate a model payload (see the module text). `owner_required`: a superuser creating a
    model must choose the owner firm (ownerId)."""
    if not isinstance(data, Mapping):
        data = {}
    errors = v.FieldErrors()
    values: dict[str, Any] = {}

    name = _text(data.get("name"))
    errors.check("name", v.required(name, NAME_LABEL), v.max_length(name, NAME_MAX))
    values["name"] = name
    status = _choice(errors, "status", data.get("status"), tuple(s.value for s in ModelStatus), ModelStatus.DRAFT.value)
    method = _choice(errors, "allocation_method", data.get("allocation_method"),
                     tuple(m.value for m in AllocationMethod), AllocationMethod.EQUAL_AMOUNTS.value)
    active = status == ModelStatus.ACTIVE.value
    percentages = method == AllocationMethod.PERCENTAGES.value
    values.update(status=status, allocation_method=method)

    owner_id = as_id(data.get("ownerId"))
    if owner_required and owner_id is None:
        errors.check("ownerId", SELECT_FIRM)
    values["owner_id"] = owner_id

    # availability: the two switches and the shared firms (kept whatever the availability)
    firms: list[int] = []
    raw_firms = data.get("firms") or []
    if not isinstance(raw_firms, (list, tuple)):
        raw_firms = [raw_firms]
    for raw in raw_firms:
        firm_id = as_id(raw)
        if firm_id is None:
            errors.check("firms", SELECT_SHARING_FIRM)
        elif firm_id not in firms:
            firms.append(firm_id)
    investment, everyone = as_bool(data.get("investment")), as_bool(data.get("all"))
    values.update(firms=firms, investment=investment, all=everyone,
                  availability=derive_availability(investment, everyone, len(firms)).value)

    for switch in ("analyst_recommendations", "class_allocation", "type_allocation", "industry_group_allocation"):
        values[switch] = as_bool(data.get(switch), default=True)  # spec 000 s4: switched on by default

    # classes and their assets
    classes: list[dict[str, Any]] = []
    class_of_asset: dict[int, int] = {}
    for ci, row in enumerate(_rows(data, "allocation_classes")):
        prefix = f"allocation_classes.{ci}"
        numbers = _allocation_fields(errors, prefix, row)
        limit_raw = row.get("assets_limit")
        errors.check(f"{prefix}.assets_limit", v.number(limit_raw),
                     None if v.number(limit_raw) else v.greater_than(limit_raw, 0),
                     None if v.number(limit_raw) else v.less_than(limit_raw, ASSETS_LIMIT_MAX))
        assets_limit = None if v.is_empty(limit_raw) or f"{prefix}.assets_limit" in errors else int(str(limit_raw).strip())
        priority = _priority(errors, f"{prefix}.priority", row.get("priority"), ci + 1)
        class_id = chosen_id(errors, prefix, "class_id", _chosen(row, "class_id"), "class", classes, required=active)
        if class_id is None:
            continue
        assets: list[dict[str, Any]] = []
        for ai, asset_row in enumerate(_rows(row, "assets")):
            aprefix = f"{prefix}.assets.{ai}"
            asset_id = as_id(asset_row.get("asset_id"))
            alt_id = as_id(asset_row.get("alt_asset_id"))
            if asset_id is None:
                if active or not v.is_empty(asset_row.get("asset_id")):
                    errors.check(f"{aprefix}.asset_id", v.REQUIRED_SELECT.format(label="asset"))
                continue
            if not v.is_empty(asset_row.get("alt_asset_id")) and alt_id is None:
                errors.check(f"{aprefix}.alt_asset_id", v.DEFAULT)
            if asset_id in class_of_asset:
                errors.check(f"{aprefix}.asset_id", ASSET_IN_TWO_CLASSES)
                continue
            if alt_id is not None and alt_id == asset_id:
                errors.check(f"{aprefix}.alt_asset_id", SAME_ALTERNATE)
                alt_id = None
            class_of_asset[asset_id] = class_id
            assets.append({"asset_id": asset_id, "alt_asset_id": alt_id,
                           "priority": _priority(errors, f"{aprefix}.priority", asset_row.get("priority"), ai + 1),
                           "percentage": None, "index": ai})
        if active and not percentages and numbers["allocation"] is None and f"{prefix}.allocation" not in errors:
            errors.check(f"{prefix}.allocation", v.REQUIRED.format(label="allocation"))
        classes.append({"class_id": class_id, "allocation": numbers["allocation"], "min": numbers["min"],
                        "max": numbers["max"], "assets_limit": assets_limit, "priority": priority,
                        "assets": assets, "index": ci})

    if cash_class_id is not None and not any(c["class_id"] == cash_class_id for c in classes):
        classes.append({"class_id": cash_class_id, "allocation": Decimal(0), "min": None, "max": None,
                        "assets_limit": None, "priority": max([c["priority"] for c in classes], default=0) + 1,
                        "assets": [], "index": None})

    # percentages method: a share of the portfolio per listed asset
    if percentages:
        shares: dict[int, tuple[int, Decimal | None]] = {}  # asset id -> (row index, percentage)
        alternatives: dict[int, int] = {}
        for pi, row in enumerate(_rows(data, "assets_percentages_allocations")):
            asset_id = as_id(row.get("asset_id", row.get("id")))
            if asset_id is None or asset_id not in class_of_asset:
                continue  # a row of an asset no longer listed in a class
            value = row.get("allocation")
            err = v.float_(value) or v.positive(value) or (
                v.LESS_THAN.format(n=100) if (_percent(value) or 0) > HUNDRED else None)
            if err:
                errors.check(f"assets_percentages_allocations.{pi}.allocation", err)
                shares[asset_id] = (pi, None)
                continue
            shares[asset_id] = (pi, _percent(value))
            alt = as_id(row.get("alternative"))
            if alt is not None and alt != asset_id:
                alternatives[asset_id] = alt
        for cls in classes:
            for asset in cls["assets"]:
                index, share = shares.get(asset["asset_id"], (None, None))
                asset["percentage"] = share
                if asset["alt_asset_id"] is None and asset["asset_id"] in alternatives:
                    asset["alt_asset_id"] = alternatives[asset["asset_id"]]
                if share is None and active:
                    key = (f"assets_percentages_allocations.{index}.allocation" if index is not None
                           else f"assets_percentages_allocations.asset_{asset['asset_id']}")
                    errors.check(key, v.REQUIRED.format(label="allocation"))
    for cls in classes:
        if percentages and cls["class_id"] != cash_class_id:
            # a class's allocation is the sum of its assets' percentages
            cls["allocation"] = sum((a["percentage"] or Decimal(0) for a in cls["assets"]), Decimal(0))
        elif percentages and cls["assets"]:
            # the cash class: its own allocation plus its assets' percentages
            cls["allocation"] = (cls["allocation"] or Decimal(0)) + sum(
                (a["percentage"] or Decimal(0) for a in cls["assets"]), Decimal(0))
        if cls["allocation"] is None:
            cls["allocation"] = Decimal(0)
    values["classes"] = classes

    # types and industry groups
    types: list[dict[str, Any]] = []
    for ti, row in enumerate(_rows(data, "allocation_types")):
        prefix = f"allocation_types.{ti}"
        numbers = _allocation_fields(errors, prefix, row)
        type_id = chosen_id(errors, prefix, "type_id", _chosen(row, "type_id"), "type", types, required=active)
        if type_id is None:
            continue
        types.append({"type_id": type_id, **numbers, "index": ti})
    values["types"] = types

    groups: list[dict[str, Any]] = []
    for gi, row in enumerate(_rows(data, "industry_groups_allocations")):
        prefix = f"industry_groups_allocations.{gi}"
        numbers = _allocation_fields(errors, prefix, row)
        priority = _priority(errors, f"{prefix}.priority", row.get("priority"), gi + 1)
        group_id = chosen_id(errors, prefix, "industry_group_id", _chosen(row, "industry_group_id"), "industry group", groups, required=active)
        if group_id is None:
            continue
        groups.append({"industry_group_id": group_id, **numbers, "priority": priority, "index": gi})
    values["industry_groups"] = groups

    # equivalents: both sides chosen (active saves); incomplete rows of a draft are dropped
    equivalents: list[dict[str, Any]] = []
    incomplete: list[int] = []
    for ei, row in enumerate(_rows(data, "equivalents")):
        asset_id, eq_id = as_id(row.get("asset_id")), as_id(row.get("eq_asset_id"))
        if asset_id is None or eq_id is None:
            incomplete.append(ei)
            continue
        if asset_id == eq_id:
            errors.check(f"equivalents.{ei}", SAME_EQUIVALENT)
            continue
        if any((e["asset_id"], e["eq_asset_id"]) == (asset_id, eq_id) for e in equivalents):
            continue  # the same pair twice is one pair
        equivalents.append({"asset_id": asset_id, "eq_asset_id": eq_id, "index": ei})
    values["equivalents"] = equivalents

    commentaries: list[dict[str, str]] = []
    for ki, row in enumerate(_rows(data, "commentaries")):
        description = rich_text.sanitise(row.get("description"))
        if not description:
            continue
        kind = _choice(errors, f"commentaries.{ki}.type", row.get("type"), COMMENTARY_TYPES, COMMENTARY_TYPES[0])
        errors.check(f"commentaries.{ki}.description", v.max_length(description, COMMENTARY_MAX))
        commentaries.append({"type": kind, "description": description})
    values["commentaries"] = commentaries

    version = data.get("version", data.get("version_id"))
    values["version"] = None if v.is_empty(version) else _int(version)

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
    total = sum((c["allocation"] for c in classes), Decimal(0))
    if total != HUNDRED:
        errors.check("assets_percentages_allocations" if percentages else "allocation_classes", TOTAL_ALLOCATION)
        return values, errors, TOTAL_ALLOCATION
    if not percentages:
        max_sum = sum((HUNDRED if c["max"] is None else c["max"] for c in classes), Decimal(0))
        if max_sum < HUNDRED:
            errors.check("allocation_classes", MAX_SUM)
            return values, errors, MAX_SUM
    group_total = sum((g["allocation"] or Decimal(0) for g in groups), Decimal(0))
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
