"""Sessions end after a spell of inactivity as well as at their absolute lifetime; download links
carry a single-use, short-lived ticket instead of the session token.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 08:30:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import app.db.types


revision: str = '0007'
down_revision: Union[str, None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('session_tokens') as batch:
        batch.add_column(sa.Column('last_seen_at', app.db.types.UTCDateTime(timezone=True), nullable=True))
    op.create_table(
        'download_tickets',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('session_token_id', sa.Integer(), nullable=False),
        sa.Column('path', sa.String(length=400), nullable=False),
        sa.Column('created_at', app.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column('expires_at', app.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column('used_at', app.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['session_token_id'], ['session_tokens.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    op.create_index('ix_download_tickets_session_token_id', 'download_tickets', ['session_token_id'])


def downgrade() -> None:
    op.drop_index('ix_download_tickets_session_token_id', table_name='download_tickets')
    op.drop_table('download_tickets')
    with op.batch_alter_table('session_tokens') as batch:
        batch.drop_column('last_seen_at')
