"""portfolios.target-portfolio (and -version) and portfolios.target-portfolio-versions (spec 001
s2/s4/s6/s9, 002 s4/s8/s9): a portfolio's target portfolio with its status, who acted and when,
the summary figures, one table per asset class (every number with the engine's reasons), the
class allocation current vs target, the industry groups, the commentary, and the actions
Calculate, Edit, Validate, Record of advice, Versions and Cancel.

Edit (mode EDIT, spec 001 s4/s5/s8): every change (target units set, an asset added or removed) is
a step; the screen keeps the list of edits after each step (the history, undone one at a time) and
sends the whole list to target_portfolios.edit_preview, which recalculates the rest without storing
anything. A step runs in a background event, so Save pressed meanwhile answers 'Recalculating in
proccess. Please, wait'; a step that fails is dropped (the previous result stays). Save stores a new
version through target_portfolios.save_edit.

`TPDisplay` turns the target portfolio of app.services.target_portfolios into what the
screens show; the record of advice (app.ui.states.rofa) shows the same. Every handler resolves the
acting user from the token and calls the services, which check the permissions again."""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from decimal import Decimal
from typing import Any

import reflex as rx

from app.domain import advice, rich_text, validators
from app.domain.errors import GENERIC, AuthenticationError, DomainError
from app.domain.permissions import Actor
from app.services import advice_display
from app.services import target_portfolios
from app.domain.notices import SEND_AGAIN_NOBODY
from app.services import notices, records_of_advice
from app.ui import routes
from app.ui.components.capital_gains import CapitalGainsView, capital_gains_view
from app.ui.components.asset_picker import AssetPickerState, take_pick
from app.ui.display import count_of, iso_moment
from app.ui.states.advice_versions import LOAD_FAILED, AdviceScreen, AdviceVersions, load_failed
from app.ui.states.base import AppState, toast_error, toast_success, toast_warning
from app.ui.toolkit.screen import Confirm, guarded
from app.ui.parse import form_id, form_text, positive_int as _int
from app.domain.advice.target_portfolios import ResultNames, TargetEdit, TargetPortfolioView, stored_edits
from app.domain.engine.results import AssetTarget
from app.ui.rows.target_portfolio import (
    CommentBox, GroupRow, Step, TPClass, TPFigures, VersionRow, build_classes, build_figures, build_groups,
    build_steps, reason_texts, status_color, version_row, whole,
)

log = logging.getLogger(__name__)

MODE_EDIT = "EDIT"
WHOLE_UNITS = re.compile(r"\d{1,12}")  # target units: a whole number, zero or more
UNITS_INVALID = "Please, enter a whole number of units, zero or more."
CODE_REQUIRED = validators.REQUIRED.format(label="an asset code").strip()
CODE_MAX = 20
FEEDBACK_SECONDS = 3  # the commentary's updating / saved / error line clears itself (002 s8)
COMMENT_UPDATING = "Updating..."
COMMENT_SAVED = "Commentary saved"
COMMENT_TITLES = {"market": "Market commentary", "recommendation": "Recommendation"}
CONFIRM_TEXTS = {"calculate": advice.CONFIRM_RECALCULATE_TP, "validate": advice.CONFIRM_VALIDATE,
                 "remove": advice.CONFIRM_REMOVE_ASSET}
ZERO = Decimal(0)


