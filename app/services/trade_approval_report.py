"""The trade recommendations report's approval view (spec 001 s2-s9): an adviser's newest trade
recommendations across their portfolios, item by item, to validate and to decide in bulk.

- Whose: a superuser picks an active adviser; advisers load their own portfolios; administrators
  their firm's portfolios (each instruction says whether the actor may act on it: the
  permissible-instruction rules of 001 s6 - advisers on active portfolios or as holders, or where
  nothing was calculated yet; administrators only as holders; the superuser always).
- Status filters (001 s9): spv (Pending validation, default off), spa (Pending approval, default
  off), sad (approved, partially approved or declined, default on).
- Validate and confirm act on many instructions at once through the trade instructions service
  (the same rules as the portfolio's own screen), each instruction in its own transaction.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Callable, Iterable, Mapping, Sequence

from sqlalchemy import ColumnElement, func, select as sa_select
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.types import stored_id
from app.db.tables import (
    AssetTransaction, Portfolio, PortfolioUser, TargetPortfolio, TargetPortfolioComment, TradeInstruction, TradeNote,
    TradeTransaction, User,
)
from app.domain import advice
from app.domain.engine.trade_file import FILTER_NOT_FOUND
from app.domain.advice.target_portfolios import PortfolioFacts, TPStatus
from app.domain.advice.trade_instructions import PENDING_TX, NoteState, TIStatus, TxStatus, stored_note, stored_trade
from app.domain.errors import DomainError, NotFound, PermissionDenied, ValidationError, not_found
from app.domain.permissions import NOT_ALLOWED, Actor
from app.domain.roles import Role
from app.domain.timezones import file_day
from app.domain.transactions import ASSET_PANEL_LABELS, Status
from app.services import trade_instructions as tis
from app.services.advice_queries import shown_instruction, tp_commentaries
from app.domain.parsing import as_id
from app.services.tenancy import load_portfolio, readable_portfolios

ADVISER_NOT_FOUND = not_found("Adviser")
SELECT_ADVISER = "Select an adviser"
STATUS_FILTERS: dict[str, tuple[str, ...]] = {
    "spv": (TIStatus.PENDING_VALIDATION.value,),
    "spa": (TIStatus.PENDING_APPROVAL.value,),
    "sad": (TIStatus.APPROVED.value, TIStatus.PARTIALLY_APPROVED.value, TIStatus.DECLINED.value,
            TIStatus.NOT_VALIDATED.value),
}
DEFAULT_STATUS_FILTERS = ("sad",)
STATUS_FILTER_LABELS = {"spv": "Pending validation", "spa": "Pending approval", "sad": "Approved / Declined"}
ORDERS = ("investment_name", "status", "created_at")


@dataclass
class ApprovalItem:
    """One row of the approval report (001 s3 'Approval report row')."""

    trade_inst_id: int
    ti_status: str
    ti_status_label: str
    ti_count: int
    inactive: bool
    is_holder: bool
    item_type: int            # 1 transaction, 2 note
    tr_id: int | None
    tr_status: str | None
    tr_status_label: str
    tr_declined_at: datetime | None
    tr_approved_at: datetime | None
    str_id: int | None        # the note's id
    state: str | None
    source: str | None
    decision: str | None
    investment_id: int
    investment_name: str
    asset_code: str
    action: str               # BUY | SELL | NOTE
    quantity: Decimal | None
    price: Decimal | None
    value: Decimal | None
    text: str
    pending: bool             # awaits a decision


@dataclass
class ApprovalGroup:
    """A portfolio's newest trade recommendations with what the actor may do with them."""

    trade_inst_id: int
    investment_id: int
    investment_name: str
    status: str
    status_label: str
    row_version: int
    created_at: datetime
    inactive: bool
    is_holder: bool
    can_validate: bool
    can_approve: bool
    items: list[ApprovalItem] = field(default_factory=list)


