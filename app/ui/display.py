"""Figures as the screens show them, shared by states and components."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from app.ui.parse import decimal_or_none


def price_display(value: Any) -> str:
    """A close in dollars: 3 decimals below $2 (ASX steps of a tenth of a cent), else 2; 'N/A' when empty."""
    number = decimal_or_none(value)
    if number is None:
        return "N/A"
    places = Decimal("0.001") if abs(number) < 2 else Decimal("0.01")
    rounded = number.quantize(places, rounding=ROUND_HALF_UP)
    return f"{'-' if rounded < 0 else ''}${abs(rounded):,}"
