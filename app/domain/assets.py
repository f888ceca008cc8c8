"""The asset universe's forms (pure): the asset form and the class / type title.

`clean_asset(data)` and `clean_title(data)` return (values, FieldErrors) with the shared
validators' texts; the service and the screens call the same functions, so the texts under the
fields are the ones the service would answer with.
"""
from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

from app.domain import validators as v
from app.domain.errors import not_found
from app.domain.parsing import as_id

CODE_MAX = 20
NAME_MAX = 200
TITLE_MAX = 100
URL_MAX = 300
MAX_YIELD = 100

ASSET_NOT_FOUND = not_found("Asset")
ASSET_CODE_NOT_FOUND = "Asset {code} is not found"
CLASS_NOT_FOUND = not_found("Asset class")
TYPE_NOT_FOUND = not_found("Asset type")
CODE_UNIQUE = v.UNIQUE.format(label="Code")
TITLE_UNIQUE = v.UNIQUE.format(label="Title")
CASH_CLASS_DELETE = "The cash class cannot be deleted."
CASH_CLASS_RENAME = "The cash class has to keep \"Cash\" in its title."
CLASS_HAS_ASSETS = "The asset class {title} has linked assets."
CLASS_IN_MODELS = "The asset class {title} is used by models."
TYPE_HAS_ASSETS = "The asset type {title} has linked assets."
TYPE_IN_MODELS = "The asset type {title} is used by models."
RELINK_HINT = "Please, relink them first."

ASSET_CREATED = "Asset is created"
ASSET_UPDATED = "Asset is updated"
CLASS_CREATED, CLASS_UPDATED, CLASS_DELETED = "Asset class is created", "Asset class is updated", "Asset class is deleted"
TYPE_CREATED, TYPE_UPDATED, TYPE_DELETED = "Asset type is created", "Asset type is updated", "Asset type is deleted"

# sort keys of the asset list (the service maps them to columns)
ASSET_SORTS = ("code", "name", "class", "industry_group", "last_close_price", "last_close_date", "dividend_yield",
               "one_month_return", "six_month_return")
ASSET_FORM_KEYS = ("code", "name", "class_id", "type_id", "industry_group_id", "firm_id", "dividend_yield", "url")

_CODE = re.compile(r"^[A-Z0-9][A-Z0-9.\-]*$")


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def normalise_code(code: Any) -> str:
    return _text(code).upper()


def clean_asset(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """The asset form: code (uppercased), name, class, optional type / industry group / firm,
    dividend yield (a percentage) and link. Existence and uniqueness are checked by the service."""
    errors = v.FieldErrors()
    code = normalise_code(data.get("code"))
    name = _text(data.get("name"))
    errors.check("code", v.required(code, "code"), v.max_length(code, CODE_MAX),
                 None if not code or _CODE.match(code) else v.DEFAULT)
    errors.check("name", v.required(name, "name"), v.max_length(name, NAME_MAX))
    class_raw = data.get("class_id")
    class_id = as_id(class_raw)
    errors.check("class_id", v.required_select(class_raw if class_raw not in (0, "0") else None, "class"),
                 None if class_id else v.DEFAULT)
    values: dict[str, Any] = {"code": code, "name": name, "class_id": class_id}
    for key in ("type_id", "industry_group_id", "firm_id"):
        raw = data.get(key)
        values[key] = as_id(raw)
        if not v.is_empty(raw) and raw not in (0, "0") and values[key] is None:
            errors.check(key, v.DEFAULT)
    yield_raw = _text(data.get("dividend_yield"))
    errors.check("dividend_yield", v.float_(yield_raw), v.positive(yield_raw), v.less_than(yield_raw, MAX_YIELD))
    values["dividend_yield"] = None
    if "dividend_yield" not in errors and yield_raw:
        values["dividend_yield"] = v.parse_decimal(yield_raw).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    url = _text(data.get("url"))
    errors.check("url", v.max_length(url, URL_MAX), v.website(url))
    if url and "url" not in errors and not url.lower().startswith(("http://", "https://")):
        url = "https://" + url
    values["url"] = url or None
    return values, errors


def clean_title(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """A class or type title: required, at most 100 characters."""
    errors = v.FieldErrors()
    title = _text(data.get("title"))
    errors.check("title", v.required(title, "title"), v.max_length(title, TITLE_MAX))
    return {"title": title}, errors
