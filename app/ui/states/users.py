"""Users screens: one list serving every user context (users, clients, advisers, a firm's clients
or advisers, an adviser's clients) and the user form in new / edit / view modes.

The context always comes from the route the browser is on (`routes.match`), and every handler
resolves the acting user from the token again; the services enforce every permission, the flags
computed here only hide buttons."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Callable, ClassVar, Mapping

import reflex as rx

from app.domain import validators as v
from app.domain.errors import PermissionDenied
from app.domain.permissions import (
    NOT_ALLOWED, Actor, can_delete_user, can_edit_user, creatable_roles, visible_roles,
)
from app.domain.roles import Role, UserStatus
from app.domain.users import USER_SORTS, clean_ar_number, clean_person, parse_role, read_user_form
from app.services import firms, models, portfolios, users
from app.services.tenancy import USER_NOT_FOUND
from app.services.users import UserView
from app.ui import routes
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.images import ImageStaging
from app.ui.toolkit.lists import FirmChoice, InRecord, ListControls
from app.ui.toolkit.saving import EditingForm
from app.ui.toolkit.screen import Confirm, Viewer, events, guarded, screen_load
from app.ui.states.person import PersonForm
from app.ui.states.address import AddressForm
from app.ui.rows.portfolios import referer_query
from app.ui.display import input_day
from app.ui.parse import to_int as _int
from app.ui.rows.users import UserAccount, UserRow, initials_of, iso_text
from app.ui.toolkit.rows import Option, field_errors, keeping, offers

# ---- contexts -----------------------------------------------------------------------------------
# list route -> (kind of the form routes, fixed role or "")
LIST_CONTEXTS: dict[str, tuple[str, str]] = {
    "users.list": ("users", ""),
    "clients.list": ("clients", Role.CLIENT.value),
    "advisers.list": ("advisers", Role.ADVISER.value),
    "firms.clients": ("clients", Role.CLIENT.value),
    "firms.advisers": ("advisers", Role.ADVISER.value),
    "advisers.clients": ("clients", Role.CLIENT.value),
    "models.clients": ("clients", Role.CLIENT.value),  # the clients holding a portfolio of the model
}
# the lists inside one record's pages (breadcrumbs: the records' list, the record, the list)
IN_RECORD = frozenset({"firms.clients", "firms.advisers", "advisers.clients", "models.clients"})
KIND_TITLES = {"users": "Users", "clients": "Clients", "advisers": "Advisers"}
KIND_ROLE = {"users": "", "clients": Role.CLIENT.value, "advisers": Role.ADVISER.value}
NEW_TITLES = {"users": "New user", "clients": "New client", "advisers": "New adviser"}
# the "New" menu of the full users list (spec: client, adviser or administrator)
NEW_MENU = ((Role.CLIENT, "Client"), (Role.ADVISER, "Adviser"), (Role.ADMINISTRATOR, "Administrator"))

CONFIRM_DELETE_USER = "Are you sure you want to delete user?"
ACTIVATION_SENT = "An activation e-mail was sent to {email}."
ALL = "all"
DATE_FILTERS = ("created_from", "created_to", "logined_from", "logined_to")
NO_ADVISER = "none"
FORM_FIELDS = ("first_name", "last_name", "preferred_name", "email", "phone", "role", "firm_id", "adviser_id",
               "status", "ar_number")


def _iso_day_or_none(text: str) -> str | None:
    """A date filter as an address names it: taken only as a YYYY-MM-DD day the date input would give."""
    return input_day(text) or None


def _day_bound(value: str, offset_minutes: int, end: bool) -> datetime | None:
    """A YYYY-MM-DD day in the browser's offset -> the UTC instant of its start (or end)."""
    try:
        day = date.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return datetime.combine(day, time.max if end else time.min, tzinfo=timezone.utc) + timedelta(minutes=offset_minutes)


