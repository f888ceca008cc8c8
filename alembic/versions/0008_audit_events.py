"""The audit trail: an append-only record of sign-ins and of every change that matters.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 08:45:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import app.db.types


revision: str = '0008'
down_revision: Union[str, None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'audit_events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', app.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column('actor_id', sa.Integer(), nullable=True),
        sa.Column('actor_email', sa.String(length=254), nullable=True),
        sa.Column('firm_id', sa.Integer(), nullable=True),
        sa.Column('action', sa.String(length=60), nullable=False),
        sa.Column('object_type', sa.String(length=40), nullable=False),
        sa.Column('object_id', sa.Integer(), nullable=True),
        sa.Column('object_label', sa.String(length=300), nullable=True),
        sa.Column('before', sa.Text(), nullable=True),
        sa.Column('after', sa.Text(), nullable=True),
        sa.Column('ip', sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_audit_events_at', 'audit_events', ['at'])
    op.create_index('ix_audit_events_actor_id', 'audit_events', ['actor_id'])
    op.create_index('ix_audit_events_firm_id', 'audit_events', ['firm_id'])
    op.create_index('ix_audit_events_action', 'audit_events', ['action'])
    op.create_index('ix_audit_events_object', 'audit_events', ['object_type', 'object_id'])


def downgrade() -> None:
    for name in ('ix_audit_events_object', 'ix_audit_events_action', 'ix_audit_events_firm_id',
                 'ix_audit_events_actor_id', 'ix_audit_events_at'):
        op.drop_index(name, table_name='audit_events')
    op.drop_table('audit_events')
