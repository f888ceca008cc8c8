"""What the holdings screen shows: the holdings' rows by class, the class totals and the pending
trades, and the custom holding form's inputs, built from app.services.holdings' read models."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from app.domain.allocations import bar_width
from app.domain.holdings import ClassLine, Line, PendingTrade, Section
from app.ui.display import NA, money, percent_1dp, whole_units
from app.ui.toolkit.rows import Amount, Performance, amount_of, performance_of


def percent(value: Decimal | None) -> str:
    return percent_1dp(value, NA)


@dataclasses.dataclass
class ClassTotal:
    """An asset class as its allocation bar and its header in the table show it: the value held, its
    share of the portfolio, its target ('' for none), the bar's width and colour."""

    class_id: int = 0
    title: str = ""
    value: str = ""
    actual: str = ""
    target: str = ""
    width: str = "0%"
    color: str = ""            # success | warning | danger | '' (no target)


def class_total(c: ClassLine) -> ClassTotal:
    return ClassTotal(class_id=c.class_id, title=c.title, value=money(c.value), actual=percent(c.actual),
                      target=percent(c.target) if c.target is not None else "",
                      width=bar_width(c.actual or Decimal(0)), color=c.color or "")


@dataclasses.dataclass
class HoldingRow:
    """A row of the holdings table: a class header (is_header) or one holding."""

    key: str = ""
    is_header: bool = False
    kind: str = ""             # cash | share | deposit | custom
    id: int = 0
    code: str = ""
    name: str = ""
    detail: str = ""
    url: str = ""
    quantity: str = ""
    cost: str = ""
    value: Amount = Amount()
    allocation: str = ""
    six: Performance = Performance()
    since: Performance = Performance()
    dividend: Performance = Performance()
    fee: str = ""
    klass: ClassTotal = dataclasses.field(default_factory=ClassTotal)  # a class header's class


@dataclasses.dataclass
class HoldingTotals:
    """The header cards: the portfolio's value, its cash, its listed shares, its deposits and custom holdings."""

    value: str = ""
    cash: Amount = Amount()
    shares: str = ""
    other: str = ""


@dataclasses.dataclass
class PendingRow:
    """An approved trade not executed yet (the 'Pending trades' card under the table)."""

    key: str = ""
    code: str = ""
    side: str = ""             # BUY | SELL
    units: str = ""            # +120 (buy) or -40 (sell), whole units
    status: str = ""           # Approved | Placed
    price: str = ""            # Market, Limit $12.50, Stop loss at $30.54


def pending_row(p: PendingTrade) -> PendingRow:
    sign = "+" if p.side == "BUY" else "-"
    return PendingRow(key=f"trade-{p.trade_id}", code=p.code, side=p.side, units=sign + whole_units(p.units),
                      status=p.status, price=p.price_text)


def line_row(line: Line, url: str | None = None) -> HoldingRow:
    def shown(value: Decimal | None) -> Performance:  # a share's returns; the other kinds show none
        return performance_of(value) if line.kind == "share" else Performance()

    return HoldingRow(
        key=f"{line.kind}-{line.id or 0}", kind=line.kind, id=line.id or 0, code=line.code, name=line.name,
        detail=line.detail, url=url or "", quantity=whole_units(line.quantity), cost=money(line.cost),
        value=amount_of(line.value), allocation=percent(line.allocation), six=shown(line.six_months_return),
        since=shown(line.since_purchase), dividend=shown(line.dividend_yield),
        fee=percent(line.fee) if line.kind == "custom" else "")


@dataclasses.dataclass
class HoldingInputs:
    """The custom holding modal's inputs as typed: the name, the class chosen (its id as the select
    sends it), the fee and the value."""

    name: str = ""
    class_id: str = ""
    fee: str = ""
    value: str = ""

    def trimmed(self) -> HoldingInputs:
        """What the unsaved-changes check compares (spec 002 s4): the texts without surrounding spaces."""
        return HoldingInputs(name=self.name.strip(), class_id=self.class_id, fee=self.fee.strip(),
                             value=self.value.strip())


def header_row(section: Section) -> HoldingRow:
    return HoldingRow(key=f"class-{section.klass.class_id}", is_header=True, klass=class_total(section.klass))
