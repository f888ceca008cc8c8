"""reports.desktop-broker-trade-file and reports.orders: the firm's Desktop Broker trade file, and
the orders placed with brokers and what came back (spec 001 s2/s7, 002 s4 statuses: processing
shown as Placed, processing error shown as Error, executed).

- Desktop Broker trade file: the rows the page's Excel writes (app.services.trade_file
  .desktop_broker_orders): live orders and approved trades not placed yet of the portfolios with
  Desktop Broker. A superuser picks the firm ('All Firms', -2, by default). Paged on the server from
  the rows read once per load.
- Orders: one page of the firm's broker orders in a status (Placed by default, Executed, Error,
  All), each placed order with 'Record execution' (price, brokerage, trade and settlement dates,
  contract note; the quantity is the placed one) and 'Reject' (a reason, asked first); and the
  broker's execution file (CSV or Excel): every line executes its order, or none and the wrong
  lines are named.

Every handler resolves the acting user from the token and calls the services, which check the
permissions and the firm; the flags here only hide what a role may not use."""
from __future__ import annotations

import asyncio
import dataclasses
import math
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

import reflex as rx

from app.domain import orders as order_rules
from app.domain.cgt import format_aud
from app.domain.engine import trade_file as file_rules
from app.domain.errors import AuthenticationError, DomainError, ValidationError
from app.domain.permissions import Actor
from app.services import firms as firm_service
from app.services import orders as order_service
from app.services import trade_file as trade_file_service
from app.ui import routes
from app.ui.states.lists import visible_pages
from app.ui.parse import positive_int
from app.ui.display import close_price
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.holdings import units

ALL_FIRMS = str(file_rules.ALL_FIRMS)
EXCEL_PATH = "/api/reports/desktop-broker-export-excel"
PAGE_SIZES = ["20", "50", "100"]
DEFAULT_PAGE_SIZE = "20"
BROKER_PAGE_SIZE = "50"
UPLOAD_ID = "execution-file"
SELECT_FILE = "Please, select file. "
REJECT_QUESTION = "Reject the order {side} {quantity} {code} of {portfolio}? The trade goes back to the trade file."
ORDER_STATUSES = (("placed", "Placed"), ("executed", "Executed"), ("error", "Error"), ("all", "All"))
STATUS_VALUES = {value for value, _ in ORDER_STATUSES}
_FORM_FIELDS = {"price": "price", "brokerage": "fee", "fee": "fee", "trade date": "trade_date",
                "trade_date": "trade_date", "settlement date": "settlement_date",
                "settlement_date": "settlement_date", "quantity": "quantity"}


@dataclasses.dataclass
class Option:
    value: str = ""
    label: str = ""


@dataclasses.dataclass
class Detail:
    label: str = ""
    value: str = ""


@dataclasses.dataclass
class BrokerRow:
    """A row of the Desktop Broker trade file page."""

    key: str = ""
    portfolio: str = ""
    holdings_url: str = ""
    account: str = ""
    side: str = ""             # BUY | SELL
    code: str = ""
    quantity: str = ""
    order_type: str = ""       # Market | Limit
    limit_price: str = ""
    expiry: str = ""           # DD/MM/YYYY or ''
    row_type: str = ""         # New | Amend | Cancel | Maintain
    status: str = ""           # Approved | Placed


@dataclasses.dataclass
class OrderView:
    """A row of the orders page (display text; the inputs' plain values for the execution form)."""

    id: int = 0
    portfolio: str = ""
    holdings_url: str = ""
    assets_url: str = ""
    account: str = ""
    side: str = ""
    code: str = ""
    quantity: str = ""
    order_type: str = ""
    limit_price: str = ""
    price: str = ""
    fee: str = ""
    amount: str = ""
    placed_at: str = ""        # ISO moment (shown in the browser's offset)
    expiry: str = ""           # DD/MM/YYYY
    trade_date: str = ""       # DD/MM/YYYY (executed orders)
    settlement_date: str = ""
    status: str = ""           # processing | executed | processing_error
    status_label: str = ""     # Placed | Executed | Error
    reason: str = ""
    is_placed: bool = False
    price_input: str = ""
    fee_input: str = ""


