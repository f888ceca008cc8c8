"""The transaction screens of a portfolio (spec 002 s2/s4-s9):

- portfolios.cash-transactions: the cash list (12, 24 or 32 a page, newest first, sortable) with
  the balance, cash in and cash out of the executed transactions; the cash transaction modal
  (withdrawal, credit, income), the opening balance modal and the detail modal;
- portfolios.asset-transactions: the asset panel (one row per listed asset with its totals;
  sortable, paged, Load more appends the next page); a row expands to its transactions, filtered
  by the panel's status filters (pending, draft, executed, dividend, placed, error), loaded once
  per expansion; the header shows the totals over every asset and the cash balance;
- portfolios.add-transaction: the asset screen with the add-transaction form open (purchase by
  default; `?type=sell|dividend|interest|capital_return|reconstruction`, `?code=BHP`).

Both screens share (TransactionForms): the form dialog, which holds one form at a time: the asset
transaction modal's (large, static backdrop: the six add forms switching by type, editing, and a
read-only view) and, on the cash screen, the cash transaction's or the opening balance's; the
error-status re-creation confirmation, the delete confirmation and the transaction upload (CSV or
.xlsx).

Who sees what (spec 002 s6; the services check again on every call): cash editing for superuser,
adviser and administrator; the asset panel's actions for superuser and adviser; clients read.
Every handler resolves the signed-in user from the token; the ids being edited or deleted stay in
backend-only vars. The forms are checked as the user types (after the first save attempt) with the
domain's own rules (app.domain.transaction_rules), so the texts are the server's."""
from __future__ import annotations

import dataclasses
import functools
from datetime import datetime
from decimal import InvalidOperation
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping

import reflex as rx

from app.domain import transaction_rules as rules
from app.domain.errors import Conflict, DomainError, NotFound, ValidationError
from app.domain.ledger import NOT_ENOUGH_ASSETS
from app.domain.permissions import Actor, is_staff
from app.domain.roles import Role
from app.domain.transactions import ASSET_PANEL_LABELS, CASH_LIST_LABELS, KIND_LABELS, Kind, Status, cash_amount
from app.domain.uploads import SELECT_FILE
from app.services import assets as assets_service
from app.services import holdings as holdings_service
from app.services import transaction_upload
from app.services import transactions as service
from app.domain.holdings import Header
from app.services.tenancy import normalise_code
from app.services.transactions import AssetPosition, AssetTotals, CashTransactionPage
from app.ui import routes
from app.ui.components.asset_picker import AssetPickerState, take_pick
from app.ui.display import count_of, input_day, input_number, money, sign_of
from app.ui.states.base import AppState, toast_sorry
from app.ui.toolkit.lists import ListControls
from app.ui.states.portfolio_header import PortfolioHeader
from app.ui.toolkit.rows import Detail, Option, label_of, refused_lines
from app.ui.toolkit.screen import (
    Confirm, SorryFailures, UploadDialog, UploadFailure, guarded, screen_load,
)
from app.ui.toolkit.typed_form import TypedFormDialog
from app.ui.parse import decimal_or_none as _dec, positive_int as _int
from app.ui.rows.transactions import (
    CashRow, PanelRow, TransactionInputs, TxRow, asset_inputs, asset_summary, cash_detail, cash_inputs, cash_row, panel_row, tx_row,
)

PAGE_SIZES = [str(n) for n in rules.PAGE_SIZES]
SUCCESS = "Success!"
WARNING = "Warning!"
UPLOAD_ID = "transactions-upload"
UPLOAD_FAILED = "The file upload was unsuccessful"
PICK_TARGET = "transactions.asset"

