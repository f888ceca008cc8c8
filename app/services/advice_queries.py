"""What the advice services (target portfolios, records of advice, trade recommendations, bulk
runs, the advice reports) read alike, in the caller's session: the facts the role rules need about
a portfolio, the next version numbers, the target portfolio as the screens show it, the approval
settings and who receives the e-mails, people's names, and the firm's live-update topic. The
modules of those use cases import this one; it imports none of them."""
from __future__ import annotations

import json
from typing import Any, Iterable

from sqlalchemy import JSON, cast, func, select as sa_select, true
from sqlmodel import Session, col, select

from app.db.tables import (
    Asset, AssetClass, IndustryGroup, Model, ModelCommentary, Portfolio, PortfolioUser, TargetPortfolio,
    TargetPortfolioComment, TradeInstruction, User,
)
from app.domain import advice
from app.domain import portfolios as portfolio_rules
from app.domain.advice import PortfolioFacts, TIStatus, TPStatus
from app.domain.advice.target_portfolios import (
    Commentary, InvestmentRef, ModelRef, ResultNames, TargetPortfolioView, TPPermissions, TPSummary,
)
from app.domain.engine.results import Target
from app.domain.users import DecisionTrail, PersonName, known_as
from app.domain.errors import NotFound, not_found
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.timezones import iso_json
from app.services import postings
from app.services.tenancy import as_id, load_portfolio


def result_text(s: Session, key: str):
    """A figure of a target portfolio's stored result (its JSON), as text, read by the database:
    the one way the reports and the trade file read e.g. its minimum cash."""
    if s.get_bind().dialect.name == "postgresql":
        return func.json_extract_path_text(cast(TargetPortfolio.result, JSON), key)
    return func.json_extract(TargetPortfolio.result, f"$.{key}")

TP_NOT_FOUND = not_found("Target portfolio")
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
def person_names(s: Session, ids: Iterable[int | None]) -> dict[int, PersonName]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {u.id: PersonName(u.first_name, u.last_name) for u in s.exec(select(User).where(col(User.id).in_(wanted)))}


def trail_people(rows: Iterable[Any]) -> list[int | None]:
    """The users a decision trail names, of every row."""
    return [u for r in rows for u in (r.created_by, r.validated_by, r.approved_by, r.declined_by, r.moderator_id)]


def trail_of(row: TargetPortfolio | TradeInstruction, names: dict[int, PersonName]) -> dict[str, Any]:
    """The DecisionTrail fields of a target portfolio or trade instructions row."""
    return {"created_at": row.created_at, "validated_at": row.validated_at, "approved_at": row.approved_at,
            "declined_at": row.declined_at, "creator": names.get(row.created_by),
            "validator": names.get(row.validated_by), "approver": names.get(row.approved_by),
            "decliner": names.get(row.declined_by), "moderator": names.get(row.moderator_id)}


def person_json(name: PersonName | None) -> dict[str, str] | None:
    return {"first_name": name.first_name, "last_name": name.last_name} if name else None


def trail_json(t: DecisionTrail) -> dict[str, Any]:
    return {"created_at": iso_json(t.created_at), "validated_at": iso_json(t.validated_at), "approved_at": iso_json(t.approved_at),
            "declined_at": iso_json(t.declined_at), "creator": person_json(t.creator), "validator": person_json(t.validator),
            "approver": person_json(t.approver), "decliner": person_json(t.decliner),
            "moderator": person_json(t.moderator)}


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
        name = known_as(first, last, preferred)
        holders.setdefault(pid, []).append(name)
        if is_owner:
            owners.setdefault(pid, []).append(name)
    return {pid: ", ".join(owners.get(pid) or names) for pid, names in holders.items()}


