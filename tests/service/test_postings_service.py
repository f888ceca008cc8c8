from decimal import Decimal
from tests.factories_portfolios import *
from tests.factories_assets import make_asset
from app.services import postings
from app.db.engine import session_scope

def test_posting_and_book(db):
    w = make_portfolio_world()
    a = make_asset("BHP")
    cash(w.portfolio, "10000.00")
    post(w.portfolio, "asset_buy", asset_id=a.id, quantity=100, price="30.00", fee="10.00", day="2026-01-05")
    post(w.portfolio, "asset_buy", asset_id=a.id, quantity=50, price="40.00", fee="10.00", day="2026-02-05")
    post(w.portfolio, "parcel", asset_id=a.id, quantity=120, price="45.00", fee="10.00", day="2026-03-05")
    post(w.portfolio, "dividend", asset_id=a.id, amount="55.50", franking_credits="23.79", day="2026-03-10")
    post(w.portfolio, "asset_buy", asset_id=a.id, quantity=10, price="40.00", status="pending")
    d = make_deposit(w.portfolio)
    post(w.portfolio, "td_buy", deposit_id=d.id, amount="2000.00")
    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        b = postings.book(s, p)
    pos = b.positions[a.id]
    assert pos.units == 30
    # FIFO: 100 @ 3010 + 20 of 2010 (804.00) = 3814.00 cost; proceeds 5390.00
    assert pos.realised_gain == Decimal("5390.00") - Decimal("3814.00")
    assert b.cash_balance == Decimal("10000") - Decimal("3010") - Decimal("2010") + Decimal("5390") + Decimal("55.50") - 2000
    assert b.deposit_balances == {d.id: Decimal("2000.00")}


def test_held_units_sum_trades_and_replay_reconstructions(db):
    """held_units: buys less sells, summed in the database; a split replayed through the ledger;
    a holding never traded, or traded only while pending, holds nothing."""
    w = make_portfolio_world()
    bhp, cba, wbc = make_asset("BHP"), make_asset("CBA"), make_asset("WBC")
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=100, price="30.00", day="2026-01-05")
    post(w.portfolio, "parcel", asset_id=bhp.id, quantity=40, price="35.00", day="2026-02-05")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=7, price="30.00", status="pending")
    post(w.portfolio, "asset_buy", asset_id=cba.id, quantity=50, price="100.00", day="2026-01-05")
    post(w.portfolio, "reconstruction", asset_id=cba.id, ratio="2:1", day="2026-01-06")
    post(w.portfolio, "parcel", asset_id=cba.id, quantity=30, price="55.00", day="2026-02-05")
    pid = w.portfolio.id
    with session_scope() as s:
        held = postings.held_units(s, {(pid, bhp.id), (pid, cba.id), (pid, wbc.id)})
        positions = postings.positions(s, s.get(Portfolio, pid))
    assert held == {(pid, bhp.id): Decimal(60), (pid, cba.id): Decimal(70), (pid, wbc.id): Decimal(0)}
    assert held[(pid, bhp.id)] == positions[bhp.id].units and held[(pid, cba.id)] == positions[cba.id].units
