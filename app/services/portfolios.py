"""Client portfolios (investments): list in every context, read, create, update (optimistic version
check), soft delete, link and unlink a model, the form's options, the buy screen's models and the
per-user portfolio counts of the users lists.

Visibility and edit rights come from app.services.tenancy (another firm's portfolio is
not found; clients see the portfolios they hold and change nothing). Rules and texts live in
app.domain.portfolios. Every write is one transaction: the portfolio row and its holders, class
allocation, industry group allocation and exceptions rows are replaced together.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import AbstractSet, Iterable, Mapping

from sqlalchemy import ColumnElement, CursorResult, delete, exists, func, insert, or_, select as sa_select, update
from sqlalchemy.orm import aliased
from sqlmodel import Session, SQLModel, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, Broker, CustomHolding, Firm, IndustryGroup, Institution, Model, ModelAsset, Portfolio,
    PortfolioClass, PortfolioException, PortfolioIndustryGroup, PortfolioUser, TargetPortfolio, TradeInstruction,
    User,
)
from app.db.types import stored_id, utcnow
from app.domain import addresses
from app.domain import portfolios as rules
from app.domain import validators as v
from app.domain.advice.target_portfolios import TPStatus
from app.domain.advice.trade_instructions import TIStatus
from app.domain.allocations import flag_unknown_choices
from app.domain.errors import Conflict, NotFound, ValidationError
from app.domain.money import cents_json, percent_trimmed_text
from app.domain.model_rules import METHOD_TITLES
from app.domain.ledger import TaxTreatment
from app.domain.models import Availability, ModelStatus
from app.domain.permissions import Actor, is_staff, require_staff
from app.domain.roles import Role, UserStatus
from app.domain.transactions import CASH_ACCOUNT
from app.domain.timezones import iso_json
from app.domain.wire import rendered, wire
from app.services import assets as asset_service
from app.services.assets import Done, FirmRef, GroupRef  # as the asset universe names them, the same records
from app.services import audit, industry_groups, listing
from app.services.models import ClassOption
from app.services.transactions import FormOption
from app.services.tenancy import (
    MODEL_NOT_FOUND, asset_classes_of, load_portfolio, models_usable_by, people_of_firm, readable_assets,
    readable_portfolios, usable_ids,
)

HOLDER_OPTIONS_MAX = 2000
APPROVED_TI = (TIStatus.APPROVED.value, TIStatus.PARTIALLY_APPROVED.value)


# ---- small helpers ----------------------------------------------------------------------------------
def _pct(value: Decimal | None) -> str | None:
    return percent_trimmed_text(value)


def _approval(text: str | None) -> dict[str, bool | str]:
    """The stored approval settings completed with the defaults (keys added later read as defaults)."""
    settings: dict[str, bool | str] = rules.approval_settings_of(text)
    return settings


def _holders(s: Session, ids: list[int]) -> dict[int, list[Holder]]:
    """Holders of the portfolios (owners first, then by name)."""
    out: dict[int, list[Holder]] = {i: [] for i in ids}
    if not ids:
        return out
    rows = s.execute(
        sa_select(col(PortfolioUser.investment_id), col(PortfolioUser.is_owner), User)
        .join(User, col(User.id) == PortfolioUser.user_id)
        .where(col(PortfolioUser.investment_id).in_(ids))
        .order_by(col(PortfolioUser.is_owner).desc(), func.lower(User.first_name), func.lower(User.last_name), col(User.id))
    ).all()
    for pid, is_owner, user in rows:
        out[pid].append(Holder(id=stored_id(user), first_name=user.first_name, last_name=user.last_name,
                               preferred_name=user.preferred_name, name=f"{user.first_name} {user.last_name}",
                               firm_id=user.firm_id, is_owner=bool(is_owner)))
    return out


@dataclass
class _AdviceFacts:
    """What a portfolio's advice says of it, gathered for a page of portfolios."""
    approved_target_portfolios: int = 0
    approved_trade_instructions: int = 0
    latest: LatestTargetPortfolio | None = None
    last_approved_tp_id: int | None = None


def _advice_facts(s: Session, ids: list[int]) -> dict[int, _AdviceFacts]:
    """Per portfolio: approved target portfolios and trade instructions (counts), the latest target
    portfolio (id, status, version) and the last approved one."""
    facts = {i: _AdviceFacts() for i in ids}
    if not ids:
        return facts
    for pid, n, last in s.execute(
        sa_select(col(TargetPortfolio.investment_id), func.count(), func.max(col(TargetPortfolio.id)))
        .where(col(TargetPortfolio.investment_id).in_(ids), col(TargetPortfolio.status) == TPStatus.ACTIVE.value)
        .group_by(col(TargetPortfolio.investment_id))
    ).all():
        facts[pid].approved_target_portfolios = int(n)
        facts[pid].last_approved_tp_id = last
    for pid, n in s.execute(
        sa_select(col(TradeInstruction.investment_id), func.count())
        .where(col(TradeInstruction.investment_id).in_(ids), col(TradeInstruction.status).in_(APPROVED_TI))
        .group_by(col(TradeInstruction.investment_id))
    ).all():
        facts[pid].approved_trade_instructions = int(n)
    newest = sa_select(col(TargetPortfolio.investment_id), func.max(col(TargetPortfolio.version)).label("v")) \
        .where(col(TargetPortfolio.investment_id).in_(ids)).group_by(col(TargetPortfolio.investment_id)).subquery()
    for pid, tp_id, status, version in s.execute(
        sa_select(col(TargetPortfolio.investment_id), col(TargetPortfolio.id), col(TargetPortfolio.status),
                  col(TargetPortfolio.version))
        .join(newest, (newest.c.investment_id == col(TargetPortfolio.investment_id))
              & (newest.c.v == col(TargetPortfolio.version)))
    ).all():
        facts[pid].latest = LatestTargetPortfolio(id=tp_id, status=status, version=version)
    return facts


