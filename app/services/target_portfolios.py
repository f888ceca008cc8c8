"""Target portfolios: calculate (one portfolio, or a chunk of a bulk run), read the current or
last approved one by role, list versions, validate, approve or decline (the record of advice),
edit (mode EDIT: `edit_preview`, `save_edit`) and the commentary.

Every calculation writes a new TargetPortfolio row (a version): draft, draft flagged Not Enough
Cash, or failed (Calculation Error with the message). Nothing is overwritten; status changes
record who and when, and `row_version` refuses a change made against a stale copy. A saved edit is
a new draft version too.
"""
from __future__ import annotations

import dataclasses
import logging

import orjson
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Iterable, Sequence

from sqlalchemy import ColumnElement, CursorResult, event as sa_event, func, select as sa_select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Asset, Portfolio, TargetPortfolio, TargetPortfolioComment
from app.db.types import stored_id, utcnow
from app.domain import advice
from app.domain.advice import PortfolioFacts, TPStatus
from app.domain.advice.target_portfolios import TargetEdit, TargetPortfolioView, TPSummary
from app.domain import rich_text, validators
from app.domain.assets import ASSET_CODE_NOT_FOUND, ASSET_NOT_FOUND
from app.domain.engine.errors import CalculationError
from app.domain.engine.results import Target
from app.domain.engine.snapshot import AddedAsset, Snapshot, TargetOverride
from app.domain.engine.target import calculate_target
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError, not_found
from app.domain.permissions import NOT_ALLOWED, Actor, require
from app.jobs import progress
from app.domain.notices import Event
from app.services import audit, engine_inputs, listing, notices
from app.services.advice_queries import (
    TP_NOT_FOUND, approval_settings, firm_topic, last_validated_tp_id, load_tp, next_versions, portfolio_facts,
    person_names, summary_of, tp_view, trail_people, visible_tp_row,
)
from app.services.engine_inputs import AssetFacts
from app.services.tenancy import find_assets_by_codes, load_portfolio, readable_assets

log = logging.getLogger(__name__)


# ---- live updates ------------------------------------------------------------------------------
TP_UPDATED = "target portfolio updated"


def _audit(s: Session, actor: Actor, action: str, p: Portfolio, row: TargetPortfolio) -> None:
    """A target portfolio's (or its record of advice's) change, on the portfolio's audit trail."""
    s.flush()
    s.refresh(row)
    audit.record(s, actor, action, "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                 after={"target_portfolio": row.version, "status": row.status,
                        **({"not_enough_cash": True} if row.not_enough_cash else {})})


def _announce(s: Session, p: Portfolio, row: TargetPortfolio) -> None:
    """Once the change is committed: 'target portfolio updated' on the firm's progress topic (an
    open pending target portfolios report of the firm reloads)."""
    topic = firm_topic(p.firm_id)
    event = {"event": TP_UPDATED, "firm_id": p.firm_id, "investment_id": p.id, "tp_id": row.id, "status": row.status}

    def publish(_session: Session) -> None:
        try:
            progress.publish(topic, event)
        except Exception:  # a screen that does not move at once is no reason to fail the change
            log.warning("could not publish %s for investment %s", TP_UPDATED, p.id, exc_info=True)

    sa_event.listen(s, "after_commit", publish, once=True)


# ---- calculation --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    investment_id: int
    ok: bool
    tp_id: int | None
    error: str | None = None


def compute_targets(s: Session, portfolio_ids: Iterable[int]) -> dict[int, Target | CalculationError]:
    """The engine's target for each portfolio (or the reason it cannot be calculated)."""
    return calculate_all(engine_inputs.build_snapshots(s, portfolio_ids))


def calculate_all(snapshots: dict[int, Snapshot | CalculationError]) -> dict[int, Target | CalculationError]:
    """Runs the engine on loaded snapshots (no database access)."""
    out: dict[int, Target | CalculationError] = {}
    for pid, snapshot in snapshots.items():
        if isinstance(snapshot, CalculationError):
            out[pid] = snapshot
            continue
        try:
            out[pid] = calculate_target(snapshot)
        except CalculationError as exc:
            out[pid] = exc
        except Exception as exc:  # never let one portfolio stop the others; record a clear message
            log.exception("target portfolio of investment %s failed", pid)
            out[pid] = CalculationError("internal", f"The calculation failed: {exc.__class__.__name__}")
    return out


