"""portfolios.trade-instructions (and portfolios.trade-instructions-version): a portfolio's trade
recommendations (spec 001 s2-s8, 002 s2/s4/s5/s9) - the status with who acted, the summary, the
transactions with their figures and the recommendation they came from, the "please note" items,
inline editing of units and price, adding and deleting transactions, Calculate, Validate, Decline
all, per-item Approve / Decline with Approve all and Confirm (with a leave-page guard while
decisions are unconfirmed), the action history dialog (10 per page); and
portfolios.trade-instructions-versions: the versions, newest first, 12 / 20 / 32 a page.

Every handler resolves the acting user from the token again and calls
app.services.trade_instructions, which checks the permission and the firm; the `permissions` of
the view only decide what is shown. Ids of what is loaded stay in backend-only vars, and row keys
sent by the browser are only looked up among the rows this state holds."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

import reflex as rx

from app.domain import advice, transaction_rules, validators
from app.domain.advice import TIStatus, TradeInstructionSummary, TradeInstructionView
from app.domain.errors import GENERIC, DomainError, ValidationError
from app.domain.permissions import Actor, is_staff
from app.domain.notices import SEND_AGAIN_NOBODY
from app.services import notices, trade_instructions as ti_service
from app.ui import routes
from app.ui.components.capital_gains import CapitalGainsView, capital_gains_view
from app.ui.display import count_of, iso_moment, money
from app.ui.states.advice_versions import AdviceScreen, AdviceVersions, load_failed
from app.ui.toolkit.lists import visible_pages
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.toolkit.screen import Confirm, ExportLinks, events, guarded
from app.ui.toolkit.typed_form import TypedFormDialog
from app.ui.parse import positive_int as _int
from app.ui.rows.trade_instructions import (
    AddedTrade, HistoryRow, NoteRow, TISummary, TxRow, VersionRow, declined, name_of, note_row,
    totals_without_declined, tx_row, version_row,
)

TITLE = "Trade Recommendations"
EMPTY = "There are no trade recommendations for this portfolio yet."
DECISIONS = ("approved", "declined")
ACTIONS = [("buy", "BUY"), ("sell", "SELL")]
QUESTIONS = {
    "calculate": advice.CONFIRM_RECALCULATE_TR,
    "validate": advice.CONFIRM_VALIDATE,
    "decline_all": advice.CONFIRM_DECLINE_ALL,
    "confirm": advice.CONFIRM_DECISIONS,
    "confirm_leave": advice.CONFIRM_DECISIONS,  # Save of the leave dialog: confirm, then leave
    "delete": transaction_rules.DELETE_QUESTION,
}


# ---- the screen ----------------------------------------------------------------------------------
class TradeInstructionsState(Confirm, TypedFormDialog, ExportLinks, AdviceScreen, AppState):
    SCREEN = "portfolios.trade-instructions"
    FORM_FIELDS = tuple(f.name for f in dataclasses.fields(AddedTrade))  # the add dialog's
    FORM_TYPE = AddedTrade

    loading: bool = True
    exists: bool = False
    version: int = 0
    is_version_view: bool = False     # opened as portfolios.trade-instructions-version
    status: str = ""
    status_label: str = ""
    actor_label: str = ""
    acted_by: str = ""
    acted_at: str = ""
    auto_approve_at: str = ""
    error_message: str = ""
    summary: TISummary = TISummary()
    transactions: list[TxRow] = []
    notes: list[NoteRow] = []

    can_edit: bool = False
    can_validate: bool = False
    can_approve: bool = False
    can_calculate: bool = False      # 'Calculate Trade Recommendations' allowed (001 s6)
    calculate_offered: bool = False  # offered: the role rule holds (disabled with the reason when not allowed)
    calculate_reason: str = ""       # why it is disabled
    read_only: bool = False
    email_offered: bool = False      # Email: the trade recommendations sent again (staff, once validated)

    # inline edit of one transaction
    editing_key: str = ""
    edit_units: str = ""
    edit_price: str = ""
    edit_errors: dict[str, str] = {}

    # the add-transaction dialog (the form dialog): its message when the refusal names no field
    form: AddedTrade = AddedTrade()  # type: ignore[assignment]  # typed, where FormDialog holds text
    add_error: str = ""

    # what the confirm dialog asks (Confirm): its action names the dialog's button; busy while it runs
    confirm_action: str = ""
    busy: bool = False

    # history dialog
    history_open: bool = False
    history_rows: list[HistoryRow] = []
    history_total: int = 0
    history_page: int = 1
    history_pages: int = 1
    history_visible: list[int] = [1]
    history_loading: bool = False

    _ti_id: int = 0
    capital_gains: CapitalGainsView = CapitalGainsView()
    _row_version: int = 0
    _approve_all: bool = False
    _answer: dict[str, Any] = {}  # what the dialog confirmed ({action, id}), run by `answer`

    # ---- loading ----------------------------------------------------------------------------------
    def _show(self, view: TradeInstructionView | None, actor: Actor) -> None:
        self.editing_key = ""
        self.edit_errors = {}
        self._approve_all = False
        self._set_dirty(False)
        self.exists = view is not None
        self._show_instruction(view.instruction if view else None)
        # nothing generated yet: only Calculate, by the rule of 001 s6 (the target portfolio's, plus the
        # model's recommendations and a target portfolio), with the reason when it is not allowed
        flags = view.permissions if view else ti_service.calculation_permissions(actor=actor,
                                                                                  investment_id=self.portfolio_id)
        self.read_only, self.can_edit, self.can_validate = flags.read_only, flags.edit, flags.validate
        self.can_approve = flags.approve
        self.calculate_offered = flags.calculate_offered and not self.is_version_view
        self.can_calculate = flags.calculate and self.calculate_offered
        self.calculate_reason = flags.calculate_reason if self.calculate_offered else ""
        self.email_offered = bool(view) and is_staff(actor) and self.status in (
            TIStatus.PENDING_APPROVAL.value, TIStatus.APPROVED.value, TIStatus.PARTIALLY_APPROVED.value,
            TIStatus.DECLINED.value)
        self.transactions = [tx_row(t, self.can_approve) for t in view.transactions] if view else []
        if view and any(declined(t) for t in view.transactions):
            self.summary = totals_without_declined(view.instruction, view.transactions)
        self.notes = [note_row(n, self.can_approve) for n in view.notes] if view else []
        self.capital_gains = capital_gains_view(ti_service.capital_gains(actor=actor, ti_id=self._ti_id)
                                                if view else None)

    def _show_instruction(self, ti: TradeInstructionSummary | None) -> None:
        """The status, who took it there and the totals; all empty before any is generated."""
        if ti is None:
            self._ti_id = self._row_version = self.version = 0
            self.status = self.status_label = self.actor_label = self.acted_by = self.acted_at = ""
            self.auto_approve_at = self.error_message = ""
            self.summary = TISummary()
            return
        self._ti_id, self._row_version, self.version = ti.id, ti.row_version, ti.version
        self.status, self.status_label, self.actor_label = ti.status.value, ti.status_label, ti.actor_label
        person, moment = ti.acted
        self.acted_by, self.acted_at = name_of(person), iso_moment(moment)
        self.auto_approve_at = iso_moment(ti.auto_approve_at)
        self.error_message = (ti.error_message or "") if ti.status is TIStatus.FAILED else ""
        self.summary = TISummary(buys=money(ti.buys), sells=money(ti.sells), brokerage=money(ti.brokerage),
                                 min_trade_amount=money(ti.min_trade_amount))

    def _load(self, actor: Actor) -> None:
        version = self._version_param() if self.is_version_view else None
        self._show(ti_service.view(actor=actor, investment_id=self.portfolio_id, version=version), actor)

    @rx.event
    @load_failed()
    def on_load(self, actor: Actor):
        self.loading = True
        self._clear_header()
        self.exists = False
        self.transactions, self.notes = [], []
        self.form_open = self.history_open = False
        self.confirm_open = self.busy = False
        self._answer = {}
        self.is_version_view = self._version_param() is not None
        try:
            self._open_portfolio(actor)
            self._load(actor)
        finally:
            self.loading = False
        if self._query_text("calculate") in ("1", "true") and self.can_calculate:
            self._ask_to("calculate")  # 'Calculate Trade Recommendations' of the holdings actions menu

    @guarded
    def _reload(self, actor: Actor | None = None):
        self._load(actor or self._actor())

    def _set_dirty(self, value: bool) -> None:
        """Unconfirmed decisions hold the page: leaving asks first (the layout's leave dialog)."""
        self.form_dirty = value
        if not value:
            self.leave_open = False

    # ---- links ------------------------------------------------------------------------------------
    def _export_path(self, kind: str) -> str:
        """This version's export."""
        return f"/api/investments/{self.portfolio_id}/trade-instructions/export-{kind}?version={self.version}"

    def _decided(self) -> int:
        return sum(1 for r in self.transactions if r.choice) + sum(1 for n in self.notes if n.choice)

    @rx.var
    def decided_count(self) -> int:
        return self._decided()

    @rx.var
    def decided_text(self) -> str:
        """'2 of 7 trades decided' (trades count trades; the notes are counted apart)."""
        trades = [r for r in self.transactions if r.awaiting]
        notes = [n for n in self.notes if n.awaiting]
        text = f"{sum(1 for r in trades if r.choice)} of {count_of(len(trades), 'trade')} decided" if trades else ""
        if notes:
            noted = f"{sum(1 for n in notes if n.choice)} of {count_of(len(notes), 'note')}"
            text = f"{text}, {noted}" if text else f"{noted} decided"
        return text

    @rx.var
    def awaiting_count(self) -> int:
        return sum(1 for r in self.transactions if r.awaiting) + sum(1 for n in self.notes if n.awaiting)

    @rx.var
    def show_decisions(self) -> bool:
        return self.can_approve and (any(r.awaiting for r in self.transactions) or any(n.awaiting for n in self.notes))

    @rx.var
    def page_title(self) -> str:
        return f"{TITLE} - Version {self.version}" if self.is_version_view and self.version else TITLE

    # ---- confirmations ----------------------------------------------------------------------------
    def _ask_to(self, action: str, target_id: int = 0) -> None:
        self.confirm_action = action
        self._ask(action, QUESTIONS[action], target_id)

    @rx.event
    def ask_calculate(self):
        if self.can_calculate:
            self._ask_to("calculate")

    @rx.event
    def ask_validate(self):
        if self.can_validate:
            self._ask_to("validate")

    @rx.event
    def ask_decline_all(self):
        if self.can_validate:
            self._ask_to("decline_all")

    @rx.event
    def ask_confirm(self):
        if not self.can_approve:
            return None
        if not self._decided():
            return toast_error(NO_DECISION)
        self._ask_to("confirm")
        return None

    @rx.event
    @guarded
    def ask_email(self):
        """Email: the confirmation names the people the switches name (none: says so, sends nothing)."""
        if not self.email_offered or not self._ti_id:
            return None
        preview = notices.send_again_trades_preview(actor=self._actor(), ti_id=self._ti_id)
        if not preview.receivers:
            return toast_error(SEND_AGAIN_NOBODY)
        self.confirm_action = "email"
        self._ask("email", preview.question, self._ti_id, label="Send")
        return None

    def _transaction(self, key: str) -> TxRow | None:
        """The shown transaction a browser names by its row key (None for any other key)."""
        return next((r for r in self.transactions if r.key == key), None)

    @rx.event
    def ask_delete(self, key: str):
        row = self._transaction(key)
        if row is not None and self.can_edit:
            self._ask_to("delete", row.id)

    def _confirmed(self, action: str, target_id: int):
        self._answer = {"action": action, "id": target_id}
        return TradeInstructionsState.answer

    @rx.event
    def answer(self):
        """Runs what the dialog confirmed (nothing, unless it was asked and confirmed), busy meanwhile."""
        answer, self._answer = self._answer, {}
        if not answer or self.busy:
            return
        self.busy = True
        yield
        try:
            action = answer["action"]
            if action == "delete":
                result = self._delete(answer["id"])
            elif action in ("confirm", "confirm_leave"):
                result = self._confirm(leave=action == "confirm_leave")
            else:
                result = {"calculate": self._calculate, "validate": self._validate,
                          "decline_all": self._decline_all, "email": self._email}[action]()
        finally:
            self.busy = False
        yield result

    # ---- the actions ------------------------------------------------------------------------------
    @guarded
    def _email(self):
        sent = notices.send_again_trades(actor=self._actor(), ti_id=self._ti_id)
        return toast_success(sent.message)

    @guarded
    def _calculate(self):
        actor = self._actor()
        [view] = ti_service.generate_views(actor=actor, investment_ids=[self.portfolio_id])
        if self.is_version_view:
            return rx.redirect(routes.url(self.SCREEN, id=self.portfolio_id))
        self._show(view, actor)
        if view.instruction.status is TIStatus.FAILED:
            return toast_error(view.instruction.error_message or GENERIC)
        return None

    def _decide_all(self, decide: Any, done: str):
        """Validate or Decline all; when refused, the instruction is shown again as it now stands."""
        try:
            actor = self._actor()
            view = decide(actor=actor, ti_id=self._ti_id, row_version=self._row_version)
        except DomainError as exc:
            return events(self._fail(exc), self._reload())
        self._show(view, actor)
        return toast_success(done)

    def _validate(self):
        return self._decide_all(ti_service.validate_view, advice.TRADES_VALIDATED)

    def _decline_all(self):
        return self._decide_all(ti_service.decline_all_view, advice.TRADES_DECLINED)

    @guarded
    def _confirm(self, leave: bool = False):
        decisions = {r.id: r.choice for r in self.transactions if r.awaiting and r.choice in DECISIONS}
        note_decisions = {n.id: n.choice for n in self.notes if n.awaiting and n.choice in DECISIONS}
        everything = all(r.choice == "approved" for r in self.transactions if r.awaiting) and all(
            n.choice == "approved" for n in self.notes if n.awaiting)
        actor = self._actor()
        view = ti_service.confirm_view(actor=actor, ti_id=self._ti_id, decisions=decisions, notes=note_decisions,
                                       is_approve_all=self._approve_all and everything, row_version=self._row_version)
        self._show(view, actor)
        return events(toast_success(advice.TRADES_CONFIRMED),
                      rx.redirect(self.leave_to) if leave and self.leave_to else None)

    @guarded
    def _delete(self, tx_id: int):
        actor = self._actor()
        ti_service.delete_transaction(actor=actor, tx_id=tx_id)
        return events(toast_success(transaction_rules.TRANSACTION_REMOVED), self._reload(actor))

    # ---- decisions --------------------------------------------------------------------------------
    @rx.event
    def choose(self, key: str, decision: str):
        """Approve or Decline one item (clicking the chosen one again takes the choice back)."""
        if not self.can_approve or decision not in DECISIONS:
            return
        self._approve_all = False
        if str(key).startswith("t"):
            self.transactions = [dataclasses.replace(r, choice="" if r.choice == decision else decision)
                                 if r.key == key and r.awaiting else r for r in self.transactions]
        else:
            self.notes = [dataclasses.replace(n, choice="" if n.choice == decision else decision)
                          if n.key == key and n.awaiting else n for n in self.notes]
        self._set_dirty(self._decided() > 0)

    @rx.event
    def approve_all(self):
        if not self.can_approve:
            return
        self.transactions = [dataclasses.replace(r, choice="approved") if r.awaiting else r for r in self.transactions]
        self.notes = [dataclasses.replace(n, choice="approved") if n.awaiting else n for n in self.notes]
        self._approve_all = True
        self._set_dirty(self._decided() > 0)

    @rx.event
    def save_and_leave(self):
        """Save of the leave dialog: confirm the decisions, then go where the user was going."""
        self.leave_open = False
        if not self.can_approve or not self._decided():
            return AppState.discard_and_leave
        self._ask_to("confirm_leave")
        return None

    # ---- inline edit --------------------------------------------------------------------------------
    @rx.event
    def start_edit(self, key: str):
        row = self._transaction(key)
        if row is None or not self.can_edit:
            return
        self.editing_key = row.key
        self.edit_units = row.units_raw
        self.edit_price = row.price_raw
        self.edit_errors = {}

    @rx.event
    def cancel_edit(self):
        self.editing_key = ""
        self.edit_errors = {}

    @rx.event
    def set_edit_units(self, value: str):
        self.edit_units = str(value or "")[:30]
        self.edit_errors = {k: v for k, v in self.edit_errors.items() if k != "quantity"}

    @rx.event
    def set_edit_price(self, value: str):
        self.edit_price = str(value or "")[:30]
        self.edit_errors = {k: v for k, v in self.edit_errors.items() if k != "price"}

    @rx.event
    @guarded
    def save_edit(self):
        row = self._transaction(self.editing_key)
        if row is None or not self.can_edit:
            return None
        actor = self._actor()
        try:
            result = ti_service.update_trade(actor=actor, tx_id=row.id, quantity=self.edit_units.strip(),
                                             price=self.edit_price.strip())
        except ValidationError as exc:
            self.edit_errors = dict(exc.fields) or {"quantity": exc.message}
            return toast_error(exc.message)
        # the row's figures from the result; then the instruction again (its version moved on)
        fresh = tx_row(result, self.can_approve)
        self.transactions = [fresh if r.key == row.key else r for r in self.transactions]
        self.editing_key = ""
        self.edit_errors = {}
        return events(toast_success(transaction_rules.TRANSACTION_UPDATED), self._reload(actor))

    # ---- adding a transaction (a modal form) ----------------------------------------------------------
    @rx.event
    def open_add(self):
        if self.can_edit:
            self._open_form(AddedTrade())
            self.add_error = ""

    @rx.event
    def set_form_field(self, key: str, value: str):
        """A field of the add dialog: the code uppercased (002 s5), the action BUY or SELL. A change
        clears its field's error (the action's, the units' too) and the dialog's message."""
        text = str(value or "")
        if key not in self.FORM_FIELDS or (key == "action" and text not in dict(ACTIONS)):
            return
        self.form = dataclasses.replace(self.form, **{key: text.upper()[:20] if key == "code" else text[:30]})
        cleared = ("action", "quantity") if key == "action" else (key,)
        self.form_errors = {k: v for k, v in self.form_errors.items() if k not in cleared}
        self.add_error = ""

    @rx.event
    @guarded
    def save_add(self):
        if not self.can_edit or self.saving:
            return None
        form = self.form
        errors = {key: text for key, text in (("code", REQUIRED_CODE), ("quantity", REQUIRED_UNITS))
                  if not getattr(form, key).strip()}
        if errors:
            self.form_errors = errors
            return None
        self.saving = True
        try:
            actor = self._actor()
            ti_service.add_transaction(actor=actor, ti_id=self._ti_id, code=form.code, action=form.action or "buy",
                                       quantity=form.quantity.strip(), price=form.price.strip() or None)
        except ValidationError as exc:
            self.form_errors = {k: (exc.message if v in ("required", "") else v) for k, v in exc.fields.items()}
            self.add_error = "" if exc.fields else exc.message
            return toast_error(exc.message)
        finally:
            self.saving = False
        self._close_form()
        return events(toast_success(transaction_rules.TRANSACTION_ADDED), self._reload(actor))

    # ---- history --------------------------------------------------------------------------------------
    @guarded
    def _load_history(self):
        self.history_loading = True
        try:
            found = ti_service.history_entries(actor=self._actor(), ti_id=self._ti_id,
                                               offset=(self.history_page - 1) * advice.HISTORY_PAGE_SIZE)
        finally:
            self.history_loading = False
        self.history_total = found.total
        self.history_pages = max(1, math.ceil(self.history_total / advice.HISTORY_PAGE_SIZE))
        self.history_visible = visible_pages(self.history_page, self.history_pages)
        self.history_rows = [HistoryRow(id=r.id, created_at=iso_moment(r.created_at), who=name_of(r.actor),
                                        action=r.action or "", detail=r.detail or "") for r in found.rows]

    @rx.event
    def open_history(self):
        if not self._ti_id:
            return None
        self.history_page = 1
        self.history_rows = []
        self.history_open = True
        return self._load_history()

    @rx.event
    def set_history_open(self, value: bool):
        self.history_open = bool(value)

    @rx.event
    def history_go(self, page: Any):
        number = _int(page)
        if number is None or not self.history_open:
            return None
        self.history_page = min(number, self.history_pages)
        return self._load_history()


NO_DECISION = "Please, approve or decline at least one trade"  # ours: Confirm with nothing chosen
REQUIRED_CODE = validators.REQUIRED.format(label="code")
REQUIRED_UNITS = validators.REQUIRED.format(label="units")


# ---- the versions -----------------------------------------------------------------------------------
class TradeInstructionVersionsState(AdviceVersions, AppState):
    """portfolios.trade-instructions-versions: every version, newest first, 12 / 20 / 32 a page;
    Cancel returns to portfolios.trade-instructions."""

    SCREEN = "portfolios.trade-instructions"

    rows: list[VersionRow] = []

    def _versions(self, actor: Actor, limit: int, offset: int) -> tuple[list[VersionRow], int]:
        found = ti_service.versions(actor=actor, investment_id=self.portfolio_id, limit=limit, offset=offset)
        return [version_row(self.portfolio_id, r) for r in found.rows], found.total

    @rx.var
    def showing(self) -> str:
        if not self.total:
            return ""
        start = self._offset() + 1
        return f"{start}-{min(start + len(self.rows) - 1, self.total)} of {self.total}"
