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
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Callable, Iterable, Iterator, Sequence

from sqlalchemy import case, func, insert, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetPrice, AssetType, Firm, IndustryGroup, LongTermRecommendation, ModelAsset, ModelClass,
    ModelEquivalent, ModelType, ShortTermRecommendation,
)
from app.db.types import stored_id, utcnow
from app.domain import assets as rules
from app.domain import prices as price_rules
from app.domain.assets import AssetForm, AssetValues, TitleForm
from app.domain.wire import wire
from app.domain.errors import INVALID_FORM, Conflict, NotFound, ValidationError
from app.domain.industry_groups import NOT_FOUND as GROUP_NOT_FOUND
from app.domain.models import NO_CASH_CLASS
from app.domain.money import percent_4dp_text
from app.domain.parsing import as_id
from app.domain.permissions import Actor, can_manage_universe, require, require_staff
from app.services import listing
from app.services.industry_groups import IndustryGroupOption
from app.services.tenancy import (
    FIRM_NOT_FOUND, asset_by_code, asset_classes_of, asset_types_of, find_assets_by_codes, normalise_code,
    readable_asset_classes, readable_asset_types, readable_assets, titled,
)

IMPORT_CONFLICT = "These prices were changed by another upload at the same time. Upload the file again."
UPLOAD_COMPLETE = "The file upload is now complete"
SEARCH_MAX = 50
PICKER_LIMIT_MAX = 50
PICKER_LIMIT_DEFAULT = 20
HISTORY_DEFAULT = 180
HISTORY_MAX = 2000
_CHUNK = 500



# ---- what the service answers ----------------------------------------------------------------------
@dataclass(frozen=True)
class AssetClassView:
    id: int
    title: str
    is_cash: bool
    firm_id: int | None
    idx: int
    assets_count: int


@dataclass(frozen=True)
class AssetClassSaved(AssetClassView):
    message: str


@dataclass(frozen=True)
class AssetTypeView:
    id: int
    title: str
    firm_id: int | None
    assets_count: int


@dataclass(frozen=True)
class AssetTypeSaved(AssetTypeView):
    message: str


TitledView = AssetClassView | AssetTypeView


@dataclass(frozen=True)
class Done:
    """A write answered with its toast only."""
    message: str


@dataclass(frozen=True)
class TitledRef:
    id: int | None
    title: str | None


@dataclass(frozen=True)
class GroupRef:
    id: int
    title: str | None
    color: str | None


@dataclass(frozen=True)
class FirmRef:
    id: int
    name: str | None


@dataclass(frozen=True)
class AssetView:
    """A listed asset as the lists, the details and the lookups read it: its class, type, industry
    group and firm by id and title, its last close and returns at the precision shown (a price to
    2-6 places, percentages to 4)."""
    id: int
    code: str
    name: str
    class_id: int
    class_title: str | None
    asset_class: TitledRef = field(metadata=wire("class"))
    type: TitledRef | None
    industry_group: GroupRef | None
    firm: FirmRef | None
    last_close_price: Decimal | None
    last_close_date: datetime | None
    dividend_yield: Decimal | None
    one_month_return: Decimal | None
    six_month_return: Decimal | None
    url: str | None


@dataclass(frozen=True)
class AssetDetail(AssetView):
    prices_count: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class AssetSaved(AssetView):
    message: str


@dataclass(frozen=True)
class AssetPage:
    rows: tuple[AssetView, ...]
    total: int


@dataclass(frozen=True)
class PricePoint:
    date: date
    close: Decimal | None


@dataclass(frozen=True)
class PriceHistory:
    """The newest closes, oldest first, and the count of all."""
    rows: tuple[PricePoint, ...]
    total: int


@dataclass(frozen=True)
class FilterOptions:
    """What the universe screen's filters and asset form offer."""
    classes: tuple[AssetClassView, ...]
    types: tuple[AssetTypeView, ...]
    industry_groups: tuple[IndustryGroupOption, ...]
    firms: tuple[FirmRef, ...]


