"""reports.cash and reports.pending-target-portfolios (spec 002 s2/s7/s8/s9): one state per screen
over app.services.advice_reports, which checks who may see what.

Toolbar: a superuser picks the firm ('All firms', -1, by default; a firm list that fails to load
leaves the choice empty, silently), everyone chooses a status (the cash report starts on Approved),
the pending report has a Not Enough Cash switch; Excel and PDF links download the whole report as
sorted and filtered. The table is paged 20/50/100 (100 by default), sortable by every column. A
load error empties the list and shows the message.

Realtime (pending report): while the screen is open a background event follows the progress topic
of the firm(s) shown; a 'target portfolio updated' event (or a bulk calculation's 'investment
calculated') reloads the report, once per burst. The page's heartbeat (every 20 s) keeps the
follower alive and restarts it when needed; without one for a minute (the tab was closed), or once
the user is elsewhere, it stops."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Callable, ClassVar
from urllib.parse import urlencode

import reflex as rx

from app.domain.advice.target_portfolios import TP_KEY_LABELS
from app.domain.errors import GENERIC, DomainError
from app.domain.permissions import Actor
from app.domain.parsing import firm_choice
from app.jobs import progress
from app.services import advice_reports as reports
from app.services import bulk_runs
from app.services.advice_queries import FirmEvent, firm_topic
from app.services import target_portfolios
from app.ui import routes
from app.ui.display import count_of, money
from app.ui.rows.advice_reports import CashReportRow, CashTotals, PendingReportRow, report_head
from app.ui.states.base import AppState, toast_error
from app.ui.toolkit.lists import FirmChoice, ListControls
from app.ui.toolkit.screen import ExportLinks, events, guarded, screen_load
from app.ui.toolkit.rows import Amount, Option, amount_of, keeping

log = logging.getLogger("app.ui.advice_reports")

ALL_FIRMS = reports.ALL_FIRMS
ALL_STATUSES = "all"
STATUS_KEY = "status"  # the status filter in the address (a dashboard card names it)
CASH_PATH = "/api/target-portfolios-cash-report/generate"
PENDING_PATH = "/api/target-portfolios-pending-report/generate"
FILE_TYPES = {"excel": "xlsx", "pdf": "pdf"}  # the reports' fileType of each download link
PENDING_ROUTE = "reports.pending-target-portfolios"
LIVE_EVENTS = (target_portfolios.TP_UPDATED, bulk_runs.EVENTS["tp"])
HEARTBEAT_MS = 20_000
STALE_SECONDS = 60.0       # no heartbeat for this long: the page is gone, stop following
QUIET_SECONDS = 0.5        # gather a burst of events into one reload
MIN_RELOAD_SECONDS = 2.0   # and never reload more often than this


class ReportControls(FirmChoice, ListControls, ExportLinks, mixin=True):
    """What both report screens share: firm and status filters, paging and sorting, totals, export
    links. A screen sets KIND, EXPORT_PATH and SORT_KEYS and implements `_reader` (its
    own filters read there) and `_show`; `_clear_rows` empties what it shows besides the rows."""

    KIND: ClassVar[str] = reports.CASH
    EXPORT_PATH: ClassVar[str] = CASH_PATH
    ALL_FIRMS: ClassVar[str] = ALL_FIRMS
    ALL_FIRMS_LABEL: ClassVar[str] = "All firms"
    URL_STATUSES: ClassVar[tuple[str, ...]] = reports.CASH_STATUSES  # the statuses a link may choose

    loading: bool = True
    total_amount: Amount = Amount("$0.00")
    error: str = ""
    show_firm_column: bool = False  # every firm in the report
    status_filter: str = ALL_STATUSES
    status_options: list[Option] = []

    if TYPE_CHECKING:  # what the screens' other base (AppState) gives this mixin, and each screen's rows
        rows: list[Any]

        def _actor(self) -> Actor: ...
        def _fail(self, exc: Exception) -> Any: ...
        def _query_text(self, name: str) -> str: ...

    # ---- what a screen provides -------------------------------------------------------------------
    def _reader(self, actor: Actor) -> Callable[[], Any]:  # pragma: no cover - each report reads its own
        """The page shown as the service reads it, the filters read here (a thread may call it)."""
        raise NotImplementedError

    def _show(self, report: Any) -> None:  # pragma: no cover - each report shows its rows
        raise NotImplementedError

    def _clear_rows(self) -> None:
        self.rows = []

    # ---- loading ----------------------------------------------------------------------------------
    def _page(self) -> dict[str, Any]:
        """The firm, order and page shown, as the reports take them."""
        return dict(firm_id=firm_choice(self._firm_id()), sort=self.sort, order=self.order, limit=self._limit(),
                    offset=self._offset())

    def _load(self, actor: Actor):
        """The current page; on an error the list is emptied and the message shown."""
        try:
            report = self._reader(actor)()
        except DomainError as exc:
            self._failed(exc.message)
            return self._fail(exc)
        except Exception:
            log.exception("%s report failed", self.KIND)
            self._failed(GENERIC)
            return toast_error(GENERIC)
        finally:
            self.loading = False
        if not report.rows and report.count and self.page > 1:
            self.page = 1
            return self._load(actor)
        self._apply(report)
        return None

    def _failed(self, message: str) -> None:
        self._clear_rows()
        self.total, self.total_amount = 0, Amount("$0.00")
        self.error = message

    def _apply(self, report: reports.Report[reports.CashRow] | reports.Report[reports.PendingRow]) -> None:
        self.error = ""
        self.total = report.count
        self.total_amount = amount_of(report.total_amount)
        self.show_firm_column = report.firm_id is None
        # every status the actor may filter by, present or not (002 s4: Calculation Error included)
        options = [Option(value=s.value, label=s.label) for s in report.offered_statuses]
        if self.status_filter != ALL_STATUSES:
            options = keeping(options, self.status_filter, reports.status_label(self.status_filter))
        self.status_options = [Option(value=ALL_STATUSES, label="All statuses")] + options
        self._show(report)

    @guarded
    def _reload(self):
        """The page shown, read again."""
        actor = self._actor()
        self.loading = True
        return self._load(actor)

    def _start(self, actor: Actor):
        """on_load: the screen as new for the signed-in user (the report's default sort and status,
        or the filters its URL names), and the first page."""
        self.reset()
        self._from_url()
        self._load_firms(actor)
        return self._load(actor)

    def _from_url(self) -> None:
        """The filters the page's URL names (a dashboard card's link): ?status=<key>."""
        wanted = self._status_of(self._query_text(STATUS_KEY))
        if wanted is not None:
            self.status_filter = wanted

    def _status_of(self, value: str) -> str | None:
        """A status filter an address may name (None: not one)."""
        return value if value == ALL_STATUSES or (value in TP_KEY_LABELS and value in self.URL_STATUSES) else None

    def _address_fields(self) -> dict[str, tuple[str, Callable[[str], Any]]]:
        """The list's address keeps the status filter too (?status=<key>), with the firm and the page."""
        return {**super()._address_fields(), STATUS_KEY: ("status_filter", self._status_of)}

    # ---- toolbar (the firm select: FirmChoice) ----------------------------------------------------
    @rx.event
    def set_status_filter(self, value: str):
        if value != ALL_STATUSES and value not in TP_KEY_LABELS:
            return None
        self.status_filter = value
        return self._reload_first_page()

    @rx.event
    def refresh(self):
        return self._reload()

    # ---- what the page shows ----------------------------------------------------------------------
    @rx.var
    def showing(self) -> str:
        return count_of(self.total, "portfolio")

    def _export_path(self, kind: str) -> str:
        query: dict[str, Any] = {"fileType": FILE_TYPES[kind], "sort": self.sort, "order": self.order}
        if self.show_firm:
            query["firmId"] = self.firm_filter
        query.update({k: v for k, v in self._export_query().items() if v not in (None, "")})
        return f"{self.EXPORT_PATH}?{urlencode(query)}"

    def _export_query(self) -> dict[str, Any]:
        return {"targetPortfolioStatus": self.status_filter}


