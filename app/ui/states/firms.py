"""Firms screens: the list (sort, search, page size, load more, delete) and the firm form in its
new / view / edit modes (firm information, licensee, fees, the two logos).

Every handler resolves the signed-in user from the token and goes through app.services.firms,
which checks permission and scopes by firm; ids of what is loaded stay in backend-only vars."""
from __future__ import annotations

import base64
import logging
from typing import Any, TypedDict

import reflex as rx

from app.domain import validators
from app.domain.errors import AuthenticationError, DomainError, GENERIC, ValidationError
from app.domain.firms import FIRM_SORTS, clean_firm
from app.domain.permissions import NOT_ALLOWED, can_create_firm, can_edit_firm
from app.domain.roles import Role
from app.services import files, firms
from app.services.listing import DEFAULT_PAGE_SIZE, PAGE_SIZES
from app.ui import routes
from app.ui.states.base import AppState, toast_error, toast_success

log = logging.getLogger("app.ui.firms")

LOAD_ONE_FAILED = "Opps, something went wrong"
REMOVE_LOGO_QUESTION = "Are you sure, you want to delete logo?"
ROW_ROUTES = frozenset({"firms.view", "firms.edit", "firms.advisers", "firms.clients"})


class FirmRow(TypedDict):
    id: int
    name: str
    initials: str
    logo: str
    advisers: int
    clients: int
    email: str
    phone: str
    created_at: str


def _row(firm: dict[str, Any]) -> FirmRow:
    name = firm["name"] or ""
    return FirmRow(
        id=int(firm["id"]),
        name=name,
        initials="".join(part[:1] for part in name.split()[:2]).upper(),
        logo=firm["logo"] or "",
        advisers=int(firm["advisers"]),
        clients=int(firm["clients"]),
        email=firm["email"] or "",
        phone=firm["phone"] or "",
        created_at=firm["created_at"],
    )


class FirmsListState(AppState):
    """/firms: superusers see every firm; administrators and advisers their own (the service scopes)."""

    rows: list[FirmRow] = []
    total: int = 0
    loading: bool = True
    loading_more: bool = False
    sort: str = "name"
    order: str = "asc"
    search: str = ""
    page_size: str = str(DEFAULT_PAGE_SIZE)

    delete_open: bool = False
    delete_name: str = ""
    _delete_id: int = 0

    # ---- loading --------------------------------------------------------------------------------
    def _fetch(self, offset: int, limit: int) -> tuple[list[FirmRow], int]:
        actor = self._actor()
        found, total = firms.list_firms(actor=actor, limit=limit, offset=offset, sort=self.sort, order=self.order,
                                        search=self.search)
        return [_row(f) for f in found], total

    def _load_failed(self, exc: Exception):
        if isinstance(exc, AuthenticationError):
            return self._fail(exc)
        if isinstance(exc, DomainError):
            return toast_error(exc.message or GENERIC)
        log.exception("firms list failed", exc_info=exc)
        return toast_error(GENERIC)

    def _reload(self, limit: int | None = None):
        """First page again (or as many rows as are shown, after a delete)."""
        self.loading = True
        try:
            self.rows, self.total = self._fetch(0, limit or int(self.page_size))
        except Exception as exc:  # spec: failed firm lists toast the server message or the default
            self.rows, self.total = [], 0
            return self._load_failed(exc)
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
            return  # check_login, first in on_load, already sends the user to sign in
        refused = self._send_client_home(actor)
        if refused:
            self.loading = False
            yield refused
            return
        yield self._reload()

    @rx.event
    def load_more(self):
        if self.loading_more or len(self.rows) >= self.total:
            return None
        self.loading_more = True
        yield
        try:
            more, self.total = self._fetch(len(self.rows), int(self.page_size))
            known = {r["id"] for r in self.rows}
            self.rows = self.rows + [r for r in more if r["id"] not in known]
        except Exception as exc:
            yield self._load_failed(exc)
        finally:
            self.loading_more = False

    @rx.event
    def set_sort(self, key: str):
        if key not in FIRM_SORTS:
            return None
        if self.sort == key:
            self.order = "desc" if self.order == "asc" else "asc"
        else:
            self.sort, self.order = key, "asc"
        return self._reload()

    @rx.event
    def set_search(self, value: str):
        self.search = str(value or "")[:200]
        return self._reload()

    @rx.event
    def set_page_size(self, value: str):
        if value not in {str(size) for size in PAGE_SIZES}:
            return None
        self.page_size = value
        return self._reload()

    # ---- navigation -----------------------------------------------------------------------------
    @rx.event
    def open_firm(self, route_name: str, firm_id: int):
        if route_name not in ROW_ROUTES:
            return None
        try:
            firm_id = int(firm_id)
        except (TypeError, ValueError):
            return None
        return AppState.navigate(routes.url(route_name, id=firm_id))

    @rx.event
    def new_firm(self):
        return AppState.navigate(routes.url("firms.new"))

    # ---- delete ---------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self, firm_id: int):
        try:
            firm_id = int(firm_id)
        except (TypeError, ValueError):
            return None
        row = next((r for r in self.rows if r["id"] == firm_id), None)
        if row is None:
            return None
        self._delete_id = firm_id
        self.delete_name = row["name"]
        self.delete_open = True
        return None

    @rx.event
    def cancel_delete(self):
        self.delete_open = False
        self._delete_id = 0

    @rx.event
    def confirm_delete(self):
        self.delete_open = False
        firm_id, self._delete_id = self._delete_id, 0
        if not firm_id:
            return None
        try:
            firms.delete_firm(actor=self._actor(), firm_id=firm_id)
        except DomainError as exc:
            return self._fail(exc)
        shown = max(len(self.rows) - 1, int(self.page_size))
        failed = self._reload(shown)
        return [toast_success(firms.DELETED)] + ([failed] if failed is not None else [])

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def has_more(self) -> bool:
        return len(self.rows) < self.total

    @rx.var
    def showing(self) -> str:
        return f"Showing {len(self.rows)} of {self.total}"

    @rx.var
    def delete_message(self) -> str:
        return f"Are you sure you want to delete firm {self.delete_name}?"

    @rx.var
    def can_edit_rows(self) -> bool:
        # administrators see only their own firm, which they may edit; advisers only read
        return self.user_role in (Role.SUPERUSER.value, Role.ADMINISTRATOR.value)


