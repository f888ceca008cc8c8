"""What the advice services (target portfolios, records of advice, trade recommendations, bulk
runs, the advice reports) read alike, in the caller's session: the facts the role rules need about
a portfolio, the next version numbers, the target portfolio as the screens show it, the approval
settings and who receives the e-mails, people's names, and the firm's live-update topic. The
modules of those use cases import this one; it imports none of them."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Iterable

from sqlalchemy import func, select as sa_select, true
from sqlmodel import Session, col, select

from app.db.tables import (
    Model, ModelCommentary, Portfolio, PortfolioUser, TargetPortfolio, TargetPortfolioComment, TradeInstruction, User,
)
from app.domain import advice
from app.domain import portfolios as portfolio_rules
from app.domain.advice import PortfolioFacts, TIStatus, TPStatus
from app.domain.errors import NotFound
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.services.tenancy import as_id, load_portfolio

TP_NOT_FOUND = "Target portfolio not found"
APPROVED_TI = ("approved", "partially_approved")
# Trade recommendations a client never sees: not validated yet (staff only), or not calculated.
STAFF_ONLY_TI = (TIStatus.PENDING_VALIDATION.value, TIStatus.NOT_VALIDATED.value, TIStatus.FAILED.value)


# ---- facts about a portfolio for the role rules --------------------------------------------------
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


# ---- versions ------------------------------------------------------------------------------------
def next_versions(s: Session, ids: list[int], table=TargetPortfolio) -> dict[int, int]:
    """Each portfolio's next version number in `table` (target portfolios or trade instructions)."""
    rows = s.execute(sa_select(table.investment_id, func.max(table.version))
                     .where(col(table.investment_id).in_(ids)).group_by(table.investment_id)).all()
    latest = {pid: v or 0 for pid, v in rows}
    return {pid: latest.get(pid, 0) + 1 for pid in ids}


# ---- people --------------------------------------------------------------------------------------
def user_name_parts(s: Session, ids: Iterable[int | None]) -> dict[int, dict[str, str]]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {u.id: {"first_name": u.first_name, "last_name": u.last_name}
            for u in s.exec(select(User).where(col(User.id).in_(wanted))).all()}


def person_name(first: str | None, last: str | None, preferred: str | None = None) -> str:
    return f"{preferred or first or ''} {last or ''}".strip()


def owner_names(s: Session, portfolio_ids: list[int]) -> dict[int, str]:
    """portfolio id -> its owners' names ('A Smith, B Smith'; every holder when none is an owner)."""
    if not portfolio_ids:
        return {}
    rows = s.execute(sa_select(PortfolioUser.investment_id, PortfolioUser.is_owner, User.first_name, User.last_name,
                               User.preferred_name)
                     .join(User, User.id == PortfolioUser.user_id)
                     .where(col(PortfolioUser.investment_id).in_(portfolio_ids))
                     .order_by(PortfolioUser.investment_id, User.last_name, User.first_name, User.id)).all()
    owners: dict[int, list[str]] = {}
    holders: dict[int, list[str]] = {}
    for pid, is_owner, first, last, preferred in rows:
        name = person_name(first, last, preferred)
        holders.setdefault(pid, []).append(name)
        if is_owner:
            owners.setdefault(pid, []).append(name)
    return {pid: ", ".join(owners.get(pid) or names) for pid, names in holders.items()}


