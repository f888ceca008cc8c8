"""Profile: the signed-in user's own details, password change, photo, signature and (for the
superuser) the default logo. Clients see their details read-only and change only the photo and
the password (spec 002 s6)."""
from __future__ import annotations

from typing import Any, ClassVar

import reflex as rx

from app.domain import validators as v
from app.domain.permissions import Actor, home_route
from app.domain.roles import Role
from app.domain.users import clean_new_password, clean_person, read_profile_form
from app.services import users
from app.services.users import UserView
from app.ui import routes
from app.ui.states.base import AppState, toast_success
from app.ui.states.images import ImageStaging
from app.ui.states.person import PersonForm
from app.ui.toolkit.passwords import TypedPasswords
from app.ui.toolkit.screen import Viewer, guarded, screen_load
from app.ui.toolkit.rows import field_errors

# The password fields are emptied in the browser once saved or reset (the server keeps no copy to send back).
PASSWORD_FIELDS = ("oldPassword", "password", "rptPassword")
_CLEAR_PASSWORDS = [rx.set_value(name, "") for name in PASSWORD_FIELDS]
PROFILE_FIELDS = ("first_name", "last_name", "preferred_name", "email", "phone", *PASSWORD_FIELDS)


class ProfileState(Viewer, PersonForm, TypedPasswords, ImageStaging, AppState):
    """The role and firm shown are the frame's own (AppState.role_title, AppState.firm_name): the
    same signed-in user, loaded with every page and again after a save."""

    IMAGE_SLOTS: ClassVar[dict[str, str]] = {"photo": "photo", "signature": "signature", "logo": "logo"}
    PASSWORD_FIELDS: ClassVar[tuple[str, ...]] = PASSWORD_FIELDS

    loaded: bool = False
    saving: bool = False

    current_email: str = ""

    email_message: str = ""  # the pending e-mail change the service reported

    errors: dict[str, str] = {f: "" for f in PROFILE_FIELDS}

    _version: int = 0

    # ---- load -----------------------------------------------------------------------------------
    def _fill(self, me: UserView) -> None:
        self._version = me.version
        self._fill_person(me)
        self.current_email = self.email
        self._load_images({"photo": me.photo_url, "signature": me.signature_url, "logo": me.default_logo_url})
        self._forget_passwords()

    @rx.event
    @screen_load(back=lambda self, actor: routes.url(home_route(actor.role)))
    def on_load(self, actor: Actor):
        self.loaded = False
        self.saving = False
        self.submitted = False
        self.image_confirm = ""
        self.email_message = ""
        self.errors = {f: "" for f in PROFILE_FIELDS}
        self._fill(users.get_me(actor=actor))
        self.loaded = True

    # ---- validation -----------------------------------------------------------------------------
    def _is_client(self) -> bool:
        return self.viewer_role == Role.CLIENT.value

    def _wants_password(self) -> bool:
        return any(not v.is_empty(self._typed(name)) for name in PASSWORD_FIELDS)

    def _validate(self) -> v.FieldErrors:
        errors = v.FieldErrors()
        if not self._is_client():
            _values, errors = clean_person(self._person())
        if self._wants_password():
            errors.check("oldPassword", v.required(self._typed("oldPassword"), "old password"))
            new_password = clean_new_password(self._typed("password"), self._typed("rptPassword"))
            errors.update({k: t for k, t in new_password.items() if k not in errors})
        return errors

    def _show_errors(self, errors: dict[str, str]) -> None:
        self.errors = field_errors(errors, PROFILE_FIELDS)

    # ---- setters --------------------------------------------------------------------------------
    def _person_editable(self) -> bool:
        return self.loaded and not self._is_client()

    def _passwords_editable(self) -> bool:
        return self.loaded

    def _password_typed(self) -> None:
        self._changed()

    # ---- images (staged by ImageStaging, written on save) ---------------------------------------
    def _image_editable(self, slot: str, actor: Actor) -> bool:
        if not self.loaded:
            return False
        if slot == "logo":
            return actor.is_superuser  # the default logo is the superuser's
        if slot == "signature":
            return actor.role is not Role.CLIENT
        return True

    # ---- save -----------------------------------------------------------------------------------
    def _write(self, actor: Actor) -> str:
        """Save the profile, its images and (for the superuser) the default logo; the service's message."""
        data: dict[str, Any] = {"version": self._version,
                                "isPhotoRemoved": self._image_removed("photo"),
                                "isSignatureRemoved": self._image_removed("signature")}
        if actor.role is not Role.CLIENT:
            data.update(self._person())
        if self._wants_password():
            data.update({name: self._typed(name) for name in PASSWORD_FIELDS})
        message = users.update_me(actor=actor, form=read_profile_form(data)).message
        if self._image_removed("logo") and actor.is_superuser:
            users.remove_default_logo(actor=actor)
        for slot, mime, payload in self._staged_images():
            users.set_user_image(actor=actor, user_id=actor.id, kind=slot, content_type=mime, data=payload)
        self._fill(users.get_me(actor=actor))
        self._load_identity(actor)
        return message

    def _saved(self, message: str) -> list[Any]:
        self._show_errors({})
        if message != users.PROFILE_UPDATED:
            self.email_message = message
            return [rx.toast.success(users.PROFILE_UPDATED, description=message, position="top-right", duration=8000),
                    *_CLEAR_PASSWORDS]
        return [toast_success(users.PROFILE_UPDATED), *_CLEAR_PASSWORDS]

    @rx.event
    def save(self, _form: dict | None = None):
        if self.saving or not self.loaded:
            return None
        self._take_submitted_passwords(_form)
        self.saving = True
        try:
            _ok, events = self._save()
        finally:
            self.saving = False
        return events

    def _leave_fallback(self) -> str:
        return routes.url("profile")

    @rx.event
    @guarded
    def discard(self):
        """Reset the form to what is saved."""
        self._fill(users.get_me(actor=self._actor()))
        self.form_dirty = False
        self.submitted = False
        self._show_errors({})
        return _CLEAR_PASSWORDS

    # ---- what the screen shows ------------------------------------------------------------------
    @rx.var
    def details_read_only(self) -> bool:
        return self.viewer_role == Role.CLIENT.value

    @rx.var
    def profile_initials(self) -> str:
        return f"{self.first_name[:1]}{self.last_name[:1]}".upper()

    @rx.var
    def email_changing(self) -> bool:
        return self.email.strip().lower() != self.current_email.strip().lower() and self.email.strip() != ""
