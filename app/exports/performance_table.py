"""What the performance Excel and PDF files both print: the heading lines, the periods table, the
"why" table and the value over time at each month's end (from app.domain.performance's report)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from app.domain.performance import PerformanceReport, PeriodLine, ValuePoint
from app.domain.timezones import day_text

NA = "N/A"
TITLE = "Performance"
PERIOD_COLUMNS = ("Period", "From", "To", "Time-weighted return", "Income", "Capital growth",
                  "Money-weighted return (IRR)", "Model", "Difference")
WHY_TITLE = "Why the portfolio differs from the model (return points over the period)"
WHY_COLUMNS = ("Period", "Difference", "Cash drag", "Drift", "Trades not taken", "Other (income, fees, timing)")
VALUE_TITLE = "Value over time (each month's last valuation day)"
VALUE_COLUMNS = ("Day", "Value", "Net money in", "Following the model")
NOTES = (
    "Time-weighted returns link each day's return (flows taken at the start of their day); the "
    "money-weighted return is the internal rate of return of the money in and out. Periods over one "
    "year are given a year; shorter periods are not annualised.",
    "The model's return applies its weights on each day to the same closes (a price return: the closes "
    "carry no dividends). Income is dividends and interest received; franking credits are not counted.",
)


def heading(r: PerformanceReport) -> list[tuple[str, str]]:
    """(label, text) lines under the title."""
    lines = [("Firm", r.firm_name), ("Client" if r.client_id else "Portfolio", r.title),
             ("Model", r.model_name or "None"), ("Model weights", r.model_basis)]
    if r.as_at is not None:
        lines.append(("As at", day_text(r.as_at)))
    if r.inception is not None:
        lines.append(("First transaction", day_text(r.inception)))
    return lines


def period_values(p: PeriodLine) -> tuple[Decimal | None, ...]:
    """The rates of a periods-table row, in column order from the fourth column."""
    return (p.twr, p.income, p.capital, p.irr, p.model, p.difference)


def why_values(p: PeriodLine) -> tuple[Decimal | None, ...]:
    return (p.difference, p.cash_drag, p.drift, p.trades_not_taken, p.other)


def period_dates(p: PeriodLine) -> tuple[str, str]:
    return day_text(p.start), day_text(p.end)


@dataclass(frozen=True)
class MonthEnd:
    day: date
    value: Decimal
    invested: Decimal
    model_value: Decimal | None


def month_ends(chart: tuple[ValuePoint, ...]) -> list[MonthEnd]:
    """The chart's last point of each month (and the last point)."""
    out: list[MonthEnd] = []
    for n, v in enumerate(chart):
        last = n + 1 == len(chart)
        if last or (chart[n + 1].day.year, chart[n + 1].day.month) != (v.day.year, v.day.month):
            out.append(MonthEnd(v.day, v.value, v.invested, v.model_value))
    return out
