"""Target portfolios: calculate (one portfolio, or a chunk of a bulk run), read the current or
last approved one by role, list versions, validate, approve or decline (the record of advice),
and the commentary.

Every calculation writes a new TargetPortfolio row (a version): draft, draft flagged Not Enough
Cash, or failed (Calculation Error with the message). Nothing is overwritten; status changes
record who and when, and `row_version` refuses a change made against a stale copy.
"""
from __future__ import annotations

import json
import logging

import orjson
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable

from sqlalchemy import func, select as sa_select, update
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Model, ModelCommentary, Portfolio, PortfolioUser, TargetPortfolio, TargetPortfolioComment, TradeInstruction, User,
)
from app.db.types import utcnow
from app.domain import advice
from app.domain.advice import PortfolioFacts, TPStatus
from app.domain.engine.errors import CalculationError
from app.domain.engine.results import Target
from app.domain.engine.target import calculate_target
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.permissions import NOT_ALLOWED, Actor, require
from app.domain.roles import Role
from app.services import engine_inputs, listing
from app.services.portfolio_access import as_id, load_portfolio

log = logging.getLogger(__name__)

TP_NOT_FOUND = "Target portfolio not found"
APPROVED_TI = ("approved", "partially_approved")


# ---- facts about a portfolio for the role rules -----------------------------------------------
def portfolio_facts(s: Session, actor: Actor, p: Portfolio) -> PortfolioFacts:
    approved_tp = s.execute(sa_select(func.count()).where(TargetPortfolio.investment_id == p.id,
                                                         TargetPortfolio.status == TPStatus.ACTIVE.value)).scalar_one()
    approved_ti = s.execute(sa_select(func.count()).where(TradeInstruction.investment_id == p.id,
                                                         col(TradeInstruction.status).in_(APPROVED_TI))).scalar_one()
    link = s.exec(select(PortfolioUser).where(PortfolioUser.investment_id == p.id,
                                              PortfolioUser.user_id == actor.id)).first()
    return PortfolioFacts(inactive=p.inactive, has_approved_tp=approved_tp > 0, has_approved_ti=approved_ti > 0,
                          actor_is_owner=bool(link and link.is_owner), actor_is_holder=link is not None,
                          has_model=p.model_id is not None)


# ---- calculation --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    investment_id: int
    ok: bool
    tp_id: int | None
    error: str | None = None


def _next_versions(s: Session, ids: list[int], table=TargetPortfolio) -> dict[int, int]:
    rows = s.execute(sa_select(table.investment_id, func.max(table.version))
                     .where(col(table.investment_id).in_(ids)).group_by(table.investment_id)).all()
    latest = {pid: v or 0 for pid, v in rows}
    return {pid: latest.get(pid, 0) + 1 for pid in ids}


def compute_targets(s: Session, portfolio_ids: Iterable[int]) -> dict[int, Target | CalculationError]:
    """The engine's target for each portfolio (or the reason it cannot be calculated)."""
    return calculate_all(engine_inputs.build_snapshots(s, portfolio_ids))


def calculate_all(snapshots: dict[int, Any]) -> dict[int, Target | CalculationError]:
    """Runs the engine on loaded snapshots (no database access)."""
    out: dict[int, Target | CalculationError] = {}
    for pid, snapshot in snapshots.items():
        if isinstance(snapshot, CalculationError):
            out[pid] = snapshot
            continue
        try:
            out[pid] = calculate_target(snapshot)
        except CalculationError as exc:
            out[pid] = exc
        except Exception as exc:  # never let one portfolio stop the others; record a clear message
            log.exception("target portfolio of investment %s failed", pid)
            out[pid] = CalculationError("internal", f"The calculation failed: {exc.__class__.__name__}")
    return out


def _plain(value: Any) -> str:
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(type(value).__name__)


def dumps(result: Any) -> str:
    """An engine result as compact JSON, the same as json.dumps(result.to_dict()) (Decimals as
    strings) but written by orjson: bulk runs store thousands of these."""
    return orjson.dumps(result, default=_plain).decode()


