"""reports.cash and reports.pending-target-portfolios: the firm's cash against its target
portfolios, and the target portfolios waiting for someone (spec 002 s2/s7/s9)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    download_button, empty_row, label_for, list_count, list_footer, page_controls, plain_header, skeleton_rows, sort_header,
    table_card,
)
from app.ui.pages.users import option_select
from app.ui.states.advice_reports import HEARTBEAT_MS, CashReportState, PendingReportState
from app.ui.states.base import AppState
from app.ui.toolkit.badges import TP_COLORS, color_match

TITLE = "Wealth Advice"
DATE = "DD/MM/YYYY"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
CASH_EMPTY = ("No portfolio has a target portfolio in this status yet: calculate, validate and approve target "
              "portfolios from a portfolio or a bulk calculation, and their cash shows here.")
PENDING_EMPTY = ("No target portfolio is waiting: calculated ones appear here until they are validated and "
                 "approved.")


# ---- pieces ---------------------------------------------------------------------------------------
def _money(text: Any, negative: Any = False, **props) -> rx.Component:
    return rx.table.cell(rx.text(text, color=rx.cond(negative, rx.color("red", 11), "inherit"), **props), **NUMBER)


def _amount(amount: Any, **props) -> rx.Component:
    """An Amount's cell: red below zero."""
    return _money(amount.text, amount.negative, **props)


def _status(status: Any, label: Any) -> rx.Component:
    return rx.badge(label, color_scheme=color_match(TP_COLORS, status), variant="soft",
                    white_space="nowrap", class_name="tp-status")


def _portfolio(row: Any, state: Any) -> rx.Component:
    """The portfolio (a link to its target portfolio), its owners, and its firm when every firm shows."""
    return rx.table.cell(
        rx.vstack(
            # a long name wraps: the first column stays in view as the table scrolls sideways
            rx.link(row.name, href=row.url, weight="medium", class_name="report-portfolio", max_width="180px"),
            rx.text(row.owners, size="1", color=rx.color("gray", 10), white_space="nowrap"),
            rx.cond(state.show_firm_column,
                    rx.hstack(rx.icon("building-2", size=11, color=rx.color("gray", 9)),
                              rx.text(row.firm, size="1", color=rx.color("gray", 10), white_space="nowrap",
                                      class_name="report-firm"),
                              spacing="1", align="center")),
            spacing="0", min_width="160px",
        ),
    )


def _model(row: Any) -> rx.Component:
    return rx.table.cell(
        rx.vstack(
            rx.text(row.model, white_space="nowrap"),
            rx.text(row.adviser, size="1", color=rx.color("gray", 10), white_space="nowrap", class_name="report-adviser"),
            spacing="0",
        ),
    )