def _summary(p: Portfolio, *, firm_name: str | None, model: Model | None, adviser: User | None,
             broker: Broker | None, holders: list[Holder], facts: _AdviceFacts, actor: Actor) -> PortfolioSummary:
    """The list row (and the head of the read)."""
    latest = facts.latest
    return PortfolioSummary(
        id=stored_id(p), name=p.name, type=p.type, type_title=rules.PortfolioType.title_of(p.type),
        inactive=p.inactive,
        status_title=rules.ACTIVITY_TITLES[rules.ACTIVITY_INACTIVE if p.inactive else rules.ACTIVITY_ACTIVE],
        firm_id=p.firm_id, firm=FirmRef(id=p.firm_id, name=firm_name),
        model_id=p.model_id,
        model=None if model is None else ModelRef(
            id=stored_id(model), name=model.name, firm_id=model.firm_id, allocation_method=model.allocation_method,
            analyst_recommendations=model.analyst_recommendations, deleted=model.deleted_at is not None),
        firm_ids=FirmIds(owner_firm_id=p.firm_id, model_firm_id=model.firm_id if model is not None else None),
        holders=tuple(holders), owners=tuple(h.id for h in holders if h.is_owner),
        adviser_id=p.adviser_id,
        adviser_name=f"{adviser.first_name} {adviser.last_name}" if adviser is not None else None,
        broker=p.broker_id, broker_id=p.broker_id, broker_name=broker.name if broker is not None else None,
        hin=p.hin, version=p.version, created_at=iso_json(p.created_at), updated_at=iso_json(p.updated_at),
        can_edit=is_staff(actor),
        approved_target_portfolios=facts.approved_target_portfolios,
        approved_trade_instructions=facts.approved_trade_instructions,
        latest_tp_data=latest, target_portfolio_id=latest.id if latest is not None else None,
        last_approved_tp_id=facts.last_approved_tp_id,
    )


# ---- the list -----------------------------------------------------------------------------------------
def _context_where(actor: Actor, where: rules.PortfolioFilter, search: str | None) -> list[ColumnElement[bool]]:
    # an id filter of 0 names nothing (text that was no id)
    named_none = any(i == 0 for i in (where.client_id, where.adviser_id, where.firm_id, where.model_id))
    clauses = [readable_portfolios(actor, where.firm_id or None)]
    if named_none:
        clauses.append(col(Portfolio.id).is_(None))
    if where.client_id:
        clauses.append(exists().where(col(PortfolioUser.investment_id) == col(Portfolio.id),
                                      col(PortfolioUser.user_id) == where.client_id))
    if where.adviser_id:
        clauses.append(col(Portfolio.adviser_id) == where.adviser_id)
    if where.model_id:
        clauses.append(col(Portfolio.model_id) == where.model_id)
    if where.model_ids is not None:
        clauses.append(col(Portfolio.model_id).in_(where.model_ids or (-1,)))
    # the activity filter is hidden from clients: they see every portfolio they hold unless they ask
    if where.activity is None and actor.role is Role.CLIENT:
        activity = rules.ACTIVITY_ALL
    else:
        activity = where.activity or rules.DEFAULT_ACTIVITY
    if activity == rules.ACTIVITY_ACTIVE:
        clauses.append(col(Portfolio.inactive).is_(False))
    elif activity == rules.ACTIVITY_INACTIVE:
        clauses.append(col(Portfolio.inactive).is_(True))
    if where.broker == rules.BROKER_NA:
        clauses.append(col(Portfolio.broker_id).is_(None))
    elif where.broker != rules.BROKER_ALL:
        clauses.append(col(Portfolio.broker_id) == where.broker)
    text = (search or "").strip().lower()[:200]
    if text:
        holder, named = aliased(User), aliased(Model)  # aliases: the page query joins User and Model itself
        holder_name = func.lower(holder.first_name + " " + holder.last_name)
        held_by = exists().where(col(PortfolioUser.investment_id) == col(Portfolio.id),
                                 col(PortfolioUser.user_id) == holder.id,
                                 or_(holder_name.contains(text, autoescape=True),
                                     func.lower(func.coalesce(holder.preferred_name, "")).contains(text, autoescape=True)))
        model_named = exists().where(col(named.id) == col(Portfolio.model_id),
                                     func.lower(named.name).contains(text, autoescape=True))
        clauses.append(or_(func.lower(Portfolio.name).contains(text, autoescape=True), held_by, model_named,
                           func.lower(func.coalesce(Portfolio.hin, "")).contains(text, autoescape=True)))
    if where.approved:
        clauses.append(exists().where(col(TargetPortfolio.investment_id) == col(Portfolio.id),
                                      col(TargetPortfolio.status) == TPStatus.ACTIVE.value))
    if where.tp_calculation:  # portfolios a target portfolio can be calculated for
        clauses += [col(Portfolio.model_id).is_not(None), col(Portfolio.suspend_rebalancing).is_(False)]
    if where.ti_calculation:  # ... and trade recommendations: a target portfolio to trade to
        clauses += [col(Portfolio.model_id).is_not(None), col(Portfolio.suspend_tr_calculation).is_(False),
                    exists().where(col(TargetPortfolio.investment_id) == col(Portfolio.id),
                                   col(TargetPortfolio.status) != TPStatus.FAILED.value)]
    return clauses


def list_portfolios(*, actor: Actor, where: rules.PortfolioFilter | None = None, limit: int | None = None,
                    offset: int | None = None, sort: str = rules.DEFAULT_SORT, order: str = rules.DEFAULT_ORDER,
                    search: str | None = None) -> listing.Page[PortfolioSummary]:
    """A page of the portfolios the actor may see, in a client, adviser, firm or model context
    (001 s3 "Portfolio list filter"), with the total count. Default: active ones by name."""
    limit_i, offset_i = listing.page(limit, offset, default=rules.DEFAULT_PAGE_SIZE)
    clauses = _context_where(actor, where or rules.PortfolioFilter(), search)
    adviser = aliased(User)
    columns = {
        "name": (func.lower(Portfolio.name), Portfolio.id),
        "type": (Portfolio.type, func.lower(Portfolio.name), Portfolio.id),
        "model": (func.lower(func.coalesce(Model.name, "")), func.lower(Portfolio.name), Portfolio.id),
        "adviser": (func.lower(func.coalesce(adviser.first_name, "")), func.lower(func.coalesce(adviser.last_name, "")),
                    Portfolio.id),
        "broker": (func.lower(func.coalesce(Broker.name, "")), func.lower(Portfolio.name), Portfolio.id),
        "inactive": (Portfolio.inactive, func.lower(Portfolio.name), Portfolio.id),
        "created_at": (Portfolio.created_at, Portfolio.id),
        "updated_at": (Portfolio.updated_at, Portfolio.id),
    }
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(Portfolio).where(*clauses)).one()
        page = s.execute(
            sa_select(Portfolio, Model, adviser, Broker, col(Firm.name))
            .outerjoin(Model, col(Model.id) == Portfolio.model_id)
            .outerjoin(adviser, col(adviser.id) == Portfolio.adviser_id)
            .outerjoin(Broker, col(Broker.id) == Portfolio.broker_id)
            .outerjoin(Firm, col(Firm.id) == Portfolio.firm_id)
            .where(*clauses)
            .order_by(*listing.order_by(sort, order, columns, rules.DEFAULT_SORT))
            .offset(offset_i).limit(limit_i)
        ).all()
        ids = [stored_id(row[0]) for row in page]
        holders = _holders(s, ids)
        facts = _advice_facts(s, ids)
        rows = tuple(_summary(p, firm_name=firm_name, model=model, adviser=adv, broker=broker,
                              holders=holders[stored_id(p)], facts=facts[stored_id(p)], actor=actor)
                     for p, model, adv, broker, firm_name in page)
    return listing.Page(rows=rows, total=int(total))