ASSET_FORMS = list(rules.FORM_NAMES.values())  # purchase, sell, dividend, interest, capital_return, reconstruction
FORM_KINDS: dict[str, Kind] = {name: kind for kind, name in rules.FORM_NAMES.items()}
DEFAULT_FORM = "purchase"
# The fields each asset form shows (names as the services take them).
FORM_FIELDS: dict[str, tuple[str, ...]] = {
    "purchase": ("code", "trade_at", "quantity", "price", "fee", "gst", "settlement_at", "status", "contract_note",
                 "order_id", "limit_price", "description"),
    "sell": ("code", "trade_at", "quantity", "price", "fee", "gst", "settlement_at", "status", "contract_note",
             "order_id", "limit_price", "description"),
    "dividend": ("code", "trade_at", "amount", "franking_credits", "ex_date", "description"),
    "interest": ("code", "trade_at", "amount", "description"),
    "capital_return": ("code", "trade_at", "amount", "price", "description"),
    "reconstruction": ("code", "trade_at", "ratio", "description"),
}
ASSET_KEYS = tuple(dict.fromkeys(k for keys in FORM_FIELDS.values() for k in keys))
CASH_KEYS = ("type", "price", "trade_at", "settlement_at", "status", "description")
OPENING_KEYS = ("price", "trade_at")
CASH_FORMS = ("withdrawal", "credit", "income")
# the longest text a field keeps (40 unless named), and a field of the opening balance modal
FIELD_LIMITS = {"description": rules.DESCRIPTION_MAX + 20}
OPENING_LIMITS = {"price": 30, "trade_at": 20}
DATE_KEYS = ("trade_at", "settlement_at", "ex_date")
PANEL_FILTER_LABELS = {"pending": "Pending approval", "draft": "Draft", "executed": "Executed",
                       "dividend": "Dividend", "placed": "Placed", "error": "Error"}


def panel_filters_of(text: str) -> list[str] | None:
    """The panel's status filters as an address names them (comma-separated): the known ones, each
    once; None when it names none."""
    wanted = list(dict.fromkeys(part.strip() for part in text.split(",")))
    return [name for name in wanted if name in PANEL_FILTER_LABELS] or None


CASH_SORTS = ("date", "type", "amount", "status")
PANEL_SORTS = ("date", "code", "name", "quantity", "remaining_quantity", "price", "cost", "value",
               "realised_gain_loss", "unrealised_gain_loss")


# ---- feedback (spec 002 s8) -------------------------------------------------------------------
def success_toast(text: str):
    return rx.toast.success(SUCCESS, description=text, position="top-right", duration=4000)


def warning_toast(text: str):
    return rx.toast.warning(WARNING, description=text, position="top-right", duration=8000)


def sorry_toast(text: str):
    """Failures in the transaction areas: 'Sorry!' with the server's message."""
    return toast_sorry(text or rules.DELETE_FAILED)


def feedback(notice: str, message: str | None = None) -> list[Any]:
    """A write's notice as 'Success!' and, when it carries one, its message as 'Warning!'."""
    shown = [success_toast(notice)]
    if message:
        shown.append(warning_toast(message))
    return shown


# ---- display ------------------------------------------------------------------------------------
def _can_act(actor: Actor) -> bool:
    """The asset panel's actions: superuser and adviser (spec 002 s6)."""
    return actor.role in (Role.SUPERUSER, Role.ADVISER)


_STATUSES = (Status.EXECUTED, Status.PENDING, Status.PENDING_APPROVAL, Status.PROCESSING, Status.PROCESSING_ERROR)
FORM_OPTIONS = [Option(value=name, label=KIND_LABELS[kind]) for kind, name in rules.FORM_NAMES.items()]
ASSET_STATUS_OPTIONS = [Option(value=s.value, label=ASSET_PANEL_LABELS[s]) for s in _STATUSES]
CASH_STATUS_OPTIONS = [Option(value=s.value, label=CASH_LIST_LABELS[s]) for s in _STATUSES]
CASH_FORM_OPTIONS = [Option(value="withdrawal", label="Withdrawal"), Option(value="credit", label="Credit"),
                     Option(value="income", label="Income")]
FILTER_OPTIONS = [Option(value=name, label=PANEL_FILTER_LABELS[name]) for name in
                  ("pending", "draft", "executed", "dividend", "placed", "error")]


def _invalid(_errors: dict[str, str]):
    return sorry_toast(rules.INVALID)


def _beside_code(errors: dict[str, str]) -> dict[str, str]:
    """Field errors as the asset form shows them: the asset's beside its code."""
    out = dict(errors)
    if "asset_id" in out:
        out["code"] = out.pop("asset_id")
    return out


