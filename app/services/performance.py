"""Performance of a portfolio, and of a client across their portfolios, against the model
(app.domain.performance holds the arithmetic; this module reads what it needs).

Read for the acting user through app.services.tenancy (a portfolio the actor may not see is not
found; a client sees only the portfolios they hold, read-only):

- the portfolio's executed asset transactions (units of each listed asset after each day, through
  app.domain.ledger as app.services.postings derives positions, so reconstructions floor as they
  do on the holdings screen; deposit placements, redemptions and accruals) and executed cash
  transactions (the cash balance after each day). External flows are the opening balance, credits
  and withdrawals (cash transactions without an asset transaction) and cash increases; income is
  dividends, interest, deposit interest and cash account income; everything else (buys, sells,
  capital returns, deposit placements) moves value inside the portfolio;
- the daily closes (asset_prices) of the assets held and of the model's assets; the valuation days
  are the days with a close or a transaction from the portfolio's first transaction to the latest
  close (the "as at" day);
- the model's weights (app.domain.drift.targets, as the dashboard's drift reads them: a
  percentage-method asset's percentage, an equal-amounts class shared by its first assets; the
  cash class and listed assets of the cash class earn nothing): **the version in force on each
  day** - the model's saved versions (model_versions) give the weights from the day each was saved,
  the earliest version also covering the days before it; a model without saved versions is read
  as it stands now. The model's own weights are used, not a portfolio's own class allocation.

Custom holdings (values without a history) are left out of the figures. Before an asset's first
stored close, the prices it was bought or sold at stand in for closes.
"""
from __future__ import annotations

import bisect
import dataclasses
import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal, ROUND_HALF_UP
from typing import Any, Callable, Iterable

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.db import bulk
from app.db.engine import session_scope
from app.db.types import stored_id
from app.db.tables import (
    AssetPrice, AssetTransaction, CashTransaction, Firm, Model, ModelVersion, Portfolio, PortfolioUser, User,
)
from app.domain import drift as drift_rules
from app.domain import ledger
from app.domain import performance as perf
from app.domain.engine.prepared import prepare_model
from app.domain import validators
from app.domain.errors import NotFound, ValidationError
from app.domain.model_spec import AssetRef, ClassSpec, ModelAssetSpec, ModelSpec
from app.domain.performance import PerformanceReport, PeriodLine, PortfolioLine, ValuePoint
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.transactions import EFFECTS, Cash, CashType, Kind, Status
from app.services import engine_inputs, postings
from app.services.tenancy import USER_NOT_FOUND, load_portfolio, load_user, readable_portfolios

ZERO = Decimal(0)
PCT = Decimal("0.01")
CHART_POINTS = 400  # the value-over-time chart keeps at most this many days (evenly, the last always)

NO_HISTORY = "No performance yet: there are no executed transactions."
MODEL_BASIS_VERSIONS = "The model's weights in force on each day (its saved versions)"
MODEL_BASIS_CURRENT = "The model's current weights"
NO_MODEL = "No model linked"

INCOME_KINDS = frozenset({Kind.DIVIDEND.value, Kind.INTEREST.value, Kind.TD_INCOME.value})
FLOW_KINDS = frozenset({Kind.CASH_INCREASE.value})


# ---- reading one portfolio's history -----------------------------------------------------------------
@dataclass
class _History:
    """A portfolio's days: what changed on each, and the units of each asset after each change."""

    portfolio: Portfolio
    cash_delta: dict[date, Decimal]
    flows: dict[date, Decimal]
    income: dict[date, Decimal]
    units: dict[int, list[tuple[date, Decimal]]]     # asset id -> (day, units after that day)
    model_id: int | None
    trade_prices: dict[int, list[tuple[date, Decimal]]] = dataclasses.field(default_factory=dict)

    @property
    def days(self) -> set[date]:
        out = set(self.cash_delta) | set(self.flows) | set(self.income)
        for rows in self.units.values():
            out.update(d for d, _ in rows)
        return out


def _add(book: dict[date, Decimal], day: date, amount: Decimal) -> None:
    book[day] = book.get(day, ZERO) + amount