@dataclass(frozen=True)
class RejectedLine:
    line: int
    code: str
    reason: str
    message: str


@dataclass(frozen=True)
class PriceReport:
    imported: int
    updated: int
    assets: int
    rejected: tuple[RejectedLine, ...]


@dataclass(frozen=True)
class PriceUpload(PriceReport):
    message: str


class NothingImported(ValidationError):
    """A price file none of whose lines could be imported: 'No price was imported: ...', with the
    report (each line and why) typed in `report` and as the failure's result."""

    def __init__(self, report: PriceReport) -> None:
        result = {"imported": report.imported, "updated": report.updated, "assets": report.assets,
                  "rejected": [asdict(line) for line in report.rejected]}
        super().__init__(price_rules.NOTHING_IMPORTED, {"file": price_rules.NOTHING_IMPORTED}, result=result)
        self.report = report


def _shown(text: str | None) -> Decimal | None:
    """A number at the precision it is shown with ('12.50' stays 12.50)."""
    return None if text is None else Decimal(text)


# ---- shared helpers (other services call these) ----------------------------------------------------
def find_by_codes(session: Session, actor: Actor, codes: Iterable[object], firm_id: int | None = None) -> dict[str, Asset]:
    """Usable assets by code (uppercased) in one query; unknown codes are simply absent
    (app.services.tenancy.find_assets_by_codes: the screens' entry to it)."""
    return find_assets_by_codes(session, actor, codes, firm_id)


def cash_class(session: Session) -> AssetClass:
    cash = session.exec(select(AssetClass).where(col(AssetClass.is_cash).is_(True))).first()
    if cash is None:
        raise ValidationError(NO_CASH_CLASS)
    return cash


# ---- small helpers -------------------------------------------------------------------------------
def _scope_firm(actor: Actor, firm_id: int | None) -> int | None:
    """The firm whose view of the universe is wanted: the actor's own, or the one a superuser names."""
    return firm_id if actor.is_superuser else actor.firm_id


def _chunks(items: Sequence[int], size: int = _CHUNK) -> Iterator[Sequence[int]]:
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
def _class_row(row: AssetClass, count: int = 0) -> AssetClassView:
    return AssetClassView(id=stored_id(row), title=row.title, is_cash=bool(row.is_cash), firm_id=row.firm_id,
                          idx=row.idx, assets_count=int(count))


def _type_row(row: AssetType, count: int = 0) -> AssetTypeView:
    return AssetTypeView(id=stored_id(row), title=row.title, firm_id=row.firm_id, assets_count=int(count))


def _saved(view: TitledView, message: str) -> AssetClassSaved | AssetTypeSaved:
    if isinstance(view, AssetClassView):
        return AssetClassSaved(id=view.id, title=view.title, is_cash=view.is_cash, firm_id=view.firm_id,
                               idx=view.idx, assets_count=view.assets_count, message=message)
    return AssetTypeSaved(id=view.id, title=view.title, firm_id=view.firm_id, assets_count=view.assets_count,
                          message=message)


@dataclass(frozen=True)
class TitledList:
    """One titled reference list: its table and read shape, the columns that link to it (the assets'
    and the models'), how it is filtered to a firm's view and ordered, and its texts."""

    table: type[AssetClass] | type[AssetType]
    read_row: Callable[[Any, int], TitledView]  # (a row of `table`, its count of assets)
    asset_column: Any  # SQLAlchemy columns: typed by SQLModel as their Python values
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
    order=lambda: (case((col(AssetClass.is_cash).is_(True), 0), else_=1), AssetClass.idx,
                   func.lower(AssetClass.title), AssetClass.id),  # the cash class first
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


def _asset_counts(session: Session, column: Any) -> dict[int, int]:  # a SQLAlchemy column (SQLModel types it as its value)
    return {key: n for key, n in session.exec(select(column, func.count()).where(column.is_not(None)).group_by(column)).all()}