def _plain(value: object) -> str:
    """A Decimal as format(value, "f"): str() writes the same text, three times faster, except in
    exponent notation (0E-8, 1E+2), which "f" spells out."""
    if value.__class__ is Decimal:
        text = str(value)
        return text if "E" not in text else format(value, "f")
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(type(value).__name__)


def dumps(result: Target) -> str:
    """An engine result as compact JSON, the same as json.dumps(result.to_dict()) (Decimals as
    strings) but written by orjson: bulk runs store thousands of these."""
    return orjson.dumps(result, default=_plain).decode()


def target_row(pid: int, version: int, result: Target | CalculationError, *, actor_id: int | None,
               run_id: int | None, now: datetime, model_id: int | None) -> dict[str, object]:
    """One of a table's rows: the row that stores one calculation's outcome, by column, which a bulk
    run copies into the table (app.db.bulk.copy_rows) and a single calculation stores as a
    TargetPortfolio (a row writer: its keys are the table's columns)."""
    base = dict(investment_id=pid, version=version, bulk_run_id=run_id, created_by=actor_id, moderator_id=actor_id,
                created_at=now, updated_at=now, row_version=1, model_id=model_id)
    if isinstance(result, CalculationError):
        return {**base, "status": TPStatus.FAILED.value, "not_enough_cash": False, "error_message": result.message,
                "value": None, "model_version": None, "allocation_method": None, "result": None}
    return {**base, "status": TPStatus.DRAFT.value, "not_enough_cash": result.not_enough_cash, "error_message": None,
            "value": result.value, "model_version": result.model_version,
            "allocation_method": result.allocation_method,
            "result": dumps(result)}


def calculate(*, actor: Actor, investment_id: int) -> TargetPortfolioView:
    """Calculates the target portfolio of one portfolio and stores it as a new version."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id, lock=True)
        pid = stored_id(p)
        require(advice.can_calculate_tp(actor, portfolio_facts(s, actor, p)))
        result = compute_targets(s, [pid])[pid]
        version = next_versions(s, [pid])[pid]
        row = TargetPortfolio.model_validate(target_row(pid, version, result, actor_id=actor.id, run_id=None,
                                                        now=utcnow(), model_id=p.model_id))
        s.add(row)
        s.flush()
        _audit(s, actor, "target_portfolio.calculated", p, row)
        _announce(s, p, row)
        return tp_view(s, actor, p, row)


# ---- reading ------------------------------------------------------------------------------------

def current_row(s: Session, actor: Actor, p: Portfolio, facts: PortfolioFacts | None = None) -> TargetPortfolio | None:
    """The target portfolio the actor is shown: the newest for superusers and advisers (unless an
    adviser on an inactive portfolio with approvals), otherwise the last approved one. `facts`:
    the portfolio's facts for the actor when the caller has read them already."""
    query = select(TargetPortfolio).where(TargetPortfolio.investment_id == p.id)
    if not advice.sees_current_tp(actor, facts or portfolio_facts(s, actor, p)):
        query = query.where(TargetPortfolio.status == TPStatus.ACTIVE.value)
    return s.exec(query.order_by(col(TargetPortfolio.version).desc())).first()


