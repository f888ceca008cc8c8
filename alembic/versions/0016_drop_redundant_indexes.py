"""Drop three indexes that a composite index already covers (its leading column), so that placing
orders writes three index entries fewer per order: asset_transactions (investment_id, asset_id),
cash_transactions (investment_id, trade_at) and broker_order_versions (order_id, version) answer
every lookup by their first column.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 18:15:00
"""
from typing import Sequence, Union

from alembic import op


revision: str = '0016'
down_revision: Union[str, None] = '0015'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_COVERED = (("asset_transactions", "ix_asset_transactions_investment_id", "investment_id"),
            ("cash_transactions", "ix_cash_transactions_investment_id", "investment_id"),
            ("broker_order_versions", "ix_broker_order_versions_order_id", "order_id"))


def upgrade() -> None:
    for table, index, _ in _COVERED:
        with op.batch_alter_table(table) as batch:
            batch.drop_index(index)


def downgrade() -> None:
    for table, index, column in _COVERED:
        with op.batch_alter_table(table) as batch:
            batch.create_index(index, [column], unique=False)