def target_row(pid: int, version: int, result: Target | CalculationError, *, actor_id: int | None,
               run_id: int | None, now: datetime, model_id: int | None) -> dict[str, Any]:
    """The row (as a dict of columns) that stores one calculation's outcome."""
    base = dict(investment_id=pid, version=version, bulk_run_id=run_id, created_by=actor_id, moderator_id=actor_id,
                created_at=now, updated_at=now, row_version=1, model_id=model_id)
    if isinstance(result, CalculationError):
        return {**base, "status": TPStatus.FAILED.value, "not_enough_cash": False, "error_message": result.message,
                "value": None, "model_version": None, "allocation_method": None, "result": None}
    return {**base, "status": TPStatus.DRAFT.value, "not_enough_cash": result.not_enough_cash, "error_message": None,
            "value": result.value, "model_version": result.model_version,
            "allocation_method": result.allocation_method,
            "result": dumps(result)}


def calculate(*, actor: Actor, investment_id: Any) -> dict[str, Any]:
    """Calculates the target portfolio of one portfolio and stores it as a new version."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id, lock=True)
        require(advice.can_calculate_tp(actor, portfolio_facts(s, actor, p)))
        result = compute_targets(s, [p.id])[p.id]
        version = _next_versions(s, [p.id])[p.id]
        row = TargetPortfolio(**target_row(p.id, version, result, actor_id=actor.id, run_id=None, now=utcnow(),
                                           model_id=p.model_id))
        s.add(row)
        s.flush()
        return _shape(s, actor, p, row)


# ---- reading ------------------------------------------------------------------------------------
def _names(s: Session, ids: Iterable[int | None]) -> dict[int, dict[str, str]]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {u.id: {"first_name": u.first_name, "last_name": u.last_name}
            for u in s.exec(select(User).where(col(User.id).in_(wanted))).all()}


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def summary(row: TargetPortfolio, names: dict[int, dict[str, str]]) -> dict[str, Any]:
    return {
        "id": row.id, "investment_id": row.investment_id, "version": row.version, "status": row.status,
        "status_label": advice.tp_label(row.status, row.not_enough_cash), "not_enough_cash": row.not_enough_cash,
        "error_message": row.error_message, "target_portfolio_value": str(row.value) if row.value is not None else None,
        "model_id": row.model_id, "model_version": row.model_version, "allocation_method": row.allocation_method,
        "row_version": row.row_version,
        "created_at": _iso(row.created_at), "validated_at": _iso(row.validated_at),
        "approved_at": _iso(row.approved_at), "declined_at": _iso(row.declined_at),
        "creator": names.get(row.created_by), "validator": names.get(row.validated_by),
        "approver": names.get(row.approved_by), "decliner": names.get(row.declined_by),
        "moderator": names.get(row.moderator_id),
    }


def _shape(s: Session, actor: Actor, p: Portfolio, row: TargetPortfolio) -> dict[str, Any]:
    names = _names(s, [row.created_by, row.validated_by, row.approved_by, row.declined_by, row.moderator_id])
    facts = portfolio_facts(s, actor, p)
    comments = s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id)
                      .order_by(TargetPortfolioComment.id)).all()
    model = s.get(Model, row.model_id) if row.model_id else None
    return {
        **summary(row, names),
        "investment": {"id": p.id, "name": p.name, "type": p.type, "inactive": p.inactive},
        "model": {"id": model.id, "name": model.name, "allocation_method": model.allocation_method} if model else None,
        "result": json.loads(row.result) if row.result else None,
        "commentaries": _commentaries(s, row, comments),
        "permissions": {
            "calculate": advice.can_calculate_tp(actor, facts),
            "view_only": advice.tp_view_only(actor, facts),
            "edit_commentary": advice.can_edit_commentary(actor, facts),
            "decide": advice.can_decide_roa(actor, facts),
        },
    }


def _commentaries(s: Session, row: TargetPortfolio, own: list[TargetPortfolioComment]) -> list[dict[str, Any]]:
    """The target portfolio's own commentary; a type it has none of starts from the model's
    commentary of that type (id None until someone saves it for this target portfolio)."""
    out = [{"id": c.id, "type": c.type, "description": c.description} for c in own]
    have = {c.type for c in own}
    if row.model_id and len(have) < len(advice.COMMENT_TYPES):
        for c in s.exec(select(ModelCommentary).where(ModelCommentary.model_id == row.model_id)
                        .order_by(ModelCommentary.id)).all():
            if c.type not in have and c.type in advice.COMMENT_TYPES:
                out.append({"id": None, "type": c.type, "description": c.description})
                have.add(c.type)
    return out


def _visible_row(s: Session, actor: Actor, p: Portfolio, row: TargetPortfolio | None) -> TargetPortfolio:
    if row is None or row.investment_id != p.id:
        raise NotFound(TP_NOT_FOUND)
    statuses = advice.visible_tp_statuses(actor)
    if statuses is not None and TPStatus(row.status) not in statuses:
        raise NotFound(TP_NOT_FOUND)
    return row


def current_row(s: Session, actor: Actor, p: Portfolio) -> TargetPortfolio | None:
    """The target portfolio the actor is shown: the newest for superusers and advisers (unless an
    adviser on an inactive portfolio with approvals), otherwise the last approved one."""
    query = select(TargetPortfolio).where(TargetPortfolio.investment_id == p.id)
    if not advice.sees_current_tp(actor, portfolio_facts(s, actor, p)):
        query = query.where(TargetPortfolio.status == TPStatus.ACTIVE.value)
    return s.exec(query.order_by(TargetPortfolio.version.desc())).first()


def get_current(*, actor: Actor, investment_id: Any, version: Any = None) -> dict[str, Any] | None:
    """The current target portfolio of the portfolio for this actor, or a given version."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        if version not in (None, ""):
            number = as_id(version)
            row = s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == p.id,
                                                       TargetPortfolio.version == number)).first() if number else None
            return _shape(s, actor, p, _visible_row(s, actor, p, row))
        row = current_row(s, actor, p)
        return None if row is None else _shape(s, actor, p, row)