# ---- what the screens show ------------------------------------------------------------------------
class TPDisplay(rx.State, mixin=True):
    """A target portfolio as the screens show it."""

    tp_id: int = 0
    tp_version: int = 0
    tp_status: str = ""
    tp_status_label: str = ""
    tp_status_color: str = "gray"
    not_enough_cash: bool = False
    error_message: str = ""
    tp_model: str = ""
    has_result: bool = False
    steps: list[Step] = []
    figures: TPFigures = TPFigures()
    classes: list[TPClass] = []
    groups: list[GroupRow] = []
    notes: list[str] = []
    capital_gains: CapitalGainsView = CapitalGainsView()
    _row_version: int = 0

    def _show_capital_gains(self, actor: Actor) -> None:
        """The recommended sells' capital gains by parcel (after _show_tp)."""
        est = records_of_advice.capital_gains(actor=actor, tp_id=self.tp_id) if self.has_result else None
        self.capital_gains = capital_gains_view(est)

    def _show_tp(self, view: TargetPortfolioView | None) -> None:
        """The target portfolio `view` (None: none)."""
        t = view.summary if view else None
        self.tp_id, self.tp_version = (t.id, t.version) if t else (0, 0)
        self.tp_status = t.status if t else ""
        self.not_enough_cash = bool(t and t.not_enough_cash)
        self.tp_status_label = t.status_label if t else ""
        self.tp_status_color = status_color(self.tp_status, self.not_enough_cash)
        self.error_message = (t.error_message if t else None) or ""
        self.tp_model = view.model.name if view and view.model else ""
        self._row_version = t.row_version if t else 0
        self.steps = build_steps(t) if t else []
        result, names = (view.result, view.names) if view else (None, ResultNames())
        self.has_result = result is not None
        self.figures = build_figures(result, view.placed_buys) if view and result else TPFigures()
        self.classes = build_classes(result, names) if result else []
        self.groups = build_groups(result, names) if result else []
        self.notes = reason_texts(result.reasons) if result else []

    def _clear_tp(self) -> None:
        self._show_tp(None)

    @rx.var
    def is_failed(self) -> bool:
        return self.tp_status == advice.TPStatus.FAILED.value


