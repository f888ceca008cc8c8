"""The asset universe: classes, types, listed assets, prices.

Who may do what:
- staff (everyone but clients) read the universe: the shared assets (firm_id None) plus their
  own firm's; another firm's private asset is "not found". The superuser reads everything, or a
  firm's view of it when naming the firm (`firm_id`).
- only the superuser keeps the universe (`can_manage_universe`): classes, types, assets, prices.

Prices: `import_prices` takes a CSV or Excel file (see app.domain.prices for the format). A
malformed file writes nothing and says why; in a well-formed file the good lines are imported and
each rejected line is reported (bad values, unknown codes), all in one transaction. Afterwards
every touched asset's last close (price and date) and its one- and six-month returns are
recomputed from the history in a few queries (`recompute_prices`), never one query per asset.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from sqlalchemy import case, func, insert, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetPrice, AssetType, Firm, IndustryGroup, LongTermRecommendation, ModelAsset, ModelClass,
    ModelEquivalent, ModelType, ShortTermRecommendation,
)
from app.db.types import utcnow
from app.domain import assets as rules
from app.domain import prices as price_rules
from app.domain.errors import INVALID_FORM, Conflict, NotFound, ValidationError
from app.domain.industry_groups import NOT_FOUND as GROUP_NOT_FOUND
from app.domain.models import NO_CASH_CLASS
from app.domain.money import percent_4dp_text
from app.domain.permissions import Actor, can_manage_universe, require, require_staff
from app.domain.parsing import as_bool, as_id
from app.services import listing
from app.services.tenancy import (
    FIRM_NOT_FOUND, asset_by_code, asset_classes_of, asset_types_of, find_assets_by_codes, normalise_code,
    readable_asset_classes, readable_asset_types, readable_assets, titled,
)

IMPORT_CONFLICT = "These prices were changed by another upload at the same time. Upload the file again."
UPLOAD_COMPLETE = "The file upload is now complete"
SEARCH_MAX = 50
PICKER_LIMIT_MAX = 50
HISTORY_DEFAULT = 180
HISTORY_MAX = 2000
_CHUNK = 500


# ---- shared helpers (other services call these) ----------------------------------------------------
def find_by_codes(session: Session, actor: Actor, codes: Iterable[object], firm_id: int | None = None) -> dict[str, Asset]:
    """Usable assets by code (uppercased) in one query; unknown codes are simply absent
    (app.services.tenancy.find_assets_by_codes: the screens' entry to it)."""
    return find_assets_by_codes(session, actor, codes, firm_id)


def cash_class(session: Session) -> AssetClass:
    cash = session.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
    if cash is None:
        raise ValidationError(NO_CASH_CLASS)
    return cash


# ---- small parsers -------------------------------------------------------------------------------
def _scope_firm(actor: Actor, firm_id: Any) -> int | None:
    """The firm whose view of the universe is wanted: the actor's own, or the one a superuser names."""
    return as_id(firm_id) if actor.is_superuser else actor.firm_id


def _chunks(items: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _require_manager(actor: Actor) -> None:
    require(can_manage_universe(actor))


def _live_firm(session: Session, firm_id: int | None) -> Firm | None:
    if firm_id is None:
        return None
    firm = session.get(Firm, firm_id)
    return firm if firm is not None and firm.deleted_at is None else None


# ---- classes and types ---------------------------------------------------------------------------
# Asset classes and asset types are two titled reference lists kept alike: shared or a firm's own,
# a title unique where the row belongs, never deleted while assets or models use them. One
# `TitledList` describes each; the public functions below are their named entry points.
def _class_row(row: AssetClass, count: int = 0) -> dict[str, Any]:
    return {"id": row.id, "title": row.title, "is_cash": bool(row.is_cash), "firm_id": row.firm_id, "idx": row.idx,
            "assets_count": int(count)}


def _type_row(row: AssetType, count: int = 0) -> dict[str, Any]:
    return {"id": row.id, "title": row.title, "firm_id": row.firm_id, "assets_count": int(count)}


@dataclass(frozen=True)
class TitledList:
    """One titled reference list: its table and read shape, the columns that link to it (the assets'
    and the models'), how it is filtered to a firm's view and ordered, and its texts."""

    table: type
    read_row: Callable[..., dict[str, Any]]
    asset_column: Any
    model_columns: tuple[Any, ...]
    of_firm: Callable[[int | None], Any]
    order: Callable[[], tuple[Any, ...]]
    not_found: str
    has_assets: str
    in_models: str
    created: str
    updated: str
    deleted: str


CLASSES = TitledList(
    table=AssetClass, read_row=_class_row, asset_column=Asset.class_id,
    model_columns=(ModelClass.class_id, ModelAsset.class_id), of_firm=asset_classes_of,
    order=lambda: (case((AssetClass.is_cash.is_(True), 0), else_=1), AssetClass.idx, func.lower(AssetClass.title),
                   AssetClass.id),  # the cash class first
    not_found=rules.CLASS_NOT_FOUND, has_assets=rules.CLASS_HAS_ASSETS, in_models=rules.CLASS_IN_MODELS,
    created=rules.CLASS_CREATED, updated=rules.CLASS_UPDATED, deleted=rules.CLASS_DELETED,
)
TYPES = TitledList(
    table=AssetType, read_row=_type_row, asset_column=Asset.type_id,
    model_columns=(ModelType.type_id,), of_firm=asset_types_of,
    order=lambda: (func.lower(AssetType.title), AssetType.id),
    not_found=rules.TYPE_NOT_FOUND, has_assets=rules.TYPE_HAS_ASSETS, in_models=rules.TYPE_IN_MODELS,
    created=rules.TYPE_CREATED, updated=rules.TYPE_UPDATED, deleted=rules.TYPE_DELETED,
)


def _asset_counts(session: Session, column) -> dict[int, int]:
    return {key: n for key, n in session.exec(select(column, func.count()).where(column.is_not(None)).group_by(column)).all()}


def _list_titled(kind: TitledList, actor: Actor, firm_id: Any) -> list[dict[str, Any]]:
    require_staff(actor)
    with session_scope() as s:
        counts = _asset_counts(s, kind.asset_column)
        rows = s.exec(select(kind.table).where(kind.of_firm(_scope_firm(actor, firm_id))).order_by(*kind.order())).all()
        return [kind.read_row(row, counts.get(row.id, 0)) for row in rows]


def list_classes(*, actor: Actor, firm_id: Any = None) -> list[dict[str, Any]]:
    """The shared classes plus the firm's own, the cash class first."""
    return _list_titled(CLASSES, actor, firm_id)


def list_types(*, actor: Actor, firm_id: Any = None) -> list[dict[str, Any]]:
    return _list_titled(TYPES, actor, firm_id)


def _check_title_unique(session: Session, table, title: str, firm: int | None, exclude: int | None = None) -> None:
    stmt = select(table.id).where(titled(table, title, firm))  # a shared title clashes with any firm's own too
    if exclude is not None:
        stmt = stmt.where(table.id != exclude)
    if session.exec(stmt).first() is not None:
        raise ValidationError(rules.TITLE_UNIQUE, {"title": rules.TITLE_UNIQUE})


def _clean_title_or_raise(data: Mapping[str, Any]) -> str:
    values, errors = rules.clean_title(data)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, dict(errors))
    return values["title"]


def _body_firm(session: Session, data: Mapping[str, Any]) -> int | None:
    raw = data.get("firm_id", data.get("firmId"))
    firm_id = as_id(raw)
    if raw not in (None, "", 0, "0", "-2") and (firm_id is None or _live_firm(session, firm_id) is None):
        raise ValidationError(INVALID_FORM, {"firm_id": FIRM_NOT_FOUND})
    return firm_id


def _load_titled(session: Session, kind: TitledList, row_id: Any):
    """A class or type by id; 404 with the list's text when there is none."""
    row = session.get(kind.table, as_id(row_id)) if as_id(row_id) else None
    if row is None:
        raise NotFound(kind.not_found)
    return row


def _create_titled(kind: TitledList, actor: Actor, data: Mapping[str, Any],
                   columns: Callable[[Session], dict[str, Any]] = lambda session: {}) -> dict[str, Any]:
    """A new row (superuser): shared or the firm's own (the body's firm), its title unique there;
    `columns` gives the list's own further columns."""
    _require_manager(actor)
    title = _clean_title_or_raise(data)
    with session_scope() as s:
        firm = _body_firm(s, data)
        _check_title_unique(s, kind.table, title, firm)
        row = kind.table(title=title, firm_id=firm, **columns(s))
        s.add(row)
        s.flush()
        return {**kind.read_row(row), "message": kind.created}


def _update_titled(kind: TitledList, actor: Actor, row_id: Any, data: Mapping[str, Any],
                   refuse: Callable[[Any, str], None] = lambda row, title: None) -> dict[str, Any]:
    """Rename a row (superuser) unless `refuse` raises; the new title must be unique where the row belongs."""
    _require_manager(actor)
    title = _clean_title_or_raise(data)
    with session_scope() as s:
        row = _load_titled(s, kind, row_id)
        refuse(row, title)
        _check_title_unique(s, kind.table, title, row.firm_id, exclude=row.id)
        row.title = title
        s.add(row)
        s.flush()
        assets_count = s.exec(select(func.count()).where(kind.asset_column == row.id)).one()
        return {**kind.read_row(row, assets_count), "message": kind.updated}


def _delete_titled(kind: TitledList, actor: Actor, row_id: Any,
                   refuse: Callable[[Any], None] = lambda row: None) -> dict[str, Any]:
    """Delete an unused row (superuser) unless `refuse` raises: never one with assets or used by models."""
    _require_manager(actor)
    with session_scope() as s:
        row = _load_titled(s, kind, row_id)
        refuse(row)
        if s.exec(select(Asset.id).where(kind.asset_column == row.id)).first() is not None:
            raise ValidationError(kind.has_assets.format(title=row.title), {"title": rules.RELINK_HINT})
        if any(s.exec(select(column).where(column == row.id)).first() is not None for column in kind.model_columns):
            raise ValidationError(kind.in_models.format(title=row.title))
        s.delete(row)
        return {"message": kind.deleted}


def _next_class_columns(session: Session) -> dict[str, Any]:
    """A new class is never the cash class (that one is the system's) and comes last."""
    last = session.exec(select(func.max(AssetClass.idx))).one() or 0
    return {"is_cash": False, "idx": int(last) + 1}


def _refuse_cash_rename(row: AssetClass, title: str) -> None:
    if row.is_cash and "cash" not in title.lower():
        raise ValidationError(rules.CASH_CLASS_RENAME, {"title": rules.CASH_CLASS_RENAME})


def _refuse_cash_delete(row: AssetClass) -> None:
    if row.is_cash:
        raise ValidationError(rules.CASH_CLASS_DELETE)


def create_class(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """A new (non-cash) class, shared or a firm's own (superuser). The cash class is the system's."""
    return _create_titled(CLASSES, actor, data, _next_class_columns)


def update_class(*, actor: Actor, class_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Rename a class (superuser). The cash class stays the cash class: its title keeps "Cash"."""
    return _update_titled(CLASSES, actor, class_id, data, _refuse_cash_rename)


def delete_class(*, actor: Actor, class_id: Any) -> dict[str, Any]:
    """Delete an unused class (superuser). Never the cash class; never one with assets or models."""
    return _delete_titled(CLASSES, actor, class_id, _refuse_cash_delete)


def create_type(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    return _create_titled(TYPES, actor, data)


def update_type(*, actor: Actor, type_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    return _update_titled(TYPES, actor, type_id, data)


def delete_type(*, actor: Actor, type_id: Any) -> dict[str, Any]:
    return _delete_titled(TYPES, actor, type_id)


# ---- assets: reading -----------------------------------------------------------------------------
def _asset_select():
    return (
        select(Asset, AssetClass.title, AssetType.title, IndustryGroup.title, IndustryGroup.color, Firm.name)
        .join(AssetClass, AssetClass.id == Asset.class_id)
        .outerjoin(AssetType, AssetType.id == Asset.type_id)
        .outerjoin(IndustryGroup, IndustryGroup.id == Asset.industry_group_id)
        .outerjoin(Firm, Firm.id == Asset.firm_id)
    )


def asset_row(asset: Asset, class_title: str | None, type_title: str | None, group_title: str | None,
              group_color: str | None, firm_name: str | None) -> dict[str, Any]:
    """The read shape of an asset (lists, details, lookups). Prices and percentages are strings."""
    return {
        "id": asset.id,
        "code": asset.code,
        "name": asset.name,
        "class_id": asset.class_id,
        "class_title": class_title,
        "class": {"id": asset.class_id, "title": class_title},
        "type": {"id": asset.type_id, "title": type_title} if asset.type_id else None,
        "industry_group": ({"id": asset.industry_group_id, "title": group_title, "color": group_color}
                           if asset.industry_group_id else None),
        "firm": {"id": asset.firm_id, "name": firm_name} if asset.firm_id else None,
        "last_close_price": price_rules.price_text(asset.last_close_price),
        "last_close_date": asset.last_close_date.isoformat() if asset.last_close_date else None,
        "dividend_yield": percent_4dp_text(asset.dividend_yield),
        "one_month_return": percent_4dp_text(asset.one_month_return),
        "six_month_return": percent_4dp_text(asset.six_month_return),
        "url": asset.url,
    }


def _nulls_last(column, descending: bool) -> list[Any]:
    return [case((column.is_(None), 1), else_=0), column.desc() if descending else column.asc()]


def _search_clause(text: str):
    return or_(col(Asset.code).startswith(text.upper(), autoescape=True),
               func.lower(Asset.name).contains(text.lower(), autoescape=True))


def list_assets(*, actor: Actor, limit: Any = None, offset: Any = None, sort: Any = "code", order: Any = "asc",
                search: Any = None, class_id: Any = None, type_id: Any = None, industry_group_id: Any = None,
                firm_id: Any = None) -> tuple[list[dict[str, Any]], int]:
    """One page of the universe the actor may use, with the total. Sorts: app.domain.assets.ASSET_SORTS
    (empty values last in both directions); search: code prefix or name contains."""
    require_staff(actor)
    limit_i, offset_i = listing.page(limit, offset)
    where = [readable_assets(actor, _scope_firm(actor, firm_id))]
    text = str(search or "").strip()[:SEARCH_MAX]
    if text:
        where.append(_search_clause(text))
    for column, value in ((Asset.class_id, class_id), (Asset.type_id, type_id), (Asset.industry_group_id, industry_group_id)):
        if as_id(value) is not None:
            where.append(column == as_id(value))
    key = sort if sort in rules.ASSET_SORTS else "code"
    descending = str(order or "").lower() in ("desc", "descending", "-1")
    plain = {"code": Asset.code, "name": func.lower(Asset.name), "class": func.lower(AssetClass.title)}
    nullable = {"industry_group": func.lower(IndustryGroup.title), "last_close_price": Asset.last_close_price,
                "last_close_date": Asset.last_close_date, "dividend_yield": Asset.dividend_yield,
                "one_month_return": Asset.one_month_return, "six_month_return": Asset.six_month_return}
    if key in plain:
        ordering = [plain[key].desc() if descending else plain[key].asc()]
    else:
        ordering = _nulls_last(nullable[key], descending)
    ordering.append(Asset.code.asc())
    with session_scope() as s:
        total = s.exec(
            select(func.count()).select_from(Asset).join(AssetClass, AssetClass.id == Asset.class_id)
            .outerjoin(IndustryGroup, IndustryGroup.id == Asset.industry_group_id).where(*where)
        ).one()
        rows = s.exec(_asset_select().where(*where).order_by(*ordering).offset(offset_i).limit(limit_i)).all()
        return [asset_row(*row) for row in rows], int(total)


def _load_asset_row(session: Session, actor: Actor, asset_id: Any) -> tuple:
    wanted = as_id(asset_id)
    row = None
    if wanted is not None:
        row = session.exec(_asset_select().where(Asset.id == wanted, readable_assets(actor))).first()
    if row is None:
        raise NotFound(rules.ASSET_NOT_FOUND)
    return row


def get_asset(*, actor: Actor, asset_id: Any) -> dict[str, Any]:
    require_staff(actor)
    with session_scope() as s:
        row = _load_asset_row(s, actor, asset_id)
        asset = row[0]
        result = asset_row(*row)
        result["prices_count"] = int(s.exec(select(func.count()).select_from(AssetPrice)
                                             .where(AssetPrice.asset_id == asset.id)).one())
        result["created_at"] = asset.created_at.isoformat()
        result["updated_at"] = asset.updated_at.isoformat()
        return result


def get_asset_by_code(*, actor: Actor, code: Any, has_class: Any = None, firm_id: Any = None) -> dict[str, Any]:
    """Lookup by code (uppercased) among the assets the firm may use: 404 'Asset {code} is not found'.
    With `has_class`, the asset's class must also be one the firm may use (shared or its own)."""
    require_staff(actor)
    wanted = normalise_code(code)[:rules.CODE_MAX + 1]
    firm = _scope_firm(actor, firm_id)
    with session_scope() as s:
        stmt = _asset_select().where(asset_by_code(actor, wanted, firm, with_usable_class=as_bool(has_class)))
        row = s.exec(stmt).first() if wanted else None
        if row is None:
            raise NotFound(rules.ASSET_CODE_NOT_FOUND.format(code=wanted))
        return asset_row(*row)


def search_assets(*, actor: Actor, query: Any, firm_id: Any = None, class_id: Any = None,
                  limit: Any = 20) -> list[dict[str, Any]]:
    """For pickers: code prefix or name contains, exact code first, then code prefixes, then names.
    Firm scope: the shared universe plus that firm's assets; model scope: also `class_id`."""
    require_staff(actor)
    text = str(query or "").strip()[:SEARCH_MAX]
    try:
        limit_i = max(1, min(int(limit), PICKER_LIMIT_MAX))
    except (TypeError, ValueError):
        limit_i = 20
    where = [readable_assets(actor, _scope_firm(actor, firm_id))]
    if as_id(class_id) is not None:
        where.append(Asset.class_id == as_id(class_id))
    ordering: list[Any] = []
    if text:
        where.append(_search_clause(text))
        upper = text.upper()
        ordering.append(case((Asset.code == upper, 0), (col(Asset.code).startswith(upper, autoescape=True), 1), else_=2))
    ordering.append(Asset.code)
    with session_scope() as s:
        rows = s.exec(_asset_select().where(*where).order_by(*ordering).limit(limit_i)).all()
        return [asset_row(*row) for row in rows]


def price_history(*, actor: Actor, asset_id: Any, limit: Any = HISTORY_DEFAULT) -> tuple[list[dict[str, Any]], int]:
    """The newest `limit` closes of an asset, oldest first (ready for a chart), and the count of all."""
    require_staff(actor)
    try:
        limit_i = max(1, min(int(limit), HISTORY_MAX))
    except (TypeError, ValueError):
        limit_i = HISTORY_DEFAULT
    with session_scope() as s:
        asset = _load_asset_row(s, actor, asset_id)[0]
        total = s.exec(select(func.count()).select_from(AssetPrice).where(AssetPrice.asset_id == asset.id)).one()
        rows = s.exec(select(AssetPrice.price_date, AssetPrice.close).where(AssetPrice.asset_id == asset.id)
                      .order_by(col(AssetPrice.price_date).desc()).limit(limit_i)).all()
        return [{"date": d.isoformat(), "close": price_rules.price_text(c)} for d, c in reversed(rows)], int(total)


def filter_options(*, actor: Actor, firm_id: Any = None) -> dict[str, Any]:
    """What the universe screen's filters and asset form offer, in one call: classes, types,
    industry groups (by their order) and, for the superuser, the firms."""
    require_staff(actor)
    firm = _scope_firm(actor, firm_id)
    with session_scope() as s:
        # the superuser naming no firm: every class and type (the shared ones and each firm's own)
        classes = s.exec(select(AssetClass).where(readable_asset_classes(actor, firm)).order_by(*CLASSES.order())).all()
        types = s.exec(select(AssetType).where(readable_asset_types(actor, firm)).order_by(*TYPES.order())).all()
        groups = s.exec(select(IndustryGroup).order_by(IndustryGroup.idx, func.lower(IndustryGroup.title))).all()
        firms = []
        if actor.is_superuser:
            firms = [{"id": i, "name": n} for i, n in s.exec(select(Firm.id, Firm.name).where(Firm.deleted_at.is_(None))
                                                             .order_by(func.lower(Firm.name))).all()]
        return {
            "classes": [_class_row(c) for c in classes],
            "types": [_type_row(t) for t in types],
            "industry_groups": [{"id": g.id, "title": g.title, "color": g.color} for g in groups],
            "firms": firms,
        }


# ---- assets: writing (superuser) ------------------------------------------------------------------
def _check_references(session: Session, values: dict[str, Any]) -> dict[str, str]:
    """Field errors for references that do not exist or do not fit the asset's firm."""
    errors: dict[str, str] = {}
    firm = values.get("firm_id")
    if firm is not None and _live_firm(session, firm) is None:
        errors["firm_id"] = FIRM_NOT_FOUND
    klass = session.get(AssetClass, values["class_id"]) if values.get("class_id") else None
    if values.get("class_id") and (klass is None or klass.firm_id not in (None, firm)):
        errors["class_id"] = rules.CLASS_NOT_FOUND
    if values.get("type_id"):
        kind = session.get(AssetType, values["type_id"])
        if kind is None or kind.firm_id not in (None, firm):
            errors["type_id"] = rules.TYPE_NOT_FOUND
    if values.get("industry_group_id") and session.get(IndustryGroup, values["industry_group_id"]) is None:
        errors["industry_group_id"] = GROUP_NOT_FOUND
    return errors


def _clean_or_raise(session: Session, data: Mapping[str, Any], exclude: int | None = None) -> dict[str, Any]:
    values, errors = rules.clean_asset(data)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, dict(errors))
    found = _check_references(session, values)
    if found:
        raise ValidationError(INVALID_FORM, found)
    clash = select(Asset.id).where(Asset.code == values["code"])
    if exclude is not None:
        clash = clash.where(Asset.id != exclude)
    if session.exec(clash).first() is not None:
        raise ValidationError(rules.CODE_UNIQUE, {"code": rules.CODE_UNIQUE})
    return values


def _read_back(session: Session, asset_id: int) -> dict[str, Any]:
    row = session.exec(_asset_select().where(Asset.id == asset_id)).first()
    return asset_row(*row)


def create_asset(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """A new listed asset (superuser): code uppercased and unique ('Code should be unique.')."""
    _require_manager(actor)
    try:
        with session_scope() as s:
            values = _clean_or_raise(s, data)
            asset = Asset(**values)
            s.add(asset)
            s.flush()
            return {**_read_back(s, asset.id), "message": rules.ASSET_CREATED}
    except IntegrityError:  # the same code saved at the same moment by someone else
        raise ValidationError(rules.CODE_UNIQUE, {"code": rules.CODE_UNIQUE}) from None


def update_asset(*, actor: Actor, asset_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    _require_manager(actor)
    try:
        with session_scope() as s:
            asset = s.get(Asset, as_id(asset_id)) if as_id(asset_id) else None
            if asset is None:
                raise NotFound(rules.ASSET_NOT_FOUND)
            values = _clean_or_raise(s, data, exclude=asset.id)
            for key, value in values.items():
                setattr(asset, key, value)
            asset.updated_at = utcnow()
            s.add(asset)
            s.flush()
            return {**_read_back(s, asset.id), "message": rules.ASSET_UPDATED}
    except IntegrityError:
        raise ValidationError(rules.CODE_UNIQUE, {"code": rules.CODE_UNIQUE}) from None


def asset_usage(session: Session, asset_id: int) -> bool:
    """Is the asset held by any model or recommendation (other services may refuse changes then)."""
    for stmt in (select(ModelAsset.id).where(or_(ModelAsset.asset_id == asset_id, ModelAsset.alt_asset_id == asset_id)),
                 select(ModelEquivalent.id).where(or_(ModelEquivalent.asset_id == asset_id, ModelEquivalent.eq_asset_id == asset_id)),
                 select(LongTermRecommendation.id).where(LongTermRecommendation.asset_id == asset_id),
                 select(ShortTermRecommendation.id).where(ShortTermRecommendation.asset_id == asset_id)):
        if session.exec(stmt).first() is not None:
            return True
    return False


# ---- prices -----------------------------------------------------------------------------------------
def _newest_closes(session: Session, asset_ids: Sequence[int], on_or_before: date | None = None) -> dict[int, tuple[date, Any]]:
    """{asset id: (date, close)} of each asset's newest price (on or before a day) in one query."""
    newest = select(AssetPrice.asset_id, func.max(AssetPrice.price_date).label("day")).where(col(AssetPrice.asset_id).in_(asset_ids))
    if on_or_before is not None:
        newest = newest.where(AssetPrice.price_date <= on_or_before)
    sub = newest.group_by(AssetPrice.asset_id).subquery()
    rows = session.exec(
        select(AssetPrice.asset_id, AssetPrice.price_date, AssetPrice.close)
        .join(sub, (AssetPrice.asset_id == sub.c.asset_id) & (AssetPrice.price_date == sub.c.day))
    ).all()
    return {aid: (day, close) for aid, day, close in rows}


def recompute_prices(session: Session, asset_ids: Iterable[int]) -> int:
    """Set each asset's last close price and date to its newest price, and its one- and six-month
    returns (the close against the close on or before the same day 1 and 6 months earlier).
    A few queries per 500 assets (one per distinct reference day), one bulk UPDATE. Returns the count."""
    ids = sorted({int(i) for i in asset_ids})
    now = utcnow()
    updates: list[dict[str, Any]] = []
    for chunk in _chunks(ids):
        last = _newest_closes(session, chunk)
        references: dict[int, dict[int, Any]] = {}
        for months in (1, 6):
            by_day: dict[date, list[int]] = defaultdict(list)
            for aid, (day, _) in last.items():
                by_day[price_rules.months_before(day, months)].append(aid)
            found: dict[int, Any] = {}
            for day, aids in by_day.items():
                found.update({aid: close for aid, (_, close) in _newest_closes(session, aids, day).items()})
            references[months] = found
        for aid in chunk:
            day, close = last.get(aid, (None, None))
            updates.append({
                "id": aid,
                "last_close_price": close,
                "last_close_date": price_rules.close_instant(day) if day else None,
                "one_month_return": price_rules.period_return(close, references[1].get(aid)),
                "six_month_return": price_rules.period_return(close, references[6].get(aid)),
                "updated_at": now,
            })
    if updates:
        session.execute(update(Asset), updates)
    return len(updates)


def import_prices(*, actor: Actor, filename: str | None, content_type: str | None, data: bytes) -> dict[str, Any]:
    """Import a price file (superuser): {imported, updated, rejected: [{line, code, reason, message}], assets}.

    The type is checked first ('Invalid file type!'), then the whole file; a malformed file raises
    ValidationError and writes nothing. Lines with bad values or unknown codes are rejected and
    named; the good lines of the file are written (new dates inserted, existing dates replaced) in
    one transaction with the recomputed last closes and returns. A file with no good line is
    refused (ValidationError NOTHING_IMPORTED) with the same report as its `result`."""
    _require_manager(actor)
    parsed = price_rules.parse_price_file(filename, content_type, data)
    rejected = list(parsed.rejected)
    try:
        with session_scope() as s:
            known = find_assets_by_codes(s, actor, {line.code for line in parsed.lines})
            good = []
            for line in parsed.lines:
                asset = known.get(line.code)
                if asset is None:
                    rejected.append(price_rules.Rejection(line.line, line.code,
                                                          price_rules.UNKNOWN_CODE.format(code=line.code)))
                else:
                    good.append((asset.id, line))
            inserted = updated = 0
            touched = sorted({aid for aid, _ in good})
            if good:
                first = min(line.price_date for _, line in good)
                newest = max(line.price_date for _, line in good)
                existing: dict[tuple[int, date], int] = {}
                for chunk in _chunks(touched):
                    for pid, aid, day in s.exec(select(AssetPrice.id, AssetPrice.asset_id, AssetPrice.price_date).where(
                            col(AssetPrice.asset_id).in_(chunk), AssetPrice.price_date >= first,
                            AssetPrice.price_date <= newest)).all():
                        existing[(aid, day)] = pid
                new_rows, changed = [], []
                for aid, line in good:
                    pid = existing.get((aid, line.price_date))
                    if pid is None:
                        new_rows.append({"asset_id": aid, "price_date": line.price_date, "close": line.close})
                    else:
                        changed.append({"id": pid, "close": line.close})
                if new_rows:
                    s.execute(insert(AssetPrice), new_rows)
                if changed:
                    s.execute(update(AssetPrice), changed)
                inserted, updated = len(new_rows), len(changed)
                recompute_prices(s, touched)
    except IntegrityError:
        raise Conflict(IMPORT_CONFLICT) from None
    rejected.sort(key=lambda r: r.line)
    report = {"imported": inserted, "updated": updated, "assets": len(touched),
              "rejected": [r.as_dict() for r in rejected]}
    if not touched:
        raise ValidationError(price_rules.NOTHING_IMPORTED, {"file": price_rules.NOTHING_IMPORTED}, result=report)
    return {**report, "message": UPLOAD_COMPLETE}
