"""Target portfolios and their records of advice: statuses and labels, and the role rules of spec
001 s6 (who may calculate, see, edit the commentary of, and decide on a record of advice). Pure: the
services pass in the facts about the portfolio and the actor."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from decimal import Decimal
from typing import Any

from app.domain.permissions import Actor
from app.domain.engine.results import Target
from app.domain.roles import Role
from app.domain.titled import TitledEnum
from app.domain.users import DecisionTrail, Person
from app.domain.wire import rendered


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

    def asset(self, asset_id: int) -> tuple[str, str]:
        """(name, url) of an asset; empty texts when unknown."""
        return self.assets.get(asset_id, ("", ""))

    def class_title(self, class_id: int) -> str:
        return self.classes.get(class_id, "")

    def group(self, group_id: int) -> tuple[str, str]:
        """(title, colour) of an industry group; empty texts when unknown."""
        return self.industry_groups.get(group_id, ("", ""))


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


@dataclass(frozen=True)
class EditProblem:
    """What could not be read of an edit as sent: the failure's text, the field it names
    ('overrides.0.target_units') and the field's own text."""

    message: str
    field: str
    text: str


@dataclass(frozen=True)
class TargetEdit:
    """One edit of edit mode (001 s4), read once from what was sent: `target_units` set (0 removes
    the asset) sets an asset's whole units; without it the asset (`asset_id`, else `code`,
    uppercased) is added to `class_id` (its own class when None). `problem`: what the edge could
    not read (not an object, units that are no number, an emptied units field); the service
    answers it in its turn, with the same texts as any other malformed edit."""

    asset_id: int | None = None
    code: str = ""
    target_units: Decimal | None = None
    class_id: int | None = None
    problem: EditProblem | None = None

    @property
    def sets_units(self) -> bool:
        return self.target_units is not None


def _units_problem(n: int, item: Mapping[str, Any]) -> tuple[Decimal | None, EditProblem | None]:
    """The units an edit sets (None: it adds the asset), or why they cannot be read."""
    from app.domain import validators

    units = item.get("target_units")
    if units is not None and str(units).strip() != "":
        try:
            number: Decimal | None = Decimal(str(units).strip())
        except ArithmeticError:
            number = None
        if number is None or not number.is_finite():
            return None, EditProblem(validators.NUMBER.strip(), f"overrides.{n}.target_units", validators.NUMBER)
        return number, None
    if "target_units" in item:  # an emptied units field
        text = validators.REQUIRED.format(label="target units").strip()
        return None, EditProblem(text, f"overrides.{n}.target_units", text)
    return None, None


def read_edits(items: Any) -> tuple[TargetEdit, ...]:
    """The edits as sent (a list of {asset_id | code, target_units} or {code | asset_id, class_id}),
    read once at the edge: ids as numbers, codes uppercased, units as Decimal."""
    from app.domain import validators
    from app.domain.parsing import as_id

    if items is None:
        return ()
    if not isinstance(items, (list, tuple)):
        return (TargetEdit(problem=EditProblem(validators.DEFAULT, "overrides", validators.DEFAULT)),)
    out: list[TargetEdit] = []
    for n, item in enumerate(items):
        if not isinstance(item, Mapping):
            out.append(TargetEdit(problem=EditProblem(validators.DEFAULT, f"overrides.{n}", validators.DEFAULT)))
            continue
        asset_id, code = as_id(item.get("asset_id")), str(item.get("code") or "").strip().upper()
        units, problem = _units_problem(n, item)
        # an edit naming no asset is refused for that first (the service's check)
        out.append(TargetEdit(asset_id=asset_id, code=code, target_units=units, class_id=as_id(item.get("class_id")),
                              problem=problem if asset_id is not None or code else None))
    return tuple(out)


def stored_edits(result: Target | None) -> tuple[TargetEdit, ...]:
    """The adviser's edits a (stored or recalculated) result carries, as the next edit starts from
    them: added assets first, then the units set."""
    if result is None:
        return ()
    codes = {a.asset_id: a.code for a in result.assets}
    return (tuple(TargetEdit(asset_id=a.asset_id, code=codes.get(a.asset_id) or "", class_id=a.class_id)
                  for a in result.added)
            + tuple(TargetEdit(asset_id=o.asset_id, code=codes.get(o.asset_id) or "", target_units=o.target_units)
                    for o in result.overrides))


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


# ---- the target portfolio as the REST payloads (and the record of advice's PDF) read it ------------
def summary_payload(t: TPSummary) -> dict[str, Any]:
    """A target portfolio version as the API lists it: its figures, then the decision trail as
    app.domain.wire.rendered writes it (instants in ISO 8601, people as {first_name, last_name})."""
    trail = {item.name: rendered(getattr(t, item.name)) for item in fields(DecisionTrail)}
    return {
        "id": t.id, "investment_id": t.investment_id, "version": t.version, "status": t.status,
        "status_label": t.status_label, "not_enough_cash": t.not_enough_cash,
        "error_message": t.error_message, "target_portfolio_value": str(t.value) if t.value is not None else None,
        "model_id": t.model_id, "model_version": t.model_version, "allocation_method": t.allocation_method,
        "row_version": t.row_version, **trail,
    }


def tp_payload(view: TargetPortfolioView, *, mode: str | None = None, message: str | None = None) -> dict[str, Any]:
    """The target portfolio as the API shows it: the version's fields, its portfolio and model, the
    engine's result, the edits it carries, the commentary and what the actor may do; an edit step
    adds its `mode`, a decision or a saved edit its `message`."""
    out = {
        **summary_payload(view.summary),
        "investment": rendered(view.investment),
        "model": rendered(view.model),
        "result": view.result.to_dict() if view.result is not None else None,
        "overrides": edits_of(view.result),
        "commentaries": rendered(view.commentaries),
        "permissions": rendered(view.permissions),
    }
    if mode is not None:
        out["mode"] = mode
    if message is not None:
        out["message"] = message
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
        return bool(self.tp.summary.status == TPStatus.ACTIVE.value)

    @property
    def declined(self) -> bool:
        return bool(self.tp.summary.status == TPStatus.DECLINED.value)
