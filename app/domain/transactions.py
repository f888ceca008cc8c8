"""The vocabulary of a portfolio's transactions (spec 002 s3/s4): statuses and their labels, asset
transaction types, how each type moves units, the cash account and deposits, and the cash
transaction classes. Pure: services, screens, the holdings derivation and the upload all read
these tables, so each rule lives here once."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any, Mapping

from app.domain.money import to_cents
from app.domain.titled import TitledEnum


class Status(str, Enum):
    PENDING = "pending"                    # shown as Draft in the asset panel, Pending in the cash list
    PENDING_APPROVAL = "pending_approval"
    EXECUTED = "executed"
    PROCESSING = "processing"              # shown as Placed
    PROCESSING_ERROR = "processing_error"  # shown as Error


# Totals (balance, cash in, cash out) and holdings count only executed transactions.
UNCOUNTED_STATUSES = frozenset({Status.PENDING, Status.PENDING_APPROVAL, Status.PROCESSING, Status.PROCESSING_ERROR})
COUNTED_STATUSES = frozenset({Status.EXECUTED})

ASSET_PANEL_LABELS: dict[Status, str] = {
    Status.PENDING: "Draft",
    Status.PENDING_APPROVAL: "Pending approval",
    Status.EXECUTED: "Executed",
    Status.PROCESSING: "Placed",
    Status.PROCESSING_ERROR: "Error",
}
CASH_LIST_LABELS: dict[Status, str] = {
    Status.PENDING: "Pending",
    Status.PENDING_APPROVAL: "Pending approval",
    Status.EXECUTED: "Executed",
    Status.PROCESSING: "Processing",
    Status.PROCESSING_ERROR: "Processing error",
}

# The asset panel's status filters (spec 002 s2): pending, draft, executed, dividend, placed, error.
PANEL_FILTERS = ("pending", "draft", "executed", "dividend", "placed", "error")


class Kind(TitledEnum):
    """Asset transaction types."""

    ASSET_BUY = "asset_buy", "Purchase"
    PARCEL = "parcel", "Sell"  # a sell (its parcels are consumed by the tax treatment)
    DIVIDEND = "dividend", "Dividend"
    INTEREST = "interest", "Interest"
    CAPITAL_RETURN = "capital_return", "Capital Return"
    CAPITAL_RETURN_PARCEL = "capital_return_parcel", "Capital Return"
    RECONSTRUCTION = "reconstruction", "Reconstruction"
    TD_BUY = "td_buy", "Term Deposit Buy"
    TD_INCOME = "td_income", "Term Deposit Income"
    TD_SELL = "td_sell", "Term Deposit Sell"
    ACA_BUY = "aca_buy", "At Call Account Buy"
    ACA_SELL = "aca_sell", "At Call Account Sell"
    ACA_INCOME = "aca_income", "Interest Accrual"
    ACA_DEPOSIT = "aca_deposit", "At Call Deposit"
    CASH_INCREASE = "cash_increase", "Cash Increase"


KIND_LABELS: dict[Kind, str] = Kind.titles()

# The add-transaction forms for listed assets (spec 002 s2), in menu order.
ASSET_FORMS = (Kind.ASSET_BUY, Kind.PARCEL, Kind.DIVIDEND, Kind.INTEREST, Kind.CAPITAL_RETURN, Kind.RECONSTRUCTION)
# Dividend, interest, capital return and reconstruction rows show no status (spec 002 s4).
STATUSLESS_KINDS = frozenset({Kind.DIVIDEND, Kind.INTEREST, Kind.CAPITAL_RETURN, Kind.CAPITAL_RETURN_PARCEL,
                              Kind.RECONSTRUCTION})
DEPOSIT_KINDS = frozenset({Kind.TD_BUY, Kind.TD_INCOME, Kind.TD_SELL, Kind.ACA_BUY, Kind.ACA_SELL, Kind.ACA_INCOME,
                           Kind.ACA_DEPOSIT})


class Cash(str, Enum):
    IN = "increase"
    OUT = "decrease"
    NONE = "none"


@dataclass(frozen=True)
class Effect:
    """What an executed transaction of a kind does.

    ledger: the app.domain.ledger trade kind it feeds for the asset's parcels (None: no unit change);
    cash: the direction of the cash transaction it posts (NONE: posts none);
    deposit: +1 adds its amount to the deposit's balance, -1 takes it out, 0 leaves it."""

    ledger: str | None
    cash: Cash
    deposit: int = 0


EFFECTS: dict[Kind, Effect] = {
    Kind.ASSET_BUY: Effect("buy", Cash.OUT),
    Kind.PARCEL: Effect("sell", Cash.IN),
    Kind.DIVIDEND: Effect(None, Cash.IN),
    Kind.INTEREST: Effect(None, Cash.IN),
    Kind.CAPITAL_RETURN: Effect("capital_return", Cash.IN),
    Kind.CAPITAL_RETURN_PARCEL: Effect("capital_return", Cash.IN),
    Kind.RECONSTRUCTION: Effect("reconstruction", Cash.NONE),
    Kind.TD_BUY: Effect(None, Cash.OUT, +1),
    Kind.TD_INCOME: Effect(None, Cash.IN),
    Kind.TD_SELL: Effect(None, Cash.IN, -1),
    Kind.ACA_BUY: Effect(None, Cash.OUT, +1),
    Kind.ACA_SELL: Effect(None, Cash.IN, -1),
    Kind.ACA_INCOME: Effect(None, Cash.NONE, +1),   # interest accrues into the at-call account
    Kind.ACA_DEPOSIT: Effect(None, Cash.OUT, +1),
    Kind.CASH_INCREASE: Effect(None, Cash.IN),
}