def portfolio_counts(*, actor: Actor, user_ids: Iterable[int]) -> dict[int, int]:
    """How many (visible, not deleted) portfolios each user has: held ones for clients, advised
    ones for advisers (the users lists' View Portfolios)."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    counts = {i: 0 for i in ids}
    with session_scope() as s:
        for uid, n in s.execute(
            sa_select(col(PortfolioUser.user_id), func.count())
            .join(Portfolio, col(Portfolio.id) == PortfolioUser.investment_id)
            .where(col(PortfolioUser.user_id).in_(ids), readable_portfolios(actor)).group_by(col(PortfolioUser.user_id))
        ).all():
            counts[uid] += int(n)
        for uid, n in s.execute(
            sa_select(col(Portfolio.adviser_id), func.count())
            .where(col(Portfolio.adviser_id).in_(ids), readable_portfolios(actor)).group_by(col(Portfolio.adviser_id))
        ).all():
            counts[uid] += int(n)
    return counts


# ---- the read shape -------------------------------------------------------------------------------------
def _detail(s: Session, actor: Actor, p: Portfolio) -> PortfolioDetail:
    """The portfolio as get_portfolio answers it (and create and update, rendered)."""
    pid = stored_id(p)
    model = s.get(Model, p.model_id) if p.model_id else None
    adviser = s.get(User, p.adviser_id) if p.adviser_id else None
    broker = s.get(Broker, p.broker_id) if p.broker_id else None
    institution = s.get(Institution, p.institution_id) if p.institution_id else None
    firm = s.get(Firm, p.firm_id)
    summary = _summary(p, firm_name=firm.name if firm else None, model=model, adviser=adviser, broker=broker,
                       holders=_holders(s, [pid])[pid], facts=_advice_facts(s, [pid])[pid], actor=actor)

    classes = s.execute(
        sa_select(PortfolioClass, col(AssetClass.title), col(AssetClass.is_cash))
        .join(AssetClass, col(AssetClass.id) == PortfolioClass.class_id)
        .where(col(PortfolioClass.investment_id) == pid).order_by(col(PortfolioClass.id))
    ).all()
    groups = s.execute(
        sa_select(PortfolioIndustryGroup, col(IndustryGroup.title), col(IndustryGroup.color))
        .join(IndustryGroup, col(IndustryGroup.id) == PortfolioIndustryGroup.industry_group_id)
        .where(col(PortfolioIndustryGroup.investment_id) == pid).order_by(col(PortfolioIndustryGroup.id))
    ).all()
    holdings = s.execute(
        sa_select(col(CustomHolding.id), col(CustomHolding.name), col(CustomHolding.class_id), col(AssetClass.title))
        .outerjoin(AssetClass, col(AssetClass.id) == CustomHolding.class_id)
        .where(col(CustomHolding.investment_id) == pid).order_by(func.lower(CustomHolding.name), col(CustomHolding.id))
    ).all()
    held: dict[int, str] = {hid: name for hid, name, _, _ in holdings}
    asset, sub = aliased(Asset), aliased(Asset)
    exceptions = s.execute(
        sa_select(PortfolioException, col(asset.code), col(asset.name), col(sub.code), col(sub.name))
        .outerjoin(asset, col(asset.id) == PortfolioException.asset_id)
        .outerjoin(sub, col(sub.id) == PortfolioException.substitute_asset_id)
        .where(col(PortfolioException.investment_id) == pid).order_by(col(PortfolioException.id))
    ).all()
    # the list row's fields as they are (vars: shallow), then the read's own
    return PortfolioDetail(
        **vars(summary),
        trustee_name=p.trustee_name, trustee_abn=p.trustee_abn, company_name=p.company_name, company_abn=p.company_abn,
        soa_date=iso_json(p.soa_date), tax_treatment=p.tax_treatment,
        tax_treatment_title=TaxTreatment.title_of(p.tax_treatment),
        sell_look_back_period=p.sell_look_back_period, institution_id=p.institution_id,
        institution=None if institution is None else InstitutionRef(id=stored_id(institution), title=institution.title),
        bank_bsb=p.bank_bsb, bank_account=p.bank_account, broker_account=p.broker_account, facility_id=p.facility_id,
        fee_percent=_pct(p.fee_percent), fee_limit_min=cents_json(p.fee_limit_min),
        fee_limit_max=cents_json(p.fee_limit_max),
        min_asset_allocation=_pct(p.min_asset_allocation), max_exposure=_pct(p.max_exposure),
        min_cash_allocation=_pct(p.min_cash_allocation), percentages_max_exposure=_pct(p.percentages_max_exposure),
        percentages_min_cash_balance=_pct(p.percentages_min_cash_balance),
        min_asset_allocation_value=cents_json(p.min_asset_allocation_value),
        max_asset_allocation_value=cents_json(p.max_asset_allocation_value),
        min_trade_amount=cents_json(p.min_trade_amount), min_cash_allocation_value=cents_json(p.min_cash_allocation_value),
        percentages_min_trade_amount=cents_json(p.percentages_min_trade_amount),
        percentages_min_cash_balance_value=cents_json(p.percentages_min_cash_balance_value),
        class_allocation=p.class_allocation,
        allocation_classes=tuple(
            AllocationClass(class_id=c.class_id, title=title, is_cash=bool(is_cash), allocation=_pct(c.allocation),
                            min=_pct(c.min), max=_pct(c.max)) for c, title, is_cash in classes),
        industry_group_allocation=p.industry_group_allocation,
        industry_groups_allocations=tuple(
            IndustryGroupAllocation(industry_group_id=g.industry_group_id, title=title, color=color,
                                    allocation=_pct(g.allocation)) for g, title, color in groups),
        exceptions=tuple(PortfolioExceptionView(
            id=stored_id(e), asset_id=e.asset_id,
            asset=None if e.asset_id is None else AssetRef(id=e.asset_id, code=code, name=name),
            custom_holding_id=e.custom_holding_id,
            custom_holding=None if e.custom_holding_id is None else HoldingRef(
                id=e.custom_holding_id, name=held.get(e.custom_holding_id)),
            action=e.action, action_title=rules.ExceptionAction.title_of(e.action),
            substitute_asset_id=e.substitute_asset_id,
            substitution=None if e.substitute_asset_id is None else AssetRef(
                id=e.substitute_asset_id, code=s_code, name=s_name),
        ) for e, code, name, s_code, s_name in exceptions),
        custom_holdings=tuple(CustomHoldingRef(id=hid, name=name, class_id=cid, class_title=title)
                              for hid, name, cid, title in holdings),
        suspend_rebalancing=p.suspend_rebalancing, suspend_tr_calculation=p.suspend_tr_calculation,
        approval_settings=_approval(p.approval_settings),
        address=addresses.of_row(p),  # the holder's address (the record of advice prints it)
        can_edit_inactive=actor.is_superuser, can_link=is_staff(actor),
    )


def get_portfolio(*, actor: Actor, portfolio_id: int) -> PortfolioDetail:
    with session_scope() as s:
        return _detail(s, actor, load_portfolio(s, actor, portfolio_id))


# ---- the read shape, typed ------------------------------------------------------------------------------
# get_portfolio's answer. Amounts, percents and instants are the texts the payload carries ('1234.50',
# '12.5', ISO 8601), as the form shows them; the REST API renders the value field by field (by the
# payload's name where app.domain.wire gives one), the same keys in the same order as the read shape.
@dataclass(frozen=True)
class ModelRef:
    id: int
    name: str
    firm_id: int | None
    allocation_method: str | None
    analyst_recommendations: bool | None
    deleted: bool


@dataclass(frozen=True)
class FirmIds:
    owner_firm_id: int
    model_firm_id: int | None


@dataclass(frozen=True)
class Holder:
    """A holder of the portfolio (owners first)."""
    id: int
    first_name: str
    last_name: str
    preferred_name: str | None
    name: str
    firm_id: int | None
    is_owner: bool


@dataclass(frozen=True)
class LatestTargetPortfolio:
    id: int
    status: str
    version: int


@dataclass(frozen=True)
class InstitutionRef:
    id: int
    title: str


@dataclass(frozen=True)
class AllocationClass:
    class_id: int
    title: str
    is_cash: bool
    allocation: str | None
    min: str | None
    max: str | None


@dataclass(frozen=True)
class IndustryGroupAllocation:
    industry_group_id: int
    title: str
    color: str | None
    allocation: str | None


@dataclass(frozen=True)
class AssetRef:
    id: int
    code: str | None
    name: str | None


@dataclass(frozen=True)
class HoldingRef:
    id: int
    name: str | None


@dataclass(frozen=True)
class PortfolioExceptionView:
    id: int
    asset_id: int | None
    asset: AssetRef | None
    custom_holding_id: int | None
    custom_holding: HoldingRef | None
    action: str
    action_title: str
    substitute_asset_id: int | None
    substitution: AssetRef | None


@dataclass(frozen=True)
class CustomHoldingRef:
    id: int
    name: str
    class_id: int | None
    class_title: str | None = field(metadata=wire("classTitle"))


@dataclass(frozen=True)
class PortfolioSummary:
    """A portfolio as the lists show it (GET /investments' rows)."""
    id: int
    name: str
    type: str
    type_title: str
    inactive: bool
    status_title: str
    firm_id: int
    firm: FirmRef
    model_id: int | None
    model: ModelRef | None
    firm_ids: FirmIds
    holders: tuple[Holder, ...] = field(metadata=wire("Users"))
    owners: tuple[int, ...]
    adviser_id: int | None = field(metadata=wire("adviser"))
    adviser_name: str | None
    broker: int | None
    broker_id: int | None
    broker_name: str | None
    hin: str | None
    version: int
    created_at: str | None
    updated_at: str | None
    can_edit: bool
    approved_target_portfolios: int
    approved_trade_instructions: int
    latest_tp_data: LatestTargetPortfolio | None
    target_portfolio_id: int | None
    last_approved_tp_id: int | None


@dataclass(frozen=True)
class PortfolioDetail(PortfolioSummary):
    """One portfolio as its screens and GET /investments/{id} read it: the list row, then the form."""
    trustee_name: str | None
    trustee_abn: str | None
    company_name: str | None
    company_abn: str | None
    soa_date: str | None
    tax_treatment: str
    tax_treatment_title: str
    sell_look_back_period: int
    institution_id: int | None
    institution: InstitutionRef | None
    bank_bsb: str | None
    bank_account: str | None
    broker_account: str | None
    facility_id: str | None
    fee_percent: str | None
    fee_limit_min: str | None
    fee_limit_max: str | None
    # rules.PERCENT_LIMITS, then rules.MONEY_LIMITS
    min_asset_allocation: str | None
    max_exposure: str | None
    min_cash_allocation: str | None
    percentages_max_exposure: str | None
    percentages_min_cash_balance: str | None
    min_asset_allocation_value: str | None
    max_asset_allocation_value: str | None
    min_trade_amount: str | None
    min_cash_allocation_value: str | None
    percentages_min_trade_amount: str | None
    percentages_min_cash_balance_value: str | None
    class_allocation: bool
    allocation_classes: tuple[AllocationClass, ...]
    industry_group_allocation: bool
    industry_groups_allocations: tuple[IndustryGroupAllocation, ...]
    exceptions: tuple[PortfolioExceptionView, ...]
    custom_holdings: tuple[CustomHoldingRef, ...]
    suspend_rebalancing: bool
    suspend_tr_calculation: bool
    approval_settings: dict[str, bool | str]  # every key of rules.APPROVAL_KEYS (the defaults filled in)
    address: addresses.Address
    can_edit_inactive: bool
    can_link: bool

    def limit(self, name: str) -> str | None:
        """One of rules.LIMIT_FIELDS or rules.FEE_FIELDS, by name (the form's text)."""
        if name not in rules.LIMIT_FIELDS and name not in rules.FEE_FIELDS:
            raise KeyError(name)
        value: str | None = getattr(self, name)
        return value


@dataclass(frozen=True)
class SavedPortfolio(PortfolioDetail):
    """What create and update answer: the portfolio as read, and the toast."""
    message: str


# ---- writing ---------------------------------------------------------------------------------------------
def _firm_of_new(s: Session, actor: Actor, named: int | None, values: rules.PortfolioValues) -> int | None:
    """The owner firm of a new portfolio: the actor's; a superuser names it (firm_id), or it is the
    firm of the first holder or of the adviser."""
    if not actor.is_superuser:
        return actor.firm_id
    wanted = named
    if wanted is None:
        people = [uid for uid, _ in values["holders"]] + ([values["adviser_id"]] if values["adviser_id"] else [])
        for uid in people:
            user = s.get(User, uid)
            if user is not None and user.firm_id is not None:
                wanted = user.firm_id
                break
    if wanted is None:
        return None
    firm = s.get(Firm, wanted)
    return firm.id if firm is not None and firm.deleted_at is None else None


def _check_references(s: Session, actor: Actor, firm_id: int, values: rules.PortfolioValues,
                      portfolio_id: int | None, errors: v.FieldErrors, kept: AbstractSet[int] = frozenset()) -> None:
    """Every id of the payload must name something the portfolio's firm may use. `kept`: the
    people the portfolio already has (they stay valid, e.g. after being disabled or deleted)."""
    holder_ids = [uid for uid, _ in values["holders"] if uid not in kept]
    if holder_ids:
        ok = set(s.exec(select(User.id).where(
            col(User.id).in_(holder_ids), people_of_firm(firm_id), User.role == Role.CLIENT.value,
            User.status != UserStatus.DELETED.value)).all())
        if any(uid not in ok for uid in holder_ids):
            errors.check("users", rules.HOLDER_NOT_IN_FIRM)
    if values["adviser_id"] is not None and values["adviser_id"] not in kept:
        adviser = s.get(User, values["adviser_id"])
        if adviser is None or adviser.firm_id != firm_id or adviser.role != Role.ADVISER.value \
                or adviser.status == UserStatus.DELETED.value:
            errors.check("adviser", rules.ADVISER_NOT_IN_FIRM)
    if values["institution_id"] is not None and s.get(Institution, values["institution_id"]) is None:
        errors.check("institution_id", v.REQUIRED_SELECT.format(label="bank"))
    if values["broker_id"] is not None and s.get(Broker, values["broker_id"]) is None:
        errors.check("broker", v.REQUIRED_SELECT.format(label="broker"))

    usable_classes = usable_ids(s, AssetClass, {c["class_id"] for c in values["classes"]}, firm_id)
    flag_unknown_choices(errors, [{"class_id": c["class_id"], "index": c["index"]} for c in values["classes"]],
                         "allocation_classes", "class_id", "class", usable_classes)
    industry_groups.flag_unknown(s, errors, [{"industry_group_id": g["industry_group_id"], "index": g["index"]}
                                             for g in values["industry_groups"]])

    wanted_assets = {e["asset_id"] for e in values["exceptions"] if e["asset_id"]} | \
        {e["substitute_asset_id"] for e in values["exceptions"] if e["substitute_asset_id"]}
    usable = set(s.exec(select(Asset.id).where(col(Asset.id).in_(wanted_assets),
                                               readable_assets(actor, firm_id))).all()) \
        if wanted_assets else set()
    holding_ids = {e["custom_holding_id"] for e in values["exceptions"] if e["custom_holding_id"]}
    own_holdings = set(s.exec(select(CustomHolding.id).where(
        col(CustomHolding.id).in_(holding_ids), CustomHolding.investment_id == (portfolio_id or -1))).all()) \
        if holding_ids else set()
    for e in values["exceptions"]:
        prefix = f"exceptions.{e['index']}"
        if e["asset_id"] is not None and e["asset_id"] not in usable:
            errors.check(f"{prefix}.asset_id", v.REQUIRED_SELECT.format(label="asset"))
        if e["custom_holding_id"] is not None and e["custom_holding_id"] not in own_holdings:
            errors.check(f"{prefix}.asset_id", v.REQUIRED_SELECT.format(label="asset"))
        if e["substitute_asset_id"] is not None and e["substitute_asset_id"] not in usable:
            errors.check(f"{prefix}.substitute_asset_id", rules.SUBSTITUTE_REQUIRED)


SCALARS = ("name", "type", "trustee_name", "trustee_abn", "company_name", "company_abn", "soa_date", "tax_treatment",
           "sell_look_back_period", "institution_id", "bank_bsb", "bank_account", "broker_id", "broker_account", "hin",
           "facility_id", *rules.FEE_FIELDS, *rules.LIMIT_FIELDS, *rules.SWITCH_FIELDS)


def _apply(p: Portfolio, values: rules.PortfolioValues, actor: Actor, now: datetime) -> None:
    columns: Mapping[str, object] = values
    for key in SCALARS:
        setattr(p, key, columns[key])
    p.approval_settings = json.dumps(values["approval_settings"], sort_keys=True)
    p.updated_by = actor.id
    p.updated_at = now


def _write_rows(s: Session, p: Portfolio, values: rules.PortfolioValues, *, new: bool) -> None:
    """Replace the holders, class allocation, industry group allocation and exceptions rows."""
    pid = p.id
    if not new:
        s.execute(delete(PortfolioClass).where(col(PortfolioClass.investment_id) == pid))
        s.execute(delete(PortfolioIndustryGroup).where(col(PortfolioIndustryGroup.investment_id) == pid))
        s.execute(delete(PortfolioException).where(col(PortfolioException.investment_id) == pid))
        if values["holders_named"]:
            s.execute(delete(PortfolioUser).where(col(PortfolioUser.investment_id) == pid))
    batches: list[tuple[type[SQLModel], list[dict[str, object]]]] = [
        (PortfolioClass, [{"investment_id": pid, "class_id": c["class_id"], "allocation": c["allocation"] or Decimal(0),
                           "min": c["min"], "max": c["max"]} for c in values["classes"]]),
        (PortfolioIndustryGroup, [{"investment_id": pid, "industry_group_id": g["industry_group_id"],
                                   "allocation": g["allocation"]} for g in values["industry_groups"]]),
        (PortfolioException, [{"investment_id": pid, "asset_id": e["asset_id"], "custom_holding_id": e["custom_holding_id"],
                               "action": e["action"], "substitute_asset_id": e["substitute_asset_id"]}
                              for e in values["exceptions"]]),
    ]
    if values["holders_named"] or new:
        batches.append((PortfolioUser, [{"investment_id": pid, "user_id": uid, "is_owner": owner}
                                        for uid, owner in values["holders"]]))
    for table, rows in batches:
        if rows:
            s.execute(insert(table), rows)
    s.flush()


def _raise(errors: v.FieldErrors, message: str | None) -> None:
    if errors:
        raise ValidationError(message or rules.form_message(errors) or rules.INVALID_FORM, dict(errors))


def create_portfolio(*, actor: Actor, form: rules.PortfolioForm) -> SavedPortfolio:
    """A new portfolio (001 s2, s4): null fields are dropped so the defaults apply (inactive,
    sell look-back 0, FIFO, the approval defaults); an adviser creating it is its adviser unless
    another is named; only a superuser may create it active."""
    require_staff(actor)
    form = form.creation()
    values, errors, _message = rules.clean_portfolio(form)
    address, address_errors = addresses.clean_address(form.address)
    errors.update(address_errors)
    if actor.role is Role.ADVISER and not values["adviser_named"]:
        values["adviser_id"] = actor.id
    with session_scope() as s:
        firm_id = _firm_of_new(s, actor, form.firm_id, values)
        if firm_id is None:
            errors.check("firm_id", rules.SELECT_FIRM)
            raise ValidationError(rules.form_message(errors) or rules.INVALID_FORM, dict(errors))
        _check_references(s, actor, firm_id, values, None, errors)
        _raise(errors, None)
        now = utcnow()
        # (a missing type was refused above: the form's errors name it)
        p = Portfolio(firm_id=firm_id, name=values["name"], type=values["type"] or "", adviser_id=values["adviser_id"],
                      inactive=values["inactive"] if actor.is_superuser else True, version=1,
                      approval_settings="{}", created_by=actor.id, created_at=now)
        _apply(p, values, actor, now)
        addresses.apply_to(p, address)
        s.add(p)
        s.flush()
        _write_rows(s, p, values, new=True)
        detail = _detail(s, actor, p)
        audit.record(s, actor, "portfolio.created", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={k: v for k, v in _as_payload(detail).items() if v not in (None, "", [], {})})
        return SavedPortfolio(**vars(detail), message=rules.SAVED)


def _as_payload(detail: PortfolioDetail) -> dict[str, object]:
    """The read shape's form fields, by the payload's names (users, adviser, broker): what the audit
    trail records of a created portfolio and compares across an edit."""
    shape = rendered(detail)
    data = {k: shape.get(k) for k in SCALARS if k in shape and k != "broker_id"}
    data.update(
        users=[{"id": h.id, "is_owner": h.is_owner} for h in detail.holders],
        adviser=shape.get("adviser"), broker=shape.get("broker"), inactive=shape.get("inactive"),
        allocation_classes=shape.get("allocation_classes") or [],
        industry_groups_allocations=shape.get("industry_groups_allocations") or [],
        exceptions=shape.get("exceptions") or [],
        approval_settings=shape.get("approval_settings") or {},
        address=shape.get("address") or addresses.EMPTY.as_form(),
    )
    return data


def _saved_form(p: PortfolioDetail) -> rules.PortfolioForm:
    """The saved portfolio as its form, every field sent: what an edit leaves out stays as saved."""
    return rules.PortfolioForm(
        name=p.name, type=p.type, trustee_name=p.trustee_name, trustee_abn=p.trustee_abn, company_name=p.company_name,
        company_abn=p.company_abn, soa_date=p.soa_date, tax_treatment=p.tax_treatment,
        sell_look_back_period=str(p.sell_look_back_period), institution_id=p.institution_id, bank_bsb=p.bank_bsb,
        bank_account=p.bank_account, broker_id=p.broker, broker_account=p.broker_account, hin=p.hin,
        facility_id=p.facility_id, fee_percent=p.fee_percent, fee_limit_min=p.fee_limit_min,
        fee_limit_max=p.fee_limit_max, min_asset_allocation=p.min_asset_allocation, max_exposure=p.max_exposure,
        min_cash_allocation=p.min_cash_allocation, percentages_max_exposure=p.percentages_max_exposure,
        percentages_min_cash_balance=p.percentages_min_cash_balance,
        min_asset_allocation_value=p.min_asset_allocation_value, max_asset_allocation_value=p.max_asset_allocation_value,
        min_trade_amount=p.min_trade_amount, min_cash_allocation_value=p.min_cash_allocation_value,
        percentages_min_trade_amount=p.percentages_min_trade_amount,
        percentages_min_cash_balance_value=p.percentages_min_cash_balance_value,
        class_allocation=p.class_allocation, industry_group_allocation=p.industry_group_allocation,
        suspend_rebalancing=p.suspend_rebalancing, suspend_tr_calculation=p.suspend_tr_calculation, inactive=p.inactive,
        allocation_classes=tuple(rules.ClassRowForm(class_id=c.class_id, allocation=c.allocation, min=c.min, max=c.max)
                                 for c in p.allocation_classes),
        industry_groups_allocations=tuple(rules.GroupRowForm(industry_group_id=g.industry_group_id,
                                                             allocation=g.allocation)
                                          for g in p.industry_groups_allocations),
        exceptions=tuple(rules.ExceptionRowForm(asset_id=e.asset_id, custom_holding_id=e.custom_holding_id,
                                                action=e.action, substitute_asset_id=e.substitute_asset_id)
                         for e in p.exceptions),
        approval_settings=p.approval_settings,
        holders=tuple(rules.PortfolioHolder(id=h.id, is_owner=h.is_owner) for h in p.holders),
        adviser_id=p.adviser_id, sent=rules.EDITED_FIELDS)


def update_portfolio(*, actor: Actor, portfolio_id: int, form: rules.PortfolioForm) -> SavedPortfolio:
    """Save the form (PUT): the fields it sent change, the rest stay as saved; its `version` must
    be the current one (else ConflictError); the inactive flag changes for superusers only; the
    firm and the linked model never change here."""
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id, for_edit=True, lock=True)
        current = p.version
        if form.version is not None and form.version != str(current):
            raise Conflict(rules.PORTFOLIO_CHANGED)
        saved = _detail(s, actor, p)
        values, errors, _message = rules.clean_portfolio(form.over(_saved_form(saved)))
        # null or left out: the saved address stays
        address, address_errors = addresses.clean_address(
            addresses.of_row(p).as_form() if form.address is None else form.address)
        errors.update(address_errors)
        kept = {h.id for h in saved.holders} | ({p.adviser_id} if p.adviser_id else set())
        _check_references(s, actor, p.firm_id, values, p.id, errors, kept=kept)
        _raise(errors, None)
        bumped: CursorResult[tuple[int]] = s.execute(  # type: ignore[assignment]  # an UPDATE's result counts rows
            update(Portfolio).where(col(Portfolio.id) == p.id, col(Portfolio.version) == current)
            .values(version=current + 1)
            .execution_options(synchronize_session=False)
        )
        if bumped.rowcount != 1:
            raise Conflict(rules.PORTFOLIO_CHANGED)
        now = utcnow()
        p.version = current + 1
        _apply(p, values, actor, now)
        addresses.apply_to(p, address)
        p.adviser_id = values["adviser_id"]
        if actor.is_superuser:
            p.inactive = values["inactive"]
        s.add(p)
        s.flush()
        _write_rows(s, p, values, new=False)
        detail = _detail(s, actor, p)
        # the form's fields, its owners, exceptions and approval settings: what changed
        old, new = audit.diff(_as_payload(saved), _as_payload(detail))
        if old or new:
            audit.record(s, actor, "portfolio.updated", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                         before=old, after=new)
        return SavedPortfolio(**vars(detail), message=rules.SAVED)