def _list_titled(kind: TitledList, actor: Actor, firm_id: int | None) -> list[TitledView]:
    require_staff(actor)
    with session_scope() as s:
        counts = _asset_counts(s, kind.asset_column)
        rows = s.exec(select(kind.table).where(kind.of_firm(_scope_firm(actor, firm_id))).order_by(*kind.order())).all()
        return [kind.read_row(row, counts.get(stored_id(row), 0)) for row in rows]


def list_classes(*, actor: Actor, firm_id: int | None = None) -> list[AssetClassView]:
    """The shared classes plus the firm's own, the cash class first."""
    return [row for row in _list_titled(CLASSES, actor, firm_id) if isinstance(row, AssetClassView)]


def list_types(*, actor: Actor, firm_id: int | None = None) -> list[AssetTypeView]:
    return [row for row in _list_titled(TYPES, actor, firm_id) if isinstance(row, AssetTypeView)]


def _check_title_unique(session: Session, table: type[AssetClass] | type[AssetType], title: str, firm: int | None,
                        exclude: int | None = None) -> None:
    stmt = select(table.id).where(titled(table, title, firm))  # a shared title clashes with any firm's own too
    if exclude is not None:
        stmt = stmt.where(table.id != exclude)
    if session.exec(stmt).first() is not None:
        raise ValidationError(rules.TITLE_UNIQUE, {"title": rules.TITLE_UNIQUE})


def _clean_title_or_raise(form: TitleForm) -> str:
    values, errors = rules.clean_title(form)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, dict(errors))
    return values["title"]


def _body_firm(session: Session, form: TitleForm) -> int | None:
    sent = form.firm_id
    if sent.given and (sent.id is None or _live_firm(session, sent.id) is None):
        raise ValidationError(INVALID_FORM, {"firm_id": FIRM_NOT_FOUND})
    return sent.id


def _load_titled(session: Session, kind: TitledList, row_id: int) -> AssetClass | AssetType:
    """A class or type by id; 404 with the list's text when there is none."""
    known = as_id(row_id)
    row = session.get(kind.table, known) if known else None
    if not isinstance(row, (AssetClass, AssetType)):
        raise NotFound(kind.not_found)
    return row


def _create_titled(kind: TitledList, actor: Actor, form: TitleForm,
                   columns: Callable[[Session], dict[str, Any]] = lambda session: {}) -> AssetClassSaved | AssetTypeSaved:
    """A new row (superuser): shared or the firm's own (the body's firm), its title unique there;
    `columns` gives the list's own further columns."""
    _require_manager(actor)
    title = _clean_title_or_raise(form)
    with session_scope() as s:
        firm = _body_firm(s, form)
        _check_title_unique(s, kind.table, title, firm)
        row = kind.table(title=title, firm_id=firm, **columns(s))
        s.add(row)
        s.flush()
        return _saved(kind.read_row(row, 0), kind.created)


def _update_titled(kind: TitledList, actor: Actor, row_id: int, form: TitleForm,
                   refuse: Callable[[Any, str], None] = lambda row, title: None) -> AssetClassSaved | AssetTypeSaved:
    """Rename a row (superuser) unless `refuse` raises; the new title must be unique where the row belongs."""
    _require_manager(actor)
    title = _clean_title_or_raise(form)
    with session_scope() as s:
        row = _load_titled(s, kind, row_id)
        refuse(row, title)
        _check_title_unique(s, kind.table, title, row.firm_id, exclude=row.id)
        row.title = title
        s.add(row)
        s.flush()
        assets_count = s.exec(select(func.count()).where(kind.asset_column == row.id)).one()
        return _saved(kind.read_row(row, assets_count), kind.updated)


def _delete_titled(kind: TitledList, actor: Actor, row_id: int,
                   refuse: Callable[[Any], None] = lambda row: None) -> Done:
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
        return Done(message=kind.deleted)


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


def _as_class(saved: AssetClassSaved | AssetTypeSaved) -> AssetClassSaved:
    assert isinstance(saved, AssetClassSaved)  # CLASSES reads its rows as classes
    return saved