# ---- portfolios.target-portfolio --------------------------------------------------------------------
class TargetPortfolioState(Confirm, TPDisplay, AdviceScreen, AppState):
    SCREEN = "portfolios.target-portfolio"

    loading: bool = True
    missing: bool = False          # nothing calculated (or approved, for others) yet
    pending_rofa_url: str = ""     # the record of advice awaiting the client's approval ('' when none)
    pending_rofa_version: int = 0
    pending_rofa_sent: str = ""    # ISO instant it was sent (validated)
    viewing_version: int = 0       # the version of the URL (0: the current one)
    can_calculate: bool = False
    view_only: bool = True
    can_edit_comment: bool = False
    busy: str = ""                 # calculate | validate while a call runs
    mode: str = ""                 # EDIT while editing (001 s4)
    latest_version: int = 0        # the portfolio's newest version (only that one may be edited)
    edit_steps: int = 0            # steps made since Edit (Undo needs one)
    edit_changed: bool = False     # the edits differ from those the version started with
    recalculating: bool = False    # a step's recalculation is running
    saving: bool = False
    invalid_count: int = 0         # units fields holding something that is not a whole number
    edit_rev: int = 0              # bumped to reset the units fields to what the result shows

    market: CommentBox = CommentBox()   # one per advice.COMMENT_TYPES
    recommendation: CommentBox = CommentBox()

    # edit mode: the shown result and its names, the edits of each step (history[0]: the edits the
    # version carries), the history whose result is shown, the invalid units typed by asset id
    _shown_view: TargetPortfolioView | None = None
    _recalculated_shown: bool = False  # a step's recalculated result is on screen (Cancel reloads)
    _stored_edits: tuple[TargetEdit, ...] = ()
    _history: list[tuple[TargetEdit, ...]] = []
    _shown: list[tuple[TargetEdit, ...]] = []
    _invalid: dict[int, str] = {}
    _recalc_run: int = 0
    _leave_after_save: bool = False

    # ---- loading ----------------------------------------------------------------------------------
    def _load(self, actor: Actor) -> None:
        self._load_header(actor)
        pending = records_of_advice.pending_record(actor=actor, investment_id=self.portfolio_id)
        self.pending_rofa_url = routes.url("portfolios.rofa", id=self.portfolio_id, rofa_id=pending.tp_id) \
            if pending else ""
        self.pending_rofa_version = pending.version if pending else 0
        self.pending_rofa_sent = iso_moment(pending.sent_at) if pending else ""
        view = target_portfolios.current(actor=actor, investment_id=self.portfolio_id,
                                         version=self.viewing_version or None)
        self.missing = view is None  # nothing calculated (or approved, for others) yet
        perms = view.permissions if view else advice_display.permissions(actor=actor, investment_id=self.portfolio_id)
        self._show_tp(view)
        self._show_capital_gains(actor)
        self._shown_view = view
        self._stored_edits = stored_edits(view.result) if view else ()
        self.latest_version = self.tp_version
        if view and self.viewing_version and perms.calculate:
            newest = target_portfolios.versions(actor=actor, investment_id=self.portfolio_id, limit=1).rows
            self.latest_version = max([r.version for r in newest] + [self.tp_version])
        for kind in advice.COMMENT_TYPES:
            stored = view.commentary(kind) if view else None
            html = rich_text.as_html(stored.description if stored else "")
            self._put_comment(kind, dataclasses.replace(self._comment(kind), html=html, shown=html,
                                                        id=(stored.id if stored else None) or 0))
        self.can_calculate, self.view_only, self.can_edit_comment = perms.calculate, perms.view_only, perms.edit_commentary

    @rx.event
    @load_failed()
    def on_load(self, actor: Actor):
        self.loading = True
        self.missing = False
        self.busy = ""
        self._reset_edit()
        self.confirm_open = False
        self.market, self.recommendation = CommentBox(), CommentBox()
        self._clear_header()
        self._clear_tp()
        self.portfolio_id = self._portfolio_param() or 0
        self.viewing_version = self._version_param() or 0
        try:
            self._load(actor)
        finally:
            self.loading = False
        # the holdings menu's 'Calculate Target Portfolio' arrives with ?calculate=1
        if self._query_text("calculate") == "1" and self.can_calculate and not self.viewing_version:
            self._ask_to("calculate")

    # ---- links --------------------------------------------------------------------------------------
    @rx.var
    def rofa_url(self) -> str:
        if not self.portfolio_id or not self.tp_id:
            return ""
        return routes.url("portfolios.rofa", id=self.portfolio_id, rofa_id=self.tp_id)

    # ---- what may be done ---------------------------------------------------------------------------
    @rx.var
    def editable(self) -> bool:
        """The asset tables carry the editing columns (11 instead of 9, 002 s9)."""
        return (not self.view_only and self.can_calculate and self.has_result
                and self.tp_status == advice.TPStatus.DRAFT.value)

    @rx.var
    def can_validate(self) -> bool:
        return self.editable and not self.not_enough_cash and self.mode != MODE_EDIT

    @rx.var
    def can_edit(self) -> bool:
        """Edit is offered on a version that is editable and the newest of its portfolio."""
        return (self.editable and self.mode != MODE_EDIT
                and self.tp_version >= self.latest_version)

    @rx.var
    def editing(self) -> bool:
        return self.mode == MODE_EDIT

    @rx.var
    def edit_steps_text(self) -> str:
        if not self.edit_steps:
            return "No changes yet"
        return count_of(self.edit_steps, "change")

    @rx.var
    def can_open_rofa(self) -> bool:
        return self.has_result and self.tp_status != advice.TPStatus.FAILED.value

    @rx.var
    def comments_editable(self) -> bool:
        return self.can_edit_comment and self.tp_status in (advice.TPStatus.DRAFT.value, advice.TPStatus.VALIDATED.value)

    # ---- calculate and validate ------------------------------------------------------------------
    def _ask_to(self, action: str, target_id: int = 0) -> None:
        self._ask(action, CONFIRM_TEXTS[action], target_id)

    @rx.event
    def ask_calculate(self):
        if self.can_calculate and self.mode != MODE_EDIT:
            self._ask_to("calculate")

    @rx.event
    def ask_validate(self):
        if self.can_validate:
            self._ask_to("validate")

    def _confirmed(self, action: str, target_id: int):
        if action == "remove":
            return self._remove(target_id)
        if action == "email":
            return TargetPortfolioState.send_email
        return TargetPortfolioState.calculate if action == "calculate" else TargetPortfolioState.validate

    @rx.event
    @guarded
    def calculate(self):
        if self.busy or self.mode == MODE_EDIT:
            return
        self.busy = "calculate"
        yield
        try:
            actor = self._actor()
            new = target_portfolios.calculate(actor=actor, investment_id=self.portfolio_id).summary
        finally:
            self.busy = ""
        if self.viewing_version:  # the new version is the current one: show it at its own address
            yield rx.redirect(routes.url(self.SCREEN, id=self.portfolio_id))
            return
        self._load(actor)
        if new.status == advice.TPStatus.FAILED.value:
            yield toast_error(f"{new.status_label}: {new.error_message or ''}".strip(": "))
        else:
            yield toast_success(f"Target Portfolio version {new.version} calculated: {new.status_label}")

    @rx.event
    @guarded
    def validate(self):
        if self.busy or not self.tp_id or self.mode == MODE_EDIT:
            return
        self.busy = "validate"
        yield
        try:
            actor = self._actor()
            validated = target_portfolios.validate(actor=actor, tp_id=self.tp_id, row_version=self._row_version)
            self._load(actor)
        finally:
            self.busy = ""
        yield toast_success(f"Target Portfolio validated: {validated.summary.status_label}")

    # ---- Email (001 s2): the record of advice sent again, after a confirmation naming the receivers ----
    @rx.var
    def can_email(self) -> bool:
        return (self.can_calculate and self.mode != MODE_EDIT and self.tp_status in (
            advice.TPStatus.VALIDATED.value, advice.TPStatus.ACTIVE.value, advice.TPStatus.DECLINED.value))

    @rx.event
    @guarded
    def ask_email(self):
        if not self.tp_id or self.busy:
            return None
        preview = notices.send_again_target_preview(actor=self._actor(), tp_id=self.tp_id)
        if not preview.receivers:
            return toast_error(SEND_AGAIN_NOBODY)
        self._ask("email", preview.question, self.tp_id, label="Send")
        return None

    @rx.event
    @guarded
    def send_email(self):
        if not self.tp_id or self.busy:
            return
        self.busy = "email"
        yield
        try:
            sent = notices.send_again_target(actor=self._actor(), tp_id=self.tp_id)
        finally:
            self.busy = ""
        yield toast_success(sent.message)

    # ---- edit mode (001 s4: mode EDIT, steps with undo, every change recalculates) -------------------
    def _shown_asset(self, asset_id: Any) -> AssetTarget | None:
        """An asset line of the shown result."""
        aid = _int(asset_id)
        result = self._shown_view.result if self._shown_view else None
        return result.asset(aid) if aid and result else None

    def _current(self) -> tuple[TargetEdit, ...]:
        """The edits of the last step (what the next step builds on)."""
        return self._history[-1] if self._history else self._stored_edits

    def _entry_asset(self, entry: TargetEdit) -> int | None:
        if entry.asset_id:
            return entry.asset_id
        code = entry.code
        assets = self._shown_view.result.assets if self._shown_view and self._shown_view.result else ()
        return next((a.asset_id for a in assets if a.code == code), None) if code else None

    def _units_set(self) -> dict[int, int | None]:
        """The units the edits set, by asset (the last setting wins)."""
        last: dict[int, int | None] = {}
        for entry in self._current():
            aid = self._entry_asset(entry)
            if aid and entry.sets_units:
                last[aid] = whole(entry.target_units)
        return last

    def _requested(self, asset_id: int) -> int | None:
        """The units the edits set for an asset, else the shown target units."""
        units = self._units_set().get(asset_id)
        shown = self._shown_asset(asset_id)
        return (whole(shown.target_units) if shown else None) if units is None else units

    def _pinned_zero(self) -> set[int]:
        return {aid for aid, units in self._units_set().items() if units == 0}

    def _render(self) -> None:
        """The class tables of the shown result; in edit mode with the units typed and the Remove offers."""
        self._sync_edit()
        view = self._shown_view
        classes = build_classes(view.result, view.names) if view and view.result else []
        if self.mode == MODE_EDIT:
            pinned_zero = self._pinned_zero()
            for c in classes:
                for line in c.lines:
                    if line.kind != "asset" or not line.asset_id:
                        continue
                    typed = self._invalid.get(line.asset_id)
                    line.invalid = typed is not None
                    line.units_input = typed if typed is not None else line.units_raw
                    line.removable = line.units_raw == "0" and (line.added or line.asset_id not in pinned_zero)
        self.classes = classes
        self.invalid_count = len(self._invalid) if self.mode == MODE_EDIT else 0

    def _sync_edit(self) -> None:
        self.edit_steps = max(0, len(self._history) - 1)
        self.edit_changed = bool(self._history) and self._history[-1] != self._history[0]
        # leaving the page (or Cancel) with steps or invalid units asks Save, Don't Save, Cancel
        self.form_dirty = self.mode == MODE_EDIT and (self.edit_steps > 0 or bool(self._invalid))

    def _reset_edit(self) -> None:
        self.mode = ""
        self._recalculated_shown = False
        self._history, self._shown, self._invalid = [], [], {}
        self.edit_steps = self.invalid_count = 0
        self.edit_changed = self.recalculating = self.saving = self._leave_after_save = False
        self._recalc_run += 1  # a recalculation still running is ignored
        if self._confirm_action == "remove":  # a Remove asked about goes with the edits
            self._confirm_action, self._confirm_id = "", 0
        self.form_dirty = False

    def _busy_editing(self):
        """A step is refused while the previous one recalculates (001 s5)."""
        self.edit_rev += 1  # the fields go back to what the result shows
        return toast_warning(advice.RECALCULATING)

    @rx.event
    def start_edit(self):
        if not (self.can_edit and self.tp_id and self.has_result and not self.busy):
            return
        self._reset_edit()
        self.mode = MODE_EDIT
        # a version saved with edits carries them: the history starts from them
        self._history = [self._stored_edits]
        self._shown = list(self._history)
        self.edit_rev += 1
        self._render()

    def _push(self, edits: tuple[TargetEdit, ...]):
        """A step: the edits after it join the history and the rest is recalculated."""
        self._history = self._history + [edits]
        return self._recalculate()

    def _recalculate(self):
        """Starts the recalculation of the last step (the lines change when its result comes)."""
        self._sync_edit()
        self._recalc_run += 1
        self.recalculating = True
        return TargetPortfolioState.recalculate(self._recalc_run)

    @rx.event(background=True)
    async def recalculate(self, run: int):
        """Runs a step's recalculation (target_portfolios.edit_preview) off the event queue, so that a
        Save pressed meanwhile is answered; shows its result, or drops the failed step."""
        failure = None
        async with self:
            if run != self._recalc_run or not self.recalculating or self.mode != MODE_EDIT:
                return
            edits = self._current()
            tp_id, row_version = self.tp_id, self._row_version
            try:
                actor = self._actor()
            except AuthenticationError as exc:
                self._reset_edit()
                failure = self._fail(exc)
        if failure is not None:
            yield failure
            return
        view, error = None, None
        try:
            view = await asyncio.to_thread(target_portfolios.edit_preview, actor=actor, tp_id=tp_id,
                                           row_version=row_version, edits=edits)
        except DomainError as exc:
            error = exc.message or LOAD_FAILED
        except Exception:  # never leave the screen recalculating forever
            log.exception("target portfolio edit step failed (tp %s)", tp_id)
            error = GENERIC
        async with self:
            if run != self._recalc_run or self.mode != MODE_EDIT:
                return
            self._step_done(view, error)
        if error is not None:
            yield toast_error(error)

    def _step_done(self, view: TargetPortfolioView | None, error: str | None) -> None:
        """A step's recalculation ended: its result is shown, or (001 s4: on any update failure the
        last step is undone) the history goes back to the result shown, which stays."""
        self.recalculating = False
        self.edit_rev += 1
        if error is not None or view is None:
            self._history = list(self._shown)
            self._render()
        else:
            self._shown = list(self._history)
            self._show_edit(view)

    def _show_edit(self, view: TargetPortfolioView) -> None:
        self._show_tp(view)
        # the recalculated result's own flag (the stored version's until saved)
        self.not_enough_cash = bool(view.result and view.result.not_enough_cash)
        if self.tp_status:
            self.tp_status_label = advice.tp_label(self.tp_status, self.not_enough_cash)
        self.tp_status_color = status_color(self.tp_status, self.not_enough_cash)
        self._shown_view = view
        self._recalculated_shown = True
        self._render()

    def _commit(self, asset_id: Any, value: Any):
        """A units field committed (blur or Enter): a step when it holds new whole units."""
        if self.mode != MODE_EDIT:
            return None
        info = self._shown_asset(asset_id)
        if info is None:
            return None
        aid = info.asset_id
        text = str(value if value is not None else "").strip()[:24]
        plain = text.replace(",", "").replace(" ", "")
        if not WHOLE_UNITS.fullmatch(plain):
            self._invalid = {**self._invalid, aid: text}
            self._render()
            return None
        units = int(plain)
        if aid in self._invalid:
            self._invalid = {k: v for k, v in self._invalid.items() if k != aid}
            self._render()
        if units == self._requested(aid):
            return None
        if self.recalculating:
            return self._busy_editing()
        return self._push(self._current() + (TargetEdit(asset_id=aid, code=info.code, target_units=Decimal(units)),))

    @rx.event
    def commit_units(self, asset_id: Any, value: Any):
        return self._commit(asset_id, value)

    @rx.event
    def submit_units(self, form: dict[str, Any]):
        """Enter in a units field (its form carries the asset id)."""
        return self._commit(form_id(form, "asset_id"), form_text(form, "units"))

    def _add(self, code: Any, class_id: Any, asset_id: Any = None):
        if self.mode != MODE_EDIT:
            return None
        cid = _int(class_id)
        result = self._shown_view.result if self._shown_view else None
        if not cid or result is None or cid not in {c.id for c in result.classes}:
            return None
        code_text = str(code or "").strip().upper()[:CODE_MAX]
        if not code_text:
            return toast_error(CODE_REQUIRED)
        if self.recalculating:
            return self._busy_editing()
        return self._push(self._current() + (TargetEdit(asset_id=_int(asset_id), code=code_text, class_id=cid),))

    @rx.event
    def add_asset(self, form: dict[str, Any]):
        """'Add asset' of a class: an asset code (uppercased) added to that class."""
        return self._add(form_text(form, "code"), form_id(form, "class_id"))

    @rx.event
    def open_picker(self, class_id: Any):
        """The asset picker for a class, in the portfolio's firm."""
        cid = _int(class_id)
        if self.mode != MODE_EDIT or not cid:
            return None
        if self.recalculating:
            return self._busy_editing()
        title = next((c.title for c in self.classes if c.id == cid), "")
        return AssetPickerState.open_for(f"class:{cid}", self._portfolio_firm_id or None, cid,
                                         f"Add asset to {title}" if title else "Add asset")

    @rx.event
    async def asset_picked(self, target: str):
        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, target)
        if asset is None or not str(target).startswith("class:"):
            return None
        return self._add(asset["code"], str(target)[len("class:"):], asset["id"])

    @rx.event
    def ask_remove(self, asset_id: Any):
        """Remove of an asset whose target reached zero (001 s4) asks first (002 s8)."""
        info = self._shown_asset(asset_id)
        if self.mode != MODE_EDIT or info is None or whole(info.target_units) != 0:
            return None
        if self.recalculating:
            return self._busy_editing()
        self._ask_to("remove", info.asset_id)
        return None

    def _remove(self, aid: int):
        """An added asset leaves with its edits; any other is set to zero units."""
        info = self._shown_asset(aid)
        if self.mode != MODE_EDIT or info is None:
            return None
        if self.recalculating:
            return self._busy_editing()
        self._invalid = {k: v for k, v in self._invalid.items() if k != aid}
        if info.kind == "added":
            edits = tuple(e for e in self._current() if self._entry_asset(e) != aid)
        else:
            edits = self._current() + (TargetEdit(asset_id=aid, code=info.code, target_units=ZERO),)
        return self._push(edits)

    @rx.event
    def undo(self):
        if self.mode != MODE_EDIT or len(self._history) <= 1:
            return None
        if self.recalculating:
            return self._busy_editing()
        self._history = self._history[:-1]
        return self._recalculate()

    @rx.event
    @guarded
    def save_edit(self):
        """Save: a new version with the edits (001 s5/s8)."""
        if self.mode != MODE_EDIT or self.saving:
            return
        leave = self._leave_after_save
        self._leave_after_save = False
        if self.recalculating:
            yield toast_warning(advice.RECALCULATING)
            return
        if self._invalid:
            yield toast_error(advice.VALIDATE_FIRST)
            return
        self.saving = True
        yield
        try:
            actor = self._actor()
            message = target_portfolios.save_edit(actor=actor, tp_id=self.tp_id, row_version=self._row_version,
                                                  edits=self._current()).message
        finally:
            self.saving = False
        self._reset_edit()
        if leave and self.leave_to:
            yield [toast_success(message), rx.redirect(self.leave_to)]
            return
        if self.viewing_version:  # the saved version is the current one: show it at its own address
            yield [toast_success(message), rx.redirect(routes.url(self.SCREEN, id=self.portfolio_id))]
            return
        self._load(actor)
        yield toast_success(message)

    @rx.event
    def save_and_leave(self):
        """Save of the unsaved-changes dialog: save the edits, then go where the user was going."""
        self.leave_open = False
        if self.mode != MODE_EDIT:
            return AppState.discard_and_leave
        self._leave_after_save = True
        return TargetPortfolioState.save_edit

    @rx.event
    @guarded
    def cancel_edit(self):
        """Cancel leaves the edit mode; with changes it asks first (Save, Don't Save, Cancel)."""
        if self.mode != MODE_EDIT:
            return None
        if self.edit_steps or self._invalid:
            # Don't Save reloads this page, which shows the version as stored
            self.leave_to = self.router.url.path or routes.url(self.SCREEN, id=self.portfolio_id)
            self.leave_open = True
            return None
        recalculated = self._recalculated_shown
        self._reset_edit()
        if recalculated:  # a step's result was shown: the stored version again, as stored
            self._load(self._actor())
        else:  # nothing but the stored version was shown: shown again without the edit mode
            self._render()

    # ---- the commentary --------------------------------------------------------------------------------
    def _comment(self, kind: str) -> CommentBox:
        return self.market if kind == "market" else self.recommendation

    def _put_comment(self, kind: str, box: CommentBox) -> None:
        if kind == "market":
            self.market = box
        else:
            self.recommendation = box

    @rx.event
    def set_comment(self, kind: str, value: str):
        if kind in advice.COMMENT_TYPES:
            self._put_comment(kind, dataclasses.replace(self._comment(kind), html=str(value or "")))

    @rx.event
    def save_comment(self, kind: str, html: str | None = None):
        """Save the commentary of `kind`: `html` as the editor holds it at the click (else the last
        one it handed over)."""
        if kind not in advice.COMMENT_TYPES or not self.tp_id:
            return
        box = self._comment(kind)
        self._put_comment(kind, dataclasses.replace(box, html=html if isinstance(html, str) else box.html,
                                                    feedback=COMMENT_UPDATING, tone="updating"))
        yield
        box = self._comment(kind)
        try:
            saved = target_portfolios.save_comment(actor=self._actor(), tp_id=self.tp_id, type=kind,
                                                   description=box.html, comment_id=box.id or None)
        except DomainError as exc:
            box = dataclasses.replace(box, feedback=exc.message or LOAD_FAILED, tone="error")
        else:
            box = dataclasses.replace(box, id=saved.id, html=saved.description, shown=saved.description,
                                      feedback=COMMENT_SAVED, tone="saved")
        self._put_comment(kind, dataclasses.replace(box, run=box.run + 1))
        yield TargetPortfolioState.clear_feedback(kind, box.run + 1)

    @rx.event(background=True)
    async def clear_feedback(self, kind: str, run: int):
        """The feedback line goes away after about 3 seconds (002 s8)."""
        await asyncio.sleep(FEEDBACK_SECONDS)
        if kind not in advice.COMMENT_TYPES:
            return
        async with self:
            box = self._comment(kind)
            if run == box.run:
                self._put_comment(kind, dataclasses.replace(box, feedback="", tone=""))


# ---- portfolios.target-portfolio-versions ---------------------------------------------------------
class TPVersionsState(AdviceVersions, AppState):
    """portfolios.target-portfolio-versions; Cancel goes to the current target portfolio (superuser,
    adviser) or the last approved one (others) - the service decides which one it shows."""

    SCREEN = "portfolios.target-portfolio"

    rows: list[VersionRow] = []

    def _versions(self, actor: Actor, limit: int, offset: int) -> tuple[list[VersionRow], int]:
        page = target_portfolios.versions(actor=actor, investment_id=self.portfolio_id, limit=limit, offset=offset,
                                          order="desc")
        return [version_row(self.portfolio_id, r) for r in page.rows], page.total

    @rx.var
    def count_text(self) -> str:
        return count_of(self.total, "version")