def _toolbar(state: Any, total_label: str, *extra: rx.Component) -> rx.Component:
    return rx.flex(
        rx.cond(state.show_firm & (state.firm_options.length() > 0),
                rx.box(option_select(state.firm_filter, state.firm_options, state.set_firm_filter, id="firm-filter"),
                       min_width="200px")),
        rx.box(option_select(state.status_filter, state.status_options, state.set_status_filter, id="status-filter"),
               min_width="190px"),
        *extra,
        rx.spacer(),
        rx.hstack(
            rx.text(total_label, size="2", color=rx.color("gray", 10)),
            rx.text(state.total_amount.text, size="4", weight="bold", id="report-total",
                    color=rx.cond(state.total_amount.negative, rx.color("red", 11), rx.color("gray", 12)),
                    font_variant_numeric="tabular-nums"),
            align="baseline", spacing="2",
        ),
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def _body(state: Any, columns: int, row: Any, empty: str, totals: rx.Component) -> rx.Component:
    return rx.table.body(
        rx.cond(
            state.loading & (state.rows.length() == 0),
            skeleton_rows(columns),
            rx.cond(
                state.rows.length() == 0,
                empty_row(columns, rx.cond(state.error != "", state.error, empty)),
                rx.fragment(rx.foreach(state.rows, row), totals),
            ),
        ),
        id="report-table",
    )


def _table(state: Any, columns: list[tuple[str, str, str]], row: Any, empty: str, totals: rx.Component) -> rx.Component:
    """Either report's table: sortable headers (label, key, alignment; no key: a plain header), the rows
    with their totals, and the count, page size and pages under it."""
    header = rx.table.row(*[
        sort_header(label, key, state.sort, state.order, state.toggle_sort, align=align) if key
        else plain_header(label) for label, key, align in columns])
    footer = list_footer(list_count(state.showing, id_="report-count"), page_controls(state))
    return table_card(header, _body(state, len(columns), row, empty, totals), footer)


def _actions(state: Any) -> rx.Component:
    return rx.hstack(
        download_button("Excel", "file-spreadsheet", state.excel_path, "export-excel", size="2"),
        download_button("PDF", "file-text", state.pdf_path, "export-pdf", size="2"),
        rx.icon_button(rx.icon("refresh-cw", size=14), variant="soft", color_scheme="gray", on_click=state.refresh,
                       aria_label="Refresh", id="report-refresh"),
        spacing="2", align="center",
    )


# ---- cash report ------------------------------------------------------------------------------------
def _cash_row(row: Any) -> rx.Component:
    S = CashReportState
    return rx.table.row(
        _portfolio(row, S),
        _model(row),
        # the target portfolio's status with its date under it: one column, so that the cash
        # figures up to "To invest" fit a laptop's screen
        rx.table.cell(rx.vstack(_status(row.status, row.status_label),
                                rx.text(rx.moment(row.date, format=DATE), size="1", color=rx.color("gray", 10)),
                                spacing="1")),
        _money(row.value),
        _amount(row.cash, weight="medium"),
        _money(row.placed_buys),
        _amount(row.cash_after),
        _money(row.min_cash),
        _amount(row.cash_to_invest, weight="medium"),
        _hover={"background": rx.color("gray", 3)},
        class_name="report-row",
    )


def _cash_totals() -> rx.Component:
    S = CashReportState
    strong = {"weight": "bold"}
    return rx.table.row(
        rx.table.cell(rx.text("Total", weight="bold")),
        rx.table.cell(""), rx.table.cell(""),
        _money(S.totals.value, **strong),
        _amount(S.total_amount, **strong),
        _money(S.totals.placed_buys, **strong),
        _money(S.totals.cash_after, **strong),
        _money(S.totals.min_cash, **strong),
        _amount(S.totals.cash_to_invest, **strong),
        background=rx.color("gray", 2),
        id="report-totals",
    )


def cash_report_page() -> rx.Component:
    S = CashReportState
    columns = [("Portfolio", "portfolio_name", "left"), ("Model", "model", "left"), ("Status", "date", "left"),
               ("Value", "value", "right"), ("Cash", "cash", "right"),
               ("Placed buys", "placed_buys", "right"), ("After trades", "cash_after", "right"), ("Min. cash", "min_cash", "right"),
               ("To invest", "cash_to_invest", "right")]
    return page(
        "Cash report",
        _toolbar(S, "Total cash"),
        _table(S, columns, _cash_row, CASH_EMPTY, _cash_totals()),
        rx.text("Cash is the executed cash balance today; cash after trades and the minimum cash come from the "
                "target portfolio; placed buys are the buys with the broker not executed yet (their cash is "
                "committed); to invest is the cash above the placed buys and the minimum cash (in red: the cash "
                "to raise).",
                size="1", color=rx.color("gray", 10)),
        crumbs=[("Reports", None), ("Cash report", None)],
        actions=_actions(S),
    )


# ---- pending target portfolios ------------------------------------------------------------------------
def _pending_row(row: Any) -> rx.Component:
    S = PendingReportState
    return rx.table.row(
        _portfolio(row, S),
        _model(row),
        rx.table.cell(rx.vstack(
            _status(row.status, row.status_label),
            rx.cond(row.error_message != "",
                    rx.text(row.error_message, size="1", color=rx.color("red", 11), max_width="260px",
                            class_name="tp-error")),
            spacing="1",
        )),
        rx.table.cell(rx.vstack(
            rx.moment(row.date, format=DATE),
            rx.text(row.calculated_by, size="1", color=rx.color("gray", 10), class_name="report-calculated-by"),
            spacing="0", align="end",
        ), **NUMBER),
        rx.table.cell(row.days_waiting, **NUMBER),
        _money(row.value),
        rx.table.cell(
            rx.icon_button(rx.icon("arrow-right", size=14), size="1", variant="ghost", color_scheme="gray",
                           aria_label="Open the target portfolio", on_click=AppState.navigate(row.url),
                           class_name="open-target"),
            text_align="right", width="40px",
        ),
        _hover={"background": rx.color("gray", 3)},
        class_name="report-row",
    )


def _pending_totals() -> rx.Component:
    S = PendingReportState
    return rx.table.row(
        rx.table.cell(rx.text("Total", weight="bold")),
        *[rx.table.cell("") for _ in range(4)],
        _amount(S.total_amount, weight="bold"),
        rx.table.cell(""),
        background=rx.color("gray", 2),
        id="report-totals",
    )


def pending_report_page() -> rx.Component:
    S = PendingReportState
    columns = [("Portfolio", "portfolio_name", "left"), ("Model", "model", "left"), ("Status", "status", "left"),
               ("Calculated", "date", "right"), ("Days waiting", "days_waiting", "right"),
               ("Value", "value", "right"), ("", "", "left")]
    nec = rx.hstack(
        rx.switch(checked=S.not_enough_cash, on_change=S.set_not_enough_cash, id="not-enough-cash"),
        label_for("Not Enough Cash only", control="not-enough-cash", weight="regular"),
        align="center", spacing="2",
    )
    live = rx.cond(S.live, rx.tooltip(rx.badge(rx.icon("radio", size=12), "Live", color_scheme="green", variant="soft",
                                               id="report-live"),
                                      content="Reloads by itself when a target portfolio of the firm changes"))
    return page(
        "Pending target portfolios",
        _toolbar(S, "Total value", nec, live),
        _table(S, columns, _pending_row, PENDING_EMPTY, _pending_totals()),
        # the heartbeat that keeps the live reloads going while the page is open
        rx.moment(interval=HEARTBEAT_MS, format="x", on_change=S.heartbeat, display="none"),
        crumbs=[("Reports", None), ("Pending target portfolios", None)],
        actions=_actions(S),
    )


def register(app: rx.App) -> None:
    app.add_page(cash_report_page, route=routes.ROUTES["reports.cash"], title=f"Cash report | {TITLE}",
                 on_load=[AppState.check_login, CashReportState.on_load])
    app.add_page(pending_report_page, route=routes.ROUTES["reports.pending-target-portfolios"],
                 title=f"Pending target portfolios | {TITLE}",
                 on_load=[AppState.check_login, PendingReportState.on_load])