def _as_type(saved: AssetClassSaved | AssetTypeSaved) -> AssetTypeSaved:
    assert isinstance(saved, AssetTypeSaved)  # TYPES reads its rows as types
    return saved


def create_class(*, actor: Actor, form: TitleForm) -> AssetClassSaved:
    """A new (non-cash) class, shared or a firm's own (superuser). The cash class is the system's."""
    return _as_class(_create_titled(CLASSES, actor, form, _next_class_columns))


def update_class(*, actor: Actor, class_id: int, form: TitleForm) -> AssetClassSaved:
    """Rename a class (superuser). The cash class stays the cash class: its title keeps "Cash"."""
    return _as_class(_update_titled(CLASSES, actor, class_id, form, _refuse_cash_rename))


def delete_class(*, actor: Actor, class_id: int) -> Done:
    """Delete an unused class (superuser). Never the cash class; never one with assets or models."""
    return _delete_titled(CLASSES, actor, class_id, _refuse_cash_delete)


def create_type(*, actor: Actor, form: TitleForm) -> AssetTypeSaved:
    return _as_type(_create_titled(TYPES, actor, form))


def update_type(*, actor: Actor, type_id: int, form: TitleForm) -> AssetTypeSaved:
    return _as_type(_update_titled(TYPES, actor, type_id, form))


def delete_type(*, actor: Actor, type_id: int) -> Done:
    return _delete_titled(TYPES, actor, type_id)


# ---- assets: reading -----------------------------------------------------------------------------
def _asset_select() -> Any:
    return (
        select(Asset, AssetClass.title, AssetType.title, IndustryGroup.title,  # type: ignore[call-overload]
               IndustryGroup.color, Firm.name)  # (sqlmodel types select() of up to four columns)
        .join(AssetClass, col(AssetClass.id) == col(Asset.class_id))
        .outerjoin(AssetType, col(AssetType.id) == col(Asset.type_id))
        .outerjoin(IndustryGroup, col(IndustryGroup.id) == col(Asset.industry_group_id))
        .outerjoin(Firm, col(Firm.id) == col(Asset.firm_id))
    )


def asset_row(asset: Asset, class_title: str | None, type_title: str | None, group_title: str | None,
              group_color: str | None, firm_name: str | None) -> AssetView:
    """The read shape of an asset (lists, details, lookups)."""
    return AssetView(
        id=stored_id(asset), code=asset.code, name=asset.name, class_id=asset.class_id, class_title=class_title,
        asset_class=TitledRef(id=asset.class_id, title=class_title),
        type=TitledRef(id=asset.type_id, title=type_title) if asset.type_id else None,
        industry_group=(GroupRef(id=asset.industry_group_id, title=group_title, color=group_color)
                        if asset.industry_group_id else None),
        firm=FirmRef(id=asset.firm_id, name=firm_name) if asset.firm_id else None,
        last_close_price=_shown(price_rules.price_text(asset.last_close_price)),
        last_close_date=asset.last_close_date,
        dividend_yield=_shown(percent_4dp_text(asset.dividend_yield)),
        one_month_return=_shown(percent_4dp_text(asset.one_month_return)),
        six_month_return=_shown(percent_4dp_text(asset.six_month_return)),
        url=asset.url,
    )


def _detail(view: AssetView, asset: Asset, prices_count: int) -> AssetDetail:
    return AssetDetail(**{name: getattr(view, name) for name in view.__dataclass_fields__},
                       prices_count=prices_count, created_at=asset.created_at, updated_at=asset.updated_at)


def _saved_asset(view: AssetView, message: str) -> AssetSaved:
    return AssetSaved(**{name: getattr(view, name) for name in view.__dataclass_fields__}, message=message)


def _nulls_last(column: Any, descending: bool) -> list[Any]:  # a SQLAlchemy column, as above
    return [case((column.is_(None), 1), else_=0), column.desc() if descending else column.asc()]


