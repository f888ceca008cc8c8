"""Portfolio screens: the list in every context (portfolios.list, portfolios.me, clients.portfolios,
advisers.portfolios, firms.portfolios, models.portfolios), the portfolio form (clients.new-portfolio,
advisers.new-portfolio, portfolios.edit, portfolios.view) and the buy screen (portfolios.buy) that
links a model.

The context always comes from the route the browser is on; every handler resolves the acting user
from the token and goes through app.services.portfolios, which checks permission and scopes by firm
(the flags here only hide buttons). The ids of the records on screen stay in backend-only vars. The
form keeps what the user types as text, hands the service its PortfolioForm and, after
the first save attempt, validates live with the service's own rules (app.domain.portfolios)."""
from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any, Callable, ClassVar, Mapping

import reflex as rx

from app.domain import portfolios as rules
from app.domain.advice import auto_approval_title
from app.domain.allocations import allocation_total, class_total_color
from app.domain.errors import DomainError, ValidationError
from app.domain.ledger import TaxTreatment
from app.domain.permissions import Actor, is_staff
from app.domain.roles import Role
from app.services import firms as firm_service
from app.services import models as model_service
from app.services import portfolios as portfolio_service
from app.domain.portfolios import PortfolioFilter, read_filter
from app.services.portfolios import ModelLinked, ModelUnlinked, PortfolioDetail, PortfolioSummary
from app.services.tenancy import USER_NOT_FOUND
from app.services import records_of_advice, reference_data
from app.services import users as user_service
from app.ui.states.address import AddressForm
from app.ui.states.broker_credentials import BrokerCredentialsCard
from app.ui import routes
from app.ui.components.asset_picker import PickerSlot
from app.ui.components.industry_allocations import IndustryAllocationsMixin
from app.ui.states.base import AppState, toast_error, toast_success, toast_warning
from app.ui.display import text as _text
from app.ui.toolkit.lists import RECORD_PAGES, InRecord, ListControls, LoadMore
from app.ui.toolkit.saving import RecordForm, not_added
from app.ui.toolkit.screen import Confirm, Viewer, events, guarded, screen_load
from app.ui.parse import to_int as _int
from app.ui.rows.portfolios import (
    AwaitingRow, ExceptionLine, HolderLine, ModelChoice, PortfolioRow, awaiting_rows, class_band, exception_line,
    group_entries, portfolio_row, referer_query, unlink_question,
)
from app.ui.toolkit.rows import ClassBand, Option, TotalBar, keeping, label_of, offers, total_bar

log = logging.getLogger("app.ui.portfolios")

LIST_TITLE = "Portfolio List"
NEW_TITLE = "Portfolio Details - New"
DETAILS_TITLE = "Portfolio Details"
CRUMB = "Portfolios"
# list route -> the context its id names
LIST_CONTEXTS: dict[str, str] = {
    "portfolios.list": "",
    "portfolios.me": "me",
    "clients.portfolios": "client",
    "advisers.portfolios": "adviser",
    "firms.portfolios": "firm",
    "models.portfolios": "model",
}
FORM_ROUTES = ("clients.new-portfolio", "advisers.new-portfolio", "portfolios.edit", "portfolios.view")
FORM_MODES = {"clients.new-portfolio": "new", "advisers.new-portfolio": "new", "portfolios.edit": "edit"}  # else view
TEXT_MAX = 200
NUMBER_MAX = 20
NO_ADVISER = "none"
NO_CHOICE = "none"
FORM_TEXTS = ("name", "trustee_name", "trustee_abn", "company_name", "company_abn", "soa_date", "sell_look_back_period",
              "bank_bsb", "bank_account", "broker_account", "hin", "facility_id", *rules.FEE_FIELDS)
FORM_SELECTS = ("type", "tax_treatment", "institution_id", "broker_id", "adviser_id")
FORM_SWITCHES = ("class_allocation", "industry_group_allocation", "suspend_rebalancing", "suspend_tr_calculation")


# ---- small helpers --------------------------------------------------------------------------------
def _referer(state: AppState) -> str:
    """The path the page's refererStateName / refererStateParams query names (a signed-in route only), or ''."""
    name = state._query_text("refererStateName")
    if name not in routes.ROUTES or name in routes.PUBLIC:
        return ""
    try:
        params = json.loads(state._query_text("refererStateParams") or "{}")
        params = {str(k): _int(v) for k, v in params.items()} if isinstance(params, dict) else {}
        if any(v is None or v <= 0 for v in params.values()):
            return ""
        return routes.url(name, **params)
    except (ValueError, TypeError):
        return ""


def _model_toasts(done: ModelLinked | ModelUnlinked, text: str) -> list[Any]:
    """A model linked or unlinked: the success, and a warning when the custom asset classes changed."""
    return events(toast_success(text),
                  toast_warning(rules.CUSTOM_CLASSES_CHANGED) if done.custom_classes_changed else None)


