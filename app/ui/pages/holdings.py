"""portfolios.holdings: the holdings of a portfolio grouped by asset class (spec 001 s2), with the
actions menu, the header cards and class allocation bars, the table paged 12/20/32 and the custom
holding modal (spec 002 s2/s4)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.widgets import (
    cancel_button, confirm_dialog_of, download_event, empty_row, field, label_for, list_footer, page_controls,
    plain_header,
    table_card, table_rows, text_input,
)
from app.ui.pages.assets import performance
from app.ui.pages.users import option_select
from app.ui.states.base import AppState
from app.ui.rows.holdings import ClassTotal, HoldingRow, PendingRow
from app.ui.states.holdings import PAGE_SIZES, SAVE_CHANGES, HoldingsState

S = HoldingsState
TITLE = "Wealth Advice"
COLUMNS = 11
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}


# ---- the actions menu -----------------------------------------------------------------------------
def _download_item(label: str, icon: str, path: Any, id_: str) -> rx.Component:
    return rx.menu.item(rx.icon(icon, size=14), label, id=id_, on_click=download_event(path))


def _actions_menu() -> rx.Component:
    item = rx.menu.item
    return rx.menu.root(
        rx.menu.trigger(rx.button("Actions", rx.icon("chevron-down", size=14), variant="soft", id="holdings-actions")),
        rx.menu.content(
            rx.cond(S.can_edit, rx.fragment(
                item(rx.icon("link", size=14), "Link model", on_click=AppState.navigate(S.buy_url), id="action-link"),
                rx.cond(S.model_name != "",
                        item(rx.icon("unlink", size=14), "Unlink model", on_click=S.ask_unlink, id="action-unlink")),
                rx.menu.separator(),
            )),
            item(rx.icon("chart-line", size=14), "Performance", on_click=AppState.navigate(S.links.performance), id="action-performance"),
            item(rx.icon("receipt", size=14), "Tax report", on_click=AppState.navigate(S.links.tax_report), id="action-tax-report"),
            item(rx.icon("target", size=14), "Target Portfolio", on_click=AppState.navigate(S.links.target_portfolio),
                 id="action-target-portfolio"),
            rx.cond(S.can_calculate_tp, item(rx.icon("calculator", size=14), "Calculate Target Portfolio",
                                             on_click=AppState.navigate(S.links.calculate_tp), id="action-calculate-tp")),
            rx.menu.separator(),
            item(rx.icon("wallet", size=14), "Cash transactions", on_click=AppState.navigate(S.links.cash), id="action-cash"),
            item(rx.icon("arrow-left-right", size=14), "Asset transactions", on_click=AppState.navigate(S.links.assets),
                 id="action-assets"),
            rx.cond(S.can_edit, rx.fragment(
                item(rx.icon("landmark", size=14), "Add deposit", on_click=AppState.navigate(S.links.deposits),
                     id="action-deposit"),
                item(rx.icon("plus", size=14), "Add custom holding", on_click=S.open_create, id="action-custom"),
            )),
            rx.menu.separator(),
            item(rx.icon("receipt-text", size=14), "Trade Recommendations", on_click=AppState.navigate(S.links.trade_instructions),
                 id="action-trade-recommendations"),
            # 001 s6: the target portfolio's rule, and a model with analyst and short-term
            # recommendations and a target portfolio; offered disabled with the reason otherwise
            rx.cond(S.calculate_tr_offered, rx.cond(
                S.can_calculate_tr,
                item(rx.icon("calculator", size=14), "Calculate Trade Recommendations",
                     on_click=AppState.navigate(S.links.calculate_tr), id="action-calculate-tr"),
                item(rx.icon("calculator", size=14),
                     rx.vstack(rx.text("Calculate Trade Recommendations"),
                               rx.text(S.calculate_tr_reason, size="1", color=rx.color("gray", 10),
                                       id="action-calculate-tr-reason", white_space="normal"),
                               spacing="0", max_width="260px"),
                     disabled=True, id="action-calculate-tr", height="auto", padding_y="4px",
                     title=S.calculate_tr_reason),
            )),
            rx.menu.separator(),
            _download_item("Export to Excel", "file-spreadsheet", S.excel_path, "action-excel"),
            _download_item("Export to PDF", "file-text", S.pdf_path, "action-pdf"),
            align="end",
        ),
    )


# ---- header cards ---------------------------------------------------------------------------------
def _figure(label: str, value: Any, id_: str, negative: Any = False) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(label, size="1", color=rx.color("gray", 10), weight="medium"),
            rx.skeleton(
                rx.text(value, size=rx.breakpoints(initial="4", sm="6"), weight="bold", id=id_,
                        font_variant_numeric="tabular-nums",
                        color=rx.cond(negative, rx.color("red", 11), rx.color("gray", 12))),
                loading=S.loading,
            ),
            spacing="1",
        ),
        width="100%", size="2",
    )


def _bar(bar: ClassTotal) -> rx.Component:
    fill = rx.match(bar.color, ("success", rx.color("green", 9)), ("warning", rx.color("amber", 9)),
                    ("danger", rx.color("red", 9)), rx.color("accent", 8))
    return rx.vstack(
        rx.hstack(
            rx.text(bar.title, size="2", weight="medium", overflow="hidden", text_overflow="ellipsis",
                    white_space="nowrap"),
            rx.spacer(),
            rx.text(bar.actual, size="2", weight="medium", font_variant_numeric="tabular-nums", class_name="bar-actual",
                    color=rx.match(bar.color, ("success", rx.color("green", 11)), ("warning", rx.color("amber", 11)),
                                   ("danger", rx.color("red", 11)), rx.color("gray", 12))),
            rx.cond(bar.target != "", rx.text("/ " + bar.target, size="1", color=rx.color("gray", 10),
                                              font_variant_numeric="tabular-nums", class_name="bar-target")),
            width="100%", align="baseline", spacing="2",
        ),
        rx.box(
            rx.box(width=bar.width, height="100%", background=fill, border_radius="4px"),
            width="100%", height="8px", background=rx.color("gray", 4), border_radius="4px", overflow="hidden",
            role="progressbar", aria_label=bar.title,
        ),
        spacing="1", width="100%", class_name="class-bar",
        custom_attrs={"data-color": bar.color, "data-class": bar.title},
    )


def _allocation_card() -> rx.Component:
    caption = rx.match(S.target_source, ("model", "Actual / target from the model"),
                       ("portfolio", "Actual / target from the portfolio's class allocation"),
                       "Actual share of the portfolio's value")
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.text("Class allocation", size="2", weight="bold"),
                rx.spacer(),
                rx.cond(S.target_total != "", rx.text(
                    "Target " + S.target_total, size="1", id="target-total", weight="medium",
                    color=rx.match(S.target_total_color, ("success", rx.color("green", 11)),
                                   ("warning", rx.color("amber", 11)), ("danger", rx.color("red", 11)),
                                   rx.color("gray", 11)),
                    custom_attrs={"data-color": S.target_total_color})),
                width="100%", align="center",
            ),
            rx.text(caption, size="1", color=rx.color("gray", 10)),
            rx.cond(S.loading, rx.skeleton(rx.box(height="48px", width="100%"), loading=True),
                    rx.grid(rx.foreach(S.bars, _bar), columns=rx.breakpoints(initial="1", sm="2", lg="3"),
                            spacing="4", width="100%", id="class-bars")),
            spacing="2", width="100%",
        ),
        width="100%", size="2",
    )


def _header_cards() -> rx.Component:
    return rx.vstack(
        rx.grid(
            _figure("Total value", S.totals.value, "total-value"),
            _figure("Cash", S.totals.cash.text, "cash-value", S.totals.cash.negative),
            _figure("Listed shares", S.totals.shares, "shares-value"),
            _figure("Deposits and custom holdings", S.totals.other, "other-value"),
            columns=rx.breakpoints(initial="2", md="4"), spacing="3", width="100%",
        ),
        _allocation_card(),
        spacing="3", width="100%",
    )


# ---- the table ------------------------------------------------------------------------------------
def _num(text: Any, **props) -> rx.Component:
    return rx.table.cell(text, **NUMBER, **props)


def _class_header(row: HoldingRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.hstack(
                rx.text(row.klass.title, weight="bold", size="2"),
                rx.text(row.klass.value, size="2", weight="medium", font_variant_numeric="tabular-nums"),
                rx.text(row.klass.actual + " of the portfolio", size="1", color=rx.color("gray", 10)),
                rx.cond(row.klass.target != "", rx.text("target " + row.klass.target, size="1",
                                                        color=rx.color("gray", 10))),
                spacing="3", align="baseline", wrap="wrap",
            ),
            col_span=COLUMNS,
        ),
        background=rx.color("accent", 2),
        class_name="class-header",
        custom_attrs={"data-class": row.klass.title},
    )


def _name_cell(row: HoldingRow) -> rx.Component:
    name = rx.cond(
        row.url != "",
        rx.link(row.name, href=row.url, is_external=True, size="2"),
        rx.cond(row.kind == "custom",
                rx.link(row.name, href="#", on_click=S.open_view(row.id).prevent_default, size="2",
                        class_name="custom-name"),
                rx.text(row.name, size="2")),
    )
    return rx.table.cell(
        rx.vstack(name, rx.cond(row.detail != "", rx.text(row.detail, size="1", color=rx.color("gray", 10))),
                  spacing="0"),
        min_width="200px",
    )


def _row_actions(row: HoldingRow) -> rx.Component:
    return rx.cond(
        row.kind == "custom",
        rx.menu.root(
            rx.menu.trigger(rx.icon_button(rx.icon("ellipsis", size=16), variant="ghost", color_scheme="gray", size="1",
                                           aria_label="Actions", class_name="row-actions")),
            rx.menu.content(
                rx.menu.item("View", on_click=S.open_view(row.id), class_name="custom-view"),
                rx.cond(S.can_edit, rx.fragment(
                    rx.menu.item("Edit", on_click=S.open_edit(row.id), class_name="custom-edit"),
                    rx.menu.separator(),
                    rx.menu.item("Delete", color="red", on_click=S.ask_delete(row.id, row.name), class_name="custom-delete"),
                )),
            ),
        ),
        rx.cond(row.kind == "cash",
                rx.icon_button(rx.icon("wallet", size=14), variant="ghost", color_scheme="gray", size="1",
                               aria_label="Cash transactions", on_click=AppState.navigate(S.links.cash))),
    )


def _line(row: HoldingRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.text(row.code, weight="medium", font_family="var(--code-font-family)", size="2"),
                      white_space="nowrap"),
        _name_cell(row),
        _num(row.quantity),
        _num(row.cost),
        _num(rx.text(row.value.text, color=rx.cond(row.value.negative, rx.color("red", 11), "inherit"),
                     weight="medium"), class_name="holding-value"),
        _num(row.allocation),
        _num(rx.cond(row.kind == "share", performance(row.six, size="2"), rx.fragment())),
        _num(rx.cond(row.kind == "share", performance(row.since, size="2"), rx.fragment())),
        _num(rx.cond(row.kind == "share", performance(row.dividend, size="2"), rx.fragment())),
        _num(row.fee),
        rx.table.cell(_row_actions(row), text_align="right"),
        class_name="holding-row",
        custom_attrs={"data-kind": row.kind, "data-code": row.code, "data-name": row.name},
        _hover={"background": rx.color("gray", 3)},
        align="center",
    )


def _table() -> rx.Component:
    header = rx.table.row(
        plain_header("Code"), plain_header("Name"),
        *[rx.table.column_header_cell(label, **NUMBER) for label in
          ("Quantity", "Cost", "Value", "Allocation", "6 Month Return", "Since Purchase", "Dividend Yield", "Fee")],
        plain_header(""),
    )
    add_custom = rx.cond(S.can_edit, rx.button(rx.icon("plus", size=14), "Add custom holding", variant="soft",
                                               on_click=S.open_create, id="empty-add-custom"))
    body = table_rows(S.rows, lambda row: rx.cond(row.is_header, _class_header(row), _line(row)), COLUMNS,
                      loading=S.loading, empty=empty_row(COLUMNS, "This portfolio holds nothing yet.", add_custom),
                      id="holdings-body")
    footer = list_footer(
        rx.text(S.total.to_string() + " holdings", size="1", color=rx.color("gray", 10), id="holdings-count"),
        page_controls(S, PAGE_SIZES),
    )
    return table_card(header, body, footer)


# ---- pending trades ---------------------------------------------------------------------------------
def _pending_line(row: PendingRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.text(row.code, weight="medium", font_family="var(--code-font-family)", size="2"),
                      white_space="nowrap"),
        rx.table.cell(rx.text(row.side, size="2", weight="medium",
                              color=rx.cond(row.side == "BUY", rx.color("green", 11), rx.color("red", 11))),
                      class_name="pending-side"),
        _num(row.units, class_name="pending-units"),
        rx.table.cell(rx.text(row.price, size="2", color=rx.color("gray", 11)), white_space="nowrap",
                      class_name="pending-price"),
        rx.table.cell(rx.badge(row.status, color_scheme=rx.cond(row.status == "Placed", "amber", "blue"),
                               variant="soft", class_name="pending-status"), text_align="right"),
        class_name="pending-row",
        custom_attrs={"data-code": row.code, "data-status": row.status},
    )


def _pending() -> rx.Component:
    """Approved trade recommendations not executed yet: 'Placed' once sent to the broker."""
    return rx.cond(
        S.pending.length() > 0,
        rx.card(
            rx.vstack(
                rx.hstack(
                    rx.icon("hourglass", size=16, color=rx.color("amber", 10)),
                    rx.text("Pending trades", size="2", weight="bold"),
                    rx.text("Approved trade recommendations not executed yet; Placed ones are with the broker. "
                            "The holdings above move once a trade is executed.",
                            size="1", color=rx.color("gray", 10)),
                    spacing="2", align="center", wrap="wrap",
                ),
                rx.box(
                    rx.table.root(
                        rx.table.header(rx.table.row(
                            plain_header("Code"), plain_header("Side"),
                            rx.table.column_header_cell("Units", **NUMBER), plain_header("Order"),
                            rx.table.column_header_cell("Status", text_align="right"),
                        )),
                        rx.table.body(rx.foreach(S.pending, _pending_line)),
                        variant="ghost", size="1", width="100%",
                    ),
                    overflow_x="auto", max_height="320px", overflow_y="auto", width="100%",
                ),
                spacing="2", width="100%",
            ),
            width="100%", size="2", id="pending-trades",
        ),
    )


# ---- the custom holding modal -------------------------------------------------------------------
def _ch_field(label: str, key: str, required: bool = False, **props) -> rx.Component:
    error = S.form_errors.get(key, "")
    return field(label, text_input(f"ch-{key}", getattr(S.form, key), lambda value: S.set_form_field(key, value), error=error,
                                   read_only=S.ch_read_only, **props),
                 error=error, required=required)


def _custom_modal() -> rx.Component:
    class_control = rx.cond(
        S.ch_read_only,
        text_input("ch-class-view", S.ch_class_title, lambda _: S.set_form_field("class_id", S.form.class_id),
                   read_only=True),
        option_select(S.form.class_id, S.class_options, lambda value: S.set_form_field("class_id", value),
                      id="ch-class", placeholder="Choose a class", error=S.form_errors.get("class_id", "")),
    )
    return rx.dialog.root(
        rx.dialog.content(
            rx.hstack(
                rx.dialog.title(S.modal_title, margin="0", id="ch-title", custom_attrs={"as": "h2"}),
                rx.spacer(),
                rx.cond((S.modal_mode != "create") & S.can_edit, rx.hstack(
                    label_for("Edit", control="ch-edit-switch", weight="regular", color=rx.color("gray", 11)),
                    rx.switch(checked=S.modal_mode == "edit", on_change=S.toggle_edit, id="ch-edit-switch"),
                    spacing="2", align="center",
                )),
                width="100%", align="center",
            ),
            rx.dialog.description("A holding the product does not trade, valued by hand.", size="1",
                                  color=rx.color("gray", 10), margin_bottom="12px"),
            rx.vstack(
                _ch_field("Name", "name", required=True),
                field("Class", class_control, S.form_errors.get("class_id", ""), required=True),
                rx.grid(
                    _ch_field("Value ($)", "value", required=True, input_mode="decimal"),
                    _ch_field("Fee (%)", "fee", input_mode="decimal"),
                    columns="2", spacing="3", width="100%",
                ),
                rx.hstack(
                    cancel_button(on_click=S.request_close, id="ch-cancel", type="button"),
                    rx.cond(~S.ch_read_only,
                            rx.button("Save", on_click=S.save_holding, loading=S.saving, id="ch-save", type="button")),
                    justify="end", spacing="3", width="100%", margin_top="8px",
                ),
                spacing="3", width="100%",
            ),
            max_width="480px", id="custom-holding-modal", aria_labelledby="ch-title",
        ),
        open=S.form_open,
        on_open_change=S.modal_open_change,
    )


def _save_prompt() -> rx.Component:
    """Closing the modal with unsaved changes (spec 002 s4): Save or Discard."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Unsaved changes", custom_attrs={"as": "h2"}),
            rx.alert_dialog.description(SAVE_CHANGES, id="ch-prompt-text"),
            rx.hstack(
                rx.button("Discard", variant="soft", color_scheme="red", on_click=S.discard_changes, id="ch-discard"),
                rx.button("Save", on_click=S.save_holding, id="ch-prompt-save"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="420px",
        ),
        open=S.close_prompt_open,
        on_open_change=lambda _: S.keep_editing,
    )


# ---- the page -------------------------------------------------------------------------------------
def holdings_page() -> rx.Component:
    title = rx.hstack(
        rx.text(S.name),
        rx.cond(S.inactive, rx.badge("Inactive", color_scheme="amber", variant="soft", size="2")),
        spacing="3", align="center",
    )
    return page(
        title,
        rx.cond(S.model_name == "", rx.text("No model is linked to this portfolio.", size="2", color=rx.color("gray", 10),
                                            id="no-model")),
        _header_cards(),
        _table(),
        _pending(),
        _custom_modal(),
        _save_prompt(),
        confirm_dialog_of(S),
        crumbs=portfolio_crumbs(S),
        actions=_actions_menu(),
    )


def register(app: rx.App) -> None:
    app.add_page(holdings_page, route=routes.ROUTES["portfolios.holdings"], title=f"Holdings | {TITLE}",
                 on_load=[AppState.check_login, HoldingsState.on_load])