def _search_clause(text: str) -> Any:
    return or_(col(Asset.code).startswith(text.upper(), autoescape=True),
               func.lower(Asset.name).contains(text.lower(), autoescape=True))


def list_assets(*, actor: Actor, limit: int | None = None, offset: int | None = None, sort: str = "code",
                order: str = "asc", search: str | None = None, class_id: int | None = None,
                type_id: int | None = None, industry_group_id: int | None = None,
                firm_id: int | None = None) -> AssetPage:
    """One page of the universe the actor may use, with the total. Sorts: app.domain.assets.ASSET_SORTS
    (empty values last in both directions); search: code prefix or name contains."""
    require_staff(actor)
    limit_i, offset_i = listing.page(limit, offset)
    where = [readable_assets(actor, _scope_firm(actor, firm_id))]
    text = (search or "").strip()[:SEARCH_MAX]
    if text:
        where.append(_search_clause(text))
    for column, value in ((Asset.class_id, class_id), (Asset.type_id, type_id), (Asset.industry_group_id, industry_group_id)):
        if value is not None:
            where.append(col(column) == value)
    key = sort if sort in rules.ASSET_SORTS else "code"
    descending = (order or "").lower() in ("desc", "descending", "-1")
    plain: dict[str, Any] = {"code": Asset.code, "name": func.lower(Asset.name), "class": func.lower(AssetClass.title)}
    nullable: dict[str, Any] = {
        "industry_group": func.lower(IndustryGroup.title), "last_close_price": Asset.last_close_price,
        "last_close_date": Asset.last_close_date, "dividend_yield": Asset.dividend_yield,
        "one_month_return": Asset.one_month_return, "six_month_return": Asset.six_month_return}
    if key in plain:
        ordering = [plain[key].desc() if descending else plain[key].asc()]
    else:
        ordering = _nulls_last(nullable[key], descending)
    ordering.append(col(Asset.code).asc())
    with session_scope() as s:
        total = s.exec(
            select(func.count()).select_from(Asset).join(AssetClass, col(AssetClass.id) == col(Asset.class_id))
            .outerjoin(IndustryGroup, col(IndustryGroup.id) == col(Asset.industry_group_id)).where(*where)
        ).one()
        rows = s.exec(_asset_select().where(*where).order_by(*ordering).offset(offset_i).limit(limit_i)).all()
        return AssetPage(rows=tuple(asset_row(*row) for row in rows), total=int(total))


def _load_asset_row(session: Session, actor: Actor, asset_id: int) -> Any:
    wanted = as_id(asset_id)
    row = None
    if wanted is not None:
        row = session.exec(_asset_select().where(Asset.id == wanted, readable_assets(actor))).first()
    if row is None:
        raise NotFound(rules.ASSET_NOT_FOUND)
    return row


def get_asset(*, actor: Actor, asset_id: int) -> AssetDetail:
    require_staff(actor)
    with session_scope() as s:
        row = _load_asset_row(s, actor, asset_id)
        asset = row[0]
        count = int(s.exec(select(func.count()).select_from(AssetPrice).where(AssetPrice.asset_id == asset.id)).one())
        return _detail(asset_row(*row), asset, count)


def get_asset_by_code(*, actor: Actor, code: str, has_class: bool = False, firm_id: int | None = None) -> AssetView:
    """Lookup by code (uppercased) among the assets the firm may use: 404 'Asset {code} is not found'.
    With `has_class`, the asset's class must also be one the firm may use (shared or its own)."""
    require_staff(actor)
    wanted = normalise_code(code)[:rules.CODE_MAX + 1]
    firm = _scope_firm(actor, firm_id)
    with session_scope() as s:
        stmt = _asset_select().where(asset_by_code(actor, wanted, firm, with_usable_class=has_class))
        row = s.exec(stmt).first() if wanted else None
        if row is None:
            raise NotFound(rules.ASSET_CODE_NOT_FOUND.format(code=wanted))
        return asset_row(*row)


