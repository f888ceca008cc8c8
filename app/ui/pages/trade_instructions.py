"""portfolios.trade-instructions, portfolios.trade-instructions-version and
portfolios.trade-instructions-versions: a portfolio's trade recommendations with their status,
summary, transactions and "please note" items, editing, validation and approval, the history
dialog, and the versions list (spec 001 s2-s9, 002 s2/s4/s8/s9)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.capital_gains import capital_gains_panel
from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.widgets import (
    cancel_button, clickable_row, download_button, empty_row, field, field_error, list_count, list_footer, modal,
    page_controls, pagination, plain_header, table_card, table_rows, text_input,
)
from app.ui.pages.target_portfolio import advice_versions_page
from app.ui.states.advice_versions import VERSION_PAGE_SIZES
from app.ui.states.base import AppState
from app.ui.rows.trade_instructions import HistoryRow, NoteRow, TxRow, VersionRow
from app.ui.states.trade_instructions import (
    ACTIONS, EMPTY, TITLE as SCREEN_TITLE, TradeInstructionVersionsState, TradeInstructionsState,
)
from app.ui.toolkit.badges import TI_COLORS, TX_COLORS, color_match

S = TradeInstructionsState
V = TradeInstructionVersionsState
TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
MUTED = {"size": "1", "color": rx.color("gray", 10)}


def _date(value: Any, fmt: str = "DD/MM/YYYY") -> rx.Component:
    return rx.cond(value != "", rx.moment(value, format=fmt), rx.fragment())


# ---- status and summary ------------------------------------------------------------------------------
def _acted() -> rx.Component:
    return rx.hstack(
        rx.text(S.actor_label, size="2", color=rx.color("gray", 11)),
        rx.cond(S.acted_by != "", rx.text(S.acted_by, size="2", weight="medium")),
        rx.cond(S.acted_at != "", rx.hstack(rx.text("on", size="2", color=rx.color("gray", 11)),
                                            rx.text(_date(S.acted_at), size="2", weight="medium"), spacing="1")),
        spacing="1", align="baseline", wrap="wrap", id="ti-acted",
    )


def _status_card() -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.hstack(
                    rx.badge(S.status_label, color_scheme=color_match(TI_COLORS, S.status), size="2", variant="soft",
                             id="ti-status", custom_attrs={"data-status": S.status}),
                    rx.text("Version " + S.version.to_string(), size="2", color=rx.color("gray", 10), id="ti-version"),
                    rx.cond(S.read_only & ~S.is_version_view,
                            rx.badge("Read only", color_scheme="gray", variant="outline")),
                    spacing="3", align="center", wrap="wrap",
                ),
                _acted(),
                rx.cond(S.auto_approve_at != "", rx.hstack(
                    rx.icon("clock", size=14, color=rx.color("gray", 10)),
                    rx.text("Approved automatically on", **MUTED),
                    rx.text(_date(S.auto_approve_at, "DD/MM/YYYY HH:mm"), **MUTED),
                    spacing="1", align="center", id="ti-auto-approve",
                )),
                spacing="2",
            ),
            rx.spacer(),
            _decision_bar(),
            wrap="wrap", gap="12px", align="center", width="100%",
        ),
        width="100%", size="2",
    )


def _decision_bar() -> rx.Component:
    """Validate / Decline all while the adviser reviews; Approve all / Confirm while the client decides."""
    return rx.flex(
        rx.cond(S.email_offered, rx.button(rx.icon("send", size=14), "Email", variant="soft", on_click=S.ask_email,
                                           id="ti-email", title="Send the trade recommendations again to the people "
                                                                 "the approval settings name")),
        rx.cond(S.can_validate, rx.fragment(
            rx.button(rx.icon("ban", size=14), "Decline all", variant="soft", color_scheme="red",
                      on_click=S.ask_decline_all, id="ti-decline-all"),
            rx.button(rx.icon("check-check", size=14), "Validate", on_click=S.ask_validate, id="ti-validate",
                      loading=S.busy),
        )),
        rx.cond(S.show_decisions, rx.fragment(
            rx.text(S.decided_text, size="2", color=rx.color("gray", 11), id="ti-decided"),
            rx.button(rx.icon("check-check", size=14), "Approve all", variant="soft", color_scheme="green",
                      on_click=S.approve_all, id="ti-approve-all"),
            rx.button("Confirm", on_click=S.ask_confirm, id="ti-confirm", disabled=S.decided_count == 0,
                      loading=S.busy),
        )),
        gap="8px", wrap="wrap", align="center",
    )


def _figure(label: str, value: Any, id_: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(label, size="1", color=rx.color("gray", 10), weight="medium"),
            rx.skeleton(rx.text(value, size=rx.breakpoints(initial="4", sm="5"), weight="bold", id=id_,
                                font_variant_numeric="tabular-nums"), loading=S.loading),
            spacing="1",
        ),
        width="100%", size="2",
    )


def _summary() -> rx.Component:
    return rx.grid(
        _figure("Buys", S.summary.buys, "ti-buys"),
        _figure("Sells", S.summary.sells, "ti-sells"),
        _figure("Brokerage", S.summary.brokerage, "ti-brokerage"),
        _figure("Min trade amount", S.summary.min_trade_amount, "ti-min-trade"),
        columns=rx.breakpoints(initial="2", md="4"), spacing="3", width="100%",
    )


# ---- decisions ----------------------------------------------------------------------------------------
def _choices(key: Any, awaiting: Any, choice: Any, label: Any, color: Any, on_card: bool = False) -> rx.Component:
    """Approve / Decline of one item while it awaits the client (pressed: aria-pressed), else its status.
    On a trade's card (a phone) the buttons share the card's width and are 44 px tall
    (`card-choices` in assets/styles.css)."""
    prefix = "card" if on_card else "choose"
    return rx.cond(
        awaiting,
        rx.hstack(
            rx.button(rx.icon("check", size=14), "Approve", size=("3" if on_card else "1"), color_scheme="green",
                      variant=rx.cond(choice == "approved", "solid", "soft"), on_click=S.choose(key, "approved"),
                      class_name=f"{prefix}-approve", aria_pressed=rx.cond(choice == "approved", "true", "false")),
            rx.button(rx.icon("x", size=14), "Decline", size=("3" if on_card else "1"), color_scheme="red",
                      variant=rx.cond(choice == "declined", "solid", "soft"), on_click=S.choose(key, "declined"),
                      class_name=f"{prefix}-decline", aria_pressed=rx.cond(choice == "declined", "true", "false")),
            spacing="2", class_name="card-choices" if on_card else "choices", custom_attrs={"data-choice": choice},
            width="100%" if on_card else "auto",
        ),
        rx.badge(label, color_scheme=color, variant="soft", class_name="card-status" if on_card else "item-status"),
    )


# ---- transactions -------------------------------------------------------------------------------------
def _flags(row: TxRow) -> rx.Component:
    return rx.hstack(
        rx.cond(row.urgent, rx.badge("Urgent", color_scheme="amber", variant="soft", size="1", class_name="flag-urgent")),
        rx.cond(row.stop_loss, rx.badge("Stop loss", color_scheme="red", variant="soft", size="1",
                                        class_name="flag-stop-loss")),
        rx.cond(row.full_sell, rx.badge("Full sell", color_scheme="gray", variant="soft", size="1",
                                        class_name="flag-full-sell")),
        spacing="1", wrap="wrap",
    )


def _edit_input(name: str, value: Any, on_change: Any, field_name: str) -> rx.Component:
    """An inline field of the transaction being edited, with the service's error for `field_name` under it."""
    error = S.edit_errors.get(field_name, "")
    return rx.vstack(
        rx.input(value=value, on_change=on_change, size="1", width="96px", input_mode="decimal", name=name,
                 class_name=name, color_scheme=rx.cond(error != "", "red", "gray"), text_align="right"),
        field_error(error, max_width="160px", white_space="normal"),
        spacing="1", align="end",
    )


