"""Model portfolio screens: the list (models.view), the model form (models.createModel,
models.changeModel with its `?preview=1` read-only preview, and models.version, one saved version
read-only), the details (models.details) and the history (models.history).

Every handler resolves the signed-in user from the token and goes through app.services.models,
which checks permission and scopes by firm; the id of the model on screen stays in backend-only
vars. The form keeps what the user types as text and sends the REST payload of POST/PUT
/api/models; after the first save attempt it validates live with the service's own rules
(app.domain.model_rules)."""
from __future__ import annotations

import dataclasses
import logging
from typing import Any, ClassVar

import reflex as rx

from app.domain import model_rules, rich_text
from app.domain.allocations import allocation_total, class_total_color, industry_total_color
from app.domain.errors import DomainError, ValidationError
from app.domain.models import (
    HISTORY_PAGE_SIZES, MODEL_PAGE_SIZES, AllocationMethod, Availability, ModelStatus, derive_availability,
)
from app.domain.parsing import as_id
from app.domain.permissions import Actor, can_edit_model
from app.domain.timezones import iso_json
from app.services import models as model_service
from app.services.models import ModelDetail
from app.ui import routes
from app.ui.components.asset_picker import PickerSlot
from app.ui.components.industry_allocations import IndustryGroupPicker
from app.ui.display import NA, input_number as _num_text, percent_1dp, text as _text
from app.ui.parse import to_int as _int
from app.ui.rows.models import (
    RANGE_FIELDS, AssetLine, AssetRef, ClassLine, ClassOption, DetailClass, EquivalentLine, GroupLine, GroupOption,
    HistoryRow, ModelRow, PercentLine, TypeLine, asset_ref, availability_label, blank_as_none, class_line,
    classes_total, detail_asset, model_commentaries, model_row, range_form, range_typed, ranges_shown,
    whole_number_text, without,
)
from app.ui.states.base import AppState, toast_error, toast_success, toast_warning
from app.ui.toolkit.lists import FirmChoice, LoadMore, Paged, RowPages
from app.ui.toolkit.rows import Option, TotalBar, label_of, offers, total_bar
from app.ui.toolkit.saving import RecordForm, not_added
from app.ui.toolkit.screen import Confirm, events, guarded, screen_load

log = logging.getLogger("app.ui.models")

LOAD_ONE_FAILED = "Opps, something went wrong"
MODEL_DELETED = model_rules.DELETED
CONFIRM_FIRM_CHANGE = model_rules.FIRM_CHANGE_CONFIRM
SELECT_SHARING_FIRM = model_rules.SELECT_SHARING_FIRM
ASSET_ALREADY_ADDED = "Asset {code} is already in this model."
ALL_FIRMS = "all"
TEXT_MAX = 20  # numbers typed into the form
NAME_MAX = 200
COMMENTARY_MAX = 20_000

AVAILABILITY_TEXTS = {
    Availability.NOBODY.value: "Nobody: the model is not available for investment.",
    Availability.WITH_PRACTICE.value: "With practice: the owner firm and the shared firms may link portfolios.",
    Availability.ONLY_SUPERUSER.value: "Only superuser: available for investment, shared with no other firm.",
    Availability.ALL.value: "All: every firm may link portfolios to this model.",
}
METHOD_TITLES = model_rules.METHOD_TITLES
STATUS_TITLES = model_rules.STATUS_TITLES

# the form's tabs and the payload keys whose errors they show
TABS = ("classes", "types", "groups", "equivalents", "percentages", "commentary", "availability")
TAB_ERROR_PREFIXES = {
    "classes": ("allocation_classes",),
    "types": ("allocation_types",),
    "groups": ("industry_groups_allocations",),
    "equivalents": ("equivalents",),
    "percentages": ("assets_percentages_allocations",),
    "commentary": ("commentaries",),
    "availability": ("firms", "investment", "all", "availability"),
}
CLASS_FIELDS = ("allocation", "min", "max", "assets_limit", "priority")
GROUP_FIELDS = ("allocation", "min", "max", "priority")
SWITCHES = ("analyst_recommendations", "class_allocation", "type_allocation", "industry_group_allocation",
            "investment", "all_firms", "share_firms")
# the form's mode by route (models.changeModel: edit, or preview with ?preview=1)
FORM_MODES = {"models.createModel": "new", "models.version": "version"}
LIST_ROUTES = frozenset({"models.details", "models.changeModel", "models.long-terms", "models.short-terms",
                         "models.history", "models.portfolios", "models.clients"})


# ---- small helpers --------------------------------------------------------------------------------
def _model_page(route_name: str, model_id: int, can_edit: bool):
    """To a page of the model on screen (its form only for those who may edit it)."""
    if route_name not in LIST_ROUTES or not model_id or (route_name == "models.changeModel" and not can_edit):
        return None
    return AppState.navigate(routes.url(route_name, id=model_id))


def _back_to_list(_state: Any, _actor: Actor) -> str:
    """Spec 000 s8: a failed load of one model shows the message (or the default) and goes to the list."""
    return routes.url("models.view")


