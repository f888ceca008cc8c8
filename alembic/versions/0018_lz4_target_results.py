"""A target portfolio's stored result (its JSON, about 35 KB for a portfolio of 25 holdings and a
model of 40 assets) is compressed with lz4 instead of PostgreSQL's default pglz where the server
has lz4: a bulk calculation writes one per portfolio, and pglz spent more of the database's time
compressing them than everything else the chunk wrote. lz4 writes them in half the time and reads
them as fast, for a third more space. Rows already stored keep their compression until rewritten.
SQLite stores text uncompressed: nothing to do there.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29 06:45:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op


revision: str = '0018'
down_revision: Union[str, None] = '0017'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _has_lz4() -> bool:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return False
    return bool(bind.execute(sa.text(
        "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")).scalar())


def upgrade() -> None:
    if _has_lz4():
        op.execute("ALTER TABLE target_portfolios ALTER COLUMN result SET COMPRESSION lz4")


def downgrade() -> None:
    if _has_lz4():
        op.execute("ALTER TABLE target_portfolios ALTER COLUMN result SET COMPRESSION DEFAULT")