def _tx_actions(row: TxRow) -> rx.Component:
    editing = S.editing_key == row.key
    return rx.cond(
        editing,
        rx.hstack(
            rx.icon_button(rx.icon("check", size=14), size="1", on_click=S.save_edit, aria_label="Save",
                           class_name="tx-save"),
            rx.icon_button(rx.icon("x", size=14), size="1", variant="soft", color_scheme="gray", on_click=S.cancel_edit,
                           aria_label="Cancel", class_name="tx-cancel"),
            spacing="1",
        ),
        rx.hstack(
            rx.icon_button(rx.icon("pencil", size=14), size="1", variant="ghost", color_scheme="gray",
                           on_click=S.start_edit(row.key), aria_label="Edit units and price", class_name="tx-edit"),
            rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost", color_scheme="red",
                           on_click=S.ask_delete(row.key), aria_label="Delete transaction", class_name="tx-delete"),
            spacing="2",
        ),
    )


def _tx_row(row: TxRow) -> rx.Component:
    editing = S.editing_key == row.key
    return rx.table.row(
        rx.table.cell(rx.vstack(rx.text(row.code, weight="bold", size="2", class_name="tx-code"), _flags(row),
                                spacing="1"), min_width="90px"),
        rx.table.cell(rx.badge(row.action, color_scheme=rx.cond(row.action == "BUY", "green", "red"), variant="soft",
                               class_name="tx-action")),
        rx.cond(S.show_decisions, rx.table.cell(_choices(row.key, row.awaiting, row.choice, row.status_label,
                                                         color_match(TX_COLORS, row.status)))),
        rx.table.cell(rx.cond(editing, _edit_input("edit-units", S.edit_units, S.set_edit_units, "quantity"),
                              rx.text(row.units, class_name="tx-units")), **NUMBER),
        rx.table.cell(rx.cond(editing, _edit_input("edit-price", S.edit_price, S.set_edit_price, "price"),
                              rx.text(row.price, class_name="tx-price")), **NUMBER),
        rx.table.cell(rx.cond(row.limit_price != "", row.limit_price, "-"), **NUMBER),
        rx.table.cell(rx.text(row.value, class_name="tx-value"), **NUMBER),
        rx.table.cell(rx.text(row.brokerage, class_name="tx-brokerage"), **NUMBER),
        rx.table.cell(rx.vstack(rx.text(row.amount, class_name="tx-amount"),
                                rx.cond(row.cost_base != "", rx.text(row.cost_base, **MUTED, class_name="tx-cost-base")),
                                spacing="0", align="end"),
                      **NUMBER),
        rx.table.cell(rx.text(row.pending, class_name="tx-pending"), **NUMBER),
        rx.table.cell(rx.vstack(
            rx.badge(row.status_label, color_scheme=color_match(TX_COLORS, row.status), variant="soft",
                     class_name="tx-status"),
            rx.cond(row.user_action != "", rx.text(row.user_action, **MUTED, white_space="nowrap")),
            spacing="1")),
        rx.table.cell(rx.vstack(
            rx.text(row.rec_action, size="2", weight="medium", class_name="tx-rec-action"),
            rx.cond(row.rec_comment != "", rx.text(row.rec_comment, **MUTED, class_name="tx-rec-comment")),
            spacing="0"), min_width="120px", max_width="260px"),
        rx.cond(S.can_edit, rx.table.cell(_tx_actions(row), text_align="right")),
        align="center", class_name="tx-row",
        custom_attrs={"data-code": row.code, "data-key": row.key},
    )


