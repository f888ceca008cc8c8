"""What the performance screen shows: the periods' returns, the portfolios' rows and the chart's
points, built from app.services.performance's report."""
from __future__ import annotations

import dataclasses

from app.domain.performance import PerformanceReport
from app.domain.timezones import day_text
from app.ui.toolkit.rows import Performance, performance_of


@dataclasses.dataclass
class PeriodRow:
    key: str = ""
    title: str = ""
    dates: str = ""
    twr: Performance = dataclasses.field(default_factory=Performance)
    income: Performance = dataclasses.field(default_factory=Performance)
    capital: Performance = dataclasses.field(default_factory=Performance)
    irr: Performance = dataclasses.field(default_factory=Performance)
    model: Performance = dataclasses.field(default_factory=Performance)
    difference: Performance = dataclasses.field(default_factory=Performance)
    cash_drag: Performance = dataclasses.field(default_factory=Performance)
    drift: Performance = dataclasses.field(default_factory=Performance)
    trades_not_taken: Performance = dataclasses.field(default_factory=Performance)
    other: Performance = dataclasses.field(default_factory=Performance)


@dataclasses.dataclass
class PortfolioRow:
    id: int = 0
    name: str = ""
    url: str = ""
    model: str = ""
    value: str = ""
    fytd: Performance = dataclasses.field(default_factory=Performance)
    since_inception: Performance = dataclasses.field(default_factory=Performance)


def points(value) -> Performance:
    """Return points (a difference) as shown: one decimal with 'pp'."""
    shown = performance_of(value)
    return Performance(text=shown.text.replace("%", " pp") if value is not None else shown.text, sign=shown.sign)


def period_rows(report: PerformanceReport) -> list[PeriodRow]:
    return [PeriodRow(
        key=p.period, title=p.title, dates=f"{day_text(p.start)} - {day_text(p.end)}" if p.available else "N/A",
        twr=performance_of(p.twr), income=performance_of(p.income), capital=performance_of(p.capital),
        irr=performance_of(p.irr), model=performance_of(p.model), difference=points(p.difference),
        cash_drag=points(p.cash_drag), drift=points(p.drift), trades_not_taken=points(p.trades_not_taken),
        other=points(p.other),
    ) for p in report.periods]


def chart_rows(report: PerformanceReport) -> list[dict[str, float | str]]:
    """The value-over-time chart's points (floats for the chart only; the tables show exact money)."""
    out: list[dict[str, float | str]] = []
    for v in report.chart:
        row: dict[str, float | str] = {"day": day_text(v.day), "Value": float(v.value), "Net money in": float(v.invested)}
        if v.model_value is not None:
            row["Following the model"] = float(v.model_value)
        out.append(row)
    return out
