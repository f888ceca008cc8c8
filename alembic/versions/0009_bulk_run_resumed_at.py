"""A bulk run remembers when its pending work was last queued again, so the sweep that resumes
stalled runs (a worker died, or the queue lost its jobs when Redis restarted) waits for that
attempt before trying again.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 09:00:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import app.db.types


revision: str = '0009'
down_revision: Union[str, None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('bulk_runs') as batch:
        batch.add_column(sa.Column('resumed_at', app.db.types.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('bulk_runs') as batch:
        batch.drop_column('resumed_at')
