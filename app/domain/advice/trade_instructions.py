"""Trade instructions (trade recommendations) and their trades: statuses and labels, the user actions
the history records, the validation outcomes of 001 s4, the role rules of 002 s4/s6, and what
reading one gives (the instruction, its trades, its notes and what the actor may do)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
import json
from typing import Any, TypedDict, cast

from app.domain.advice.target_portfolios import PortfolioFacts, decides_for_client
from app.domain.engine.snapshot import INCREASE
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.titled import TitledEnum
from app.domain.users import DecisionTrail, PersonName

class TIStatus(TitledEnum):
    PENDING_VALIDATION = "pending_validation", "Pending validation"
    PENDING_APPROVAL = "pending_approval", "Pending approval"
    NOT_VALIDATED = "not_validated", "Not validated"
    PARTIALLY_APPROVED = "partially_approved", "Partially approved"
    DECLINED = "declined", "Declined"
    APPROVED = "approved", "Approved"
    FAILED = "failed", "Calculation Error"


TI_LABELS = TIStatus.titles()
# Who acted, by status (002 s4).
TI_ACTOR_LABELS = {
    TIStatus.PENDING_VALIDATION: "Calculated by",
    TIStatus.DECLINED: "Declined by",
    TIStatus.NOT_VALIDATED: "Declined by",
    TIStatus.PENDING_APPROVAL: "Validated by",
    TIStatus.PARTIALLY_APPROVED: "Approved by",
    TIStatus.APPROVED: "Approved by",
    TIStatus.FAILED: "Calculated by",
}


class TxStatus(TitledEnum):
    DRAFT = "draft", "To be reviewed"
    PENDING_APPROVAL = "pending_approval", "To be reviewed"
    PENDING_COPY = "pending_copy", "To be reviewed"
    PENDING_TO_CANCEL = "pending_to_cancel", "To be reviewed"
    APPROVED = "approved", "Approved"
    DECLINED = "declined", "Declined"
    DELETED = "deleted", "Deleted"
    EXECUTED = "executed", "Executed"
    NOT_VALID = "not_valid", "Declined"
    NOT_CANCELED = "not_canceled", "Declined"
    # the broker order carrying an approved trade ended unexecuted (in part or in whole): no longer pending
    EXPIRED = "expired", "Expired"
    CANCELLED = "cancelled", "Cancelled"


TX_LABELS = TxStatus.titles()


# a trade still waiting for the approver's decision (with no decision yet)
PENDING_TX = (TxStatus.PENDING_APPROVAL.value, TxStatus.PENDING_TO_CANCEL.value, TxStatus.PENDING_COPY.value)


class NoteState(TitledEnum):
    PENDING_VALIDATION = "pending_validation", "To be reviewed"
    VALIDATED = "validated", "To be reviewed"
    APPROVED = "approved", "Approved"
    DECLINED = "declined", "Declined"


USER_ACTIONS = ("added", "deleted", "changed price", "changed quantity", "changed price and quantity")
HISTORY_PAGE_SIZE = 10


def user_action_for(price_changed: bool, quantity_changed: bool) -> str | None:
    if price_changed and quantity_changed:
        return "changed price and quantity"
    if price_changed:
        return "changed price"
    if quantity_changed:
        return "changed quantity"
    return None


@dataclass(frozen=True)
class ItemOutcome:
    status: str
    decision: str | None = None


def validation_outcome(*, approval_required: bool, auto_approval: str, manual: bool, cancel: bool,
                       is_note: bool) -> ItemOutcome:
    """What validating trade recommendations does to one item (001 s4):
    - approval required, or auto-approval not 'never': transactions -> pending approval, notes -> validated;
    - otherwise non-manual transactions -> approved, cancelled ones -> pending-to-cancel approved,
      manual ones -> pending approval, notes -> approved."""
    if approval_required or auto_approval != "never":
        return ItemOutcome(NoteState.VALIDATED.value) if is_note else ItemOutcome(TxStatus.PENDING_APPROVAL.value)
    if is_note:
        return ItemOutcome(NoteState.APPROVED.value, "approved")
    if manual:
        return ItemOutcome(TxStatus.PENDING_APPROVAL.value)
    if cancel:
        return ItemOutcome(TxStatus.PENDING_TO_CANCEL.value, "approved")
    return ItemOutcome(TxStatus.APPROVED.value, "approved")


def decline_all_outcome(is_note: bool) -> ItemOutcome:
    """'Decline all': transactions not valid, notes declined (and the instruction not validated)."""
    return ItemOutcome(NoteState.DECLINED.value, "declined") if is_note else ItemOutcome(TxStatus.NOT_VALID.value, "declined")


def instruction_status(decisions: list[str | None]) -> TIStatus:
    """The instruction's status from its items' decisions once every pending one is decided."""
    decided = [d for d in decisions if d is not None]
    if not decisions or any(d is None for d in decisions):
        return TIStatus.PENDING_APPROVAL
    if all(d == "approved" for d in decided):
        return TIStatus.APPROVED
    if all(d == "declined" for d in decided):
        return TIStatus.DECLINED
    return TIStatus.PARTIALLY_APPROVED


def can_edit_ti(actor: Actor, status: str, read_only: bool = False) -> bool:
    """Editing is blocked for clients, administrators, read-only mode and statuses beyond validation."""
    if actor.role in (Role.CLIENT, Role.ADMINISTRATOR) or read_only:
        return False
    return TIStatus(status) is TIStatus.PENDING_VALIDATION


def can_approve_ti(actor: Actor, facts: PortfolioFacts, has_pending: bool, read_only: bool = False) -> bool:
    """Blocked when nothing is pending, for an adviser on an inactive portfolio with approved
    instructions who is not an owner, and for an administrator who is not an owner; possible for a
    superuser, a client owner or an adviser, only when not read-only."""
    if not has_pending or read_only:
        return False
    if actor.role is Role.ADMINISTRATOR:
        return facts.actor_is_owner
    return decides_for_client(actor, facts, facts.has_approved_ti)


# ---- what reading trade recommendations gives ---------------------------------------------------
def side_of(action: str | None) -> str:
    """BUY or SELL, as the screens and the API name the engine's increase and decrease."""
    return "BUY" if action == INCREASE else "SELL"