def _events(*items: Any) -> list[Any]:
    """Handler results (None, one event or a list) as one list of events."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.extend(i for i in item if i is not None)
        elif item is not None:
            out.append(item)
    return out


def _day(value: date | datetime | None) -> str:
    if value is None:
        return ""
    return value.strftime("%d/%m/%Y")


def _plain(value: Decimal | None) -> str:
    if value is None:
        return ""
    text = format(Decimal(value), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _money(value: Decimal | None) -> str:
    return "" if value is None else format_aud(value)


def broker_row(r: trade_file_service.TradeFileRow) -> BrokerRow:
    limit = r.limit_price is not None
    return BrokerRow(
        key=f"tr-{r.recommendation_id}", portfolio=r.investment_name,
        holdings_url=routes.url("portfolios.holdings", id=r.investment_id), account=r.broker_account or r.hin,
        side=r.action, code=r.asset_code, quantity=units(r.quantity), order_type="Limit" if limit else "Market",
        limit_price=close_price(r.limit_price) if limit else "", expiry=_day(r.expiry), row_type=r.type,
        status=r.status)


def order_view(o: order_service.OrderRow) -> OrderView:
    placed = o.status_label == "Placed"
    executed = o.status_label == "Executed"
    return OrderView(
        id=o.id, portfolio=o.investment_name, holdings_url=routes.url("portfolios.holdings", id=o.investment_id),
        assets_url=routes.url("portfolios.asset-transactions", id=o.investment_id), account=o.account, side=o.side,
        code=o.asset_code, quantity=units(o.quantity), order_type=o.order_type.title(),
        limit_price=close_price(o.limit_price) if o.limit_price is not None else "",
        price=close_price(o.price) if o.price is not None else "", fee=_money(o.fee), amount=_money(o.amount),
        placed_at=o.placed_at.isoformat(), expiry=_day(o.expires_at),
        trade_date=_day(o.trade_at) if executed else "", settlement_date=_day(o.settlement_at) if executed else "",
        status=o.status, status_label=o.status_label, reason=o.reason or "", is_placed=placed,
        price_input=_plain(o.price), fee_input=_plain(o.fee))


class FirmChoice(rx.State, mixin=True):
    """The superuser's firm select ('All Firms', -2, first); everyone else reads their own firm."""

    show_firm: bool = False
    firm_filter: str = ALL_FIRMS
    firm_options: list[Option] = []

    def _load_firms(self, actor: Actor) -> None:
        self.firm_filter = ALL_FIRMS
        self.show_firm = actor.is_superuser
        self.firm_options = []
        if actor.is_superuser:
            try:
                self.firm_options = [Option(value=ALL_FIRMS, label="All Firms")] + [
                    Option(value=str(f["id"]), label=f["name"]) for f in firm_service.firm_options(actor=actor)]
            except DomainError:
                self.firm_options = [Option(value=ALL_FIRMS, label="All Firms")]

    def _firm_id(self) -> str:
        return self.firm_filter if self.show_firm else ALL_FIRMS

    def _pick_firm(self, value: str) -> bool:
        if not self.show_firm or value not in {o.value for o in self.firm_options}:
            return False
        self.firm_filter = value
        return True


