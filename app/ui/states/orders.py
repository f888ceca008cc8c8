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

import dataclasses
import functools
from datetime import date
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping
from urllib.parse import urlencode

import reflex as rx

from app.domain import orders as order_rules
from app.domain.errors import AuthenticationError, DomainError, ValidationError
from app.domain.permissions import Actor
from app.domain.uploads import SELECT_FILE
from app.domain.parsing import firm_choice
from app.services import orders as order_service
from app.services import trade_file as trade_file_service
from app.ui.display import count_of, whole_units
from app.ui.parse import positive_int
from app.ui.rows.orders import (
    BrokerRow, BrokerTotalView, ExecutionInputs, OrderView, ReconciliationLineView, RejectDialog, broker_row,
    broker_total, order_view, reconciliation_line,
)
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.toolkit.lists import FirmChoice, Paged
from app.ui.toolkit.screen import UploadDialog, events, guarded, screen_load
from app.ui.toolkit.typed_form import TypedFormDialog
from app.ui.toolkit.rows import Detail, refused_lines

EXCEL_PATH = "/api/reports/desktop-broker-export-excel"
PAGE_SIZES = ["20", "50", "100"]
UPLOAD_ID = "execution-file"
REJECT_QUESTION = "Reject the order {side} {quantity} {code} of {portfolio}? The trade goes back to the trade file."
ORDER_STATUSES = (("placed", "Placed"), ("partly_filled", "Partly filled"), ("executed", "Executed"),
                  ("expired", "Expired"), ("cancelled", "Cancelled"), ("error", "Error"), ("all", "All"))
STATUS_VALUES = {value for value, _ in ORDER_STATUSES}
# what the list says when no order has the status filtered by
EMPTY_TEXTS = {
    "placed": "No order is with the broker: orders appear here once a broker file is exported from the "
              "trade recommendations report.",
    "partly_filled": "No order is partly filled.",
    "executed": "No executed order yet: record an execution or upload the broker's execution file.",
    "expired": "No order expired: an order whose expiry passes unexecuted shows here.",
    "cancelled": "No order was cancelled.",
    "error": "No order was rejected.",
    "all": "No broker orders yet: export a broker file from the trade recommendations report to place them.",
}
_FORM_FIELDS = {"price": "price", "brokerage": "fee", "fee": "fee", "trade date": "trade_date",
                "trade_date": "trade_date", "settlement date": "settlement_date",
                "settlement_date": "settlement_date", "quantity": "quantity"}


class FirmLoad(FirmChoice, mixin=True):
    """What the order screens share: the page load, the firm select, the rows read again, the failure
    shown in the table, and Refresh. A screen reads its rows in `_fetch(actor)` and empties them in
    `_clear()`."""

    loading: bool = True
    error: str = ""

    if TYPE_CHECKING:  # what the screens' other bases (AppState) give this mixin
        def _actor(self) -> Actor: ...
        def _fail(self, exc: DomainError) -> Any: ...

    def _fetch(self, actor: Actor) -> None:  # pragma: no cover - each screen loads its rows
        raise NotImplementedError

    def _clear(self) -> None:  # pragma: no cover - each screen empties its own rows
        raise NotImplementedError

    def _load(self, actor: Actor | None = None):
        self.loading = True
        try:
            self._fetch(actor or self._actor())
        except AuthenticationError as exc:
            return self._fail(exc)
        except DomainError as exc:
            self._clear()
            self.error = exc.message
            return self._fail(exc)
        finally:
            self.loading = False
        self.error = ""
        return None

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        """The screen as new, the firms (for a superuser) and the rows."""
        self.reset()
        self._load_firms(actor)
        return self._load(actor)

    def _firm_chosen(self):
        """Another firm was chosen (FirmChoice): its rows."""
        return self._load()

    @rx.event
    def refresh(self):
        return self._load()


class FirmReport(FirmLoad, Paged, mixin=True):
    """The two order tables: FirmLoad, one page of rows at a time."""

    PAGE_SIZES: ClassVar[tuple[int, ...]] = (20, 50, 100)
    DEFAULT_SIZE: ClassVar[int] = 20

    page_size: str = "20"

    if TYPE_CHECKING:  # each screen's rows
        rows: list[Any]

    def _clear(self) -> None:
        self.rows, self.total = [], 0

    def _firm_chosen(self):
        self.page = 1
        return self._load()

    def _reload(self):
        """Paged: the page changed; read it."""
        return self._load()


