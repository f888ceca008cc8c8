"""Test data for the asset universe: classes, types, industry groups, assets and prices written
straight to the tables, and price files (CSV and real Excel workbooks made with openpyxl).

The `db` fixture empties every table after each test, the migration's cash class included:
call `make_cash_class()` (or `make_universe()`) in tests that need it."""
from __future__ import annotations

import io
import itertools
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Iterable

from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetClass, AssetPrice, AssetType, Firm, IndustryGroup

_counter = itertools.count(1)


def make_cash_class(title: str = "Cash") -> AssetClass:
    with session_scope() as s:
        found = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
        if found is not None:
            return found
        row = AssetClass(title=title, is_cash=True, idx=0)
        s.add(row)
        s.flush()
        return row


def make_class(title: str | None = None, firm: Firm | int | None = None, **fields: Any) -> AssetClass:
    firm_id = firm.id if isinstance(firm, Firm) else firm
    with session_scope() as s:
        row = AssetClass(title=title or f"Class {next(_counter):04d}", firm_id=firm_id, idx=next(_counter), **fields)
        s.add(row)
        s.flush()
        return row


def make_type(title: str | None = None, firm: Firm | int | None = None) -> AssetType:
    firm_id = firm.id if isinstance(firm, Firm) else firm
    with session_scope() as s:
        row = AssetType(title=title or f"Type {next(_counter):04d}", firm_id=firm_id)
        s.add(row)
        s.flush()
        return row


def make_group(title: str | None = None, color: str = "#3e63dd") -> IndustryGroup:
    with session_scope() as s:
        row = IndustryGroup(title=title or f"Group {next(_counter):04d}", color=color, idx=next(_counter))
        s.add(row)
        s.flush()
        return row


def make_asset(code: str | None = None, asset_class: AssetClass | int | None = None, *, name: str | None = None,
               firm: Firm | int | None = None, asset_type: AssetType | int | None = None,
               group: IndustryGroup | int | None = None, **fields: Any) -> Asset:
    """A listed asset; the class defaults to a fresh shared class."""
    if asset_class is None:
        asset_class = make_class()
    def _pk(value):
        return value.id if hasattr(value, "id") else value
    code = code or f"T{next(_counter):04d}"
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
class Universe:
    cash: AssetClass
    equities: AssetClass
    share: AssetType
    etf: AssetType
    materials: IndustryGroup
    financials: IndustryGroup
    bhp: Asset
    cba: Asset
    vas: Asset


def make_universe() -> Universe:
    """Cash and Australian Equities classes, Share and ETF types, two industry groups and BHP, CBA, VAS."""
    cash = make_cash_class()
    equities = make_class("Australian Equities")
    share, etf = make_type("Share"), make_type("ETF")
    materials, financials = make_group("Materials", "#e5484d"), make_group("Financials", "#0090ff")
    bhp = make_asset("BHP", equities, name="BHP Group Limited", asset_type=share, group=materials,
                     dividend_yield=Decimal("5.1000"))
    cba = make_asset("CBA", equities, name="Commonwealth Bank of Australia", asset_type=share, group=financials)
    vas = make_asset("VAS", equities, name="Vanguard Australian Shares Index ETF", asset_type=etf)
    return Universe(cash, equities, share, etf, materials, financials, bhp, cba, vas)


# ---- price files ------------------------------------------------------------------------------------
def csv_file(rows: Iterable[Iterable[Any]], header: Iterable[str] = ("code", "date", "close")) -> bytes:
    lines = [",".join(str(c) for c in header)] + [",".join("" if c is None else str(c) for c in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def xlsx_file(rows: Iterable[Iterable[Any]], header: Iterable[str] = ("code", "date", "close")) -> bytes:
    """A real .xlsx workbook (openpyxl): date cells may be `date` objects, closes numbers or text."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Prices"
    sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
