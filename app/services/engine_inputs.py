"""Loading what the calculation engine needs, for one portfolio or thousands, in a fixed number of
queries per chunk (never one query per portfolio). Internal to the services: no permission checks;
callers pass portfolio ids they have already authorised (or a bulk run's items)."""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Iterable, Mapping, Sequence, TypeVar

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.db.tables import (
    Asset, CustomHolding, Deposit, Firm, LongTermRecommendation, Model, Portfolio, PortfolioClass, PortfolioException,
    PortfolioIndustryGroup, ShortTermRecommendation, TradeInstruction, TradeTransaction,
)
from app.db import bulk
from app.db.types import stored_id
from app.domain import ledger
from app.domain.money import to_cents
from app.domain.advice import NO_MODEL, TxStatus
from app.domain.engine import snapshot as engine
from app.domain.engine.errors import CalculationError
from app.domain.model_spec import ModelSpec
from app.services import order_book, postings

CHUNK = 2000  # ids per IN (...) list
MODEL_DELETED = "The model {name} has been deleted"


def chunks(ids: list[int], size: int = CHUNK) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


@dataclass
class PortfolioInputs:
    portfolio: Portfolio
    classes: list[PortfolioClass] = field(default_factory=list)
    industry_groups: list[PortfolioIndustryGroup] = field(default_factory=list)
    exceptions: list[PortfolioException] = field(default_factory=list)
    custom_holdings: list[CustomHolding] = field(default_factory=list)
    units: dict[int, Decimal] = field(default_factory=dict)  # asset id -> executed units held (may be 0)
    cash: Decimal = Decimal(0)
    deposits: list[tuple[Deposit, Decimal]] = field(default_factory=list)  # open deposits with balances
    pending: list[TradeTransaction] = field(default_factory=list)  # approved trades not yet executed
    filled: dict[int, Decimal] = field(default_factory=dict)  # units already filled of partly filled orders
    brokerage: engine.Brokerage = field(default_factory=engine.Brokerage)


def brokerage_of(firm: Firm | None) -> engine.Brokerage:
    """The firm's brokerage settings (percent of the trade value, its minimum and maximum)."""
    return engine.Brokerage(firm.fee, firm.min_fee, firm.max_fee) if firm else engine.Brokerage()


@dataclass(frozen=True)
class AssetFacts:
    id: int
    code: str
    name: str
    class_id: int
    industry_group_id: int | None
    last_close_price: Decimal | None
    dividend_yield: Decimal | None


Row = TypeVar("Row")


def _group(rows: Iterable[Row], key: Callable[[Row], int]) -> dict[int, list[Row]]:
    out: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        out[key(row)].append(row)
    return out


