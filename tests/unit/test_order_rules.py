"""The order rules a broker file follows, by hand: what a later trade does to a live order, the
stop loss's limit once triggered, every order's expiry, and what each format leaves out."""
from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from app.domain import orders as rules


@pytest.mark.parametrize("live_side, left, side, quantity, expected", [
    (None, D(0), "BUY", D(50), (rules.NEW, D(50))),            # nothing live: a new order
    ("BUY", D(0), "BUY", D(50), (rules.NEW, D(50))),           # a live order with nothing left is no order
    ("BUY", D(100), "BUY", D(50), (rules.AMEND, D(150))),      # the same side: the order grows
    ("SELL", D(500), "SELL", D(20), (rules.AMEND, D(520))),
    ("BUY", D(300), "SELL", D(100), (rules.AMEND, D(200))),    # the other side, fewer: it shrinks
    ("BUY", D(300), "SELL", D(300), (rules.CANCEL, D(300))),   # the other side, exactly what is left: cancel
    ("BUY", D(300), "SELL", D(500), (rules.NEW, D(500))),      # more than is left: an order of its own
    ("BUY", D(703), "SELL", D(703), (rules.CANCEL, D(703))),   # a partly filled order's rest
])
def test_what_a_later_trade_does_to_a_live_order(live_side, left, side, quantity, expected):
    change = rules.order_change(live_side, left, side, quantity)
    assert (change.row_type, change.quantity) == expected


def test_a_triggered_stop_loss_sells_no_lower_than_the_firms_gap():
    assert rules.stop_limit(D("30.54"), D("2")) == D("29.929")      # 30.54 x 0.98 = 29.9292
    assert rules.stop_limit(D("30.54"), D("0")) == D("30.540")
    assert rules.stop_limit(D("30.54"), None) is None               # no gap: at market once triggered
    assert rules.price_words("STOP_LOSS", None, D("30.54")) == "Stop loss at $30.54, then market"
    assert rules.price_words("LIMIT", D("0.065"), None) == "Limit $0.065"
    assert rules.price_words("MARKET", None, None) == "Market"


def test_every_order_has_an_expiry():
    today = date(2026, 11, 28)
    assert rules.order_expiry(date(2026, 12, 1), today=today, firm_days=None, good_till_cancelled=True) == \
        date(2026, 12, 1)                                            # the chosen day wins
    assert rules.order_expiry(None, today=today, firm_days=None, good_till_cancelled=False) == date(2026, 12, 28)
    assert rules.order_expiry(None, today=today, firm_days=7, good_till_cancelled=False) == date(2026, 12, 5)
    assert rules.order_expiry(None, today=today, firm_days=7, good_till_cancelled=True) is None
    assert rules.expiry_text(None) == "GTC" and rules.expiry_text(date(2026, 12, 5)) == "05/12/2026"


def _order(**changes) -> rules.Order:
    base = dict(reference="WA1", portfolio_name="Watsons Bay", hin="X1", broker_account="7300001",
                broker_name="Desktop Broker", side="SELL", code="GMG", quantity=D(500), order_type=rules.LIMIT,
                limit_price=D("30.54"), expiry=date(2026, 12, 5), row_type=rules.NEW, adviser_name="A", adviser_code="HWP")
    base.update(changes)
    return rules.Order(**base)


def test_what_each_format_leaves_out():
    stop = _order(order_type=rules.STOP_LOSS, stop_price=D("30.54"), limit_price=None)
    assert rules.left_out_reason(rules.DESKTOP_BROKER, stop) == rules.NO_CONDITIONAL
    assert rules.left_out_reason(rules.TRADE_FILE, stop) is None
    assert rules.left_out_reason(rules.AUSIEX, _order(broker_name="AUSIEX", order_type=rules.STOP_LOSS)) is None
    assert rules.left_out_reason(rules.AUSIEX, _order()) == rules.OTHER_BROKER
    assert rules.left_out_reason(rules.DESKTOP_BROKER, _order(broker_name="")) == rules.NO_BROKER
    assert rules.left_out_reason(rules.DESKTOP_BROKER, _order(row_type=rules.MAINTAIN)) == rules.HELD_BY_BROKER
    assert rules.left_out_reason(rules.TRADE_FILE, _order(row_type=rules.MAINTAIN)) is None
    assert rules.left_out_reason(rules.DESKTOP_BROKER, _order(row_type=rules.AMEND)) == rules.NO_AMENDMENT
    assert rules.left_out_reason(rules.TRADE_FILE, _order(row_type=rules.CANCEL)) is None


def test_a_stop_loss_row_in_each_format():
    stop = _order(order_type=rules.STOP_LOSS, stop_price=D("30.54"), limit_price=D("29.929"), broker_name="AUSIEX")
    assert rules.file_row(rules.AUSIEX, stop)[6:12] == ["STOPLMT", "30.54", "29.929", "05/12/2026", "WA1", "NEW"]
    market = rules.file_row(rules.AUSIEX, _order(order_type=rules.STOP_LOSS, stop_price=D("30.54"), limit_price=None,
                                                 expiry=None, broker_name="AUSIEX"))
    assert market[6:10] == ["STOP", "30.54", "", "GTC"]
    trade = dict(zip(rules.COLUMNS[rules.TRADE_FILE], rules.file_row(rules.TRADE_FILE, stop)))
    assert (trade["Order Type"], trade["Trigger Price"], trade["Limit Price"]) == ("Stop Loss", "30.54", "29.929")
    amend = rules.file_row(rules.AUSIEX, _order(broker_name="AUSIEX", row_type=rules.AMEND, quantity=D(520)))
    assert (amend[5], amend[10], amend[11]) == ("520", "WA1", "AMEND")
