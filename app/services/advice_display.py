"""What the target portfolio screens need besides a target portfolio: the actor's permissions on a
portfolio that may have no target portfolio yet (the Calculate action). Read-only; the same tenancy
checks as target_portfolios.get."""
from __future__ import annotations

from app.db.engine import session_scope
from app.domain.advice.target_portfolios import TPPermissions
from app.domain.permissions import Actor
from app.services import advice_queries
from app.services.tenancy import load_portfolio


def permissions(*, actor: Actor, investment_id: int) -> TPPermissions:
    """The actor's target portfolio permissions on a portfolio, whether or not it has a target
    portfolio."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        return TPPermissions.of(actor, advice_queries.portfolio_facts(s, actor, p))
