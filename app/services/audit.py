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
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from enum import Enum
from typing import Any, Iterable, Mapping

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import AuditEvent, Firm, Portfolio, User
from app.db.types import utcnow
from app.domain.errors import NotFound, ValidationError
from app.domain.permissions import Actor
from app.services import listing
from app.services.tenancy import PORTFOLIO_NOT_FOUND, as_id, readable_audit_events, readable_portfolios

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
def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    return value


def snapshot(row: Any) -> dict[str, Any]:
    """A row's column values (JSON-ready), without secrets and write bookkeeping."""
    return {c.name: _plain(getattr(row, c.name, None)) for c in row.__table__.columns if c.name not in HIDDEN_FIELDS}


def _label(row: Any) -> str | None:
    if isinstance(row, User):
        return f"{row.first_name} {row.last_name} <{row.email}>".strip()
    return getattr(row, "name", None)


def _firm_of(row: Any) -> int | None:
    if isinstance(row, Firm):
        return row.id
    return getattr(row, "firm_id", None)


def record(s: Session, actor: Actor | None, action: str, object_type: str, object_id: int | None = None, *,
           label: str | None = None, firm_id: int | None = None, before: Mapping[str, Any] | None = None,
           after: Mapping[str, Any] | None = None, actor_email: str | None = None, actor_id: int | None = None) -> None:
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
        before=json.dumps(_plain(before), sort_keys=True) if before else None,
        after=json.dumps(_plain(after), sort_keys=True) if after else None,
        ip=_origin.get(),
    ))


def record_many(s: Session, actor_id: int | None, action: str, object_type: str,
                events: Iterable[tuple[int, str | None, int | None, Mapping[str, Any]]]) -> None:
    """Many events of one action by one user (a bulk calculation's portfolios), in one bulk insert:
    each (object id, label, firm id, after)."""
    from app.db import bulk

    if action not in ACTIONS:
        raise ValueError(f"{UNKNOWN_ACTION}: {action}")
    user = s.get(User, actor_id) if actor_id is not None else None
    email, ip, now = (user.email if user is not None else None), _origin.get(), utcnow()
    rows = [(now, actor_id, email, firm_id, action, object_type, object_id, (label or "")[:300] or None,
             json.dumps(_plain(after), sort_keys=True), ip) for object_id, label, firm_id, after in events]
    if rows:
        bulk.copy_rows(s, AuditEvent, rows, columns=("at", "actor_id", "actor_email", "firm_id", "action", "object_type",
                                                     "object_id", "object_label", "after", "ip"))


