"""Login screen with the password-recovery modal."""
from __future__ import annotations

import asyncio
import dataclasses
from typing import ClassVar

import reflex as rx

from app.domain import auth_rules
from app.domain.errors import DomainError, ValidationError
from app.domain.permissions import home_route
from app.domain.roles import Role
from app.services import audit, auth
from app.ui import routes
from app.ui.states.base import AppState, remembered_target
from app.ui.toolkit.passwords import TypedPasswords


@dataclasses.dataclass
class Recovery:
    """The password-recovery dialog: the address typed, its error, and once the link is sent the
    webmail shortcut and the seconds left before the dialog closes itself."""

    open: bool = False
    email: str = ""
    error: str = ""
    sent: bool = False
    webmail: str = ""
    countdown: int = 0


class LoginState(TypedPasswords, AppState):
    PASSWORD_FIELDS: ClassVar[tuple[str, ...]] = ("password",)

    email: str = ""
    error: str = ""
    busy: bool = False

    recovery: Recovery = Recovery()
    _recovery_run: int = 0  # one countdown at a time: a newer request stops the older loop

    @rx.event
    def set_email(self, value: str):
        self.email = value

    @rx.event
    def on_load(self):
        """A valid session skips the form."""
        self.error = ""
        self._forget_passwords()
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
        self._take_submitted_passwords(_form)
        audit.set_origin(self.router.session.client_ip or None)
        try:
            token, user = auth.signin(email=self.email, password=self._typed("password"),
                                      ip=self.router.session.client_ip or None)
        except DomainError as exc:
            self.error = exc.message
            self._forget_passwords()
            return rx.set_value("password", "")
        self.token = token
        self._forget_passwords()
        target = remembered_target(self.target_path, self.target_path_at)
        self.target_path, self.target_path_at = "", ""
        return rx.redirect(target or routes.url(home_route(Role(user.role))))

    # ---- recovery modal -----------------------------------------------------------------------
    @rx.event
    def open_recovery(self):
        self.recovery = Recovery(open=True, email=self.email)

    @rx.event
    def close_recovery(self):
        self.recovery = dataclasses.replace(self.recovery, open=False, countdown=0)

    @rx.event
    def set_recovery_email(self, value: str):
        self.recovery = dataclasses.replace(self.recovery, email=value, error="")

    @rx.event
    def request_recovery(self, _form: dict | None = None):
        try:
            result = auth.request_recovery(email=self.recovery.email)
        except ValidationError as exc:
            self.recovery = dataclasses.replace(self.recovery, error=exc.message)
            return None
        self.recovery = dataclasses.replace(self.recovery, sent=True, webmail=result.webmail or "",
                                            countdown=auth_rules.COUNTDOWN_SECONDS)
        self._recovery_run += 1
        return LoginState.recovery_tick(self._recovery_run)

    @rx.event(background=True)
    async def recovery_tick(self, run: int):
        """The modal closes itself after 10 seconds."""
        while True:
            await asyncio.sleep(1)
            async with self:
                if run != self._recovery_run or not self.recovery.open or not self.recovery.sent:
                    return
                left = self.recovery.countdown - 1
                self.recovery = dataclasses.replace(self.recovery, countdown=left, open=left > 0)
                if left <= 0:
                    return
