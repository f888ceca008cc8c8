"""The cash report (reports.cash) and the pending target portfolios report
(reports.pending-target-portfolios), with their Excel and PDF exports (spec 002 s2/s7/s9).

Cash report: one row per portfolio with its current target portfolio in the chosen status(es)
(default Approved). For Approved that is the portfolio's last approved target portfolio (the one
in force, even when a newer calculation waits for validation); for any other status it is the
portfolio's newest target portfolio when it has that status (an older draft superseded by a newer
calculation is no longer current). With several statuses chosen, the newest matching one. A row
shows the portfolio, its owners, adviser and model, the target portfolio's status label and date
(approved, validated or declined at; calculated at for drafts), the portfolio value the target was
calculated on, the current cash (executed cash transactions), the cash after the target's trades
and the minimum cash (both from the target's stored result), and the cash to invest: current cash
less the minimum cash (positive: cash that can be invested; negative: cash to raise).
totalAmount is the sum of the current cash; `totals` sums every money column.

Pending target portfolios report: one row per portfolio whose newest target portfolio is pending -
Validation Required (draft), Not Enough Cash (a draft so flagged), Approval Required (validated)
or Calculation Error (with its message) - with the date it was calculated, who calculated it, the
days it has been waiting, its value and status. `notEnoughCash=1` keeps only the Not Enough Cash
ones. totalAmount is the sum of the values.

Both: superusers see every firm ('-1', All firms) or the firm they choose; everyone else their own
firm (another firm's id is not found, 404); clients may not use reports (403). Statuses a role does
not see on the target portfolio screens stay out (administrators see only Approval Required,
Approved and Declined ones: advice.visible_tp_statuses). availableStatuses lists the statuses
present (before the status filter) for the screen's filter. Page sizes 20, 50, 100 (default 100):
`limit` and `offset` page the rows; without `limit` the REST call answers every row, as the
specification's loaders do. Default sorts: cash report portfolio_name ascending, pending report
date descending.

Reads are a fixed number of queries for the whole scope, whatever the number of portfolios: the
figures inside the stored result are read by the database (JSON functions), never by loading
each portfolio's result.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Generic, Iterable, Sequence, TypeVar

from sqlalchemy import ColumnElement, Row, Subquery, and_, case, func, or_, select as sa_select
from sqlalchemy.orm import Mapped
from sqlmodel import Session, col

from app.db.engine import session_scope
from app.db.tables import Firm, Model, Portfolio, TargetPortfolio
from app.db.types import utcnow
from app.domain.advice.target_portfolios import (
    NOT_ENOUGH_CASH, TP_KEY_LABELS, TPStatus, tp_status_key, visible_tp_statuses,
)
from app.domain.errors import ValidationError
from app.domain.money import to_cents
from app.domain.permissions import Actor
from app.domain.timezones import days_between
from app.services import listing, postings
from app.services.advice_queries import owner_names, result_text, user_names
from app.services.tenancy import readable_portfolios
from app.services.trade_file import report_firm

CASH, PENDING = "cash", "pending"
ALL_FIRMS = "-1"
ZERO = Decimal(0)

# ---- report statuses: the target portfolio statuses, a draft flagged Not Enough Cash on its own ---
STATUS_ORDER = (TPStatus.DRAFT.value, NOT_ENOUGH_CASH, TPStatus.VALIDATED.value, TPStatus.ACTIVE.value,
                TPStatus.DECLINED.value, TPStatus.FAILED.value)
CASH_STATUSES = (TPStatus.DRAFT.value, NOT_ENOUGH_CASH, TPStatus.VALIDATED.value, TPStatus.ACTIVE.value,
                 TPStatus.DECLINED.value)  # a Calculation Error has no figures
PENDING_STATUSES = (TPStatus.DRAFT.value, NOT_ENOUGH_CASH, TPStatus.VALIDATED.value, TPStatus.FAILED.value)
CASH_DEFAULT_STATUSES = (TPStatus.ACTIVE.value,)  # spec 002 s9: cash report default status approved
_ALIASES = {"approved": TPStatus.ACTIVE.value, "calculation_error": TPStatus.FAILED.value,
            "validation_required": TPStatus.DRAFT.value, "approval_required": TPStatus.VALIDATED.value,
            "not_enough": NOT_ENOUGH_CASH}
UNKNOWN_STATUS = "Unknown target portfolio status"
UNKNOWN_FILE_TYPE = "Unknown file type"
FILE_TYPES = ("xlsx", "pdf")

CASH_SORTS = ("portfolio_name", "firm", "owners", "adviser", "model", "status", "date", "value", "cash",
              "placed_buys", "cash_after", "min_cash", "cash_to_invest")
PENDING_SORTS = ("portfolio_name", "firm", "owners", "adviser", "model", "status", "date", "calculated_by",
                 "days_waiting", "value")
DEFAULT_SORTS = {CASH: ("portfolio_name", "asc"), PENDING: ("date", "desc")}
TARGET_ROUTE = "portfolios.target-portfolio"


def status_label(key: str) -> str:
    return TP_KEY_LABELS[key]


# ---- rows -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ReportRow:
    """What both reports show of a portfolio and its target portfolio."""

    investment_id: int
    portfolio_name: str
    firm_id: int
    firm: str
    owners: str
    adviser: str
    model: str
    tp_id: int
    version: int
    status: str                 # report status key (see STATUS_ORDER)
    status_label: str


@dataclass(frozen=True, slots=True)
class CashRow(ReportRow):
    date: datetime              # approved / validated / declined at; calculated at for drafts
    value: Decimal | None       # the portfolio value the target was calculated on
    cash: Decimal               # executed cash balance now
    cash_after: Decimal | None  # after the target's trades (its stored result)
    min_cash: Decimal | None
    cash_to_invest: Decimal | None  # cash - placed buys - min_cash: positive to invest, negative to raise
    placed_buys: Decimal = ZERO     # committed to buys with the broker, not executed yet (postings.committed_to_orders)


@dataclass(frozen=True, slots=True)
class PendingRow(ReportRow):
    not_enough_cash: bool
    error_message: str | None
    date: datetime              # calculated at
    calculated_by: str
    days_waiting: int
    value: Decimal | None


R = TypeVar("R", bound=ReportRow)


@dataclass(frozen=True, slots=True)
class StatusOption:
    """A status the report's filter offers: its key and label."""
    value: str
    label: str