def created(s: Session, actor: Actor | None, action: str, object_type: str, row: Any) -> None:
    s.flush()
    record(s, actor, action, object_type, row.id, label=_label(row), firm_id=_firm_of(row), after=snapshot(row))


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keys whose values differ, as (before, after)."""
    before, after = _plain(before), _plain(after)
    keys = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    return {k: before.get(k) for k in keys}, {k: after.get(k) for k in keys}


def changed(s: Session, actor: Actor | None, action: str, object_type: str, row: Any, before: Mapping[str, Any]) -> None:
    """The fields of `row` that differ from `before` (a `snapshot` taken before the change)."""
    old, new = diff(before, snapshot(row))
    record(s, actor, action, object_type, row.id, label=_label(row), firm_id=_firm_of(row), before=old, after=new)


# ---- reading --------------------------------------------------------------------------------------
def _row(e: AuditEvent) -> dict[str, Any]:
    return {
        "id": e.id, "at": e.at.isoformat(), "actor_id": e.actor_id, "actor_email": e.actor_email,
        "firm_id": e.firm_id, "action": e.action, "action_title": ACTIONS.get(e.action, e.action),
        "object_type": e.object_type, "object_type_title": OBJECT_TYPES.get(e.object_type, e.object_type),
        "object_id": e.object_id, "object_label": e.object_label,
        "before": json.loads(e.before) if e.before else {}, "after": json.loads(e.after) if e.after else {},
        "ip": e.ip,
    }


def _day(value: Any) -> date | None:
    text = str(value or "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        raise ValidationError("Invalid date", {"date": "Invalid date"}) from None


def _scope(actor: Actor, firm_id: Any):
    """Superusers: every event (or one firm's); administrators: their firm's."""
    return readable_audit_events(actor, as_id(firm_id))


def _filters(actor: Actor, who: Any = None, action: Any = None, object_type: Any = None, object_id: Any = None,
             date_from: Any = None, date_to: Any = None, firm_id: Any = None) -> list[Any]:
    where = [_scope(actor, firm_id)]
    if str(who or "").strip():
        where.append(func.lower(AuditEvent.actor_email).contains(str(who).strip().lower()))
    if str(action or "").strip():
        if str(action) not in ACTIONS:
            raise ValidationError(UNKNOWN_ACTION)
        where.append(AuditEvent.action == str(action))
    if str(object_type or "").strip():
        where.append(AuditEvent.object_type == str(object_type))
    if as_id(object_id) is not None:
        where.append(AuditEvent.object_id == as_id(object_id))
    start, end = _day(date_from), _day(date_to)
    if start is not None and end is not None and start > end:
        raise ValidationError(DATES_REVERSED, {"date_to": DATES_REVERSED})
    if start is not None:
        where.append(AuditEvent.at >= datetime.combine(start, time.min))
    if end is not None:
        where.append(AuditEvent.at < datetime.combine(end + timedelta(days=1), time.min))
    return where


def list_events(*, actor: Actor, limit: Any = None, offset: Any = None, **filters: Any) -> tuple[list[dict[str, Any]], int]:
    """The events the actor may read, newest first, with the filters (who: part of the e-mail;
    action; object type and id; dates from/to inclusive, UTC)."""
    where = _filters(actor, **filters)
    size, start = listing.page(limit, offset)
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(AuditEvent).where(*where)).one()
        rows = s.exec(select(AuditEvent).where(*where).order_by(col(AuditEvent.at).desc(), col(AuditEvent.id).desc())
                      .offset(start).limit(size)).all()
        return [_row(e) for e in rows], int(total)


def all_events(*, actor: Actor, **filters: Any) -> Iterable[dict[str, Any]]:
    """Every matching event, newest first (the Excel export)."""
    where = _filters(actor, **filters)
    with session_scope() as s:
        rows = s.exec(select(AuditEvent).where(*where).order_by(col(AuditEvent.at).desc(), col(AuditEvent.id).desc())).all()
        return [_row(e) for e in rows]


def portfolio_history(*, actor: Actor, investment_id: Any, limit: Any = None, offset: Any = None) -> tuple[list[dict[str, Any]], int]:
    """A portfolio's own history, for anyone who may see the portfolio: its changes and those of its
    target portfolios, records of advice and trade recommendations (recorded against the portfolio)."""
    pid = as_id(investment_id)
    with session_scope() as s:
        if pid is None or s.exec(select(Portfolio.id).where(Portfolio.id == pid, readable_portfolios(actor))).first() is None:
            raise NotFound(PORTFOLIO_NOT_FOUND)
        where = [AuditEvent.object_type == "portfolio", AuditEvent.object_id == pid]
        size, start = listing.page(limit, offset)
        total = s.exec(select(func.count()).select_from(AuditEvent).where(*where)).one()
        rows = s.exec(select(AuditEvent).where(*where).order_by(col(AuditEvent.at).desc(), col(AuditEvent.id).desc())
                      .offset(start).limit(size)).all()
        return [_row(e) for e in rows], int(total)


def filter_options(*, actor: Actor) -> dict[str, Any]:
    _scope(actor, None)
    return {"actions": [{"value": k, "label": v} for k, v in ACTIONS.items()],
            "object_types": [{"value": k, "label": v} for k, v in OBJECT_TYPES.items()]}

