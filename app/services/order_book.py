"""The book of broker orders (tables broker_orders, broker_order_versions, broker_order_fills):
internal to the services, in the caller's session, no permission checks (callers resolve the
actor and the firm first).

- `record_new`: orders a broker file placed, each with its first version (New).
- `fill`: a fill the broker reported: the whole remainder executes the order's open asset
  transaction; a part posts an executed asset transaction of its own and leaves the rest placed.
- `close_unfilled`: an order ends unexecuted (expired, cancelled): its open remainder goes (cash
  and units no longer committed) and the recommendation it carried stops being pending.
- `expire_due`: the sweep that closes every open order whose expiry day has passed.
- `amend` / `cancel_by_file`: a later recommendation changes a live order (a new version, the same
  reference): the order carries that recommendation too, and executes or ends with it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Sequence

from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.db import bulk
from app.db.tables import (
    AssetTransaction, BrokerOrder, BrokerOrderFill, BrokerOrderVersion, CashTransaction, Portfolio, TradeInstruction,
    TradeTransaction,
)
from app.db.types import stored_id, utcnow
from app.domain import orders as rules
from app.domain.advice.trade_instructions import TxStatus, side_of
from app.domain.money import to_cents
from app.domain.transactions import Status, cash_amount
from app.services import postings

ZERO = Decimal(0)
PRICE_PLACES = Decimal("0.000001")


@dataclass(frozen=True)
class NewOrder:
    """An order a broker file placed: its open asset transaction (whose id names it WA<id>)."""

    open_transaction_id: int
    firm_id: int
    portfolio_id: int
    broker_id: int | None
    asset_id: int
    recommendation_id: int | None
    side: str
    order_type: str          # MARKET | LIMIT | STOP_LOSS
    quantity: Decimal
    limit_price: Decimal | None
    stop_price: Decimal | None
    expiry: date | None
    placed_price: Decimal | None = None  # what the order was valued at (its limit, trigger, else the last close)


_ORDER_COLUMNS = ("id", "firm_id", "investment_id", "broker_id", "asset_id", "trade_transaction_id",
                  "open_transaction_id", "reference", "side", "order_type", "quantity", "filled_quantity",
                  "limit_price", "stop_price", "placed_price", "expires_on", "status", "placed_at", "placed_by",
                  "updated_at")
_VERSION_COLUMNS = ("order_id", "version", "action", "quantity", "limit_price", "stop_price", "expires_on",
                    "file_kind", "trade_transaction_id", "sent_at", "sent_by")


def record_new(s: Session, *, actor_id: int | None, now: datetime, file_kind: str,
               orders: Sequence[NewOrder]) -> list[int]:
    """Writes the orders and their first version (New) with two bulk inserts; their ids in order."""
    if not orders:
        return []
    ids = bulk.reserve_ids(s, BrokerOrder, len(orders))
    bulk.copy_rows(s, BrokerOrder, [
        (oid, o.firm_id, o.portfolio_id, o.broker_id, o.asset_id, o.recommendation_id, o.open_transaction_id,
         f"WA{o.open_transaction_id}", o.side, o.order_type.lower(), o.quantity, ZERO, o.limit_price, o.stop_price,
         o.placed_price, o.expiry, rules.PLACED, now, actor_id, now) for oid, o in zip(ids, orders)], _ORDER_COLUMNS)
    bulk.copy_rows(s, BrokerOrderVersion, [
        (oid, 1, "New", o.quantity, o.limit_price, o.stop_price, o.expiry, file_kind, o.recommendation_id, now,
         actor_id)
        for oid, o in zip(ids, orders)], _VERSION_COLUMNS)
    return ids


def carried(s: Session, order: BrokerOrder) -> list[int]:
    """The recommendations an order carries out: the one it was placed for, then each a later
    version (an Amend or a Cancel) carried, in order."""
    later = s.exec(select(BrokerOrderVersion.trade_transaction_id).where(
        BrokerOrderVersion.order_id == order.id, col(BrokerOrderVersion.trade_transaction_id).is_not(None))
        .order_by(col(BrokerOrderVersion.version))).all()
    return list(dict.fromkeys(rid for rid in ([order.trade_transaction_id] + list(later)) if rid is not None))


def _next_version(s: Session, order: BrokerOrder) -> int:
    versions = s.exec(select(BrokerOrderVersion.version).where(BrokerOrderVersion.order_id == order.id)).all()
    return max(versions, default=0) + 1


def amend(s: Session, order: BrokerOrder, *, quantity: Decimal, limit_price: Decimal | None,
          recommendation_id: int | None, file_kind: str, actor_id: int | None) -> None:
    """The live order's units still with the broker become `quantity` (and its limit `limit_price`
    when one is given): a new version (Amend) with the same reference, the open remainder and its
    committed cash in line."""
    now = utcnow()
    open_tx = s.get(AssetTransaction, order.open_transaction_id) if order.open_transaction_id else None
    if open_tx is None:
        raise ValueError(f"order {order.reference} has no open remainder")
    left = remaining(order)
    if limit_price is not None and order.order_type != "stop_loss":
        order.limit_price, order.order_type = limit_price, "limit"
        open_tx.limit_price = limit_price
    price = (limit_price if limit_price is not None and order.order_type != "stop_loss" else open_tx.price) or ZERO
    open_tx.fee = to_cents(open_tx.fee * quantity / left) if open_tx.fee and left else open_tx.fee
    open_tx.quantity, open_tx.price = quantity, price
    open_tx.amount = cash_amount(open_tx.type, quantity=quantity, price=price, fee=open_tx.fee, gst=open_tx.gst)
    open_tx.updated_by, open_tx.updated_at = actor_id, now
    s.add(open_tx)
    postings.sync_cash(s, open_tx)
    order.quantity = Decimal(order.filled_quantity or 0) + quantity
    order.updated_at = now
    s.add(order)
    s.add(BrokerOrderVersion(order_id=stored_id(order), version=_next_version(s, order), action=rules.AMEND,
                             quantity=order.quantity, limit_price=order.limit_price, stop_price=order.stop_price,
                             expires_on=order.expires_on, file_kind=file_kind, trade_transaction_id=recommendation_id,
                             sent_at=now, sent_by=actor_id))
    s.flush()


def cancel_by_file(s: Session, order: BrokerOrder, *, recommendation_id: int | None, file_kind: str,
                   actor_id: int | None) -> None:
    """A later recommendation undoes what the order has left: a version (Cancel) is sent and the
    order ends cancelled; that recommendation is carried out by the cancellation."""
    now = utcnow()
    s.add(BrokerOrderVersion(order_id=stored_id(order), version=_next_version(s, order), action=rules.CANCEL,
                             quantity=remaining(order), limit_price=order.limit_price, stop_price=order.stop_price,
                             expires_on=order.expires_on, file_kind=file_kind, trade_transaction_id=recommendation_id,
                             sent_at=now, sent_by=actor_id))
    s.flush()
    close_unfilled(s, order, rules.CANCELLED, reason="Cancelled by later trade recommendations", actor_id=actor_id)


def remaining(order: BrokerOrder) -> Decimal:
    return Decimal(order.quantity) - Decimal(order.filled_quantity or 0)


def average_price(fills: Iterable[BrokerOrderFill]) -> Decimal | None:
    """The volume-weighted average of the fills' prices (six places, half up)."""
    units = total = ZERO
    for f in fills:
        units += f.quantity
        total += f.quantity * f.price
    return (total / units).quantize(PRICE_PLACES, rounding=ROUND_HALF_UP) if units else None