class CashReportState(ReportControls, AppState):
    """reports.cash: portfolios with their current target portfolio in the chosen status."""

    KIND: ClassVar[str] = reports.CASH
    EXPORT_PATH: ClassVar[str] = CASH_PATH
    SORT_KEYS: ClassVar[tuple[str, ...]] = reports.CASH_SORTS

    sort: str = "portfolio_name"
    status_filter: str = reports.CASH_DEFAULT_STATUSES[0]
    rows: list[CashReportRow] = []
    totals: CashTotals = CashTotals()

    def _clear_rows(self) -> None:
        self.rows, self.totals = [], CashTotals()

    def _reader(self, actor: Actor) -> Callable[[], reports.Report[reports.CashRow]]:
        wanted, page = self.status_filter, self._page()
        return lambda: reports.cash_report(actor=actor, statuses=reports.parse_statuses(wanted, reports.CASH_STATUSES),
                                           **page)

    def _show(self, report: reports.Report[reports.CashRow]) -> None:
        self.rows = [CashReportRow(**vars(report_head(r)), cash=amount_of(r.cash), placed_buys=money(r.placed_buys),
                                   cash_after=amount_of(r.cash_after), min_cash=money(r.min_cash),
                                   cash_to_invest=amount_of(r.cash_to_invest)) for r in report.rows]
        t = report.totals
        self.totals = CashTotals(money(t["value"]), money(t["placed_buys"]), money(t["cash_after"]),
                                 min_cash=money(t["min_cash"]), cash_to_invest=amount_of(t["cash_to_invest"]))

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        return self._start(actor)


