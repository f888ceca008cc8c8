"""A form dialog whose form is typed: a dataclass of its inputs that the page reads as
`State.form.field`, rather than FormDialog's dict of text by name."""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Mapping, cast

from app.ui.toolkit.screen import FormDialog


class TypedFormDialog(FormDialog, mixin=True):
    """FormDialog with `form` an instance of FORM_TYPE (the screen declares `form: FORM_TYPE`). The page
    still names each input by its key (its id, its mark, the domain's error and `set_form_field` go by
    it); INPUT_NAMES maps a key to the dataclass's attribute where the two differ."""

    FORM_TYPE: ClassVar[type] = object
    INPUT_NAMES: ClassVar[Mapping[str, str]] = {}

    def _blank_form(self, values: Any) -> Any:
        """The dialog opens on `values` (a FORM_TYPE; None: an empty form)."""
        return values if values is not None else self.FORM_TYPE()

    def _with_edits(self, values: dict[str, str]) -> Any:
        """The form with the inputs typed or chosen, named by their keys."""
        changed = {self.INPUT_NAMES.get(key, key): text for key, text in values.items()}
        return dataclasses.replace(cast(Any, self.form), **changed)
