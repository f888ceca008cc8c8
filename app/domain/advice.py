"""Target portfolios, records of advice and trade instructions: statuses and their labels, the
role rules of spec 001 s6 and 002 s4/s6, the validation outcomes of 001 s4, and auto-approval
deadlines. Pure: the services pass in the facts (role, ownership, portfolio activity, what has
been approved) and these functions decide."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from enum import Enum
from zoneinfo import ZoneInfo

from app.domain.ledger import NOT_ENOUGH_ASSETS  # noqa: F401  (the advice screens' text too)
from app.domain.permissions import Actor
from app.domain.roles import Role

# ---- texts (spec 001 s5/s8, 002 s4/s8) ----------------------------------------------------------
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


# ---- target portfolio ---------------------------------------------------------------------------
class TPStatus(str, Enum):
    DRAFT = "draft"
    VALIDATED = "validated"
    ACTIVE = "active"
    DECLINED = "declined"
    FAILED = "failed"  # the calculation failed: Calculation Error with its message


TP_LABELS = {
    TPStatus.DRAFT: "Validation Required",
    TPStatus.VALIDATED: "Approval Required",
    TPStatus.ACTIVE: "Approved",
    TPStatus.DECLINED: "Declined",
    TPStatus.FAILED: "Calculation Error",
}
NOT_ENOUGH_CASH_LABEL = "Not Enough Cash"
# Others than superusers and advisers see only these in the version history (001 s6, 002 s4).
PUBLIC_TP_STATUSES = (TPStatus.VALIDATED, TPStatus.ACTIVE, TPStatus.DECLINED)
VERSION_PAGE_SIZES = (12, 20, 32)
COMMENT_TYPES = ("market", "recommendation")


def tp_label(status: str, not_enough_cash: bool = False) -> str:
    s = TPStatus(status)
    if s is TPStatus.DRAFT and not_enough_cash:
        return NOT_ENOUGH_CASH_LABEL
    return TP_LABELS[s]


@dataclass(frozen=True)
class PortfolioFacts:
    """What the rules need to know about a portfolio and the actor's relation to it."""

    inactive: bool
    has_approved_tp: bool = False
    has_approved_ti: bool = False
    actor_is_owner: bool = False
    actor_is_holder: bool = False
    has_model: bool = True


def _adviser_may_act(actor: Actor, facts: PortfolioFacts) -> bool:
    return actor.role is Role.ADVISER and (not facts.inactive or not facts.has_approved_tp)


def can_calculate_tp(actor: Actor, facts: PortfolioFacts) -> bool:
    """Superuser always; adviser if the portfolio is active, or inactive with no approved target portfolio."""
    return actor.is_superuser or _adviser_may_act(actor, facts)


def can_calculate_tr(actor: Actor, facts: PortfolioFacts) -> bool:
    """Same rule as target portfolios (the model, recommendations and target checks are the service's)."""
    return can_calculate_tp(actor, facts)


def sees_current_tp(actor: Actor, facts: PortfolioFacts) -> bool:
    """Superusers and advisers see the current target portfolio; others the last approved one; an
    adviser on an inactive portfolio with approvals sees the last approved one."""
    if actor.is_superuser:
        return True
    if actor.role is Role.ADVISER:
        return not (facts.inactive and facts.has_approved_tp)
    return False


def visible_tp_statuses(actor: Actor) -> tuple[TPStatus, ...] | None:
    """Statuses shown in the versions list (None: all)."""
    return None if actor.role in (Role.SUPERUSER, Role.ADVISER) else PUBLIC_TP_STATUSES


def tp_view_only(actor: Actor, facts: PortfolioFacts) -> bool:
    """Clients, administrators, and advisers when the portfolio is inactive and has approved TPs."""
    if actor.role in (Role.CLIENT, Role.ADMINISTRATOR):
        return True
    if actor.role is Role.ADVISER:
        return facts.inactive and facts.has_approved_tp
    return False


def can_edit_commentary(actor: Actor, facts: PortfolioFacts) -> bool:
    if actor.is_superuser:
        return True
    if actor.role is Role.ADVISER:
        return not facts.inactive or not facts.has_approved_tp
    return actor.role is Role.CLIENT and facts.actor_is_owner


def can_decide_roa(actor: Actor, facts: PortfolioFacts) -> bool:
    """Approve or decline a record of advice: superuser, a client owner, or an adviser (not one who
    is not an owner on an inactive portfolio that already has approved target portfolios).
    Administrators cannot."""
    if actor.is_superuser:
        return True
    if actor.role is Role.CLIENT:
        return facts.actor_is_owner
    if actor.role is Role.ADVISER:
        return facts.actor_is_owner or not (facts.inactive and facts.has_approved_tp)
    return False


