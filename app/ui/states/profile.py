"""Profile: the signed-in user's own details, password change, photo, signature and (for the
superuser) the default logo. Clients see their details read-only and change only the photo and
the password (spec 002 s6)."""
from __future__ import annotations

import base64
from typing import Any

import reflex as rx

from app.domain import validators as v
from app.domain.errors import INVALID_FORM, AuthenticationError, DomainError, ValidationError
from app.domain.permissions import home_route
from app.domain.roles import Role
from app.domain.users import clean_new_password, clean_person
from app.services import files, users
from app.ui import routes
from app.ui.states.base import AppState, toast_error, toast_success

PROFILE_FIELDS = ("first_name", "last_name", "preferred_name", "email", "phone", "oldPassword", "password", "rptPassword",
                  "photo", "signature", "logo")
IMAGE_KINDS = ("photo", "signature", "logo")
CONFIRM_DELETE_IMAGE = "Are you sure, you want to delete {kind}?"


class ProfileState(AppState):
    loaded: bool = False
    saving: bool = False

    first_name: str = ""
    last_name: str = ""
    preferred_name: str = ""
    email: str = ""
    phone: str = ""
    current_email: str = ""
    role: str = ""
    profile_role_title: str = ""
    profile_firm_name: str = ""
    old_password: str = ""
    new_password: str = ""
    rpt_password: str = ""

    photo_url: str = ""
    signature_url: str = ""
    logo_url: str = ""
    email_message: str = ""  # the pending e-mail change the service reported

    errors: dict[str, str] = {f: "" for f in PROFILE_FIELDS}
    submitted: bool = False
    confirm_kind: str = ""

    _version: int = 0
    _saved: dict[str, str] = {}
    _staged: dict[str, tuple[str, bytes]] = {}
    _removed: list[str] = []

    # ---- load -----------------------------------------------------------------------------------
    def _fill(self, me: dict[str, Any]) -> None:
        self._version = me["version"]
        self.first_name = me["first_name"] or ""
        self.last_name = me["last_name"] or ""
        self.preferred_name = me["preferred_name"] or ""
        self.email = self.current_email = me["email"] or ""
        self.phone = me["phone"] or ""
        self.role = me["role"]
        self.profile_role_title = me["role_title"]
        self.profile_firm_name = (me["firm"] or {}).get("name", "")
        self._saved = {"photo": me["photo_url"] or "", "signature": me["signature_url"] or "",
                       "logo": me["default_logo_url"] or ""}
        self.photo_url, self.signature_url, self.logo_url = self._saved["photo"], self._saved["signature"], self._saved["logo"]
        self._staged, self._removed = {}, []
        self.old_password = self.new_password = self.rpt_password = ""

    @rx.event
    def on_load(self):
        self.loaded = False
        self.saving = False
        self.submitted = False
        self.confirm_kind = ""
        self.email_message = ""
        self.errors = {f: "" for f in PROFILE_FIELDS}
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        try:
            self._fill(users.get_me(actor=actor))
        except DomainError as exc:
            return [toast_error(exc.message), rx.redirect(routes.url(home_route(actor.role)))]
        self.loaded = True
        return None

    # ---- validation -----------------------------------------------------------------------------
    def _is_client(self) -> bool:
        return self.role == Role.CLIENT.value

    def _wants_password(self) -> bool:
        return any(not v.is_empty(x) for x in (self.old_password, self.new_password, self.rpt_password))

    def _validate(self) -> v.FieldErrors:
        errors = v.FieldErrors()
        if not self._is_client():
            _values, errors = clean_person(self._person())
        if self._wants_password():
            errors.check("oldPassword", v.required(self.old_password, "old password"))
            errors.update({k: t for k, t in clean_new_password(self.new_password, self.rpt_password).items() if k not in errors})
        return errors

    def _show_errors(self, errors: dict[str, str]) -> None:
        self.errors = {f: errors.get(f, "") for f in PROFILE_FIELDS}

    def _changed(self) -> None:
        self.form_dirty = True
        if self.submitted:
            kept = {k: t for k, t in self.errors.items() if k in IMAGE_KINDS and t}
            self._show_errors({**kept, **self._validate()})

    def _person(self) -> dict[str, str]:
        return {"first_name": self.first_name, "last_name": self.last_name, "preferred_name": self.preferred_name,
                "email": self.email, "phone": self.phone}

    # ---- setters --------------------------------------------------------------------------------
    @rx.event
    def set_first_name(self, value: str):
        if self.loaded and not self._is_client():
            self.first_name = str(value)[:200]
            self._changed()

    @rx.event
    def set_last_name(self, value: str):
        if self.loaded and not self._is_client():
            self.last_name = str(value)[:200]
            self._changed()

    @rx.event
    def set_preferred_name(self, value: str):
        if self.loaded and not self._is_client():
            self.preferred_name = str(value)[:200]
            self._changed()

    @rx.event
    def set_email(self, value: str):
        if self.loaded and not self._is_client():
            self.email = str(value)[:320]
            self._changed()

    @rx.event
    def set_phone(self, value: str):
        if self.loaded and not self._is_client():
            self.phone = str(value)[:60]
            self._changed()

    @rx.event
    def set_old_password(self, value: str):
        if self.loaded:
            self.old_password = str(value)[:200]
            self._changed()

    @rx.event
    def set_new_password(self, value: str):
        if self.loaded:
            self.new_password = str(value)[:200]
            self._changed()

    @rx.event
    def set_rpt_password(self, value: str):
        if self.loaded:
            self.rpt_password = str(value)[:200]
            self._changed()

    # ---- images ---------------------------------------------------------------------------------
    def _may_change(self, kind: str) -> bool:
        if kind == "logo":
            return self.user_role == Role.SUPERUSER.value
        if kind == "signature":
            return not self._is_client()
        return kind == "photo"

    def _set_url(self, kind: str, url: str) -> None:
        if kind == "photo":
            self.photo_url = url
        elif kind == "signature":
            self.signature_url = url
        else:
            self.logo_url = url

    async def _stage(self, files_: list[rx.UploadFile], kind: str):
        if not self.loaded or not files_ or not self._may_change(kind):
            return None
        data = await files_[0].read()
        error = v.image_upload(files_[0].content_type, data)
        self.errors = {**self.errors, kind: error or ""}
        if error:
            return toast_error(error)
        mime = files.CONTENT_TYPES[v.image_extension(data)]
        self._staged = {**self._staged, kind: (mime, data)}
        self._set_url(kind, f"data:{mime};base64,{base64.b64encode(data).decode()}")
        self.form_dirty = True
        return None

    @rx.event
    async def upload_photo(self, files_: list[rx.UploadFile]):
        return await self._stage(files_, "photo")

    @rx.event
    async def upload_signature(self, files_: list[rx.UploadFile]):
        return await self._stage(files_, "signature")

    @rx.event
    async def upload_logo(self, files_: list[rx.UploadFile]):
        return await self._stage(files_, "logo")

    @rx.event
    def ask_remove(self, kind: str):
        if self.loaded and kind in IMAGE_KINDS and self._may_change(kind):
            self.confirm_kind = kind

    @rx.event
    def cancel_confirm(self):
        self.confirm_kind = ""

    @rx.event
    def confirm_remove(self):
        kind, self.confirm_kind = self.confirm_kind, ""
        if kind not in IMAGE_KINDS or not self._may_change(kind):
            return
        self._staged = {k: x for k, x in self._staged.items() if k != kind}
        if self._saved.get(kind) and kind not in self._removed:
            self._removed = [*self._removed, kind]
        self._set_url(kind, "")
        self.errors = {**self.errors, kind: ""}
        self.form_dirty = True

    # ---- save -----------------------------------------------------------------------------------
    def _save(self) -> tuple[bool, list[Any]]:
        self.submitted = True
        errors = self._validate()
        self._show_errors(errors)
        if not errors.ok:
            return False, [toast_error(INVALID_FORM)]
        try:
            actor = self._actor()
            data: dict[str, Any] = {"version": self._version,
                                    "isPhotoRemoved": "photo" in self._removed,
                                    "isSignatureRemoved": "signature" in self._removed}
            if actor.role is not Role.CLIENT:
                data.update(self._person())
            if self._wants_password():
                data.update(oldPassword=self.old_password, password=self.new_password, rptPassword=self.rpt_password)
            result = users.update_me(actor=actor, data=data)
            message = result.get("message", users.PROFILE_UPDATED)
            if "logo" in self._removed and actor.is_superuser:
                users.remove_default_logo(actor=actor)
            for kind in IMAGE_KINDS:
                if kind in self._staged:
                    mime, payload = self._staged[kind]
                    users.set_user_image(actor=actor, user_id=actor.id, kind=kind, content_type=mime, data=payload)
            self._fill(users.get_me(actor=actor))
            self._load_identity(actor)
        except ValidationError as exc:
            self._show_errors({**self.errors, **{k: t for k, t in exc.fields.items() if k in PROFILE_FIELDS}})
            return False, [toast_error(exc.message)]
        except DomainError as exc:
            failed = self._fail(exc)
            return False, failed if isinstance(failed, list) else [failed]
        self.form_dirty = False
        self.submitted = False
        self._show_errors({})
        if message != users.PROFILE_UPDATED:
            self.email_message = message
            return True, [rx.toast.success(users.PROFILE_UPDATED, description=message, position="top-right", duration=8000)]
        return True, [toast_success(users.PROFILE_UPDATED)]

    @rx.event
    def save(self, _form: dict | None = None):
        if self.saving or not self.loaded:
            return None
        self.saving = True
        try:
            _ok, events = self._save()
        finally:
            self.saving = False
        return events

    @rx.event
    def save_and_leave(self):
        ok, events = self._save()
        self.leave_open = False
        if not ok:
            return events
        target, self.leave_to = self.leave_to or routes.url("profile"), ""
        return events + [rx.redirect(target)]

    @rx.event
    def discard(self):
        """Reset the form to what is saved."""
        try:
            self._fill(users.get_me(actor=self._actor()))
        except DomainError as exc:
            return self._fail(exc)
        self.form_dirty = False
        self.submitted = False
        self._show_errors({})
        return None

    # ---- what the screen shows ------------------------------------------------------------------
    @rx.var
    def details_read_only(self) -> bool:
        return self.role == Role.CLIENT.value

    @rx.var
    def profile_initials(self) -> str:
        return f"{self.first_name[:1]}{self.last_name[:1]}".upper()

    @rx.var
    def email_changing(self) -> bool:
        return self.email.strip().lower() != self.current_email.strip().lower() and self.email.strip() != ""

    @rx.var
    def confirm_open(self) -> bool:
        return self.confirm_kind != ""

    @rx.var
    def confirm_text(self) -> str:
        return CONFIRM_DELETE_IMAGE.format(kind=self.confirm_kind) if self.confirm_kind else ""