# ---- the list -------------------------------------------------------------------------------------
class ModelsListState(Confirm, RowPages, FirmChoice, LoadMore, AppState):
    """/models: the models the actor may see (the service scopes by firm, shares and availability)."""

    ROW_ROUTES: ClassVar[frozenset[str]] = LIST_ROUTES
    SORT_KEYS: ClassVar[tuple[str, ...]] = ("name", "status", "firm", "updated_at", "created_at")
    PAGE_SIZES: ClassVar[tuple[int, ...]] = tuple(MODEL_PAGE_SIZES)
    DEFAULT_SIZE: ClassVar[int] = MODEL_PAGE_SIZES[-1]
    ALL_FIRMS: ClassVar[str] = ALL_FIRMS
    ALL_FIRMS_LABEL: ClassVar[str] = "All firms"

    rows: list[ModelRow] = []

    def _fetch(self, actor: Actor, offset: int, limit: int) -> tuple[list[ModelRow], int]:
        found = model_service.list_models(actor=actor, limit=limit, offset=offset, sort=self.sort, order=self.order,
                                          search=self.search or None,
                                          firm_id=None if self._firm_id() == ALL_FIRMS
                                          else model_rules.owner_filter(self.firm_filter))
        return [model_row(m) for m in found.rows], found.total

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.confirm_open = False
        self.rows = []
        self.loading = True
        yield
        self._load_firms(actor, keep=True)  # back on the list, the firm chosen before stays chosen
        return self._reload()

    # ---- navigation (a row's pages: RowPages.open_row) ---------------------------------------------
    @rx.event
    def new_model(self):
        return AppState.navigate(routes.url("models.createModel"))

    @rx.event
    def upload_long_terms(self):
        return AppState.navigate(routes.url("bulk-upload.long-terms"))

    @rx.event
    def upload_short_terms(self):
        return AppState.navigate(routes.url("bulk-upload.short-terms"))

    # ---- delete ---------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self, model_id: Any):
        row = next((r for r in self.rows if r.id == _int(model_id)), None)
        if row is not None and row.can_edit:
            self._ask("delete", f"Are you sure you want to delete model {row.name}?", row.id)

    def _confirmed(self, action: str, model_id: int):
        model_service.delete_model(actor=self._actor(), model_id=model_id)
        return events(toast_success(MODEL_DELETED), self._reload_after_delete())

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def filtered(self) -> bool:
        return self.search != "" or self.firm_filter != ALL_FIRMS