def user_names(s: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {uid: person_name(first, last, preferred) for uid, first, last, preferred in s.execute(
        sa_select(User.id, User.first_name, User.last_name, User.preferred_name).where(col(User.id).in_(wanted))).all()}


def portfolio_owners(s: Session, portfolio_id: int) -> list[User]:
    return list(s.exec(select(User).join(PortfolioUser, PortfolioUser.user_id == User.id)
                       .where(PortfolioUser.investment_id == portfolio_id, PortfolioUser.is_owner.is_(True))
                       .order_by(User.first_name, User.last_name, User.id)).all())


def receivers(text: Any) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


# ---- approval settings ---------------------------------------------------------------------------
def approval_settings(p: Portfolio) -> dict[str, Any]:
    """The portfolio's approval settings completed with the creation defaults."""
    return portfolio_rules.approval_settings_of(p.approval_settings)


# ---- the target portfolio as the screens show it -------------------------------------------------
def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def tp_summary(row: TargetPortfolio, names: dict[int, dict[str, str]]) -> dict[str, Any]:
    return {
        "id": row.id, "investment_id": row.investment_id, "version": row.version, "status": row.status,
        "status_label": advice.tp_label(row.status, row.not_enough_cash), "not_enough_cash": row.not_enough_cash,
        "error_message": row.error_message, "target_portfolio_value": str(row.value) if row.value is not None else None,
        "model_id": row.model_id, "model_version": row.model_version, "allocation_method": row.allocation_method,
        "row_version": row.row_version,
        "created_at": iso(row.created_at), "validated_at": iso(row.validated_at),
        "approved_at": iso(row.approved_at), "declined_at": iso(row.declined_at),
        "creator": names.get(row.created_by), "validator": names.get(row.validated_by),
        "approver": names.get(row.approved_by), "decliner": names.get(row.declined_by),
        "moderator": names.get(row.moderator_id),
    }


def tp_shape(s: Session, actor: Actor, p: Portfolio, row: TargetPortfolio,
             result: dict[str, Any] | None = None) -> dict[str, Any]:
    """The target portfolio as the screens and the API show it; `result` replaces the stored one
    (an edit step's recalculation)."""
    names = user_name_parts(s, [row.created_by, row.validated_by, row.approved_by, row.declined_by, row.moderator_id])
    facts = portfolio_facts(s, actor, p)
    comments = s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id)
                      .order_by(TargetPortfolioComment.id)).all()
    model = s.get(Model, row.model_id) if row.model_id else None
    if result is None and row.result:
        result = json.loads(row.result)
    return {
        **tp_summary(row, names),
        "investment": {"id": p.id, "name": p.name, "type": p.type, "inactive": p.inactive},
        "model": {"id": model.id, "name": model.name, "allocation_method": model.allocation_method} if model else None,
        "result": result,
        "overrides": edits_of(result),
        "commentaries": tp_commentaries(s, row, comments),
        "permissions": {
            "calculate": advice.can_calculate_tp(actor, facts),
            "view_only": advice.tp_view_only(actor, facts),
            "edit_commentary": advice.can_edit_commentary(actor, facts),
            "decide": advice.can_decide_roa(actor, facts),
        },
    }


def tp_commentaries(s: Session, row: TargetPortfolio, own: list[TargetPortfolioComment]) -> list[dict[str, Any]]:
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


def visible_tp_row(s: Session, actor: Actor, p: Portfolio, row: TargetPortfolio | None) -> TargetPortfolio:
    if row is None or row.investment_id != p.id:
        raise NotFound(TP_NOT_FOUND)
    statuses = advice.visible_tp_statuses(actor)
    if statuses is not None and TPStatus(row.status) not in statuses:
        raise NotFound(TP_NOT_FOUND)
    return row


def last_validated_tp_id(s: Session, portfolio_id: int) -> int | None:
    """The id of the portfolio's newest validated target portfolio (whatever its status now): the
    only record of advice that may still be decided once validated."""
    return s.exec(select(TargetPortfolio.id).where(TargetPortfolio.investment_id == portfolio_id,
                                                   TargetPortfolio.validated_at.is_not(None))
                  .order_by(TargetPortfolio.version.desc())).first()


def load_tp(s: Session, actor: Actor, tp_id: Any, *, lock: bool = False) -> tuple[Portfolio, TargetPortfolio]:
    """A target portfolio by id with its portfolio (locked when asked), when the actor may see
    both; NotFound otherwise."""
    row = s.get(TargetPortfolio, as_id(tp_id) or 0)
    if row is None:
        raise NotFound(TP_NOT_FOUND)
    p = load_portfolio(s, actor, row.investment_id, lock=lock)
    return p, visible_tp_row(s, actor, p, row)


def edits_of(result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The adviser's edits a (stored or recalculated) result carries, in the form `edit_step` and
    `save_edit` take them, so that the next edit starts from them: added assets first
    ({asset_id, code, class_id}), then the units set ({asset_id, code, target_units})."""
    if not result:
        return []
    codes = {a["asset_id"]: a["code"] for a in result.get("assets") or []}
    out: list[dict[str, Any]] = [{"asset_id": a["asset_id"], "code": codes.get(a["asset_id"]), "class_id": a["class_id"]}
                                 for a in result.get("added") or []]
    out += [{"asset_id": o["asset_id"], "code": codes.get(o["asset_id"]), "target_units": o["target_units"]}
            for o in result.get("overrides") or []]
    return out


# ---- trade recommendations a client may see ------------------------------------------------------
def client_visible_instructions(actor: Actor):
    """Extra WHERE clause on trade instructions for the actor (clients: validated ones only)."""
    return col(TradeInstruction.status).not_in(STAFF_ONLY_TI) if actor.role is Role.CLIENT else true()


def shown_instruction(s: Session, actor: Actor, p: Portfolio, version: Any = None) -> TradeInstruction | None:
    """The portfolio's trade recommendations the actor is shown: the version asked for, else the
    newest (a client's newest is the newest validated one); None when there is none."""
    query = select(TradeInstruction).where(TradeInstruction.investment_id == p.id, client_visible_instructions(actor))
    if version not in (None, ""):
        query = query.where(TradeInstruction.version == (as_id(version) or 0))
    return s.exec(query.order_by(TradeInstruction.version.desc())).first()


# ---- live updates --------------------------------------------------------------------------------
def firm_topic(firm_id: int | None) -> str:
    return f"firm:{firm_id or 0}"
