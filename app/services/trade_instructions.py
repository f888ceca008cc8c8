"""Trade instructions (trade recommendations) of a portfolio: generate from the right target
portfolio, read by version, validate, decline all, approve or decline each item and confirm,
edit or add a transaction, the action history, and the auto-approval sweep.

Each generation is a new TradeInstruction row (a version) with its TradeTransaction and TradeNote
rows, written in one database transaction; every step records who and when and an action
history row.

Reads give the typed values of app.domain.advice (`view`, `versions`, `history_entries`; the
changes' `*_view` / `update_trade`); `get`, `list_versions`, `history` and the changes' plain names
give the API's payloads of them (InstructionPayload, TradePayload ..., which app.domain.wire.rendered
writes as the JSON the API has always answered).
"""
from __future__ import annotations

import dataclasses
import json
import logging

import orjson
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from sqlalchemy import CursorResult, func, select as sa_select, update
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Model, Portfolio, ShortTermRecommendation, TargetPortfolio, TradeAction, TradeInstruction, TradeNote,
    TradeTransaction,
)
from app.db.types import stored_id, utcnow
from app.domain import advice, validators
from app.domain.wire import Json, json_text, only_when_set, wire
from app.domain.advice.target_portfolios import TPPermissions
from app.domain.advice import (
    PENDING_TX, NoteState, PortfolioFacts, TIStatus, TPStatus, TradeHistoryEntry, TradeInstructionSummary,
    StoredNote, StoredTrade, TradeInstructionView, stored_note, stored_trade, TradeLine, TradeNoteLine, TradePermissions, TxStatus, side_of,
)
from app.domain.engine.errors import CalculationError
from app.domain.engine.limits import min_trade_amount_for
from app.domain.engine.results import Trades
from app.domain.engine.snapshot import DECREASE, INCREASE, Brokerage, Snapshot
from app.domain.engine.trades import generate_trades_to_stored, str_on_generation, trade_figures
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError, not_found
from app.domain.ledger import NOT_ENOUGH_ASSETS
from app.domain.model_spec import EQUAL_AMOUNTS
from app.domain.permissions import NOT_ALLOWED, Actor, require
from app.domain.roles import Role
from app.domain.users import PersonName
from app.domain.notices import Event
from app.services import audit, engine_inputs, listing, notices, postings
from app.services.advice_queries import (
    STAFF_ONLY_TI, approval_settings, client_visible_instructions, next_versions, portfolio_facts,
    person_names, shown_instruction, trail_of, trail_people,
)
from app.services.listing import Page
from app.services.tenancy import (
    PORTFOLIO_NOT_FOUND, find_assets_by_codes, load_portfolio, readable_portfolios,
)
from app.domain.parsing import as_id

log = logging.getLogger(__name__)

TI_NOT_FOUND = not_found("Trade recommendations")
TX_NOT_FOUND = not_found("Transaction")
INVALID_CODE = "Invalid code"
CODE_IN_USE = "Asset {code} is already in these trade recommendations"
LIVE_TX_EXCLUDED = (TxStatus.DELETED.value,)

# The decisions on an instruction's items as sent: {item id: approved | declined}, or [{id, decision}]
# (checked by _clean_decisions after the actor's permission, with the specification's text).
# A stored row's columns as written in bulk (app.db.bulk) or one at a time (_store): Any, as the
# tables' constructors take each column's own type.
Columns = dict[str, Any]

SentDecisions = Mapping[int, str] | Mapping[str, str] | Sequence[Mapping[str, object]] | None

if TYPE_CHECKING:
    from app.services.tax_reports import AdviceTax


# ---- the source target portfolio ---------------------------------------------------------------
def source_target(s: Session, p: Portfolio) -> TargetPortfolio | None:
    """The last approved target portfolio when the portfolio requires approval, else the newest
    one that calculated (not failed, not declined)."""
    pid = stored_id(p)
    return _sources(s, {pid: p})[pid]


# the trade recommendations' own history entries -> the audit trail's actions
_AUDITED = {"calculated": "trade_instruction.calculated", "calculation failed": "trade_instruction.calculated",
            "validated": "trade_instruction.validated", "declined all": "trade_instruction.declined",
            "confirmed decisions": "trade_instruction.decided", "changed transaction": "trade_instruction.edited",
            "added transaction": "trade_instruction.edited", "deleted transaction": "trade_instruction.edited",
            "approved automatically": "trade_instruction.auto_approved"}


def _history(s: Session, ti_id: int, actor_id: int | None, action: str, detail: str | None = None) -> None:
    """An entry of the trade recommendations' history, and the same on the portfolio's audit trail."""
    s.add(TradeAction(trade_instruction_id=ti_id, actor_id=actor_id, action=action, detail=detail, created_at=utcnow()))
    ti = s.get(TradeInstruction, ti_id)
    p = s.get(Portfolio, ti.investment_id) if ti is not None else None
    if ti is not None and p is not None:
        audit.record(s, None, _AUDITED.get(action, "trade_instruction.edited"), "portfolio", p.id, actor_id=actor_id,
                     label=p.name, firm_id=p.firm_id,
                     after={"trade_recommendations": ti.version, "status": ti.status, "what": action,
                            **({"detail": detail} if detail else {})})


@dataclasses.dataclass
class TradeInputs:
    portfolios: dict[int, Portfolio]
    sources: dict[int, TargetPortfolio | None]
    problems: dict[int, str]
    snapshots: dict[int, Snapshot | CalculationError]


def _sources(s: Session, portfolios: dict[int, Portfolio]) -> dict[int, TargetPortfolio | None]:
    """Each portfolio's source target portfolio (see `source_target`), in two queries."""
    if not portfolios:
        return {}
    needs_approval = {pid: bool(approval_settings(p).get("tp_approval_required", True)) for pid, p in portfolios.items()}
    candidates = s.execute(
        sa_select(col(TargetPortfolio.investment_id), col(TargetPortfolio.id), col(TargetPortfolio.status))
        .where(col(TargetPortfolio.investment_id).in_(list(portfolios)),
               col(TargetPortfolio.status).in_([TPStatus.DRAFT.value, TPStatus.VALIDATED.value, TPStatus.ACTIVE.value]),
               col(TargetPortfolio.result).is_not(None))
        .order_by(col(TargetPortfolio.investment_id), col(TargetPortfolio.version).desc())
    ).all()
    chosen: dict[int, int] = {}
    for pid, tp_id, status in candidates:
        if pid in chosen:
            continue
        if needs_approval[pid] and status != TPStatus.ACTIVE.value:
            continue
        chosen[pid] = tp_id
    rows = {r.id: r for r in s.exec(select(TargetPortfolio).where(col(TargetPortfolio.id).in_(list(chosen.values()))))
            .all()} if chosen else {}
    return {pid: rows.get(chosen[pid]) if pid in chosen else None for pid in portfolios}


