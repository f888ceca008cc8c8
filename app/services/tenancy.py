"""Tenancy: the one module that says what of the firm-owned data an acting user may read.

Every firm-scoped read of the services builds its WHERE clause (or loads its row) here, for the
acting user (`Actor`); lookups by code or title included. No other service writes a firm filter
for a read (tests/unit/test_tenancy_gate.py keeps it so).

- Firms: the superuser reads every live firm; everyone else their own.
- Users: the superuser reads everyone (or one named firm's people); everyone else their firm's
  people, and only the roles `visible_roles` lets them see.
- Portfolios: the superuser reads every live portfolio; administrators and advisers their firm's;
  clients the portfolios they hold. Another firm's portfolio is not found (404), never revealed.
  Changes to a portfolio (and its transactions, deposits, custom holdings) are for staff.
- Models: a firm reads its own, those shared with it and those open to all; the superuser every
  model. Only the owner firm (or the superuser) edits one.
- Reference data (assets, asset classes, asset types): the shared rows (no firm) plus the firm's
  own. A superuser reads everything, or a named firm's view of it. Industry groups have no firm:
  every staff member reads all of them.
- Audit events: administrators their firm's, the superuser everyone's (or one firm's).
- Bulk runs: their creator, staff of their firm, the superuser.
"""
from __future__ import annotations

from typing import Iterable, TypeVar

from sqlalchemy import ColumnElement, exists, func, or_
from sqlmodel import Session, SQLModel, col, select

from app.db.tables import (
    Asset, AssetClass, AssetType, AuditEvent, BulkRun, Firm, IndustryGroup, Model, ModelSharedFirm, Portfolio,
    PortfolioUser, User,
)
from app.domain import assets as asset_rules
from app.domain.errors import NotFound, PermissionDenied, not_found
from app.domain.models import Availability
from app.domain.permissions import NOT_ALLOWED, Actor, can_edit_model, can_view_firm, can_view_user, is_staff
from app.domain.roles import Role
from app.db.types import stored_id
from app.domain.parsing import as_id

# A WHERE clause, for a select of the table it names.
Where = ColumnElement[bool]
# A firm-owned row of a portfolio (a deposit, a transaction, a custom holding).
PortfolioRow = TypeVar("PortfolioRow", bound=SQLModel)
# A reference table (asset classes, asset types) with its firm column.
ReferenceTable = type[AssetClass] | type[AssetType] | type[Asset]

FIRM_NOT_FOUND = not_found("Firm")
USER_NOT_FOUND = not_found("User")
PORTFOLIO_NOT_FOUND = not_found("Portfolio")
MODEL_NOT_FOUND = not_found("Model")


# ---- ids -------------------------------------------------------------------------------------------
# The loaders take ids as numbers; they still read them through as_id, so that a number that is no
# id (zero, past the 32-bit ids) is "not found" rather than a database error.
def normalise_code(code: object) -> str:
    """Asset codes are looked up uppercased (spec 002 s5)."""
    return str(code or "").strip().upper()


def _firm_in_view(actor: Actor, firm_id: int | None) -> int | None:
    """The firm whose view is wanted: the one a superuser names (None: no firm named), else the
    actor's own. Never a firm sent by anyone else."""
    return firm_id if actor.is_superuser else actor.firm_id


# ---- firms -----------------------------------------------------------------------------------------
def readable_firms(actor: Actor) -> Where:
    """WHERE clause of the live firms the actor may read: every one for the superuser, else its own."""
    alive = col(Firm.deleted_at).is_(None)
    return alive if actor.is_superuser else alive & (col(Firm.id) == actor.firm_id)


def load_firm(session: Session, actor: Actor, firm_id: int) -> Firm:
    """The live firm if the actor may see it; another firm is "not found", never "forbidden"."""
    number = as_id(firm_id)  # not an id (or beyond one): not found, never a database error
    firm = session.get(Firm, number) if number is not None else None
    if firm is None or firm.deleted_at is not None or not can_view_firm(actor, stored_id(firm)):
        raise NotFound(FIRM_NOT_FOUND)
    return firm


def firms_to_own_or_share(actor: Actor) -> Where:
    """WHERE clause of the firms a model form offers: every live firm for the superuser (to own or
    share with); for others the live firms to share with (every firm but their own, names only)."""
    alive = col(Firm.deleted_at).is_(None)
    return alive if actor.is_superuser else alive & (col(Firm.id) != actor.firm_id)


