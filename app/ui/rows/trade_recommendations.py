"""What the trade recommendations report shows: the trade file's rows (with what an applied
adjustment made of them) and the portfolios' cash, the adjustments panel as typed, and the approval
view's lines, built from app.services.trade_file's and the approval service's read models."""
from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal
from typing import Any, Mapping, NamedTuple

from app.domain import orders as order_rules, validators
from app.domain.engine import trade_file as rules
from app.services import trade_approval_report as approval_service
from app.services import trade_file as trade_file_service
from app.ui import routes
from app.ui.display import NA, close_price, count_of, day, money, percent_1dp, whole_units
from app.ui.toolkit.rows import Amount, OrderLine


NO_ROUNDING = "none"


@dataclasses.dataclass
class FileRowView(OrderLine):
    """A row of the trade file (status: Approved | Placed)."""

    id: int = 0
    broker: str = ""
    action: str = ""            # BUY | SELL
    amount: str = ""
    pending_amount: str = ""
    last_close: str = ""
    vs_percentage: str = ""
    vs_value: Amount = Amount()  # the limit's distance from the last close, red below it
    row_type: str = ""          # New | Amend | Cancel | Maintain
    selected: bool = False
    adjusted: bool = False
    expiry_default: bool = False  # the expiry shown is the firm's default, the order has none of its own yet


@dataclasses.dataclass
class CashView:
    """A portfolio's cash against the trades in the file (001 s3), with the colour tests of s9."""

    portfolio: str = ""
    buys: str = ""
    sells: str = ""
    cash_assets: str = ""
    placed_buys: str = ""       # buys with the broker, not executed yet: their cash is committed
    min_cash: str = ""
    available: str = ""         # cash assets less the placed buys
    background: str = ""        # red | yellow | ''
    text: str = ""              # red | yellow | ''


@dataclasses.dataclass
class AdjustmentInputs:
    """The adjustments panel as typed (001 s5/s9); a new record is the panel's defaults."""

    action: str = rules.BUY_AND_SELL
    gap_type: str = rules.GAP_PERCENTAGE
    gap_percentage: str = "0"
    gap_value: str = "0"
    filter_on: bool = False
    limit_percentage: str = ""
    limit_value: str = ""
    rounding: str = NO_ROUNDING
    multiple: str = str(rules.ROUNDING_MULTIPLES[0])
    use_pending: bool = True
    expiry: str = ""


@dataclasses.dataclass(frozen=True)
class AdjustmentErrors:
    """The adjustments panel's error under each field ('' where it has none)."""

    price_gap_percentage: str = ""
    price_gap_value: str = ""
    limit_vs_last_percentage: str = ""
    limit_vs_last_value: str = ""
    expiry: str = ""


ADJUSTMENT_ERROR_FIELDS = tuple(f.name for f in dataclasses.fields(AdjustmentErrors))


class Change(NamedTuple):
    """What an applied adjustment made of a row (absent fields keep the service's values). A tuple,
    so that the state keeps it as it is (no change tracking)."""

    quantity: Decimal
    price: Decimal | None       # the order's limit price after a price gap; None keeps the row's own
    expiry: date | None
    amount: Decimal


def adjusted(row: trade_file_service.TradeFileRow, change: Change | None) -> trade_file_service.TradeFileRow:
    """The row as the table shows and sorts it: with what an applied adjustment made of it."""
    if change is None:
        return row
    price = change.price if change.price is not None else row.limit_price
    vs_pct, vs_value = (rules.limit_vs_price(price, row.last_close_price) if change.price is not None
                        else (row.limit_vs_price_percentage, row.limit_vs_price_value))
    return dataclasses.replace(row, quantity=change.quantity, limit_price=price, expiry=change.expiry or row.expiry,
                               limit_vs_price_percentage=vs_pct, limit_vs_price_value=vs_value)


