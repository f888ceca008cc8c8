"""Australian tax rules for a portfolio's financial-year tax report and the CGT estimates of advice.

Pure domain (no I/O, nothing of ours but app.domain.money). Each rule names the ATO guide it
follows; the amounts are Decimal, rounded half-up to the cent by app.domain.money.to_cents.

- The financial year (FY) runs 1 July - 30 June and is named by the year it ends in: FY2026 is
  1 July 2025 - 30 June 2026 (`financial_year`, `financial_year_of`).
- The CGT discount by entity (`discount_rate`): individuals and trusts 50%, complying super funds
  33 1/3%, companies none; eligible when the asset was held at least 12 months, the acquisition and
  the CGT event days excluded (`discount_eligible`, `first_discount_day`).
- Net capital gain (`net_capital_gain`): current-year capital losses first, then the carried-forward
  net capital loss, each applied to non-discountable gains first, then the discount on what remains
  of the discountable gains; losses left over are the net capital loss carried forward.
- Pension phase: a super fund's share supporting pensions in the retirement phase is exempt (the
  record of advice's wording, spec 002 s9): `taxable_capital_gain`.
- Cost base: reduced by capital returns, carried through reconstructions (the ledger applies them,
  app.domain.ledger; `reduced_cost_base` states the rule for one parcel).
- Franking (`split_dividend`): the credits as recorded; the franked part is what 30% company tax
  franks (credits x 70 / 30, at most the dividend), the rest unfranked; grossed-up dividend =
  cash dividend + franking credits.

Our own choices: a loss is allocated to gain lines in their given order within each group
(non-discountable, then discountable), and the discount is worked out per line to the cent, so
that the lines re-add to the totals exactly; a day that does not exist in the anniversary month
(29 February) rolls forward to 1 March.
"""
from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from typing import Iterable, Sequence

from app.domain.money import to_cents

ZERO = Decimal(0)
HUNDRED = Decimal(100)
COMPANY_TAX_RATE = Decimal(30)  # percent: the rate franking credits are worked out at
WAIT_DAYS = 60  # the record of advice names a wait of up to this many days


# ---- the financial year ------------------------------------------------------------------------
@dataclass(frozen=True)
class FinancialYear:
    """The Australian income year, 1 July - 30 June, named by the year it ends in.

    ATO: "Guide to capital gains tax" (NAT 4151) and the income tax return - an income year runs
    1 July to 30 June (ITAA 1997 s995-1, "income year")."""

    year: int

    @property
    def start(self) -> _dt.date:
        return _dt.date(self.year - 1, 7, 1)

    @property
    def end(self) -> _dt.date:
        return _dt.date(self.year, 6, 30)

    @property
    def label(self) -> str:
        return f"FY{self.year} (1 July {self.year - 1} - 30 June {self.year})"

    def __contains__(self, day: _dt.date) -> bool:
        return self.start <= day <= self.end


def financial_year(year: int) -> FinancialYear:
    return FinancialYear(int(year))


def financial_year_of(day: _dt.date) -> int:
    """The year the financial year holding `day` ends in (1 July 2025 -> 2026, 30 June 2026 -> 2026)."""
    return day.year + 1 if day.month >= 7 else day.year


# ---- entities and the discount -----------------------------------------------------------------
class Entity(str, enum.Enum):
    INDIVIDUAL = "individual"
    TRUST = "trust"
    SUPER_FUND = "super_fund"
    COMPANY = "company"


ENTITY_TITLES = {Entity.INDIVIDUAL: "Individual", Entity.TRUST: "Trust",
                 Entity.SUPER_FUND: "Complying super fund", Entity.COMPANY: "Company"}

# portfolio type (spec 001) -> the entity that holds it
ENTITY_OF_TYPE = {"SAVINGS": Entity.INDIVIDUAL, "SOLE_TRADER": Entity.INDIVIDUAL, "TRUST": Entity.TRUST,
                  "SMSF": Entity.SUPER_FUND, "COMPANY": Entity.COMPANY}


def entity_of(portfolio_type: str | None) -> Entity:
    """The entity of a portfolio type; an unknown type is taxed as an individual."""
    return ENTITY_OF_TYPE.get(str(portfolio_type or "").upper(), Entity.INDIVIDUAL)


def discount_rate(entity: Entity) -> Decimal:
    """The CGT discount: individuals and trusts 50%, complying super funds 33 1/3%, companies none.

    ATO: "CGT discount" (Guide to capital gains tax, NAT 4151), ITAA 1997 s115-100."""
    if entity in (Entity.INDIVIDUAL, Entity.TRUST):
        return Decimal(1) / Decimal(2)
    if entity is Entity.SUPER_FUND:
        with localcontext() as ctx:
            ctx.prec = 40
            return Decimal(1) / Decimal(3)
    return ZERO