# ---- the form ---------------------------------------------------------------------------------------
class ModelFormState(Confirm, RecordForm, PickerSlot, IndustryGroupPicker, AppState):
    """models.createModel, models.changeModel (preview with ?preview=1) and models.version."""

    mode: str = "new"  # new | edit | preview | version
    loading: bool = True
    tab: str = "classes"

    # the model
    model_title: str = ""
    status: str = ModelStatus.DRAFT.value
    name: str = ""
    firm_id: str = ""
    owner_name: str = ""
    method: str = AllocationMethod.EQUAL_AMOUNTS.value
    analyst_recommendations: bool = True
    class_allocation: bool = True
    type_allocation: bool = True
    industry_group_allocation: bool = True
    investment: bool = False
    all_firms: bool = False
    share_firms: bool = False
    shared_firm_ids: list[str] = []
    classes: list[ClassLine] = []
    types: list[TypeLine] = []
    groups: list[GroupLine] = []
    equivalents: list[EquivalentLine] = []
    percentages: list[PercentLine] = []
    market: str = ""
    recommendation: str = ""
    market_shown: str = ""          # what the commentary editors show: changes only on a load
    recommendation_shown: str = ""

    # choices
    firm_options: list[Option] = []
    class_options: list[ClassOption] = []
    group_options: list[GroupOption] = []
    can_edit: bool = False
    can_choose_firm: bool = False

    # feedback
    errors: dict[str, str] = {}
    message: str = ""

    details_url: str = ""  # display only (breadcrumbs); handlers use _model_id
    history_url: str = ""

    # version view
    version_number: int = 0
    version_at: str = ""
    version_by: str = ""

    _model_id: int = 0
    _version: int = 0
    _owner_id: int = 0
    _saved: bool = False
    _last_status: str = ModelStatus.ACTIVE.value
    _owner_required: bool = False

    # ---- loading --------------------------------------------------------------------------------
    def _load_options(self, actor: Actor, firm_id: int | None) -> None:
        options = model_service.model_form_options(actor=actor, firm_id=firm_id)
        self.class_options = [ClassOption(id=c.id, title=c.title, is_cash=bool(c.is_cash)) for c in options.classes]
        self.group_options = [GroupOption(id=g.id, title=_text(g.title), color=_text(g.color))
                              for g in options.industry_groups]
        self.firm_options = [Option(value=str(f.id), label=_text(f.name)) for f in options.firms]
        known = {t.type_id: t for t in self.types}
        offered = [t.id for t in options.types]
        self.types = [known.get(t.id or 0) or TypeLine(type_id=t.id or 0, title=_text(t.title)) for t in options.types] + [
            t for t in self.types if t.type_id not in offered]

    def _cash_line(self) -> ClassLine | None:
        cash = next((c for c in self.class_options if c.is_cash), None)
        if cash is None:
            return None
        return ClassLine(class_id=cash.id, title=cash.title, is_cash=True, priority="1")

    def _ensure_cash(self) -> None:
        """The cash class is always in a model (spec 000 s4)."""
        if any(c.is_cash for c in self.classes):
            return
        cash = self._cash_line()
        if cash is not None:
            self.classes = [cash] + self.classes

    def _fill(self, model: ModelDetail) -> None:
        """The form from a model (or a saved version of it)."""
        self._model_id = model.id
        self.details_url = routes.url("models.details", id=self._model_id)
        self.history_url = routes.url("models.history", id=self._model_id)
        self._version = model.version_id or model.version
        self._owner_id = model.owner_id
        self.model_title = self.name = model.name
        self.status = model.status or ModelStatus.DRAFT.value
        self.firm_id = str(self._owner_id) if self._owner_id else ""
        self.owner_name = _text(model.firm.name)
        self.method = model.allocation_method or AllocationMethod.EQUAL_AMOUNTS.value
        self.analyst_recommendations = model.analyst_recommendations
        self.class_allocation = model.class_allocation
        self.type_allocation = model.type_allocation
        self.industry_group_allocation = model.industry_group_allocation
        self.investment, self.all_firms = model.investment, model.all
        self.shared_firm_ids = [str(f.id) for f in model.shared_firms]
        self.share_firms = bool(self.shared_firm_ids)
        self.classes = [class_line(c, i) for i, c in enumerate(model.allocation_classes)]
        self.types = [TypeLine(type_id=t.type_id, title=_text(t.title), **ranges_shown(t)) for t in model.allocation_types]
        self.groups = [GroupLine(industry_group_id=g.industry_group_id, title=_text(g.title), color=_text(g.color),
                                 priority=_text(g.priority), **ranges_shown(g))
                       for g in model.industry_groups_allocations]
        self.equivalents = [EquivalentLine(asset=asset_ref(e.asset), eq=asset_ref(e.eq)) for e in model.equivalents]
        # a percentage line's alternative is its class asset's alternate, so only the allocation is kept
        saved_pct = {p.asset_id: _num_text(p.allocation) for p in model.assets_percentages_allocations}
        self.percentages = []
        self._sync_percentages(saved_pct)
        self.market, self.recommendation = model_commentaries(model)
        self.market_shown, self.recommendation_shown = self.market, self.recommendation

    @rx.event
    @screen_load(clients=False, failed=LOAD_ONE_FAILED, back=_back_to_list)
    def on_load(self, actor: Actor):
        preview = self._query_text("preview") in ("1", "true")
        # every field to its default: spec 000 s4 starts a model with the four switches on
        mode = self._start(FORM_MODES, "preview" if preview else "edit")
        self.can_choose_firm = actor.is_superuser
        try:
            return self._open(actor, mode)
        finally:
            self.loading = False

    def _open(self, actor: Actor, mode: str):
        if mode == "new":
            self.can_edit = True
            self._owner_required = actor.is_superuser
            if not actor.is_superuser:
                self.firm_id = str(actor.firm_id or "")
                self._owner_id = actor.firm_id or 0
                self.owner_name = self.firm_name
            self._load_options(actor, _int(self.firm_id))
            self._ensure_cash()
            return None
        model_id = self._path_id() or 0
        model: ModelDetail
        if mode == "version":
            saved = model_service.saved_version(actor=actor, model_id=model_id, version=self._path_id("version") or 0)
            model = saved.model
            self.version_number = model.version_id
            self.version_at = _text(iso_json(saved.saved_at or model.updated_at))
            self.version_by = saved.saved_by
        else:
            model = model_service.get_model(actor=actor, model_id=model_id)
            self.can_edit = model.can_edit and can_edit_model(actor, model.owner_id)
            if not self.can_edit:
                # spec 000 s6: the form sends a user whose firm does not own the model to the details
                return rx.redirect(routes.url("models.details", id=model.id))
        self._fill(model)
        self._load_options(actor, model.owner_id or None)
        return None

    # ---- guards ---------------------------------------------------------------------------------
    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit and not self.loading and not self._saved

    # ---- top of the form --------------------------------------------------------------------------
    @rx.event
    def set_name(self, value: str):
        self._edit(name=str(value or "")[:NAME_MAX])

    @rx.event
    def set_method(self, value: str):
        if not self._editable() or value not in METHOD_TITLES:
            return
        self.method = value
        if value != AllocationMethod.PERCENTAGES.value and self.tab == "percentages":
            self.tab = "classes"
        self._changed()

    @rx.event
    def set_switch(self, key: str, value: bool):
        if key in SWITCHES:
            self._edit(**{key: bool(value)})

    @rx.event
    def set_tab(self, value: str):
        if value in TABS:
            self.tab = value

    @rx.event
    def set_firm(self, value: str):
        """The owner firm (superusers, on create). With classes added it asks first (spec 000 s5)."""
        if not self._editable() or self.mode != "new" or not self.can_choose_firm:
            return None
        value = str(value or "")
        if _int(value) is None or value == self.firm_id:
            return None
        if any((not c.is_cash) or c.assets for c in self.classes):
            self._ask("firm", CONFIRM_FIRM_CHANGE, int(value))
            return None
        return self._apply_firm(value)

    def _confirmed(self, action: str, firm_id: int):
        return self._apply_firm(str(firm_id)) if self._editable() else None

    @guarded
    def _apply_firm(self, value: str):
        actor = self._actor()
        if not actor.is_superuser:
            return None
        self.firm_id = value
        self._owner_id = int(value)
        self.owner_name = label_of(self.firm_options, value)
        self._load_options(actor, int(value))
        self.classes = []
        self._ensure_cash()
        self.percentages = []
        self.shared_firm_ids = [f for f in self.shared_firm_ids if f != value]
        self._changed()
        return None

    # ---- rows of the form (RecordForm: _at, _replace, _remove_line) ----------------------------------
    def _set_field(self, name: str, index: Any, key: str, value: str, keys: tuple[str, ...]) -> None:
        i = self._at(index, getattr(self, name))
        if i is not None and key in keys:
            self._replace(name, i, **{key: str(value or "")[:TEXT_MAX]})
            self._changed()

    def _append_chosen(self, name: str, key: str, options: list[Any], chosen: Any, line: Any) -> None:
        """Add the option chosen by id to the list var `name` as `line(option)`, numbered last, unless
        a line with that option (its `key`) is there already."""
        option = next((o for o in options if o.id == _int(chosen)), None)
        lines = getattr(self, name)
        if option is None or any(getattr(existing, key) == option.id for existing in lines):
            return
        setattr(self, name, lines + [dataclasses.replace(line(option), priority=str(len(lines) + 1))])
        self._changed()

    def _class_asset(self, index: Any, asset_index: Any) -> tuple[int, int] | None:
        i = self._at(index, self.classes)
        j = None if i is None else _int(asset_index)
        return None if i is None or j is None or not 0 <= j < len(self.classes[i].assets) else (i, j)

    def _replace_asset(self, i: int, j: int, **changes: Any) -> None:
        assets = list(self.classes[i].assets)
        assets[j] = dataclasses.replace(assets[j], **changes)
        self._replace("classes", i, assets=assets)

    # ---- classes ----------------------------------------------------------------------------------
    @rx.event
    def add_class(self, class_id: str):
        if self._editable() and not (self.can_choose_firm and not self.firm_id):
            self._append_chosen("classes", "class_id", self.class_options, class_id,
                                lambda o: ClassLine(class_id=o.id, title=o.title, is_cash=o.is_cash))

    @rx.event
    def remove_class(self, index: Any):
        i = self._at(index, self.classes)
        if i is None or self.classes[i].is_cash:
            return
        self.classes = without(self.classes, i)
        self._sync_percentages()
        self._changed()

    @rx.event
    def set_class_field(self, index: Any, key: str, value: str):
        self._set_field("classes", index, key, value, CLASS_FIELDS)

    @rx.event
    def set_asset_priority(self, index: Any, asset_index: Any, value: str):
        where = self._class_asset(index, asset_index)
        if where is not None:
            self._replace_asset(*where, priority=str(value or "")[:TEXT_MAX])
            self._changed()

    @rx.event
    def remove_asset(self, index: Any, asset_index: Any):
        where = self._class_asset(index, asset_index)
        if where is None:
            return
        i, j = where
        self._replace("classes", i, assets=without(self.classes[i].assets, j))
        self._sync_percentages()
        self._changed()

    @rx.event
    def clear_alternate(self, index: Any, asset_index: Any):
        where = self._class_asset(index, asset_index)
        if where is not None:
            self._replace_asset(*where, alt=AssetRef())
            self._sync_percentages()
            self._changed()

    # ---- types and industry groups ----------------------------------------------------------------
    @rx.event
    def set_type_field(self, index: Any, key: str, value: str):
        self._set_field("types", index, key, value, RANGE_FIELDS)

    @rx.event
    def add_group(self, group_id: Any):
        if self._editable():
            self._append_chosen("groups", "industry_group_id", self.group_options, group_id,
                                lambda o: GroupLine(industry_group_id=o.id, title=o.title, color=o.color))

    @rx.event
    def remove_group(self, index: Any):
        self._remove_line("groups", index)

    @rx.event
    def set_group_field(self, index: Any, key: str, value: str):
        self._set_field("groups", index, key, value, GROUP_FIELDS)

    # ---- equivalents --------------------------------------------------------------------------------
    @rx.event
    def add_equivalent(self):
        if self._editable():
            self.equivalents = self.equivalents + [EquivalentLine()]
            self._changed()

    @rx.event
    def remove_equivalent(self, index: Any):
        self._remove_line("equivalents", index)

    # ---- percentages ---------------------------------------------------------------------------------
    def _sync_percentages(self, saved: dict[int, str] | None = None) -> None:
        """One percentage line per asset in the classes, keeping what was typed for each asset. The
        alternative is the class asset's alternate (one value, shown on both tabs)."""
        known = {p.asset_id: p.allocation for p in self.percentages}
        self.percentages = [
            PercentLine(asset_id=a.asset_id, class_id=c.class_id, class_title=c.title, code=a.code, name=a.name,
                        allocation=known.get(a.asset_id, (saved or {}).get(a.asset_id, "")), alt=a.alt)
            for c in self.classes for a in c.assets]

    def _class_asset_of(self, asset_id: int) -> tuple[int, int] | None:
        return next(((i, j) for i, c in enumerate(self.classes) for j, a in enumerate(c.assets) if a.asset_id == asset_id),
                    None)

    @rx.event
    def set_percentage(self, index: Any, value: str):
        self._set_field("percentages", index, "allocation", value, ("allocation",))

    @rx.event
    def clear_percent_alternative(self, index: Any):
        i = self._at(index, self.percentages)
        if i is None:
            return
        where = self._class_asset_of(self.percentages[i].asset_id)
        if where is not None:
            self._replace_asset(*where, alt=AssetRef())
        self._sync_percentages()
        self._changed()

    # ---- commentary and availability ----------------------------------------------------------------
    @rx.event
    def set_commentary(self, kind: str, value: str):
        if not self._editable() or kind not in ("market", "recommendation"):
            return
        value = str(value or "")[:COMMENTARY_MAX]
        if rich_text.sanitise(value) == rich_text.sanitise(getattr(self, kind)):
            return
        setattr(self, kind, value)
        self._changed()

    @rx.event
    def add_shared_firm(self, firm_id: str):
        if offers(self._share_options(), firm_id):
            self._edit(shared_firm_ids=self.shared_firm_ids + [firm_id])

    @rx.event
    def remove_shared_firm(self, firm_id: str):
        if firm_id in self.shared_firm_ids:
            self._edit(shared_firm_ids=[f for f in self.shared_firm_ids if f != firm_id])

    # ---- the asset picker ----------------------------------------------------------------------------
    def _slot(self, target: str) -> tuple[str, list[int]] | None:
        """A picker slot as (kind, row indexes), when it names a row on the form."""
        kind, *parts = target.split(":")
        read = [_int(p) for p in parts]
        nums = [n for n in read if n is not None and n >= 0]
        if len(nums) != len(read):
            return None
        if kind == "class" and len(nums) == 1:
            ok = nums[0] < len(self.classes)
        elif kind == "alt" and len(nums) == 2:
            ok = nums[0] < len(self.classes) and nums[1] < len(self.classes[nums[0]].assets)
        elif kind in ("eq", "eqq") and len(nums) == 1:
            ok = nums[0] < len(self.equivalents)
        else:
            ok = kind == "pct" and len(nums) == 1 and nums[0] < len(self.percentages)
        return (kind, nums) if ok else None

    def _picker_class(self, kind: str, nums: list[int]) -> int | None:
        """The asset class the picker offers for a slot (a class's assets and their alternates)."""
        if kind in ("class", "alt"):
            return self.classes[nums[0]].class_id
        return self.percentages[nums[0]].class_id if kind == "pct" else None

    def _picker_title(self, kind: str, nums: list[int]) -> str:
        if kind == "class":
            return f"Add asset to {self.classes[nums[0]].title}"
        if kind == "alt":
            return f"Alternate for {self.classes[nums[0]].assets[nums[1]].code}"
        if kind == "pct":
            return f"Alternative for {self.percentages[nums[0]].code}"
        return "Select equivalent asset" if kind == "eqq" else "Select asset"

    def _apply_pick(self, asset_id: Any, code: Any, name: Any):
        """Put the picked asset into the slot open_picker remembered (the service checks it on save)."""
        target, self._pick_target = self._pick_target, ""
        asset_id = _int(asset_id)
        slot = self._slot(target) if self._editable() and asset_id is not None and target else None
        if slot is None:
            return None
        picked = AssetRef(id=asset_id, code=_text(code), name=_text(name))
        kind, nums = slot
        in_model = {a.asset_id for c in self.classes for a in c.assets}
        if kind == "class":
            if asset_id in in_model:
                return toast_warning(ASSET_ALREADY_ADDED.format(code=picked.code))
            assets = self.classes[nums[0]].assets
            self._replace("classes", nums[0], assets=assets + [
                AssetLine(asset_id=asset_id, code=picked.code, name=picked.name, priority=str(len(assets) + 1))])
        elif kind == "alt":
            if asset_id == self.classes[nums[0]].assets[nums[1]].asset_id:
                return None
            self._replace_asset(nums[0], nums[1], alt=picked)
        elif kind in ("eq", "eqq"):
            self._replace("equivalents", nums[0], **{"asset" if kind == "eq" else "eq": picked})
        elif kind == "pct":
            where = self._class_asset_of(self.percentages[nums[0]].asset_id)
            if where is None or asset_id == self.percentages[nums[0]].asset_id:
                return None
            self._replace_asset(*where, alt=picked)
        self._sync_percentages()
        self._changed()
        return None

    @rx.event
    def open_picker(self, target: str):
        """Open the shared asset picker for a slot: "class:i" (add to class i), "alt:i:j" (alternate of
        asset j of class i), "eq:k" / "eqq:k" (the sides of equivalents row k), "pct:k" (alternative
        of percentage row k). It searches the owner firm's assets, of the slot's class where it has one."""
        target = str(target or "")
        slot = self._slot(target) if self._editable() else None
        if slot is None:
            return None
        return self._open_picker(target, _int(self.firm_id), self._picker_class(*slot), self._picker_title(*slot))

    @rx.event
    async def asset_picked(self, target: str):
        """The picker's choice for `target`: taken from the picker's own search results (take_pick)."""
        asset = await self._pick_for_slot(target)
        return None if asset is None else self._apply_pick(asset["id"], asset["code"], asset["name"])

    # ---- payload and validation ----------------------------------------------------------------------
    def _form(self, status: str) -> model_rules.ModelForm:
        """The form as the service reads it (what POST/PUT /api/models carry), from the fields typed."""
        sharing = self.investment and not self.all_firms and self.share_firms
        percentages = self.method == AllocationMethod.PERCENTAGES.value
        return model_rules.ModelForm(
            name=self.name.strip(), status=status, allocation_method=self.method, owner_id=as_id(self.firm_id),
            version=str(self._version) if self.mode == "edit" else None,
            investment=self.investment, all=self.all_firms,
            firms=tuple(as_id(f) or 0 for f in self.shared_firm_ids if _int(f) is not None) if sharing else (),
            analyst_recommendations=self.analyst_recommendations, class_allocation=self.class_allocation,
            type_allocation=self.type_allocation, industry_group_allocation=self.industry_group_allocation,
            allocation_classes=tuple(model_rules.ClassRowForm(
                class_id=c.class_id, **range_form(c), assets_limit=whole_number_text(c.assets_limit),
                priority=whole_number_text(c.priority) or str(i + 1),
                assets=tuple(model_rules.AssetRowForm(asset_id=a.asset_id, alt_asset_id=a.alt.id or None,
                                                      priority=whole_number_text(a.priority) or str(j + 1))
                             for j, a in enumerate(c.assets)))
                for i, c in enumerate(self.classes)),
            allocation_types=tuple(model_rules.TypeRowForm(type_id=t.type_id, **range_form(t))
                                   for t in self.types if range_typed(t)),
            industry_groups_allocations=tuple(model_rules.GroupRowForm(
                industry_group_id=g.industry_group_id, **range_form(g), priority=whole_number_text(g.priority) or str(i + 1))
                for i, g in enumerate(self.groups)),
            equivalents=tuple(model_rules.EquivalentRowForm(asset_id=e.asset.id or None, eq_asset_id=e.eq.id or None)
                              for e in self.equivalents),
            assets_percentages_allocations=tuple(model_rules.PercentageRowForm(
                asset_id=p.asset_id, allocation=blank_as_none(p.allocation), alternative=p.alt.id or None)
                for p in self.percentages) if percentages else (),
            commentaries=tuple(model_rules.CommentaryForm(type=kind, description=text)
                               for kind, text in (("market", self.market), ("recommendation", self.recommendation))
                               if text.strip()),
        )

    def _sharing_error(self) -> dict[str, str]:
        if self.investment and not self.all_firms and self.share_firms and not self.shared_firm_ids:
            return {"firms": SELECT_SHARING_FIRM}
        return {}

    def _remap(self, fields: dict[str, str]) -> dict[str, str]:
        """Field keys of the payload -> keys of the rows on screen (the payload leaves out type rows
        with nothing typed, so its type indexes differ from the screen's)."""
        typed = [i for i, t in enumerate(self.types) if range_typed(t)]
        out: dict[str, str] = {}
        for key, text in fields.items():
            parts = key.split(".")
            if parts[0] == "allocation_types" and len(parts) > 1 and _int(parts[1]) is not None \
                    and int(parts[1]) < len(typed):
                key = ".".join([parts[0], str(typed[int(parts[1])]), *parts[2:]])
            out[key] = text
        return out

    def _check(self, status: str) -> tuple[str, dict[str, str]]:
        """(form-level message, field texts) of the service's own rules (app.domain.model_rules)."""
        _, fields, message = model_rules.clean_model(self._form(status), owner_required=self._owner_required)
        sharing = self._sharing_error()
        if sharing and not message:
            message = SELECT_SHARING_FIRM
        return message or "", {**self._remap(dict(fields or {})), **sharing}

    def _validate(self) -> None:
        try:
            self.message, self.errors = self._check(self._last_status)
        except Exception as exc:  # live feedback must never break typing
            log.exception("live model validation failed", exc_info=exc)

    # ---- saving ---------------------------------------------------------------------------------------
    @guarded
    def _save(self, actor: Actor, then: str | None):
        status = self._last_status
        sharing = self._sharing_error()
        if sharing:
            self.errors, self.message = {**self.errors, **sharing}, SELECT_SHARING_FIRM
            self.tab = "availability"
            return toast_error(SELECT_SHARING_FIRM)
        form = self._form(status)
        saved = self._write_record(lambda: model_service.create_model(actor=actor, form=form),
                                   lambda: model_service.update_model(actor=actor, model_id=self._model_id, form=form))
        self.errors, self.message = {}, ""
        self._saved = True
        model_id = saved.id or self._model_id
        return [toast_success(saved.message),
                rx.redirect(then or routes.url("models.details", id=model_id))]

    def _refused(self, exc: DomainError) -> None:
        self.message = exc.message
        if isinstance(exc, ValidationError):
            self.errors = self._remap(dict(exc.fields or {}))
            self._show_error_tab()

    def _show_error_tab(self) -> None:
        """Open the first tab with a field error when the current one has none."""
        if self._tab_has_error(self.tab):
            return
        for tab in TABS:
            if self._tab_has_error(tab):
                self.tab = tab
                return

    def _tab_has_error(self, tab: str) -> bool:
        return any(key == p or key.startswith(p + ".") for key in self.errors for p in TAB_ERROR_PREFIXES[tab])

    @rx.event
    def save(self, status: str):
        """Save as `status` (draft or active): the rules checked from then on are that status's."""
        if status in STATUS_TITLES and not self.saving and self._editable():
            self._last_status = status
            yield from self._saving(None)

    @rx.event
    def save_and_leave(self):
        """The leave dialog's Save: save as the status the model has now (draft for a new one), then go."""
        self.leave_open = False
        status = self.status if self.mode == "edit" else ModelStatus.DRAFT.value
        if status in STATUS_TITLES:
            self._last_status = status
            yield from self._saving(self.leave_to or None)

    # ---- navigation ------------------------------------------------------------------------------------
    @rx.event
    def cancel(self):
        if self._model_id and self.mode != "new":
            return AppState.go_back(routes.url("models.details", id=self._model_id))
        return AppState.go_back(routes.url("models.view"))

    @rx.event
    def edit(self):
        return self._to_edit("models.changeModel", self._model_id)

    @rx.event
    def go(self, route_name: str):
        return _model_page(route_name, self._model_id, self.can_edit)

    # ---- what the screen shows ----------------------------------------------------------------------------
    @rx.var
    def read_only(self) -> bool:
        return self.mode in ("preview", "version") or not self.can_edit

    @rx.var
    def title(self) -> str:
        if self.mode == "new":
            return "New model"
        if self.loading:
            return ""
        if self.mode == "edit":
            return f"Edit {self.model_title}"
        return self.model_title

    @rx.var
    def status_title(self) -> str:
        return ModelStatus.title_of(self.status)

    @rx.var
    def is_percentages(self) -> bool:
        return self.method == AllocationMethod.PERCENTAGES.value

    @rx.var
    def can_add_class(self) -> bool:
        """Spec 000 s5: adding a class is disabled for a superuser until a firm is chosen."""
        return not (self.can_choose_firm and self.firm_id == "")

    @rx.var
    def addable_classes(self) -> list[ClassOption]:
        return not_added(self.class_options, "id", (c.class_id for c in self.classes))

    @rx.var
    def addable_groups(self) -> list[GroupOption]:
        """The picker's groups: not yet added, matching its search."""
        needle = self.ig_picker_search.strip().casefold()
        return [g for g in self._groups_not_added() if needle in g.title.casefold()]

    def _groups_not_added(self) -> list[GroupOption]:
        return not_added(self.group_options, "id", (g.industry_group_id for g in self.groups))

    @rx.var
    def all_groups_added(self) -> bool:
        return not self._groups_not_added()

    @rx.var
    def share_options(self) -> list[Option]:
        return self._share_options()

    def _share_options(self) -> list[Option]:
        """Firms to share with: every offered firm but the owner and those already chosen."""
        return not_added(self.firm_options, "value", [self.firm_id, *self.shared_firm_ids])

    @rx.var
    def shared_firms(self) -> list[Option]:
        return [Option(value=f, label=label_of(self.firm_options, f, f"Firm {f}")) for f in self.shared_firm_ids]

    @rx.var
    def owner_label(self) -> str:
        if self.owner_name:
            return self.owner_name
        return label_of(self.firm_options, self.firm_id)

    @rx.var
    def class_bar(self) -> TotalBar:
        """Spec 002 s4 colours: success at exactly 100, warning below, danger above."""
        return total_bar(classes_total(self.classes, self.percentages, self.method), class_total_color)

    @rx.var
    def groups_bar(self) -> TotalBar:
        """Industry groups (spec 002 s4): danger above 100, else success."""
        return total_bar(allocation_total([g.allocation for g in self.groups]), industry_total_color)

    @rx.var
    def availability(self) -> str:
        count = len(self.shared_firm_ids) if (self.share_firms and not self.all_firms) else 0
        return derive_availability(self.investment, self.all_firms, count).value

    @rx.var
    def availability_text(self) -> str:
        return AVAILABILITY_TEXTS[self.availability]

    @rx.var
    def tab_errors(self) -> dict[str, bool]:
        return {tab: self._tab_has_error(tab) for tab in TABS}

    @rx.var
    def show_banner(self) -> bool:
        return self.mode == "version"