def parse_statuses(raw: Iterable[str] | None) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(r.strip().lower() for r in (raw or []) if r.strip()))
    if not chosen:
        return DEFAULT_STATUS_FILTERS
    unknown = [c for c in chosen if c not in STATUS_FILTERS]
    if unknown:
        raise ValidationError(FILTER_NOT_FOUND)
    return chosen


def read_adviser(value: str | None) -> int | None:
    """The adviser a report is asked for, as a query or the screen's select sends it: None for
    every adviser (nothing sent), else the id; 0 for text that names no one (not found)."""
    if value is None or not value.strip():
        return None
    return as_id(value) or 0


def _adviser_scope(s: Session, actor: Actor, adviser: int | None) -> ColumnElement[bool] | None:
    """The WHERE clause of the portfolios the report reads (None: a superuser chose no adviser)."""
    alive = col(Portfolio.deleted_at).is_(None)
    if actor.role is Role.CLIENT:
        raise PermissionDenied(NOT_ALLOWED)
    if actor.is_superuser:
        if adviser is None:
            return None
        u = s.get(User, adviser) if adviser else None
        if u is None or u.role != Role.ADVISER.value or u.status != "active":
            raise NotFound(ADVISER_NOT_FOUND)
        return alive & (col(Portfolio.adviser_id) == adviser)
    if actor.role is Role.ADVISER:
        if adviser is not None and adviser != actor.id:
            raise NotFound(ADVISER_NOT_FOUND)
        return alive & (col(Portfolio.adviser_id) == actor.id)
    # administrator: the firm's portfolios, or one of its advisers'
    clause = readable_portfolios(actor)  # an administrator's: the live portfolios of the firm
    if adviser is not None:
        u = s.get(User, adviser) if adviser else None
        if u is None or u.firm_id != actor.firm_id or u.role != Role.ADVISER.value:
            raise NotFound(ADVISER_NOT_FOUND)
        clause = clause & (col(Portfolio.adviser_id) == adviser)
    return clause


def permissible(actor: Actor, facts: PortfolioFacts, has_instructions: bool = True) -> bool:
    """001 s6: advisers - active portfolios or holders, or none calculated yet; administrators -
    holder portfolios only; the superuser - all."""
    if actor.is_superuser:
        return True
    if actor.role is Role.ADVISER:
        return (not facts.inactive) or facts.actor_is_holder or not has_instructions
    if actor.role is Role.ADMINISTRATOR:
        return facts.actor_is_holder
    return False


def _order_statuses(s: Session, trade_ids: list[int]) -> dict[int, str]:
    """trade id -> the status of the broker order carrying it out: executed once filled, processing
    (Placed) while live; trades without an order (or whose order the broker rejected) are left out."""
    if not trade_ids:
        return {}
    found: dict[int, str] = {}
    for trade_id, status in s.execute(
            sa_select(col(AssetTransaction.trade_transaction_id), col(AssetTransaction.status))
            .where(col(AssetTransaction.trade_transaction_id).in_(trade_ids),
                   col(AssetTransaction.status).in_((Status.EXECUTED.value, Status.PROCESSING.value)))).all():
        if found.get(trade_id) != Status.EXECUTED.value:
            found[trade_id] = status
    return found


def _tx_label(t: TradeTransaction, order_status: str | None) -> str:
    """An approved trade reads as its order does once one is placed (Placed, Executed), never
    'Approved' after it went to the broker."""
    if t.status == TxStatus.APPROVED.value and order_status is not None:
        return ASSET_PANEL_LABELS[Status(order_status)]
    return str(advice.TX_LABELS[TxStatus(t.status)])


def _tx_item(group: ApprovalGroup, p: Portfolio, t: TradeTransaction, count: int,
             order_status: str | None = None) -> ApprovalItem:
    payload = stored_trade(t.payload)
    return ApprovalItem(
        trade_inst_id=group.trade_inst_id, ti_status=group.status, ti_status_label=group.status_label,
        ti_count=count, inactive=p.inactive, is_holder=group.is_holder, item_type=1, tr_id=t.id, tr_status=t.status,
        tr_status_label=_tx_label(t, order_status), tr_declined_at=t.declined_at,
        tr_approved_at=t.approved_at, str_id=None, state=None, source=None, decision=t.decision,
        investment_id=stored_id(p), investment_name=p.name, asset_code=t.asset_code,
        action=advice.side_of(t.action), quantity=t.quantity, price=t.price, value=t.value,
        text=str((payload.get("str_on_ti_generation") or {}).get("text") or ""),
        pending=t.status in PENDING_TX and t.decision is None)


