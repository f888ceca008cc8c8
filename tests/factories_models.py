"""Test data for model portfolios: a small asset universe, valid model payloads, models made
through the service, and a SQL statement counter."""
from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterator

from sqlalchemy import event
from sqlmodel import select

from app.db.engine import get_engine, session_scope
from app.db.tables import Asset, AssetClass, AssetType, Firm, IndustryGroup, Model, ModelAsset, ModelVersion
from app.db.types import utcnow
from app.domain.permissions import Actor

_codes = itertools.count(1)


def make_class(title: str, *, is_cash: bool = False, firm: Firm | int | None = None, idx: int = 0) -> AssetClass:
    firm_id = firm.id if isinstance(firm, Firm) else firm
    with session_scope() as s:
        row = AssetClass(title=title, is_cash=is_cash, firm_id=firm_id, idx=idx)
        s.add(row)
        s.flush()
        return row


def make_type(title: str, *, firm: Firm | int | None = None) -> AssetType:
    firm_id = firm.id if isinstance(firm, Firm) else firm
    with session_scope() as s:
        row = AssetType(title=title, firm_id=firm_id)
        s.add(row)
        s.flush()
        return row


def make_group(title: str, color: str = "#3e63dd", idx: int = 0) -> IndustryGroup:
    with session_scope() as s:
        row = IndustryGroup(title=title, color=color, idx=idx)
        s.add(row)
        s.flush()
        return row


def make_asset(asset_class: AssetClass | int, code: str | None = None, *, name: str | None = None,
               price: str | None = "10.00", firm: Firm | int | None = None, type_: AssetType | None = None,
               group: IndustryGroup | None = None, one_month_return: str | None = None,
               dividend_yield: str | None = None, url: str | None = None) -> Asset:
    class_id = asset_class.id if isinstance(asset_class, AssetClass) else asset_class
    firm_id = firm.id if isinstance(firm, Firm) else firm
    code = code or f"T{next(_codes):04d}"
    with session_scope() as s:
        row = Asset(code=code, name=name or f"{code} Limited", class_id=class_id, firm_id=firm_id,
                    type_id=type_.id if type_ else None, industry_group_id=group.id if group else None,
                    last_close_price=Decimal(price) if price is not None else None,
                    last_close_date=utcnow() if price is not None else None,
                    one_month_return=Decimal(one_month_return) if one_month_return is not None else None,
                    dividend_yield=Decimal(dividend_yield) if dividend_yield is not None else None, url=url)
        s.add(row)
        s.flush()
        return row


def set_price(asset_id: int, price: str) -> None:
    with session_scope() as s:
        row = s.get(Asset, asset_id)
        row.last_close_price = Decimal(price)
        s.add(row)


def existing_cash_class() -> AssetClass | None:
    with session_scope() as s:
        return s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()


@dataclass
class Universe:
    cash: AssetClass
    equities: AssetClass
    bonds: AssetClass
    etf: AssetType
    share: AssetType
    banks: IndustryGroup
    miners: IndustryGroup
    stocks: list[Asset] = field(default_factory=list)   # equities
    fixed: list[Asset] = field(default_factory=list)    # bonds


def make_universe(*, with_cash: bool = True) -> Universe:
    """Cash, Australian Equities and Fixed Income classes; two types; two industry groups;
    six equities (BHP, CBA, CSL, WES, NAB, RIO) and two bond funds (VAF, IAF)."""
    cash = existing_cash_class()  # the migration seeds one; the db fixture empties it after the first test
    if cash is None and with_cash:
        cash = make_class("Cash", is_cash=True, idx=9)
    elif cash is not None and not with_cash:
        with session_scope() as s:
            s.delete(s.get(AssetClass, cash.id))
        cash = None
    equities = make_class("Australian Equities", idx=1)
    bonds = make_class("Fixed Income", idx=2)
    etf, share = make_type("ETF"), make_type("Share")
    banks, miners = make_group("Banks", "#1f77b4", 1), make_group("Materials", "#ff7f0e", 2)
    stocks = [
        make_asset(equities, "BHP", name="BHP Group", price="45.00", type_=share, group=miners,
                   one_month_return="2.5000", dividend_yield="5.1000", url="https://www.bhp.com"),
        make_asset(equities, "CBA", name="Commonwealth Bank", price="120.00", type_=share, group=banks,
                   one_month_return="-1.2500", dividend_yield="3.9000"),
        make_asset(equities, "CSL", name="CSL Limited", price="290.00", type_=share),
        make_asset(equities, "WES", name="Wesfarmers", price="60.00", type_=share),
        make_asset(equities, "NAB", name="National Australia Bank", price="33.00", type_=share, group=banks),
        make_asset(equities, "RIO", name="Rio Tinto", price="118.00", type_=share, group=miners),
    ]
    fixed = [
        make_asset(bonds, "VAF", name="Vanguard Australian Fixed Interest", price="46.00", type_=etf),
        make_asset(bonds, "IAF", name="iShares Core Composite Bond", price="101.00", type_=etf),
    ]
    return Universe(cash=cash, equities=equities, bonds=bonds, etf=etf, share=share, banks=banks, miners=miners,
                    stocks=stocks, fixed=fixed)


