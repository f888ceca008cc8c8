"""Image staging shared by the screens that edit pictures (firm logos, user photo and signature,
the profile's photo, signature and default logo).

A chosen file is checked with the shared validator at once, kept in backend-only vars and shown
as a `data:` preview; nothing is stored until the screen saves. Removal is asked first, then
remembered until the save. A screen state mixes this in (`class X(ImageStaging, AppState)`), names
its slots in IMAGE_SLOTS and decides in `_image_editable` who may change which slot (by default,
anyone while its form may change: `_editable()`); on save it
writes `_staged_images()` and the `_image_removed(slot)` flags through its own service."""
from __future__ import annotations

import base64
from typing import Any, ClassVar

import reflex as rx

from app.domain import validators
from app.domain.errors import DomainError
from app.domain.permissions import Actor
from app.services import files
from app.ui.states.base import toast_error

REMOVE_IMAGE_QUESTION = "Are you sure, you want to delete {noun}?"


class ImageStaging(rx.State, mixin=True):
    # slot -> the noun of the removal question ("Are you sure, you want to delete logo?")
    IMAGE_SLOTS: ClassVar[dict[str, str]] = {}

    image_urls: dict[str, str] = {}  # slot -> what the card shows: a staged data: URL or the saved file's path
    image_errors: dict[str, str] = {}  # slot -> the validator's text for the last refused file
    image_confirm: str = ""  # the slot whose removal is being asked about

    _saved_images: dict[str, str] = {}
    _staged: dict[str, tuple[str, bytes]] = {}  # slot -> (content type, bytes) waiting for the save
    _removed: list[str] = []  # slots whose saved image goes on save

    # ---- hooks -------------------------------------------------------------------------------
    def _image_editable(self, slot: str, actor: Actor) -> bool:
        """May the actor change this slot now? False ignores the request; a DomainError is shown."""
        return self._editable()

    # ---- for the screen state ---------------------------------------------------------------
    def _load_images(self, saved: dict[str, str | None]) -> None:
        """Show what is saved (file paths by slot) and forget anything staged."""
        self._saved_images = {slot: saved.get(slot) or "" for slot in self.IMAGE_SLOTS}
        self.image_urls = dict(self._saved_images)
        self.image_errors = {slot: "" for slot in self.IMAGE_SLOTS}
        self.image_confirm = ""
        self._forget_staged_images()

    def _forget_staged_images(self) -> None:
        """After a save: nothing is waiting any more."""
        self._staged = {}
        self._removed = []

    def _staged_images(self) -> list[tuple[str, str, bytes]]:
        """(slot, content type, bytes) of every staged file, in slot order."""
        return [(slot, *self._staged[slot]) for slot in self.IMAGE_SLOTS if slot in self._staged]

    def _image_removed(self, slot: str) -> bool:
        """The saved image is to be removed (a staged replacement overwrites it instead)."""
        return slot in self._removed and slot not in self._staged

    def _show_image_errors(self, fields: dict[str, str]) -> None:
        """Put a service's field errors for image slots under their cards."""
        found = {slot: text for slot, text in fields.items() if slot in self.IMAGE_SLOTS}
        if found:
            self.image_errors = {**self.image_errors, **found}

    def _set_image_error(self, slot: str, text: str) -> None:
        self.image_errors = {**self.image_errors, slot: text}

    def _image_allowed(self, slot: str) -> tuple[bool, Any]:
        """(allowed, what the handler returns when not): resolves the actor from the token."""
        if slot not in self.IMAGE_SLOTS:
            return False, None
        try:
            return self._image_editable(slot, self._actor()), None
        except DomainError as exc:
            return False, self._fail(exc)

    # ---- events ------------------------------------------------------------------------------
    @rx.event
    async def stage_image(self, slot: str, files_: list[rx.UploadFile]):
        allowed, refused = self._image_allowed(slot)
        if not allowed or not files_:
            return refused
        upload = files_[0]
        data = await upload.read(validators.MAX_IMAGE_BYTES + 1)  # one byte past the limit tells it is too big
        error = validators.image_upload(upload.content_type, data)
        self._set_image_error(slot, error or "")
        if error:
            return toast_error(error)
        mime = files.CONTENT_TYPES[validators.image_extension(data)]
        self._staged = {**self._staged, slot: (mime, data)}
        self.image_urls = {**self.image_urls, slot: f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"}
        self.form_dirty = True
        return None

    @rx.event
    def reject_image(self, slot: str, _rejected: list[dict[str, Any]]):
        """The browser refused the file (not an image)."""
        allowed, refused = self._image_allowed(slot)
        if not allowed:
            return refused
        self._set_image_error(slot, validators.IMAGE_FORMAT)
        return toast_error(validators.IMAGE_FORMAT)

    @rx.event
    def ask_remove_image(self, slot: str):
        allowed, refused = self._image_allowed(slot)
        if not allowed:
            return refused
        self.image_confirm = slot
        return None

    @rx.event
    def cancel_remove_image(self):
        self.image_confirm = ""

    @rx.event
    def confirm_remove_image(self):
        slot, self.image_confirm = self.image_confirm, ""
        allowed, refused = self._image_allowed(slot)
        if not allowed:
            return refused
        self._staged = {k: x for k, x in self._staged.items() if k != slot}
        if self._saved_images.get(slot) and slot not in self._removed:
            self._removed = [*self._removed, slot]
        self.image_urls = {**self.image_urls, slot: ""}
        self._set_image_error(slot, "")
        self.form_dirty = True
        return None

    # ---- what the screen shows ---------------------------------------------------------------
    @rx.var
    def image_remove_open(self) -> bool:
        return self.image_confirm != ""

    @rx.var
    def image_remove_question(self) -> str:
        slot = self.image_confirm  # '' or a slot of IMAGE_SLOTS (ask_remove_image takes no other)
        return REMOVE_IMAGE_QUESTION.format(noun=type(self).IMAGE_SLOTS[slot]) if slot else ""
