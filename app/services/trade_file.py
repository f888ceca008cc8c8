"""The trade file report (spec 001 s2-s9 'Trade file' view) and the broker files it exports.

Rows: every approved trade recommendation of the firm that is not executed yet, plus the orders
already placed with the broker (status Placed) so that the report shows what is live. A row's
type (New, Amend, Cancel, Maintain) and its auto-selection follow
`app.domain.engine.trade_file`; its quantity follows the trade file rules (pending amount below the
minimum trade becomes 0 and the row is hidden; market-order quantity from the amount and the last
close; full sells and stop losses keep their quantity).

Exporting a broker file places the exported trades: each becomes an asset transaction in status
processing (shown as Placed) linked to its recommendation, with the order's quantity, price and
expiry, in the same database transaction that builds the file. A trade already placed is not
placed again: a second export without `downloadAll` has nothing new to send and says so; with
`downloadAll` the live orders are written to the file again (and not duplicated in the book).

Reads are a fixed number of queries for the whole firm, whatever its size.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any, Iterable, Iterator, Mapping, Sequence, cast

import orjson
from sqlalchemy import ColumnElement, Row, func, select as sa_select
from sqlmodel import Session, col, select

from app.db import bulk
from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetTransaction, Broker, BrokerOrder, BrokerOrderVersion, Firm, Model, Portfolio, TargetPortfolio, TradeInstruction,
    TradeTransaction, User,
)
from app.db.types import stored_id, utcnow
from app.domain import orders as order_rules
from app.domain.advice.trade_instructions import TxStatus, side_of
from app.domain.engine import trade_file as rules
from app.domain.engine.limits import brokerage_fee, limits_for
from app.domain.engine.snapshot import DECREASE, INCREASE, Brokerage, PortfolioSettings
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.domain.ledger import NOT_ENOUGH_ASSETS
from app.domain.money import to_cents
from app.domain.permissions import NOT_ALLOWED, Actor, require_staff
from app.domain.roles import Role
from app.domain.transactions import Kind, Status
from app.services import audit, order_book, postings
from app.services.advice_queries import result_text
from app.services.engine_inputs import brokerage_of
from app.services.holdings import person_name
from app.domain.parsing import as_id
from app.services.tenancy import FIRM_NOT_FOUND, live_portfolios_of

ZERO = Decimal(0)
NO_BROKERAGE = Brokerage()  # a row whose firm is not read (never in practice): no fee, as brokerage_of(None)


# ---- who may see which firm -----------------------------------------------------------------------
def report_firm(s: Session, actor: Actor, firm_id: int | None) -> int | None:
    """The firm a report reads (app.domain.parsing.firm_choice reads it as sent): a superuser's
    choice (None: every firm; 0 names none), or the actor's own firm.
    Clients may not use reports (403); another firm's id from anyone else is not found (404)."""
    if actor.role is Role.CLIENT:
        raise PermissionDenied(NOT_ALLOWED)
    if actor.is_superuser:
        if firm_id is None:
            return None
        firm = s.get(Firm, firm_id) if firm_id else None
        if firm is None or firm.deleted_at is not None:
            raise NotFound(FIRM_NOT_FOUND)
        return stored_id(firm)
    if firm_id is not None and firm_id != actor.firm_id:
        raise NotFound(FIRM_NOT_FOUND)
    return actor.firm_id


# ---- rows -------------------------------------------------------------------------------------------
@dataclass(slots=True)
class TradeFileRow:
    """A row of the trade file report (001 s3 'Trade file recommendation row') with what the
    screen and the broker files need besides."""

    recommendation_id: int
    investment_id: int
    investment_name: str
    broker_id: int | None
    broker_name: str
    action: str                      # BUY | SELL
    instruction: str                 # the recommendation's action code at generation (BUY, SELL, SL/SELL ...)
    asset_code: str
    asset_id: int
    amount: Decimal
    pending_amount: Decimal          # after the minimum trade rule
    min_trade_amount: Decimal
    brokerage: Decimal
    limit_price: Decimal | None
    last_close_price: Decimal | None
    quantity: Decimal
    limit_vs_price_percentage: Decimal | None
    limit_vs_price_value: Decimal | None
    type: str                        # New | Amend | Cancel | Maintain
    status: str                      # Approved | Placed
    transaction_type: str            # market | limit | stop_loss
    asset_class_title: str
    asset_type_id: int | None
    adviser_id: int | None
    adviser_name: str
    firm_id: int
    hin: str
    broker_account: str
    hidden: bool
    selected: bool
    # the facts the trade file rules need again when the user adjusts
    raw_pending_amount: Decimal
    recommended_quantity: Decimal
    current_units: Decimal | None
    full_sell: bool
    stop_loss: bool
    urgent: bool
    placed_transaction_id: int | None = None
    expiry: date | None = None
    amends_order_id: int | None = None   # the live order an Amend or Cancel row changes

    def file_row(self) -> rules.FileRow:
        return rules.FileRow(action=INCREASE if self.action == "BUY" else DECREASE, amount=self.amount,
                             pending_amount=self.raw_pending_amount, brokerage=self.brokerage,
                             last_close_price=self.last_close_price, limit_price=self.limit_price,
                             quantity=self.recommended_quantity, min_trade_amount=self.min_trade_amount,
                             full_sell=self.full_sell, stop_loss=self.stop_loss, urgent=self.urgent,
                             current_units=self.current_units)


@dataclass(slots=True)
class CashSummaryRow:
    investment_id: int
    investment_name: str
    sumAmountBuyForPortfolio: Decimal
    sumAmountSellForPortfolio: Decimal
    sumCashAssets: Decimal
    minCashBalance: Decimal
    availableCash: Decimal                       # cash less the buys placed with the broker
    background: str | None = None
    text: str | None = None
    sumPlacedBuysForPortfolio: Decimal = ZERO   # buys with the broker, not executed yet


