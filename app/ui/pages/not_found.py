"""The not-found page, inside the application's frame: an address that names no screen (or a
record that is gone) says so in the product's words and offers the way home."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.states.base import AppState

TITLE = "Page not found"
TEXT = "There is nothing at this address. The link may be old, or the page may have moved."


def not_found_page() -> rx.Component:
    return page(
        TITLE,
        rx.card(
            rx.vstack(
                rx.icon("map-pin-off", size=36, color=rx.color("gray", 8)),
                rx.text("404", size="8", color=rx.color("gray", 9), weight="bold", aria_hidden="true"),
                rx.text(TEXT, size="3", color=rx.color("gray", 11), text_align="center", max_width="420px",
                        id="not-found-text"),
                rx.button(rx.icon("house", size=14), "Go to the home page", on_click=AppState.navigate(routes.url("home")),
                          id="not-found-home"),
                align="center", spacing="4", padding_y="48px", width="100%",
            ),
            width="100%", size="3", id="not-found",
        ),
        crumbs=[(TITLE, None)],
    )


def register(app: rx.App) -> None:
    app.add_page(not_found_page, route="404", title=f"{TITLE} | Wealth Advice", on_load=AppState.check_login)
