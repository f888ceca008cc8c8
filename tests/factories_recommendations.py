"""Test data for recommendations: the cash class, listed assets, models, long-term and short-term
recommendations written straight to the tables, and upload files (CSV and .xlsx)."""
from __future__ import annotations

import csv
import io
import itertools
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable, Sequence

from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, Firm, LongTermRecommendation, Model, ModelAsset, ShortTermRecommendation,
)
from tests import factories as f

_counter = itertools.count(1)


def cash_class() -> AssetClass:
    """The system cash class (the `db` fixture empties every table, the seeded one too)."""
    with session_scope() as s:
        found = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
        if found:
            return found
        cash = AssetClass(title="Cash", is_cash=True)
        s.add(cash)
        s.flush()
        return cash


def asset_class(title: str = "Australian Equities") -> AssetClass:
    with session_scope() as s:
        row = AssetClass(title=title)
        s.add(row)
        s.flush()
        return row


def make_asset(code: str, name: str | None = None, *, class_id: int | None = None, firm: Firm | int | None = None,
               price: str | None = "10.00") -> Asset:
    class_id = class_id or cash_class().id
    firm_id = firm.id if isinstance(firm, Firm) else firm
    with session_scope() as s:
        asset = Asset(code=code.upper(), name=name or f"{code.upper()} Limited", class_id=class_id, firm_id=firm_id,
                      last_close_price=Decimal(price) if price else None)
        s.add(asset)
        s.flush()
        return asset


def make_model(firm: Firm | int, name: str | None = None, *, analyst_recommendations: bool = True,
               availability: str = "nobody", status: str = "active", deleted: bool = False,
               assets: Sequence[Asset] = ()) -> Model:
    from app.db.types import utcnow

    firm_id = firm.id if isinstance(firm, Firm) else firm
    with session_scope() as s:
        model = Model(firm_id=firm_id, name=name or f"Model {next(_counter):04d}", status=status,
                      availability=availability, analyst_recommendations=analyst_recommendations,
                      deleted_at=utcnow() if deleted else None)
        s.add(model)
        s.flush()
        for asset in assets:
            s.add(ModelAsset(model_id=model.id, class_id=asset.class_id, asset_id=asset.id))
        s.flush()
        return model


def make_long_term(model: Model, asset: Asset, action: str = "buy", comment: str | None = None) -> LongTermRecommendation:
    with session_scope() as s:
        rec = LongTermRecommendation(model_id=model.id, asset_id=asset.id, action=action, comment=comment)
        s.add(rec)
        s.flush()
        return rec


def make_short_term(model: Model, asset: Asset, action: str = "BUY", comment: str | None = None,
                    price: str | None = None, yield_: str | None = None, status: str = "active") -> ShortTermRecommendation:
    with session_scope() as s:
        rec = ShortTermRecommendation(model_id=model.id, asset_id=asset.id, action=action, comment=comment,
                                      price=Decimal(price) if price else None, yield_=Decimal(yield_) if yield_ else None,
                                      status=status)
        s.add(rec)
        s.flush()
        return rec


def long_terms(model_id: int) -> list[tuple[str, str, str | None]]:
    """(code, action, comment) of a model's long-term recommendations, by code."""
    with session_scope() as s:
        rows = s.exec(select(Asset.code, LongTermRecommendation.action, LongTermRecommendation.comment)
                      .join(Asset, Asset.id == LongTermRecommendation.asset_id)
                      .where(LongTermRecommendation.model_id == model_id).order_by(Asset.code)).all()
        return [tuple(r) for r in rows]


def short_terms(model_id: int, status: str | None = "active") -> list[tuple]:
    """(code, action, comment, price, yield, status) of a model's short-term recommendations, by code then id."""
    with session_scope() as s:
        stmt = (select(Asset.code, ShortTermRecommendation.action, ShortTermRecommendation.comment,
                       ShortTermRecommendation.price, ShortTermRecommendation.yield_, ShortTermRecommendation.status)
                .join(Asset, Asset.id == ShortTermRecommendation.asset_id)
                .where(ShortTermRecommendation.model_id == model_id)
                .order_by(Asset.code, ShortTermRecommendation.id))
        if status is not None:
            stmt = stmt.where(ShortTermRecommendation.status == status)
        return [tuple(r) for r in s.exec(stmt).all()]


def clear_recommendations(model_ids: Iterable[int]) -> None:
    """Removes every long- and short-term recommendation of the models (a clean start)."""
    from sqlalchemy import delete

    ids = list(model_ids)
    with session_scope() as s:
        s.exec(delete(LongTermRecommendation).where(LongTermRecommendation.model_id.in_(ids)))
        s.exec(delete(ShortTermRecommendation).where(ShortTermRecommendation.model_id.in_(ids)))


def model_row(model_id: int) -> Model:
    with session_scope() as s:
        return s.get(Model, model_id)


def snapshot() -> tuple:
    """Every recommendation row as stored: proves an upload wrote nothing."""
    with session_scope() as s:
        lts = s.exec(select(LongTermRecommendation).order_by(LongTermRecommendation.id)).all()
        sts = s.exec(select(ShortTermRecommendation).order_by(ShortTermRecommendation.id)).all()
        return (tuple((r.id, r.model_id, r.asset_id, r.action, r.comment) for r in lts),
                tuple((r.id, r.model_id, r.asset_id, r.action, r.comment, r.price, r.yield_, r.status) for r in sts))


# ---- upload files -------------------------------------------------------------------------------
LT_HEADER = ("code", "action", "comment")
ST_HEADER = ("code", "action", "comment", "price", "yield")


def csv_bytes(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = LT_HEADER, encoding: str = "utf-8") -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    if header:
        writer.writerow(header)
    for row in rows:
        writer.writerow(["" if c is None else c for c in row])
    return buffer.getvalue().encode(encoding)


def xlsx_bytes(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = LT_HEADER) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    if header:
        sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# ---- a world with models -------------------------------------------------------------------------
@dataclass
class RecWorld:
    world: f.World
    bhp: Asset
    cba: Asset
    csl: Asset
    own_b: Asset  # an asset only firm B may use
    model_a: Model  # owned by firm A
    model_a2: Model
    model_b: Model  # owned by firm B, private
    shared_all: Model  # owned by firm B, open to every firm (A sees it, cannot edit it)


def make_rec_world() -> RecWorld:
    world = f.make_world()
    cash_class()
    equities = asset_class()
    bhp = make_asset("BHP", "BHP Group Limited", class_id=equities.id)
    cba = make_asset("CBA", "Commonwealth Bank of Australia", class_id=equities.id)
    csl = make_asset("CSL", "CSL Limited", class_id=equities.id)
    own_b = make_asset("BOWN", "Bravo Private Fund", class_id=equities.id, firm=world.firm_b)
    return RecWorld(
        world=world, bhp=bhp, cba=cba, csl=csl, own_b=own_b,
        model_a=make_model(world.firm_a, "Alpha Growth", assets=[bhp]),
        model_a2=make_model(world.firm_a, "Alpha Income"),
        model_b=make_model(world.firm_b, "Bravo Balanced"),
        shared_all=make_model(world.firm_b, "Bravo Open", availability="all"),
    )
