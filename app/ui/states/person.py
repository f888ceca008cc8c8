"""The form that edits a person, shared by the user form and the profile: first, last and
preferred name, e-mail and phone (checked by app.domain.users.clean_person, the service's own
validation), the validate-after-the-first-submit cycle and "save, then leave".

A screen state mixes this in (`class X(PersonForm, AppState)`) and implements `_editable()` or
`_person_editable()` (may the details change now?), `_validate()` (all its field errors),
`_show_errors(errors)`, `_write(actor)` (send the form to the service; the saved result, or None
when there is nothing to save), `_saved(result)` (the events once it is saved) and
`_leave_fallback()` (where "save, then leave" goes when the user was going nowhere in particular).
The screen also mixes in ImageStaging: the photo and signature it stages are written with the form."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain import validators
from app.domain.errors import INVALID_FORM, DomainError, ValidationError
from app.domain.permissions import Actor
from app.services.users import UserView
from app.ui.states.base import toast_error
from app.ui.toolkit.screen import events

# field -> the longest text kept from the browser
PERSON_FIELDS = {"first_name": 200, "last_name": 200, "preferred_name": 200, "email": 320, "phone": 60}


class PersonForm(rx.State, mixin=True):
    first_name: str = ""
    last_name: str = ""
    preferred_name: str = ""
    email: str = ""
    phone: str = ""
    submitted: bool = False  # after the first submit every change validates again

    # ---- hooks (pragma: each screen implements them) -------------------------------------------
    def _person_editable(self) -> bool:
        return self._editable()

    def _validate(self) -> validators.FieldErrors:  # pragma: no cover
        raise NotImplementedError

    def _show_errors(self, errors: dict[str, str]) -> None:  # pragma: no cover
        raise NotImplementedError

    def _write(self, actor: Actor) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _saved(self, result: Any) -> list[Any]:  # pragma: no cover
        raise NotImplementedError

    def _leave_fallback(self) -> str:  # pragma: no cover
        raise NotImplementedError

    # ---- for the screen state ---------------------------------------------------------------
    def _person(self) -> dict[str, str]:
        """The details as clean_person and the services take them."""
        return {key: getattr(self, key) for key in PERSON_FIELDS}

    def _fill_person(self, user: UserView) -> None:
        """Show a user's details as the service returned them."""
        for key in PERSON_FIELDS:
            setattr(self, key, getattr(user, key) or "")

    def _changed(self) -> None:
        """A field changed: the form is dirty, and once submitted it is checked again."""
        self.form_dirty = True
        if self.submitted:
            self._show_errors(self._validate())

    def _check_submitted(self) -> list[Any] | None:
        """The first step of a save: check every field and show the errors; the events to return
        when something is wrong (None when the form may be saved)."""
        self.submitted = True
        errors = self._validate()
        self._show_errors(errors)
        return None if errors.ok else [toast_error(INVALID_FORM)]

    def _save(self) -> tuple[bool, list[Any]]:
        """(saved, events to return): check every field, send the form, and show the service's
        field and image errors when it refuses it."""
        invalid = self._check_submitted()
        if invalid:
            return False, invalid
        try:
            result = self._write(self._actor())
        except ValidationError as exc:
            self._show_errors({**self.errors, **exc.fields})
            self._show_image_errors(exc.fields)
            return False, events(self._fail(exc))
        except DomainError as exc:
            return False, events(self._fail(exc))
        if result is None:
            return False, []
        self.form_dirty = False
        self.submitted = False
        return True, self._saved(result)

    # ---- events ------------------------------------------------------------------------------
    @rx.event
    def set_person_field(self, key: str, value: str):
        if key not in PERSON_FIELDS or not self._person_editable():
            return
        setattr(self, key, str(value)[:PERSON_FIELDS[key]])
        self._changed()

    @rx.event
    def save_and_leave(self):
        """The leave dialog's Save: save, then go where the user was going."""
        ok, events = self._save()
        self.leave_open = False
        if not ok:
            return events
        target, self.leave_to = self.leave_to or self._leave_fallback(), ""
        return events + [rx.redirect(target)]
