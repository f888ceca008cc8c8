"""Performance of a portfolio against its model: pure figures, no I/O.

The service (app.services.performance) hands over what the portfolio held at the close of each
valuation day (listed units, cash and deposits), the money that came in or went out that day
and the income received, the daily closes of the assets, and the model's weights in force on
each day. From those this module gives, for the standard periods:

- **Time-weighted return (TWR)**: each day's return ``r = V_t / (V_{t-1} + F_t) - 1``, where
  ``V`` is the value at the close and ``F`` the net external flow of day t (deposits positive,
  withdrawals negative), taken as arriving at the start of the day (so the day's market move
  counts on it, and the opening balance on the first day gives no return). A day on which
  nothing was invested (``V_{t-1} + F_t <= 0``) returns 0. The days are chain-linked:
  ``TWR = prod(1 + r_t) - 1``.
- **Income and capital growth**: each day's income return is ``i = income_t / (V_{t-1} + F_t)``,
  its capital return ``r - i``. They are linked with the growth index before the day,
  ``income = sum(G_{t-1} * i_t)`` and ``capital = sum(G_{t-1} * (r_t - i_t))`` with
  ``G_t = prod_{s<=t}(1 + r_s)``; the two add up exactly to the TWR (``G_T - 1 = sum G_{t-1} r_t``).
  Income is cash received: dividends (without the franking credits, which are no cash),
  interest and deposit interest.
- **Money-weighted return (IRR)**: the rate ``x`` that solves
  ``-V_b - sum F_t (1+x)^(-tau_t) + V_e (1+x)^(-tau_e) = 0`` with ``tau`` the days since the base
  day's close over 365 (``V_b`` the value at the base day's close, ``V_e`` at the period's end; a
  flow at the start of its day, the close of the day before, as the TWR takes it). Found by
  bisection on ``y = ln(1 + x)`` after a bracketing scan, to ``IRR_TOLERANCE`` (1e-10) in ``y``;
  None when the flows never change sign (no rate makes them balance).
- **Annualising**: a period longer than one calendar year (its end after the base day plus one
  year) is given a year: ``(1 + R)^(365 / days) - 1`` for the TWR (the income and capital split
  keeps the capital ``(1 + C)^(365/days) - 1`` and gives income the rest) and the annual IRR. A
  period of a year or less is given as it is, never annualised (the IRR as the period's rate
  ``(1 + x)^(days / 365) - 1``).
- **The model**: the model's weights in force at the start of each day applied to the same
  closes, rebalanced daily: ``r_m = sum w_i (c_i,t / c_i,t-1 - 1)``; the cash weight (and any
  asset without a close on both days) earns 0. A price return: the closes carry no dividends.
- **Why the portfolio differs** (cumulative, in return points over the period): each day the
  gap between the portfolio's price return at its start-of-day weights and the model's is
  ``sum (wp_i - wm_i)(r_i - r_m)`` over the assets and cash. It is split into *cash drag* (the
  cash weight against the model's), *drift* (assets held and in the model, at other weights) and
  *trades not taken* (model assets not held and held assets outside the model); each day's part
  is linked with the portfolio's growth index before the day, and *other* is the rest of the
  actual gap ``TWR - model`` (income the closes do not carry, fees, the timing of trades within
  a day, and compounding).

The periods (the Australian financial year runs 1 July - 30 June): month to date, quarter to date
(calendar quarters, which the financial year's quarters match), financial year to date, 1 year,
3 years (a year) and since inception. A to-date period that begins before the portfolio's first
day is measured from that day (flagged ``partial``); 1 and 3 years need the whole span of history
(otherwise not available, shown N/A).
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Callable, Mapping, Sequence

from app.domain.money import to_cents
from app.domain.titled import TitledEnum

ZERO = Decimal(0)
YEAR_DAYS = 365
IRR_TOLERANCE = 1e-10
FY_START_MONTH = 7  # the Australian financial year begins on 1 July


class Period(TitledEnum):
    MONTH = "month", "Month to date"
    QUARTER = "quarter", "Quarter to date"
    FYTD = "fytd", "Financial year to date"
    ONE_YEAR = "1y", "1 year"
    THREE_YEARS = "3y", "3 years (a year)"
    INCEPTION = "inception", "Since inception"


PERIODS: tuple[Period, ...] = tuple(Period)
TO_DATE = frozenset({Period.MONTH, Period.QUARTER, Period.FYTD})


# ---- calendar ----------------------------------------------------------------------------------------
def financial_year_start(day: date) -> date:
    """1 July of the financial year `day` falls in (1 July 2025 for 30 June 2026)."""
    year = day.year if day.month >= FY_START_MONTH else day.year - 1
    return date(year, FY_START_MONTH, 1)


def financial_year(day: date) -> int:
    """The financial year by the calendar year it ends in (2026 for 1 July 2025 - 30 June 2026)."""
    return financial_year_start(day).year + 1


def years_before(day: date, years: int) -> date:
    """The same day `years` earlier (29 February becomes 28 February)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def base_day(period: Period, as_of: date, inception: date) -> date:
    """The close a period is measured from: the day before its first day."""
    if period is Period.MONTH:
        return as_of.replace(day=1) - timedelta(days=1)
    if period is Period.QUARTER:
        first_month = 3 * ((as_of.month - 1) // 3) + 1
        return as_of.replace(month=first_month, day=1) - timedelta(days=1)
    if period is Period.FYTD:
        return financial_year_start(as_of) - timedelta(days=1)
    if period is Period.ONE_YEAR:
        return years_before(as_of, 1)
    if period is Period.THREE_YEARS:
        return years_before(as_of, 3)
    return inception - timedelta(days=1)


def is_annualised(base: date, end: date) -> bool:
    """A period longer than one calendar year is given a year."""
    return end > years_before(base, -1)


# ---- the portfolio's days ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DayBook:
    """What the portfolio held at the close of one valuation day, and what moved that day."""

    day: date
    cash: Decimal                     # the cash account plus deposits (earning no market return)
    units: Mapping[int, Decimal]      # listed asset id -> units held at the close
    flow: Decimal = ZERO              # external money in (+) or out (-), at the start of the day
    income: Decimal = ZERO            # dividends and interest received this day


@dataclass(frozen=True)
class Point:
    """One valuation day: the value at the close and the day's figures."""

    day: date
    value: Decimal
    flow: Decimal
    income: Decimal
    cash: Decimal
    holdings: Mapping[int, Decimal]   # listed asset id -> value at the close (cents)


class Closes:
    """Each asset's closes, read as the last close on or before a day."""

    def __init__(self, closes: Mapping[int, Sequence[tuple[date, Decimal]]]):
        self._days = {a: [d for d, _ in rows] for a, rows in closes.items()}
        self._prices = {a: [c for _, c in rows] for a, rows in closes.items()}

    def on(self, asset_id: int, day: date) -> Decimal | None:
        days = self._days.get(asset_id)
        if not days:
            return None
        i = bisect.bisect_right(days, day) - 1
        return self._prices[asset_id][i] if i >= 0 else None

    def assets(self) -> list[int]:
        return list(self._days)

    def aligned(self, asset_id: int, grid: Sequence[date]) -> list[Decimal | None]:
        """The asset's close on each day of the sorted `grid` (one walk through both)."""
        days, prices = self._days.get(asset_id, []), self._prices.get(asset_id, [])
        out: list[Decimal | None] = []
        i, n, current = 0, len(days), None
        for day in grid:
            while i < n and days[i] <= day:
                current = prices[i]
                i += 1
            out.append(current)
        return out


def value_days(books: Sequence[DayBook], closes: Closes) -> list[Point]:
    """Each day's value: cash plus every listed holding at its last close, the total to the cent
    (a holding without any close yet is valued at 0)."""
    grid = [b.day for b in books]
    lines: dict[int, list[Decimal | None]] = {}
    out: list[Point] = []
    for n, b in enumerate(books):
        holdings: dict[int, Decimal] = {}
        for asset_id, units in b.units.items():
            if units == 0:
                continue
            line = lines.get(asset_id)
            if line is None:
                line = lines[asset_id] = closes.aligned(asset_id, grid)
            price = line[n]
            holdings[asset_id] = units * price if price is not None else ZERO
        out.append(Point(b.day, to_cents(b.cash + sum(holdings.values(), ZERO)), b.flow, b.income, b.cash, holdings))
    return out


# ---- returns -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Linked:
    """A chain-linked return and its income / capital split (fractions, 0.05 = 5 %)."""

    total: float
    income: float
    capital: float


def link(days: Sequence[tuple[float, float, float]]) -> Linked:
    """Chain-links (start-of-day capital, value at close, income) triples into a TWR with its split."""
    growth, income, capital = 1.0, 0.0, 0.0
    for invested, closing, received in days:
        if invested <= 0:
            continue
        r = closing / invested - 1.0
        i = received / invested
        income += growth * i
        capital += growth * (r - i)
        growth *= 1.0 + r
    return Linked(growth - 1.0, income, capital)


def annualise(total: float, days: int) -> float:
    """A cumulative return over `days` as a rate a year."""
    if total <= -1.0:
        return -1.0
    return float((1.0 + total) ** (YEAR_DAYS / days)) - 1.0


def irr(flows: Sequence[tuple[float, float]]) -> float | None:
    """The annual money-weighted rate of the flows (see `irr_log`); None when there is none, and
    infinity beyond what a float holds (a huge gain over a few days)."""
    y = irr_log(flows)
    if y is None:
        return None
    return math.expm1(y) if y < 700 else math.inf


def irr_log(flows: Sequence[tuple[float, float]]) -> float | None:
    """ln(1 + x) of the annual rate x at which the (years from the base day, amount) flows are worth nothing
    (amounts the investor receives positive, pays negative); None when no rate balances them.

    Solved for y = ln(1 + x) * T, T the span of the flows in years (so that a week and ten
    years are searched alike): f(y) = sum(a * exp(-y * t / T)) is continuous, so a scan of y over
    [-12, 12] (the period's rate from -99.9994 % to 16 million %) finds a sign change, and
    bisection narrows it to IRR_TOLERANCE. With several sign changes (several roots) the one
    nearest 0 is taken."""
    amounts = [(t, a) for t, a in flows if a != 0]
    if not amounts or all(a > 0 for _, a in amounts) or all(a < 0 for _, a in amounts):
        return None
    span = max(t for t, _ in amounts) or 1.0
    scaled = [(t / span, a) for t, a in amounts]

    def f(y: float) -> float:
        return sum(a * math.exp(-y * t) for t, a in scaled)

    grid = [k / 20 for k in range(-240, 241)]  # y in steps of 0.05
    values = [f(y) for y in grid]
    brackets = [(grid[k], grid[k + 1], values[k]) for k in range(len(grid) - 1)
                if values[k] == 0 or values[k] * values[k + 1] < 0]
    if not brackets:
        return None
    lo, hi, f_lo = min(brackets, key=lambda b: min(abs(b[0]), abs(b[1])))
    if f_lo == 0:
        return lo / span
    while hi - lo > IRR_TOLERANCE:
        mid = (lo + hi) / 2
        f_mid = f(mid)
        if f_mid == 0:
            lo = hi = mid
            break
        if (f_mid < 0) == (f_lo < 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return (lo + hi) / 2 / span


# ---- the model ---------------------------------------------------------------------------------------
Weights = Mapping[int, float]  # asset id -> fraction of the portfolio (cash is what is left)


def asset_return(closes: Closes, asset_id: int, before: date, day: date) -> float:
    """The price return of an asset from one day's close to another's (0 without both closes)."""
    start, end = closes.on(asset_id, before), closes.on(asset_id, day)
    if start is None or end is None or start <= 0:
        return 0.0
    return float(end) / float(start) - 1.0


# ---- a period ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Attribution:
    """Why the portfolio's TWR differs from the model's, in return points (cumulative)."""

    cash_drag: float
    drift: float
    trades_not_taken: float
    other: float


@dataclass(frozen=True)
class PeriodFigures:
    """One period's figures. Rates are fractions (0.05 = 5 %), a year when `annualised`;
    None when the period is not available (the history does not reach back far enough)."""

    period: Period
    base: date                  # the close it is measured from
    end: date
    days: int
    available: bool
    partial: bool               # a to-date period measured from the portfolio's first day
    annualised: bool
    start_value: Decimal
    end_value: Decimal
    net_flows: Decimal
    income_received: Decimal
    twr: float | None
    income: float | None
    capital: float | None
    irr: float | None
    model: float | None
    attribution: Attribution | None

    @property
    def difference(self) -> float | None:
        """The portfolio's TWR less the model's."""
        return None if self.twr is None or self.model is None else self.twr - self.model


@dataclass(frozen=True)
class _Day:
    """One valuation day's figures against the close before it (computed once for every period)."""

    invested: float          # the value at the close before plus the day's flow
    value: float
    income: float
    model: float             # the model's return over the day
    cash_leg: float          # the day's gap parts (not yet linked)
    drift_leg: float
    missed_leg: float


class Series:
    """The valuation days with each day's figures, shared by every period: a period is a run of
    days, so each day's asset returns and weights are worked out once."""

    def __init__(self, points: Sequence[Point], closes: Closes, model_weights: Callable[[date], Weights] | None):
        self.points = list(points)
        self.days = [p.day for p in self.points]
        self.has_model = model_weights is not None
        grid = ([self.days[0] - timedelta(days=1)] if self.points else []) + self.days
        prices: dict[int, list[float | None]] = {}

        def price_line(asset_id: int) -> list[float | None]:
            line = prices.get(asset_id)
            if line is None:
                line = [None if c is None else float(c) for c in closes.aligned(asset_id, grid)]
                prices[asset_id] = line
            return line

        def ret(asset_id: int, k: int) -> float:  # grid index k-1 -> k
            line = price_line(asset_id)
            a, b = line[k - 1], line[k]
            return 0.0 if a is None or b is None or a <= 0 else b / a - 1.0

        self.daily: list[_Day] = []
        prev_value = 0.0
        prev_holdings: Mapping[int, Decimal] = {}
        for n, p in enumerate(self.points):
            invested = prev_value + float(p.flow)
            r_model = cash_leg = drift_leg = missed_leg = 0.0
            if model_weights is not None:
                weights = model_weights(grid[n])
                returns = {a: ret(a, n + 1) for a in set(weights) | set(prev_holdings)}
                r_model = sum(w * returns[a] for a, w in weights.items())
                if invested > 0:
                    held = {a: float(v) / invested for a, v in prev_holdings.items() if v}
                    cash_leg = ((1.0 - sum(held.values())) - (1.0 - sum(weights.values()))) * (0.0 - r_model)
                    for a in set(held) | set(weights):
                        wp, wm = held.get(a, 0.0), weights.get(a, 0.0)
                        part = (wp - wm) * (returns[a] - r_model)
                        if a in held and wm > 0:
                            drift_leg += part
                        else:
                            missed_leg += part
            self.daily.append(_Day(invested, float(p.value), float(p.income), r_model, cash_leg, drift_leg, missed_leg))
            prev_value, prev_holdings = float(p.value), p.holdings

    def model_path(self) -> list[Decimal]:
        """What the portfolio would have been worth had it followed the model from its first day,
        with the same money in and out on the same days: ``M_t = (M_{t-1} + F_t)(1 + r_m,t)``,
        to the cent (for the value-over-time chart)."""
        out: list[Decimal] = []
        value = 0.0
        for n, (p, d) in enumerate(zip(self.points, self.daily)):
            invested = value + float(p.flow)
            value = invested if n == 0 else invested * (1.0 + d.model)
            out.append(to_cents(Decimal(repr(value))))
        return out

    def value_at(self, day: date) -> Decimal:
        i = bisect.bisect_right(self.days, day) - 1
        return self.points[i].value if i >= 0 else ZERO


def period_figures(period: Period, series: Series, as_of: date) -> PeriodFigures:
    """The figures of one period ending at `as_of`, from the portfolio's valuation days (beginning
    on its first day) and, when it has a model, the model's weights on each day."""
    points = series.points
    inception = points[0].day if points else as_of
    wanted = base_day(period, as_of, inception)
    first_base = inception - timedelta(days=1)
    partial = False
    base = wanted
    if wanted < first_base:
        if period in TO_DATE:
            base, partial = first_base, True
        else:
            return _unavailable(period, wanted, as_of)
    k0 = bisect.bisect_right(series.days, base)
    k1 = bisect.bisect_right(series.days, as_of)
    start_value = series.value_at(base) if base >= inception else ZERO
    days = (as_of - base).days
    annualised = is_annualised(base, as_of)
    if k0 >= k1 or days <= 0:
        return _empty(period, base, as_of, partial, annualised, start_value)
    inside = points[k0:k1]
    daily = series.daily[k0:k1]
    linked = link([(d.invested, d.value, d.income) for d in daily])
    cash_legs = drift_legs = missed_legs = 0.0
    model_growth, growth = 1.0, 1.0
    for d in daily:
        if d.invested > 0:
            cash_legs += growth * d.cash_leg
            drift_legs += growth * d.drift_leg
            missed_legs += growth * d.missed_leg
            growth *= d.value / d.invested
        model_growth *= 1.0 + d.model
    end_value = inside[-1].value
    # a flow arrives at the start of its day: the close of the day before
    flows = [(((p.day - base).days - 1) / YEAR_DAYS, -float(p.flow)) for p in inside if p.flow]
    cash_flows = [(0.0, -float(start_value))] + flows + [(days / YEAR_DAYS, float(end_value))]
    log_rate = irr_log(cash_flows)
    model_total = model_growth - 1.0 if series.has_model else None
    attribution = None
    if model_total is not None:
        explained = cash_legs + drift_legs + missed_legs
        attribution = Attribution(cash_legs, drift_legs, missed_legs, (linked.total - model_total) - explained)
    twr, income, capital = linked.total, linked.income, linked.capital
    if annualised:
        twr_year = annualise(twr, days)
        capital_year = annualise(capital, days)
        twr, capital, income = twr_year, capital_year, twr_year - capital_year
        model_total = annualise(model_total, days) if model_total is not None else None
    rate = None
    if log_rate is not None:  # a year's rate when annualised, else the period's own
        exponent = log_rate if annualised else log_rate * days / YEAR_DAYS
        rate = math.expm1(exponent) if exponent < 700 else math.inf
    return PeriodFigures(
        period=period, base=base, end=as_of, days=days, available=True, partial=partial, annualised=annualised,
        start_value=start_value, end_value=end_value, net_flows=sum((p.flow for p in inside), ZERO),
        income_received=sum((p.income for p in inside), ZERO), twr=twr, income=income, capital=capital, irr=rate,
        model=model_total, attribution=attribution,
    )


def _unavailable(period: Period, base: date, as_of: date) -> PeriodFigures:
    return PeriodFigures(period, base, as_of, (as_of - base).days, False, False, is_annualised(base, as_of),
                         ZERO, ZERO, ZERO, ZERO, None, None, None, None, None, None)


def _empty(period: Period, base: date, as_of: date, partial: bool, annualised: bool, value: Decimal) -> PeriodFigures:
    """A period with valuation days but no day inside it (nothing moved): every return 0."""
    return PeriodFigures(period, base, as_of, max(0, (as_of - base).days), True, partial, annualised, value, value,
                         ZERO, ZERO, 0.0, 0.0, 0.0, None, None, None)


def all_periods(points: Sequence[Point], as_of: date, closes: Closes,
                model_weights: Callable[[date], Weights] | None) -> list[PeriodFigures]:
    series = Series(points, closes, model_weights)
    return [period_figures(p, series, as_of) for p in PERIODS]


def model_path(points: Sequence[Point], closes: Closes, model_weights: Callable[[date], Weights]) -> list[Decimal]:
    """Series.model_path of these days."""
    return Series(points, closes, model_weights).model_path()


# ---- the report as shown (screens, exports, REST) -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PeriodLine:
    """One period's figures as shown: rates in percent to two decimals (12.34 = 12.34 %), None
    where there is no figure (N/A); a year's rate when `annualised`."""

    period: str
    title: str
    start: date          # the first day counted
    end: date
    available: bool
    partial: bool        # a to-date period measured from the first day of the history
    annualised: bool
    start_value: Decimal
    end_value: Decimal
    net_flows: Decimal
    income_received: Decimal
    twr: Decimal | None
    income: Decimal | None
    capital: Decimal | None
    irr: Decimal | None
    model: Decimal | None
    difference: Decimal | None
    cash_drag: Decimal | None
    drift: Decimal | None
    trades_not_taken: Decimal | None
    other: Decimal | None


@dataclass(frozen=True)
class ValuePoint:
    day: date
    value: Decimal
    model_value: Decimal | None  # had it followed the model, with the same money in and out
    invested: Decimal            # the net money put in so far


@dataclass(frozen=True)
class PortfolioLine:
    """A portfolio in a client's report."""

    id: int
    name: str
    model_name: str | None
    value: Decimal
    fytd: Decimal | None
    since_inception: Decimal | None


@dataclass(frozen=True)
class PerformanceReport:
    title: str                    # the portfolio's name, or the client's
    firm_name: str
    portfolio_id: int | None
    client_id: int | None
    model_name: str | None
    model_basis: str
    as_at: date | None
    inception: date | None
    value: Decimal
    periods: tuple[PeriodLine, ...]
    chart: tuple[ValuePoint, ...]
    portfolios: tuple[PortfolioLine, ...]
    message: str | None           # why there are no figures (None when there are)
