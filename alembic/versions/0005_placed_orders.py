"""Orders placed with a broker: an asset transaction created by a broker file export links to the
recommended trade it carries out and keeps the order's expiry.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 19:10:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import app.db.types


revision: str = '0005'
down_revision: Union[str, None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('asset_transactions') as batch:
        batch.add_column(sa.Column('trade_transaction_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('expires_at', app.db.types.UTCDateTime(timezone=True), nullable=True))
        batch.create_foreign_key('fk_asset_transactions_trade_transaction', 'trade_transactions',
                                 ['trade_transaction_id'], ['id'])
        batch.create_index('ix_asset_transactions_trade_transaction_id', ['trade_transaction_id'])


def downgrade() -> None:
    with op.batch_alter_table('asset_transactions') as batch:
        batch.drop_index('ix_asset_transactions_trade_transaction_id')
        batch.drop_constraint('fk_asset_transactions_trade_transaction', type_='foreignkey')
        batch.drop_column('expires_at')
        batch.drop_column('trade_transaction_id')