def get(*, actor: Actor, tp_id: Any) -> dict[str, Any]:
    with session_scope() as s:
        row = s.get(TargetPortfolio, as_id(tp_id) or 0)
        if row is None:
            raise NotFound(TP_NOT_FOUND)
        p = load_portfolio(s, actor, row.investment_id)
        return _shape(s, actor, p, _visible_row(s, actor, p, row))


def list_versions(*, actor: Actor, investment_id: Any, limit: Any = None, offset: Any = None,
                  order: Any = "desc") -> tuple[list[dict[str, Any]], int]:
    """Versions newest first (12/20/32 per page); others than superusers and advisers see only
    validated, approved and declined ones."""
    limit_, offset_ = listing.page(limit, offset, default=advice.VERSION_PAGE_SIZES[0])
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        where = [TargetPortfolio.investment_id == p.id]
        statuses = advice.visible_tp_statuses(actor)
        if statuses is not None:
            where.append(col(TargetPortfolio.status).in_([st.value for st in statuses]))
        total = s.execute(sa_select(func.count()).select_from(TargetPortfolio).where(*where)).scalar_one()
        direction = TargetPortfolio.created_at.asc() if str(order).lower() == "asc" else TargetPortfolio.created_at.desc()
        rows = s.exec(select(TargetPortfolio).where(*where).order_by(direction, TargetPortfolio.version.desc())
                      .limit(limit_).offset(offset_)).all()
        names = _names(s, [u for r in rows for u in (r.created_by, r.validated_by, r.approved_by, r.declined_by,
                                                     r.moderator_id)])
        return [summary(r, names) for r in rows], int(total)


# ---- status changes -------------------------------------------------------------------------------
def _load_for_change(s: Session, actor: Actor, tp_id: Any, row_version: Any) -> tuple[Portfolio, TargetPortfolio, PortfolioFacts]:
    row = s.get(TargetPortfolio, as_id(tp_id) or 0)
    if row is None:
        raise NotFound(TP_NOT_FOUND)
    p = load_portfolio(s, actor, row.investment_id, lock=True)
    row = _visible_row(s, actor, p, row)
    if row_version not in (None, "") and as_id(row_version) != row.row_version:
        raise Conflict(advice.EDITED_ELSEWHERE)
    return p, row, portfolio_facts(s, actor, p)


def _bump(s: Session, row: TargetPortfolio, **values: Any) -> None:
    """Writes a status change only if nobody else changed the row meanwhile."""
    done = s.execute(update(TargetPortfolio).where(TargetPortfolio.id == row.id,
                                                   TargetPortfolio.row_version == row.row_version)
                     .values(row_version=row.row_version + 1, updated_at=utcnow(), **values)).rowcount
    if done != 1:
        raise Conflict(advice.EDITED_ELSEWHERE)
    s.expire(row)


