"""The audit trail: who did what, when, to which object, before and after, from which address.

Services call `record` (or `created` / `changed`) with their own session, so the event is written
in the same transaction as the change and is never kept for a change that was rolled back. Nothing
in the app updates or deletes an event. The address is the request's, set once per request or
Reflex event by `set_origin` (the API's middleware, AppState); background jobs have none.

Reading: superusers see every event, a firm's administrators their firm's; anyone who may see a
portfolio sees that portfolio's own history."""
from __future__ import annotations

import json
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from enum import Enum
from typing import Iterable, Mapping

from sqlalchemy import ColumnElement, func
from sqlmodel import Session, SQLModel, col, select

from app.db.engine import session_scope
from app.db.tables import AuditEvent, Firm, Portfolio, User
from app.db.types import stored_id, utcnow
from app.domain.errors import NotFound, ValidationError
from app.domain.audit_trail import AuditEntry, Snapshot
from app.domain.parsing import as_id
from app.domain.permissions import Actor
from app.domain.wire import Json
from app.services import listing
from app.services.listing import Page
from app.services.tenancy import PORTFOLIO_NOT_FOUND, readable_audit_events, readable_portfolios

# Never in a before/after: secrets, and bookkeeping that changes with every write.
HIDDEN_FIELDS = frozenset({"password_hash", "token_hash", "updated_at", "version", "created_at",
                           "broker_auth_code_secret", "broker_auth_pass_secret"})

# action -> what the screen calls it
ACTIONS: dict[str, str] = {
    "signin": "Signed in",
    "signin.failed": "Sign-in failed",
    "signout": "Signed out",
    "password.changed": "Password changed",
    "email.changed": "E-mail changed",
    "firm.created": "Firm created",
    "firm.updated": "Firm changed",
    "firm.deleted": "Firm deleted",
    "user.created": "User created",
    "user.updated": "User changed",
    "user.deleted": "User deleted",
    "model.created": "Model created",
    "model.updated": "Model changed",
    "model.deleted": "Model deleted",
    "portfolio.created": "Portfolio created",
    "portfolio.updated": "Portfolio changed",
    "portfolio.deleted": "Portfolio deleted",
    "portfolio.model_linked": "Model linked",
    "portfolio.model_unlinked": "Model unlinked",
    "portfolio.broker_credentials_changed": "Broker credentials changed",
    "portfolio.broker_credentials_removed": "Broker credentials removed",
    "target_portfolio.calculated": "Target portfolio calculated",
    "target_portfolio.saved": "Target portfolio edited",
    "target_portfolio.validated": "Target portfolio validated",
    "record_of_advice.approved": "Record of advice approved",
    "record_of_advice.declined": "Record of advice declined",
    "trade_instruction.calculated": "Trade recommendations calculated",
    "trade_instruction.validated": "Trade recommendations validated",
    "trade_instruction.declined": "Trade recommendations declined",
    "trade_instruction.decided": "Trade decisions confirmed",
    "trade_instruction.edited": "Trade recommendations edited",
    "trade_instruction.auto_approved": "Trades approved automatically",
    "broker_file.exported": "Broker file exported",
    "order.executed": "Order executed",
    "order.rejected": "Order rejected",
    "order.cancelled": "Order cancelled",
    "order.expired": "Order expired",
    "broker_confirmations.uploaded": "Execution file uploaded",
    "bulk_run.started": "Bulk calculation started",
}
OBJECT_TYPES: dict[str, str] = {
    "session": "Session", "user": "User", "firm": "Firm", "model": "Model", "portfolio": "Portfolio",
    "broker_file": "Broker file", "bulk_run": "Bulk calculation",
}
UNKNOWN_ACTION = "Unknown audit action"
DATES_REVERSED = "The From date has to be on or before the To date."

_origin: ContextVar[str | None] = ContextVar("audit_origin", default=None)


def set_origin(ip: str | None) -> None:
    """The address of the request or Reflex event now being served."""
    _origin.set((ip or None) and str(ip)[:64])