def _note_item(group: ApprovalGroup, p: Portfolio, n: TradeNote, count: int) -> ApprovalItem:
    payload = stored_note(n.payload)
    return ApprovalItem(
        trade_inst_id=group.trade_inst_id, ti_status=group.status, ti_status_label=group.status_label,
        ti_count=count, inactive=p.inactive, is_holder=group.is_holder, item_type=2, tr_id=None, tr_status=None,
        tr_status_label=n.state.replace("_", " ").capitalize(), tr_declined_at=None, tr_approved_at=None,
        str_id=n.id, state=n.state, source=n.source, decision=n.decision, investment_id=stored_id(p),
        investment_name=p.name, asset_code=str(payload.get("code") or ""), action="NOTE", quantity=None, price=None,
        value=None, text=str(payload.get("text") or ""),
        pending=n.state == NoteState.VALIDATED.value and n.decision is None)


def build(s: Session, actor: Actor, clause: ColumnElement[bool], statuses: tuple[str, ...],
          order: str = "investment_name") -> list[ApprovalGroup]:
    wanted = [v for key in statuses for v in STATUS_FILTERS[key]]
    newest = (sa_select(col(TradeInstruction.investment_id), func.max(col(TradeInstruction.version)).label("v"))
              .join(Portfolio, col(Portfolio.id) == TradeInstruction.investment_id).where(clause)
              .group_by(col(TradeInstruction.investment_id)).subquery())
    found = s.exec(select(TradeInstruction, Portfolio)
                   .join(newest, (newest.c.investment_id == TradeInstruction.investment_id)
                         & (newest.c.v == TradeInstruction.version))
                   .join(Portfolio, col(Portfolio.id) == TradeInstruction.investment_id)
                   .where(col(TradeInstruction.status).in_(wanted))).all()
    if not found:
        return []
    ti_ids = [stored_id(ti) for ti, _ in found]
    pids = [stored_id(p) for _, p in found]
    txs: dict[int, list[TradeTransaction]] = {}
    for t in s.exec(select(TradeTransaction).where(col(TradeTransaction.trade_instruction_id).in_(ti_ids),
                                                   TradeTransaction.status != TxStatus.DELETED.value)
                    .order_by(col(TradeTransaction.id))).all():
        txs.setdefault(t.trade_instruction_id, []).append(t)
    orders = _order_statuses(s, [stored_id(t) for rows in txs.values() for t in rows
                                 if t.status == TxStatus.APPROVED.value])
    notes: dict[int, list[TradeNote]] = {}
    for n in s.exec(select(TradeNote).where(col(TradeNote.trade_instruction_id).in_(ti_ids))
                    .order_by(col(TradeNote.id))).all():
        notes.setdefault(n.trade_instruction_id, []).append(n)
    links = {r.investment_id: r for r in s.exec(select(PortfolioUser).where(
        col(PortfolioUser.investment_id).in_(pids), PortfolioUser.user_id == actor.id)).all()}
    approved_tp = set(s.execute(sa_select(col(TargetPortfolio.investment_id)).where(
        col(TargetPortfolio.investment_id).in_(pids), TargetPortfolio.status == TPStatus.ACTIVE.value).distinct()).scalars())
    approved_ti = set(s.execute(sa_select(col(TradeInstruction.investment_id)).where(
        col(TradeInstruction.investment_id).in_(pids),
        col(TradeInstruction.status).in_([TIStatus.APPROVED.value, TIStatus.PARTIALLY_APPROVED.value])).distinct()).scalars())
    groups: list[ApprovalGroup] = []
    for ti, p in found:
        pid, ti_id = stored_id(p), stored_id(ti)
        link = links.get(pid)
        facts = PortfolioFacts(inactive=p.inactive, has_approved_tp=pid in approved_tp,
                               has_approved_ti=pid in approved_ti, actor_is_owner=bool(link and link.is_owner),
                               actor_is_holder=link is not None, has_model=p.model_id is not None)
        allowed = permissible(actor, facts)
        t_rows, n_rows = txs.get(ti_id, []), notes.get(ti_id, [])
        pending = any(t.status in PENDING_TX and t.decision is None for t in t_rows) or any(
            n.state == NoteState.VALIDATED.value and n.decision is None for n in n_rows)
        status = TIStatus(ti.status)
        group = ApprovalGroup(
            trade_inst_id=ti_id, investment_id=pid, investment_name=p.name, status=ti.status,
            status_label=advice.TI_LABELS[status], row_version=ti.row_version, created_at=ti.created_at,
            inactive=p.inactive, is_holder=link is not None,
            can_validate=allowed and advice.can_edit_ti(actor, ti.status),
            can_approve=allowed and status is TIStatus.PENDING_APPROVAL and advice.can_approve_ti(actor, facts, pending))
        count = len(t_rows) + len(n_rows)
        group.items.extend(_tx_item(group, p, t, count, orders.get(stored_id(t))) for t in t_rows)
        group.items.extend(_note_item(group, p, n, count) for n in n_rows)
        groups.append(group)
    key = {"status": lambda g: (g.status_label, g.investment_name.lower()),
           "created_at": lambda g: (g.created_at, g.investment_name.lower())}.get(order, lambda g: g.investment_name.lower())
    groups.sort(key=key, reverse=order == "created_at")
    return groups