# ---- the firm form ------------------------------------------------------------------------------
FIRM_KEYS = ("name", "abn", "car", "phone", "email", "website")
LICENSEE_KEYS = ("name", "abn", "afsl", "phone", "email", "website", "fsgLink", "privacyPolicyLink")
FEE_KEYS = ("fee", "maxFee", "minFee", "ausiexCode")
FORM_KEYS = (*FIRM_KEYS, *(f"licensee.{k}" for k in LICENSEE_KEYS), *FEE_KEYS)


def _blank() -> dict[str, str]:
    return {key: "" for key in FORM_KEYS}


def _text(value: Any) -> str:
    return "" if value is None else str(value)


class FirmFormState(AppState):
    """firms.new, firms.view and firms.edit. `mode` is taken from the route on every load."""

    mode: str = "new"
    loading: bool = True
    form: dict[str, str] = _blank()
    errors: dict[str, str] = _blank()
    submitted: bool = False
    saving: bool = False
    firm_name: str = ""
    view_url: str = ""  # display only (breadcrumb); handlers use _firm_id
    can_edit: bool = False

    logo_url: str = ""
    logo_preview: str = ""
    logo_error: str = ""
    licensee_logo_url: str = ""
    licensee_logo_preview: str = ""
    licensee_logo_error: str = ""
    remove_open: bool = False
    _remove_target: str = ""

    _firm_id: int = 0
    _version: int = 0
    _saved: bool = False  # a second click on Save after success must not create the firm twice
    _logo_removed: bool = False
    _licensee_logo_removed: bool = False
    _logo_pending: tuple[str, bytes] | None = None
    _licensee_logo_pending: tuple[str, bytes] | None = None

    # ---- loading --------------------------------------------------------------------------------
    def _reset(self, mode: str) -> None:
        self.mode = mode
        self.form = _blank()
        self.errors = _blank()
        self.submitted = False
        self.saving = False
        self.firm_name = ""
        self.view_url = ""
        self.can_edit = False
        self.logo_url = self.logo_preview = self.logo_error = ""
        self.licensee_logo_url = self.licensee_logo_preview = self.licensee_logo_error = ""
        self.remove_open = False
        self._remove_target = ""
        self._firm_id = 0
        self._version = 0
        self._saved = False
        self._logo_removed = self._licensee_logo_removed = False
        self._logo_pending = self._licensee_logo_pending = None

    def _fill(self, firm: dict[str, Any]) -> None:
        licensee = firm.get("licensee") or {}
        form = {key: _text(firm.get(key)) for key in (*FIRM_KEYS, *FEE_KEYS)}
        form.update({f"licensee.{key}": _text(licensee.get(key)) for key in LICENSEE_KEYS})
        self.form = form
        self.firm_name = firm["name"] or ""
        self._firm_id = int(firm["id"])
        self.view_url = routes.url("firms.view", id=self._firm_id)
        self._version = int(firm["version"])
        self.logo_url = firm.get("logo") or ""
        self.licensee_logo_url = firm.get("licensee_logo") or ""

    @rx.event
    def on_load(self):
        name, params = routes.match(self.router.url.path)
        mode = {"firms.new": "new", "firms.view": "view", "firms.edit": "edit"}.get(name or "", "view")
        self._reset(mode)
        self.loading = True
        try:
            actor = self._actor()
            refused = self._send_client_home(actor)
            if refused:
                self.loading = False
                return refused
            if mode == "new":
                if not can_create_firm(actor):
                    self.loading = False
                    return [toast_error(NOT_ALLOWED), rx.redirect(routes.url("firms.list"))]
                self.can_edit = True
                self.loading = False
                return None
            firm = firms.get_firm(actor=actor, firm_id=params.get("id"))
        except AuthenticationError:
            return None  # check_login, first in on_load, already sends the user to sign in
        except DomainError as exc:
            self.loading = False
            return [toast_error(exc.message or LOAD_ONE_FAILED), rx.redirect(routes.url("firms.list"))]
        except Exception as exc:  # spec: a failed load of one firm shows the default and goes to the list
            log.exception("firm load failed", exc_info=exc)
            self.loading = False
            return [toast_error(LOAD_ONE_FAILED), rx.redirect(routes.url("firms.list"))]
        self._fill(firm)
        self.can_edit = can_edit_firm(actor, self._firm_id)
        self.loading = False
        if mode == "edit" and not self.can_edit:
            self.mode = "view"
            return rx.redirect(routes.url("firms.view", id=self._firm_id))
        return None

    # ---- editing --------------------------------------------------------------------------------
    def _payload(self) -> dict[str, Any]:
        """Exactly the REST shape of POST/PUT /api/firms."""
        form = self.form
        data: dict[str, Any] = {key: form.get(key, "") for key in FIRM_KEYS}
        data["licensee"] = {key: form.get(f"licensee.{key}", "") for key in LICENSEE_KEYS}
        data.update({key: form.get(key, "") for key in FEE_KEYS})
        data["isLogoRemoved"] = self._logo_removed and self._logo_pending is None
        data["isLicenseeLogoRemoved"] = self._licensee_logo_removed and self._licensee_logo_pending is None
        data["version"] = self._version or None
        return data

    def _validate(self) -> None:
        _, found = clean_firm(self._payload())
        self._show_errors(found)

    def _show_errors(self, found: dict[str, str]) -> None:
        errors = _blank()
        errors.update({key: text for key, text in found.items() if key in errors})
        self.errors = errors

    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit and not self.loading and not self._saved

    @rx.event
    def set_field(self, key: str, value: str):
        if key not in FORM_KEYS or not self._editable():
            return
        self.form = {**self.form, key: str(value if value is not None else "")[:1000]}
        self.form_dirty = True
        if self.submitted:
            self._validate()

    # ---- logos ----------------------------------------------------------------------------------
    async def _take_image(self, upload: list[rx.UploadFile], licensee: bool):
        try:
            actor = self._actor()
        except AuthenticationError as exc:
            return self._fail(exc)
        if not self._editable() or not upload:
            return None
        if self.mode == "edit" and not can_edit_firm(actor, self._firm_id):
            return toast_error(NOT_ALLOWED)
        file = upload[0]
        # one byte past the limit is enough to know it is too big
        data = await file.read(validators.MAX_IMAGE_BYTES + 1)
        error = ""
        try:
            files.check_image(file.content_type, data)
        except ValidationError as exc:
            error = exc.message
        if licensee:
            self.licensee_logo_error = error
        else:
            self.logo_error = error
        if error:
            return toast_error(error)
        mime = files.CONTENT_TYPES[validators.image_extension(data)]
        preview = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        if licensee:
            self._licensee_logo_pending = (mime, data)
            self.licensee_logo_preview = preview
        else:
            self._logo_pending = (mime, data)
            self.logo_preview = preview
        self.form_dirty = True
        return None

    @rx.event
    async def drop_logo(self, upload: list[rx.UploadFile]):
        return await self._take_image(upload, licensee=False)

    @rx.event
    async def drop_licensee_logo(self, upload: list[rx.UploadFile]):
        return await self._take_image(upload, licensee=True)

    @rx.event
    def reject_logo(self, _rejected: list[dict[str, Any]]):
        """The browser refused the file (not an image)."""
        if not self._editable():
            return None
        self.logo_error = validators.IMAGE_FORMAT
        return toast_error(validators.IMAGE_FORMAT)

    @rx.event
    def reject_licensee_logo(self, _rejected: list[dict[str, Any]]):
        if not self._editable():
            return None
        self.licensee_logo_error = validators.IMAGE_FORMAT
        return toast_error(validators.IMAGE_FORMAT)

    @rx.event
    def ask_remove(self, target: str):
        if target not in ("logo", "licensee") or not self._editable():
            return
        self._remove_target = target
        self.remove_open = True

    @rx.event
    def cancel_remove(self):
        self.remove_open = False
        self._remove_target = ""

    @rx.event
    def confirm_remove(self):
        self.remove_open = False
        target, self._remove_target = self._remove_target, ""
        if not self._editable():
            return
        if target == "logo":
            self._logo_pending = None
            self._logo_removed = True
            self.logo_preview = self.logo_url = self.logo_error = ""
        elif target == "licensee":
            self._licensee_logo_pending = None
            self._licensee_logo_removed = True
            self.licensee_logo_preview = self.licensee_logo_url = self.licensee_logo_error = ""
        else:
            return
        self.form_dirty = True

    # ---- saving ---------------------------------------------------------------------------------
    def _save(self, then: str | None):
        try:
            actor = self._actor()
        except AuthenticationError as exc:
            return self._fail(exc)
        if not self._editable():
            return None
        self.submitted = True
        payload = self._payload()
        try:
            if self.mode == "new":
                firm = firms.create_firm(actor=actor, data=payload)
                done = firms.CREATED
            else:
                firm = firms.update_firm(actor=actor, firm_id=self._firm_id, data=payload)
                done = firms.UPDATED
        except ValidationError as exc:
            self._show_errors(exc.fields)
            return self._fail(exc)
        except DomainError as exc:  # a Conflict (changed by someone else), NotFound, PermissionDenied
            return self._fail(exc)
        self._show_errors({})
        self._saved = True
        firm_id = int(firm["id"])
        events: list[Any] = []
        for licensee, pending in ((False, self._logo_pending), (True, self._licensee_logo_pending)):
            if pending is None:
                continue
            try:
                firms.upload_logo(actor=actor, firm_id=firm_id, content_type=pending[0], data=pending[1],
                                  licensee=licensee)
            except DomainError as exc:
                events.append(toast_error(exc.message))
        self._logo_pending = self._licensee_logo_pending = None
        self.form_dirty = False
        self.leave_open = False
        events.insert(0, toast_success(done))
        events.append(rx.redirect(then or routes.url("firms.view", id=firm_id)))
        return events

    @rx.event
    def save(self, _form: dict | None = None):
        self.saving = True
        yield
        try:
            events = self._save(None)
        finally:
            self.saving = False
        yield events

    @rx.event
    def save_and_leave(self):
        """The leave dialog's Save: save, then go where the user was going."""
        self.leave_open = False
        self.saving = True
        yield
        try:
            events = self._save(self.leave_to or None)
        finally:
            self.saving = False
        yield events

    @rx.event
    def edit(self):
        if not self._firm_id or not self.can_edit:
            return None
        return rx.redirect(routes.url("firms.edit", id=self._firm_id))

    @rx.event
    def cancel(self):
        if self.mode == "edit" and self._firm_id:
            return AppState.navigate(routes.url("firms.view", id=self._firm_id))
        return AppState.navigate(routes.url("firms.list"))

    @rx.event
    def go_list(self):
        return AppState.navigate(routes.url("firms.list"))

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def read_only(self) -> bool:
        return self.mode == "view"

    @rx.var
    def title(self) -> str:
        if self.mode == "new":
            return "New firm"
        if self.loading:
            return ""
        return self.firm_name if self.mode == "view" else f"Edit {self.firm_name}"

    @rx.var
    def logo_shown(self) -> str:
        return self.logo_preview or self.logo_url

    @rx.var
    def licensee_logo_shown(self) -> str:
        return self.licensee_logo_preview or self.licensee_logo_url