@dataclass
class TradeFile:
    firm_id: int | None
    rows: list[TradeFileRow] = field(default_factory=list)
    cash: list[CashSummaryRow] = field(default_factory=list)
    # by firm: the expiry an order placed today gets when none is chosen for it (None: good till
    # cancelled), which the report shows on the rows not placed yet
    default_expiry: dict[int, date | None] = field(default_factory=dict)


def _recommendation_action(text: str | None) -> str | None:
    """The recommendation's action code at generation (BUY, SELL, SL/SELL ...) that a trade's
    stored JSON keeps, if it keeps one."""
    if not text or "recommendation_action" not in text:  # most say nothing of it: not parsed
        return None
    try:
        payload = orjson.loads(text)
    except ValueError:  # orjson.JSONDecodeError is one
        return None
    action = payload.get("recommendation_action") if isinstance(payload, dict) else None
    return str(action) if action else None


_LIMIT_COLUMNS = ("min_trade_amount", "min_cash_allocation", "min_cash_allocation_value", "max_exposure",
                  "percentages_min_trade_amount", "percentages_min_cash_balance",
                  "percentages_min_cash_balance_value", "percentages_max_exposure")


def _columns(*columns: object) -> list[ColumnElement[Any]]:
    """Plain columns to select (SQLModel types a table's attributes as their Python values)."""
    return [cast("ColumnElement[Any]", col(c)) for c in columns]


def _limit_settings(p: Row[Any]) -> PortfolioSettings:
    return PortfolioSettings(
        min_trade_amount=p.min_trade_amount, min_cash_allocation=p.min_cash_allocation,
        min_cash_allocation_value=p.min_cash_allocation_value, max_exposure=p.max_exposure,
        percentages_min_trade_amount=p.percentages_min_trade_amount,
        percentages_min_cash_balance=p.percentages_min_cash_balance,
        percentages_min_cash_balance_value=p.percentages_min_cash_balance_value,
        percentages_max_exposure=p.percentages_max_exposure,
    )


def _decimal_or_none(value: object) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value))
    except (ArithmeticError, ValueError):
        return None


IDS_IN_QUERY = 1_000  # more chosen recommendations than this are filtered after reading the firm's