def _histories(s: Session, portfolios: list[Portfolio], until: date | None = None) -> dict[int, _History]:
    ids = [stored_id(p) for p in portfolios]
    out = {stored_id(p): _History(p, {}, {}, {}, {}, p.model_id) for p in portfolios}
    if not ids:
        return out
    t = AssetTransaction
    kinds: dict[int, str] = {}
    rows = s.execute(sa_select(col(t.id), col(t.investment_id), col(t.type), col(t.deposit_id), col(t.amount),
                               col(t.trade_at))
                     .where(col(t.investment_id).in_(ids), col(t.status) == Status.EXECUTED.value)).all()
    for tid, pid, kind, deposit_id, amount, trade_at in rows:
        kinds[tid] = kind
        h, day = out[pid], trade_at.date()
        if deposit_id is not None:
            sign = EFFECTS[Kind(kind)].deposit
            if sign:
                _add(h.cash_delta, day, sign * Decimal(amount or 0))
            if kind == Kind.ACA_INCOME.value:
                _add(h.income, day, Decimal(amount or 0))
    c = CashTransaction
    for pid, kind, action, amount, trade_at, linked in s.execute(
            sa_select(col(c.investment_id), col(c.type), col(c.action), col(c.price), col(c.trade_at),
                      col(c.linked_transaction_id))
            .where(col(c.investment_id).in_(ids), col(c.status) == Status.EXECUTED.value)).all():
        h, day = out[pid], trade_at.date()
        signed = Decimal(amount) if action == Cash.IN.value else -Decimal(amount)
        _add(h.cash_delta, day, signed)
        linked_kind = kinds.get(linked) if linked is not None else None
        if kind in (CashType.OPENING_BALANCE.value, CashType.CASH.value) or linked_kind in FLOW_KINDS:
            _add(h.flows, day, signed)
        elif kind == CashType.INCOME.value or linked_kind in INCOME_KINDS:
            _add(h.income, day, signed)
    trades = postings.executed_trades(s, ids)
    for pid, by_asset in trades.items():
        treatment = postings.tax_treatment(out[pid].portfolio)
        for asset_id, asset_trades in by_asset.items():
            after: list[tuple[date, Decimal]] = []
            for n, trade in enumerate(asset_trades):
                if n + 1 < len(asset_trades) and asset_trades[n + 1].trade_date == trade.trade_date:
                    continue
                try:
                    units = ledger.apply(asset_trades[:n + 1], treatment).units
                except Exception:  # a sell of more than was held: the units as they were
                    units = after[-1][1] if after else ZERO
                after.append((trade.trade_date, units))
            out[pid].units[asset_id] = after
            out[pid].trade_prices[asset_id] = [(t.trade_date, t.price) for t in asset_trades
                                               if t.kind in ("buy", "sell") and t.price > 0]
    if until is not None:
        for h in out.values():
            for book in (h.cash_delta, h.flows, h.income):
                for day in [d for d in book if d > until]:
                    del book[day]
            for asset_id in h.units:
                h.units[asset_id] = [(d, u) for d, u in h.units[asset_id] if d <= until]
    return out


def _with_trade_prices(closes: dict[int, list[tuple[date, Decimal]]],
                       histories: Iterable[_History]) -> dict[int, list[tuple[date, Decimal]]]:
    """Before an asset's first stored close, its trades' prices stand in for closes (a holding
    bought before the price history starts is valued at what it was traded at, not at 0)."""
    for h in histories:
        for asset_id, prices in h.trade_prices.items():
            rows = closes[asset_id]
            first = rows[0][0] if rows else None
            earlier = sorted({d: p for d, p in prices if first is None or d < first}.items())
            if earlier:
                closes[asset_id] = earlier + rows
    return closes


def _closes(s: Session, asset_ids: Iterable[int], until: date | None,
            histories: Iterable[_History] = ()) -> dict[int, list[tuple[date, Decimal]]]:
    """The assets' closes up to `until`, from a fortnight before the first transaction of the
    histories (the closes before that are never read)."""
    ids = sorted(set(asset_ids))
    out: dict[int, list[tuple[date, Decimal]]] = defaultdict(list)
    starts = [min(h.days) for h in histories if h.days]
    if not ids or not starts:
        return out
    since = min(starts) - timedelta(days=14)
    if bulk.is_postgres(s):
        # tens of thousands of closes a page: read through the driver, which already gives dates and
        # Decimals, rather than through SQLAlchemy's row processing (a third of the page's time)
        sql = ("SELECT asset_id, price_date, close FROM asset_prices WHERE asset_id = ANY(%s) AND price_date >= %s"
               + (" AND price_date <= %s" if until is not None else "") + " ORDER BY asset_id, price_date")
        driver = s.connection().connection.driver_connection
        assert driver is not None  # (an open connection)
        with driver.cursor() as cursor:
            cursor.execute(sql, (ids, since, until) if until is not None else (ids, since))
            rows = cursor.fetchall()
    else:
        q = sa_select(col(AssetPrice.asset_id), col(AssetPrice.price_date), col(AssetPrice.close)).where(
            col(AssetPrice.asset_id).in_(ids), col(AssetPrice.price_date) >= since)
        if until is not None:
            q = q.where(col(AssetPrice.price_date) <= until)
        rows = s.execute(q.order_by(col(AssetPrice.asset_id), col(AssetPrice.price_date))).all()
    for asset_id, day, close in rows:
        out[asset_id].append((day, close))
    return out