def _card_figure(label: str, value: Any, class_name: str) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color=rx.color("gray", 10)),
        rx.text(value, size="3", weight="medium", class_name=class_name, font_variant_numeric="tabular-nums",
                white_space="nowrap"),
        spacing="0", min_width="0",
    )


def _tx_card(row: TxRow) -> rx.Component:
    """A trade as a card (phones, read-only and deciding views): the asset and its side, then units,
    price and amount, the recommendation, and the decision right under them, so that the client sees
    the trade beside the buttons that decide it."""
    return rx.el.li(
        rx.vstack(
            rx.flex(
                rx.vstack(rx.text(row.code, weight="bold", size="3", class_name="card-code"), _flags(row), spacing="1"),
                rx.badge(rx.cond(row.action == "BUY", "Buy", "Sell"), color_scheme=rx.cond(row.action == "BUY", "green", "red"),
                         variant="soft", size="2", class_name="card-action"),
                justify="between", align="start", gap="8px", width="100%",
            ),
            rx.flex(  # side by side; on the narrowest screens the amount goes under them rather than off the card
                _card_figure("Units", row.units, "card-units"),
                _card_figure("Price", row.price, "card-price"),
                _card_figure("Amount", row.amount, "card-amount"),
                wrap="wrap", gap="8px 24px", width="100%",
            ),
            rx.cond((row.limit_price != "") | (row.cost_base != ""), rx.hstack(
                rx.cond(row.limit_price != "", rx.text("Limit price ", row.limit_price, **MUTED)),
                rx.cond(row.cost_base != "", rx.text("Cost base ", row.cost_base, **MUTED)),
                spacing="3", wrap="wrap",
            )),
            rx.cond(row.rec_action != "", rx.text(
                row.rec_action, rx.cond(row.rec_comment != "", ": " + row.rec_comment, ""), **MUTED)),
            rx.cond(S.show_decisions,
                    _choices(row.key, row.awaiting, row.choice, row.status_label, color_match(TX_COLORS, row.status),
                             on_card=True),
                    rx.badge(row.status_label, color_scheme=color_match(TX_COLORS, row.status), variant="soft",
                             class_name="card-status")),
            spacing="3", width="100%",
        ),
        class_name="tx-card",
        custom_attrs={"data-code": row.code, "data-key": row.key},
    )