def _problems(s: Session, portfolios: dict[int, Portfolio]) -> dict[int, str]:
    """Why trade recommendations cannot be generated, per portfolio (a fixed number of queries)."""
    model_ids = {p.model_id for p in portfolios.values() if p.model_id}
    models = {stored_id(m): m for m in s.exec(select(Model).where(col(Model.id).in_(list(model_ids)))).all()} \
        if model_ids else {}
    with_short = set(s.execute(sa_select(col(ShortTermRecommendation.model_id)).where(
        col(ShortTermRecommendation.model_id).in_(list(model_ids)), col(ShortTermRecommendation.status) == "active")
        .distinct()).scalars().all()) if model_ids else set()
    out: dict[int, str] = {}
    for pid, p in portfolios.items():
        model = models.get(p.model_id) if p.model_id else None
        if model is None or model.deleted_at is not None:
            out[pid] = advice.NO_MODEL
        elif not model.analyst_recommendations:  # 001 s6: a model with analyst recommendations
            out[pid] = advice.ANALYST_RECOMMENDATIONS_OFF
        elif model.id not in with_short:
            out[pid] = advice.NO_RECOMMENDATIONS
    return out


def calculation_check(s: Session, actor: Actor, p: Portfolio, facts: PortfolioFacts | None = None) -> CalculationCheck:
    """Whether the actor may calculate trade recommendations of the portfolio (001 s6): `offered`
    when the role rule of Calculate Target Portfolio holds; `allowed` when, besides, the portfolio
    follows a model with analyst recommendations switched on and short-term recommendations, and
    has a target portfolio to trade towards; `reason` says why not ('' when allowed)."""
    facts = facts or portfolio_facts(s, actor, p)
    if not advice.can_calculate_tr(actor, facts):
        return CalculationCheck(offered=False, allowed=False, reason=NOT_ALLOWED)
    pid = stored_id(p)
    reason = _problems(s, {pid: p}).get(pid)
    if reason is None and _sources(s, {pid: p})[pid] is None:
        reason = advice.NO_TARGET
    return CalculationCheck(offered=True, allowed=reason is None, reason=reason or "")


