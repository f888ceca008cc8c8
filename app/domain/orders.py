"""Orders sent to a broker and what comes back (spec 001 s7 broker exports, 002 s4 statuses).

- The three broker files (trade file, Desktop Broker, AUSIEX): one row per order, their columns
  and how a row reads (`file_rows`). The layouts are ours (documented in the README): each is
  what that broker's bulk-order import takes.
- The execution (confirmation) file an adviser uploads after the broker filled the orders:
  columns code, side, quantity, price, brokerage, trade date, settlement date, account; every
  line is checked (`parse_confirmations`); the service matches each to a placed order.

Pure: no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

from app.domain.errors import not_found
from app.domain.money import number_text
from app.domain.timezones import day_text
from app.domain.uploads import (
    FileProblem, LineError, header_positions, named_lines, read_rows, reasons_by_line,
)

TRADE_FILE, DESKTOP_BROKER, AUSIEX = "trade_file", "desktop_broker", "ausiex"
FILE_KINDS = (TRADE_FILE, DESKTOP_BROKER, AUSIEX)
FILE_TITLES = {TRADE_FILE: "Trade File", DESKTOP_BROKER: "Desktop Broker Trade File", AUSIEX: "AUSIEX Trade File"}
# the broker whose portfolios a broker's file holds (the trade file, the firm's own, holds every broker)
BROKER_OF_FILE = {DESKTOP_BROKER: "Desktop Broker", AUSIEX: "AUSIEX"}
# formats with a conditional (stop) order; in the others a stop loss is placed by hand
CONDITIONAL_FORMATS = frozenset({TRADE_FILE, AUSIEX})
# formats that amend or cancel an order by its reference; in the others that is done by hand
AMENDING_FORMATS = frozenset({TRADE_FILE, AUSIEX})

NOTHING_TO_EXPORT = "There are no trades to export: select at least one trade recommendation that is not placed yet"
NOTHING_SELECTED = "Select at least one trade recommendation to export"
TRADE_NOT_FOUND = not_found("Trade recommendation")
NO_CONFIRMATIONS = "The file holds no executed trades"
CONFIRMATIONS_NOT_UPLOADED = "Executed trades are not uploaded due to line(s): {lines}"
ORDER_NOT_PLACED = "Only a placed order can be executed or rejected"
ORDER_CLOSED = "The order is {status}: it can no longer be executed"
EXECUTED = "Trade executed"
PARTLY_EXECUTED = "Part of the order executed"
REJECTED = "Order rejected"
CONFIRMATIONS_UPLOADED = "File uploaded"
MAX_LINES = 10_000
MAX_NAMED_LINES = 50

# an order's life (ours; 002 s4 names placed, executed and error): placed, then partly filled,
# filled, expired (its expiry passed unexecuted), cancelled, or rejected by the broker
PLACED, PARTLY_FILLED, FILLED, EXPIRED, CANCELLED, REJECTED_STATUS = (
    "placed", "partly_filled", "filled", "expired", "cancelled", "rejected")
ORDER_STATUSES = (PLACED, PARTLY_FILLED, FILLED, EXPIRED, CANCELLED, REJECTED_STATUS)
OPEN_STATUSES = (PLACED, PARTLY_FILLED)
ORDER_STATUS_LABELS = {PLACED: "Placed", PARTLY_FILLED: "Partly filled", FILLED: "Executed", EXPIRED: "Expired",
                       CANCELLED: "Cancelled", REJECTED_STATUS: "Error"}

NEW, AMEND, CANCEL, MAINTAIN = "New", "Amend", "Cancel", "Maintain"  # what a file row asks of the broker (001 s3)


@dataclass(frozen=True)
class OrderChange:
    """What a later approved trade does to the live order of the same portfolio and asset: its
    row type and the units the row sends (Amend: the order's units once amended; Cancel: the units
    cancelled; New: a separate order's)."""

    row_type: str
    quantity: Decimal


def order_change(live_side: str | None, live_remaining: Decimal, side: str, quantity: Decimal) -> OrderChange:
    """A later trade recommendation is calculated net of the orders still with the broker (they are
    its pending trades), so it changes them rather than adding an order beside them (ours; the
    specification names the types, not the rule):
    - no live order: New;
    - the same side: Amend, the order grows by the trade (buy 100 placed + buy 50 = amend to 150);
    - the other side, fewer units than the order has left: Amend, the order shrinks (buy 300 placed,
      sell 100 = amend to 200);
    - the other side, exactly the units left: Cancel;
    - the other side, more units than the order has left: New, an order of its own (the live one
      stays; the two net out at the broker)."""
    if live_side is None or live_remaining <= 0:
        return OrderChange(NEW, quantity)
    if side == live_side:
        return OrderChange(AMEND, live_remaining + quantity)
    if quantity < live_remaining:
        return OrderChange(AMEND, live_remaining - quantity)
    if quantity == live_remaining:
        return OrderChange(CANCEL, live_remaining)
    return OrderChange(NEW, quantity)


# an order that no longer takes a fill, in words: "The order is executed: it can no longer be executed"
CLOSED_WORDS = {FILLED: "executed", EXPIRED: "expired", CANCELLED: "cancelled", REJECTED_STATUS: "rejected by the broker"}

MARKET, LIMIT, STOP_LOSS = "MARKET", "LIMIT", "STOP_LOSS"
ORDER_TYPE_TITLES = {MARKET: "Market", LIMIT: "Limit", STOP_LOSS: "Stop Loss"}
DEFAULT_EXPIRY_DAYS = 30  # an order's life when neither the adjustments nor the firm choose one
MAX_EXPIRY_DAYS = 365
GTC = "GTC"
PRICE_PLACES = Decimal("0.001")


def order_type_of(limit_price: Decimal | None, *, stop_loss: bool = False) -> str:
    """How a broker is asked to trade: a stop loss is a conditional order (STOP_LOSS, its price the
    trigger); otherwise LIMIT at the limit price when there is one, else MARKET."""
    if stop_loss:
        return STOP_LOSS
    return MARKET if limit_price is None else LIMIT


def stop_limit(trigger: Decimal | None, gap_percent: Decimal | None) -> Decimal | None:
    """The limit a triggered stop loss sells at: the trigger less the firm's gap (percent), to three
    decimals half up; None (sell at market once triggered) when the firm sets no gap."""
    if trigger is None or gap_percent is None:
        return None
    with localcontext() as ctx:
        ctx.prec = 40
        return max(trigger * (Decimal(100) - gap_percent) / Decimal(100), Decimal(0)).quantize(
            PRICE_PLACES, rounding=ROUND_HALF_UP)


def order_expiry(chosen: date | None, *, today: date, firm_days: int | None, good_till_cancelled: bool) -> date | None:
    """Every order's expiry: the one chosen in the adjustments, else the firm's default life (30
    days unless the firm sets another), or none (good till cancelled) only when the firm says so."""
    if chosen is not None:
        return chosen
    if good_till_cancelled:
        return None
    return today + timedelta(days=firm_days or DEFAULT_EXPIRY_DAYS)


def expiry_text(expiry: date | None) -> str:
    return day_text(expiry) if expiry else GTC


def price_text(price: Decimal) -> str:
    """A share price in dollars: at least cents, more places only when the price has them ($30.54,
    $0.065)."""
    cents = price.quantize(Decimal("0.01"))
    return f"${price:,.2f}" if cents == price else f"${number_text(price)}"


def price_words(order_type: str, limit_price: Decimal | None, stop_price: Decimal | None) -> str:
    """An order's price as the screens say it: "Market", "Limit $30.54", "Stop loss at $30.54"
    (with "then limit $29.93" when the triggered sale has a limit)."""
    if order_type.upper() == STOP_LOSS:
        text = f"Stop loss at {price_text(stop_price)}" if stop_price is not None else "Stop loss"
        return text + (f", then limit {price_text(limit_price)}" if limit_price is not None else ", then market")
    if limit_price is not None and order_type.upper() == LIMIT:
        return f"Limit {price_text(limit_price)}"
    return "Market"


@dataclass(frozen=True)
class Order:
    """One order as a broker file writes it."""

    reference: str           # our order reference (WA<n>), echoed back by the broker
    portfolio_name: str
    hin: str
    broker_account: str
    broker_name: str
    side: str                # BUY | SELL
    code: str
    quantity: Decimal
    order_type: str          # MARKET | LIMIT | STOP_LOSS
    limit_price: Decimal | None  # a limit order's price; a stop loss's limit once triggered (None: market)
    expiry: date | None      # None: good till cancelled
    row_type: str            # New | Amend | Cancel | Maintain
    adviser_name: str
    adviser_code: str        # the firm's AUSIEX adviser code (fee form)
    stop_price: Decimal | None = None  # a stop loss's trigger

    @property
    def account(self) -> str:
        """The broker's account for the order: the broker account number, else the HIN."""
        return self.broker_account or self.hin


COLUMNS: dict[str, tuple[str, ...]] = {
    TRADE_FILE: ("Portfolio", "HIN", "Broker Account", "Broker", "Side", "Code", "Quantity", "Order Type",
                 "Trigger Price", "Limit Price", "Expiry", "Type", "Reference", "Adviser"),
    DESKTOP_BROKER: ("Account Number", "Buy/Sell", "Security Code", "Quantity", "Order Type", "Limit Price",
                     "Expiry Date", "Reference"),
    AUSIEX: ("Adviser Code", "Account Number", "HIN", "Side", "Security", "Quantity", "Price Type", "Trigger Price",
             "Limit Price", "Good Till", "Client Reference", "Action"),
}

# why a file leaves an order out (None: it writes it)
OTHER_BROKER, NO_BROKER, NO_CONDITIONAL, HELD_BY_BROKER, NO_AMENDMENT = (
    "other_broker", "no_broker", "no_conditional", "held", "no_amendment")


def left_out_reason(kind: str, o: Order) -> str | None:
    """Whether the `kind` file writes the order, and if not why: a broker's file holds only its own
    portfolios' orders, never a portfolio without a broker, never an order the broker already holds
    unchanged (Maintain), and no stop loss where the format has no conditional order."""
    if kind != TRADE_FILE:
        if not o.broker_name:
            return NO_BROKER
        if o.broker_name != BROKER_OF_FILE[kind]:
            return OTHER_BROKER
        if o.row_type == "Maintain":
            return HELD_BY_BROKER
    if o.row_type in (AMEND, CANCEL) and kind not in AMENDING_FORMATS:
        return NO_AMENDMENT
    if o.order_type == STOP_LOSS and kind not in CONDITIONAL_FORMATS and o.row_type == NEW:
        return NO_CONDITIONAL
    return None


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def left_out_notices(kind: str, left_out: list[tuple[str, Order]]) -> list[str]:
    """What a broker file did not write, in words the adviser acts on: one line per reason (and per
    broker for other brokers' orders)."""
    out: list[str] = []
    others: dict[str, list[Order]] = {}
    for reason, o in left_out:
        if reason == OTHER_BROKER:
            others.setdefault(o.broker_name, []).append(o)
    for broker, orders in sorted(others.items()):
        out.append(f"{_plural(len(orders), 'order')} of {_plural(len({o.portfolio_name for o in orders}), 'portfolio')}"
                   f" at {broker} {'was' if len(orders) == 1 else 'were'} not written: "
                   f"{'it belongs' if len(orders) == 1 else 'they belong'} to another broker's file")
    none = [o for reason, o in left_out if reason == NO_BROKER]
    if none:
        names = ", ".join(sorted({o.portfolio_name for o in none}))
        out.append(f"{_plural(len(none), 'order')} not written: no broker is set for {names}")
    manual = [o for reason, o in left_out if reason == NO_CONDITIONAL]
    if manual:
        listed = "; ".join(f"{o.side.title()} {number_text(o.quantity)} {o.code} in {o.portfolio_name}, "
                           f"{price_words(o.order_type, o.limit_price, o.stop_price).lower()}" for o in manual)
        out.append(f"{_plural(len(manual), 'stop loss', 'stop losses')} not written: "
                   f"{BROKER_OF_FILE.get(kind, kind)} takes no conditional orders. Place "
                   f"{'it' if len(manual) == 1 else 'them'} with the broker by hand: {listed}")
    by_hand = [o for reason, o in left_out if reason == NO_AMENDMENT]
    if by_hand:
        listed = "; ".join(f"{o.row_type.lower()} {o.reference} ({o.side.title()} {o.code} in {o.portfolio_name}"
                           + (f", to {number_text(o.quantity)} units)" if o.row_type == AMEND else ")")
                           for o in by_hand)
        out.append(f"{_plural(len(by_hand), 'change')} to orders already with the broker not written: "
                   f"{BROKER_OF_FILE.get(kind, kind)} takes no amendments or cancellations in its file. Make "
                   f"{'it' if len(by_hand) == 1 else 'them'} with the broker by hand: {listed}")
    held = [o for reason, o in left_out if reason == HELD_BY_BROKER]
    if held:
        out.append(f"{_plural(len(held), 'order')} already with the broker {'was' if len(held) == 1 else 'were'} "
                   f"not sent again")
    return out


def _number(value: Decimal | None) -> str:
    return "" if value is None else number_text(value)


def file_row(kind: str, o: Order) -> list[str]:
    """One order as the `kind` file's cells (text; the writers keep them as text)."""
    limit = _number(o.limit_price) if o.order_type in (LIMIT, STOP_LOSS) else ""
    trigger = _number(o.stop_price) if o.order_type == STOP_LOSS else ""
    if kind == TRADE_FILE:
        return [o.portfolio_name, o.hin, o.broker_account, o.broker_name, o.side, o.code, _number(o.quantity),
                ORDER_TYPE_TITLES.get(o.order_type, o.order_type.title()), trigger, limit, expiry_text(o.expiry),
                o.row_type, o.reference, o.adviser_name]
    if kind == DESKTOP_BROKER:
        if o.order_type == STOP_LOSS:  # only the page's own Excel shows one (the export leaves it out)
            return [o.account, "S", o.code, _number(o.quantity), "Stop Loss - place by hand", trigger,
                    day_text(o.expiry), o.reference]
        return [o.account, "B" if o.side == "BUY" else "S", o.code, _number(o.quantity), o.order_type.title(),
                limit, day_text(o.expiry), o.reference]
    if kind == AUSIEX:
        action = {"New": "NEW", "Amend": "AMEND", "Cancel": "CANCEL"}[o.row_type]
        if o.order_type == STOP_LOSS:
            price_type = "STOPLMT" if o.limit_price is not None else "STOP"
        else:
            price_type = "MKT" if o.order_type == MARKET else "LMT"
        return [o.adviser_code, o.broker_account, o.hin, o.side, o.code, _number(o.quantity), price_type, trigger,
                limit, expiry_text(o.expiry), o.reference, action]
    raise ValueError(f"unknown broker file {kind!r}")


def file_name(kind: str, firm_name: str, moment: datetime) -> str:
    stamp = moment.strftime("%Y%m%d-%H%M")
    safe = re.sub(r"[^A-Za-z0-9 ._-]+", "", firm_name).strip() or "All Firms"
    extension = "xlsx" if kind == TRADE_FILE else "csv"
    return f"{safe} - {FILE_TITLES[kind]} - {stamp}.{extension}"


# ---- the execution (confirmation) file --------------------------------------------------------------
CONFIRMATION_COLUMNS = ("code", "side", "quantity", "price", "brokerage", "trade_date", "settlement_date", "account")
_ALIASES = {
    "code": ("code", "security", "security code", "asx code", "stock"),
    "side": ("side", "buy/sell", "action", "buy sell"),
    "quantity": ("quantity", "units", "qty", "filled quantity"),
    "price": ("price", "average price", "avg price", "execution price"),
    "brokerage": ("brokerage", "fee", "commission"),
    "trade_date": ("trade date", "trade_date", "date", "executed", "execution date"),
    "settlement_date": ("settlement date", "settlement_date", "settlement"),
    "account": ("account", "account number", "hin", "broker account"),
    "reference": ("reference", "client reference", "order reference", "order id"),
    "fill_id": ("fill id", "fill_id", "contract note", "contract_note", "execution id", "confirmation"),
}
REQUIRED = ("code", "side", "quantity", "price", "trade_date", "account")


@dataclass(frozen=True)
class Confirmation:
    line: int
    code: str
    side: str  # BUY | SELL
    quantity: Decimal
    price: Decimal
    brokerage: Decimal
    trade_at: datetime
    settlement_at: datetime | None
    account: str
    reference: str
    fill_id: str = ""        # the broker's fill id or contract note: a fill is recorded once


def _header(row: list[str]) -> dict[str, int]:
    positions = header_positions(row, _ALIASES.keys(), _ALIASES)
    missing = [c for c in REQUIRED if c not in positions]
    if missing:
        raise FileProblem("The file needs the columns " + ", ".join(CONFIRMATION_COLUMNS)
                          + " (missing: " + ", ".join(missing) + ")")
    return positions


def _decimal(text: str) -> Decimal | None:
    try:
        value = Decimal(text.replace("$", "").replace(",", "").strip())
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() else None


def parse_day(text: str) -> date | None:
    text = text.strip()
    for pattern in ("%d/%m/%Y", "%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%d/%m/%Y %H:%M", "%d-%m-%Y"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _moment(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def parse_confirmations(data: bytes) -> tuple[list[Confirmation], list[LineError]]:
    """Every executed trade of a CSV file or the first sheet of an .xlsx workbook, and every wrong
    line with why (line 1 is the header). Raises FileProblem when the file cannot be used."""
    rows = read_rows(data)
    numbered = [(n, row) for n, row in enumerate(rows, start=1) if any(str(c or "").strip() for c in row)]
    if not numbered:
        raise FileProblem(NO_CONFIRMATIONS)
    if len(rows) > MAX_LINES + 1:
        raise FileProblem(f"The file has more than {MAX_LINES} lines")
    positions = _header(numbered[0][1])
    body = numbered[1:]
    if not body:
        raise FileProblem(NO_CONFIRMATIONS)
    out: list[Confirmation] = []
    errors: list[LineError] = []
    for n, row in body:
        def cell(column: str) -> str:
            index = positions.get(column)
            return str(row[index] or "").strip() if index is not None and index < len(row) else ""

        problems: list[str] = []
        code = cell("code").upper()
        if not code:
            problems.append("code: the asset code is missing")
        side = {"B": "BUY", "BUY": "BUY", "S": "SELL", "SELL": "SELL"}.get(cell("side").upper())
        if side is None:
            problems.append(f"side: {cell('side') or 'missing'} is not BUY or SELL")
        quantity = _decimal(cell("quantity"))
        if quantity is None or quantity <= 0 or quantity != quantity.to_integral_value():
            problems.append(f"quantity: {cell('quantity') or 'missing'} is not a whole number of units")
        price = _decimal(cell("price"))
        if price is None or price <= 0:
            problems.append(f"price: {cell('price') or 'missing'} is not a price")
        brokerage = _decimal(cell("brokerage")) if cell("brokerage") else Decimal(0)
        if brokerage is None or brokerage < 0:
            problems.append(f"brokerage: {cell('brokerage')} is not an amount")
        trade_day = parse_day(cell("trade_date"))
        if trade_day is None:
            problems.append(f"trade date: {cell('trade_date') or 'missing'} is not a date (DD/MM/YYYY)")
        settlement_day = parse_day(cell("settlement_date")) if cell("settlement_date") else None
        if cell("settlement_date") and settlement_day is None:
            problems.append(f"settlement date: {cell('settlement_date')} is not a date (DD/MM/YYYY)")
        elif settlement_day and trade_day and settlement_day < trade_day:
            problems.append("settlement date: before the trade date")
        account = cell("account")
        if not account:
            problems.append("account: the account is missing")
        if problems or side is None or quantity is None or price is None or brokerage is None or trade_day is None:
            errors.extend(LineError(n, p) for p in problems)  # (each missing value has its problem)
            continue
        out.append(Confirmation(line=n, code=code, side=side, quantity=quantity, price=price,
                                brokerage=brokerage.quantize(Decimal("0.01")), trade_at=_moment(trade_day),
                                settlement_at=_moment(settlement_day) if settlement_day else None,
                                account=account, reference=cell("reference"), fill_id=cell("fill_id")))
    return out, errors


def not_uploaded(errors: list[LineError]) -> tuple[str, dict[str, str]]:
    """The failure text naming each wrong line, and each line's reasons."""
    by_line = reasons_by_line(errors)
    numbers = sorted(by_line)
    named = named_lines(numbers, MAX_NAMED_LINES)
    detail = "; ".join(f"line {n}: {', '.join(by_line[n])}" for n in numbers[:MAX_NAMED_LINES])
    return CONFIRMATIONS_NOT_UPLOADED.format(lines=named) + f" ({detail})", {str(n): "; ".join(by_line[n]) for n in numbers}
