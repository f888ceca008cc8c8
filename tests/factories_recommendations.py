"""Test data for recommendations: long-term and short-term recommendations written straight to the
tables, a world of firms, assets and models (built with the asset and model factories), and the
headers of the upload files."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable

from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import Asset, LongTermRecommendation, Model, ShortTermRecommendation
from tests import factories as f
from tests.factories_assets import _pk, make_asset, make_cash_class, make_class
from tests.factories_models import make_model

def _model_id(model: Model | dict | int) -> int:
    return model["id"] if isinstance(model, dict) else _pk(model)


def make_long_term(model: Model | dict | int, asset: Asset, action: str = "buy",
                   comment: str | None = None) -> LongTermRecommendation:
    with session_scope() as s:
        rec = LongTermRecommendation(model_id=_model_id(model), asset_id=asset.id, action=action, comment=comment)
        s.add(rec)
        s.flush()
        return rec


def make_short_term(model: Model | dict | int, asset: Asset, action: str = "BUY", comment: str | None = None,
                    price: str | None = None, yield_: str | None = None, status: str = "active") -> ShortTermRecommendation:
    with session_scope() as s:
        rec = ShortTermRecommendation(model_id=_model_id(model), asset_id=asset.id, action=action, comment=comment,
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


def snapshot() -> tuple:
    """Every recommendation row as stored: proves an upload wrote nothing."""
    with session_scope() as s:
        lts = s.exec(select(LongTermRecommendation).order_by(LongTermRecommendation.id)).all()
        sts = s.exec(select(ShortTermRecommendation).order_by(ShortTermRecommendation.id)).all()
        return (tuple((r.id, r.model_id, r.asset_id, r.action, r.comment) for r in lts),
                tuple((r.id, r.model_id, r.asset_id, r.action, r.comment, r.price, r.yield_, r.status) for r in sts))


# ---- upload files (made with tests.factories.csv_bytes / xlsx_bytes) ----------------------------
LT_HEADER = ("code", "action", "comment")
ST_HEADER = ("code", "action", "comment", "price", "yield")


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
    make_cash_class()
    equities = make_class("Australian Equities", idx=0)
    bhp = make_asset("BHP", equities, name="BHP Group Limited", price="10.00")
    cba = make_asset("CBA", equities, name="Commonwealth Bank of Australia", price="10.00")
    csl = make_asset("CSL", equities, name="CSL Limited", price="10.00")
    own_b = make_asset("BOWN", equities, name="Bravo Private Fund", firm=world.firm_b, price="10.00")
    return RecWorld(
        world=world, bhp=bhp, cba=cba, csl=csl, own_b=own_b,
        model_a=make_model(world.firm_a, name="Alpha Growth", assets=[bhp]),
        model_a2=make_model(world.firm_a, name="Alpha Income"),
        model_b=make_model(world.firm_b, name="Bravo Balanced"),
        shared_all=make_model(world.firm_b, name="Bravo Open", availability="all"),
    )
