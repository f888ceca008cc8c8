"""Test data for model portfolios: a small asset universe (built with tests.factories_assets),
valid model payloads, models (through the service or as bare rows), and a SQL statement counter."""
from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterator, Sequence

from sqlalchemy import event
from sqlmodel import select

from app.db.engine import get_engine, session_scope
from app.db.tables import (
    Asset, AssetClass, AssetType, Firm, IndustryGroup, Model, ModelAsset, ModelClass, ModelIndustryGroup,
    ModelSharedFirm, ModelVersion,
)
from app.db.types import utcnow
from app.domain.permissions import Actor
from tests.factories_assets import _pk, make_asset, make_cash_class, make_class, make_group, make_type

_codes = itertools.count(1)


def set_price(asset_id: int, price: str) -> None:
    with session_scope() as s:
        row = s.get(Asset, asset_id)
        row.last_close_price = Decimal(price)
        s.add(row)


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
    with session_scope() as s:  # the migration seeds a cash class; the db fixture empties it after the first test
        cash = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
    if cash is None and with_cash:
        cash = make_cash_class(idx=9)
    elif cash is not None and not with_cash:
        with session_scope() as s:
            s.delete(s.get(AssetClass, cash.id))
        cash = None
    equities = make_class("Australian Equities", idx=1)
    bonds = make_class("Fixed Income", idx=2)
    etf, share = make_type("ETF"), make_type("Share")
    banks, miners = make_group("Banks", "#1f77b4", 1), make_group("Materials", "#ff7f0e", 2)
    stocks = [
        make_asset("BHP", equities, name="BHP Group", price="45.00", asset_type=share, group=miners,
                   one_month_return="2.5000", dividend_yield="5.1000", url="https://www.bhp.com"),
        make_asset("CBA", equities, name="Commonwealth Bank", price="120.00", asset_type=share, group=banks,
                   one_month_return="-1.2500", dividend_yield="3.9000"),
        make_asset("CSL", equities, name="CSL Limited", price="290.00", asset_type=share),
        make_asset("WES", equities, name="Wesfarmers", price="60.00", asset_type=share),
        make_asset("NAB", equities, name="National Australia Bank", price="33.00", asset_type=share, group=banks),
        make_asset("RIO", equities, name="Rio Tinto", price="118.00", asset_type=share, group=miners),
    ]
    fixed = [
        make_asset("VAF", bonds, name="Vanguard Australian Fixed Interest", price="46.00", asset_type=etf),
        make_asset("IAF", bonds, name="iShares Core Composite Bond", price="101.00", asset_type=etf),
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


def make_model(owner: Actor | Firm | int, u: Universe | None = None, **options: Any) -> dict[str, Any] | Model:
    """A model portfolio, the one factory for models.

    With a universe `u`: the complete valid model of `payload(u, **options)` made through the
    models service by the acting user `owner` (an Actor); gives the service's answer as the API renders it (a dict).

    Without: a bare model row of the firm `owner` written straight to the tables (a Model), with
    the options name, status ('active'), availability ('nobody'), analyst_recommendations,
    deleted (a deleted_at now), assets (ModelAsset rows in each asset's class), shared (firms it
    is shared with), classes ({class_id: allocation} ModelClass rows), industry_groups
    ({group_id: allocation} ModelIndustryGroup rows) and any other Model column."""
    if u is not None:
        from app.api.schemas import rendered
        from app.domain.model_rules import read_form
        from app.services import models

        return rendered(models.create_model(actor=owner, form=read_form(payload(u, **options))))
    return _bare_model(owner, **options)


def _bare_model(firm: Firm | int, *, name: str | None = None, status: str = "active", availability: str = "nobody",
               deleted: bool = False, assets: Sequence[Asset] = (), shared: Sequence[Firm | int] = (),
               classes: dict[int, str] | None = None, industry_groups: dict[int, str] | None = None,
               **fields: Any) -> Model:
    with session_scope() as s:
        model = Model(firm_id=_pk(firm), name=name or f"Model {next(_codes):04d}", status=status,
                      availability=availability, deleted_at=utcnow() if deleted else None, **fields)
        s.add(model)
        s.flush()
        for asset in assets:
            s.add(ModelAsset(model_id=model.id, class_id=asset.class_id, asset_id=asset.id))
        for other in shared:
            s.add(ModelSharedFirm(model_id=model.id, firm_id=_pk(other)))
        for class_id, allocation in (classes or {}).items():
            s.add(ModelClass(model_id=model.id, class_id=class_id, allocation=Decimal(allocation)))
        for group_id, allocation in (industry_groups or {}).items():
            s.add(ModelIndustryGroup(model_id=model.id, industry_group_id=group_id, allocation=Decimal(allocation)))
        s.flush()
        return model


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