def delete_portfolio(*, actor: Actor, portfolio_id: int) -> Done:
    """Soft delete (staff): the portfolio leaves every list and read (404 afterwards)."""
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id, for_edit=True, lock=True)
        now = utcnow()
        p.deleted_at = now
        p.updated_at = now
        p.updated_by = actor.id
        p.version += 1
        s.add(p)
        audit.record(s, actor, "portfolio.deleted", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={"deleted_at": now})
    return Done(message=rules.DELETED)


# ---- linking a model (the buy route) -------------------------------------------------------------------
def _linkable_clause(firm_id: int) -> ColumnElement[bool]:
    usable: ColumnElement[bool] = models_usable_by(firm_id)
    linkable: ColumnElement[bool] = usable & (col(Model.status) == ModelStatus.ACTIVE.value) & \
        (col(Model.availability) != Availability.NOBODY.value)  # (a titled value's type is not known to mypy)
    return linkable


def _cash_custom_holdings(s: Session, portfolio_id: int) -> bool:
    """Set the class of the portfolio's custom holdings to the cash class; True when any changed."""
    cash = asset_service.cash_class(s)
    changed: CursorResult[tuple[int]] = s.execute(  # type: ignore[assignment]  # an UPDATE's result counts rows
        update(CustomHolding).where(col(CustomHolding.investment_id) == portfolio_id,
                                    col(CustomHolding.class_id) != cash.id)
        .values(class_id=cash.id, updated_at=utcnow()).execution_options(synchronize_session=False)
    )
    return bool(changed.rowcount)