# ---- the model's weights -----------------------------------------------------------------------------
def _dec(text: object) -> Decimal | None:
    return None if text in (None, "") else Decimal(str(text))


def _spec_of_snapshot(model_id: int, firm_id: int, version: int, shape: dict[str, Any]) -> ModelSpec:
    """A saved version (the model's read shape) as the engine's ModelSpec, for its weights."""
    classes = []
    for c in shape.get("allocation_classes") or []:
        assets = tuple(ModelAssetSpec(
            asset=AssetRef(int(a["asset_id"]), str(a.get("code") or ""), int(c["class_id"]), None, None, None),
            priority=int(a.get("priority") or 0), alternate=None, percentage=_dec(a.get("percentage")),
            included_at=None, inclusion_price=None) for a in c.get("assets") or [])
        classes.append(ClassSpec(class_id=int(c["class_id"]), title=str(c.get("title") or ""),
                                 is_cash=bool(c.get("is_cash")), allocation=_dec(c.get("allocation")) or ZERO,
                                 min=_dec(c.get("min")), max=_dec(c.get("max")), assets_limit=c.get("assets_limit"),
                                 priority=int(c.get("priority") or 0), assets=assets))
    return ModelSpec(id=model_id, firm_id=firm_id, name=str(shape.get("name") or ""),
                     status=str(shape.get("status") or ""), allocation_method=str(shape.get("allocation_method") or ""),
                     availability=str(shape.get("availability") or ""), version=version,
                     analyst_recommendations=False, class_allocation=True, type_allocation=False,
                     industry_group_allocation=False, deleted=False, classes=tuple(classes))


def _weights_of(spec: ModelSpec) -> dict[int, float]:
    targets = drift_rules.targets(prepare_model(spec))
    cash_assets = {a.asset.id for c in spec.classes if c.is_cash for a in c.assets}
    return {a: float(w) / 100 for a, w in targets.weights.items() if w and a not in cash_assets}


@dataclass(frozen=True)
class _ModelWeights:
    """A model's weights by day: (from day, weights) in date order."""

    name: str
    steps: tuple[tuple[date, dict[int, float]], ...]
    versioned: bool

    def on(self, day: date) -> dict[int, float]:
        i = bisect.bisect_right([d for d, _ in self.steps], day) - 1
        return self.steps[max(i, 0)][1]

    @property
    def asset_ids(self) -> set[int]:
        return {a for _, w in self.steps for a in w}


def _models(s: Session, model_ids: Iterable[int]) -> dict[int, _ModelWeights]:
    ids = sorted({m for m in model_ids if m is not None})
    out: dict[int, _ModelWeights] = {}
    if not ids:
        return out
    names: dict[int, str] = {}
    firms: dict[int, int] = {}
    for mid, name, firm_id in s.execute(
            sa_select(col(Model.id), col(Model.name), col(Model.firm_id)).where(col(Model.id).in_(ids))).all():
        names[mid], firms[mid] = name, firm_id
    versions: dict[int, list[tuple[date, dict[int, float]]]] = defaultdict(list)
    for mid, version, snapshot, created_at in s.execute(
            sa_select(col(ModelVersion.model_id), col(ModelVersion.version), col(ModelVersion.snapshot),
                      col(ModelVersion.created_at))
            .where(col(ModelVersion.model_id).in_(ids))
            .order_by(col(ModelVersion.model_id), col(ModelVersion.version))).all():
        try:
            weights = _weights_of(_spec_of_snapshot(mid, firms[mid], version, json.loads(snapshot)))
        except (ValueError, KeyError, TypeError):
            continue  # a snapshot this reading does not understand: the neighbouring versions serve
        day = created_at.date()
        steps = versions[mid]
        if steps and steps[-1][0] == day:
            steps[-1] = (day, weights)  # the last save of a day is the one in force at its close
        else:
            steps.append((day, weights))
    current = engine_inputs.cached_models(s, [m for m in ids if not versions.get(m)])
    for mid in ids:
        if versions.get(mid):
            out[mid] = _ModelWeights(names.get(mid, ""), tuple(versions[mid]), True)
        elif mid in current:
            out[mid] = _ModelWeights(names.get(mid, ""), ((date.min, _weights_of(current[mid])),), False)
    return out


