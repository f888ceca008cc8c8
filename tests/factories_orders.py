"""Broker orders for tests: an order placed as a broker file places it (its open asset transaction
in Placed, linked to the recommendation, and the order with its first version)."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, Portfolio, TradeTransaction
from app.db.types import utcnow
from app.services import order_book
from tests.factories_portfolios import post


def make_order(portfolio: Portfolio, asset, trade_id: int | None, quantity: str | int, *, price: str = "60.00",
               fee: str = "10.00", limit_price: str | None = None, expiry: date | None = None,
               side: str | None = None) -> tuple[int, int]:
    """(order id, open asset transaction id) of a placed order of `quantity` units of `asset`."""
    with session_scope() as s:
        action = s.get(TradeTransaction, trade_id).action if trade_id else "increase"
    side = side or ("BUY" if action in ("increase", "buy") else "SELL")
    row = post(portfolio, "asset_buy" if side == "BUY" else "parcel", status="processing", asset_id=asset.id,
               quantity=quantity, price=price, fee=fee)
    with session_scope() as s:
        tx = s.get(AssetTransaction, row.id)
        tx.trade_transaction_id, tx.order_id = trade_id, f"WA{row.id}"
        tx.limit_price = Decimal(limit_price) if limit_price else None
        s.add(tx)
        p = s.get(Portfolio, portfolio.id)
        [order_id] = order_book.record_new(s, actor_id=None, now=utcnow(), file_kind="trade_file", orders=[
            order_book.NewOrder(open_transaction_id=row.id, firm_id=p.firm_id, portfolio_id=p.id,
                                broker_id=p.broker_id, asset_id=asset.id, recommendation_id=trade_id, side=side,
                                order_type="LIMIT" if limit_price else "MARKET", quantity=Decimal(quantity),
                                limit_price=Decimal(limit_price) if limit_price else None, stop_price=None,
                                expiry=expiry or date.today() + timedelta(days=30), placed_price=Decimal(price))])
    return order_id, row.id
