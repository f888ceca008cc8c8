"""Broker orders as records of their own: the order (its broker, reference, type, stop and limit
prices, expiry and status), every version sent to the broker, and the fills that came back. The
firm chooses its orders' default life and the limit a triggered stop loss sells at.

Existing orders (asset transactions placed by a broker file export) become orders: a placed one
stays placed with its asset transaction as the open remainder; an executed one is filled with one
fill; a rejected one is rejected.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 11:40:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import app.db.types


revision: str = '0010'
down_revision: Union[str, None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_QTY = sa.Numeric(18, 6, asdecimal=True)
_UTC = app.db.types.UTCDateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table('firms') as batch:
        batch.add_column(sa.Column('order_expiry_days', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('order_good_till_cancelled', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('stop_loss_limit_gap', sa.Numeric(9, 4, asdecimal=True), nullable=True))

    op.create_table(
        'broker_orders',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('firm_id', sa.Integer(), sa.ForeignKey('firms.id'), nullable=False, index=True),
        sa.Column('investment_id', sa.Integer(), sa.ForeignKey('investments.id'), nullable=False, index=True),
        sa.Column('broker_id', sa.Integer(), sa.ForeignKey('brokers.id'), nullable=True),
        sa.Column('asset_id', sa.Integer(), sa.ForeignKey('assets.id'), nullable=False),
        sa.Column('trade_transaction_id', sa.Integer(), sa.ForeignKey('trade_transactions.id'), nullable=True,
                  index=True),
        sa.Column('open_transaction_id', sa.Integer(), sa.ForeignKey('asset_transactions.id'), nullable=True,
                  index=True),
        sa.Column('reference', sa.String(40), nullable=False, unique=True),
        sa.Column('side', sa.String(4), nullable=False),
        sa.Column('order_type', sa.String(20), nullable=False),
        sa.Column('quantity', _QTY, nullable=False),
        sa.Column('filled_quantity', _QTY, nullable=False, server_default='0'),
        sa.Column('limit_price', _QTY, nullable=True),
        sa.Column('stop_price', _QTY, nullable=True),
        sa.Column('placed_price', _QTY, nullable=True),
        sa.Column('expires_on', sa.Date(), nullable=True),
        sa.Column('status', sa.String(20), nullable=False, index=True),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('placed_at', _UTC, nullable=False, index=True),
        sa.Column('placed_by', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
        sa.Column('closed_at', _UTC, nullable=True),
        sa.Column('updated_at', _UTC, nullable=False),
    )
    op.create_table(
        'broker_order_versions',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('order_id', sa.Integer(), sa.ForeignKey('broker_orders.id'), nullable=False, index=True),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('action', sa.String(10), nullable=False),
        sa.Column('quantity', _QTY, nullable=False),
        sa.Column('limit_price', _QTY, nullable=True),
        sa.Column('stop_price', _QTY, nullable=True),
        sa.Column('expires_on', sa.Date(), nullable=True),
        sa.Column('file_kind', sa.String(20), nullable=True),
        sa.Column('trade_transaction_id', sa.Integer(), sa.ForeignKey('trade_transactions.id'), nullable=True,
                  index=True),
        sa.Column('sent_at', _UTC, nullable=False),
        sa.Column('sent_by', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
        sa.UniqueConstraint('order_id', 'version', name='uq_broker_order_versions_order_version'),
    )
    op.create_table(
        'broker_order_fills',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('order_id', sa.Integer(), sa.ForeignKey('broker_orders.id'), nullable=False, index=True),
        sa.Column('fill_key', sa.String(120), nullable=False, unique=True),
        sa.Column('quantity', _QTY, nullable=False),
        sa.Column('price', _QTY, nullable=False),
        sa.Column('brokerage', sa.Numeric(14, 2, asdecimal=True), nullable=False),
        sa.Column('trade_at', _UTC, nullable=False),
        sa.Column('settlement_at', _UTC, nullable=True),
        sa.Column('asset_transaction_id', sa.Integer(), sa.ForeignKey('asset_transactions.id'), nullable=False),
        sa.Column('created_at', _UTC, nullable=False),
        sa.Column('created_by', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
    )
    _migrate_existing_orders()


def _migrate_existing_orders() -> None:
    """Every asset transaction a broker file placed becomes an order with its first version (and,
    once executed, its one fill)."""
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT t.id, t.investment_id, t.asset_id, t.action, t.status, t.quantity, t.price, t.fee, t.limit_price,"
        " t.payload, t.trade_transaction_id, t.expires_at, t.trade_at, t.settlement_at, t.contract_note,"
        " t.order_id, t.created_at, t.created_by, t.updated_at, p.firm_id, p.broker_id"
        " FROM asset_transactions t JOIN investments p ON p.id = t.investment_id"
        " WHERE t.trade_transaction_id IS NOT NULL AND t.status IN ('processing', 'executed', 'processing_error')"
        " ORDER BY t.id")).mappings().all()
    import json
    for r in rows:
        try:
            payload = json.loads(r["payload"]) if r["payload"] else {}
        except ValueError:
            payload = {}
        kind = str(payload.get("order_type") or ("limit" if r["limit_price"] is not None else "market"))
        status = {"processing": "placed", "executed": "filled", "processing_error": "rejected"}[r["status"]]
        expires = r["expires_at"]
        if isinstance(expires, str):  # SQLite hands back text
            expires = expires[:10]
        elif expires is not None:
            expires = expires.date()
        quantity = r["quantity"] or 0
        result = bind.execute(sa.text(
            "INSERT INTO broker_orders (firm_id, investment_id, broker_id, asset_id, trade_transaction_id,"
            " open_transaction_id, reference, side, order_type, quantity, filled_quantity, limit_price, stop_price,"
            " placed_price, expires_on, status, reason, placed_at, placed_by, closed_at, updated_at) VALUES (:firm,"
            " :pid, :broker, :asset, :rec, :open, :ref, :side, :kind, :qty, :filled, :limit, NULL, :price, :expires,"
            " :status, :reason, :placed_at, :placed_by, :closed_at, :updated_at) RETURNING id"), dict(price=r["price"],
            firm=r["firm_id"], pid=r["investment_id"], broker=r["broker_id"], asset=r["asset_id"],
            rec=r["trade_transaction_id"], open=r["id"] if status == "placed" else None,
            ref=r["order_id"] or f"WA{r['id']}", side="BUY" if r["action"] == "buy" else "SELL",
            kind="limit" if kind == "stop_loss" else kind, qty=quantity,
            filled=quantity if status == "filled" else 0, limit=r["limit_price"], expires=expires, status=status,
            reason=payload.get("rejection"), placed_at=r["created_at"], placed_by=r["created_by"],
            closed_at=r["updated_at"] if status != "placed" else None, updated_at=r["updated_at"]))
        order_id = result.scalar_one()
        bind.execute(sa.text(
            "INSERT INTO broker_order_versions (order_id, version, action, quantity, limit_price, stop_price,"
            " expires_on, file_kind, trade_transaction_id, sent_at, sent_by) VALUES (:order, 1, 'New', :qty, :limit,"
            " NULL, :expires, :file, :rec, :sent_at, :sent_by)"), dict(order=order_id, qty=quantity,
                                                                      rec=r["trade_transaction_id"], limit=r["limit_price"],
                                                  expires=expires, file=payload.get("file"),
                                                  sent_at=r["created_at"], sent_by=r["created_by"]))
        if status == "filled":
            bind.execute(sa.text(
                "INSERT INTO broker_order_fills (order_id, fill_key, quantity, price, brokerage, trade_at,"
                " settlement_at, asset_transaction_id, created_at, created_by) VALUES (:order, :key, :qty, :price,"
                " :fee, :trade_at, :settlement_at, :tx, :created_at, :created_by)"), dict(
                order=order_id, key=f"migrated-{r['id']}", qty=quantity, price=r["price"] or 0, fee=r["fee"] or 0,
                trade_at=r["trade_at"], settlement_at=r["settlement_at"], tx=r["id"], created_at=r["updated_at"],
                created_by=r["created_by"]))


def downgrade() -> None:
    op.drop_table('broker_order_fills')
    op.drop_table('broker_order_versions')
    op.drop_table('broker_orders')
    with op.batch_alter_table('firms') as batch:
        batch.drop_column('stop_loss_limit_gap')
        batch.drop_column('order_good_till_cancelled')
        batch.drop_column('order_expiry_days')
