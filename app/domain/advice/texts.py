"""What the advice screens and services say (spec 001 s5/s8, 002 s4/s8)."""
from __future__ import annotations

from app.domain.ledger import NOT_ENOUGH_ASSETS as NOT_ENOUGH_ASSETS  # noqa: F401  (the advice screens' text too)

TP_SAVED = "Target Portfolio saved"
TP_APPROVED = "Target Portfolio approved"
TP_DECLINED = "Target Portfolio declined"
VALIDATE_FIRST = "Please, validate data first."
RECALCULATING = "Recalculating in proccess. Please, wait"
ASSETS_LIMIT = "Assets limit is exceeded"
NOT_ENOUGH_CASH_TO_ADD = "Not enough cash to add asset"
TRANSACTION_EXISTS = "Transaction already exists"
TRADES_VALIDATED = "Trades validated"
TRADES_CONFIRMED = "Trades confirmed"
TRADES_APPROVED = "Trades approved."
TRADES_DECLINED = "Trades declined."
CONFIRM_APPROVE_ROA = "Do you confirm your authorisation to proceed?"
CONFIRM_DECLINE_ROA = "Do you confirm you want to decline authorisation to proceed?"
CONFIRM_DECLINE_ALL = "Are you sure you want do decline all trades?"
CONFIRM_DECISIONS = "Do you want to confirm your decisions?"
CONFIRM_REMOVE_ASSET = "Are you sure you want to remove this asset?"  # 002 s8
SELECT_INVESTMENT = "Select at least one investment"
SELECT_INVESTMENT_TITLE = "Please!"
# the same rule as the screens say it: they call investments portfolios (README: deliberate departures)
SELECT_PORTFOLIO = "Select at least one portfolio"
REBALANCE_TRIGGERED = "Rebalance triggered for {name}"  # 000 s8, once target portfolios are being calculated
NAMES_SHOWN = 3


def rebalance_triggered(names: list[str], total: int | None = None) -> str:
    """'Rebalance triggered for Rose Bay Family Trust': the first NAMES_SHOWN of `names`, then how
    many more of `total` (default: as many as the names) there are ('A, B, C and 2 more')."""
    shown = ", ".join(names[:NAMES_SHOWN])
    rest = (len(names) if total is None else total) - min(len(names), NAMES_SHOWN)
    return REBALANCE_TRIGGERED.format(name=f"{shown} and {rest} more" if rest > 0 else shown)
# ours (the specification shows that these prompts exist, not their words)
CONFIRM_RECALCULATE_TP = "Are you sure you want to recalculate the target portfolio?"
CONFIRM_RECALCULATE_TR = "Are you sure you want to recalculate trade recommendations?"
CONFIRM_VALIDATE = "Are you sure you want to validate? The client will be e-mailed if approval is required."
NO_MODEL = "The portfolio is not linked to a model"
NO_TARGET = "There is no target portfolio to generate trade recommendations from"
NO_RECOMMENDATIONS = "The model has no analyst recommendations"
ANALYST_RECOMMENDATIONS_OFF = "The model's analyst recommendations are switched off"
EDITED_ELSEWHERE = "The target portfolio was changed by someone else meanwhile: reload it and make your change again"
NOT_EDITABLE = "This target portfolio cannot be changed"
TI_NOT_EDITABLE = "These trade recommendations cannot be changed"
NOTHING_PENDING = "There are no pending trades to approve"