# ---- figures -----------------------------------------------------------------------------------------
def _pct(x: float | None) -> Decimal | None:
    if x is None or x != x or x in (float("inf"), float("-inf")):
        return None
    return (Decimal(repr(x)) * 100).quantize(PCT, rounding=ROUND_HALF_UP)


def _title(f: perf.PeriodFigures) -> str:
    """The period's title; since inception over a year says it is given a year."""
    if f.annualised and f.period is perf.Period.INCEPTION:
        return f"{f.period.title} (a year)"
    return f.period.title


def _line(f: perf.PeriodFigures) -> PeriodLine:
    a = f.attribution
    return PeriodLine(
        period=f.period.value, title=_title(f), start=f.base.fromordinal(f.base.toordinal() + 1), end=f.end,
        available=f.available, partial=f.partial, annualised=f.annualised, start_value=f.start_value,
        end_value=f.end_value, net_flows=f.net_flows, income_received=f.income_received, twr=_pct(f.twr),
        income=_pct(f.income), capital=_pct(f.capital), irr=_pct(f.irr), model=_pct(f.model),
        difference=_pct(f.difference), cash_drag=_pct(a.cash_drag if a else None), drift=_pct(a.drift if a else None),
        trades_not_taken=_pct(a.trades_not_taken if a else None), other=_pct(a.other if a else None),
    )


def _books(days: list[date], histories: list[_History]) -> list[perf.DayBook]:
    """The combined day books of one or more portfolios on `days`."""
    cash_delta: dict[date, Decimal] = defaultdict(Decimal)
    flows: dict[date, Decimal] = defaultdict(Decimal)
    income: dict[date, Decimal] = defaultdict(Decimal)
    changes: dict[date, list[tuple[tuple[int, int], Decimal]]] = defaultdict(list)
    for h in histories:
        for d, v in h.cash_delta.items():
            cash_delta[d] += v
        for d, v in h.flows.items():
            flows[d] += v
        for d, v in h.income.items():
            income[d] += v
        for asset_id, rows in h.units.items():
            for d, units in rows:
                changes[d].append(((stored_id(h.portfolio), asset_id), units))
    out: list[perf.DayBook] = []
    cash = ZERO
    held: dict[tuple[int, int], Decimal] = {}
    for d in days:
        cash += cash_delta.get(d, ZERO)
        for key, units in changes.get(d, ()):
            held[key] = units
        units_by_asset: dict[int, Decimal] = defaultdict(Decimal)
        for (_, asset_id), units in held.items():
            if units:
                units_by_asset[asset_id] += units
        out.append(perf.DayBook(d, cash, dict(units_by_asset), flows.get(d, ZERO), income.get(d, ZERO)))
    return out


def _grid(histories: list[_History], closes: dict[int, list[tuple[date, Decimal]]],
          until: date | None) -> tuple[list[date], date | None]:
    """The valuation days (every close or transaction day from the first transaction) and the as-at day."""
    event_days = set().union(*(h.days for h in histories)) if histories else set()
    if not event_days:
        return [], None
    start = min(event_days)
    price_days = {d for rows in closes.values() for d, _ in rows if d >= start}
    as_at = max(price_days | event_days)
    if until is not None:
        as_at = min(as_at, until)
    return sorted(d for d in price_days | event_days if start <= d <= as_at), as_at


def _thin(points: list[ValuePoint]) -> list[ValuePoint]:
    if len(points) <= CHART_POINTS:
        return points
    step = len(points) / (CHART_POINTS - 1)
    picked = [points[int(k * step)] for k in range(CHART_POINTS - 1)]
    return picked + [points[-1]]