def search_assets(*, actor: Actor, query: str | None, firm_id: int | None = None, class_id: int | None = None,
                  limit: int = PICKER_LIMIT_DEFAULT) -> list[AssetView]:
    """For pickers: code prefix or name contains, exact code first, then code prefixes, then names.
    Firm scope: the shared universe plus that firm's assets; model scope: also `class_id`."""
    require_staff(actor)
    text = (query or "").strip()[:SEARCH_MAX]
    limit_i = max(1, min(limit, PICKER_LIMIT_MAX))
    where = [readable_assets(actor, _scope_firm(actor, firm_id))]
    if class_id is not None:
        where.append(col(Asset.class_id) == class_id)
    ordering: list[Any] = []
    if text:
        where.append(_search_clause(text))
        upper = text.upper()
        ordering.append(case((col(Asset.code) == upper, 0), (col(Asset.code).startswith(upper, autoescape=True), 1), else_=2))
    ordering.append(Asset.code)
    with session_scope() as s:
        rows = s.exec(_asset_select().where(*where).order_by(*ordering).limit(limit_i)).all()
        return [asset_row(*row) for row in rows]


def price_history(*, actor: Actor, asset_id: int, limit: int = HISTORY_DEFAULT) -> PriceHistory:
    """The newest `limit` closes of an asset, oldest first (ready for a chart), and the count of all."""
    require_staff(actor)
    limit_i = max(1, min(limit, HISTORY_MAX))
    with session_scope() as s:
        asset = _load_asset_row(s, actor, asset_id)[0]
        total = s.exec(select(func.count()).select_from(AssetPrice).where(AssetPrice.asset_id == asset.id)).one()
        rows = s.exec(select(col(AssetPrice.price_date), col(AssetPrice.close)).where(AssetPrice.asset_id == asset.id)
                      .order_by(col(AssetPrice.price_date).desc()).limit(limit_i)).all()
        return PriceHistory(rows=tuple(PricePoint(date=d, close=_shown(price_rules.price_text(c)))
                                       for d, c in reversed(rows)), total=int(total))


def filter_options(*, actor: Actor, firm_id: int | None = None) -> FilterOptions:
    """What the universe screen's filters and asset form offer, in one call: classes, types,
    industry groups (by their order) and, for the superuser, the firms."""
    require_staff(actor)
    firm = _scope_firm(actor, firm_id)
    with session_scope() as s:
        # the superuser naming no firm: every class and type (the shared ones and each firm's own)
        classes = s.exec(select(AssetClass).where(readable_asset_classes(actor, firm)).order_by(*CLASSES.order())).all()
        types = s.exec(select(AssetType).where(readable_asset_types(actor, firm)).order_by(*TYPES.order())).all()
        groups = s.exec(select(IndustryGroup).order_by(col(IndustryGroup.idx), func.lower(IndustryGroup.title))).all()
        firms: list[FirmRef] = []
        if actor.is_superuser:
            firms = [FirmRef(id=stored_id(f), name=f.name) for f in s.exec(
                select(Firm).where(col(Firm.deleted_at).is_(None)).order_by(func.lower(Firm.name))).all()]
        return FilterOptions(
            classes=tuple(_class_row(c) for c in classes),
            types=tuple(_type_row(t) for t in types),
            industry_groups=tuple(IndustryGroupOption(id=stored_id(g), title=g.title, color=g.color) for g in groups),
            firms=tuple(firms),
        )


# ---- assets: writing (superuser) ------------------------------------------------------------------
def _check_references(session: Session, values: AssetValues) -> dict[str, str]:
    """Field errors for references that do not exist or do not fit the asset's firm."""
    errors: dict[str, str] = {}
    firm = values.firm_id
    if firm is not None and _live_firm(session, firm) is None:
        errors["firm_id"] = FIRM_NOT_FOUND
    klass = session.get(AssetClass, values.class_id) if values.class_id else None
    if values.class_id and (klass is None or klass.firm_id not in (None, firm)):
        errors["class_id"] = rules.CLASS_NOT_FOUND
    if values.type_id:
        kind = session.get(AssetType, values.type_id)
        if kind is None or kind.firm_id not in (None, firm):
            errors["type_id"] = rules.TYPE_NOT_FOUND
    if values.industry_group_id and session.get(IndustryGroup, values.industry_group_id) is None:
        errors["industry_group_id"] = GROUP_NOT_FOUND
    return errors