# ---- details --------------------------------------------------------------------------------------------
class ModelDetailsState(AppState):
    """models.details: header, class-allocation chart, assets by class (4 a row), commentaries."""

    loading: bool = True
    name: str = ""
    status: str = ""
    status_title: str = ""
    method_title: str = ""
    owner_name: str = ""
    availability_title: str = ""
    analyst_recommendations: bool = False
    can_edit: bool = False
    version: int = 0
    updated_at: str = ""
    classes: list[DetailClass] = []
    chart: list[dict[str, Any]] = []
    market: str = ""
    recommendation: str = ""
    show_alternates: bool = False

    _model_id: int = 0

    @rx.event
    @screen_load(clients=False, failed=LOAD_ONE_FAILED, back=_back_to_list)
    def on_load(self, actor: Actor):
        self.reset()
        try:
            found = model_service.model_details(actor=actor, model_id=self._path_id() or 0)
        finally:
            self.loading = False
        model = found.model
        self._model_id = model.id
        self.name, self.status, self.status_title = model.name, model.status, model.status_title
        self.method_title = model.allocation_method_title
        self.owner_name = _text(model.firm.name)
        self.availability_title = availability_label(model.availability)
        self.analyst_recommendations = model.analyst_recommendations
        self.can_edit = model.can_edit and can_edit_model(actor, model.owner_id)
        self.version = model.version_id or model.version
        self.updated_at = _text(iso_json(model.updated_at))
        self.classes = [DetailClass(class_id=c.class_id, title=_text(c.title), allocation=percent_1dp(c.allocation, NA),
                                    assets=[detail_asset(a) for a in c.assets]) for c in found.classes]
        # Recharts plots numbers: the float is for drawing only, the label shows the exact text
        self.chart = [{"title": _text(c.title), "allocation": float(c.allocation or 0),
                       "label": percent_1dp(c.allocation, NA)} for c in found.classes]
        self.market, self.recommendation = model_commentaries(model)

    @rx.event
    def set_show_alternates(self, value: bool):
        self.show_alternates = bool(value)

    @rx.event
    def go(self, route_name: str):
        return _model_page(route_name, self._model_id, self.can_edit)

    @rx.var
    def has_assets(self) -> bool:
        return any(c.assets for c in self.classes)

    @rx.var
    def has_alternates(self) -> bool:
        return any(a.has_alt for c in self.classes for a in c.assets)


