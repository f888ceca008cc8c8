"""A form page that creates one record or edits it (the model, portfolio and firm forms): what
these forms share beyond SavingForm's Save, written once.

- `_write_record(create, update)`: the service's create call on a new record's form (mode "new"),
  else its update call. When the service refuses the form (a ValidationError, a Conflict when
  someone else saved meanwhile, NotFound, PermissionDenied), the screen's `_refused(exc)` shows
  on the form what it says and the error goes on to the error funnel (`guarded` on `_save`), which
  toasts it. Once written, the form no longer holds navigation.
- `_edit(**values)` (EditingForm, which the user form mixes in too): fields the user changed, taken
  (and the form checked again) only while the form may change.
- The form's lines (list vars of dataclass rows): `_at` finds one by its index while the form may
  change, `_replace` changes it, `_remove_line` takes it out; `not_added` offers what no line holds yet.
- The hooks of the form's parts (AddressForm, the industry group allocations): a part changes while
  the form may (`_editable`) and a change is the form's (`_changed`: dirty, and checked again once
  submitted). A form lists RecordForm before those parts, so that its answers are the ones taken."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable, Mapping, TypeVar

import reflex as rx

from app.domain.errors import DomainError
from app.ui import routes
from app.ui.parse import to_int
from app.ui.toolkit.screen import SavingForm

Saved = TypeVar("Saved")
Choice = TypeVar("Choice")


def not_added(options: list[Choice], key: str, added: Iterable[Any]) -> list[Choice]:
    """The options whose `key` is none of `added` (what the form's lines hold): what may still be added."""
    taken = set(added)
    return [option for option in options if getattr(option, key) not in taken]


class EditingForm(rx.State, mixin=True):
    """A form whose `_editable()` says when it may change and whose `_changed()` follows a change."""

    def _edit(self, **values: Any) -> None:
        """Fields of the form changed by the user: taken (and the form checked again) only while it
        may be edited."""
        if not self._editable():
            return
        for key, value in values.items():
            setattr(self, key, value)
        self._changed()


class RecordForm(SavingForm, EditingForm, mixin=True):
    """SavingForm for a page whose `mode` is "new" for a record not yet created."""

    def _start(self, modes: Mapping[str, str], default: str) -> str:
        """A load starts from every field's default, in the mode of the page the browser is on
        (`modes`: route name -> mode; `default` on the form's other routes)."""
        mode = routes.page_value(self.router.url.path, modes, default)
        self.reset()
        self.mode = mode
        return mode

    def _refused(self, exc: DomainError) -> None:
        """The service refused the form: what the form shows of it (the toast follows)."""

    def _write_record(self, create: Callable[[], Saved], update: Callable[[], Saved]) -> Saved:
        try:
            saved = create() if self.mode == "new" else update()
        except DomainError as exc:
            self._refused(exc)
            raise
        self.form_dirty = False
        self.leave_open = False
        return saved

    def _to_edit(self, route_name: str, record_id: int) -> Any:
        """To the record's edit page, for one who may edit it (else nothing)."""
        return rx.redirect(routes.url(route_name, id=record_id)) if record_id and self.can_edit else None

    # ---- the form's lines --------------------------------------------------------------------------
    def _at(self, index: Any, lines: list[Any]) -> int | None:
        """The index of one of `lines` to change: None when the form is read-only or there is no such row."""
        i = to_int(index)
        return i if self._editable() and i is not None and 0 <= i < len(lines) else None

    def _replace(self, name: str, i: int, **changes: Any) -> None:
        """Row i of the list var `name`, changed (a new list, so the change is sent)."""
        lines = list(getattr(self, name))
        lines[i] = dataclasses.replace(lines[i], **changes)
        setattr(self, name, lines)

    def _remove_line(self, name: str, index: Any) -> int | None:
        """Take row `index` out of the list var `name` (a change of the form); the index taken out,
        None when there was nothing to take."""
        lines = getattr(self, name)
        i = self._at(index, lines)
        if i is not None:
            setattr(self, name, [line for k, line in enumerate(lines) if k != i])
            self._changed()
        return i

    # ---- the hooks of the form's parts ---------------------------------------------------------------
    def _address_editable(self) -> bool:
        return self._editable()

    def _address_changed(self) -> None:
        self._changed()

    def _ig_editable(self) -> bool:
        return self._editable()

    def _ig_changed(self) -> None:
        self._changed()
