"""dashboard: the home of advisers and administrators - work queues, drift from the models, and
Calculate target portfolios for the portfolios that drifted."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.bulk_progress import bulk_progress_modal
from app.ui.components.layout import card, page
from app.ui.components.widgets import (
    confirm_dialog_of, empty_row, list_count, nav_link, list_footer, modal, page_controls, plain_header, row_menu, sort_header, table_card,
    table_rows,
)
from app.ui.pages.users import option_select
from app.ui.states.base import AppState
from app.ui.states.bulk_progress import BulkProgressState
from app.ui.states.dashboard import DashboardState as S

TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
EMPTY = "No portfolio follows a model yet: link portfolios to a model and their drift from it shows here."
EMPTY_FILTERED = "No portfolio matches these filters."
CALCULATE = "Calculate target portfolios"


# ---- queues -----------------------------------------------------------------------------------------
def _queue_card(q: Any) -> rx.Component:
    return rx.card(
        rx.hstack(
            rx.center(rx.icon(q.icon, size=18), width="36px", height="36px", border_radius="8px",
                      background=rx.color(q.tone, 3), color=rx.color(q.tone, 11), flex_shrink="0"),
            rx.vstack(
                rx.text(q.title, size="2", color=rx.color("gray", 11), weight="medium"),
                rx.hstack(
                    rx.text(q.count, size="6", weight="bold", font_variant_numeric="tabular-nums",
                            class_name="queue-count"),
                    rx.text(q.detail, size="1", color=rx.color("gray", 10)),
                    align="baseline", spacing="2",
                ),
                spacing="0", min_width="0",
            ),
            spacing="3", align="center",
        ),
        on_click=AppState.navigate(q.url),
        cursor="pointer",
        _hover={"background": rx.color("gray", 3)},
        id="queue-" + q.key,
        class_name="queue-card",
        size="1",
    )


def _queues() -> rx.Component:
    return rx.cond(
        S.queues_loading & (S.cards.length() == 0),
        rx.grid(*[rx.skeleton(rx.card(rx.text("loading"), height="72px"), loading=True) for _ in range(4)],
                columns=rx.breakpoints(initial="1", sm="2", lg="4"), spacing="3", width="100%"),
        rx.grid(rx.foreach(S.cards, _queue_card), columns=rx.breakpoints(initial="1", sm="2", lg="4"), spacing="3",
                width="100%", id="queues"),
    )


def _waiting_item(w: Any) -> rx.Component:
    return rx.hstack(
        nav_link(w.name, href=w.url, size="2", weight="medium",
                white_space="nowrap", overflow="hidden", text_overflow="ellipsis"),
        rx.spacer(),
        rx.badge(w.days, color_scheme="blue", variant="soft", white_space="nowrap"),
        width="100%", align="center", class_name="waiting-item",
    )


def _waiting() -> rx.Component:
    return card(
        rx.vstack(
            rx.text("Records of advice awaiting the client", size="3", weight="bold"),
            rx.text("Oldest first; the days since the target portfolio was validated and sent.", size="1",
                    color=rx.color("gray", 10)),
            rx.cond(S.waiting.length() == 0,
                    rx.text("No record of advice is waiting for a client.", size="2", color=rx.color("gray", 10),
                            padding_y="12px"),
                    rx.vstack(rx.foreach(S.waiting, _waiting_item), spacing="2", width="100%")),
            spacing="2", width="100%",
        ),
        id="awaiting-client",
    )


def _chart() -> rx.Component:
    return card(
        rx.vstack(
            rx.hstack(
                rx.text("Largest breach per portfolio", size="3", weight="bold"),
                rx.spacer(),
                rx.text(S.breached.to_string() + " of " + S.total.to_string() + " outside a band", size="2",
                        color=rx.color("gray", 10), id="breached-count"),
                width="100%", align="center",
            ),
            rx.recharts.bar_chart(
                rx.recharts.cartesian_grid(stroke_dasharray="3 3", vertical=False),
                rx.recharts.x_axis(data_key="bucket", tick_line=False, font_size=11),
                rx.recharts.y_axis(allow_decimals=False, width=40, tick_line=False, axis_line=False, font_size=11),
                rx.recharts.graphing_tooltip(),
                rx.recharts.bar(data_key="portfolios", name="Portfolios", fill=rx.color("accent", 9),
                                radius=[4, 4, 0, 0], is_animation_active=False),
                data=S.histogram,
                width="100%",
                height=190,
            ),
            spacing="2", width="100%",
        ),
        id="drift-chart",
    )


# ---- drift table ------------------------------------------------------------------------------------
def _toolbar() -> rx.Component:
    return rx.flex(
        rx.cond(S.show_firm,
                rx.box(option_select(S.firm_filter, S.firm_options, S.set_firm_filter, id="firm-filter"),
                       min_width="180px")),
        rx.box(option_select(S.model_filter, S.model_options, lambda v: S.set_choice("model_filter", v), id="model-filter"), min_width="180px"),
        rx.box(option_select(S.adviser_filter, S.adviser_options, lambda v: S.set_choice("adviser_filter", v), id="adviser-filter"),
               min_width="180px"),
        rx.vstack(
            rx.input(placeholder="Min. breach (pp)", default_value=S.min_breach, on_blur=S.set_min_breach,
                     id="min-breach", width="150px", input_mode="decimal",
                     color_scheme=rx.cond(S.min_breach_error != "", "red", "gray")),
            rx.cond(S.min_breach_error != "", rx.text(S.min_breach_error, size="1", color=rx.color("red", 11),
                                                      role="alert", id="min-breach-error")),
            spacing="1",
        ),
        rx.spacer(),
        rx.text("Total value ", rx.text.strong(S.total_value, font_variant_numeric="tabular-nums"), size="2",
                color=rx.color("gray", 11), id="drift-total"),
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def _breach(row: Any) -> rx.Component:
    return rx.badge(row.breach, color_scheme=row.breach_colour,
                    variant="soft", white_space="nowrap", class_name="drift-breach")


def _row(row: Any) -> rx.Component:
    return rx.table.row(
        rx.cond(S.can_calculate,
                rx.table.cell(rx.checkbox(checked=S.selected.contains(row.id), on_change=S.toggle_selected(row.id),
                                          class_name="drift-select", aria_label="Select"), width="36px")),
        rx.table.cell(
            rx.vstack(
                rx.link(row.name, href="#", on_click=S.show_detail(row.id).prevent_default, weight="medium",
                        white_space="nowrap", class_name="drift-portfolio"),
                rx.text(row.client, size="1", color=rx.color("gray", 10), white_space="nowrap"),
                rx.cond(S.show_firm, rx.text(row.firm, size="1", color=rx.color("gray", 9), white_space="nowrap")),
                spacing="0", min_width="160px",
            ),
        ),
        rx.table.cell(rx.text(row.adviser, white_space="nowrap")),
        rx.table.cell(rx.text(row.model, white_space="nowrap")),
        rx.table.cell(rx.text(row.value), **NUMBER),
        rx.table.cell(_breach(row), **NUMBER),
        rx.table.cell(rx.text(row.out_of_band), **NUMBER),
        rx.table.cell(
            rx.hstack(
                rx.cond(S.can_calculate,
                        rx.tooltip(rx.icon_button(rx.icon("calculator", size=14), size="1", variant="ghost",
                                                  on_click=S.calculate_one(row.id), class_name="drift-calc-one",
                                                  aria_label="Calculate target portfolio", disabled=S.starting),
                                   content="Calculate target portfolio")),
                row_menu(
                # what opens a screen first; what acts apart, under its own heading (it asks first
                # when a version awaits the client)
                rx.menu.item("Class detail", on_click=S.show_detail(row.id)),
                rx.menu.item("Target portfolio", on_click=AppState.navigate(row.url), class_name="drift-open-tp"),
                rx.menu.item("Holdings", on_click=AppState.navigate(row.holdings_url)),
                rx.cond(S.can_calculate, rx.fragment(
                    rx.menu.separator(),
                    rx.text("Actions", size="1", color=rx.color("gray", 10), padding="2px 12px", aria_hidden="true"),
                    rx.menu.item(rx.icon("calculator", size=14), "Calculate target portfolio",
                                 on_click=S.calculate_one(row.id), class_name="drift-calculate"),
                )),
                ),
                spacing="3", align="center", justify="end",
            ),
            width="72px",
        ),
        _hover={"background": rx.color("gray", 3)},
        class_name="drift-row",
    )


def _table() -> rx.Component:
    def head(label: str, key: str, align: str = "left") -> rx.Component:
        return sort_header(label, key, S.sort, S.order, S.toggle_sort, align=align)

    header = rx.table.row(
        rx.cond(S.can_calculate,
                rx.table.column_header_cell(rx.checkbox(checked=S.page_all_selected, on_change=S.toggle_page_selected,
                                                        id="drift-select-page", aria_label="Select page"),
                                            width="36px")),
        head("Portfolio", "name"),
        head("Adviser", "adviser"),
        head("Model", "model"),
        head("Value", "value", "right"),
        head("Largest breach", "breach", "right"),
        head("Classes out", "out_of_band", "right"),
        plain_header(""),
    )
    body = table_rows(S.rows, _row, 7, loading=S.loading & (S.rows.length() == 0),
                      empty=empty_row(8, rx.cond(S.filtered, EMPTY_FILTERED, EMPTY)), id="drift-table")
    footer = list_footer(list_count(S.showing, id_="drift-count"), page_controls(S))
    return table_card(header, body, footer)


# ---- one portfolio's classes and assets -----------------------------------------------------------------
def _class_row(c: Any) -> rx.Component:
    colour = rx.match(c.side, ("below", rx.color("red", 11)), ("above", rx.color("red", 11)), "inherit")
    return rx.table.row(
        rx.table.cell(rx.hstack(rx.text(c.title), rx.cond(~c.in_model, rx.badge("not in model", variant="soft",
                                                                                  color_scheme="gray")),
                                spacing="2", align="center")),
        rx.table.cell(c.value, **NUMBER),
        rx.table.cell(rx.text(c.current, color=colour, weight="medium"), **NUMBER),
        rx.table.cell(c.target, **NUMBER),
        rx.table.cell(c.band, **NUMBER),
        rx.table.cell(rx.text(c.breach, color=colour), **NUMBER),
        class_name="detail-class",
    )


def _asset_row(a: Any) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.vstack(rx.text(a.code, weight="medium"), rx.text(a.name, size="1", color=rx.color("gray", 10)),
                                spacing="0")),
        rx.table.cell(a.value, **NUMBER),
        rx.table.cell(a.current, **NUMBER),
        rx.table.cell(a.weight, **NUMBER),
        rx.table.cell(rx.text(a.difference.text, color=rx.match(a.difference.sign, ("up", rx.color("amber", 11)),
                                                                ("down", rx.color("blue", 11)), "inherit")), **NUMBER),
    )


def _detail() -> rx.Component:
    def heads(*labels: str) -> rx.Component:
        return rx.table.row(*[rx.table.column_header_cell(label, white_space="nowrap",
                                                          text_align="left" if i == 0 else "right")
                              for i, label in enumerate(labels)])

    return modal(
        S.detail.name,
        rx.dialog.description("Current share of the portfolio's value against the model, at the last close.",
                              size="2", color=rx.color("gray", 10)),
        rx.box(
            rx.table.root(rx.table.header(heads("Class", "Value", "Current", "Target", "Band", "Breach")),
                          rx.table.body(rx.foreach(S.detail.classes, _class_row)), size="1", width="100%"),
            rx.text("Assets", size="3", weight="bold", margin_top="16px", margin_bottom="4px"),
            rx.table.root(rx.table.header(heads("Asset", "Value", "Current", "Model weight", "Difference")),
                          rx.table.body(rx.foreach(S.detail.assets, _asset_row)), size="1", width="100%"),
            max_height="60vh", overflow_y="auto", margin_top="12px", id="detail-tables",
        ),
        rx.hstack(
            rx.cond(S.can_calculate,
                    rx.button(rx.icon("calculator", size=14), "Calculate target portfolio",
                              on_click=[S.calculate_one(S.detail.id), S.close_detail], id="detail-calculate")),
            rx.spacer(),
            rx.button("Close", variant="soft", color_scheme="gray", on_click=S.close_detail, id="detail-close"),
            margin_top="16px", width="100%",
        ),
        open_=S.detail.id != 0, on_open_change=lambda _: S.close_detail(), max_width="760px", title_id="detail-title",
    )


def _actions() -> rx.Component:
    return rx.hstack(
        rx.icon_button(rx.icon("refresh-cw", size=14), variant="soft", color_scheme="gray", on_click=S.refresh,
                       aria_label="Refresh", id="dashboard-refresh"),
        rx.cond(S.can_calculate,
                rx.button(rx.icon("calculator", size=14), CALCULATE,
                          rx.cond(S.selected_count > 0, rx.badge(S.selected_count, variant="solid", radius="full")),
                          on_click=S.calculate_selected, loading=S.starting, disabled=S.selected_count == 0,
                          id="calculate-selected")),
        spacing="2", align="center",
    )


def dashboard_page() -> rx.Component:
    return page(
        "Dashboard",
        _queues(),
        rx.grid(_chart(), _waiting(), columns=rx.breakpoints(initial="1", md="2"), spacing="3", width="100%"),
        rx.text("Drift from the models", size="4", weight="bold", margin_top="8px"),
        _toolbar(),
        _table(),
        rx.text("Each class's share of the portfolio value at the last close against the model's band (or the "
                "portfolio's own class allocation); the largest breach is how many percentage points a class is "
                "outside its band.", size="1", color=rx.color("gray", 10)),
        _detail(),
        bulk_progress_modal(),
        confirm_dialog_of(S, danger=False),
        crumbs=[("Dashboard", None)],
        actions=_actions(),
    )


def register(app: rx.App) -> None:
    app.add_page(dashboard_page, route=routes.ROUTES["dashboard"], title=f"Dashboard | {TITLE}",
                 on_load=[AppState.check_login, S.on_load, BulkProgressState.reattach])