def discount_method(entity: Entity, eligible: bool) -> str:
    """The words a report shows for the method a gain was worked out by (ATO: the discount method
    for assets held 12 months or more, the 'other' method otherwise)."""
    if not eligible:
        return "Other (held under 12 months)"
    if entity is Entity.COMPANY:
        return "No discount (company)"
    return {Entity.SUPER_FUND: "Discount 33 1/3%"}.get(entity, "Discount 50%")


def _anniversary(day: _dt.date, years: int = 1) -> _dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February: the next day
        return _dt.date(day.year + years, 3, 1)


def first_discount_day(acquired: _dt.date) -> _dt.date:
    """The first CGT event day on which an asset acquired on `acquired` has been held at least 12
    months, the day of acquisition and the day of the CGT event not counted.

    ATO: "CGT discount" (Guide to capital gains tax; ITAA 1997 s115-25) - "you must have owned the asset for at least 12 months before the CGT
    event ... exclude the day of acquisition and the day of the CGT event". Counting starts the day
    after acquisition, so 12 months run out the day before the next anniversary of that day: bought
    1 July 2024, the first eligible sale day is 2 July 2025."""
    return _anniversary(acquired + _dt.timedelta(days=1))


def discount_eligible(acquired: _dt.date | None, event: _dt.date) -> bool:
    """Held at least 12 months before the CGT event (see `first_discount_day`); an unknown
    acquisition is not eligible."""
    return acquired is not None and event >= first_discount_day(acquired)


def reduced_cost_base(cost_base: Decimal, capital_return: Decimal) -> tuple[Decimal, Decimal]:
    """(new cost base, capital gain) after a return of capital on a parcel.

    ATO: "CGT event G1 - capital payment for shares" and "Return of capital" (Guide to capital
    gains tax, CGT event G1): a non-assessable capital payment reduces the cost base; the part
    above the cost base is a capital gain, and the cost base becomes nil."""
    reduction = min(capital_return, cost_base)
    return cost_base - reduction, capital_return - reduction


def reconstructed_cost_base(cost_base: Decimal) -> Decimal:
    """A share split or consolidation keeps the parcel's total cost base (spread over the new units)
    and its acquisition date.

    ATO: "Share splits and consolidations" (Guide to capital gains tax, ITAA 1997 s112-25): no CGT
    event happens; the cost base of the original shares is spread across the new shares."""
    return cost_base


# ---- net capital gain --------------------------------------------------------------------------
@dataclass(frozen=True)
class GainLine:
    """One realised gain or loss (a parcel's disposal) and what the netting made of it: the loss
    applied to it (current year, then carried forward), the discount and the net gain left."""

    gain: Decimal                   # proceeds - cost base (a loss when negative)
    discountable: bool              # a gain on a parcel held 12 months or more, of an entity with a discount
    current_loss_applied: Decimal = ZERO
    prior_loss_applied: Decimal = ZERO
    discount: Decimal = ZERO
    net: Decimal = ZERO             # what the line adds to the net capital gain (0 for a loss)


@dataclass(frozen=True)
class NetCapitalGain:
    lines: tuple[GainLine, ...]
    total_gains: Decimal            # gains before losses
    current_losses: Decimal         # this year's capital losses (positive)
    current_losses_applied: Decimal
    prior_losses: Decimal           # the carried-forward net capital loss brought in
    prior_losses_applied: Decimal
    discount: Decimal
    net_capital_gain: Decimal
    loss_carried_forward: Decimal   # net capital loss to carry forward (unapplied losses)


def _apply(lines: list[GainLine], loss: Decimal, field: str) -> Decimal:
    """Applies `loss` to the remaining gains, non-discountable first; returns what is left of it."""
    for group in (False, True):
        for i, line in enumerate(lines):
            if loss <= 0:
                return loss
            if line.gain <= 0 or line.discountable is not group:
                continue
            left = line.gain - line.current_loss_applied - line.prior_loss_applied
            used = min(left, loss)
            if used > 0:
                lines[i] = replace(line, **{field: getattr(line, field) + used})
                loss -= used
    return loss