# ---- reports.desktop-broker-trade-file ---------------------------------------------------------------
class DesktopBrokerState(FirmChoice, AppState):
    loading: bool = True
    error: str = ""
    rows: list[BrokerRow] = []
    total: int = 0
    placed_count: int = 0
    page: int = 1
    pages: int = 1
    visible: list[int] = [1]
    page_size: str = BROKER_PAGE_SIZE

    _all: list[dict[str, Any]] = []

    def _load(self, actor: Actor):
        try:
            _fid, found = trade_file_service.desktop_broker_orders(actor=actor, firm_id=self._firm_id())
        except DomainError as exc:
            self._all, self.rows, self.total, self.placed_count = [], [], 0, 0
            self.error = exc.message
            self.loading = False
            return self._fail(exc)
        self.error = ""
        self._all = [dataclasses.asdict(broker_row(r)) for r in found]
        self.total = len(found)
        self.placed_count = sum(1 for r in found if r.status == "Placed")
        self._show_page()
        self.loading = False
        return None

    def _show_page(self) -> None:
        size = int(self.page_size) if self.page_size in PAGE_SIZES else int(BROKER_PAGE_SIZE)
        self.pages = max(1, math.ceil(len(self._all) / size))
        self.page = min(max(self.page, 1), self.pages)
        self.visible = visible_pages(self.page, self.pages)
        start = (self.page - 1) * size
        self.rows = [BrokerRow(**r) for r in self._all[start:start + size]]

    def _refresh(self):
        try:
            actor = self._actor()
        except AuthenticationError as exc:
            return self._fail(exc)
        self.loading = True
        return self._load(actor)

    @rx.event
    def on_load(self):
        self.loading = True
        self.rows, self._all, self.total, self.placed_count, self.error = [], [], 0, 0, ""
        self.page, self.page_size = 1, BROKER_PAGE_SIZE
        try:
            actor = self._actor()
        except AuthenticationError:
            return None  # check_login sends the browser to sign in
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            return refused
        self._load_firms(actor)
        return self._load(actor)

    @rx.event
    def set_firm_filter(self, value: str):
        if not self._pick_firm(str(value or "")):
            return None
        self.page = 1
        return self._refresh()

    @rx.event
    def refresh(self):
        return self._refresh()

    @rx.event
    def set_page(self, page: Any):
        number = positive_int(page)
        if number is None:
            return
        self.page = number
        self._show_page()

    @rx.event
    def set_page_size(self, value: str):
        if value not in PAGE_SIZES:
            return
        self.page_size = value
        self.page = 1
        self._show_page()

    @rx.var
    def excel_path(self) -> str:
        """The Excel link without the token (the page adds it and the browser's offset)."""
        return f"{EXCEL_PATH}?{urlencode({'firmId': self.firm_filter if self.show_firm else ALL_FIRMS})}"

    @rx.var
    def showing(self) -> str:
        orders = "1 order" if self.total == 1 else f"{self.total} orders"
        return f"{orders}, {self.placed_count} placed"


