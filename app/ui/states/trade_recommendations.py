"""reports.trade-recommendations (spec 001 s2-s9): the firm's trade recommendations report in two
views.

- Trade file: every approved trade recommendation not executed yet, and the orders already placed
  (app.services.trade_file.generate). A superuser picks a firm ('All Firms', -2) and presses Load;
  everyone else reads their own firm on page load. The rows are read once per load and filtered,
  sorted (investment name ascending by default) and paged (20, 50, 100; 100 by default) here, from
  memory. Rows are selected on load by the domain rule. The adjustments (which rows, price gap,
  the last-close-vs-limit filter, rounding, pending amounts, expiry date) are validated and
  computed by app.domain.engine.trade_file: invalid inputs show their texts and change nothing;
  applying asks first, and 'Filter is not found!' when no row matches. The broker files (trade
  file, Desktop Broker, AUSIEX) are built by the service with the rows' quantities, prices and
  expiry dates, sent to the browser, and the report is read again so that the sent rows show as
  Placed.
- Approval: an adviser's newest trade recommendations by portfolio
  (app.services.trade_approval_report): a superuser picks an active adviser, advisers and
  administrators read their own; status filters spv / spa / sad (sad only by default); Validate
  the chosen portfolios, Approve / Decline each pending item (or Approve all) and Confirm; Excel
  (standart, simple) and PDF links. Unconfirmed decisions hold the page: leaving it in the app asks
  first (the layout's leave dialog), and so does closing or reloading the tab (beforeunload).

Every handler resolves the acting user from the token and calls the services, which check the role
and the firm; what the flags here hide is a courtesy. Row keys and ids sent by the browser are only
looked up among the rows this state holds."""
from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import date
from decimal import Decimal
from typing import Any, ClassVar
from urllib.parse import urlencode

import reflex as rx

from app.db.types import utcnow
from app.domain import orders as order_rules, validators
from app.domain.advice import texts as advice_texts
from app.domain.engine import trade_file as rules
from app.domain.errors import DomainError
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.parsing import firm_choice
from app.services import firms as firm_service
from app.services import trade_approval_report as approval_service
from app.services import trade_file as trade_file_service
from app.services import users as user_service
from app.ui.display import count_of, day, money
from app.ui.parse import positive_int
from app.ui.rows.trade_recommendations import (
    ADJUSTMENT_ERROR_FIELDS, NO_ROUNDING, AdjustmentErrors, AdjustmentInputs, ApprovalLine, CashView, Change,
    FileRowView, approval_lines, cash_view, decimal_or_none, file_row_view, matches, sort_value,
)
from app.ui.states.base import AppState, toast_error, toast_success, toast_warning
from app.ui.toolkit.lists import FirmChoice, ListControls
from app.ui.toolkit.rows import Option, field_errors, offers
from app.ui.toolkit.screen import Confirm, ExportLinks, events, guarded, screen_load

PAGE_SIZES = [str(n) for n in rules.PAGE_SIZES]
FILE_VIEW, APPROVAL_VIEW = "file", "approval"
# in the address: the view, and the approval view's statuses (comma separated) and order
VIEW_KEY, APPROVAL_STATUS_KEY, APPROVAL_ORDER_KEY = "view", "status", "approval_order"
ALL_STATUSES = "all"
# the trade file's status filter: every row, those not placed yet (Approved), those placed
FILE_STATUS_OPTIONS = [Option(ALL_STATUSES, "All statuses"), Option(rules.STATUS_APPROVED, rules.STATUS_APPROVED),
                       Option(rules.STATUS_PLACED, rules.STATUS_PLACED)]
SORT_KEYS = ("investment_name", "broker_name", "action", "asset_code", "amount", "pending_amount", "quantity",
             "limit_price", "last_close_price", "limit_vs_price_percentage", "type", "status", "expiry")
EXPIRY_ERROR = "The expiry date must be today or later"   # key earlier_than_today (001 s5)
EXPORT_LABELS = {order_rules.TRADE_FILE: "Trade file", order_rules.DESKTOP_BROKER: "Desktop Broker",
                 order_rules.AUSIEX: "AUSIEX"}