def payload(u: Universe, **overrides: Any) -> dict[str, Any]:
    """A valid active equal-amounts model: equities 60 (BHP with alternate RIO, CBA), fixed income 35
    (VAF), cash 5; one type and one industry group row; one equivalent; two commentaries."""
    data = {
        "name": "Balanced Growth",
        "status": "active",
        "allocation_method": "equal_amounts",
        "investment": True,
        "all": False,
        "firms": [],
        "analyst_recommendations": True,
        "class_allocation": True,
        "type_allocation": True,
        "industry_group_allocation": True,
        "allocation_classes": [
            {"class_id": u.equities.id, "allocation": "60", "min": "50", "max": "70", "assets_limit": 5, "priority": 1,
             "assets": [{"asset_id": u.stocks[0].id, "alt_asset_id": u.stocks[5].id, "priority": 1},
                        {"asset_id": u.stocks[1].id, "alt_asset_id": None, "priority": 2}]},
            {"class_id": u.bonds.id, "allocation": "35", "min": "30", "max": "40", "assets_limit": None, "priority": 2,
             "assets": [{"asset_id": u.fixed[0].id, "alt_asset_id": None, "priority": 1}]},
            {"class_id": u.cash.id, "allocation": "5", "min": None, "max": None, "assets_limit": None, "priority": 3,
             "assets": []},
        ],
        "allocation_types": [{"type_id": u.share.id, "allocation": "60", "min": None, "max": None}],
        "industry_groups_allocations": [{"industry_group_id": u.banks.id, "allocation": "30", "min": None, "max": "40",
                                         "priority": 1}],
        "equivalents": [{"asset_id": u.stocks[1].id, "eq_asset_id": u.stocks[4].id}],
        "assets_percentages_allocations": [],
        "commentaries": [{"type": "market", "description": "Markets are steady."},
                         {"type": "recommendation", "description": "Stay the course."}],
    }
    data.update(overrides)
    return data


def percentages_payload(u: Universe, **overrides: Any) -> dict[str, Any]:
    """A valid active percentages model: BHP 30, CBA 25, VAF 40 and cash 5."""
    data = payload(u, allocation_method="percentages")
    data["allocation_classes"][0]["allocation"] = None
    data["allocation_classes"][1]["allocation"] = None
    data["assets_percentages_allocations"] = [
        {"asset_id": u.stocks[0].id, "class_id": u.equities.id, "allocation": "30", "alternative": None},
        {"asset_id": u.stocks[1].id, "class_id": u.equities.id, "allocation": "25", "alternative": None},
        {"asset_id": u.fixed[0].id, "class_id": u.bonds.id, "allocation": "40", "alternative": None},
    ]
    data.update(overrides)
    return data


def make_model(actor: Actor, u: Universe, **overrides: Any) -> dict[str, Any]:
    from app.services import models

    return models.create_model(actor=actor, data=payload(u, **overrides))


def model_row(model_id: int) -> Model | None:
    with session_scope() as s:
        return s.get(Model, model_id)


def version_rows(model_id: int) -> list[ModelVersion]:
    with session_scope() as s:
        return list(s.exec(select(ModelVersion).where(ModelVersion.model_id == model_id).order_by(ModelVersion.version)).all())


def model_asset_rows(model_id: int) -> dict[int, ModelAsset]:
    with session_scope() as s:
        return {r.asset_id: r for r in s.exec(select(ModelAsset).where(ModelAsset.model_id == model_id)).all()}


@contextmanager
def count_queries() -> Iterator[list[str]]:
    """Collects the SQL statements sent to the database inside the block."""
    statements: list[str] = []
    engine = get_engine()

    def _count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", _count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", _count)
