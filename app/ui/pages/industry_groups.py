"""The industry groups screen (route industry-groups): the ordered list with colour, title and linked
assets; for the superuser an add / edit dialog (title and colour), delete with its confirmation, and
reordering by dragging a row by its handle (HTML5 drag and drop) or with Move up / Move down."""
from __future__ import annotations

import reflex as rx
from reflex_base.event import EventHandler, no_args_event_spec
from reflex_components_radix.themes.components.table import TableRow

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    cancel_button, confirm_dialog_of, empty_row, field, modal, plain_header, row_menu, table_card, table_rows,
)
from app.ui.states.base import AppState
from app.ui.states.industry_groups import IndustryGroupsState as S

TITLE = "Wealth Advice"
COLUMNS = 5


class DraggableRow(TableRow):
    """A table row with the HTML5 drag and drop events."""

    on_drag_start: EventHandler[no_args_event_spec]
    on_drag_enter: EventHandler[no_args_event_spec]
    on_drag_over: EventHandler[no_args_event_spec]
    on_drop: EventHandler[no_args_event_spec]
    on_drag_end: EventHandler[no_args_event_spec]


def _swatch(color, size: str = "20px") -> rx.Component:
    return rx.box(width=size, height=size, min_width=size, border_radius="6px", background=color,
                  border=f"1px solid {rx.color('gray', 6)}", class_name="ig-swatch")


def _add_button(id_: str = "ig-new") -> rx.Component:
    return rx.cond(S.can_manage,
                   rx.button(rx.icon("plus", size=16), "Add industry group", id=id_, on_click=S.new_group))


def _group_row(row) -> rx.Component:
    gid = row.id
    is_target = (S.over_id == gid) & (S.drag_id != gid) & (S.drag_id != 0)
    handle = rx.cond(
        S.can_manage,
        rx.box(rx.icon("grip-vertical", size=16), color=rx.color("gray", 9), cursor="grab", padding="4px",
               display="flex", align_items="center", class_name="ig-handle", title="Drag to reorder",
               id="ig-handle-" + gid.to_string()),
    )
    return DraggableRow.create(
        rx.table.cell(handle, width="32px", padding_right="0"),
        rx.table.cell(_swatch(row.color), width="36px"),
        rx.table.cell(rx.text(row.title, weight="medium", class_name="ig-title"), min_width="120px"),
        rx.table.cell(row.assets_count, text_align="right", font_variant_numeric="tabular-nums",
                      class_name="ig-assets"),
        rx.table.cell(
            rx.cond(
                S.can_manage,
                row_menu(
                    rx.menu.item(rx.icon("pencil", size=14), "Edit", on_click=S.edit_group(gid)),
                    rx.menu.item(rx.icon("arrow-up", size=14), "Move up", disabled=gid == S.first_id,
                                 on_click=S.move(gid, -1)),
                    rx.menu.item(rx.icon("arrow-down", size=14), "Move down", disabled=gid == S.last_id,
                                 on_click=S.move(gid, 1)),
                    rx.menu.separator(),
                    rx.menu.item(rx.icon("trash-2", size=14), "Delete", color="red", on_click=S.ask_delete(gid)),
                    id="ig-actions-" + gid.to_string(),
                ),
            ),
            text_align="right", width="48px",
        ),
        draggable=S.can_manage,
        on_drag_start=S.drag_start(gid),
        on_drag_enter=S.drag_enter(gid).prevent_default,
        on_drag_over=rx.prevent_default,
        on_drop=S.drop_on(gid).prevent_default,
        on_drag_end=S.drag_end,
        align="center",
        id="ig-row-" + gid.to_string(),
        class_name="ig-row",
        opacity=rx.cond(S.drag_id == gid, "0.45", "1"),
        background=rx.cond(is_target, rx.color("accent", 3), "transparent"),
        box_shadow=rx.cond(is_target, f"inset 0 2px 0 {rx.color('accent', 9)}", "none"),
        _hover={"background": rx.color("gray", 3)},
    )


def _editor_dialog() -> rx.Component:
    color_picker = rx.vstack(
        rx.hstack(
            rx.el.input(type="color", value=S.editor_color, on_change=S.set_editor_color, id="ig-color", name="color",
                        aria_label="Colour", style={"width": "44px", "height": "32px", "padding": "0", "border": "none",
                                                    "background": "transparent", "cursor": "pointer"}),
            rx.code(S.editor_color, id="ig-color-value"),
            spacing="3", align="center",
        ),
        rx.flex(
            rx.foreach(S.palette, lambda c: rx.box(
                width="22px", height="22px", border_radius="6px", background=c, cursor="pointer",
                border=rx.cond(S.editor_color == c, f"2px solid {rx.color('gray', 12)}", f"1px solid {rx.color('gray', 6)}"),
                on_click=S.set_editor_color(c), title=c, class_name="ig-palette",
            )),
            wrap="wrap", gap="6px",
        ),
        spacing="2", width="100%",
    )
    return modal(
        S.editor_heading,
        rx.form(
            rx.vstack(
                field("Title", rx.input(value=S.editor_title, on_change=S.set_editor_title, id="ig-title",
                                        name="title", placeholder="e.g. Information Technology", width="100%",
                                        auto_focus=True,
                                        color_scheme=rx.cond(S.editor_errors["title"] != "", "red", "gray")),
                      S.editor_errors["title"], required=True),
                field("Colour", color_picker, S.editor_errors["color"]),
                rx.hstack(
                    rx.dialog.close(cancel_button(type="button", id="ig-cancel")),
                    rx.button(rx.icon("check", size=16), "Save", type="submit", id="ig-save", loading=S.saving),
                    justify="end", spacing="3", width="100%",
                ),
                spacing="4", width="100%", margin_top="8px",
            ),
            on_submit=S.save_group,
            width="100%",
        ),
        open_=S.editor_open, on_open_change=S.set_editor_open, max_width="440px", id_="ig-editor",
    )


def industry_groups_page() -> rx.Component:
    header = rx.table.row(
        plain_header(""),
        plain_header("Colour"),
        plain_header("Title"),
        rx.table.column_header_cell("Linked assets", text_align="right"),
        plain_header(""),
    )
    body = table_rows(
        S.rows, _group_row, COLUMNS, loading=S.loading & (S.rows.length() == 0),
        empty=empty_row(COLUMNS, "There are no industry groups yet: the groups that assets belong to appear here.",
                        _add_button("ig-new-empty")),
        id="ig-table",
    )
    hint = rx.cond(
        S.can_manage,
        rx.hstack(rx.icon("grip-vertical", size=14, color=rx.color("gray", 9)),
                  rx.text("Drag a row by its handle to change the order, or use Move up / Move down in its menu.",
                          size="2", color=rx.color("gray", 10)),
                  spacing="2", align="center"),
        rx.text("Industry groups are kept by the superuser.", size="2", color=rx.color("gray", 10)),
    )
    return page(
        "Industry groups",
        hint,
        rx.box(table_card(header, body), width="100%", max_width="760px"),
        _editor_dialog(),
        confirm_dialog_of(S),
        crumbs=[("Industry groups", None)],
        actions=_add_button(),
    )


def register(app: rx.App) -> None:
    app.add_page(industry_groups_page, route=routes.ROUTES["industry-groups"], title=f"Industry groups | {TITLE}",
                 on_load=[AppState.check_login, S.on_load])

