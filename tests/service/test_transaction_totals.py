"""The asset transactions screen's header (app.services.transactions.asset_totals): the panel's
figures summed over every asset of the portfolio, not one page, executed transactions only, with
the cash balance; the same visibility as the panel."""
from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal as D

import pytest

from app.domain.errors import NotFound
from tests.transactions_edge import tx
from tests import factories as f
from tests.factories_assets import make_asset
from tests.factories_portfolios import make_portfolio_world

UTC = timezone.utc


@pytest.fixture
def w(db):
    return make_portfolio_world()


def _add(w, **data):
    return tx.add_asset_transaction(actor=f.actor(w.adviser), data={"investment_id": w.portfolio.id, **data})


def test_totals_cover_every_asset_and_only_executed_transactions(w):
    bhp = make_asset("BHP", name="BHP Group Limited", last_close_price=D("50.00"),
                     last_close_date=datetime(2026, 4, 1, tzinfo=UTC))
    cba = make_asset("CBA", name="Commonwealth Bank", last_close_price=D("100"))
    unpriced = make_asset("ZZZ", name="No Price Ltd")
    tx.create_cash_transaction(actor=f.actor(w.adviser), data={
        "investment_id": w.portfolio.id, "type": "credit", "price": "10000", "trade_at": "01/01/2026"})
    _add(w, type="purchase", asset_id=bhp.id, quantity="100", price="30.00", fee="10", trade_at="05/01/2026")
    _add(w, type="sell", asset_id=bhp.id, quantity="40", price="45.00", fee="10", trade_at="05/03/2026")
    _add(w, type="purchase", asset_id=cba.id, quantity="10", price="90", trade_at="06/03/2026")
    _add(w, type="purchase", asset_id=unpriced.id, quantity="2", price="5", trade_at="06/03/2026")
    _add(w, type="purchase", asset_id=cba.id, quantity="500", price="90", trade_at="07/03/2026", status="pending")

    totals = tx.asset_totals(actor=f.actor(w.adviser), investment_id=w.portfolio.id)
    # BHP: 60 left of 3010.00 -> cost 1806.00, value 3000.00, realised 1790.00 - 1204.00 = 586.00
    # CBA: cost 900.00, value 1000.00; ZZZ: cost 10.00, no price
    assert totals["assets"] == 3 and totals["unpriced"] == 1
    assert totals["cost"] == "2716.00" and totals["value"] == "4000.00"
    assert totals["realised_gain_loss"] == "586.00" and totals["unrealised_gain_loss"] == "1294.00"
    assert totals["total_bought_value"] == "3910.00" and totals["total_sold_value"] == "1800.00"
    # cash: 10000 - 3010 + 1790 - 900 - 10 (the pending purchase is not counted)
    assert totals["cash_balance"] == "7870.00"

    # a page of the panel holds fewer assets than the totals count
    assert len(tx.list_asset_positions(actor=f.actor(w.adviser), investment_id=w.portfolio.id)) == 3


def test_totals_of_an_empty_portfolio_and_visibility(w):
    empty = tx.asset_totals(actor=f.actor(w.client), investment_id=w.portfolio.id)
    assert empty == {"assets": 0, "unpriced": 0, "cost": "0.00", "value": "0.00", "realised_gain_loss": "0.00",
                     "unrealised_gain_loss": "0.00", "total_bought_value": "0.00", "total_sold_value": "0.00",
                     "cash_balance": "0.00"}
    with pytest.raises(NotFound):
        tx.asset_totals(actor=f.actor(w.other_adviser), investment_id=w.portfolio.id)
