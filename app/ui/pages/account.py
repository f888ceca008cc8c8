"""Public pages reached from e-mailed links: activation, reset password, e-mail change."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.layout import centered_card
from app.ui.components.widgets import field
from app.ui.states.account import ActivationState, EmailChangeState, ResetPasswordState

TITLE = "Wealth Advice"


def _checking(text: str) -> rx.Component:
    return rx.hstack(rx.spinner(size="2"), rx.text(text, size="2", color=rx.color("gray", 11)),
                     align="center", spacing="3", padding_y="16px", id="checking-link")


def _password_input(state, name: str) -> rx.Component:
    # not bound to a state value: the password is never sent back to the browser
    error = state.errors[name]
    return rx.input(on_change=lambda value: state.set_typed_password(name, value), id=name, name=name,
                    type="password", size="3", width="100%", auto_complete="new-password",
                    color_scheme=rx.cond(error != "", "red", "gray"))


def _password_form(state, button_label: str, button_id: str) -> rx.Component:
    return rx.form(
        rx.vstack(
            field("Password", _password_input(state, "password"),
                  state.errors["password"], required=True,
                  hint="At least 8 characters, with an upper case letter, a lower case letter and a number."),
            field("Repeat password",
                  _password_input(state, "rptPassword"),
                  state.errors["rptPassword"], required=True),
            rx.cond(state.form_error != "",
                    rx.callout(state.form_error, icon="circle-alert", color_scheme="red", size="1", width="100%",
                               id="form-error")),
            rx.button(button_label, type="submit", id=button_id, size="3", width="100%", loading=state.busy),
            spacing="4",
            width="100%",
        ),
        on_submit=state.submit,
        width="100%",
    )


def _sign_in_countdown(state) -> rx.Component:
    """The seconds left before the page goes to sign in, and a button to go at once."""
    return rx.fragment(
        rx.text("Redirecting to sign in in ", state.countdown, " s", size="2", color=rx.color("gray", 11),
                id="countdown"),
        rx.button("Sign in now", on_click=state.go_login, size="3", width="100%", id="go-login"),
    )


def _password_link_page(state, title: str, checking: str, done: rx.Component, intro: rx.Component, button_label: str,
                        button_id: str) -> rx.Component:
    """A page reached from an e-mailed link that sets a password: the link is checked first, then the
    form (after its introduction), then what happened."""
    return centered_card(
        rx.heading(title, size="5", as_="h1"),
        rx.cond(
            state.checking,
            _checking(checking),
            rx.cond(
                state.done,
                done,
                rx.vstack(intro, _password_form(state, button_label, button_id), spacing="4", width="100%"),
            ),
        ),
    )


def activation_page() -> rx.Component:
    state = ActivationState
    return _password_link_page(
        state,
        "Activate your account",
        "Checking your activation link...",
        rx.vstack(
            rx.callout("Your account is active. Sign in with your e-mail and the password you have just set.",
                       icon="circle-check", color_scheme="green", width="100%", id="activation-done"),
            _sign_in_countdown(state),
            spacing="4", width="100%",
        ),
        rx.text(
            rx.cond(state.first_name != "", "Welcome, " + state.first_name + ". ", "Welcome. "),
            "Choose the password you will sign in with as ",
            rx.text.strong(state.email), ".",
            size="2",
        ),
        "Activate",
        "activate",
    )


def reset_password_page() -> rx.Component:
    state = ResetPasswordState
    return _password_link_page(
        state,
        "Choose a new password",
        "Checking your recovery link...",
        rx.vstack(
            rx.callout("Your password has been changed.", icon="circle-check", color_scheme="green",
                       width="100%", id="reset-done"),
            rx.cond(
                state.signed_in,
                rx.vstack(
                    rx.text("You are already signed in, so you stay on this page.", size="2",
                            color=rx.color("gray", 11)),
                    rx.button("Go to home", on_click=state.go_home, size="3", width="100%", id="go-home"),
                    spacing="3", width="100%",
                ),
                rx.vstack(_sign_in_countdown(state), spacing="3", width="100%"),
            ),
            spacing="4", width="100%",
        ),
        rx.text("Set a new password for ", rx.text.strong(state.email), ".", size="2"),
        "Reset password",
        "reset",
    )


def email_change_page() -> rx.Component:
    state = EmailChangeState
    return centered_card(
        rx.heading("E-mail change", size="5", as_="h1"),
        rx.match(
            state.status,
            ("checking", _checking("Confirming your new e-mail address...")),
            ("changed", rx.vstack(
                rx.callout(state.message, icon="circle-check", color_scheme="green", width="100%",
                           id="email-change-status"),
                rx.text("From now on you sign in with ", rx.text.strong(state.new_email), ".", size="2"),
                spacing="3", width="100%",
            )),
            rx.callout(state.message, icon="circle-alert", color_scheme="red", width="100%", id="email-change-status"),
        ),
        rx.cond(
            state.status != "checking",
            rx.button(rx.cond(state.signed_in, "Go to home", "Sign in"), on_click=state.go_on, size="3", width="100%",
                      id="email-change-continue"),
        ),
    )


def register(app: rx.App) -> None:
    app.add_page(activation_page, route=routes.ROUTES["activation"], title=f"Activate your account | {TITLE}",
                 on_load=ActivationState.on_load)
    app.add_page(reset_password_page, route=routes.ROUTES["reset-password"], title=f"Reset password | {TITLE}",
                 on_load=ResetPasswordState.on_load)
    app.add_page(email_change_page, route=routes.ROUTES["email-change"], title=f"E-mail change | {TITLE}",
                 on_load=EmailChangeState.on_load)
