"""Orders placed with a broker and what came back (spec 002 s4 statuses: processing shown as
Placed, processing error shown as Error, executed), kept in the order book
(app.services.order_book): each order with its versions sent and its fills.

- `list_orders`: the firm's orders, newest first, by status (placed includes partly filled).
- `execute`: a fill of a placed order, the whole remainder or a part: holdings and cash move for
  the fill's units; several fills at different prices make the order's average price. The last
  fill executes the trade recommendation it carried out (no longer pending for the next
  calculation).
- `reject`: the broker refused the order: it goes to Error; the recommendation is approved and
  unplaced again, so the next trade file offers it as New.
- `upload_confirmations`: the broker's execution file (CSV or Excel): every line matched to a
  placed order (by reference, else by account, code and side), partial fills included; a fill
  already recorded (its contract note or fill id) is skipped, so the same file uploaded twice
  executes nothing the second time; any wrong line and nothing is written.
- `expire_orders`: the sweep: an order whose expiry passed unexecuted becomes Expired; its cash
  is released and it leaves the pending trades.
- `reconciliation`: the orders of one day by what happened to them, with totals by broker.
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select as sa_select
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetTransaction, Broker, BrokerOrder, BrokerOrderFill, Firm, Portfolio,
)
from app.db.types import stored_id, utcnow
from app.domain import orders as order_rules
from app.domain.errors import Conflict, NotFound, ValidationError, not_found
from app.domain.ledger import NOT_ENOUGH_ASSETS
from app.domain.money import to_cents
from app.domain.permissions import Actor, require_staff
from app.domain.uploads import MAX_UPLOAD_BYTES, LineError, checked_upload  # noqa: F401  (the upload's limit)
from app.domain.transactions import Status, cash_amount
from app.services import audit, order_book, postings
from app.exports.file_names import safe_name
from app.services.tenancy import readable_portfolios
from app.services.trade_file import report_firm

ORDER_NOT_FOUND = not_found("Order")
PAGE_SIZE = 100
ZERO = Decimal(0)


@dataclass
class OrderRow:
    id: int
    investment_id: int
    investment_name: str
    account: str
    asset_code: str
    side: str
    quantity: Decimal               # the units ordered
    price: Decimal | None           # the average price of the fills (placed: the order's price)
    limit_price: Decimal | None
    fee: Decimal | None
    amount: Decimal | None
    status: str
    status_label: str
    order_type: str                 # market | limit | stop_loss
    placed_at: datetime
    expires_at: datetime | None
    trade_at: datetime
    settlement_at: datetime | None
    recommendation_id: int | None
    reason: str | None
    reference: str = ""
    broker_name: str = ""
    stop_price: Decimal | None = None
    filled_quantity: Decimal = ZERO
    remaining_quantity: Decimal = ZERO
    price_text: str = ""            # "Market", "Limit $12.50", "Stop loss at $30.54, then market"
    expiry_text: str = ""           # dd/mm/yyyy, or GTC
    fills: int = 0


@dataclass(frozen=True)
class UploadResult:
    notice: str
    count: int                      # orders that received a fill
    fills: int = 0                  # fills recorded
    skipped: int = 0                # fills already recorded by an earlier upload


def _day_end(day: date | None) -> datetime | None:
    return datetime.combine(day, time(23, 59, 59), tzinfo=timezone.utc) if day else None


def _row(o: BrokerOrder, p: Portfolio, code: str, broker: str, fills: list[BrokerOrderFill],
         open_tx: AssetTransaction | None) -> OrderRow:
    average = order_book.average_price(fills)
    last = max(fills, key=lambda f: (f.trade_at, f.id)) if fills else None
    fee = to_cents(sum((f.brokerage for f in fills), ZERO)) if fills else (open_tx.fee if open_tx else None)
    amount = to_cents(sum((cash_amount("asset_buy" if o.side == "BUY" else "parcel", quantity=f.quantity,
                                       price=f.price, fee=f.brokerage) for f in fills), ZERO)) if fills else (
        open_tx.amount if open_tx else None)
    return OrderRow(
        id=stored_id(o), investment_id=stored_id(p), investment_name=p.name, account=p.broker_account or p.hin or "",
        asset_code=code, side=o.side, quantity=Decimal(o.quantity),
        price=average if average is not None else (open_tx.price if open_tx else o.placed_price or o.limit_price),
        limit_price=o.limit_price, fee=fee, amount=amount, status=o.status,
        status_label=order_rules.ORDER_STATUS_LABELS.get(o.status, o.status), order_type=o.order_type,
        placed_at=o.placed_at, expires_at=_day_end(o.expires_on),
        trade_at=last.trade_at if last else o.placed_at, settlement_at=last.settlement_at if last else None,
        recommendation_id=o.trade_transaction_id, reason=o.reason, reference=o.reference, broker_name=broker,
        stop_price=o.stop_price, filled_quantity=Decimal(o.filled_quantity or 0),
        remaining_quantity=order_book.remaining(o) if o.status in order_rules.OPEN_STATUSES else ZERO,
        price_text=order_rules.price_words(o.order_type, o.limit_price, o.stop_price),
        expiry_text=order_rules.expiry_text(o.expires_on), fills=len(fills))


def _rows(s: Session, found: list[tuple[BrokerOrder, Portfolio, str]]) -> list[OrderRow]:
    ids = [o.id for o, _, _ in found]
    fills: dict[int, list[BrokerOrderFill]] = {}
    if ids:
        for f in s.exec(select(BrokerOrderFill).where(col(BrokerOrderFill.order_id).in_(ids))
                        .order_by(col(BrokerOrderFill.id))).all():
            fills.setdefault(f.order_id, []).append(f)
    open_ids = [o.open_transaction_id for o, _, _ in found if o.open_transaction_id]
    opens = {t.id: t for t in s.exec(select(AssetTransaction).where(col(AssetTransaction.id).in_(open_ids))).all()} \
        if open_ids else {}
    brokers = dict(s.exec(select(Broker.id, Broker.name)).all())
    return [_row(o, p, code, brokers.get(o.broker_id, "") if o.broker_id else "", fills.get(stored_id(o), []),
                 opens.get(o.open_transaction_id) if o.open_transaction_id else None) for o, p, code in found]


STATUS_FILTERS: dict[str, tuple[str, ...]] = {
    "placed": order_rules.OPEN_STATUSES, "executed": (order_rules.FILLED,), "error": (order_rules.REJECTED_STATUS,),
    "partly_filled": (order_rules.PARTLY_FILLED,), "expired": (order_rules.EXPIRED,),
    "cancelled": (order_rules.CANCELLED,),
}


def list_orders(*, actor: Actor, firm_id: int | None = None, status: str = "placed", limit: int | None = None,
                offset: int | None = None) -> tuple[list[OrderRow], int]:
    """The firm's broker orders in one status (placed by default; 'all' for every status), a page
    of `limit` (100 when none; at most 500) from `offset`."""
    require_staff(actor)
    limit_ = min(limit, 500) if limit and limit > 0 else PAGE_SIZE
    offset_ = max(offset or 0, 0)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        clause = [readable_portfolios(actor, fid)]
        wanted = STATUS_FILTERS.get(status or "placed")
        if wanted:
            clause.append(col(BrokerOrder.status).in_(wanted))
        total = s.execute(sa_select(func.count()).select_from(
            sa_select(col(BrokerOrder.id)).join(Portfolio, col(Portfolio.id) == BrokerOrder.investment_id)
            .where(*clause).subquery())).scalar_one()
        found = s.exec(select(BrokerOrder, Portfolio, Asset.code)
                       .join(Portfolio, col(Portfolio.id) == BrokerOrder.investment_id)
                       .join(Asset, col(Asset.id) == BrokerOrder.asset_id).where(*clause)
                       .order_by(col(BrokerOrder.placed_at).desc(), col(BrokerOrder.id).desc())
                       .limit(limit_).offset(offset_)).all()
        return _rows(s, list(found)), int(total)


def _order(s: Session, actor: Actor, order_id: int, *, lock: bool = True) -> tuple[BrokerOrder, Portfolio]:
    stmt = (select(BrokerOrder, Portfolio).join(Portfolio, col(Portfolio.id) == BrokerOrder.investment_id)
            .where(BrokerOrder.id == order_id, readable_portfolios(actor)))
    found = s.exec(stmt.with_for_update(of=BrokerOrder) if lock else stmt).first()
    if found is None:
        raise NotFound(ORDER_NOT_FOUND)
    return found


def _open(order: BrokerOrder) -> None:
    """Only a placed (or partly filled) order takes a fill or a rejection: 409 otherwise."""
    if order.status not in order_rules.OPEN_STATUSES:
        raise Conflict(order_rules.ORDER_CLOSED.format(status=order_rules.CLOSED_WORDS.get(order.status, order.status)))


def _check_units(s: Session, order: BrokerOrder, quantity: Decimal, *, field: str = "quantity") -> None:
    left = order_book.remaining(order)
    if quantity > left:
        raise ValidationError(f"The quantity is more than the order's {left.normalize():f} units not yet executed",
                              {field: "too_many"})
    if order.side == "SELL":
        portfolio = s.get(Portfolio, order.investment_id)
        if portfolio is None or quantity > postings.position(s, portfolio, order.asset_id).units:
            raise ValidationError(NOT_ENOUGH_ASSETS, {field: NOT_ENOUGH_ASSETS})


def _amount(value: object, label: str, *, allow_zero: bool = False) -> Decimal:
    try:
        number = Decimal(str(value).replace("$", "").replace(",", "").strip())
    except (ArithmeticError, ValueError):
        raise ValidationError(f"Invalid {label}", {label: "invalid"}) from None
    if not number.is_finite() or number < 0 or (number == 0 and not allow_zero):
        raise ValidationError(f"Invalid {label}", {label: "invalid"})
    return number


def read_day(value: str | date | None, label: str) -> date | None:
    """A day sent as text (YYYY-MM-DD or DD/MM/YYYY), read at the edge; None when none was sent."""
    if value is None or value == "":
        return None
    day = value if isinstance(value, date) else order_rules.parse_day(str(value)[:10])
    if day is None:
        raise ValidationError(f"Invalid {label}", {label: "invalid"})
    return day


def _day_start(day: date | None) -> datetime | None:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc) if day else None


def _code(s: Session, order: BrokerOrder) -> str:
    asset = s.get(Asset, order.asset_id)
    return asset.code if asset is not None else ""


@dataclass(frozen=True)
class Execution:
    """A fill entered by hand: its price, and optionally its brokerage, units (none: the whole
    remainder), days and contract note."""

    price: Decimal
    fee: Decimal | None = None
    quantity: Decimal | None = None
    trade_date: date | None = None
    settlement_date: date | None = None
    contract_note: str = ""


def read_execution(*, price: object, fee: object = None, quantity: object = None, trade_date: str | None = None,
                   settlement_date: str | None = None, contract_note: str | None = None) -> Execution:
    """The execution form or request body, read once at the edge (amounts without $ or commas,
    days as YYYY-MM-DD or DD/MM/YYYY)."""
    return Execution(
        price=_amount(price, "price"),
        fee=_amount(fee, "brokerage", allow_zero=True) if fee not in (None, "") else None,
        quantity=_amount(quantity, "quantity") if quantity not in (None, "") else None,
        trade_date=read_day(trade_date, "trade date"), settlement_date=read_day(settlement_date, "settlement date"),
        contract_note=(contract_note or "").strip()[:80])


def execute(*, actor: Actor, order_id: int, execution: Execution) -> OrderRow:
    """Records a fill of a placed order: its whole remainder (no quantity) or a part of it."""
    require_staff(actor)
    with session_scope() as s:
        order, p = _order(s, actor, order_id)
        _open(order)
        if not execution.price.is_finite() or execution.price <= 0:
            raise ValidationError("Invalid price", {"price": "invalid"})
        units = order_book.remaining(order) if execution.quantity is None else execution.quantity
        if units != units.to_integral_value():
            raise ValidationError("Invalid quantity", {"quantity": "invalid"})
        _check_units(s, order, units)
        trade_at = _day_start(execution.trade_date) or utcnow()
        settlement_at = _day_start(execution.settlement_date)
        if settlement_at and settlement_at.date() < trade_at.date():
            raise ValidationError("The settlement date is before the trade date", {"settlement_date": "invalid"})
        note = execution.contract_note
        if note and s.exec(select(BrokerOrderFill.id).where(BrokerOrderFill.fill_key == note)).first():
            raise Conflict(f"Contract note {note} is already recorded")
        open_tx = s.get(AssetTransaction, order.open_transaction_id) if order.open_transaction_id else None
        if execution.fee is not None:
            brokerage = execution.fee
        else:  # the order's estimated brokerage, in proportion to the units filled
            brokerage = to_cents((open_tx.fee or ZERO) * units / order_book.remaining(order)) if open_tx else ZERO
        order_book.fill(s, order, order_book.Fill(
            key=note or f"manual-{uuid.uuid4().hex}", quantity=units, price=execution.price,
            brokerage=brokerage, trade_at=trade_at, settlement_at=settlement_at), actor_id=actor.id)
        code = _code(s, order)
        audit.record(s, actor, "order.executed", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={"order": order.reference, "side": order.side, "code": code, "quantity": units,
                            "price": execution.price, "status": order.status})
        return _rows(s, [(order, p, code)])[0]


def reject(*, actor: Actor, order_id: int, reason: str | None = None) -> OrderRow:
    """The broker refused the order: Error, and the recommendation can be exported again."""
    require_staff(actor)
    with session_scope() as s:
        order, p = _order(s, actor, order_id)
        _open(order)
        if order.status != order_rules.PLACED:
            raise Conflict("Part of the order is executed: it can no longer be rejected")
        text = (reason.strip()[:300] if reason else None) or "Rejected by the broker"
        t = s.get(AssetTransaction, order.open_transaction_id) if order.open_transaction_id else None
        if t is None:
            raise Conflict(order_rules.ORDER_CLOSED.format(status=order.status))
        payload = json.loads(t.payload) if t.payload else {}
        payload["rejection"] = text
        t.payload = json.dumps(payload)
        t.status, t.om_status, t.updated_by, t.updated_at = Status.PROCESSING_ERROR.value, "error", actor.id, utcnow()
        s.add(t)
        postings.sync_cash(s, t)
        order.status, order.reason, order.closed_at, order.updated_at = (order_rules.REJECTED_STATUS, text, utcnow(),
                                                                         utcnow())
        s.add(order)
        s.flush()
        code = _code(s, order)
        audit.record(s, actor, "order.rejected", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={"order": order.reference, "side": order.side, "code": code, "quantity": order.quantity,
                            "reason": text})
        return _rows(s, [(order, p, code)])[0]


def cancel(*, actor: Actor, order_id: int, reason: str | None = None) -> OrderRow:
    """The broker confirmed the order cancelled (at the firm's request): what was not executed goes
    (its cash and units are no longer committed) and the recommendation stops being pending; fills
    already recorded stay."""
    require_staff(actor)
    with session_scope() as s:
        order, p = _order(s, actor, order_id)
        _open(order)
        text = (reason.strip()[:300] if reason else None) or "Cancelled with the broker"
        left = order_book.remaining(order)
        order_book.close_unfilled(s, order, order_rules.CANCELLED, reason=text, actor_id=actor.id)
        code = _code(s, order)
        audit.record(s, actor, "order.cancelled", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={"order": order.reference, "side": order.side, "code": code, "quantity": left,
                            "reason": text})
        return _rows(s, [(order, p, code)])[0]


def _fill_key(c: order_rules.Confirmation) -> str:
    """A fill's identity: the broker's fill id or contract note, else what the line says (so that
    the same file uploaded twice is recognised)."""
    if c.fill_id:
        return c.fill_id[:120]
    return (f"{c.account}|{c.side}|{c.code}|{c.quantity.normalize():f}|{c.price.normalize():f}|"
            f"{c.trade_at.date().isoformat()}|{c.reference}")[:120]


def upload_confirmations(*, actor: Actor, content_type: str | None, data: bytes | None,
                         firm_id: int | None = None) -> UploadResult:
    """Records every fill the broker's execution file reports, or none."""
    require_staff(actor)
    lines, errors = checked_upload(content_type, data or None, order_rules.parse_confirmations)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        # every order of the firm's portfolios that a line could name (open or closed, for the messages)
        candidates = s.exec(select(BrokerOrder, Portfolio, Asset.code)
                            .join(Portfolio, col(Portfolio.id) == BrokerOrder.investment_id)
                            .join(Asset, col(Asset.id) == BrokerOrder.asset_id)
                            .where(readable_portfolios(actor, fid),
                                   or_(col(BrokerOrder.status).in_(order_rules.OPEN_STATUSES),
                                       col(BrokerOrder.closed_at) >= utcnow() - timedelta(days=90)))
                            .order_by(col(BrokerOrder.id)).with_for_update(of=BrokerOrder)).all()
        keys = [_fill_key(c) for c in lines]
        known = set(s.exec(select(BrokerOrderFill.fill_key).where(col(BrokerOrderFill.fill_key).in_(keys))).all()) \
            if keys else set()
        remaining = {o.id: order_book.remaining(o) for o, _, _ in candidates}
        plan: list[tuple[order_rules.Confirmation, BrokerOrder, str]] = []
        skipped = 0
        seen: set[str] = set()
        for c, key in zip(lines, keys):
            if key in known:
                skipped += 1
                continue
            if key in seen:
                errors.append(LineError(c.line, "the same fill is on another line of the file"))
                continue
            seen.add(key)
            side = c.side
            named = [(o, p) for o, p, code in candidates if code == c.code and o.side == side
                     and c.account in {p.broker_account or "", p.hin or ""} - {""}]
            if c.reference:
                by_ref = [(o, p) for o, p, _ in candidates if o.reference == c.reference]
                if not by_ref:
                    errors.append(LineError(c.line, f"no order {c.reference} of this firm"))
                    continue
                named = by_ref
            if not named:
                errors.append(LineError(c.line, f"no placed order for {c.side} {c.code} in account {c.account}"))
                continue
            live = [(o, p) for o, p in named if o.status in order_rules.OPEN_STATUSES]
            if not live:
                o = named[0][0]
                errors.append(LineError(c.line, f"order {o.reference} is {order_rules.CLOSED_WORDS.get(o.status, o.status)}"))
                continue
            fits = [(o, p) for o, p in live if remaining[o.id] >= c.quantity]
            exact = [(o, p) for o, p in fits if remaining[o.id] == c.quantity]
            if not fits:
                left = ", ".join(f"{remaining[o.id].normalize():f}" for o, _ in live)
                errors.append(LineError(c.line, f"quantity {c.quantity.normalize():f} is more than the order's "
                                                f"units not yet executed ({left})"))
                continue
            o, p = (exact or fits)[0]
            remaining[o.id] -= c.quantity
            plan.append((c, o, key))
        # sells: never more than the portfolio holds
        if not errors:
            wanted: dict[tuple[int, int], Decimal] = {}
            for c, o, _ in plan:
                if o.side == "SELL":
                    wanted[(o.investment_id, o.asset_id)] = wanted.get((o.investment_id, o.asset_id), ZERO) + c.quantity
            for (pid, aid), units in wanted.items():
                portfolio = s.get(Portfolio, pid)
                if portfolio is None or units > postings.position(s, portfolio, aid).units:
                    line = next(c.line for c, o, _ in plan if (o.investment_id, o.asset_id) == (pid, aid))
                    errors.append(LineError(line, NOT_ENOUGH_ASSETS))
        if errors:
            message, fields = order_rules.not_uploaded(errors)
            raise ValidationError(message, fields)
        for c, o, key in plan:
            order_book.fill(s, o, order_book.Fill(key=key, quantity=c.quantity, price=c.price, brokerage=c.brokerage,
                                                  trade_at=c.trade_at, settlement_at=c.settlement_at),
                            actor_id=actor.id)
        touched = len({o.id for _, o, _ in plan})
        audit.record(s, actor, "broker_confirmations.uploaded", "broker_file", None, firm_id=fid,
                     label=f"{touched} orders executed", after={"orders": touched, "fills": len(plan),
                                                                 "already_recorded": skipped})
        notice = order_rules.CONFIRMATIONS_UPLOADED
        if skipped:
            notice += f" ({skipped:,} {'fill was' if skipped == 1 else 'fills were'} already recorded)"
        return UploadResult(notice=notice, count=touched, fills=len(plan), skipped=skipped)


# ---- expiry -------------------------------------------------------------------------------------------
def expire_orders(*, today: date | None = None) -> int:
    """The sweep: every open order whose expiry day has passed becomes Expired (run by the periodic
    sweep; idempotent). How many expired."""
    with session_scope() as s:
        expired = order_book.expire_due(s, today or utcnow().date())
        for o in expired:
            audit.record(s, None, "order.expired", "portfolio", o.investment_id, firm_id=o.firm_id,
                         label=o.reference, after={"order": o.reference, "filled": o.filled_quantity})
        return len(expired)


# ---- reconciliation -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReconciliationLine:
    order: OrderRow
    event: str                      # placed | filled | partly_filled | expired | cancelled | rejected
    event_label: str
    units: Decimal                  # the units the event concerns (placed: ordered; fills: filled that day)
    value: Decimal                  # units x price (the fills' prices; placed: the order's price)


@dataclass(frozen=True)
class BrokerTotal:
    broker: str
    placed: int
    filled: int
    partly_filled: int
    expired: int
    cancelled: int
    rejected: int
    buys: Decimal
    sells: Decimal


@dataclass(frozen=True)
class Reconciliation:
    day: date
    lines: tuple[ReconciliationLine, ...]
    totals: tuple[BrokerTotal, ...]


EVENT_LABELS = {"placed": "Placed", "filled": "Filled", "partly_filled": "Partly filled", "expired": "Expired",
                "cancelled": "Cancelled", "rejected": "Rejected"}


def reconciliation(*, actor: Actor, day: date | None = None, firm_id: int | None = None) -> Reconciliation:
    """What happened to the firm's orders on one day (UTC): placed, filled, partly filled, expired,
    cancelled, rejected, each order with its units and value, and totals by broker, so that
    operations can tick off a broker's confirmations against what was sent."""
    require_staff(actor)
    the_day = day or utcnow().date()
    start = datetime.combine(the_day, time.min, tzinfo=timezone.utc)
    end = start + timedelta(days=1)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        fills_today = s.exec(select(BrokerOrderFill).where(BrokerOrderFill.trade_at >= start,
                                                           BrokerOrderFill.trade_at < end)).all()
        touched_ids = {f.order_id for f in fills_today}
        found = s.exec(select(BrokerOrder, Portfolio, Asset.code)
                       .join(Portfolio, col(Portfolio.id) == BrokerOrder.investment_id)
                       .join(Asset, col(Asset.id) == BrokerOrder.asset_id)
                       .where(readable_portfolios(actor, fid),
                              or_(col(BrokerOrder.placed_at).between(start, end),
                                  col(BrokerOrder.closed_at).between(start, end),
                                  col(BrokerOrder.id).in_(sorted(touched_ids) or [0])))
                       .order_by(col(BrokerOrder.placed_at), col(BrokerOrder.id))).all()
        rows = {r.id: r for r in _rows(s, list(found))}
        by_order: dict[int, list[BrokerOrderFill]] = {}
        for f in fills_today:
            by_order.setdefault(f.order_id, []).append(f)
        lines: list[ReconciliationLine] = []
        for o, _, _ in found:
            row = rows[stored_id(o)]
            if start <= o.placed_at < end:
                price = o.placed_price or o.stop_price or o.limit_price or row.price or ZERO
                lines.append(ReconciliationLine(row, "placed", EVENT_LABELS["placed"], Decimal(o.quantity),
                                                to_cents(Decimal(o.quantity) * price)))
            if o.id in by_order:
                units = sum((f.quantity for f in by_order[o.id]), ZERO)
                value = to_cents(sum((f.quantity * f.price for f in by_order[o.id]), ZERO))
                event = "filled" if o.status == order_rules.FILLED else "partly_filled"
                lines.append(ReconciliationLine(row, event, EVENT_LABELS[event], units, value))
            if o.closed_at and start <= o.closed_at < end and o.status in (
                    order_rules.EXPIRED, order_rules.CANCELLED, order_rules.REJECTED_STATUS):
                event = {order_rules.REJECTED_STATUS: "rejected"}.get(o.status, o.status)
                units = order_book.remaining(o)
                lines.append(ReconciliationLine(row, event, EVENT_LABELS[event], units,
                                                to_cents(units * (o.placed_price or o.limit_price or o.stop_price
                                                                  or ZERO))))
        totals: dict[str, dict[str, Any]] = {}
        for line in lines:
            t = totals.setdefault(line.order.broker_name or "No broker", {
                "placed": 0, "filled": 0, "partly_filled": 0, "expired": 0, "cancelled": 0, "rejected": 0,
                "buys": ZERO, "sells": ZERO})
            t[line.event] += 1
            if line.event in ("filled", "partly_filled"):
                t["buys" if line.order.side == "BUY" else "sells"] += line.value
        return Reconciliation(day=the_day, lines=tuple(lines), totals=tuple(
            BrokerTotal(broker=name, **figures) for name, figures in sorted(totals.items())))


@dataclass(frozen=True)
class OrderFile:
    name: str
    data: bytes
    media_type: str


def reconciliation_file(*, actor: Actor, day: date | None = None, firm_id: int | None = None) -> OrderFile:
    """GET /api/orders/reconciliation/export-excel: the day's reconciliation as a workbook."""
    from app.exports import order_reconciliation
    from app.exports.broker_files import XLSX

    recon = reconciliation(actor=actor, day=day, firm_id=firm_id)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        firm = s.get(Firm, fid) if fid is not None else None
        firm_name = firm.name if firm is not None else "All Firms"
    name = f"{safe_name(firm_name, 'All Firms')} - Orders of {recon.day:%Y-%m-%d}.xlsx"
    return OrderFile(name=name, data=order_reconciliation.xlsx(recon, firm_name), media_type=XLSX)


__all__ = ["OrderRow", "UploadResult", "list_orders", "execute", "reject", "cancel", "upload_confirmations", "expire_orders",
           "reconciliation", "reconciliation_file", "Execution", "read_execution", "read_day", "OrderFile", "Reconciliation", "ReconciliationLine", "BrokerTotal", "MAX_UPLOAD_BYTES"]