def current(*, actor: Actor, investment_id: int, version: int | None = None) -> TargetPortfolioView | None:
    """The current target portfolio of the portfolio for this actor, or a given version (one there
    is not, such as 0, is not found)."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        if version is not None:
            row = s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == p.id,
                                                       TargetPortfolio.version == version)).first() if version else None
            return tp_view(s, actor, p, visible_tp_row(s, actor, p, row))
        facts = portfolio_facts(s, actor, p)  # read once: which version is shown, and what may be done
        row = current_row(s, actor, p, facts)
        return None if row is None else tp_view(s, actor, p, row, facts=facts)


def get(*, actor: Actor, tp_id: int) -> TargetPortfolioView:
    with session_scope() as s:
        p, row = load_tp(s, actor, tp_id)
        return tp_view(s, actor, p, row)


VERSION_SORTS = ("created_at", "version", "status")


def versions(*, actor: Actor, investment_id: int, limit: int | None = None, offset: int | None = None,
             order: str | None = "desc", order_by: str | None = "created_at", statuses: Iterable[str] | None = None,
             versioned: bool = False) -> listing.Page[TPSummary]:
    """Versions by `order_by` (created_at, version or status; 001 s7: created_at descending by
    default), 12/20/32 per page; `statuses` keeps those statuses only (an unknown one matches
    nothing) and `versioned` those with a version number. Others than superusers and advisers see
    only validated, approved and declined ones whatever they ask."""
    limit_, offset_ = listing.page(limit, offset, default=advice.VERSION_PAGE_SIZES[0])
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        where: list[ColumnElement[bool]] = [col(TargetPortfolio.investment_id) == p.id]
        visible = advice.visible_tp_statuses(actor)
        if visible is not None:
            where.append(col(TargetPortfolio.status).in_([st.value for st in visible]))
        if statuses is not None:
            where.append(col(TargetPortfolio.status).in_(list(statuses)))
        if versioned:
            where.append(col(TargetPortfolio.version).is_not(None))
        total = s.execute(sa_select(func.count()).select_from(TargetPortfolio).where(*where)).scalar_one()
        columns = {"created_at": (TargetPortfolio.created_at, TargetPortfolio.version),
                   "version": (TargetPortfolio.version,),
                   "status": (TargetPortfolio.status, TargetPortfolio.version)}
        rows = s.exec(select(TargetPortfolio).where(*where)
                      .order_by(*listing.order_by(order_by, order or "desc", columns, "created_at"))
                      .limit(limit_).offset(offset_)).all()
        names = person_names(s, trail_people(rows))
        return listing.Page(rows=tuple(summary_of(r, names) for r in rows), total=int(total))


# ---- status changes -------------------------------------------------------------------------------
def _load_for_change(s: Session, actor: Actor, tp_id: int,
                     row_version: int | None) -> tuple[Portfolio, TargetPortfolio, PortfolioFacts]:
    p, row = load_tp(s, actor, tp_id, lock=True)
    if row_version is not None and row_version != row.row_version:
        raise Conflict(advice.EDITED_ELSEWHERE)
    return p, row, portfolio_facts(s, actor, p)


def _bump(s: Session, row: TargetPortfolio, **values: object) -> None:
    """Writes a status change only if nobody else changed the row meanwhile."""
    done: CursorResult[tuple[int]] = s.execute(  # type: ignore[assignment]  # an UPDATE's result counts rows
        update(TargetPortfolio).where(col(TargetPortfolio.id) == row.id,
                                      col(TargetPortfolio.row_version) == row.row_version)
        .values(row_version=row.row_version + 1, updated_at=utcnow(), **values))
    if done.rowcount != 1:
        raise Conflict(advice.EDITED_ELSEWHERE)
    s.expire(row)


def validate(*, actor: Actor, tp_id: int, row_version: int | None = None) -> TargetPortfolioView:
    """Draft -> validated (Approval Required), with the notices the approval switches ask for
    (app.domain.notices). When the portfolio does not require approval it becomes active (and the
    notices are those of an approval)."""
    with session_scope() as s:
        p, row, facts = _load_for_change(s, actor, tp_id, row_version)
        if advice.tp_view_only(actor, facts) or not advice.can_calculate_tp(actor, facts):
            raise PermissionDenied(NOT_ALLOWED)
        if row.status != TPStatus.DRAFT.value or row.not_enough_cash or row.result is None:
            raise ValidationError(advice.NOT_EDITABLE)
        now = utcnow()
        settings = approval_settings(p)
        values: dict[str, object] = dict(status=TPStatus.VALIDATED.value, validated_by=actor.id, validated_at=now,
                                         moderator_id=actor.id)
        if not settings.get("tp_approval_required", True):
            values.update(status=TPStatus.ACTIVE.value, approved_by=actor.id, approved_at=now)
        _bump(s, row, **values)
        s.refresh(row)
        notices.notify_target(s, p=p, tp=row, actor_id=actor.id,
                              event=Event.TP_VALIDATED if row.status == TPStatus.VALIDATED.value else Event.TP_APPROVED)
        _audit(s, actor, "target_portfolio.validated", p, row)
        _announce(s, p, row)
        return tp_view(s, actor, p, row)


@dataclass(frozen=True)
class TPChange:
    """A target portfolio after a change the screen announces (a decision on its record of advice,
    a saved edit): the version as read afterwards and the message."""

    view: TargetPortfolioView
    message: str


def decide(*, actor: Actor, tp_id: int, action: str, row_version: int | None = None) -> TPChange:
    """Approve or decline a record of advice (002 s4): only when it is the last validated target
    portfolio or still pending, by a superuser, a client owner or an adviser; the notices the
    approval switches ask for are queued with the change."""
    if action not in ("approve", "decline"):
        raise ValidationError("Unknown action")
    with session_scope() as s:
        p, row, facts = _load_for_change(s, actor, tp_id, row_version)
        if not advice.can_decide_roa(actor, facts):
            raise PermissionDenied(NOT_ALLOWED)
        last_validated = last_validated_tp_id(s, stored_id(p))
        if row.status == TPStatus.FAILED.value or not advice.roa_decidable(row.status, last_validated == row.id):
            raise ValidationError(advice.NOT_EDITABLE)
        if row.status == TPStatus.DRAFT.value and action == "approve":
            raise ValidationError(advice.VALIDATE_FIRST)
        now = utcnow()
        if action == "approve":
            _bump(s, row, status=TPStatus.ACTIVE.value, approved_by=actor.id, approved_at=now, moderator_id=actor.id)
        else:
            _bump(s, row, status=TPStatus.DECLINED.value, declined_by=actor.id, declined_at=now, moderator_id=actor.id)
        s.refresh(row)
        notices.notify_target(s, p=p, tp=row, actor_id=actor.id,
                              event=Event.TP_APPROVED if action == "approve" else Event.TP_DECLINED)
        _audit(s, actor, "record_of_advice.approved" if action == "approve" else "record_of_advice.declined", p, row)
        _announce(s, p, row)
        return TPChange(view=tp_view(s, actor, p, row),
                        message=advice.TP_APPROVED if action == "approve" else advice.TP_DECLINED)


# ---- edit mode (spec 001 s4: mode EDIT, steps with undo; s5: the texts) ---------------------------
MODE_EDIT = "EDIT"
EDITABLE_STATUSES = (TPStatus.DRAFT.value, TPStatus.VALIDATED.value, TPStatus.DECLINED.value)
# engine errors that mean the edits themselves are malformed: on saving, 'Please, validate data first.'
_MALFORMED = ("override_units", "not_in_target", "already_in_target", "unknown_asset", "class_not_in_model")


def edit_preview(*, actor: Actor, tp_id: int, row_version: int | None,
                 edits: Sequence[TargetEdit]) -> TargetPortfolioView:
    """One step of editing a target portfolio (mode EDIT): the version with its portfolio
    recalculated (today's holdings, prices and recommendations) with the adviser's edits; the
    edits it carries (`stored_edits` of its result) are those understood. Nothing is stored: the
    service keeps no state between steps, the screen keeps the history of steps and undoes one by
    sending the list without it; when a step fails (a ValidationError with the specification's
    text, e.g. 'Assets limit is exceeded', 'Not enough cash to add asset'), the screen undoes that
    step.

    `edits` is the whole list of edits, in the order made (a later one of an asset wins; see
    app.domain.advice.target_portfolios.TargetEdit): units set (0 removes an asset: one whose
    allocation reaches zero is offered for deletion), or an asset added to a class of the model (its
    own class when none). An unknown code gives 'Asset {code} is not found'. See
    app.domain.engine.target "Edits" for how the rest is recalculated and which error applies when.

    Who: as for calculating (advice.can_calculate_tp), and not view-only; only a draft, validated
    or declined version that is the newest of its portfolio; `row_version` (when given) must be the
    row's, else Conflict (someone changed it meanwhile)."""
    with session_scope() as s:
        p, row = _load_for_edit(s, actor, tp_id, row_version)
        return tp_view(s, actor, p, row, result=_recalculate(s, actor, p, edits, saving=False))


def save_edit(*, actor: Actor, tp_id: int, row_version: int | None, edits: Sequence[TargetEdit]) -> TPChange:
    """Saves an edited target portfolio as a NEW version (status draft, whatever the edited one's:
    a declined one saved goes back to draft), calculated with the edits as `edit_preview` does; the
    edits are kept in its result (`result.overrides` / `result.added`, read back by `stored_edits`)
    so that the next edit starts from them, and the edited version's commentary is copied. The
    edited version itself is left as it was. Message 'Target Portfolio saved'.

    Concurrent edits are detected, not overwritten: when the edited version is no longer the newest
    of its portfolio (another save or calculation came first) or its `row_version` changed, Conflict
    (advice.EDITED_ELSEWHERE). Malformed edits (units not a whole number, an unknown code, an asset
    not in the target ...) give 'Please, validate data first.' with the problem in `fields`; edits
    the portfolio cannot take give their own text, as in `edit_preview`."""
    with session_scope() as s:
        p, row = _load_for_edit(s, actor, tp_id, row_version, lock=True)
        target = _recalculate(s, actor, p, edits, saving=True)
        pid = stored_id(p)
        version = next_versions(s, [pid])[pid]
        new = TargetPortfolio.model_validate(target_row(pid, version, target, actor_id=actor.id, run_id=None,
                                                        now=utcnow(), model_id=p.model_id))
        s.add(new)
        try:
            s.flush()
        except IntegrityError:  # another save took this version number first (no row lock on SQLite)
            raise Conflict(advice.EDITED_ELSEWHERE) from None
        for c in s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id)
                        .order_by(col(TargetPortfolioComment.id))).all():
            s.add(TargetPortfolioComment(tp_id=stored_id(new), model_id=c.model_id, type=c.type, description=c.description,
                                         updated_by=c.updated_by, updated_at=c.updated_at))
        s.flush()
        _audit(s, actor, "target_portfolio.saved", p, new)
        _announce(s, p, new)
        return TPChange(view=tp_view(s, actor, p, new), message=advice.TP_SAVED)