def can_calculate(*, actor: Actor, investment_id: int) -> CalculationCheck:
    """calculation_check of a portfolio the actor may see (404 otherwise), for the screens that
    offer 'Calculate Trade Recommendations'."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        return calculation_check(s, actor, p)


def load_trade_inputs(s: Session, portfolio_ids: Iterable[int]) -> TradeInputs:
    """What generating trade recommendations reads, for many portfolios at once."""
    ids = sorted(set(portfolio_ids))
    portfolios = {stored_id(p): p for p in s.exec(select(Portfolio).where(col(Portfolio.id).in_(ids))).all()} \
        if ids else {}
    sources = _sources(s, portfolios)
    problems = _problems(s, portfolios)
    for pid in portfolios:
        if pid not in problems and sources.get(pid) is None:
            problems[pid] = advice.NO_TARGET
    snapshots = engine_inputs.build_snapshots(s, [pid for pid in ids if pid in portfolios and pid not in problems],
                                              portfolios)
    return TradeInputs(portfolios, sources, problems, snapshots)


def generate_all(inputs: TradeInputs) -> dict[int, tuple[int | None, Trades | CalculationError]]:
    """portfolio id -> (source target portfolio id, the trades or why there are none); no I/O."""
    out: dict[int, tuple[int | None, Trades | CalculationError]] = {}
    for pid in sorted(inputs.portfolios):
        source = inputs.sources.get(pid)
        source_id = source.id if source else None
        if pid in inputs.problems:
            out[pid] = (source_id, CalculationError("requirements", inputs.problems[pid]))
            continue
        snapshot = inputs.snapshots.get(pid)
        if isinstance(snapshot, CalculationError) or snapshot is None:
            out[pid] = (source_id, snapshot or CalculationError("missing", advice.NO_MODEL))
            continue
        try:
            assert source is not None and source.result is not None  # else a problem (NO_TARGET) above
            out[pid] = (source_id, generate_trades_to_stored(snapshot, orjson.loads(source.result)))
        except CalculationError as exc:
            out[pid] = (source_id, exc)
        except Exception as exc:
            log.exception("trade recommendations of investment %s failed", pid)
            out[pid] = (source_id, CalculationError("internal", f"The calculation failed: {exc.__class__.__name__}"))
    return out


def compute_trades(s: Session, portfolio_ids: Iterable[int]) -> dict[int, tuple[int | None, Trades | CalculationError]]:
    return generate_all(load_trade_inputs(s, portfolio_ids))


def instruction_rows(pid: int, version: int, tp_id: int | None, trades: Trades | CalculationError, *,
                     actor_id: int | None, run_id: int | None,
                     now: datetime) -> tuple[Columns, list[Columns], list[Columns]]:
    """The rows (as dicts of columns) storing one generation: the instruction, its transactions
    and its notes (the caller sets trade_instruction_id on the children)."""
    head: Columns = dict(investment_id=pid, target_portfolio_id=tp_id, version=version, validated=False, bulk_run_id=run_id,
                created_by=actor_id, moderator_id=actor_id, created_at=now, updated_at=now, row_version=1,
                auto_approve_at=None)
    if isinstance(trades, CalculationError):
        return {**head, "status": TIStatus.FAILED.value, "error_message": trades.message, "payload": None}, [], []
    head.update(status=TIStatus.PENDING_VALIDATION.value, error_message=None,
                payload=json_text({"buys": str(trades.buys), "sells": str(trades.sells),
                                   "brokerage": str(trades.brokerage),
                                   "min_trade_amount": str(trades.min_trade_amount)}))
    txs = [dict(
        asset_id=t.asset_id, asset_code=t.code, action=t.action, status=TxStatus.DRAFT.value, decision=None,
        user_action=None, quantity=t.units, price=t.price, asset_price=t.last_close_price, limit_price=t.limit_price,
        value=t.value, fee=t.brokerage, cost_base=t.cost_base, amount=t.amount, pending=t.pending,
        initial_quantity=t.units, initial_price=t.price, current_units=t.current_units, full_sell=t.full_sell,
        stop_loss=t.stop_loss, urgent=t.urgent, updated_at=now,
        payload=json_text({"limit_price": str(t.limit_price) if t.limit_price is not None else None,
                           "recommendation_action": t.recommendation_action, "comment": t.comment,
                           "manual_trade_decision": False, "target_units": str(t.target_units),
                           "str_on_ti_generation": {"action": t.recommendation_action, "comment": t.comment,
                                                    "text": t.str_on_ti_generation}}),
    ) for t in trades.transactions]
    notes = [dict(
        asset_id=n.asset_id, source=n.source, state=NoteState.PENDING_VALIDATION.value, decision=None, updated_at=now,
        payload=json_text({"code": n.code, "text": n.text, "action": n.action,
                           "units": str(n.units) if n.units is not None else None,
                           "price": str(n.price) if n.price is not None else None,
                           "value": str(n.value) if n.value is not None else None,
                           "recommendation_action": n.recommendation_action, "comment": n.comment,
                           "custom_holding_id": n.custom_holding_id}),
    ) for n in trades.notes]
    return head, txs, notes


def _store(s: Session, head: Columns, txs: list[Columns], notes: list[Columns],
           actor_id: int | None) -> TradeInstruction:
    ti = TradeInstruction(**head)
    s.add(ti)
    s.flush()
    for row in txs:
        s.add(TradeTransaction(trade_instruction_id=stored_id(ti), **row))
    for row in notes:
        s.add(TradeNote(trade_instruction_id=stored_id(ti), **row))
    _history(s, stored_id(ti), actor_id, "calculated" if ti.status != TIStatus.FAILED.value else "calculation failed",
             ti.error_message)
    s.flush()
    return ti


def generate(*, actor: Actor, investment_ids: Sequence[int]) -> list[InstructionPayload]:
    """POST /api/investments-generate-ti: the payloads of generate_views."""
    return [instruction_payload(v) for v in generate_views(actor=actor, investment_ids=investment_ids)]


def generate_views(*, actor: Actor, investment_ids: Sequence[int]) -> list[TradeInstructionView]:
    """New trade recommendations for each portfolio (each in its own transaction, so one failing
    portfolio never stops the others); an id of 0 (sent as no id) refuses the request."""
    ids = list(investment_ids)
    if not ids or any(i <= 0 for i in ids):
        raise ValidationError(advice.SELECT_INVESTMENT)
    with session_scope() as s:  # another firm's portfolio refuses the whole request, before any is calculated
        if set(s.exec(select(Portfolio.id).where(col(Portfolio.id).in_(ids), readable_portfolios(actor))).all()) != set(ids):
            raise NotFound(PORTFOLIO_NOT_FOUND)
    out = []
    for pid in dict.fromkeys(ids):
        with session_scope() as s:
            p = load_portfolio(s, actor, pid, lock=True)
            check = calculation_check(s, actor, p)
            require(check.offered)
            if not check.allowed:  # refused before calculating: nothing is stored
                raise ValidationError(check.reason if len(ids) == 1 else f"{p.name}: {check.reason}")
            pid = stored_id(p)
            tp_id, trades = compute_trades(s, [pid])[pid]
            head, txs, notes = instruction_rows(pid, next_versions(s, [pid], TradeInstruction)[pid], tp_id, trades,
                                                actor_id=actor.id, run_id=None, now=utcnow())
            ti = _store(s, head, txs, notes, actor.id)
            out.append(_view(s, actor, p, ti))
    return out


# ---- reading: the typed read model, from the rows -----------------------------------------------
def _figure(value: object) -> Decimal | None:
    """A number of a stored payload (written as text); None when there is none."""
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def capital_gains(*, actor: Actor, ti_id: int) -> AdviceTax | None:
    """The capital gains of trade recommendations' sells (those not declined), each with the
    parcels it takes under the portfolio's tax treatment, the total beside "Minimise capital gains
    tax", and the waits that would tax less (None when they sell nothing). Whoever may read them."""
    from app.services import tax_reports

    with session_scope() as s:
        p, ti = _instruction(s, actor, ti_id, reading=True)
        sells: list[tuple[int, str, Decimal, Decimal]] = []
        for t in s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id)
                        .order_by(col(TradeTransaction.asset_code))).all():
            price = t.limit_price or t.price or t.asset_price
            if side_of(t.action) == "SELL" and t.decision != "declined" and t.asset_id and t.quantity and price:
                sells.append((t.asset_id, t.asset_code, t.quantity, price))
        return tax_reports.advice_estimate(s, p, sells) if sells else None


def trade_line(t: TradeTransaction) -> TradeLine:
    payload = stored_trade(t.payload)
    at_generation = payload.get("str_on_ti_generation") or {}
    return TradeLine(
        id=stored_id(t), asset_id=t.asset_id, code=t.asset_code, action=t.action, status=TxStatus(t.status),
        decision=t.decision, user_action=t.user_action, quantity=t.quantity, price=t.price, asset_price=t.asset_price,
        limit_price=t.limit_price, value=t.value, fee=t.fee, cost_base=t.cost_base, amount=t.amount,
        pending=t.pending, initial_quantity=t.initial_quantity, initial_price=t.initial_price,
        current_units=t.current_units, full_sell=t.full_sell, stop_loss=t.stop_loss, urgent=t.urgent,
        approved_at=t.approved_at, declined_at=t.declined_at,
        recommendation_action=at_generation.get("action") or payload.get("recommendation_action") or "",
        recommendation_comment=at_generation.get("comment") or "", payload=payload,
    )


def note_line(n: TradeNote) -> TradeNoteLine:
    payload = stored_note(n.payload)
    return TradeNoteLine(
        id=stored_id(n), asset_id=n.asset_id, source=n.source, state=n.state, decision=n.decision,
        code=payload.get("code") or "", text=payload.get("text") or "", action=payload.get("action"),
        units=_figure(payload.get("units")), price=_figure(payload.get("price")), value=_figure(payload.get("value")),
        comment=payload.get("comment") or "", recommendation_action=str(payload.get("recommendation_action") or ""),
        payload=payload,
    )


def instruction_summary(ti: TradeInstruction, names: Mapping[int, PersonName]) -> TradeInstructionSummary:
    payload = json.loads(ti.payload) if ti.payload else None
    figures = payload or {}
    return TradeInstructionSummary(
        id=stored_id(ti), investment_id=ti.investment_id, target_portfolio_id=ti.target_portfolio_id,
        version=ti.version, status=TIStatus(ti.status), validated=ti.validated, error_message=ti.error_message,
        row_version=ti.row_version, buys=_figure(figures.get("buys")), sells=_figure(figures.get("sells")),
        brokerage=_figure(figures.get("brokerage")), min_trade_amount=_figure(figures.get("min_trade_amount")),
        payload=payload, auto_approve_at=ti.auto_approve_at, **trail_of(ti, dict(names)),
    )