# ---- the list -------------------------------------------------------------------------------------
class PortfoliosListState(Viewer, Confirm, InRecord, ListControls, AppState):
    SORT_KEYS: ClassVar[tuple[str, ...]] = rules.SORTS
    ADDRESS_FILTERS: ClassVar[Mapping[str, Callable[[str], Any]]] = {
        "activity": rules.activity_of, "broker_filter": lambda v: str(rules.broker_filter_of(v))}
    PAGE_SIZES: ClassVar[tuple[int, ...]] = rules.PAGE_SIZES
    DEFAULT_SIZE: ClassVar[int] = rules.DEFAULT_PAGE_SIZE

    sort: str = rules.DEFAULT_SORT
    order: str = rules.DEFAULT_ORDER
    page_size: str = str(rules.DEFAULT_PAGE_SIZE)
    route_name: str = ""
    context_kind: str = ""

    rows: list[PortfolioRow] = []
    loading: bool = True

    activity: str = rules.DEFAULT_ACTIVITY
    broker_filter: str = str(rules.BROKER_ALL)
    broker_options: list[Option] = []
    activity_options: list[Option] = [Option(value=k, label=t) for k, t in rules.ACTIVITY_TITLES.items()]
    new_url: str = ""
    staff: bool = False

    _context_id: int = 0

    # client home (portfolios.me): what awaits the client's decision
    awaiting: list[AwaitingRow] = []
    awaiting_loading: bool = True

    def _context(self) -> tuple[str, str]:
        """(route name, the kind of record it lists the portfolios of); the record is `_path_id()`."""
        name, _ = routes.match(self.router.url.path)
        if name not in LIST_CONTEXTS:
            name = "portfolios.list"
        return name, LIST_CONTEXTS[name]

    def _filter(self, actor: Actor) -> PortfolioFilter:
        kind = self.context_kind
        context = {"client_id": actor.id} if kind == "me" else \
            {f"{kind}_id": self._context_id} if kind in ("client", "adviser", "firm", "model") else {}
        # the activity filter is hidden from clients: theirs are all they hold
        return read_filter(broker_id=self.broker_filter,
                           activity_status=None if actor.role is Role.CLIENT else self.activity, **context)

    def _page(self, actor: Actor) -> tuple[list[PortfolioSummary], int]:
        found = portfolio_service.list_portfolios(
            actor=actor, where=self._filter(actor), limit=self._limit(), offset=self._offset(),
            sort=self.sort if self.sort in rules.SORTS else "name", order="desc" if self.order == "desc" else "asc",
            search=self.search.strip() or None)
        return list(found.rows), found.total

    def _load(self, actor: Actor) -> None:
        self.loading = False  # a failed load leaves the rows it had
        found: list[PortfolioSummary] = self._fetch_page(lambda: self._page(actor))
        back = referer_query(self.router.url.path)
        self.rows = [portfolio_row(p, back) for p in found]

    def _load_awaiting(self, actor: Actor) -> None:
        self.awaiting = awaiting_rows(records_of_advice.awaiting_decision(actor=actor))
        self.awaiting_loading = False

    def _setup_context(self, actor: Actor, kind: str) -> None:
        self._context_id = self._path_id() or 0
        if kind not in RECORD_PAGES:
            return
        if kind in ("client", "adviser"):
            person = user_service.get_user(actor=actor, user_id=self._context_id)
            if person.role is not Role(kind):
                raise DomainError(USER_NOT_FOUND)
            self._inside(kind, person.id, person.name)
            return
        if kind == "firm":
            found = firm_service.get_firm(actor=actor, firm_id=self._context_id)
            self._inside(kind, found.id, found.name)
            return
        model = model_service.get_model(actor=actor, model_id=self._context_id)
        self._inside(kind, model.id, model.name)

    def _back(self, actor: Actor) -> str:
        """Where a failed load of a client's, adviser's, firm's or model's portfolios goes: the parent list."""
        return routes.url(RECORD_PAGES[self.context_kind][1]) if self.context_kind in RECORD_PAGES else ""

    @rx.event
    @screen_load(back=_back)
    def on_load(self, actor: Actor):
        self._reset_screen()  # filters, sort and page as a fresh list has them
        name, kind = self._context()
        self.route_name, self.context_kind = name, kind
        self.staff = is_staff(actor)
        # clients have one list, their own; staff have no "own portfolios"
        if actor.role is Role.CLIENT and kind != "me":
            return rx.redirect(routes.url("portfolios.me"))
        if actor.role is not Role.CLIENT and kind == "me":
            return rx.redirect(routes.url("portfolios.list"))
        self._setup_context(actor, kind)
        self.broker_options = [Option(value=str(k), label=t) for k, t in rules.BROKER_FILTER_TITLES.items()] + \
            [Option(value=str(b.id), label=b.name) for b in reference_data.list_brokers(actor=actor)]
        # 'Add New' for non-clients, only when a client is given
        self.new_url = routes.url("clients.new-portfolio", id=self._context_id,
                                  query=referer_query(self.router.url.path)) \
            if self.staff and kind == "client" else ""
        if kind == "me":
            self._load_awaiting(actor)
        self._load(actor)
        return None

    @guarded
    def _reload(self):
        self._load(self._actor())

    # ---- toolbar ------------------------------------------------------------------------------------
    @rx.event
    def set_activity(self, value: str):
        self.activity = rules.activity_of(value)
        return self._reload_first_page()

    @rx.event
    def set_broker_filter(self, value: str):
        self.broker_filter = str(rules.broker_filter_of(value))
        return self._reload_first_page()

    @rx.event
    def clear_filters(self):
        self.search = ""
        self.activity = rules.DEFAULT_ACTIVITY
        self.broker_filter = str(rules.BROKER_ALL)
        return self._reload_first_page()

    # ---- row actions -----------------------------------------------------------------------------------
    def _row_of(self, portfolio_id: Any) -> PortfolioRow | None:
        pid = _int(portfolio_id)
        return next((r for r in self.rows if r.id == pid), None)

    @rx.event
    def ask_delete(self, portfolio_id: Any):
        row = self._row_of(portfolio_id)
        if row is not None and self.staff:
            self._ask("delete", rules.CONFIRM_DELETE, row.id)

    @rx.event
    @guarded
    def ask_unlink(self, portfolio_id: Any):
        row = self._row_of(portfolio_id)
        if row is None or not self.staff or not row.has_model:
            return
        self._ask("unlink", unlink_question(portfolio_service.get_portfolio(actor=self._actor(), portfolio_id=row.id)),
                  row.id, label="Unlink")

    def _confirmed(self, action: str, portfolio_id: int):
        actor = self._actor()
        if action == "delete":
            done = portfolio_service.delete_portfolio(actor=actor, portfolio_id=portfolio_id)
            return events(toast_success(done.message), self._reload())
        unlinked = portfolio_service.unlink_model(actor=actor, portfolio_id=portfolio_id)
        return events(_model_toasts(unlinked, unlinked.message), self._reload())

    # ---- what the screen shows ----------------------------------------------------------------------------
    @rx.var
    def filtered(self) -> bool:
        return bool(self.search) or self.activity != rules.DEFAULT_ACTIVITY or self.broker_filter != str(rules.BROKER_ALL)

    @rx.var
    def empty_text(self) -> str:
        if self.filtered:
            return "No portfolio matches these filters."
        if self.context_kind == "me":
            return "You hold no portfolios yet."
        if self.context_name:
            return f"{self.context_name} has no portfolios yet."
        return "There are no portfolios yet."

    @rx.var
    def show_firm(self) -> bool:
        return self.viewer_is_superuser and self.context_kind != "firm"


