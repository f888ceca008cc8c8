"""The asset ledger: holdings, parcels, cost base and gains derived from executed trades.

Pure domain (no database): `apply` folds a list of executed trades of one asset into a
`Position` under the portfolio's tax treatment (FIFO by default).

Rules (issue / spec 002 sections 3-5):

- trades are processed in date order; trades of the same date keep their given order;
- a buy adds a parcel whose cost base is ``units * price + fee`` rounded half-up to the cent
  (`money.to_cents`, the one money-rounding helper);
- a sell consumes parcels in the treatment's order (FIFO oldest first, LIFO newest first,
  HIGHEST_COST dearest unit cost first; ties oldest first; MINIMISE_CGT the parcels that make a loss
  first, then the discount-eligible ones with the highest cost base, then the rest - the order
  app.domain.tax.minimise_gain_order gives on the sale's day and net price a unit). Its proceeds
  ``units * price - fee`` (to the cent) are apportioned to the consumed parcels pro rata by units,
  each share to the cent and the residual cent to the last parcel; each disposal's gain is its
  proceeds minus the cost base taken from the parcel (a whole parcel gives all of its cost base,
  a part of one ``cost_base * units_taken / parcel_units`` to the cent, the rest stays);
- selling more than is held raises ValidationError('Not enough assets to sell') (with
  `strict=False`, used by the tax report, the sale takes what is held and its disposal carries the
  units it could not match, `unmatched_units`, and no proceeds for them);
- a reconstruction applies a ratio 'a:b' (checked with `validators.ratio`, its text on failure)
  by turning each parcel's units into ``units * a / b`` - floored to whole units for listed
  assets, kept to 6 decimals (rounded down) otherwise - leaving cost bases unchanged;
- a capital return of ``amount`` (or ``units held * price`` when no amount is given, to the cent)
  reduces the parcels' cost bases pro rata by units, to the cent with the residual cent to the
  last parcel; a cost base never goes below zero and the excess is realised as a gain.

Our own choices (not stated by the spec): a parcel a reconstruction floors to zero units leaves
the holding and its cost base is realised as a loss (a zero-unit disposal with no proceeds); the
excess of a capital return is recorded as a zero-unit disposal with that gain (so the realised
gain is always the sum of the disposals' gains); a capital return when nothing is held is all
gain (parcel_bought_on None); buys and sells need positive units, and prices and fees must not be
negative (validators.POSITIVE otherwise).
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from typing import Iterable

from app.domain import tax, validators
from app.domain.errors import ValidationError
from app.domain.money import to_cents
from app.domain.titled import TitledEnum

NOT_ENOUGH_ASSETS = "Not enough assets to sell"

UNIT_COST_PLACES = Decimal("0.000001")
ZERO = Decimal(0)

KINDS = ("buy", "sell", "reconstruction", "capital_return")


def unit_cost(cost_base: Decimal, units: Decimal) -> Decimal:
    """The cost of one unit, to 6 places half up (0 when no units are held)."""
    if units <= 0:
        return ZERO.quantize(UNIT_COST_PLACES)
    with localcontext() as ctx:
        ctx.prec = 60
        return (cost_base / units).quantize(UNIT_COST_PLACES, rounding=ROUND_HALF_UP)


class TaxTreatment(TitledEnum):
    FIFO = "fifo", "FIFO (first in, first out)"
    LIFO = "lifo", "LIFO (last in, first out)"
    HIGHEST_COST = "highest_cost", "Highest cost first (minimum tax)"  # dearest parcels first
    MINIMISE_CGT = "minimise_cgt", "Minimise capital gains tax"  # losses, then discount-eligible dearest, then the rest dearest


@dataclass(frozen=True)
class Trade:
    kind: str  # 'buy' | 'sell' | 'reconstruction' | 'capital_return'
    trade_date: _dt.date
    units: Decimal
    price: Decimal
    fee: Decimal = ZERO
    ratio: str | None = None
    amount: Decimal | None = None


@dataclass(frozen=True)
class Parcel:
    bought_on: _dt.date
    units: Decimal
    unit_cost: Decimal  # cost_base / units, 6 decimals
    cost_base: Decimal  # cents


@dataclass(frozen=True)
class Disposal:
    sold_on: _dt.date
    parcel_bought_on: _dt.date | None
    units: Decimal
    proceeds: Decimal
    cost_base: Decimal
    gain: Decimal
    unmatched_units: Decimal = ZERO  # units of a sale beyond what was held (strict=False only)
    kind: str = "sell"  # sell | capital_return | reconstruction: the trade that realised it


@dataclass(frozen=True)
class Position:
    units: Decimal
    parcels: tuple[Parcel, ...]
    cost_base: Decimal
    realised_gain: Decimal
    disposals: tuple[Disposal, ...]


def display_quantity(trade: Trade) -> Decimal:
    """The trade's quantity as listed: negated for sells."""
    return -trade.units if trade.kind == "sell" else trade.units


