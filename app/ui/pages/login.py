import reflex as rx

from app.ui.components.layout import centered_card
from app.ui.components.widgets import cancel_button, email_props, label_for, modal
from app.ui.states.login import LoginState


def recovery_modal() -> rx.Component:
    return modal(
        "Password recovery",
        rx.cond(
            LoginState.recovery.sent,
            rx.vstack(
                rx.callout("If this e-mail belongs to an account, we have sent it a link to reset the password.",
                           icon="mail-check", color_scheme="green", id="recovery-sent", role="status"),
                rx.cond(LoginState.recovery.webmail != "",
                        rx.link("Open your mailbox", href=LoginState.recovery.webmail, is_external=True, id="webmail-link")),
                rx.text("This window closes in ", LoginState.recovery.countdown, " s.", size="1", color=rx.color("gray", 10)),
                spacing="3",
            ),
            rx.form(
                rx.vstack(
                    rx.text("Enter the e-mail you sign in with and we will send you a reset link.", size="2"),
                    label_for("Email", control="recovery-email"),
                    rx.input(value=LoginState.recovery.email, on_change=LoginState.set_recovery_email,
                             placeholder="name@example.com", id="recovery-email", name="recovery-email", width="100%",
                             **email_props({"type": "email"}),
                             color_scheme=rx.cond(LoginState.recovery.error != "", "red", "gray")),
                    rx.box(rx.cond(LoginState.recovery.error != "",
                                   rx.text(LoginState.recovery.error, size="1", color=rx.color("red", 11),
                                           id="recovery-error")),
                           role="alert", width="100%"),
                    rx.hstack(
                        cancel_button(type="button", on_click=LoginState.close_recovery),
                        rx.button("Send link", type="submit", id="recovery-submit"),
                        justify="end", width="100%",
                    ),
                    spacing="3",
                ),
                on_submit=LoginState.request_recovery,
            ),
        ),
        open_=LoginState.recovery.open, on_open_change=lambda _: LoginState.close_recovery(), max_width="420px",
    )


def login_page() -> rx.Component:
    return centered_card(
        rx.heading("Sign in", size="5", as_="h1"),
        rx.form(
            rx.vstack(
                rx.vstack(label_for("Email", control="email"),
                          rx.input(value=LoginState.email, on_change=LoginState.set_email, id="email", name="email",
                                   **email_props({"type": "email", "auto_complete": "username"}),
                                   placeholder="name@example.com", width="100%", size="3", auto_focus=True),
                          spacing="1", width="100%"),
                rx.vstack(label_for("Password", control="password"),
                          rx.input(on_change=lambda value: LoginState.set_typed_password("password", value),
                                   id="password", name="password", type="password", auto_complete="current-password",
                                   width="100%", size="3"),
                          spacing="1", width="100%"),
                # a live region present from the start: a wrong password is announced when it shows
                rx.box(rx.cond(LoginState.error != "", rx.callout(LoginState.error, icon="circle-alert", color_scheme="red",
                                                                   size="1", id="login-error", width="100%")),
                       role="alert", width="100%"),
                rx.button("Sign in", type="submit", id="signin", size="3", width="100%"),
                rx.link("Forgot your password?", href="#", on_click=LoginState.open_recovery, size="2", id="forgot-password"),
                spacing="4",
                width="100%",
                align="center",
            ),
            on_submit=LoginState.signin,
            width="100%",
        ),
        recovery_modal(),
    )