# ---- the form -------------------------------------------------------------------------------------
class PortfolioFormState(Confirm, RecordForm, PickerSlot, AddressForm, BrokerCredentialsCard, IndustryAllocationsMixin, AppState):
    """clients.new-portfolio, advisers.new-portfolio, portfolios.edit and portfolios.view."""

    mode: str = "view"  # new | edit | view
    loaded: bool = False
    errors: dict[str, str] = {}
    message: str = ""

    # identity and type-specific names
    name: str = ""
    type: str = ""
    trustee_name: str = ""
    trustee_abn: str = ""
    company_name: str = ""
    company_abn: str = ""
    soa_date: str = ""
    firm_label: str = ""
    inactive: bool = True
    # people
    holders: list[HolderLine] = []
    adviser_id: str = NO_ADVISER
    # bank and broker
    institution_id: str = NO_CHOICE
    bank_bsb: str = ""
    bank_account: str = ""
    broker_id: str = NO_CHOICE
    broker_account: str = ""
    hin: str = ""
    facility_id: str = ""
    # fees, tax, limits
    fee_percent: str = ""
    fee_limit_min: str = ""
    fee_limit_max: str = ""
    tax_treatment: str = rules.DEFAULT_TAX_TREATMENT
    sell_look_back_period: str = "0"
    limits: dict[str, str] = {f: "" for f in rules.LIMIT_FIELDS}
    # allocations and exceptions
    class_allocation: bool = False
    industry_group_allocation: bool = False
    suspend_rebalancing: bool = False
    suspend_tr_calculation: bool = False
    classes: list[ClassBand] = []
    exceptions: list[ExceptionLine] = []
    # approval settings
    approval: dict[str, bool] = {k: v for k, v in rules.default_approval_settings().items() if isinstance(v, bool)}
    auto_approval: str = "never"
    receivers: dict[str, str] = {k: "" for k in rules.APPROVAL_TEXTS}
    # the linked model
    model_name: str = ""
    model_cross_firm: bool = False

    # choices
    client_options: list[Option] = []
    adviser_options: list[Option] = []
    institution_options: list[Option] = []
    broker_options: list[Option] = []
    class_options: list[ClassBand] = []
    holding_options: list[Option] = []
    can_edit: bool = False
    can_edit_inactive: bool = False
    back_url: str = ""
    view_url: str = ""
    edit_url: str = ""
    holdings_url: str = ""
    buy_url: str = ""

    _portfolio_id: int = 0
    _version: int = 0
    _firm_id: int = 0
    _model_id: int = 0
    _names: dict[int, str] = {}

    # ---- loading --------------------------------------------------------------------------------
    def _fill_approval(self, settings: Mapping[str, bool | str]) -> None:
        # the portfolio's settings carry every key (the defaults filled in)
        self.approval = {k: bool(settings[k]) for k in rules.APPROVAL_FLAGS}
        self.auto_approval = _text(settings[rules.AUTO_APPROVAL]) or "never"
        self.receivers = {k: _text(settings[k]) for k in rules.APPROVAL_TEXTS}

    def _load_options(self, actor: Actor) -> None:
        options = portfolio_service.form_options(actor=actor, firm_id=self._firm_id or None)
        self._names = {c.id: c.name for c in options.clients}
        self.client_options = [Option(value=str(c.id), label=c.name) for c in options.clients]
        self.adviser_options = [Option(value=NO_ADVISER, label="No adviser")] + \
            [Option(value=str(c.id), label=c.name) for c in options.advisers]
        self.institution_options = [Option(value=NO_CHOICE, label="None")] + \
            [Option(value=str(i.id), label=i.title) for i in options.institutions]
        self.broker_options = [Option(value=NO_CHOICE, label="None")] + \
            [Option(value=str(b.id), label=b.name) for b in options.brokers]
        self.class_options = [ClassBand(class_id=c.id, title=c.title, is_cash=c.is_cash) for c in options.classes]
        self._ig_load_options(actor)

    def _fill(self, p: PortfolioDetail) -> None:
        self._portfolio_id, self._version, self._firm_id = p.id, p.version, p.firm_id
        self._model_id = p.model_id or 0
        self.name, self.type = p.name, p.type
        for key in ("trustee_name", "trustee_abn", "company_name", "company_abn", "bank_bsb", "bank_account",
                    "broker_account", "hin", "facility_id", "sell_look_back_period"):
            setattr(self, key, _text(getattr(p, key)))
        for key in rules.FEE_FIELDS:
            setattr(self, key, _text(p.limit(key)))
        self.soa_date = _text(p.soa_date)[:10]
        self.tax_treatment = p.tax_treatment or rules.DEFAULT_TAX_TREATMENT
        self.firm_label = _text(p.firm.name)
        self.inactive = p.inactive
        self.holders = [HolderLine(id=u.id, name=f"{u.first_name} {u.last_name}", is_owner=u.is_owner)
                        for u in p.holders]
        self.adviser_id = str(p.adviser_id) if p.adviser_id else NO_ADVISER
        self.institution_id = str(p.institution_id) if p.institution_id else NO_CHOICE
        self.broker_id = str(p.broker) if p.broker else NO_CHOICE
        self.limits = {f: _text(p.limit(f)) for f in rules.LIMIT_FIELDS}
        self.class_allocation, self.industry_group_allocation = p.class_allocation, p.industry_group_allocation
        self.suspend_rebalancing, self.suspend_tr_calculation = p.suspend_rebalancing, p.suspend_tr_calculation
        self.classes = [class_band(c) for c in p.allocation_classes]
        self.exceptions = [exception_line(e) for e in p.exceptions]
        self.holding_options = [Option(value=str(h.id), label=_text(h.name)) for h in p.custom_holdings]
        self._fill_approval(p.approval_settings)
        model = p.model
        self.model_name = _text(model.name if model is not None else None)
        self.model_cross_firm = rules.is_cross_firm(self._firm_id, model.firm_id if model is not None else None)
        self.can_edit = p.can_edit
        self.can_edit_inactive = p.can_edit_inactive

    def _urls(self) -> None:
        pid = self._portfolio_id
        back = referer_query(self.router.url.path)
        self.view_url = routes.url("portfolios.view", id=pid)
        self.edit_url = routes.url("portfolios.edit", id=pid, query=referer_query(routes.url("portfolios.view", id=pid)))
        self.holdings_url = routes.url("portfolios.holdings", id=pid)
        self.buy_url = routes.url("portfolios.buy", id=pid, query=back or None)

    def _back(self, actor: Actor) -> str:
        """spec 001 s8: a failed load shows the server message (or the default) and goes back to the list."""
        return self.back_url or routes.url("portfolios.me" if actor.role is Role.CLIENT else "portfolios.list")

    @rx.event
    @screen_load(failed=rules.LOAD_FAILED, back=_back)
    def on_load(self, actor: Actor):
        # every field to its default: a new portfolio starts from them
        mode = self._start(FORM_MODES, "view")
        self.back_url = _referer(self)
        if mode == "new":
            if not is_staff(actor):
                return self._send_client_home(actor)
            self._start_new(actor, routes.match(self.router.url.path)[0] or "", self._path_id() or 0)
        else:
            portfolio = portfolio_service.get_portfolio(actor=actor, portfolio_id=self._path_id() or 0)
            if mode == "edit" and not portfolio.can_edit:
                return rx.redirect(routes.url("portfolios.view", id=portfolio.id))  # clients only read
            self._fill(portfolio)
            self._fill_address(portfolio.address)
            self._urls()
            groups = group_entries(portfolio)
            self._ig_fill(groups)
            if self.can_edit:
                self._load_options(actor)
                self._ig_fill(groups)
            self._cred_load(actor, self.can_edit)
            institution = portfolio.institution
            self.adviser_options = keeping(self.adviser_options, self.adviser_id, _text(portfolio.adviser_name))
            self.institution_options = keeping(
                self.institution_options, self.institution_id, _text(institution.title if institution else None))
            self.broker_options = keeping(self.broker_options, self.broker_id, _text(portfolio.broker_name))
        self.loaded = True
        return None

    def _start_new(self, actor: Actor, route_name: str, person_id: int) -> None:
        person = user_service.get_user(actor=actor, user_id=person_id)
        wanted = Role.CLIENT if route_name == "clients.new-portfolio" else Role.ADVISER
        if person.role is not wanted or person.firm_id is None:
            raise DomainError(USER_NOT_FOUND)
        self._firm_id = person.firm_id
        self.firm_label = person.firm.name if person.firm else ""
        self.can_edit = True
        self.can_edit_inactive = actor.is_superuser
        self._load_options(actor)
        if wanted is Role.CLIENT:
            self.holders = [HolderLine(id=person.id, name=person.name, is_owner=True)]
            adviser = person.adviser_id
            if actor.role is Role.ADVISER:
                adviser = actor.id  # an adviser creating the portfolio is its adviser (001 s2)
            self.adviser_id = str(adviser) if adviser and offers(self.adviser_options, str(adviser)) \
                else NO_ADVISER
            if not self.back_url:
                self.back_url = routes.url("clients.portfolios", id=person.id)
        else:
            self.adviser_id = str(person.id)
            self.adviser_options = keeping(self.adviser_options, self.adviser_id, person.name)
            if not self.back_url:
                self.back_url = routes.url("advisers.portfolios", id=person.id)

    # ---- guards and live validation ---------------------------------------------------------------
    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit and self.loaded

    def _cred_portfolio_id(self) -> int:
        return self._portfolio_id if self.mode != "new" else 0

    def _form(self) -> rules.PortfolioForm:
        """The form as POST / PUT /api/investments read it: every field sent (the inactive flag where
        it may change), an adviser left out of a new portfolio as null (its creator advises it)."""
        def choice(value: str) -> int | None:
            return _int(value) if value not in (NO_CHOICE, NO_ADVISER, "") else None

        # each text as typed (blank: none), each limit likewise, each switch
        texts: dict[str, Any] = {key: getattr(self, key).strip() or None for key in FORM_TEXTS}
        limits: dict[str, Any] = {key: self.limits[key].strip() or None for key in rules.LIMIT_FIELDS}
        adviser = choice(self.adviser_id)
        new = self.mode == "new"
        return rules.PortfolioForm(
            **texts, **limits, **{key: getattr(self, key) for key in FORM_SWITCHES},
            type=self.type or None, tax_treatment=self.tax_treatment or None,
            institution_id=choice(self.institution_id), broker_id=choice(self.broker_id),
            inactive=self.inactive if self.can_edit_inactive else True,
            allocation_classes=tuple(rules.ClassRowForm(class_id=c.class_id, allocation=c.allocation.strip() or None,
                                                        min=c.min.strip() or None, max=c.max.strip() or None)
                                     for c in self.classes),
            industry_groups_allocations=tuple(rules.GroupRowForm(industry_group_id=r["industry_group_id"],
                                                                 allocation=r["allocation"] or None)
                                              for r in self.ig_rows),
            exceptions=tuple(rules.ExceptionRowForm(asset_id=e.asset_id or None,
                                                    custom_holding_id=e.custom_holding_id or None, action=e.action,
                                                    substitute_asset_id=e.substitute_id or None)
                             for e in self.exceptions),
            approval_settings={**self.approval, rules.AUTO_APPROVAL: self.auto_approval, **self.receivers},
            holders=tuple(rules.PortfolioHolder(id=h.id, is_owner=h.is_owner) for h in self.holders),
            adviser_id=adviser, address=self._address_payload(),
            firm_id=self._firm_id if new else None, version=None if new else str(self._version),
            sent=rules.EDITED_FIELDS if self.can_edit_inactive else rules.EDITED_FIELDS - {"inactive"},
            nulls=frozenset({"adviser_id"}) if adviser is None else frozenset(),
        )

    def _show(self, errors: dict[str, str], message: str) -> None:
        self.errors = dict(errors)
        self._show_address_errors(errors)
        self.message = message
        self.ig_total_error = errors.get("industry_groups_allocations", "")
        self.ig_submitted = True  # each row's allocation error is named by the row's place in the payload
        self._ig_show_errors({row["industry_group_id"]: {"allocation": errors[key]} for i, row in enumerate(self.ig_rows)
                              if (key := f"industry_groups_allocations.{i}.allocation") in errors})

    def _validate(self) -> None:
        try:
            _, errors, message = rules.clean_portfolio(self._form())
            address_errors = self._address_check()
            self._show({**errors, **address_errors}, message or ("" if not address_errors else rules.INVALID_FORM))
        except Exception as exc:  # live feedback must never break typing
            log.exception("live portfolio validation failed", exc_info=exc)

    # ---- setters (RecordForm._edit) -------------------------------------------------------------------
    @rx.event
    def set_field(self, key: str, value: str):
        if key not in FORM_TEXTS:
            return
        limit = NUMBER_MAX if key in rules.FEE_FIELDS or key == "sell_look_back_period" else TEXT_MAX
        self._edit(**{key: str(value or "")[:limit]})

    @rx.event
    def set_select(self, key: str, value: str):
        if key not in FORM_SELECTS:
            return
        allowed = {
            "type": set(rules.TYPE_TITLES), "tax_treatment": set(rules.TAX_TREATMENTS),
            "institution_id": {o.value for o in self.institution_options},
            "broker_id": {o.value for o in self.broker_options},
            "adviser_id": {o.value for o in self.adviser_options},
        }[key]
        if value in allowed:
            self._edit(**{key: value})

    @rx.event
    def set_limit(self, key: str, value: str):
        if key in rules.LIMIT_FIELDS:
            self._edit(limits={**self.limits, key: str(value or "")[:NUMBER_MAX]})

    @rx.event
    def set_switch(self, key: str, value: bool):
        if key in FORM_SWITCHES:
            self._edit(**{key: bool(value)})

    @rx.event
    def set_inactive(self, value: bool):
        if self.can_edit_inactive:
            self._edit(inactive=bool(value))

    # holders
    @rx.event
    def add_holder(self, user_id: str):
        uid = _int(user_id)
        if uid is None or uid not in self._names or any(h.id == uid for h in self.holders):
            return
        self._edit(holders=self.holders + [HolderLine(id=uid, name=self._names[uid], is_owner=True)])

    @rx.event
    def remove_holder(self, user_id: Any):
        uid = _int(user_id)
        self._edit(holders=[h for h in self.holders if h.id != uid])

    @rx.event
    def set_owner(self, user_id: Any, value: bool):
        uid = _int(user_id)
        self._edit(holders=[dataclasses.replace(h, is_owner=bool(value)) if h.id == uid else h for h in self.holders])

    # class allocation
    @rx.event
    def add_class(self, class_id: str):
        cid = _int(class_id)
        option = next((c for c in self.class_options if c.class_id == cid), None)
        if option is None or any(c.class_id == cid for c in self.classes):
            return
        self._edit(classes=self.classes + [dataclasses.replace(option)])

    @rx.event
    def remove_class(self, class_id: Any):
        cid = _int(class_id)
        self._edit(classes=[c for c in self.classes if c.class_id != cid])

    @rx.event
    def set_class_field(self, class_id: Any, key: str, value: str):
        cid = _int(class_id)
        if key in ("allocation", "min", "max"):
            typed: dict[str, Any] = {key: str(value or "")[:NUMBER_MAX]}
            self._edit(classes=[dataclasses.replace(c, **typed) if c.class_id == cid else c for c in self.classes])

    # exceptions
    @rx.event
    def add_holding_exception(self, holding_id: str):
        hid = _int(holding_id)
        option = next((o for o in self.holding_options if o.value == str(hid)), None)
        if hid is None or option is None or any(e.custom_holding_id == hid for e in self.exceptions):
            return
        self._edit(exceptions=self.exceptions + [ExceptionLine(custom_holding_id=hid, label=option.label,
                                                               action=rules.ExceptionAction.LOCK.value)])

    @rx.event
    def remove_exception(self, index: Any):
        self._remove_line("exceptions", index)

    @rx.event
    def set_exception_action(self, index: Any, action: str):
        i = self._at(index, self.exceptions)
        if i is None or action not in rules.EXCEPTION_TITLES:
            return
        keep = action == rules.ExceptionAction.SUBSTITUTE.value
        cleared: dict[str, Any] = {} if keep else {"substitute_id": 0, "substitute_code": "", "substitute_name": ""}
        self._replace("exceptions", i, action=action, **cleared)
        self._changed()

    @rx.event
    def open_picker(self, target: str):
        """The shared asset picker: "exception" (a new asset exception) or "substitute:i"."""
        target = str(target or "")
        if not self._editable():
            return None
        if target != "exception":
            kind, _, index = target.partition(":")
            if kind != "substitute" or self._at(index, self.exceptions) is None:
                return None
        title = "Exception asset" if target == "exception" else "Substitution"
        return self._open_picker(target, self._firm_id, None, title)

    @rx.event
    async def asset_picked(self, target: str):
        asset = await self._pick_for_slot(target)
        if asset is None or not self._editable():
            return None
        self._pick_target = ""
        if target == "exception":
            if any(e.asset_id == asset["id"] for e in self.exceptions):
                return toast_warning(f"{asset['code']} already has an exception.")
            self.exceptions = self.exceptions + [ExceptionLine(asset_id=asset["id"], code=asset["code"],
                                                               label=asset["name"],
                                                               action=rules.ExceptionAction.DONT_HOLD.value)]
        else:
            i = self._at(target.partition(":")[2], self.exceptions)
            if i is None:
                return None
            self._replace("exceptions", i, substitute_id=asset["id"], substitute_code=asset["code"],
                          substitute_name=asset["name"])
        self._changed()
        return None

    # approval settings (the switch rules apply live)
    @rx.event
    def set_approval(self, key: str, value: Any):
        if not self._editable() or (key not in rules.APPROVAL_FLAGS and key != rules.AUTO_APPROVAL):
            return
        current = {**self.approval, rules.AUTO_APPROVAL: self.auto_approval, **self.receivers}
        after = rules.apply_switch(current, key, value)
        self.approval = {k: bool(after[k]) for k in rules.APPROVAL_FLAGS}
        self.auto_approval = after[rules.AUTO_APPROVAL]
        self._changed()

    @rx.event
    def set_receivers(self, key: str, value: str):
        if key in rules.APPROVAL_TEXTS:
            self._edit(receivers={**self.receivers, key: str(value or "")[:rules.RECEIVERS_MAX]})

    # ---- saving -------------------------------------------------------------------------------------------
    @guarded
    def _save(self, actor: Actor, then: str | None):
        self._validate()
        if self.errors:
            return toast_error(self.message or rules.INVALID_FORM)
        saved = self._write_record(
            lambda: portfolio_service.create_portfolio(actor=actor, form=self._form()),
            lambda: portfolio_service.update_portfolio(actor=actor, portfolio_id=self._portfolio_id, form=self._form()))
        self._portfolio_id = saved.id
        # a new portfolio opens its details (it starts inactive: the default list filter would hide it)
        target = then or (routes.url("portfolios.view", id=self._portfolio_id) if self.mode == "new" else "") \
            or self.back_url or routes.url("portfolios.view", id=self._portfolio_id)
        return [toast_success(rules.SAVED), rx.redirect(target)]

    def _refused(self, exc: DomainError) -> None:
        if isinstance(exc, ValidationError):
            self._show(dict(exc.fields or {}), exc.message)
        else:
            self.message = exc.message

    @rx.event
    def cancel(self):
        target = self.back_url or (self.view_url if self.mode == "edit" else routes.url("portfolios.list"))
        return AppState.go_back(target)

    # ---- delete and unlink -----------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self):
        if self.can_edit and self._portfolio_id:
            self._ask("delete", rules.CONFIRM_DELETE, self._portfolio_id)

    @rx.event
    def ask_unlink(self):
        if self.can_edit and self._model_id:
            text = rules.CONFIRM_UNLINK_CROSS_FIRM if self.model_cross_firm else rules.CONFIRM_UNLINK
            self._ask("unlink", text.format(name=self.model_name), self._portfolio_id, label="Unlink")

    def _confirmed(self, action: str, portfolio_id: int):
        actor = self._actor()
        self.form_dirty = False
        if action == "delete":
            done = portfolio_service.delete_portfolio(actor=actor, portfolio_id=portfolio_id)
            return [toast_success(done.message), rx.redirect(self.back_url or routes.url("portfolios.list"))]
        unlinked = portfolio_service.unlink_model(actor=actor, portfolio_id=portfolio_id)
        # spec 001 s4: after unlinking, the page reloads
        return events(_model_toasts(unlinked, unlinked.message), PortfolioFormState.on_load)

    # ---- what the screen shows ----------------------------------------------------------------------------
    @rx.var
    def read_only(self) -> bool:
        return self.mode == "view" or not self.can_edit

    @rx.var
    def page_title(self) -> str:
        return NEW_TITLE if self.mode == "new" else DETAILS_TITLE

    @rx.var
    def shows_trustee(self) -> bool:
        return self.type in rules.TRUSTEE_TYPES

    @rx.var
    def shows_company(self) -> bool:
        return self.type in rules.COMPANY_TYPES

    @rx.var
    def addable_clients(self) -> list[Option]:
        return not_added(self.client_options, "value", (str(h.id) for h in self.holders))

    @rx.var
    def addable_classes(self) -> list[ClassBand]:
        return not_added(self.class_options, "class_id", (c.class_id for c in self.classes))

    @rx.var
    def addable_holdings(self) -> list[Option]:
        return not_added(self.holding_options, "value", (str(e.custom_holding_id) for e in self.exceptions))

    @rx.var
    def class_bar(self) -> TotalBar:
        return total_bar(allocation_total(c.allocation for c in self.classes), class_total_color)

    @rx.var
    def type_title(self) -> str:
        return rules.PortfolioType.title_of(self.type, "")

    @rx.var
    def holders_error(self) -> str:
        return self.errors.get("users", "")

    def _label(self, options: list[Option], value: str) -> str:
        return "" if value in (NO_CHOICE, NO_ADVISER) else label_of(options, value)

    @rx.var
    def adviser_label(self) -> str:
        return self._label(self.adviser_options, self.adviser_id) or "No adviser"

    @rx.var
    def institution_label(self) -> str:
        return self._label(self.institution_options, self.institution_id) or "—"

    @rx.var
    def broker_label(self) -> str:
        return self._label(self.broker_options, self.broker_id) or "—"

    @rx.var
    def soa_date_text(self) -> str:
        """The statement of advice date as DD/MM/YYYY (or a dash)."""
        parts = self.soa_date.split("-")
        return f"{parts[2]}/{parts[1]}/{parts[0]}" if len(parts) == 3 else "\u2014"

    @rx.var
    def tax_treatment_title(self) -> str:
        return TaxTreatment.title_of(self.tax_treatment, "")

    @rx.var
    def auto_approval_title(self) -> str:
        return auto_approval_title(self.auto_approval)