# ---- reports.desktop-broker-trade-file ---------------------------------------------------------------
class DesktopBrokerState(FirmReport, AppState):
    """Paged here from the rows read once per load."""

    DEFAULT_SIZE: ClassVar[int] = 50

    rows: list[BrokerRow] = []
    placed_count: int = 0
    page_size: str = "50"

    _all: list[dict[str, Any]] = []

    def _clear(self) -> None:
        self._all, self.rows, self.total, self.placed_count = [], [], 0, 0

    def _fetch(self, actor: Actor) -> None:
        _fid, found = trade_file_service.desktop_broker_orders(
            actor=actor, firm_id=firm_choice(self._firm_id()))
        self._all = [dataclasses.asdict(broker_row(r)) for r in found]
        self.total = len(found)
        self.placed_count = sum(1 for r in found if r.status == "Placed")
        self._reload()

    def _reload(self) -> None:
        """The page of the rows read."""
        self._clamp_page()
        self.rows = [BrokerRow(**r) for r in self._all[self._offset():self._offset() + self._limit()]]

    @rx.var
    def excel_path(self) -> str:
        """The Excel link without the token (the page adds it and the browser's offset)."""
        return f"{EXCEL_PATH}?{urlencode({'firmId': self._firm_id()})}"

    @rx.var
    def showing(self) -> str:
        return f"{count_of(self.total, 'order')}, {self.placed_count} placed"


# ---- reports.orders ---------------------------------------------------------------------------------------
class OrdersState(TypedFormDialog, UploadDialog, FirmReport, AppState):
    """The execution form is the form dialog (price, fee, dates, contract note; the quantity is shown)."""
    ADDRESS_FILTERS: ClassVar[Mapping[str, Callable[[str], Any]]] = {
        "status_filter": lambda v: v if v in STATUS_VALUES else None}

    UPLOAD_ID: ClassVar[str] = UPLOAD_ID
    SELECT_FILE: ClassVar[str] = SELECT_FILE
    FORM_FIELDS: ClassVar[tuple[str, ...]] = tuple(f.name for f in dataclasses.fields(ExecutionInputs))
    FORM_TYPE: ClassVar[type] = ExecutionInputs

    form: ExecutionInputs = ExecutionInputs()  # type: ignore[assignment]  # typed, where FormDialog holds text
    status_filter: str = "placed"
    rows: list[OrderView] = []

    # record execution
    ex_id: int = 0
    ex_title: str = ""
    ex_quantity: str = ""

    reject: RejectDialog = RejectDialog()

    # the execution file's wrong lines
    upload_lines: list[Detail] = []

    # ---- loading ------------------------------------------------------------------------------------
    def _fetch(self, actor: Actor) -> None:
        self.rows = [order_view(o) for o in self._fetch_page(lambda: order_service.list_orders(
            actor=actor, firm_id=firm_choice(self._firm_id()), status=self.status_filter,
            limit=self._limit(),
            offset=self._offset()))]

    # ---- toolbar -------------------------------------------------------------------------------------
    @rx.event
    def set_status_filter(self, value: str | list[str]):
        if not isinstance(value, str) or value not in STATUS_VALUES:
            return None
        self.status_filter = value
        return self._reload_first_page()

    @rx.var
    def showing(self) -> str:
        return count_of(self.total, "order")

    @rx.var
    def empty_text(self) -> str:
        return EMPTY_TEXTS[self.status_filter]

    def _placed_row(self, order_id: Any) -> OrderView | None:
        row = next((r for r in self.rows if r.id == (positive_int(order_id) or 0)), None)
        return row if row is not None and row.is_placed else None

    # ---- record execution ------------------------------------------------------------------------------
    @rx.event
    def open_execute(self, order_id: Any):
        row = self._placed_row(order_id)
        if row is None:
            return None
        self.ex_id, self.ex_quantity = row.id, row.remaining
        self.ex_title = f"{row.side} {row.remaining} {row.code} - {row.portfolio}"
        self._open_form(ExecutionInputs(quantity=row.remaining.replace(",", ""), price=row.price_input,
                                        fee=row.fee_input, trade_date=date.today().isoformat()))

    @rx.event
    def save_execution(self):
        errors: dict[str, str] = {}
        if not self.form.price.strip():
            errors["price"] = "Please, enter the price"
        if not self.form.trade_date.strip():
            errors["trade_date"] = "Please, enter the trade date"
        if errors:
            self.form_errors = errors
            return None
        try:
            actor = self._actor()
            self.saving = True
            done = order_service.execute(actor=actor, order_id=self.ex_id, execution=self.form.execution())
        except ValidationError as exc:
            self.saving = False
            self.form_errors = {_FORM_FIELDS.get(k, "form"): exc.message for k in (exc.fields or {"form": ""})}
            return toast_error(exc.message)
        except DomainError as exc:
            self._close_form()
            return events(self._fail(exc), self._load())
        self._close_form()
        told = order_rules.EXECUTED if done.status == order_rules.FILLED else (
            f"{order_rules.PARTLY_EXECUTED}: {whole_units(done.remaining_quantity)} units still placed")
        return events(toast_success(told), self._load(actor))

    @rx.var
    def form_error(self) -> str:
        """What is wrong with the execution as a whole (the quantity, or no field named)."""
        return self.form_errors.get("quantity", "") or self.form_errors.get("form", "")

    # ---- reject ----------------------------------------------------------------------------------------
    @rx.event
    def ask_reject(self, order_id: Any):
        row = self._placed_row(order_id)
        if row is None:
            return None
        self.reject = RejectDialog(open=True, id=row.id, question=REJECT_QUESTION.format(
            side=row.side, quantity=row.quantity, code=row.code, portfolio=row.portfolio))

    @rx.event
    def set_rj_reason(self, value: str):
        self.reject.reason = str(value or "")[:300]

    @rx.event
    def cancel_reject(self):
        if not self.reject.saving:
            self.reject.open = False

    @rx.event
    def confirm_reject(self):
        reject = self.reject
        try:
            actor = self._actor()
            reject.saving = True
            order_service.reject(actor=actor, order_id=reject.id, reason=reject.reason.strip() or None)
        except DomainError as exc:
            return events(self._fail(exc), self._load())
        finally:
            reject.saving = reject.open = False
        return events(toast_success(order_rules.REJECTED), self._load(actor))

    # ---- the execution file ----------------------------------------------------------------------------
    @rx.event
    def no_file(self):
        self.upload_error, self.upload_lines = SELECT_FILE, []

    @rx.event
    @guarded
    async def upload(self, files: list[rx.UploadFile]):
        actor = self._actor()
        confirmations = functools.partial(order_service.upload_confirmations,
                                          firm_id=firm_choice(self._firm_id()))
        try:
            async for shown in self._send_upload(actor, files, confirmations):
                yield shown
        except DomainError:
            self._reset_upload()
            raise

    def _upload_refused(self, exc: ValidationError):
        self.upload_lines = refused_lines(exc.fields, only_lines=True)
        return self._upload_done(exc.message)

    def _uploaded(self, actor: Actor, result: order_service.UploadResult):
        done = count_of(result.count, "order") + " executed"
        return events(self._upload_done(), toast_success(f"{result.notice}: {done}"), self._load(actor))