# ---- what both screens share --------------------------------------------------------------------
class TransactionForms(SorryFailures, TypedFormDialog, Confirm, UploadDialog, UploadFailure, ListControls,
                       mixin=True):
    """The form dialog (the asset transaction modal here; the cash screen adds its cash and opening
    balance modals), the re-creation and delete confirmations, the upload and the paging of both
    screens. The screen implements `_reload_screen(actor)` (reload what it shows after a write).
    Failures here are 'Sorry!' with the server's message (spec 002 s8)."""

    UPLOAD_ID: ClassVar[str] = UPLOAD_ID
    SELECT_FILE: ClassVar[str] = SELECT_FILE
    PAGE_SIZES: ClassVar[tuple[int, ...]] = rules.PAGE_SIZES
    DEFAULT_SIZE: ClassVar[int] = rules.DEFAULT_PAGE_SIZE
    FORM_TYPE: ClassVar[type] = TransactionInputs
    SORRY_DEFAULT: ClassVar[str] = rules.DELETE_FAILED

    loading: bool = True
    can_act: bool = False

    # the form dialog (form, form_errors, saving, form_open) holds one form at a time
    form: TransactionInputs = TransactionInputs()  # type: ignore[assignment]  # typed, where FormDialog holds text
    form_kind: str = "asset"              # asset | cash | opening (the last two on the cash screen)
    form_mode: str = "add"                # add | edit | view (view: the asset form only)
    _form_id: int = 0                     # the transaction being edited or viewed
    _form_original: TransactionInputs | None = None  # its inputs as opened
    # the asset transaction modal
    af_form: str = DEFAULT_FORM
    af_asset_name: str = ""
    af_status_label: str = ""
    af_summary: list[Detail] = []
    af_can_edit: bool = False
    af_question_open: bool = False
    af_question: str = ""
    _af_asset_id: int = 0
    _af_recreate: bool = False

    if TYPE_CHECKING:  # what the screens' other bases (PortfolioHeader, AppState) give this mixin
        rows: list[Any]
        _portfolio_firm_id: int

        def _actor(self) -> Actor: ...
        def _portfolio_param(self) -> int | None: ...
        def _list_url(self, actor: Actor) -> str: ...
        def _show_header(self, header: Header, actor: Actor) -> None: ...
        def _clear_header(self) -> None: ...

    def _reload_screen(self, actor: Actor) -> None:  # pragma: no cover - each screen reloads its own
        raise NotImplementedError

    def _after_write(self, actor: Actor, shown: list[Any]) -> list[Any]:
        try:
            self._reload_screen(actor)
        except DomainError as exc:
            shown.append(sorry_toast(exc.message))
        return shown

    def _open_screen(self, actor: Actor) -> Any:
        """on_load after the screen's own resets: no rows and no head while loading, then the
        portfolio's head and the screen's rows; a failure says so and goes back to the portfolios."""
        self.loading = True
        self.rows = []
        self._clear_header()
        self.page, self.page_size, self.sort, self.order = 1, str(self.DEFAULT_SIZE), "date", "desc"
        self.form_open = self.confirm_open = self.upload_open = self.failure_open = False
        self.portfolio_id = self._portfolio_param() or 0
        self.can_act = _can_act(actor)
        try:
            self._show_header(holdings_service.header(actor=actor, portfolio_id=self.portfolio_id), actor)
            self._reload_screen(actor)
        except DomainError as exc:
            self.loading = False
            return [sorry_toast(exc.message), rx.redirect(self._list_url(actor))]
        return None

    def _may_act(self, actor: Actor) -> bool:
        return _can_act(actor)

    # ---- the form dialog ----------------------------------------------------------------------------
    def _open_transaction_form(self, kind: str, mode: str, inputs: TransactionInputs, transaction_id: int = 0) -> None:
        self.form_kind, self.form_mode = kind, mode
        self._open_form(inputs)
        self._form_id = transaction_id
        self._form_original = dataclasses.replace(inputs) if transaction_id else None

    def _form_fields(self) -> tuple[str, ...]:
        return ASSET_KEYS if self.form_kind == "asset" else CASH_KEYS

    def _close_form(self) -> None:
        super()._close_form()
        self.af_question_open = False

    def _changed(self, values: dict[str, Any]) -> dict[str, Any]:
        """What an edit changes of the inputs the form opened with."""
        original = self._form_original or TransactionInputs()
        return {key: value for key, value in values.items() if value != getattr(original, key, "")}

    def _written(self, actor: Actor, notice: str, message: str | None = None) -> list[Any]:
        self._close_form()
        # The list reloads after the modal closes (the spec reloads the cash list for superusers and
        # advisers only; an administrator who may save there sees the saved row too).
        return self._after_write(actor, feedback(notice, message))

    @rx.event
    def set_form_field(self, key: str, value: str):
        """A field typed or chosen (the asset's code has its own handler; a view takes none)."""
        if key in self._form_fields() and key != "code" and self.form_mode != "view":
            limits = OPENING_LIMITS if self.form_kind == "opening" else FIELD_LIMITS
            self._form_edited({key: str(value or "")[:limits.get(key, 40)]})

    @rx.event
    @guarded
    def save_form(self):
        if self.form_mode == "view":
            return None
        return self._save_form(_invalid, self._write_form)

    def _write_form(self) -> Any:
        """The asset form; an errored (or cancelled) transaction's edit asks its own question first."""
        if self.form_mode == "edit" and self._af_recreate:
            r = service.get_asset_transaction(actor=self._actor(), transaction_id=self._form_id)
            if r.edit_question:
                self.af_question = r.edit_question
                self.af_question_open = True
                return None
            self._af_recreate = False  # no longer in error: an ordinary edit
        return self._write_asset(confirm=False)

    # ---- the asset transaction modal: opening -----------------------------------------------------
    def _open_asset_form(self, mode: str, form: str, inputs: TransactionInputs, transaction_id: int = 0) -> None:
        self.af_form = form
        self._open_transaction_form("asset", mode, inputs, transaction_id)
        self.af_asset_name = self.af_status_label = self.af_question = ""
        self.af_summary = []
        self.af_can_edit = self.af_question_open = self._af_recreate = False
        self._af_asset_id = 0

    def _open_add(self, actor: Actor, form: str = DEFAULT_FORM, code: str = ""):
        if not self._may_act(actor):
            return None
        kind = rules.asset_kind(form) if form else None
        form = rules.FORM_NAMES[kind] if kind is not None else DEFAULT_FORM
        code = normalise_code(code)[:20]
        self._open_asset_form("add", form, TransactionInputs(trade_at=datetime.now().date().isoformat(),
                                                             status=Status.EXECUTED.value, code=code))
        return self._lookup(actor) if code else None

    @rx.event
    @guarded
    def open_add(self, form: str = DEFAULT_FORM, code: str = ""):
        """The add-transaction form (purchase by default), optionally for an asset's code."""
        return self._open_add(self._actor(), str(form or DEFAULT_FORM), str(code or ""))

    @guarded
    def _open_existing(self, transaction_id: Any, edit: bool):
        actor = self._actor()
        r = service.get_asset_transaction(actor=actor, transaction_id=_int(transaction_id) or 0)
        if r.form not in ASSET_FORMS:
            return sorry_toast(rules.NOT_AN_ASSET_TRANSACTION)
        can_edit = r.can_edit and self._may_act(actor)
        self._open_asset_form("edit" if edit and can_edit else "view", r.form, asset_inputs(r), r.id)
        self._af_asset_id = r.asset_id or 0
        self.af_asset_name = r.name or ""
        self.af_status_label = r.status_label or ""
        self.af_summary = asset_summary(r)
        self.af_can_edit = can_edit
        self._af_recreate = bool(r.edit_question)
        return None

    @rx.event
    def open_asset_view(self, transaction_id: Any):
        return self._open_existing(transaction_id, edit=False)

    @rx.event
    def open_asset_edit(self, transaction_id: Any):
        return self._open_existing(transaction_id, edit=True)

    @rx.event
    def switch_to_edit(self):
        if self.form_kind == "asset" and self.form_mode == "view" and self.af_can_edit and self._form_id:
            self.form_mode = "edit"

    # ---- the asset transaction modal: the type and the asset --------------------------------------
    def _adding_asset(self) -> bool:
        return self.form_kind == "asset" and self.form_mode == "add"

    @rx.event
    def set_af_form(self, form: str):
        """The type switch of the add form (an existing transaction keeps its type)."""
        if self._adding_asset() and form in ASSET_FORMS:
            self.af_form = form
            self._recheck_form()

    @rx.event
    def set_af_code(self, value: str):
        """The asset code is uppercased; changing it forgets the chosen asset until it is looked up."""
        if not self._adding_asset():
            return
        code = str(value or "").upper()[:20]
        if code != self.form.code:
            self._take_asset(None)
        self.form.code = code

    def _take_asset(self, asset: dict[str, Any] | None) -> None:
        """The asset the code names (None: not known yet); the code's mark goes."""
        self._af_asset_id = int(asset["id"]) if asset else 0
        self.af_asset_name = (asset["name"] or "") if asset else ""
        if asset:
            self.form.code = asset["code"]
        self.form_errors = {k: v for k, v in self.form_errors.items() if k not in ("code", "asset_id")}

    @guarded
    def _lookup(self, actor: Actor):
        code = normalise_code(self.form.code)
        if not code:
            return None
        try:
            found = assets_service.get_asset_by_code(actor=actor, code=code, firm_id=self._portfolio_firm_id or None)
        except NotFound as exc:  # an unknown code marks the field and clears the asset (spec 002 s5)
            self._take_asset(None)
            self.form_errors = {**self.form_errors, "code": exc.message}
            return None
        self._take_asset({"id": found.id, "name": found.name, "code": found.code})
        return None

    @rx.event
    @guarded
    def lookup_code(self, _value: Any = None):
        return self._lookup(self._actor()) if self._adding_asset() else None

    @rx.event
    def browse_assets(self):
        if not self._adding_asset():
            return None
        return AssetPickerState.open_for(PICK_TARGET, self._portfolio_firm_id or None, None, "Select asset")

    @rx.event
    async def asset_picked(self, target: str):
        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, target)
        if asset is None or not self._adding_asset():
            return
        self._take_asset(asset)
        self._recheck_form()

    # ---- the asset transaction modal: checking and saving -----------------------------------------
    def _form_values(self) -> dict[str, Any]:
        """The shown form's fields (the asset as its id once known, else the code)."""
        data: dict[str, Any] = self.form.of(k for k in FORM_FIELDS[self.af_form] if k != "code")
        if self._af_asset_id:
            data["asset_id"] = self._af_asset_id
        else:
            data["code"] = self.form.code
        return data

    def _check_form(self) -> dict[str, str]:
        errors = _beside_code(rules.clean_asset_form(FORM_KINDS[self.af_form], self._form_values())[1])
        if self.form_errors.get("code") and not self._af_asset_id and self.form.code:
            errors.setdefault("code", self.form_errors["code"])  # an unknown code stays marked until changed
        return errors

    @rx.event
    @guarded
    def confirm_recreate(self):
        self.af_question_open = False
        return self._save_form(_invalid, lambda: self._write_asset(confirm=True))

    @rx.event
    def cancel_recreate(self):
        self.af_question_open = False

    def _write_asset(self, confirm: bool) -> Any:
        actor = self._actor()
        if not self._may_act(actor):
            return None
        try:
            if self.form_mode == "add":
                data = {**self._form_values(), "investment_id": self.portfolio_id, "type": self.af_form}
                result = service.add_asset_transaction(actor=actor, form=rules.read_transaction_form(data))
            else:
                changed = self._changed({k: v for k, v in self._form_values().items() if k not in ("asset_id", "code")})
                if not changed and not confirm:  # an unchanged form closes without a call
                    self._close_form()
                    return success_toast(rules.TRANSACTION_UPDATED)
                result = service.update_asset_transaction(actor=actor, transaction_id=self._form_id,
                                                          form=rules.read_transaction_form(changed), confirm=confirm)
        except Conflict as exc:  # it went into error meanwhile: ask, then save as a new transaction
            self._af_recreate = True
            self.af_question = exc.message
            self.af_question_open = True
            return None
        except ValidationError as exc:  # marked beside the asset's code; a short sell beside the quantity
            fields = _beside_code(exc.fields)
            if exc.message == NOT_ENOUGH_ASSETS:
                fields["quantity"] = exc.message
            raise ValidationError(exc.message, fields) from exc
        return self._written(actor, result.notice, result.message)

    # ---- delete -----------------------------------------------------------------------------------
    @rx.event
    def ask_delete_asset(self, transaction_id: Any):
        self._ask("asset", rules.DELETE_QUESTION, _int(transaction_id) or 0)

    @rx.event
    def ask_delete_cash(self, transaction_id: Any):
        self._ask("cash", rules.DELETE_QUESTION, _int(transaction_id) or 0)

    def _confirmed(self, action: str, transaction_id: int):
        if not transaction_id:
            return None
        actor = self._actor()
        delete = service.delete_asset_transaction if action == "asset" else service.delete_cash_transaction
        result = delete(actor=actor, transaction_id=transaction_id)
        self.form_open = False
        return self._after_write(actor, feedback(result.notice, result.message))

    # ---- upload -----------------------------------------------------------------------------------
    @rx.event
    @guarded
    async def upload(self, files: list[rx.UploadFile]):
        ledger = functools.partial(transaction_upload.upload_transactions, investment_id=self.portfolio_id)
        async for shown in self._send_upload(self._actor(), files, ledger):
            yield shown

    def _upload_refused(self, exc: ValidationError):
        if set(exc.fields) == {"file"}:  # the file itself: say so in the modal
            return self._upload_done(exc.message)
        self._show_failure(exc.message, refused_lines(exc.fields))
        return self._upload_done()

    def _uploaded(self, actor: Actor, result: transaction_upload.UploadedTransactions):
        return self._after_write(actor, [self._upload_done(), *feedback(result.notice)])

    # ---- what the modal shows -------------------------------------------------------------------------
    @rx.var
    def af_title(self) -> str:
        if self.form_mode == "add":
            return "Add transaction"
        label = label_of(FORM_OPTIONS, self.af_form, "Transaction")
        return f"{'Edit' if self.form_mode == 'edit' else 'View'} {label.lower()}"

    @rx.var
    def af_read_only(self) -> bool:
        return self.form_mode == "view"

    @rx.var
    def af_value_hint(self) -> str:
        """Purchases and sells: quantity x price, and the cash it moves with brokerage and GST."""
        if self.af_form not in ("purchase", "sell"):
            return ""
        quantity, price = _dec(self.form.quantity), _dec(self.form.price)
        if quantity is None or price is None or quantity <= 0 or price <= 0:
            return ""
        kind = FORM_KINDS[self.af_form].value
        try:
            cash = cash_amount(kind, quantity=quantity, price=price, fee=_dec(self.form.fee), gst=_dec(self.form.gst))
        except (InvalidOperation, ValueError):
            return ""
        word = "Cash out" if self.af_form == "purchase" else "Cash in"
        return f"Value {money(quantity * price)} · {word} {money(cash)}"