def net_capital_gain(gains: Iterable[tuple[Decimal, bool]], entity: Entity,
                     carried_forward_loss: Decimal = ZERO) -> NetCapitalGain:
    """The net capital gain of a year from its realised gains and losses ((gain, held 12 months or
    more) pairs) and the net capital loss carried forward from earlier years.

    ATO: "Guide to capital gains tax" - "Working out your net capital gain or loss" (method
    statement, ITAA 1997 s102-5): (1) reduce the capital gains by this year's capital losses,
    (2) then by unapplied net capital losses from earlier years, in each step choosing the order
    that gives the best result - the non-discountable gains first, as the discount then applies to
    more; (3) apply the CGT discount to what remains of the discountable gains; (4) the total is the
    net capital gain. Losses not applied are the net capital loss carried forward (a capital loss
    is never discounted, and it offsets capital gains only)."""
    if carried_forward_loss < 0:
        raise ValueError("a carried-forward loss is not negative")
    rate = discount_rate(entity)
    lines = [GainLine(gain=to_cents(g), discountable=bool(eligible) and to_cents(g) > 0 and rate > 0)
             for g, eligible in gains]
    current = -sum((ln.gain for ln in lines if ln.gain < 0), ZERO)
    current_left = _apply(lines, current, "current_loss_applied")
    prior_left = _apply(lines, to_cents(carried_forward_loss), "prior_loss_applied")
    out = []
    with localcontext() as ctx:
        ctx.prec = 40
        for line in lines:
            if line.gain <= 0:
                out.append(line)
                continue
            left = line.gain - line.current_loss_applied - line.prior_loss_applied
            discount = to_cents(left * rate) if line.discountable else ZERO
            out.append(replace(line, discount=discount, net=left - discount))
    return NetCapitalGain(
        lines=tuple(out),
        total_gains=sum((ln.gain for ln in out if ln.gain > 0), ZERO),
        current_losses=current,
        current_losses_applied=current - current_left,
        prior_losses=to_cents(carried_forward_loss),
        prior_losses_applied=to_cents(carried_forward_loss) - prior_left,
        discount=sum((ln.discount for ln in out), ZERO),
        net_capital_gain=sum((ln.net for ln in out), ZERO),
        loss_carried_forward=current_left + prior_left,
    )


def taxable_capital_gain(net: Decimal, entity: Entity, exempt_percent: Decimal = ZERO) -> Decimal:
    """The part of a net capital gain that is taxed: a super fund's share supporting pensions in
    the retirement phase is exempt (at 100% nothing is taxed, as the record of advice says, spec 002
    s9); other entities are taxed on all of it.

    ATO: "Exempt current pension income" (SMSF guidance; ITAA 1997 s295-385 and s295-390): income,
    capital gains included, on assets supporting retirement-phase pensions is exempt."""
    if entity is not Entity.SUPER_FUND or exempt_percent <= 0:
        return net
    if exempt_percent > HUNDRED:
        raise ValueError("an exempt percent is at most 100")
    with localcontext() as ctx:
        ctx.prec = 40
        return to_cents(net * (HUNDRED - exempt_percent) / HUNDRED)


# ---- dividends and franking --------------------------------------------------------------------
@dataclass(frozen=True)
class Dividend:
    amount: Decimal                 # cash received
    franked: Decimal
    unfranked: Decimal
    franking_credits: Decimal

    @property
    def grossed_up(self) -> Decimal:
        return self.amount + self.franking_credits


def split_dividend(amount: Decimal, franking_credits: Decimal | None) -> Dividend:
    """A dividend's franked and unfranked parts from its franking credits as recorded.

    ATO: "You and your shares" (NAT 2632) and "Refund of franking credits": the franking credit is the
    company tax paid on the franked amount, franked amount x 30 / 70 at a 30% company rate; you
    include the dividend and the franking credit in assessable income (the gross-up) and claim the
    credit as a tax offset. So franked = credits x 70 / 30 (at most the dividend), unfranked = the
    rest; grossed up = dividend + credits."""
    amount = to_cents(amount)
    credits = to_cents(franking_credits or ZERO)
    with localcontext() as ctx:
        ctx.prec = 40
        franked = min(amount, to_cents(credits * (HUNDRED - COMPANY_TAX_RATE) / COMPANY_TAX_RATE))
    return Dividend(amount=amount, franked=franked, unfranked=amount - franked, franking_credits=credits)


# ---- CGT-aware parcel order --------------------------------------------------------------------
@dataclass(frozen=True)
class ParcelView:
    """What the parcel order needs to know of a parcel: when it was bought and its unit cost."""

    acquired: _dt.date
    unit_cost: Decimal


def minimise_gain_order(parcels: Sequence[ParcelView], sold_on: _dt.date, unit_proceeds: Decimal) -> list[int]:
    """The order in which a sale takes parcels to give the least net capital gain: the parcels
    that make a loss first (the biggest loss a unit first), then the discount-eligible parcels with
    the highest cost base, then the rest with the highest cost base; ties oldest first.

    ATO: "Identifying shares or units sold" (Guide to capital gains tax / "You and your shares"):
    where shares are not distinguishable you may choose which parcel you sold, as long as your
    records identify it; the choice here is the one that lowers the net capital gain most."""
    def key(i: int) -> tuple[int, Decimal, int]:
        p = parcels[i]
        if p.unit_cost > unit_proceeds:
            return (0, -p.unit_cost, i)
        if discount_eligible(p.acquired, sold_on):
            return (1, -p.unit_cost, i)
        return (2, -p.unit_cost, i)
    return sorted(range(len(parcels)), key=key)


def days_to_discount(acquired: _dt.date, day: _dt.date) -> int | None:
    """Days from `day` until a parcel bought on `acquired` becomes discount-eligible, when that is
    within WAIT_DAYS (and not already the case); None otherwise."""
    first = first_discount_day(acquired)
    wait = (first - day).days
    return wait if 0 < wait <= WAIT_DAYS else None
