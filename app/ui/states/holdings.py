"""portfolios.holdings: a portfolio's holdings grouped by asset class (spec 001 s2/s3), with the
header cards (total value, cash, class allocation bars), one table paged 12/20/32, the actions menu
(link / unlink model, transactions, add deposit, add custom holding, exports) and the custom
holding modal (spec 002 s2/s4/s5/s6) in create, edit and view modes.

Every handler resolves the acting user from the token again and calls the services, which check
the permissions; the flags here only hide what a role may not use."""
from __future__ import annotations

import copy
import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.domain.custom_holdings import CustomHoldingForm, read_form
from app.domain.holdings import sections
from app.domain.permissions import Actor, is_staff
from app.domain.portfolios import (
    CONFIRM_UNLINK, CONFIRM_UNLINK_CROSS_FIRM, CUSTOM_CLASSES_CHANGED, is_cross_firm,
)
from app.services import custom_holdings as ch_service
from app.services import holdings as holdings_service
from app.services import portfolios as portfolio_service
from app.services import trade_instructions as ti_service
from app.ui.display import input_number, money
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.toolkit.lists import Paged
from app.ui.states.portfolio_header import PortfolioHeader
from app.ui.parse import to_int
from app.ui.rows.holdings import (
    ClassTotal, HoldingInputs, HoldingRow, HoldingTotals, PendingRow, class_total, header_row, line_row,
    pending_row, percent,
)
from app.ui.rows.portfolios import referer_query
from app.ui.toolkit.rows import Option, amount_of, label_of
from app.ui.toolkit.screen import Confirm, ExportLinks, events, guarded, screen_load
from app.ui.toolkit.typed_form import TypedFormDialog

PAGE_SIZES = [str(n) for n in holdings_service.PAGE_SIZES]
LOAD_FAILED = "Opps, something went wrong"
SAVE_CHANGES = "Do you want to save changes?"
CONFIRM_DELETE_HOLDING = "Are you sure you want to delete the custom holding {name}?"
# the longest text each field of the form (ch_service.FIELDS) keeps
FIELD_LIMITS = {"name": ch_service.NAME_MAX + 50, "class_id": 500, "fee": 30, "value": 30}
MODAL_TITLES = {"create": "New custom holding", "edit": "Edit custom holding", "view": "Custom holding"}


