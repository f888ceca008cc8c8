"""Money and percentages: the one place each rounding rule is written.

- money is Decimal rounded half-up to the cent (`to_cents`) and shown as `format_aud` '$1,234.56';
- a stored percentage (NUMERIC(9,4)) is shown three ways, each helper named for what it gives:
  `percent_4dp_text` '12.3400' (the API's figures), `percent_1dp_label` '85.0%' (bars and totals),
  `percent_trimmed_text` '12.5' (a form's field: no exponent, no trailing zeros);
- units are shown whole by `whole_units_text` '1,250', other numbers by `number_text` '12.5';
- the API carries amounts as `cents_json` '1234.50' and other numbers as `number_json` '12.5'."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from typing import Any

CENT = Decimal("0.01")
MONEY_LIMIT = Decimal("1000000000000")  # amounts are stored as NUMERIC(14,2): below a trillion dollars
PERCENT_PLACES = Decimal("0.0001")  # percentages are stored as NUMERIC(9,4)
ONE_DECIMAL = Decimal("0.1")
ONE = Decimal(1)

_MONEY = Context(prec=60, rounding=ROUND_HALF_UP)


def to_cents(value: Decimal | int) -> Decimal:
    """Money rounded half-up to the cent (away from zero on .5): the one helper for every amount."""
    if not isinstance(value, Decimal):
        value = Decimal(value)
    return value.quantize(CENT, context=_MONEY)


def format_aud(amount: Decimal | int | str) -> str:
    """Dollars and cents, half up: '$1,234.56', '-$1,234.56' (never '-$0.00'): every amount a
    screen, a file, a mail or an engine reason shows."""
    number = as_decimal(amount)
    if isinstance(amount, (bool, float)) or not number.is_finite():  # money is never a float
        raise ValueError(f"not an amount: {amount!r}")
    cents = to_cents(number)
    return f"{'-' if cents < 0 else ''}${abs(cents):,.2f}"


def plain(value: Decimal) -> Decimal:
    """A price or a quantity without trailing zeros (never -0): written with format 'f', it reads
    as number_text."""
    number = value.normalize()
    return abs(number) if number.is_zero() else number


def number_text(value: Decimal) -> str:
    """A number as plain text, without exponent or trailing zeros: Decimal('12.50') -> '12.5',
    Decimal('1E+2') -> '100' (never '-0')."""
    return format(plain(value), "f")


def cents_json(value: Decimal | None) -> str | None:
    """An amount as the API carries it: '1234.50' (to the cent, half up); None stays None."""
    return None if value is None else format(to_cents(value), "f")


def number_json(value: Decimal | None) -> str | None:
    """A price, a quantity or a rate as the API carries it: '12.5', '100'; None stays None."""
    return None if value is None else number_text(Decimal(value))


def as_decimal(value: Any) -> Decimal:
    """A Decimal of a number or of its text; ValueError when it is not one."""
    if isinstance(value, Decimal):
        return value
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ValueError(f"not a number: {value!r}") from None


def percent_4dp_text(value: Decimal | None) -> str | None:
    """A stored percentage to 4 places, half up, as plain text ('12.3400'), or None."""
    if value is None:
        return None
    return format(Decimal(value).quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP), "f")


def percent_1dp_label(value: Decimal) -> str:
    """One decimal, half up, with a percent sign: Decimal('85') -> '85.0%' (never '-0.0%')."""
    rounded = as_decimal(value).quantize(ONE_DECIMAL, rounding=ROUND_HALF_UP)
    return f"{abs(rounded) if rounded == 0 else rounded}%"


def whole_units_text(value: Decimal) -> str:
    """Units without decimals, half up, with thousands separators: Decimal('1249.5') -> '1,250'."""
    return f"{as_decimal(value).quantize(ONE, rounding=ROUND_HALF_UP):,}"


def percent_trimmed_text(value: Decimal | None) -> str | None:
    """A stored percentage as a form shows it: '40', '12.5', '0' (4 places at most, half up, no
    exponent, no trailing zeros), or None."""
    if value is None:
        return None
    value = Decimal(value)
    return "0" if value == 0 else number_text(value.quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP))