# ---- portfolios.cash-transactions -------------------------------------------------------------------
class CashTransactionsState(TransactionForms, PortfolioHeader, AppState):
    SORT_KEYS: ClassVar[tuple[str, ...]] = CASH_SORTS
    DESCENDING_FIRST: ClassVar[tuple[str, ...]] = ("date", "amount")

    can_edit: bool = False
    rows: list[CashRow] = []
    balance: str = ""
    balance_negative: bool = False
    cash_in: str = ""
    cash_out: str = ""

    # the detail modal
    detail_open: bool = False
    detail_title: str = ""
    detail_rows: list[Detail] = []
    detail_linked_id: int = 0

    def _reload_screen(self, actor: Actor) -> None:
        def fetch() -> CashTransactionPage:
            return service.list_cash_transactions(actor=actor, investment_id=self.portfolio_id, page=self.page,
                                                  limit=self._limit(), order=self.sort, reverse=self.order == "desc")
        result = fetch()
        while not result.rows and self.page > 1:  # an empty page after the first steps back
            self.page -= 1
            result = fetch()
        self.rows = [cash_row(r) for r in result.rows]
        self.total = result.count
        self.balance, self.balance_negative = money(result.balance), result.balance < 0
        self.cash_in, self.cash_out = money(result.cash_in), money(result.cash_out)
        self.loading = False

    @guarded
    def _reload(self):
        self._reload_screen(self._actor())

    @rx.event
    @screen_load()
    def on_load(self, actor: Actor):
        self.detail_open = False
        self.form = TransactionInputs()
        self.can_edit = is_staff(actor)
        return self._open_screen(actor)

    # ---- the cash transaction and opening balance modals (the form dialog) ---------------------------
    # The opening balance's form is its price and trade_at.
    @rx.event
    def open_cash(self, form: str = "credit"):
        if self.can_edit:
            self._open_transaction_form("cash", "add", TransactionInputs(
                type=form if form in CASH_FORMS else "credit", trade_at=datetime.now().date().isoformat(),
                status=Status.EXECUTED.value))

    @rx.event
    @guarded
    def open_cash_edit(self, transaction_id: Any):
        r = service.get_cash_transaction(actor=self._actor(), transaction_id=_int(transaction_id) or 0)
        if not r.can_edit or r.form not in CASH_FORMS:
            return sorry_toast(rules.EDIT_IN_ASSET_TRANSACTIONS if r.linked_transaction else rules.INVALID)
        self._open_transaction_form("cash", "edit", cash_inputs(r), r.id)
        return None

    @rx.event
    @guarded
    def open_opening(self):
        if not self.can_edit:
            return None
        found = service.get_opening_balance(actor=self._actor(), investment_id=self.portfolio_id)
        inputs = TransactionInputs(price=input_number(found.price), trade_at=input_day(found.trade_at)) if found else \
            TransactionInputs()
        self._open_transaction_form("opening", "edit" if found else "add", inputs, found.id if found else 0)
        return None

    def _check_form(self) -> dict[str, str]:
        if self.form_kind == "opening":
            return rules.clean_opening_balance(self.form.of(OPENING_KEYS))[1]
        if self.form_kind == "cash":
            return rules.clean_cash_form(self.form.of(CASH_KEYS))[1]
        return super()._check_form()

    def _write_form(self) -> Any:
        if self.form_kind == "opening":
            return self._write_opening()
        if self.form_kind == "cash":
            return self._write_cash()
        return super()._write_form()

    def _write_cash(self) -> Any:
        actor = self._actor()
        if self.form_mode == "add":
            form = rules.read_transaction_form({**self.form.of(CASH_KEYS), "investment_id": self.portfolio_id})
            result = service.create_cash_transaction(actor=actor, form=form)
        else:
            changed = self._changed(self.form.of(CASH_KEYS))
            if not changed:
                self._close_form()
                return success_toast(rules.TRANSACTION_UPDATED)
            result = service.update_cash_transaction(actor=actor, transaction_id=self._form_id,
                                                     form=rules.read_transaction_form(changed))
        return self._written(actor, result.notice)

    def _write_opening(self) -> Any:
        price, trade_at, original = self.form.price.strip(), self.form.trade_at, self._form_original
        if original and _dec(original.price) == _dec(price) and original.trade_at == trade_at:
            self._close_form()  # an unchanged form closes with the success message, no call (spec 002 s5)
            return success_toast(rules.OPENING_BALANCE_CHANGED)
        actor = self._actor()
        written = service.set_opening_balance(actor=actor, investment_id=self.portfolio_id,
                                              form=rules.read_opening_balance({"price": price, "trade_at": trade_at}))
        return self._written(actor, written.notice)

    # ---- the detail modal ---------------------------------------------------------------------------
    @rx.event
    @guarded
    def open_detail(self, transaction_id: Any):
        r = service.get_cash_transaction(actor=self._actor(), transaction_id=_int(transaction_id) or 0)
        linked = r.linked_transaction
        self.detail_rows = cash_detail(r)
        self.detail_title = r.cash_class or "Transaction"
        self.detail_linked_id = linked.id if linked is not None and linked.asset is not None else 0
        self.detail_open = True

    @rx.event
    def set_detail_open(self, value: bool):
        if not value:
            self.detail_open = False

    @rx.event
    def view_linked(self):
        """The detail's linked asset transaction, in the asset transaction modal (read-only)."""
        linked = self.detail_linked_id
        self.detail_open = False
        if linked:
            return CashTransactionsState.open_asset_view(linked)
        return None

    @rx.var
    def count_text(self) -> str:
        return count_of(self.total, "transaction")

    @rx.var
    def cm_title(self) -> str:
        return "Add cash transaction" if self.form_mode == "add" else "Edit cash transaction"


