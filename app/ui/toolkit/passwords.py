"""Password fields a form keeps on the server only: what is typed is never sent back to the browser.

A screen state mixes this in, names its fields in PASSWORD_FIELDS (as the service names them in
its payload and errors) and may implement `_password_typed()` (what a keystroke changes besides:
the dirty flag, the live validation) and narrow `_passwords_editable()`. The page binds each input with
`on_change=lambda value: State.set_typed_password(name, value)`; on submit the state takes the
submitted values with `_take_submitted_passwords(form)`."""
from __future__ import annotations

from typing import Any, ClassVar

import reflex as rx

from app.ui.parse import form_text

PASSWORD_MAX = 200


class TypedPasswords(rx.State, mixin=True):
    PASSWORD_FIELDS: ClassVar[tuple[str, ...]] = ()

    _passwords: dict[str, str] = {}  # field name -> what is typed (backend only)

    # ---- hooks ---------------------------------------------------------------------------------
    def _password_typed(self) -> None:
        return None

    def _passwords_editable(self) -> bool:
        return True

    # ---- for the screen state --------------------------------------------------------------------
    def _typed(self, name: str) -> str:
        return self._passwords.get(name, "")

    def _forget_passwords(self) -> None:
        self._passwords = {}

    def _take_submitted_passwords(self, form: Any) -> None:
        """The values the form submitted, over what was typed (a field typed before the page's load
        event had run is still what the user submitted)."""
        submitted = {name: form_text(form, name, PASSWORD_MAX) for name in self.PASSWORD_FIELDS}
        self._passwords = {**self._passwords, **{k: text for k, text in submitted.items() if text is not None}}

    # ---- events ----------------------------------------------------------------------------------
    @rx.event
    def set_typed_password(self, name: str, value: str):
        if name in self.PASSWORD_FIELDS and self._passwords_editable():
            self._passwords = {**self._passwords, name: str(value)[:PASSWORD_MAX]}
            self._password_typed()
