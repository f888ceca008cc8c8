"""Addresses of clients, firms and holders, and each portfolio's broker credentials (the secret encrypted at rest).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 11:50:00
"""
from typing import Sequence, Union

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401
import app.db.types  # noqa: F401
import sqlmodel  # noqa: F401


revision: str = '0014'
down_revision: Union[str, None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# The address form (spec 002 s2/s3) on users, firms and portfolios (the holder's address).
ADDRESS_COLUMNS = (('address_property_name', 200), ('address_unit_number', 20), ('address_street_number', 20),
                   ('address_street_name', 200), ('address_suburb', 100), ('address_state', 60),
                   ('address_postcode', 10), ('address_country', 100))
ADDRESS_TABLES = ('users', 'firms', 'investments')
# The broker credentials form: the code and password as Fernet tokens, never in clear.
CREDENTIAL_COLUMNS = ('broker_auth_code_secret', 'broker_auth_pass_secret', 'broker_code_expiry_date',
                      'broker_credentials_updated_at')


def upgrade() -> None:
    for table in ADDRESS_TABLES:
        with op.batch_alter_table(table) as batch:
            for name, length in ADDRESS_COLUMNS:
                batch.add_column(sa.Column(name, sqlmodel.sql.sqltypes.AutoString(length=length), nullable=True))
    with op.batch_alter_table('investments') as batch:
        batch.add_column(sa.Column('broker_auth_code_secret', sa.Text(), nullable=True))
        batch.add_column(sa.Column('broker_auth_pass_secret', sa.Text(), nullable=True))
        batch.add_column(sa.Column('broker_code_expiry_date', sa.Date(), nullable=True))
        batch.add_column(sa.Column('broker_credentials_updated_at', app.db.types.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('investments') as batch:
        for name in reversed(CREDENTIAL_COLUMNS):
            batch.drop_column(name)
    for table in reversed(ADDRESS_TABLES):
        with op.batch_alter_table(table) as batch:
            for name, _ in reversed(ADDRESS_COLUMNS):
                batch.drop_column(name)