# ---- portfolios.asset-transactions and portfolios.add-transaction ------------------------------------
class AssetTransactionsState(TransactionForms, PortfolioHeader, AppState):
    SORT_KEYS: ClassVar[tuple[str, ...]] = PANEL_SORTS
    DESCENDING_FIRST: ClassVar[tuple[str, ...]] = tuple(k for k in PANEL_SORTS if k not in ("code", "name"))

    # the ticked status filters in the address (?filters=pending,placed), so Back and a reload keep them
    ADDRESS_FILTERS: ClassVar[Mapping[str, Callable[[str], Any]]] = {"filters": panel_filters_of}

    rows: list[PanelRow] = []
    filters: list[str] = []
    # the header's totals over every asset
    total_value: str = ""
    total_cost: str = ""
    total_unrealised: str = ""
    total_unrealised_sign: str = ""
    total_realised: str = ""
    total_realised_sign: str = ""
    cash_balance: str = ""
    cash_negative: bool = False
    unpriced: int = 0
    _first_page: int = 1

    def _fetch(self, actor: Actor, page: int) -> tuple[list[AssetPosition], int]:
        """A page of the panel and the number of assets on every page."""
        found = service.list_asset_positions(actor=actor, investment_id=self.portfolio_id, page=page,
                                             limit=self._limit(), order=self.sort, reverse=self.order == "desc")
        return list(found.rows), found.total

    def _totals(self, actor: Actor) -> None:
        t: AssetTotals = service.asset_totals(actor=actor, investment_id=self.portfolio_id)
        self.total_value, self.total_cost = money(t.value), money(t.cost)
        self.total_unrealised, self.total_unrealised_sign = money(t.unrealised_gain_loss), sign_of(t.unrealised_gain_loss)
        self.total_realised, self.total_realised_sign = money(t.realised_gain_loss), sign_of(t.realised_gain_loss)
        self.cash_balance, self.cash_negative = money(t.cash_balance), t.cash_balance < 0
        self.unpriced = t.unpriced
        self.total = t.assets

    def _load_pages(self, actor: Actor, first: int, last: int) -> None:
        """Pages first..last (Load more keeps several), the expanded assets' transactions again; an
        empty page after the first steps back."""
        expanded = {r.asset_id for r in self.rows if r.expanded}
        found: list[AssetPosition] = []
        total = 0
        for number in range(first, last + 1):
            page_rows, total = self._fetch(actor, number)
            if not page_rows:
                last = number - 1
                break
            found += page_rows
        while not found and first > 1:
            first -= 1
            last = first
            found, total = self._fetch(actor, first)
        self._first_page, self.page = first, max(first, last)
        self.rows = [panel_row(r) for r in found]
        if found:
            self.total = total
        for index, row in enumerate(self.rows):
            if row.asset_id in expanded:
                self._expand(actor, index)
        self.loading = False

    def _reload_screen(self, actor: Actor) -> None:
        self._totals(actor)
        self._load_pages(actor, self._first_page, self.page)

    @guarded
    def _reload(self):
        """The page chosen (a page button, the page size, the sort) on its own."""
        self._load_pages(self._actor(), self.page, self.page)

    def _transactions(self, actor: Actor, asset_id: int) -> list[TxRow]:
        found = service.list_transactions_of_asset(actor=actor, investment_id=self.portfolio_id, asset_id=asset_id,
                                                   statuses=list(self.filters))
        can_act = _can_act(actor)
        return [tx_row(r, can_act) for r in found.rows]

    def _expand(self, actor: Actor, index: int) -> None:
        row = self.rows[index]
        self.rows[index] = dataclasses.replace(row, transactions=self._transactions(actor, row.asset_id),
                                               loaded=True, expanded=True)

    @rx.event
    @screen_load()
    def on_load(self, actor: Actor):
        self._first_page = 1
        self.filters = []
        failed = self._open_screen(actor)
        if failed is None and routes.match(self.router.url.path)[0] == "portfolios.add-transaction":
            return self._open_add(actor, self._query_text("type") or DEFAULT_FORM, self._query_text("code"))
        return failed

    @rx.event
    @guarded
    def load_more(self):
        """The next page appended to the rows shown (spec 002 s4)."""
        if self.page >= self._page_count():
            return
        more, total = self._fetch(self._actor(), self.page + 1)
        if not more:
            return
        self.page += 1
        self.rows = [*self.rows, *[panel_row(r) for r in more]]
        self.total = total

    @rx.event
    @guarded
    def toggle_asset(self, asset_id: Any):
        """Expanding loads the asset's transactions once; collapsing and expanding again only toggles."""
        wanted = _int(asset_id)
        index = next((i for i, r in enumerate(self.rows) if r.asset_id == wanted), None)
        if index is None:
            return None
        row = self.rows[index]
        if row.expanded or row.loaded:
            self.rows[index] = dataclasses.replace(row, expanded=not row.expanded)
            return None
        self._expand(self._actor(), index)
        return None

    @rx.event
    def toggle_filter(self, name: str):
        """The status filters of the expanded transactions: the expanded assets load again, the
        collapsed ones load when next expanded."""
        if name not in PANEL_FILTER_LABELS:
            return None
        self.filters = [f for f in self.filters if f != name] if name in self.filters else [*self.filters, name]
        return self._refilter()

    @rx.event
    def clear_filters(self):
        self.filters = []
        return self._refilter()

    @guarded
    def _refilter(self):
        actor = self._actor()
        for index, row in enumerate(self.rows):
            if row.expanded:
                self._expand(actor, index)
            else:
                self.rows[index] = dataclasses.replace(row, loaded=False, transactions=[])
        return self._keep_address()

    @rx.event
    @guarded
    def add_for_asset(self, code: str):
        return self._open_add(self._actor(), DEFAULT_FORM, str(code or ""))

    @rx.var
    def has_more(self) -> bool:
        return self.page < self.pages

    @rx.var
    def shown_text(self) -> str:
        return f"{len(self.rows)} of {count_of(self.total, 'asset')}"

