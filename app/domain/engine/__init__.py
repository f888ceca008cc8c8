"""The calculation engine: target portfolios and trade recommendations (design/engine.md).

Pure: no I/O, no database. A service loads a `Snapshot` (the portfolio, its model as a
`ModelSpec`, recommendations, prices) and calls

    target = calculate_target(snapshot)          # raises CalculationError (a ValidationError)
    trades = generate_trades(snapshot, target)   # today's snapshot, any (e.g. approved) target

The adviser's edits of a target portfolio (mode EDIT) are `TargetOverride` (set an asset's
units) and `AddedAsset` (add an asset to a class) in the snapshot; see target.py "Edits".

`trade_figures` recomputes one transaction's money when a user edits its units or price;
`limits_for` chooses the limits of the model's allocation method; `trade_file` holds the
trade-file rules. `Target.to_dict()` / `Target.from_dict()` store and reload a target.
"""
from app.domain.engine.actions import Action, parse_action, resolve
from app.domain.engine.errors import CalculationError
from app.domain.engine.limits import Limits, brokerage_fee, limits_for, min_cash_amount, min_trade_amount
from app.domain.engine.prepared import PreparedModel, clear_cache, prepare_model
from app.domain.engine.results import (
    AllocationTarget, AssetTarget, HoldingTarget, Note, Reason, Target, TradeFigures, Trades, Transaction,
)
from app.domain.engine.snapshot import (
    DECREASE, DONT_HOLD, EXCEPTION_ACTIONS, EXCEPTION_LABELS, INCREASE, LOCK, MANUAL_TRADE_DECISION, SUBSTITUTE,
    AddedAsset, AssetQuote, Brokerage, ClassAllocation, CustomHolding, DepositHolding, Holding, IndustryGroupCap,
    PendingTrade, PortfolioException, PortfolioSettings, Recommendation, Snapshot, TargetOverride,
)
from app.domain.engine.target import calculate_target, percent_of
from app.domain.engine.trades import generate_trades, str_on_generation, trade_figures

__all__ = [
    "Action", "AddedAsset", "AllocationTarget", "AssetQuote", "AssetTarget", "Brokerage", "CalculationError", "ClassAllocation",
    "CustomHolding", "DECREASE", "DONT_HOLD", "DepositHolding", "EXCEPTION_ACTIONS", "EXCEPTION_LABELS", "Holding",
    "HoldingTarget", "INCREASE", "IndustryGroupCap", "LOCK", "Limits", "MANUAL_TRADE_DECISION", "Note",
    "PendingTrade", "PortfolioException", "PortfolioSettings", "PreparedModel", "Reason", "Recommendation",
    "SUBSTITUTE", "Snapshot", "Target", "TargetOverride", "TradeFigures", "Trades", "Transaction", "brokerage_fee", "calculate_target",
    "clear_cache", "generate_trades", "limits_for", "min_cash_amount", "min_trade_amount", "parse_action",
    "percent_of", "prepare_model", "resolve", "str_on_generation", "trade_figures",
]
