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
from datetime import date, datetime, timezone
from decimal import Decimal, InvalidOperation

from app.domain.errors import not_found
from app.domain.money import number_text
from app.domain.timezones import day_text
from app.domain.uploads import (
    FileProblem, LineError, header_positions, named_lines, read_rows, reasons_by_line,
)

TRADE_FILE, DESKTOP_BROKER, AUSIEX = "trade_file", "desktop_broker", "ausiex"
FILE_KINDS = (TRADE_FILE, DESKTOP_BROKER, AUSIEX)
FILE_TITLES = {TRADE_FILE: "Trade File", DESKTOP_BROKER: "Desktop Broker Trade File", AUSIEX: "AUSIEX Trade File"}

NOTHING_TO_EXPORT = "There are no trades to export: select at least one trade recommendation that is not placed yet"
TRADE_NOT_FOUND = not_found("Trade recommendation")
NO_CONFIRMATIONS = "The file holds no executed trades"
CONFIRMATIONS_NOT_UPLOADED = "Executed trades are not uploaded due to line(s): {lines}"
ORDER_NOT_PLACED = "Only a placed order can be executed or rejected"
EXECUTED = "Trade executed"
REJECTED = "Order rejected"
CONFIRMATIONS_UPLOADED = "File uploaded"
MAX_LINES = 10_000
MAX_NAMED_LINES = 50


def order_type_of(limit_price: Decimal | None) -> str:
    """How a broker is asked to trade: LIMIT at the limit price when there is one, else MARKET."""
    return "MARKET" if limit_price is None else "LIMIT"


@dataclass(frozen=True)
class Order:
    """One order as a broker file writes it."""

    reference: str           # our order id (the asset transaction), echoed back by the broker
    portfolio_name: str
    hin: str
    broker_account: str
    broker_name: str
    side: str                # BUY | SELL
    code: str
    quantity: Decimal
    order_type: str          # MARKET | LIMIT
    limit_price: Decimal | None
    expiry: date | None
    row_type: str            # New | Amend | Cancel | Maintain
    adviser_name: str
    adviser_code: str        # the firm's AUSIEX adviser code (fee form)

    @property
    def account(self) -> str:
        """The broker's account for the order: the broker account number, else the HIN."""
        return self.broker_account or self.hin


COLUMNS: dict[str, tuple[str, ...]] = {
    TRADE_FILE: ("Portfolio", "HIN", "Broker Account", "Broker", "Side", "Code", "Quantity", "Order Type",
                 "Limit Price", "Expiry", "Type", "Reference", "Adviser"),
    DESKTOP_BROKER: ("Account Number", "Buy/Sell", "Security Code", "Quantity", "Order Type", "Limit Price",
                     "Expiry Date", "Reference"),
    AUSIEX: ("Adviser Code", "Account Number", "HIN", "Side", "Security", "Quantity", "Price Type", "Limit Price",
             "Good Till", "Client Reference", "Action"),
}


def _number(value: Decimal | None) -> str:
    return "" if value is None else number_text(value)


def file_row(kind: str, o: Order) -> list[str]:
    """One order as the `kind` file's cells (text; the writers keep them as text)."""
    limit = _number(o.limit_price) if o.order_type == "LIMIT" else ""
    if kind == TRADE_FILE:
        return [o.portfolio_name, o.hin, o.broker_account, o.broker_name, o.side, o.code, _number(o.quantity),
                o.order_type.title(), limit, day_text(o.expiry), o.row_type, o.reference, o.adviser_name]
    if kind == DESKTOP_BROKER:
        return [o.account, "B" if o.side == "BUY" else "S", o.code, _number(o.quantity), o.order_type.title(),
                limit, day_text(o.expiry), o.reference]
    if kind == AUSIEX:
        action = {"New": "NEW", "Amend": "AMEND", "Cancel": "CANCEL", "Maintain": "NEW"}.get(o.row_type, "NEW")
        return [o.adviser_code, o.broker_account, o.hin, o.side, o.code, _number(o.quantity),
                "MKT" if o.order_type == "MARKET" else "LMT", limit, day_text(o.expiry) or "GTC", o.reference, action]
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
        if problems:
            errors.extend(LineError(n, p) for p in problems)
            continue
        out.append(Confirmation(line=n, code=code, side=side, quantity=quantity, price=price,
                                brokerage=brokerage.quantize(Decimal("0.01")), trade_at=_moment(trade_day),
                                settlement_at=_moment(settlement_day) if settlement_day else None,
                                account=account, reference=cell("reference")))
    return out, errors


def not_uploaded(errors: list[LineError]) -> tuple[str, dict[str, str]]:
    """The failure text naming each wrong line, and each line's reasons."""
    by_line = reasons_by_line(errors)
    numbers = sorted(by_line)
    named = named_lines(numbers, MAX_NAMED_LINES)
    detail = "; ".join(f"line {n}: {', '.join(by_line[n])}" for n in numbers[:MAX_NAMED_LINES])
    return CONFIRMATIONS_NOT_UPLOADED.format(lines=named) + f" ({detail})", {str(n): "; ".join(by_line[n]) for n in numbers}