# What the link routes answer (the payload's names by app.domain.wire).
@dataclass(frozen=True)
class ModelLinked:
    investment_id: int
    model_id: int
    model_name: str = field(metadata=wire("modelName"))
    custom_classes_changed: bool = field(metadata=wire("customAssetClassesChanged"))
    message: str


@dataclass(frozen=True)
class ModelUnlinked:
    investment_id: int
    custom_classes_changed: bool = field(metadata=wire("customAssetClassesChanged"))
    message: str


@dataclass(frozen=True)
class LinkingPortfolio:
    """The portfolio as the buy screen shows it above the models."""
    id: int
    name: str
    firm_id: int
    firm_name: str | None
    model_id: int | None
    model_name: str | None
    model_cross_firm: bool
    custom_holdings: int


@dataclass(frozen=True)
class LinkableModel:
    id: int
    name: str
    firm: FirmRef
    allocation_method: str
    allocation_method_title: str
    assets_count: int
    cross_firm: bool
    current: bool


@dataclass(frozen=True)
class LinkableModels:
    portfolio: LinkingPortfolio
    rows: tuple[LinkableModel, ...]
    count: int


def link_model(*, actor: Actor, portfolio_id: int, model_id: int | None) -> ModelLinked:
    """POST /api/investments-buy-model: link the portfolio to a model its firm may use (active, not
    'nobody'). Across firms (the new or the previous model of another firm) the custom holdings'
    class becomes cash; customAssetClassesChanged tells whether any did. Clients cannot."""
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id, for_edit=True, lock=True)
        model = s.exec(select(Model).where(Model.id == (model_id or -1), models_usable_by(p.firm_id))).first()
        if model is None:
            raise NotFound(MODEL_NOT_FOUND)
        if model.status != ModelStatus.ACTIVE.value or model.availability == Availability.NOBODY.value:
            raise ValidationError(rules.MODEL_NOT_LINKABLE)
        pid = stored_id(p)
        changed = False
        if p.model_id != model.id:
            previous = s.get(Model, p.model_id) if p.model_id else None
            cross = rules.is_cross_firm(p.firm_id, model.firm_id) or \
                rules.is_cross_firm(p.firm_id, previous.firm_id if previous is not None else None)
            if cross:
                changed = _cash_custom_holdings(s, pid)
            audit.record(s, actor, "portfolio.model_linked", "portfolio", pid, label=p.name, firm_id=p.firm_id,
                         before={"model_id": p.model_id}, after={"model_id": model.id, "model": model.name,
                                                                 "custom_holdings_to_cash": changed})
            p.model_id = model.id
            p.version += 1
            p.updated_at = utcnow()
            p.updated_by = actor.id
            s.add(p)
        return ModelLinked(investment_id=pid, model_id=stored_id(model), model_name=model.name,
                           custom_classes_changed=changed, message=rules.MODEL_LINKED)


