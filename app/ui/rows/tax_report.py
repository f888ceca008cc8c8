"""What the tax report shows: the year's choices, its income, gains, summary, capital returns and
unrealised gains as rows with their totals, and a client's portfolios, built from app.services.tax_reports."""
from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal

from app.domain import tax
from app.domain.tax_report import ClientTaxReport, TaxReport, summary_lines
from app.domain.timezones import day_text
from app.ui import routes
from app.ui.display import close_price, units_or_fraction
from app.ui.toolkit.rows import Amount, Option, amount_of


ZERO = Decimal(0)


@dataclasses.dataclass
class IncomeRow:
    day: str = ""
    code: str = ""
    kind: str = ""
    description: str = ""
    franked: Amount = dataclasses.field(default_factory=Amount)
    unfranked: Amount = dataclasses.field(default_factory=Amount)
    franking_credits: Amount = dataclasses.field(default_factory=Amount)
    interest: Amount = dataclasses.field(default_factory=Amount)
    other: Amount = dataclasses.field(default_factory=Amount)
    cash: Amount = dataclasses.field(default_factory=Amount)


@dataclasses.dataclass
class GainRow:
    code: str = ""
    name: str = ""
    event: str = ""
    acquired: str = ""
    sold: str = ""
    units: str = ""
    cost_base: Amount = dataclasses.field(default_factory=Amount)
    proceeds: Amount = dataclasses.field(default_factory=Amount)
    gain: Amount = dataclasses.field(default_factory=Amount)
    method: str = ""
    losses_applied: Amount = dataclasses.field(default_factory=Amount)
    discount: Amount = dataclasses.field(default_factory=Amount)
    net: Amount = dataclasses.field(default_factory=Amount)
    flag: str = ""               # the service's text for a sale of more units than were held


@dataclasses.dataclass
class SummaryRow:
    key: str = ""
    title: str = ""
    amount: Amount = dataclasses.field(default_factory=Amount)
    strong: bool = False


@dataclasses.dataclass
class CapitalReturnRow:
    day: str = ""
    code: str = ""
    amount: Amount = dataclasses.field(default_factory=Amount)


@dataclasses.dataclass
class UnrealisedRow:
    code: str = ""
    name: str = ""
    units: str = ""
    eligible_units: str = ""
    cost_base: Amount = dataclasses.field(default_factory=Amount)
    close: str = ""
    close_day: str = ""
    value: Amount = dataclasses.field(default_factory=Amount)
    gain: Amount = dataclasses.field(default_factory=Amount)


@dataclasses.dataclass
class PortfolioTaxRow:
    """A line of the client's report: one portfolio's figures, linking to its own report."""

    id: int = 0
    name: str = ""
    url: str = ""
    entity: str = ""
    note: str = ""               # the empty report's message
    income: Amount = dataclasses.field(default_factory=Amount)
    franking_credits: Amount = dataclasses.field(default_factory=Amount)
    net_capital_gain: Amount = dataclasses.field(default_factory=Amount)
    carried_forward_out: Amount = dataclasses.field(default_factory=Amount)


STRONG = frozenset({"assessable", "net-capital-gain", "taxable", "carried-forward-out"})


def year_options(years: tuple[int, ...]) -> list[Option]:
    """The picker's choices: the financial years of the history, newest first, by their label."""
    return [Option(value=str(y), label=tax.financial_year(y).label) for y in years]


def default_year(years: tuple[int, ...], today: date) -> int:
    """The last completed financial year when the history reaches it, else the newest one offered."""
    completed = tax.financial_year_of(today) - 1
    if completed in years:
        return completed
    return years[0] if years else tax.financial_year_of(today)


def income_rows(r: TaxReport) -> list[IncomeRow]:
    return [IncomeRow(day=day_text(ln.day), code=ln.code, kind=ln.kind, description=ln.description,
                      franked=amount_of(ln.franked), unfranked=amount_of(ln.unfranked),
                      franking_credits=amount_of(ln.franking_credits), interest=amount_of(ln.interest),
                      other=amount_of(ln.other), cash=amount_of(ln.cash)) for ln in r.income]


def income_total(r: TaxReport) -> IncomeRow:
    t = r.income_totals
    return IncomeRow(day="Total", franked=amount_of(t.franked), unfranked=amount_of(t.unfranked),
                     franking_credits=amount_of(t.franking_credits), interest=amount_of(t.interest),
                     other=amount_of(t.other), cash=amount_of(t.cash))


def gain_rows(r: TaxReport) -> list[GainRow]:
    return [GainRow(code=g.code, name=g.name, event=g.kind, acquired=day_text(g.acquired) if g.acquired else "",
                    sold=day_text(g.sold), units=units_or_fraction(g.units), cost_base=amount_of(g.cost_base),
                    proceeds=amount_of(g.proceeds), gain=amount_of(g.gain), method=g.method,
                    losses_applied=amount_of(g.loss_applied), discount=amount_of(g.discount), net=amount_of(g.net),
                    flag=g.flag or "") for g in r.gains]


def gain_total(r: TaxReport) -> GainRow:
    c = r.capital
    return GainRow(code="Total", cost_base=amount_of(sum((g.cost_base for g in r.gains), ZERO)),
                   proceeds=amount_of(sum((g.proceeds for g in r.gains), ZERO)),
                   gain=amount_of(sum((g.gain for g in r.gains), ZERO)),
                   losses_applied=amount_of(c.losses_applied + c.carried_forward_applied),
                   discount=amount_of(c.discount), net=amount_of(c.net_capital_gain))


def summary_rows(r: TaxReport) -> list[SummaryRow]:
    return [SummaryRow(key=line.key, title=line.title, amount=amount_of(line.amount), strong=line.key in STRONG)
            for line in summary_lines(r)]


def unrealised_rows(r: TaxReport) -> list[UnrealisedRow]:
    return [UnrealisedRow(code=u.code, name=u.name, units=units_or_fraction(u.units),
                          eligible_units=units_or_fraction(u.eligible_units), cost_base=amount_of(u.cost_base),
                          close=close_price(u.price), close_day=day_text(u.price_day) if u.price_day else "",
                          value=amount_of(u.value, "N/A"), gain=amount_of(u.gain, "N/A")) for u in r.unrealised]


def unrealised_total(r: TaxReport) -> UnrealisedRow:
    t = r.unrealised_totals
    return UnrealisedRow(code="Total", cost_base=amount_of(t.cost_base), value=amount_of(t.value),
                         gain=amount_of(t.gain))


def portfolio_rows(report: ClientTaxReport) -> list[PortfolioTaxRow]:
    return [PortfolioTaxRow(
        id=r.portfolio_id, name=r.portfolio_name, entity=f"{r.portfolio_type} ({r.entity})",
        url=routes.url("portfolios.tax-report", id=r.portfolio_id, query={"year": str(r.year)}),
        note=r.message or "", income=amount_of(r.income_totals.cash),
        franking_credits=amount_of(r.income_totals.franking_credits),
        net_capital_gain=amount_of(r.capital.net_capital_gain),
        carried_forward_out=amount_of(r.capital.carried_forward_out)) for r in report.portfolios]
