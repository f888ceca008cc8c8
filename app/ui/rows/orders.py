"""What the order screens show: the Desktop Broker file's rows, the orders placed, the execution and
rejection dialogs' inputs, and the reconciliation's totals and lines, built from the order services' read models."""
from __future__ import annotations

import dataclasses

from app.domain import orders as order_rules
from app.services import orders as order_service
from app.services import trade_file as trade_file_service
from app.ui import routes
from app.ui.display import close_price, day, input_number, money, whole_units
from app.ui.toolkit.rows import OrderLine


@dataclasses.dataclass
class BrokerRow(OrderLine):
    """A row of the Desktop Broker trade file page (status: Approved | Placed)."""

    key: str = ""
    account: str = ""
    side: str = ""             # BUY | SELL
    row_type: str = ""         # New | Amend | Cancel | Maintain


@dataclasses.dataclass
class OrderView(OrderLine):
    """A row of the orders page (display text; the inputs' plain values for the execution form).
    Its status is processing | executed | processing_error, shown as status_label."""

    id: int = 0
    assets_url: str = ""
    account: str = ""
    side: str = ""
    price: str = ""
    fee: str = ""
    amount: str = ""
    placed_at: str = ""        # ISO moment (shown in the browser's offset)
    trade_date: str = ""       # DD/MM/YYYY (executed orders)
    settlement_date: str = ""
    status_label: str = ""     # Placed | Partly filled | Executed | Expired | Cancelled | Error
    reason: str = ""
    is_placed: bool = False    # still with the broker: takes a fill (and, untouched, a rejection)
    reference: str = ""        # WA<n>, the broker's reference of the order
    filled: str = ""           # "400 of 1,103" once partly filled
    remaining: str = ""        # units still placed
    price_input: str = ""
    fee_input: str = ""


@dataclasses.dataclass
class ExecutionInputs:
    """The execution form as typed: the quantity placed, and the price, brokerage, days and contract
    note entered (the service reads them with read_execution)."""

    quantity: str = ""
    price: str = ""
    fee: str = ""
    trade_date: str = ""
    settlement_date: str = ""
    contract_note: str = ""

    def execution(self) -> order_service.Execution:
        """The service's execution, read once from the inputs (a ValidationError names what is wrong)."""
        return order_service.read_execution(
            price=self.price.strip(), fee=self.fee.strip(), quantity=self.quantity.strip(),
            trade_date=self.trade_date.strip(), settlement_date=self.settlement_date.strip(),
            contract_note=self.contract_note.strip())


@dataclasses.dataclass
class RejectDialog:
    """The reject question: the order, the question asked, the reason typed (closed when not open)."""

    open: bool = False
    id: int = 0
    question: str = ""
    reason: str = ""
    saving: bool = False


def broker_row(r: trade_file_service.TradeFileRow) -> BrokerRow:
    return BrokerRow(
        key=f"tr-{r.recommendation_id}", portfolio=r.investment_name,
        holdings_url=routes.url("portfolios.holdings", id=r.investment_id), account=r.broker_account or r.hin,
        side=r.action, code=r.asset_code, quantity=whole_units(r.quantity),
        order_type=trade_file_service.order_price_words(r),
        limit_price=close_price(r.limit_price, ""), expiry=day(r.expiry), row_type=r.type, status=r.status)


def order_view(o: order_service.OrderRow) -> OrderView:
    executed = o.fills > 0
    is_open = o.status in order_rules.OPEN_STATUSES
    return OrderView(
        id=o.id, portfolio=o.investment_name, holdings_url=routes.url("portfolios.holdings", id=o.investment_id),
        assets_url=routes.url("portfolios.asset-transactions", id=o.investment_id), account=o.account, side=o.side,
        code=o.asset_code, quantity=whole_units(o.quantity), order_type=o.price_text,
        limit_price=close_price(o.limit_price, ""), price=close_price(o.price, ""), fee=money(o.fee),
        amount=money(o.amount), placed_at=o.placed_at.isoformat(), expiry=o.expiry_text,
        trade_date=day(o.trade_at) if executed else "", settlement_date=day(o.settlement_at) if executed else "",
        status=o.status, status_label=o.status_label, reason=o.reason or "", is_placed=is_open,
        price_input=input_number(o.price if not executed else o.limit_price or o.stop_price),
        fee_input="" if executed else input_number(o.fee), reference=o.reference,
        filled=(f"{whole_units(o.filled_quantity)} of {whole_units(o.quantity)}"
                if o.filled_quantity and o.status != order_rules.FILLED else (f"{o.fills} fills" if o.fills > 1 else "")),
        remaining=whole_units(o.remaining_quantity) if is_open else "")


@dataclasses.dataclass
class BrokerTotalView:
    broker: str = ""
    placed: int = 0
    filled: int = 0
    partly_filled: int = 0
    expired: int = 0
    cancelled: int = 0
    rejected: int = 0
    buys: str = ""
    sells: str = ""


def broker_total(t: order_service.BrokerTotal) -> BrokerTotalView:
    return BrokerTotalView(broker=t.broker, placed=t.placed, filled=t.filled, partly_filled=t.partly_filled,
                           expired=t.expired, cancelled=t.cancelled, rejected=t.rejected, buys=money(t.buys),
                           sells=money(t.sells))


@dataclasses.dataclass
class ReconciliationLineView(OrderLine):
    key: str = ""
    broker: str = ""
    account: str = ""
    reference: str = ""
    side: str = ""
    event: str = ""             # Placed | Filled | Partly filled | Expired | Cancelled | Rejected
    units: str = ""
    value: str = ""
    status_label: str = ""      # where the order stands now


def reconciliation_line(n: int, line: order_service.ReconciliationLine) -> ReconciliationLineView:
    o = line.order
    return ReconciliationLineView(
        key=f"{o.id}-{line.event}-{n}", portfolio=o.investment_name,
        holdings_url=routes.url("portfolios.holdings", id=o.investment_id), code=o.asset_code,
        quantity=whole_units(o.quantity), order_type=o.price_text, expiry=o.expiry_text, status=o.status,
        broker=o.broker_name or "No broker", account=o.account, reference=o.reference, side=o.side,
        event=line.event_label, units=whole_units(line.units), value=money(line.value), status_label=o.status_label)
