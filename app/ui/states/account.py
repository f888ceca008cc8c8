"""Public account pages reached from e-mailed links: activation, password reset, e-mail change.

The token comes from the page's own path on the server (`_path_text("token")`), is checked on
load, and is checked again by the service on submit: the browser only ever holds the token the
e-mail gave it.
"""
from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, ClassVar, Mapping

import reflex as rx

from app.domain import auth_rules
from app.domain.errors import INVALID_FORM, AuthenticationError, DomainError, ValidationError
from app.domain.permissions import Actor, home_route
from app.domain.users import clean_new_password
from app.services import auth
from app.ui import routes
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.toolkit.passwords import TypedPasswords
from app.ui.toolkit.rows import field_errors


_REPEAT_LOAD_SECONDS = 10


# The form's fields, named as the service names them in its errors.
PASSWORD_FIELDS = ("password", "rptPassword")
# A failed set-password empties both fields in the browser (the server keeps no copy to send back).
_CLEAR_PASSWORDS = [rx.set_value(name, "") for name in PASSWORD_FIELDS]


class _PasswordForm(TypedPasswords, mixin=True):
    """New password + repeat, the form-level message, then a 10-second countdown to sign in.

    A concrete state sets `_route` (its route name) and implements `_check(token)` (raises a
    DomainError when the link is no longer valid) and `_set_password(token, password, repeat)`.
    """

    checking: bool = True
    email: str = ""
    first_name: str = ""

    PASSWORD_FIELDS: ClassVar[tuple[str, ...]] = PASSWORD_FIELDS
    errors: dict[str, str] = dict.fromkeys(PASSWORD_FIELDS, "")  # under each field, by PASSWORD_FIELDS name
    form_error: str = ""
    submitted: bool = False
    busy: bool = False

    done: bool = False
    countdown: int = 0
    signed_in: bool = False  # a user is signed in in this browser: no redirect after success

    _run: int = 0  # one countdown at a time: a newer one (or leaving the page) stops the older

    if TYPE_CHECKING:  # what the screens' other base (AppState) gives this mixin
        token: str
        def _actor(self) -> Actor: ...
        def _path_text(self, name: str) -> str: ...

    # ---- hooks -----------------------------------------------------------------------------
    _route: ClassVar[str] = ""

    def _check(self, token: str) -> auth.LinkOwner:  # pragma: no cover - implemented by subclasses
        raise NotImplementedError

    def _set_password(self, token: str, password: str, repeat: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def _redirect_when_signed_in(self) -> bool:
        return True

    # ---- helpers ---------------------------------------------------------------------------
    def _reset(self) -> None:
        """Every field of the form back to its default; a countdown still running stops."""
        run = self._run
        self.reset()
        self._run = run + 1

    def _show_errors(self, errors: Mapping[str, str]) -> None:
        self.errors = field_errors(errors, PASSWORD_FIELDS)

    def _validate(self) -> bool:
        errors = clean_new_password(self._typed("password"), self._typed("rptPassword"))
        self._show_errors(errors)
        if errors.ok:
            self.form_error = ""
        return errors.ok

    def _is_signed_in(self) -> bool:
        try:
            return bool(auth.authenticate(self.token))
        except AuthenticationError:
            return False

    # ---- events ----------------------------------------------------------------------------
    @rx.event
    def on_load(self):
        """Check the link first; a used or expired one goes back to sign in with the reason."""
        self._reset()
        try:
            info = self._check(self._path_text("token"))
        except DomainError as exc:
            self.checking = False
            return [toast_error(exc.message), rx.redirect(routes.url("login"))]
        self.email, self.first_name, self.checking = info.email, info.first_name or "", False
        return None

    def _password_typed(self) -> None:
        if self.submitted:
            self._validate()

    @rx.event
    def submit(self, _form: dict | None = None):
        if self.done or self.busy:
            return None
        self._take_submitted_passwords(_form)
        self.submitted = True
        if not self._validate():
            self.form_error = INVALID_FORM
            return None
        self.busy = True
        try:
            self._set_password(self._path_text("token"), self._typed("password"), self._typed("rptPassword"))
        except DomainError as exc:
            # A failed set-password clears both password fields (spec 000 s5).
            self.busy = False
            self._forget_passwords()
            self.submitted = False
            if not isinstance(exc, ValidationError):
                return [toast_error(exc.message), *_CLEAR_PASSWORDS]
            self._show_errors(exc.fields)
            if exc.fields:
                self.form_error = exc.message
                return _CLEAR_PASSWORDS
            # the link itself is no longer valid: toast, then sign in (spec 000 s8)
            self.form_error = ""
            return [toast_error(exc.message), rx.redirect(routes.url("login"))]
        self.busy = False
        self._forget_passwords()
        self.form_error = ""
        self.done = True
        self.signed_in = self._is_signed_in()
        if self.signed_in and not self._redirect_when_signed_in():
            return None
        self.countdown = auth_rules.COUNTDOWN_SECONDS
        self._run += 1
        return type(self).tick(self._run)

    @rx.event(background=True)
    async def tick(self, run: int):
        """Counts the 10 seconds down, then sends the user to sign in."""
        while True:
            await asyncio.sleep(1)
            async with self:
                if run != self._run or not self.done or routes.match(self.router.url.path)[0] != self._route:
                    return
                self.countdown -= 1
                if self.countdown > 0:
                    continue
                self._run += 1
                if self._is_signed_in() and not self._redirect_when_signed_in():
                    self.signed_in = True
                    return
                break
        yield rx.redirect(routes.url("login"))

    @rx.event
    def go_login(self):
        self._run += 1
        return rx.redirect(routes.url("login"))

    @rx.event
    def go_home(self):
        self._run += 1
        try:
            actor = self._actor()
        except AuthenticationError:
            return rx.redirect(routes.url("login"))
        return rx.redirect(routes.url(home_route(actor.role)))


class ActivationState(_PasswordForm, AppState):
    """/activation/[token]: the new user sets a password; then 10 s and sign in."""

    _route: ClassVar[str] = "activation"

    def _check(self, token: str) -> auth.LinkOwner:
        return auth.check_activation_token(token=token)

    def _set_password(self, token: str, password: str, repeat: str) -> None:
        auth.activate(token=token, password=password, rpt_password=repeat)


class ResetPasswordState(_PasswordForm, AppState):
    """/reset-password/[token]: a new password from the recovery e-mail. After success the 10-second
    countdown sends the user to sign in, unless someone is signed in in this browser (spec 000 s2)."""

    _route: ClassVar[str] = "reset-password"

    def _check(self, token: str) -> auth.LinkOwner:
        return auth.check_recovery_token(token=token)

    def _set_password(self, token: str, password: str, repeat: str) -> None:
        auth.reset_password(token=token, password=password, rpt_password=repeat)

    def _redirect_when_signed_in(self) -> bool:
        return False


class EmailChangeState(AppState):
    """/email-change/[token]: validates the token, then confirms the new address."""

    status: str = "checking"  # checking | changed | failed
    message: str = ""
    new_email: str = ""
    signed_in: bool = False

    # React strict mode may load the page twice: a repeat load of the link this browser has just
    # confirmed keeps the first answer instead of reporting the (now used) link as invalid.
    _confirmed_token: str = ""
    _confirmed_at: float = 0.0

    @rx.event
    def on_load(self):
        token = self._path_text("token")
        try:
            self._actor()
            self.signed_in = True
        except AuthenticationError:
            self.signed_in = False
        if token and token == self._confirmed_token and time.monotonic() - self._confirmed_at < _REPEAT_LOAD_SECONDS:
            return None
        self.status = "checking"
        self.message = ""
        self.new_email = ""
        try:
            self.new_email = auth.check_email_change_token(token=token).email
            self.message = auth.confirm_email_change(token=token)
        except DomainError as exc:
            self.status = "failed"
            self.message = exc.message
            return toast_error(exc.message)
        self._confirmed_token = token
        self._confirmed_at = time.monotonic()
        self.status = "changed"
        return toast_success(self.message)

    @rx.event
    def go_on(self):
        """Sign in with the new address, or back home when already signed in."""
        try:
            actor = self._actor()
        except AuthenticationError:
            return rx.redirect(routes.url("login"))
        return rx.redirect(routes.url(home_route(actor.role)))
