"""bulk-calculate.calculateTP and bulk-calculate.calculateTR: the bulk model selection (spec 000
s2/s5/s6, 002 s2/s5/s9) - a superuser filters by firm ('All Firms', -2, by default), everyone else
sees their own firm's models; select all or none; Calculate asks first, naming how many portfolios
of how many models ('Please! Select at least one model' when none is), then starts a bulk run over
every portfolio of the selected models and opens the shared progress modal
(app.ui.states.bulk_progress) on it.

The route's `id` query parameter preselects models: one model id or a JSON array of ids. Its `run`
query parameter opens the progress modal on that run; without it, a run of the user's own still
going is followed again (after a reload).
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from typing import Any

import reflex as rx

from app.domain import recommendations as rules
from app.domain.errors import GENERIC, DomainError
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.services import bulk_runs
from app.services import firms as firm_service
from app.services import listing
from app.services import models as model_service
from app.ui import routes
from app.services.tenancy import as_id
from app.ui.parse import positive_int, to_int
from app.ui.states.base import AppState, toast_error
from app.ui.states.bulk_progress import BulkProgressState
from app.ui.display import count_of
from app.ui.toolkit.rows import Option, options_of
from app.ui.toolkit.screen import Confirm, Viewer, events, guarded, screen_load

log = logging.getLogger("app.ui.bulk_calculate")

ALL_FIRMS = "-2"
KINDS = {"bulk-calculate.calculateTP": "tp", "bulk-calculate.calculateTR": "tr"}
TITLES = {"tp": "Calculate Target Portfolios", "tr": "Calculate Trade Recommendations"}
WHAT = {"tp": "target portfolios", "tr": "trade recommendations"}


@dataclasses.dataclass
class BulkModelRow:
    id: int = 0
    name: str = ""
    firm: str = ""
    method: str = ""
    status: str = ""
    status_title: str = ""


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
        number = None if isinstance(v, bool) else positive_int(v)
        if number and number not in out:
            out.append(number)
    return out


def confirm_question(kind: str, portfolios: int, models: int) -> str:
    """'Calculate target portfolios for 12 portfolios of 1 model?'"""
    what = WHAT.get(kind, WHAT["tp"])
    return f"Calculate {what} for {count_of(portfolios, 'portfolio')} of {count_of(models, 'model')}?"


class BulkCalculateState(Viewer, Confirm, AppState):
    kind: str = "tp"
    loading: bool = True
    is_superuser_view: bool = False
    firms: list[Option] = []
    firm_filter: str = ALL_FIRMS
    models: list[BulkModelRow] = []
    selected: list[int] = []
    select_error: str = ""
    starting: bool = False

    _chosen: list[int] = []  # the models confirmed for the run
    _wanted: list[int] = []  # preselected by the URL

    # ---- loading ----------------------------------------------------------------------------------
    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self._reset_screen()
        name, _ = routes.match(self.router.url.path)
        self.kind = KINDS.get(name or "", "tp")
        self._wanted = parse_ids(self.router.url.query_parameters.get("id"))
        self.is_superuser_view = actor.is_superuser
        try:
            if actor.is_superuser:
                self.firms = [Option(value=ALL_FIRMS, label="All Firms")] + options_of(
                    firm_service.firm_options(actor=actor))
            failed = self._load_models(actor)
        finally:
            self.loading = False
        self.selected = [m.id for m in self.models if m.id in self._wanted]
        run_id = as_id(self.router.url.query_parameters.get("run"))
        return events(failed, BulkProgressState.attach(run_id) if run_id else BulkProgressState.reattach)

    @guarded
    def _load_models(self, actor: Actor):
        flag = {"tp_calculation": "1"} if self.kind == "tp" else {"tr_calculation": "1"}
        rows: list[dict[str, Any]] = []
        self.models = []
        while True:
            page, total = model_service.list_models(actor=actor, limit=listing.MAX_LIMIT, offset=len(rows),
                                                    sort="name", order="asc",
                                                    firm_id=self.firm_filter if actor.is_superuser else None, **flag)
            rows.extend(page)
            if not page or len(rows) >= total:
                break
        self.models = [BulkModelRow(id=int(m["id"]), name=m["name"], firm=(m.get("firm") or {}).get("name") or "",
                                    method=m.get("allocation_method_title") or "", status=m["status"],
                                    status_title=m.get("status_title") or m["status"]) for m in rows]
        known = {m.id for m in self.models}
        self.selected = [i for i in self.selected if i in known]

    @rx.event
    @guarded
    def set_firm_filter(self, value: str):
        if value not in {f.value for f in self.firms}:
            return None
        self.firm_filter = value
        return self._load_models(self._actor())

    # ---- selection ----------------------------------------------------------------------------------
    def _select(self, ids: list[int]) -> None:
        self.selected = ids
        if ids:
            self.select_error = ""

    @rx.event
    def toggle(self, model_id: Any, checked: bool):
        model_id = to_int(model_id)
        if model_id in {m.id for m in self.models}:
            rest = [i for i in self.selected if i != model_id]
            self._select(rest + [model_id] if checked else rest)

    @rx.event
    def select_all(self):
        self._select([m.id for m in self.models])

    @rx.event
    def select_none(self):
        self.selected = []

    @rx.event
    def set_all(self, checked: bool):
        self._select([m.id for m in self.models] if checked else [])

    @rx.var
    def all_selected(self) -> bool:
        return bool(self.models) and len(self.selected) == len(self.models)

    @rx.var
    def selected_text(self) -> str:
        return f"{len(self.selected)} of {len(self.models)} selected"

    @rx.var
    def title(self) -> str:
        return TITLES.get(self.kind, TITLES["tp"])

    # ---- calculating --------------------------------------------------------------------------------
    @rx.event
    @guarded
    def calculate(self):
        """Calculate: asks first, naming how many portfolios of how many models will be calculated."""
        known = {m.id for m in self.models}
        chosen = [i for i in self.selected if i in known]
        if not chosen:
            self.select_error = rules.SELECT_MODEL
            return toast_error(rules.SELECT_MODEL_TOAST)
        if self.starting:
            return None
        self.select_error = ""
        counts = bulk_runs.count_for_models(actor=self._actor(), model_ids=chosen)
        self._chosen = chosen
        self._ask("calculate", confirm_question(self.kind, counts["portfolios"], counts["models"]))
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
        error = None
        try:
            run = await asyncio.to_thread(bulk_runs.start_for_models, actor=actor, kind=kind, model_ids=chosen)
        except DomainError as exc:
            error = exc.message
        except Exception:
            log.exception("bulk calculation could not start")
            error = GENERIC
        async with self:
            self.starting = False
        yield toast_error(error) if error is not None else BulkProgressState.attach(int(run["id"]))

    @rx.var
    def can_calculate(self) -> bool:
        return self.viewer_role in (Role.SUPERUSER.value, Role.ADVISER.value)