GAP_LABELS = {rules.GAP_PERCENTAGE: "Percentage", rules.GAP_VALUE: "Value"}
# the adjustments' choices (apply to, price gap by, rounding, multiple): each one's values
ADJ_CHOICES: dict[str, frozenset[str]] = {
    "action": frozenset(rules.ADJUSTMENT_ACTIONS), "gap_type": frozenset(rules.GAP_TYPES),
    "rounding": frozenset({NO_ROUNDING, *rules.ROUNDING_METHODS}),
    "multiple": frozenset(str(m) for m in rules.ROUNDING_MULTIPLES)}
# the adjustments' text boxes: each one's error (cleared as it changes) and longest text
ADJ_TEXTS = {"limit_percentage": ("limit_vs_last_percentage", 20), "limit_value": ("limit_vs_last_value", 20),
             "expiry": ("expiry", 10)}
APPROVAL_EXPORT = "/api/reports/trade-instructions-export"  # -excel | -pdf
APPROVAL_ORDERS = (("investment_name", "Portfolio name"), ("status", "Status"), ("created_at", "Newest first"))
DECISIONS = ("approved", "declined")
PICK_ADVISER = "Select an adviser to see their trade recommendations."
# The browser's own prompt when the tab is closed or reloaded with unconfirmed decisions. It reads
# the page's marker element, so it asks only on this screen and only while decisions are pending.
LEAVE_GUARD_JS = """
if (!window.__tradeRecommendationsGuard) {
  window.__tradeRecommendationsGuard = true;
  window.addEventListener('beforeunload', function (event) {
    var marker = document.getElementById('unconfirmed-decisions');
    if (marker && marker.dataset.unconfirmed === 'true') { event.preventDefault(); event.returnValue = ''; }
  });
}
"""


