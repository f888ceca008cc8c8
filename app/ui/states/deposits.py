"""Term deposits and at-call accounts of a portfolio: the deposits screen (route
clients.addTransaction, /portfolios/[id]/add-deposit) and the deposit modals any screen can use.

The modals (app.ui.components.deposit_modals.deposit_modals()):
- the deposit transaction form: Buy, Sell, Interest Accrual and Deposit, toggled by the type
  buttons under the enabling rules (spec 002 s4), plus Interest Payment for a term deposit; in
  edit mode when a deposit or transaction is being edited; the institution picker lists the
  institutions offering the chosen product type; once a deposit is chosen its provider identity
  fields are shown disabled and the date may not be before its start (spec s5);
- the read-only deposit modal (its details and transactions);
- the term deposit AMM modal (read-only, Reprocess where allowed; spec s7/s8).

Another screen puts `deposit_modals()` on its page and opens them with
`DepositState.open_for(portfolio_id, form, deposit_id)` (form: buy | sell | interest_accrual |
deposit | income), `DepositState.open_view(deposit_id)` or `DepositState.open_amm(deposit_id)`.
After a save the modal closes and `saved` counts up (the deposits list here reloads itself).

Every handler resolves the signed-in user from the token and calls app.services.deposits, which
checks the permission again; ids being edited stay in backend-only vars; the form's rules are the
domain's (app.domain.deposits), so the browser shows the same texts the server would give."""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any, Callable, ClassVar, Mapping

import reflex as rx

from app.domain import deposits as rules
from app.domain.errors import DomainError
from app.domain.permissions import NOT_ALLOWED
from app.domain.transactions import (
    AT_CALL_ACCOUNT, EFFECTS, KIND_LABELS, PRODUCT_TYPES, PROVIDER_TYPES, TERM_DEPOSITS, Kind, Status,
)
from app.services import deposits as service
from app.services import reference_data
from app.services.reference_data import InstitutionOption
from app.ui import routes
from app.ui.display import day, input_number, money
from app.ui.states.base import AppState, toast_sorry, toast_success
from app.ui.toolkit.rows import Option, offers
from app.ui.toolkit.screen import SorryFailures, events, guarded, screen_load
from app.ui.toolkit.typed_form import TypedFormDialog
from app.ui.parse import positive_int as _int
from app.ui.rows.deposits import (
    DepositInputs, DepositRow, DepositSheet, deposit_details, deposit_option, deposit_row, deposit_tx_row,
)

NONE = "none"  # a select's "nothing chosen" (Radix items cannot be "")
# The form's text inputs by the specification's names (the page's fields, their marks and the domain's
# errors go by these) -> the typed form's attribute. Auto matured is a switch with its own handler.
INPUT_NAMES = {
    "deposit_id": "deposit_id", "ProviderProductType": "product_type", "institution_id": "institution_id",
    "ProviderName": "provider_name", "ProviderType": "provider_type", "ProviderID": "provider_id",
    "FacilityID": "facility_id", "AccountNumber": "account_number", "DealID": "deal_id",
    "StartDate": "start_date", "MaturityDate": "maturity_date", "MaturityTerm": "maturity_term", "Rate": "rate",
    "CutOffTime": "cut_off_time", "amount": "amount", "description": "description", "DealStatus": "deal_status",
}
IDENTITY_INPUTS = frozenset(INPUT_NAMES[key] for key in rules.IDENTITY_KEYS)


