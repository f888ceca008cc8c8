"""Indexes on the foreign keys that deletes look up: without them, deleting a portfolio's
transactions, a target portfolio or a bulk run scans the referencing table once per row.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 07:20:00
"""
from typing import Sequence, Union

from alembic import op


revision: str = '0006'
down_revision: Union[str, None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

INDEXES = (
    ('asset_transactions', 'replaces_id'),
    ('trade_instructions', 'target_portfolio_id'),
    ('trade_instructions', 'bulk_run_id'),
    ('target_portfolios', 'bulk_run_id'),
    ('bulk_run_items', 'investment_id'),
)


def upgrade() -> None:
    for table, column in INDEXES:
        op.create_index(f'ix_{table}_{column}', table, [column])


def downgrade() -> None:
    for table, column in reversed(INDEXES):
        op.drop_index(f'ix_{table}_{column}', table_name=table)