def unlink_model(*, actor: Actor, portfolio_id: int) -> ModelUnlinked:
    """PUT /api/investments/{id}/unlinkModel: 'Model unlinked'. Unlinking a model of another firm
    sets the custom holdings' class to cash."""
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id, for_edit=True, lock=True)
        if p.model_id is None:
            raise ValidationError(rules.NO_MODEL_LINKED)
        pid = stored_id(p)
        previous = s.get(Model, p.model_id)
        changed = False
        if rules.is_cross_firm(p.firm_id, previous.firm_id if previous is not None else None):
            changed = _cash_custom_holdings(s, pid)
        audit.record(s, actor, "portfolio.model_unlinked", "portfolio", pid, label=p.name, firm_id=p.firm_id,
                     before={"model_id": p.model_id, "model": previous.name if previous is not None else None},
                     after={"model_id": None, "custom_holdings_to_cash": changed})
        p.model_id = None
        p.version += 1
        p.updated_at = utcnow()
        p.updated_by = actor.id
        s.add(p)
        return ModelUnlinked(investment_id=pid, custom_classes_changed=changed, message=rules.MODEL_UNLINKED)


def linkable_models(*, actor: Actor, portfolio_id: int, search: str | None = None, limit: int | None = None,
                    offset: int | None = None) -> LinkableModels:
    """The buy screen: the portfolio (name, firm, linked model) and a page of the active models its
    firm may link to, by name, each saying whether it belongs to another firm."""
    limit_i, offset_i = listing.page(limit, offset, default=rules.DEFAULT_PAGE_SIZE)
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id, for_edit=True)
        pid = stored_id(p)
        where = [_linkable_clause(p.firm_id)]
        text = (search or "").strip().lower()[:200]
        if text:
            where.append(func.lower(Model.name).contains(text, autoescape=True))
        total = s.exec(select(func.count()).select_from(Model).where(*where)).one()
        page = s.execute(
            sa_select(Model, col(Firm.name)).outerjoin(Firm, col(Firm.id) == Model.firm_id).where(*where)
            .order_by(func.lower(Model.name), col(Model.id)).offset(offset_i).limit(limit_i)
        ).all()
        ids = [stored_id(m) for m, _ in page]
        counts: dict[int, int] = {
            mid: int(n) for mid, n in s.execute(
                sa_select(col(ModelAsset.model_id), func.count()).where(col(ModelAsset.model_id).in_(ids))
                .group_by(col(ModelAsset.model_id))).all()} if ids else {}
        current = s.get(Model, p.model_id) if p.model_id else None
        holdings = s.exec(select(func.count()).select_from(CustomHolding)
                          .where(CustomHolding.investment_id == pid)).one()
        firm = s.get(Firm, p.firm_id)
        return LinkableModels(
            portfolio=LinkingPortfolio(
                id=pid, name=p.name, firm_id=p.firm_id, firm_name=firm.name if firm else None, model_id=p.model_id,
                model_name=current.name if current is not None else None,
                model_cross_firm=rules.is_cross_firm(p.firm_id, current.firm_id if current else None),
                custom_holdings=int(holdings)),
            rows=tuple(LinkableModel(
                id=stored_id(m), name=m.name, firm=FirmRef(id=m.firm_id, name=firm_name),
                allocation_method=m.allocation_method,
                allocation_method_title=METHOD_TITLES.get(m.allocation_method, m.allocation_method),
                assets_count=counts.get(stored_id(m), 0), cross_firm=rules.is_cross_firm(p.firm_id, m.firm_id),
                current=m.id == p.model_id) for m, firm_name in page),
            count=int(total),
        )