@dataclass(frozen=True)
class Report(Generic[R]):
    """A report (cash or pending, `kind`) as its screen, the REST answer and its files read it."""
    kind: str
    firm_id: int | None          # None: every firm the actor may see (a superuser's All firms)
    firm_name: str
    statuses: list[str]          # the status filter applied
    not_enough_cash: bool
    sort: str
    order: str
    rows: list[R]                # the page asked for (every row without a limit)
    count: int                   # rows in the whole report
    total_amount: Decimal
    totals: dict[str, Decimal]
    available_statuses: list[StatusOption]
    every_status: bool = False   # the filter holds every status the report offers
    offered_statuses: list[StatusOption] = field(default_factory=list)  # every status the actor may filter by
    generated_at: datetime = field(default_factory=utcnow)


@dataclass(frozen=True)
class ReportFile:
    name: str
    data: bytes
    media_type: str


# ---- parsing the query (at the edge: the API's query, the screen's filter) ----------------------------
def parse_statuses(raw: str | Sequence[str] | None, allowed: Sequence[str]) -> list[str] | None:
    """The status filter as sent: one value, a comma-separated list or a list of values (keys or
    labels, 'approved' for active); 'all': every status offered here (CASH_STATUSES or
    PENDING_STATUSES); nothing: None (the report's default). Unknown or not offered here:
    ValidationError."""
    values = [raw] if raw is None or isinstance(raw, str) else list(raw)
    chosen: list[str] = []
    for value in values:
        for part in str(value if value is not None else "").split(","):
            text = part.strip().lower().replace(" ", "_").replace("-", "_")
            if not text:
                continue
            if text == "all":
                return list(allowed)
            key = _ALIASES.get(text, text)
            if key not in allowed:
                raise ValidationError(UNKNOWN_STATUS, {"targetPortfolioStatus": UNKNOWN_STATUS})
            if key not in chosen:
                chosen.append(key)
    return chosen or None


def parse_sort(kind: str, sort: str | None, order: str | None) -> tuple[str, str]:
    """(sort key, asc|desc) from the whitelist; `sort` and `order` are also taken the other way
    round (order=portfolio_name&sort=asc)."""
    keys = CASH_SORTS if kind == CASH else PENDING_SORTS
    default_key, default_order = DEFAULT_SORTS[kind]
    s, o = str(sort or "").strip(), str(order or "").strip()
    if s.lower() in ("asc", "desc") and o in keys:
        s, o = o, s
    key = s if s in keys else default_key
    direction = o.lower() if o.lower() in ("asc", "desc") else (default_order if key == default_key else "asc")
    return key, direction


# ---- reading ----------------------------------------------------------------------------------------
def _money(value: Decimal | int | str | None) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        number = Decimal(value) if isinstance(value, (Decimal, int)) else Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return to_cents(number) if number.is_finite() else None


