"""Target portfolios and their records of advice: statuses and labels, and the role rules of spec
001 s6 (who may calculate, see, edit the commentary of, and decide on a record of advice). Pure: the
services pass in the facts about the portfolio and the actor."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from app.domain.permissions import Actor
from app.domain.engine.results import Target
from app.domain.roles import Role
from app.domain.titled import TitledEnum
from app.domain.users import DecisionTrail, Person


class TPStatus(TitledEnum):
    DRAFT = "draft", "Validation Required"
    VALIDATED = "validated", "Approval Required"
    ACTIVE = "active", "Approved"
    DECLINED = "declined", "Declined"
    FAILED = "failed", "Calculation Error"  # the calculation failed (shown with its message)


TP_LABELS = TPStatus.titles()
NOT_ENOUGH_CASH_LABEL = "Not Enough Cash"
# Others than superusers and advisers see only these in the version history (001 s6, 002 s4).
PUBLIC_TP_STATUSES = (TPStatus.VALIDATED, TPStatus.ACTIVE, TPStatus.DECLINED)
VERSION_PAGE_SIZES = (12, 20, 32)
COMMENT_TYPES = ("market", "recommendation")


NOT_ENOUGH_CASH = "not_enough_cash"  # a draft without enough cash, keyed on its own (reports, badges)
TP_KEY_LABELS: dict[str, str] = {**TPStatus.value_titles(), NOT_ENOUGH_CASH: NOT_ENOUGH_CASH_LABEL}


def tp_status_key(status: str, not_enough_cash: bool = False) -> str:
    """A target portfolio's status as shown: its status, or not_enough_cash for a flagged draft."""
    return NOT_ENOUGH_CASH if status == TPStatus.DRAFT.value and not_enough_cash else status


def tp_label(status: str, not_enough_cash: bool = False) -> str:
    return TP_KEY_LABELS[tp_status_key(TPStatus(status).value, not_enough_cash)]


@dataclass(frozen=True)
class PortfolioFacts:
    """What the rules need to know about a portfolio and the actor's relation to it."""

    inactive: bool
    has_approved_tp: bool = False
    has_approved_ti: bool = False
    actor_is_owner: bool = False
    actor_is_holder: bool = False
    has_model: bool = True


def decides_for_client(actor: Actor, facts: PortfolioFacts, has_approved: bool) -> bool:
    """The client's decision on advice (a record of advice, trade recommendations): a superuser, a
    client owner, or an adviser, but not an adviser who is not an owner of an inactive portfolio
    that already has approved advice of that kind (`has_approved`)."""
    if actor.is_superuser:
        return True
    if actor.role is Role.CLIENT:
        return facts.actor_is_owner
    if actor.role is Role.ADVISER:
        return facts.actor_is_owner or not (facts.inactive and has_approved)
    return False


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
    return decides_for_client(actor, facts, facts.has_approved_tp)


def roa_decidable(status: str, is_last_validated: bool) -> bool:
    """A record of advice can be approved or declined when its target portfolio is the last
    validated one, or still pending (draft or validated: status below 3)."""
    s = TPStatus(status)
    return is_last_validated or s in (TPStatus.DRAFT, TPStatus.VALIDATED)


# ---- a target portfolio as it is read -------------------------------------------------------------
@dataclass(frozen=True)
class TPPermissions:
    """What the actor may do with a portfolio's target portfolios (001 s6)."""

    calculate: bool = False
    view_only: bool = True
    edit_commentary: bool = False
    decide: bool = False

    @classmethod
    def of(cls, actor: Actor, facts: PortfolioFacts) -> "TPPermissions":
        return cls(calculate=can_calculate_tp(actor, facts), view_only=tp_view_only(actor, facts),
                   edit_commentary=can_edit_commentary(actor, facts), decide=can_decide_roa(actor, facts))


@dataclass(frozen=True)
class TPSummary(DecisionTrail):
    """A target portfolio version without its result: its status and who acted when."""

    id: int
    investment_id: int
    version: int
    status: str
    not_enough_cash: bool
    error_message: str | None
    value: Decimal | None
    model_id: int | None
    model_version: int | None
    allocation_method: str | None
    row_version: int

    @property
    def status_label(self) -> str:
        return tp_label(self.status, self.not_enough_cash)