def _permissions(check: CalculationCheck, *, read_only: bool = False, edit: bool = False, validate: bool = False,
                 approve: bool = False) -> TradePermissions:
    """The actor's permissions on an instruction, with Calculate's from calculation_check."""
    return TradePermissions(read_only=read_only, edit=edit, validate=validate, approve=approve,
                            calculate_offered=check.offered, calculate=check.allowed,
                            calculate_reason=check.reason if check.offered else "")


def _facts_and_flags(s: Session, actor: Actor, p: Portfolio, ti: TradeInstruction,
                     txs: list[TradeTransaction], notes: list[TradeNote]) -> tuple[PortfolioFacts, TradePermissions]:
    facts = portfolio_facts(s, actor, p)
    newest = s.exec(select(TradeInstruction.id).where(TradeInstruction.investment_id == p.id)
                    .order_by(col(TradeInstruction.version).desc())).first()
    read_only = newest != ti.id
    pending = any(t.status in PENDING_TX and t.decision is None for t in txs) or any(
        n.state == NoteState.VALIDATED.value and n.decision is None for n in notes)
    editable = advice.can_edit_ti(actor, ti.status, read_only)
    return facts, _permissions(
        calculation_check(s, actor, p, facts), read_only=read_only, edit=editable,
        validate=editable and ti.status == TIStatus.PENDING_VALIDATION.value,
        approve=ti.status in (TIStatus.PENDING_APPROVAL.value,) and advice.can_approve_ti(actor, facts, pending, read_only))


def _view(s: Session, actor: Actor, p: Portfolio, ti: TradeInstruction) -> TradeInstructionView:
    txs = list(s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id)
                      .order_by(col(TradeTransaction.id))).all())
    notes = list(s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)
                        .order_by(col(TradeNote.id))).all())
    names = person_names(s, trail_people([ti]))
    _, permissions = _facts_and_flags(s, actor, p, ti, txs, notes)
    return TradeInstructionView(
        instruction=instruction_summary(ti, names), investment_id=stored_id(p), investment_name=p.name,
        investment_inactive=p.inactive,
        transactions=tuple(trade_line(t) for t in txs if t.status != TxStatus.DELETED.value),
        notes=tuple(note_line(n) for n in notes), permissions=permissions,
    )


def view(*, actor: Actor, investment_id: int, version: int | None = None) -> TradeInstructionView | None:
    """The portfolio's trade recommendations the actor is shown (shown_instruction): the version
    asked for (404 when there is none; 0 names none), else the newest; None when none was generated."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        ti = shown_instruction(s, actor, p, version)
        if ti is None:
            if version is not None:
                raise NotFound(TI_NOT_FOUND)
            return None
        return _view(s, actor, p, ti)


def calculation_permissions(*, actor: Actor, investment_id: int) -> TradePermissions:
    """What the actor may do on a portfolio before any trade recommendations: only Calculate (001 s6)."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        return _permissions(calculation_check(s, actor, p))


def portfolio_permissions(*, actor: Actor, investment_id: int) -> tuple[TPPermissions, TradePermissions]:
    """What a portfolio's holdings screen offers: the target portfolio's permissions (Calculate) and
    Calculate trade recommendations', read in one session from one load of the portfolio and its
    facts (as advice_display.permissions and calculation_permissions would read them twice)."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        facts = portfolio_facts(s, actor, p)
        return TPPermissions.of(actor, facts), _permissions(calculation_check(s, actor, p, facts))


def versions(*, actor: Actor, investment_id: int, limit: int | None = None,
             offset: int | None = None) -> Page[TradeInstructionSummary]:
    """One page of the portfolio's versions the actor may see, newest first, and how many there are."""
    limit_, offset_ = listing.page(limit, offset, default=advice.VERSION_PAGE_SIZES[0])
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        total = s.execute(sa_select(func.count()).where(col(TradeInstruction.investment_id) == p.id,
                                                        client_visible_instructions(actor))).scalar_one()
        rows = s.exec(select(TradeInstruction).where(TradeInstruction.investment_id == p.id, client_visible_instructions(actor))
                      .order_by(col(TradeInstruction.version).desc()).limit(limit_).offset(offset_)).all()
        names = person_names(s, [u for r in rows for u in (r.created_by, r.validated_by, r.approved_by, r.declined_by)])
        return Page(rows=tuple(instruction_summary(r, names) for r in rows), total=int(total))


def history_entries(*, actor: Actor, ti_id: int, offset: int | None = 0) -> Page[TradeHistoryEntry]:
    """The action history of a trade instruction, 10 per page, newest first."""
    limit_, offset_ = listing.page(advice.HISTORY_PAGE_SIZE, offset, default=advice.HISTORY_PAGE_SIZE)
    with session_scope() as s:
        ti = _instruction(s, actor, ti_id, reading=True)[1]
        total = s.execute(sa_select(func.count()).where(col(TradeAction.trade_instruction_id) == ti.id)).scalar_one()
        rows = s.exec(select(TradeAction).where(TradeAction.trade_instruction_id == ti.id)
                      .order_by(col(TradeAction.created_at).desc(), col(TradeAction.id).desc()).limit(limit_).offset(offset_)).all()
        names = person_names(s, [r.actor_id for r in rows])
        return Page(rows=tuple(TradeHistoryEntry(id=stored_id(r), action=r.action, detail=r.detail,
                                                 created_at=r.created_at, actor=names.get(r.actor_id or 0))
                               for r in rows), total=int(total))


# ---- the API's payloads of the read model ---------------------------------------------------------
@dataclass(frozen=True)
class PersonRef:
    first_name: str
    last_name: str


def _person(name: PersonName | None) -> PersonRef | None:
    return None if name is None else PersonRef(first_name=name.first_name, last_name=name.last_name)


def _digits(value: Decimal | None) -> str | None:
    """A stored figure as the payloads have always written it (str: the digits as read)."""
    return None if value is None else str(value)


