"""The address form's state (spec 002 s2 widgets), shared by the user, firm and portfolio forms.

A screen state mixes it in (`class X(AddressForm, ..., AppState)`) and implements
`_address_editable()`; a change marks the form dirty and, once the form was submitted, checks the
address again (`_address_changed`). The screen sends `_address_payload()` with its form and shows
the service's errors named 'address.<field>' with `_show_address_errors`."""
from __future__ import annotations

from typing import Mapping

import reflex as rx

from app.domain import addresses
from app.domain.addresses import Address
from app.ui.toolkit.rows import field_errors

FIELDS = addresses.KEYS
ERROR_KEYS = tuple(addresses.error_key(key) for key in FIELDS)  # as a refusal names them
LONGEST = {key: longest for key, _, longest in addresses.FORM_KEYS.values()}


class AddressForm(rx.State, mixin=True):
    address: dict[str, str] = {key: "" for key in FIELDS}
    address_errors: dict[str, str] = field_errors(None, ERROR_KEYS)  # by 'address.<field>'

    def _address_editable(self) -> bool:  # pragma: no cover - each screen says
        raise NotImplementedError

    def _fill_address(self, address: Address = addresses.EMPTY) -> None:
        """Show an address as the service answered it (empty by default)."""
        self.address = {key: getattr(address, name) or "" for name, (key, _, _) in addresses.FORM_KEYS.items()}
        self.address_errors = field_errors(None, ERROR_KEYS)

    def _address_payload(self) -> dict[str, str]:
        return dict(self.address)

    def _address_check(self) -> dict[str, str]:
        """The address's field errors as the service names them ('address.<key>')."""
        return dict(addresses.clean_address(self._address_payload())[1])

    def _show_address_errors(self, errors: Mapping[str, str]) -> None:
        self.address_errors = field_errors(errors, ERROR_KEYS)

    def _address_changed(self) -> None:
        self.form_dirty = True
        if getattr(self, "submitted", False):
            self._show_address_errors(self._address_check())

    @rx.event
    def set_address_field(self, key: str, value: str):
        if key not in LONGEST or not self._address_editable():
            return
        self.address = {**self.address, key: str(value or "")[:LONGEST[key]]}
        self._address_changed()