# ---- history ----------------------------------------------------------------------------------------------
class ModelHistoryState(Paged, AppState):
    """models.history: every saved version, newest first, 12 / 20 / 32 a page."""

    PAGE_SIZES: ClassVar[tuple[int, ...]] = tuple(HISTORY_PAGE_SIZES)
    DEFAULT_SIZE: ClassVar[int] = HISTORY_PAGE_SIZES[0]
    NOTHING_SHOWN: ClassVar[str] = "No versions"

    loading: bool = True
    name: str = ""
    rows: list[HistoryRow] = []
    page_size: str = str(HISTORY_PAGE_SIZES[0])

    details_url: str = ""
    _model_id: int = 0
    _current: int = 0

    @guarded
    def _reload(self):
        if not self._model_id:
            return None
        try:
            found = model_service.model_history(actor=self._actor(), model_id=self._model_id,
                                                limit=self._limit(), offset=self._offset())
        finally:
            self.loading = False
        self.total = found.total
        self.rows = [HistoryRow(version=r.version_id, created_at=_text(iso_json(r.created_at)), who=r.moderator.full,
                                current=r.version_id == self._current) for r in found.rows]
        return None

    @rx.event
    @screen_load(clients=False, failed=LOAD_ONE_FAILED, back=_back_to_list)
    def on_load(self, actor: Actor):
        size = self.page_size
        self.reset()
        self.page_size = size  # the page size chosen stays
        model = model_service.get_model(actor=actor, model_id=self._path_id() or 0)
        self._model_id = model.id
        self.details_url = routes.url("models.details", id=self._model_id)
        self._current = model.version_id or model.version
        self.name = model.name
        return self._reload()

    @rx.event
    def open_version(self, version: Any):
        version = _int(version)
        if not self._model_id or version is None or version < 1:
            return None
        return AppState.navigate(routes.url("models.version", id=self._model_id, version=version))

    @rx.var
    def history_page_sizes(self) -> list[str]:
        return [str(s) for s in HISTORY_PAGE_SIZES]
