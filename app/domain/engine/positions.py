"""Step 0 of the target calculation (target.py): the positions and the portfolio value V.

Holdings plus pending (approved, not executed) trades; cash moved by their value and brokerage.
A held asset without a last close price, or a pending sell of more than is held, makes the
calculation fail (CalculationError). V = listed assets at last close (each to the cent) + cash +
deposits + custom holdings. `gather_positions` is shared with the trade generation (trades.py).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Generic, NamedTuple, TypeVar, cast

from app.domain.engine import errors as E
from app.domain.engine.prepared import AssetInfo, KnownAsset, PreparedModel
from app.domain.engine.snapshot import DECREASE, INCREASE, AssetQuote, CustomHolding, DepositHolding, Holding, Snapshot
from app.domain.engine.working import ZERO
from app.domain.money import to_cents


class Gathered(NamedTuple):
    """What is held once the pending trades are counted as done."""

    info: dict[int, KnownAsset]  # every asset known to the snapshot
    units: dict[int, Decimal]  # asset id -> units held after pending trades
    cash: Decimal  # the cash after pending trades


H = TypeVar("H", DepositHolding, CustomHolding)


class Valued(NamedTuple, Generic[H]):
    """A deposit or custom holding (never traded) and its value to the cent."""

    holding: H
    value: Decimal


class Positions(NamedTuple):
    """Step 0's answer."""

    info: dict[int, KnownAsset]
    units: dict[int, Decimal]  # listed assets held after pending trades (0 or more)
    values: dict[int, Decimal]  # asset id -> the value held at last close, to the cent (held assets)
    cash: Decimal
    deposits: tuple[Valued[DepositHolding], ...]
    customs: tuple[Valued[CustomHolding], ...]
    value: Decimal  # V


def gather_positions(snap: Snapshot, prep: PreparedModel) -> Gathered:
    """The assets known to the snapshot, the units held and the cash, after pending trades. A
    holding's data wins over a quote's, a quote's over the model's copy; a missing or non-positive
    price never hides a known one."""
    info: dict[int, KnownAsset] = dict(prep.info)

    def merge(source: Holding | AssetQuote) -> None:
        price = source.last_close_price
        if price is not None and price > 0:
            info[source.asset_id] = source
            return
        # no usable price: cannot be valued or bought, unless another source knows it
        row = info.get(source.asset_id)
        info[source.asset_id] = AssetInfo(source.code, source.class_id, source.industry_group_id,
                                          row.last_close_price if row is not None else None)

    for q in snap.quotes:
        merge(q)
    units: dict[int, Decimal] = {}
    for h in snap.holdings:
        merge(h)
        units[h.asset_id] = units.get(h.asset_id, ZERO) + Decimal(h.units)
    cash = to_cents(Decimal(snap.cash))
    for t in snap.pending_trades:
        value, fee = to_cents(Decimal(t.value)), to_cents(Decimal(t.brokerage))
        if t.action == INCREASE:
            units[t.asset_id] = units.get(t.asset_id, ZERO) + Decimal(t.units)
            cash -= value + fee
        elif t.action == DECREASE:
            units[t.asset_id] = units.get(t.asset_id, ZERO) - Decimal(t.units)
            cash += value - fee
        else:
            raise ValueError(f"unknown pending trade action {t.action!r}")
    return Gathered(info, units, cash)


def positions(snap: Snapshot, prep: PreparedModel) -> Positions:
    """Step 0: the positions after pending trades and V (CalculationError: oversold,
    missing_price, no_value)."""
    info, units, cash = gather_positions(snap, prep)
    missing: list[str] = []
    for asset_id in sorted(units):
        n = units[asset_id]
        if n < 0:
            raise E.CalculationError("oversold", E.OVERSOLD.format(code=_code(info, asset_id)))
        if n > 0 and (asset_id not in info or info[asset_id].last_close_price is None):
            missing.append(_code(info, asset_id))
    if missing:
        missing.sort()
        text = (E.MISSING_PRICE.format(codes=missing[0]) if len(missing) == 1
                else E.MISSING_PRICES.format(codes=", ".join(missing)))
        raise E.CalculationError("missing_price", text)
    listed = ZERO
    values: dict[int, Decimal] = {}
    for asset_id in sorted(units):
        n = units[asset_id]
        if n > 0:
            # a held asset has a price: checked above (missing_price)
            value = values[asset_id] = to_cents(n * cast(Decimal, info[asset_id].last_close_price))
            listed += value
    deposits = tuple(Valued(d, to_cents(Decimal(d.value))) for d in snap.deposits)
    customs = tuple(Valued(c, to_cents(Decimal(c.value))) for c in snap.custom_holdings)
    value = listed + cash + sum((v.value for v in deposits), ZERO) + sum((v.value for v in customs), ZERO)
    if value <= 0:
        raise E.CalculationError("no_value", E.NO_VALUE)
    return Positions(info=info, units=units, values=values, cash=cash, deposits=deposits, customs=customs,
                     value=value)


def _code(info: dict[int, KnownAsset], asset_id: int) -> str:
    row = info.get(asset_id)
    return row.code if row is not None else f"#{asset_id}"