def build(s: Session, firm_id: int | None, *, today: date | None = None,
          only_ids: Iterable[int] | None = None, cash_summaries: bool = True) -> TradeFile:
    """The trade file of a firm (None: every firm), from the database, in a fixed number of queries.
    Without `cash_summaries` (the export, which writes only the rows) no portfolio's cash is read."""
    today = today or utcnow().date()
    # approved, not executed recommendations of live portfolios, with their instruction and portfolio
    tt = TradeTransaction  # plain columns, not ORM objects: a firm's file holds tens of thousands of rows
    stmt = (sa_select(*_columns(tt.id, tt.asset_id, tt.asset_code, tt.action, tt.amount, tt.pending, tt.fee,
                                tt.limit_price, tt.quantity, tt.current_units, tt.full_sell, tt.stop_loss, tt.urgent,
                                tt.payload, TradeInstruction.investment_id, TradeInstruction.target_portfolio_id))
            .join(TradeInstruction, col(TradeInstruction.id) == TradeTransaction.trade_instruction_id)
            .join(Portfolio, col(Portfolio.id) == TradeInstruction.investment_id)
            .where(live_portfolios_of(firm_id), col(TradeTransaction.status) == TxStatus.APPROVED.value))
    wanted = None if only_ids is None else set(only_ids)
    if wanted is not None and len(wanted) <= IDS_IN_QUERY:
        stmt = stmt.where(col(TradeTransaction.id).in_(sorted(wanted)))
    # a firm's whole selection is filtered here rather than sent as tens of thousands of parameters
    found = [(row, row.investment_id, row.target_portfolio_id)
             for row in s.execute(stmt.order_by(col(TradeTransaction.id))).all() if wanted is None or row.id in wanted]
    if not found:
        return TradeFile(firm_id)
    portfolio_ids = sorted({pid for _, pid, _ in found})
    pf = Portfolio  # plain columns again: ORM objects cost a firm of 10,000 portfolios seconds
    portfolios = {p.id: p for p in s.execute(sa_select(*_columns(
        pf.id, pf.name, pf.firm_id, pf.broker_id, pf.adviser_id, pf.model_id, pf.hin, pf.broker_account,
        *(getattr(pf, name) for name in _LIMIT_COLUMNS))).where(bulk.among(s, pf.id, portfolio_ids))).all()}
    asset_ids = {t.asset_id for t, *_ in found}
    assets = {a.id: a for a in s.execute(sa_select(*_columns(Asset.id, Asset.last_close_price, Asset.class_id,
                                                             Asset.type_id))
                                         .where(bulk.among(s, Asset.id, asset_ids))).all()}
    classes: dict[int, str] = {cid: title for cid, title in s.execute(
        sa_select(col(AssetClass.id), col(AssetClass.title))
        .where(col(AssetClass.id).in_({a.class_id for a in assets.values()}))).all()}
    brokers = {b.id: b for b in s.exec(select(Broker)).all()}
    adviser_names = {u.id: person_name(u) for u in s.exec(select(User).where(
        col(User.id).in_({p.adviser_id for p in portfolios.values() if p.adviser_id}))).all()}
    models: dict[int, str] = {mid: method for mid, method in s.execute(
        sa_select(col(Model.id), col(Model.allocation_method))
        .where(col(Model.id).in_({p.model_id for p in portfolios.values() if p.model_id}))).all()}
    tp_values: dict[int, Decimal] = {}
    tp_min_cash: dict[int, Decimal | None] = {}
    if cash_summaries:
        tp_values = {tid: value for tid, value in s.execute(
            sa_select(col(TargetPortfolio.id), col(TargetPortfolio.value)).where(
                bulk.among(s, TargetPortfolio.id, {tp for *_, tp in found if tp}))).all()}
        # the minimum cash the target portfolio screen and the cash report show (its own stored figure)
        tp_min_cash = {tid: _decimal_or_none(v) for tid, v in s.execute(
            sa_select(col(TargetPortfolio.id), result_text(s, "min_cash")).where(
                bulk.among(s, TargetPortfolio.id, {tp for *_, tp in found if tp}))).all()}
    # live orders (placed, not executed): by recommendation, and by portfolio + asset + side
    at = AssetTransaction
    placed_rows = s.execute(sa_select(*_columns(at.id, at.trade_transaction_id, at.investment_id, at.asset_id,
                                                at.action, at.quantity, at.limit_price, at.amount, at.expires_at)).where(
        bulk.among(s, at.investment_id, portfolio_ids), col(at.trade_transaction_id).is_not(None),
        col(at.status) == Status.PROCESSING.value)).all()
    placed = {r.trade_transaction_id: r for r in placed_rows}
    # the live orders (by portfolio and asset: a later trade amends or cancels them), and the later
    # recommendations an order already carries (placed with it)
    by_tx = {r.id: r for r in placed_rows}
    bo = BrokerOrder  # plain columns: a firm may have tens of thousands of orders with the broker
    open_orders = s.execute(sa_select(*_columns(bo.id, bo.investment_id, bo.asset_id, bo.side, bo.order_type,
                                                bo.quantity, bo.filled_quantity, bo.open_transaction_id))
                            .where(bulk.among(s, bo.investment_id, portfolio_ids),
                                   col(bo.status).in_(order_rules.OPEN_STATUSES)).order_by(col(bo.id))).all()
    live_orders: dict[tuple[int, int], Any] = {}
    for o in open_orders:
        live_orders.setdefault((o.investment_id, o.asset_id), o)
    carried_by: dict[int, int] = defaultdict(int)  # open transaction -> recommendations it carries
    for r in placed_rows:
        carried_by[r.id] += 1
    if open_orders:
        opens = {o.id: o.open_transaction_id for o in open_orders}
        for oid, rid in s.execute(sa_select(col(BrokerOrderVersion.order_id),
                                            col(BrokerOrderVersion.trade_transaction_id))
                                  .where(bulk.among(s, BrokerOrderVersion.order_id, list(opens)),
                                         col(BrokerOrderVersion.trade_transaction_id).is_not(None))).all():
            tx = by_tx.get(opens[oid])
            if tx is not None and rid not in placed:
                placed[rid] = tx
                carried_by[tx.id] += 1
    cash = postings.cash_balances(s, portfolio_ids) if cash_summaries else {}
    committed = postings.committed_to_orders(s, portfolio_ids) if cash_summaries else {}

    out = TradeFile(firm_id)
    if cash_summaries:
        out.default_expiry = {fid: order_rules.order_expiry(None, today=today, firm_days=days,
                                                            good_till_cancelled=bool(gtc))
                              for fid, days, gtc in s.execute(sa_select(
                                  col(Firm.id), col(Firm.order_expiry_days), col(Firm.order_good_till_cancelled))
                                  .where(col(Firm.id).in_({p.firm_id for p in portfolios.values()}))).all()}
    sums: dict[int, dict[str, Decimal]] = defaultdict(lambda: {"buy": ZERO, "sell": ZERO})
    min_cash: dict[int, Decimal] = {}
    min_trade: dict[int, Decimal] = {}
    for t, pid, tp_id in found:
        p = portfolios[pid]
        asset = assets.get(t.asset_id)
        if pid not in min_trade:  # the limits are the portfolio's: chosen once per portfolio
            method = models.get(p.model_id, "equal_amounts") if p.model_id else "equal_amounts"
            limits = limits_for(_limit_settings(p), method)
            min_trade[pid] = limits.min_trade_amount
            if cash_summaries:
                stored = tp_min_cash.get(tp_id)
                min_cash[pid] = stored if stored is not None else limits.min_cash(tp_values.get(tp_id) or ZERO)
        minimum = min_trade[pid]
        side = side_of(t.action)
        order = placed.get(t.id)
        base = rules.FileRow(action=t.action, amount=t.amount, pending_amount=t.pending, brokerage=t.fee,
                             last_close_price=asset.last_close_price if asset else None,
                             limit_price=t.limit_price, quantity=t.quantity, min_trade_amount=minimum,
                             full_sell=t.full_sell, stop_loss=t.stop_loss, urgent=t.urgent,
                             current_units=t.current_units)
        if order is not None:  # a placed row shows the order as sent: its price, market or limit
            base = replace(base, limit_price=order.limit_price)
        line = rules.file_line(base)
        quantity = line.quantity
        expiry = None
        live = None
        if order is not None:
            # the order's units (as whole units: the database keeps six places), unless it carries several
            quantity = rules.whole_units(Decimal((order.quantity or quantity) if carried_by[order.id] <= 1
                                                 else t.quantity))
            expiry = order.expires_at.date() if order.expires_at else None
            row_type = rules.row_type(placed=True, expired=bool(expiry and expiry < today),
                                      live_order_same_asset=False)
        else:
            live = live_orders.get((pid, t.asset_id))
            if live is not None and (live.order_type == "stop_loss" or (t.stop_loss and side == "SELL")):
                live = None  # a stop loss is a conditional order of its own: it neither changes nor is changed
            row_type = order_rules.NEW if live is None else order_rules.order_change(
                live.side, order_book.remaining(live), side, quantity).row_type
            if row_type == order_rules.NEW:
                live = None
        status = rules.row_status(order is not None)
        broker = brokers.get(p.broker_id) if p.broker_id else None
        row = TradeFileRow(
            recommendation_id=t.id, investment_id=pid, investment_name=p.name, broker_id=p.broker_id,
            broker_name=broker.name if broker else "", action=side,
            instruction=_recommendation_action(t.payload) or side, asset_code=t.asset_code,
            asset_id=t.asset_id, amount=t.amount, pending_amount=line.pending_amount, min_trade_amount=minimum,
            brokerage=t.fee, limit_price=base.limit_price, last_close_price=base.last_close_price, quantity=quantity,
            limit_vs_price_percentage=line.limit_vs_price_percentage, limit_vs_price_value=line.limit_vs_price_value,
            type=row_type, status=status, transaction_type=line.order_type,
            asset_class_title=classes.get(asset.class_id, "") if asset else "",
            asset_type_id=asset.type_id if asset else None, adviser_id=p.adviser_id,
            adviser_name=adviser_names.get(p.adviser_id, "") if p.adviser_id else "", firm_id=p.firm_id, hin=p.hin or "",
            broker_account=p.broker_account or "", hidden=line.hidden and order is None,
            selected=rules.auto_selected(status, row_type), raw_pending_amount=t.pending,
            recommended_quantity=t.quantity, current_units=t.current_units, full_sell=t.full_sell,
            stop_loss=t.stop_loss, urgent=t.urgent, placed_transaction_id=order.id if order else None, expiry=expiry,
            amends_order_id=live.id if live is not None else None,
        )
        out.rows.append(row)
        if order is None and not row.hidden:
            sums[pid]["buy" if side == "BUY" else "sell"] += row.pending_amount
    for pid in (portfolio_ids if cash_summaries else ()):
        p = portfolios[pid]
        figures = sums[pid]
        cash_assets = to_cents(cash.get(pid, ZERO))
        placed_buys = to_cents(committed.get(pid, ZERO))
        summary = rules.CashSummary(sum_buys=figures["buy"], sum_sells=figures["sell"], cash_assets=cash_assets,
                                    min_cash=to_cents(min_cash.get(pid, ZERO)),
                                    available_cash=to_cents(cash_assets - placed_buys), placed_buys=placed_buys)
        colours = rules.cash_colours(summary)
        out.cash.append(CashSummaryRow(pid, p.name, summary.sum_buys, summary.sum_sells, summary.cash_assets,
                                       summary.min_cash, summary.available_cash, colours.background, colours.text,
                                       placed_buys))
    out.rows.sort(key=lambda r: (r.investment_name.lower(), r.asset_code, r.recommendation_id))
    out.cash.sort(key=lambda c: c.investment_name.lower())
    return out


