"""Each firm's record of advice template and branding.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 11:40:00
"""
from typing import Sequence, Union

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401
import app.db.types  # noqa: F401
import sqlmodel  # noqa: F401


revision: str = '0012'
down_revision: Union[str, None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLUMNS = ('rofa_layout', 'rofa_colour', 'rofa_disclaimer', 'rofa_footer', 'cgt_hin_percent', 'cgt_discount_percent',
           'cgt_asset_comments')


def upgrade() -> None:
    with op.batch_alter_table('firms') as batch:
        batch.add_column(sa.Column('rofa_layout', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True))
        batch.add_column(sa.Column('rofa_colour', sqlmodel.sql.sqltypes.AutoString(length=7), nullable=True))
        batch.add_column(sa.Column('rofa_disclaimer', sa.Text(), nullable=True))
        batch.add_column(sa.Column('rofa_footer', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True))
        batch.add_column(sa.Column('cgt_hin_percent', sa.Numeric(9, 4, asdecimal=True), nullable=True))
        batch.add_column(sa.Column('cgt_discount_percent', sa.Numeric(9, 4, asdecimal=True), nullable=True))
        batch.add_column(sa.Column('cgt_asset_comments', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('firms') as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