# The cash list's Interest Income (spec 002 s4): the cash of a linked at-call account or term deposit sell.
INTEREST_INCOME_KINDS = frozenset({Kind.TD_SELL, Kind.ACA_SELL})


class CashType(str, Enum):
    """Cash transactions: an opening balance, a plain movement (withdrawal or credit), income,
    or the cash side of an asset transaction (linked)."""

    OPENING_BALANCE = "opening_balance"
    CASH = "cash"
    INCOME = "income"
    LINKED = "linked"


def cash_class(cash_type: str, action: str, linked_kind: str | None = None) -> str:
    """The class shown in the cash list (spec 002 s4): Withdrawal or Credit without a linked
    transaction, Buy or Sell with one; Income and Opening Balance; Interest, Dividend and Capital
    Return from the linked asset transaction's type (a term deposit's income is interest); Interest
    Income from a linked at-call account or term deposit sell (the deposit paid back with its interest)."""
    if cash_type == CashType.OPENING_BALANCE:
        return "Opening Balance"
    if cash_type == CashType.INCOME:
        return "Income"
    if linked_kind is None:
        return "Credit" if action == Cash.IN else "Withdrawal"
    kind = Kind(linked_kind)
    if kind is Kind.DIVIDEND:
        return "Dividend"
    if kind in (Kind.INTEREST, Kind.TD_INCOME, Kind.ACA_INCOME):
        return "Interest"
    if kind in (Kind.CAPITAL_RETURN, Kind.CAPITAL_RETURN_PARCEL):
        return "Capital Return"
    if kind in INTEREST_INCOME_KINDS:
        return "Interest Income"
    return "Buy" if action == Cash.OUT else "Sell"


# Stop-loss transactions (spec 002 s4): those whose generating recommendation action is stop-loss
# sell, tap or tsp.
STOP_LOSS_ACTIONS = frozenset({"SL/SELL", "SL/TAP", "SL/TSP"})
STOP_LOSS_LABEL = "Stop loss"


def generating_action(payload: Mapping[str, Any] | None) -> str | None:
    """The recommendation action a trade was generated from, as its payload records it: the
    recommendation at generation (str_on_ti_generation.action), else recommendation_action, else
    the instruction a broker file placed it with."""
    if not isinstance(payload, Mapping):
        return None
    at_generation = payload.get("str_on_ti_generation")
    for value in ((at_generation or {}).get("action") if isinstance(at_generation, Mapping) else None,
                  payload.get("recommendation_action"), payload.get("instruction")):
        if isinstance(value, str) and value.strip():
            return value.strip().upper()
    return None


def is_stop_loss(action: str | None) -> bool:
    return (action or "").strip().upper() in STOP_LOSS_ACTIONS


def is_counted(status: str) -> bool:
    return status == Status.EXECUTED


# ---- deposits -----------------------------------------------------------------------------------
TERM_DEPOSITS = "Term Deposits"
AT_CALL_ACCOUNT = "At Call Account"
CASH_ACCOUNT = "Cash Account"
PRODUCT_TYPES = (TERM_DEPOSITS, AT_CALL_ACCOUNT)
PROVIDER_TYPES = ("Bank", "Building Society", "Credit Union")
DEAL_STATUSES = ("Pending – Rate to Confirm", "Pending – AMM to Process", "Pending – Bank to Process", "Live")
AMM_TYPES = ("Redemption", "Interest Accrual", "Rate Change", "Placement", "Withdrawal")


# ---- the cash side of an asset transaction -----------------------------------------------------
def _dec(value: Decimal | int | str | None) -> Decimal:
    return Decimal(0) if value is None else Decimal(value)


def cash_amount(kind: str, *, quantity: Decimal | None = None, price: Decimal | None = None, fee: Decimal | None = None,
                gst: Decimal | None = None, amount: Decimal | None = None) -> Decimal:
    """The cash an asset transaction moves (a magnitude, to the cent; the direction is
    EFFECTS[kind].cash). Buys pay units x price plus brokerage and GST; sells receive units x price
    less brokerage and GST; a capital return without an amount is units x price; every other kind
    moves its amount."""
    k = Kind(kind)
    if k is Kind.ASSET_BUY:
        return to_cents(_dec(quantity) * _dec(price) + _dec(fee) + _dec(gst))
    if k is Kind.PARCEL:
        return to_cents(_dec(quantity) * _dec(price) - _dec(fee) - _dec(gst))
    if k in (Kind.CAPITAL_RETURN, Kind.CAPITAL_RETURN_PARCEL) and amount is None:
        return to_cents(_dec(quantity) * _dec(price))
    return to_cents(_dec(amount))


def signed(action: str, amount: Decimal) -> Decimal:
    """A cash transaction's amount with its sign: increases positive, decreases negative."""
    return amount if action == Cash.IN else -amount