def _load_for_edit(s: Session, actor: Actor, tp_id: int, row_version: int | None,
                   lock: bool = False) -> tuple[Portfolio, TargetPortfolio]:
    p, row = load_tp(s, actor, tp_id, lock=lock)
    facts = portfolio_facts(s, actor, p)
    if advice.tp_view_only(actor, facts) or not advice.can_calculate_tp(actor, facts):
        raise PermissionDenied(NOT_ALLOWED)
    if row.status not in EDITABLE_STATUSES or row.result is None:
        raise ValidationError(advice.NOT_EDITABLE)
    newest = s.execute(sa_select(func.max(TargetPortfolio.version))
                       .where(col(TargetPortfolio.investment_id) == p.id)).scalar_one()
    if newest != row.version or (row_version is not None and row_version != row.row_version):
        raise Conflict(advice.EDITED_ELSEWHERE)
    return p, row


def _recalculate(s: Session, actor: Actor, p: Portfolio, edits: Sequence[TargetEdit], *, saving: bool) -> Target:
    """The portfolio's target with the edits (see edit_preview)."""
    try:
        overrides, added, facts = _read_edits(s, actor, p, edits)
        pid = stored_id(p)
        snapshot = engine_inputs.build_snapshots(s, [pid]).get(pid)
        if snapshot is None:
            raise NotFound(TP_NOT_FOUND)
        if isinstance(snapshot, CalculationError):
            raise snapshot
        known = {q.asset_id for q in snapshot.quotes} | {h.asset_id for h in snapshot.holdings}
        quotes = tuple(engine_inputs.quote_of(f) for aid, f in sorted(facts.items()) if aid not in known)
        return calculate_target(dataclasses.replace(snapshot, quotes=snapshot.quotes + quotes, overrides=overrides,
                                                    added=added))
    except ValidationError as exc:
        malformed = not isinstance(exc, CalculationError) or exc.code in _MALFORMED
        if saving and malformed:
            raise ValidationError(advice.VALIDATE_FIRST, fields=exc.fields or {"overrides": exc.message}) from exc
        raise


