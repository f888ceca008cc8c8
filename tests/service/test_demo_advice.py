"""The demo advice chain (app.services.demo_advice): after the demo data is loaded every demo model
has long-term and short-term recommendations, every demo firm has a portfolio at each step of the
chain, and every advice report has rows for the Harbour demo adviser. A second load adds nothing."""
from __future__ import annotations

from collections import Counter

from sqlalchemy import func
from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import (
    AssetTransaction, BrokerOrder, BrokerOrderVersion, CashTransaction, LongTermRecommendation, Model, Portfolio,
    PortfolioUser, ShortTermRecommendation, TargetPortfolio, TradeInstruction, TradeTransaction, User,
)
from app.domain.models import SHORT_TERM_ACTIONS
from app.domain.wire import rendered
from app.services import (
    advice_reports, holdings, orders, portfolios, trade_approval_report, trade_file,
)
from tests.advice_edge import records_of_advice, tps
from tests import trade_instructions_edge as tis
from app.services.demo_advice import (
    AWAITING_CLIENT, DRAFT, EXECUTED, FIRM_KEYS, PLACED, STEPS, TRADES_APPROVED, TRADES_TO_APPROVE,
    TRADES_TO_VALIDATE, chain_plans, load_demo_advice,
)
from tests import factories as f

ADVISER = "adviser@harbour.example.com"
TABLES = (Portfolio, TargetPortfolio, TradeInstruction, TradeTransaction, AssetTransaction, CashTransaction,
          LongTermRecommendation, ShortTermRecommendation)


def _counts() -> dict[str, int]:
    with session_scope() as s:
        return {t.__name__: s.exec(select(func.count()).select_from(t)).one() for t in TABLES}


def _portfolio(key: str, step: str) -> Portfolio:
    name = next(p.name for p in chain_plans(key) if p.step == step)
    with session_scope() as s:
        return s.exec(select(Portfolio).join(User, User.firm_id == Portfolio.firm_id)
                      .where(User.email == f"adviser@{key}.example.com", Portfolio.name == name)).one()