@dataclass(frozen=True)
class TradePayload:
    """A trade as the API answers it: its figures as text (the digits as stored), its payload as
    stored."""
    id: int
    asset_id: int
    asset_code: str
    action: str
    display_action: str
    status: TxStatus
    status_label: str
    decision: str | None
    user_action: str | None
    quantity: str
    price: str
    asset_price: str | None
    limit_price: str | None
    value: str
    fee: str
    cost_base: str | None
    amount: str
    pending: str
    initial_quantity: str | None
    initial_price: str | None
    current_units: str | None
    full_sell: bool
    stop_loss: bool
    urgent: bool
    approved_at: datetime | None
    declined_at: datetime | None
    payload: StoredTrade


@dataclass(frozen=True)
class NotePayload:
    id: int
    asset_id: int | None
    source: str
    state: str
    decision: str | None
    payload: StoredNote


@dataclass(frozen=True)
class InstructionSummaryPayload:
    """A version of the trade recommendations as the API lists it, with who took it where and when."""
    id: int
    investment_id: int
    target_portfolio_id: int | None
    version: int
    status: TIStatus
    status_label: str
    validated: bool
    error_message: str | None
    row_version: int
    payload: Mapping[str, Json] | None
    auto_approve_at: datetime | None
    created_at: datetime | None
    validated_at: datetime | None
    approved_at: datetime | None
    declined_at: datetime | None
    creator: PersonRef | None
    validator: PersonRef | None
    approver: PersonRef | None
    decliner: PersonRef | None
    moderator: PersonRef | None


@dataclass(frozen=True)
class InvestmentRef:
    id: int
    name: str
    inactive: bool


@dataclass(frozen=True)
class InstructionPayload(InstructionSummaryPayload):
    """The trade recommendations as the API answers them: the version, its portfolio, its live
    trades and notes, and what the actor may do; a change's answer adds its message."""
    investment: InvestmentRef
    transactions: tuple[TradePayload, ...]
    notes: tuple[NotePayload, ...] = field(metadata=wire("tradeRecommendationNotes"))
    actor_label: str
    permissions: TradePermissions
    message: str | None = field(default=None, metadata=only_when_set())


@dataclass(frozen=True)
class HistoryPayload:
    id: int
    action: str
    detail: str | None
    created_at: datetime | None
    actor: PersonRef | None


@dataclass(frozen=True)
class CalculationCheck:
    """Whether the actor may calculate trade recommendations of a portfolio (calculation_check)."""
    offered: bool
    allowed: bool
    reason: str


def trade_payload(t: TradeLine) -> TradePayload:
    return TradePayload(
        id=t.id, asset_id=t.asset_id, asset_code=t.code, action=t.action, display_action=t.side, status=t.status,
        status_label=t.status_label, decision=t.decision, user_action=t.user_action, quantity=str(t.quantity),
        price=str(t.price), asset_price=_digits(t.asset_price), limit_price=_digits(t.limit_price), value=str(t.value),
        fee=str(t.fee), cost_base=_digits(t.cost_base), amount=str(t.amount), pending=str(t.pending),
        initial_quantity=_digits(t.initial_quantity), initial_price=_digits(t.initial_price),
        current_units=_digits(t.current_units), full_sell=t.full_sell, stop_loss=t.stop_loss, urgent=t.urgent,
        approved_at=t.approved_at, declined_at=t.declined_at, payload=t.payload)


def summary_payload(ti: TradeInstructionSummary) -> InstructionSummaryPayload:
    return InstructionSummaryPayload(
        id=ti.id, investment_id=ti.investment_id, target_portfolio_id=ti.target_portfolio_id, version=ti.version,
        status=ti.status, status_label=ti.status_label, validated=ti.validated, error_message=ti.error_message,
        row_version=ti.row_version, payload=ti.payload, auto_approve_at=ti.auto_approve_at,
        created_at=ti.created_at, validated_at=ti.validated_at, approved_at=ti.approved_at,
        declined_at=ti.declined_at, creator=_person(ti.creator), validator=_person(ti.validator),
        approver=_person(ti.approver), decliner=_person(ti.decliner), moderator=_person(ti.moderator))


def instruction_payload(v: TradeInstructionView, message: str | None = None) -> InstructionPayload:
    """The instruction as the API gives it; a change's result adds its message."""
    return InstructionPayload(
        **vars(summary_payload(v.instruction)),  # the summary's fields as they are (shallow), then its own
        investment=InvestmentRef(id=v.investment_id, name=v.investment_name, inactive=v.investment_inactive),
        transactions=tuple(trade_payload(t) for t in v.transactions),
        notes=tuple(NotePayload(id=n.id, asset_id=n.asset_id, source=n.source, state=n.state, decision=n.decision,
                                payload=n.payload) for n in v.notes),
        actor_label=v.instruction.actor_label, permissions=v.permissions, message=message or None)


def get(*, actor: Actor, investment_id: int, version: int | None = None) -> InstructionPayload | None:
    """GET /investments/{id}/trade-instructions: the view's payload (None when none was generated)."""
    found = view(actor=actor, investment_id=investment_id, version=version)
    return None if found is None else instruction_payload(found)


def list_versions(*, actor: Actor, investment_id: int, limit: int | None = None,
                  offset: int | None = None) -> Page[InstructionSummaryPayload]:
    found = versions(actor=actor, investment_id=investment_id, limit=limit, offset=offset)
    return Page(rows=tuple(summary_payload(r) for r in found.rows), total=found.total)


def history(*, actor: Actor, ti_id: int, offset: int | None = 0) -> Page[HistoryPayload]:
    found = history_entries(actor=actor, ti_id=ti_id, offset=offset)
    return Page(rows=tuple(HistoryPayload(id=r.id, action=r.action, detail=r.detail, created_at=r.created_at,
                                          actor=_person(r.actor)) for r in found.rows), total=found.total)


# ---- changes ------------------------------------------------------------------------------------
def _instruction(s: Session, actor: Actor, ti_id: int, *, lock: bool = False,
                 reading: bool = False) -> tuple[Portfolio, TradeInstruction]:
    """The instruction and its portfolio if the actor may see them (404 otherwise); when reading,
    a client does not see one still pending validation (changes are refused by the role rules)."""
    ti = s.get(TradeInstruction, ti_id)
    if ti is None or (reading and actor.role is Role.CLIENT and ti.status in STAFF_ONLY_TI):
        raise NotFound(TI_NOT_FOUND)
    p = load_portfolio(s, actor, ti.investment_id, lock=lock)
    return p, ti


