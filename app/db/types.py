"""Column helpers: money and quantities are NUMERIC (Decimal), times are UTC."""
from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from sqlalchemy import Column, DateTime, Numeric
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on every backend (SQLite drops the offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def money_field(nullable: bool = True, **kw: Any) -> Any:
    """A cents-precision Decimal column (NUMERIC(14,2))."""
    return Field(default=None, sa_column=Column(Numeric(14, 2, asdecimal=True), nullable=nullable), **kw)


def percent_field(nullable: bool = True, **kw: Any) -> Any:
    return Field(default=None, sa_column=Column(Numeric(9, 4, asdecimal=True), nullable=nullable), **kw)


def utc_field(nullable: bool = True, default_now: bool = False, index: bool = False) -> Any:
    if default_now:
        return Field(default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False, index=index))
    return Field(default=None, sa_column=Column(UTCDateTime(), nullable=nullable, index=index))


def shared_utc_field(nullable: bool = True, default_now: bool = False) -> Any:
    """`utc_field` for a mixin that several tables share: SQLModel builds each table its own
    column from the type (a ready-made Column can belong to one table only). As with `utc_field`,
    the value comes from the model, not from a column default."""
    no_column_default = {"default": None}
    if default_now:
        return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, sa_column_kwargs=no_column_default)
    return Field(default=None, sa_type=UTCDateTime, nullable=nullable, sa_column_kwargs=no_column_default)


Money = Decimal


def quantity_field(nullable: bool = True, **kw: Any) -> Any:
    """Prices and quantities keep their own precision: NUMERIC(18,6)."""
    return Field(default=None, sa_column=Column(Numeric(18, 6, asdecimal=True), nullable=nullable), **kw)


def stored_id(row: Any) -> int:
    """The primary key of a row that was read or flushed (SQLModel types it Optional until then)."""
    key = row.id
    if not isinstance(key, int):
        raise RuntimeError(f"{type(row).__name__} has no id until it is flushed")
    return key