# ---- the buy screen: link a model -------------------------------------------------------------------
class PortfolioBuyState(Confirm, LoadMore, AppState):
    """portfolios.buy: the active models the portfolio's firm may link, to link one (001 s2, s4)."""

    PAGE_SIZES: ClassVar[tuple[int, ...]] = (rules.DEFAULT_PAGE_SIZE,)
    DEFAULT_SIZE: ClassVar[int] = rules.DEFAULT_PAGE_SIZE
    LIST_FAILED: ClassVar[str] = rules.LOAD_FAILED

    portfolio_name: str = ""
    current_model: str = ""
    current_cross_firm: bool = False
    custom_holdings: int = 0
    rows: list[ModelChoice] = []
    linking: bool = False
    back_url: str = ""
    holdings_url: str = ""
    view_url: str = ""

    _portfolio_id: int = 0

    def _fetch(self, actor: Actor, offset: int, limit: int) -> tuple[list[ModelChoice], int]:
        """A page of the linkable models; the portfolio's own facts come along with every page."""
        found = portfolio_service.linkable_models(actor=actor, portfolio_id=self._portfolio_id,
                                                  search=self.search or None, limit=limit, offset=offset)
        info = found.portfolio
        self.portfolio_name = info.name
        self.current_model = _text(info.model_name)
        self.current_cross_firm = info.model_cross_firm
        self.custom_holdings = info.custom_holdings
        rows = [ModelChoice(id=m.id, name=m.name, firm=_text(m.firm.name), method=m.allocation_method_title,
                            assets_count=m.assets_count, cross_firm=m.cross_firm, current=m.current)
                for m in found.rows]
        return rows, found.count

    def _back(self, actor: Actor) -> str:
        return self.back_url or routes.url("portfolios.list")

    @rx.event
    @screen_load(clients=False, failed=rules.LOAD_FAILED, back=_back)
    def on_load(self, actor: Actor):
        """Clients cannot link or unlink (001 s4)."""
        self.reset()
        self._portfolio_id = self._path_id() or 0
        self.back_url = _referer(self)
        self.holdings_url = routes.url("portfolios.holdings", id=self._portfolio_id or 0)
        self.view_url = routes.url("portfolios.view", id=self._portfolio_id or 0)
        self.rows, self.total = self._fetch(actor, 0, self._limit())
        self.loading = False

    @rx.event
    def ask_link(self, model_id: Any):
        row = next((r for r in self.rows if r.id == _int(model_id)), None)
        if row is None or row.current:
            return
        cross = row.cross_firm or self.current_cross_firm
        self._ask("link", (rules.CONFIRM_LINK_CROSS_FIRM if cross else rules.CONFIRM_LINK).format(name=row.name),
                  row.id, label="Link")

    def _confirmed(self, action: str, model_id: int):
        if self.linking:
            return None
        self.linking = True
        try:
            done = portfolio_service.link_model(actor=self._actor(), portfolio_id=self._portfolio_id, model_id=model_id)
        finally:
            self.linking = False
        return events(_model_toasts(done, f"{rules.MODEL_LINKED}: {done.model_name}"),
                      rx.redirect(self.back_url or self.holdings_url))

    @rx.event
    def cancel(self):
        return AppState.go_back(self.back_url or self.holdings_url)
