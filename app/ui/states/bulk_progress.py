"""The bulk calculation progress modal, shared by every screen that starts or shows a bulk run.

A screen renders `app.ui.components.bulk_progress.bulk_progress_modal()` and
- follows a run with `BulkProgressState.attach(run_id)` (e.g. `return BulkProgressState.attach(id)`
  from its own handler once the run has started);
- adds `BulkProgressState.reattach` to its page's on_load: when the signed-in user has a run of
  their own still queued or running, the modal opens again and follows it (after a reload, or on
  another screen).

The modal shows the title of the run's kind, done / failed / total and a progress bar moving live,
the portfolios as they finish (newest first, the last RECENT_SHOWN) and each failure's portfolio
and message. Close only stops following: the run goes on in the background.

Following: a background event subscribes to the run's progress topic, then reads the run from the
database (at once, then every second, and soon after events arrive, since the stored run names the
portfolios), so neither a lost event nor an event sent before subscribing can freeze the modal.
Counts never move backwards. It stops when the run is over, when the modal is closed, when
another run is attached, or when the user leaves the page it was opened on."""
from __future__ import annotations

import asyncio
import logging
import time

import reflex as rx

from app.domain.errors import GENERIC, DomainError
from app.domain.permissions import Actor
from app.jobs import progress
from app.services import bulk_runs
from app.domain.parsing import as_id
from app.ui.rows.bulk_progress import RunItem, error_items, finished_items as _items
from app.ui.states.base import AppState, toast_error

log = logging.getLogger("app.ui.bulk_progress")

TITLES = {"tp": "Calculating target portfolios", "tr": "Calculating trade recommendations"}
POLL_SECONDS = 1.0
EVENT_READ_SECONDS = 0.25   # after events arrive, the run (names, messages) is read this soon
DRAIN_LIMIT = 5000
RECENT_SHOWN = 50
ERRORS_SHOWN = 200


def _next_events(subscription: progress.Subscription, run_id: int) -> bulk_runs.RunProgress | None:
    """Waits up to a second for events, then takes every event already waiting (a burst of
    thousands moves the modal once); returns the run's most advanced event (its counts are
    running totals; the portfolio it names, the stored run names too), or None."""
    newest = None
    event = subscription.get(POLL_SECONDS)
    taken = 0
    while event is not None:
        counts = bulk_runs.RunProgress.parse(event)
        if counts is not None and counts.run_id == run_id and (newest is None or counts.finished >= newest.finished):
            newest = counts
        taken += 1
        if taken >= DRAIN_LIMIT:
            break
        event = subscription.get(0)
    return newest


class BulkProgressState(AppState):
    open: bool = False
    kind: str = "tp"
    run_id: int = 0
    running: bool = False
    waiting: bool = False  # nothing finished for a while: the run waits for a worker
    total: int = 0
    done: int = 0
    failed: int = 0
    recent: list[RunItem] = []
    errors: list[RunItem] = []

    _watch: int = 0   # the follower of the current run (a newer attach or a close stops older ones)
    _path: str = ""   # the page the modal was opened on

    # ---- following a run ------------------------------------------------------------------------
    @rx.event(background=True)
    async def attach(self, run_id: int):
        """Opens the modal on a run the user may see and follows it until it is over."""
        rid = as_id(run_id) if not isinstance(run_id, bool) else None
        failure = None
        actor: Actor | None = None
        async with self:
            self._watch += 1
            token = self._watch
            try:
                actor = self._actor()
            except DomainError as exc:
                failure = self._fail(exc)
        if failure is not None:
            yield failure
        if actor is None or rid is None:
            return
        subscription = await asyncio.to_thread(progress.subscribe, bulk_runs.topic(rid))
        try:
            try:
                run = await asyncio.to_thread(self._read, actor, rid)
            except DomainError as exc:
                yield toast_error(exc.message)
                return
            except Exception:
                log.exception("bulk run %s could not be read", rid)
                yield toast_error(GENERIC)
                return
            async with self:
                if token != self._watch:
                    return
                if self.run_id != rid:
                    self.total = self.done = self.failed = 0
                    self.recent, self.errors = [], []
                self.run_id = rid
                self.kind = run.kind
                self.open = True
                self._path = self.router.url.path
                self._show_run(run)
                if not self.running:
                    return
            await self._follow(actor, rid, token, subscription)
        finally:
            await asyncio.to_thread(subscription.close)

    @staticmethod
    def _read(actor: Actor, run_id: int) -> bulk_runs.BulkRunView:
        return bulk_runs.get(actor=actor, run_id=run_id, errors_limit=ERRORS_SHOWN, recent_limit=RECENT_SHOWN)

    async def _follow(self, actor: Actor, run_id: int, token: int, subscription: progress.Subscription) -> None:
        async def read() -> bulk_runs.BulkRunView | None:
            try:
                return await asyncio.to_thread(self._read, actor, run_id)
            except DomainError:
                return None

        last_read = time.monotonic()
        unread = False  # events arrived since the run was last read
        while True:
            event = await asyncio.to_thread(_next_events, subscription, run_id)
            unread = unread or event is not None
            snapshot = None
            since = time.monotonic() - last_read
            if since >= POLL_SECONDS or (unread and since >= EVENT_READ_SECONDS):
                last_read, unread = time.monotonic(), False
                snapshot = await read()
            async with self:
                if token != self._watch or not self.open or self.router.url.path != self._path:
                    return
                if event is not None:
                    self._apply_event(event)
                if snapshot is not None:
                    self._show_run(snapshot)
                over = not self.running
            if over:
                if snapshot is None:  # the events said it is over: the stored run names every portfolio
                    snapshot = await read()
                    async with self:
                        if token == self._watch and snapshot is not None:
                            self._show_run(snapshot)
                return

    def _show_run(self, run: bulk_runs.BulkRunView) -> None:
        """The run as stored (never moving a count backwards)."""
        self.total = run.total
        self.done = max(self.done, run.done)
        self.failed = max(self.failed, run.failed)
        self.recent = _items(run.recent, self.kind)
        self.errors = error_items(run.errors)
        self.running = run.status != "done" and self.done + self.failed < self.total
        self.waiting = self.running and run.waiting

    def _apply_event(self, event: bulk_runs.RunProgress) -> None:
        self.total = event.total or self.total
        self.done = max(self.done, event.done)
        self.failed = max(self.failed, event.failed)
        self.running = self.done + self.failed < self.total

    # ---- opening again after a reload --------------------------------------------------------------
    @rx.event
    def reattach(self):
        """on_load of a page with the modal: follows the user's own run still going, if any."""
        self._watch += 1
        self.open = False
        try:
            run_id = bulk_runs.active_run(actor=self._actor())
        except DomainError:
            return None  # signed out: the page's own on_load sends the user to sign in
        return None if run_id is None else BulkProgressState.attach(run_id)

    # ---- closing -----------------------------------------------------------------------------------
    @rx.event
    def close(self):
        """Close: the run goes on in the background; the modal stops following it."""
        self.open = False
        self._watch += 1

    @rx.event
    def set_open(self, value: bool):
        return None if value else BulkProgressState.close

    # ---- what the modal shows ------------------------------------------------------------------------
    @rx.var
    def title(self) -> str:
        return TITLES[self.kind]

    @rx.var
    def finished(self) -> int:
        return self.done + self.failed

    @rx.var
    def percent(self) -> int:
        if not self.total:
            return 0 if self.running else 100
        return min(100, round(100 * (self.done + self.failed) / self.total))
