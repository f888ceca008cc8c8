"""What the record of advice shows besides the target portfolio: the words of each part, the
letterhead and the fees."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from app.ui.display import input_number


@dataclasses.dataclass
class WordsLine:
    """A line of the recommended portfolio in words: the trade ('Buy 199', 'Sell 642', 'Hold') and
    the model's recommendation as its reason (the cash line included)."""

    key: str = ""
    kind: str = ""           # asset | holding | cash
    code: str = ""
    name: str = ""
    trade: str = ""
    side: str = ""           # BUY | SELL | HOLD
    color: str = "gray"
    reason: str = ""
    detail: str = ""
    target_value: str = ""
    target_percent: str = ""


@dataclasses.dataclass
class LetterheadView:
    firm: str = ""
    logo: str = ""
    abn: str = ""
    representative: str = ""
    licensee: str = ""
    adviser: str = ""
    adviser_representative: str = ""
    signature: str = ""


def fee_percent(value: Decimal | None) -> str:
    """The management fee's percentage as it was set: '1.1%', '100%'."""
    shown = input_number(value)
    return f"{shown}%" if shown else ""


@dataclasses.dataclass
class FeeView:
    """The management fee as the record shows it: the yearly percentage, its minimum and maximum,
    and the estimate on the recommended portfolio (money texts)."""

    percent: str = ""
    min: str = ""
    max: str = ""
    amount: str = ""
