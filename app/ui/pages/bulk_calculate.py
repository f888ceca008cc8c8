"""bulk-calculate.calculateTP and bulk-calculate.calculateTR: choose a firm (superuser), select
models, Calculate, confirm, and follow the shared progress modal (spec 000 s2/s5/s8, 002 s2/s5/s8)."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.bulk_progress import bulk_progress_modal
from app.ui.components.layout import page
from app.ui.components.model_selection import model_selection_header, model_selection_row, model_selection_toolbar
from app.ui.components.widgets import cancel_button, empty_row, plain_header, table_card, table_rows
from app.ui.states.base import AppState
from app.ui.states.bulk_calculate import TITLES, BulkCalculateState
from app.ui.rows.model_selection import BulkModelRow

B = BulkCalculateState
TITLE = "Wealth Advice"


def _row(model: BulkModelRow) -> rx.Component:
    return model_selection_row(B, model.id, model.name, model.firm, model.status_title, model.status,
                               rx.table.cell(model.method, white_space="nowrap"))


def _confirm() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(B.title, custom_attrs={"as": "h2"}),
            rx.alert_dialog.description(B.confirm_message, id="bulk-confirm-message"),
            rx.hstack(
                cancel_button(on_click=B.cancel_confirm, id="bulk-confirm-cancel"),
                rx.button("Calculate", on_click=B.confirm, id="bulk-confirm-calculate"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="440px",
        ),
        open=B.confirm_open,
    )


def bulk_calculate_page() -> rx.Component:
    toolbar = model_selection_toolbar(
        B, rx.button(rx.icon("calculator", size=14), "Calculate", on_click=B.calculate, id="bulk-calculate",
                     loading=B.starting, disabled=~B.can_calculate))
    header = model_selection_header(B, plain_header("Method"), plain_header("Status"))
    body = table_rows(B.models, _row, 4, loading=B.loading, skeleton=3,
                      empty=empty_row(5, "There are no active models to calculate."), id="bulk-table")
    return page(
        B.title,
        rx.text("Calculates every portfolio of the selected models that you may calculate.", size="2", color=rx.color("gray", 10)),
        toolbar,
        rx.cond(B.select_error != "", rx.text(B.select_error, size="2", color=rx.color("red", 11), id="select-error")),
        table_card(header, body),
        _confirm(),
        bulk_progress_modal(),
        crumbs=[("Models", routes.url("models.view")), (B.title, None)],
    )


def register(app: rx.App) -> None:
    for name, kind in (("bulk-calculate.calculateTP", "tp"), ("bulk-calculate.calculateTR", "tr")):
        app.add_page(bulk_calculate_page, route=routes.ROUTES[name], title=f"{TITLES[kind]} | {TITLE}",
                     on_load=[AppState.check_login, BulkCalculateState.on_load])
