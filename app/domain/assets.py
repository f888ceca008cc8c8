"""The asset universe's forms (pure): the asset form and the class / type title.

`clean_asset(data)` and `clean_title(data)` return (values, FieldErrors) with the shared
validators' texts; the service and the screens call the same functions, so the texts under the
fields are the ones the service would answer with.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
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


@dataclass(frozen=True)
class SentId:
    """A picked reference as sent: the id it names (None when none can be read) and whether
    anything was sent at all (not empty, not 0: the selects' "none")."""
    id: int | None = None
    given: bool = False

    @property
    def unreadable(self) -> bool:
        return self.given and self.id is None


def sent_id(raw: object) -> SentId:
    return SentId(id=as_id(raw), given=not v.is_empty(raw) and raw not in (0, "0"))


def _sent_text(raw: object) -> str | None:
    return None if raw is None else str(raw)


@dataclass(frozen=True)
class AssetForm:
    """The asset form as sent (read once at the edge by `read_asset_form`): texts as typed (None
    when left out), references as SentId; `clean_asset` checks it with the validators' texts."""
    code: str | None = None
    name: str | None = None
    class_id: SentId = SentId()
    type_id: SentId = SentId()
    industry_group_id: SentId = SentId()
    firm_id: SentId = SentId()
    dividend_yield: str | None = None
    url: str | None = None


def read_asset_form(data: Mapping[str, object]) -> AssetForm:
    return AssetForm(code=_sent_text(data.get("code")), name=_sent_text(data.get("name")),
                     class_id=sent_id(data.get("class_id")), type_id=sent_id(data.get("type_id")),
                     industry_group_id=sent_id(data.get("industry_group_id")), firm_id=sent_id(data.get("firm_id")),
                     dividend_yield=_sent_text(data.get("dividend_yield")), url=_sent_text(data.get("url")))


@dataclass(frozen=True)
class AssetValues:
    """A checked asset form, as stored."""
    code: str
    name: str
    class_id: int | None
    type_id: int | None
    industry_group_id: int | None
    firm_id: int | None
    dividend_yield: Decimal | None
    url: str | None


def clean_asset(data: Mapping[str, object] | AssetForm) -> tuple[AssetValues, v.FieldErrors]:
    """The asset form: code (uppercased), name, class, optional type / industry group / firm,
    dividend yield (a percentage) and link. Existence and uniqueness are checked by the service."""
    form = data if isinstance(data, AssetForm) else read_asset_form(data)
    errors = v.FieldErrors()
    code = normalise_code(form.code)
    name = _text(form.name)
    errors.check("code", v.required(code, "code"), v.max_length(code, CODE_MAX),
                 None if not code or _CODE.match(code) else v.DEFAULT)
    errors.check("name", v.required(name, "name"), v.max_length(name, NAME_MAX))
    errors.check("class_id", None if form.class_id.given else v.required_select(None, "class"),
                 None if form.class_id.id else v.DEFAULT)
    for key, sent in (("type_id", form.type_id), ("industry_group_id", form.industry_group_id),
                      ("firm_id", form.firm_id)):
        if sent.unreadable:
            errors.check(key, v.DEFAULT)
    yield_raw = _text(form.dividend_yield)
    errors.check("dividend_yield", v.float_(yield_raw), v.positive(yield_raw), v.less_than(yield_raw, MAX_YIELD))
    parsed = v.parse_decimal(yield_raw) if "dividend_yield" not in errors and yield_raw else None
    dividend_yield = None if parsed is None else parsed.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    url = _text(form.url)
    errors.check("url", v.max_length(url, URL_MAX), v.website(url))
    if url and "url" not in errors and not url.lower().startswith(("http://", "https://")):
        url = "https://" + url
    return AssetValues(code=code, name=name, class_id=form.class_id.id, type_id=form.type_id.id,
                       industry_group_id=form.industry_group_id.id, firm_id=form.firm_id.id,
                       dividend_yield=dividend_yield, url=url or None), errors


@dataclass(frozen=True)
class TitleForm:
    """A class or type form as sent: its title as typed and the firm it belongs to (none: shared;
    the select's "-2" is none as well)."""
    title: str | None = None
    firm_id: SentId = SentId()


def read_title_form(data: Mapping[str, object]) -> TitleForm:
    raw = data.get("firm_id", data.get("firmId"))
    given = raw not in (None, "", 0, "0", "-2")
    return TitleForm(title=_sent_text(data.get("title")), firm_id=SentId(id=as_id(raw), given=given))


def clean_title(data: Mapping[str, object] | TitleForm) -> tuple[dict[str, str], v.FieldErrors]:
    """A class or type title: required, at most 100 characters."""
    errors = v.FieldErrors()
    title = _text(data.title if isinstance(data, TitleForm) else data.get("title"))
    errors.check("title", v.required(title, "title"), v.max_length(title, TITLE_MAX))
    return {"title": title}, errors