def _bump(s: Session, ti: TradeInstruction, row_version: int | None, **values: object) -> None:
    """The instruction's changed columns, if it is still at `row_version` (None: the one read; 0,
    sent as no number, is none); a Conflict otherwise."""
    expected = ti.row_version if row_version is None else row_version
    done: CursorResult[tuple[int]] = s.execute(  # type: ignore[assignment]  # an UPDATE's result counts rows
        update(TradeInstruction).where(col(TradeInstruction.id) == ti.id, col(TradeInstruction.row_version) == expected)
        .values(row_version=(expected or 0) + 1, updated_at=utcnow(), **values))
    if done.rowcount != 1:
        raise Conflict(advice.EDITED_ELSEWHERE)
    s.expire(ti)


def _current(ti: TradeInstruction, row_version: int | None) -> None:
    """A request made against an older copy of the instruction (a repeat click, another tab) is
    refused as a conflict before anything else is looked at, so nothing it asks for happens twice."""
    if row_version is not None and row_version != ti.row_version:
        raise Conflict(advice.EDITED_ELSEWHERE)


def _editable(s: Session, actor: Actor, p: Portfolio, ti: TradeInstruction) -> None:
    txs = list(s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id)).all())
    _, flags = _facts_and_flags(s, actor, p, ti, txs, [])
    if not flags.edit:
        raise PermissionDenied(advice.TI_NOT_EDITABLE)


def validate(*, actor: Actor, ti_id: int, row_version: int | None = None) -> InstructionPayload:
    return instruction_payload(validate_view(actor=actor, ti_id=ti_id, row_version=row_version),
                               advice.TRADES_VALIDATED)


def validate_view(*, actor: Actor, ti_id: int, row_version: int | None = None) -> TradeInstructionView:
    """Validates the instruction (validate_instruction) and shows it as it now stands."""
    with session_scope() as s:
        p, ti = validate_instruction(s, actor=actor, ti_id=ti_id, row_version=row_version)
        return _view(s, actor, p, ti)


def validate_instruction(s: Session, *, actor: Actor, ti_id: int,
                         row_version: int | None = None) -> tuple[Portfolio, TradeInstruction]:
    """Validates pending trade recommendations (001 s4), in the caller's transaction: the items
    move by the approval settings; an auto-approval deadline is set when one applies; the notices
    the approval switches ask for are queued (app.domain.notices)."""
    p, ti = _instruction(s, actor, ti_id, lock=True)
    _current(ti, row_version)
    _editable(s, actor, p, ti)
    settings = approval_settings(p)
    required = bool(settings.get("tr_approval_required", True))
    auto = str(settings.get("tr_auto_approval") or advice.AUTO_APPROVAL_NEVER)
    now = utcnow()
    decisions: list[str | None] = []
    for t in s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id,
                                                   TradeTransaction.status != TxStatus.DELETED.value)).all():
        payload = json.loads(t.payload) if t.payload else {}
        out = advice.validation_outcome(approval_required=required, auto_approval=auto,
                                        manual=bool(payload.get("manual_trade_decision")), cancel=False,
                                        is_note=False)
        t.status, t.decision, t.updated_at = out.status, out.decision, now
        if out.decision == "approved":
            t.approved_at = now
        decisions.append(out.decision)
        s.add(t)
    for n in s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all():
        out = advice.validation_outcome(approval_required=required, auto_approval=auto, manual=False,
                                        cancel=False, is_note=True)
        n.state, n.decision, n.updated_at = out.status, out.decision, now
        decisions.append(out.decision)
        s.add(n)
    status = advice.instruction_status(decisions) if decisions else TIStatus.APPROVED
    values: dict[str, object] = dict(status=status.value, validated=True, validated_by=actor.id, validated_at=now,
                                  moderator_id=actor.id,
                                  auto_approve_at=advice.auto_approve_deadline(auto, now)
                                  if status is TIStatus.PENDING_APPROVAL else None)
    if status is TIStatus.APPROVED:
        values.update(approved_by=actor.id, approved_at=now)
    _bump(s, ti, row_version, **values)
    _history(s, stored_id(ti), actor.id, "validated")
    s.refresh(ti)
    if status is TIStatus.PENDING_APPROVAL:
        notices.notify_trades(s, p=p, ti=ti, event=Event.TR_VALIDATED, actor_id=actor.id)
    else:
        event = notices.trades_event(status.value)
        if event is not None:
            notices.notify_trades(s, p=p, ti=ti, event=event, actor_id=actor.id)
    return p, ti


def decline_all(*, actor: Actor, ti_id: int, row_version: int | None = None) -> InstructionPayload:
    return instruction_payload(decline_all_view(actor=actor, ti_id=ti_id, row_version=row_version),
                               advice.TRADES_DECLINED)


def decline_all_view(*, actor: Actor, ti_id: int, row_version: int | None = None) -> TradeInstructionView:
    """'Decline all': transactions not valid, notes declined, validated false."""
    with session_scope() as s:
        p, ti = _instruction(s, actor, ti_id, lock=True)
        _current(ti, row_version)
        _editable(s, actor, p, ti)
        now = utcnow()
        for t in s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id,
                                                       TradeTransaction.status != TxStatus.DELETED.value)).all():
            out = advice.decline_all_outcome(False)
            t.status, t.decision, t.declined_at, t.updated_at = out.status, out.decision, now, now
            s.add(t)
        for n in s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all():
            out = advice.decline_all_outcome(True)
            n.state, n.decision, n.updated_at = out.status, out.decision, now
            s.add(n)
        _bump(s, ti, row_version, status=TIStatus.NOT_VALIDATED.value, validated=False, declined_by=actor.id,
              declined_at=now, moderator_id=actor.id, auto_approve_at=None)
        _history(s, stored_id(ti), actor.id, "declined all")
        s.refresh(ti)
        return _view(s, actor, p, ti)


def _apply_decisions(s: Session, ti: TradeInstruction, decisions: Mapping[int, str], note_decisions: Mapping[int, str],
                     now: datetime) -> None:
    for t in s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id)).all():
        decision = decisions.get(stored_id(t))
        if decision is None or t.status not in PENDING_TX or t.decision is not None:
            continue
        if t.status == TxStatus.PENDING_TO_CANCEL.value:
            t.decision = decision
        else:
            t.status, t.decision = (TxStatus.APPROVED.value, "approved") if decision == "approved" else (
                TxStatus.DECLINED.value, "declined")
        if decision == "approved":
            t.approved_at = now
        else:
            t.declined_at = now
        t.updated_at = now
        s.add(t)
    for n in s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all():
        decision = note_decisions.get(stored_id(n))
        if decision is None or n.state != NoteState.VALIDATED.value or n.decision is not None:
            continue
        n.state, n.decision, n.updated_at = decision, decision, now
        s.add(n)


