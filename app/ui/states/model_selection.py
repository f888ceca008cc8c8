"""The model selection of the bulk screens (bulk calculation, bulk upload of recommendations), as
app.ui.components.model_selection shows it: a superuser filters by firm ('All Firms', -2, by
default), everyone else sees their own firm's models; select one, all or none; the screen's action
with nothing selected marks the selection ('Please! Select at least one model').

A screen names the models it offers in `_find_models(actor)` (service rows, by name, read with
`self._firm_id()`), loads them with `_load_models(actor)` after `_load_firms(actor)`, and acts on
`_chosen_models()`, calling `_no_models()` when that is empty."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import reflex as rx

from app.domain import recommendations as rules
from app.domain.permissions import Actor
from app.services.models import ModelSummary
from app.ui.parse import to_int
from app.ui.rows.model_selection import BulkModelRow
from app.ui.states.base import toast_error
from app.ui.toolkit.lists import FirmChoice
from app.ui.toolkit.screen import guarded


class ModelSelection(FirmChoice, mixin=True):
    models: list[BulkModelRow] = []
    selected: list[int] = []
    select_error: str = ""

    if TYPE_CHECKING:  # the screen's AppState resolves the signed-in user
        def _actor(self) -> Actor: ...

    def _find_models(self, actor: Actor) -> list[ModelSummary]:  # pragma: no cover - each screen offers its own
        raise NotImplementedError

    @guarded
    def _load_models(self, actor: Actor):
        """The models offered (for the firm chosen); the selection keeps only those among them."""
        self.models = []
        self.models = [BulkModelRow(id=m.id, name=m.name, firm=m.firm.name or "", method=m.allocation_method_title,
                                    status=m.status, status_title=m.status_title or m.status)
                       for m in self._find_models(actor)]
        self.selected = self._chosen_models()

    def _chosen_models(self) -> list[int]:
        """The selected models among those shown."""
        known = {m.id for m in self.models}
        return [i for i in self.selected if i in known]

    def _no_models(self):
        self.select_error = rules.SELECT_MODEL
        return toast_error(rules.SELECT_MODEL_TOAST)

    def _select(self, model_ids: list[int]) -> None:
        """The models chosen; choosing any takes away the mark that asks for one."""
        self.selected = model_ids
        if model_ids:
            self.select_error = ""

    def _firm_chosen(self):
        """Another firm was chosen (FirmChoice): its models."""
        return self._load_models(self._actor())

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
