"""The demo portfolios (app.services.demo_portfolios): made once per firm after the demo models,
held by the demo clients, with a full history of transactions that the services read back."""
from __future__ import annotations

from collections import Counter

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, CashTransaction, Portfolio, PortfolioUser
from tests.transactions_edge import tx
from app.services.demo_advice import FIRM_KEYS, chain_plans
from app.services.demo_portfolios import load_demo_portfolios
from tests import factories as f

CHAIN_NAMES = {p.name for key in FIRM_KEYS for p in chain_plans(key)}


def test_demo_portfolios_load_once_with_their_history(db):
    from app.services import demo

    demo.load_demo_data()
    with session_scope() as s:
        every = s.exec(select(Portfolio).order_by(Portfolio.id)).all()
        # the portfolios of this loader (the advice chain's own are app.services.demo_advice's)
        portfolios = [p for p in every if p.name not in CHAIN_NAMES]
        ids = [p.id for p in portfolios]
        kinds = Counter(s.exec(select(AssetTransaction.type).where(col(AssetTransaction.investment_id).in_(ids))).all())
        cash_types = Counter(s.exec(select(CashTransaction.type).where(col(CashTransaction.investment_id).in_(ids))).all())
        statuses = Counter(s.exec(select(AssetTransaction.status).where(col(AssetTransaction.investment_id).in_(ids))).all())
    per_firm = Counter(p.firm_id for p in portfolios)
    assert len(per_firm) == 3 and all(3 <= n <= 6 for n in per_firm.values())
    assert all(p.model_id is not None and p.adviser_id is not None for p in portfolios)
    assert {p.type for p in portfolios} == {"SMSF", "SAVINGS", "TRUST", "COMPANY", "SOLE_TRADER"}
    assert {"asset_buy", "parcel", "dividend", "capital_return", "reconstruction"} <= set(kinds)
    assert cash_types["opening_balance"] == len(portfolios) and cash_types["cash"] == len(portfolios)
    assert statuses["pending"] == 3  # one draft purchase per firm
    with session_scope() as s:
        franked = s.exec(select(AssetTransaction).where(AssetTransaction.type == "dividend")).all()
    assert franked and all(d.franking_credits and d.franking_credits > 0 for d in franked)

    assert load_demo_portfolios() == 0  # idempotent
    demo.load_demo_data()
    with session_scope() as s:
        assert len(s.exec(select(Portfolio)).all()) == len(every)

    client = f.user_by_email("client@harbour.example.com")
    with session_scope() as s:
        held = s.exec(select(PortfolioUser).where(PortfolioUser.user_id == client.id)).all()
    assert len(held) == 3
    reader = f.actor(client)
    for link in held:
        page = tx.list_cash_transactions(actor=reader, investment_id=link.investment_id, reverse="false", limit=32)
        assert page["count"] >= 10 and page["rows"][0]["class"] == "Opening Balance"
        assert {"Buy", "Sell", "Dividend", "Income", "Withdrawal"} <= {r["class"] for r in page["rows"]}
        panel = tx.list_asset_positions(actor=reader, investment_id=link.investment_id)
        assert panel and panel[0]["total_rows"] >= 3
        assert any(r["realised_gain_loss"] != "0.00" for r in panel)

    with session_scope() as s:  # a deleted demo portfolio is not made again
        first = s.get(Portfolio, portfolios[0].id)
        first.deleted_at = first.created_at
        s.add(first)
    assert load_demo_portfolios() == 0