def _firms(s: Session, ids: Iterable[int]) -> dict[int, str]:
    wanted = set(ids)
    if not wanted:
        return {}
    found = s.execute(sa_select(col(Firm.id), col(Firm.name)).where(col(Firm.id).in_(wanted))).all()
    return {i: name for i, name in found}


def _latest(scope: ColumnElement[bool], *, with_approved: bool) -> Subquery:
    """Per portfolio in scope: its newest target portfolio version (and its last approved one)."""
    tp = TargetPortfolio
    columns: list[ColumnElement[int]] = [col(tp.investment_id).label("pid"), func.max(tp.version).label("newest")]
    if with_approved:
        columns.append(func.max(case((tp.status == TPStatus.ACTIVE.value, col(tp.version)),
                                     else_=None)).label("approved"))
    return (sa_select(*columns).join(Portfolio, col(Portfolio.id) == tp.investment_id).where(scope)
            .group_by(col(tp.investment_id)).subquery())


def _report_targets(s: Session, actor: Actor, firm_id: int | None, *columns: ColumnElement[Any] | Mapped[Any],
                    with_approved: bool, statuses: Sequence[str] | None = None) -> tuple[int | None, Sequence[Row[Any]]]:
    """The report's firm and the target portfolios it reads: of each portfolio the actor may read there,
    the newest version (and, `with_approved`, the last approved one), optionally only in `statuses`;
    each with `columns`, its portfolio's name, firm and adviser, and the name of its model (its own,
    else the portfolio's)."""
    fid = report_firm(s, actor, firm_id)
    readable: ColumnElement[bool] = readable_portfolios(actor, fid)
    latest = _latest(readable, with_approved=with_approved)
    tp = TargetPortfolio
    version = col(tp.version) == latest.c.newest
    if with_approved:
        version = or_(version, col(tp.version) == latest.c.approved)
    query = (
        sa_select(col(tp.id), col(tp.investment_id), col(tp.version), col(tp.status), col(tp.not_enough_cash),
                  col(tp.value), col(tp.created_at), latest.c.newest, *columns, col(Portfolio.name),
                  col(Portfolio.firm_id), col(Portfolio.adviser_id), col(Model.name).label("model_name"))
        .join(latest, and_(latest.c.pid == tp.investment_id, version))
        .join(Portfolio, col(Portfolio.id) == tp.investment_id)
        .outerjoin(Model, col(Model.id) == func.coalesce(tp.model_id, Portfolio.model_id))
    )
    if statuses is not None:
        query = query.where(col(tp.status).in_(statuses))
    return fid, s.execute(query).all()


def _visible_keys(actor: Actor, keys: Iterable[str]) -> set[str]:
    """The report statuses this actor's role sees on the target portfolio screens."""
    shown = visible_tp_statuses(actor)
    if shown is None:
        return set(keys)
    allowed = {s.value for s in shown}
    return {k for k in keys if (TPStatus.DRAFT.value if k == NOT_ENOUGH_CASH else k) in allowed}


def _available(keys: Iterable[str]) -> list[StatusOption]:
    present = set(keys)
    return [StatusOption(value=k, label=TP_KEY_LABELS[k]) for k in STATUS_ORDER if k in present]


def _sorted(rows: list[R], key: str, order: str) -> list[R]:
    """Rows by `key` (text case-insensitively; empty values last either way), then by name and id."""
    def value(row: R) -> Any:  # the column's value: text, a number, a day (compared among themselves)
        if key == "status":
            return STATUS_ORDER.index(row.status)
        v = getattr(row, key)
        return v.lower() if isinstance(v, str) else v

    rows = sorted(rows, key=lambda r: (r.portfolio_name.lower(), r.investment_id))
    filled = [r for r in rows if value(r) not in (None, "")]
    empty = [r for r in rows if value(r) in (None, "")]
    filled.sort(key=value, reverse=order == "desc")
    return filled + empty


def _page(rows: list[R], limit: int | None, offset: int | None) -> list[R]:
    if limit is None:
        return rows
    size, start = listing.page(limit, offset)
    return rows[start:start + size]


def _firm_label(s: Session, firm_id: int | None) -> str:
    if firm_id is None:
        return "All firms"
    firm = s.get(Firm, firm_id)
    return firm.name if firm else ""


def _status_date(status: str, created: datetime, validated: datetime | None, approved: datetime | None,
                 declined: datetime | None) -> datetime:
    moment = {TPStatus.ACTIVE.value: approved, TPStatus.VALIDATED.value: validated,
              TPStatus.DECLINED.value: declined}.get(status)
    return moment or created


