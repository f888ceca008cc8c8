"""SQLModel tables, grouped by aggregate. The schema only changes through Alembic migrations."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Optional

from sqlalchemy import Column, String, Text, UniqueConstraint, Index
from sqlmodel import Field, SQLModel

from app.db.types import money_field, percent_field, utc_field


# ---- firms ------------------------------------------------------------------------------------
class Firm(SQLModel, table=True):
    __tablename__ = "firms"

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(String(200), nullable=False, index=True))
    abn: Optional[str] = Field(default=None, max_length=20)
    car: Optional[str] = Field(default=None, max_length=40)
    phone: Optional[str] = Field(default=None, max_length=40)
    email: Optional[str] = Field(default=None, max_length=254)
    website: Optional[str] = Field(default=None, max_length=300)
    logo: Optional[str] = Field(default=None, max_length=80)  # stored file key
    # licensee (AFSL holder the firm operates under)
    licensee_name: Optional[str] = Field(default=None, max_length=200)
    licensee_abn: Optional[str] = Field(default=None, max_length=20)
    licensee_afsl: Optional[str] = Field(default=None, max_length=40)
    licensee_phone: Optional[str] = Field(default=None, max_length=40)
    licensee_email: Optional[str] = Field(default=None, max_length=254)
    licensee_website: Optional[str] = Field(default=None, max_length=300)
    licensee_fsg_link: Optional[str] = Field(default=None, max_length=300)
    licensee_privacy_policy_link: Optional[str] = Field(default=None, max_length=300)
    licensee_logo: Optional[str] = Field(default=None, max_length=80)
    # fees: brokerage percent with dollar max/min, and the external broker's adviser code
    fee: Optional[Decimal] = percent_field()
    max_fee: Optional[Decimal] = money_field()
    min_fee: Optional[Decimal] = money_field()
    ausiex_code: Optional[str] = Field(default=None, max_length=40)

    deleted_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)
    version: int = Field(default=1, nullable=False)


# ---- users ------------------------------------------------------------------------------------
class User(SQLModel, table=True):
    __tablename__ = "users"
    __table_args__ = (Index("ix_users_firm_role", "firm_id", "role"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    email: str = Field(sa_column=Column(String(254), nullable=False, unique=True))
    first_name: str = Field(sa_column=Column(String(100), nullable=False))
    last_name: str = Field(sa_column=Column(String(100), nullable=False))
    preferred_name: Optional[str] = Field(default=None, max_length=100)
    phone: Optional[str] = Field(default=None, max_length=40)
    role: str = Field(sa_column=Column(String(20), nullable=False))
    status: str = Field(default="active", sa_column=Column(String(20), nullable=False, server_default="active"))
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id", index=True)
    adviser_id: Optional[int] = Field(default=None, foreign_key="users.id", index=True)
    password_hash: Optional[str] = Field(default=None, sa_column=Column(String(200), nullable=True))
    photo: Optional[str] = Field(default=None, max_length=80)
    signature: Optional[str] = Field(default=None, max_length=80)
    default_logo: Optional[str] = Field(default=None, max_length=80)
    activated_at: Optional[datetime] = utc_field()
    logined_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)
    version: int = Field(default=1, nullable=False)


class SessionToken(SQLModel, table=True):
    """A sign-in session. Only the SHA-256 of the token is stored."""

    __tablename__ = "session_tokens"

    id: Optional[int] = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    user_id: int = Field(foreign_key="users.id", index=True)
    created_at: datetime = utc_field(default_now=True)
    expires_at: datetime = utc_field(nullable=False)
    revoked_at: Optional[datetime] = utc_field()


class ActionToken(SQLModel, table=True):
    """Single-use e-mailed tokens: activation, password recovery, e-mail change."""

    __tablename__ = "action_tokens"

    id: Optional[int] = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    purpose: str = Field(sa_column=Column(String(20), nullable=False))
    user_id: int = Field(foreign_key="users.id", index=True)
    new_email: Optional[str] = Field(default=None, max_length=254)
    created_at: datetime = utc_field(default_now=True)
    expires_at: datetime = utc_field(nullable=False)
    used_at: Optional[datetime] = utc_field()


class SigninFailure(SQLModel, table=True):
    """Failed sign-in attempts, counted per e-mail to throttle password guessing."""

    __tablename__ = "signin_failures"

    id: Optional[int] = Field(default=None, primary_key=True)
    email: str = Field(sa_column=Column(String(254), nullable=False, index=True))
    ip: Optional[str] = Field(default=None, max_length=64)
    created_at: datetime = utc_field(default_now=True, index=True)


# ---- mail -------------------------------------------------------------------------------------
class OutboxMail(SQLModel, table=True):
    """Every e-mail the product sends; delivered by SMTP when configured, else kept here to read."""

    __tablename__ = "outbox_mail"

    id: Optional[int] = Field(default=None, primary_key=True)
    to_address: str = Field(sa_column=Column(String(254), nullable=False, index=True))
    subject: str = Field(sa_column=Column(String(300), nullable=False))
    body: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = utc_field(default_now=True)
    sent_at: Optional[datetime] = utc_field()
    error: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