@dataclass(frozen=True)
class Fill:
    key: str                 # the broker's contract note or fill id: a fill is recorded once
    quantity: Decimal
    price: Decimal
    brokerage: Decimal
    trade_at: datetime
    settlement_at: datetime | None


def fill(s: Session, order: BrokerOrder, f: Fill, *, actor_id: int | None) -> AssetTransaction:
    """Records the fill: holdings and cash move for its units; the order is filled once nothing
    remains (its recommendation then executed), else partly filled with the rest still placed.
    The caller has checked the units (not more than remain; a sell not more than held)."""
    open_tx = s.get(AssetTransaction, order.open_transaction_id) if order.open_transaction_id else None
    if open_tx is None:
        raise ValueError(f"order {order.reference} has no open remainder")
    left = remaining(order)
    now = utcnow()
    if f.quantity >= left:  # the last fill executes the open remainder itself
        executed = open_tx
        executed.quantity, executed.price, executed.fee = f.quantity, f.price, to_cents(f.brokerage)
        executed.amount = cash_amount(executed.type, quantity=f.quantity, price=f.price, fee=executed.fee,
                                      gst=executed.gst)
        executed.trade_at, executed.settlement_at = f.trade_at, f.settlement_at
        executed.status, executed.om_status = Status.EXECUTED.value, "success"
        executed.contract_note = f.key[:80]
        executed.updated_by, executed.updated_at = actor_id, now
        s.add(executed)
        postings.sync_cash(s, executed)
        order.open_transaction_id = None
        order.status, order.closed_at = rules.FILLED, now
        for rid in carried(s, order):  # every recommendation the order carried out is done
            rec = s.get(TradeTransaction, rid)
            if rec is not None and rec.status == TxStatus.APPROVED.value:
                rec.status, rec.updated_at = TxStatus.EXECUTED.value, now
                s.add(rec)
    else:  # a part: its own executed transaction; the open remainder shrinks
        portfolio = s.get(Portfolio, order.investment_id)
        if portfolio is None:
            raise ValueError(f"order {order.reference} has no portfolio")
        executed, _ = postings.record(
            s, actor_id=actor_id, portfolio=portfolio, kind=open_tx.type, status=Status.EXECUTED.value,
            trade_at=f.trade_at, asset_id=open_tx.asset_id, quantity=f.quantity, price=f.price,
            fee=to_cents(f.brokerage), settlement_at=f.settlement_at, contract_note=f.key[:80],
            order_id=order.reference, limit_price=open_tx.limit_price,
            description=f"{order.side} {f.quantity.normalize():f} of order {order.reference} executed")
        rest = left - f.quantity
        order_price = open_tx.price or f.price
        open_tx.quantity = rest
        open_tx.fee = to_cents(open_tx.fee * rest / left) if open_tx.fee else open_tx.fee
        open_tx.amount = cash_amount(open_tx.type, quantity=rest, price=order_price, fee=open_tx.fee, gst=open_tx.gst)
        open_tx.updated_by, open_tx.updated_at = actor_id, now
        s.add(open_tx)
        postings.sync_cash(s, open_tx)
        order.status = rules.PARTLY_FILLED
    order.filled_quantity = Decimal(order.filled_quantity or 0) + f.quantity
    order.updated_at = now
    s.add(order)
    s.flush()
    s.add(BrokerOrderFill(order_id=stored_id(order), fill_key=f.key, quantity=f.quantity, price=f.price,
                          brokerage=to_cents(f.brokerage), trade_at=f.trade_at, settlement_at=f.settlement_at,
                          asset_transaction_id=stored_id(executed), created_at=now, created_by=actor_id))
    s.flush()
    return executed


