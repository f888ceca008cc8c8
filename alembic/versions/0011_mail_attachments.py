"""Outgoing messages keep their attachments and their send attempts.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 11:40:00
"""
from typing import Sequence, Union

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401
import app.db.types  # noqa: F401


revision: str = '0011'
down_revision: Union[str, None] = '0010'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('outbox_mail') as batch:
        batch.add_column(sa.Column('html', sa.Text(), nullable=True))
        batch.add_column(sa.Column('firm_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('attempts', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('next_attempt_at', app.db.types.UTCDateTime(timezone=True), nullable=True))
        batch.create_index('ix_outbox_mail_next_attempt_at', ['next_attempt_at'], unique=False)
        batch.create_foreign_key('fk_outbox_mail_firm_id_firms', 'firms', ['firm_id'], ['id'])
    op.create_table(
        'outbox_attachments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('mail_id', sa.Integer(), nullable=False),
        sa.Column('file_name', sa.String(length=255), nullable=False),
        sa.Column('content_type', sa.String(length=100), nullable=False),
        sa.Column('document', sa.String(length=40), nullable=True),
        sa.Column('object_id', sa.Integer(), nullable=True),
        sa.Column('reader_id', sa.Integer(), nullable=True),
        sa.Column('data', sa.LargeBinary(), nullable=True),
        sa.Column('size', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['mail_id'], ['outbox_mail.id']),
        sa.ForeignKeyConstraint(['reader_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('outbox_attachments') as batch:
        batch.create_index('ix_outbox_attachments_mail_id', ['mail_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox_attachments') as batch:
        batch.drop_index('ix_outbox_attachments_mail_id')
    op.drop_table('outbox_attachments')
    with op.batch_alter_table('outbox_mail') as batch:
        batch.drop_constraint('fk_outbox_mail_firm_id_firms', type_='foreignkey')
        batch.drop_index('ix_outbox_mail_next_attempt_at')
        batch.drop_column('next_attempt_at')
        batch.drop_column('attempts')
        batch.drop_column('firm_id')
        batch.drop_column('html')