def generate(*, actor: Actor, adviser: int | None = None, order: str | None = None,
             statuses: Iterable[str] | None = None) -> list[ApprovalGroup]:
    """GET /api/reports/trade-recommendations-generate."""
    chosen = parse_statuses(statuses)
    order_ = order if order in ORDERS else "investment_name"
    with session_scope() as s:
        clause = _adviser_scope(s, actor, adviser)
        if clause is None:
            return []
        return build(s, actor, clause, chosen, order_)


def read_instruction_ids(raw: Iterable[object] | None) -> list[int]:
    """The trade recommendations a request names (ids, or objects with an id), in order, once each;
    an id that names none is not found."""
    out = []
    for item in raw or []:
        value = item.get("id") if isinstance(item, Mapping) else item
        tid = as_id(value)
        if tid is None:
            raise NotFound(tis.TI_NOT_FOUND)
        out.append(tid)
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class Decisions:
    """A confirmation as sent: each instruction's decisions on its trades ({id, decision} items or
    trade id -> decision, checked by the trade recommendations service) and the decisions on notes."""

    trades: Mapping[int, tis.SentDecisions]
    notes: Mapping[int, str]


def read_decisions(items: Iterable[object] | None, notes: Iterable[object] | None) -> Decisions:
    """The confirm body's instructions ({id, transactions: [{id, decision}]}, or bare ids) and notes
    ([{id, decision}]), read once at the edge; an instruction id that names none is not found."""
    trades: dict[int, tis.SentDecisions] = {}
    for item in items or []:
        if isinstance(item, Mapping):
            [tid] = read_instruction_ids([item])
            sent = item.get("transactions") or item.get("decisions") or []
            trades[tid] = sent if isinstance(sent, (Mapping, list, tuple)) else []
        else:
            [tid] = read_instruction_ids([item])
            trades.setdefault(tid, [])
    on_notes: dict[int, str] = {}
    for n in notes or []:
        if isinstance(n, Mapping):
            nid = as_id(n.get("id"))
            if nid is not None:
                on_notes[nid] = str(n.get("decision"))
    return Decisions(trades, on_notes)


@dataclass
class BulkOutcome:
    message: str
    done: list[int]
    failed: dict[int, str]


