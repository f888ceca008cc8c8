"""The screens' formatters: hand-written expectations for each kind of figure."""
import datetime as dt
from decimal import Decimal

import pytest

from app.ui import display


@pytest.mark.parametrize("value, shown", [
    (Decimal("1234.5"), "$1,234.50"), ("-250", "-$250.00"), ("-0.004", "$0.00"), ("0.005", "$0.01"),
    (None, ""), ("", ""), ("abc", ""),
])
def test_money(value, shown):
    assert display.money(value) == shown


@pytest.mark.parametrize("number, shown", [(0, "0 days"), (1, "1 day"), (2, "2 days"), (31, "31 days")])
def test_count_of(number, shown):
    assert display.count_of(number, "day") == shown


def test_money_can_say_not_available():
    assert display.money(None, empty=display.NA) == "N/A"


@pytest.mark.parametrize("value, shown", [("12", "+$12.00"), ("-3.1", "-$3.10"), ("0.001", "$0.00"), (None, "")])
def test_signed_money(value, shown):
    assert display.signed_money(value) == shown


@pytest.mark.parametrize("value, shown", [
    ("1.2345", "$1.2345"), ("12", "$12.00"), ("1234.5", "$1,234.50"), ("0.12345678", "$0.123457"), (None, ""),
])
def test_price_2_to_6dp(value, shown):
    assert display.price_2_to_6dp(value) == shown


@pytest.mark.parametrize("value, shown", [
    ("12.3456", "$12.3456"), ("12.34567", "$12.3457"), ("12.5", "$12.50"), ("-1.5", "-$1.50"), (None, "N/A"),
])
def test_price_up_to_4dp(value, shown):
    assert display.price_up_to_4dp(value) == shown


@pytest.mark.parametrize("value, shown", [("0.1255", "$0.126"), ("1.999", "$1.999"), ("2", "$2.00"),
                                          ("1234.565", "$1,234.57"), (None, "N/A")])
def test_close_price(value, shown):
    assert display.close_price(value) == shown


@pytest.mark.parametrize("fn, value, shown", [
    (display.whole_units, "1250.5", "1,251"), (display.whole_units, None, ""),
    (display.signed_whole_units, "1250", "+1,250"), (display.signed_whole_units, "-300.4", "-300"),
    (display.signed_whole_units, "0.2", "0"),
    (display.units_or_fraction, "1250.000", "1,250"), (display.units_or_fraction, "12.50", "12.5"),
])
def test_units(fn, value, shown):
    assert fn(value) == shown


@pytest.mark.parametrize("value, shown", [("12.45", "12.5%"), ("-0.04", "0.0%"), ("85", "85.0%"), (None, "")])
def test_percent_1dp(value, shown):
    assert display.percent_1dp(value) == shown


def test_percentage_points():
    assert display.percentage_points(Decimal("3.25")) == "3.3 pp"


@pytest.mark.parametrize("value, shown", [("4.5000", "4.5"), ("1250.00", "1250"), ("-0.00", "0"), ("1E+2", "100"),
                                          (None, ""), ("12a", "12a")])
def test_input_number(value, shown):
    assert display.input_number(value) == shown


@pytest.mark.parametrize("value", [dt.date(2026, 3, 7), dt.datetime(2026, 3, 7, 23, 59), "2026-03-07",
                                   "2026-03-07T00:00:00+00:00"])
def test_days(value):
    assert display.day(value) == "07/03/2026"
    assert display.input_day(value) == "2026-03-07"


@pytest.mark.parametrize("value", [None, "", "not a day"])
def test_empty_days(value):
    assert display.day(value) == "" and display.input_day(value) == ""


def test_iso_moment():
    moment = dt.datetime(2026, 3, 7, 23, 59, 1, tzinfo=dt.timezone.utc)
    assert display.iso_moment(moment) == "2026-03-07T23:59:01+00:00"
    assert display.iso_moment(None) == ""


@pytest.mark.parametrize("value, places, direction", [("0.04", "0.1", ""), ("0.05", "0.1", "up"),
                                                      ("-0.004", "0.01", ""), ("-0.01", "0.01", "down"),
                                                      (None, "0.1", "")])
def test_sign_of(value, places, direction):
    assert display.sign_of(value, places) == direction