def generate(*, actor: Actor, firm_id: int | None = None) -> TradeFile:
    """GET /api/reports/trade-file-generate: the trade file of the actor's firm (a superuser's
    chosen firm, or every firm)."""
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        return build(s, fid)


# ---- export: the broker files, and placing what they send --------------------------------------------
@dataclass(frozen=True)
class ExportLine:
    """A row the user sends for export (001 s7 body: id, quantity, price, amount, expirationDate)."""

    id: int
    quantity: Decimal | None
    price: Decimal | None
    amount: Decimal | None
    expiry: date | None


def _decimal(value: object, label: str) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        number = Decimal(str(value).strip())
    except (ArithmeticError, ValueError):
        raise ValidationError(f"Invalid {label}", {label: "invalid"}) from None
    if not number.is_finite() or number < 0:
        raise ValidationError(f"Invalid {label}", {label: "invalid"})
    return number


def read_export_lines(raw: Iterable[Mapping[str, object]] | None) -> list[ExportLine]:
    """The rows a request or the screen sends for export (id, quantity, price, amount,
    expirationDate as text or numbers), read once at the edge: ids, numbers that are not negative,
    and dates. Whole units and an expiry not before today are the export's to check."""
    out: list[ExportLine] = []
    for item in raw or []:
        if not isinstance(item, Mapping):
            raise ValidationError(order_rules.TRADE_NOT_FOUND)
        tid = as_id(item.get("id"))
        if tid is None:
            raise NotFound(order_rules.TRADE_NOT_FOUND)
        expiry_text = item.get("expirationDate") or item.get("expiration_date")
        expiry = None
        if isinstance(expiry_text, date):
            expiry = expiry_text
        elif expiry_text is not None and expiry_text != "":
            expiry = order_rules.parse_day(str(expiry_text)[:10])
            if expiry is None:
                raise ValidationError("Invalid expiry date", {"expirationDate": "invalid"})
        out.append(ExportLine(tid, _decimal(item.get("quantity"), "quantity"), _decimal(item.get("price"), "price"),
                              _decimal(item.get("amount"), "amount"), expiry))
    return out


def _checked_lines(lines: Sequence[ExportLine], today: date) -> list[ExportLine]:
    """The export's rows as sent, checked: an expiry not before today, and whole units."""
    for line in lines:
        if line.expiry is not None and rules.expiry_error(line.expiry, today):
            raise ValidationError(rules.EARLIER_THAN_TODAY, {"expirationDate": rules.EARLIER_THAN_TODAY})
        if line.quantity is not None and line.quantity != line.quantity.to_integral_value():
            raise ValidationError("Invalid quantity", {"quantity": "invalid"})
    return list(lines)


@dataclass
class BrokerFile:
    name: str
    data: bytes
    media_type: str
    placed: int          # orders placed by this export
    rows: int            # orders written to the file
    portfolios: int = 0  # portfolios the written orders belong to
    left_out: list[str] = field(default_factory=list)  # what the file did not write, and why
    broker: str = ""     # the broker the file is for ("" for the firm's own trade file)
    amended: int = 0     # live orders the file amended
    cancelled: int = 0   # live orders the file cancelled


