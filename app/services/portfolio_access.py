"""The one place that decides which portfolios (investments) an actor may see and change.

Superusers see every portfolio; administrators and advisers those of their own firm; clients the
portfolios they hold. Another firm's portfolio is not found (404), never revealed. Changes to a
portfolio and its transactions, deposits and custom holdings are for staff (non-clients)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import exists
from sqlmodel import Session, select

from app.db.tables import Portfolio, PortfolioUser
from app.domain.errors import NotFound, PermissionDenied
from app.domain.permissions import NOT_ALLOWED, Actor, is_staff
from app.domain.roles import Role

PORTFOLIO_NOT_FOUND = "Portfolio not found"


def visible_clause(actor: Actor):
    """WHERE clause of the (not deleted) portfolios the actor can see."""
    alive = Portfolio.deleted_at.is_(None)
    if actor.is_superuser:
        return alive
    if actor.role is Role.CLIENT:
        held = exists().where(PortfolioUser.investment_id == Portfolio.id, PortfolioUser.user_id == actor.id)
        return alive & held
    return alive & (Portfolio.firm_id == actor.firm_id)


def as_id(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None  # ids are 32-bit: a bigger number names nothing


def load_portfolio(session: Session, actor: Actor, portfolio_id: Any, *, for_edit: bool = False,
                   lock: bool = False) -> Portfolio:
    """The portfolio if the actor may see it (404 otherwise); with for_edit, also refuse (403)
    a client. lock takes a row lock (PostgreSQL) so that concurrent writers of one portfolio's
    transactions queue up instead of interleaving balance checks."""
    pid = as_id(portfolio_id)
    if pid is None:
        raise NotFound(PORTFOLIO_NOT_FOUND)
    statement = select(Portfolio).where(Portfolio.id == pid, visible_clause(actor))
    if lock:
        statement = statement.with_for_update()
    portfolio = session.exec(statement).first()
    if portfolio is None:
        raise NotFound(PORTFOLIO_NOT_FOUND)
    if for_edit and not is_staff(actor):
        raise PermissionDenied(NOT_ALLOWED)
    return portfolio


def is_holder(session: Session, portfolio_id: int, user_id: int) -> bool:
    return session.exec(select(PortfolioUser).where(PortfolioUser.investment_id == portfolio_id,
                                                    PortfolioUser.user_id == user_id)).first() is not None