class PendingReportState(ReportControls, AppState):
    """reports.pending-target-portfolios: portfolios whose newest target portfolio waits for
    validation or approval, has not enough cash, or failed; reloads live on target portfolio updates."""

    KIND: ClassVar[str] = reports.PENDING
    URL_STATUSES: ClassVar[tuple[str, ...]] = reports.PENDING_STATUSES
    EXPORT_PATH: ClassVar[str] = PENDING_PATH
    SORT_KEYS: ClassVar[tuple[str, ...]] = reports.PENDING_SORTS

    sort: str = "date"
    order: str = "desc"
    rows: list[PendingReportRow] = []
    not_enough_cash: bool = False
    live: bool = False

    _watch: int = 0           # the current follower (a newer one, or a firm change, stops older ones)
    _watching: bool = False
    _seen: float = 0.0        # the page's last heartbeat (wall clock: shared by backend processes)

    def _reader(self, actor: Actor) -> Callable[[], reports.Report[reports.PendingRow]]:
        wanted = None if self.status_filter == ALL_STATUSES else self.status_filter
        nec, page = self.not_enough_cash, self._page()
        return lambda: reports.pending_report(
            actor=actor, statuses=reports.parse_statuses(wanted, reports.PENDING_STATUSES), not_enough_cash=nec, **page)

    def _export_query(self) -> dict[str, Any]:
        return {"targetPortfolioStatus": None if self.status_filter == ALL_STATUSES else self.status_filter,
                "notEnoughCash": "1" if self.not_enough_cash else None}

    def _show(self, report: reports.Report[reports.PendingRow]) -> None:
        self.rows = [PendingReportRow(**vars(report_head(r)), error_message=r.error_message or "",
                                      calculated_by=r.calculated_by, days_waiting=r.days_waiting) for r in report.rows]

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        follower = self._watch + 1  # a follower of the previous visit stops; a new one starts
        shown = self._start(actor)
        self._watch, self._seen = follower, time.time()
        return events(shown, PendingReportState.follow)

    @rx.event
    def set_not_enough_cash(self, value: bool):
        self.not_enough_cash = bool(value)
        return self._reload_first_page()

    def _firm_chosen(self):
        self._watch += 1  # follow the topics of the firm now shown
        self._watching = False
        return events(self._reload_first_page(), PendingReportState.follow)

    # ---- live reloads ---------------------------------------------------------------------------------
    @rx.event
    def heartbeat(self, _tick: Any = None):
        """From the page every 20 s (and on mount): keeps the follower alive, starts it when none runs."""
        self._seen = time.time()
        if self._watching:
            return None
        return PendingReportState.follow

    def _topics(self, actor: Actor) -> list[str]:
        """The progress topics of the firm(s) shown (firm 0: a superuser's bulk runs)."""
        if not actor.is_superuser:
            ids: list[int | None] = [actor.firm_id]
        elif self.firm_filter != ALL_FIRMS:
            ids = [int(self.firm_filter)]
        else:
            ids = [int(o.value) for o in self.firm_options if o.value != ALL_FIRMS]
        return sorted({firm_topic(i) for i in ids} | {firm_topic(None)})

    def _matches(self, event: FirmEvent | None) -> bool:
        if event is None or event.name not in LIVE_EVENTS:
            return False
        firm = event.firm_id
        return firm is None or not self.show_firm or self.firm_filter == ALL_FIRMS or str(firm) == self.firm_filter

    @rx.event(background=True)
    async def follow(self):
        """Follows the progress topics while the screen is open and reloads on a matching event."""
        async with self:
            if self._watching:
                return
            try:
                actor = self._actor()
            except DomainError:
                return
            self._watch += 1
            token = self._watch
            self._watching = True
            self.live = True
            self._seen = max(self._seen, time.time() - STALE_SECONDS / 2)
            topics = self._topics(actor)
        try:
            subscription = await asyncio.to_thread(progress.subscribe, *topics)
        except Exception:
            log.warning("the pending report could not follow %s", topics, exc_info=True)
            async with self:
                if token == self._watch:
                    self._watching = self.live = False
            return
        last_reload = 0.0
        try:
            while True:
                event = await asyncio.to_thread(subscription.get, 1.0)
                async with self:
                    if not self._following(token):
                        return
                    wanted = self._matches(FirmEvent.parse(event))
                if not wanted:
                    continue
                await asyncio.sleep(max(QUIET_SECONDS, MIN_RELOAD_SECONDS - (time.time() - last_reload)))
                while await asyncio.to_thread(subscription.get, 0) is not None:
                    pass  # the rest of the burst: one reload covers it
                if not await self._live_reload(token):
                    return
                last_reload = time.time()
        finally:
            await asyncio.to_thread(subscription.close)
            async with self:
                if token == self._watch:
                    self._watching = self.live = False

    def _following(self, token: int) -> bool:
        here = routes.match(self.router.url.path)[0] == PENDING_ROUTE
        return token == self._watch and here and time.time() - self._seen < STALE_SECONDS

    async def _live_reload(self, token: int) -> bool:
        """Loads the page shown again off the event loop; False when the follower should stop."""
        async with self:
            if not self._following(token):
                return False
            try:
                actor = self._actor()
            except DomainError:
                return False
            read = self._reader(actor)
        try:
            report = await asyncio.to_thread(read)
        except DomainError as exc:
            async with self:
                if token == self._watch:
                    self._failed(exc.message)
            return True
        except Exception:
            log.exception("pending report reload failed")
            return True
        async with self:
            if token != self._watch:
                return False
            if not report.rows and report.count and self.page > 1:
                self.page = 1
            self._apply(report)
        return True