def load_portfolios(s: Session, portfolio_ids: Iterable[int],
                    loaded: Mapping[int, Portfolio] | None = None) -> dict[int, PortfolioInputs]:
    """Everything of these portfolios the engine reads, keyed by portfolio id (deleted ones omitted).
    `loaded`: the portfolios' rows, when the caller has read them in this session already."""
    ids = sorted(set(portfolio_ids))
    out: dict[int, PortfolioInputs] = {}
    for part in chunks(ids):
        portfolios: Sequence[Portfolio]
        if loaded is not None and all(pid in loaded for pid in part):
            portfolios = [loaded[pid] for pid in part if loaded[pid].deleted_at is None]
        else:
            portfolios = s.exec(select(Portfolio).where(col(Portfolio.id).in_(part),
                                                        col(Portfolio.deleted_at).is_(None))).all()
        if not portfolios:
            continue
        live = [stored_id(p) for p in portfolios]
        classes = _group(s.exec(select(PortfolioClass).where(col(PortfolioClass.investment_id).in_(live))
                                .order_by(col(PortfolioClass.id))).all(), lambda r: r.investment_id)
        groups = _group(s.exec(select(PortfolioIndustryGroup).where(col(PortfolioIndustryGroup.investment_id).in_(live))
                               .order_by(col(PortfolioIndustryGroup.id))).all(), lambda r: r.investment_id)
        exceptions = _group(s.exec(select(PortfolioException).where(col(PortfolioException.investment_id).in_(live))
                                   .order_by(col(PortfolioException.id))).all(), lambda r: r.investment_id)
        customs = _group(s.exec(select(CustomHolding).where(col(CustomHolding.investment_id).in_(live))
                                .order_by(col(CustomHolding.id))).all(), lambda r: r.investment_id)
        deposits = _group(s.exec(select(Deposit).where(col(Deposit.investment_id).in_(live), col(Deposit.closed_at).is_(None))
                                 .order_by(col(Deposit.id))).all(), lambda r: r.investment_id)
        trades = postings.executed_trades(s, live)
        cash = postings.cash_balances(s, live)
        deposit_balances = postings.deposit_balances(s, live)
        # the portfolios' instructions first, then their approved trades by the instruction index: a
        # join lets PostgreSQL scan every trade transaction, and a bulk run keeps adding them
        ti_owner: dict[int, int] = {tid: pid for tid, pid in s.execute(
            sa_select(col(TradeInstruction.id), col(TradeInstruction.investment_id))
            .where(bulk.among(s, TradeInstruction.investment_id, live))).all()}
        instructions = (bulk.among(s, TradeTransaction.trade_instruction_id, ti_owner) if bulk.is_postgres(s) else
                        col(TradeTransaction.trade_instruction_id).in_(  # SQLite: no list of every version's id
                            sa_select(col(TradeInstruction.id)).where(col(TradeInstruction.investment_id).in_(live))))
        pending = _group(s.exec(
            select(TradeTransaction)
            .where(instructions,
                   TradeTransaction.status == TxStatus.APPROVED.value)
            .order_by(col(TradeTransaction.id))
        ).all(), lambda r: r.trade_instruction_id) if ti_owner else {}
        firms = {f.id: f for f in s.exec(select(Firm).where(col(Firm.id).in_({p.firm_id for p in portfolios}))).all()}
        for p in portfolios:
            pid = stored_id(p)
            treatment = postings.tax_treatment(p)
            firm = firms.get(p.firm_id)
            balances = deposit_balances.get(pid, {})
            out[pid] = PortfolioInputs(
                portfolio=p,
                classes=classes.get(pid, []),
                industry_groups=groups.get(pid, []),
                exceptions=exceptions.get(pid, []),
                custom_holdings=customs.get(pid, []),
                units={aid: ledger.units_held(rows, treatment) for aid, rows in trades.get(pid, {}).items()},
                cash=cash.get(pid, Decimal(0)),
                deposits=[(d, balances.get(stored_id(d), Decimal(0))) for d in deposits.get(pid, [])],
                brokerage=brokerage_of(firm),
            )
        for ti_id, rows in pending.items():
            owner = ti_owner.get(ti_id)
            if owner in out:
                out[owner].pending.extend(rows)
        filled = order_book.filled_units(s, (stored_id(t) for rows in pending.values() for t in rows))
        if filled:
            for inputs in out.values():
                inputs.filled.update({tid: filled[tid] for tid in map(stored_id, inputs.pending) if tid in filled})
    return out


def _pending_trade(t: TradeTransaction, filled: Decimal | None) -> engine.PendingTrade:
    """An approved trade not yet executed; of a partly filled order only the units still placed
    (the filled ones are in the holdings already)."""
    if not filled or not t.quantity:
        return engine.PendingTrade(t.asset_id, t.action, t.quantity, t.value, t.fee)
    left = max(t.quantity - filled, Decimal(0))
    share = left / t.quantity
    return engine.PendingTrade(t.asset_id, t.action, left, to_cents(t.value * share) if t.value is not None else None,
                               to_cents(t.fee * share) if t.fee is not None else None)


def load_assets(s: Session, asset_ids: Iterable[int]) -> dict[int, AssetFacts]:
    ids = sorted(set(asset_ids))
    out: dict[int, AssetFacts] = {}
    for part in chunks(ids):
        for a in s.exec(select(Asset).where(col(Asset.id).in_(part))).all():
            aid = stored_id(a)
            out[aid] = AssetFacts(aid, a.code, a.name, a.class_id, a.industry_group_id, a.last_close_price,
                                   a.dividend_yield)
    return out