def firms_of_model(model: Model) -> Where:
    """WHERE clause of the firms a (readable) model names: its owner and the firms it is shared with
    (deleted ones included: the caller shows or drops them)."""
    shared = select(ModelSharedFirm.firm_id).where(ModelSharedFirm.model_id == model.id)
    return or_(col(Firm.id) == model.firm_id, col(Firm.id).in_(shared))


# ---- users -----------------------------------------------------------------------------------------
def readable_users(actor: Actor, firm_id: int | None = None) -> Where:
    """WHERE clause of the users of the actor's firm; for the superuser every user, or those of
    `firm_id` when named. (Which roles a list shows is the caller's filter: `visible_roles`.)"""
    if actor.is_superuser:
        return col(User.firm_id) == firm_id if firm_id else col(User.id).is_not(None)
    return col(User.firm_id) == actor.firm_id


def people_of_firm(firm_id: int | None | ColumnElement[int | None]) -> Where:
    """WHERE clause of the users who belong to `firm_id`: the only people a record of that firm may
    name (its holders, its adviser). The firm is one the caller has already read for the actor (or
    the firm column of the row a query reads)."""
    return col(User.firm_id) == firm_id


def load_user(session: Session, actor: Actor, user_id: int | None) -> User:
    """The user if the actor may see them (themselves, or a visible role of their firm); 404 otherwise
    (also for none named: None)."""
    number = as_id(user_id)
    user = session.get(User, number) if number is not None else None
    if user is None or not can_view_user(actor, Role(user.role), user.firm_id, stored_id(user)):
        raise NotFound(USER_NOT_FOUND)
    return user


# ---- portfolios ------------------------------------------------------------------------------------
def readable_portfolios(actor: Actor, firm_id: int | None = None) -> Where:
    """WHERE clause of the (not deleted) portfolios the actor can see; narrowed to `firm_id`'s
    portfolios when one is given (a firm the caller resolved for the actor, e.g. a superuser's filter)."""
    alive = col(Portfolio.deleted_at).is_(None)
    clause: Where
    if actor.is_superuser:
        clause = alive
    elif actor.role is Role.CLIENT:
        held = exists().where(col(PortfolioUser.investment_id) == col(Portfolio.id),
                              col(PortfolioUser.user_id) == actor.id)
        clause = alive & held
    else:
        clause = alive & (col(Portfolio.firm_id) == actor.firm_id)
    if firm_id is not None:
        clause = clause & (col(Portfolio.firm_id) == firm_id)
    return clause


def live_portfolios_of(firm_id: int | None) -> Where:
    """WHERE clause of the live portfolios of one firm (every firm when None), for reports whose
    firm the caller has resolved for the actor (app.services.trade_file.report_firm)."""
    clause: Where = col(Portfolio.deleted_at).is_(None)
    if firm_id is not None:
        clause = clause & (col(Portfolio.firm_id) == firm_id)
    return clause


def load_portfolio(session: Session, actor: Actor, portfolio_id: int | None, *, for_edit: bool = False,
                   lock: bool = False) -> Portfolio:
    """The portfolio if the actor may see it (404 otherwise, also for a form that named none: None);
    with for_edit, also refuse (403)
    a client. lock takes a row lock (PostgreSQL) so that concurrent writers of one portfolio's
    transactions queue up instead of interleaving balance checks."""
    pid = as_id(portfolio_id)
    if pid is None:
        raise NotFound(PORTFOLIO_NOT_FOUND)
    statement = select(Portfolio).where(col(Portfolio.id) == pid, readable_portfolios(actor))
    if lock:
        statement = statement.with_for_update()
    portfolio = session.exec(statement).first()
    if portfolio is None:
        raise NotFound(PORTFOLIO_NOT_FOUND)
    if for_edit and not is_staff(actor):
        raise PermissionDenied(NOT_ALLOWED)
    return portfolio


def load_portfolio_row(session: Session, actor: Actor, table: type[PortfolioRow], row_id: int, not_found: str, *,
                       for_edit: bool = False, lock: bool = False) -> tuple[PortfolioRow, Portfolio]:
    """A row of a portfolio's own `table` (a deposit, a transaction, a custom holding) and its
    portfolio, loaded as load_portfolio does; 404 with `not_found` when there is no such row or the
    actor may not see its portfolio."""
    number = as_id(row_id)
    row = session.get(table, number) if number is not None else None
    if row is None:
        raise NotFound(not_found)
    try:
        portfolio = load_portfolio(session, actor, getattr(row, "investment_id"), for_edit=for_edit, lock=lock)
    except NotFound:
        raise NotFound(not_found) from None
    return row, portfolio