def _clean_or_raise(session: Session, form: AssetForm, exclude: int | None = None) -> AssetValues:
    values, errors = rules.clean_asset(form)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, dict(errors))
    found = _check_references(session, values)
    if found:
        raise ValidationError(INVALID_FORM, found)
    clash = select(Asset.id).where(Asset.code == values.code)
    if exclude is not None:
        clash = clash.where(Asset.id != exclude)
    if session.exec(clash).first() is not None:
        raise ValidationError(rules.CODE_UNIQUE, {"code": rules.CODE_UNIQUE})
    return values


def _read_back(session: Session, asset_id: int) -> AssetView:
    row = session.exec(_asset_select().where(Asset.id == asset_id)).first()
    return asset_row(*row)


def _store(asset: Asset, values: AssetValues) -> None:
    assert values.class_id is not None  # clean_asset refuses a form without a class
    asset.code, asset.name, asset.class_id = values.code, values.name, values.class_id
    asset.type_id, asset.industry_group_id, asset.firm_id = values.type_id, values.industry_group_id, values.firm_id
    asset.dividend_yield, asset.url = values.dividend_yield, values.url


def create_asset(*, actor: Actor, form: AssetForm) -> AssetSaved:
    """A new listed asset (superuser): code uppercased and unique ('Code should be unique.')."""
    _require_manager(actor)
    try:
        with session_scope() as s:
            values = _clean_or_raise(s, form)
            assert values.class_id is not None  # clean_asset refuses a form without a class
            asset = Asset(code=values.code, name=values.name, class_id=values.class_id)
            _store(asset, values)
            s.add(asset)
            s.flush()
            return _saved_asset(_read_back(s, stored_id(asset)), rules.ASSET_CREATED)
    except IntegrityError:  # the same code saved at the same moment by someone else
        raise ValidationError(rules.CODE_UNIQUE, {"code": rules.CODE_UNIQUE}) from None


def update_asset(*, actor: Actor, asset_id: int, form: AssetForm) -> AssetSaved:
    _require_manager(actor)
    try:
        with session_scope() as s:
            known = as_id(asset_id)
            asset = s.get(Asset, known) if known else None
            if asset is None:
                raise NotFound(rules.ASSET_NOT_FOUND)
            values = _clean_or_raise(s, form, exclude=asset.id)
            _store(asset, values)
            asset.updated_at = utcnow()
            s.add(asset)
            s.flush()
            return _saved_asset(_read_back(s, stored_id(asset)), rules.ASSET_UPDATED)
    except IntegrityError:
        raise ValidationError(rules.CODE_UNIQUE, {"code": rules.CODE_UNIQUE}) from None


def asset_usage(session: Session, asset_id: int) -> bool:
    """Is the asset held by any model or recommendation (other services may refuse changes then)."""
    for stmt in (select(ModelAsset.id).where(or_(col(ModelAsset.asset_id) == asset_id, col(ModelAsset.alt_asset_id) == asset_id)),
                 select(ModelEquivalent.id).where(or_(col(ModelEquivalent.asset_id) == asset_id, col(ModelEquivalent.eq_asset_id) == asset_id)),
                 select(LongTermRecommendation.id).where(LongTermRecommendation.asset_id == asset_id),
                 select(ShortTermRecommendation.id).where(ShortTermRecommendation.asset_id == asset_id)):
        if session.exec(stmt).first() is not None:
            return True
    return False