# ---- reports.orders ---------------------------------------------------------------------------------------
class OrdersState(FirmChoice, AppState):
    loading: bool = True
    error: str = ""
    status_filter: str = "placed"
    rows: list[OrderView] = []
    total: int = 0
    page: int = 1
    page_size: str = DEFAULT_PAGE_SIZE

    # record execution
    ex_open: bool = False
    ex_id: int = 0
    ex_title: str = ""
    ex_quantity: str = ""
    ex_price: str = ""
    ex_fee: str = ""
    ex_trade_date: str = ""
    ex_settlement_date: str = ""
    ex_contract_note: str = ""
    ex_errors: dict[str, str] = {}
    ex_saving: bool = False

    # reject
    rj_open: bool = False
    rj_id: int = 0
    rj_question: str = ""
    rj_reason: str = ""
    rj_saving: bool = False

    # the execution file
    up_open: bool = False
    uploading: bool = False
    upload_error: str = ""
    upload_lines: list[Detail] = []

    # ---- loading ------------------------------------------------------------------------------------
    def _size(self) -> int:
        return int(self.page_size) if self.page_size in PAGE_SIZES else int(DEFAULT_PAGE_SIZE)

    def _load(self, actor: Actor):
        size = self._size()
        try:
            found, total = order_service.list_orders(actor=actor, firm_id=self._firm_id(), status=self.status_filter,
                                                     limit=size, offset=(self.page - 1) * size)
            if not found and total and self.page > 1:  # the page emptied (orders moved on): the last one
                self.page = max(1, math.ceil(total / size))
                found, total = order_service.list_orders(actor=actor, firm_id=self._firm_id(),
                                                         status=self.status_filter, limit=size,
                                                         offset=(self.page - 1) * size)
        except DomainError as exc:
            self.rows, self.total = [], 0
            self.error = exc.message
            self.loading = False
            return self._fail(exc)
        self.error = ""
        self.rows = [order_view(o) for o in found]
        self.total = total
        self.loading = False
        return None

    def _refresh(self, actor: Actor | None = None):
        try:
            actor = actor or self._actor()
        except AuthenticationError as exc:
            return self._fail(exc)
        self.loading = True
        return self._load(actor)

    @rx.event
    def on_load(self):
        self.loading = True
        self.rows, self.total, self.error = [], 0, ""
        self.page, self.page_size, self.status_filter = 1, DEFAULT_PAGE_SIZE, "placed"
        self.ex_open = self.rj_open = self.up_open = False
        self.uploading = self.ex_saving = self.rj_saving = False
        try:
            actor = self._actor()
        except AuthenticationError:
            return None  # check_login sends the browser to sign in
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            return refused
        self._load_firms(actor)
        return self._load(actor)

    # ---- toolbar and paging --------------------------------------------------------------------------
    @rx.event
    def set_firm_filter(self, value: str):
        if not self._pick_firm(str(value or "")):
            return None
        self.page = 1
        return self._refresh()

    @rx.event
    def set_status_filter(self, value: str | list[str]):
        if not isinstance(value, str) or value not in STATUS_VALUES:
            return None
        self.status_filter = value
        self.page = 1
        return self._refresh()

    @rx.event
    def set_page(self, page: Any):
        number = positive_int(page)
        if number is None:
            return None
        self.page = min(number, self.pages)
        return self._refresh()

    @rx.event
    def set_page_size(self, value: str):
        if value not in PAGE_SIZES:
            return None
        self.page_size = value
        self.page = 1
        return self._refresh()

    @rx.event
    def refresh(self):
        return self._refresh()

    @rx.var
    def pages(self) -> int:
        size = int(self.page_size) if self.page_size in PAGE_SIZES else int(DEFAULT_PAGE_SIZE)
        return max(1, -(-self.total // size))

    @rx.var
    def visible(self) -> list[int]:
        return visible_pages(self.page, self.pages)

    @rx.var
    def showing(self) -> str:
        return "1 order" if self.total == 1 else f"{self.total} orders"

    @rx.var
    def empty_text(self) -> str:
        return {
            "placed": "No order is with the broker: orders appear here once a broker file is exported from the "
                      "trade recommendations report.",
            "executed": "No executed order yet: record an execution or upload the broker's execution file.",
            "error": "No order was rejected.",
        }.get(self.status_filter, "No broker orders yet: export a broker file from the trade recommendations "
                                  "report to place them.")

    def _row(self, order_id: int) -> OrderView | None:
        return next((r for r in self.rows if r.id == order_id), None)

    # ---- record execution ------------------------------------------------------------------------------
    @rx.event
    def open_execute(self, order_id: Any):
        row = self._row(positive_int(order_id) or 0)
        if row is None or not row.is_placed:
            return None
        self.ex_id = row.id
        self.ex_title = f"{row.side} {row.quantity} {row.code} - {row.portfolio}"
        self.ex_quantity = row.quantity
        self.ex_price = row.price_input
        self.ex_fee = row.fee_input
        self.ex_trade_date = date.today().isoformat()
        self.ex_settlement_date = ""
        self.ex_contract_note = ""
        self.ex_errors = {}
        self.ex_saving = False
        self.ex_open = True
        return None

    @rx.event
    def close_execute(self):
        if self.ex_saving:
            return
        self.ex_open = False

    @rx.event
    def set_ex_open(self, value: bool):
        if not value and not self.ex_saving:
            self.ex_open = False

    def _clear_error(self, key: str) -> None:
        if key in self.ex_errors:
            self.ex_errors = {k: v for k, v in self.ex_errors.items() if k != key}

    @rx.event
    def set_ex_price(self, value: str):
        self.ex_price = str(value or "")[:30]
        self._clear_error("price")

    @rx.event
    def set_ex_fee(self, value: str):
        self.ex_fee = str(value or "")[:30]
        self._clear_error("fee")

    @rx.event
    def set_ex_trade_date(self, value: str):
        self.ex_trade_date = str(value or "")[:10]
        self._clear_error("trade_date")

    @rx.event
    def set_ex_settlement_date(self, value: str):
        self.ex_settlement_date = str(value or "")[:10]
        self._clear_error("settlement_date")

    @rx.event
    def set_ex_contract_note(self, value: str):
        self.ex_contract_note = str(value or "")[:80]

    @rx.event
    def save_execution(self):
        errors: dict[str, str] = {}
        if not self.ex_price.strip():
            errors["price"] = "Please, enter the price"
        if not self.ex_trade_date:
            errors["trade_date"] = "Please, enter the trade date"
        if errors:
            self.ex_errors = errors
            return None
        try:
            actor = self._actor()
            self.ex_saving = True
            order_service.execute(actor=actor, order_id=self.ex_id, price=self.ex_price.strip(),
                                  fee=self.ex_fee.strip() or None, trade_date=self.ex_trade_date,
                                  settlement_date=self.ex_settlement_date or None,
                                  contract_note=self.ex_contract_note.strip() or None)
        except ValidationError as exc:
            self.ex_saving = False
            self.ex_errors = {_FORM_FIELDS.get(k, "form"): exc.message for k in (exc.fields or {"form": ""})}
            return toast_error(exc.message)
        except DomainError as exc:
            self.ex_saving = False
            self.ex_open = False
            return _events(self._fail(exc), self._refresh())
        self.ex_saving = False
        self.ex_open = False
        return _events(toast_success(order_rules.EXECUTED), self._refresh(actor))

    @rx.var
    def ex_price_error(self) -> str:
        return self.ex_errors.get("price", "")

    @rx.var
    def ex_fee_error(self) -> str:
        return self.ex_errors.get("fee", "")

    @rx.var
    def ex_trade_date_error(self) -> str:
        return self.ex_errors.get("trade_date", "")

    @rx.var
    def ex_settlement_date_error(self) -> str:
        return self.ex_errors.get("settlement_date", "")

    @rx.var
    def ex_form_error(self) -> str:
        return self.ex_errors.get("quantity", "") or self.ex_errors.get("form", "")

    # ---- reject ----------------------------------------------------------------------------------------
    @rx.event
    def ask_reject(self, order_id: Any):
        row = self._row(positive_int(order_id) or 0)
        if row is None or not row.is_placed:
            return None
        self.rj_id = row.id
        self.rj_question = REJECT_QUESTION.format(side=row.side, quantity=row.quantity, code=row.code,
                                                  portfolio=row.portfolio)
        self.rj_reason = ""
        self.rj_saving = False
        self.rj_open = True
        return None

    @rx.event
    def set_rj_reason(self, value: str):
        self.rj_reason = str(value or "")[:300]

    @rx.event
    def cancel_reject(self):
        if not self.rj_saving:
            self.rj_open = False

    @rx.event
    def confirm_reject(self):
        try:
            actor = self._actor()
            self.rj_saving = True
            order_service.reject(actor=actor, order_id=self.rj_id, reason=self.rj_reason.strip() or None)
        except DomainError as exc:
            self.rj_saving = False
            self.rj_open = False
            return _events(self._fail(exc), self._refresh())
        self.rj_saving = False
        self.rj_open = False
        return _events(toast_success(order_rules.REJECTED), self._refresh(actor))

    # ---- the execution file ----------------------------------------------------------------------------
    @rx.event
    def open_upload(self):
        self.upload_error = ""
        self.upload_lines = []
        self.up_open = True
        return rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    def close_upload(self):
        if self.uploading:
            return None
        self.up_open = False
        self.upload_error = ""
        self.upload_lines = []
        return rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    def set_up_open(self, value: bool):
        if not value and not self.uploading:
            self.up_open = False

    @rx.event
    def no_file(self):
        self.upload_error = SELECT_FILE
        self.upload_lines = []

    @rx.event
    async def upload(self, files: list[rx.UploadFile]):
        try:
            actor = self._actor()
        except DomainError as exc:
            yield self._fail(exc)
            return
        if not files:
            self.upload_error = SELECT_FILE
            return
        chosen = files[0]
        data = await chosen.read(order_service.MAX_UPLOAD_BYTES + 1)
        content_type = chosen.content_type or ""
        firm_id = self._firm_id()
        self.uploading = True
        self.upload_error = ""
        self.upload_lines = []
        yield
        try:
            result = await asyncio.to_thread(order_service.upload_confirmations, actor=actor,
                                             content_type=content_type, data=data, firm_id=firm_id)
        except ValidationError as exc:
            self.uploading = False
            self.upload_error = exc.message
            self.upload_lines = [Detail(label=f"Line {k}", value=v) for k, v in
                                 sorted(exc.fields.items(), key=lambda kv: (len(kv[0]), kv[0])) if k.isdigit()]
            return
        except DomainError as exc:
            self.uploading = False
            self.up_open = False
            yield _events(self._fail(exc))
            return
        self.uploading = False
        self.up_open = False
        count = int(result.get("count") or 0)
        done = f"{count} order executed" if count == 1 else f"{count} orders executed"
        yield _events(rx.clear_selected_files(UPLOAD_ID),
                      toast_success(f"{result.get('notice') or order_rules.CONFIRMATIONS_UPLOADED}: {done}"),
                      self._refresh(actor))
