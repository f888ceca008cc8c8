"""Test data for advice: a firm with a model and many funded portfolios following it (for
calculation tests), and target portfolios, trade instructions and trades written straight to the
tables."""
from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from app.db.engine import session_scope
from app.db.tables import Asset, Portfolio, TargetPortfolio, TradeInstruction, TradeTransaction, User
from tests.factories import actor, at, make_firm, make_user
from tests.factories_assets import _pk
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


# ---- advice rows written straight to the tables ------------------------------------------------------
def make_target_portfolio(portfolio: Portfolio | int, version: int = 1, status: str = "draft", *,
                          value: str | None = "1000.00", result: dict[str, Any] | None = None,
                          day: str = "2026-03-01", validated: str | None = None, approved: str | None = None,
                          not_enough_cash: bool = False, error: str | None = None, by: User | None = None,
                          ) -> TargetPortfolio:
    """A target portfolio row as a calculation stores it, made on `day` at 09:00 UTC (validated and
    approved days likewise). `result` holds the fields of its result JSON (default {"value": value});
    a failed one has no result."""
    with session_scope() as s:
        row = TargetPortfolio(
            investment_id=_pk(portfolio), version=version, status=status, not_enough_cash=not_enough_cash,
            error_message=error, value=Decimal(value) if value is not None else None,
            result=None if status == "failed" else json.dumps(result if result is not None else {"value": value}),
            created_by=_pk(by), created_at=at(day, hour=9), updated_at=at(day, hour=9),
            validated_at=at(validated, hour=9) if validated else None,
            approved_at=at(approved, hour=9) if approved else None)
        s.add(row)
        s.flush()
        return row


def make_trade_instruction(portfolio: Portfolio | int, status: str = "approved", *, version: int = 1,
                           **fields: Any) -> TradeInstruction:
    """A trade instruction row (any other column can be given, e.g. validated, created_at, payload)."""
    with session_scope() as s:
        row = TradeInstruction(investment_id=_pk(portfolio), version=version, status=status, **fields)
        s.add(row)
        s.flush()
        return row


def make_trade(instruction: TradeInstruction | int, asset: Asset, action: str = "increase", quantity: str = "10", *,
               status: str = "approved", price: str | Decimal | None = None, fee: str = "19.95",
               amount: str | Decimal | None = None, **fields: Any) -> TradeTransaction:
    """A trade of an instruction: `quantity` units at `price` (default: the asset's last close);
    value = quantity x price; amount and pending default to the value. Other columns may be given."""
    quantity, price = Decimal(quantity), Decimal(str(price if price is not None else asset.last_close_price))
    value = quantity * price
    amount = Decimal(str(amount)) if amount is not None else value
    fields.setdefault("pending", amount)
    with session_scope() as s:
        row = TradeTransaction(trade_instruction_id=_pk(instruction), asset_id=asset.id, asset_code=asset.code,
                               action=action, status=status, quantity=quantity, price=price, value=value,
                               fee=Decimal(fee), amount=amount, **fields)
        s.add(row)
        s.flush()
        return row