def _tx_cards() -> rx.Component:
    """The transactions as cards below 768 px wide (assets/styles.css), where the table would hide units,
    price and amount in its sideways scroll. Not while the adviser edits: the table has the inline editing."""
    return rx.cond(
        ~S.can_edit & ~S.loading & (S.transactions.length() > 0),
        rx.el.ul(rx.foreach(S.transactions, _tx_card), class_name="wa-narrow-only tx-cards", id="ti-cards",
                 aria_label="Transactions"),
    )


def _transactions() -> rx.Component:
    header = rx.table.row(
        plain_header("Code"),
        plain_header("Action"),
        rx.cond(S.show_decisions, plain_header("Decision")),
        rx.table.column_header_cell("Units", text_align="right"),
        rx.table.column_header_cell("Price", text_align="right"),
        rx.table.column_header_cell("Limit price", text_align="right"),
        rx.table.column_header_cell("Value", text_align="right"),
        rx.table.column_header_cell("Brokerage", text_align="right"),
        rx.table.column_header_cell("Amount / Cost base", text_align="right", min_width="96px"),
        rx.table.column_header_cell("Pending", text_align="right"),
        plain_header("Status"),
        plain_header("Recommendation"),
        rx.cond(S.can_edit, plain_header("")),
    )
    body = table_rows(S.transactions, _tx_row, 10, loading=S.loading, skeleton=3,
                      empty=empty_row(13, "There are no transactions in these trade recommendations."),
                      id="ti-transactions")
    return rx.vstack(
        rx.hstack(
            rx.heading("Transactions", size="3", as_="h2"),
            rx.spacer(),
            rx.cond(S.can_edit, rx.button(rx.icon("plus", size=14), "Add transaction", size="2", variant="soft",
                                          on_click=S.open_add, id="ti-add")),
            width="100%", align="center",
        ),
        rx.box(table_card(header, body), width="100%",
               class_name=rx.cond(~S.can_edit & ~S.loading & (S.transactions.length() > 0), "wa-wide-only", "")),
        _tx_cards(),
        spacing="2", width="100%",
    )