# ---- reports.order-reconciliation ----------------------------------------------------------------------
RECONCILIATION_EXCEL_PATH = "/api/orders/reconciliation/export-excel"


class OrderReconciliationState(FirmLoad, AppState):
    """One day's orders by what happened to them, with totals by broker, and its Excel file."""

    day: str = ""               # YYYY-MM-DD (the date input's value)
    day_error: str = ""
    totals: list[BrokerTotalView] = []
    lines: list[ReconciliationLineView] = []

    def _fetch(self, actor: Actor) -> None:
        recon = order_service.reconciliation(actor=actor, day=order_service.read_day(self.day, "day"),
                                             firm_id=firm_choice(self._firm_id()))
        self.day = recon.day.isoformat()
        self.totals = [broker_total(t) for t in recon.totals]
        self.lines = [reconciliation_line(n, line) for n, line in enumerate(recon.lines)]

    def _clear(self) -> None:
        self.totals, self.lines = [], []

    @rx.event
    def set_day(self, value: str):
        text = str(value or "").strip()[:10]
        try:
            date.fromisoformat(text)
        except ValueError:
            self.day_error = "Please, enter a valid date format. "
            return None
        self.day, self.day_error = text, ""
        return self._load()

    @rx.var
    def excel_path(self) -> str:
        """The Excel link without the token (the page adds it)."""
        return f"{RECONCILIATION_EXCEL_PATH}?{urlencode({'day': self.day, 'firmId': self._firm_id()})}"

    @rx.var
    def empty_text(self) -> str:
        return "No order was placed, filled, expired, cancelled or rejected that day."
