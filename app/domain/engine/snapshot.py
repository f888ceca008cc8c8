"""What the engine reads: one portfolio as a service loaded it (design/engine.md "Inputs").

Everything is an immutable value: Decimals (never floats), tuples (never lists or sets), so a
snapshot can be shared between threads and the same snapshot always gives the same result.
The model is the `ModelSpec` tree of app.domain.model_spec, used as it is.

Conventions:
- money is in dollars (cents are kept as given and rounded half-up by `money.to_cents` where
  the engine needs it); percentages are 0..100 (10 means 10%); units and prices keep their own
  precision (6 decimals);
- `None` means "not set" for every optional limit;
- a pending trade is an approved transaction not yet executed: it counts as done (its units move
  the holding, its value and brokerage move the cash);
- a deposit whose `class_id` is None counts toward the model's cash class;
- `overrides` and `added` are the adviser's edits of a target portfolio (spec 001 s4, mode EDIT):
  see app.domain.engine.target "Edits" for what they do.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.domain.model_spec import ModelSpec

# ---- portfolio exceptions (spec 002 s3 Exception; investment_exceptions.action) ---------------
DONT_HOLD = "dont_hold"
SUBSTITUTE = "substitute"
MANUAL_TRADE_DECISION = "manual_trade_decision"
LOCK = "lock"
EXCEPTION_ACTIONS = (DONT_HOLD, SUBSTITUTE, MANUAL_TRADE_DECISION, LOCK)
EXCEPTION_LABELS = {
    DONT_HOLD: "Don't hold",
    SUBSTITUTE: "Substitute",
    MANUAL_TRADE_DECISION: "Manual Trade Decision",
    LOCK: "Lock",
}

# ---- transaction actions (spec 001 s3 Transaction.action) -------------------------------------
INCREASE = "increase"
DECREASE = "decrease"
TRADE_ACTIONS = (INCREASE, DECREASE)

ZERO = Decimal(0)


@dataclass(frozen=True)
class Holding:
    """A listed asset the portfolio holds (executed transactions only; pending trades are separate)."""

    asset_id: int
    code: str
    class_id: int
    industry_group_id: int | None
    units: Decimal
    last_close_price: Decimal | None


@dataclass(frozen=True)
class AssetQuote:
    """A listed asset the portfolio does not hold but may buy: model assets (fresher than the
    model's own copy of the price), substitutes, alternates, assets of pending trades."""

    asset_id: int
    code: str
    class_id: int
    industry_group_id: int | None
    last_close_price: Decimal | None


@dataclass(frozen=True)
class DepositHolding:
    """A term deposit or an at-call account: never traded, its value counts toward its class."""

    id: int
    value: Decimal
    class_id: int | None = None  # None: the model's cash class
    name: str = ""


@dataclass(frozen=True)
class CustomHolding:
    """A holding the product does not trade (property, unlisted fund ...)."""

    id: int
    name: str
    value: Decimal
    class_id: int


@dataclass(frozen=True)
class PendingTrade:
    """An approved transaction not yet executed. A buy takes value + brokerage from the cash, a
    sell adds value - brokerage (the same figures as `trades.trade_figures`)."""

    asset_id: int
    action: str  # increase | decrease
    units: Decimal
    value: Decimal
    brokerage: Decimal = ZERO


@dataclass(frozen=True)
class ClassAllocation:
    """One row of the portfolio's own class allocation (used when `class_allocation` is on)."""

    class_id: int
    allocation: Decimal
    min: Decimal | None = None
    max: Decimal | None = None


@dataclass(frozen=True)
class IndustryGroupCap:
    """One row of the portfolio's industry group allocation: the group's cap, % of the portfolio."""

    industry_group_id: int
    allocation: Decimal


@dataclass(frozen=True)
class PortfolioException:
    """An exception for one asset or one custom holding (exactly one of the two ids)."""

    action: str  # one of EXCEPTION_ACTIONS
    asset_id: int | None = None
    custom_holding_id: int | None = None
    substitute_asset_id: int | None = None  # Substitute only


@dataclass(frozen=True)
class Brokerage:
    """The firm's brokerage: percent of the trade value, clamped to [min, max] dollars."""

    percent: Decimal | None = None
    min: Decimal | None = None
    max: Decimal | None = None


@dataclass(frozen=True)
class PortfolioSettings:
    """The portfolio's own limits (spec 001 s3 "Allocation and limit fields"). The plain fields
    apply to equal-amounts models, the `percentages_*` ones to percentages models
    (see `limits.limits_for`, the one place that chooses)."""

    class_allocation: bool = False
    classes: tuple[ClassAllocation, ...] = ()
    industry_group_allocation: bool = False
    industry_groups: tuple[IndustryGroupCap, ...] = ()
    min_asset_allocation: Decimal | None = None  # % of the portfolio
    min_asset_allocation_value: Decimal | None = None  # $
    max_asset_allocation_value: Decimal | None = None  # $
    max_exposure: Decimal | None = None  # % per asset
    min_trade_amount: Decimal | None = None  # $
    min_cash_allocation: Decimal | None = None  # %
    min_cash_allocation_value: Decimal | None = None  # $
    percentages_max_exposure: Decimal | None = None
    percentages_min_trade_amount: Decimal | None = None
    percentages_min_cash_balance: Decimal | None = None
    percentages_min_cash_balance_value: Decimal | None = None
    exceptions: tuple[PortfolioException, ...] = ()


@dataclass(frozen=True)
class Recommendation:
    """What the model says about one asset. The short-term (analyst) recommendation applies when
    it has an action (and the model uses analyst recommendations), else the long-term one
    (buy / hold / sell), else BUY (see `actions.resolve`)."""

    asset_id: int
    action: str | None = None  # short-term code: ACC, BUY, HOLD, SA, SB, SELL, TAP, TSP, FFL/x, SL/x
    limit_price: Decimal | None = None
    yield_: Decimal | None = None
    comment: str | None = None
    long_term: str | None = None  # buy | hold | sell
    long_term_comment: str | None = None


@dataclass(frozen=True)
class TargetOverride:
    """The adviser sets one asset's target units (whole, zero or more; 0 removes the asset: its
    target is zero and a held one is sold in full). The asset must be in the target portfolio (a
    model place, a holding, or an added asset)."""

    asset_id: int
    target_units: Decimal


@dataclass(frozen=True)
class AddedAsset:
    """The adviser adds an asset the target portfolio does not place to a class of the model
    (None: the asset's own class). It takes the class's last place and its share of the class like
    a model asset (its recommendation and exceptions apply) unless a TargetOverride sets its units.
    The snapshot must know the asset (a holding or a quote)."""

    asset_id: int
    class_id: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """One portfolio against its model, as of one moment."""

    model: ModelSpec
    holdings: tuple[Holding, ...] = ()
    cash: Decimal = ZERO
    deposits: tuple[DepositHolding, ...] = ()
    custom_holdings: tuple[CustomHolding, ...] = ()
    pending_trades: tuple[PendingTrade, ...] = ()
    settings: PortfolioSettings = PortfolioSettings()
    brokerage: Brokerage = Brokerage()
    recommendations: tuple[Recommendation, ...] = ()
    quotes: tuple[AssetQuote, ...] = ()
    portfolio_id: int | None = None
    overrides: tuple[TargetOverride, ...] = ()  # in the order made; a later one for the same asset wins
    added: tuple[AddedAsset, ...] = ()  # in the order added
