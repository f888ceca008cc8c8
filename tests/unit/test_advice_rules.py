"""Statuses, role rules and validation outcomes of target portfolios, records of advice and trade
instructions (spec 001 s4/s6, 002 s4/s6)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app.domain import advice as a
from app.domain.roles import Role
from tests.factories import actor


SU, ADMIN, ADV, CLIENT = (actor(r, firm_id=7, user_id=1) for r in (Role.SUPERUSER, Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT))
ACTIVE = a.PortfolioFacts(inactive=False)
INACTIVE_FRESH = a.PortfolioFacts(inactive=True, has_approved_tp=False)
INACTIVE_APPROVED = a.PortfolioFacts(inactive=True, has_approved_tp=True, has_approved_ti=True)


def test_tp_labels_of_the_record_of_advice():
    assert a.tp_label("draft") == "Validation Required"
    assert a.tp_label("validated") == "Approval Required"
    assert a.tp_label("active") == "Approved"
    assert a.tp_label("failed") == "Calculation Error"
    assert a.tp_label("draft", not_enough_cash=True) == "Not Enough Cash"


@pytest.mark.parametrize("who,facts,expected", [
    (SU, INACTIVE_APPROVED, True),
    (ADV, ACTIVE, True),
    (ADV, INACTIVE_FRESH, True),
    (ADV, INACTIVE_APPROVED, False),
    (ADMIN, ACTIVE, False),
    (CLIENT, ACTIVE, False),
])
def test_calculate_target_portfolio_rule(who, facts, expected):
    assert a.can_calculate_tp(who, facts) is expected
    assert a.can_calculate_tr(who, facts) is expected


def test_who_sees_the_current_target_and_which_versions():
    assert a.sees_current_tp(SU, INACTIVE_APPROVED)
    assert a.sees_current_tp(ADV, ACTIVE)
    assert not a.sees_current_tp(ADV, INACTIVE_APPROVED)
    assert not a.sees_current_tp(CLIENT, ACTIVE) and not a.sees_current_tp(ADMIN, ACTIVE)
    assert a.visible_tp_statuses(SU) is None and a.visible_tp_statuses(ADV) is None
    assert a.visible_tp_statuses(CLIENT) == (a.TPStatus.VALIDATED, a.TPStatus.ACTIVE, a.TPStatus.DECLINED)


def test_view_only_and_commentary():
    assert a.tp_view_only(CLIENT, ACTIVE) and a.tp_view_only(ADMIN, ACTIVE)
    assert a.tp_view_only(ADV, INACTIVE_APPROVED) and not a.tp_view_only(ADV, ACTIVE)
    assert not a.tp_view_only(SU, INACTIVE_APPROVED)
    assert a.can_edit_commentary(CLIENT, a.PortfolioFacts(inactive=False, actor_is_owner=True))
    assert not a.can_edit_commentary(CLIENT, ACTIVE)
    assert not a.can_edit_commentary(ADMIN, ACTIVE)
    assert not a.can_edit_commentary(ADV, INACTIVE_APPROVED)


def test_record_of_advice_decisions():
    assert a.can_decide_roa(SU, INACTIVE_APPROVED)
    assert not a.can_decide_roa(ADMIN, a.PortfolioFacts(inactive=False, actor_is_owner=True))
    assert a.can_decide_roa(CLIENT, a.PortfolioFacts(inactive=False, actor_is_owner=True))
    assert not a.can_decide_roa(CLIENT, ACTIVE)
    assert not a.can_decide_roa(ADV, INACTIVE_APPROVED)
    assert a.can_decide_roa(ADV, a.PortfolioFacts(inactive=True, has_approved_tp=True, actor_is_owner=True))
    assert a.roa_decidable("validated", False) and a.roa_decidable("draft", False)
    assert not a.roa_decidable("declined", False) and a.roa_decidable("declined", True)


@pytest.mark.parametrize("required,auto,manual,cancel,note,expected", [
    (True, "never", False, False, False, ("pending_approval", None)),
    (True, "never", False, False, True, ("validated", None)),
    (False, "3_days", False, False, False, ("pending_approval", None)),
    (False, "never", False, False, False, ("approved", "approved")),
    (False, "never", False, True, False, ("pending_to_cancel", "approved")),
    (False, "never", True, False, False, ("pending_approval", None)),
    (False, "never", False, False, True, ("approved", "approved")),
])
def test_validation_outcomes(required, auto, manual, cancel, note, expected):
    out = a.validation_outcome(approval_required=required, auto_approval=auto, manual=manual, cancel=cancel, is_note=note)
    assert (out.status, out.decision) == expected


def test_decline_all_and_instruction_status():
    assert a.decline_all_outcome(False).status == "not_valid"
    assert a.decline_all_outcome(True).status == "declined"
    assert a.instruction_status(["approved", "approved"]) is a.TIStatus.APPROVED
    assert a.instruction_status(["declined"]) is a.TIStatus.DECLINED
    assert a.instruction_status(["approved", "declined"]) is a.TIStatus.PARTIALLY_APPROVED
    assert a.instruction_status(["approved", None]) is a.TIStatus.PENDING_APPROVAL


def test_trade_instruction_editing_and_approval():
    assert a.can_edit_ti(ADV, "pending_validation")
    assert not a.can_edit_ti(ADV, "pending_approval")
    assert not a.can_edit_ti(CLIENT, "pending_validation") and not a.can_edit_ti(ADMIN, "pending_validation")
    assert not a.can_edit_ti(SU, "pending_validation", read_only=True)
    owner = a.PortfolioFacts(inactive=True, has_approved_ti=True, actor_is_owner=True)
    assert not a.can_approve_ti(SU, ACTIVE, has_pending=False)
    assert a.can_approve_ti(SU, ACTIVE, has_pending=True)
    assert not a.can_approve_ti(ADV, INACTIVE_APPROVED, has_pending=True)
    assert a.can_approve_ti(ADV, owner, has_pending=True)
    assert not a.can_approve_ti(ADMIN, ACTIVE, has_pending=True) and a.can_approve_ti(ADMIN, owner, has_pending=True)
    assert a.can_approve_ti(CLIENT, owner, has_pending=True) and not a.can_approve_ti(CLIENT, ACTIVE, has_pending=True)


def test_user_action_labels():
    assert a.user_action_for(True, True) == "changed price and quantity"
    assert a.user_action_for(True, False) == "changed price"
    assert a.user_action_for(False, True) == "changed quantity"
    assert a.user_action_for(False, False) is None


def test_auto_approval_deadlines():
    t = datetime(2026, 11, 21, 3, 0, tzinfo=timezone.utc)  # 14:00 in Sydney (AEDT, UTC+11)
    assert a.auto_approve_deadline("never", t) is None
    assert a.auto_approve_deadline("next_day_10am", t) == datetime(2026, 11, 21, 23, 0, tzinfo=timezone.utc)
    winter = datetime(2026, 6, 10, 20, 0, tzinfo=timezone.utc)  # 06:00 on 11 June in Sydney (AEST, UTC+10)
    assert a.auto_approve_deadline("next_day_10am", winter) == datetime(2026, 6, 12, 0, 0, tzinfo=timezone.utc)
    assert a.auto_approve_deadline("1_days", t) == datetime(2026, 11, 22, 3, 0, tzinfo=timezone.utc)
    assert a.auto_approve_deadline("10_days", t) == datetime(2026, 12, 1, 3, 0, tzinfo=timezone.utc)
    with pytest.raises(ValueError):
        a.auto_approve_deadline("11_days", t)


def _summary(status: a.TIStatus) -> a.TradeInstructionSummary:
    from app.domain.users import PersonName

    day = {k: datetime(2026, 11, n, tzinfo=timezone.utc) for n, k in enumerate(
        ("created_at", "validated_at", "approved_at", "declined_at"), start=1)}
    people = {k: PersonName(k.title(), "Smith") for k in ("creator", "validator", "approver", "decliner", "moderator")}
    return a.TradeInstructionSummary(
        id=1, investment_id=2, target_portfolio_id=None, version=1, status=status, validated=False, error_message=None,
        row_version=1, buys=None, sells=None, brokerage=None, min_trade_amount=None, payload=None,
        auto_approve_at=None, **day, **people)


@pytest.mark.parametrize("status,who,day", [
    (a.TIStatus.PENDING_VALIDATION, "Creator Smith", 1), (a.TIStatus.FAILED, "Creator Smith", 1),
    (a.TIStatus.PENDING_APPROVAL, "Validator Smith", 2), (a.TIStatus.PARTIALLY_APPROVED, "Approver Smith", 3),
    (a.TIStatus.APPROVED, "Approver Smith", 3), (a.TIStatus.NOT_VALIDATED, "Decliner Smith", 4),
    (a.TIStatus.DECLINED, "Decliner Smith", 4),
])
def test_who_took_trade_recommendations_to_their_status(status, who, day):
    person, moment = _summary(status).acted
    assert person.full == who and moment.day == day
    assert _summary(status).actor_label == a.TI_ACTOR_LABELS[status]


@pytest.mark.parametrize("status,decision,awaits", [
    ("pending_approval", None, True), ("pending_to_cancel", None, True), ("pending_copy", None, True),
    ("pending_to_cancel", "approved", False), ("draft", None, False), ("approved", "approved", False),
])
def test_a_trade_awaits_a_decision_while_pending_and_undecided(status, decision, awaits):
    from decimal import Decimal

    zero = Decimal(0)
    line = a.TradeLine(
        id=1, asset_id=2, code="BHP", action="decrease", status=a.TxStatus(status), decision=decision,
        user_action=None, quantity=zero, price=zero, asset_price=None, limit_price=None, value=zero, fee=zero,
        cost_base=None, amount=zero, pending=zero, initial_quantity=None, initial_price=None, current_units=None,
        full_sell=False, stop_loss=False, urgent=False, approved_at=None, declined_at=None,
        recommendation_action="", recommendation_comment="", payload={})
    assert line.awaits_decision is awaits and line.side == "SELL"