def _read_edits(s: Session, actor: Actor, p: Portfolio, edits: Sequence[TargetEdit]
                ) -> tuple[tuple[TargetOverride, ...], tuple[AddedAsset, ...], dict[int, AssetFacts]]:
    """(units set, assets added, the facts of every asset named) from the screen's list of edits."""
    for n, edit in enumerate(edits):
        if edit.problem is not None:  # what the edge could not read, in its turn
            raise ValidationError(edit.problem.message, fields={edit.problem.field: edit.problem.text})
        if edit.asset_id is None and not edit.code:
            text = validators.REQUIRED.format(label="asset").strip()
            raise ValidationError(text, fields={f"overrides.{n}.code": text})
    by_code = find_assets_by_codes(s, actor, [e.code for e in edits if e.asset_id is None], p.firm_id)
    ids = {e.asset_id for e in edits if e.asset_id is not None}
    usable = set(s.exec(select(Asset.id).where(col(Asset.id).in_(ids), readable_assets(actor, p.firm_id)))
                 .all()) if ids else set()
    facts = engine_inputs.load_assets(s, {i for i in usable if i is not None} | {stored_id(a) for a in by_code.values()})
    overrides: list[TargetOverride] = []
    added: list[AddedAsset] = []
    for n, edit in enumerate(edits):
        asset_id = edit.asset_id
        if asset_id is None:
            asset = by_code.get(edit.code)
            if asset is None:
                text = ASSET_CODE_NOT_FOUND.format(code=edit.code)
                raise ValidationError(text, fields={f"overrides.{n}.code": text})
            asset_id = stored_id(asset)
        elif asset_id not in facts:
            raise ValidationError(ASSET_NOT_FOUND, fields={f"overrides.{n}.asset_id": ASSET_NOT_FOUND})
        if edit.target_units is not None:
            overrides.append(TargetOverride(asset_id, edit.target_units))
        else:
            added.append(AddedAsset(asset_id, edit.class_id))
    return tuple(overrides), tuple(added), facts