# ---- the form's options ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PersonChoice:
    """A client or adviser the form offers (holders and the adviser)."""
    id: int
    first_name: str
    last_name: str
    preferred_name: str | None
    name: str
    firm_id: int | None
    status: str


@dataclass(frozen=True)
class BrokerChoice:
    id: int
    name: str
    code: str


@dataclass(frozen=True)
class InstitutionChoice:
    id: int
    title: str
    provider_type: str


@dataclass(frozen=True)
class PortfolioFormOptions:
    """What the portfolio form offers for one firm (none: nobody to hold or advise it)."""
    firm_id: int | None
    clients: tuple[PersonChoice, ...]
    advisers: tuple[PersonChoice, ...]
    classes: tuple[ClassOption, ...]
    industry_groups: tuple[GroupRef, ...]
    brokers: tuple[BrokerChoice, ...]
    institutions: tuple[InstitutionChoice, ...]
    types: tuple[FormOption, ...]
    tax_treatments: tuple[FormOption, ...]
    exception_actions: tuple[FormOption, ...]


def _choices(titles: Mapping[str, str]) -> tuple[FormOption, ...]:
    return tuple(FormOption(value=k, label=t) for k, t in titles.items())


def form_options(*, actor: Actor, firm_id: int | None = None) -> PortfolioFormOptions:
    """What the form offers for a portfolio of `firm_id` (the actor's own firm unless a superuser):
    its clients (holders) and advisers, the asset classes it may use, industry groups, brokers and
    the institutions with a cash account."""
    require_staff(actor)
    firm = firm_id if actor.is_superuser else actor.firm_id
    live = col(User.status) != UserStatus.DELETED.value
    with session_scope() as s:
        def people(role: Role) -> tuple[PersonChoice, ...]:
            if firm is None:
                return ()
            rows = s.exec(select(User).where(people_of_firm(firm), col(User.role) == role.value, live)
                          .order_by(func.lower(User.first_name), func.lower(User.last_name), col(User.id))
                          .limit(HOLDER_OPTIONS_MAX)).all()
            return tuple(PersonChoice(id=stored_id(u), first_name=u.first_name, last_name=u.last_name,
                                      preferred_name=u.preferred_name, name=f"{u.first_name} {u.last_name}",
                                      firm_id=u.firm_id, status=u.status) for u in rows)

        classes = s.exec(select(AssetClass).where(
            asset_classes_of(firm)
        ).order_by(col(AssetClass.is_cash).desc(), col(AssetClass.idx), func.lower(AssetClass.title),
                   col(AssetClass.id))).all()
        groups = s.exec(select(IndustryGroup).order_by(col(IndustryGroup.idx), col(IndustryGroup.id))).all()
        brokers = s.exec(select(Broker).order_by(func.lower(Broker.name), col(Broker.id))).all()
        institutions = s.exec(select(Institution).order_by(func.lower(Institution.title), col(Institution.id))).all()
        return PortfolioFormOptions(
            firm_id=firm,
            clients=people(Role.CLIENT),
            advisers=people(Role.ADVISER),
            classes=tuple(ClassOption(id=stored_id(c), title=c.title, is_cash=bool(c.is_cash)) for c in classes),
            industry_groups=tuple(GroupRef(id=stored_id(g), title=g.title, color=g.color) for g in groups),
            brokers=tuple(BrokerChoice(id=stored_id(b), name=b.name, code=b.code) for b in brokers),
            institutions=tuple(InstitutionChoice(id=stored_id(i), title=i.title, provider_type=i.provider_type)
                               for i in institutions
                               if CASH_ACCOUNT.lower() in (p.strip().lower() for p in i.product_types.split(","))),
            types=_choices(rules.TYPE_TITLES),
            tax_treatments=_choices(rules.TAX_TREATMENT_TITLES),
            exception_actions=_choices(rules.EXCEPTION_TITLES),
        )
