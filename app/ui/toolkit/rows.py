"""Row types several screens hold (a screen's own rows live with its state)."""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping

from app.domain.allocations import bar_width, total_text
from app.ui.display import NA, money, percent_1dp, sign_of, text


@dataclasses.dataclass
class Option:
    """A choice of a select: what is sent and what is shown."""

    value: str = ""
    label: str = ""


def offers(options: Iterable[Option], value: Any) -> bool:
    """Whether a select offers `value`. An event handler takes only a choice its select offered:
    the browser can send any value."""
    return any(o.value == value for o in options)


def label_of(options: Iterable[Option], value: str, default: str = "") -> str:
    """What a select shows for `value` (`default` when it does not offer it)."""
    return next((o.label for o in options if o.value == value), default)


def keeping(options: list[Option], value: str, label: str) -> list[Option]:
    """The options with a saved choice kept visible when it is no longer offered (e.g. a disabled
    adviser, a status no longer in the report)."""
    if value and label and not offers(options, value):
        return [*options, Option(value=value, label=label)]
    return options


def options_of(found: Iterable[Mapping[str, Any]], label: str = "name") -> list[Option]:
    """A select's choices from a service's rows: each row's id, shown by its `label` field."""
    return [Option(value=str(row["id"]), label=text(row[label])) for row in found]


@dataclasses.dataclass
class AllocationRange:
    """A target allocation with its band, as typed (a model's or a portfolio's line)."""

    allocation: str = ""
    min: str = ""
    max: str = ""


@dataclasses.dataclass
class ClassBand(AllocationRange):
    """An asset class with its target allocation and band, as a model or portfolio form edits them."""

    class_id: int = 0
    title: str = ""
    is_cash: bool = False


@dataclasses.dataclass
class Detail:
    """One line of a details list: a label and its value as shown."""

    label: str = ""
    value: str = ""


def field_errors(found: Mapping[str, str] | None, fields: Iterable[str]) -> dict[str, str]:
    """A form's error under each of its fields ('' where the field has none), from a refusal's
    `fields`; keys the form does not show are left out (they reach the user as the toast)."""
    found = found or {}
    return {name: found[name] if name in found else "" for name in fields}


def refused_lines(fields: Mapping[str, str], only_lines: bool = False) -> list[Detail]:
    """An upload's refused lines as the failure shows them ('Line 7': its reasons), in line order;
    other keys (the file itself) after them unless `only_lines`."""
    ordered = sorted(fields.items(), key=lambda kv: (len(kv[0]), kv[0]))
    return [Detail(label=f"Line {key}" if key.isdigit() else key, value=text) for key, text in ordered
            if key.isdigit() or not only_lines]


@dataclasses.dataclass(frozen=True)
class Amount:
    """A sum of money as shown ('-$250.00') and whether it is below zero (shown in red)."""

    text: str = ""
    negative: bool = False


def amount_of(value: Decimal | None, empty: str = "") -> Amount:
    """`value` (None: `empty`) as an Amount."""
    return Amount(text=money(value, empty), negative=value is not None and value < 0)


@dataclasses.dataclass(frozen=True)
class Performance:
    """A signed percentage as shown (a return or a yield, or a weight's distance from its target in
    points) and its sign ('up', 'down', or '' for zero or none), by which the screen colours it."""

    text: str = ""
    sign: str = ""


def performance_of(value: Any, empty: str = NA) -> Performance:
    """`value` (a percentage, or None: `empty`) as a Performance."""
    return Performance(text=percent_1dp(value, empty), sign=sign_of(value))


@dataclasses.dataclass
class OrderLine:
    """A trade on its way to a broker as every order table shows it (the trade file, the Desktop
    Broker file, the orders placed): the portfolio with a link to its holdings, the asset, whole
    units, the order type, its limit price ('' for a market order), the expiry and the status."""

    portfolio: str = ""
    holdings_url: str = ""
    code: str = ""
    quantity: str = ""
    order_type: str = ""       # Market | Limit | Stop loss
    limit_price: str = ""
    expiry: str = ""           # DD/MM/YYYY or ''
    status: str = ""


@dataclasses.dataclass
class TotalBar:
    """An allocation totals bar: its caption ('Total: 85.0%'), the width of its fill and its colour."""

    label: str = ""
    width: str = ""
    color: str = ""


def total_bar(total: Decimal, color_of: Callable[[Decimal], str]) -> TotalBar:
    """The bar of `total`, coloured by the rule of what it adds up (app.domain.allocations)."""
    return TotalBar(label=total_text(total), width=bar_width(total), color=color_of(total))


# ---- trade totals: the target portfolio's and the trade recommendations' summary figures ----------
@dataclasses.dataclass
class TradeTotals:
    """What a set of trades adds up to, as money texts: bought, sold and the brokerage paid on them."""

    buys: str = ""
    sells: str = ""
    brokerage: str = ""