def cash_report(*, actor: Actor, firm_id: int | None = None, statuses: Sequence[str] | None = None,
                sort: str | None = None, order: str | None = None, limit: int | None = None,
                offset: int | None = None) -> Report[CashRow]:
    """GET /api/target-portfolios-cash-report/generate (see the module's docstring): `firm_id` a
    superuser's firm (None: every firm; app.domain.parsing.firm_choice reads it as sent), `statuses`
    CASH_STATUSES keys (parse_statuses reads them as sent; None: Approved), `limit` None: every row."""
    wanted = list(statuses or CASH_DEFAULT_STATUSES)
    key, direction = parse_sort(CASH, sort, order)
    with session_scope() as s:
        tp = TargetPortfolio
        fid, found = _report_targets(s, actor, firm_id, col(tp.validated_at), col(tp.approved_at), col(tp.declined_at),
                                     result_text(s, "cash_after").label("cash_after"),
                                     result_text(s, "min_cash").label("min_cash"), with_approved=True)
        visible = _visible_keys(actor, CASH_STATUSES)
        present: set[str] = set()
        chosen: dict[int, Row[Any]] = {}  # portfolio id -> the newest matching target portfolio
        for r in found:
            k = tp_status_key(r.status, r.not_enough_cash)
            current = k == TPStatus.ACTIVE.value or r.version == r.newest
            if not current or k not in visible:
                continue
            present.add(k)
            if k in wanted and (r.investment_id not in chosen or r.version > chosen[r.investment_id].version):
                chosen[r.investment_id] = r
        ids = sorted(chosen)
        owners = owner_names(s, ids)
        advisers = user_names(s, (r.adviser_id for r in chosen.values()))
        firms = _firms(s, (r.firm_id for r in chosen.values()))
        balances = postings.cash_balances(s, ids)
        committed = postings.committed_to_orders(s, ids)
        rows: list[CashRow] = []
        for pid in ids:
            r = chosen[pid]
            k = tp_status_key(r.status, r.not_enough_cash)
            cash = to_cents(balances.get(pid, ZERO))
            placed_buys = to_cents(committed.get(pid, ZERO))
            min_cash = _money(r.min_cash)
            rows.append(CashRow(
                investment_id=pid, portfolio_name=r.name, firm_id=r.firm_id, firm=firms.get(r.firm_id, ""),
                owners=owners.get(pid, ""), adviser=advisers.get(r.adviser_id, ""), model=r.model_name or "",
                tp_id=r.id, version=r.version, status=k, status_label=TP_KEY_LABELS[k],
                date=_status_date(r.status, r.created_at, r.validated_at, r.approved_at, r.declined_at),
                value=_money(r.value), cash=cash, cash_after=_money(r.cash_after), min_cash=min_cash,
                cash_to_invest=None if min_cash is None else to_cents(cash - placed_buys - min_cash),
                placed_buys=placed_buys))
        firm_name = _firm_label(s, fid)
    rows = _sorted(rows, key, direction)
    totals = {name: to_cents(sum((getattr(r, name) or ZERO for r in rows), ZERO))
              for name in ("value", "cash", "placed_buys", "cash_after", "min_cash", "cash_to_invest")}
    return Report(kind=CASH, firm_id=fid, firm_name=firm_name, statuses=list(wanted), not_enough_cash=False, sort=key,
                  order=direction, rows=_page(rows, limit, offset), count=len(rows), total_amount=totals["cash"],
                  totals=totals, available_statuses=_available(present), every_status=set(wanted) == set(CASH_STATUSES),
                  offered_statuses=_available(visible))