def is_holder(session: Session, portfolio_id: int, user_id: int) -> bool:
    return session.exec(select(PortfolioUser).where(PortfolioUser.investment_id == portfolio_id,
                                                    PortfolioUser.user_id == user_id)).first() is not None


# ---- models ----------------------------------------------------------------------------------------
def readable_models(actor: Actor, firm_id: int | None = None) -> Where:
    """WHERE clause of the models an actor can see: own firm's, shared with the firm, or open to
    all; every live model for the superuser, or those `firm_id` owns when the superuser names one."""
    if actor.is_superuser:
        clause = col(Model.deleted_at).is_(None)
        return clause & (col(Model.firm_id) == firm_id) if firm_id is not None else clause
    return models_usable_by(actor.firm_id)


def models_usable_by(firm_id: int | None) -> Where:
    """WHERE clause of the models a firm can see (and link its portfolios to, when active and
    available): its own, those shared with it, and those open to all."""
    shared = exists().where(col(ModelSharedFirm.model_id) == col(Model.id), col(ModelSharedFirm.firm_id) == firm_id)
    return (col(Model.deleted_at).is_(None)) & or_(
        col(Model.firm_id) == firm_id,
        col(Model.availability) == Availability.ALL.value,
        (col(Model.availability) == Availability.WITH_PRACTICE.value) & shared,
    )


def editable_models(actor: Actor) -> Where:
    """WHERE clause of the models the actor may change: its firm's own (every one for the superuser)."""
    return col(Model.id).is_not(None) if actor.is_superuser else col(Model.firm_id) == actor.firm_id


def load_model(session: Session, actor: Actor, model_id: int | None, *, for_edit: bool = False) -> Model:
    """The model if the actor may see it (404 otherwise, never revealing other firms' models);
    with for_edit, also refuse (403) when the actor's firm does not own it."""
    if not is_staff(actor):
        raise PermissionDenied(NOT_ALLOWED)
    number = as_id(model_id)
    model = session.exec(select(Model).where(col(Model.id) == number, readable_models(actor))).first() \
        if number is not None else None
    if model is None:
        raise NotFound(MODEL_NOT_FOUND)
    if for_edit and not can_edit_model(actor, model.firm_id):
        raise PermissionDenied(NOT_ALLOWED)
    return model


# ---- reference data: assets, asset classes, asset types, industry groups ---------------------------
def own_or_shared(column: int | None, firm_id: int | None) -> Where:
    """WHERE clause on a reference table's firm column (`Asset.firm_id`, ...): the shared rows plus
    `firm_id`'s own; only the shared rows when no firm is given."""
    firm = col(column)
    return firm.is_(None) if firm_id is None else or_(firm.is_(None), firm == firm_id)


def readable_assets(actor: Actor, firm_id: int | None = None) -> Where:
    """Assets a firm may use: the shared universe plus the firm's own. The superuser reads every
    asset, or a named firm's view of the universe."""
    return _readable_own_or_shared(Asset, actor, firm_id)


def _readable_own_or_shared(table: ReferenceTable, actor: Actor, firm_id: int | None) -> Where:
    """WHERE clause of the rows of `table` (shared, or a firm's own) the actor may read: the shared
    ones plus its firm's; for the superuser every row, or the view of the firm it names."""
    firm = _firm_in_view(actor, firm_id)
    if actor.is_superuser and firm is None:
        return col(table.id).is_not(None)
    return own_or_shared(table.firm_id, firm)


def asset_classes_of(firm_id: int | None) -> Where:
    """WHERE clause of the asset classes a firm may use (the shared ones only when no firm)."""
    return own_or_shared(AssetClass.firm_id, firm_id)


def asset_types_of(firm_id: int | None) -> Where:
    """WHERE clause of the asset types a firm may use (the shared ones only when no firm)."""
    return own_or_shared(AssetType.firm_id, firm_id)


def readable_asset_classes(actor: Actor, firm_id: int | None = None) -> Where:
    """Asset classes the actor may read: shared plus its firm's; the superuser every class, or a
    named firm's view."""
    return _readable_own_or_shared(AssetClass, actor, firm_id)


