"""Profile (/profile): own details, password change, photo, signature and the superuser's default logo."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    field, form_grid, image_picker, image_remove_dialog, label_for, section, text_input,
)
from app.ui.states.base import AppState
from app.ui.states.profile import ProfileState

TITLE = "Wealth Advice"


def _text_field(label: str, name: str, value: Any, on_change: Any, required: bool = False, read_only: Any = False,
                hint: str = "", **props) -> rx.Component:
    error = ProfileState.errors[name].to(str)
    return field(label, text_input(name, value, on_change, error, read_only, **props), error, required, hint)


def _person_field(label: str, key: str, required: bool = False, **props) -> rx.Component:
    p = ProfileState
    return _text_field(label, key, getattr(p, key), lambda value: p.set_person_field(key, value), required,
                       read_only=p.details_read_only, **props)


def _details() -> rx.Component:
    p = ProfileState
    ro = p.details_read_only
    return section(
        "My details",
        rx.cond(ro, rx.text("Your adviser keeps these details up to date. You can change your photo and your password.",
                            size="2", color=rx.color("gray", 10))),
        form_grid(
            _person_field("First name", "first_name", required=True),
            _person_field("Last name", "last_name", required=True),
            _person_field("Preferred name", "preferred_name"),
            _person_field("Phone", "phone", type="tel"),
            rx.vstack(
                _person_field("Email", "email", required=True, type="email"),
                rx.cond(p.email_changing & (p.errors["email"].to(str) == ""),
                        rx.text("We will send a confirmation link to the new address; your e-mail changes when you open it.",
                                size="1", color=rx.color("gray", 10), id="email-change-hint")),
                spacing="1", width="100%",
            ),
            rx.vstack(
                label_for("Role", control="profile-role"),
                rx.input(value=rx.cond(AppState.firm_name != "", AppState.role_title + " \u00b7 " + AppState.firm_name,
                                       AppState.role_title),
                         read_only=True, variant="soft", width="100%", id="profile-role", name="profile-role"),
                spacing="1", width="100%",
            ),
        ),
        rx.cond(p.email_message != "",
                rx.callout(p.email_message, icon="mail-check", color_scheme="blue", size="1", id="email-change-message")),
    )


def _password_field(label: str, name: str, auto_complete: str) -> rx.Component:
    # not bound to a state value: the password is never sent back to the browser
    return _text_field(label, name, None, lambda value: ProfileState.set_typed_password(name, value), type="password",
                       auto_complete=auto_complete)


def _password() -> rx.Component:
    return section(
        "Change password",
        form_grid(
            _password_field("Old password", "oldPassword", "current-password"),
            rx.box(display=["none", "block"]),
            _password_field("New password", "password", "new-password"),
            _password_field("Repeat password", "rptPassword", "new-password"),
        ),
        description="Leave these empty to keep your password. A new password needs at least 8 characters with an "
                    "upper case letter, a lower case letter and a number.",
    )


def _images() -> rx.Component:
    p = ProfileState
    return rx.vstack(
        section("Photo", image_picker(p, "photo", "Photo", p.loaded, round_=True, fallback=p.profile_initials)),
        rx.cond(~p.details_read_only,
                section("Signature", image_picker(p, "signature", "Signature", p.loaded))),
        rx.cond(AppState.is_superuser,
                section("Default logo", image_picker(p, "logo", "Default logo", p.loaded),
                        description="Shown where a firm has no logo of its own.")),
        spacing="4", width="100%",
    )


def profile_page() -> rx.Component:
    p = ProfileState
    skeleton = rx.grid(*[rx.skeleton(rx.box(height="180px"), loading=True) for _ in range(2)],
                       columns=rx.breakpoints(initial="1", md="2"), spacing="4", width="100%")
    return page(
        "Profile",
        rx.cond(
            p.loaded,
            rx.grid(
                rx.box(
                    rx.form(
                        rx.vstack(
                            _details(),
                            _password(),
                            rx.hstack(
                                rx.cond(AppState.form_dirty,
                                        rx.button("Discard changes", type="button", variant="soft", color_scheme="gray",
                                                  on_click=p.discard, id="profile-discard")),
                                rx.button("Save", type="submit", id="profile-save", loading=p.saving),
                                justify="end", width="100%", spacing="3",
                            ),
                            spacing="4", width="100%",
                        ),
                        on_submit=p.save,
                        width="100%",
                    ),
                    grid_column=rx.breakpoints(initial="auto", lg="span 2"),
                ),
                _images(),
                columns=rx.breakpoints(initial="1", lg="3"),
                spacing="4", width="100%", align="start",
            ),
            skeleton,
        ),
        image_remove_dialog(p),
        crumbs=[("Profile", None)],
        on_save_leave=p.save_and_leave,
    )


def register(app: rx.App) -> None:
    app.add_page(profile_page, route=routes.ROUTES["profile"], title=f"Profile | {TITLE}",
                 on_load=[AppState.check_login, ProfileState.on_load])
