"""Target portfolios and their records of advice: statuses and labels, and the role rules of spec
001 s6 (who may calculate, see, edit the commentary of, and decide on a record of advice). Pure: the
services pass in the facts about the portfolio and the actor."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from app.domain.permissions import Actor
from app.domain.roles import Role

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