# ---- reports.trade-recommendations: the trade file view (and the page's view switch) ------------------
class TradeFileState(Confirm, FirmChoice, ListControls, AppState):
    """Paged from memory: `total` counts the rows matching the filter box and the status filter,
    `file_total` the file's. The view and the status filter are in the address with the page."""

    SORT_KEYS: ClassVar[tuple[str, ...]] = SORT_KEYS
    ADDRESS_FILTERS: ClassVar[dict[str, Any]] = {
        "view": lambda v: v if v in (FILE_VIEW, APPROVAL_VIEW) else None,
        "file_status": lambda v: v if offers(FILE_STATUS_OPTIONS, v) else None,
    }
    PAGE_SIZES: ClassVar[tuple[int, ...]] = rules.PAGE_SIZES
    DEFAULT_SIZE: ClassVar[int] = rules.DEFAULT_PAGE_SIZE

    view: str = FILE_VIEW
    file_status: str = ALL_STATUSES
    file_status_options: list[Option] = FILE_STATUS_OPTIONS
    loading: bool = True            # skeleton rows until the first load (a superuser's: until Load)
    loaded: bool = False            # a superuser loads by hand; nothing is shown before
    error: str = ""
    rows: list[FileRowView] = []
    cash: list[CashView] = []
    sort: str = rules.DEFAULT_SORT
    page_size: str = str(rules.DEFAULT_PAGE_SIZE)
    file_total: int = 0             # rows in the file (shown ones)
    placed_count: int = 0
    selected_count: int = 0
    all_selected: bool = False      # every row matching the filter is selected
    download_all: bool = False
    exporting: str = ""             # the kind of file being built

    adj: AdjustmentInputs = AdjustmentInputs()
    adj_errors: AdjustmentErrors = AdjustmentErrors()
    adjusted_count: int = 0
    today: str = ""

    _file: tuple[trade_file_service.TradeFileRow, ...] = ()  # the rows shown of the last load
    _changes: dict[int, Change] = {}        # recommendation id -> what the adjustments made of it
    _selected: set[int] = set()
    _cash: dict[int, trade_file_service.CashSummaryRow] = {}  # by portfolio
    _default_expiry: dict[int, date | None] = {}  # by firm: an order's expiry when none is chosen

    # ---- loading ------------------------------------------------------------------------------------
    def _reset_adjustments(self) -> None:
        self.adj, self.adj_errors = AdjustmentInputs(), AdjustmentErrors()
        self.confirm_open = False

    def _load(self, actor: Actor, keep_selection: bool = False):
        """Reads the file again; adjustments start over (placed rows changed), and so does the
        selection unless a download asks to keep it."""
        self.loading = True
        self._changes = {}
        keep = set(self._selected) if keep_selection else None
        try:
            report = trade_file_service.generate(actor=actor, firm_id=firm_choice(self._firm_id()))
        except DomainError as exc:
            self._hold((), exc.message)
            return self._fail(exc)
        self._cash = {c.investment_id: c for c in report.cash}
        self._default_expiry = report.default_expiry
        self._hold(tuple(r for r in report.rows if not r.hidden), "", keep)
        return None

    def _hold(self, shown: tuple[trade_file_service.TradeFileRow, ...], error: str,
              keep: set[int] | None = None) -> None:
        """The rows read (none after a failure), selected by the domain rule (or, after a download,
        as the user left them), and the page of them."""
        self._file = shown
        if keep is None:
            self._selected = {r.recommendation_id for r in shown if r.selected}
        else:
            self._selected = {r.recommendation_id for r in shown if r.recommendation_id in keep}
        self.file_total = len(shown)
        self.placed_count = sum(1 for r in shown if r.status == rules.STATUS_PLACED)
        self.error, self.loading, self.loaded = error, False, True
        self._show()

    def _visible(self) -> list[trade_file_service.TradeFileRow]:
        """The rows matching the filter box, in the chosen order (ties by portfolio and code; empty
        values last whatever the direction)."""
        term = self.search.strip().lower()
        key = self.sort if self.sort in SORT_KEYS else rules.DEFAULT_SORT
        changes = self._changes
        status = self.file_status if self.file_status != ALL_STATUSES else ""
        found = sorted((r for r in self._file if matches(r, term) and (not status or r.status == status)),
                       key=lambda r: (r.investment_name.lower(), r.asset_code))
        keyed = [(sort_value(r, changes.get(r.recommendation_id), key), r) for r in found]
        present = sorted((pair for pair in keyed if pair[0] is not None), key=lambda pair: pair[0],
                         reverse=self.order == "desc")
        return [r for _, r in present] + [r for value, r in keyed if value is None]

    def _show(self) -> None:
        """The current page of the filtered, sorted rows, and the cash of their portfolios."""
        found = self._visible()
        self.total = len(found)
        self._clamp_page()
        shown = found[self._offset():self._offset() + self._limit()]
        selected, changes = self._selected, self._changes
        self.rows = [file_row_view(r, changes.get(r.recommendation_id), r.recommendation_id in selected,
                                   self._default_expiry) for r in shown]
        portfolios = list(dict.fromkeys(r.investment_id for r in shown))
        self.cash = [cash_view(self._cash[pid]) for pid in portfolios if pid in self._cash]
        self.selected_count = len(selected)
        self.all_selected = bool(found) and all(r.recommendation_id in selected for r in found)
        self.adjusted_count = len(changes)

    def _reload(self):
        """Paged and ListControls: the page, filter, sort or page size changed: shown from memory."""
        self._show()

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.reset()
        self.today = utcnow().date().isoformat()
        self._load_firms(actor)
        # a link to the approval view (a dashboard card's) opens it at once
        approval = TradeApprovalState.open if self._query_text(VIEW_KEY) == APPROVAL_VIEW else None
        if actor.is_superuser:
            self.loading = False
            if self._take_address() and self.firm_filter != self.ALL_FIRMS:
                return events(self._load(actor), approval)  # a link naming the firm (a dashboard card's)
            return events(approval)  # 001 s6: the superuser picks a firm and loads
        return events(self._load(actor), approval)

    @rx.event
    def set_view(self, value: str):
        if value not in (FILE_VIEW, APPROVAL_VIEW):
            return None
        self.view = value
        return [self._keep_address()] + ([TradeApprovalState.open] if value == APPROVAL_VIEW else [])

    @rx.event
    def set_file_status(self, value: str):
        if not offers(FILE_STATUS_OPTIONS, value):
            return None
        self.file_status = value
        return self._reload_first_page()

    def _firm_chosen(self):
        """Another firm was chosen (FirmChoice): the superuser loads it with Load."""
        return None

    @rx.event
    @guarded
    def load(self):
        actor = self._actor()
        self.page, self.loading, self.rows, self.cash = 1, True, [], []
        yield
        yield self._load(actor)

    # ---- table --------------------------------------------------------------------------------------
    @rx.event
    def toggle_row(self, row_id: Any):
        rid = positive_int(row_id)
        if rid is None or not any(r.recommendation_id == rid for r in self._file):
            return
        self._selected = self._selected ^ {rid}
        self._show()

    @rx.event
    def toggle_all(self, _checked: Any = None):
        """Selects every row matching the filter (all pages), or clears them when all are selected."""
        ids = {r.recommendation_id for r in self._visible()}
        self._selected = (self._selected - ids) if ids and ids <= self._selected else (self._selected | ids)
        self._show()

    @rx.event
    def set_download_all(self, value: bool):
        self.download_all = bool(value)

    @rx.var
    def showing(self) -> str:
        trades = count_of(self.file_total, "trade")
        if self.total != self.file_total:
            trades = f"{self.total} of {trades}"
        return f"{trades}, {self.placed_count} placed, {self.selected_count} selected"

    # ---- adjustments --------------------------------------------------------------------------------
    def _clear(self, *keys: str) -> None:
        self.adj_errors = dataclasses.replace(self.adj_errors, **{k: "" for k in keys})

    def _adjust(self, **typed: Any) -> None:
        self.adj = dataclasses.replace(self.adj, **typed)

    def _set_text(self, field: str, value: str, error_key: str, cap: int = 20) -> None:
        self._adjust(**{field: str(value or "")[:cap]})
        self._clear(error_key)

    @rx.event
    def set_adj_choice(self, key: str, value: str | list[str]):
        """One of ADJ_CHOICES: only a value it offers is taken."""
        if isinstance(value, str) and value in ADJ_CHOICES.get(key, ()):
            self._adjust(**{key: value})

    @rx.event
    def set_adj_text(self, key: str, value: str):
        """One of ADJ_TEXTS' boxes typed."""
        if key in ADJ_TEXTS:
            error_key, cap = ADJ_TEXTS[key]
            self._set_text(key, value, error_key, cap)

    @rx.event
    def set_adj_gap(self, value: str):
        if self.adj.gap_type == rules.GAP_VALUE:
            self._set_text("gap_value", value, "price_gap_value")
        else:
            self._set_text("gap_percentage", value, "price_gap_percentage")

    @rx.event
    def set_adj_filter_on(self, value: bool):
        self._adjust(filter_on=bool(value))
        if not value:
            self._clear("limit_vs_last_percentage", "limit_vs_last_value")

    @rx.event
    def set_adj_use_pending(self, value: bool):
        self._adjust(use_pending=bool(value))

    def _show_errors(self, errors: dict[str, str]) -> None:
        self.adj_errors = AdjustmentErrors(**field_errors(errors, ADJUSTMENT_ERROR_FIELDS))

    def _adjustment_errors(self) -> dict[str, str]:
        adj = self.adj
        errors = rules.adjustment_errors(
            price_gap_percentage=adj.gap_percentage.strip(), price_gap_value=adj.gap_value.strip(),
            limit_vs_last_percentage=adj.limit_percentage.strip(),
            limit_vs_last_value=adj.limit_value.strip(), filter_on=adj.filter_on)
        if adj.expiry:
            expiry = validators.parse_date(adj.expiry)
            if expiry is None:
                errors["expiry"] = validators.DATE
            elif rules.expiry_error(expiry, utcnow().date()):
                errors["expiry"] = EXPIRY_ERROR
        return errors

    @rx.event
    def ask_adjust(self):
        """Apply: invalid inputs show their texts and change nothing; valid ones are asked about."""
        errors = self._adjustment_errors()
        self._show_errors(errors)
        if not errors:
            self._ask("adjust", rules.CONFIRM_ADJUSTMENTS, label="Apply")

    def _confirmed(self, action: str, _target: int):
        if action.startswith("export:"):
            return TradeFileState.place_orders(action.split(":", 1)[1])
        errors = self._adjustment_errors()
        if errors:
            self._show_errors(errors)
            return None
        adj = self.adj
        gap_type = adj.gap_type
        gap = decimal_or_none(adj.gap_value if gap_type == rules.GAP_VALUE else adj.gap_percentage)
        adjustments = rules.Adjustments(
            use_pending_amounts=adj.use_pending,
            rounding_method=None if adj.rounding == NO_ROUNDING else adj.rounding,
            rounding_multiple=None if adj.rounding == NO_ROUNDING else int(adj.multiple),
            price_gap_type=gap_type if gap else None, price_gap=gap or Decimal(0), action=adj.action)
        limit_pct = decimal_or_none(adj.limit_percentage) if adj.filter_on else None
        limit_value = decimal_or_none(adj.limit_value) if adj.filter_on else None
        expiry = validators.parse_date(adj.expiry) if adj.expiry else None
        changes = dict(self._changes)
        matched = 0
        for row in self._file:
            if row.placed_transaction_id is not None:
                continue  # a placed order is the broker's now
            file_row = row.file_row()
            if not rules.applies_to(adjustments.action, file_row.action):
                continue
            if adj.filter_on and not rules.exceeds_gap(rules.file_line(file_row), limit_pct, limit_value):
                continue
            line = rules.file_line(file_row, adjustments)
            matched += 1
            changes[row.recommendation_id] = Change(
                quantity=line.quantity, price=line.price if adjustments.price_gap_type else None, expiry=expiry,
                amount=line.pending_amount if adjustments.use_pending_amounts else row.amount)
        if not matched:
            return toast_warning(rules.FILTER_NOT_FOUND)
        self._changes = changes
        self._show()
        return toast_success(f"Adjusted {count_of(matched, 'trade recommendation')}")

    @rx.event
    def reset_adjustments(self):
        self._changes = {}
        self._reset_adjustments()
        self._show()

    @rx.var
    def adj_gap(self) -> str:
        return self.adj.gap_value if self.adj.gap_type == rules.GAP_VALUE else self.adj.gap_percentage

    @rx.var
    def adj_gap_error(self) -> str:
        errors = self.adj_errors
        return errors.price_gap_value if self.adj.gap_type == rules.GAP_VALUE else errors.price_gap_percentage

    # ---- export -------------------------------------------------------------------------------------
    def _lines(self) -> list[trade_file_service.ExportLine]:
        """The selected rows as the export takes them, with the adjustments applied to them."""
        out = []
        for row in self._file:
            if row.recommendation_id not in self._selected:
                continue
            change = self._changes.get(row.recommendation_id)
            out.append(trade_file_service.ExportLine(row.recommendation_id, None, None, None, None) if change is None
                       else trade_file_service.ExportLine(row.recommendation_id, change.quantity, change.price,
                                                          change.amount, change.expiry))
        return out

    def _export_args(self, kind: str) -> dict[str, Any]:
        return dict(actor=self._actor(), kind=kind, firm_id=firm_choice(self._firm_id()),
                    lines=self._lines(), download_all=self.download_all)

    def _nothing_chosen(self) -> bool:
        return not self._selected and not self.download_all

    @rx.event
    @guarded
    async def export(self, kind: str):
        """Asks before orders go live: "Place N orders with BROKER for M portfolios?" with their
        totals, the expiry they get and what the file leaves out. A file that places nothing (the
        placed orders again) is written at once."""
        if kind not in order_rules.FILE_KINDS or self.exporting:
            return
        if self._nothing_chosen():
            yield toast_error(order_rules.NOTHING_SELECTED)
            return
        self.exporting = kind
        yield
        try:
            plan = await asyncio.to_thread(trade_file_service.plan_export, **self._export_args(kind))
        finally:
            self.exporting = ""
        if not plan.asks:  # only the orders already with the broker, written again: nothing changes
            yield TradeFileState.place_orders(kind)
            return
        parts = [plan.question, f"Buys {money(plan.buys)}, sells {money(plan.sells)}."]
        parts.append(f"Orders without an expiry date of their own expire on {day(plan.default_expiry)}."
                     if plan.default_expiry else "Orders without an expiry date of their own are good till cancelled.")
        parts += list(plan.left_out)
        self._ask(f"export:{kind}", "\n".join([" ".join(parts[:3])] + parts[3:]), label="Place orders")

    @rx.event
    @guarded
    async def place_orders(self, kind: str):
        """Builds the broker file of the selected rows (with the already placed orders too when
        'download all' is on), places what it sends, sends it to the browser, says what it left out,
        and reads the report again keeping the selection."""
        if kind not in order_rules.FILE_KINDS or self.exporting or self._nothing_chosen():
            return
        args = self._export_args(kind)
        self.exporting = kind
        yield
        try:
            result = await asyncio.to_thread(trade_file_service.export, **args)
        finally:
            self.exporting = ""
        done = f"{order_rules.FILE_TITLES[kind]}: {count_of(result.placed, 'order')} placed"
        done += f", {result.amended:,} amended" if result.amended else ""
        done += f", {result.cancelled:,} cancelled" if result.cancelled else ""
        told = [toast_success(done)]
        told += [toast_warning(text) for text in result.left_out]
        yield events(rx.download(data=result.data, filename=result.name, mime_type=result.media_type),
                     *told, self._load(args["actor"], keep_selection=True))

    @rx.event
    @guarded
    async def preview(self, kind: str):
        """The file as it would be sent, to look at: nothing is placed."""
        if kind not in order_rules.FILE_KINDS or self.exporting:
            return
        if self._nothing_chosen():
            yield toast_error(order_rules.NOTHING_SELECTED)
            return
        args = self._export_args(kind)
        self.exporting = kind
        yield
        try:
            result = await asyncio.to_thread(trade_file_service.export, preview=True, **args)
        finally:
            self.exporting = ""
        yield events(rx.download(data=result.data, filename=result.name, mime_type=result.media_type),
                     toast_success(f"Preview of the {order_rules.FILE_TITLES[kind]}: nothing was placed"),
                     *[toast_warning(text) for text in result.left_out])