def _item_decisions(s: Session, ti: TradeInstruction) -> list[str | None]:
    out: list[str | None] = [t.decision for t in s.exec(select(TradeTransaction).where(
        TradeTransaction.trade_instruction_id == ti.id, TradeTransaction.status != TxStatus.DELETED.value)).all()]
    out += [n.decision for n in s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all()]
    return out


def _clean_decisions(raw: SentDecisions) -> dict[int, str]:
    out: dict[int, str] = {}
    items: Iterable[tuple[object, object]] = raw.items() if isinstance(raw, Mapping) else (
        (r.get("id"), r.get("decision")) for r in (raw or []) if isinstance(r, Mapping))
    for sent_id, decision in items:
        key = as_id(sent_id)
        if key is None:
            continue
        if decision not in ("approved", "declined"):
            raise ValidationError(validators.DEFAULT)
        out[key] = str(decision)
    return out


def confirm(*, actor: Actor, ti_id: int, decisions: SentDecisions = None, notes: SentDecisions = None,
            is_approve_all: bool = False, row_version: int | None = None) -> InstructionPayload:
    return instruction_payload(confirm_view(actor=actor, ti_id=ti_id, decisions=decisions, notes=notes,
                                            is_approve_all=is_approve_all, row_version=row_version),
                               advice.TRADES_CONFIRMED)


def confirm_view(*, actor: Actor, ti_id: int, decisions: SentDecisions = None, notes: SentDecisions = None,
                 is_approve_all: bool = False, row_version: int | None = None) -> TradeInstructionView:
    """Confirms the decisions (confirm_instruction) and shows the instruction as it now stands."""
    with session_scope() as s:
        p, ti = confirm_instruction(s, actor=actor, ti_id=ti_id, decisions=decisions, notes=notes,
                                    is_approve_all=is_approve_all, row_version=row_version)
        return _view(s, actor, p, ti)


def confirm_instruction(s: Session, *, actor: Actor, ti_id: int, decisions: SentDecisions = None,
                        notes: SentDecisions = None, is_approve_all: bool = False,
                        row_version: int | None = None) -> tuple[Portfolio, TradeInstruction]:
    """The decisions on one instruction (PUT /api/reports/trade-recommendations-confirm for each),
    in the caller's transaction: each pending item gets the approved or declined decision given (or
    all approved with is_approve_all)."""
    p, ti = _instruction(s, actor, ti_id, lock=True)
    _current(ti, row_version)
    txs = list(s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id)).all())
    note_rows = list(s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all())
    facts, flags = _facts_and_flags(s, actor, p, ti, txs, note_rows)
    if not flags.approve:
        raise PermissionDenied(advice.NOTHING_PENDING if ti.status == TIStatus.PENDING_APPROVAL.value else NOT_ALLOWED)
    tx_decisions = _clean_decisions(decisions)
    note_decisions = _clean_decisions(notes)
    if is_approve_all:
        tx_decisions = {stored_id(t): "approved" for t in txs if t.status in PENDING_TX and t.decision is None}
        note_decisions = {stored_id(n): "approved" for n in note_rows
                          if n.state == NoteState.VALIDATED.value and n.decision is None}
    now = utcnow()
    _apply_decisions(s, ti, tx_decisions, note_decisions, now)
    s.flush()
    status = advice.instruction_status(_item_decisions(s, ti))
    values: dict[str, object] = dict(status=status.value, moderator_id=actor.id)
    if status in (TIStatus.APPROVED, TIStatus.PARTIALLY_APPROVED):
        values.update(approved_by=actor.id, approved_at=now, auto_approve_at=None)
    elif status is TIStatus.DECLINED:
        values.update(declined_by=actor.id, declined_at=now, auto_approve_at=None)
    _bump(s, ti, row_version, **values)
    _history(s, stored_id(ti), actor.id, "confirmed decisions",
             f"{sum(1 for d in tx_decisions.values() if d == 'approved')} approved, "
             f"{sum(1 for d in tx_decisions.values() if d == 'declined')} declined")
    s.refresh(ti)
    event = notices.trades_event(status.value)
    if event is not None:
        notices.notify_trades(s, p=p, ti=ti, event=event, actor_id=actor.id)
    return p, ti


def _min_trade_and_brokerage(s: Session, p: Portfolio) -> tuple[Decimal, Brokerage]:
    from app.db.tables import Firm

    firm = s.get(Firm, p.firm_id)
    method = EQUAL_AMOUNTS
    if p.model_id:
        model = s.get(Model, p.model_id)
        method = model.allocation_method if model else method
    amount = min_trade_amount_for(p.min_trade_amount, p.percentages_min_trade_amount, method)
    return amount, engine_inputs.brokerage_of(firm)


def _units_held(s: Session, p: Portfolio, asset_id: int) -> Decimal:
    return postings.position(s, p, asset_id).units


def _editable_transaction(s: Session, actor: Actor, tx_id: int) -> tuple[TradeTransaction, Portfolio, TradeInstruction]:
    """A trade of an instruction the actor may edit now, with its portfolio and instruction (locked)."""
    t = s.get(TradeTransaction, tx_id)
    if t is None:
        raise NotFound(TX_NOT_FOUND)
    p, ti = _instruction(s, actor, t.trade_instruction_id, lock=True)
    _editable(s, actor, p, ti)
    return t, p, ti


def update_transaction(*, actor: Actor, tx_id: int, quantity: str | None = None,
                       price: str | None = None) -> TradePayload:
    return trade_payload(update_trade(actor=actor, tx_id=tx_id, quantity=quantity, price=price))


def update_trade(*, actor: Actor, tx_id: int, quantity: str | None = None, price: str | None = None) -> TradeLine:
    """Edits a transaction's units or price (as typed; None or empty: unchanged); value, brokerage,
    cost base and pending amount are recomputed with the engine's trade_figures (002 s4/s5)."""
    with session_scope() as s:
        t, p, ti = _editable_transaction(s, actor, tx_id)
        new_quantity = t.quantity if quantity in (None, "") else _decimal(quantity, "quantity")
        new_price = t.price if price in (None, "") else _decimal(price, "price")
        if t.action == DECREASE and new_quantity > _units_held(s, p, t.asset_id):
            raise ValidationError(NOT_ENOUGH_ASSETS, fields={"quantity": NOT_ENOUGH_ASSETS})
        minimum, brokerage = _min_trade_and_brokerage(s, p)
        figures = trade_figures(t.action, new_quantity, new_price, brokerage, minimum, exempt=t.full_sell or t.urgent)
        action = advice.user_action_for(new_price != (t.initial_price or t.price),
                                        new_quantity != (t.initial_quantity or t.quantity))
        t.quantity, t.price = new_quantity, new_price
        t.value, t.fee, t.amount, t.cost_base, t.pending = (figures.value, figures.brokerage, figures.amount,
                                                            figures.cost_base, figures.pending)
        if t.user_action != "added":
            t.user_action = action
        t.updated_at = utcnow()
        s.add(t)
        _history(s, stored_id(ti), actor.id, "changed transaction", f"{t.asset_code}: {new_quantity} at {new_price}")
        _bump(s, ti, None, moderator_id=actor.id)
        return trade_line(t)


