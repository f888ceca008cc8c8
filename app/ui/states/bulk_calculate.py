"""bulk-calculate.calculateTP and bulk-calculate.calculateTR: the bulk model selection (spec 000
s2/s5/s6, 002 s2/s5/s9) - a superuser filters by firm ('All Firms', -2, by default), everyone else
sees their own firm's models; select all or none; Calculate starts a bulk run over every portfolio
of the selected models ('Please! Select at least one model' when none is) and opens the progress
modal: done, failed and total move live, and each failed portfolio is listed with its message.

The route's `id` query parameter preselects models: one model id or a JSON array of ids.

Progress: a background event subscribes to the firm's progress topic before the run starts (so no
event of the run can be missed), keeps the events of this run, and also reads the run from the
database every second, so a lost event never freezes the modal; it stops when done + failed
reaches the total, or when the modal is closed."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from typing import Any

import reflex as rx

from app.domain import recommendations as rules
from app.domain.errors import GENERIC, AuthenticationError, DomainError
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.jobs import progress
from app.services import bulk_runs
from app.services import firms as firm_service
from app.services import listing
from app.services import models as model_service
from app.ui import routes
from app.ui.states.base import AppState, toast_error

log = logging.getLogger("app.ui.bulk_calculate")

ALL_FIRMS = "-2"
KINDS = {"bulk-calculate.calculateTP": "tp", "bulk-calculate.calculateTR": "tr"}
TITLES = {"tp": "Calculate Target Portfolios", "tr": "Calculate Trade Recommendations"}
PROGRESS_TITLES = {"tp": "Calculating target portfolios", "tr": "Calculating trade recommendations"}
POLL_SECONDS = 1.0
FAILURE_READ_SECONDS = 0.25
DRAIN_LIMIT = 5000
ERRORS_SHOWN = 200


@dataclasses.dataclass
class BulkModelRow:
    id: int = 0
    name: str = ""
    firm: str = ""
    method: str = ""
    status: str = ""
    status_title: str = ""


@dataclasses.dataclass
class FirmChoice:
    value: str = ""
    label: str = ""


@dataclasses.dataclass
class RunError:
    investment_id: int = 0
    investment_name: str = ""
    message: str = ""


def parse_ids(raw: Any) -> list[int]:
    """The `id` query parameter: one model id or a JSON array of model ids (anything else: none)."""
    text = str(raw or "").strip()
    if not text:
        return []
    try:
        value = json.loads(text)
    except ValueError:
        return []
    values = value if isinstance(value, list) else [value]
    out: list[int] = []
    for v in values:
        if isinstance(v, bool):
            continue
        try:
            number = int(v)
        except (TypeError, ValueError):
            continue
        if number > 0 and number not in out:
            out.append(number)
    return out


def _next_events(subscription: progress.Subscription, run_id: int) -> tuple[dict[str, Any] | None, bool]:
    """Waits up to a second for events, then takes every event already waiting (a burst of
    thousands moves the modal once): the newest event of the run (its counts are running totals)
    and whether any of them was a failure."""
    newest, failed = None, False
    event = subscription.get(POLL_SECONDS)
    taken = 0
    while event is not None:
        if event.get("run_id") == run_id:
            newest = event if newest is None or _progressed(event, newest) else newest
            failed = failed or event.get("status") == "failed"
        taken += 1
        if taken >= DRAIN_LIMIT:
            break
        event = subscription.get(0)
    return newest, failed


def _progressed(event: dict[str, Any], than: dict[str, Any]) -> bool:
    return int(event.get("done") or 0) + int(event.get("failed") or 0) >= int(than.get("done") or 0) + int(
        than.get("failed") or 0)


class BulkCalculateState(AppState):
    kind: str = "tp"
    loading: bool = True
    is_superuser_view: bool = False
    firms: list[FirmChoice] = []
    firm_filter: str = ALL_FIRMS
    models: list[BulkModelRow] = []
    selected: list[int] = []
    select_error: str = ""
    starting: bool = False

    # the progress modal
    progress_open: bool = False
    running: bool = False
    total: int = 0
    done: int = 0
    failed: int = 0
    errors: list[RunError] = []

    _run_id: int = 0
    _watch: int = 0          # the watcher of the current run (a newer run or a close stops older ones)
    _chosen: list[int] = []
    _wanted: list[int] = []  # preselected by the URL

    # ---- loading ----------------------------------------------------------------------------------
    @rx.event
    def on_load(self):
        name, _ = routes.match(self.router.url.path)
        self.kind = KINDS.get(name or "", "tp")
        self.loading = True
        self.firms, self.models, self.selected = [], [], []
        self.firm_filter = ALL_FIRMS
        self.select_error = ""
        self.progress_open = self.running = self.starting = False
        self._watch += 1
        self._wanted = parse_ids(self.router.url.query_parameters.get("id"))
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        refused = self._send_client_home(actor)
        if refused:
            return refused
        self.is_superuser_view = actor.is_superuser
        try:
            if actor.is_superuser:
                self.firms = [FirmChoice(value=ALL_FIRMS, label="All Firms")] + [
                    FirmChoice(value=str(o["id"]), label=o["name"]) for o in firm_service.firm_options(actor=actor)]
            failed = self._load_models(actor)
        finally:
            self.loading = False
        self.selected = [m.id for m in self.models if m.id in self._wanted]
        return failed

    def _load_models(self, actor: Actor):
        flag = {"tp_calculation": "1"} if self.kind == "tp" else {"tr_calculation": "1"}
        rows: list[dict[str, Any]] = []
        try:
            while True:
                page, total = model_service.list_models(actor=actor, limit=listing.MAX_LIMIT, offset=len(rows),
                                                        sort="name", order="asc",
                                                        firm_id=self.firm_filter if actor.is_superuser else None,
                                                        **flag)
                rows.extend(page)
                if not page or len(rows) >= total:
                    break
        except DomainError as exc:
            self.models = []
            return self._fail(exc)
        self.models = [BulkModelRow(id=int(m["id"]), name=m["name"], firm=(m.get("firm") or {}).get("name") or "",
                                    method=m.get("allocation_method_title") or "", status=m["status"],
                                    status_title=m.get("status_title") or m["status"]) for m in rows]
        known = {m.id for m in self.models}
        self.selected = [i for i in self.selected if i in known]
        return None

    @rx.event
    def set_firm_filter(self, value: str):
        if value not in {f.value for f in self.firms}:
            return None
        self.firm_filter = value
        try:
            actor = self._actor()
        except DomainError as exc:
            return self._fail(exc)
        return self._load_models(actor)

    # ---- selection ----------------------------------------------------------------------------------
    @rx.event
    def toggle(self, model_id: Any, checked: bool):
        try:
            model_id = int(model_id)
        except (TypeError, ValueError):
            return
        if model_id not in {m.id for m in self.models}:
            return
        rest = [i for i in self.selected if i != model_id]
        self.selected = rest + [model_id] if checked else rest
        if self.selected:
            self.select_error = ""

    @rx.event
    def select_all(self):
        self.selected = [m.id for m in self.models]
        if self.selected:
            self.select_error = ""

    @rx.event
    def select_none(self):
        self.selected = []

    @rx.event
    def set_all(self, checked: bool):
        self.selected = [m.id for m in self.models] if checked else []
        if self.selected:
            self.select_error = ""

    @rx.var
    def all_selected(self) -> bool:
        return bool(self.models) and len(self.selected) == len(self.models)

    @rx.var
    def selected_text(self) -> str:
        return f"{len(self.selected)} of {len(self.models)} selected"

    @rx.var
    def title(self) -> str:
        return TITLES.get(self.kind, TITLES["tp"])

    @rx.var
    def progress_title(self) -> str:
        return PROGRESS_TITLES.get(self.kind, PROGRESS_TITLES["tp"])

    @rx.var
    def finished(self) -> int:
        return self.done + self.failed

    @rx.var
    def percent(self) -> int:
        if not self.total:
            return 100 if not self.running else 0
        return min(100, round(100 * (self.done + self.failed) / self.total))

    # ---- calculating --------------------------------------------------------------------------------
    @rx.event
    def calculate(self):
        known = {m.id for m in self.models}
        chosen = [i for i in self.selected if i in known]
        if not chosen:
            self.select_error = rules.SELECT_MODEL
            return toast_error(rules.SELECT_MODEL_TOAST)
        if self.starting or self.running:
            return None
        self.select_error = ""
        self._chosen = chosen
        self.starting = True
        self.total = self.done = self.failed = 0
        self.errors = []
        self._watch += 1
        return BulkCalculateState.run_calculation

    @rx.event(background=True)
    async def run_calculation(self):
        """Starts the bulk run for the chosen models and follows its progress."""
        failure = None
        async with self:
            token = self._watch
            chosen = list(self._chosen)
            self._chosen = []
            kind = self.kind
            actor = None
            try:
                actor = self._actor()
            except DomainError as exc:
                failure = self._fail(exc)
            if actor is None or not chosen:
                self.starting = False
        if failure is not None:
            yield failure
        if actor is None or not chosen:
            return
        # subscribed before the run starts: every event of the run reaches this subscription
        subscription = await asyncio.to_thread(progress.subscribe, bulk_runs.firm_topic(actor.firm_id))
        try:
            try:
                run = await asyncio.to_thread(bulk_runs.start_for_models, actor=actor, kind=kind, model_ids=chosen)
            except DomainError as exc:
                async with self:
                    self.starting = False
                yield toast_error(exc.message)
                return
            except Exception:
                log.exception("bulk calculation could not start")
                async with self:
                    self.starting = False
                yield toast_error(GENERIC)
                return
            async with self:
                if token != self._watch:
                    return
                self._run_id = int(run["id"])
                self.starting = False
                self.progress_open = True
                self._show_run(run)
                if not self.running:
                    return
            await self._follow(actor, int(run["id"]), token, subscription)
        finally:
            await asyncio.to_thread(subscription.close)

    async def _follow(self, actor: Actor, run_id: int, token: int, subscription: progress.Subscription) -> None:
        async def read() -> dict[str, Any] | None:
            try:
                return await asyncio.to_thread(bulk_runs.get, actor=actor, run_id=run_id, errors_limit=ERRORS_SHOWN)
            except DomainError:
                return None

        last_poll = time.monotonic()
        while True:
            event, failed_now = await asyncio.to_thread(_next_events, subscription, run_id)
            snapshot = None
            # a failure is read from the run soon: the run names the portfolio and its message
            since = time.monotonic() - last_poll
            if event is None or since >= POLL_SECONDS or (failed_now and since >= FAILURE_READ_SECONDS):
                last_poll = time.monotonic()
                snapshot = await read()
            async with self:
                left = routes.match(self.router.url.path)[0] not in KINDS  # the user went elsewhere
                if token != self._watch or not self.progress_open or left:
                    self.running = False
                    return
                if event is not None:
                    self._apply_event(event)
                if snapshot is not None:
                    self._show_run(snapshot)
                finished = not self.running
            if finished:
                if snapshot is None:  # the events said it is over: the stored run names every failure
                    snapshot = await read()
                    async with self:
                        if token == self._watch and snapshot is not None:
                            self._show_run(snapshot)
                return

    def _show_run(self, run: dict[str, Any]) -> None:
        """The counts of the run as stored (never moving a count backwards)."""
        self.total = int(run["total"])
        self.done = max(self.done, int(run["done"]))
        self.failed = max(self.failed, int(run["failed"]))
        errors = [RunError(investment_id=int(e["investment_id"]), investment_name=e.get("investment_name") or "",
                           message=e.get("message") or "") for e in run.get("errors") or []]
        self.errors = errors
        self.running = self.done + self.failed < self.total

    def _apply_event(self, event: dict[str, Any]) -> None:
        self.total = int(event.get("total") or self.total)
        self.done = max(self.done, int(event.get("done") or 0))
        self.failed = max(self.failed, int(event.get("failed") or 0))
        self.running = self.done + self.failed < self.total

    @rx.event
    def close_progress(self):
        """Close: the run goes on in the background; the modal stops following it."""
        self.progress_open = False
        self.running = False
        self._watch += 1

    @rx.event
    def set_progress_open(self, value: bool):
        if not value:
            return BulkCalculateState.close_progress
        return None

    @rx.var
    def can_calculate(self) -> bool:
        return self.user_role in (Role.SUPERUSER.value, Role.ADVISER.value)