def readable_asset_types(actor: Actor, firm_id: int | None = None) -> Where:
    """Asset types the actor may read: shared plus its firm's; the superuser every type, or a
    named firm's view."""
    return _readable_own_or_shared(AssetType, actor, firm_id)


def readable_industry_groups(actor: Actor) -> Where:
    """Industry groups are the shared taxonomy (no firm owns one): staff read every group."""
    if not is_staff(actor):
        raise PermissionDenied(NOT_ALLOWED)
    return col(IndustryGroup.id).is_not(None)


def usable_ids(s: Session, table: ReferenceTable, ids: Iterable[int], firm_id: int | None) -> set[int]:
    """Those of `ids` that name rows of `table` (asset classes, asset types) the firm may use."""
    wanted = set(ids)
    if not wanted:
        return set()
    found = s.exec(select(col(table.id)).where(col(table.id).in_(wanted), own_or_shared(table.firm_id, firm_id))).all()
    return {i for i in found if i is not None}


def titled(table: type[AssetClass] | type[AssetType], title: str, firm_id: int | None) -> Where:
    """WHERE clause of the rows of a reference table (asset classes, asset types) called `title`
    (case-insensitive) that `firm_id` may use; with no firm, every firm's and the shared ones
    (a shared title must not clash with any firm's own either)."""
    same = func.lower(col(table.title)) == title.lower()
    return same if firm_id is None else same & own_or_shared(table.firm_id, firm_id)


def asset_by_code(actor: Actor, code: str, firm_id: int | None = None, *, with_usable_class: bool = False) -> Where:
    """WHERE clause of the asset with that code (uppercased) among those the firm may use; with
    `with_usable_class`, its class must also be one the firm may use (join AssetClass)."""
    firm = _firm_in_view(actor, firm_id)
    clause = (col(Asset.code) == normalise_code(code)) & readable_assets(actor, firm)
    if with_usable_class and not (actor.is_superuser and firm is None):
        clause = clause & asset_classes_of(firm)
    return clause


def find_assets_by_codes(session: Session, actor: Actor, codes: Iterable[object],
                         firm_id: int | None = None) -> dict[str, Asset]:
    """Usable assets by code (uppercased) in one query; unknown codes (and other firms' private
    assets) are simply absent."""
    wanted = {normalise_code(c) for c in codes if normalise_code(c)}
    if not wanted:
        return {}
    rows = session.exec(select(Asset).where(col(Asset.code).in_(wanted), readable_assets(actor, firm_id))).all()
    return {a.code: a for a in rows}


def load_asset(session: Session, actor: Actor, asset_id: int, firm_id: int | None = None) -> Asset:
    """The asset if the (named) firm may use it; 'Asset not found' otherwise."""
    number = as_id(asset_id)
    asset = None
    if number is not None:
        asset = session.exec(select(Asset).where(col(Asset.id) == number, readable_assets(actor, firm_id))).first()
    if asset is None:
        raise NotFound(asset_rules.ASSET_NOT_FOUND)
    return asset


def load_asset_by_code(session: Session, actor: Actor, code: str, firm_id: int | None = None) -> Asset:
    """The asset with that code if the (named) firm may use it; 'Asset {code} is not found' otherwise."""
    wanted = normalise_code(code)
    asset = session.exec(select(Asset).where(asset_by_code(actor, wanted, firm_id))).first() if wanted else None
    if asset is None:
        raise NotFound(asset_rules.ASSET_CODE_NOT_FOUND.format(code=wanted))
    return asset


# ---- audit events and bulk runs --------------------------------------------------------------------
def readable_audit_events(actor: Actor, firm_id: int | None = None) -> Where:
    """Superusers: every event (or one firm's); administrators: their firm's; others none (403)."""
    if actor.is_superuser:
        return col(AuditEvent.firm_id) == firm_id if firm_id is not None else col(AuditEvent.id).is_not(None)
    if actor.role is Role.ADMINISTRATOR and actor.firm_id is not None:
        return col(AuditEvent.firm_id) == actor.firm_id
    raise PermissionDenied(NOT_ALLOWED)


def can_read_bulk_run(actor: Actor, run: BulkRun) -> bool:
    """A bulk run is read by its creator, by staff of its firm and by the superuser."""
    return actor.is_superuser or run.created_by == actor.id or (
        run.firm_id is not None and run.firm_id == actor.firm_id and actor.role is not Role.CLIENT)