@dataclass(frozen=True)
class Commentary:
    """A commentary of a target portfolio; id None while it is still the model's (never saved here)."""

    id: int | None
    type: str
    description: str


@dataclass(frozen=True)
class ResultNames:
    """The names behind the ids a result holds (the engine knows ids, not titles): asset id ->
    (name, url), class id -> title, industry group id -> (title, colour)."""

    assets: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    classes: Mapping[int, str] = field(default_factory=dict)
    industry_groups: Mapping[int, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class InvestmentRef:
    id: int
    name: str
    type: str
    inactive: bool


@dataclass(frozen=True)
class ModelRef:
    id: int
    name: str
    allocation_method: str


@dataclass(frozen=True)
class TargetPortfolioView:
    """A target portfolio as the screens and the API read it: the version, its portfolio and model,
    the engine's result (None when the calculation failed) with the names it needs, the commentary
    and what the actor may do."""

    summary: TPSummary
    investment: InvestmentRef
    model: ModelRef | None
    result: Target | None
    names: ResultNames
    commentaries: tuple[Commentary, ...]
    permissions: TPPermissions
    placed_buys: Decimal = Decimal(0)  # now: cash committed to buys with the broker, not executed yet

    def commentary(self, kind: str) -> Commentary | None:
        return next((c for c in self.commentaries if c.type == kind), None)


def edits_of(result: Target | None) -> list[dict[str, Any]]:
    """The adviser's edits a (stored or recalculated) result carries, in the form the edit step and
    the save of an edit take them (JSON-ready), so that the next edit starts from them: added
    assets first ({asset_id, code, class_id}), then the units set ({asset_id, code, target_units})."""
    if result is None:
        return []
    codes = {a.asset_id: a.code for a in result.assets}
    out: list[dict[str, Any]] = [{"asset_id": a.asset_id, "code": codes.get(a.asset_id), "class_id": a.class_id}
                                 for a in result.added]
    out += [{"asset_id": o.asset_id, "code": codes.get(o.asset_id), "target_units": format(o.target_units, "f")}
            for o in result.overrides]
    return out


@dataclass(frozen=True)
class Practice:
    name: str | None
    abn: str | None
    licensee_name: str | None
    licensee_afsl: str | None


@dataclass(frozen=True)
class Client(Person):
    preferred_name: str | None
    email: str


@dataclass(frozen=True)
class ManagementFee:
    """The portfolio's fee settings and what they come to on the target portfolio's value."""

    percent: Decimal | None
    min: Decimal | None
    max: Decimal | None
    amount: Decimal | None


# after the name of a superuser who approved or declined a record of advice (spec 002 s6)
SUPERUSER_NOTE = " (superuser)"


@dataclass(frozen=True)
class RecordOfAdvice:
    """A target portfolio's record of advice (spec 002 s2/s3): the target portfolio with the
    practice, the clients and their adviser, the fee, the CGT estimate and the decision state."""

    tp: TargetPortfolioView
    practice: Practice
    owners: tuple[Client, ...]
    adviser: Person | None
    client_wording: str
    fee: ManagementFee
    cgt_estimate: str
    last_validated_tp: int | None
    can_decide: bool
    # whether the approver (or the decliner) was a superuser rather than the client (spec 002 s6);
    # the record then says so after the name: 'Approved by Sam Super (superuser)'
    decided_by_superuser: bool = False
    # the addresses it is sent to and from (printed lines): the holder's, the practice's
    client_address: tuple[str, ...] = ()
    practice_address: tuple[str, ...] = ()

    @property
    def date(self) -> datetime | None:
        return self.tp.summary.validated_at or self.tp.summary.created_at

    @property
    def pending(self) -> bool:
        return self.tp.summary.status in (TPStatus.DRAFT.value, TPStatus.VALIDATED.value)

    @property
    def approved(self) -> bool:
        return self.tp.summary.status == TPStatus.ACTIVE.value

    @property
    def declined(self) -> bool:
        return self.tp.summary.status == TPStatus.DECLINED.value