def load_recommendations(s: Session, model_ids: Iterable[int]) -> dict[int, dict[int, engine.Recommendation]]:
    """model id -> asset id -> its active short-term recommendation and long-term one (the engine
    decides which applies; assets with neither are absent and take BUY)."""
    ids = sorted(set(model_ids))
    short: dict[tuple[int, int], ShortTermRecommendation] = {}
    long: dict[tuple[int, int], LongTermRecommendation] = {}
    for part in chunks(ids):
        for lt_row in s.exec(select(LongTermRecommendation).where(col(LongTermRecommendation.model_id).in_(part))).all():
            long[(lt_row.model_id, lt_row.asset_id)] = lt_row
        for st_row in s.exec(select(ShortTermRecommendation).where(col(ShortTermRecommendation.model_id).in_(part),
                                                                 col(ShortTermRecommendation.status) == "active")
                             .order_by(col(ShortTermRecommendation.id))).all():
            short[(st_row.model_id, st_row.asset_id)] = st_row
    out: dict[int, dict[int, engine.Recommendation]] = {m: {} for m in ids}
    for key in sorted(set(short) | set(long)):
        st, lt = short.get(key), long.get(key)
        out[key[0]][key[1]] = engine.Recommendation(
            asset_id=key[1], action=st.action if st else None, limit_price=st.price if st else None,
            yield_=st.yield_ if st else None, comment=st.comment if st else None,
            long_term=lt.action if lt else None, long_term_comment=lt.comment if lt else None,
        )
    return out


_quotes: dict[AssetFacts, engine.AssetQuote] = {}


def quote_of(a: AssetFacts) -> engine.AssetQuote:
    """The engine's (immutable, shareable) quote of an asset, made once per distinct facts."""
    quote = _quotes.get(a)
    if quote is None:
        if len(_quotes) > 50_000:
            _quotes.clear()
        quote = _quotes[a] = engine.AssetQuote(a.id, a.code, a.class_id, a.industry_group_id, a.last_close_price)
    return quote


def snapshot_of(inputs: PortfolioInputs, model: ModelSpec, assets: Mapping[int, AssetFacts],
                recommendations: Mapping[int, engine.Recommendation]) -> engine.Snapshot:
    """The engine's snapshot of one portfolio against `model`. `assets` must hold the
    facts of the portfolio's positions, its pending trades' assets, the model's assets with their
    alternates, and the substitutes of its exceptions (see `assets_needed`)."""
    p = inputs.portfolio
    holdings = []
    for asset_id in sorted(inputs.units):
        units = inputs.units[asset_id]
        if units <= 0:
            continue
        a = assets[asset_id]
        holdings.append(engine.Holding(asset_id, a.code, a.class_id, a.industry_group_id, units, a.last_close_price))
    held = {h.asset_id for h in holdings}
    quotes = [quote_of(a) for aid, a in sorted(assets.items()) if aid not in held]
    settings = engine.PortfolioSettings(
        class_allocation=p.class_allocation,
        classes=tuple(engine.ClassAllocation(c.class_id, c.allocation, c.min, c.max) for c in inputs.classes),
        industry_group_allocation=p.industry_group_allocation,
        industry_groups=tuple(engine.IndustryGroupCap(g.industry_group_id, g.allocation) for g in inputs.industry_groups),
        min_asset_allocation=p.min_asset_allocation, min_asset_allocation_value=p.min_asset_allocation_value,
        max_asset_allocation_value=p.max_asset_allocation_value, max_exposure=p.max_exposure,
        min_trade_amount=p.min_trade_amount, min_cash_allocation=p.min_cash_allocation,
        min_cash_allocation_value=p.min_cash_allocation_value, percentages_max_exposure=p.percentages_max_exposure,
        percentages_min_trade_amount=p.percentages_min_trade_amount,
        percentages_min_cash_balance=p.percentages_min_cash_balance,
        percentages_min_cash_balance_value=p.percentages_min_cash_balance_value,
        exceptions=tuple(engine.PortfolioException(e.action, e.asset_id, e.custom_holding_id, e.substitute_asset_id)
                         for e in inputs.exceptions),
    )
    return engine.Snapshot(
        model=model,
        holdings=tuple(holdings),
        cash=inputs.cash,
        deposits=tuple(engine.DepositHolding(stored_id(d), balance, None, d.provider_name) for d, balance in inputs.deposits
                       if balance > 0),
        custom_holdings=tuple(engine.CustomHolding(stored_id(c), c.name, c.value, c.class_id) for c in inputs.custom_holdings),
        pending_trades=tuple(_pending_trade(t, inputs.filled.get(stored_id(t))) for t in inputs.pending),
        settings=settings,
        brokerage=inputs.brokerage,
        recommendations=tuple(recommendations[k] for k in sorted(recommendations)),
        quotes=tuple(quotes),
        portfolio_id=p.id,
    )


