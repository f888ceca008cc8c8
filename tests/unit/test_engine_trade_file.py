"""Trade file rules (spec 001 s4, s5, s9)."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal as D

import pytest

from app.domain import validators
from app.domain.engine import trade_file as F


def row(**kw) -> F.FileRow:
    base = dict(action="increase", amount=D("5019.95"), pending_amount=D("5019.95"), brokerage=D("19.95"),
                last_close_price=D("40"), limit_price=None, quantity=D(125), min_trade_amount=D(500))
    base.update(kw)
    return F.FileRow(**base)


def test_a_pending_amount_below_the_minimum_becomes_zero_and_is_hidden():
    line = F.file_line(row(amount=D("419.95"), pending_amount=D("419.95"), quantity=D(10)))
    assert (line.pending_amount, line.hidden) == (0, True)
    assert F.file_pending_amount(D("499.99"), D(500)) == 0
    assert F.file_pending_amount(D(500), D(500)) == D(500)


def test_full_sells_and_ffl_are_exempt_from_the_minimum():
    line = F.file_line(row(action="decrease", amount=D(400), pending_amount=D(400), quantity=D(10), full_sell=True))
    assert (line.pending_amount, line.hidden, line.quantity) == (D(400), False, 10)
    line = F.file_line(row(amount=D("419.95"), pending_amount=D("419.95"), quantity=D(10), urgent=True))
    assert (line.pending_amount, line.quantity) == (D("419.95"), 10)  # (419.95 - 19.95) / 40


def test_market_order_quantity_is_floored_less_brokerage_for_buys():
    # buy: (5,019.95 - 19.95) / 40 = 125; a close of 41: 121.95 -> 121
    assert F.file_line(row()).quantity == 125
    assert F.file_line(row(last_close_price=D(41))).quantity == 121
    # sell: 5,000 / 41 = 121.95 -> 121 (brokerage is not taken off)
    assert F.file_line(row(action="decrease", amount=D(5000), pending_amount=D(5000), last_close_price=D(41))).quantity == 121
    assert F.order_quantity("increase", D(10), D(20), D(1)) == 0  # brokerage above the amount


def test_the_pending_amount_or_the_amount_by_choice():
    r = row(amount=D("5019.95"), pending_amount=D("2019.95"))
    assert F.file_line(r).quantity == 50
    assert F.file_line(r, F.Adjustments(use_pending_amounts=False)).quantity == 125


def test_full_sells_and_stop_losses_keep_their_quantity():
    full = row(action="decrease", amount=D(5000), pending_amount=D(5000), last_close_price=D(41), quantity=D(125),
               full_sell=True)
    assert F.file_line(full, F.Adjustments(rounding_method="down", rounding_multiple=10)).quantity == 125
    stop = row(action="decrease", amount=D(4750), pending_amount=D(4750), limit_price=D(38), quantity=D(125), stop_loss=True)
    line = F.file_line(stop)
    assert (line.quantity, line.order_type) == (125, F.STOP_LOSS)


def test_a_limit_order_counts_units_at_its_limit_price():
    line = F.file_line(row(amount=D("4769.95"), pending_amount=D("4769.95"), limit_price=D(38)))
    assert (line.quantity, line.order_type, line.price) == (125, F.LIMIT, D(38))
    assert (line.limit_vs_price_percentage, line.limit_vs_price_value) == (D("-5.00"), D(-2))


@pytest.mark.parametrize("method, multiple, expected", [
    ("nearest", 5, 125), ("nearest", 10, 130), ("up", 10, 130), ("down", 10, 120), ("up", 5, 125), ("down", 5, 125),
])
def test_rounding_to_multiples(method, multiple, expected):
    assert F.round_quantity(D(125), method, multiple) == expected


def test_rounding_edges():
    assert F.round_quantity(D(122), "nearest", 5) == 120
    assert F.round_quantity(D(123), "nearest", 5) == 125
    assert F.round_quantity(D(127), "up", 5) == 130
    assert F.round_quantity(D(127), None, None) == 127
    with pytest.raises(ValueError):
        F.round_quantity(D(127), "sideways", 5)
    with pytest.raises(ValueError):
        F.round_quantity(D(127), "up", 3)


def test_a_rounded_sell_never_exceeds_the_holding():
    r = row(action="decrease", amount=D(4960), pending_amount=D(4960), quantity=D(124), current_units=D(124))
    assert F.file_line(r, F.Adjustments(rounding_method="up", rounding_multiple=10)).quantity == 124


def test_price_gap_by_percentage_or_value():
    assert F.adjust_price(D(40), "increase", F.GAP_PERCENTAGE, D("1.5")) == D("40.600")
    assert F.adjust_price(D(40), "decrease", F.GAP_PERCENTAGE, D("1.5")) == D("39.400")
    assert F.adjust_price(D("12.345"), "increase", F.GAP_VALUE, D("0.05")) == D("12.395")
    assert F.adjust_price(D("0.04"), "decrease", F.GAP_VALUE, D("0.05")) == D(0)
    assert F.adjust_price(D(40), "increase", None, D(0)) == D(40)


def test_adjustments_apply_to_the_chosen_side():
    gap = dict(price_gap_type=F.GAP_VALUE, price_gap=D("0.10"), rounding_method="down", rounding_multiple=10)
    buy = row()
    sell = row(action="decrease", amount=D(5000), pending_amount=D(5000))
    only_buys = F.Adjustments(action=F.BUY_ONLY, **gap)
    assert (F.file_line(buy, only_buys).price, F.file_line(buy, only_buys).quantity) == (D("40.100"), 120)
    assert (F.file_line(sell, only_buys).price, F.file_line(sell, only_buys).quantity) == (D(40), 125)
    only_sells = F.Adjustments(action=F.SELL_ONLY, **gap)
    assert F.file_line(sell, only_sells).price == D("39.900") and F.file_line(buy, only_sells).price == D(40)
    both = F.Adjustments(**gap)
    assert F.file_line(buy, both).price == D("40.100") and F.file_line(sell, both).price == D("39.900")


def test_the_limit_vs_last_close_filter():
    line = F.file_line(row(limit_price=D(38), amount=D("4769.95"), pending_amount=D("4769.95")))
    assert F.exceeds_gap(line, D(4), None) and not F.exceeds_gap(line, D(5), None)
    assert F.exceeds_gap(line, None, D("1.99")) and not F.exceeds_gap(line, None, D(2))
    assert not F.exceeds_gap(F.file_line(row()), D(0), D(0))  # a market order has no limit


def test_adjustment_inputs_are_numbers_with_at_most_two_decimals():
    assert F.adjustment_errors(price_gap_percentage="1.25", price_gap_value="0.1") == {}
    assert F.adjustment_errors(price_gap_percentage="1.255", price_gap_value="abc") == {
        "price_gap_percentage": validators.DECIMALS, "price_gap_value": validators.NUMBER}
    assert F.adjustment_errors(limit_vs_last_percentage="2.001", filter_on=True) == {
        "limit_vs_last_percentage": validators.DECIMALS}
    assert F.adjustment_errors(limit_vs_last_percentage="2.001", filter_on=False) == {}


def test_expiry_dates():
    today = date(2025, 3, 10)
    assert F.expiry_error(date(2025, 3, 9), today) == "earlier_than_today"
    assert F.expiry_error(date(2025, 3, 10), today) is None and F.expiry_error(None, today) is None
    assert F.expiry_end_of_day(date(2025, 3, 10)) == datetime(2025, 3, 10, 23, 59, 59, 999999, tzinfo=timezone.utc)


def test_an_exact_quotient_reads_as_whole_units_not_in_exponent_notation():
    # 37,336 / 287.20 is exactly 130: the payload must say "130", never "1.3E+2"
    quantity = F.order_quantity("increase", D("37336"), D("0"), D("287.2"))
    assert quantity == 130 and str(quantity) == "130"


def test_a_kept_quantity_reads_as_whole_units_not_with_the_databases_places():
    # a stop loss and a full sell keep their stored units (six places in the database): "821"
    stop = F.file_line(row(action="decrease", amount=D(4750), pending_amount=D(4750), limit_price=D(38),
                           quantity=D("821.000000"), stop_loss=True))
    full = F.file_line(row(action="decrease", amount=D(400), pending_amount=D(400), quantity=D("10.000000"),
                           full_sell=True))
    assert str(stop.quantity) == "821" and str(full.quantity) == "10"
    assert F.whole_units(D("2.500000")) == D("2.5")
