"""Tax reporting: carried-forward capital losses per portfolio and financial year (the parcels each
sale took are derived from the executed transactions under the portfolio's tax treatment).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 11:50:00
"""
from typing import Sequence, Union

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401
import app.db.types  # noqa: F401


revision: str = '0013'
down_revision: Union[str, None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'carried_forward_losses',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('investment_id', sa.Integer(), sa.ForeignKey('investments.id'), nullable=False, index=True),
        sa.Column('year', sa.Integer(), nullable=False),
        sa.Column('amount', sa.Numeric(14, 2, asdecimal=True), nullable=False),
        sa.Column('created_by', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
        sa.Column('updated_by', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
        sa.Column('created_at', app.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column('updated_at', app.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('investment_id', 'year', name='uq_carried_forward_losses_investment_year'),
    )


def downgrade() -> None:
    op.drop_table('carried_forward_losses')