def _require_visible(actor: Actor, ids: list[int]) -> None:
    """Every instruction named must be one the actor may see, before any is touched: a request
    naming another firm's is refused whole (404), not half done."""
    with session_scope() as s:
        seen = set(s.exec(select(TradeInstruction.id).join(Portfolio, col(Portfolio.id) == TradeInstruction.investment_id)
                          .where(col(TradeInstruction.id).in_(ids), readable_portfolios(actor))).all())
    if seen != set(ids):
        raise NotFound(tis.TI_NOT_FOUND)


def _one_by_one(ids: list[int], act: Callable[[Session, int], object]) -> tuple[list[int], dict[int, str]]:
    """`act` on each instruction in its own transaction: those done, and each refused one's text. An
    instruction not found stops it all (404); when none is done, the first refusal is the answer."""
    done: list[int] = []
    failed: dict[int, str] = {}
    for ti_id in ids:
        try:
            with session_scope() as s:
                act(s, ti_id)
            done.append(ti_id)
        except NotFound:
            raise
        except DomainError as exc:
            failed[ti_id] = exc.message
    if not done:
        raise ValidationError(next(iter(failed.values())))
    return done, failed


def validate(*, actor: Actor, trade_instructions: Sequence[int]) -> BulkOutcome:
    """PUT /api/reports/trade-recommendations-validate: validates each instruction (each in its
    own transaction; one that cannot be validated is reported, the others go ahead)."""
    ids = list(dict.fromkeys(trade_instructions))
    if not ids:
        raise ValidationError(advice.SELECT_INVESTMENT)
    _require_visible(actor, ids)
    done, failed = _one_by_one(ids, lambda s, ti_id: tis.validate_instruction(s, actor=actor, ti_id=ti_id))
    return BulkOutcome(advice.TRADES_VALIDATED, done, failed)


def confirm(*, actor: Actor, decisions: Decisions, is_approve_all: bool = False) -> BulkOutcome:
    """PUT /api/reports/trade-recommendations-confirm: each instruction's decisions on its trades
    and any instruction's notes, or every pending item approved with is_approve_all."""
    ids = list(decisions.trades)
    if not ids:
        raise ValidationError(advice.SELECT_INVESTMENT)
    _require_visible(actor, ids)
    note_decisions = decisions.notes
    with session_scope() as s:
        note_owner: dict[int, int] = {nid: tid for nid, tid in s.execute(
            sa_select(col(TradeNote.id), col(TradeNote.trade_instruction_id))
            .where(col(TradeNote.id).in_(list(note_decisions)))).all()} if note_decisions else {}

    def decide(s: Session, ti_id: int) -> None:
        mine = {nid: d for nid, d in note_decisions.items() if note_owner.get(nid) == ti_id}
        tis.confirm_instruction(s, actor=actor, ti_id=ti_id, decisions=decisions.trades.get(ti_id) or [],
                                notes=mine, is_approve_all=bool(is_approve_all))

    done, failed = _one_by_one(ids, decide)
    return BulkOutcome(advice.TRADES_APPROVED if is_approve_all else advice.TRADES_CONFIRMED, done, failed)


# ---- exports ----------------------------------------------------------------------------------------
@dataclass
class ReportFile:
    name: str
    data: bytes
    media_type: str


def export(*, actor: Actor, file_format: str, adviser: int | None = None, order: str | None = None,
           statuses: Iterable[str] | None = None, mode: str | None = None, client_offset: int = 0) -> ReportFile:
    """/api/reports/trade-instructions-export-excel (mode standart | simple) and -pdf: the approval
    report as the screen shows it."""
    from app.db.types import utcnow
    from app.exports import trade_recommendations as out
    offset = client_offset
    groups = generate(actor=actor, adviser=adviser, order=order, statuses=statuses)
    now = utcnow()
    who = ""
    with session_scope() as s:
        aid = adviser if actor.is_superuser or actor.role is Role.ADMINISTRATOR else actor.id
        u = s.get(User, aid) if aid else None
        who = f"{u.first_name} {u.last_name}" if u else "All advisers"
    subtitle = f"Adviser: {who}"
    day = file_day(now, offset)
    if file_format == "pdf":
        return ReportFile(f"Trade Recommendations - {who} - {day}.pdf",
                          out.pdf(groups, offset=offset, subtitle=subtitle, now=now), out.PDF)
    variant = mode or out.STANDARD
    # the two Excel variants download under their own names: '... - Simple - ...' for the simple one
    kind = "Trade Recommendations - Simple" if variant == out.SIMPLE else "Trade Recommendations"
    return ReportFile(f"{kind} - {who} - {day}.xlsx", out.xlsx(groups, mode=variant, offset=offset), out.XLSX)


