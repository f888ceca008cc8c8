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
import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, ClassVar

import reflex as rx

from app.domain import model_rules
from app.domain.allocations import (
    allocation_total, bar_width, class_total_color, industry_total_color, total_text,
)
from app.domain.errors import AuthenticationError, DomainError, GENERIC, ValidationError
from app.domain.models import (
    HISTORY_PAGE_SIZES, MODEL_PAGE_SIZES, AllocationMethod, Availability, ModelStatus, derive_availability, switches_of,
)
from app.domain.permissions import can_edit_model
from app.domain.validators import parse_decimal
from app.services import firms as firm_service
from app.services import models as model_service
from app.ui import routes
from app.ui.components.asset_picker import AssetPickerState, take_pick
from app.ui.states.lists import visible_pages
from app.ui.states.base import AppState, toast_error, toast_success, toast_warning
from app.ui.states.lists import ListControls
from app.ui.parse import to_int as _int

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

AVAILABILITY_TITLES = {
    Availability.NOBODY.value: "Nobody",
    Availability.WITH_PRACTICE.value: "With practice",
    Availability.ONLY_SUPERUSER.value: "Only superuser",
    Availability.ALL.value: "All firms",
}
AVAILABILITY_TEXTS = {
    Availability.NOBODY.value: "Nobody: the model is not available for investment.",
    Availability.WITH_PRACTICE.value: "With practice: the owner firm and the shared firms may link portfolios.",
    Availability.ONLY_SUPERUSER.value: "Only superuser: available for investment, shared with no other firm.",
    Availability.ALL.value: "All: every firm may link portfolios to this model.",
}
METHOD_TITLES = {AllocationMethod.EQUAL_AMOUNTS.value: "Equal Amounts", AllocationMethod.PERCENTAGES.value: "Percentages"}
STATUS_TITLES = {ModelStatus.DRAFT.value: "Draft", ModelStatus.ACTIVE.value: "Active"}

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
RANGE_FIELDS = ("allocation", "min", "max")
GROUP_FIELDS = ("allocation", "min", "max", "priority")
SWITCHES = ("analyst_recommendations", "class_allocation", "type_allocation", "industry_group_allocation",
            "investment", "all_firms", "share_firms")
LIST_ROUTES = frozenset({"models.details", "models.changeModel", "models.long-terms", "models.short-terms",
                         "models.history"})


# ---- small helpers --------------------------------------------------------------------------------
def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _num_text(value: Any) -> str:
    """A saved Decimal (or its string) as the form shows it: no trailing zeros ("40", "12.5")."""
    if value is None or value == "":
        return ""
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    text = format(number.normalize(), "f")
    return text if text != "-0" else "0"


def _num_or_none(text: str) -> str | None:
    text = (text or "").strip()
    return text or None


def _int_or_text(text: str) -> int | str | None:
    """Whole numbers go as numbers; anything else as typed, for the service to name it."""
    text = (text or "").strip()
    if not text:
        return None
    number = _int(text)
    return number if number is not None else text


def _events(*items: Any) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if item is None:
            continue
        out.extend(item if isinstance(item, list) else [item])
    return out


def _decimal(value: Any) -> Decimal | None:
    try:
        return parse_decimal(value)
    except ValueError:
        return None


def percent_text(value: Any) -> str:
    """12.345 -> '12.3%'; empty -> 'N/A' (one decimal, half up)."""
    number = _decimal(value)
    if number is None:
        return "N/A"
    return f"{number.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def sign_of(value: Any) -> str:
    """'up' / 'down' / '' for colouring performance figures."""
    number = _decimal(value)
    if number is None or number == 0:
        return ""
    return "up" if number > 0 else "down"


def money_text(value: Any) -> str:
    """A price in dollars: two decimals, more (up to four) when the price has them; 'N/A' when empty."""
    number = _decimal(value)
    if number is None:
        return "N/A"
    places = Decimal("0.01")
    exponent = number.normalize().as_tuple().exponent
    if isinstance(exponent, int) and exponent < -2:
        places = Decimal(1).scaleb(max(exponent, -4))
    rounded = number.quantize(places, rounding=ROUND_HALF_UP)
    sign = "-" if rounded < 0 else ""
    return f"{sign}${abs(rounded):,}"


def _has_prefix(errors: dict[str, str], prefixes: tuple[str, ...]) -> bool:
    return any(key == p or key.startswith(p + ".") for key in errors for p in prefixes)


def _total(values: list[str]) -> Decimal:
    return allocation_total(values)


def _classes_total(classes: list["ClassLine"], percentages: list["PercentLine"], method: str) -> Decimal:
    """What the class-allocation bar shows: the class allocations; for the percentages method the
    asset percentages plus the cash class's own allocation (as app.domain.model_rules adds them)."""
    if method == AllocationMethod.PERCENTAGES.value:
        cash = [c.allocation for c in classes if c.is_cash]
        return _total([p.allocation for p in percentages] + cash)
    return _total([c.allocation for c in classes])


def _total_text(total: Decimal) -> str:
    return f"{total.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


# ---- what the screens hold ------------------------------------------------------------------------
@dataclasses.dataclass
class Option:
    value: str = ""
    label: str = ""


@dataclasses.dataclass
class ModelRow:
    id: int = 0
    name: str = ""
    status: str = ""
    status_title: str = ""
    method_title: str = ""
    firm_name: str = ""
    availability_title: str = ""
    assets_count: int = 0
    updated_at: str = ""
    can_edit: bool = False


@dataclasses.dataclass
class AssetLine:
    asset_id: int = 0
    code: str = ""
    name: str = ""
    alt_asset_id: int = 0
    alt_code: str = ""
    alt_name: str = ""
    priority: str = ""


@dataclasses.dataclass
class ClassLine:
    class_id: int = 0
    title: str = ""
    is_cash: bool = False
    allocation: str = ""
    min: str = ""
    max: str = ""
    assets_limit: str = ""
    priority: str = ""
    assets: list[AssetLine] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class TypeLine:
    type_id: int = 0
    title: str = ""
    allocation: str = ""
    min: str = ""
    max: str = ""


@dataclasses.dataclass
class GroupLine:
    industry_group_id: int = 0
    title: str = ""
    color: str = ""
    allocation: str = ""
    min: str = ""
    max: str = ""
    priority: str = ""


@dataclasses.dataclass
class EquivalentLine:
    asset_id: int = 0
    code: str = ""
    name: str = ""
    eq_asset_id: int = 0
    eq_code: str = ""
    eq_name: str = ""


@dataclasses.dataclass
class PercentLine:
    asset_id: int = 0
    class_id: int = 0
    class_title: str = ""
    code: str = ""
    name: str = ""
    allocation: str = ""
    alternative: int = 0
    alt_code: str = ""
    alt_name: str = ""


@dataclasses.dataclass
class ClassOption:
    id: int = 0
    title: str = ""
    is_cash: bool = False


@dataclasses.dataclass
class GroupOption:
    id: int = 0
    title: str = ""
    color: str = ""


