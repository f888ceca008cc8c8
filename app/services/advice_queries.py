"""What the advice services (target portfolios, records of advice, trade recommendations, bulk
runs, the advice reports) read alike, in the caller's session: the facts the role rules need about
a portfolio, the next version numbers, the target portfolio as the screens show it, the approval
settings and who receives the e-mails, people's names, and the firm's live-update topic. The
modules of those use cases import this one; it imports none of them."""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, TypedDict

from sqlalchemy import JSON, ColumnElement, cast, func, select as sa_select, true
from sqlmodel import Session, col, select

from app.db.types import stored_id
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
from app.domain.users import PersonName, known_as
from app.domain.errors import NotFound, not_found
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.services import postings
from app.domain.parsing import as_id
from app.services.tenancy import load_portfolio


def result_text(s: Session, key: str) -> ColumnElement[str]:
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
    approved_tp = s.execute(sa_select(func.count()).where(col(TargetPortfolio.investment_id) == p.id,
                                                         col(TargetPortfolio.status) == TPStatus.ACTIVE.value)).scalar_one()
    approved_ti = s.execute(sa_select(func.count()).where(col(TradeInstruction.investment_id) == p.id,
                                                         col(TradeInstruction.status).in_(APPROVED_TI))).scalar_one()
    link = s.exec(select(PortfolioUser).where(col(PortfolioUser.investment_id) == p.id,
                                              col(PortfolioUser.user_id) == actor.id)).first()
    return PortfolioFacts(inactive=p.inactive, has_approved_tp=approved_tp > 0, has_approved_ti=approved_ti > 0,
                          actor_is_owner=bool(link and link.is_owner), actor_is_holder=link is not None,
                          has_model=p.model_id is not None)


# ---- versions ------------------------------------------------------------------------------------
def next_versions(s: Session, ids: list[int],
                  table: type[TargetPortfolio] | type[TradeInstruction] = TargetPortfolio) -> dict[int, int]:
    """Each portfolio's next version number in `table` (target portfolios or trade instructions)."""
    rows = s.execute(sa_select(col(table.investment_id), func.max(col(table.version)))
                     .where(col(table.investment_id).in_(ids)).group_by(col(table.investment_id))).all()
    latest = {pid: v or 0 for pid, v in rows}
    return {pid: latest.get(pid, 0) + 1 for pid in ids}


# ---- people --------------------------------------------------------------------------------------
def person_names(s: Session, ids: Iterable[int | None]) -> dict[int, PersonName]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {stored_id(u): PersonName(u.first_name, u.last_name)
            for u in s.exec(select(User).where(col(User.id).in_(wanted)))}


def trail_people(rows: Iterable[TargetPortfolio | TradeInstruction]) -> list[int | None]:
    """The users a decision trail names, of every row."""
    return [u for r in rows for u in (r.created_by, r.validated_by, r.approved_by, r.declined_by, r.moderator_id)]


class TrailFields(TypedDict):
    """The fields of a DecisionTrail, as keywords for a read model that extends it."""

    created_at: datetime | None
    validated_at: datetime | None
    approved_at: datetime | None
    declined_at: datetime | None
    creator: PersonName | None
    validator: PersonName | None
    approver: PersonName | None
    decliner: PersonName | None
    moderator: PersonName | None


def trail_of(row: TargetPortfolio | TradeInstruction, names: Mapping[int, PersonName]) -> TrailFields:
    """The DecisionTrail fields of a target portfolio or trade instructions row."""
    def named(user_id: int | None) -> PersonName | None:
        return names.get(user_id) if user_id is not None else None

    return TrailFields(created_at=row.created_at, validated_at=row.validated_at, approved_at=row.approved_at,
                       declined_at=row.declined_at, creator=named(row.created_by), validator=named(row.validated_by),
                       approver=named(row.approved_by), decliner=named(row.declined_by),
                       moderator=named(row.moderator_id))


def owner_names(s: Session, portfolio_ids: list[int]) -> dict[int, str]:
    """portfolio id -> its owners' names ('A Smith, B Smith'; every holder when none is an owner)."""
    if not portfolio_ids:
        return {}
    rows = s.execute(sa_select(col(PortfolioUser.investment_id), col(PortfolioUser.is_owner), col(User.first_name),
                               col(User.last_name), col(User.preferred_name))
                     .join(User, col(User.id) == col(PortfolioUser.user_id))
                     .where(col(PortfolioUser.investment_id).in_(portfolio_ids))
                     .order_by(col(PortfolioUser.investment_id), col(User.last_name), col(User.first_name),
                               col(User.id))).all()
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
        sa_select(col(User.id), col(User.first_name), col(User.last_name), col(User.preferred_name))
        .where(col(User.id).in_(wanted))).all()}


def portfolio_owners(s: Session, portfolio_id: int) -> list[User]:
    return list(s.exec(select(User).join(PortfolioUser, col(PortfolioUser.user_id) == col(User.id))
                       .where(col(PortfolioUser.investment_id) == portfolio_id, col(PortfolioUser.is_owner).is_(True))
                       .order_by(col(User.first_name), col(User.last_name), col(User.id))).all())


def receivers(text: str | None) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


# ---- approval settings ---------------------------------------------------------------------------
def approval_settings(p: Portfolio) -> Mapping[str, bool | str]:
    """The portfolio's approval settings completed with the creation defaults: each of
    portfolio_rules.APPROVAL_KEYS, a flag or (the e-mail receivers, the auto-approval) text."""
    return portfolio_rules.approval_settings_of(p.approval_settings)


