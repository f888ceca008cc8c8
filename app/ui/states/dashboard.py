"""dashboard: the adviser's and administrator's home - the work queues of the advice chain, the
drift of every portfolio from its model (breached first), a histogram of the breaches, and
Calculate target portfolios for the chosen portfolios or one row.

The state holds one page of rows. The drift of the whole scope is computed by the service; a
short per-process cache keyed by the user and the filters lets paging not compute it again
(loading the page or Refresh always computes it afresh)."""
from __future__ import annotations

import asyncio
import logging
import threading
import time
from functools import partial
from typing import Any, Callable, ClassVar, Mapping

import reflex as rx

from app.domain import drift as drift_rules
from app.domain.engine.trade_file import STATUS_APPROVED
from app.domain import validators as v
from app.domain.advice.target_portfolios import NOT_ENOUGH_CASH, TPStatus
from app.domain.advice.texts import SELECT_PORTFOLIO, rebalance_triggered
from app.domain.errors import GENERIC, DomainError
from app.domain.permissions import Actor, can_bulk_calculate
from app.services import bulk_runs, drift, target_portfolios
from app.domain.parsing import as_id, firm_choice
from app.ui import routes
from app.ui.display import count_of, money, percent_1dp
from app.ui.parse import to_int
from app.ui.rows.dashboard import (
    AssetRow, ClassRow, DriftDetail, DriftRow, QueueCard, WaitingItem, awaiting_client_question, band_text,
    breach_colour, difference, points_text,
)
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.bulk_progress import BulkProgressState
from app.ui.states.trade_recommendations import APPROVAL_STATUS_KEY, APPROVAL_VIEW, VIEW_KEY
from app.ui.toolkit.lists import FIRM_KEY, FirmChoice, ListControls
from app.ui.toolkit.rows import Option, label_of
from app.ui.toolkit.screen import Confirm, guarded, screen_load

log = logging.getLogger("app.ui.dashboard")

ALL = "-1"
CACHE_SECONDS = 30
RUN_POLL_SECONDS = 1.5  # how often a run started here is read until it is over
BREACH_MAX = 20


_cache: dict[tuple[object, ...], tuple[float, drift.DriftReport]] = {}
_cache_lock = threading.Lock()


def _cached_report(actor: Actor, fresh: bool, read: partial[drift.DriftReport]) -> drift.DriftReport:
    key = (actor.id, actor.role.value, actor.firm_id, tuple(sorted(read.keywords.items())))
    now = time.monotonic()
    with _cache_lock:
        for k in [k for k, (at, _) in _cache.items() if now - at > CACHE_SECONDS]:
            _cache.pop(k, None)
        hit = None if fresh else _cache.get(key)
    if hit is not None:
        return hit[1]
    report = read(actor=actor, with_assets=False)
    with _cache_lock:
        if len(_cache) > 200:
            _cache.clear()
        _cache[key] = (now, report)
    return report


def _forget(actor_id: int) -> None:
    with _cache_lock:
        for k in [k for k in _cache if k[0] == actor_id]:
            _cache.pop(k, None)