# ---- commentary ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class SavedComment:
    """A commentary as saved for the target portfolio (the model's one, once saved here, is its own):
    its id (also as new_comment_id, which the screens read after a first save), type and the
    sanitised text."""

    id: int
    type: str
    description: str
    new_comment_id: int


def save_comment(*, actor: Actor, tp_id: int, type: str, description: str,
                 comment_id: int | None = None) -> SavedComment:
    """Saves the commentary of `type` (`comment_id`: the one shown, when it was saved here; 0 or
    another target portfolio's is not found)."""
    if type not in advice.COMMENT_TYPES:
        raise ValidationError("Unknown commentary type")
    with session_scope() as s:
        p, row = load_tp(s, actor, tp_id)
        if not advice.can_edit_commentary(actor, portfolio_facts(s, actor, p)) or row.status not in (
                TPStatus.DRAFT.value, TPStatus.VALIDATED.value):
            raise PermissionDenied(NOT_ALLOWED)
        comment = None
        if comment_id is not None:
            comment = s.get(TargetPortfolioComment, comment_id)
            if comment is None or comment.tp_id != row.id:
                raise NotFound(not_found("Comment"))
        if comment is None:
            comment = s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id,
                                                                  TargetPortfolioComment.type == type)).first()
        if comment is None:
            comment = TargetPortfolioComment(tp_id=stored_id(row), model_id=row.model_id, type=type, description="")
        comment.description = rich_text.sanitise(description)
        too_long = validators.max_length(comment.description, rich_text.MAX_LENGTH)
        if too_long:
            raise ValidationError(too_long)
        comment.updated_by = actor.id
        comment.updated_at = utcnow()
        s.add(comment)
        s.flush()
        saved = stored_id(comment)
        return SavedComment(id=saved, type=comment.type, description=comment.description, new_comment_id=saved)
