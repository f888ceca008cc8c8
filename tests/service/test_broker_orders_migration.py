"""Migration 0010 moves the orders placed before it into the order book: each asset transaction a
broker file placed becomes an order (placed, filled or rejected) with its first version and, once
executed, its fill. Run here on orders the product itself placed, after emptying the book."""
from __future__ import annotations

import importlib.util
from decimal import Decimal as D
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import delete
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import BrokerOrder, BrokerOrderFill, BrokerOrderVersion
from app.services import orders, trade_file
from tests.service.test_broker_orders import book, _open_orders  # noqa: F401  (the fixture)

MIGRATION = Path(__file__).resolve().parents[2] / "alembic" / "versions" / "0010_broker_orders.py"


def _migration():
    spec = importlib.util.spec_from_file_location("m0010", MIGRATION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_existing_orders_move_into_the_order_book(book):  # noqa: F811
    trade_file.export(actor=book.adviser, kind="trade_file",
                      lines=trade_file.read_export_lines([{"id": t.id} for t in (book.buy, book.other, book.loose)]))
    placed = {o.trade_transaction_id: o for o in _open_orders()}
    orders.execute(actor=book.adviser, order_id=placed[book.buy.id].id, execution=orders.read_execution(price="118.40", contract_note="CN-9"))
    orders.reject(actor=book.adviser, order_id=placed[book.other.id].id, reason="No funds")
    before = {(o.reference, o.status, o.side, D(o.quantity)) for o in _open_orders()}
    with session_scope() as s:
        for table in (BrokerOrderFill, BrokerOrderVersion, BrokerOrder):
            s.execute(delete(table))
    migration = _migration()
    with session_scope() as s:
        migration.op = SimpleNamespace(get_bind=lambda: s.connection())
        migration._migrate_existing_orders()
    after = _open_orders()
    assert {(o.reference, o.status, o.side, D(o.quantity)) for o in after} == before
    by_rec = {o.trade_transaction_id: o for o in after}
    assert by_rec[book.loose.id].open_transaction_id is not None and by_rec[book.buy.id].filled_quantity == 1103
    assert by_rec[book.other.id].reason == "No funds"
    with session_scope() as s:
        [fill] = s.exec(select(BrokerOrderFill)).all()
        assert (fill.order_id, fill.quantity, fill.price) == (by_rec[book.buy.id].id, D(1103), D("118.40"))
        assert len(s.exec(select(BrokerOrderVersion)).all()) == 3
    # the moved orders work as any: the placed one takes its fill
    [live], _ = orders.list_orders(actor=book.adviser)
    assert live.reference == by_rec[book.loose.id].reference
    done = orders.execute(actor=book.adviser, order_id=live.id, execution=orders.read_execution(price="46.00"))
    assert done.status_label == "Executed"