@dataclass(frozen=True)
class _Computed:
    periods: tuple[PeriodLine, ...]
    chart: tuple[ValuePoint, ...]
    as_at: date | None
    inception: date | None
    value: Decimal
    figures: tuple[perf.PeriodFigures, ...]
    values: tuple[tuple[date, Decimal], ...]  # every valuation day's value (the chart is thinned)


def _compute(histories: list[_History], closes: dict[int, list[tuple[date, Decimal]]],
             weights_on: Callable[[date], perf.Weights] | None, until: date | None) -> _Computed:
    days, as_at = _grid(histories, closes, until)
    if not days or as_at is None:
        return _Computed((), (), None, None, ZERO, (), ())
    series = perf.Closes(closes)
    points = perf.value_days(_books(days, histories), series)
    daily = perf.Series(points, series, weights_on)
    figures = [perf.period_figures(p, daily, as_at) for p in perf.PERIODS]
    model_values = daily.model_path() if weights_on is not None else None
    invested = ZERO
    chart: list[ValuePoint] = []
    for n, p in enumerate(points):
        invested += p.flow
        chart.append(ValuePoint(p.day, p.value, model_values[n] if model_values else None, invested))
    return _Computed(tuple(_line(f) for f in figures), tuple(_thin(chart)), as_at, points[0].day,
                     points[-1].value, tuple(figures), tuple((p.day, p.value) for p in points))


def _firm_name(s: Session, firm_id: int) -> str:
    firm = s.get(Firm, firm_id)
    return firm.name if firm is not None else ""


def _portfolio_report(s: Session, portfolio: Portfolio, until: date | None) -> PerformanceReport:
    histories = _histories(s, [portfolio], until)
    h = histories[stored_id(portfolio)]
    models = _models(s, [portfolio.model_id] if portfolio.model_id else [])
    model = models.get(portfolio.model_id) if portfolio.model_id else None
    closes = _with_trade_prices(_closes(s, set(h.units) | (model.asset_ids if model else set()), until, [h]), [h])
    computed = _compute([h], closes, model.on if model else None, until)
    basis = NO_MODEL if model is None else (MODEL_BASIS_VERSIONS if model.versioned else MODEL_BASIS_CURRENT)
    return PerformanceReport(
        title=portfolio.name, firm_name=_firm_name(s, portfolio.firm_id), portfolio_id=portfolio.id, client_id=None,
        model_name=model.name if model else None, model_basis=basis, as_at=computed.as_at,
        inception=computed.inception, value=computed.value, periods=computed.periods, chart=computed.chart,
        portfolios=(), message=None if computed.periods else NO_HISTORY,
    )


def read_until(value: str | None) -> date | None:
    """The `until` day as sent (DD/MM/YYYY or YYYY-MM-DD; nothing: up to the latest close), read at the
    edge; refused with the shared date text otherwise."""
    if value is None or value == "":
        return None
    day = validators.parse_date(value)
    if day is None:
        raise ValidationError(validators.DATE.strip())
    return day


# ---- use cases ---------------------------------------------------------------------------------------
def portfolio_performance(*, actor: Actor, portfolio_id: int, until: date | None = None) -> PerformanceReport:
    """A portfolio's performance against its model, up to the latest close (or `until`)."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        return _portfolio_report(s, portfolio, until)


def client_of(s: Session, actor: Actor, client_id: int | None) -> User:
    """The client whose portfolios are read: a client only themselves (None: the actor); staff a
    client of their firm (the superuser any); anyone else's id is not found."""
    if actor.role is Role.CLIENT:
        if client_id not in (None, actor.id):
            raise NotFound(USER_NOT_FOUND)
        user = s.get(User, actor.id)
    else:
        user = load_user(s, actor, client_id)
    if user is None or user.role != Role.CLIENT.value:
        raise NotFound(USER_NOT_FOUND)
    return user