@dataclasses.dataclass
class DetailAsset:
    asset_id: int = 0
    code: str = ""
    name: str = ""
    url: str = ""
    price: str = ""
    one_month: str = ""
    one_month_sign: str = ""
    since_inclusion: str = ""
    since_inclusion_sign: str = ""
    dividend_yield: str = ""
    dividend_yield_sign: str = ""
    group_title: str = ""
    group_color: str = ""
    has_alt: bool = False
    alt_code: str = ""
    alt_name: str = ""
    alt_price: str = ""
    alt_one_month: str = ""
    alt_one_month_sign: str = ""
    alt_since_inclusion: str = ""
    alt_since_inclusion_sign: str = ""
    alt_dividend_yield: str = ""
    alt_dividend_yield_sign: str = ""


@dataclasses.dataclass
class DetailClass:
    class_id: int = 0
    title: str = ""
    allocation: str = ""
    assets: list[DetailAsset] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class HistoryRow:
    version: int = 0
    created_at: str = ""
    who: str = ""
    current: bool = False


def _availability_title(value: Any) -> str:
    return AVAILABILITY_TITLES.get(_text(value), _text(value).replace("_", " ").capitalize())


def _owner_name(model: dict[str, Any]) -> str:
    owner = model.get("owner") or []
    if owner and isinstance(owner, list):
        return _text(owner[0].get("name"))
    firm = model.get("firm") or {}
    return _text(firm.get("name")) if isinstance(firm, dict) else ""


def _owner_id(model: dict[str, Any]) -> int:
    owner = model.get("owner") or []
    if owner and isinstance(owner, list):
        return _int(owner[0].get("id")) or 0
    return _int(model.get("ownerId") or model.get("firm_id")) or 0


def _load_failed(state: AppState, exc: Exception, back: str):
    """Spec 000 s8: a failed load of one model shows the message (or the default) and goes to the list."""
    if isinstance(exc, AuthenticationError):
        return None  # check_login, first in on_load, already sends the user to sign in
    if isinstance(exc, DomainError):
        return [toast_error(exc.message or LOAD_ONE_FAILED), rx.redirect(back)]
    log.exception("model load failed", exc_info=exc)
    return [toast_error(LOAD_ONE_FAILED), rx.redirect(back)]


# ---- the list -------------------------------------------------------------------------------------
def _row(model: dict[str, Any]) -> ModelRow:
    status = _text(model.get("status"))
    method = _text(model.get("allocation_method"))
    firm = model.get("firm") or {}
    return ModelRow(
        id=int(model["id"]),
        name=_text(model.get("name")),
        status=status,
        status_title=_text(model.get("status_title")) or STATUS_TITLES.get(status, status),
        method_title=_text(model.get("allocation_method_title")) or METHOD_TITLES.get(method, method),
        firm_name=_text(firm.get("name")) if isinstance(firm, dict) else _owner_name(model),
        availability_title=_availability_title(model.get("availability")),
        assets_count=int(model.get("assets_count") or 0),
        updated_at=_text(model.get("updated_at")),
        can_edit=bool(model.get("can_edit")),
    )


class ModelsListState(ListControls, AppState):
    """/models: the models the actor may see (the service scopes by firm, shares and availability)."""

    SORT_KEYS: ClassVar[tuple[str, ...]] = ("name", "status", "firm", "updated_at", "created_at")

    rows: list[ModelRow] = []
    total: int = 0
    loading: bool = True
    loading_more: bool = False
    firm_filter: str = ALL_FIRMS
    firm_options: list[Option] = []

    delete_open: bool = False
    delete_name: str = ""
    _delete_id: int = 0

    def _limit(self) -> int:
        size = _int(self.page_size) or 0
        return size if size in MODEL_PAGE_SIZES else MODEL_PAGE_SIZES[-1]

    def _fetch(self, offset: int, limit: int) -> tuple[list[ModelRow], int]:
        actor = self._actor()
        firm_id = self.firm_filter if actor.is_superuser and self.firm_filter != ALL_FIRMS else None
        found, total = model_service.list_models(actor=actor, limit=limit, offset=offset, sort=self.sort,
                                                 order=self.order, search=self.search or None, firm_id=firm_id)
        return [_row(m) for m in found], int(total)

    def _list_failed(self, exc: Exception):
        if isinstance(exc, AuthenticationError):
            return self._fail(exc)
        if isinstance(exc, DomainError):
            return toast_error(exc.message or GENERIC)
        log.exception("models list failed", exc_info=exc)
        return toast_error(GENERIC)  # spec 000 s8: the default for failed model lists

    def _reload(self, limit: int | None = None):
        self.loading = True
        try:
            self.rows, self.total = self._fetch(0, limit or self._limit())
        except Exception as exc:
            self.rows, self.total = [], 0
            return self._list_failed(exc)
        finally:
            self.loading = False
        return None

    @rx.event
    def on_load(self):
        self.delete_open = False
        self.rows = []
        self.loading = True
        yield
        try:
            actor = self._actor()
        except AuthenticationError:
            self.loading = False
            return
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            yield refused
            return
        self.firm_options = []
        if actor.is_superuser:
            try:
                self.firm_options = [Option(value=ALL_FIRMS, label="All firms")] + [
                    Option(value=str(f["id"]), label=_text(f["name"])) for f in firm_service.firm_options(actor=actor)]
            except DomainError as exc:
                yield self._fail(exc)
        else:
            self.firm_filter = ALL_FIRMS
        yield self._reload()

    @rx.event
    def set_firm_filter(self, value: str):
        value = str(value or ALL_FIRMS)
        self.firm_filter = value if value == ALL_FIRMS or _int(value) is not None else ALL_FIRMS
        return self._reload()

    @rx.event
    def set_page_size(self, value: str):
        if _int(value) not in MODEL_PAGE_SIZES:
            return None
        self.page_size = str(value)
        return self._reload()

    @rx.event
    def load_more(self):
        if self.loading_more or len(self.rows) >= self.total:
            return None
        self.loading_more = True
        yield
        try:
            more, self.total = self._fetch(len(self.rows), self._limit())
            known = {r.id for r in self.rows}
            self.rows = self.rows + [r for r in more if r.id not in known]
        except Exception as exc:
            yield self._list_failed(exc)
        finally:
            self.loading_more = False

    # ---- navigation -----------------------------------------------------------------------------
    @rx.event
    def open_model(self, route_name: str, model_id: Any):
        model_id = _int(model_id)
        if route_name not in LIST_ROUTES or model_id is None:
            return None
        return AppState.navigate(routes.url(route_name, id=model_id))

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
        model_id = _int(model_id)
        row = next((r for r in self.rows if r.id == model_id), None)
        if row is None or not row.can_edit:
            return None
        self._delete_id = row.id
        self.delete_name = row.name
        self.delete_open = True
        return None

    @rx.event
    def cancel_delete(self):
        self.delete_open = False
        self._delete_id = 0

    @rx.event
    def confirm_delete(self):
        self.delete_open = False
        model_id, self._delete_id = self._delete_id, 0
        if not model_id:
            return None
        try:
            model_service.delete_model(actor=self._actor(), model_id=model_id)
        except DomainError as exc:
            return self._fail(exc)
        shown = max(len(self.rows) - 1, self._limit())
        return _events(toast_success(MODEL_DELETED), self._reload(shown))

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def has_more(self) -> bool:
        return len(self.rows) < self.total

    @rx.var
    def showing(self) -> str:
        return f"Showing {len(self.rows)} of {self.total}"

    @rx.var
    def delete_message(self) -> str:
        return f"Are you sure you want to delete model {self.delete_name}?"

    @rx.var
    def filtered(self) -> bool:
        return self.search != "" or self.firm_filter != ALL_FIRMS