def _kind_of(role: Role) -> str:
    """The routes a user's pages live under: clients, advisers, or users for everyone else."""
    return "clients" if role is Role.CLIENT else "advisers" if role is Role.ADVISER else "users"


def _rights(actor: Actor, user: UserView) -> tuple[bool, bool]:
    """(may edit, may delete) the user: buttons only, the services check again. A deleted user is read-only."""
    deleted = user.status is UserStatus.DELETED
    can_edit = not deleted and bool(creatable_roles(actor)) and can_edit_user(actor, user.role, user.firm_id, user.id)
    return can_edit, not deleted and can_delete_user(actor, user.role, user.firm_id, user.id)


def _safe_back(path: str) -> str:
    """A back link only when it is one of our signed-in routes (never an outside URL)."""
    if not path or not path.startswith("/") or path.startswith("//"):
        return ""
    name, _ = routes.match(path)
    return path if name is not None and name not in routes.PUBLIC else ""


# ---- the list -------------------------------------------------------------------------------------
class UsersState(Viewer, Confirm, InRecord, FirmChoice, ListControls, AppState):
    ADDRESS_CHOICES: ClassVar[Mapping[str, str]] = {"status_filter": "status_options", "role_filter": "role_options"}
    ADDRESS_FILTERS: ClassVar[Mapping[str, Callable[[str], Any]]] = {key: _iso_day_or_none for key in DATE_FILTERS}
    SORT_KEYS: ClassVar[tuple[str, ...]] = USER_SORTS
    ALL_FIRMS: ClassVar[str] = ALL
    ALL_FIRMS_LABEL: ClassVar[str] = "All firms"

    route_name: str = ""
    kind: str = "users"
    title: str = "Users"

    rows: list[UserRow] = []
    loading: bool = True

    status_filter: str = ALL
    role_filter: str = ALL
    # the created / last login ranges (YYYY-MM-DD days, "" for open), one var per DATE_FILTERS key
    created_from: str = ""
    created_to: str = ""
    logined_from: str = ""
    logined_to: str = ""

    status_options: list[Option] = []
    role_options: list[Option] = []
    new_options: list[Option] = []  # the users list's "New" menu: label -> url
    new_url: str = ""
    new_label: str = ""

    _tz_offset: int = 0
    _adviser_firm_id: int = 0

    # ---- context ------------------------------------------------------------------------------
    def _context(self) -> tuple[str, str, str]:
        """(route name, kind, fixed role) of the page the browser is on; its record is `_path_id()`."""
        name, _ = routes.match(self.router.url.path)
        if name not in LIST_CONTEXTS:
            name = "users.list"
        kind, role = LIST_CONTEXTS[name]
        return name, kind, role

    def _filters(self, actor: Actor) -> dict[str, Any]:
        name, _kind, fixed_role = self._context()
        record_id = self._path_id()
        roles = [fixed_role] if fixed_role else ([self.role_filter] if self.role_filter != ALL else [])
        statuses = [self.status_filter] if self.status_filter != ALL else []
        if self.status_filter == UserStatus.DELETED.value and name != "users.list":
            statuses = []
        firm_id: int | None = None
        if name in ("firms.clients", "firms.advisers"):
            firm_id = record_id
        elif self._firm_id() != ALL:
            firm_id = _int(self.firm_filter)
        adviser_id = record_id if name == "advisers.clients" else None
        model_id = record_id if name == "models.clients" else None
        return dict(
            roles=roles, statuses=statuses, search=self.search.strip() or None, firm_id=firm_id, adviser_id=adviser_id,
            model_id=model_id,
            **{key: _day_bound(getattr(self, key), self._tz_offset, end=key.endswith("_to")) for key in DATE_FILTERS},
            limit=self._limit(), offset=self._offset(),
            sort=self.sort if self.sort in USER_SORTS else "name", order="desc" if self.order == "desc" else "asc",
        )

    def _row(self, actor: Actor, user: UserView, kind: str, portfolio_count: int = 0) -> UserRow:
        role = user.role
        deleted = user.status is UserStatus.DELETED
        row_kind = _kind_of(role) if kind == "users" else kind
        view_url = routes.url(f"{row_kind}.view", id=user.id)
        adviser_clients = routes.url("advisers.clients", id=user.id) if role is Role.ADVISER else ""
        clients_url = adviser_clients if portfolio_count else ""  # 002 s2: View Clients only with portfolios
        portfolios_url = add_portfolio_url = ""
        if role in (Role.CLIENT, Role.ADVISER):
            prefix = "clients" if role is Role.CLIENT else "advisers"
            portfolios_url = routes.url(f"{prefix}.portfolios", id=user.id) if portfolio_count else ""
            add_portfolio_url = "" if deleted else routes.url(f"{prefix}.new-portfolio", id=user.id,
                                                               query=referer_query(self.router.url.path) or None)
        if role is Role.ADVISER:
            open_url = adviser_clients
        elif role is Role.CLIENT:
            open_url = routes.url("clients.portfolios", id=user.id)  # 002 s2: a client's row opens their portfolios
        else:
            open_url = view_url
        can_edit, can_delete = _rights(actor, user)
        return UserRow(
            id=user.id, name=user.name, initials=initials_of(user.first_name, user.last_name),
            email=user.email, role=role.value, role_title=user.role_title,
            firm=user.firm.name if user.firm else "", adviser=user.adviser.name if user.adviser else "",
            status=user.status.value, status_title=user.status_title,
            created_at=iso_text(user.created_at), logined_at=iso_text(user.logined_at), photo_url=user.photo_url or "",
            open_url=open_url, view_url=view_url, edit_url=routes.url(f"{row_kind}.edit", id=user.id),
            clients_url=clients_url, portfolios_url=portfolios_url, add_portfolio_url=add_portfolio_url,
            can_edit=can_edit, can_delete=can_delete,
        )

    def _load(self, actor: Actor) -> None:
        kind = self._context()[1]
        self.loading = False  # a failed load leaves the rows it had
        def page() -> tuple[list[UserView], int]:
            found = users.list_users(actor=actor, **self._filters(actor))
            return list(found.rows), found.total

        rows: list[UserView] = self._fetch_page(page)
        counts = portfolios.portfolio_counts(actor=actor, user_ids=[u.id for u in rows])
        self.rows = [self._row(actor, u, kind, counts[u.id]) for u in rows]

    def _setup_new(self, actor: Actor, name: str, kind: str) -> None:
        allowed = creatable_roles(actor)
        if kind == "users":
            self.new_options = [Option(value=routes.url("users.new", query={"role": r.value}), label=label)
                                for r, label in NEW_MENU if r in allowed]
            return
        if Role(KIND_ROLE[kind]) not in allowed or name == "models.clients":  # a new client holds no portfolio yet
            return
        query: dict[str, str] = {}
        if name in ("firms.clients", "firms.advisers"):
            query["firm_id"] = self._path_text("id")
        if name == "advisers.clients":
            query["adviser_id"] = self._path_text("id")
            if self._adviser_firm_id:
                query["firm_id"] = str(self._adviser_firm_id)
        if query:
            query["back"] = self.router.url.path
        self.new_url = routes.url(f"{kind}.new", query=query or None)
        self.new_label = "New client" if kind == "clients" else "New adviser"

    def _back(self, actor: Actor) -> str:
        """Where a failed load of a firm's or an adviser's list goes: that list's parent."""
        name = self._context()[0]
        if name in ("firms.clients", "firms.advisers"):
            return routes.url("firms.list")
        if name == "models.clients":
            return routes.url("models.view")
        return routes.url("advisers.list") if name == "advisers.clients" else ""

    @rx.event
    @screen_load(clients=False, back=_back)
    def on_load(self, actor: Actor):
        size = self.page_size
        self._reset_screen()  # filters, sort and page as a fresh list has them; the page size chosen stays
        self.page_size = size
        name, kind, _role = self._context()
        self.route_name, self.kind = name, kind
        self.title = KIND_TITLES[kind]
        if name in ("firms.clients", "firms.advisers"):
            firm = firms.get_firm(actor=actor, firm_id=self._path_id() or 0)
            self._inside("firm", firm.id, firm.name)
        elif name == "advisers.clients":
            adviser = users.get_user(actor=actor, user_id=self._path_id() or 0)
            if adviser.role is not Role.ADVISER:
                return [toast_error(USER_NOT_FOUND), rx.redirect(routes.url("advisers.list"))]
            self._inside("adviser", adviser.id, adviser.name)
            self._adviser_firm_id = adviser.firm_id or 0
        elif name == "models.clients":
            model = models.get_model(actor=actor, model_id=self._path_id() or 0)
            if not model.can_edit:  # spec 000 s6: View Clients is the owner firm's and the superuser's
                raise PermissionDenied(NOT_ALLOWED)
            self._inside("model", model.id, model.name)
        statuses = [UserStatus.ACTIVE, UserStatus.DISABLED] + ([UserStatus.DELETED] if name == "users.list" else [])
        self.status_options = [Option(value=ALL, label="All statuses")] + [Option(value=s.value, label=s.title) for s in statuses]
        shown = [r for r in (Role.CLIENT, Role.ADVISER, Role.ADMINISTRATOR, Role.SUPERUSER) if r in visible_roles(actor)]
        self.role_options = [Option(value=ALL, label="All roles")] + [Option(value=r.value, label=r.title) for r in shown]
        self._load_firms(actor)
        if name in IN_RECORD:  # one firm's list already
            self.show_firm, self.firm_options = False, []
        self._setup_new(actor, name, kind)
        self._load(actor)
        return rx.call_script("new Date().getTimezoneOffset()", callback=UsersState.set_tz_offset)

    @rx.event
    def set_tz_offset(self, minutes: Any):
        offset = _int(minutes)
        if offset is not None and -24 * 60 < offset < 24 * 60:
            self._tz_offset = offset

    @guarded
    def _reload(self):
        self._load(self._actor())

    # ---- toolbar (sort, search, page size and the status and role selects: ListControls) ----------

    @rx.event
    def set_date_filter(self, key: str, value: str):
        """One end of the created / last login ranges (a YYYY-MM-DD day, or "" for open)."""
        if key not in DATE_FILTERS:
            return None
        setattr(self, key, input_day(value))
        return self._reload_first_page()

    @rx.event
    def clear_filters(self):
        self.search = ""
        self.status_filter = self.role_filter = self.firm_filter = ALL
        for key in DATE_FILTERS:
            setattr(self, key, "")
        return self._reload_first_page()

    # ---- delete ---------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self, user_id: Any, name: str = ""):
        wanted = _int(user_id)
        if wanted:
            self._ask("delete", CONFIRM_DELETE_USER, wanted)

    def _confirmed(self, action: str, user_id: int):
        users.delete_user(actor=self._actor(), user_id=user_id)
        return events(toast_success(users.DELETED), self._reload())

    # ---- what the screen shows ------------------------------------------------------------------
    @rx.var
    def has_filters(self) -> bool:
        return bool(self.search or self.status_filter != ALL or self.role_filter != ALL or self.firm_filter != ALL
                    or any(getattr(self, key) for key in DATE_FILTERS))

    @rx.var
    def empty_text(self) -> str:
        noun = self.kind if self.kind in KIND_TITLES else "users"
        if self.has_filters:
            return f"No {noun} match these filters."
        if self.context_name:
            return f"{self.context_name} has no {noun} yet."
        return f"There are no {noun} yet."


