"""The asset universe: classes, types, listed assets, prices."""
from __future__ import annotations

from typing import Iterable

from sqlalchemy import or_
from sqlmodel import Session, col, select

from app.db.tables import Asset, AssetClass
from app.domain.errors import ValidationError
from app.domain.models import NO_CASH_CLASS
from app.domain.permissions import Actor


def usable_clause(actor: Actor, firm_id: int | None = None):
    """Assets a firm may use: the shared universe plus the firm's own (a superuser may name the firm)."""
    firm = firm_id if actor.is_superuser else actor.firm_id
    if actor.is_superuser and firm is None:
        return Asset.id.is_not(None)
    return or_(Asset.firm_id.is_(None), Asset.firm_id == firm)


def normalise_code(code: object) -> str:
    """Asset codes are looked up uppercased (spec 002 s5)."""
    return str(code or "").strip().upper()


def find_by_codes(session: Session, actor: Actor, codes: Iterable[object], firm_id: int | None = None) -> dict[str, Asset]:
    """Usable assets by code (uppercased) in one query; unknown codes are simply absent."""
    wanted = {normalise_code(c) for c in codes if normalise_code(c)}
    if not wanted:
        return {}
    rows = session.exec(select(Asset).where(col(Asset.code).in_(wanted), usable_clause(actor, firm_id))).all()
    return {a.code: a for a in rows}


def cash_class(session: Session) -> AssetClass:
    cash = session.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
    if cash is None:
        raise ValidationError(NO_CASH_CLASS)
    return cash