# ---- the form ---------------------------------------------------------------------------------------
def _asset_line(entry: dict[str, Any], index: int) -> AssetLine:
    alt = entry.get("alt_asset") or {}
    return AssetLine(
        asset_id=_int(entry.get("asset_id")) or 0,
        code=_text(entry.get("code")),
        name=_text(entry.get("name")),
        alt_asset_id=_int(entry.get("alt_asset_id") or (alt.get("id") if alt else None)) or 0,
        alt_code=_text(alt.get("code")) if alt else "",
        alt_name=_text(alt.get("name")) if alt else "",
        priority=_text(entry.get("priority") if entry.get("priority") is not None else index + 1),
    )


def _class_line(entry: dict[str, Any], index: int) -> ClassLine:
    return ClassLine(
        class_id=_int(entry.get("class_id")) or 0,
        title=_text(entry.get("title")),
        is_cash=bool(entry.get("is_cash")),
        allocation=_num_text(entry.get("allocation")),
        min=_num_text(entry.get("min")),
        max=_num_text(entry.get("max")),
        assets_limit=_text(entry.get("assets_limit")),
        priority=_text(entry.get("priority") if entry.get("priority") is not None else index + 1),
        assets=[_asset_line(a, j) for j, a in enumerate(entry.get("assets") or [])],
    )