# ---- reports.trade-recommendations: the approval view ------------------------------------------------------
class TradeApprovalState(Confirm, ExportLinks, AppState):
    opened: bool = False            # the view was opened since the page loaded
    loading: bool = False
    error: str = ""
    show_adviser: bool = False      # the superuser's adviser choice
    adviser: str = ""
    adviser_options: list[Option] = []
    spv: bool = False               # 001 s9 defaults: spv off, spa off, sad on
    spa: bool = False
    sad: bool = True
    order: str = "investment_name"
    lines: list[ApprovalLine] = []
    groups: int = 0
    busy: bool = False              # validating or confirming: the page's Validate and Confirm show it

    _approve_all: bool = False
    _answer: str = ""               # what the dialog confirmed, for `answer` to run

    # ---- loading ------------------------------------------------------------------------------------
    @rx.event
    def on_load(self):
        """Page load: nothing is read until the view is opened."""
        self.reset()
        return rx.call_script(LEAVE_GUARD_JS)

    @rx.event
    @guarded
    def open(self):
        if self.opened:
            return None
        actor = self._actor()
        refused = self._send_client_home(actor)
        if refused:
            return refused
        self.opened = True
        self.show_adviser = actor.is_superuser
        # the address may name the statuses and the order (a dashboard card's link: what it counted;
        # the browser's Back or a reload: as the view was left)
        named = [k for k in self._query_text(APPROVAL_STATUS_KEY).split(",") if k]
        if named and all(k in approval_service.STATUS_FILTERS for k in named):
            self.spv, self.spa, self.sad = (key in named for key in ("spv", "spa", "sad"))
        order = self._query_text(APPROVAL_ORDER_KEY)
        if order in approval_service.ORDERS:
            self.order = order
        if actor.is_superuser:
            self._load_advisers(actor)
            return None  # 001 s6: the superuser picks an active adviser
        return self._load(actor)

    def _load_advisers(self, actor: Actor) -> None:
        """Active advisers by name (with their firm, as a superuser sees every firm)."""
        try:
            found = user_service.list_user_summaries(actor=actor, roles=[Role.ADVISER.value], statuses=["active"],
                                                     sort="name", order="asc", limit=1000).rows
            firms = {f.id: f.name for f in firm_service.firm_options(actor=actor)}
        except DomainError:
            self.adviser_options = []
            return
        self.adviser_options = [Option(value=str(u.id), label=f"{u.name} ({firms[u.firm_id]})"
                                       if u.firm_id in firms else u.name) for u in found]

    def _statuses(self) -> list[str]:
        return [key for key, on in (("spv", self.spv), ("spa", self.spa), ("sad", self.sad)) if on]

    def _load(self, actor: Actor):
        """Reads the report; the decisions not confirmed yet stay on the items that still await one."""
        chosen = {line.key: line.choice for line in self.lines if line.choice}
        statuses = self._statuses()
        if not statuses or (self.show_adviser and not self.adviser):
            self._hold([], 0, "")
            return None
        self.loading = True
        try:
            groups = approval_service.generate(actor=actor, adviser=approval_service.read_adviser(self.adviser),
                                               order=self.order,
                                               statuses=statuses)
        except DomainError as exc:
            self._hold([], 0, exc.message)
            return self._fail(exc)
        lines = approval_lines(groups)
        checked = {line.ti_id for line in self.lines if line.is_group and line.checked}
        for i, line in enumerate(lines):
            if line.is_group and line.can_validate and line.ti_id in checked:
                lines[i] = dataclasses.replace(line, checked=True)
            elif line.awaiting and chosen.get(line.key) in DECISIONS:
                lines[i] = dataclasses.replace(line, choice=chosen[line.key])
        self._hold(lines, len(groups), "")
        return None

    def _hold(self, lines: list[ApprovalLine], groups: int, error: str) -> None:
        """The lines shown (none after a failure); decisions among them hold the page."""
        self.lines, self.groups, self.error, self.loading = lines, groups, error, False
        self._set_dirty(self._decided() > 0)

    @guarded
    def _refresh(self):
        return self._load(self._actor())

    def _set_dirty(self, value: bool) -> None:
        """Unconfirmed decisions hold the page (the layout's leave dialog and beforeunload)."""
        self.form_dirty = value
        if not value:
            self.leave_open = False

    # ---- toolbar ------------------------------------------------------------------------------------
    @rx.event
    def set_adviser(self, value: str):
        if not self.show_adviser or not offers(self.adviser_options, value):
            return None
        self.adviser = value
        return self._refresh()

    @rx.event
    def set_status(self, key: str, value: bool):
        if key not in approval_service.STATUS_FILTERS:
            return None
        setattr(self, key, bool(value))
        return events(self._refresh(), self._keep_address())

    @rx.event
    def set_order(self, value: str):
        if value not in approval_service.ORDERS:
            return None
        self.order = value
        return events(self._refresh(), self._keep_address())

    def _keep_address(self) -> Any:
        """The browser's address follows the view's statuses and order (no new history entry)."""
        query = {k: v for k, v in (self.router.url.query_parameters or {}).items()
                 if k not in (VIEW_KEY, APPROVAL_STATUS_KEY, APPROVAL_ORDER_KEY) and isinstance(v, str)}
        query[VIEW_KEY] = APPROVAL_VIEW
        query[APPROVAL_STATUS_KEY] = ",".join(self._statuses())
        if self.order != type(self).get_fields()["order"].default:
            query[APPROVAL_ORDER_KEY] = self.order
        address = self.router.url.path + f"?{urlencode(query)}"
        return rx.call_script(f"window.history.replaceState(window.history.state, '', {json.dumps(address)})")

    @rx.event
    def refresh(self):
        return self._refresh()

    # ---- choosing -----------------------------------------------------------------------------------
    def _decided(self) -> int:
        return sum(1 for line in self.lines if line.awaiting and line.choice in DECISIONS)

    @rx.event
    def toggle_group(self, key: str):
        self.lines = [dataclasses.replace(line, checked=not line.checked)
                      if line.key == key and line.is_group and line.can_validate else line for line in self.lines]

    @rx.event
    def toggle_all_groups(self, _checked: Any = None):
        every = all(line.checked for line in self.lines if line.is_group and line.can_validate)
        self.lines = [dataclasses.replace(line, checked=not every) if line.is_group and line.can_validate else line
                      for line in self.lines]

    @rx.event
    def choose(self, key: str, decision: str):
        """Approve or Decline one item (the chosen one again takes the choice back)."""
        if decision not in DECISIONS:
            return
        self._approve_all = False
        self.lines = [dataclasses.replace(line, choice="" if line.choice == decision else decision)
                      if line.key == key and line.awaiting else line for line in self.lines]
        self._set_dirty(self._decided() > 0)

    @rx.event
    def approve_all(self):
        if not any(line.awaiting for line in self.lines):
            return
        self.lines = [dataclasses.replace(line, choice="approved") if line.awaiting else line for line in self.lines]
        self._approve_all = True
        self._set_dirty(True)

    @rx.var
    def decided_count(self) -> int:
        return self._decided()

    @rx.var
    def awaiting_count(self) -> int:
        return sum(1 for line in self.lines if line.awaiting)

    @rx.var
    def validatable_count(self) -> int:
        return sum(1 for line in self.lines if line.is_group and line.can_validate)

    @rx.var
    def checked_count(self) -> int:
        return sum(1 for line in self.lines if line.is_group and line.checked)

    @rx.var
    def showing(self) -> str:
        return count_of(self.groups, "portfolio")

    @rx.var
    def empty_text(self) -> str:
        if self.show_adviser and not self.adviser:
            return PICK_ADVISER
        if not (self.spv or self.spa or self.sad):
            return "Choose at least one status to see trade recommendations."
        return "No trade recommendations in these statuses."

    # ---- validate and confirm -----------------------------------------------------------------------
    @rx.event
    def ask_validate(self):
        if not any(line.checked for line in self.lines if line.is_group):
            return self._run("validate")  # nothing to ask about: the service names what is missing
        self._ask("validate", advice_texts.CONFIRM_VALIDATE, label="Validate")
        return None

    @rx.event
    def ask_confirm(self):
        if self._decided():
            self._ask("confirm", advice_texts.CONFIRM_DECISIONS, label="Confirm")

    def _confirmed(self, action: str, _target: int):
        """validate, confirm, or leave (confirm, then go where the leave dialog was going)."""
        return self._run(action)

    def _run(self, action: str):
        self._answer = action
        return TradeApprovalState.answer

    @rx.event
    async def answer(self):
        """Runs what the dialog confirmed, busy meanwhile: the busy buttons reach the browser before
        the service, which runs off the event loop, is called."""
        action, self._answer = self._answer, ""
        if not action or self.busy:
            return
        self.busy = True
        yield
        try:
            result = await (self._validate() if action == "validate" else self._confirm(leave=action == "leave"))
        finally:
            self.busy = False
        yield result

    def _outcome(self, outcome: approval_service.BulkOutcome) -> list[Any]:
        return [toast_success(outcome.message)] + [toast_error(m) for m in dict.fromkeys(outcome.failed.values())]

    async def _validate(self):
        ids = [line.ti_id for line in self.lines if line.is_group and line.checked]
        try:
            actor = self._actor()
            outcome = await asyncio.to_thread(approval_service.validate, actor=actor, trade_instructions=ids)
        except DomainError as exc:
            return events(self._fail(exc), self._refresh())
        self.lines = [dataclasses.replace(line, checked=False) if line.is_group else line for line in self.lines]
        return events(self._outcome(outcome), self._load(actor))

    async def _confirm(self, leave: bool = False):
        decided = [line for line in self.lines if line.awaiting and line.choice in DECISIONS]
        everything = all(line.choice == "approved" for line in self.lines if line.awaiting)
        by_ti: dict[int, dict[int, str]] = {}
        notes: dict[int, str] = {}
        for line in decided:
            by_ti.setdefault(line.ti_id, {})
            if line.is_note:
                notes[line.item_id] = line.choice
            else:
                by_ti[line.ti_id][line.item_id] = line.choice
        try:
            actor = self._actor()
            outcome = await asyncio.to_thread(
                approval_service.confirm, actor=actor, decisions=approval_service.Decisions(by_ti, notes),
                is_approve_all=self._approve_all and everything)
        except DomainError as exc:
            return events(self._fail(exc), self._refresh())
        self._approve_all = False
        self.lines = [dataclasses.replace(line, choice="") for line in self.lines]
        done = events(self._outcome(outcome), self._load(actor))
        if leave and self.leave_to:
            self._set_dirty(False)
            done.append(rx.redirect(self.leave_to))
        return done

    @rx.event
    def save_and_leave(self):
        """Save of the leave dialog: confirm the decisions first, then go where the user was going."""
        self.leave_open = False
        if not self._decided():
            return AppState.discard_and_leave
        self._ask("leave", advice_texts.CONFIRM_DECISIONS, label="Confirm")
        return None

    # ---- exports ------------------------------------------------------------------------------------
    @rx.var
    def can_export(self) -> bool:
        return self.opened and (self.spv or self.spa or self.sad) and (not self.show_adviser or self.adviser != "")

    def _export_path(self, kind: str, excel_mode: str = "standart") -> str:
        """A download link of the report as shown (the Excel file in its standard or simple layout)."""
        query: list[tuple[str, str]] = [("adviser", self.adviser)] if self.adviser else []
        query.append(("order", self.order))
        query.extend(("status[]", key) for key in self._statuses())
        if kind == "excel":
            query.append(("mode", excel_mode))
        return f"{APPROVAL_EXPORT}-{kind}?{urlencode(query)}"

    @rx.var
    def excel_simple_path(self) -> str:
        return self._export_path("excel", "simple")