# ---- prices -----------------------------------------------------------------------------------------
def _newest_closes(session: Session, asset_ids: Sequence[int], on_or_before: date | None = None) -> dict[int, tuple[date, Any]]:
    """{asset id: (date, close)} of each asset's newest price (on or before a day) in one query. On
    PostgreSQL a DISTINCT ON walks the (asset, day) index whatever the planner knows of the table:
    prices written in the same transaction (the demo data, an upload) have no statistics yet, and
    the grouped join was planned as a nested loop over all of them."""
    if session.get_bind().dialect.name == "postgresql":
        stmt = (select(col(AssetPrice.asset_id), col(AssetPrice.price_date), col(AssetPrice.close))
                .where(col(AssetPrice.asset_id).in_(asset_ids)))
        if on_or_before is not None:
            stmt = stmt.where(AssetPrice.price_date <= on_or_before)
        stmt = stmt.distinct(col(AssetPrice.asset_id)).order_by(col(AssetPrice.asset_id),
                                                                col(AssetPrice.price_date).desc())
        return {aid: (day, close) for aid, day, close in session.exec(stmt).all()}
    newest = select(AssetPrice.asset_id, func.max(AssetPrice.price_date).label("day")).where(col(AssetPrice.asset_id).in_(asset_ids))
    if on_or_before is not None:
        newest = newest.where(AssetPrice.price_date <= on_or_before)
    sub = newest.group_by(col(AssetPrice.asset_id)).subquery()
    rows = session.exec(
        select(col(AssetPrice.asset_id), col(AssetPrice.price_date), col(AssetPrice.close))
        .join(sub, (col(AssetPrice.asset_id) == sub.c.asset_id) & (col(AssetPrice.price_date) == sub.c.day))
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
            newest_day, close = last[aid] if aid in last else (None, None)
            updates.append({
                "id": aid,
                "last_close_price": close,
                "last_close_date": price_rules.close_instant(newest_day) if newest_day else None,
                "one_month_return": price_rules.period_return(close, references[1].get(aid)),
                "six_month_return": price_rules.period_return(close, references[6].get(aid)),
                "updated_at": now,
            })
    if updates:
        session.execute(update(Asset), updates)
    return len(updates)


def import_prices(*, actor: Actor, filename: str | None, content_type: str | None, data: bytes) -> PriceUpload:
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
                    good.append((stored_id(asset), line))
            inserted = updated = 0
            touched = sorted({aid for aid, _ in good})
            if good:
                first = min(line.price_date for _, line in good)
                newest = max(line.price_date for _, line in good)
                existing: dict[tuple[int, date], int] = {}
                for chunk in _chunks(touched):
                    for pid, aid, day in s.exec(select(col(AssetPrice.id), col(AssetPrice.asset_id), col(AssetPrice.price_date)).where(
                            col(AssetPrice.asset_id).in_(chunk), AssetPrice.price_date >= first,
                            AssetPrice.price_date <= newest)).all():
                        if pid is not None:
                            existing[(aid, day)] = pid
                new_rows, changed = [], []
                for aid, line in good:
                    price_id = existing.get((aid, line.price_date))
                    if price_id is None:
                        new_rows.append({"asset_id": aid, "price_date": line.price_date, "close": line.close})
                    else:
                        changed.append({"id": price_id, "close": line.close})
                if new_rows:
                    s.execute(insert(AssetPrice), new_rows)
                if changed:
                    s.execute(update(AssetPrice), changed)
                inserted, updated = len(new_rows), len(changed)
                recompute_prices(s, touched)
    except IntegrityError:
        raise Conflict(IMPORT_CONFLICT) from None
    rejected.sort(key=lambda r: r.line)
    lines = tuple(RejectedLine(line=r.line, code=r.code, reason=r.reason, message=r.message) for r in rejected)
    if not touched:
        raise NothingImported(PriceReport(imported=inserted, updated=updated, assets=0, rejected=lines))
    return PriceUpload(imported=inserted, updated=updated, assets=len(touched), rejected=lines, message=UPLOAD_COMPLETE)
