"""bulk-calculate.calculateTP and bulk-calculate.calculateTR: choose a firm (superuser), select
models, Calculate, confirm, and follow the shared progress modal (spec 000 s2/s5/s8, 002 s2/s5/s8)."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.bulk_progress import bulk_progress_modal
from app.ui.components.layout import page
from app.ui.components.widgets import empty_row, plain_header, skeleton_rows, table_card
from app.ui.states.base import AppState
from app.ui.states.bulk_calculate import TITLES, BulkCalculateState, BulkModelRow

B = BulkCalculateState
TITLE = "Wealth Advice"


def _row(model: BulkModelRow) -> rx.Component:
    checked = B.selected.contains(model.id)
    return rx.table.row(
        rx.table.cell(rx.checkbox(checked=checked, on_change=lambda value: B.toggle(model.id, value),
                                  id="bulk-model-" + model.id.to_string(), aria_label=model.name),
                      on_click=rx.stop_propagation, width="40px"),
        rx.table.cell(rx.text(model.name, weight="medium", class_name="bulk-model-name")),
        rx.cond(B.is_superuser_view, rx.table.cell(model.firm, white_space="nowrap")),
        rx.table.cell(model.method, white_space="nowrap"),
        rx.table.cell(rx.badge(model.status_title, color_scheme=rx.cond(model.status == "active", "green", "gray"),
                               variant="soft")),
        on_click=B.toggle(model.id, ~checked),
        cursor="pointer",
        _hover={"background": rx.color("gray", 3)},
        class_name="bulk-model-row",
        custom_attrs={"data-selected": rx.cond(checked, "true", "false"), "data-id": model.id},
    )


def _confirm() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(B.title),
            rx.alert_dialog.description(B.confirm_message, id="bulk-confirm-message"),
            rx.hstack(
                rx.button("Cancel", variant="soft", color_scheme="gray", on_click=B.cancel_confirm,
                          id="bulk-confirm-cancel"),
                rx.button("Calculate", on_click=B.confirm, id="bulk-confirm-calculate"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="440px",
        ),
        open=B.confirm_open,
    )


def bulk_calculate_page() -> rx.Component:
    firm_filter = rx.cond(
        B.is_superuser_view,
        rx.box(
            rx.select.root(
                rx.select.trigger(id="bulk-firm-filter", width="100%"),
                rx.select.content(rx.foreach(B.firms, lambda o: rx.select.item(o.label, value=o.value))),
                value=B.firm_filter,
                on_change=B.set_firm_filter,
            ),
            min_width="220px",
        ),
    )
    toolbar = rx.flex(
        firm_filter,
        rx.button("Select all", variant="soft", size="2", on_click=B.select_all, id="bulk-select-all"),
        rx.button("Select none", variant="soft", color_scheme="gray", size="2", on_click=B.select_none,
                  id="bulk-select-none"),
        rx.text(B.selected_text, size="2", color=rx.color("gray", 11), id="bulk-selected"),
        rx.spacer(),
        rx.button(rx.icon("calculator", size=14), "Calculate", on_click=B.calculate, id="bulk-calculate",
                  loading=B.starting, disabled=~B.can_calculate),
        wrap="wrap", spacing="3", align="center", width="100%",
    )
    header = rx.table.row(
        rx.table.column_header_cell(rx.checkbox(checked=B.all_selected, on_change=B.set_all, id="bulk-check-all",
                                                aria_label="Select all"), width="40px"),
        plain_header("Model"),
        rx.cond(B.is_superuser_view, plain_header("Firm")),
        plain_header("Method"),
        plain_header("Status"),
    )
    body = rx.table.body(
        rx.cond(B.loading, skeleton_rows(4, 3),
                rx.cond(B.models.length() == 0, empty_row(5, "There are no active models to calculate."),
                        rx.foreach(B.models, _row))),
        id="bulk-table",
    )
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