def portfolio_export(*, actor: Actor, investment_id: int, file_format: str, version: int | None = None,
                     client_offset: int = 0) -> ReportFile:
    """One portfolio's trade recommendations (the newest, or a version) as Excel or PDF, from the
    trade instructions screen. Clients never receive recommendations still pending validation."""
    from app.db.types import utcnow
    from app.exports import trade_recommendations as out
    from app.exports.file_names import safe_name
    offset = client_offset
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        # the same visibility as the trade instructions screen
        ti = shown_instruction(s, actor, p, version)
        if ti is None:
            raise NotFound(tis.TI_NOT_FOUND)
        groups = [g for g in build(s, actor, col(Portfolio.id) == p.id, tuple(STATUS_FILTERS), "investment_name")
                  if g.trade_inst_id == ti.id]
        if not groups:  # an older version: build() reads the newest; read this one alone
            groups = _one(s, actor, p, ti)
        name = p.name
        from app.services import firms  # the firm's letterhead and branding: what its client receives
        head, brand = firms.letterhead_for(s, p.firm_id, p.adviser_id), firms.branding_for(s, p.firm_id)
        comments = _commentaries(s, ti)
    now = utcnow()
    stem = f"{safe_name(name)} - Trade Recommendations v{ti.version} - {file_day(now, offset)}"
    if file_format == "pdf":
        return ReportFile(f"{stem}.pdf", out.pdf(groups, offset=offset, title=f"Trade Recommendations - {name}",
                                                 subtitle=f"Version {ti.version}", now=now, letterhead=head,
                                                 colour=brand.colour, footer=brand.footer,
                                                 commentaries=comments), out.PDF)
    return ReportFile(f"{stem}.xlsx", out.xlsx(groups, offset=offset, commentaries=comments), out.XLSX)


def _commentaries(s: Session, ti: TradeInstruction) -> tuple[tuple[str, str], ...]:
    """(type, stored text) of the commentary of the target portfolio the recommendations came from."""
    row = s.get(TargetPortfolio, ti.target_portfolio_id) if ti.target_portfolio_id else None
    if row is None:
        return ()
    own = list(s.exec(select(TargetPortfolioComment).where(TargetPortfolioComment.tp_id == row.id)
                      .order_by(col(TargetPortfolioComment.id))).all())
    return tuple((c.type, c.description) for c in tp_commentaries(s, row, own) if c.description)


def _one(s: Session, actor: Actor, p: Portfolio, ti: TradeInstruction) -> list[ApprovalGroup]:
    group = ApprovalGroup(trade_inst_id=stored_id(ti), investment_id=stored_id(p), investment_name=p.name,
                          status=ti.status,
                          status_label=advice.TI_LABELS[TIStatus(ti.status)], row_version=ti.row_version,
                          created_at=ti.created_at, inactive=p.inactive, is_holder=False, can_validate=False,
                          can_approve=False)
    rows = s.exec(select(TradeTransaction).where(TradeTransaction.trade_instruction_id == ti.id,
                                                 TradeTransaction.status != TxStatus.DELETED.value)
                  .order_by(col(TradeTransaction.id))).all()
    orders = _order_statuses(s, [stored_id(t) for t in rows if t.status == TxStatus.APPROVED.value])
    group.items.extend(_tx_item(group, p, t, len(rows), orders.get(stored_id(t))) for t in rows)
    return [group]