class ModelFormState(AppState):
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

    # choices
    firm_options: list[Option] = []
    class_options: list[ClassOption] = []
    group_options: list[GroupOption] = []
    can_edit: bool = False
    can_choose_firm: bool = False

    # feedback
    errors: dict[str, str] = {}
    message: str = ""
    submitted: bool = False
    saving: bool = False
    firm_confirm_open: bool = False

    details_url: str = ""  # display only (breadcrumbs); handlers use _model_id
    history_url: str = ""

    # version view
    version_number: int = 0
    version_at: str = ""
    version_by: str = ""

    # the industry group picker
    group_picker_open: bool = False
    group_search: str = ""

    _model_id: int = 0
    _version: int = 0
    _owner_id: int = 0
    _saved: bool = False
    _last_status: str = ModelStatus.ACTIVE.value
    _pending_firm: str = ""
    _pick_target: str = ""
    _owner_required: bool = False

    # ---- loading --------------------------------------------------------------------------------
    def _reset(self, mode: str) -> None:
        self.mode = mode
        self.loading = True
        self.tab = "classes"
        self.model_title = ""
        self.status = ModelStatus.DRAFT.value
        self.name = ""
        self.firm_id = ""
        self.owner_name = ""
        self.method = AllocationMethod.EQUAL_AMOUNTS.value
        # spec 000 s4: analyst recommendations and the three allocations start switched on
        self.analyst_recommendations = self.class_allocation = True
        self.type_allocation = self.industry_group_allocation = True
        self.investment = self.all_firms = self.share_firms = False
        self.shared_firm_ids = []
        self.classes, self.types, self.groups, self.equivalents, self.percentages = [], [], [], [], []
        self.market = self.recommendation = ""
        self.firm_options, self.class_options, self.group_options = [], [], []
        self.can_edit = self.can_choose_firm = False
        self.errors, self.message = {}, ""
        self.submitted = self.saving = self.firm_confirm_open = False
        self.version_number, self.version_at, self.version_by = 0, "", ""
        self.group_picker_open = False
        self.group_search = ""
        self.details_url = self.history_url = ""
        self._model_id = self._version = self._owner_id = 0
        self._saved = False
        self._last_status = ModelStatus.ACTIVE.value
        self._pending_firm = self._pick_target = ""
        self._owner_required = False

    def _load_options(self, actor, firm_id: int | None) -> None:
        options = model_service.model_form_options(actor=actor, firm_id=firm_id)
        self.class_options = [ClassOption(id=int(c["id"]), title=_text(c["title"]), is_cash=bool(c.get("is_cash")))
                              for c in options.get("classes") or []]
        self.group_options = [GroupOption(id=int(g["id"]), title=_text(g["title"]), color=_text(g.get("color")))
                              for g in options.get("industry_groups") or []]
        self.firm_options = [Option(value=str(f["id"]), label=_text(f["name"])) for f in options.get("firms") or []]
        known = {t.type_id: t for t in self.types}
        offered = [int(t["id"]) for t in options.get("types") or []]
        self.types = [known.get(int(t["id"])) or TypeLine(type_id=int(t["id"]), title=_text(t["title"]))
                      for t in options.get("types") or []] + [t for t in self.types if t.type_id not in offered]

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

    def _fill(self, model: dict[str, Any]) -> None:
        self._model_id = int(model["id"])
        self.details_url = routes.url("models.details", id=self._model_id)
        self.history_url = routes.url("models.history", id=self._model_id)
        self._version = _int(model.get("version_id") or model.get("version")) or 0
        self._owner_id = _owner_id(model)
        self.model_title = _text(model.get("name"))
        self.status = _text(model.get("status")) or ModelStatus.DRAFT.value
        self.name = _text(model.get("name"))
        self.firm_id = str(self._owner_id) if self._owner_id else ""
        self.owner_name = _owner_name(model)
        self.method = _text(model.get("allocation_method")) or AllocationMethod.EQUAL_AMOUNTS.value
        for key in ("analyst_recommendations", "class_allocation", "type_allocation", "industry_group_allocation"):
            setattr(self, key, bool(model.get(key)))
        try:
            practice, everyone = switches_of(Availability(_text(model.get("availability"))))
        except ValueError:
            practice, everyone = bool(model.get("investment")), bool(model.get("all"))
        self.investment, self.all_firms = practice, everyone
        shared = model.get("sharedFirms") or []
        self.shared_firm_ids = [str(f["id"]) for f in shared if isinstance(f, dict) and f.get("id") is not None]
        self.share_firms = bool(self.shared_firm_ids)
        self.classes = [_class_line(c, i) for i, c in enumerate(model.get("allocation_classes") or [])]
        self.types = [TypeLine(type_id=_int(t.get("type_id")) or 0, title=_text(t.get("title")),
                               allocation=_num_text(t.get("allocation")), min=_num_text(t.get("min")),
                               max=_num_text(t.get("max")))
                      for t in model.get("allocation_types") or []]
        self.groups = [GroupLine(industry_group_id=_int(g.get("industry_group_id")) or 0, title=_text(g.get("title")),
                                 color=_text(g.get("color")), allocation=_num_text(g.get("allocation")),
                                 min=_num_text(g.get("min")), max=_num_text(g.get("max")),
                                 priority=_text(g.get("priority")))
                       for g in model.get("industry_groups_allocations") or []]
        by_id = self._asset_names()
        self.equivalents = []
        for e in model.get("equivalents") or []:
            asset, eq = e.get("asset") or {}, e.get("eq_asset") or e.get("eq") or {}
            a_id, q_id = _int(e.get("asset_id")) or 0, _int(e.get("eq_asset_id")) or 0
            self.equivalents.append(EquivalentLine(
                asset_id=a_id, code=_text(asset.get("code")) or by_id.get(a_id, ("", ""))[0],
                name=_text(asset.get("name")) or by_id.get(a_id, ("", ""))[1],
                eq_asset_id=q_id, eq_code=_text(eq.get("code")) or by_id.get(q_id, ("", ""))[0],
                eq_name=_text(eq.get("name")) or by_id.get(q_id, ("", ""))[1]))
        saved_pct = {}
        for p in model.get("assets_percentages_allocations") or []:
            alt = p.get("alternative_asset") or p.get("alt_asset") or {}
            alt_id = _int(p.get("alternative")) or 0
            saved_pct[_int(p.get("asset_id")) or 0] = (
                _num_text(p.get("allocation")), alt_id,
                _text(alt.get("code")) or by_id.get(alt_id, ("", ""))[0],
                _text(alt.get("name")) or by_id.get(alt_id, ("", ""))[1])
        self.percentages = []
        self._sync_percentages(saved_pct)
        self.market = self.recommendation = ""
        for c in model.get("commentaries") or []:
            if c.get("type") == "market":
                self.market = _text(c.get("description"))
            elif c.get("type") == "recommendation":
                self.recommendation = _text(c.get("description"))

    def _asset_names(self) -> dict[int, tuple[str, str]]:
        """code and name of every asset (and alternate) in the classes, by id."""
        found: dict[int, tuple[str, str]] = {}
        for line in self.classes:
            for a in line.assets:
                found[a.asset_id] = (a.code, a.name)
                if a.alt_asset_id:
                    found.setdefault(a.alt_asset_id, (a.alt_code, a.alt_name))
        return found

    @rx.event
    def on_load(self):
        name, params = routes.match(self.router.url.path)
        preview = self.router.url.query_parameters.get("preview", "") in ("1", "true")
        mode = {"models.createModel": "new", "models.version": "version"}.get(name or "", "preview" if preview else "edit")
        self._reset(mode)
        list_url = routes.url("models.view")
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            return refused
        self.can_choose_firm = actor.is_superuser
        try:
            if mode == "new":
                self.can_edit = True
                self._owner_required = actor.is_superuser
                if not actor.is_superuser:
                    self.firm_id = str(actor.firm_id or "")
                    self._owner_id = actor.firm_id or 0
                    self.owner_name = self.firm_name
                self._load_options(actor, _int(self.firm_id))
                self._ensure_cash()
                self.loading = False
                return None
            if mode == "version":
                model = model_service.get_model_version(actor=actor, model_id=params.get("id"),
                                                        version=params.get("version"))
                self._fill(model)
                self._load_options(actor, _owner_id(model) or None)
                self._fill_version(actor, model, params.get("version"))
                self.can_edit = False
                self.loading = False
                return None
            model = model_service.get_model(actor=actor, model_id=params.get("id"))
            self.can_edit = bool(model.get("can_edit")) and can_edit_model(actor, _owner_id(model))
            if not self.can_edit:
                # spec 000 s6: the form sends a user whose firm does not own the model to the details
                self.loading = False
                return rx.redirect(routes.url("models.details", id=int(model["id"])))
            self._fill(model)
            self._load_options(actor, _owner_id(model) or None)
        except Exception as exc:
            self.loading = False
            return _load_failed(self, exc, list_url)
        self.loading = False
        return None

    def _fill_version(self, actor, model: dict[str, Any], version: Any) -> None:
        self.version_number = _int(model.get("version_id") or version) or 0
        self.version_at = _text(model.get("version_created_at") or model.get("saved_at") or model.get("updated_at"))
        who = model.get("moderator") or {}
        self.version_by = f"{_text(who.get('first_name'))} {_text(who.get('last_name'))}".strip() if who else ""
        if self.version_by and self.version_at:
            return
        # the history row of this version names who saved it and when: versions are numbered from 1
        # and listed newest first, so the row is expected at (current - version); else look through
        current = _int(model.get("current_version")) or self.version_number
        guess = max(0, current - self.version_number)
        rows, count = model_service.model_history(actor=actor, model_id=self._model_id, limit=1, offset=guess)
        row = next((r for r in rows if _int(r.get("version_id")) == self.version_number), None)
        offset = 0
        while row is None and offset < int(count or 0):
            rows, count = model_service.model_history(actor=actor, model_id=self._model_id, limit=100, offset=offset)
            row = next((r for r in rows if _int(r.get("version_id")) == self.version_number), None)
            offset += 100
            if not rows:
                break
        if row is not None:
            who = row.get("moderator") or {}
            self.version_by = f"{_text(who.get('first_name'))} {_text(who.get('last_name'))}".strip()
            self.version_at = _text(row.get("created_at")) or self.version_at

    # ---- guards ---------------------------------------------------------------------------------
    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit and not self.loading and not self._saved

    def _changed(self) -> None:
        self.form_dirty = True
        if self.submitted:
            self._validate()

    # ---- top of the form --------------------------------------------------------------------------
    @rx.event
    def set_name(self, value: str):
        if not self._editable():
            return
        self.name = str(value or "")[:NAME_MAX]
        self._changed()

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
        if not self._editable() or key not in SWITCHES:
            return
        setattr(self, key, bool(value))
        self._changed()

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
            self._pending_firm = value
            self.firm_confirm_open = True
            return None
        return self._apply_firm(value)

    @rx.event
    def confirm_firm_change(self):
        self.firm_confirm_open = False
        value, self._pending_firm = self._pending_firm, ""
        if not value or not self._editable():
            return None
        return self._apply_firm(value)

    @rx.event
    def cancel_firm_change(self):
        self.firm_confirm_open = False
        self._pending_firm = ""

    def _apply_firm(self, value: str):
        try:
            actor = self._actor()
            if not actor.is_superuser:
                return None
            self.firm_id = value
            self._owner_id = int(value)
            self.owner_name = next((o.label for o in self.firm_options if o.value == value), "")
            self._load_options(actor, int(value))
        except DomainError as exc:
            return self._fail(exc)
        self.classes = []
        self._ensure_cash()
        self.percentages = []
        self.shared_firm_ids = [f for f in self.shared_firm_ids if f != value]
        self._changed()
        return None

    # ---- classes ----------------------------------------------------------------------------------
    def _class_at(self, index: Any) -> int | None:
        i = _int(index)
        return i if i is not None and 0 <= i < len(self.classes) else None

    @rx.event
    def add_class(self, class_id: str):
        if not self._editable() or (self.can_choose_firm and not self.firm_id):
            return
        class_id_i = _int(class_id)
        option = next((c for c in self.class_options if c.id == class_id_i), None)
        if option is None or any(c.class_id == option.id for c in self.classes):
            return
        self.classes = self.classes + [ClassLine(class_id=option.id, title=option.title, is_cash=option.is_cash,
                                                 priority=str(len(self.classes) + 1))]
        self._changed()

    @rx.event
    def remove_class(self, index: Any):
        i = self._class_at(index)
        if not self._editable() or i is None or self.classes[i].is_cash:
            return
        self.classes = [c for k, c in enumerate(self.classes) if k != i]
        self._sync_percentages()
        self._changed()

    @rx.event
    def set_class_field(self, index: Any, key: str, value: str):
        i = self._class_at(index)
        if not self._editable() or i is None or key not in CLASS_FIELDS:
            return
        lines = list(self.classes)
        lines[i] = dataclasses.replace(lines[i], **{key: str(value or "")[:TEXT_MAX]})
        self.classes = lines
        self._changed()

    @rx.event
    def set_asset_priority(self, index: Any, asset_index: Any, value: str):
        i, j = self._class_at(index), _int(asset_index)
        if not self._editable() or i is None or j is None or not 0 <= j < len(self.classes[i].assets):
            return
        self._replace_asset(i, j, priority=str(value or "")[:TEXT_MAX])
        self._changed()

    @rx.event
    def remove_asset(self, index: Any, asset_index: Any):
        i, j = self._class_at(index), _int(asset_index)
        if not self._editable() or i is None or j is None or not 0 <= j < len(self.classes[i].assets):
            return
        lines = list(self.classes)
        lines[i] = dataclasses.replace(lines[i], assets=[a for k, a in enumerate(lines[i].assets) if k != j])
        self.classes = lines
        self._sync_percentages()
        self._changed()

    @rx.event
    def clear_alternate(self, index: Any, asset_index: Any):
        i, j = self._class_at(index), _int(asset_index)
        if not self._editable() or i is None or j is None or not 0 <= j < len(self.classes[i].assets):
            return
        self._replace_asset(i, j, alt_asset_id=0, alt_code="", alt_name="")
        self._sync_percentages()
        self._changed()

    def _replace_asset(self, i: int, j: int, **changes: Any) -> None:
        lines = list(self.classes)
        assets = list(lines[i].assets)
        assets[j] = dataclasses.replace(assets[j], **changes)
        lines[i] = dataclasses.replace(lines[i], assets=assets)
        self.classes = lines

    # ---- types and industry groups ----------------------------------------------------------------
    @rx.event
    def set_type_field(self, index: Any, key: str, value: str):
        i = _int(index)
        if not self._editable() or i is None or not 0 <= i < len(self.types) or key not in RANGE_FIELDS:
            return
        lines = list(self.types)
        lines[i] = dataclasses.replace(lines[i], **{key: str(value or "")[:TEXT_MAX]})
        self.types = lines
        self._changed()

    @rx.event
    def add_group(self, group_id: Any):
        if not self._editable():
            return
        gid = _int(group_id)
        option = next((g for g in self.group_options if g.id == gid), None)
        if option is None or any(g.industry_group_id == option.id for g in self.groups):
            return
        self.groups = self.groups + [GroupLine(industry_group_id=option.id, title=option.title, color=option.color,
                                               priority=str(len(self.groups) + 1))]
        self._changed()

    @rx.event
    def set_group_picker_open(self, value: bool):
        if value and not self._editable():
            return
        self.group_picker_open = bool(value)
        self.group_search = ""

    @rx.event
    def set_group_search(self, value: str):
        self.group_search = str(value or "")[:100]

    @rx.event
    def remove_group(self, index: Any):
        i = _int(index)
        if not self._editable() or i is None or not 0 <= i < len(self.groups):
            return
        self.groups = [g for k, g in enumerate(self.groups) if k != i]
        self._changed()

    @rx.event
    def set_group_field(self, index: Any, key: str, value: str):
        i = _int(index)
        if not self._editable() or i is None or not 0 <= i < len(self.groups) or key not in GROUP_FIELDS:
            return
        lines = list(self.groups)
        lines[i] = dataclasses.replace(lines[i], **{key: str(value or "")[:TEXT_MAX]})
        self.groups = lines
        self._changed()

    # ---- equivalents --------------------------------------------------------------------------------
    @rx.event
    def add_equivalent(self):
        if not self._editable():
            return
        self.equivalents = self.equivalents + [EquivalentLine()]
        self._changed()

    @rx.event
    def remove_equivalent(self, index: Any):
        i = _int(index)
        if not self._editable() or i is None or not 0 <= i < len(self.equivalents):
            return
        self.equivalents = [e for k, e in enumerate(self.equivalents) if k != i]
        self._changed()

    # ---- percentages ---------------------------------------------------------------------------------
    def _sync_percentages(self, saved: dict[int, tuple[str, int, str, str]] | None = None) -> None:
        """One percentage line per asset in the classes, keeping what was typed for each asset. The
        alternative is the class asset's alternate (one value, shown on both tabs)."""
        known = {p.asset_id: p.allocation for p in self.percentages}
        lines: list[PercentLine] = []
        for c in self.classes:
            for a in c.assets:
                allocation = known.get(a.asset_id, (saved or {}).get(a.asset_id, ("",))[0])
                lines.append(PercentLine(asset_id=a.asset_id, class_id=c.class_id, class_title=c.title, code=a.code,
                                         name=a.name, allocation=allocation, alternative=a.alt_asset_id,
                                         alt_code=a.alt_code, alt_name=a.alt_name))
        self.percentages = lines

    def _class_asset_of(self, asset_id: int) -> tuple[int, int] | None:
        for i, c in enumerate(self.classes):
            for j, a in enumerate(c.assets):
                if a.asset_id == asset_id:
                    return i, j
        return None

    @rx.event
    def set_percentage(self, index: Any, value: str):
        i = _int(index)
        if not self._editable() or i is None or not 0 <= i < len(self.percentages):
            return
        lines = list(self.percentages)
        lines[i] = dataclasses.replace(lines[i], allocation=str(value or "")[:TEXT_MAX])
        self.percentages = lines
        self._changed()

    @rx.event
    def clear_percent_alternative(self, index: Any):
        i = _int(index)
        if not self._editable() or i is None or not 0 <= i < len(self.percentages):
            return
        where = self._class_asset_of(self.percentages[i].asset_id)
        if where is not None:
            self._replace_asset(*where, alt_asset_id=0, alt_code="", alt_name="")
        self._sync_percentages()
        self._changed()

    # ---- commentary and availability ----------------------------------------------------------------
    @rx.event
    def set_commentary(self, kind: str, value: str):
        if not self._editable() or kind not in ("market", "recommendation"):
            return
        setattr(self, kind, str(value or "")[:COMMENTARY_MAX])
        self._changed()

    @rx.event
    def add_shared_firm(self, firm_id: str):
        if not self._editable() or _int(firm_id) is None or firm_id == self.firm_id:
            return
        if firm_id in self.shared_firm_ids or not any(o.value == firm_id for o in self.firm_options):
            return
        self.shared_firm_ids = self.shared_firm_ids + [firm_id]
        self._changed()

    @rx.event
    def remove_shared_firm(self, firm_id: str):
        if not self._editable() or firm_id not in self.shared_firm_ids:
            return
        self.shared_firm_ids = [f for f in self.shared_firm_ids if f != firm_id]
        self._changed()

    # ---- the asset picker ----------------------------------------------------------------------------
    def _target_ok(self, target: str) -> bool:
        parts = target.split(":")
        kind = parts[0] if parts else ""
        nums = [_int(p) for p in parts[1:]]
        if any(n is None or n < 0 for n in nums):
            return False
        if kind == "class" and len(nums) == 1:
            return nums[0] < len(self.classes)
        if kind == "alt" and len(nums) == 2:
            return nums[0] < len(self.classes) and nums[1] < len(self.classes[nums[0]].assets)
        if kind in ("eq", "eqq") and len(nums) == 1:
            return nums[0] < len(self.equivalents)
        if kind == "pct" and len(nums) == 1:
            return nums[0] < len(self.percentages)
        return False

    def _picker_class(self, target: str) -> int | None:
        """The asset class the picker offers for a slot (a class's assets and their alternates)."""
        parts = target.split(":")
        if parts[0] in ("class", "alt"):
            return self.classes[int(parts[1])].class_id
        if parts[0] == "pct":
            return self.percentages[int(parts[1])].class_id
        return None

    def _picker_title(self, target: str) -> str:
        parts = target.split(":")
        if parts[0] == "class":
            return f"Add asset to {self.classes[int(parts[1])].title}"
        if parts[0] == "alt":
            return f"Alternate for {self.classes[int(parts[1])].assets[int(parts[2])].code}"
        if parts[0] == "pct":
            return f"Alternative for {self.percentages[int(parts[1])].code}"
        return "Select equivalent asset" if parts[0] == "eqq" else "Select asset"

    def _begin_pick(self, target: str) -> tuple[int | None, int | None] | None:
        """Remember the slot; (firm id, class id) to filter the picker by, or None when refused."""
        if not self._editable() or not self._target_ok(target):
            return None
        self._pick_target = target
        return _int(self.firm_id), self._picker_class(target)

    def _apply_pick(self, asset_id: Any, code: Any, name: Any):
        """Put the picked asset into the slot chosen by _begin_pick (the service checks it on save)."""
        target, self._pick_target = self._pick_target, ""
        asset_id = _int(asset_id)
        if not self._editable() or asset_id is None or not target or not self._target_ok(target):
            return None
        code, name = _text(code), _text(name)
        parts = target.split(":")
        kind, nums = parts[0], [int(p) for p in parts[1:]]
        in_model = {a.asset_id for c in self.classes for a in c.assets}
        if kind == "class":
            if asset_id in in_model:
                return toast_warning(ASSET_ALREADY_ADDED.format(code=code))
            lines = list(self.classes)
            line = lines[nums[0]]
            lines[nums[0]] = dataclasses.replace(line, assets=line.assets + [
                AssetLine(asset_id=asset_id, code=code, name=name, priority=str(len(line.assets) + 1))])
            self.classes = lines
            self._sync_percentages()
        elif kind == "alt":
            if asset_id == self.classes[nums[0]].assets[nums[1]].asset_id:
                return None
            self._replace_asset(nums[0], nums[1], alt_asset_id=asset_id, alt_code=code, alt_name=name)
        elif kind in ("eq", "eqq"):
            lines = list(self.equivalents)
            side = ({"asset_id": asset_id, "code": code, "name": name} if kind == "eq"
                    else {"eq_asset_id": asset_id, "eq_code": code, "eq_name": name})
            lines[nums[0]] = dataclasses.replace(lines[nums[0]], **side)
            self.equivalents = lines
        elif kind == "pct":
            where = self._class_asset_of(self.percentages[nums[0]].asset_id)
            if where is None or asset_id == self.percentages[nums[0]].asset_id:
                return None
            self._replace_asset(*where, alt_asset_id=asset_id, alt_code=code, alt_name=name)
        self._sync_percentages()
        self._changed()
        return None

    @rx.event
    def open_picker(self, target: str):
        """Open the shared asset picker for a slot: "class:i" (add to class i), "alt:i:j" (alternate of
        asset j of class i), "eq:k" / "eqq:k" (the sides of equivalents row k), "pct:k" (alternative
        of percentage row k). It searches the owner firm's assets, of the slot's class where it has one."""
        target = str(target or "")
        found = self._begin_pick(target)
        if found is None:
            return None
        firm_id, class_id = found
        return AssetPickerState.open_for(target, firm_id, class_id, self._picker_title(target))

    @rx.event
    async def asset_picked(self, target: str):
        """The picker's choice for `target`: taken from the picker's own search results (take_pick)."""
        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, str(target or ""))
        if asset is None or target != self._pick_target:
            return None
        return self._apply_pick(asset["id"], asset["code"], asset["name"])

    # ---- payload and validation ----------------------------------------------------------------------
    def _payload(self, status: str) -> dict[str, Any]:
        """The REST body of POST/PUT /api/models."""
        sharing = self.investment and not self.all_firms and self.share_firms
        data: dict[str, Any] = {
            "name": self.name.strip(),
            "status": status,
            "allocation_method": self.method,
            "ownerId": _int(self.firm_id),
            "firms": [int(f) for f in self.shared_firm_ids if _int(f) is not None] if sharing else [],
            "investment": self.investment,
            "all": self.all_firms,
            "analyst_recommendations": self.analyst_recommendations,
            "class_allocation": self.class_allocation,
            "type_allocation": self.type_allocation,
            "industry_group_allocation": self.industry_group_allocation,
            "allocation_classes": [
                {"class_id": c.class_id, "allocation": _num_or_none(c.allocation), "min": _num_or_none(c.min),
                 "max": _num_or_none(c.max), "assets_limit": _int_or_text(c.assets_limit),
                 "priority": _int_or_text(c.priority) if c.priority.strip() else i + 1,
                 "assets": [{"asset_id": a.asset_id, "alt_asset_id": a.alt_asset_id or None,
                             "priority": _int_or_text(a.priority) if a.priority.strip() else j + 1}
                            for j, a in enumerate(c.assets)]}
                for i, c in enumerate(self.classes)
            ],
            "allocation_types": [
                {"type_id": t.type_id, "allocation": _num_or_none(t.allocation), "min": _num_or_none(t.min),
                 "max": _num_or_none(t.max)}
                for t in self.types if t.allocation.strip() or t.min.strip() or t.max.strip()
            ],
            "industry_groups_allocations": [
                {"industry_group_id": g.industry_group_id, "allocation": _num_or_none(g.allocation),
                 "min": _num_or_none(g.min), "max": _num_or_none(g.max),
                 "priority": _int_or_text(g.priority) if g.priority.strip() else i + 1}
                for i, g in enumerate(self.groups)
            ],
            "equivalents": [{"asset_id": e.asset_id or None, "eq_asset_id": e.eq_asset_id or None}
                            for e in self.equivalents],
            "assets_percentages_allocations": [
                {"asset_id": p.asset_id, "class_id": p.class_id, "allocation": _num_or_none(p.allocation),
                 "alternative": p.alternative or None}
                for p in self.percentages
            ] if self.method == AllocationMethod.PERCENTAGES.value else [],
            "commentaries": [{"type": kind, "description": text}
                             for kind, text in (("market", self.market), ("recommendation", self.recommendation))
                             if text.strip()],
        }
        if self.mode == "edit":
            data["version"] = self._version
        return data

    def _sharing_error(self) -> dict[str, str]:
        if self.investment and not self.all_firms and self.share_firms and not self.shared_firm_ids:
            return {"firms": SELECT_SHARING_FIRM}
        return {}

    def _remap(self, fields: dict[str, str]) -> dict[str, str]:
        """Field keys of the payload -> keys of the rows on screen (the payload leaves out type rows
        with nothing typed, so its type indexes differ from the screen's)."""
        typed = [i for i, t in enumerate(self.types) if t.allocation.strip() or t.min.strip() or t.max.strip()]
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
        _, fields, message = model_rules.clean_model(self._payload(status), owner_required=self._owner_required)
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
    def _save(self, status: str, then: str | None):
        try:
            actor = self._actor()
        except AuthenticationError as exc:
            return self._fail(exc)
        if not self._editable() or status not in STATUS_TITLES:
            return None
        self.submitted = True
        self._last_status = status
        sharing = self._sharing_error()
        if sharing:
            self.errors, self.message = {**self.errors, **sharing}, SELECT_SHARING_FIRM
            self.tab = "availability"
            return toast_error(SELECT_SHARING_FIRM)
        payload = self._payload(status)
        try:
            if self.mode == "new":
                saved = model_service.create_model(actor=actor, data=payload)
            else:
                saved = model_service.update_model(actor=actor, model_id=self._model_id, data=payload)
        except ValidationError as exc:
            self.errors = self._remap(dict(exc.fields or {}))
            self.message = exc.message
            self._show_error_tab()
            return self._fail(exc)
        except DomainError as exc:  # Conflict (saved by someone else meanwhile), NotFound, PermissionDenied
            self.message = exc.message
            return self._fail(exc)
        self.errors, self.message = {}, ""
        self._saved = True
        self.form_dirty = False
        self.leave_open = False
        model_id = _int(saved.get("id")) or self._model_id
        return [toast_success(_text(saved.get("message"))),
                rx.redirect(then or routes.url("models.details", id=model_id))]

    def _show_error_tab(self) -> None:
        """Open the first tab with a field error when the current one has none."""
        if self._tab_has_error(self.tab):
            return
        for tab in TABS:
            if self._tab_has_error(tab):
                self.tab = tab
                return

    def _tab_has_error(self, tab: str) -> bool:
        return _has_prefix(self.errors, TAB_ERROR_PREFIXES.get(tab, ()))

    @rx.event
    def save(self, status: str):
        if self.saving:
            return
        self.saving = True
        yield
        try:
            events = self._save(str(status), None)
        finally:
            self.saving = False
        yield events

    @rx.event
    def save_and_leave(self):
        """The leave dialog's Save: save as the status the model has now (draft for a new one), then go."""
        self.leave_open = False
        self.saving = True
        yield
        try:
            status = self.status if self.mode == "edit" else ModelStatus.DRAFT.value
            events = self._save(status, self.leave_to or None)
        finally:
            self.saving = False
        yield events

    # ---- navigation ------------------------------------------------------------------------------------
    @rx.event
    def cancel(self):
        if self._model_id and self.mode != "new":
            return AppState.navigate(routes.url("models.details", id=self._model_id))
        return AppState.navigate(routes.url("models.view"))

    @rx.event
    def edit(self):
        if not self._model_id or not self.can_edit:
            return None
        return rx.redirect(routes.url("models.changeModel", id=self._model_id))

    @rx.event
    def go(self, route_name: str):
        if route_name not in LIST_ROUTES or not self._model_id:
            return None
        return AppState.navigate(routes.url(route_name, id=self._model_id))

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
        return STATUS_TITLES.get(self.status, self.status)

    @rx.var
    def is_percentages(self) -> bool:
        return self.method == AllocationMethod.PERCENTAGES.value

    @rx.var
    def firm_chosen(self) -> bool:
        return self.firm_id != ""

    @rx.var
    def can_add_class(self) -> bool:
        """Spec 000 s5: adding a class is disabled for a superuser until a firm is chosen."""
        return not (self.can_choose_firm and self.firm_id == "")

    @rx.var
    def addable_classes(self) -> list[ClassOption]:
        added = {c.class_id for c in self.classes}
        return [c for c in self.class_options if c.id not in added]

    @rx.var
    def addable_groups(self) -> list[GroupOption]:
        """The picker's groups: not yet added, matching its search."""
        added = {g.industry_group_id for g in self.groups}
        needle = self.group_search.strip().casefold()
        return [g for g in self.group_options if g.id not in added and needle in g.title.casefold()]

    @rx.var
    def all_groups_added(self) -> bool:
        added = {g.industry_group_id for g in self.groups}
        return all(g.id in added for g in self.group_options)

    @rx.var
    def share_options(self) -> list[Option]:
        """Firms to share with: every offered firm but the owner and those already chosen."""
        return [o for o in self.firm_options if o.value != self.firm_id and o.value not in self.shared_firm_ids]

    @rx.var
    def shared_firms(self) -> list[Option]:
        names = {o.value: o.label for o in self.firm_options}
        return [Option(value=f, label=names.get(f, f"Firm {f}")) for f in self.shared_firm_ids]

    @rx.var
    def owner_label(self) -> str:
        if self.owner_name:
            return self.owner_name
        return next((o.label for o in self.firm_options if o.value == self.firm_id), "")

    @rx.var
    def class_total(self) -> str:
        return total_text(_classes_total(self.classes, self.percentages, self.method))

    @rx.var
    def class_total_width(self) -> str:
        return bar_width(_classes_total(self.classes, self.percentages, self.method))

    @rx.var
    def class_total_color(self) -> str:
        """The totals bar colour (spec 002 s4): success at exactly 100, warning below, danger above."""
        return class_total_color(_classes_total(self.classes, self.percentages, self.method))

    @rx.var
    def groups_total(self) -> str:
        return total_text(_total([g.allocation for g in self.groups]))

    @rx.var
    def groups_total_width(self) -> str:
        return bar_width(_total([g.allocation for g in self.groups]))

    @rx.var
    def groups_total_color(self) -> str:
        """Industry groups (spec 002 s4): danger above 100, else success."""
        return industry_total_color(_total([g.allocation for g in self.groups]))

    @rx.var
    def availability(self) -> str:
        count = len(self.shared_firm_ids) if (self.share_firms and not self.all_firms) else 0
        return derive_availability(self.investment, self.all_firms, count).value

    @rx.var
    def availability_text(self) -> str:
        return AVAILABILITY_TEXTS.get(self.availability, "")

    @rx.var
    def tab_errors(self) -> dict[str, bool]:
        return {tab: _has_prefix(self.errors, TAB_ERROR_PREFIXES[tab]) for tab in TABS}

    @rx.var
    def show_banner(self) -> bool:
        return self.mode == "version"


