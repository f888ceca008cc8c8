"""Quick test data for client portfolios and their books, written straight to the tables (the
services under test are not used to set up their own preconditions)."""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from app.db.engine import session_scope
from app.db.tables import (
    AssetTransaction, Broker, CashTransaction, CustomHolding, Deposit, Firm, Institution, Portfolio,
    PortfolioUser, User,
)
from app.db.types import utcnow
from app.domain.roles import Role
from app.services import postings
from tests.factories import at, make_firm, make_user
from tests.factories_assets import _pk, make_cash_class, make_class

_counter = itertools.count(1)

# The approval defaults of a new portfolio (spec 001 s9), as stored JSON.
DEFAULT_APPROVAL = {
    "tp_validation_required": True, "tr_validation_required": True, "tp_approval_required": True,
    "tp_approval_request": True, "tr_approval_request": True, "tr_approval_required": True,
    "tr_auto_approval": "never",
}


# The columns of a transactions upload file, in order.
TRANSACTION_HEADER = ("date", "type", "code", "quantity", "price", "fee", "amount", "franking_credits", "ratio",
                      "description")


def make_portfolio(firm: Firm | int, *, holders: list[User | int] = (), owners: list[User | int] | None = None,
                   adviser: User | int | None = None, model: Any = None, name: str | None = None,
                   type: str = "SAVINGS", inactive: bool = False, **fields: Any) -> Portfolio:
    """A portfolio of `firm` held by `holders` (owners: all holders unless `owners` is given)."""
    owner_ids = None if owners is None else {_pk(o) for o in owners}
    with session_scope() as s:
        row = Portfolio(firm_id=_pk(firm), name=name or f"Portfolio {next(_counter):04d}", type=type,
                        adviser_id=_pk(adviser), model_id=_pk(model), inactive=inactive,
                        approval_settings=json.dumps(DEFAULT_APPROVAL), **fields)
        s.add(row)
        s.flush()
        for holder in holders:
            hid = _pk(holder)
            s.add(PortfolioUser(investment_id=row.id, user_id=hid, is_owner=owner_ids is None or hid in owner_ids))
        s.flush()
        return row


def portfolio_row(portfolio_id: int) -> Portfolio | None:
    with session_scope() as s:
        return s.get(Portfolio, portfolio_id)


def make_broker(name: str | None = None, code: str | None = None) -> Broker:
    n = next(_counter)
    with session_scope() as s:
        row = Broker(name=name or f"Broker {n:04d}", code=code or f"BR{n:04d}")
        s.add(row)
        s.flush()
        return row


def make_institution(title: str | None = None, *, provider_type: str = "Bank",
                     product_types: str = "Cash Account,Term Deposits,At Call Account") -> Institution:
    with session_scope() as s:
        row = Institution(title=title or f"Bank {next(_counter):04d}", provider_type=provider_type,
                          product_types=product_types)
        s.add(row)
        s.flush()
        return row


def post(portfolio: Portfolio | int, kind: str, *, status: str = "executed", day: str | date = "2026-01-05",
         **fields: Any) -> AssetTransaction:
    """An asset transaction with its linked cash transaction, through the one posting function."""
    with session_scope() as s:
        p = s.get(Portfolio, _pk(portfolio))
        for key in ("quantity", "price", "fee", "gst", "amount", "franking_credits", "limit_price"):
            if key in fields and fields[key] is not None:
                fields[key] = Decimal(str(fields[key]))
        row, _ = postings.record(s, actor_id=None, portfolio=p, kind=kind, status=status, trade_at=at(day, hour=0), **fields)
        return row


def cash(portfolio: Portfolio | int, amount: str, *, action: str = "increase", type: str = "cash",
         status: str = "executed", day: str | date = "2026-01-02") -> CashTransaction:
    """A plain cash transaction (a credit by default)."""
    now = utcnow()
    with session_scope() as s:
        row = CashTransaction(investment_id=_pk(portfolio), type=type, action=action, status=status,
                              price=Decimal(amount), trade_at=at(day, hour=0), created_at=now, updated_at=now)
        s.add(row)
        s.flush()
        return row


def make_custom_holding(portfolio: Portfolio | int, name: str | None = None, *, value: str = "1000.00",
                        asset_class: Any = None, fee: str | None = None) -> CustomHolding:
    class_id = _pk(asset_class) if asset_class is not None else make_class().id
    with session_scope() as s:
        row = CustomHolding(investment_id=_pk(portfolio), name=name or f"Holding {next(_counter):04d}",
                            class_id=class_id, value=Decimal(value), fee=Decimal(fee) if fee else None)
        s.add(row)
        s.flush()
        return row


def make_deposit(portfolio: Portfolio | int, *, product_type: str = "Term Deposits", provider_name: str = "Test Bank",
                 deal_id: str | None = None, start: str = "2026-01-05", maturity: str | None = "2026-07-05",
                 rate: str = "4.5", deal_status: str = "Live", **fields: Any) -> Deposit:
    with session_scope() as s:
        row = Deposit(investment_id=_pk(portfolio), product_type=product_type, provider_name=provider_name,
                      deal_id=deal_id or f"D{next(_counter):05d}", start_date=date.fromisoformat(start),
                      maturity_date=date.fromisoformat(maturity) if maturity else None, rate=Decimal(rate),
                      deal_status=deal_status, **fields)
        s.add(row)
        s.flush()
        return row


@dataclass
class PortfolioWorld:
    """Two firms; in firm A an administrator, an adviser, two clients (holders of `portfolio`) and
    another client; in firm B an adviser and a client with their own portfolio; a superuser."""

    firm: Firm
    other_firm: Firm
    superuser: User
    admin: User
    adviser: User
    client: User
    co_holder: User
    stranger: User
    other_adviser: User
    other_client: User
    portfolio: Portfolio
    other_portfolio: Portfolio


def make_portfolio_world() -> PortfolioWorld:
    make_cash_class()
    firm, other = make_firm("Harbour Test"), make_firm("Other Test")
    superuser = make_user(Role.SUPERUSER, None)
    admin = make_user(Role.ADMINISTRATOR, firm)
    adviser = make_user(Role.ADVISER, firm)
    client = make_user(Role.CLIENT, firm, adviser_id=adviser.id)
    co_holder = make_user(Role.CLIENT, firm, adviser_id=adviser.id)
    stranger = make_user(Role.CLIENT, firm, adviser_id=adviser.id)
    other_adviser = make_user(Role.ADVISER, other)
    other_client = make_user(Role.CLIENT, other, adviser_id=other_adviser.id)
    portfolio = make_portfolio(firm, holders=[client, co_holder], owners=[client], adviser=adviser, name="Smith Family")
    other_portfolio = make_portfolio(other, holders=[other_client], adviser=other_adviser, name="Other Family")
    return PortfolioWorld(firm, other, superuser, admin, adviser, client, co_holder, stranger, other_adviser,
                          other_client, portfolio, other_portfolio)
