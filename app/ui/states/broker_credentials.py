"""The broker credentials card of the portfolio form (spec 002 s2 widgets): the Macquarie
authorisation code, password and code expiry date. What is typed is sent once and forgotten: the
card shows only "saved" or "not set" for the code and the password (the service never answers
them), and the expiry date. Saved on its own (not with the portfolio form), by staff."""
from __future__ import annotations

from typing import TYPE_CHECKING

import reflex as rx

from app.domain import broker_credentials as rules
from app.domain.errors import DomainError, ValidationError
from app.domain.permissions import Actor, is_staff
from app.services import broker_credentials as credentials
from app.ui.states.base import toast_error, toast_success
from app.ui.toolkit.rows import field_errors

KEYS = (rules.CODE, rules.PASSWORD, rules.EXPIRY)


class BrokerCredentialsCard(rx.State, mixin=True):
    cred_shown: bool = False  # staff on a saved portfolio
    cred_code_status: str = rules.NOT_SET
    cred_pass_status: str = rules.NOT_SET
    cred_saved_expiry: str = ""  # YYYY-MM-DD
    cred_expired: bool = False
    cred_form: dict[str, str] = {key: "" for key in KEYS}
    cred_errors: dict[str, str] = {key: "" for key in KEYS}
    cred_busy: bool = False

    if TYPE_CHECKING:  # what the screen gives this mixin: its portfolio, and AppState's actor
        def _cred_portfolio_id(self) -> int: ...
        def _actor(self) -> Actor: ...

    def _cred_show(self, status: credentials.CredentialsStatus) -> None:
        self.cred_code_status, self.cred_pass_status = status.auth_code, status.password
        self.cred_saved_expiry = status.code_expiry_date.isoformat() if status.code_expiry_date else ""
        self.cred_expired = status.expired
        self.cred_form = {**{key: "" for key in KEYS}, rules.EXPIRY: self.cred_saved_expiry}
        self.cred_errors = {key: "" for key in KEYS}

    def _cred_load(self, actor: Actor, can_edit: bool) -> None:
        self.cred_shown = bool(can_edit and is_staff(actor) and self._cred_portfolio_id())
        if self.cred_shown:
            self._cred_show(credentials.credentials_status(actor=actor, investment_id=self._cred_portfolio_id()))

    @rx.event
    def set_cred_field(self, key: str, value: str):
        if key in KEYS and self.cred_shown:
            self.cred_form = {**self.cred_form, key: str(value or "")[:200]}

    @rx.event
    def save_credentials(self):
        if not self.cred_shown or self.cred_busy:
            return None
        self.cred_busy = True
        try:
            form = self.cred_form
            update = credentials.CredentialsUpdate(form[rules.CODE], form[rules.PASSWORD], form[rules.EXPIRY])
            status = credentials.save_credentials(actor=self._actor(), investment_id=self._cred_portfolio_id(),
                                                  update=update)
        except ValidationError as exc:
            self.cred_errors = field_errors(exc.fields, KEYS)
            return toast_error(exc.message)
        except DomainError as exc:
            return toast_error(exc.message)
        finally:
            self.cred_busy = False
        self._cred_show(status)
        return toast_success(status.message or credentials.SAVED_MESSAGE)

    @rx.event
    def remove_credentials(self):
        if not self.cred_shown or self.cred_busy:
            return None
        try:
            status = credentials.remove_credentials(actor=self._actor(), investment_id=self._cred_portfolio_id())
        except DomainError as exc:
            return toast_error(exc.message)
        self._cred_show(status)
        return toast_success(status.message or credentials.REMOVED_MESSAGE)
