"""The adviser's and administrator's home: drift of every portfolio from its model, and the work
queues of the advice chain.

Drift (`report`): for the portfolios the actor may see (tenancy.readable_portfolios: a firm's
staff their firm's, the superuser every firm or the one chosen; another firm's id is not found)
that follow a model, each portfolio's value, its classes against the class allocation and min /
max band, and its assets against their model weights (app.domain.drift), with the same inputs the
engine reads: executed holdings at last close, the cash balance, open deposits, custom holdings,
the model (engine_inputs.cached_models) and the portfolio's own class allocation. Portfolios with
a class outside its band come first, the largest breach first. The whole firm is read in a fixed
number of queries whatever its size (holdings are summed by the database; only holdings touched by
a reconstruction are replayed through the ledger).

Queues (`queues`): counts with their oldest age, each from the report the screen links to:
target portfolios to validate, Not Enough Cash and Calculation Error versions and records of advice
awaiting the client (the pending target portfolios report), trade recommendations to validate or
to approve (the trade recommendations approval view), and approved trades not yet sent to the
broker (the trade file).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Iterable, Sequence

from sqlalchemy import ColumnElement, Select, case, func, select as sa_select
from sqlmodel import Session, col

from app.db import bulk
from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetTransaction, CustomHolding, Deposit, Portfolio, PortfolioClass, TargetPortfolio,
)
from app.db.types import utcnow
from app.domain import drift as rules
from app.domain import ledger
from app.domain.advice.target_portfolios import NOT_ENOUGH_CASH, TPStatus
from app.domain.advice.trade_instructions import TIStatus
from app.domain.engine.prepared import prepare_model
from app.domain.permissions import NOT_ALLOWED, Actor, require
from app.domain.timezones import days_between
from app.domain.roles import Role
from app.domain.transactions import Kind, Status
from app.services import advice_queries, advice_reports, engine_inputs, listing, postings, trade_approval_report, trade_file
from app.services.tenancy import readable_portfolios

ZERO = Decimal(0)
SORTS = ("breach", "name", "client", "adviser", "model", "value", "out_of_band")
DEFAULT_SORT = ("breach", "desc")


@dataclass(frozen=True, slots=True)
class PortfolioDrift:
    investment_id: int
    name: str
    firm_id: int
    client_name: str
    adviser_id: int | None
    adviser_name: str
    model_id: int
    model_name: str
    value: Decimal
    largest_breach: Decimal          # percentage points outside a band (0: every class inside)
    out_of_band: int                 # classes outside their band
    classes: list[rules.ClassDrift] = field(default_factory=list)
    assets: list[rules.AssetDrift] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Option:
    id: int
    name: str


@dataclass(frozen=True)
class DriftReport:
    firm_id: int | None              # None: every firm (superuser)
    rows: list[PortfolioDrift]       # filtered and sorted (every row; page with `page_of`)
    count: int
    breached: int                    # rows with a class outside its band
    total_value: Decimal
    histogram: list[tuple[str, int]]             # largest breach bucket -> portfolios
    value_by_model: list[tuple[str, Decimal]]    # model name -> value of its portfolios (largest first)
    models: list[Option]             # filter choices (every model of the scope, before filters)
    advisers: list[Option]


def _may_read(actor: Actor) -> None:
    require(actor.role is not Role.CLIENT, NOT_ALLOWED)


def _scope(actor: Actor, firm_id: int | None) -> ColumnElement[bool]:
    readable: ColumnElement[bool] = readable_portfolios(actor, firm_id)
    return readable & col(Portfolio.model_id).is_not(None)


def _in_scope(scope: ColumnElement[bool]) -> Select[int | None]:
    """The ids of the portfolios of the scope (a subquery)."""
    return sa_select(col(Portfolio.id)).where(scope)


def _positions(scope: ColumnElement[bool]) -> Select[int | None, int | None, Decimal, int]:
    """Per (portfolio, asset) of the scope: units bought less units sold (executed), and whether a
    reconstruction touched the holding (then the ledger decides its units)."""
    t = AssetTransaction
    quantity = col(t.quantity)
    kind = col(t.type)
    signed = case((kind == Kind.ASSET_BUY.value, quantity), (kind == Kind.PARCEL.value, -quantity), else_=0)
    rebuilt: ColumnElement[int] = func.max(case((kind == Kind.RECONSTRUCTION.value, 1), else_=0))
    return (sa_select(col(t.investment_id).label("pid"), col(t.asset_id).label("aid"), func.sum(signed).label("units"),
                      rebuilt.label("touched"))
            .where(col(t.status) == Status.EXECUTED.value, col(t.asset_id).is_not(None),
                   col(t.investment_id).in_(_in_scope(scope)))
            .group_by(col(t.investment_id), col(t.asset_id)))


def _listed_by_class(s: Session,
                     scope: ColumnElement[bool]) -> tuple[dict[int, dict[int, Decimal]], dict[int, dict[int, Decimal]]]:
    """PostgreSQL, for the list (no asset rows): portfolio id -> class id -> value of its listed
    holdings, each at its last close rounded to the cent (half-up: units and prices are positive)
    and summed by the database; plus the units of the holdings a reconstruction touched, which the
    ledger values in Python."""
    held = _positions(scope).subquery()
    value = func.round(held.c.units * col(Asset.last_close_price), 2)
    rows = s.connection().execute(
        sa_select(held.c.pid, col(Asset.class_id), func.sum(value))
        .join(Asset, col(Asset.id) == held.c.aid)
        .where(held.c.touched == 0, held.c.units > 0, col(Asset.last_close_price) > 0)
        .group_by(held.c.pid, col(Asset.class_id))).all()
    out: dict[int, dict[int, Decimal]] = defaultdict(dict)
    for pid, class_id, total in rows:
        out[pid][class_id] = Decimal(total)
    return out, _units(s, scope, touched_only=True)


def _units(s: Session, scope: ColumnElement[bool], *, touched_only: bool = False) -> dict[int, dict[int, Decimal]]:
    """portfolio id -> asset id -> units held, from executed transactions: buys less sells summed
    by the database; the few holdings a reconstruction touched replayed through the ledger (its
    per-parcel rounding is the ledger's), as engine_inputs does for every holding. With
    `touched_only`, only those few."""
    out: dict[int, dict[int, Decimal]] = defaultdict(dict)
    replay: list[tuple[int, int]] = []
    if touched_only:
        t = AssetTransaction
        replay = [(pid, aid) for pid, aid in s.connection().execute(
            sa_select(col(t.investment_id), col(t.asset_id)).where(
                col(t.type) == Kind.RECONSTRUCTION.value, col(t.status) == Status.EXECUTED.value,
                col(t.asset_id).is_not(None),
                col(t.investment_id).in_(_in_scope(scope))).distinct()).all() if aid is not None]
    else:
        for pid, aid, units, touched in s.connection().execute(_positions(scope)).all():
            if pid is None or aid is None:
                continue  # (the query reads only rows with both)
            if touched:
                replay.append((pid, aid))
            elif units and units > 0:
                out[pid][aid] = Decimal(units)
    if replay:
        treatments = {p.id: postings.tax_treatment(p) for p in s.execute(sa_select(Portfolio).where(
            bulk.among(s, col(Portfolio.id), {pid for pid, _ in replay}))).scalars()}
        for pid, assets in postings.executed_trades(s, [], pairs=replay).items():
            for aid, trades in assets.items():
                units = ledger.apply(trades, treatments.get(pid, ledger.TaxTreatment.FIFO)).units
                if units > 0:
                    out[pid][aid] = units
    return out


def _sort(rows: list[PortfolioDrift], key: str, order: str) -> list[PortfolioDrift]:
    rows = sorted(rows, key=lambda r: (r.name.lower(), r.investment_id))
    getters = {
        "breach": lambda r: (r.largest_breach, r.out_of_band), "name": lambda r: r.name.lower(),
        "client": lambda r: r.client_name.lower(), "adviser": lambda r: r.adviser_name.lower(),
        "model": lambda r: r.model_name.lower(), "value": lambda r: r.value, "out_of_band": lambda r: r.out_of_band,
    }
    rows.sort(key=getters[key], reverse=order == "desc")
    return rows


def report(*, actor: Actor, firm_id: int | None = None, model_id: int | None = None, adviser_id: int | None = None,
           min_breach: Decimal | None = None, investment_ids: Iterable[int] | None = None, sort: str | None = None,
           order: str | None = None, with_assets: bool = True) -> DriftReport:
    """The drift of the actor's portfolios (see the module text). Filters: a superuser's firm
    (None: every firm; app.domain.parsing.firm_choice reads it as sent), a model, an adviser, a
    minimum breach in percentage points (only portfolios breached by at least that much; as typed,
    app.domain.drift.read_min_breach reads it), chosen portfolio ids. Default order: largest breach
    first, then by name."""
    _may_read(actor)
    threshold = min_breach
    key = sort if sort in SORTS and sort is not None else DEFAULT_SORT[0]
    direction = str(order).lower() if str(order).lower() in ("asc", "desc") else (
        DEFAULT_SORT[1] if key == DEFAULT_SORT[0] else "asc")
    with session_scope() as s:
        fid = trade_file.report_firm(s, actor, firm_id)
        scope = _scope(actor, fid)
        options_rows: list[tuple[int | None, int | None]] = [
            (m, a) for m, a in s.execute(
                sa_select(col(Portfolio.model_id), col(Portfolio.adviser_id)).where(scope).distinct()).all()]
        if model_id is not None:
            scope = scope & (col(Portfolio.model_id) == model_id)
        if adviser_id is not None:
            scope = scope & (col(Portfolio.adviser_id) == adviser_id)
        if investment_ids is not None:
            scope = scope & bulk.among(s, col(Portfolio.id), sorted(set(investment_ids)))
        portfolios = s.execute(sa_select(col(Portfolio.id), col(Portfolio.name), col(Portfolio.firm_id),
                                         col(Portfolio.model_id), col(Portfolio.adviser_id),
                                         col(Portfolio.class_allocation))
                               .where(scope).order_by(col(Portfolio.id))).all()
        ids: list[int] = [p.id for p in portfolios]
        model_ids: set[int] = {p.model_id for p in portfolios} | {m for m, _ in options_rows if m}
        specs = engine_inputs.cached_models(s, model_ids)
        model_names = {m: spec.name for m, spec in specs.items()}
        people = advice_queries.user_names(s, {a for _, a in options_rows if a})
        models = sorted((Option(m, model_names.get(m, "")) for m in {m for m, _ in options_rows if m}),
                        key=lambda o: (o.name.lower(), o.id))
        advisers = sorted((Option(a, people.get(a, "")) for a in {a for _, a in options_rows if a}),
                          key=lambda o: (o.name.lower(), o.id))
        if not ids:
            return DriftReport(fid, [], 0, 0, ZERO, _histogram([]), [], models, advisers)
        by_sql = not with_assets and s.get_bind().dialect.name == "postgresql"
        listed, units = _listed_by_class(s, scope) if by_sql else ({}, _units(s, scope))
        cash = postings.cash_balances(s, ids)
        open_deposits = set(s.execute(sa_select(col(Deposit.id)).where(
            col(Deposit.investment_id).in_(_in_scope(scope)), col(Deposit.closed_at).is_(None))).scalars())
        deposits = postings.deposit_balances(s, ids) if open_deposits else {}
        customs: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
        for pid, class_id, value in s.execute(sa_select(col(CustomHolding.investment_id), col(CustomHolding.class_id),
                                                        col(CustomHolding.value))
                                              .where(col(CustomHolding.investment_id).in_(_in_scope(scope)))):
            customs[pid].append((class_id, Decimal(value or 0)))
        own: dict[int, list[rules.OwnClass]] = defaultdict(list)
        for pid, class_id, allocation, low, high in s.execute(
                sa_select(col(PortfolioClass.investment_id), col(PortfolioClass.class_id),
                          col(PortfolioClass.allocation), col(PortfolioClass.min), col(PortfolioClass.max))
                .where(col(PortfolioClass.investment_id).in_(_in_scope(
                    scope & col(Portfolio.class_allocation).is_(True))))
                .order_by(col(PortfolioClass.id))):
            own[pid].append(rules.OwnClass(class_id, Decimal(allocation), low, high))
        asset_ids = {a for held in units.values() for a in held}
        if with_assets:
            for spec in specs.values():
                asset_ids |= {a.asset.id for _, a in spec.assets()}
        assets = engine_inputs.load_assets(s, asset_ids)
        titles: dict[int, str] = {i: title for i, title in s.execute(
            sa_select(col(AssetClass.id), col(AssetClass.title))).all()}
        owners = advice_queries.owner_names(s, ids)
        people.update(advice_queries.user_names(s, {p.adviser_id for p in portfolios if p.adviser_id} - set(people)))
    prepared = {m: prepare_model(spec) for m, spec in specs.items() if not spec.deleted}
    shared = {m: rules.targets(p) for m, p in prepared.items()}
    names = {a.id: (a.code, a.name) for a in assets.values()}
    rows: list[PortfolioDrift] = []
    Holding = rules.Holding
    for p in portfolios:
        model = prepared.get(p.model_id)
        if model is None:
            continue  # a deleted model: nothing to measure against
        t = rules.targets(model, own[p.id]) if p.class_allocation else shared[p.model_id]
        holdings: list[rules.Holding] = []
        for asset_id, n in units.get(p.id, {}).items():
            a = assets.get(asset_id)
            if a is not None:
                holdings.append(Holding(asset_id, a.code, a.name, a.class_id, n, a.last_close_price))
        balances = deposits.get(p.id)
        own_deposits = [v for d, v in balances.items() if d in open_deposits] if balances else ()
        if by_sql:
            by_class = dict(listed.get(p.id, {}))
            for h in holdings:  # the holdings a reconstruction touched
                value = rules.holding_value(h)
                by_class[h.class_id] = by_class.get(h.class_id, ZERO) + value
            f = rules.class_figures(t, by_class, cash=cash.get(p.id, ZERO), deposits=own_deposits,
                                    customs=customs.get(p.id, ()), class_titles=titles)
        else:
            f = rules.figures(t, holdings, cash=cash.get(p.id, ZERO), deposits=own_deposits,
                              customs=customs.get(p.id, ()), class_titles=titles, model_assets=names,
                              with_assets=with_assets)
        if threshold is not None and (f.largest_breach <= 0 or f.largest_breach < threshold):
            continue
        rows.append(PortfolioDrift(p.id, p.name, p.firm_id, owners.get(p.id, ""), p.adviser_id,
                                   people.get(p.adviser_id, ""), p.model_id, model_names.get(p.model_id, ""), f.value,
                                   f.largest_breach, f.out_of_band, f.classes, f.assets))
    rows = _sort(rows, key, direction)
    by_model: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for r in rows:
        by_model[r.model_name] += r.value
    return DriftReport(
        firm_id=fid, rows=rows, count=len(rows), breached=sum(1 for r in rows if r.largest_breach > 0),
        total_value=sum((r.value for r in rows), ZERO), histogram=_histogram(rows),
        value_by_model=sorted(by_model.items(), key=lambda kv: (-kv[1], kv[0])), models=models, advisers=advisers)


def _histogram(rows: list[PortfolioDrift]) -> list[tuple[str, int]]:
    counts = dict.fromkeys((label for label, _, _ in rules.BREACH_BUCKETS), 0)
    for r in rows:
        counts[rules.bucket(r.largest_breach)] += 1
    return list(counts.items())


def page_of(rows: Sequence[PortfolioDrift], limit: int | None, offset: int | None) -> list[PortfolioDrift]:
    size, start = listing.page(limit, offset)
    return list(rows[start:start + size])


def portfolio(*, actor: Actor, investment_id: int) -> PortfolioDrift | None:
    """One portfolio's drift with its classes and assets (None: not visible, or no model)."""
    found = report(actor=actor, investment_ids=[investment_id]).rows
    return found[0] if found else None


# ---- queues -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WaitingRecord:
    investment_id: int
    portfolio_name: str
    tp_id: int
    version: int
    sent_at: datetime | None
    days: int


@dataclass(frozen=True)
class Queues:
    firm_id: int | None
    to_validate: int = 0                 # target portfolios Validation Required
    to_validate_oldest_days: int = 0
    drafts_with_advisers: int = 0        # drafts the actor's role is not shown (an administrator's: with the advisers)
    sees_drafts: bool = True             # the actor's pending report lists Validation Required (and Not Enough Cash, Calculation Error)
    not_enough_cash: int = 0
    calculation_error: int = 0
    awaiting_client: int = 0             # records of advice awaiting the client (Approval Required)
    awaiting_client_oldest_days: int = 0
    awaiting: list[WaitingRecord] = field(default_factory=list)   # oldest first
    trades_to_validate: int = 0          # newest trade recommendations pending validation
    trades_to_approve: int = 0           # ... pending approval
    trades_to_export: int = 0            # approved trades not yet placed with the broker (trade file rows)
    trades_to_export_portfolios: int = 0


def queues(*, actor: Actor, firm_id: int | None = None, now: datetime | None = None) -> Queues:
    """The work queues of the actor's firm (a superuser's chosen firm, or every firm: None)."""
    _may_read(actor)
    now = now or utcnow()
    with session_scope() as s:
        fid = trade_file.report_firm(s, actor, firm_id)
    pending = advice_reports.pending_report(actor=actor, firm_id=fid, now=now)
    drafts = [r for r in pending.rows if r.status == TPStatus.DRAFT.value]
    validated = [r for r in pending.rows if r.status == TPStatus.VALIDATED.value]
    awaiting: list[WaitingRecord] = []
    if validated:
        # a record of advice waits from when it was validated (sent to the client)
        with session_scope() as s:
            sent: dict[int, datetime | None] = {tp_id: at for tp_id, at in s.execute(
                sa_select(col(TargetPortfolio.id), col(TargetPortfolio.validated_at)).where(
                    bulk.among(s, col(TargetPortfolio.id), [r.tp_id for r in validated]))).all()}
        for r in validated:
            at = sent.get(r.tp_id) or r.date
            awaiting.append(WaitingRecord(r.investment_id, r.portfolio_name, r.tp_id, r.version, at,
                                          days_between(at, now)))
        awaiting.sort(key=lambda w: (-w.days, w.portfolio_name.lower()))
    statuses = ("spv", "spa")
    if actor.is_superuser:
        with session_scope() as s:
            clause = readable_portfolios(actor, fid)
            groups = trade_approval_report.build(s, actor, clause, statuses)
    else:
        groups = trade_approval_report.generate(actor=actor, statuses=list(statuses))
    tf = trade_file.generate(actor=actor, firm_id=fid)
    waiting = [r for r in tf.rows if r.placed_transaction_id is None and not r.hidden]
    return Queues(
        firm_id=fid,
        to_validate=len(drafts), to_validate_oldest_days=max((r.days_waiting for r in drafts), default=0),
        drafts_with_advisers=advice_reports.drafts_with_advisers(actor=actor, firm_id=fid),
        sees_drafts=any(o.value == TPStatus.DRAFT.value for o in pending.offered_statuses),
        not_enough_cash=sum(1 for r in pending.rows if r.status == NOT_ENOUGH_CASH),
        calculation_error=sum(1 for r in pending.rows if r.status == TPStatus.FAILED.value),
        awaiting_client=len(awaiting), awaiting_client_oldest_days=awaiting[0].days if awaiting else 0,
        awaiting=awaiting,
        trades_to_validate=sum(1 for g in groups if g.status == TIStatus.PENDING_VALIDATION.value),
        trades_to_approve=sum(1 for g in groups if g.status == TIStatus.PENDING_APPROVAL.value),
        trades_to_export=len(waiting), trades_to_export_portfolios=len({r.investment_id for r in waiting}))
