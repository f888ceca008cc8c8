"""Tax reporting: carried-forward capital losses per portfolio and financial year, and the parcels each sale took.

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
    pass


def downgrade() -> None:
    pass
