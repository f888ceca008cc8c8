"""The portfolio's limits as they apply to its model's allocation method, and brokerage.

`limits_for` is the ONE place that chooses between the plain settings (equal-amounts models) and
their `percentages_*` variants (percentages models): the target calculation, the trade
generation, the transaction editor (spec 002 s5: "The minimum trade amount depends on the
allocation method; percentages use the percentages minimum") and the trade file all call it.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from app.domain.engine.snapshot import Brokerage, PortfolioSettings
from app.domain.money import to_cents
from app.domain.model_spec import PERCENTAGES

ZERO = Decimal(0)
HUNDRED = Decimal(100)


class AssetCap(NamedTuple):
    """The most one asset may hold, in dollars, and which limit binds ('max_exposure' or
    'max_value'); both None when neither is set."""

    value: Decimal | None
    kind: str | None


NO_CAP = AssetCap(None, None)


@dataclass(frozen=True)
class Limits:
    min_trade_amount: Decimal  # $; 0 when not set
    min_cash_percent: Decimal | None  # % of the portfolio
    min_cash_value: Decimal | None  # $
    max_exposure: Decimal | None  # % of the portfolio per asset
    max_asset_value: Decimal | None  # $ per asset (both methods)
    min_asset_percent: Decimal | None  # % (equal amounts only)
    min_asset_value: Decimal | None  # $ (equal amounts only)

    def min_cash(self, portfolio_value: Decimal) -> Decimal:
        """The minimum cash in dollars: the larger of the % of the portfolio and the value, to the cent."""
        return min_cash_amount(self, portfolio_value)

    def min_asset_allocation(self, portfolio_value: Decimal) -> Decimal:
        """An asset's minimum share in dollars (0 when not set): the larger of the % and the value."""
        out = ZERO
        if self.min_asset_percent:
            out = max(out, self.min_asset_percent * portfolio_value / HUNDRED)
        if self.min_asset_value:
            out = max(out, self.min_asset_value)
        return out

    def asset_cap(self, portfolio_value: Decimal) -> AssetCap:
        """The most one asset may hold (AssetCap; NO_CAP when neither limit is set)."""
        cap: Decimal | None = None
        kind: str | None = None
        if self.max_exposure is not None:
            cap, kind = self.max_exposure * portfolio_value / HUNDRED, "max_exposure"
        if self.max_asset_value is not None and (cap is None or self.max_asset_value < cap):
            cap, kind = self.max_asset_value, "max_value"
        return AssetCap(cap, kind) if kind is not None else NO_CAP


def min_trade_amount_for(plain: Decimal | None, percentages: Decimal | None, allocation_method: str) -> Decimal:
    """The minimum trade amount that applies under `allocation_method`: the percentages one for a
    percentages model, else the plain one; 0 when not set."""
    return (percentages if allocation_method == PERCENTAGES else plain) or ZERO


def limits_for(settings: PortfolioSettings, allocation_method: str) -> Limits:
    """The limits that apply to a portfolio whose model uses `allocation_method`."""
    percentages = allocation_method == PERCENTAGES
    return Limits(
        min_trade_amount=min_trade_amount_for(settings.min_trade_amount, settings.percentages_min_trade_amount,
                                              allocation_method),
        min_cash_percent=settings.percentages_min_cash_balance if percentages else settings.min_cash_allocation,
        min_cash_value=(settings.percentages_min_cash_balance_value if percentages
                        else settings.min_cash_allocation_value),
        max_exposure=settings.percentages_max_exposure if percentages else settings.max_exposure,
        max_asset_value=settings.max_asset_allocation_value,
        min_asset_percent=None if percentages else settings.min_asset_allocation,
        min_asset_value=None if percentages else settings.min_asset_allocation_value,
    )


def min_trade_amount(settings: PortfolioSettings, allocation_method: str) -> Decimal:
    """The minimum trade amount for the method (0 when not set)."""
    return limits_for(settings, allocation_method).min_trade_amount


def min_cash_amount(limits: Limits, portfolio_value: Decimal) -> Decimal:
    out = ZERO
    if limits.min_cash_percent:
        out = max(out, limits.min_cash_percent * portfolio_value / HUNDRED)
    if limits.min_cash_value:
        out = max(out, limits.min_cash_value)
    return to_cents(out)


def brokerage_fee(value: Decimal, brokerage: Brokerage) -> Decimal:
    """percent x value, raised to the minimum then lowered to the maximum, to the cent; nothing
    for a zero value (no trade, no fee). A maximum below the minimum wins."""
    if not value:
        return ZERO
    fee = (brokerage.percent or ZERO) * abs(value) / HUNDRED
    if brokerage.min is not None and fee < brokerage.min:
        fee = brokerage.min
    if brokerage.max is not None and fee > brokerage.max:
        fee = brokerage.max
    return to_cents(fee)
