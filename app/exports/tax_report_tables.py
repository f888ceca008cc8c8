"""The tax report's tables, once, for its Excel workbook and its PDF (app.domain.tax_report):
each section is a title, its column headers, its rows and its totals row, with typed cells (text,
Decimal money, Decimal units, dates) that each builder formats its own way."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Union

from app.domain.tax_report import TaxReport, summary_lines

Cell = Union[str, Decimal, date, None]


@dataclass(frozen=True)
class Units:
    """A number of units (not money)."""
    value: Decimal


@dataclass(frozen=True)
class Section:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell | Units, ...], ...]
    totals: tuple[Cell | Units, ...] | None
    empty: str = ""


INCOME_HEADERS = ("Date", "Code", "Type", "Detail", "Franked", "Unfranked", "Franking credits", "Interest",
                  "Other", "Cash received", "Assessable (grossed up)")
GAIN_HEADERS = ("Code", "Event", "Acquired", "Sold", "Units", "Cost base", "Proceeds", "Gain / loss",
                "Discount method", "Losses applied", "Discount applied", "Net gain", "Note")
UNREALISED_HEADERS = ("Code", "Name", "Units", "Held 12 months+", "Cost base", "Close", "Close date", "Value",
                      "Unrealised gain")


def header_lines(r: TaxReport) -> list[tuple[str, str]]:
    return [("Portfolio", r.portfolio_name), ("Type", f"{r.portfolio_type} ({r.entity})"),
            ("Tax treatment", r.treatment), ("Financial year", r.label)]


def summary(r: TaxReport) -> Section:
    return Section("Summary", ("Item", "Amount"), tuple((line.title, line.amount) for line in summary_lines(r)), None)


def sections(r: TaxReport) -> list[Section]:
    if r.empty:
        return [Section("Summary", ("Item", "Amount"), (), None, r.message or "")]
    t = r.income_totals
    income = Section("Income", INCOME_HEADERS, tuple(
        (ln.day, ln.code, ln.kind, ln.description, ln.franked, ln.unfranked, ln.franking_credits, ln.interest,
         ln.other, ln.cash, ln.assessable) for ln in r.income),
        ("Total", "", "", "", t.franked, t.unfranked, t.franking_credits, t.interest, t.other, t.cash, t.assessable),
        "No income in this financial year.")
    c = r.capital
    gains = Section("Realised capital gains and losses", GAIN_HEADERS, tuple(
        (g.code, g.kind, g.acquired, g.sold, Units(g.units), g.cost_base, g.proceeds, g.gain, g.method,
         g.loss_applied, g.discount, g.net, g.flag or "") for g in r.gains),
        ("Total", "", None, None, None, sum((g.cost_base for g in r.gains), Decimal(0)),
         sum((g.proceeds for g in r.gains), Decimal(0)), sum((g.gain for g in r.gains), Decimal(0)), "",
         c.losses_applied + c.carried_forward_applied, c.discount, c.net_capital_gain, ""),
        "No capital gains or losses realised in this financial year.")
    returns = Section("Capital returns", ("Date", "Code", "Amount"),
                      tuple((x.day, x.code, x.amount) for x in r.capital_returns),
                      ("Total", "", c.capital_returns), "No capital returns in this financial year.")
    u = r.unrealised_totals
    unrealised = Section(f"Unrealised position at {r.end.strftime('%d/%m/%Y')}", UNREALISED_HEADERS, tuple(
        (x.code, x.name, Units(x.units), Units(x.eligible_units), x.cost_base, x.price, x.price_day, x.value, x.gain)
        for x in r.unrealised), ("Total", "", None, None, u.cost_base, None, None, u.value, u.gain),
        "Nothing held at the end of the financial year.")
    return [summary(r), income, gains, returns, unrealised]
