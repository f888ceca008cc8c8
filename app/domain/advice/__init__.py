"""Target portfolios, records of advice and trade instructions, in four modules by what they hold:
`texts` (what the screens and services say), `target_portfolios` (statuses, labels and the role
rules of 001 s6), `trade_instructions` (statuses, labels, validation outcomes, the role rules
of 002 s4/s6 and what reading one gives) and `auto_approval` (deadlines). Their public names are
read from here too (`from app.domain import advice; advice.TPStatus`)."""
from __future__ import annotations

from app.domain.advice.texts import (  # noqa: F401
    TP_SAVED, TP_APPROVED, TP_DECLINED, VALIDATE_FIRST, RECALCULATING, ASSETS_LIMIT, NOT_ENOUGH_CASH_TO_ADD,
    TRANSACTION_EXISTS, TRADES_VALIDATED, TRADES_CONFIRMED, TRADES_APPROVED, TRADES_DECLINED,
    CONFIRM_APPROVE_ROA, CONFIRM_DECLINE_ROA, CONFIRM_DECLINE_ALL, CONFIRM_DECISIONS, CONFIRM_REMOVE_ASSET,
    SELECT_INVESTMENT, SELECT_INVESTMENT_TITLE, SELECT_PORTFOLIO, REBALANCE_TRIGGERED, rebalance_triggered,
    CONFIRM_RECALCULATE_TP, CONFIRM_RECALCULATE_TR,
    CONFIRM_VALIDATE, NO_MODEL, NO_TARGET, NO_RECOMMENDATIONS, ANALYST_RECOMMENDATIONS_OFF, EDITED_ELSEWHERE,
    NOT_EDITABLE, TI_NOT_EDITABLE, NOTHING_PENDING, NOT_ENOUGH_ASSETS,
)
from app.domain.advice.target_portfolios import (  # noqa: F401
    TPStatus, TP_LABELS, NOT_ENOUGH_CASH_LABEL, PUBLIC_TP_STATUSES, VERSION_PAGE_SIZES, COMMENT_TYPES, tp_label,
    NOT_ENOUGH_CASH, TP_KEY_LABELS, tp_status_key,
    PortfolioFacts, can_calculate_tp, can_calculate_tr, sees_current_tp, visible_tp_statuses, tp_view_only,
    can_edit_commentary, can_decide_roa, roa_decidable,
)
from app.domain.advice.trade_instructions import (  # noqa: F401
    TIStatus, TI_LABELS, TI_ACTOR_LABELS, TxStatus, TX_LABELS, NoteState, USER_ACTIONS, HISTORY_PAGE_SIZE,
    user_action_for, ItemOutcome, validation_outcome, decline_all_outcome, instruction_status, can_edit_ti,
    can_approve_ti, PENDING_TX, StoredNote, StoredTrade, stored_note, stored_trade, TradeLine, TradeNoteLine, TradePermissions,
    TradeInstructionSummary,
    TradeInstructionView, TradeHistoryEntry, side_of,
)
from app.domain.advice.auto_approval import (  # noqa: F401
    AUTO_APPROVAL_NEVER, AUTO_APPROVAL_NEXT_DAY, AUTO_APPROVAL_CHOICES, AUTO_APPROVAL_LABELS, PRACTICE_TZ,
    auto_approval_title, auto_approve_deadline,
)

# the names above are this package's own (a strict type check reads only what is listed as re-exported)
__all__ = ["TP_SAVED", "TP_APPROVED", "TP_DECLINED", "VALIDATE_FIRST", "RECALCULATING", "ASSETS_LIMIT",
    "NOT_ENOUGH_CASH_TO_ADD", "TRANSACTION_EXISTS", "TRADES_VALIDATED", "TRADES_CONFIRMED", "TRADES_APPROVED",
    "TRADES_DECLINED", "CONFIRM_APPROVE_ROA", "CONFIRM_DECLINE_ROA", "CONFIRM_DECLINE_ALL",
    "CONFIRM_DECISIONS", "CONFIRM_REMOVE_ASSET", "SELECT_INVESTMENT", "SELECT_INVESTMENT_TITLE",
    "SELECT_PORTFOLIO", "REBALANCE_TRIGGERED", "rebalance_triggered", "CONFIRM_RECALCULATE_TP",
    "CONFIRM_RECALCULATE_TR", "CONFIRM_VALIDATE", "NO_MODEL", "NO_TARGET", "NO_RECOMMENDATIONS",
    "ANALYST_RECOMMENDATIONS_OFF", "EDITED_ELSEWHERE", "NOT_EDITABLE", "TI_NOT_EDITABLE", "NOTHING_PENDING",
    "NOT_ENOUGH_ASSETS", "TPStatus", "TP_LABELS", "NOT_ENOUGH_CASH_LABEL", "PUBLIC_TP_STATUSES",
    "VERSION_PAGE_SIZES", "COMMENT_TYPES", "tp_label", "NOT_ENOUGH_CASH", "TP_KEY_LABELS", "tp_status_key",
    "PortfolioFacts", "can_calculate_tp", "can_calculate_tr", "sees_current_tp", "visible_tp_statuses",
    "tp_view_only", "can_edit_commentary", "can_decide_roa", "roa_decidable", "TIStatus", "TI_LABELS",
    "TI_ACTOR_LABELS", "TxStatus", "TX_LABELS", "NoteState", "USER_ACTIONS", "HISTORY_PAGE_SIZE",
    "user_action_for", "ItemOutcome", "validation_outcome", "decline_all_outcome", "instruction_status",
    "can_edit_ti", "can_approve_ti", "PENDING_TX", "StoredNote", "StoredTrade", "stored_note", "stored_trade", "TradeLine", "TradeNoteLine", "TradePermissions",
    "TradeInstructionSummary", "TradeInstructionView", "TradeHistoryEntry", "side_of", "AUTO_APPROVAL_NEVER",
    "AUTO_APPROVAL_NEXT_DAY", "AUTO_APPROVAL_CHOICES", "AUTO_APPROVAL_LABELS", "PRACTICE_TZ",
    "auto_approval_title", "auto_approve_deadline"]