class GenerationNote(TypedDict, total=False):
    """What the recommendation said when the trade was generated (None: a trade added by hand)."""
    action: str | None
    comment: str | None
    text: str


class StoredTrade(TypedDict, total=False):
    """The JSON a trade keeps beside its columns, as generated or added (older rows may lack keys)."""
    limit_price: str | None
    recommendation_action: str | None
    comment: str | None
    manual_trade_decision: bool
    target_units: str
    str_on_ti_generation: GenerationNote


class StoredNote(TypedDict, total=False):
    """The JSON a 'please note' item keeps: the recommendation's words and the trade a manual
    decision would make (figures as text)."""
    code: str
    text: str
    action: str | None
    units: str | None
    price: str | None
    value: str | None
    recommendation_action: str | None
    comment: str | None
    custom_holding_id: int | None


def stored_trade(text: str | None) -> StoredTrade:
    """A trade's stored JSON, as generation and adding a trade write it ({} when there is none or
    it cannot be read: a report never fails on one trade's payload)."""
    return cast(StoredTrade, _json_object(text))  # the shape its writers give it


def stored_note(text: str | None) -> StoredNote:
    """A 'please note' item's stored JSON, as generation writes it ({} as for a trade)."""
    return cast(StoredNote, _json_object(text))  # the shape its writer gives it


def _json_object(text: str | None) -> dict[str, object]:
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