# ---- please note ---------------------------------------------------------------------------------------
def _note(row: NoteRow) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.hstack(rx.cond(row.code != "", rx.badge(row.code, variant="outline", color_scheme="gray")),
                      rx.text(row.text, size="2", class_name="note-text"), spacing="2", align="center", wrap="wrap"),
            rx.cond(row.trade != "", rx.text(row.trade, **MUTED, font_variant_numeric="tabular-nums")),
            rx.cond(row.comment != "", rx.text(row.comment, **MUTED)),
            spacing="1", flex="1", min_width="0",
        ),
        rx.cond(S.show_decisions,
                _choices(row.key, row.awaiting, row.choice, row.state_label,
                         rx.match(row.state, ("approved", "green"), ("declined", "red"), "gray")),
                rx.badge(row.state_label, variant="soft", class_name="note-state",
                         color_scheme=rx.match(row.state, ("approved", "green"), ("declined", "red"), "gray"))),
        gap="12px", wrap="wrap", align="center", width="100%", padding_y="8px",
        border_bottom=f"1px solid {rx.color('gray', 4)}", class_name="note-row",
        custom_attrs={"data-key": row.key},
    )


def _notes() -> rx.Component:
    return rx.cond(
        S.notes.length() > 0,
        rx.card(
            rx.vstack(
                rx.hstack(rx.icon("info", size=16, color=rx.color("accent", 10)), rx.heading("Please note", size="3", as_="h2"),
                          spacing="2", align="center"),
                rx.vstack(rx.foreach(S.notes, _note), spacing="0", width="100%"),
                spacing="2", width="100%",
            ),
            width="100%", size="2", id="ti-notes",
        ),
    )


# ---- dialogs ----------------------------------------------------------------------------------------------
def _ask_dialog() -> rx.Component:
    label = rx.match(S.confirm_action, ("calculate", "Calculate"), ("validate", "Validate"),
                     ("decline_all", "Decline all"), ("confirm", "Confirm"), ("confirm_leave", "Confirm"),
                     ("delete", "Delete"), ("email", "Send"), "OK")
    color = rx.match(S.confirm_action, ("decline_all", "red"), ("delete", "red"), "indigo")
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Please confirm", custom_attrs={"as": "h2"}),
            rx.alert_dialog.description(S.confirm_message, id="confirm-message"),
            rx.hstack(
                cancel_button(on_click=S.cancel_confirm, id="confirm-cancel"),
                rx.button(label, color_scheme=color, on_click=S.confirm, id="confirm-ok"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="440px",
        ),
        open=S.confirm_open,
    )


def _add_field(label: str, key: str, id_: str, required: bool = True, hint: str = "", **props: Any) -> rx.Component:
    """A text field of the add dialog (an attribute of S.form), with its error under it."""
    error = S.form_errors.get(key, "")
    control = text_input(id_, getattr(S.form, key), lambda value: S.set_form_field(key, value), error, **props)
    return field(label, control, error, required=required, hint=hint)


def _add_dialog() -> rx.Component:
    return modal(
        "Add transaction",
        rx.dialog.description("A transaction added to these trade recommendations before they are validated.",
                              size="2", color=rx.color("gray", 10)),
        rx.vstack(
            _add_field("Code", "code", "add-code", placeholder="e.g. BHP", auto_complete="off"),
            field("Action", rx.select.root(
                rx.select.trigger(id="add-action", width="100%"),
                rx.select.content(*[rx.select.item(label, value=value) for value, label in ACTIONS]),
                value=S.form.action, on_change=lambda value: S.set_form_field("action", value),
            ), required=True),
            _add_field("Units", "quantity", "add-units", input_mode="decimal"),
            _add_field("Price", "price", "add-price", required=False, hint="Leave empty for the last close price.",
                       input_mode="decimal"),
            rx.cond(S.add_error != "", rx.callout(S.add_error, icon="triangle-alert", color_scheme="red", size="1",
                                                   id="add-error", width="100%")),
            spacing="3", width="100%", margin_top="12px",
        ),
        rx.hstack(
            cancel_button(on_click=S.close_form, id="add-cancel"),
            rx.button("Add", on_click=S.save_add, loading=S.saving, id="add-save"),
            justify="end", spacing="3", margin_top="16px",
        ),
        open_=S.form_open, on_open_change=S.set_form_open, max_width="440px", id_="add-dialog",
    )


