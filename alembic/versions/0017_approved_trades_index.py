"""A partial index on the approved recommendations of a trade instruction: a calculation reads a
portfolio's approved trades (still pending) and the trade file lists them, while the table keeps
every recommendation of every version ever calculated; the index holds only the approved ones.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 21:50:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op


revision: str = '0017'
down_revision: Union[str, None] = '0016'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_APPROVED = sa.text("status = 'approved'")


def upgrade() -> None:
    op.create_index("ix_trade_transactions_approved", "trade_transactions", ["trade_instruction_id"],
                    unique=False, postgresql_where=_APPROVED, sqlite_where=_APPROVED)


def downgrade() -> None:
    op.drop_index("ix_trade_transactions_approved", table_name="trade_transactions")
