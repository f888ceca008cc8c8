"""Test data for the asset universe: classes, types, industry groups, assets and prices written
straight to the tables, and the header of price files (made with tests.factories.csv_bytes / xlsx_bytes).

The `db` fixture empties every table after each test, the migration's cash class included:
call `make_cash_class()` (or `make_asset_world()`) in tests that need it.

These are the only builders of classes, types, industry groups and assets: the other factory
modules and the tests use them."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Iterable

from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetClass, AssetPrice, AssetType, Firm, IndustryGroup
from app.db.types import utcnow

_counter = itertools.count(1)


def _pk(value: Any) -> Any:
    return value.id if hasattr(value, "id") else value


def make_cash_class(title: str = "Cash", *, idx: int = 0) -> AssetClass:
    """The system cash class: the existing one, else a new one."""
    with session_scope() as s:
        found = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
        if found is not None:
            return found
        row = AssetClass(title=title, is_cash=True, idx=idx)
        s.add(row)
        s.flush()
        return row


def make_class(title: str | None = None, firm: Firm | int | None = None, *, idx: int | None = None,
               **fields: Any) -> AssetClass:
    """A non-cash asset class (shared unless `firm` is given; the cash class is `make_cash_class`);
    `idx` defaults to after every class made here."""
    with session_scope() as s:
        row = AssetClass(title=title or f"Class {next(_counter):04d}", firm_id=_pk(firm),
                         idx=next(_counter) if idx is None else idx, **fields)
        s.add(row)
        s.flush()
        return row


def make_type(title: str | None = None, firm: Firm | int | None = None) -> AssetType:
    with session_scope() as s:
        row = AssetType(title=title or f"Type {next(_counter):04d}", firm_id=_pk(firm))
        s.add(row)
        s.flush()
        return row


def make_group(title: str | None = None, color: str = "#3e63dd", idx: int | None = None) -> IndustryGroup:
    """An industry group; `idx` defaults to the end of the stored order (the number of groups)."""
    with session_scope() as s:
        if idx is None:
            idx = len(s.exec(select(IndustryGroup.id)).all())
        row = IndustryGroup(title=title or f"Group {next(_counter):04d}", color=color, idx=idx)
        s.add(row)
        s.flush()
        return row


def make_groups(*titles: str) -> list[IndustryGroup]:
    """One group per title, in that order."""
    return [make_group(title) for title in titles]


_DECIMAL_FIELDS = ("last_close_price", "dividend_yield", "one_month_return", "six_month_return")


def make_asset(code: str | None = None, asset_class: AssetClass | int | None = None, *, name: str | None = None,
               firm: Firm | int | None = None, asset_type: AssetType | int | None = None,
               group: IndustryGroup | int | None = None, price: str | Decimal | None = None,
               **fields: Any) -> Asset:
    """A listed asset (shared unless `firm` is given). The class defaults to a fresh class; the name
    to '<code> Limited'. `price` is a last close taken today (last_close_price and last_close_date);
    any other Asset column can be given (numbers as text or Decimal)."""
    if asset_class is None:
        asset_class = make_class()
    code = code or f"T{next(_counter):04d}"
    if price is not None:
        fields["last_close_price"] = price
        fields.setdefault("last_close_date", utcnow())
    for key in _DECIMAL_FIELDS:
        if isinstance(fields.get(key), (str, int)):
            fields[key] = Decimal(str(fields[key]))
    with session_scope() as s:
        row = Asset(code=code, name=name or f"{code} Limited", class_id=_pk(asset_class), firm_id=_pk(firm),
                    type_id=_pk(asset_type), industry_group_id=_pk(group), **fields)
        s.add(row)
        s.flush()
        return row


def add_prices(asset: Asset | int, closes: Iterable[tuple[date, str | Decimal]]) -> None:
    asset_id = asset.id if isinstance(asset, Asset) else asset
    with session_scope() as s:
        for day, close in closes:
            s.add(AssetPrice(asset_id=asset_id, price_date=day, close=Decimal(str(close))))


def weekdays(end: date, count: int) -> list[date]:
    """The `count` weekdays ending on `end` (or the weekday before it), oldest first."""
    days: list[date] = []
    day = end
    while len(days) < count:
        if day.weekday() < 5:
            days.append(day)
        day -= timedelta(days=1)
    return list(reversed(days))


def prices_of(asset: Asset | int) -> dict[date, Decimal]:
    asset_id = asset.id if isinstance(asset, Asset) else asset
    with session_scope() as s:
        return {p.price_date: p.close for p in s.exec(select(AssetPrice).where(AssetPrice.asset_id == asset_id)).all()}


def count_prices() -> int:
    with session_scope() as s:
        return len(s.exec(select(AssetPrice.id)).all())


def asset_row(asset_id: int) -> Asset:
    with session_scope() as s:
        return s.get(Asset, asset_id)


@dataclass
class AssetWorld:
    cash: AssetClass
    equities: AssetClass
    share: AssetType
    etf: AssetType
    materials: IndustryGroup
    financials: IndustryGroup
    bhp: Asset
    cba: Asset
    vas: Asset


def make_asset_world() -> AssetWorld:
    """Cash and Australian Equities classes, Share and ETF types, two industry groups and BHP, CBA, VAS."""
    cash = make_cash_class()
    equities = make_class("Australian Equities")
    share, etf = make_type("Share"), make_type("ETF")
    materials, financials = make_group("Materials", "#e5484d"), make_group("Financials", "#0090ff")
    bhp = make_asset("BHP", equities, name="BHP Group Limited", asset_type=share, group=materials,
                     dividend_yield=Decimal("5.1000"))
    cba = make_asset("CBA", equities, name="Commonwealth Bank of Australia", asset_type=share, group=financials)
    vas = make_asset("VAS", equities, name="Vanguard Australian Shares Index ETF", asset_type=etf)
    return AssetWorld(cash, equities, share, etf, materials, financials, bhp, cba, vas)


# ---- price files ------------------------------------------------------------------------------------
PRICE_HEADER = ("code", "date", "close")