def assets_needed(inputs: PortfolioInputs, model: ModelSpec | None) -> set[int]:
    """The assets whose facts a snapshot against `model` reads (see `snapshot_of`)."""
    ids = {aid for aid, units in inputs.units.items() if units > 0}
    ids |= {t.asset_id for t in inputs.pending}
    ids |= {e.substitute_asset_id for e in inputs.exceptions if e.substitute_asset_id}
    ids |= {e.asset_id for e in inputs.exceptions if e.asset_id}
    if model is not None:
        for _, spec in model.assets():
            ids.add(spec.asset.id)
            if spec.alternate is not None:
                ids.add(spec.alternate.id)
        for pair in model.equivalents:
            ids |= {pair.asset_id, pair.eq_asset_id}
    return ids


def build_snapshots(s: Session, portfolio_ids: Iterable[int],
                    loaded: Mapping[int, Portfolio] | None = None) -> dict[int, engine.Snapshot | CalculationError]:
    """Each portfolio's snapshot against its model (or why there can be none: no model, a deleted
    model), loading every input in a fixed number of queries; each model is loaded once. `loaded`:
    the portfolios' rows, when the caller has read them in this session already."""
    ids = sorted(set(portfolio_ids))
    inputs = load_portfolios(s, ids, loaded)
    model_ids = {i.portfolio.model_id for i in inputs.values() if i.portfolio.model_id}
    models = cached_models(s, model_ids)
    recommendations = load_recommendations(s, model_ids)
    needed: set[int] = set()
    wanted: dict[int, set[int]] = {}
    for pid, i in inputs.items():
        mid = i.portfolio.model_id
        wanted[pid] = assets_needed(i, models.get(mid) if mid else None)
        needed |= wanted[pid]
    assets = load_assets(s, needed)
    out: dict[int, engine.Snapshot | CalculationError] = {}
    for pid in ids:
        found = inputs.get(pid)
        if found is None:
            continue
        mid = found.portfolio.model_id
        model = models.get(mid) if mid else None
        if model is None:
            out[pid] = CalculationError("no_model", NO_MODEL)
        elif model.deleted:
            out[pid] = CalculationError("no_model", MODEL_DELETED.format(name=model.name))
        else:
            out[pid] = snapshot_of(found, model, {a: assets[a] for a in wanted[pid] if a in assets},
                                   recommendations.get(model.id, {}))
    return out


# ---- models, cached per process by (id, version, deleted) ----------------------------------------
MODEL_CACHE_SECONDS = 300
_model_cache: dict[int, tuple[tuple[int, bool], float, ModelSpec]] = {}
_model_lock = threading.Lock()


def forget_models() -> None:
    """Drops this process's cached models: for rows deleted outright (the benchmark removes its
    models; SQLite then gives the next ones the same ids, at the same version)."""
    with _model_lock:
        _model_cache.clear()


def cached_models(s: Session, model_ids: Iterable[int]) -> dict[int, ModelSpec]:
    """The models as ModelSpec trees. A worker calculating chunk after chunk of the same models
    loads each model once: a cached tree is reused while its version and deletion are unchanged
    (checked with one small query) and for at most MODEL_CACHE_SECONDS."""
    from app.services.models import load_models_for_engine

    ids = sorted(set(model_ids))
    if not ids:
        return {}
    keys = {mid: (version, deleted is not None) for mid, version, deleted in s.execute(
        sa_select(col(Model.id), col(Model.version), col(Model.deleted_at)).where(col(Model.id).in_(ids))).all()}
    now = time.monotonic()
    out: dict[int, ModelSpec] = {}
    missing = []
    with _model_lock:
        for mid in ids:
            hit = _model_cache.get(mid)
            if hit is not None and hit[0] == keys.get(mid) and now - hit[1] < MODEL_CACHE_SECONDS:
                out[mid] = hit[2]
            else:
                missing.append(mid)
    if missing:
        loaded = load_models_for_engine(s, missing)
        with _model_lock:
            for mid, spec in loaded.items():
                _model_cache[mid] = ((spec.version, spec.deleted), now, spec)
                out[mid] = spec
    return out