# ---- details --------------------------------------------------------------------------------------------
def _detail_asset(entry: dict[str, Any]) -> DetailAsset:
    alt = entry.get("alt_asset") or None
    group = entry.get("industry_group") or {}
    out = DetailAsset(
        asset_id=_int(entry.get("asset_id") or entry.get("id")) or 0,
        code=_text(entry.get("code")),
        name=_text(entry.get("name")),
        url=_text(entry.get("url")),
        price=money_text(entry.get("price")),
        one_month=percent_text(entry.get("one_month_return")),
        one_month_sign=sign_of(entry.get("one_month_return")),
        since_inclusion=percent_text(entry.get("since_inclusion_return")),
        since_inclusion_sign=sign_of(entry.get("since_inclusion_return")),
        dividend_yield=percent_text(entry.get("dividend_yield")),
        dividend_yield_sign=sign_of(entry.get("dividend_yield")),
        group_title=_text(group.get("title")) if isinstance(group, dict) else "",
        group_color=_text(group.get("color")) if isinstance(group, dict) else "",
    )
    if isinstance(alt, dict) and alt:
        out.has_alt = True
        out.alt_code = _text(alt.get("code"))
        out.alt_name = _text(alt.get("name"))
        out.alt_price = money_text(alt.get("price"))
        out.alt_one_month = percent_text(alt.get("one_month_return"))
        out.alt_one_month_sign = sign_of(alt.get("one_month_return"))
        out.alt_since_inclusion = percent_text(alt.get("since_inclusion_return"))
        out.alt_since_inclusion_sign = sign_of(alt.get("since_inclusion_return"))
        out.alt_dividend_yield = percent_text(alt.get("dividend_yield"))
        out.alt_dividend_yield_sign = sign_of(alt.get("dividend_yield"))
    return out


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
    def on_load(self):
        self.loading = True
        self.classes, self.chart = [], []
        self.name = self.market = self.recommendation = ""
        self.show_alternates = False
        self._model_id = 0
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            return refused
        try:
            found = model_service.model_details(actor=actor, model_id=routes.param(self.router.url.path, "id"))
        except Exception as exc:
            self.loading = False
            return _load_failed(self, exc, routes.url("models.view"))
        model = found.get("model") or {}
        self._model_id = int(model["id"])
        self.name = _text(model.get("name"))
        self.status = _text(model.get("status"))
        self.status_title = _text(model.get("status_title")) or STATUS_TITLES.get(self.status, self.status)
        method = _text(model.get("allocation_method"))
        self.method_title = METHOD_TITLES.get(method, method)
        self.owner_name = _owner_name(model)
        self.availability_title = _availability_title(model.get("availability"))
        self.analyst_recommendations = bool(model.get("analyst_recommendations"))
        self.can_edit = bool(model.get("can_edit")) and can_edit_model(actor, _owner_id(model))
        self.version = _int(model.get("version_id") or model.get("version")) or 0
        self.updated_at = _text(model.get("updated_at"))
        self.classes = [
            DetailClass(class_id=_int(c.get("class_id")) or 0, title=_text(c.get("title")),
                        allocation=percent_text(c.get("allocation")),
                        assets=[_detail_asset(a) for a in c.get("assets") or []])
            for c in found.get("classes") or []
        ]
        chart = []
        for c in found.get("classes") or []:
            value = _decimal(c.get("allocation"))
            # Recharts plots numbers: the float is for drawing only, the label shows the exact text
            chart.append({"title": _text(c.get("title")), "allocation": float(value or 0),
                          "label": percent_text(c.get("allocation"))})
        self.chart = chart
        for c in model.get("commentaries") or []:
            if c.get("type") == "market":
                self.market = _text(c.get("description"))
            elif c.get("type") == "recommendation":
                self.recommendation = _text(c.get("description"))
        self.loading = False
        return None

    @rx.event
    def set_show_alternates(self, value: bool):
        self.show_alternates = bool(value)

    @rx.event
    def go(self, route_name: str):
        if route_name not in LIST_ROUTES or not self._model_id:
            return None
        if route_name == "models.changeModel" and not self.can_edit:
            return None
        return AppState.navigate(routes.url(route_name, id=self._model_id))

    @rx.var
    def has_assets(self) -> bool:
        return any(c.assets for c in self.classes)

    @rx.var
    def has_alternates(self) -> bool:
        return any(a.has_alt for c in self.classes for a in c.assets)