def user_names(s: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {uid: known_as(first, last, preferred) for uid, first, last, preferred in s.execute(
        sa_select(User.id, User.first_name, User.last_name, User.preferred_name).where(col(User.id).in_(wanted))).all()}


def portfolio_owners(s: Session, portfolio_id: int) -> list[User]:
    return list(s.exec(select(User).join(PortfolioUser, PortfolioUser.user_id == User.id)
                       .where(PortfolioUser.investment_id == portfolio_id, PortfolioUser.is_owner.is_(True))
                       .order_by(User.first_name, User.last_name, User.id)).all())


def receivers(text: str | None) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


# ---- approval settings ---------------------------------------------------------------------------
def approval_settings(p: Portfolio) -> dict[str, Any]:
    """The portfolio's approval settings completed with the creation defaults."""
    return portfolio_rules.approval_settings_of(p.approval_settings)


# ---- the target portfolio as the screens show it -------------------------------------------------
def summary_of(row: TargetPortfolio, names: dict[int, PersonName]) -> TPSummary:
    return TPSummary(
        id=row.id, investment_id=row.investment_id, version=row.version, status=row.status,
        not_enough_cash=row.not_enough_cash, error_message=row.error_message, value=row.value,
        model_id=row.model_id, model_version=row.model_version, allocation_method=row.allocation_method,
        row_version=row.row_version, **trail_of(row, names),
    )


def stored_result(row: TargetPortfolio) -> Target | None:
    return Target.from_dict(json.loads(row.result)) if row.result else None


def tp_view(s: Session, actor: Actor, p: Portfolio, row: TargetPortfolio, result: Target | None = None,
            facts: PortfolioFacts | None = None) -> TargetPortfolioView:
    """The target portfolio as the screens and the API read it; `result` replaces the stored one
    (an edit step's recalculation); `facts`: the portfolio's facts for the actor, when read already."""
    names = person_names(s, trail_people([row]))
    comments = s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id)
                      .order_by(TargetPortfolioComment.id)).all()
    model = s.get(Model, row.model_id) if row.model_id else None
    if result is None:
        result = stored_result(row)
    return TargetPortfolioView(
        summary=summary_of(row, names),
        investment=InvestmentRef(id=p.id, name=p.name, type=p.type, inactive=p.inactive),
        model=ModelRef(id=model.id, name=model.name, allocation_method=model.allocation_method) if model else None,
        result=result,
        names=result_names(s, result) if result is not None else ResultNames(),
        commentaries=tp_commentaries(s, row, comments),
        permissions=TPPermissions.of(actor, facts or portfolio_facts(s, actor, p)),
        placed_buys=postings.committed_to_orders(s, [p.id])[p.id],
    )


def result_names(s: Session, result: Target) -> ResultNames:
    """The names behind the ids `result` holds: its assets, classes and industry groups."""
    asset_ids = {a.asset_id for a in result.assets}
    class_ids = ({a.class_id for a in result.assets} | {h.class_id for h in result.holdings}
                 | {c.id for c in result.classes if c.id is not None})
    group_ids = ({a.industry_group_id for a in result.assets if a.industry_group_id is not None}
                 | {g.id for g in result.industry_groups if g.id is not None})
    assets = {a.id: (a.name, a.url or "") for a in s.exec(select(Asset).where(col(Asset.id).in_(asset_ids)))} \
        if asset_ids else {}
    classes = {c.id: c.title for c in s.exec(select(AssetClass).where(col(AssetClass.id).in_(class_ids)))} \
        if class_ids else {}
    groups = {g.id: (g.title, g.color or "")
              for g in s.exec(select(IndustryGroup).where(col(IndustryGroup.id).in_(group_ids)))} if group_ids else {}
    return ResultNames(assets=assets, classes=classes, industry_groups=groups)


def tp_commentaries(s: Session, row: TargetPortfolio, own: list[TargetPortfolioComment]) -> tuple[Commentary, ...]:
    """The target portfolio's own commentary; a type it has none of starts from the model's
    commentary of that type (id None until someone saves it for this target portfolio)."""
    out = [Commentary(c.id, c.type, c.description) for c in own]
    have = {c.type for c in own}
    if row.model_id and len(have) < len(advice.COMMENT_TYPES):
        for c in s.exec(select(ModelCommentary).where(ModelCommentary.model_id == row.model_id)
                        .order_by(ModelCommentary.id)).all():
            if c.type not in have and c.type in advice.COMMENT_TYPES:
                out.append(Commentary(None, c.type, c.description))
                have.add(c.type)
    return tuple(out)


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


def load_tp(s: Session, actor: Actor, tp_id: int, *, lock: bool = False) -> tuple[Portfolio, TargetPortfolio]:
    """A target portfolio by id with its portfolio (locked when asked), when the actor may see
    both; NotFound otherwise."""
    row = s.get(TargetPortfolio, as_id(tp_id) or 0)
    if row is None:
        raise NotFound(TP_NOT_FOUND)
    p = load_portfolio(s, actor, row.investment_id, lock=lock)
    return p, visible_tp_row(s, actor, p, row)


# ---- trade recommendations a client may see ------------------------------------------------------
def client_visible_instructions(actor: Actor):
    """Extra WHERE clause on trade instructions for the actor (clients: validated ones only)."""
    return col(TradeInstruction.status).not_in(STAFF_ONLY_TI) if actor.role is Role.CLIENT else true()


def shown_instruction(s: Session, actor: Actor, p: Portfolio, version: int | None = None) -> TradeInstruction | None:
    """The portfolio's trade recommendations the actor is shown: the version asked for, else the
    newest (a client's newest is the newest validated one); None when there is none."""
    query = select(TradeInstruction).where(TradeInstruction.investment_id == p.id, client_visible_instructions(actor))
    if version not in (None, ""):
        query = query.where(TradeInstruction.version == (as_id(version) or 0))
    return s.exec(query.order_by(TradeInstruction.version.desc())).first()


# ---- live updates --------------------------------------------------------------------------------
def firm_topic(firm_id: int | None) -> str:
    return f"firm:{firm_id or 0}"