def _decimal(value: str | None, name: str) -> Decimal:
    try:
        number = Decimal(str(value).strip())
    except (ArithmeticError, ValueError):
        raise ValidationError(validators.NUMBER, fields={name: validators.NUMBER}) from None
    if not number.is_finite() or number <= 0:
        raise ValidationError(validators.POSITIVE, fields={name: validators.POSITIVE})
    return number


def add_transaction(*, actor: Actor, ti_id: int, code: str | None, action: str | None, quantity: str | None,
                    price: str | None = None) -> TradePayload:
    """Adds a transaction to trade recommendations being validated: the code is uppercased and
    must exist; it must not be in the instruction already ('Transaction already exists' when an
    identical one is pending); a sell cannot exceed the units held ('Not enough assets to sell')."""
    with session_scope() as s:
        p, ti = _instruction(s, actor, ti_id, lock=True)
        _editable(s, actor, p, ti)
        side = {"increase": INCREASE, "buy": INCREASE, "decrease": DECREASE, "sell": DECREASE}.get(
            str(action or "").lower())
        if side is None:
            raise ValidationError(validators.REQUIRED_SELECT.format(label="action"), fields={"action": "required"})
        code_text = str(code or "").strip().upper()
        # only an asset the portfolio's firm may use (the shared universe or the firm's own)
        asset = find_assets_by_codes(s, actor, [code_text], firm_id=p.firm_id).get(code_text) if code_text else None
        if asset is None:
            raise ValidationError(INVALID_CODE, fields={"code": INVALID_CODE})
        units = _decimal(quantity, "quantity")
        unit_price = asset.last_close_price if price in (None, "") else _decimal(price, "price")
        if unit_price is None:
            raise ValidationError(validators.REQUIRED.format(label="price"), fields={"price": "required"})
        existing = s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id,
                                                         TradeTransaction.asset_id == asset.id,
                                                         TradeTransaction.status != TxStatus.DELETED.value)).all()
        if any(e.action == side and e.quantity == units and e.price == unit_price for e in existing):
            raise ValidationError(advice.TRANSACTION_EXISTS)
        if existing:
            raise ValidationError(CODE_IN_USE.format(code=asset.code), fields={"code": CODE_IN_USE.format(code=asset.code)})
        held = _units_held(s, p, stored_id(asset))
        if side == DECREASE and units > held:
            raise ValidationError(NOT_ENOUGH_ASSETS, fields={"quantity": NOT_ENOUGH_ASSETS})
        minimum, brokerage = _min_trade_and_brokerage(s, p)
        figures = trade_figures(side, units, unit_price, brokerage, minimum)
        now = utcnow()
        t = TradeTransaction(
            trade_instruction_id=stored_id(ti), asset_id=stored_id(asset), asset_code=asset.code, action=side,
            status=TxStatus.DRAFT.value, user_action="added", quantity=units, price=unit_price,
            asset_price=asset.last_close_price, limit_price=None, value=figures.value, fee=figures.brokerage,
            cost_base=figures.cost_base, amount=figures.amount, pending=figures.pending, initial_quantity=units,
            initial_price=unit_price, current_units=held, full_sell=side == DECREASE and units == held, updated_at=now,
            payload=json.dumps({"recommendation_action": side_of(side), "comment": None,
                                "manual_trade_decision": False,
                                "str_on_ti_generation": {"action": None, "comment": None,
                                                         "text": str_on_generation(side_of(side), None)}}),
        )
        s.add(t)
        s.flush()
        _history(s, stored_id(ti), actor.id, "added transaction", f"{asset.code}: {units} at {unit_price}")
        _bump(s, ti, None, moderator_id=actor.id)
        return trade_payload(trade_line(t))


def delete_transaction(*, actor: Actor, tx_id: int) -> TradePayload:
    with session_scope() as s:
        t, p, ti = _editable_transaction(s, actor, tx_id)
        t.status, t.user_action, t.updated_at = TxStatus.DELETED.value, "deleted", utcnow()
        s.add(t)
        _history(s, stored_id(ti), actor.id, "deleted transaction", t.asset_code)
        _bump(s, ti, None, moderator_id=actor.id)
        return trade_payload(trade_line(t))


# ---- the auto-approval sweep ----------------------------------------------------------------------
def sweep_auto_approvals(now: datetime | None = None) -> int:
    """Approves the pending items of instructions whose auto-approval deadline has passed. Idempotent:
    an instruction leaves the sweep's reach once approved. Returns how many instructions moved."""
    now = now or utcnow()
    moved = 0
    with session_scope() as s:
        due = s.exec(select(col(TradeInstruction.id)).where(col(TradeInstruction.auto_approve_at).is_not(None),
                                                            col(TradeInstruction.auto_approve_at) <= now,
                                                            TradeInstruction.status == TIStatus.PENDING_APPROVAL.value)).all()
    for ti_id in due:
        with session_scope() as s:
            ti = s.exec(select(TradeInstruction).where(TradeInstruction.id == ti_id).with_for_update()).first()
            if ti is None or ti.status != TIStatus.PENDING_APPROVAL.value:
                continue
            txs = s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id)).all()
            notes = s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all()
            _apply_decisions(s, ti,
                             {stored_id(t): "approved" for t in txs if t.status in PENDING_TX and t.decision is None},
                             {stored_id(n): "approved" for n in notes
                              if n.state == NoteState.VALIDATED.value and n.decision is None},
                             now)
            s.flush()
            status = advice.instruction_status(_item_decisions(s, ti))
            _bump(s, ti, None, status=status.value, approved_at=now, auto_approve_at=None)
            _history(s, stored_id(ti), None, "approved automatically")
            s.refresh(ti)
            event = notices.trades_event(status.value, automatic=True)
            p = s.get(Portfolio, ti.investment_id)
            if event is not None and p is not None:
                notices.notify_trades(s, p=p, ti=ti, event=event, actor_id=None)
            moved += 1
    return moved