def pending_report(*, actor: Actor, firm_id: int | None = None, statuses: Sequence[str] | None = None,
                   not_enough_cash: bool = False, sort: str | None = None, order: str | None = None,
                   limit: int | None = None, offset: int | None = None,
                   now: datetime | None = None) -> Report[PendingRow]:
    """GET /api/target-portfolios-pending-report/generate (see the module's docstring), as
    cash_report; `statuses` PENDING_STATUSES keys (None: every one)."""
    wanted = list(statuses) if statuses else None
    only_nec = not_enough_cash
    key, direction = parse_sort(PENDING, sort, order)
    now = now or utcnow()
    with session_scope() as s:
        tp = TargetPortfolio
        fid, found = _report_targets(s, actor, firm_id, col(tp.error_message), col(tp.created_by), with_approved=False,
                                     statuses=(TPStatus.DRAFT.value, TPStatus.VALIDATED.value, TPStatus.FAILED.value))
        visible = _visible_keys(actor, PENDING_STATUSES)
        present: set[str] = set()
        chosen: list[Row[Any]] = []
        for r in found:
            k = tp_status_key(r.status, r.not_enough_cash)
            if k not in visible:
                continue
            present.add(k)
            if _pending_match(k, wanted, only_nec):
                chosen.append(r)
        ids = sorted(r.investment_id for r in chosen)
        owners = owner_names(s, ids)
        people = user_names(s, [r.adviser_id for r in chosen] + [r.created_by for r in chosen])
        firms = _firms(s, (r.firm_id for r in chosen))
        rows = [PendingRow(
            investment_id=r.investment_id, portfolio_name=r.name, firm_id=r.firm_id, firm=firms.get(r.firm_id, ""),
            owners=owners.get(r.investment_id, ""), adviser=people.get(r.adviser_id, ""), model=r.model_name or "",
            tp_id=r.id, version=r.version, status=tp_status_key(r.status, r.not_enough_cash),
            status_label=TP_KEY_LABELS[tp_status_key(r.status, r.not_enough_cash)], not_enough_cash=bool(r.not_enough_cash),
            error_message=r.error_message, date=r.created_at, calculated_by=people.get(r.created_by, ""),
            days_waiting=days_between(r.created_at, now), value=_money(r.value)) for r in chosen]
        firm_name = _firm_label(s, fid)
    rows = _sorted(rows, key, direction)
    total = to_cents(sum((r.value or ZERO for r in rows), ZERO))
    return Report(kind=PENDING, firm_id=fid, firm_name=firm_name, statuses=list(wanted or []), not_enough_cash=only_nec,
                  sort=key, order=direction, rows=_page(rows, limit, offset), count=len(rows), total_amount=total,
                  totals={"value": total}, available_statuses=_available(present),
                  every_status=wanted is None or set(wanted) == set(PENDING_STATUSES), offered_statuses=_available(visible))


def drafts_with_advisers(*, actor: Actor, firm_id: int | None = None) -> int:
    """How many portfolios of the report's firm have a newest target portfolio still Validation
    Required that the actor's role is not shown (an administrator sees no drafts: they wait with the
    advisers); 0 for those who see drafts."""
    if TPStatus.DRAFT.value in _visible_keys(actor, (TPStatus.DRAFT.value,)):
        return 0
    with session_scope() as s:
        _, found = _report_targets(s, actor, firm_id, with_approved=False, statuses=(TPStatus.DRAFT.value,))
    return sum(1 for r in found if not r.not_enough_cash)


def _pending_match(key: str, wanted: list[str] | None, only_nec: bool) -> bool:
    """The status filter of the pending report; with notEnoughCash only Not Enough Cash rows
    (a status filter then still applies: Validation Required counts, Not Enough Cash being a draft)."""
    if only_nec:
        return key == NOT_ENOUGH_CASH and (wanted is None or NOT_ENOUGH_CASH in wanted
                                           or TPStatus.DRAFT.value in wanted)
    return wanted is None or key in wanted


# ---- exports --------------------------------------------------------------------------------------
def export(*, actor: Actor, kind: str, file_type: str | None, client_offset: int = 0, firm_id: int | None = None,
           statuses: Sequence[str] | None = None, not_enough_cash: bool = False, sort: str | None = None,
           order: str | None = None) -> ReportFile:
    """The whole report (every row, in the chosen sort, filtered as cash_report and pending_report
    are) as an Excel workbook or a PDF document, dates in the browser's offset in minutes
    (client-timezone-offset, read by app.domain.timezones.client_offset)."""
    from app.exports import advice_reports as out

    fmt = str(file_type or "").strip().lower()
    fmt = {"excel": "xlsx", "xls": "xlsx"}.get(fmt, fmt)
    if fmt not in FILE_TYPES:
        raise ValidationError(UNKNOWN_FILE_TYPE, {"fileType": UNKNOWN_FILE_TYPE})
    report: Report[CashRow] | Report[PendingRow]
    if kind == CASH:
        report = cash_report(actor=actor, firm_id=firm_id, statuses=statuses, sort=sort, order=order)
    else:
        report = pending_report(actor=actor, firm_id=firm_id, statuses=statuses, not_enough_cash=not_enough_cash,
                                sort=sort, order=order)
    name = out.filename(report, fmt, client_offset)
    if fmt == "xlsx":
        return ReportFile(name, out.xlsx(report, client_offset), out.XLSX)
    return ReportFile(name, out.pdf(report, client_offset), out.PDF)
