"""The broker credentials card (spec 002 s2 widgets) of the portfolio form."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain import broker_credentials as rules
from app.ui.components.widgets import field, form_grid, section, text_input


def _secret(state: Any, key: str, label: str, status: Any) -> rx.Component:
    error = state.cred_errors[key].to(str)
    control = text_input(f"cred-{key}", state.cred_form[key].to(str), lambda value: state.set_cred_field(key, value),
                         error, False, type="password", auto_complete="new-password",
                         placeholder=rx.cond(status == rules.SAVED, "Saved: type to replace", "Not set"))
    return rx.vstack(field(label, control, error),
                     rx.text(label, ": ", status, size="1", color=rx.color("gray", 10), id=f"cred-{key}-status"),
                     spacing="1", width="100%")


def broker_credentials_card(state: Any) -> rx.Component:
    expiry_error = state.cred_errors[rules.EXPIRY].to(str)
    expiry = text_input(f"cred-{rules.EXPIRY}", state.cred_form[rules.EXPIRY].to(str),
                        lambda value: state.set_cred_field(rules.EXPIRY, value), expiry_error, False,
                        placeholder="DD/MM/YYYY")
    return rx.cond(state.cred_shown, section(
        "Broker credentials",
        form_grid(
            _secret(state, rules.CODE, "Macquarie authorisation code", state.cred_code_status),
            _secret(state, rules.PASSWORD, "Macquarie password", state.cred_pass_status),
            rx.vstack(field("Code expiry date", expiry, expiry_error),
                      rx.cond(state.cred_expired, rx.text("The code has expired", size="1", color=rx.color("red", 11),
                                                          id="cred-expired")),
                      spacing="1", width="100%"),
        ),
        rx.hstack(
            rx.button("Save credentials", on_click=state.save_credentials, loading=state.cred_busy, type="button",
                      id="cred-save"),
            rx.button("Remove", on_click=state.remove_credentials, variant="soft", color_scheme="red", type="button",
                      id="cred-remove"),
            spacing="3",
        ),
        description="Kept encrypted and never shown again once saved: the form says whether each is saved.",
    ))
