"""A portfolio's transaction screens (spec 002 s2): portfolios.cash-transactions (the cash list with
its balance, the cash, opening balance and detail modals), portfolios.asset-transactions (the asset
panel whose rows expand to their transactions) and portfolios.add-transaction (the asset screen with
the add-transaction form open). Breadcrumbs: Portfolios > the portfolio (model) > its owners."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.toolkit.screen import open_upload_events
from app.ui.components.asset_picker import asset_picker
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.transaction_forms import (
    asset_transaction_modal, cash_detail_modal, cash_transaction_modal, delete_confirm, opening_balance_modal,
    recreate_confirm, upload_failure_dialog, upload_modal,
)
from app.ui.components.widgets import (
    empty_row, list_footer, page_controls, plain_header, row_menu, sort_header, table_card, table_rows,
)
from app.ui.states.base import AppState
from app.ui.rows.transactions import CashRow, PanelRow, TxRow
from app.ui.states.transactions import (
    FILTER_OPTIONS, PAGE_SIZES, AssetTransactionsState, CashTransactionsState, Option,
)

TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
WIDE = ["none", "table-cell"]  # columns a phone leaves out (the table still scrolls inside its card)
C = CashTransactionsState
A = AssetTransactionsState


# ---- shared parts ----------------------------------------------------------------------------------
def _figure(label: str, value: Any, id_: str, loading: Any, color: Any = None, hint: Any = None) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(label, size="1", color=rx.color("gray", 10), weight="medium"),
            rx.skeleton(rx.text(value, size=rx.breakpoints(initial="4", sm="5"), weight="bold", id=id_,
                                font_variant_numeric="tabular-nums", color=color if color is not None else rx.color("gray", 12)),
                        loading=loading),
            hint if hint is not None else rx.fragment(),
            spacing="1",
        ),
        width="100%", size="2",
    )


def _signed_color(sign: Any) -> Any:
    return rx.match(sign, ("up", rx.color("green", 11)), ("down", rx.color("red", 11)), rx.color("gray", 12))


def _status(label: Any, color: Any) -> rx.Component:
    return rx.badge(label, variant="soft", color_scheme=color, class_name="tx-status")


def _sort(state: Any, label: str, key: str, align: str = "left") -> rx.Component:
    return sort_header(label, key, state.sort, state.order, state.toggle_sort, align=align)


def _number_header(state: Any, label: str, key: str) -> rx.Component:
    return _sort(state, label, key, align="right")


def _wide_header(label: str) -> rx.Component:
    return rx.table.column_header_cell(label, white_space="nowrap", display=WIDE)


def _upload_parts(state: Any) -> rx.Component:
    return rx.fragment(upload_modal(state), upload_failure_dialog(state))


def _ledger_actions(state: Any, prefix: str, links: list[tuple[str, str, Any, str]], can_upload: Any) -> rx.Component:
    """A ledger's Actions menu (ids <prefix>-actions, <prefix>-upload): its links to the portfolio's
    other ledgers (icon, label, url, id), then Upload transactions for those who may add them."""
    item = rx.menu.item
    return rx.menu.root(
        rx.menu.trigger(rx.button("Actions", rx.icon("chevron-down", size=14), variant="soft", id=f"{prefix}-actions")),
        rx.menu.content(
            *[item(rx.icon(icon, size=14), label, on_click=AppState.navigate(url), id=id_)
              for icon, label, url, id_ in links],
            rx.cond(can_upload, rx.fragment(
                rx.menu.separator(),
                item(rx.icon("upload", size=14), "Upload transactions", on_click=open_upload_events(state),
                     id=f"{prefix}-upload"),
            )),
            align="end",
        ),
    )


def _asset_parts(state: Any, picker: bool = False) -> rx.Component:
    """The asset transaction modal with its confirmations (and, where transactions are added, the
    asset picker)."""
    return rx.fragment(asset_transaction_modal(state), recreate_confirm(state), delete_confirm(state),
                       asset_picker(on_pick=state.asset_picked, id_prefix="tx-asset-picker") if picker else rx.fragment())


# ---- portfolios.cash-transactions ------------------------------------------------------------------
def _cash_actions() -> rx.Component:
    item = rx.menu.item
    add_menu = rx.menu.root(
        rx.menu.trigger(rx.button(rx.icon("plus", size=14), "Add", rx.icon("chevron-down", size=14), id="cash-add")),
        rx.menu.content(
            item(rx.icon("arrow-down-left", size=14), "Credit", on_click=C.open_cash("credit"), id="cash-add-credit"),
            item(rx.icon("arrow-up-right", size=14), "Withdrawal", on_click=C.open_cash("withdrawal"),
                 id="cash-add-withdrawal"),
            item(rx.icon("hand-coins", size=14), "Income", on_click=C.open_cash("income"), id="cash-add-income"),
            rx.menu.separator(),
            item(rx.icon("flag", size=14), "Opening balance", on_click=C.open_opening, id="cash-opening"),
            align="end",
        ),
    )
    more = _ledger_actions(C, "cash", [("arrow-left-right", "Asset transactions", C.links.assets, "cash-to-assets"),
                                       ("landmark", "Term deposits", C.links.deposits, "cash-to-deposits")], C.can_edit)
    return rx.hstack(rx.cond(C.can_edit, add_menu), more, spacing="2", align="center")


def _cash_cards() -> rx.Component:
    return rx.grid(
        _figure("Balance", C.balance, "cash-balance", C.loading,
                rx.cond(C.balance_negative, rx.color("red", 11), rx.color("gray", 12))),
        _figure("Cash in", C.cash_in, "cash-in", C.loading),
        _figure("Cash out", C.cash_out, "cash-out", C.loading),
        columns=rx.breakpoints(initial="2", md="3"), spacing="3", width="100%",
    )


def _cash_row_menu(row: CashRow) -> rx.Component:
    item = rx.menu.item
    return row_menu(
        item(rx.icon("eye", size=14), "View", on_click=C.open_detail(row.id), class_name="cash-view"),
        rx.cond(row.linked_id > 0, item(rx.icon("arrow-left-right", size=14), "View asset transaction",
                                        on_click=C.open_asset_view(row.linked_id), class_name="cash-view-linked")),
        rx.cond(C.can_edit & row.can_edit,
                item(rx.icon("pencil", size=14), "Edit", on_click=C.open_cash_edit(row.id), class_name="cash-edit")),
        rx.cond(C.can_edit & row.is_opening,
                item(rx.icon("pencil", size=14), "Edit opening balance", on_click=C.open_opening, class_name="cash-edit-ob")),
        rx.cond(C.can_act & (row.linked_id > 0),
                item(rx.icon("pencil", size=14), "Edit asset transaction", on_click=C.open_asset_edit(row.linked_id),
                     class_name="cash-edit-linked")),
        rx.cond(C.can_edit & row.can_delete, rx.fragment(
            rx.menu.separator(),
            item(rx.icon("trash-2", size=14), "Delete", color="red", on_click=C.ask_delete_cash(row.id),
                 class_name="cash-delete"),
        )),
    )


def _cash_line(row: CashRow) -> rx.Component:
    muted = ~row.counted
    return rx.table.row(
        rx.table.cell(row.date, white_space="nowrap", font_variant_numeric="tabular-nums"),
        rx.table.cell(rx.link(row.klass, href="#", on_click=C.open_detail(row.id).prevent_default, size="2",
                              weight="medium", class_name="cash-class"), white_space="nowrap"),
        rx.table.cell(rx.cond(row.asset != "", rx.code(row.asset, variant="ghost"), rx.fragment()), white_space="nowrap",
                      display=WIDE),
        rx.table.cell(rx.text(row.description, size="2", color=rx.color("gray", 11), overflow="hidden",
                              text_overflow="ellipsis", white_space="nowrap", max_width="280px"),
                      min_width="120px", display=WIDE),
        rx.table.cell(_status(row.status_label, row.status_color)),
        rx.table.cell(row.settlement, white_space="nowrap", font_variant_numeric="tabular-nums", display=WIDE),
        rx.table.cell(rx.text(row.amount, weight="medium",
                              color=rx.cond(row.negative, rx.color("red", 11), rx.color("gray", 12)),
                              text_decoration=rx.cond(muted, "line-through", "none"),
                              opacity=rx.cond(muted, "0.7", "1")),
                      class_name="cash-amount", **NUMBER),
        rx.table.cell(_cash_row_menu(row), text_align="right", width="48px"),
        class_name="cash-row", align="center",
        custom_attrs={"data-class": row.klass, "data-status": row.status, "data-counted": rx.cond(row.counted, "1", "0")},
        _hover={"background": rx.color("gray", 3)},
    )


def _cash_table() -> rx.Component:
    columns = 8
    header = rx.table.row(
        _sort(C, "Date", "date"), _sort(C, "Class", "type"), _wide_header("Asset"), _wide_header("Description"),
        _sort(C, "Status", "status"), _wide_header("Settlement"), _number_header(C, "Amount", "amount"),
        plain_header(""),
    )
    empty_action = rx.cond(C.can_edit, rx.hstack(
        rx.button(rx.icon("flag", size=14), "Opening balance", variant="soft", on_click=C.open_opening,
                  id="empty-opening"),
        rx.button(rx.icon("plus", size=14), "Add credit", variant="soft", on_click=C.open_cash("credit"),
                  id="empty-credit"),
        spacing="2"))
    body = table_rows(
        C.rows, _cash_line, columns, loading=C.loading,
        empty=empty_row(columns, "No cash transactions yet: an opening balance or a credit starts the record.",
                        empty_action),
        id="cash-body",
    )
    footer = list_footer(rx.text(C.count_text, size="1", color=rx.color("gray", 10), id="cash-count"),
                         page_controls(C, PAGE_SIZES))
    return table_card(header, body, footer)


def cash_transactions_page() -> rx.Component:
    return page(
        "Cash transactions",
        _cash_cards(),
        rx.text("Totals count executed transactions only; pending and processing ones are struck through.",
                size="1", color=rx.color("gray", 10)),
        _cash_table(),
        cash_transaction_modal(C),
        opening_balance_modal(C),
        cash_detail_modal(C),
        _asset_parts(C),
        _upload_parts(C),
        crumbs=portfolio_crumbs(C, ("Cash transactions", None)),
        actions=_cash_actions(),
    )


# ---- portfolios.asset-transactions -----------------------------------------------------------------
def _asset_actions() -> rx.Component:
    more = _ledger_actions(A, "asset", [("wallet", "Cash transactions", A.links.cash, "assets-to-cash")], A.can_act)
    add = rx.button(rx.icon("plus", size=14), "Add transaction", on_click=A.open_add("purchase", ""), id="asset-add")
    return rx.hstack(rx.cond(A.can_act, add), more, spacing="2", align="center")


def _asset_cards() -> rx.Component:
    unpriced = rx.cond(A.unpriced > 0, rx.text(A.unpriced.to_string() + " without a price", size="1",
                                               color=rx.color("amber", 11)))
    return rx.grid(
        _figure("Market value", A.total_value, "assets-value", A.loading, hint=unpriced),
        _figure("Cost base", A.total_cost, "assets-cost", A.loading),
        _figure("Unrealised gain/loss", A.total_unrealised, "assets-unrealised", A.loading,
                _signed_color(A.total_unrealised_sign)),
        _figure("Realised gain/loss", A.total_realised, "assets-realised", A.loading,
                _signed_color(A.total_realised_sign)),
        _figure("Cash balance", A.cash_balance, "assets-cash", A.loading,
                rx.cond(A.cash_negative, rx.color("red", 11), rx.color("gray", 12))),
        columns=rx.breakpoints(initial="2", md="3", lg="5"), spacing="3", width="100%",
    )


def _filter_chip(option: Option) -> rx.Component:
    on = A.filters.contains(option.value)
    return rx.button(rx.cond(on, rx.icon("check", size=12), rx.fragment()), option.label, size="1", type="button",
                     variant=rx.cond(on, "solid", "outline"), color_scheme=rx.cond(on, "indigo", "gray"),
                     on_click=A.toggle_filter(option.value), id=f"filter-{option.value}", class_name="panel-filter",
                     aria_pressed=rx.cond(on, "true", "false"),
                     radius="full")


def _filters() -> rx.Component:
    return rx.flex(
        rx.text("Show transactions:", size="2", color=rx.color("gray", 11)),
        *[_filter_chip(o) for o in FILTER_OPTIONS],
        rx.cond(A.filters.length() > 0, rx.button("All", size="1", variant="ghost", on_click=A.clear_filters,
                                                  id="filter-all")),
        gap="2", wrap="wrap", align="center", id="panel-filters",
    )


def _tx_line(tx: TxRow) -> rx.Component:
    item = rx.menu.item
    return rx.table.row(
        rx.table.cell(tx.date, white_space="nowrap", font_variant_numeric="tabular-nums"),
        rx.table.cell(rx.hstack(
            rx.link(tx.type_label, href="#", on_click=A.open_asset_view(tx.id).prevent_default, size="2",
                    weight="medium", class_name="tx-type"),
            rx.cond(tx.stop_loss != "", rx.badge(tx.stop_loss, color_scheme="orange", variant="soft",
                                                 class_name="tx-stop-loss")),
            spacing="2", align="center"), white_space="nowrap"),
        rx.table.cell(rx.cond(tx.status_label != "", _status(tx.status_label, tx.status_color),
                              rx.text("\u2014", color=rx.color("gray", 9)))),
        rx.table.cell(rx.text(tx.quantity, color=rx.cond(tx.negative, rx.color("red", 11), "inherit")),
                      class_name="tx-quantity", **NUMBER),
        rx.table.cell(tx.price, **NUMBER),
        rx.table.cell(tx.amount, class_name="tx-amount", **NUMBER),
        rx.table.cell(tx.fee, **NUMBER),
        rx.table.cell(rx.text(tx.description, size="1", color=rx.color("gray", 11), overflow="hidden",
                              text_overflow="ellipsis", white_space="nowrap", max_width="220px")),
        rx.table.cell(row_menu(
            item(rx.icon("eye", size=14), "View", on_click=A.open_asset_view(tx.id), class_name="tx-view"),
            rx.cond(A.can_act & tx.can_edit,
                    item(rx.icon("pencil", size=14), "Edit", on_click=A.open_asset_edit(tx.id), class_name="tx-edit")),
            rx.cond(A.can_act & tx.can_delete, rx.fragment(
                rx.menu.separator(),
                item(rx.icon("trash-2", size=14), "Delete", color="red", on_click=A.ask_delete_asset(tx.id),
                     class_name="tx-delete"),
            )),
        ), text_align="right", width="48px"),
        class_name="tx-row", align="center",
        custom_attrs={"data-type": tx.type_label, "data-status": tx.status},
    )


def _transactions(row: PanelRow) -> rx.Component:
    header = rx.table.row(*[plain_header(h) for h in ("Date", "Type", "Status")],
                          *[rx.table.column_header_cell(h, **NUMBER) for h in ("Quantity", "Price", "Amount", "Brokerage")],
                          plain_header("Description"), plain_header(""))
    return rx.table.row(
        rx.table.cell(
            rx.box(
                rx.cond(
                    row.transactions.length() > 0,
                    rx.table.root(rx.table.header(header), rx.table.body(rx.foreach(row.transactions, _tx_line)),
                                  variant="surface", size="1", width="100%"),
                    rx.text("No transactions match the filters.", size="2", color=rx.color("gray", 10),
                            padding="8px", class_name="tx-empty"),
                ),
                padding="4px 8px 12px 40px", width="100%",
            ),
            col_span=13, padding="0",
        ),
        background=rx.color("gray", 2), class_name="asset-transactions",
        custom_attrs={"data-code": row.code},
    )


def _panel_line(row: PanelRow) -> rx.Component:
    return rx.fragment(
        rx.table.row(
            rx.table.cell(rx.icon_button(rx.cond(row.expanded, rx.icon("chevron-down", size=14),
                                                 rx.icon("chevron-right", size=14)),
                                         size="1", variant="ghost", color_scheme="gray", aria_label="Transactions",
                                         on_click=A.toggle_asset(row.asset_id), class_name="asset-toggle"),
                          width="36px"),
            rx.table.cell(rx.text(row.code, weight="bold", font_family="var(--code-font-family)", size="2"),
                          white_space="nowrap", class_name="asset-code"),
            rx.table.cell(rx.text(row.name, size="2", overflow="hidden", text_overflow="ellipsis", white_space="nowrap",
                                  max_width="220px"), min_width="140px"),
            rx.table.cell(row.remaining, class_name="asset-remaining", **NUMBER),
            rx.table.cell(row.quantity, class_name="asset-bought", **NUMBER),
            rx.table.cell(row.bought_price, **NUMBER),
            rx.table.cell(row.price, **NUMBER),
            rx.table.cell(row.cost, class_name="asset-cost", **NUMBER),
            rx.table.cell(row.value, class_name="asset-value", **NUMBER),
            rx.table.cell(rx.text(row.unrealised, color=_signed_color(row.unrealised_sign)), **NUMBER),
            rx.table.cell(rx.text(row.realised, color=_signed_color(row.realised_sign)), **NUMBER),
            rx.table.cell(rx.hstack(rx.text(row.last_trade),
                                    rx.cond(row.pending_count > 0,
                                            rx.badge(row.pending_count.to_string() + " pending", color_scheme="amber",
                                                     variant="soft", size="1")),
                                    spacing="2", align="center"), white_space="nowrap"),
            rx.table.cell(rx.cond(A.can_act, row_menu(
                rx.menu.item(rx.icon("plus", size=14), "Add transaction", on_click=A.add_for_asset(row.code),
                             class_name="asset-add-for"),
                rx.menu.item(rx.cond(row.expanded, "Hide transactions", "Show transactions"),
                             on_click=A.toggle_asset(row.asset_id)),
            )), text_align="right", width="48px"),
            class_name="asset-row", align="center", custom_attrs={"data-code": row.code},
            _hover={"background": rx.color("gray", 3)},
        ),
        rx.cond(row.expanded, _transactions(row)),
    )


def _panel() -> rx.Component:
    columns = 13
    header = rx.table.row(
        plain_header(""), _sort(A, "Code", "code"), _sort(A, "Name", "name"),
        _number_header(A, "Units held", "remaining_quantity"), _number_header(A, "Units bought", "quantity"),
        rx.table.column_header_cell("Avg price", **NUMBER), _number_header(A, "Last price", "price"),
        _number_header(A, "Cost", "cost"), _number_header(A, "Value", "value"),
        _number_header(A, "Unrealised", "unrealised_gain_loss"), _number_header(A, "Realised", "realised_gain_loss"),
        _sort(A, "Last trade", "date"), plain_header(""),
    )
    add_purchase = rx.cond(A.can_act, rx.button(rx.icon("plus", size=14), "Add purchase", variant="soft",
                                                 on_click=A.open_add("purchase", ""), id="empty-add"))
    body = table_rows(
        A.rows, _panel_line, columns, loading=A.loading,
        empty=empty_row(columns, "No asset transactions yet: a purchase starts the record.", add_purchase),
        id="asset-body",
    )
    footer = list_footer(
        rx.hstack(
            rx.text(A.shown_text, size="1", color=rx.color("gray", 10), id="asset-count"),
            rx.cond(A.has_more, rx.button("Load more", size="1", variant="soft", on_click=A.load_more, id="load-more")),
            spacing="3", align="center",
        ),
        page_controls(A, PAGE_SIZES),
    )
    return table_card(header, body, footer)


def asset_transactions_page() -> rx.Component:
    return page(
        "Asset transactions",
        _asset_cards(),
        _filters(),
        _panel(),
        _asset_parts(A, picker=True),
        _upload_parts(A),
        crumbs=portfolio_crumbs(A, ("Asset transactions", None)),
        actions=_asset_actions(),
    )


def register(app: rx.App) -> None:
    for name, component, state, title in (
            ("portfolios.cash-transactions", cash_transactions_page, CashTransactionsState, "Cash transactions"),
            ("portfolios.asset-transactions", asset_transactions_page, AssetTransactionsState, "Asset transactions"),
            ("portfolios.add-transaction", asset_transactions_page, AssetTransactionsState, "Add transaction")):
        app.add_page(component, route=routes.ROUTES[name], title=f"{title} | {TITLE}",
                     on_load=[AppState.check_login, state.on_load])