@dataclass(frozen=True)
class ExportPlan:
    """What an export would do, for the question asked before orders go live: 'Place N orders
    with BROKER for M portfolios?' with their totals, and what the file would leave out."""

    kind: str
    broker: str
    orders: int          # orders the file writes
    to_place: int        # of them, not placed yet: placing them is what the question asks
    portfolios: int
    buys: Decimal
    sells: Decimal
    left_out: tuple[str, ...]
    default_expiry: date | None  # the expiry an order without a chosen one gets (None: GTC)
    to_amend: int = 0    # live orders the file amends
    to_cancel: int = 0   # live orders the file cancels

    @property
    def asks(self) -> bool:
        """Whether the export changes what is with the broker (and so is asked about first)."""
        return bool(self.to_place or self.to_amend or self.to_cancel)

    @property
    def question(self) -> str:
        where = f" with {self.broker}" if self.broker else ""
        text = (f"Place {self.to_place:,} {'order' if self.to_place == 1 else 'orders'}{where} for "
                f"{self.portfolios:,} {'portfolio' if self.portfolios == 1 else 'portfolios'}?")
        changes = [f"amends {self.to_amend:,} {'order' if self.to_amend == 1 else 'orders'}"] if self.to_amend else []
        changes += [f"cancels {self.to_cancel:,} {'order' if self.to_cancel == 1 else 'orders'}"] if self.to_cancel else []
        return text + (f" It also {' and '.join(changes)} already with the broker." if changes else "")


@dataclass(frozen=True)
class _Draft:
    row: TradeFileRow
    order: order_rules.Order
    reason: str | None           # why the file leaves it out (None: written)
    open_transaction_id: int | None  # placed already: its open asset transaction
    live: BrokerOrder | None = None  # the live order an Amend or Cancel changes

    @property
    def change(self) -> str:
        """New (placed by the export), Amend or Cancel (a live order changed), Maintain (sent again)."""
        return self.order.row_type

    @property
    def increment(self) -> Decimal:
        """The units an Amend adds to a sell order (checked against the units held)."""
        if self.live is None or self.change != order_rules.AMEND or self.live.side != "SELL":
            return ZERO
        return max(self.order.quantity - order_book.remaining(self.live), ZERO)


def _chosen_rows(s: Session, fid: int | None, lines: list[ExportLine], *, download_all: bool,
                 today: date) -> tuple[list[TradeFileRow], dict[int, ExportLine]]:
    wanted = {line.id: line for line in lines}
    report = build(s, fid, today=today, only_ids=wanted.keys() if wanted and not download_all else None,
                   cash_summaries=False)
    by_id = {r.recommendation_id: r for r in report.rows}
    if any(i not in by_id for i in wanted):
        raise NotFound(order_rules.TRADE_NOT_FOUND)
    if wanted and not download_all:
        chosen = [by_id[i] for i in wanted]
    elif wanted:
        chosen = [by_id[i] for i in wanted] + [r for r in report.rows if r.placed_transaction_id
                                                and r.recommendation_id not in wanted]
    elif download_all:  # nothing chosen: the orders already placed, written again
        chosen = [r for r in report.rows if r.placed_transaction_id]
    else:
        chosen = [r for r in report.rows if not r.hidden and r.selected]
    if not download_all:
        chosen = [r for r in chosen if r.placed_transaction_id is None]
    if not chosen:
        raise ValidationError(order_rules.NOTHING_TO_EXPORT)
    return sorted(chosen, key=lambda r: (r.investment_name.lower(), r.asset_code, r.recommendation_id)), wanted