class HoldingsState(Confirm, TypedFormDialog, ExportLinks, Paged, PortfolioHeader, AppState):
    FORM_FIELDS: ClassVar[tuple[str, ...]] = ch_service.FIELDS
    FORM_TYPE: ClassVar[type] = HoldingInputs
    PAGE_SIZES: ClassVar[tuple[int, ...]] = holdings_service.PAGE_SIZES
    DEFAULT_SIZE: ClassVar[int] = holdings_service.DEFAULT_PAGE_SIZE

    page_size: str = str(holdings_service.DEFAULT_PAGE_SIZE)
    loading: bool = True
    can_edit: bool = False
    can_calculate_tp: bool = False
    can_calculate_tr: bool = False       # 'Calculate Trade Recommendations' allowed (001 s6)
    calculate_tr_offered: bool = False   # offered (the role rule); disabled with the reason when not allowed
    calculate_tr_reason: str = ""
    totals: HoldingTotals = HoldingTotals()
    bars: list[ClassTotal] = []
    target_source: str = ""
    target_total: str = ""
    target_total_color: str = ""

    rows: list[HoldingRow] = []
    pending: list[PendingRow] = []

    # the custom holding modal (the form dialog: form, form_errors, saving, form_open)
    form: HoldingInputs = HoldingInputs()  # type: ignore[assignment]  # typed, where FormDialog holds text
    modal_mode: str = "view"           # create | edit | view
    class_options: list[Option] = []
    close_prompt_open: bool = False

    _lines: list[tuple[HoldingRow, HoldingRow | None]] = []  # each holding (or a class with none) and its class's header
    _holding_id: int = 0
    _original: HoldingInputs | None = None  # as opened (trimmed), for the unsaved-changes check
    _model_cross_firm: bool = False
    _prompt_for: str = "close"

    # ---- loading ----------------------------------------------------------------------------------
    def _load(self, actor: Actor) -> None:
        h = holdings_service.load(actor=actor, portfolio_id=self.portfolio_id)
        p = h.portfolio
        self._show_header(p, actor)
        tp_permissions, check = ti_service.portfolio_permissions(actor=actor, investment_id=p.id)
        self.can_calculate_tp = tp_permissions.calculate
        self.calculate_tr_offered, self.can_calculate_tr = check.calculate_offered, check.calculate
        self.calculate_tr_reason = check.calculate_reason
        self._model_cross_firm = is_cross_firm(p.firm_id, p.model_firm_id)
        self.can_edit = is_staff(actor)
        t = h.totals
        self.totals = HoldingTotals(value=money(t.value), cash=amount_of(t.cash), shares=money(t.shares_value),
                                    other=money(t.deposits + t.custom_holdings))
        self.bars = [class_total(c) for c in h.classes]
        self.target_source = h.target_source or ""
        self.target_total = f"Total: {percent(h.target_total)}" if h.target_total is not None else ""
        self.target_total_color = (h.target_total_color or "") if h.target_total is not None else ""
        self.pending = [pending_row(p) for p in h.pending_trades]
        urls = {s.asset_id: s.url for s in h.shares}
        lines: list[tuple[HoldingRow, HoldingRow | None]] = []
        for section in sections(h):
            header = header_row(section)  # a class with nothing held: its header alone
            lines += [(header, line_row(line, urls.get(line.id or 0) if line.kind == "share" else None))
                      for line in section.lines] or [(header, None)]
        self._lines = lines
        self.total = sum(1 for _, row in lines if row is not None)
        self._reload()
        self.loading = False

    def _reload(self) -> None:
        """The current page of holdings, each class's header above its first row on the page."""
        self._clamp_page()
        held = [item for item in self._lines if item[1] is not None]
        page_items = held[self._offset():self._offset() + self._limit()]
        if self.page == self._page_count():  # classes with a target but nothing held close the last page
            page_items += [item for item in self._lines if item[1] is None]
        rows: list[HoldingRow] = []
        current = None
        for header, row in page_items:  # copies: the rows shown are their own, not the held ones
            if header.key != current:
                rows.append(copy.copy(header))
                current = header.key
            if row is not None:
                rows.append(copy.copy(row))
        self.rows = rows

    @rx.event
    @screen_load(failed=LOAD_FAILED, back=PortfolioHeader._list_url)
    def on_load(self, actor: Actor):
        self._reset_screen()
        self.portfolio_id = self._portfolio_param() or 0
        self._load(actor)

    # ---- links --------------------------------------------------------------------------------------
    @rx.var
    def buy_url(self) -> str:
        return self._portfolio_url("portfolios.buy", referer_query(self._portfolio_url("portfolios.holdings")))

    def _export_path(self, kind: str) -> str:
        return f"/api/investments/{self.portfolio_id}/holdings/export-{kind}"

    # ---- unlinking the model and deleting a custom holding --------------------------------------------
    @rx.event
    def ask_unlink(self):
        if not self.model_name:
            return
        template = CONFIRM_UNLINK_CROSS_FIRM if self._model_cross_firm else CONFIRM_UNLINK
        self._ask("unlink", template.format(name=self.model_name), label="Unlink")

    @rx.event
    def ask_delete(self, holding_id: Any, name: str):
        self._ask("delete", CONFIRM_DELETE_HOLDING.format(name=name), to_int(holding_id) or 0)

    def _confirmed(self, action: str, target_id: int):
        actor = self._actor()
        if action == "delete":
            deleted = ch_service.delete(actor=actor, holding_id=target_id)
            return events(toast_success(deleted.message), self._refresh())
        result = portfolio_service.unlink_model(actor=actor, portfolio_id=self.portfolio_id)
        self._load(actor)  # spec: after unlinking, the page reloads
        return events(toast_success(result.message),
                      toast_success(CUSTOM_CLASSES_CHANGED) if result.custom_classes_changed else None)

    @guarded
    def _refresh(self):
        self._load(self._actor())

    # ---- the custom holding modal (the form dialog) -------------------------------------------------
    def _open_modal(self, actor: Actor, mode: str, holding_id: int = 0, inputs: HoldingInputs | None = None) -> None:
        """The modal on a new custom holding or a saved one, with the classes the portfolio offers."""
        self.class_options = [Option(value=str(c.id), label=c.title)
                              for c in ch_service.class_options(actor=actor, portfolio_id=self.portfolio_id)]
        self._holding_id, self.modal_mode = holding_id, mode
        self._open_form(inputs)
        self._original = self.form.trimmed()
        self.close_prompt_open = False

    def _class_title(self, class_id: str) -> str:
        return label_of(self.class_options, class_id)

    @rx.event
    @guarded
    def open_create(self):
        actor = self._actor()
        if is_staff(actor):
            self._open_modal(actor, "create")

    @guarded
    def _open_existing(self, holding_id: Any, mode: str):
        actor = self._actor()
        found = ch_service.get(actor=actor, holding_id=to_int(holding_id) or 0)
        self._open_modal(actor, mode if is_staff(actor) else "view", found.id,
                         HoldingInputs(name=found.name, class_id=str(found.class_id), fee=input_number(found.fee),
                                       value=input_number(found.value)))

    @rx.event
    def open_view(self, holding_id: Any):
        return self._open_existing(holding_id, "view")

    @rx.event
    def open_edit(self, holding_id: Any):
        return self._open_existing(holding_id, "edit")

    @rx.event
    def toggle_edit(self, editing: bool):
        """The view / edit switch of an existing holding (staff only)."""
        if self.modal_mode == "create" or not self.can_edit:
            return
        if not editing and self._dirty():
            self._prompt_for = "view"  # leaving edit mode with changes: save or discard first
            self.close_prompt_open = True
            return
        self.modal_mode = "edit" if editing else "view"

    def _check_form(self) -> dict[str, str]:
        """The service's own check; the uniqueness mark comes from the server and stays until the
        name is edited."""
        errors = dict(ch_service.clean(self._form())[1])
        if self.form_errors.get("name") == ch_service.NAME_UNIQUE:
            errors.setdefault("name", ch_service.NAME_UNIQUE)
        return errors

    def _form(self) -> CustomHoldingForm:
        return read_form({"investment_id": self.portfolio_id, **dataclasses.asdict(self.form)})

    @rx.event
    def set_form_field(self, key: str, value: str):
        if key not in self.FORM_FIELDS or self.modal_mode == "view":
            return
        if key == "name":  # editing the name clears its mark (the uniqueness one too)
            self.form_errors = {k: v for k, v in self.form_errors.items() if k != "name"}
        self._form_edited({key: str(value or "")[:FIELD_LIMITS[key]]})

    def _dirty(self) -> bool:
        if self.modal_mode == "view" or not self.form_open:
            return False
        return self.form.trimmed() != self._original

    @rx.var
    def modal_title(self) -> str:
        return MODAL_TITLES[self.modal_mode]

    @rx.var
    def ch_read_only(self) -> bool:
        return self.modal_mode == "view"

    @rx.var
    def ch_class_title(self) -> str:
        return self._class_title(self.form.class_id)

    @rx.event
    @guarded
    def save_holding(self):
        if self.modal_mode == "view":
            return None
        self.close_prompt_open = False
        return self._save_form(lambda errors: toast_error(ch_service.failure_message(errors)), self._write)

    def _write(self) -> Any:
        actor = self._actor()
        if self.modal_mode == "create":
            result = ch_service.create(actor=actor, form=self._form())
        else:
            result = ch_service.update(actor=actor, holding_id=self._holding_id, form=self._form())
        self._close_form()
        return events(toast_success(result.message), self._refresh())

    @rx.event
    def request_close(self):
        """Closing the modal: with unsaved changes it asks to save or discard first."""
        if self._dirty():
            self._prompt_for = "close"
            self.close_prompt_open = True
            return
        self._close_form()

    @rx.event
    def modal_open_change(self, is_open: bool):
        if not is_open:
            return HoldingsState.request_close

    @rx.event
    def discard_changes(self):
        """Discard: back to view mode with the saved values (the switch), or close the modal."""
        self.close_prompt_open = False
        self.form_errors = {}
        self.form_submitted = False
        if self._prompt_for == "view" and self._original:
            self.form = dataclasses.replace(self._original)
            self.modal_mode = "view"
            return
        self._close_form()

    @rx.event
    def keep_editing(self):
        self.close_prompt_open = False
