"""reports.desktop-broker-trade-file and reports.orders: the Desktop Broker trade file with its Excel
link, and the broker orders with their status, execution, rejection and the broker's execution
file (spec 001 s2/s7, 002 s4)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain.orders import CONFIRMATION_COLUMNS
from app.ui import routes
from app.ui.toolkit.screen import open_upload_events
from app.ui.components.layout import page
from app.ui.components.widgets import (
    cancel_button, date_input, download_button, empty_row, field, field_error, list_count, list_footer, modal, page_controls,
    nav_link, plain_header, spreadsheet_upload_modal, table_card, table_rows, text_input,
)
from app.ui.pages.users import option_select
from app.ui.states.base import AppState
from app.ui.rows.orders import BrokerRow, BrokerTotalView, OrderView, ReconciliationLineView
from app.ui.states.orders import (
    ORDER_STATUSES, PAGE_SIZES, UPLOAD_ID, DesktopBrokerState, OrderReconciliationState, OrdersState,
)

TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
MUTED = {"size": "1", "color": rx.color("gray", 10)}
BROKER_EMPTY = ("No Desktop Broker orders: approved trade recommendations of portfolios with Desktop Broker show "
                "here, and stay until the broker has executed them.")


# ---- shared pieces ------------------------------------------------------------------------------------
def _num(text: Any, **props) -> rx.Component:
    return rx.table.cell(text, **NUMBER, **props)


def _code(text: Any) -> rx.Component:
    return rx.table.cell(rx.text(text, weight="medium", font_family="var(--code-font-family)", size="2"),
                         white_space="nowrap")


def _side(side: Any) -> rx.Component:
    return rx.table.cell(
        rx.text(side, size="2", weight="medium", color=rx.cond(side == "BUY", rx.color("green", 11), rx.color("red", 11))),
        class_name="order-side")


def _portfolio(name: Any, url: Any, account: Any) -> rx.Component:
    return rx.table.cell(
        rx.vstack(
            nav_link(name, href=url, weight="medium",
                    white_space="nowrap", class_name="order-portfolio"),
            rx.text(account, **MUTED, white_space="nowrap", class_name="order-account"),
            spacing="0", min_width="150px",
        ),
    )


def _firm_select(state: Any) -> rx.Component:
    return rx.cond(state.show_firm & (state.firm_options.length() > 0),
                   rx.box(option_select(state.firm_filter, state.firm_options, state.set_firm_filter, id="firm-filter"),
                          min_width="220px"))


def _refresh(state: Any) -> rx.Component:
    return rx.icon_button(rx.icon("refresh-cw", size=14), variant="soft", color_scheme="gray", on_click=state.refresh,
                          aria_label="Refresh", id="orders-refresh")


def _report_table(state: Any, header: rx.Component, row: Any, empty: Any, name: str) -> rx.Component:
    """Either report's table: skeleton while loading, the failure or the empty text, one page of rows, and
    the count, page size and pages under it (ids `{name}-table`, `{name}-count`)."""
    body = table_rows(state.rows, row, 9, loading=state.loading & (state.rows.length() == 0),
                      empty=empty_row(9, rx.cond(state.error != "", state.error, empty)), id=f"{name}-table")
    footer = list_footer(list_count(state.showing, id_=f"{name}-count"), page_controls(state, PAGE_SIZES))
    return table_card(header, body, footer)


# ---- reports.desktop-broker-trade-file -------------------------------------------------------------------
def _broker_row(row: BrokerRow) -> rx.Component:
    return rx.table.row(
        _portfolio(row.portfolio, row.holdings_url, row.account),
        _side(row.side),
        _code(row.code),
        _num(row.quantity, class_name="broker-quantity"),
        rx.table.cell(row.order_type, white_space="nowrap"),
        _num(row.limit_price),
        _num(row.expiry),
        rx.table.cell(rx.text(row.row_type, size="2"), white_space="nowrap"),
        rx.table.cell(rx.badge(row.status, color_scheme=rx.cond(row.status == "Placed", "amber", "blue"), variant="soft",
                               class_name="broker-status")),
        class_name="broker-row",
        custom_attrs={"data-code": row.code, "data-status": row.status},
        _hover={"background": rx.color("gray", 3)},
    )


def desktop_broker_page() -> rx.Component:
    S = DesktopBrokerState
    header = rx.table.row(
        plain_header("Portfolio / account"), plain_header("Buy/Sell"), plain_header("Code"),
        rx.table.column_header_cell("Quantity", **NUMBER), plain_header("Order type"),
        rx.table.column_header_cell("Limit price", **NUMBER), rx.table.column_header_cell("Expiry", **NUMBER),
        plain_header("Type"), plain_header("Status"),
    )
    return page(
        "Desktop Broker Trade File",
        rx.flex(
            _firm_select(S),
            rx.text("The orders of portfolios with Desktop Broker: Placed ones are with the broker; Approved ones "
                    "wait for a broker file from the trade recommendations report.", **MUTED),
            wrap="wrap", spacing="3", align="center", width="100%",
        ),
        _report_table(S, header, _broker_row, BROKER_EMPTY, "broker"),
        crumbs=[("Reports", None), ("Desktop Broker Trade File", None)],
        actions=rx.hstack(download_button("Excel", "file-spreadsheet", S.excel_path, "broker-excel", size="2"), _refresh(S),
                          spacing="2", align="center"),
    )


# ---- reports.orders ---------------------------------------------------------------------------------------
def _status(row: OrderView) -> rx.Component:
    return rx.table.cell(
        rx.vstack(
            rx.badge(row.status_label, variant="soft", class_name="order-status",
                     color_scheme=rx.match(row.status_label, ("Placed", "amber"), ("Partly filled", "blue"),
                                           ("Executed", "green"), ("Error", "red"), "gray")),
            rx.cond(row.filled != "", rx.text("filled " + row.filled, **MUTED, class_name="order-filled")),
            rx.cond(row.reason != "", rx.text(row.reason, size="1", color=rx.color("red", 11), max_width="220px",
                                              class_name="order-reason")),
            spacing="1",
        ),
    )


def _order_menu(row: OrderView) -> rx.Component:
    S = OrdersState
    item = rx.menu.item
    return rx.menu.root(
        rx.menu.trigger(rx.icon_button(rx.icon("ellipsis", size=16), variant="ghost", color_scheme="gray", size="1",
                                       aria_label="Actions", class_name="order-actions")),
        rx.menu.content(
            rx.cond(row.is_placed, rx.fragment(
                item(rx.icon("circle-check", size=14), "Record execution", on_click=S.open_execute(row.id),
                     class_name="order-execute"),
                item(rx.icon("circle-x", size=14), "Reject", color="red", on_click=S.ask_reject(row.id),
                     class_name="order-reject"),
                rx.menu.separator(),
            )),
            item(rx.icon("wallet", size=14), "Holdings", on_click=AppState.navigate(row.holdings_url),
                 class_name="order-holdings"),
            item(rx.icon("arrow-left-right", size=14), "Asset transactions", on_click=AppState.navigate(row.assets_url),
                 class_name="order-transactions"),
            align="end",
        ),
    )


def _order_cell(row: OrderView) -> rx.Component:
    """Side and code, then the order type (with its limit) and the expiry."""
    kind = row.order_type  # "Market", "Limit $12.50", "Stop loss at $30.54, then market"
    return rx.table.cell(
        rx.vstack(
            rx.hstack(
                rx.text(row.side, size="2", weight="medium", class_name="order-side",
                        color=rx.cond(row.side == "BUY", rx.color("green", 11), rx.color("red", 11))),
                rx.text(row.code, size="2", weight="bold", font_family="var(--code-font-family)",
                        class_name="order-code"),
                spacing="2", align="baseline",
            ),
            rx.text(rx.cond(row.expiry == "GTC", kind + " · good till cancelled",
                            rx.cond(row.expiry != "", kind + " · expires " + row.expiry, kind)), **MUTED,
                    class_name="order-type", white_space="normal", max_width="230px"),
            rx.text(row.reference, **MUTED, class_name="order-reference"),
            spacing="0",
        ),
        # a stop loss's words wrap under the code rather than pushing the status out of a laptop's view
        white_space="nowrap",
    )


def _order_row(row: OrderView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.vstack(rx.moment(row.placed_at, format="DD/MM/YYYY"),
                                rx.text(rx.moment(row.placed_at, format="HH:mm"), **MUTED), spacing="0"),
                      white_space="nowrap", font_variant_numeric="tabular-nums", class_name="order-placed"),
        _portfolio(row.portfolio, row.holdings_url, row.account),
        _order_cell(row),
        _num(row.quantity, class_name="order-quantity"),
        _num(row.price, class_name="order-price"),
        _num(rx.vstack(rx.text(row.amount, size="2", weight="medium"),
                       rx.cond(row.fee != "", rx.text("brokerage " + row.fee, **MUTED)),
                       spacing="0", align="end"), class_name="order-amount"),
        _num(rx.vstack(rx.text(row.trade_date, size="2"),
                       rx.cond(row.settlement_date != "", rx.text("settles " + row.settlement_date, **MUTED)),
                       spacing="0", align="end"), class_name="order-trade-date"),
        _status(row),
        rx.table.cell(_order_menu(row), text_align="right"),
        class_name="order-row",
        custom_attrs={"data-code": row.code, "data-status": row.status_label, "data-id": row.id},
        _hover={"background": rx.color("gray", 3)},
    )


def _orders_table() -> rx.Component:
    S = OrdersState
    header = rx.table.row(
        plain_header("Placed"), plain_header("Portfolio / account"), plain_header("Order"),
        *[rx.table.column_header_cell(label, **NUMBER) for label in ("Quantity", "Price", "Amount", "Trade date")],
        plain_header("Status"), plain_header(""),
    )
    return _report_table(S, header, _order_row, S.empty_text, "orders")


def _form_field(label: str, key: str, id_: str, required: bool = False, **props: Any) -> rx.Component:
    """A field of the execution form (dates as date inputs), with its error under it."""
    S = OrdersState
    error = S.form_errors.get(key, "")
    on_change = lambda value: S.set_form_field(key, value)  # noqa: E731
    if key.endswith("_date"):
        control = date_input(getattr(S.form, key), on_change, id_, error=error)
    else:
        control = text_input(id_, getattr(S.form, key), on_change, error=error, **props)
    return field(label, control, "" if key == "contract_note" else error, required=required)


def _execute_modal() -> rx.Component:
    S = OrdersState
    return modal(
        "Record execution",
        rx.dialog.description(S.ex_title, size="2", color=rx.color("gray", 11), id="execute-title"),
        rx.vstack(
            rx.grid(
                _form_field("Quantity", "quantity", "ex-quantity", required=True, input_mode="numeric",
                            max_length=20),
                _form_field("Price ($)", "price", "ex-price", required=True, input_mode="decimal", max_length=30),
                _form_field("Brokerage ($)", "fee", "ex-fee", input_mode="decimal", max_length=30),
                _form_field("Contract note", "contract_note", "ex-contract-note", max_length=80),
                _form_field("Trade date", "trade_date", "ex-trade-date", required=True),
                _form_field("Settlement date", "settlement_date", "ex-settlement-date"),
                columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%",
            ),
            field_error(S.form_error, "execute-error"),
            rx.text("The holdings and the cash of the portfolio move with the execution. A quantity below "
                    "the order's (" + S.ex_quantity + " units still placed) records a partial fill and leaves "
                    "the rest placed.", **MUTED),
            rx.hstack(
                cancel_button(on_click=S.close_form, id="execute-cancel", type="button"),
                rx.button(rx.icon("circle-check", size=14), "Record execution", on_click=S.save_execution,
                          loading=S.saving, id="execute-save", type="button"),
                justify="end", spacing="3", width="100%",
            ),
            spacing="3", width="100%", margin_top="12px",
        ),
        open_=S.form_open, on_open_change=S.set_form_open, max_width="560px", id_="execute-modal", keep_open=True,
    )


def _reject_dialog() -> rx.Component:
    S = OrdersState
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Reject order", custom_attrs={"as": "h2"}),
            rx.alert_dialog.description(S.reject.question, size="2", id="reject-question"),
            rx.box(field("Reason", text_input("reject-reason", S.reject.reason, S.set_rj_reason,
                                              placeholder="Rejected by the broker")), margin_top="12px"),
            rx.hstack(
                cancel_button(on_click=S.cancel_reject, id="reject-cancel"),
                rx.button("Reject order", color_scheme="red", on_click=S.confirm_reject, loading=S.reject.saving,
                          id="reject-ok"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="480px",
        ),
        open=S.reject.open,
    )


def _upload_modal() -> rx.Component:
    S = OrdersState
    failure = rx.cond(S.upload_error != "", rx.callout(
        rx.vstack(
            rx.text(S.upload_error, size="2", id="upload-error"),
            rx.foreach(S.upload_lines, lambda d: rx.hstack(
                rx.text(d.label, size="1", weight="bold", white_space="nowrap", min_width="56px"),
                rx.text(d.value, size="1"),
                spacing="2", align="start", class_name="upload-line")),
            spacing="1", max_height="30vh", overflow_y="auto", width="100%",
        ),
        icon="triangle-alert", color_scheme="red", width="100%", id="upload-failure",
    ))
    return spreadsheet_upload_modal(
        S, "Upload execution file",
        "The broker's executed trades: every line executes its placed order (matched by account, code, side and "
        "quantity), or none is executed and the wrong lines are named.",
        "Columns (header row): " + ", ".join(CONFIRMATION_COLUMNS) + "; optional reference. Side BUY or SELL (B or "
        "S); dates DD/MM/YYYY; account is the broker account or the HIN.",
        failure, UPLOAD_ID, "600px",
    )


def orders_page() -> rx.Component:
    S = OrdersState
    statuses = rx.segmented_control.root(
        *[rx.segmented_control.item(label, value=value, id=f"status-{value}") for value, label in ORDER_STATUSES],
        value=S.status_filter, on_change=S.set_status_filter, id="status-filter",
    )
    return page(
        "Orders",
        rx.flex(_firm_select(S), statuses, wrap="wrap", spacing="3", align="center", width="100%"),
        _orders_table(),
        _execute_modal(),
        _reject_dialog(),
        _upload_modal(),
        crumbs=[("Reports", None), ("Orders", None)],
        actions=rx.hstack(
            rx.button(rx.icon("calendar-check", size=14), "Day's reconciliation", variant="soft",
                      on_click=AppState.navigate(routes.url("reports.order-reconciliation")), id="orders-reconciliation"),
            rx.button(rx.icon("upload", size=14), "Upload execution file", on_click=open_upload_events(S), id="orders-upload"),
            _refresh(S),
            spacing="2", align="center",
        ),
    )


# ---- reports.order-reconciliation ------------------------------------------------------------------------
def _total_row(t: BrokerTotalView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.text(t.broker, weight="medium"), class_name="recon-broker"),
        *[_num(value) for value in (t.placed, t.filled, t.partly_filled, t.expired, t.cancelled, t.rejected)],
        _num(t.buys), _num(t.sells),
        class_name="recon-total", custom_attrs={"data-broker": t.broker},
    )


def _line_row(line: ReconciliationLineView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(line.broker, white_space="nowrap"),
        _portfolio(line.portfolio, line.holdings_url, line.account),
        rx.table.cell(rx.text(line.reference, font_family="var(--code-font-family)", size="2")),
        _side(line.side),
        _code(line.code),
        rx.table.cell(rx.badge(line.event, variant="soft", color_scheme=rx.match(
            line.event, ("Placed", "amber"), ("Filled", "green"), ("Partly filled", "blue"), ("Rejected", "red"),
            "gray")), class_name="recon-event"),
        _num(line.units), _num(line.value),
        rx.table.cell(rx.text(line.order_type, **MUTED), white_space="nowrap"),
        rx.table.cell(line.status_label),
        class_name="recon-line", custom_attrs={"data-code": line.code, "data-event": line.event},
    )


def reconciliation_page() -> rx.Component:
    S = OrderReconciliationState
    totals = rx.table.root(
        rx.table.header(rx.table.row(
            plain_header("Broker"),
            *[rx.table.column_header_cell(label, **NUMBER) for label in (
                "Placed", "Filled", "Partly filled", "Expired", "Cancelled", "Rejected", "Buys filled",
                "Sells filled")])),
        rx.table.body(rx.foreach(S.totals, _total_row)),
        width="100%", variant="surface", id="recon-totals",
    )
    lines = rx.table.root(
        rx.table.header(rx.table.row(
            plain_header("Broker"), plain_header("Portfolio / account"), plain_header("Reference"),
            plain_header("Side"), plain_header("Code"), plain_header("Event"),
            rx.table.column_header_cell("Units", **NUMBER), rx.table.column_header_cell("Value", **NUMBER),
            plain_header("Order"), plain_header("Status now"))),
        rx.table.body(rx.foreach(S.lines, _line_row)),
        width="100%", variant="surface", id="recon-lines",
    )
    return page(
        "Orders of the day",
        rx.flex(
            _firm_select(S),
            rx.box(
                date_input(S.day, S.set_day, "recon-day", aria_label="Day", width="150px"),
                rx.cond(S.day_error != "", rx.text(S.day_error, color=rx.color("red", 11), size="1", role="alert")),
            ),
            wrap="wrap", spacing="3", align="center", width="100%",
        ),
        rx.cond(S.error != "", rx.callout(S.error, color_scheme="red", icon="triangle-alert", width="100%")),
        rx.cond(S.lines.length() == 0,
                rx.cond(~S.loading, rx.text(S.empty_text, **MUTED, id="recon-empty")),
                rx.vstack(totals, lines, spacing="4", width="100%")),
        rx.text("Each order placed that day, each fill recorded for that day's trades, and each order that expired, "
                "was cancelled or was rejected that day. Tick the broker's confirmations off against it.", **MUTED),
        crumbs=[("Reports", None), ("Orders", routes.url("reports.orders")), ("Reconciliation", None)],
        actions=rx.hstack(download_button("Excel", "file-spreadsheet", S.excel_path, "recon-excel", size="2"),
                          _refresh(S), spacing="2", align="center"),
    )


def register(app: rx.App) -> None:
    app.add_page(desktop_broker_page, route=routes.ROUTES["reports.desktop-broker-trade-file"],
                 title=f"Desktop Broker Trade File | {TITLE}",
                 on_load=[AppState.check_login, DesktopBrokerState.on_load])
    app.add_page(reconciliation_page, route=routes.ROUTES["reports.order-reconciliation"],
                 title=f"Orders of the day | {TITLE}",
                 on_load=[AppState.check_login, OrderReconciliationState.on_load])
    app.add_page(orders_page, route=routes.ROUTES["reports.orders"], title=f"Orders | {TITLE}",
                 on_load=[AppState.check_login, OrdersState.on_load])
