"""The model selection of the bulk screens (bulk calculation, bulk upload of recommendations): the
firm filter (superusers), Select all / Select none, how many are selected and the screen's action,
then a table of models with a checkbox each.

`S` is the screen's state, an app.ui.states.model_selection.ModelSelection."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.widgets import plain_header


def model_selection_toolbar(S: Any, action: rx.Component) -> rx.Component:
    """`action` stands at the right."""
    firm_filter = rx.cond(
        S.show_firm,
        rx.box(
            rx.select.root(
                rx.select.trigger(id="bulk-firm-filter", width="100%"),
                rx.select.content(rx.foreach(S.firm_options, lambda o: rx.select.item(o.label, value=o.value))),
                value=S.firm_filter,
                on_change=S.set_firm_filter,
            ),
            min_width="220px",
        ),
    )
    return rx.flex(
        firm_filter,
        rx.button("Select all", variant="soft", size="2", on_click=S.select_all, id="bulk-select-all"),
        rx.button("Select none", variant="soft", color_scheme="gray", size="2", on_click=S.select_none,
                  id="bulk-select-none"),
        rx.text(S.selected_text, size="2", color=rx.color("gray", 11), id="bulk-selected"),
        rx.spacer(),
        action,
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def model_selection_header(S: Any, *headers: rx.Component) -> rx.Component:
    """The check-all column, Model, Firm (superusers), then `headers`."""
    return rx.table.row(
        rx.table.column_header_cell(rx.checkbox(checked=S.all_selected, on_change=S.set_all, id="bulk-check-all",
                                                aria_label="Select all"), width="40px"),
        plain_header("Model"),
        rx.cond(S.show_firm, plain_header("Firm")),
        *headers,
    )


def model_selection_row(S: Any, model_id: Any, name: Any, firm: Any, status_title: Any, status: Any,
                        *cells: rx.Component) -> rx.Component:
    """One model: its checkbox, name, firm (superusers), `cells`, then its status; a click on the row
    toggles it."""
    checked = S.selected.contains(model_id)
    return rx.table.row(
        rx.table.cell(rx.checkbox(checked=checked, on_change=lambda value: S.toggle(model_id, value),
                                  id="bulk-model-" + model_id.to_string(), aria_label=name),
                      on_click=rx.stop_propagation, width="40px"),
        rx.table.cell(rx.text(name, weight="medium", class_name="bulk-model-name")),
        rx.cond(S.show_firm, rx.table.cell(firm, white_space="nowrap")),
        *cells,
        rx.table.cell(rx.badge(status_title, color_scheme=rx.cond(status == "active", "green", "gray"), variant="soft")),
        on_click=S.toggle(model_id, ~checked),
        cursor="pointer",
        _hover={"background": rx.color("gray", 3)},
        class_name="bulk-model-row",
        custom_attrs={"data-selected": rx.cond(checked, "true", "false"), "data-id": model_id},
    )
