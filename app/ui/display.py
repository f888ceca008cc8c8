"""The one module of display formatters: figures and dates as the screens show them.

Every function takes what a service gives (a Decimal, a number, its text, a date, an ISO string or
None) and returns text; an empty or unreadable value gives `empty` ('' unless the caller names the
spec's 'N/A'). Each name says what it produces:

- money: `money` '-$1,234.50' (cents, never '-$0.00'), `signed_money` '+$12.00';
- prices: `price_2_to_6dp` '$1.2345' (trade screens), `price_up_to_4dp` '$12.3456' (model detail),
  `close_price` '$0.125' / '$12.35' (an ASX close: 3 decimals below $2);
- units: `whole_units` '1,250', `signed_whole_units` '+1,250', `units_or_fraction` '12.5';
- percentages: `percent_1dp` '12.5%' (never '-0.0%'), `percentage_points` '3.2 pp';
- numbers as a form's input holds them: `input_number` '12.5' (no exponent, no trailing zeros);
- dates: `day` 'DD/MM/YYYY', `input_day` 'YYYY-MM-DD', `iso_moment` (for the browser to show in its zone);
- counts: `count_of` '1 day', '3 days';
- direction for colouring: `sign_of` 'up' / 'down' / ''."""
from __future__ import annotations

import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Callable

from app.domain.money import format_aud, number_text, percent_1dp_label, whole_units_text
from app.domain.timezones import day_text
from app.ui.parse import decimal_or_none

NA = "N/A"
_ONE = Decimal(1)
_TENTH = Decimal("0.1")


def text(value: Any) -> str:
    """A value as plain text: '' for None."""
    return "" if value is None else str(value)


def figure(default_empty: str = "") -> Callable[[Callable[[Decimal], str]], Callable[..., str]]:
    """A display function from a rule over a number: the value is read as a finite Decimal first, and
    what is empty or not a number shows as `empty` (the function's own default unless the caller
    names one)."""
    def make(rule: Callable[[Decimal], str]) -> Callable[..., str]:
        @functools.wraps(rule)
        def shown(value: Any, empty: str = default_empty) -> str:
            number = decimal_or_none(value)
            return empty if number is None else rule(number)
        return shown
    return make


def _dollars(number: Decimal, places: Decimal) -> str:
    rounded = number.quantize(places, rounding=ROUND_HALF_UP)
    return f"{'-' if rounded < 0 else ''}${abs(rounded):,}"


# ---- money and prices ---------------------------------------------------------------------------
money = figure()(format_aud)  # '$1,234.50', '-$250.00' (never '-$0.00')


@figure()
def signed_money(number: Decimal) -> str:
    """Money with a '+' on a gain: '+$12.00', '-$3.10', '$0.00'."""
    shown = format_aud(number)
    return f"+{shown}" if number > 0 and shown != "$0.00" else shown


@figure()
def price_2_to_6dp(number: Decimal) -> str:
    """A unit price with at least two decimals and up to six when the price has them: '$1.2345'."""
    places = min(max(2, -number.normalize().as_tuple().exponent), 6)
    return f"${number:,.{places}f}"


@figure(NA)
def price_up_to_4dp(number: Decimal) -> str:
    """A price with two decimals, more (up to four, half up) when it has them: '$12.3456'."""
    exponent = number.normalize().as_tuple().exponent
    places = _ONE.scaleb(max(exponent, -4)) if isinstance(exponent, int) and exponent < -2 else Decimal("0.01")
    return _dollars(number, places)


@figure(NA)
def close_price(number: Decimal) -> str:
    """A close in dollars: 3 decimals below $2 (ASX steps of a tenth of a cent), else 2."""
    return _dollars(number, Decimal("0.001") if abs(number) < 2 else Decimal("0.01"))


# ---- units ----------------------------------------------------------------------------------------
whole_units = figure()(whole_units_text)  # listed units without decimals, half up: '1,250'


@figure()
def signed_whole_units(number: Decimal) -> str:
    """Whole units with a '+' on a buy: '+1,250', '-300', '0'."""
    whole = number.quantize(_ONE, rounding=ROUND_HALF_UP)
    return f"+{whole:,}" if whole > 0 else f"{whole:,}"


@figure()
def units_or_fraction(number: Decimal) -> str:
    """Units as held: whole numbers without decimals ('1,250'), fractions as they are ('12.5')."""
    if number == number.to_integral_value():
        return whole_units_text(number)
    return f"{number.normalize():,f}"


# ---- percentages ------------------------------------------------------------------------------------
percent_1dp = figure()(percent_1dp_label)  # '12.5%' (never '-0.0%')


@figure()
def percentage_points(number: Decimal) -> str:
    """A difference of percentages to one decimal: '3.2 pp'."""
    return f"{number.quantize(_TENTH, rounding=ROUND_HALF_UP)} pp"


# ---- what a form's input holds ---------------------------------------------------------------------
def input_number(value: Any) -> str:
    """A stored number as a user would type it: '4.5000' -> '4.5', '1250.00' -> '1250', '' when empty
    (a value that is not a number is given back as it is, for the form to show)."""
    if value is None or value == "":
        return ""
    number = decimal_or_none(value)
    return str(value) if number is None else number_text(number)


# ---- dates ------------------------------------------------------------------------------------------
def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(str(value)).date()
    except ValueError:
        return None


def day(value: Any) -> str:
    """A calendar day (a date, a datetime or its ISO text) as DD/MM/YYYY; '' when empty."""
    found = _as_date(value)
    return day_text(found)


def input_day(value: Any) -> str:
    """A calendar day as a date input's value: YYYY-MM-DD; '' when empty."""
    found = _as_date(value)
    return "" if found is None else found.isoformat()


def iso_moment(value: dt.datetime | None) -> str:
    """A date and time as ISO text, which the page shows in the browser's zone; '' when empty."""
    return value.isoformat() if value else ""


# ---- counts -------------------------------------------------------------------------------------------
def count_of(number: int, noun: str) -> str:
    """A count with its noun, plural unless it is one: '1 day', '3 days', '0 trades'."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


# ---- direction ----------------------------------------------------------------------------------------
def sign_of(value: Any, places: str = "0.1") -> str:
    """'up', 'down' or '' (zero at the shown precision, or empty): for green and red figures."""
    number = decimal_or_none(value)
    if number is None:
        return ""
    shown = number.quantize(Decimal(places), rounding=ROUND_HALF_UP)
    return "" if shown == 0 else ("up" if shown > 0 else "down")