def test_demo_data_runs_the_whole_advice_chain_once(db):
    from app.services import demo

    demo.load_demo_data()

    # every demo model: long-term and short-term recommendations, all the specification's codes among them
    with session_scope() as s:
        models = s.exec(select(Model).where(Model.deleted_at.is_(None))).all()
        long_terms = Counter(s.exec(select(LongTermRecommendation.model_id)).all())
        short_terms = s.exec(select(ShortTermRecommendation).where(ShortTermRecommendation.status == "active")).all()
    assert len(models) == 5
    assert all(long_terms[m.id] > 0 for m in models)
    assert all(any(r.model_id == m.id for r in short_terms) for m in models)
    assert {r.action for r in short_terms} == set(SHORT_TERM_ACTIONS)

    # each firm: one active portfolio per step, each at its step
    for key in FIRM_KEYS:
        adviser = f.actor(f.user_by_email(f"adviser@{key}.example.com"))
        for step in STEPS:
            p = _portfolio(key, step)
            assert not p.inactive and p.model_id is not None and p.adviser_id == adviser.id, (key, step)
            tp = tps.get_current(actor=adviser, investment_id=p.id)
            ti = tis.get(actor=adviser, investment_id=p.id)
            expected_tp = {DRAFT: "draft", AWAITING_CLIENT: "validated"}.get(step, "active")
            assert tp["status"] == expected_tp and not tp["not_enough_cash"], (key, step, tp["status"])
            # the placed step's newest recommendations: the later ones whose one approved buy amended an order
            expected_ti = {TRADES_TO_VALIDATE: "pending_validation", TRADES_TO_APPROVE: "pending_approval",
                           PLACED: "partially_approved"}.get(
                step, "approved" if step in (TRADES_APPROVED, EXECUTED) else None)
            assert (ti["status"] if ti else None) == expected_ti, (key, step)
            if ti is not None:
                assert ti["transactions"], (key, step)
            with session_scope() as s:
                placed = Counter(s.exec(select(AssetTransaction.status).where(
                    AssetTransaction.investment_id == p.id, AssetTransaction.trade_transaction_id.is_not(None))).all())
            expected_orders = {PLACED: {"processing"}, EXECUTED: {"executed"}}.get(step, set())
            assert set(placed) == expected_orders, (key, step, placed)
        # the placed trades: a Desktop Broker portfolio with a HIN and a broker account, the firm's AUSIEX code set
        shape = portfolios.get_portfolio(actor=adviser, portfolio_id=_portfolio(key, PLACED).id)
        assert shape.hin and shape.broker_account
        with session_scope() as s:
            from app.db.tables import Broker, Firm

            row = s.get(Portfolio, shape.id)
            assert s.get(Broker, row.broker_id).name == "Desktop Broker"
            assert s.get(Firm, row.firm_id).ausiex_code

    # the chain's portfolios are held by the firm's other clients: the main demo client keeps three
    with session_scope() as s:
        main = f.user_by_email("client@harbour.example.com")
        assert len(s.exec(select(PortfolioUser).where(PortfolioUser.user_id == main.id)).all()) == 3

    # the executed orders moved the holdings: every bought asset is held at least by the executed units
    adviser = f.actor(f.user_by_email(ADVISER))
    executed = _portfolio("harbour", EXECUTED)
    done, _ = orders.list_orders(actor=adviser, status="executed")
    mine = [o for o in done if o.investment_id == executed.id]
    held = {line.code: line.quantity for line in holdings.load(actor=adviser, portfolio_id=executed.id).shares}
    assert mine and all(held.get(o.asset_code, 0) >= o.quantity for o in mine if o.side == "BUY")
    with session_scope() as s:
        linked = s.exec(select(TradeTransaction.status).where(
            col(TradeTransaction.id).in_([o.recommendation_id for o in mine]))).all()
    assert set(linked) == {"executed"}

    # the reports, as the Harbour adviser
    report = trade_file.generate(actor=adviser)
    statuses = Counter(r.status for r in report.rows if not r.hidden)
    assert statuses["Approved"] > 0 and statuses["Placed"] > 0
    assert {r.investment_name for r in report.rows if r.status == "Approved"} == {_portfolio("harbour", TRADES_APPROVED).name}
    assert {r.investment_name for r in report.rows if r.status == "Placed"} == {_portfolio("harbour", PLACED).name}
    assert any(r.stop_loss for r in report.rows) and any(r.limit_price is not None and not r.stop_loss for r in report.rows)
    assert report.cash
    broker = trade_file.desktop_broker_file(actor=adviser)
    assert broker.rows > 0 and broker.data
    placed, placed_total = orders.list_orders(actor=adviser, status="placed")
    executed_rows, executed_total = orders.list_orders(actor=adviser, status="executed")
    assert placed_total > 0 and {o.status_label for o in placed} == {"Placed", "Partly filled"}
    # the placed step's orders show each thing that happens to an order: a stop loss placed as a
    # conditional order, a partial fill, a cancellation and an expiry
    at_broker = _portfolio("harbour", PLACED).id
    history, _ = orders.list_orders(actor=adviser, status="all", limit=500)
    mine = [o for o in history if o.investment_id == at_broker]
    assert {o.status_label for o in mine} >= {"Placed", "Partly filled", "Cancelled", "Expired"}
    with session_scope() as s:  # a later recommendation amended one of them, under its reference
        amends = s.exec(select(BrokerOrderVersion).join(BrokerOrder, BrokerOrder.id == BrokerOrderVersion.order_id)
                        .where(BrokerOrder.investment_id == at_broker, BrokerOrderVersion.action == "Amend")).all()
    assert len(amends) == 1
    assert any(o.order_type == "stop_loss" and o.price_text.startswith("Stop loss at $") for o in mine)
    assert executed_total > 0 and {o.status_label for o in executed_rows} == {"Executed"}
    cash = advice_reports.cash_report(actor=adviser)
    assert {r.portfolio_name for r in cash.rows} >= {_portfolio("harbour", s).name for s in STEPS[2:]}
    pending = advice_reports.pending_report(actor=adviser)
    assert {(r.portfolio_name, r.status) for r in pending.rows} >= {
        (_portfolio("harbour", DRAFT).name, "draft"), (_portfolio("harbour", AWAITING_CLIENT).name, "validated")}
    approved = trade_approval_report.generate(actor=adviser)
    assert {g.investment_name for g in approved} >= {_portfolio("harbour", s).name for s in (TRADES_APPROVED, PLACED, EXECUTED)}
    assert all(g.items for g in approved)
    waiting = trade_approval_report.generate(actor=adviser, statuses=["spv", "spa"])
    assert {(g.investment_name, g.status) for g in waiting} == {
        (_portfolio("harbour", TRADES_TO_VALIDATE).name, "pending_validation"),
        (_portfolio("harbour", TRADES_TO_APPROVE).name, "pending_approval")}
    assert next(g for g in waiting if g.status == "pending_validation").can_validate

    # the clients have something to decide: the record of advice, and the trades
    client = f.actor(f.user_by_email(next(u for u in _holders("harbour", AWAITING_CLIENT))))
    tp_id = tps.get_current(actor=adviser, investment_id=_portfolio("harbour", AWAITING_CLIENT).id)["id"]
    record = records_of_advice.record(actor=client, tp_id=tp_id)
    assert record["status"] == "validated" and record["can_decide"]
    client = f.actor(f.user_by_email(next(u for u in _holders("harbour", TRADES_TO_APPROVE))))
    trades = tis.get(actor=client, investment_id=_portfolio("harbour", TRADES_TO_APPROVE).id)
    assert trades["status"] == "pending_approval" and trades["permissions"]["approve"]

    # the first portfolios of the adviser's list are still the older demo portfolios
    listed = rendered(portfolios.list_portfolios(actor=adviser).rows)
    names = {p.name for key in FIRM_KEYS for p in chain_plans(key)}
    first = [r["name"] for r in listed[:4]]
    assert len(first) == 4 and not names & set(first)

    # a second load adds nothing
    before = _counts()
    assert load_demo_advice() == 0
    demo.load_demo_data()
    assert _counts() == before

    # a deleted chain portfolio is not made again
    with session_scope() as s:
        gone = s.get(Portfolio, _portfolio("harbour", DRAFT).id)
        gone.deleted_at = gone.created_at
        s.add(gone)
    assert load_demo_advice() == 0


def _holders(key: str, step: str) -> list[str]:
    with session_scope() as s:
        return list(s.exec(select(User.email).join(PortfolioUser, PortfolioUser.user_id == User.id)
                           .where(PortfolioUser.investment_id == _portfolio(key, step).id)).all())
