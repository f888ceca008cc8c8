"""The trade file rules (spec 001 s4 "Trade file rules", s5 "Trade file adjustments", s9; design/
engine.md "Trade file"): what a recommended transaction becomes in the trade recommendations
report and the broker files.

- A pending amount below the minimum trade amount becomes zero (FFL trades and full sells are
  exempt, as everywhere in the engine); zero-amount rows are hidden.
- A market order's quantity is floor((amount, less brokerage for buys) / last close); a limit
  order's is the same over its limit price (ours; it gives back the transaction's units). The
  amount is the pending amount when "use pending amounts" is on (the default).
- Full sells and stop losses keep their quantity (never recomputed, never rounded).
- Rounding: nearest, up or down to a multiple of 5 or 10; a sell is never rounded above the units
  held (ours).
- Price gap: the order price (limit price, else last close) moves by a percentage or a value
  (default 0), up for buys and down for sells, on the rows the adjustment action selects ('Buy
  and Sell', 'Buy only', 'Sell only'); prices are kept to 3 decimals, rounded half-up (ours).
- Inputs: price gaps and the limit-to-last-close filter are valid numbers with at most two
  decimals; an expiry date is today or later ('earlier_than_today') and ends at the end of its
  day in UTC.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timezone
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal, localcontext
from typing import Any

from app.domain import validators
from app.domain.engine.snapshot import DECREASE, INCREASE

ZERO = Decimal(0)
ONE = Decimal(1)
HUNDRED = Decimal(100)
PRICE_PLACES = Decimal("0.001")
GAP_PLACES = Decimal("0.01")

NEAREST, UP, DOWN = "nearest", "up", "down"
ROUNDING_METHODS = (NEAREST, UP, DOWN)
ROUNDING_MULTIPLES = (5, 10)
BUY_AND_SELL, BUY_ONLY, SELL_ONLY = "Buy and Sell", "Buy only", "Sell only"
ADJUSTMENT_ACTIONS = (BUY_AND_SELL, BUY_ONLY, SELL_ONLY)
GAP_PERCENTAGE, GAP_VALUE = "percentage", "value"
GAP_TYPES = (GAP_PERCENTAGE, GAP_VALUE)
EARLIER_THAN_TODAY = "earlier_than_today"  # spec 001 s5: the error key
MARKET, LIMIT, STOP_LOSS = "market", "limit", "stop_loss"


@dataclass(frozen=True)
class FileRow:
    """A recommended transaction as the trade file reads it."""

    action: str  # increase | decrease
    amount: Decimal
    pending_amount: Decimal
    brokerage: Decimal
    last_close_price: Decimal | None
    limit_price: Decimal | None
    quantity: Decimal
    min_trade_amount: Decimal = ZERO
    full_sell: bool = False
    stop_loss: bool = False
    urgent: bool = False
    current_units: Decimal | None = None  # held units, for sells


@dataclass(frozen=True)
class Adjustments:
    use_pending_amounts: bool = True
    rounding_method: str | None = None  # nearest | up | down
    rounding_multiple: int | None = None  # 5 | 10
    price_gap_type: str | None = None  # percentage | value
    price_gap: Decimal = ZERO
    action: str = BUY_AND_SELL  # which rows the adjustments apply to


@dataclass(frozen=True)
class FileLine:
    pending_amount: Decimal
    hidden: bool
    quantity: Decimal
    price: Decimal | None  # the order price after the price gap
    order_type: str  # market | limit | stop_loss
    limit_vs_price_percentage: Decimal | None
    limit_vs_price_value: Decimal | None


def _buy(action: str) -> bool:
    if action in (INCREASE, "buy", "BUY"):
        return True
    if action in (DECREASE, "sell", "SELL"):
        return False
    raise ValueError(f"unknown trade action {action!r}")


def file_pending_amount(pending_amount: Decimal, min_trade_amount: Decimal, *, exempt: bool = False) -> Decimal:
    """A pending amount below the minimum trade amount becomes zero (unless exempt)."""
    pending_amount = Decimal(pending_amount or 0)
    if not exempt and min_trade_amount and pending_amount < Decimal(min_trade_amount):
        return ZERO
    return pending_amount


_WIDE = Context(prec=40)  # the quotient's digits before it is floored to whole units


def order_quantity(action: str, amount: Decimal, brokerage: Decimal, price: Decimal | None) -> Decimal:
    """floor((amount, less brokerage for buys) / price); 0 without a price or an amount."""
    if not price or price <= 0 or not amount or amount <= 0:
        return ZERO
    basis = Decimal(amount) - (Decimal(brokerage or 0) if _buy(action) else ZERO)
    if basis <= 0:
        return ZERO
    # quantize, not to_integral_value: an exact quotient keeps its exponent (37336 / 287.2 is
    # 1.3E+2), which the REST payload would write as is; whole units read 130. One context made
    # once: a firm's file computes tens of thousands of these, and localcontext() copies one each.
    return _WIDE.divide(basis, Decimal(price)).quantize(ONE, rounding=ROUND_FLOOR, context=_WIDE)


def whole_units(units: Decimal) -> Decimal:
    """Stored units (the database keeps six places: 821.000000) as the files and the REST payload
    write them: 821; a fraction stays as it is."""
    return units.quantize(ONE) if units == units.to_integral_value() else units


def round_quantity(quantity: Decimal, method: str | None, multiple: int | None) -> Decimal:
    """Rounded to a multiple of 5 or 10: nearest (halves up), up or down. No method: unchanged."""
    if not method or not multiple:
        return quantity
    if method not in ROUNDING_METHODS or multiple not in ROUNDING_MULTIPLES:
        raise ValueError(f"unknown rounding {method!r} / {multiple!r}")
    step = Decimal(multiple)
    rounding = {NEAREST: ROUND_HALF_UP, UP: ROUND_CEILING, DOWN: ROUND_FLOOR}[method]
    with localcontext() as ctx:
        ctx.prec = 40
        return (Decimal(quantity) / step).to_integral_value(rounding=rounding) * step


def applies_to(adjustment_action: str, action: str) -> bool:
    if adjustment_action == BUY_ONLY:
        return _buy(action)
    if adjustment_action == SELL_ONLY:
        return not _buy(action)
    return True


def adjust_price(price: Decimal | None, action: str, gap_type: str | None, gap: Decimal | None) -> Decimal | None:
    """The order price moved by the gap: up for buys, down for sells (never below zero)."""
    if price is None or not gap_type or not gap:
        return price
    price, gap = Decimal(price), Decimal(gap)
    with localcontext() as ctx:
        ctx.prec = 40
        if gap_type == GAP_PERCENTAGE:
            move = price * gap / HUNDRED
        elif gap_type == GAP_VALUE:
            move = gap
        else:
            raise ValueError(f"unknown price gap type {gap_type!r}")
        out = price + move if _buy(action) else price - move
        out = max(out, ZERO)
        return out.quantize(PRICE_PLACES, rounding=ROUND_HALF_UP)


def limit_vs_price(limit_price: Decimal | None, last_close: Decimal | None) -> tuple[Decimal | None, Decimal | None]:
    """(percentage, value) by which the limit price differs from the last close, 2 decimals."""
    if limit_price is None or not last_close:
        return None, None
    # the wide context's own methods rather than localcontext(), which copies a context per call
    # (a firm's file computes this for every limit order)
    value = _WIDE.subtract(Decimal(limit_price), Decimal(last_close))
    pct = _WIDE.divide(_WIDE.multiply(value, HUNDRED), Decimal(last_close)).quantize(
        GAP_PLACES, rounding=ROUND_HALF_UP, context=_WIDE)
    return pct, value.quantize(_MICRO, rounding=ROUND_HALF_UP, context=_WIDE).normalize(context=_WIDE)


_MICRO = Decimal("0.000001")


def exceeds_gap(line: FileLine, percentage: Decimal | None, value: Decimal | None) -> bool:
    """The last-close-vs-limit filter: the limit differs from the last close by more than the
    percentage or the value (either, in absolute terms)."""
    if line.limit_vs_price_percentage is None:
        return False
    if percentage is not None and abs(line.limit_vs_price_percentage) > Decimal(percentage):
        return True
    assert line.limit_vs_price_value is not None  # set with the percentage (limit_vs_price)
    return value is not None and abs(line.limit_vs_price_value) > Decimal(value)


def file_line(row: FileRow, adjustments: Adjustments = Adjustments()) -> FileLine:
    exempt = row.full_sell or row.urgent
    pending = file_pending_amount(row.pending_amount, row.min_trade_amount, exempt=exempt)
    basis = pending if adjustments.use_pending_amounts else Decimal(row.amount)
    adjust = applies_to(adjustments.action, row.action)
    order_type = STOP_LOSS if row.stop_loss else (LIMIT if row.limit_price is not None else MARKET)
    base_price = row.limit_price if row.limit_price is not None else row.last_close_price
    price = adjust_price(base_price, row.action, adjustments.price_gap_type, adjustments.price_gap) if adjust else base_price
    if row.full_sell or row.stop_loss:
        quantity = whole_units(Decimal(row.quantity))  # kept, never recomputed
    else:
        quote = row.limit_price if row.limit_price is not None else row.last_close_price
        quantity = order_quantity(row.action, basis, row.brokerage, quote)
        if adjust:
            quantity = round_quantity(quantity, adjustments.rounding_method, adjustments.rounding_multiple)
        if not _buy(row.action) and row.current_units is not None and quantity > row.current_units:
            quantity = whole_units(Decimal(row.current_units))
    pct, value = limit_vs_price(row.limit_price, row.last_close_price)
    hidden = pending == 0 or quantity <= 0
    return FileLine(pending_amount=pending, hidden=hidden, quantity=quantity, price=price, order_type=order_type,
                    limit_vs_price_percentage=pct, limit_vs_price_value=value)


# ---- inputs of the report ---------------------------------------------------------------------
def adjustment_errors(*, price_gap_percentage: Any = None, price_gap_value: Any = None,
                      limit_vs_last_percentage: Any = None, limit_vs_last_value: Any = None,
                      filter_on: bool = True) -> dict[str, str]:
    """Per-field errors: each a valid number with at most two decimals (the last-close-vs-limit
    filter fields only when that filter is on)."""
    errors: dict[str, str] = {}
    fields = [("price_gap_percentage", price_gap_percentage), ("price_gap_value", price_gap_value)]
    if filter_on:
        fields += [("limit_vs_last_percentage", limit_vs_last_percentage), ("limit_vs_last_value", limit_vs_last_value)]
    for name, value in fields:
        error = validators.float_(value) or validators.two_decimals(value)
        if error:
            errors[name] = error
    return errors


def expiry_error(expiry: date | None, today: date) -> str | None:
    """'earlier_than_today' for an expiry date before today."""
    if expiry is None:
        return None
    return EARLIER_THAN_TODAY if expiry < today else None


def expiry_end_of_day(expiry: date) -> datetime:
    """A report expiry date ends at the end of its day in UTC."""
    return datetime.combine(expiry, time(23, 59, 59, 999999), tzinfo=timezone.utc)


# ---- the trade file report: row types, selection, the portfolio cash summary ---------------------
NEW, AMEND, CANCEL, MAINTAIN = "New", "Amend", "Cancel", "Maintain"
ROW_TYPES = (NEW, AMEND, CANCEL, MAINTAIN)
STATUS_APPROVED, STATUS_PLACED = "Approved", "Placed"
FILTER_NOT_FOUND = "Filter is not found!"
CONFIRM_ADJUSTMENTS = "Are you sure you want to make these adjustments to all trade recommendations?"
PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 100
DEFAULT_SORT = "investment_name"
ALL_FIRMS = -2  # the superuser's 'All Firms'


def row_type(*, placed: bool, expired: bool, live_order_same_asset: bool) -> str:
    """What a row asks of the broker (ours; the specification names the types, not the rule):
    - New: an approved trade not yet sent;
    - Amend: an approved trade not yet sent while an earlier order for the same asset and side is
      still live at the broker (the broker's order grows by this one);
    - Maintain: an order already placed and still live: nothing to send unless chosen;
    - Cancel: a placed order whose expiry has passed without execution: to be cancelled."""
    if placed:
        return CANCEL if expired else MAINTAIN
    return AMEND if live_order_same_asset else NEW


def row_status(placed: bool) -> str:
    return STATUS_PLACED if placed else STATUS_APPROVED


def auto_selected(status: str, type_: str) -> bool:
    """A row is selected on load when its status is Approved, or when it has no status and its
    type is Maintain (001 s4)."""
    return status == STATUS_APPROVED or (not status and type_ == MAINTAIN)


@dataclass(frozen=True)
class CashSummary:
    """A portfolio's cash against its trades in the file (001 s3 'Portfolio cash summary')."""

    sum_buys: Decimal       # sumAmountBuyForPortfolio
    sum_sells: Decimal      # sumAmountSellForPortfolio
    cash_assets: Decimal    # sumCashAssets
    min_cash: Decimal       # minCashBalance
    available_cash: Decimal  # availableCash: cash assets less the buys placed with the broker
    placed_buys: Decimal = ZERO  # sumPlacedBuysForPortfolio: buys with the broker, not executed yet

    @property
    def net_buys(self) -> Decimal:
        return self.sum_buys - self.sum_sells


@dataclass(frozen=True)
class CashColours:
    background: str | None  # red | yellow | None
    text: str | None        # red | yellow | None


def cash_colours(c: CashSummary) -> CashColours:
    """The four colour tests of 001 s9:
    - red background when net buys (buys minus sells) exceed available cash;
    - yellow background when buys exceed available cash;
    - red text when cash assets minus net buys fall below the minimum cash;
    - yellow text when cash assets minus buys fall below it.
    Red wins over yellow. The cash assets the text tests read are those not already committed to
    buys placed with the broker (ours: the spec's file had no orders in flight)."""
    background = "red" if c.net_buys > c.available_cash else ("yellow" if c.sum_buys > c.available_cash else None)
    free = c.cash_assets - c.placed_buys
    text = ("red" if free - c.net_buys < c.min_cash
            else ("yellow" if free - c.sum_buys < c.min_cash else None))
    return CashColours(background, text)
