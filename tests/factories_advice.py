"""A firm with a model and many funded portfolios following it, for calculation tests."""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from app.db.engine import session_scope
from app.db.tables import Portfolio
from tests.factories import actor, make_firm, make_user
from tests.factories_models import Universe, make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio, post
from tests.factories_recommendations import make_short_term
from app.domain.roles import Role


@dataclass
class Book:
    firm: object
    adviser: object
    admin: object
    client: object
    universe: Universe
    model: dict
    portfolio_ids: list[int]


def make_book(count: int = 5, *, funded: bool = True) -> Book:
    """`count` active portfolios of one firm following one model, each with cash and some BHP."""
    firm = make_firm("Calc Firm")
    admin = make_user(Role.ADMINISTRATOR, firm)
    adviser = make_user(Role.ADVISER, firm)
    client = make_user(Role.CLIENT, firm, adviser_id=adviser.id)
    u = make_universe()
    model = make_model(actor(admin), u)
    make_short_term(SimpleNamespace(id=model["id"]), u.stocks[1], "BUY")
    ids = []
    for n in range(count):
        p = make_portfolio(firm, holders=[client], adviser=adviser, model=model["id"], name=f"Calc {n:03d}")
        if funded:
            cash(p, f"{50000 + 1000 * n}.00")
            post(p, "asset_buy", asset_id=u.stocks[0].id, quantity=10 + n, price="40.00", fee="10.00")
        ids.append(p.id)
    return Book(firm, adviser, admin, client, u, model, ids)


def unlink_model(portfolio_id: int) -> None:
    with session_scope() as s:
        p = s.get(Portfolio, portfolio_id)
        p.model_id = None
        s.add(p)