def client_performance(*, actor: Actor, client_id: int | None = None, until: date | None = None) -> PerformanceReport:
    """A client's portfolios together (the ones the client holds and the actor may read): the
    combined value, flows and income; against the blend of their models, each portfolio's
    model weighted by the portfolio's value at the start of the day."""
    day_until = until
    with session_scope() as s:
        client = client_of(s, actor, client_id)
        held = select(col(PortfolioUser.investment_id)).where(PortfolioUser.user_id == client.id)
        portfolios = list(s.exec(select(Portfolio).where(col(Portfolio.id).in_(held), readable_portfolios(actor))
                                 .order_by(col(Portfolio.name), col(Portfolio.id))).all())
        histories = _histories(s, portfolios, day_until)
        models = _models(s, [p.model_id for p in portfolios if p.model_id])
        asset_ids = {a for h in histories.values() for a in h.units} | {a for m in models.values() for a in m.asset_ids}
        closes = _with_trade_prices(_closes(s, asset_ids, day_until, histories.values()), histories.values())
        lines: list[PortfolioLine] = []
        singles: dict[int, _Computed] = {}
        for p in portfolios:
            model = models.get(p.model_id) if p.model_id else None
            pid = stored_id(p)
            single = _compute([histories[pid]], closes, model.on if model else None, day_until)
            singles[pid] = single
            by_period = {f.period: f for f in single.figures}
            lines.append(PortfolioLine(
                pid, p.name, model.name if model else None, single.value,
                _pct(by_period[perf.Period.FYTD].twr) if perf.Period.FYTD in by_period else None,
                _pct(by_period[perf.Period.INCEPTION].twr) if perf.Period.INCEPTION in by_period else None))
        weights_on = _blend(portfolios, singles, models) if models else None
        combined = _compute(list(histories.values()), closes, weights_on, day_until)
        names = sorted({m.name for m in models.values()})
        versioned = any(m.versioned for m in models.values())
        return PerformanceReport(
            title=f"{client.first_name} {client.last_name}".strip(), firm_name=_firm_name(s, client.firm_id or 0),
            portfolio_id=None, client_id=client.id, model_name=", ".join(names) or None,
            model_basis=NO_MODEL if not models else (MODEL_BASIS_VERSIONS if versioned else MODEL_BASIS_CURRENT),
            as_at=combined.as_at, inception=combined.inception, value=combined.value, periods=combined.periods,
            chart=combined.chart, portfolios=tuple(lines), message=None if combined.periods else NO_HISTORY,
        )


def _blend(portfolios: list[Portfolio], singles: dict[int, _Computed],
           models: dict[int, _ModelWeights]) -> Callable[[date], perf.Weights]:
    """Each day, the portfolios' model weights weighted by the portfolios' values at that close
    (a portfolio without a model counts as cash)."""
    values: list[tuple[list[date], list[Decimal], int | None]] = []  # per portfolio: its days, values and model
    for p in portfolios:
        rows = singles[stored_id(p)].values
        values.append(([d for d, _ in rows], [v for _, v in rows], p.model_id))

    def on(day: date) -> perf.Weights:
        total = 0.0
        mix: dict[int, float] = defaultdict(float)
        for days, vals, model_id in values:
            i = bisect.bisect_right(days, day) - 1
            value = float(vals[i]) if i >= 0 else 0.0
            if value <= 0:
                continue
            total += value
            model = models.get(model_id) if model_id else None
            if model is not None:
                for a, w in model.on(day).items():
                    mix[a] += value * w
        return {a: w / total for a, w in mix.items()} if total > 0 else {}

    return on


EXPORT_FORMATS = ("xlsx", "pdf")


def export(*, actor: Actor, file_format: str, portfolio_id: int | None = None, client_id: int | None = None,
           until: date | None = None, client_offset: int = 0, now: datetime | None = None) -> tuple[str, bytes, str]:
    """(file name, bytes, media type) of a portfolio's performance (or, without `portfolio_id`, a
    client's) as an Excel workbook or a PDF document, with the firm's name; the file's date in the
    browser's offset (client-timezone-offset, minutes as getTimezoneOffset gives, read by
    app.domain.timezones.client_offset)."""
    from app.exports import performance_pdf, performance_xlsx
    from app.exports.xlsx_styles import MEDIA_TYPE as XLSX_MEDIA_TYPE

    if file_format not in EXPORT_FORMATS:
        raise ValidationError("Unknown export format")
    if portfolio_id is not None:
        report = portfolio_performance(actor=actor, portfolio_id=portfolio_id, until=until)
    else:
        report = client_performance(actor=actor, client_id=client_id, until=until)
    offset = client_offset
    moment = now or datetime.now(timezone.utc)
    if file_format == "xlsx":
        return performance_xlsx.filename(report, offset, moment), performance_xlsx.build(report), XLSX_MEDIA_TYPE
    return performance_pdf.filename(report, offset, moment), performance_pdf.build(report, moment), performance_pdf.MEDIA_TYPE