class DepositState(SorryFailures, TypedFormDialog, AppState):
    FORM_FIELDS: ClassVar[tuple[str, ...]] = tuple(INPUT_NAMES)
    FORM_TYPE: ClassVar[type] = DepositInputs
    INPUT_NAMES: ClassVar[Mapping[str, str]] = INPUT_NAMES
    LEAVE_GUARD: ClassVar[bool] = True

    # ---- the portfolio and its deposits ----------------------------------------------------------
    portfolio_id: int = 0
    portfolio_name: str = ""
    can_edit: bool = False
    loading: bool = True
    rows: list[DepositRow] = []
    cash_text: str = ""
    enabled: dict[str, bool] = {f.value: False for f in rules.Form}
    saved: int = 0
    _deposits: dict[int, service.DepositView] = {}

    # ---- the form modal (the form dialog: form, form_errors, saving, form_open) ----------------------
    form: DepositInputs = DepositInputs()  # type: ignore[assignment]  # typed, where FormDialog holds text by name
    form_type: str = rules.Form.BUY.value
    form_mode: str = "new"  # new | edit
    institutions: list[Option] = []
    _institutions: dict[str, InstitutionOption] = {}  # the ones offered, by id as the select sends it
    deposit_options: list[Option] = []
    balance_hint: str = ""
    locked: bool = False
    date_min: str = ""
    _edit_deposit_id: int = 0
    _edit_tx_id: int = 0

    # ---- the read-only and AMM modals --------------------------------------------------------------
    view: DepositSheet = DepositSheet()
    _view_deposit_id: int = 0
    amm: DepositSheet = DepositSheet()
    reprocessing: bool = False
    _amm_deposit_id: int = 0

    # ---- loading -----------------------------------------------------------------------------------
    def _load(self, portfolio_id: int | None):
        """Loads the portfolio's deposits (None, or the error toast of a failure)."""
        try:
            found = service.overview(actor=self._actor(), portfolio_id=portfolio_id or 0)
        except DomainError as exc:
            self.rows = []
            return AppState._fail(self, exc)
        self.portfolio_id = found.portfolio.id
        self.portfolio_name = found.portfolio.name
        self.can_edit = found.can_edit
        self.enabled = dict(found.enabled)
        self.cash_text = money(found.cash_balance)
        self._deposits = {d.id: d for d in found.deposits}
        self.rows = [deposit_row(d) for d in found.deposits]
        return None

    @rx.event
    @screen_load()
    def on_load(self, actor: Any):
        self._close_sheets()
        self.loading = True
        failed = self._load(self._path_id())
        self.loading = False
        form = rules.as_form(self._query_text("form"))
        if failed is not None or form is None:
            return failed
        return self._open(form, _int(self._query_text("deposit_id")) or 0)  # e.g. ?form=sell&deposit_id=9 opens that form

    # ---- opening the form ---------------------------------------------------------------------------
    @rx.event
    def open_for(self, portfolio_id: Any, form: str = "buy", deposit_id: Any = 0):
        """For other screens: load the portfolio's deposits and open a form (a deposit chosen when given)."""
        return self._load(_int(portfolio_id)) or self._open(rules.as_form(form) or rules.Form.BUY, _int(deposit_id) or 0)

    @rx.event
    def open_form(self, form: str, deposit_id: Any = 0):
        """The screen's buttons and row menus (the portfolio already loaded)."""
        chosen = rules.as_form(form)
        if chosen is None or not self.portfolio_id:
            return None
        return self._load(self.portfolio_id) or self._open(chosen, _int(deposit_id) or 0)  # fresh balances and rules

    def _reset_form(self, mode: str, deposit_id: int = 0, tx_id: int = 0) -> None:
        self.form_mode = mode
        self._edit_deposit_id, self._edit_tx_id = deposit_id, tx_id
        self._open_form()
        self.view.open = self.amm.open = False

    def _open(self, form: rules.Form, deposit_id: int):
        if not self.can_edit:
            return toast_sorry(NOT_ALLOWED)
        self._reset_form("new")
        self._switch(form)
        if deposit_id and form is not rules.Form.BUY and offers(self.deposit_options, str(deposit_id)):
            self._choose(deposit_id)
        return None

    def _switch(self, form: rules.Form) -> None:
        """Toggle the form (only to an enabled one), keeping what the forms share (date, amount)."""
        if form is not rules.Form.BUY and not self.enabled[form.value]:
            form = rules.Form.BUY
        self.form_type = form.value
        self.form = DepositInputs(start_date=self.form.start_date, amount=self.form.amount)
        self.form_errors = {}
        self.locked = False
        self.date_min = ""
        if form is rules.Form.BUY:
            self.form.product_type = TERM_DEPOSITS
            self._load_institutions(TERM_DEPOSITS)
        self.balance_hint = ""
        options = self._deposit_choices(form)
        self.deposit_options = options
        if len(options) == 1:
            self._choose(int(options[0].value))

    @rx.event
    def set_form_type(self, form: str):
        chosen = rules.as_form(form)
        if chosen is None or self.form_mode != "new" or not self.form_open:
            return None
        if chosen is not rules.Form.BUY and not self.enabled[chosen.value]:
            return None
        self._switch(chosen)
        self.form_submitted = False
        return None

    # ---- the institution picker and the deposit choice --------------------------------------------------
    def _load_institutions(self, product_type: str) -> None:
        try:
            found = reference_data.list_institutions(actor=self._actor(), product_type=product_type)
        except DomainError:
            found = []
        self.institutions = [Option(value=str(i.id), label=i.title) for i in found]
        self._institutions = {str(i.id): i for i in found}

    def _deposit_choices(self, form: rules.Form) -> list[Option]:
        def fits(d: service.DepositView) -> bool:
            product, is_open = d.product_type, not d.closed
            if form in (rules.Form.INTEREST_ACCRUAL, rules.Form.DEPOSIT):
                return is_open and product == AT_CALL_ACCOUNT
            return is_open if form is rules.Form.SELL else form is rules.Form.INCOME and product == TERM_DEPOSITS
        return [deposit_option(did, d) for did, d in self._deposits.items() if fits(d)]

    def _choose(self, deposit_id: int) -> None:
        """A deposit chosen: its identity fields shown (disabled), dates not before its start."""
        d = self._deposits.get(deposit_id)
        if d is None:
            return
        self.form = dataclasses.replace(
            self.form, deposit_id=str(deposit_id), product_type=d.product_type,
            institution_id=str(d.institution_id or ""), provider_name=d.provider_name,
            provider_type=d.provider_type or "", provider_id=d.provider_id or "",
            facility_id=d.facility_id or "", account_number=d.account_number or "", deal_id=d.deal_id,
        )
        self.locked = True
        self.date_min = d.start_date.isoformat()
        self.balance_hint = ("" if self.form_type == rules.Form.BUY.value else
                             f"Balance {money(d.balance)}; not before {day(d.start_date)}")
        self._recheck_form()

    @rx.event
    def choose_deposit(self, value: str):
        if not self.form_open or self.form_mode != "new":
            return None
        did = _int(value)
        allowed = {int(o.value) for o in self._deposit_choices(rules.Form(self.form_type))}
        if did is None or did not in allowed:
            return None
        self._choose(did)
        self.form_dirty = True
        return None

    @rx.event
    def set_product_type(self, value: str):
        if not self.form_open or self.locked or value not in PRODUCT_TYPES:
            return None
        self._load_institutions(value)
        kept = self.form.institution_id in ("", *self._institutions)
        self._form_edited({"ProviderProductType": value,
                           **({} if kept else {"institution_id": "", "ProviderName": "", "ProviderType": ""})})
        return None

    @rx.event
    def choose_institution(self, value: str):
        if not self.form_open or self.locked:
            return None
        chosen = self._institutions.get(str(value))
        if chosen is None:
            return None
        self._form_edited({"institution_id": str(value), "ProviderName": chosen.title,
                           "ProviderType": chosen.provider_type})
        return None

    @rx.event
    def set_form_field(self, key: str, value: Any):
        if key not in INPUT_NAMES or not self.form_open:
            return None
        if self.locked and key in rules.IDENTITY_KEYS:
            return None  # provider identity fields are fixed once a deposit is chosen (spec s5)
        text = "" if value is None else str(value)[:500]
        self._form_edited({key: "" if key == "ProviderType" and text == NONE else text})
        return None

    @rx.event
    def set_auto_matured(self, value: bool):
        if not self.form_open:
            return None
        self.form.auto_matured = bool(value)
        self.form_dirty = True
        return None

    # ---- editing ---------------------------------------------------------------------------------------
    def _fresh(self, deposit_id: int) -> service.DepositDetail | None:
        """The deposit with its transactions, read again (and the actor's right to change it)."""
        try:
            d = service.get_deposit(actor=self._actor(), deposit_id=deposit_id)
        except DomainError:
            return None
        self.can_edit = d.can_edit
        self.portfolio_id = d.investment_id
        return d

    @rx.event
    def edit_deposit(self, deposit_id: Any):
        """The buy form editing a deposit (its identity fields disabled)."""
        did = _int(deposit_id)
        if did is None:
            return None
        d = self._fresh(did)
        if d is None:
            return toast_sorry(rules.DEPOSIT_NOT_FOUND)
        if not self.can_edit:
            return toast_sorry(NOT_ALLOWED)
        placement = next((t for t in d.transactions if t.form == rules.Form.BUY.value), None)
        self._deposits[did] = d
        self._open_edit(rules.Form.BUY, did, 0, dict(
            start_date=d.start_date.isoformat(), maturity_date=d.maturity_date.isoformat() if d.maturity_date else "",
            maturity_term=str(d.maturity_term or ""), rate=input_number(d.rate), auto_matured=d.auto_matured,
            deal_status=d.deal_status, amount=input_number(placement.amount) if placement else "",
            cut_off_time=placement.cut_off_time if placement else "",
            description=(placement.description or "") if placement else "",
        ))
        return None

    @rx.event
    def edit_transaction(self, deposit_id: Any, transaction_id: Any):
        """A deposit transaction's form in edit mode (the placement opens the deposit's buy form)."""
        did, tid = _int(deposit_id), _int(transaction_id)
        if did is None or tid is None:
            return None
        d = self._fresh(did)
        t = next((t for t in d.transactions if t.id == tid), None) if d is not None else None
        if d is None or t is None:
            return toast_sorry(rules.TRANSACTION_NOT_FOUND)
        if not self.can_edit:
            return toast_sorry(NOT_ALLOWED)
        if t.form == rules.Form.BUY.value:
            return DepositState.edit_deposit(did)
        if not t.can_edit:
            return toast_sorry(rules.NOT_EDITABLE.format(status=t.status_label.lower()))
        self._deposits[did] = d
        self._open_edit(rules.Form(t.form), did, tid, dict(start_date=t.date.isoformat() if t.date else "",
                                                            amount=input_number(t.amount),
                                                            description=t.description or ""))
        return None

    def _open_edit(self, form: rules.Form, deposit_id: int, tx_id: int, values: dict[str, Any]) -> None:
        """The form in edit mode: the deposit chosen, then `values` (DepositInputs' attributes) as stored."""
        self._reset_form("edit", deposit_id, tx_id)
        self.form_type = form.value
        self.deposit_options = [deposit_option(deposit_id, self._deposits[deposit_id])]
        self._choose(deposit_id)
        self.form = dataclasses.replace(self.form, **values)

    # ---- validation and saving ------------------------------------------------------------------------
    def _facts(self) -> rules.DepositFacts | None:
        d = self._deposits.get(_int(self.form.deposit_id) or 0)
        if d is None:
            return None
        balance = d.balance
        if self.form_mode == "edit" and self._edit_tx_id and isinstance(d, service.DepositDetail):
            # the balance without the transaction being edited
            t = next((t for t in d.transactions if t.id == self._edit_tx_id), None)
            if t is not None and t.status == Status.EXECUTED.value:
                balance -= EFFECTS[Kind(t.type)].deposit * (t.amount or Decimal(0))
        closed = d.closed and self.form_mode == "new" and self.form_type != rules.Form.INCOME.value
        return rules.DepositFacts(product_type=d.product_type, start_date=d.start_date, closed=closed, balance=balance)

    def _check_form(self) -> dict[str, str]:
        """The domain's check of what the service would be sent."""
        form = rules.Form(self.form_type)
        sent = self.form.sent(self.portfolio_id).fields()
        if form is not rules.Form.BUY:
            return rules.clean_move(form, sent, self._facts())[1]
        if self.form_mode == "edit":
            edited = self._deposits.get(self._edit_deposit_id)
            return rules.clean_buy({**sent, "institution_id": None},
                                   edit_product_type=edited.product_type if edited else None)[1]
        chosen = self._institutions.get(self.form.institution_id)
        institution = (chosen.title, chosen.provider_type, [self.form.product_type]) if chosen else None
        return rules.clean_buy(sent, institution=institution)[1]

    def _write(self) -> service.DepositWrite:
        actor = self._actor()
        data = self.form.sent(self.portfolio_id)
        form = rules.Form(self.form_type)
        if self.form_mode == "edit":
            if self._edit_tx_id:
                return service.update_transaction(actor=actor, deposit_id=self._edit_deposit_id,
                                                  transaction_id=self._edit_tx_id, form=data)
            return service.update_deposit(actor=actor, deposit_id=self._edit_deposit_id, form=data)
        if form is rules.Form.BUY:
            return service.buy(actor=actor, form=data)
        deposit_id = _int(self.form.deposit_id) or 0
        call = {rules.Form.SELL: service.sell, rules.Form.INTEREST_ACCRUAL: service.interest_accrual,
                rules.Form.DEPOSIT: service.at_call_deposit, rules.Form.INCOME: service.income}[form]
        return call(actor=actor, deposit_id=deposit_id, form=data)

    @rx.event
    @guarded
    def save_form(self):
        if not self.form_open:
            return None
        return self._save_form(lambda errors: toast_sorry(rules.failure_message(errors)), self._saved)

    def _saved(self) -> list[Any]:
        result = self._write()
        self._close_form()
        self.saved += 1
        return events(toast_success(result.message), self._load(self.portfolio_id))

    def _close_form(self) -> None:
        super()._close_form()
        self._edit_deposit_id = self._edit_tx_id = 0

    # ---- the read-only deposit modal -------------------------------------------------------------------
    def _read_for_modal(self, read: Callable[..., service.DepositDetail], deposit_id: Any) -> service.DepositDetail | None:
        """The deposit a read-only modal shows, read by `read` (None for no id); the other modals close."""
        did = _int(deposit_id)
        if did is None:
            return None
        d = read(actor=self._actor(), deposit_id=did)
        self._close_sheets()
        return d

    def _close_sheets(self) -> None:
        self.form_open = self.view.open = self.amm.open = False

    @rx.event
    @guarded
    def open_view(self, deposit_id: Any):
        d = self._read_for_modal(service.get_deposit, deposit_id)
        if d is not None:
            self.can_edit = d.can_edit
            self._view_deposit_id = d.id
            self.view = DepositSheet(open=True, title=d.name, details=deposit_details(d), rows=[deposit_tx_row(t) for t in d.transactions])

    @rx.event
    def set_view_open(self, value: bool):
        self.view.open = bool(value)

    @rx.event
    def edit_viewed(self, transaction_id: Any):
        """Edit a transaction of the deposit shown in the read-only modal (its form in edit mode)."""
        if not self._view_deposit_id:
            return None
        return DepositState.edit_transaction(self._view_deposit_id, transaction_id)

    # ---- the AMM modal and reprocess --------------------------------------------------------------------
    @rx.event
    @guarded
    def open_amm(self, deposit_id: Any):
        d = self._read_for_modal(service.amm_transactions, deposit_id)
        if d is not None:
            self._amm_deposit_id = d.id
            self.amm = DepositSheet(open=True, title=f"{d.name} ({d.code})", deal_status=d.deal_status,
                                    rows=[deposit_tx_row(t) for t in d.transactions])

    @rx.event
    def set_amm_open(self, value: bool):
        if not value:
            self._close_amm()

    def _close_amm(self) -> None:
        self.amm.open = False
        self._amm_deposit_id = 0

    @rx.event
    @guarded
    def reprocess(self, transaction_id: Any):
        if self.reprocessing or not self._amm_deposit_id:
            return None
        tid = _int(transaction_id)
        if tid is None:
            return None
        self.reprocessing = True
        try:
            actor = self._actor()
            d = service.amm_transactions(actor=actor, deposit_id=self._amm_deposit_id)
            result = service.reprocess(actor=actor, deposit_id=self._amm_deposit_id,
                                       form=rules.DepositForm(investment_id=d.investment_id, id=d.id, transaction_id=tid))
        finally:
            self.reprocessing = False
        # spec 002 s4: reprocess success closes the modal and confirms
        self._close_amm()
        self.saved += 1
        return events(rx.toast.success(result.title, description=result.message, position="top-right", duration=5000),
                      self._load(self.portfolio_id) if self.portfolio_id else None)

    # ---- what the screen shows --------------------------------------------------------------------------
    @rx.var
    def is_buy(self) -> bool:
        return self.form_type == rules.Form.BUY.value

    @rx.var
    def is_term(self) -> bool:
        return self.form.product_type == TERM_DEPOSITS

    @rx.var
    def is_edit(self) -> bool:
        return self.form_mode == "edit"

    @rx.var
    def form_heading(self) -> str:
        label = rules.FORM_LABELS[rules.Form(self.form_type)]
        return f"Edit {label.lower()}" if self.form_mode == "edit" else "Term deposit transaction"

    @rx.var
    def kind_label(self) -> str:
        """The asset transaction type the form writes (set by the product type or the chosen deposit)."""
        form = rules.Form(self.form_type)
        product = self.form.product_type
        if form in (rules.Form.BUY, rules.Form.SELL) and product not in PRODUCT_TYPES:
            return ""
        return KIND_LABELS[rules.form_kind(form, product or TERM_DEPOSITS)]

    @rx.var
    def transaction_type(self) -> str:
        form = rules.Form(self.form_type)
        return rules.transaction_type(rules.form_kind(form, self.form.product_type or TERM_DEPOSITS))

    @rx.var
    def type_forms(self) -> list[Option]:
        return [Option(value=f.value, label=rules.FORM_LABELS[f]) for f in rules.TYPE_FORMS]

    @rx.var
    def product_types(self) -> list[str]:
        return list(PRODUCT_TYPES)

    @rx.var
    def provider_types(self) -> list[str]:
        return list(PROVIDER_TYPES)

    @rx.var
    def deal_statuses(self) -> list[str]:
        current = self.form.deal_status
        if not current:
            return []
        return [current, *rules.deal_moves(current)]

    @rx.var
    def holdings_url(self) -> str:
        return routes.url("portfolios.holdings", id=self.portfolio_id) if self.portfolio_id else ""

    @rx.var
    def empty_text(self) -> str:
        return "This portfolio has no term deposits or at-call accounts yet: the ones it buys appear here."