def _drafts(s: Session, kind: str, chosen: list[TradeFileRow], wanted: Mapping[int, ExportLine],
            firms: Mapping[int, Firm], today: date) -> list[_Draft]:
    """Every chosen row as the order the file would write (placed ones as they were sent), with
    whether the file writes it."""
    placed_ids = [r.placed_transaction_id for r in chosen if r.placed_transaction_id]
    sent = {o.open_transaction_id: o for o in s.exec(select(BrokerOrder).where(
        bulk.among(s, BrokerOrder.open_transaction_id, placed_ids))).all()} if placed_ids else {}
    existing = {t.id: t for t in s.exec(select(AssetTransaction).where(
        bulk.among(s, AssetTransaction.id, placed_ids))).all()} if placed_ids else {}
    live_ids = [r.amends_order_id for r in chosen if r.amends_order_id and r.placed_transaction_id is None]
    lives = {o.id: o for o in s.exec(select(BrokerOrder).where(bulk.among(s, BrokerOrder.id, live_ids))
                                     .with_for_update()).all()} if live_ids else {}
    out: list[_Draft] = []
    written: set[int] = set()  # open orders already in the file
    left: dict[int, Decimal] = {}  # a live order's units once the rows before changed it (two amend one order)
    for row in chosen:
        firm = firms.get(row.firm_id)
        if row.placed_transaction_id is not None:
            if row.placed_transaction_id in written:
                continue  # an order carrying several recommendations is one line of the file
            written.add(row.placed_transaction_id)
            book, tx = sent.get(row.placed_transaction_id), existing[row.placed_transaction_id]
            order_type = book.order_type.upper() if book else order_rules.order_type_of(tx.limit_price)
            order = order_rules.Order(
                reference=book.reference if book else (tx.order_id or f"WA{tx.id}"),
                portfolio_name=row.investment_name, hin=row.hin, broker_account=row.broker_account,
                broker_name=row.broker_name, side=row.action, code=row.asset_code, quantity=Decimal(tx.quantity or 0),
                order_type=order_type, limit_price=book.limit_price if book else tx.limit_price,
                stop_price=book.stop_price if book else None,
                expiry=book.expires_on if book else row.expiry, row_type=rules.MAINTAIN,
                adviser_name=row.adviser_name, adviser_code=(firm.ausiex_code or "") if firm else "")
            out.append(_Draft(row, order, order_rules.left_out_reason(kind, order), row.placed_transaction_id))
            continue
        line = wanted.get(row.recommendation_id)
        quantity = line.quantity if line and line.quantity is not None else row.quantity
        price = line.price if line and line.price is not None else row.limit_price
        if quantity is None or quantity <= 0:
            raise ValidationError(f"The quantity of {row.asset_code} in {row.investment_name} must be positive",
                                  {"quantity": "invalid"})
        order_type = order_rules.order_type_of(price, stop_loss=row.stop_loss and row.action == "SELL")
        stop_price = price if order_type == order_rules.STOP_LOSS else None
        limit = (order_rules.stop_limit(stop_price, firm.stop_loss_limit_gap if firm else None)
                 if order_type == order_rules.STOP_LOSS else price)
        expiry = order_rules.order_expiry(line.expiry if line else None, today=today,
                                          firm_days=firm.order_expiry_days if firm else None,
                                          good_till_cancelled=bool(firm and firm.order_good_till_cancelled))
        live = lives.get(row.amends_order_id) if row.amends_order_id else None
        units_left = left.get(stored_id(live), order_book.remaining(live)) if live else ZERO
        change = order_rules.order_change(live.side if live and units_left > 0 else None, units_left, row.action,
                                          Decimal(quantity))
        if live is not None and change.row_type != order_rules.NEW:
            left[stored_id(live)] = change.quantity if change.row_type == order_rules.AMEND else ZERO
            # the live order changes: its reference, side and type, its units once changed (a
            # same-side trade's own limit price becomes the order's)
            same_side = row.action == live.side
            new_limit = price if same_side and price is not None and live.order_type != "stop_loss" else live.limit_price
            order = order_rules.Order(
                reference=live.reference, portfolio_name=row.investment_name, hin=row.hin,
                broker_account=row.broker_account, broker_name=row.broker_name, side=live.side, code=row.asset_code,
                quantity=change.quantity,
                order_type=("LIMIT" if new_limit is not None and live.order_type == "market" else live.order_type.upper()),
                limit_price=new_limit, stop_price=live.stop_price, expiry=live.expires_on, row_type=change.row_type,
                adviser_name=row.adviser_name, adviser_code=(firm.ausiex_code or "") if firm else "")
            out.append(_Draft(row, order, order_rules.left_out_reason(kind, order), None, live))
            continue
        order = order_rules.Order(
            reference=f"TR{row.recommendation_id}", portfolio_name=row.investment_name, hin=row.hin,
            broker_account=row.broker_account, broker_name=row.broker_name, side=row.action, code=row.asset_code,
            quantity=Decimal(quantity), order_type=order_type, limit_price=limit, stop_price=stop_price,
            expiry=expiry, row_type=rules.NEW, adviser_name=row.adviser_name,
            adviser_code=(firm.ausiex_code or "") if firm else "")
        out.append(_Draft(row, order, order_rules.left_out_reason(kind, order), None))
    return out


def _firm_name(s: Session, fid: int | None) -> str:
    firm = s.get(Firm, fid) if fid is not None else None
    return firm.name if firm is not None else "All Firms"


def _firms_of(s: Session, rows: Iterable[TradeFileRow]) -> dict[int, Firm]:
    return {stored_id(f): f for f in s.exec(select(Firm).where(col(Firm.id).in_({r.firm_id for r in rows}))).all()}


def plan_export(*, actor: Actor, kind: str, firm_id: int | None = None, lines: Sequence[ExportLine] = (),
                download_all: bool = False, today: date | None = None) -> ExportPlan:
    """What exporting would write and place, without writing or placing anything: the question
    the screen asks before orders go live."""
    if kind not in order_rules.FILE_KINDS:
        raise NotFound("Unknown broker file")
    require_staff(actor)
    today = today or utcnow().date()
    lines = _checked_lines(lines, today)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        chosen, wanted = _chosen_rows(s, fid, lines, download_all=download_all, today=today)
        firms = _firms_of(s, chosen)
        drafts = _drafts(s, kind, chosen, wanted, firms, today)
        written = [d for d in drafts if d.reason is None]
        new = [d for d in written if d.change == order_rules.NEW]
        firm = firms.get(fid) if fid is not None else None
        return ExportPlan(
            kind=kind, broker=order_rules.BROKER_OF_FILE.get(kind, ""), orders=len(written), to_place=len(new),
            to_amend=sum(1 for d in written if d.change == order_rules.AMEND),
            to_cancel=sum(1 for d in written if d.change == order_rules.CANCEL),
            portfolios=len({d.row.investment_id for d in written}),
            buys=to_cents(sum((d.order.quantity * (d.order.limit_price or d.row.last_close_price or ZERO)
                               for d in new if d.order.side == "BUY"), ZERO)),
            sells=to_cents(sum((d.order.quantity * (d.order.stop_price or d.order.limit_price
                                                    or d.row.last_close_price or ZERO)
                                for d in new if d.order.side == "SELL"), ZERO)),
            left_out=tuple(order_rules.left_out_notices(kind, [(d.reason, d.order) for d in drafts
                                                               if d.reason and d.reason != order_rules.HELD_BY_BROKER])),
            default_expiry=order_rules.order_expiry(
                None, today=today, firm_days=firm.order_expiry_days if firm else None,
                good_till_cancelled=bool(firm and firm.order_good_till_cancelled)))