def _parcel(bought_on: _dt.date, units: Decimal, cost_base: Decimal) -> Parcel:
    return Parcel(bought_on, units, unit_cost(cost_base, units), cost_base)


def _apportion(total: Decimal, weights: list[Decimal]) -> list[Decimal]:
    """`total` split pro rata to `weights`, each share to the cent, the residual to the last."""
    whole = sum(weights, ZERO)
    if not weights:
        return []
    shares: list[Decimal] = []
    with localcontext() as ctx:
        ctx.prec = 60
        for weight in weights[:-1]:
            shares.append(to_cents(total * weight / whole) if whole else ZERO)
    shares.append(total - sum(shares, ZERO))
    return shares


def _check_trade(trade: Trade) -> None:
    if trade.kind not in KINDS:
        raise ValidationError(validators.DEFAULT)
    if trade.kind in ("buy", "sell"):
        if Decimal(trade.units) <= 0 or Decimal(trade.price) < 0 or Decimal(trade.fee) < 0:
            raise ValidationError(validators.POSITIVE)


def _order(parcels: list[Parcel], treatment: TaxTreatment, trade: Trade | None = None) -> list[int]:
    indexes = list(range(len(parcels)))
    if treatment is TaxTreatment.LIFO:
        return indexes[::-1]
    if treatment is TaxTreatment.HIGHEST_COST:
        return sorted(indexes, key=lambda i: -parcels[i].unit_cost)  # stable: ties oldest first
    if treatment is TaxTreatment.MINIMISE_CGT and trade is not None:
        with localcontext() as ctx:
            ctx.prec = 60
            units = Decimal(trade.units)
            unit_proceeds = (units * Decimal(trade.price) - Decimal(trade.fee)) / units if units else ZERO
        return tax.minimise_gain_order([tax.ParcelView(p.bought_on, p.unit_cost) for p in parcels],
                                       trade.trade_date, unit_proceeds)
    return indexes


def _sell(parcels: list[Parcel], trade: Trade, treatment: TaxTreatment, strict: bool = True) -> list[Disposal]:
    units = Decimal(trade.units)
    held = sum((p.units for p in parcels), ZERO)
    unmatched = ZERO
    if units > held:
        if strict:
            raise ValidationError(NOT_ENOUGH_ASSETS)
        unmatched = units - held
    with localcontext() as ctx:
        ctx.prec = 60
        proceeds = to_cents(units * Decimal(trade.price) - Decimal(trade.fee))
        if unmatched:  # only the matched units' share of the proceeds is realised
            proceeds = to_cents(proceeds * held / units)
        units = units - unmatched
        taken: list[tuple[int, Decimal, Decimal]] = []  # (parcel index, units, cost base)
        remaining = units
        for i in _order(parcels, treatment, trade):
            if remaining <= 0:
                break
            parcel = parcels[i]
            if parcel.units <= 0:
                continue
            take = min(remaining, parcel.units)
            cost = parcel.cost_base if take == parcel.units else to_cents(parcel.cost_base * take / parcel.units)
            taken.append((i, take, cost))
            remaining -= take
    shares = _apportion(proceeds, [take for _, take, _ in taken])
    disposals = []
    for (i, take, cost), share in zip(taken, shares):
        parcel = parcels[i]
        disposals.append(Disposal(trade.trade_date, parcel.bought_on, take, share, cost, share - cost))
        parcels[i] = _parcel(parcel.bought_on, parcel.units - take, parcel.cost_base - cost)
    parcels[:] = [p for p in parcels if p.units > 0]
    if unmatched:
        if disposals:
            disposals[-1] = replace(disposals[-1], unmatched_units=unmatched)
        else:
            disposals.append(Disposal(trade.trade_date, None, ZERO, ZERO, ZERO, ZERO, unmatched_units=unmatched))
    return disposals


def _reconstruct(parcels: list[Parcel], trade: Trade, listed: bool) -> list[Disposal]:
    error = validators.ratio(trade.ratio) or (
        validators.required(trade.ratio, "ratio") if validators.is_empty(trade.ratio) else None
    )
    if error:
        raise ValidationError(error)
    a, b = (int(part) for part in str(trade.ratio).split(":"))
    disposals: list[Disposal] = []
    kept: list[Parcel] = []
    with localcontext() as ctx:
        ctx.prec = 60
        for parcel in parcels:
            units = parcel.units * a / b
            units = (units.quantize(Decimal(1), rounding=ROUND_FLOOR) if listed
                     else units.quantize(UNIT_COST_PLACES, rounding=ROUND_DOWN))
            if units > 0:
                kept.append(_parcel(parcel.bought_on, units, parcel.cost_base))
            else:
                disposals.append(Disposal(trade.trade_date, parcel.bought_on, ZERO, ZERO,
                                          parcel.cost_base, -parcel.cost_base, kind="reconstruction"))
    parcels[:] = kept
    return disposals


