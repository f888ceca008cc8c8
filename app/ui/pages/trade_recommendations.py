"""reports.trade-recommendations: the trade file (filters, adjustments, the portfolios' cash, the
broker files) and the approval view (adviser, statuses, validate, decisions, exports) of spec 001
s2-s9."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain.engine import trade_file as rules
from app.domain.orders import AUSIEX, DESKTOP_BROKER, TRADE_FILE
from app.services.trade_approval_report import STATUS_FILTER_LABELS
from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    cancel_button, confirm_dialog_of, date_input, download_button, empty_row, field_error, label_for, list_count,
    list_footer, page_controls, nav_link, plain_header, search_input, sort_header, table_card, table_rows,
)
from app.ui.pages.users import option_select
from app.ui.states.base import AppState
from app.ui.rows.trade_recommendations import NO_ROUNDING, ApprovalLine, CashView, FileRowView
from app.ui.states.trade_recommendations import (
    APPROVAL_ORDERS, APPROVAL_VIEW, EXPORT_LABELS, FILE_VIEW, GAP_LABELS, PAGE_SIZES, TradeApprovalState,
    TradeFileState,
)
from app.ui.toolkit.badges import TI_COLORS, TX_COLORS, color_match

TITLE = "Wealth Advice"
PAGE_TITLE = "Trade Recommendations"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
MUTED = {"size": "1", "color": rx.color("gray", 10)}
FILE_COLUMNS = 9
APPROVAL_COLUMNS = 7
FILE_EMPTY = ("No trade recommendations to send: approved trade recommendations of the firm's portfolios show here "
              "until the broker has executed them.")
PICK_FIRM = "Choose a firm (or All Firms) and press Load to read its trade file."
TYPE_COLOURS = (("New", "blue"), ("Amend", "violet"), ("Cancel", "red"), ("Maintain", "gray"))
CASH_COLOURS = {"red": "red", "yellow": "amber"}

F = TradeFileState
A = TradeApprovalState


# ---- shared pieces ---------------------------------------------------------------------------------------
def _label(text: str, control: str | None = None) -> rx.Component:
    """A caption of the adjustment bar: a <label> of `control`, or the group's caption (its controls are
    named with aria-label)."""
    if control:
        return label_for(text, control=control, size="1", color=rx.color("gray", 11))
    return rx.text(text, size="1", weight="medium", color=rx.color("gray", 11))



def _side(side: Any) -> rx.Component:
    return rx.text(side, size="2", weight="medium", color=rx.cond(side == "BUY", rx.color("green", 11),
                                                                   rx.color("red", 11)))


def _num_header(label: str, key: str) -> rx.Component:
    return sort_header(label, key, F.sort, F.order, F.toggle_sort, align="right")


def _views() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger(rx.hstack(rx.icon("file-spreadsheet", size=14), "Trade file", spacing="2", align="center"),
                            value=FILE_VIEW, id="view-file", aria_controls="trade-view"),
            rx.tabs.trigger(rx.hstack(rx.icon("list-checks", size=14), "Approval", spacing="2", align="center"),
                            value=APPROVAL_VIEW, id="view-approval", aria_controls="trade-view"),
        ),
        value=F.view, on_change=F.set_view, width="100%",
    )


# ---- the trade file: toolbar and adjustments -------------------------------------------------------------
def _file_toolbar() -> rx.Component:
    return rx.flex(
        rx.cond(F.show_firm, rx.hstack(
            rx.box(option_select(F.firm_filter, F.firm_options, F.set_firm_filter, id="firm-filter"), min_width="220px"),
            rx.button(rx.icon("download", size=14), "Load", on_click=F.load, loading=F.loading, id="file-load"),
            spacing="2", align="center",
        )),
        search_input("Filter by portfolio, broker, code, type or status", F.search, F.set_search, "file-filter",
                     name="filter", width=["100%", "100%", "340px"]),
        rx.box(option_select(F.file_status, F.file_status_options, F.set_file_status, id="file-status",
                             aria_label="Status"), min_width="160px"),
        rx.spacer(),
        list_count(F.showing, id_="file-count"),
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def _adjustments() -> rx.Component:
    gap_label = rx.cond(F.adj.gap_type == rules.GAP_VALUE, "Price gap ($)", "Price gap (%)")
    expiry_error, limit_percentage_error, limit_value_error = (
        F.adj_errors.expiry, F.adj_errors.limit_vs_last_percentage, F.adj_errors.limit_vs_last_value)
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading("Adjustments", size="3", as_="h2"),
                rx.text("Applied to every trade recommendation not placed yet; quantities and prices are "
                        "recalculated from the recommendation.", **MUTED),
                rx.spacer(),
                rx.cond(F.adjusted_count > 0, rx.badge(F.adjusted_count.to_string() + " adjusted", color_scheme="indigo",
                                                       variant="soft", id="adjusted-count")),
                spacing="3", align="center", width="100%", wrap="wrap",
            ),
            rx.grid(
                rx.vstack(_label("Apply to"),
                          rx.segmented_control.root(
                              *[rx.segmented_control.item(a, value=a) for a in rules.ADJUSTMENT_ACTIONS],
                              value=F.adj.action, on_change=lambda v: F.set_adj_choice("action", v), id="adj-action",
                              size="1",
                              aria_label="Apply to"),
                          spacing="1"),
                rx.vstack(_label("Price gap by"),
                          rx.hstack(
                              rx.segmented_control.root(
                                  *[rx.segmented_control.item(label, value=value) for value, label in GAP_LABELS.items()],
                                  value=F.adj.gap_type, on_change=lambda v: F.set_adj_choice("gap_type", v),
                                  id="adj-gap-type", size="1",
                                  aria_label="Price gap by"),
                              rx.input(value=F.adj_gap, on_change=F.set_adj_gap, id="adj-gap", name="adj-gap",
                                       input_mode="decimal", size="1", width="80px", text_align="right",
                                       aria_label=gap_label,
                                       color_scheme=rx.cond(F.adj_gap_error != "", "red", "gray")),
                              spacing="2", align="center"),
                          field_error(F.adj_gap_error, "adj-gap-error"),
                          spacing="1"),
                rx.vstack(_label("Rounding", "adj-rounding"),
                          rx.hstack(
                              rx.select.root(
                                  rx.select.trigger(id="adj-rounding", width="110px"),
                                  rx.select.content(
                                      rx.select.item("No rounding", value=NO_ROUNDING),
                                      *[rx.select.item(m.title(), value=m) for m in rules.ROUNDING_METHODS]),
                                  value=F.adj.rounding, on_change=lambda v: F.set_adj_choice("rounding", v), size="1"),
                              rx.select.root(
                                  rx.select.trigger(id="adj-multiple", width="90px", aria_label="Round to a multiple of"),
                                  rx.select.content(*[rx.select.item(f"to {m}", value=str(m))
                                                      for m in rules.ROUNDING_MULTIPLES]),
                                  value=F.adj.multiple, on_change=lambda v: F.set_adj_choice("multiple", v), size="1",
                                  disabled=F.adj.rounding == NO_ROUNDING),
                              spacing="2"),
                          spacing="1"),
                rx.vstack(_label("Expiry date", "adj-expiry"),
                          date_input(F.adj.expiry, lambda v: F.set_adj_text("expiry", v), "adj-expiry", error=expiry_error,
                                     size="1", width="150px"),
                          field_error(expiry_error, "adj-expiry-error"),
                          spacing="1"),
                rx.vstack(_label("Limit vs last close", "adj-filter-on"),
                          rx.hstack(
                              rx.switch(checked=F.adj.filter_on, on_change=F.set_adj_filter_on, id="adj-filter-on",
                                        size="1"),
                              rx.input(value=F.adj.limit_percentage, on_change=lambda v: F.set_adj_text("limit_percentage", v),
                                       placeholder="%", id="adj-limit-percentage", input_mode="decimal", size="1",
                                       aria_label="Limit vs last close (%)",
                                       width="64px", disabled=~F.adj.filter_on, text_align="right",
                                       color_scheme=rx.cond(limit_percentage_error != "", "red", "gray")),
                              rx.input(value=F.adj.limit_value, on_change=lambda v: F.set_adj_text("limit_value", v),
                                       placeholder="$",
                                       id="adj-limit-value", input_mode="decimal", size="1", width="64px",
                                       aria_label="Limit vs last close ($)",
                                       disabled=~F.adj.filter_on, text_align="right",
                                       color_scheme=rx.cond(limit_value_error != "", "red", "gray")),
                              spacing="2", align="center"),
                          field_error(limit_percentage_error, "adj-limit-percentage-error"),
                          field_error(limit_value_error, "adj-limit-value-error"),
                          rx.cond(F.adj.filter_on, rx.text("Only rows whose limit differs from the last close by "
                                                           "more than this", **MUTED, max_width="220px")),
                          spacing="1"),
                rx.vstack(_label("Use pending amounts", "adj-use-pending"),
                          rx.switch(checked=F.adj.use_pending, on_change=F.set_adj_use_pending, id="adj-use-pending",
                                    size="1"),
                          spacing="2"),
                columns=rx.breakpoints(initial="1", sm="2", lg="3"), spacing_x="5", spacing_y="3", width="100%",
            ),
            rx.hstack(
                rx.button("Reset", variant="soft", color_scheme="gray", on_click=F.reset_adjustments,
                          id="adj-reset", size="2"),
                rx.button(rx.icon("sliders-horizontal", size=14), "Apply adjustments", on_click=F.ask_adjust,
                          id="adj-apply", size="2", disabled=F.file_total == 0),
                justify="end", spacing="2", width="100%",
            ),
            spacing="3", width="100%",
        ),
        width="100%", size="2",
    )


# ---- the trade file: table and cash -----------------------------------------------------------------------
def _file_row(row: FileRowView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.checkbox(checked=row.selected, on_change=lambda _v: F.toggle_row(row.id),
                                  aria_label="Select " + row.code, class_name="file-select"), width="36px"),
        rx.table.cell(rx.vstack(
            nav_link(row.portfolio, href=row.holdings_url,
                    weight="medium", white_space="nowrap", class_name="file-portfolio"),
            rx.text(row.broker, **MUTED, white_space="nowrap", class_name="file-broker"),
            spacing="0", min_width="150px")),
        rx.table.cell(rx.vstack(
            rx.hstack(_side(row.action),
                      rx.text(row.code, size="2", weight="bold", font_family="var(--code-font-family)",
                              class_name="file-code"),
                      spacing="2", align="baseline"),
            rx.text(row.order_type, **MUTED, class_name="file-order-type"),
            spacing="0"), white_space="nowrap"),
        rx.table.cell(rx.vstack(
            rx.text(row.pending_amount, size="2", weight="medium", class_name="file-pending"),
            rx.text(row.amount, **MUTED, class_name="file-amount"),
            spacing="0", align="end"), **NUMBER),
        rx.table.cell(rx.text(row.quantity, class_name="file-quantity",
                              weight=rx.cond(row.adjusted, "bold", "regular")), **NUMBER),
        rx.table.cell(rx.vstack(
            rx.cond(row.limit_price != "",
                    rx.text(row.limit_price, size="2", class_name="file-limit",
                            weight=rx.cond(row.adjusted, "bold", "regular")),
                    rx.text("Market", size="2", color=rx.color("gray", 10), class_name="file-limit")),
            rx.cond(row.vs_value.text != "",
                    rx.text(row.vs_percentage + " (" + row.vs_value.text + ")", size="1", class_name="file-vs",
                            color=rx.cond(row.vs_value.negative, rx.color("red", 11), rx.color("gray", 10)))),
            spacing="0", align="end"), **NUMBER),
        rx.table.cell(row.last_close, **NUMBER, class_name="file-last-close"),
        rx.table.cell(rx.vstack(
            rx.badge(row.row_type, color_scheme=rx.match(row.row_type, *TYPE_COLOURS, "gray"), variant="outline",
                     class_name="file-type"),
            rx.badge(row.status, color_scheme=rx.cond(row.status == "Placed", "amber", "blue"), variant="soft",
                     class_name="file-status"),
            spacing="1", align="start")),
        rx.table.cell(rx.cond(row.expiry == "", rx.text("-", color=rx.color("gray", 9)),
                              rx.cond(row.expiry_default,
                                      rx.text(row.expiry, color=rx.color("gray", 10), title="The firm's default expiry",
                                              class_name="file-expiry-default"),
                                      row.expiry)),
                      **NUMBER, class_name="file-expiry"),
        class_name="file-row",
        custom_attrs={"data-id": row.id, "data-code": row.code, "data-status": row.status},
        background=rx.cond(row.selected, rx.color("accent", 2), "transparent"),
        _hover={"background": rx.color("gray", 3)},
    )


def _file_table() -> rx.Component:
    header = rx.table.row(
        rx.table.column_header_cell(rx.checkbox(checked=F.all_selected, on_change=F.toggle_all, id="file-select-all",
                                                aria_label="Select all"), width="36px"),
        sort_header("Portfolio / broker", "investment_name", F.sort, F.order, F.toggle_sort),
        sort_header("Order", "asset_code", F.sort, F.order, F.toggle_sort),
        _num_header("Pending / amount", "pending_amount"),
        _num_header("Quantity", "quantity"),
        _num_header("Limit / vs close", "limit_vs_price_percentage"),
        _num_header("Last close", "last_close_price"),
        sort_header("Type / status", "type", F.sort, F.order, F.toggle_sort),
        _num_header("Expiry", "expiry"),
    )
    empty = rx.cond(F.error != "", F.error, rx.cond(F.loaded, FILE_EMPTY, PICK_FIRM))
    body = table_rows(F.rows, _file_row, FILE_COLUMNS, loading=F.loading & (F.rows.length() == 0),
                      empty=empty_row(FILE_COLUMNS, empty), id="file-table")
    footer = list_footer(list_count(F.showing), page_controls(F, PAGE_SIZES))
    return table_card(header, body, footer)


def _cash_row(c: CashView) -> rx.Component:
    text = rx.match(c.text, ("red", rx.color("red", 11)), ("yellow", rx.color("amber", 11)), "inherit")
    background = rx.match(c.background, ("red", rx.color("red", 3)), ("yellow", rx.color("amber", 3)), "transparent")
    return rx.table.row(
        rx.table.cell(rx.text(c.portfolio, weight="medium", white_space="nowrap")),
        *[rx.table.cell(value, **NUMBER) for value in (c.buys, c.sells, c.placed_buys, c.cash_assets, c.min_cash)],
        rx.table.cell(rx.text(c.available, weight="medium"), **NUMBER),
        class_name="cash-row",
        custom_attrs={"data-background": c.background, "data-text": c.text},
        color=text, background=background,
    )


def _legend(swatch: Any, text: str, color: str = "inherit") -> rx.Component:
    return rx.hstack(rx.box(width="12px", height="12px", border_radius="3px", background=swatch,
                            border=f"1px solid {rx.color('gray', 6)}"),
                     rx.text(text, size="1", color=color), spacing="1", align="center")


def _cash_card() -> rx.Component:
    header = rx.table.row(
        plain_header("Portfolio"),
        *[rx.table.column_header_cell(label, **NUMBER)
          for label in ("Buys", "Sells", "Placed buys", "Cash assets", "Minimum cash", "Available cash")],
    )
    return rx.cond(F.cash.length() > 0, rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading("Portfolio cash summary", size="3", as_="h2"),
                rx.text("the portfolios on this page", **MUTED),
                spacing="2", align="baseline",
            ),
            rx.box(rx.table.root(rx.table.header(header), rx.table.body(rx.foreach(F.cash, _cash_row)),
                                 variant="ghost", size="1", width="100%"),
                   overflow_x="auto", width="100%"),
            rx.flex(
                _legend(rx.color("red", 3), "Net buys exceed available cash"),
                _legend(rx.color("amber", 3), "Buys exceed available cash"),
                _legend(rx.color("red", 11), "Below minimum cash after net buys", rx.color("red", 11)),
                _legend(rx.color("amber", 11), "Below minimum cash after buys", rx.color("amber", 11)),
                wrap="wrap", spacing="4",
            ),
            spacing="3", width="100%",
        ),
        width="100%", size="2", id="cash-summary",
    ))


def _file_actions() -> rx.Component:
    def export(kind: str, icon: str) -> rx.Component:
        return rx.button(rx.icon(icon, size=14), EXPORT_LABELS[kind], on_click=F.export(kind), variant="soft",
                         loading=F.exporting == kind, disabled=(F.exporting != "") | (F.file_total == 0),
                         id=f"export-{kind.replace('_', '-')}")

    return rx.hstack(
        rx.tooltip(rx.box(rx.checkbox("Download all", checked=F.download_all, on_change=F.set_download_all,
                                      id="download-all")),
                   content="Include the orders already placed with the broker"),
        export(TRADE_FILE, "file-spreadsheet"),
        export(DESKTOP_BROKER, "file-text"),
        export(AUSIEX, "file-text"),
        rx.menu.root(
            rx.menu.trigger(rx.button(rx.icon("eye", size=14), "Preview", variant="outline",
                                      disabled=(F.exporting != "") | (F.file_total == 0), id="export-preview")),
            rx.menu.content(*[rx.menu.item(f"{EXPORT_LABELS[kind]} (nothing is placed)", on_click=F.preview(kind),
                                           id=f"preview-{kind.replace('_', '-')}")
                              for kind in (TRADE_FILE, DESKTOP_BROKER, AUSIEX)]),
        ),
        rx.icon_button(rx.icon("refresh-cw", size=14), variant="soft", color_scheme="gray", on_click=F.load,
                       aria_label="Reload", id="file-refresh", disabled=~F.loaded),
        spacing="2", align="center", wrap="wrap",
    )


def _file_view() -> rx.Component:
    return rx.vstack(
        _file_toolbar(),
        _adjustments(),
        _file_table(),
        _cash_card(),
        confirm_dialog_of(F, danger=False),
        spacing="4", width="100%",
    )


# ---- approval ----------------------------------------------------------------------------------------------
def _status_box(key: str, label: str) -> rx.Component:
    return rx.checkbox(label, checked=getattr(A, key), on_change=lambda value: A.set_status(key, value),
                       id=f"status-{key}", size="2")


def _approval_toolbar() -> rx.Component:
    statuses = rx.hstack(*[_status_box(key, label) for key, label in STATUS_FILTER_LABELS.items()],
                         spacing="4", align="center", wrap="wrap", id="status-filters")
    order = rx.select.root(
        rx.select.trigger(id="approval-order", width="150px"),
        rx.select.content(*[rx.select.item(label, value=value) for value, label in APPROVAL_ORDERS]),
        value=A.order, on_change=A.set_order,
    )
    return rx.flex(
        rx.cond(A.show_adviser, rx.box(option_select(A.adviser, A.adviser_options, A.set_adviser, id="adviser-filter",
                                                     placeholder="Select an adviser"), min_width="260px")),
        statuses,
        rx.spacer(),
        rx.hstack(rx.text("Order by", **MUTED), order, spacing="2", align="center"),
        wrap="wrap", spacing="4", align="center", width="100%",
    )


def _choices(line: ApprovalLine) -> rx.Component:
    color = color_match(TX_COLORS, line.status)
    return rx.cond(
        line.awaiting,
        rx.hstack(
            rx.button(rx.icon("check", size=14), "Approve", size="1", color_scheme="green",
                      variant=rx.cond(line.choice == "approved", "solid", "soft"),
                      on_click=A.choose(line.key, "approved"), class_name="choose-approve"),
            rx.button(rx.icon("x", size=14), "Decline", size="1", color_scheme="red",
                      variant=rx.cond(line.choice == "declined", "solid", "soft"),
                      on_click=A.choose(line.key, "declined"), class_name="choose-decline"),
            spacing="2", class_name="choices", custom_attrs={"data-choice": line.choice},
        ),
        rx.badge(line.status_label, color_scheme=color, variant="soft", class_name="item-status"),
    )


def _group_row(line: ApprovalLine) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.hstack(
                rx.cond(line.can_validate,
                        rx.checkbox(checked=line.checked, on_change=lambda _v: A.toggle_group(line.key),
                                    aria_label="Select " + line.portfolio, class_name="group-select")),
                nav_link(line.portfolio, href=line.url,
                        weight="bold", class_name="group-portfolio"),
                rx.badge(line.status_label, variant="soft", class_name="group-status",
                         color_scheme=color_match(TI_COLORS, line.status)),
                rx.text(line.count, **MUTED, class_name="group-count"),
                spacing="3", align="center",
            ),
            col_span=APPROVAL_COLUMNS,
        ),
        class_name="group-row", background=rx.color("gray", 3),
        custom_attrs={"data-ti": line.ti_id, "data-status": line.status_label},
    )


def _item_row(line: ApprovalLine) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.cond(line.is_note, rx.badge("Note", color_scheme="gray", variant="outline"),
                              _side(line.action)), padding_left="24px"),
        rx.table.cell(rx.text(line.code, weight="bold", size="2", font_family="var(--code-font-family)"),
                      class_name="item-code"),
        rx.table.cell(line.quantity, **NUMBER),
        rx.table.cell(line.price, **NUMBER),
        rx.table.cell(line.value, **NUMBER),
        rx.table.cell(rx.text(line.text, size="1", color=rx.color("gray", 11), max_width="360px")),
        rx.table.cell(_choices(line)),
        class_name="item-row",
        custom_attrs={"data-ti": line.ti_id, "data-code": line.code, "data-key": line.key},
        _hover={"background": rx.color("gray", 2)},
    )


def _approval_table() -> rx.Component:
    header = rx.table.row(
        rx.table.column_header_cell(
            rx.hstack(rx.cond(A.validatable_count > 0,
                              rx.checkbox(checked=A.checked_count == A.validatable_count,
                                          on_change=A.toggle_all_groups, id="group-select-all",
                                          aria_label="Select every portfolio to validate")),
                      rx.text("Trade"), spacing="2", align="center"), padding_left="24px"),
        plain_header("Code"),
        *[rx.table.column_header_cell(label, **NUMBER) for label in ("Quantity", "Price", "Value")],
        plain_header("Recommendation"),
        plain_header("Decision"),
    )
    body = table_rows(A.lines, lambda line: rx.cond(line.is_group, _group_row(line), _item_row(line)),
                      APPROVAL_COLUMNS, loading=A.loading & (A.lines.length() == 0),
                      empty=empty_row(APPROVAL_COLUMNS, rx.cond(A.error != "", A.error, A.empty_text)),
                      id="approval-table")
    footer = list_footer(
        list_count(A.showing, id_="approval-count"),
        rx.cond(A.awaiting_count > 0,
                rx.text(A.decided_count.to_string() + " of " + A.awaiting_count.to_string() + " decided", size="2",
                        color=rx.color("gray", 11), id="approval-decided")),
    )
    return table_card(header, body, footer)


def _approval_actions() -> rx.Component:
    return rx.hstack(
        rx.cond(A.validatable_count > 0,
                rx.button(rx.icon("check-check", size=14), "Validate", on_click=A.ask_validate, id="approval-validate",
                          loading=A.busy, variant="soft")),
        rx.cond(A.awaiting_count > 0, rx.fragment(
            rx.button(rx.icon("check-check", size=14), "Approve all", variant="soft", color_scheme="green",
                      on_click=A.approve_all, id="approval-approve-all"),
            rx.button("Confirm", on_click=A.ask_confirm, id="approval-confirm", disabled=A.decided_count == 0,
                      loading=A.busy),
        )),
        rx.cond(A.can_export, rx.fragment(
            download_button("Excel", "file-spreadsheet", A.excel_path, "approval-excel", size="2"),
            download_button("Excel (simple)", "file-spreadsheet", A.excel_simple_path, "approval-excel-simple", size="2"),
            download_button("PDF", "file-text", A.pdf_path, "approval-pdf", size="2"),
        )),
        rx.icon_button(rx.icon("refresh-cw", size=14), variant="soft", color_scheme="gray", on_click=A.refresh,
                       aria_label="Reload", id="approval-refresh"),
        spacing="2", align="center", wrap="wrap",
    )


def _approval_view() -> rx.Component:
    return rx.vstack(
        _approval_toolbar(),
        _approval_table(),
        rx.alert_dialog.root(
            rx.alert_dialog.content(
                rx.alert_dialog.title("Please confirm", custom_attrs={"as": "h2"}),
                rx.alert_dialog.description(A.confirm_message, id="approval-question"),
                rx.hstack(
                    cancel_button(on_click=A.cancel_confirm, id="approval-ask-cancel"),
                    rx.button(A.confirm_label, on_click=A.confirm,
                              id="approval-ask-ok"),
                    justify="end", spacing="3", margin_top="16px",
                ),
                max_width="440px",
            ),
            open=A.confirm_open,
        ),
        spacing="4", width="100%",
    )


def trade_recommendations_page() -> rx.Component:
    return page(
        PAGE_TITLE,
        _views(),
        # the view the tabs above switch (they have no content of their own: the panel is this box)
        rx.box(rx.cond(F.view == APPROVAL_VIEW, _approval_view(), _file_view()), id="trade-view", role="tabpanel",
               aria_labelledby=rx.cond(F.view == APPROVAL_VIEW, "view-approval", "view-file"), width="100%"),
        # read by the browser's leave prompt (beforeunload) while decisions are unconfirmed
        rx.box(id="unconfirmed-decisions", display="none",
               custom_attrs={"data-unconfirmed": rx.cond(AppState.form_dirty, "true", "false")}),
        crumbs=[("Reports", None), (PAGE_TITLE, None)],
        actions=rx.cond(F.view == APPROVAL_VIEW, _approval_actions(), _file_actions()),
        on_save_leave=A.save_and_leave,
    )


def register(app: rx.App) -> None:
    app.add_page(trade_recommendations_page, route=routes.ROUTES["reports.trade-recommendations"],
                 title=f"{PAGE_TITLE} | {TITLE}",
                 on_load=[AppState.check_login, TradeFileState.on_load, TradeApprovalState.on_load])