def export(*, actor: Actor, kind: str, firm_id: int | None = None, lines: Sequence[ExportLine] = (),
           download_all: bool = False, today: date | None = None, preview: bool = False) -> BrokerFile:
    """Writes a broker file (`kind`: trade_file, desktop_broker or ausiex) of the chosen trade
    recommendations, with the user's quantities, prices and expiry dates, and places the ones not
    placed yet (a preview writes the same file and places nothing). A broker's file holds only the
    orders of its own portfolios; an order it cannot carry (another broker's, a portfolio without a
    broker, a stop loss where the format has no conditional order) is left out, stays to be placed,
    and is named in `left_out`. Without download_all, rows already placed are left out; nothing left
    is refused with a message rather than an empty file."""
    from app.exports import broker_files

    if kind not in order_rules.FILE_KINDS:
        raise NotFound("Unknown broker file")
    require_staff(actor)
    now = utcnow()
    today = today or now.date()
    lines = _checked_lines(lines, today)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        chosen, wanted = _chosen_rows(s, fid, lines, download_all=download_all, today=today)
        firms = _firms_of(s, chosen)
        if not preview:  # lock the portfolios whose orders are placed, in one order (no deadlock)
            s.exec(select(Portfolio.id).where(bulk.among(s, Portfolio.id, sorted({r.investment_id for r in chosen})))
                   .order_by(col(Portfolio.id)).with_for_update()).all()
        drafts = _drafts(s, kind, chosen, wanted, firms, today)
        del chosen
        left_out = [(d.reason, d.order) for d in drafts if d.reason]
        drafts = [d for d in drafts if d.reason is None]
        notices = order_rules.left_out_notices(kind, left_out)
        if not drafts:
            raise ValidationError(" ".join([order_rules.NOTHING_TO_EXPORT + "."] + notices) if notices
                                  else order_rules.NOTHING_TO_EXPORT)
        # sells: a new one, or an amendment that grows a sell order, never beyond the units held
        selling = {(d.row.investment_id, d.row.asset_id): (d.order.quantity if d.change == order_rules.NEW
                                                           else d.increment)
                   for d in drafts if d.order.side == "SELL" and d.change in (order_rules.NEW, order_rules.AMEND)}
        available = _sellable_units(s, set(selling))
        for d in drafts:  # every row checked before anything is placed
            units = (d.order.quantity if d.change == order_rules.NEW else d.increment) if d.order.side == "SELL" else ZERO
            if units > 0 and d.change in (order_rules.NEW, order_rules.AMEND):
                key = (d.row.investment_id, d.row.asset_id)
                if units > available.get(key, ZERO):
                    raise ValidationError(NOT_ENOUGH_ASSETS, {"quantity": NOT_ENOUGH_ASSETS})
                available[key] = available.get(key, ZERO) - units
        placed = 0 if preview else sum(1 for d in drafts if d.change == order_rules.NEW)
        amended = 0 if preview else sum(1 for d in drafts if d.change == order_rules.AMEND)
        cancelled = 0 if preview else sum(1 for d in drafts if d.change == order_rules.CANCEL)
        portfolio_count = len({d.row.investment_id for d in drafts})
        row_count = len(drafts)

        if not preview:  # live orders changed by later recommendations (few): same reference, a new version
            for d in drafts:
                if d.live is None:
                    continue
                if d.change == order_rules.AMEND:
                    same_side = d.row.action == d.live.side
                    order_book.amend(s, d.live, quantity=d.order.quantity,
                                     limit_price=d.order.limit_price if same_side else None,
                                     recommendation_id=d.row.recommendation_id, file_kind=kind, actor_id=actor.id)
                elif d.change == order_rules.CANCEL:
                    order_book.cancel_by_file(s, d.live, recommendation_id=d.row.recommendation_id,
                                              file_kind=kind, actor_id=actor.id)
            s.flush()
        fresh = [] if preview else [d for d in drafts if d.change == order_rules.NEW]
        brokerages = {key: brokerage_of(f) for key, f in firms.items()}  # read once, not per order
        # each new order is named by its open asset transaction (WA<id>): the ids are taken first,
        # so that the file can be written while the orders are
        opening = bulk.reserve_ids(s, AssetTransaction, len(fresh))
        references = {id(d): f"WA{tid}" for d, tid in zip(fresh, opening)}

        def place() -> None:
            # a chunk at a time, so that a firm's tens of thousands of orders are never all held twice
            for start in range(0, len(fresh), EXPORT_CHUNK):
                chunk, ids = fresh[start:start + EXPORT_CHUNK], opening[start:start + EXPORT_CHUNK]
                entries = [_placing(d, kind, brokerages) for d in chunk]
                postings.record_trades(s, actor_id=actor.id, status=Status.PROCESSING.value, trade_at=now,
                                       entries=entries, ids=ids)
                order_book.record_new(s, actor_id=actor.id, now=now, file_kind=kind, orders=[
                    order_book.NewOrder(
                        open_transaction_id=tid, firm_id=d.row.firm_id, portfolio_id=d.row.investment_id,
                        broker_id=d.row.broker_id, asset_id=d.row.asset_id, recommendation_id=d.row.recommendation_id,
                        side=d.order.side, order_type=d.order.order_type, quantity=d.order.quantity,
                        limit_price=d.order.limit_price, stop_price=d.order.stop_price, expiry=d.order.expiry,
                        placed_price=entry.price)
                    for tid, d, entry in zip(ids, chunk, entries)])

        def orders() -> Iterator[order_rules.Order]:
            for d in drafts:
                yield _referenced(d.order, references[id(d)]) if id(d) in references else d.order

        firm_name = firms[fid].name if fid in firms else _firm_name(s, fid)
        name = order_rules.file_name(kind, firm_name, now)
        if preview:
            name = name.replace(f" - {order_rules.FILE_TITLES[kind]} - ",
                                f" - {order_rules.FILE_TITLES[kind]} (preview, not placed) - ")
        # on PostgreSQL the orders are written while the file is: the database checks and indexes
        # the rows on its own core meanwhile (the session is left to the writer until it is done)
        writer = bulk.Background(place) if fresh and bulk.is_postgres(s) else None
        if writer is None:
            place()
        try:
            data, media = broker_files.build(kind, orders())
        finally:
            if writer is not None:
                writer.join()
        if not preview:
            audit.record(s, actor, "broker_file.exported", "broker_file", None, label=name, firm_id=fid,
                         after={"kind": kind, "rows": row_count, "placed": placed, "amended": amended,
                                "cancelled": cancelled, "download_all": bool(download_all), "left_out": len(left_out)})
        s.flush()
        if preview:
            s.rollback()
        return BrokerFile(name=name, data=data, media_type=media, placed=placed, rows=row_count,
                          portfolios=portfolio_count, left_out=notices,
                          broker=order_rules.BROKER_OF_FILE.get(kind, ""), amended=amended, cancelled=cancelled)


