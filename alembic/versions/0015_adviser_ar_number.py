"""Each adviser's authorised representative number (printed on the documents a client receives).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 14:40:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0015'
down_revision: Union[str, None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('users') as batch:
        batch.add_column(sa.Column('ar_number', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('users') as batch:
        batch.drop_column('ar_number')
