"""Shared screen behaviour: who is signed in, navigation with the unsaved-changes guard, errors
and toasts. Screen states subclass AppState (one level) and call `self._actor()` in every handler:
any client can call any handler, so identity is always resolved on the server from the token."""
from __future__ import annotations

import json
import time
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import reflex as rx
from reflex_base.vars.base import Var

from app.domain import auth_rules
from app.domain.errors import AuthenticationError, DomainError
from app.domain.permissions import NOT_ALLOWED, Actor, home_route
from app.domain.roles import Role
from app.services import audit, auth, firms, users
from app.ui import routes
from app.ui.parse import positive_int


def toast_success(text: str):
    return rx.toast.success(text, position="top-right", duration=4000)


def toast_error(text: str):
    return rx.toast.error(text, position="top-right", duration=6000)


def toast_sorry(text: str):
    """The transaction areas' failure notice: 'Sorry!' with the server's message (spec 002 s8)."""
    return rx.toast.error("Sorry!", description=text, position="top-right", duration=6000)


def toast_warning(text: str):
    return rx.toast.warning(text, position="top-right", duration=5000)


class AppState(rx.State):
    """Identity shown in the frame, plus the navigation guard. The token is the credential."""

    token: str = rx.LocalStorage(name="x-token", sync=True)
    target_path: str = rx.LocalStorage(name="target-path")
    target_path_at: str = rx.LocalStorage(name="target-path-at")

    user_id: int = 0
    user_name: str = ""
    user_email: str = ""
    user_role: str = ""
    user_photo: str = ""
    firm_name: str = ""
    firm_logo: str = ""

    # unsaved-changes guard (Save, Don't Save, Cancel)
    form_dirty: bool = False
    leave_open: bool = False
    leave_to: str = ""

    # ---- identity -----------------------------------------------------------------------------
    def _actor(self) -> Actor:
        audit.set_origin(self.router.session.client_ip or None)  # the address the audit trail records
        return auth.authenticate(self.token)

    def _load_identity(self, actor: Actor) -> None:
        me = users.get_me(actor=actor)
        self.user_id = me.id
        self.user_name = me.name
        self.user_email = me.email
        self.user_role = me.role.value
        self.user_photo = me.photo_url or ""
        self.firm_name = me.firm.name if me.firm else ""
        self.firm_logo = firms.brand_logo(actor=actor) or ""

    def _to_login(self):
        """Remember where the user was going (20 minutes), then send them to sign in."""
        self.target_path = self.router.url.path + (f"?{self.router.url.query}" if self.router.url.query else "")
        self.target_path_at = str(int(time.time() * 1000))
        self.token = ""
        return rx.redirect(routes.url("login"))

    @rx.event
    def check_login(self):
        """on_load of every signed-in page: load the frame's identity or go to login."""
        self.form_dirty = False
        self.leave_open = False
        try:
            actor = self._actor()
            self._load_identity(actor)
        except AuthenticationError:
            return self._to_login()

    def _send_client_home(self, actor: Actor):
        """Screens a client may not open: the client goes home with a toast (None for everyone else).
        The services refuse clients anyway; this keeps them from a screen of errors."""
        if actor.role is Role.CLIENT:
            return [toast_error(NOT_ALLOWED), rx.redirect(routes.url(home_route(actor.role)))]
        return None

    def _fail(self, exc: Exception):
        """One place that turns an error into what the user sees."""
        if isinstance(exc, AuthenticationError):
            return [toast_error(exc.message), self._to_login()]
        if isinstance(exc, DomainError):
            return toast_error(exc.message)
        raise exc

    # ---- the page's address, read once, as the types the services take -------------------------
    def _path_id(self, name: str = "id") -> int | None:
        """A positive id from the page's path (`/portfolios/[id]`), None when absent or not one."""
        return positive_int(self._path_text(name))

    def _path_text(self, name: str) -> str:
        """A path parameter as text, '' when absent: as the router parsed it, else read from the
        path itself (an event that names only its page's path, as any client may send)."""
        value = self.router.page.params.get(name)
        return str(value or "") if value not in (None, "") else routes.param(self.router.url.path, name)

    def _query_text(self, name: str) -> str:
        """A query-string parameter as text, '' when absent."""
        return str((self.router.url.query_parameters or {}).get(name) or "")

    # ---- navigation with the dirty-form guard ---------------------------------------------------
    @rx.event
    def navigate(self, path: str):
        if not isinstance(path, str) or not path.startswith("/") or path.startswith("//"):
            return None  # in-app paths only
        if self.form_dirty:
            self.leave_to = path
            self.leave_open = True
            return None
        return rx.redirect(path)

    @rx.event
    def go_back(self, path: str):
        """A screen's own Back or Cancel, or a breadcrumb, to `path`: the screen as it was last shown
        in this tab (a list with its filters, page and sort: assets/links.js remembers each address),
        through `navigate` (so a form with unsaved changes asks first)."""
        if not isinstance(path, str) or not path.startswith("/") or path.startswith("//"):
            return None
        wanted = json.dumps(path)
        return rx.call_script(f"window.waBack ? window.waBack({wanted}) : {wanted}", callback=AppState.navigate)

    @rx.event
    def discard_and_leave(self):
        self.form_dirty = False
        self.leave_open = False
        return rx.redirect(self.leave_to or "/")

    @rx.event
    def cancel_leave(self):
        self.leave_open = False
        self.leave_to = ""

    @rx.event
    def signout(self):
        audit.set_origin(self.router.session.client_ip or None)
        try:
            auth.signout(token=self.token)
        finally:
            self.token = ""
            self.user_id = 0
            self.form_dirty = False
        return rx.redirect(routes.url("login"))

    @rx.event
    def download(self, url: str, offset: str = ""):
        """A download link was clicked: the file is fetched with a single-use ticket for its path
        (never the session token, which must not travel in a URL) and the browser's UTC offset."""
        try:
            parts = urlsplit(str(url or ""))
        except ValueError:
            return None
        page_host = urlsplit(f"//{self.router.headers.host}").hostname if self.router.headers.host else None
        if (parts.scheme not in ("", "http", "https") or not parts.path.startswith("/api/")
                or (parts.hostname and page_host and parts.hostname != page_host)):
            return None  # only this app's API
        try:
            ticket = auth.issue_download_ticket(token=self.token, path=parts.path)
        except DomainError as exc:
            return self._fail(exc)
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                 if k not in ("token", "client-timezone-offset")]
        query += [("token", ticket), ("client-timezone-offset", str(offset if str(offset).lstrip("-").isdigit() else 0))]
        return rx.download(url=Var.create(urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))),
                           filename="")

    @rx.event
    def go_home(self):
        try:
            actor = self._actor()
        except AuthenticationError:
            return self._to_login()
        return rx.redirect(routes.url(home_route(actor.role)))

    # ---- what the frame shows -------------------------------------------------------------------
    @rx.var
    def is_superuser(self) -> bool:
        return self.user_role == Role.SUPERUSER.value

    @rx.var
    def is_client(self) -> bool:
        return self.user_role == Role.CLIENT.value

    @rx.var
    def is_administrator(self) -> bool:
        return self.user_role == Role.ADMINISTRATOR.value

    @rx.var
    def role_title(self) -> str:
        try:
            return Role(self.user_role).title
        except ValueError:
            return ""

    @rx.var
    def initials(self) -> str:
        return "".join(part[:1] for part in self.user_name.split()[:2]).upper()


def remembered_target(path: str, stamp: str, now_ms: int | None = None) -> str | None:
    """The remembered path if it was stored less than 20 minutes ago (and is not an auth page)."""
    if not path or not stamp:
        return None
    try:
        age = (now_ms if now_ms is not None else int(time.time() * 1000)) - int(stamp)
    except ValueError:
        return None
    name, _ = routes.match(path)
    if name is None or name in routes.PUBLIC or age < 0 or age >= auth_rules.TARGET_PATH_LIFETIME_MS:
        return None
    return path