EXPORT_CHUNK = 5_000


def _referenced(order: order_rules.Order, reference: str) -> order_rules.Order:
    """`replace(order, reference=reference)` without its per-call field checks (a firm's file
    names tens of thousands of new orders): a copy of the order's fields with the new reference."""
    fields = dict(order.__dict__)
    fields["reference"] = reference
    return order_rules.Order(**fields)


def _placing(d: _Draft, kind: str, brokerages: Mapping[int, Brokerage]) -> postings.TradeEntry:
    """The order a broker file places for a row: an asset transaction in processing (Placed) linked
    to its recommendation, at the limit (a stop loss: its trigger) or else the last close, its fee
    by the firm's brokerage (`brokerages`: by firm id)."""
    row, o = d.row, d.order
    price = o.stop_price if o.order_type == order_rules.STOP_LOSS else o.limit_price
    order_price = price if price is not None else (row.last_close_price or ZERO)
    return postings.TradeEntry(
        portfolio_id=row.investment_id, kind=Kind.ASSET_BUY.value if row.action == "BUY" else Kind.PARCEL.value,
        asset_id=row.asset_id, quantity=o.quantity, price=order_price,
        fee=brokerage_fee(to_cents(o.quantity * order_price), brokerages.get(row.firm_id, NO_BROKERAGE)),
        limit_price=price,
        payload={"order_type": o.order_type.lower(), "row_type": o.row_type, "file": kind,
                 "instruction": row.instruction},
        description=f"{row.action} {o.quantity.normalize():f} {row.asset_code} placed with the broker",
        trade_transaction_id=row.recommendation_id,
        expires_at=rules.expiry_end_of_day(o.expiry) if o.expiry else None)


def _sellable_units(s: Session,
                    keys: set[tuple[int, int]]) -> dict[tuple[int, int], Decimal]:
    """(portfolio, asset) -> units held (executed) less units already in live or draft sells, for
    every key, in three queries."""
    if not keys:
        return {}
    pids = sorted({pid for pid, _ in keys})
    out = postings.held_units(s, keys)
    at = AssetTransaction
    committed = s.execute(sa_select(col(at.investment_id), col(at.asset_id), func.sum(col(at.quantity)))
                          .where(bulk.among(s, at.investment_id, pids), col(at.type) == Kind.PARCEL.value,
                                 col(at.status).in_([Status.PROCESSING.value, Status.PENDING.value]))
                          .group_by(col(at.investment_id), col(at.asset_id))).all()
    for pid, aid, units in committed:
        if (pid, aid) in out:
            out[(pid, aid)] -= Decimal(units or 0)
    return out


DESKTOP_BROKER_NAME = order_rules.BROKER_OF_FILE[order_rules.DESKTOP_BROKER]


def _is_stop_loss(r: TradeFileRow) -> bool:
    return r.stop_loss and r.action == "SELL"


def order_price_words(r: TradeFileRow) -> str:
    """A trade file row's price as the screens say it ("Market", "Limit $12.50", "Stop loss at
    $30.54")."""
    if _is_stop_loss(r):
        return order_rules.price_words(order_rules.STOP_LOSS, None, r.limit_price).split(",")[0]
    return order_rules.price_words(order_rules.order_type_of(r.limit_price), r.limit_price, None)


def _desktop_broker_rows(report: TradeFile) -> list[TradeFileRow]:
    """The rows of portfolios with Desktop Broker: live orders and approved trades not placed yet."""
    return [r for r in report.rows if not r.hidden and r.broker_name == DESKTOP_BROKER_NAME]


def desktop_broker_orders(*, actor: Actor, firm_id: int | None = None) -> tuple[int | None, list[TradeFileRow]]:
    """The Desktop Broker trade file page: (the firm read, None for every firm; its rows), the
    rows its Excel writes, by portfolio then code."""
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        return fid, _desktop_broker_rows(build(s, fid))


def desktop_broker_file(*, actor: Actor, firm_id: int | None = None) -> BrokerFile:
    """GET /api/reports/desktop-broker-export-excel: the Desktop Broker trade file page's Excel:
    the firm's live orders (placed, not executed) for portfolios with Desktop Broker, and the
    approved trades not yet placed. Reading only: nothing is placed."""
    from app.exports import broker_files

    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        report = build(s, fid)
        rows = _desktop_broker_rows(report)
        firm_name = _firm_name(s, fid)
        orders = [order_rules.Order(
            reference=f"WA{r.placed_transaction_id}" if r.placed_transaction_id else f"TR{r.recommendation_id}",
            portfolio_name=r.investment_name, hin=r.hin, broker_account=r.broker_account,
            broker_name=r.broker_name, side=r.action, code=r.asset_code, quantity=r.quantity,
            order_type=order_rules.order_type_of(r.limit_price, stop_loss=_is_stop_loss(r)),
            limit_price=None if _is_stop_loss(r) else r.limit_price,
            stop_price=r.limit_price if _is_stop_loss(r) else None, expiry=r.expiry,
            row_type=r.type, adviser_name=r.adviser_name, adviser_code="") for r in rows]
        data = broker_files.xlsx(order_rules.DESKTOP_BROKER, orders,
                                 extra_header=("Portfolio", "Status", "Price"),
                                 extra=[(r.investment_name, r.status, order_price_words(r)) for r in rows])
        name = order_rules.file_name(order_rules.DESKTOP_BROKER, firm_name, utcnow()).rsplit(".", 1)[0] + ".xlsx"
        return BrokerFile(name=name, data=data, media_type=broker_files.XLSX, placed=0, rows=len(rows))
