"""The address form widget (spec 002 s2): property name, unit, street number, street name, suburb,
state (a select of the states and territories in Australia), postcode and country."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain.addresses import AU_STATES, AUSTRALIA, error_key
from app.ui.components.widgets import field, form_grid, text_input

LABELS = (("propertyName", "Property name"), ("unitNumber", "Unit"), ("streetNumber", "Street number"),
          ("streetName", "Street name"), ("suburb", "Suburb"))


def _text(state: Any, key: str, label: str, prefix: str, read_only: Any, required: bool = False, **props) -> rx.Component:
    error = state.address_errors[error_key(key)].to(str)
    control = text_input(f"{prefix}-{key}", state.address[key].to(str),
                         lambda value: state.set_address_field(key, value), error, read_only, **props)
    return field(label, control, error, required)


def address_fields(state: Any, read_only: Any, prefix: str = "address") -> rx.Component:
    """The address's fields bound to an AddressForm state; ids are '<prefix>-<field>'."""
    country = state.address["country"].to(str)
    in_australia = (country == "") | (country.lower() == AUSTRALIA.lower())
    state_error = state.address_errors[error_key("state")].to(str)
    state_select = rx.select.root(
        rx.select.trigger(placeholder="Select state", id=f"{prefix}-state", width="100%"),
        rx.select.content(*[rx.select.item(f"{code} - {name}", value=code) for code, name in AU_STATES.items()]),
        value=state.address["state"].to(str), on_change=lambda value: state.set_address_field("state", value),
        disabled=read_only, name=f"{prefix}-state",
    )
    state_text = text_input(f"{prefix}-state", state.address["state"].to(str),
                            lambda value: state.set_address_field("state", value), state_error, read_only)
    return form_grid(
        _text(state, "propertyName", "Property name", prefix, read_only),
        _text(state, "unitNumber", "Unit", prefix, read_only),
        _text(state, "streetNumber", "Street number", prefix, read_only),
        _text(state, "streetName", "Street name", prefix, read_only, placeholder="George Street"),
        _text(state, "suburb", "Suburb", prefix, read_only),
        field("State", rx.cond(in_australia, state_select, state_text), state_error),
        _text(state, "postcode", "Postcode", prefix, read_only, input_mode="numeric"),
        _text(state, "country", "Country", prefix, read_only, placeholder=AUSTRALIA),
    )
