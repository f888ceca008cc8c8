"""The financial-year tax report's values (app.services.tax_reports builds them; the REST API, the
screens and the Excel/PDF builders in app.exports read them): income lines and totals, realised
capital gains and losses by parcel, the capital totals after losses and discount, capital returns,
the unrealised position at 30 June, one portfolio's report and a client's across their portfolios.
Pure values, no I/O."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Iterable

ZERO = Decimal(0)


@dataclass(frozen=True)
class IncomeLine:
    day: date
    code: str
    kind: str            # Dividend | Interest | Other income
    description: str
    franked: Decimal
    unfranked: Decimal
    franking_credits: Decimal
    interest: Decimal
    other: Decimal

    @property
    def cash(self) -> Decimal:
        return self.franked + self.unfranked + self.interest + self.other

    @property
    def assessable(self) -> Decimal:
        """Cash plus franking credits (the gross-up)."""
        return self.cash + self.franking_credits


@dataclass(frozen=True)
class IncomeTotals:
    franked: Decimal
    unfranked: Decimal
    franking_credits: Decimal
    interest: Decimal
    other: Decimal
    cash: Decimal
    assessable: Decimal

    @classmethod
    def of(cls, lines: Iterable[IncomeLine]) -> IncomeTotals:
        lines = list(lines)
        def total(name: str) -> Decimal:
            return sum((getattr(ln, name) for ln in lines), ZERO)
        return cls(total("franked"), total("unfranked"), total("franking_credits"), total("interest"),
                   total("other"), total("cash"), total("assessable"))


@dataclass(frozen=True)
class GainLine:
    asset_id: int
    code: str
    name: str
    kind: str                 # Sale | Capital return above cost base | Reconstruction (parcel rounded away)
    acquired: date | None
    sold: date
    units: Decimal
    cost_base: Decimal
    proceeds: Decimal
    gain: Decimal             # proceeds - cost base; a loss when negative
    eligible: bool            # held 12 months or more
    method: str               # the discount method in words
    loss_applied: Decimal     # current-year and carried-forward losses applied to this gain
    discount: Decimal
    net: Decimal              # what it adds to the net capital gain
    flag: str | None = None   # a sale beyond the holding


@dataclass(frozen=True)
class CapitalTotals:
    gains: Decimal                   # capital gains before losses
    losses: Decimal                  # this year's capital losses (positive)
    losses_applied: Decimal
    carried_forward_in: Decimal      # the net capital loss brought in (entered)
    carried_forward_applied: Decimal
    discount: Decimal
    net_capital_gain: Decimal
    carried_forward_out: Decimal     # the net capital loss to carry into next year
    taxable: Decimal                 # after a super fund's pension exemption (= net otherwise)
    capital_returns: Decimal         # returns of capital this year (they lower cost bases)


@dataclass(frozen=True)
class CapitalReturnLine:
    day: date
    code: str
    amount: Decimal


@dataclass(frozen=True)
class UnrealisedLine:
    asset_id: int
    code: str
    name: str
    units: Decimal
    eligible_units: Decimal          # held 12 months or more at 30 June
    cost_base: Decimal
    price: Decimal | None            # the close on or before 30 June (None: no close)
    price_day: date | None
    value: Decimal | None
    gain: Decimal | None


@dataclass(frozen=True)
class UnrealisedTotals:
    cost_base: Decimal
    value: Decimal
    gain: Decimal


@dataclass(frozen=True)
class TaxReport:
    portfolio_id: int
    portfolio_name: str
    portfolio_type: str
    entity: str
    treatment: str
    firm_name: str
    year: int
    label: str
    start: date
    end: date
    years: tuple[int, ...]           # the financial years of the portfolio's history, newest first
    empty: bool
    message: str | None
    income: tuple[IncomeLine, ...]
    income_totals: IncomeTotals
    gains: tuple[GainLine, ...]
    capital: CapitalTotals
    capital_returns: tuple[CapitalReturnLine, ...]
    unrealised: tuple[UnrealisedLine, ...]
    unrealised_totals: UnrealisedTotals
    flags: tuple[str, ...]
    exempt_percent: Decimal          # a super fund's pension share (the firm's template), else 0
    can_edit: bool


@dataclass(frozen=True)
class ClientTaxReport:
    client_id: int
    client_name: str
    firm_name: str
    year: int
    label: str
    years: tuple[int, ...]
    portfolios: tuple[TaxReport, ...]
    income_totals: IncomeTotals
    net_capital_gain: Decimal        # the sum of the portfolios' (each its own entity)
    carried_forward_out: Decimal


@dataclass(frozen=True)
class SummaryLine:
    """One line of the report's summary: `key` names it for the screens (stable), `title` is shown."""

    key: str
    title: str
    amount: Decimal


def summary_lines(r: TaxReport) -> tuple[SummaryLine, ...]:
    """The summary every view of the report shows in this order (the screen, Excel and PDF): income
    received and grossed up, then the capital gains netted to the net capital gain (losses and the
    discount as negative amounts), a super fund's taxable share, the loss carried out and the
    capital returns."""
    c = r.capital
    lines = [
        SummaryLine("income", "Dividends and interest received", r.income_totals.cash),
        SummaryLine("franking-credits", "Franking credits", r.income_totals.franking_credits),
        SummaryLine("assessable", "Assessable income (grossed up)", r.income_totals.assessable),
        SummaryLine("gains", "Capital gains", c.gains),
        SummaryLine("losses", "Capital losses this year", -c.losses),
        SummaryLine("carried-forward-in", "Carried-forward loss brought in", -c.carried_forward_in),
        SummaryLine("losses-applied", "Losses applied", -(c.losses_applied + c.carried_forward_applied)),
        SummaryLine("discount", "CGT discount", -c.discount),
        SummaryLine("net-capital-gain", "Net capital gain", c.net_capital_gain),
    ]
    if r.exempt_percent:
        lines.append(SummaryLine("taxable", f"Taxable after the pension exemption "
                                            f"({r.exempt_percent.normalize():f}% exempt)", c.taxable))
    lines += [SummaryLine("carried-forward-out", "Net capital loss carried forward", c.carried_forward_out),
              SummaryLine("capital-returns", "Capital returns (cost base reduced)", c.capital_returns)]
    return tuple(lines)