@dataclass(frozen=True)
class TradeLine:
    """One trade of an instruction, its figures as stored. `payload` is the stored payload as it is
    (the API passes it on); the recommendation it came from is read from it once."""

    id: int
    asset_id: int
    code: str
    action: str                       # the engine's increase | decrease
    status: TxStatus
    decision: str | None
    user_action: str | None
    quantity: Decimal
    price: Decimal
    asset_price: Decimal | None
    limit_price: Decimal | None
    value: Decimal
    fee: Decimal
    cost_base: Decimal | None
    amount: Decimal
    pending: Decimal
    initial_quantity: Decimal | None
    initial_price: Decimal | None
    current_units: Decimal | None
    full_sell: bool
    stop_loss: bool
    urgent: bool
    approved_at: datetime | None
    declined_at: datetime | None
    recommendation_action: str        # the recommendation at generation ('' when none)
    recommendation_comment: str
    payload: StoredTrade

    @property
    def side(self) -> str:
        return side_of(self.action)

    @property
    def status_label(self) -> str:
        return TX_LABELS[self.status]

    @property
    def awaits_decision(self) -> bool:
        return self.status.value in PENDING_TX and not self.decision


@dataclass(frozen=True)
class TradeNoteLine:
    """A 'please note' item: what the recommendation said, and the trade a manual decision would make."""

    id: int
    asset_id: int | None
    source: str                       # manual_trade_decision | hold_comment
    state: str
    decision: str | None
    code: str
    text: str
    action: str | None                # increase | decrease of that trade, when there is one
    units: Decimal | None
    price: Decimal | None
    value: Decimal | None
    comment: str
    recommendation_action: str        # what the recommendation said (BUY | SELL | HOLD ...), '' when unknown
    payload: StoredNote

    @property
    def side(self) -> str:
        return side_of(self.action)

    @property
    def awaits_decision(self) -> bool:
        return self.state == NoteState.VALIDATED.value and not self.decision


@dataclass(frozen=True)
class TradePermissions:
    """What the actor may do with the instruction shown (the services check each again)."""

    read_only: bool
    edit: bool
    validate: bool
    approve: bool
    calculate_offered: bool
    calculate: bool
    calculate_reason: str


# who took the instruction to its status (002 s4): the person's and the date's attribute
_ACTED = {
    TIStatus.PENDING_VALIDATION: ("creator", "created_at"),
    TIStatus.FAILED: ("creator", "created_at"),
    TIStatus.PENDING_APPROVAL: ("validator", "validated_at"),
    TIStatus.NOT_VALIDATED: ("decliner", "declined_at"),
    TIStatus.DECLINED: ("decliner", "declined_at"),
    TIStatus.PARTIALLY_APPROVED: ("approver", "approved_at"),
    TIStatus.APPROVED: ("approver", "approved_at"),
}


@dataclass(frozen=True)
class TradeInstructionSummary(DecisionTrail):
    """One version of a portfolio's trade recommendations, without its items."""

    id: int
    investment_id: int
    target_portfolio_id: int | None
    version: int
    status: TIStatus
    validated: bool
    error_message: str | None
    row_version: int
    buys: Decimal | None
    sells: Decimal | None
    brokerage: Decimal | None
    min_trade_amount: Decimal | None
    payload: dict[str, Any] | None    # as stored (the API passes it on)
    auto_approve_at: datetime | None

    @property
    def status_label(self) -> str:
        return TI_LABELS[self.status]

    @property
    def actor_label(self) -> str:
        return TI_ACTOR_LABELS[self.status]

    @property
    def acted(self) -> tuple[PersonName | None, datetime | None]:
        """Who took the instruction to its status, and when."""
        person, moment = _ACTED[self.status]
        return getattr(self, person), getattr(self, moment)


@dataclass(frozen=True)
class TradeInstructionView:
    """Trade recommendations as a screen shows them: the instruction, its portfolio, its live
    trades (deleted ones left out), its notes, and what the actor may do."""

    instruction: TradeInstructionSummary
    investment_id: int
    investment_name: str
    investment_inactive: bool
    transactions: tuple[TradeLine, ...]
    notes: tuple[TradeNoteLine, ...]
    permissions: TradePermissions


@dataclass(frozen=True)
class TradeHistoryEntry:
    """One step of the instruction's action history."""

    id: int
    action: str
    detail: str | None
    created_at: datetime | None
    actor: PersonName | None