# ---- writing --------------------------------------------------------------------------------------
def _plain(value: object) -> Json:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Enum):
        return _plain(value.value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _values(value: Mapping[str, object]) -> Snapshot:
    return {str(k): _plain(v) for k, v in value.items()}


def snapshot(row: SQLModel) -> Snapshot:
    """A row's column values (JSON-ready), without secrets and write bookkeeping."""
    columns = getattr(row, "__table__").columns
    return {c.name: _plain(getattr(row, c.name, None)) for c in columns if c.name not in HIDDEN_FIELDS}


def _label(row: SQLModel) -> str | None:
    if isinstance(row, User):
        return f"{row.first_name} {row.last_name} <{row.email}>".strip()
    name = getattr(row, "name", None)
    return name if isinstance(name, str) else None


def _firm_of(row: SQLModel) -> int | None:
    if isinstance(row, Firm):
        return row.id
    firm_id = getattr(row, "firm_id", None)
    return firm_id if isinstance(firm_id, int) else None


def record(s: Session, actor: Actor | None, action: str, object_type: str, object_id: int | None = None, *,
           label: str | None = None, firm_id: int | None = None, before: Mapping[str, object] | None = None,
           after: Mapping[str, object] | None = None, actor_email: str | None = None, actor_id: int | None = None) -> None:
    """Adds one event to the caller's transaction. Without an Actor, `actor_id` names the user (or
    nobody: a sweep, a failed sign-in with `actor_email`)."""
    if action not in ACTIONS:
        raise ValueError(f"{UNKNOWN_ACTION}: {action}")
    if actor is None and actor_id is not None and actor_email is None:
        user = s.get(User, actor_id)
        actor_email = user.email if user is not None else None
    s.add(AuditEvent(
        actor_id=actor.id if actor is not None else actor_id,
        actor_email=(actor.email if actor is not None else actor_email) or None,
        firm_id=firm_id, action=action, object_type=object_type, object_id=object_id,
        object_label=(label or "")[:300] or None,
        before=json.dumps(_values(before), sort_keys=True) if before else None,
        after=json.dumps(_values(after), sort_keys=True) if after else None,
        ip=_origin.get(),
    ))


def record_many(s: Session, actor_id: int | None, action: str, object_type: str,
                events: Iterable[tuple[int, str | None, int | None, Mapping[str, object]]]) -> None:
    """Many events of one action by one user (a bulk calculation's portfolios), in one bulk insert:
    each (object id, label, firm id, after)."""
    from app.db import bulk

    if action not in ACTIONS:
        raise ValueError(f"{UNKNOWN_ACTION}: {action}")
    user = s.get(User, actor_id) if actor_id is not None else None
    email, ip, now = (user.email if user is not None else None), _origin.get(), utcnow()
    rows = [(now, actor_id, email, firm_id, action, object_type, object_id, (label or "")[:300] or None,
             json.dumps(_values(after), sort_keys=True), ip) for object_id, label, firm_id, after in events]
    if rows:
        bulk.copy_rows(s, AuditEvent, rows, columns=("at", "actor_id", "actor_email", "firm_id", "action", "object_type",
                                                     "object_id", "object_label", "after", "ip"))


def created(s: Session, actor: Actor | None, action: str, object_type: str, row: SQLModel) -> None:
    s.flush()
    record(s, actor, action, object_type, stored_id(row), label=_label(row), firm_id=_firm_of(row), after=snapshot(row))


def diff(before: Mapping[str, object], after: Mapping[str, object]) -> tuple[Snapshot, Snapshot]:
    """The keys whose values differ, as (before, after)."""
    old, new = _values(before), _values(after)
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return {k: old.get(k) for k in keys}, {k: new.get(k) for k in keys}


def changed(s: Session, actor: Actor | None, action: str, object_type: str, row: SQLModel,
            before: Mapping[str, object]) -> None:
    """The fields of `row` that differ from `before` (a `snapshot` taken before the change)."""
    old, new = diff(before, snapshot(row))
    record(s, actor, action, object_type, stored_id(row), label=_label(row), firm_id=_firm_of(row), before=old, after=new)


# ---- reading --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AuditFilter:
    """The trail's filters as read at the edge (None: not filtered): `who` part of the e-mail, the
    action and the object's type by their keys, the dates from and to (inclusive, UTC), and for a
    superuser the firm."""
    who: str | None = None
    action: str | None = None
    object_type: str | None = None
    object_id: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    firm_id: int | None = None
    unreadable_date: bool = False  # a day was sent that is no date: refused once who asks is checked


@dataclass(frozen=True)
class Choice:
    """A value a filter offers and what the screen calls it."""
    value: str
    label: str


@dataclass(frozen=True)
class AuditFilterOptions:
    actions: tuple[Choice, ...]
    object_types: tuple[Choice, ...]


def _stored(text: str | None) -> Snapshot:
    """A before or after as stored (JSON text of an object), {} when none was kept."""
    value: Snapshot = json.loads(text) if text else {}
    return value


def _row(e: AuditEvent) -> AuditEntry:
    return AuditEntry(
        id=stored_id(e), at=e.at, actor_id=e.actor_id, actor_email=e.actor_email, firm_id=e.firm_id,
        action=e.action, action_title=ACTIONS.get(e.action, e.action), object_type=e.object_type,
        object_type_title=OBJECT_TYPES.get(e.object_type, e.object_type), object_id=e.object_id,
        object_label=e.object_label, before=_stored(e.before), after=_stored(e.after), ip=e.ip,
    )


INVALID_DATE = "Invalid date"


def _day(text: str | None) -> date | bool | None:
    """The day a filter names (YYYY-MM-DD), None when none, False when the text is no date."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return False


def read_filter(*, who: str | None = None, action: str | None = None, object_type: str | None = None,
                object_id: str | int | None = None, date_from: str | None = None, date_to: str | None = None,
                firm_id: str | int | None = None) -> AuditFilter:
    """The trail's filters as sent (the query, the screen's choices): blanks as not filtered, ids
    as numbers (text that is no id: not filtered), days as dates (text that is no date is refused
    by the service with 'Invalid date', after it has checked who asks)."""
    def text(value: str | None) -> str | None:
        return value if value and value.strip() else None

    start, end = _day(date_from), _day(date_to)
    return AuditFilter(who=text(who), action=text(action), object_type=text(object_type),
                       object_id=as_id(object_id), firm_id=as_id(firm_id),
                       date_from=start if isinstance(start, date) else None,
                       date_to=end if isinstance(end, date) else None,
                       unreadable_date=start is False or end is False)


def _filters(actor: Actor, chosen: AuditFilter) -> list[ColumnElement[bool]]:
    """Superusers: every event (or one firm's); administrators: their firm's; then the filters."""
    where = [readable_audit_events(actor, chosen.firm_id)]
    if chosen.who is not None:
        where.append(func.lower(col(AuditEvent.actor_email)).contains(chosen.who.strip().lower()))
    if chosen.action is not None:
        if chosen.action not in ACTIONS:
            raise ValidationError(UNKNOWN_ACTION)
        where.append(col(AuditEvent.action) == chosen.action)
    if chosen.object_type is not None:
        where.append(col(AuditEvent.object_type) == chosen.object_type)
    if chosen.object_id is not None:
        where.append(col(AuditEvent.object_id) == chosen.object_id)
    if chosen.unreadable_date:
        raise ValidationError(INVALID_DATE, {"date": INVALID_DATE})
    start, end = chosen.date_from, chosen.date_to
    if start is not None and end is not None and start > end:
        raise ValidationError(DATES_REVERSED, {"date_to": DATES_REVERSED})
    if start is not None:
        where.append(col(AuditEvent.at) >= datetime.combine(start, time.min))
    if end is not None:
        where.append(col(AuditEvent.at) < datetime.combine(end + timedelta(days=1), time.min))
    return where


_NEWEST_FIRST = (col(AuditEvent.at).desc(), col(AuditEvent.id).desc())


def list_events(*, actor: Actor, limit: int | None = None, offset: int | None = None,
                filters: AuditFilter = AuditFilter()) -> Page[AuditEntry]:
    """The events the actor may read, newest first, with the filters."""
    where = _filters(actor, filters)
    size, start = listing.page(limit, offset)
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(AuditEvent).where(*where)).one()
        rows = s.exec(select(AuditEvent).where(*where).order_by(*_NEWEST_FIRST).offset(start).limit(size)).all()
        return Page(rows=tuple(_row(e) for e in rows), total=int(total))


def all_events(*, actor: Actor, filters: AuditFilter = AuditFilter()) -> list[AuditEntry]:
    """Every matching event, newest first (the Excel export)."""
    where = _filters(actor, filters)
    with session_scope() as s:
        return [_row(e) for e in s.exec(select(AuditEvent).where(*where).order_by(*_NEWEST_FIRST)).all()]


def portfolio_history(*, actor: Actor, investment_id: int, limit: int | None = None,
                      offset: int | None = None) -> Page[AuditEntry]:
    """A portfolio's own history, for anyone who may see the portfolio: its changes and those of its
    target portfolios, records of advice and trade recommendations (recorded against the portfolio)."""
    with session_scope() as s:
        if s.exec(select(Portfolio.id).where(col(Portfolio.id) == investment_id,
                                             readable_portfolios(actor))).first() is None:
            raise NotFound(PORTFOLIO_NOT_FOUND)
        where = [col(AuditEvent.object_type) == "portfolio", col(AuditEvent.object_id) == investment_id]
        size, start = listing.page(limit, offset)
        total = s.exec(select(func.count()).select_from(AuditEvent).where(*where)).one()
        rows = s.exec(select(AuditEvent).where(*where).order_by(*_NEWEST_FIRST).offset(start).limit(size)).all()
        return Page(rows=tuple(_row(e) for e in rows), total=int(total))


def filter_options(*, actor: Actor) -> AuditFilterOptions:
    readable_audit_events(actor, None)  # refused to whoever may not read the trail
    return AuditFilterOptions(actions=tuple(Choice(k, v) for k, v in ACTIONS.items()),
                              object_types=tuple(Choice(k, v) for k, v in OBJECT_TYPES.items()))