class DashboardState(Confirm, FirmChoice, ListControls, AppState):
    ADDRESS_CHOICES: ClassVar[Mapping[str, str]] = {"model_filter": "model_options", "adviser_filter": "adviser_options"}
    # the minimum breach box as the address names it, if the box would take it
    ADDRESS_FILTERS: ClassVar[Mapping[str, Callable[[str], Any]]] = {
        "min_breach": lambda text: text.strip()[:BREACH_MAX] if text.strip() and not v.positive(text.strip()) else None}
    SORT_KEYS: ClassVar[tuple[str, ...]] = drift.SORTS
    DESCENDING_FIRST: ClassVar[tuple[str, ...]] = ("breach", "value", "out_of_band")
    DEFAULT_SIZE: ClassVar[int] = 20
    ALL_FIRMS: ClassVar[str] = ALL
    ALL_FIRMS_LABEL: ClassVar[str] = "All firms"

    loading: bool = True
    queues_loading: bool = True
    error: str = ""
    can_calculate: bool = False

    model_options: list[Option] = []
    model_filter: str = ALL
    adviser_options: list[Option] = []
    adviser_filter: str = ALL
    min_breach: str = ""
    min_breach_error: str = ""

    sort: str = "breach"
    order: str = "desc"
    page_size: str = "20"

    rows: list[DriftRow] = []
    breached: int = 0
    total_value: str = ""
    histogram: list[dict[str, Any]] = []
    selected: list[int] = []

    cards: list[QueueCard] = []
    waiting: list[WaitingItem] = []

    detail: DriftDetail = DriftDetail()

    starting: bool = False
    _run_watch: int = 0             # the current follower of a run (a newer one stops older ones)
    _shown_as: tuple = ()           # the sort and page size of the rows shown (the selection is theirs)

    # ---- loading ----------------------------------------------------------------------------------
    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.loading = self.queues_loading = True
        self.error = ""
        self.rows, self.selected, self.cards, self.waiting = [], [], [], []
        self.detail = DriftDetail()
        self.page = 1
        self.starting = False
        self._shown_as = (self.sort, self.order, self.page_size)
        self.can_calculate = can_bulk_calculate(actor)
        self._load_firms(actor, keep=True)
        going = bulk_runs.active_run(actor=actor) if self.can_calculate else None
        return [DashboardState.load_queues, DashboardState.load_drift(True)] + (
            [DashboardState.watch_run(going)] if going else [])

    @rx.event
    def load_drift(self, fresh: bool = False):
        try:
            report = _cached_report(self._actor(), bool(fresh), partial(
                drift.report, firm_id=firm_choice(self._firm_id()), model_id=as_id(self.model_filter),
                adviser_id=as_id(self.adviser_filter), min_breach=drift_rules.read_min_breach(self.min_breach),
                sort=self.sort, order=self.order))
        except DomainError as exc:
            self.rows = []
            return self._fail(exc)
        finally:
            self.loading = False
        self.total, self.breached = report.count, report.breached
        self.total_value = money(report.total_value)
        self.histogram = [{"bucket": label, "portfolios": n} for label, n in report.histogram]
        self.model_options = [Option(ALL, "All models")] + [Option(str(o.id), o.name) for o in report.models]
        self.adviser_options = [Option(ALL, "All advisers")] + [Option(str(o.id), o.name) for o in report.advisers]
        self._clamp_page()
        shown = drift.page_of(report.rows, self._limit(), self._offset())
        self.rows = [DriftRow(
            id=r.investment_id, name=r.name, client=r.client_name, adviser=r.adviser_name, model=r.model_name,
            firm=label_of(self.firm_options, str(r.firm_id)) if self.show_firm else "", value=money(r.value),
            breach=points_text(r.largest_breach), breach_colour=breach_colour(r.largest_breach),
            out_of_band=r.out_of_band, url=routes.url("portfolios.target-portfolio", id=r.investment_id),
            holdings_url=routes.url("portfolios.holdings", id=r.investment_id)) for r in shown]
        return None

    @rx.event
    def load_queues(self):
        try:
            q = drift.queues(actor=self._actor(), firm_id=firm_choice(self._firm_id()))
        except DomainError as exc:
            self.queues_loading = False
            return self._fail(exc)
        # each card opens its report filtered to what it counted: the status, and the superuser's firm
        firm = {FIRM_KEY: self.firm_filter} if self.show_firm and self.firm_filter != self.ALL_FIRMS else {}
        pending = lambda **query: routes.url("reports.pending-target-portfolios", query={**query, **firm})  # noqa: E731
        approval = lambda status: routes.url("reports.trade-recommendations",  # noqa: E731
                                             query={VIEW_KEY: APPROVAL_VIEW, APPROVAL_STATUS_KEY: status})
        trade_file = routes.url("reports.trade-recommendations", query={"file_status": STATUS_APPROVED, **firm})
        oldest = lambda n, d: ("oldest today" if d == 0 else f"oldest {count_of(d, 'day')}") if n else "nothing waiting"  # noqa: E731
        to_validate = oldest(q.to_validate, q.to_validate_oldest_days)
        if not q.to_validate and q.drafts_with_advisers:  # an administrator is not shown drafts
            to_validate = f"{count_of(q.drafts_with_advisers, 'draft')} with advisers"
        # (drafts only where the report lists them)
        self.cards = [
            QueueCard("tp-validate", "Target portfolios to validate", q.to_validate, to_validate,
                      pending(status=TPStatus.DRAFT.value) if q.sees_drafts else pending(), "amber", "clipboard-check"),
            QueueCard("roa-client", "Records of advice awaiting the client", q.awaiting_client,
                      oldest(q.awaiting_client, q.awaiting_client_oldest_days), pending(status=TPStatus.VALIDATED.value),
                      "blue", "mail-check"),
            QueueCard("tr-validate", "Trade recommendations to validate", q.trades_to_validate,
                      "pending validation", approval("spv"), "amber", "list-checks"),
            QueueCard("tr-approve", "Trade recommendations to approve", q.trades_to_approve,
                      "pending approval", approval("spa"), "blue", "user-check"),
            QueueCard("tr-export", "Approved trades not yet exported", q.trades_to_export,
                      count_of(q.trades_to_export_portfolios, "portfolio"),
                      trade_file, "green", "file-output"),
            QueueCard("nec", "Not Enough Cash", q.not_enough_cash, "target portfolio versions",
                      pending(status=NOT_ENOUGH_CASH) if q.sees_drafts else pending(), "orange", "banknote"),
            QueueCard("error", "Calculation Error", q.calculation_error, "target portfolio versions",
                      pending(status=TPStatus.FAILED.value) if q.sees_drafts else pending(), "red", "triangle-alert"),
        ]
        self.waiting = [WaitingItem(w.portfolio_name, count_of(w.days, "day"),
                                    routes.url("portfolios.target-portfolio", id=w.investment_id))
                        for w in q.awaiting[:5]]
        self.queues_loading = False
        return None

    def _reload(self):
        """ListControls: the page shown (the drift of the scope comes from the cache). Another page keeps
        the selection; a new sort or page size starts it over."""
        shown_as = (self.sort, self.order, self.page_size)
        if shown_as != self._shown_as:
            self.selected, self._shown_as = [], shown_as
        self.loading = True
        return DashboardState.load_drift(False)

    def _refilter(self):
        self.selected = []
        return self._reload_first_page()

    @rx.event
    def refresh(self):
        self.loading = self.queues_loading = True
        return [DashboardState.load_queues, DashboardState.load_drift(True)]

    # ---- filters, sorting, paging ------------------------------------------------------------------
    def _firm_chosen(self):
        """The firm select (FirmChoice): its models and advisers, and its queues."""
        self.model_filter = self.adviser_filter = ALL
        self.queues_loading = True
        return [self._refilter(), DashboardState.load_queues]

    def _chosen(self):
        """The model and adviser selects (ListControls.set_choice) clear the selection too."""
        return self._refilter()

    @rx.event
    def set_min_breach(self, value: str):
        """The minimum breach box: empty, or a number of points not below 0 (the validators' texts:
        'Please, enter a valid number. ' for 'abc', 'Please, enter positive value' for '-5')."""
        text = str(value or "").strip()[:BREACH_MAX]
        error = v.positive(text)
        if error:
            self.min_breach_error = error.strip()
            return None
        self.min_breach_error = ""
        if text == self.min_breach:
            return None
        self.min_breach = text
        return self._refilter()

    # ---- selection and detail -----------------------------------------------------------------------
    @rx.event
    def toggle_selected(self, investment_id: int):
        pid = to_int(investment_id)
        if pid is None:
            return
        if pid in self.selected:
            self.selected = [i for i in self.selected if i != pid]
        elif pid in {r.id for r in self.rows}:
            self.selected = self.selected + [pid]

    @rx.event
    def toggle_page_selected(self):
        ids = [r.id for r in self.rows]
        if ids and all(i in self.selected for i in ids):
            self.selected = [i for i in self.selected if i not in ids]
        else:
            self.selected = self.selected + [i for i in ids if i not in self.selected]

    @rx.event
    @guarded
    def show_detail(self, investment_id: int):
        actor = self._actor()
        pid = to_int(investment_id)
        if pid is None:
            return None
        d = None if pid == self.detail.id else drift.portfolio(actor=actor, investment_id=pid)
        if d is None:  # the portfolio shown (or one no longer there) closes the dialog
            self._close_detail()
            return None
        self.detail = DriftDetail(
            id=d.investment_id, name=d.name,
            classes=[ClassRow(c.title, money(c.value), percent_1dp(c.current), percent_1dp(c.target),
                              band_text(c.min, c.max), points_text(c.breach) if c.breach > 0 else "", c.side, c.in_model)
                     for c in d.classes],
            assets=[AssetRow(a.code, a.name, money(a.value), percent_1dp(a.current), percent_1dp(a.weight),
                             difference(a.difference))
                    for a in sorted(d.assets, key=lambda a: (-(abs(a.difference or 0)), a.code))])
        return None

    def _close_detail(self) -> None:
        """Closed; what it showed stays until another portfolio opens it (the dialog fades out with it)."""
        self.detail.id = 0

    @rx.event
    def close_detail(self):
        self._close_detail()

    # ---- calculation --------------------------------------------------------------------------------
    @rx.event(background=True)
    async def calculate_selected(self):
        async with self:
            ids = list(self.selected)
        async for event in self._calculate(ids):
            yield event

    @rx.event
    def calculate_one(self, investment_id: int):
        """One row's calculation: at once, unless the portfolio has a version awaiting the client,
        which a new version would replace (then it asks first)."""
        pid = as_id(investment_id) if not isinstance(investment_id, bool) else None
        if pid and not self.starting:
            try:
                shown = target_portfolios.current(actor=self._actor(), investment_id=pid)
            except DomainError as exc:
                return self._fail(exc)
            if shown is not None and shown.summary.status == TPStatus.VALIDATED.value:
                self._ask("calculate", awaiting_client_question(shown.summary.version), pid, label="Calculate")
                return None
        return DashboardState.run_one(pid or 0)

    def _confirmed(self, action: str, target_id: int) -> Any:
        return DashboardState.run_one(target_id) if action == "calculate" else None

    @rx.event(background=True)
    async def run_one(self, investment_id: int):
        pid = as_id(investment_id) if not isinstance(investment_id, bool) else None
        async for event in self._calculate([pid] if pid else []):
            yield event

    async def _calculate(self, ids: list[int]):
        """Starts a bulk calculation of the target portfolios of `ids` (the service checks each is
        visible and calculable) and opens the shared progress modal on it."""
        actor: Actor | None = None
        async with self:
            if self.starting:
                return
            try:
                actor = self._actor()
            except DomainError as exc:
                failure = self._fail(exc)
            else:
                failure = None if ids else toast_error(SELECT_PORTFOLIO)
                self.starting = failure is None
        if failure is not None or actor is None:
            yield failure
            return
        try:
            run = await asyncio.to_thread(bulk_runs.start_for_investments, actor=actor, kind="tp", investment_ids=ids)
        except DomainError as exc:
            async with self:
                self.starting = False
            yield toast_error(exc.message)
            return
        except Exception:
            log.exception("dashboard calculation could not start")
            async with self:
                self.starting = False
            yield toast_error(GENERIC)
            return
        try:
            named = await asyncio.to_thread(bulk_runs.run_names, actor=actor, run_id=run.id)
            triggered = toast_success(rebalance_triggered(named.names, named.total))
        except DomainError:
            triggered = None
        async with self:
            self.starting = False
            self.selected = []
        _forget(actor.id)
        if triggered is not None:
            yield triggered
        yield BulkProgressState.attach(run.id)
        yield DashboardState.watch_run(run.id)

    @rx.event(background=True)
    async def watch_run(self, run_id: int):
        """Follows a run started from here (or still going when the page opened) until it is over,
        then shows the queues and the drift afresh. It stops when the user leaves the dashboard."""
        rid = as_id(run_id) if not isinstance(run_id, bool) else None
        if rid is None:
            return
        async with self:
            self._run_watch += 1
            token, path = self._run_watch, self.router.url.path
            try:
                actor = self._actor()
            except DomainError:
                return
        while True:
            await asyncio.sleep(RUN_POLL_SECONDS)
            try:
                run = await asyncio.to_thread(bulk_runs.get, actor=actor, run_id=rid, errors_limit=0, recent_limit=0)
            except DomainError:
                return
            async with self:
                if token != self._run_watch or self.router.url.path != path:
                    return
                over = run.over
                if over:
                    self.loading = self.queues_loading = True
            if over:
                _forget(actor.id)
                yield [DashboardState.load_queues, DashboardState.load_drift(True)]
                return

    # ---- what the page shows ------------------------------------------------------------------------
    @rx.var
    def showing(self) -> str:
        if self.total == 0:
            return "No portfolios"
        first = self._offset() + 1
        return f"{first}-{min(self.total, first + self._limit() - 1)} of {self.total}"

    @rx.var
    def page_all_selected(self) -> bool:
        return bool(self.rows) and all(r.id in self.selected for r in self.rows)

    @rx.var
    def filtered(self) -> bool:
        return self.model_filter != ALL or self.adviser_filter != ALL or self.min_breach != ""

    @rx.var
    def selected_count(self) -> int:
        return len(self.selected)