def validate(*, actor: Actor, tp_id: Any, row_version: Any = None) -> dict[str, Any]:
    """Draft -> validated (Approval Required); the client owners are e-mailed when approval is
    required and requested. When the portfolio does not require approval it becomes active."""
    from app.services import records_of_advice

    with session_scope() as s:
        p, row, facts = _load_for_change(s, actor, tp_id, row_version)
        if advice.tp_view_only(actor, facts) or not advice.can_calculate_tp(actor, facts):
            raise PermissionDenied(NOT_ALLOWED)
        if row.status != TPStatus.DRAFT.value or row.not_enough_cash or row.result is None:
            raise ValidationError(advice.NOT_EDITABLE)
        now = utcnow()
        settings = records_of_advice.approval_settings(p)
        values: dict[str, Any] = dict(status=TPStatus.VALIDATED.value, validated_by=actor.id, validated_at=now,
                                      moderator_id=actor.id)
        if not settings.get("tp_approval_required", True):
            values.update(status=TPStatus.ACTIVE.value, approved_by=actor.id, approved_at=now)
        _bump(s, row, **values)
        s.refresh(row)
        if row.status == TPStatus.VALIDATED.value:
            records_of_advice.notify_validated(s, p, row, settings)
        return _shape(s, actor, p, row)


def decide(*, actor: Actor, tp_id: Any, action: str, row_version: Any = None) -> dict[str, Any]:
    """Approve or decline a record of advice (002 s4): only when it is the last validated target
    portfolio or still pending, by a superuser, a client owner or an adviser."""
    if action not in ("approve", "decline"):
        raise ValidationError("Unknown action")
    with session_scope() as s:
        p, row, facts = _load_for_change(s, actor, tp_id, row_version)
        if not advice.can_decide_roa(actor, facts):
            raise PermissionDenied(NOT_ALLOWED)
        last_validated = s.exec(select(TargetPortfolio.id).where(TargetPortfolio.investment_id == p.id,
                                                                 TargetPortfolio.validated_at.is_not(None))
                                .order_by(TargetPortfolio.version.desc())).first()
        if row.status == TPStatus.FAILED.value or not advice.roa_decidable(row.status, last_validated == row.id):
            raise ValidationError(advice.NOT_EDITABLE)
        if row.status == TPStatus.DRAFT.value and action == "approve":
            raise ValidationError(advice.VALIDATE_FIRST)
        now = utcnow()
        if action == "approve":
            _bump(s, row, status=TPStatus.ACTIVE.value, approved_by=actor.id, approved_at=now, moderator_id=actor.id)
        else:
            _bump(s, row, status=TPStatus.DECLINED.value, declined_by=actor.id, declined_at=now, moderator_id=actor.id)
        s.refresh(row)
        shape = _shape(s, actor, p, row)
        shape["message"] = advice.TP_APPROVED if action == "approve" else advice.TP_DECLINED
        return shape


# ---- commentary ---------------------------------------------------------------------------------
def save_comment(*, actor: Actor, tp_id: Any, type: str, description: str, comment_id: Any = None) -> dict[str, Any]:
    if type not in advice.COMMENT_TYPES:
        raise ValidationError("Unknown commentary type")
    with session_scope() as s:
        row = s.get(TargetPortfolio, as_id(tp_id) or 0)
        if row is None:
            raise NotFound(TP_NOT_FOUND)
        p = load_portfolio(s, actor, row.investment_id)
        _visible_row(s, actor, p, row)
        if not advice.can_edit_commentary(actor, portfolio_facts(s, actor, p)) or row.status not in (
                TPStatus.DRAFT.value, TPStatus.VALIDATED.value):
            raise PermissionDenied(NOT_ALLOWED)
        comment = None
        if comment_id not in (None, ""):
            comment = s.get(TargetPortfolioComment, as_id(comment_id) or 0)
            if comment is None or comment.tp_id != row.id:
                raise NotFound("Comment not found")
        if comment is None:
            comment = s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id,
                                                                  TargetPortfolioComment.type == type)).first()
        if comment is None:
            comment = TargetPortfolioComment(tp_id=row.id, model_id=row.model_id, type=type, description="")
        comment.description = str(description or "")[:20000]
        comment.updated_by = actor.id
        comment.updated_at = utcnow()
        s.add(comment)
        s.flush()
        return {"id": comment.id, "type": comment.type, "description": comment.description, "new_comment_id": comment.id}
