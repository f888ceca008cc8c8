"""bulk-calculate.calculateTP and bulk-calculate.calculateTR: choose a firm (superuser), select
models, Calculate, and follow the progress modal (spec 000 s2/s5/s8, 002 s2/s5/s8)."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import empty_row, plain_header, skeleton_rows, table_card
from app.ui.states.base import AppState
from app.ui.states.bulk_calculate import TITLES, BulkCalculateState, BulkModelRow, RunError

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


def _count(label: str, value, id_: str, color: str = "gray") -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color=rx.color("gray", 10), weight="medium"),
        rx.text(value.to_string(), size="5", weight="bold", font_variant_numeric="tabular-nums", id=id_,
                color=rx.color(color, 11)),
        spacing="0", align="center", flex="1",
    )


def _error(row: RunError) -> rx.Component:
    return rx.hstack(
        rx.icon("circle-x", size=16, color=rx.color("red", 10), flex_shrink="0"),
        rx.vstack(rx.text(row.investment_name, size="2", weight="medium", class_name="bulk-error-name"),
                  rx.text(row.message, size="1", color=rx.color("gray", 11), class_name="bulk-error-message"),
                  spacing="0"),
        spacing="2", align="start", class_name="bulk-error",
    )


def _progress_modal() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(B.progress_title, id="bulk-progress-title"),
            rx.vstack(
                rx.hstack(
                    rx.text(B.finished.to_string() + "/" + B.total.to_string(), size="6", weight="bold",
                            font_variant_numeric="tabular-nums", id="bulk-progress-count"),
                    rx.spacer(),
                    rx.cond(B.running,
                            rx.hstack(rx.spinner(size="2"), rx.text("Calculating...", size="2"), spacing="2",
                                      align="center"),
                            rx.hstack(rx.icon("circle-check", size=16, color=rx.color("green", 10)),
                                      rx.text("Finished", size="2", weight="medium"), spacing="2", align="center",
                                      id="bulk-finished")),
                    width="100%", align="center",
                ),
                rx.progress(value=B.percent, max=100, width="100%", id="bulk-progress-bar",
                            color_scheme=rx.cond(B.failed > 0, "amber", "green")),
                rx.hstack(
                    _count("Done", B.done, "bulk-done", "green"),
                    _count("Failed", B.failed, "bulk-failed", "red"),
                    _count("Total", B.total, "bulk-total"),
                    width="100%", spacing="3",
                ),
                rx.cond((B.total == 0) & ~B.running,
                        rx.text("The selected models have no portfolios you may calculate.", size="2",
                                color=rx.color("gray", 11), id="bulk-nothing")),
                rx.cond(B.errors.length() > 0, rx.vstack(
                    rx.text("Errors", size="2", weight="bold"),
                    rx.box(rx.vstack(rx.foreach(B.errors, _error), spacing="3"), max_height="40vh", overflow_y="auto",
                           width="100%", id="bulk-errors"),
                    spacing="2", width="100%",
                )),
                spacing="4", width="100%", margin_top="8px",
            ),
            rx.hstack(rx.button("Close", on_click=B.close_progress, id="bulk-progress-close", variant="soft"),
                      justify="end", margin_top="16px"),
            max_width="520px",
        ),
        open=B.progress_open,
        on_open_change=B.set_progress_open,
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
        _progress_modal(),
        crumbs=[("Models", routes.url("models.view")), (B.title, None)],
    )


def register(app: rx.App) -> None:
    for name, kind in (("bulk-calculate.calculateTP", "tp"), ("bulk-calculate.calculateTR", "tr")):
        app.add_page(bulk_calculate_page, route=routes.ROUTES[name], title=f"{TITLES[kind]} | {TITLE}",
                     on_load=[AppState.check_login, BulkCalculateState.on_load])