def roa_decidable(status: str, is_last_validated: bool) -> bool:
    """A record of advice can be approved or declined when its target portfolio is the last
    validated one, or still pending (draft or validated: status below 3)."""
    s = TPStatus(status)
    return is_last_validated or s in (TPStatus.DRAFT, TPStatus.VALIDATED)


# ---- trade instructions -------------------------------------------------------------------------
class TIStatus(str, Enum):
    PENDING_VALIDATION = "pending_validation"
    PENDING_APPROVAL = "pending_approval"
    NOT_VALIDATED = "not_validated"
    PARTIALLY_APPROVED = "partially_approved"
    DECLINED = "declined"
    APPROVED = "approved"
    FAILED = "failed"


TI_LABELS = {
    TIStatus.PENDING_VALIDATION: "Pending validation",
    TIStatus.PENDING_APPROVAL: "Pending approval",
    TIStatus.NOT_VALIDATED: "Not validated",
    TIStatus.PARTIALLY_APPROVED: "Partially approved",
    TIStatus.DECLINED: "Declined",
    TIStatus.APPROVED: "Approved",
    TIStatus.FAILED: "Calculation Error",
}
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


class TxStatus(str, Enum):
    DRAFT = "draft"
    PENDING_APPROVAL = "pending_approval"
    PENDING_COPY = "pending_copy"
    PENDING_TO_CANCEL = "pending_to_cancel"
    APPROVED = "approved"
    DECLINED = "declined"
    DELETED = "deleted"
    EXECUTED = "executed"
    NOT_VALID = "not_valid"
    NOT_CANCELED = "not_canceled"


TX_LABELS = {
    TxStatus.DRAFT: "To be reviewed",
    TxStatus.PENDING_APPROVAL: "To be reviewed",
    TxStatus.PENDING_COPY: "To be reviewed",
    TxStatus.PENDING_TO_CANCEL: "To be reviewed",
    TxStatus.APPROVED: "Approved",
    TxStatus.DECLINED: "Declined",
    TxStatus.DELETED: "Deleted",
    TxStatus.EXECUTED: "Executed",
    TxStatus.NOT_VALID: "Declined",
    TxStatus.NOT_CANCELED: "Declined",
}


class NoteState(str, Enum):
    PENDING_VALIDATION = "pending_validation"
    VALIDATED = "validated"
    APPROVED = "approved"
    DECLINED = "declined"


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
    if actor.is_superuser:
        return True
    if actor.role is Role.CLIENT:
        return facts.actor_is_owner
    if actor.role is Role.ADVISER:
        return facts.actor_is_owner or not (facts.inactive and facts.has_approved_ti)
    if actor.role is Role.ADMINISTRATOR:
        return facts.actor_is_owner
    return False


# ---- auto-approval ------------------------------------------------------------------------------
AUTO_APPROVAL_NEVER = "never"
AUTO_APPROVAL_NEXT_DAY = "next_day_10am"
AUTO_APPROVAL_CHOICES = (AUTO_APPROVAL_NEVER, AUTO_APPROVAL_NEXT_DAY) + tuple(f"{n}_days" for n in range(1, 11))
AUTO_APPROVAL_LABELS = {AUTO_APPROVAL_NEVER: "Never", AUTO_APPROVAL_NEXT_DAY: "Next day 10 AM",
                        **{f"{n}_days": f"{n} day" + ("s" if n > 1 else "") for n in range(1, 11)}}
# "10 AM" is the practices' local time (the product serves Australian firms).
PRACTICE_TZ = ZoneInfo("Australia/Sydney")


def auto_approve_deadline(choice: str, validated_at: datetime) -> datetime | None:
    """When pending items are approved automatically (UTC), or None for 'never'."""
    if choice not in AUTO_APPROVAL_CHOICES:
        raise ValueError(f"unknown auto-approval choice {choice!r}")
    if choice == AUTO_APPROVAL_NEVER:
        return None
    if validated_at.tzinfo is None:
        validated_at = validated_at.replace(tzinfo=timezone.utc)
    if choice == AUTO_APPROVAL_NEXT_DAY:
        local_day: date = validated_at.astimezone(PRACTICE_TZ).date() + timedelta(days=1)
        return datetime.combine(local_day, time(10, 0), PRACTICE_TZ).astimezone(timezone.utc)
    days = int(choice.split("_", 1)[0])
    return (validated_at + timedelta(days=days)).astimezone(timezone.utc)