def _history_row(row: HistoryRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(_date(row.created_at, "DD/MM/YYYY HH:mm"), white_space="nowrap",
                      font_variant_numeric="tabular-nums"),
        rx.table.cell(rx.cond(row.who != "", row.who, "System"), white_space="nowrap"),
        rx.table.cell(rx.text(row.action, weight="medium", size="2"), white_space="nowrap"),
        rx.table.cell(rx.text(row.detail, size="2", color=rx.color("gray", 11))),
        class_name="history-row",
    )


def _history_dialog() -> rx.Component:
    return modal(
        "History",
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(plain_header("Date"), plain_header("User"), plain_header("Action"),
                                             plain_header("Detail"))),
                rx.table.body(rx.cond(S.history_rows.length() == 0,
                                      empty_row(4, rx.cond(S.history_loading, "Loading...", "No history yet.")),
                                      rx.foreach(S.history_rows, _history_row)), id="history-table"),
                size="1", variant="ghost", width="100%",
            ),
            overflow_x="auto", max_height="60vh", overflow_y="auto", width="100%",
        ),
        rx.hstack(
            rx.text(S.history_total.to_string() + " actions", **MUTED),
            rx.spacer(),
            rx.cond(S.history_pages > 1, pagination(S.history_page, S.history_pages, S.history_visible, S.history_go)),
            rx.button("Close", variant="soft", color_scheme="gray", on_click=S.set_history_open(False),
                      id="history-close"),
            spacing="3", align="center", margin_top="12px", wrap="wrap",
        ),
        open_=S.history_open, on_open_change=S.set_history_open, max_width="760px", id_="history-dialog",
    )


# ---- the page -------------------------------------------------------------------------------------------
def _download(label: str, icon: str, path: Any, id_: str) -> rx.Component:
    return download_button(label, icon, path, id_, color_scheme="gray")


def _actions() -> rx.Component:
    return rx.flex(
        rx.cond(S.exists, rx.fragment(_download("Excel", "file-spreadsheet", S.excel_path, "ti-export-excel"),
                                      _download("PDF", "file-text", S.pdf_path, "ti-export-pdf"))),
        rx.cond(S.exists, rx.button(rx.icon("history", size=14), "History", variant="soft", color_scheme="gray",
                                    on_click=S.open_history, id="ti-history")),
        rx.button(rx.icon("layers", size=14), "Versions", variant="soft", color_scheme="gray",
                  on_click=AppState.navigate(S.versions_url), id="ti-versions"),
        rx.cond(S.is_version_view, rx.button("Current", variant="soft", on_click=AppState.navigate(S.current_url),
                                             id="ti-current")),
        _calculate_button("ti-calculate"),
        gap="8px", wrap="wrap",
    )


def _calculate_button(id_: str) -> rx.Component:
    """'Calculate Trade Recommendations' where the role rule offers it (001 s6); disabled, with the
    reason in its tooltip and beside it, while the model's recommendations or a target portfolio
    are missing."""
    button = rx.button(rx.icon("calculator", size=14), "Calculate Trade Recommendations", on_click=S.ask_calculate,
                       disabled=~S.can_calculate, id=id_)
    return rx.cond(S.calculate_offered, rx.cond(
        S.can_calculate,
        button,
        rx.hstack(
            rx.tooltip(rx.box(button, tab_index=0), content=S.calculate_reason),
            rx.text(S.calculate_reason, size="1", color=rx.color("gray", 11), id=id_ + "-reason"),
            spacing="2", align="center", wrap="wrap",
        ),
    ))


