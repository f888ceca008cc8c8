"""bulk-calculate.calculateTP and bulk-calculate.calculateTR: the bulk model selection
(app.ui.states.model_selection; spec 000 s2/s5/s6, 002 s2/s5/s9) of the active models; Calculate
asks first, naming how many portfolios of how many models ('Please! Select at least one model' when
none is), then starts a bulk run over every portfolio of the selected models and opens the shared
progress modal (app.ui.states.bulk_progress) on it.

The route's `id` query parameter preselects models: one model id or a JSON array of ids. Its `run`
query parameter opens the progress modal on that run; without it, a run of the user's own still
going is followed again (after a reload).
"""
from __future__ import annotations

import asyncio
import json
import logging

import reflex as rx

from app.domain.advice.texts import rebalance_triggered
from app.domain.errors import GENERIC, DomainError
from app.domain.permissions import BULK_CALCULATORS, Actor
from app.services import bulk_runs
from app.domain.model_rules import owner_filter
from app.services import models as model_service
from app.services.models import ModelSummary
from app.ui import routes
from app.domain.parsing import as_id
from app.ui.parse import positive_int
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.bulk_progress import BulkProgressState
from app.ui.states.model_selection import ModelSelection
from app.ui.display import count_of
from app.ui.toolkit.screen import Confirm, Viewer, events, guarded, screen_load

log = logging.getLogger("app.ui.bulk_calculate")

KINDS = {"bulk-calculate.calculateTP": "tp", "bulk-calculate.calculateTR": "tr"}
TITLES = {"tp": "Calculate Target Portfolios", "tr": "Calculate Trade Recommendations"}
WHAT = {"tp": "target portfolios", "tr": "trade recommendations"}


def parse_ids(text: str) -> list[int]:
    """The `id` query parameter: one model id or a JSON array of model ids (anything else: none)."""
    text = text.strip()
    if not text:
        return []
    try:
        value = json.loads(text)
    except ValueError:
        return []
    values = value if isinstance(value, list) else [value]
    out: list[int] = []
    for v in values:
        number = None if isinstance(v, bool) else positive_int(v)
        if number and number not in out:
            out.append(number)
    return out


def confirm_question(kind: str, portfolios: int, models: int) -> str:
    """'Calculate target portfolios for 12 portfolios of 1 model?'"""
    return f"Calculate {WHAT[kind]} for {count_of(portfolios, 'portfolio')} of {count_of(models, 'model')}?"


class BulkCalculateState(Viewer, ModelSelection, Confirm, AppState):
    kind: str = "tp"
    loading: bool = True
    starting: bool = False

    _chosen: list[int] = []  # the models confirmed for the run
    _wanted: list[int] = []  # preselected by the URL

    # ---- loading ----------------------------------------------------------------------------------
    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self._reset_screen()
        self.kind = routes.page_value(self.router.url.path, KINDS, "tp")
        self._wanted = parse_ids(self._query_text("id"))
        try:
            self._load_firms(actor)
            failed = self._load_models(actor)
        finally:
            self.loading = False
        self.selected = [m.id for m in self.models if m.id in self._wanted]
        run_id = as_id(self._query_text("run"))
        return events(failed, BulkProgressState.attach(run_id) if run_id else BulkProgressState.reattach)

    def _find_models(self, actor: Actor) -> list[ModelSummary]:
        return model_service.all_models(actor=actor, firm_id=owner_filter(self._firm_id()),
                                        tp_calculation=self.kind == "tp", tr_calculation=self.kind != "tp")

    @rx.var
    def title(self) -> str:
        return TITLES[self.kind]

    # ---- calculating --------------------------------------------------------------------------------
    @rx.event
    @guarded
    def calculate(self):
        """Calculate: asks first, naming how many portfolios of how many models will be calculated."""
        chosen = self._chosen_models()
        if not chosen:
            return self._no_models()
        if self.starting:
            return None
        self.select_error = ""
        counts = bulk_runs.count_for_models(actor=self._actor(), model_ids=chosen)
        self._chosen = chosen
        self._ask("calculate", confirm_question(self.kind, counts.portfolios, counts.models))
        return None

    def _confirmed(self, action: str, _: int):
        if not self._chosen or self.starting:
            return None
        self.starting = True
        return BulkCalculateState.run_calculation

    @rx.event(background=True)
    async def run_calculation(self):
        """Starts the bulk run of the confirmed models and opens the progress modal on it."""
        failure = None
        actor = None
        async with self:
            chosen, self._chosen, kind = list(self._chosen), [], self.kind
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
        error = triggered = None
        try:
            run = await asyncio.to_thread(bulk_runs.start_for_models, actor=actor, kind=kind, model_ids=chosen)
            if kind == "tp":  # 000 s8: a rebalance (target portfolios) says what it was triggered for
                named = await asyncio.to_thread(bulk_runs.run_names, actor=actor, run_id=run.id)
                triggered = toast_success(rebalance_triggered(named.names, named.total))
        except DomainError as exc:
            error = exc.message
        except Exception:
            log.exception("bulk calculation could not start")
            error = GENERIC
        async with self:
            self.starting = False
        if error is not None:
            yield toast_error(error)
            return
        if triggered is not None:
            yield triggered
        yield BulkProgressState.attach(run.id)

    @rx.var
    def can_calculate(self) -> bool:
        return self.viewer_role in {role.value for role in BULK_CALCULATORS}