def _capital_return(parcels: list[Parcel], trade: Trade) -> list[Disposal]:
    held = sum((p.units for p in parcels), ZERO)
    with localcontext() as ctx:
        ctx.prec = 60
        amount = to_cents(trade.amount if trade.amount is not None else held * Decimal(trade.price))
    if amount < 0:
        raise ValidationError(validators.POSITIVE)
    if not parcels:
        return [Disposal(trade.trade_date, None, ZERO, amount, ZERO, amount, kind="capital_return")] if amount else []
    disposals = []
    for i, share in enumerate(_apportion(amount, [p.units for p in parcels])):
        parcel = parcels[i]
        reduction = min(share, parcel.cost_base)
        excess = share - reduction
        parcels[i] = _parcel(parcel.bought_on, parcel.units, parcel.cost_base - reduction)
        if excess > 0:
            disposals.append(Disposal(trade.trade_date, parcel.bought_on, ZERO, excess, ZERO, excess,
                                      kind="capital_return"))
    return disposals


def apply(trades: Iterable[Trade], treatment: TaxTreatment = TaxTreatment.FIFO, *,
          listed: bool = True, strict: bool = True) -> Position:
    """The position the executed `trades` of one asset leave under `treatment` (with
    `strict=False` a sale of more than is held is matched as far as it can be, see `_sell`)."""
    parcels: list[Parcel] = []
    disposals: list[Disposal] = []
    for trade in sorted(trades, key=lambda t: t.trade_date):  # sorted is stable
        _check_trade(trade)
        if trade.kind == "buy":
            with localcontext() as ctx:
                ctx.prec = 60
                units = Decimal(trade.units)
                cost = to_cents(units * Decimal(trade.price) + Decimal(trade.fee))
            parcels.append(_parcel(trade.trade_date, units, cost))
        elif trade.kind == "sell":
            disposals.extend(_sell(parcels, trade, treatment, strict))
        elif trade.kind == "reconstruction":
            disposals.extend(_reconstruct(parcels, trade, listed))
        else:
            disposals.extend(_capital_return(parcels, trade))
    return Position(
        units=sum((p.units for p in parcels), ZERO),
        parcels=tuple(parcels),
        cost_base=sum((p.cost_base for p in parcels), ZERO),
        realised_gain=sum((d.gain for d in disposals), ZERO),
        disposals=tuple(disposals),
    )


def units_held(trades: Iterable[Trade], treatment: TaxTreatment = TaxTreatment.FIFO) -> Decimal:
    """`apply(trades, treatment).units` - the units the executed trades leave - without working out
    parcels, cost bases and gains when no trade can make them matter: buys and sells (and capital
    returns, which change no units) whose units share one exponent, as a ledger read from the
    database always has. A sale then takes exactly its units whatever the parcels' order, so the
    units held are the buys less the sales, with the same refusals in the same order; any other
    ledger (a reconstruction floors each parcel separately) is applied in full."""
    ordered = sorted(trades, key=lambda t: t.trade_date)  # sorted is stable, as in apply
    if len(ordered) > 1 and (len({Decimal(t.units).as_tuple().exponent for t in ordered}) > 1
                             or any(t.kind == "reconstruction" for t in ordered)):
        return apply(ordered, treatment).units
    if ordered and ordered[0].kind == "reconstruction":  # the only trade
        return apply(ordered, treatment).units
    held = ZERO
    for trade in ordered:
        _check_trade(trade)
        if trade.kind == "buy":
            held += Decimal(trade.units)
        elif trade.kind == "sell":
            units = Decimal(trade.units)
            if units > held:
                raise ValidationError(NOT_ENOUGH_ASSETS)
            held -= units
        elif trade.kind == "capital_return":
            with localcontext() as ctx:
                ctx.prec = 60
                amount = to_cents(trade.amount if trade.amount is not None else held * Decimal(trade.price))
            if amount < 0:
                raise ValidationError(validators.POSITIVE)
    return held if held else ZERO  # every parcel sold: apply sums no parcel


def unrealised_gain(position: Position, last_price: Decimal) -> Decimal:
    """Market value at `last_price` (to the cent) minus the remaining cost base."""
    with localcontext() as ctx:
        ctx.prec = 60
        return to_cents(position.units * Decimal(last_price)) - position.cost_base