def close_unfilled(s: Session, order: BrokerOrder, status: str, *, reason: str | None = None,
                   actor_id: int | None = None) -> None:
    """The order ends with its remainder unexecuted (expired or cancelled): the open asset
    transaction and its cash go, and the recommendation stops being pending (what was filled
    stays in the holdings)."""
    now = utcnow()
    if order.open_transaction_id:
        s.execute(delete(CashTransaction).where(
            col(CashTransaction.linked_transaction_id) == order.open_transaction_id))
        open_id = order.open_transaction_id
        order.open_transaction_id = None
        s.add(order)
        s.flush()
        s.execute(delete(AssetTransaction).where(col(AssetTransaction.id) == open_id))
    order.status, order.closed_at, order.updated_at = status, now, now
    if reason:
        order.reason = reason
    s.add(order)
    for rid in carried(s, order):
        rec = s.get(TradeTransaction, rid)
        if rec is not None and rec.status == TxStatus.APPROVED.value:
            rec.status = TxStatus.EXPIRED.value if status == rules.EXPIRED else TxStatus.CANCELLED.value
            rec.updated_at = now
            s.add(rec)
    s.flush()


def expire_due(s: Session, today: date) -> list[BrokerOrder]:
    """Every open order whose expiry day is before `today` becomes Expired (idempotent)."""
    due = s.exec(select(BrokerOrder).where(col(BrokerOrder.status).in_(rules.OPEN_STATUSES),
                                           col(BrokerOrder.expires_on).is_not(None),
                                           col(BrokerOrder.expires_on) < today)
                 .order_by(col(BrokerOrder.id)).with_for_update()).all()
    for order in due:
        close_unfilled(s, order, rules.EXPIRED, reason=f"Expired unexecuted on {rules.expiry_text(order.expires_on)}")
    return list(due)


def filled_units(s: Session, recommendation_ids: Iterable[int]) -> dict[int, Decimal]:
    """Units already filled of the partly filled orders carrying these recommendations (a part
    filled leaves the rest pending): the order's filled units go to the recommendations on its side
    in the order it carried them, each up to its own units."""
    ids = sorted(set(recommendation_ids))
    if not ids:
        return {}
    partly = s.exec(select(BrokerOrder).where(BrokerOrder.status == rules.PARTLY_FILLED, bulk.among(
        s, BrokerOrder.investment_id, {r for r in s.exec(select(TradeInstruction.investment_id).join(
            TradeTransaction, col(TradeTransaction.trade_instruction_id) == TradeInstruction.id).where(
            bulk.among(s, TradeTransaction.id, ids))).all()}))).all()
    out: dict[int, Decimal] = {}
    for order in partly:
        left = Decimal(order.filled_quantity or 0)
        for rid in carried(s, order):
            rec = s.get(TradeTransaction, rid)
            if rec is None or side_of(rec.action) != order.side or left <= 0:
                continue
            share = min(left, Decimal(rec.quantity or 0))
            left -= share
            if rid in ids:
                out[rid] = share
    return out


__all__ = ["NewOrder", "Fill", "record_new", "fill", "close_unfilled", "expire_due", "remaining", "average_price",
           "filled_units", "carried", "amend", "cancel_by_file"]