# ---- history ----------------------------------------------------------------------------------------------
class ModelHistoryState(AppState):
    """models.history: every saved version, newest first, 12 / 20 / 32 a page."""

    loading: bool = True
    name: str = ""
    rows: list[HistoryRow] = []
    count: int = 0
    page: int = 1
    page_size: str = str(HISTORY_PAGE_SIZES[0])

    details_url: str = ""
    _model_id: int = 0
    _current: int = 0

    def _size(self) -> int:
        size = _int(self.page_size) or 0
        return size if size in HISTORY_PAGE_SIZES else HISTORY_PAGE_SIZES[0]

    def _load(self):
        try:
            actor = self._actor()
            rows, count = model_service.model_history(actor=actor, model_id=self._model_id, limit=self._size(),
                                                      offset=(self.page - 1) * self._size())
        except Exception as exc:
            self.loading = False
            if isinstance(exc, DomainError):
                return self._fail(exc)
            log.exception("model history failed", exc_info=exc)
            return toast_error(GENERIC)
        self.count = int(count or 0)
        out = []
        for r in rows:
            who = r.get("moderator") or {}
            version = _int(r.get("version_id")) or 0
            out.append(HistoryRow(version=version, created_at=_text(r.get("created_at")),
                                  who=f"{_text(who.get('first_name'))} {_text(who.get('last_name'))}".strip(),
                                  current=version == self._current))
        self.rows = out
        self.loading = False
        return None

    @rx.event
    def on_load(self):
        self.loading = True
        self.rows, self.count, self.page, self.name = [], 0, 1, ""
        self.details_url = ""
        self._model_id = self._current = 0
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            return refused
        try:
            model = model_service.get_model(actor=actor, model_id=routes.param(self.router.url.path, "id"))
        except Exception as exc:
            self.loading = False
            return _load_failed(self, exc, routes.url("models.view"))
        self._model_id = int(model["id"])
        self.details_url = routes.url("models.details", id=self._model_id)
        self._current = _int(model.get("version_id") or model.get("version")) or 0
        self.name = _text(model.get("name"))
        return self._load()

    @rx.event
    def set_page_size(self, value: str):
        if _int(value) not in HISTORY_PAGE_SIZES or not self._model_id:
            return None
        self.page_size = str(value)
        self.page = 1
        return self._load()

    @rx.event
    def go_to_page(self, page: Any):
        if not self._model_id:
            return None
        self.page = min(max(1, _int(page) or 1), self.pages)
        return self._load()

    @rx.event
    def open_version(self, version: Any):
        version = _int(version)
        if not self._model_id or version is None or version < 1:
            return None
        return AppState.navigate(routes.url("models.version", id=self._model_id, version=version))

    @rx.var
    def pages(self) -> int:
        size = _int(self.page_size) or 0
        return max(1, math.ceil(self.count / (size if size in HISTORY_PAGE_SIZES else HISTORY_PAGE_SIZES[0])))

    @rx.var
    def visible(self) -> list[int]:
        return visible_pages(self.page, self.pages)

    @rx.var
    def showing(self) -> str:
        if not self.count:
            return "No versions"
        size = _int(self.page_size) or 0
        size = size if size in HISTORY_PAGE_SIZES else HISTORY_PAGE_SIZES[0]
        first = (self.page - 1) * size + 1
        return f"Showing {first}-{min(first + len(self.rows) - 1, self.count)} of {self.count}"

    @rx.var
    def history_page_sizes(self) -> list[str]:
        return [str(s) for s in HISTORY_PAGE_SIZES]