# ---- the form -------------------------------------------------------------------------------------
class UserFormState(Viewer, Confirm, EditingForm, PersonForm, AddressForm, ImageStaging, AppState):
    IMAGE_SLOTS: ClassVar[dict[str, str]] = {"photo": "photo", "signature": "signature"}

    route_name: str = ""
    kind: str = "users"
    mode: str = "view"  # new | edit | view
    loaded: bool = False
    saving: bool = False

    role: str = ""
    firm_id: str = ""
    adviser_id: str = NO_ADVISER
    status: str = UserStatus.ACTIVE.value
    ar_number: str = ""  # an adviser's authorised representative number

    display_name: str = ""
    status_title: str = ""
    firm_name: str = ""
    adviser_name: str = ""
    account: UserAccount = UserAccount()

    role_options: list[Option] = []
    firm_options: list[Option] = []
    adviser_options: list[Option] = []
    errors: dict[str, str] = {f: "" for f in FORM_FIELDS}

    can_edit: bool = False
    can_delete: bool = False
    back_url: str = ""

    _user_id: int = 0
    has_portfolios: bool = False  # View Clients of an adviser with portfolios
    _version: int = 0

    # ---- context --------------------------------------------------------------------------------
    def _route(self) -> tuple[str, str, str]:
        """(route name, kind, mode) from the browser's path; the user is `_path_id()`."""
        name, _ = routes.match(self.router.url.path)
        kind, _, mode = (name or "users.view").partition(".")
        if kind not in KIND_TITLES or mode not in ("new", "edit", "view"):
            kind, mode = "users", "view"
        return name or "", kind, mode

    def _list_url(self) -> str:
        return routes.url(f"{self.kind}.list")

    def _fixed_role(self) -> str:
        return KIND_ROLE[self.kind]

    def _load_options(self, actor: Actor) -> None:
        allowed = creatable_roles(actor)
        order = (Role.CLIENT, Role.ADVISER, Role.ADMINISTRATOR, Role.SUPERUSER)
        self.role_options = keeping([Option(value=r.value, label=r.title) for r in order if r in allowed], self.role,
                                    Role(self.role).title if self.role else "")
        if actor.is_superuser:
            self.firm_options = [Option(value=str(o.id), label=o.name) for o in firms.firm_options(actor=actor)]
        self._load_advisers(actor)

    def _load_advisers(self, actor: Actor) -> None:
        self.adviser_options = [Option(value=NO_ADVISER, label="No adviser")]
        if self.role != Role.CLIENT.value:
            return
        firm = _int(self.firm_id) if actor.is_superuser else actor.firm_id
        if firm is None:
            return
        self.adviser_options += [Option(value=str(a.id), label=a.name)
                                 for a in users.adviser_options(actor=actor, firm_id=firm)]
        # a current (e.g. disabled) adviser stays visible
        self.adviser_options = keeping(self.adviser_options, self.adviser_id, self.adviser_name)
        if not offers(self.adviser_options, self.adviser_id):
            self.adviser_id = NO_ADVISER

    def _fill(self, actor: Actor, user: UserView) -> None:
        self._user_id, self._version = user.id, user.version
        self._fill_person(user)
        self._fill_address(user.address)
        self.role = user.role.value
        self.firm_id = str(user.firm_id or "")
        self.firm_name = user.firm.name if user.firm else ""
        self.adviser_id = str(user.adviser_id) if user.adviser_id else NO_ADVISER
        self.adviser_name = user.adviser.name if user.adviser else ""
        self.status = user.status.value
        self.ar_number = user.ar_number or ""
        self.status_title = user.status_title
        self.display_name = user.name
        self.account = UserAccount(activated=user.activated, created_at=iso_text(user.created_at),
                                   logined_at=iso_text(user.logined_at))
        self._load_images({"photo": user.photo_url, "signature": user.signature_url})
        self.can_edit, self.can_delete = _rights(actor, user)
        self.has_portfolios = bool(portfolios.portfolio_counts(actor=actor, user_ids=[user.id])[user.id])

    @rx.event
    @screen_load(clients=False, back=lambda self, actor: self._list_url())
    def on_load(self, actor: Actor):
        self._reset_screen()
        self._load_images({})  # each image slot shown empty
        self._fill_address()
        name, kind, mode = self._route()
        self.route_name, self.kind, self.mode = name, kind, mode
        self.back_url = _safe_back(self._query_text("back"))
        if mode == "new":
            if not creatable_roles(actor):
                raise PermissionDenied(NOT_ALLOWED)
            wanted_role = self._query_text("role")
            self.role = self._fixed_role() or (wanted_role if wanted_role in {r.value for r in creatable_roles(actor)} else "")
            if actor.is_superuser:
                self.firm_id = str(_int(self._query_text("firm_id")) or "")
            if self.role == Role.CLIENT.value:
                wanted = _int(self._query_text("adviser_id")) or (actor.id if actor.role is Role.ADVISER else None)
                self.adviser_id = str(wanted) if wanted else NO_ADVISER
            self.can_edit = True
        else:
            user = users.get_user(actor=actor, user_id=self._path_id() or 0)
            own_kind = _kind_of(user.role)
            if kind != "users" and kind != own_kind:  # e.g. /advisers/5 for a client: show it where it belongs
                return rx.redirect(routes.url(f"{own_kind}.{mode}", id=user.id))
            self._fill(actor, user)
            if mode == "edit" and not self.can_edit:
                self.mode = "view"  # a deleted user (or one the actor may not edit) is read-only
        self._load_options(actor)
        self.loaded = True
        return None

    # ---- validation -----------------------------------------------------------------------------
    def _is_superuser_actor(self) -> bool:
        return self.user_role == Role.SUPERUSER.value

    def _validate(self) -> v.FieldErrors:
        _values, errors = clean_person(self._person())
        errors.check("role", v.required_select(self.role, "user type"))
        if self._is_superuser_actor() and self.role != Role.SUPERUSER.value:
            errors.check("firm_id", v.required_select(self.firm_id, "firm"))
        clean_ar_number(self.ar_number, parse_role(self.role), errors)
        errors.update(self._address_check())
        return errors

    def _show_errors(self, errors: dict[str, str]) -> None:
        self.errors = field_errors(errors, FORM_FIELDS)
        self._show_address_errors(errors)

    # ---- setters ----------------------------------------------------------------------------------
    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit

    def _address_editable(self) -> bool:
        return self._editable()

    @guarded
    def _advisers_changed(self):
        """The role or the firm changed: offer that firm's advisers."""
        self._load_advisers(self._actor())
        self._changed()

    @rx.event
    def set_role(self, value: str):
        if not self._editable() or self._fixed_role() or not offers(self.role_options, value):
            return None
        self.role = value
        return self._advisers_changed()

    @rx.event
    def set_firm(self, value: str):
        if not self._editable() or not self._is_superuser_actor() or not offers(self.firm_options, value):
            return None
        self.firm_id = value
        self.adviser_id = NO_ADVISER
        self.adviser_name = ""
        return self._advisers_changed()

    @rx.event
    def set_adviser(self, value: str):
        if offers(self.adviser_options, value):
            self._edit(adviser_id=value)

    @rx.event
    def set_ar_number(self, value: str):
        self._edit(ar_number=str(value)[:40])

    @rx.event
    def set_status(self, value: str):
        if value in (UserStatus.ACTIVE.value, UserStatus.DISABLED.value):
            self._edit(status=value)

    # ---- delete -----------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self):
        if self.can_delete:
            self._ask("delete", CONFIRM_DELETE_USER, self._user_id)

    def _confirmed(self, action: str, user_id: int):
        users.delete_user(actor=self._actor(), user_id=user_id)
        self.form_dirty = False
        return [toast_success(users.DELETED), rx.redirect(self._list_url())]

    # ---- save -------------------------------------------------------------------------------------
    def _write(self, actor: Actor) -> UserView | None:
        """Create or update the user, then write the staged images; the saved user (None when
        this form may not save)."""
        data: dict[str, Any] = {**self._person(), "role": self.role, "address": self._address_payload()}
        if actor.is_superuser:
            data["firm_id"] = _int(self.firm_id)
        data["adviser_id"] = _int(self.adviser_id) if self.role == Role.CLIENT.value else None
        data["ar_number"] = self.ar_number if self.role == Role.ADVISER.value else None
        if self.mode == "new":
            data["status"] = UserStatus.ACTIVE.value
            result = users.create_user(actor=actor, form=read_user_form(data))
        elif self.mode == "edit" and self.can_edit:
            data.update(status=self.status, version=self._version,
                        isPhotoRemoved=self._image_removed("photo"), isSignatureRemoved=self._image_removed("signature"))
            result = users.update_user(actor=actor, user_id=self._user_id, form=read_user_form(data))
        else:
            return None
        for slot, mime, payload in self._staged_images():
            result = users.set_user_image(actor=actor, user_id=result.id, kind=slot, content_type=mime, data=payload)
        return result

    def _saved(self, result: UserView) -> list[Any]:
        self._forget_staged_images()
        self._user_id = result.id
        if self.mode == "new":
            return [rx.toast.success(users.CREATED, description=ACTIVATION_SENT.format(email=result.email),
                                     position="top-right", duration=6000)]
        return [toast_success(users.UPDATED)]

    @rx.event
    def save(self, _form: dict | None = None):
        if self.saving:
            return None
        self.saving = True
        try:
            created = self.mode == "new"
            ok, events = self._save()
        finally:
            self.saving = False
        if not ok:
            return events
        target = (self.back_url or self._list_url()) if created else routes.url(f"{self.kind}.view", id=self._user_id)
        return events + [rx.redirect(target)]

    def _leave_fallback(self) -> str:
        return self._list_url()

    @rx.event
    def cancel(self):
        target = self.back_url or (routes.url(f"{self.kind}.view", id=self._user_id) if self.mode == "edit" else self._list_url())
        if self.form_dirty:
            self.leave_to, self.leave_open = target, True
            return None
        return AppState.go_back(target)

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def read_only(self) -> bool:
        return self.mode == "view" or not self.can_edit

    @rx.var
    def page_title(self) -> str:
        if self.mode == "new":
            return NEW_TITLES[self.kind]
        return self.display_name

    @rx.var
    def kind_title(self) -> str:
        return KIND_TITLES[self.kind]

    @rx.var
    def kind_url(self) -> str:
        return self._list_url()

    @rx.var
    def view_url(self) -> str:
        return routes.url(f"{self.kind}.view", id=self._user_id) if self._user_id else ""

    @rx.var
    def edit_url(self) -> str:
        return routes.url(f"{self.kind}.edit", id=self._user_id) if self._user_id else ""

    @rx.var
    def clients_url(self) -> str:
        shown = self._user_id and self.role == Role.ADVISER.value and self.has_portfolios  # 002 s2: portfolios not 0
        return routes.url("advisers.clients", id=self._user_id) if shown else ""

    @rx.var
    def role_title(self) -> str:
        try:
            return Role(self.role).title if self.role else ""
        except ValueError:
            return ""

    @rx.var
    def role_fixed(self) -> bool:
        return self.kind in ("clients", "advisers")

    @rx.var
    def shows_firm(self) -> bool:
        return self.viewer_is_superuser and self.role != Role.SUPERUSER.value

    @rx.var
    def shows_adviser(self) -> bool:
        return self.role == Role.CLIENT.value

    @rx.var
    def shows_ar_number(self) -> bool:
        return self.role == Role.ADVISER.value

    @rx.var
    def is_deleted(self) -> bool:
        return self.status == UserStatus.DELETED.value

    @rx.var
    def initials_of_user(self) -> str:
        return initials_of(self.first_name, self.last_name)