def _content() -> rx.Component:
    return rx.cond(
        S.loading,
        rx.vstack(rx.skeleton(rx.box(height="72px", width="100%"), loading=True), _summary(), _transactions(),
                  width="100%", spacing="4"),
        rx.cond(
            S.exists,
            rx.vstack(
                _status_card(),
                rx.cond(S.error_message != "", rx.callout(S.error_message, icon="triangle-alert", color_scheme="red",
                                                           id="ti-error", width="100%")),
                _summary(),
                _transactions(),
                _notes(),
                capital_gains_panel(S.capital_gains),
                width="100%", spacing="4",
            ),
            rx.card(
                rx.vstack(
                    rx.icon("receipt-text", size=28, color=rx.color("gray", 8)),
                    rx.text(EMPTY, color=rx.color("gray", 10), text_align="center"),
                    _calculate_button("ti-calculate-empty"),
                    align="center", spacing="3", padding_y="32px",
                ),
                width="100%", id="ti-empty",
            ),
        ),
    )


def trade_instructions_page() -> rx.Component:
    title = rx.hstack(
        rx.text(S.page_title),
        rx.cond(S.inactive, rx.badge("Inactive", color_scheme="amber", variant="soft", size="2")),
        spacing="3", align="center", wrap="wrap",
    )
    return page(
        title,
        _content(),
        _ask_dialog(),
        _add_dialog(),
        _history_dialog(),
        crumbs=portfolio_crumbs(S, (S.page_title, None)),
        actions=_actions(),
        on_save_leave=S.save_and_leave,
    )


# ---- versions ---------------------------------------------------------------------------------------------
def _version_row(row: VersionRow) -> rx.Component:
    return clickable_row(
        rx.table.cell(rx.text("Version " + row.version.to_string(), weight="medium", class_name="version-number"),
                      white_space="nowrap"),
        rx.table.cell(rx.badge(row.status_label, color_scheme=color_match(TI_COLORS, row.status), variant="soft",
                               class_name="version-status")),
        rx.table.cell(_date(row.created_at, "DD/MM/YYYY HH:mm"), white_space="nowrap", font_variant_numeric="tabular-nums"),
        rx.table.cell(row.creator, white_space="nowrap"),
        rx.table.cell(rx.hstack(rx.text(row.acted_label, **MUTED), rx.text(row.acted_by, size="2"),
                                rx.text(_date(row.acted_at), **MUTED), spacing="1", align="baseline"),
                      white_space="nowrap"),
        rx.table.cell(rx.text(row.error, size="1", color=rx.color("red", 11)), max_width="320px"),
        href=row.url,
        class_name="version-row",
    )


def versions_page() -> rx.Component:
    header = rx.table.row(plain_header("Version"), plain_header("Status"), plain_header("Created"),
                          plain_header("Calculated by"), plain_header("Last step"), plain_header(""))
    body = table_rows(V.rows, _version_row, 6, loading=V.loading, skeleton=4,
                      empty=empty_row(6, "There are no trade recommendations for this portfolio yet."),
                      id="versions-table")
    footer = list_footer(list_count(V.showing, id_="versions-showing"), page_controls(V, VERSION_PAGE_SIZES))
    return advice_versions_page(V, SCREEN_TITLE, table_card(header, body, footer))


def register(app: rx.App) -> None:
    for name in ("portfolios.trade-instructions", "portfolios.trade-instructions-version"):
        app.add_page(trade_instructions_page, route=routes.ROUTES[name], title=f"{SCREEN_TITLE} | {TITLE}",
                     on_load=[AppState.check_login, TradeInstructionsState.on_load])
    app.add_page(versions_page, route=routes.ROUTES["portfolios.trade-instructions-versions"],
                 title=f"Trade Recommendations Versions | {TITLE}",
                 on_load=[AppState.check_login, TradeInstructionVersionsState.on_load])
