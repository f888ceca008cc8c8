"""Login screen with the password-recovery modal."""
from __future__ import annotations

import asyncio

import reflex as rx

from app.domain import auth_rules
from app.domain.errors import DomainError, ValidationError
from app.domain.permissions import home_route
from app.domain.roles import Role
from app.services import audit, auth
from app.ui import routes
from app.ui.parse import form_text
from app.ui.states.base import AppState, remembered_target


class LoginState(AppState):
    email: str = ""
    _password: str = ""  # a backend variable: the password is never sent back to the browser
    error: str = ""
    busy: bool = False

    recovery_open: bool = False
    recovery_email: str = ""
    recovery_error: str = ""
    recovery_sent: bool = False
    recovery_webmail: str = ""
    recovery_countdown: int = 0
    _recovery_run: int = 0  # one countdown at a time: a newer request stops the older loop

    @rx.event
    def set_email(self, value: str):
        self.email = value

    @rx.event
    def set_password(self, value: str):
        self._password = str(value)[:200]

    @rx.event
    def on_load(self):
        """A valid session skips the form."""
        self.error = ""
        self._password = ""
        if self.token:
            try:
                actor = auth.authenticate(self.token)
            except DomainError:
                self.token = ""
                return None
            return rx.redirect(routes.url(home_route(actor.role)))

    @rx.event
    def signin(self, _form: dict | None = None):
        self.error = ""
        submitted = form_text(_form, "password")
        if submitted is not None:
            self._password = submitted
        audit.set_origin(self.router.session.client_ip or None)
        try:
            token, user = auth.signin(email=self.email, password=self._password,
                                      ip=self.router.session.client_ip or None)
        except DomainError as exc:
            self.error = exc.message
            self._password = ""
            return rx.set_value("password", "")
        self.token = token
        self._password = ""
        target = remembered_target(self.target_path, self.target_path_at)
        self.target_path = ""
        self.target_path_at = ""
        return rx.redirect(target or routes.url(home_route(Role(user.role))))

    # ---- recovery modal -----------------------------------------------------------------------
    @rx.event
    def open_recovery(self):
        self.recovery_open = True
        self.recovery_email = self.email
        self.recovery_error = ""
        self.recovery_sent = False
        self.recovery_webmail = ""

    @rx.event
    def close_recovery(self):
        self.recovery_open = False
        self.recovery_countdown = 0

    @rx.event
    def set_recovery_email(self, value: str):
        self.recovery_email = value
        if self.recovery_error:
            self.recovery_error = ""

    @rx.event
    def request_recovery(self, _form: dict | None = None):
        try:
            result = auth.request_recovery(email=self.recovery_email)
        except ValidationError as exc:
            self.recovery_error = exc.message
            return None
        self.recovery_sent = True
        self.recovery_webmail = result["webmail"] or ""
        self.recovery_countdown = auth_rules.COUNTDOWN_SECONDS
        self._recovery_run += 1
        return LoginState.recovery_tick(self._recovery_run)

    @rx.event(background=True)
    async def recovery_tick(self, run: int):
        """The modal closes itself after 10 seconds."""
        while True:
            await asyncio.sleep(1)
            async with self:
                if run != self._recovery_run or not self.recovery_open or not self.recovery_sent:
                    return
                self.recovery_countdown -= 1
                if self.recovery_countdown <= 0:
                    self.recovery_open = False
                    return