# ---- the target portfolio as the screens show it -------------------------------------------------
def summary_of(row: TargetPortfolio, names: Mapping[int, PersonName]) -> TPSummary:
    return TPSummary(
        id=stored_id(row), investment_id=row.investment_id, version=row.version, status=row.status,
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
    comments = list(s.exec(select(TargetPortfolioComment).where(col(TargetPortfolioComment.tp_id) == row.id)
                           .order_by(col(TargetPortfolioComment.id))).all())
    model = s.get(Model, row.model_id) if row.model_id else None
    if result is None:
        result = stored_result(row)
    return TargetPortfolioView(
        summary=summary_of(row, names),
        investment=InvestmentRef(id=stored_id(p), name=p.name, type=p.type, inactive=p.inactive),
        model=ModelRef(id=stored_id(model), name=model.name, allocation_method=model.allocation_method) if model else None,
        result=result,
        names=result_names(s, result) if result is not None else ResultNames(),
        commentaries=tp_commentaries(s, row, comments),
        permissions=TPPermissions.of(actor, facts or portfolio_facts(s, actor, p)),
        placed_buys=postings.committed_to_orders(s, [stored_id(p)])[stored_id(p)],
    )


def result_names(s: Session, result: Target) -> ResultNames:
    """The names behind the ids `result` holds: its assets, classes and industry groups."""
    asset_ids = {a.asset_id for a in result.assets}
    class_ids = ({a.class_id for a in result.assets} | {h.class_id for h in result.holdings}
                 | {c.id for c in result.classes if c.id is not None})
    group_ids = ({a.industry_group_id for a in result.assets if a.industry_group_id is not None}
                 | {g.id for g in result.industry_groups if g.id is not None})
    assets = {stored_id(a): (a.name, a.url or "") for a in s.exec(select(Asset).where(col(Asset.id).in_(asset_ids)))} \
        if asset_ids else {}
    classes = {stored_id(c): c.title for c in s.exec(select(AssetClass).where(col(AssetClass.id).in_(class_ids)))} \
        if class_ids else {}
    groups = {stored_id(g): (g.title, g.color or "")
              for g in s.exec(select(IndustryGroup).where(col(IndustryGroup.id).in_(group_ids)))} if group_ids else {}
    return ResultNames(assets=assets, classes=classes, industry_groups=groups)


def tp_commentaries(s: Session, row: TargetPortfolio, own: list[TargetPortfolioComment]) -> tuple[Commentary, ...]:
    """The target portfolio's own commentary; a type it has none of starts from the model's
    commentary of that type (id None until someone saves it for this target portfolio)."""
    out = [Commentary(c.id, c.type, c.description) for c in own]
    have = {c.type for c in own}
    if row.model_id and len(have) < len(advice.COMMENT_TYPES):
        for c in s.exec(select(ModelCommentary).where(col(ModelCommentary.model_id) == row.model_id)
                        .order_by(col(ModelCommentary.id))).all():
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
    return s.exec(select(col(TargetPortfolio.id)).where(col(TargetPortfolio.investment_id) == portfolio_id,
                                                        col(TargetPortfolio.validated_at).is_not(None))
                  .order_by(col(TargetPortfolio.version).desc())).first()


def load_tp(s: Session, actor: Actor, tp_id: int, *, lock: bool = False) -> tuple[Portfolio, TargetPortfolio]:
    """A target portfolio by id with its portfolio (locked when asked), when the actor may see
    both; NotFound otherwise."""
    row = s.get(TargetPortfolio, as_id(tp_id) or 0)
    if row is None:
        raise NotFound(TP_NOT_FOUND)
    p = load_portfolio(s, actor, row.investment_id, lock=lock)
    return p, visible_tp_row(s, actor, p, row)


# ---- trade recommendations a client may see ------------------------------------------------------
def client_visible_instructions(actor: Actor) -> ColumnElement[bool]:
    """Extra WHERE clause on trade instructions for the actor (clients: validated ones only)."""
    return col(TradeInstruction.status).not_in(STAFF_ONLY_TI) if actor.role is Role.CLIENT else true()


def shown_instruction(s: Session, actor: Actor, p: Portfolio, version: int | None = None) -> TradeInstruction | None:
    """The portfolio's trade recommendations the actor is shown: the version asked for, else the
    newest (a client's newest is the newest validated one); None when there is none."""
    query = select(TradeInstruction).where(col(TradeInstruction.investment_id) == p.id, client_visible_instructions(actor))
    if version is not None:
        query = query.where(col(TradeInstruction.version) == version)
    return s.exec(query.order_by(col(TradeInstruction.version).desc())).first()


# ---- live updates --------------------------------------------------------------------------------
def firm_topic(firm_id: int | None) -> str:
    return f"firm:{firm_id or 0}"


@dataclass(frozen=True)
class FirmEvent:
    """An event on a firm's topic as a screen following the topic reads it: its name ('target portfolio
    updated', a bulk run's progress ...) and the firm it names (None: a bulk run's progress names its run)."""
    name: str
    firm_id: int | None

    @classmethod
    def parse(cls, event: Mapping[str, object] | None) -> FirmEvent | None:
        """An event as received (None: nothing arrived, or not an event of ours)."""
        name = event.get("event") if event else None
        if event is None or not isinstance(name, str):
            return None
        return cls(name=name, firm_id=as_id(event.get("firm_id")))