def file_row_view(row: trade_file_service.TradeFileRow, change: Change | None, selected: bool,
                  default_expiry: Mapping[int, date | None]) -> FileRowView:
    """`default_expiry`: by firm, the expiry a row not placed gets when none is chosen for it."""
    shown = adjusted(row, change)
    by_default = shown.expiry is None and row.placed_transaction_id is None and row.firm_id in default_expiry
    expiry = order_rules.expiry_text(default_expiry[row.firm_id]) if by_default else day(shown.expiry)
    price, vs_value = shown.limit_price, shown.limit_vs_price_value
    if row.stop_loss and row.action == "SELL":  # a conditional order: "Stop loss at $30.54"
        order_type = order_rules.price_words(order_rules.STOP_LOSS, None, price).split(",")[0]
    else:
        order_type = "Limit" if price is not None else "Market"
    return FileRowView(
        id=row.recommendation_id, portfolio=row.investment_name,
        holdings_url=routes.url("portfolios.holdings", id=row.investment_id), broker=row.broker_name or "N/A",
        action=row.action, code=row.asset_code, amount=money(row.amount), pending_amount=money(row.pending_amount),
        quantity=whole_units(shown.quantity), limit_price=close_price(price, ""),
        last_close=close_price(row.last_close_price),
        vs_percentage=percent_1dp(shown.limit_vs_price_percentage, NA) if vs_value is not None else "",
        vs_value=Amount(text=close_price(vs_value, ""), negative=vs_value is not None and vs_value < 0),
        row_type=row.type, status=row.status, expiry=expiry, order_type=order_type, selected=selected,
        adjusted=change is not None, expiry_default=by_default)


def cash_view(c: trade_file_service.CashSummaryRow) -> CashView:
    return CashView(portfolio=c.investment_name, buys=money(c.sumAmountBuyForPortfolio),
                    sells=money(c.sumAmountSellForPortfolio), cash_assets=money(c.sumCashAssets),
                    min_cash=money(c.minCashBalance), available=money(c.availableCash),
                    placed_buys=money(c.sumPlacedBuysForPortfolio),
                    background=c.background or "", text=c.text or "")


def sort_value(row: trade_file_service.TradeFileRow, change: Change | None, key: str) -> Any:
    """The row's value in the sort column as the table shows it (None when empty)."""
    value = getattr(adjusted(row, change), key)
    return value.lower() if isinstance(value, str) else value


def matches(row: trade_file_service.TradeFileRow, term: str) -> bool:
    return not term or any(term in text.lower() for text in (
        row.investment_name, row.broker_name, row.action, row.asset_code, row.type, row.status,
        row.adviser_name))


def decimal_or_none(text: str) -> Decimal | None:
    return validators.parse_decimal(text.strip()) if text.strip() else None


@dataclasses.dataclass
class ApprovalLine:
    """A line of the approval table: a portfolio's header (is_group) or one of its items."""

    key: str = ""
    is_group: bool = False
    ti_id: int = 0
    portfolio: str = ""
    url: str = ""
    status: str = ""            # the trade instruction's status (group) or the item's
    status_label: str = ""
    count: str = ""
    can_validate: bool = False
    checked: bool = False
    item_id: int = 0            # the transaction's or the note's id
    is_note: bool = False
    action: str = ""            # BUY | SELL | NOTE
    code: str = ""
    quantity: str = ""
    price: str = ""
    value: str = ""
    text: str = ""
    awaiting: bool = False      # the actor may decide it now
    choice: str = ""            # approved | declined, not confirmed yet


def approval_lines(groups: list[approval_service.ApprovalGroup]) -> list[ApprovalLine]:
    out: list[ApprovalLine] = []
    for g in groups:
        out.append(ApprovalLine(
            key=f"g{g.trade_inst_id}", is_group=True, ti_id=g.trade_inst_id, portfolio=g.investment_name,
            url=routes.url("portfolios.trade-instructions", id=g.investment_id), status=g.status,
            status_label=g.status_label, count=count_of(len(g.items), "item"),
            can_validate=g.can_validate))
        for item in g.items:
            note = item.item_type == 2
            out.append(ApprovalLine(
                key=f"n{item.str_id}" if note else f"t{item.tr_id}", ti_id=g.trade_inst_id,
                portfolio=g.investment_name, status=(item.state if note else item.tr_status) or "",
                status_label=item.tr_status_label, item_id=(item.str_id if note else item.tr_id) or 0, is_note=note,
                action=item.action, code=item.asset_code, quantity=whole_units(item.quantity),
                price=close_price(item.price, ""), value=money(item.value),
                text=item.text, awaiting=g.can_approve and item.pending))
    return out
