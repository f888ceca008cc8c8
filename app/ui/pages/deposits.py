"""clients.addTransaction (/portfolios/[id]/add-deposit): a portfolio's term deposits and at-call
accounts with the buttons that open the deposit transaction forms (Buy, Sell, Interest Accrual,
Deposit, enabled by the spec 002 s4 rules), each row's read-only and AMM modals, and for staff the
row's own forms. `?form=<buy|sell|interest_accrual|deposit|income>&deposit_id=<id>` opens a form
on arrival."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.deposit_modals import deposit_modals
from app.ui.components.layout import page
from app.ui.components.widgets import empty_row, plain_header, row_menu, table_card, table_rows
from app.ui.states.base import AppState
from app.ui.states.deposits import DepositState as S

TITLE = "Wealth Advice"
COLUMNS = 9


def _form_button(form: str, label: str, icon: str, enabled) -> rx.Component:
    return rx.button(rx.icon(icon, size=16), label, on_click=S.open_form(form),
                     disabled=False if enabled is True else ~enabled,
                     variant="solid" if form == "buy" else "soft", id=f"deposit-open-{form}".replace("_", "-"))


def _actions() -> rx.Component:
    return rx.cond(
        S.can_edit,
        rx.hstack(
            _form_button("buy", "Buy", "plus", True),
            _form_button("sell", "Sell", "arrow-up-from-line", S.enabled["sell"].to(bool)),
            _form_button("interest_accrual", "Interest Accrual", "percent", S.enabled["interest_accrual"].to(bool)),
            _form_button("deposit", "Deposit", "arrow-down-to-line", S.enabled["deposit"].to(bool)),
            spacing="2", wrap="wrap",
        ),
    )


def _row(d) -> rx.Component:
    did = d.id
    staff_items = rx.cond(
        S.can_edit,
        rx.fragment(
            rx.menu.separator(),
            rx.menu.item(rx.icon("pencil", size=14), "Edit", on_click=S.edit_deposit(did)),
            rx.cond(~d.closed, rx.menu.item(rx.icon("arrow-up-from-line", size=14), "Sell",
                                            on_click=S.open_form("sell", did))),
            rx.cond(d.is_at_call & ~d.closed, rx.fragment(
                rx.menu.item(rx.icon("percent", size=14), "Interest Accrual", on_click=S.open_form("interest_accrual", did)),
                rx.menu.item(rx.icon("arrow-down-to-line", size=14), "Deposit", on_click=S.open_form("deposit", did)),
            )),
            rx.cond(~d.is_at_call, rx.menu.item(rx.icon("hand-coins", size=14), "Interest Payment",
                                                on_click=S.open_form("income", did))),
        ),
    )
    return rx.table.row(
        rx.table.cell(rx.link(d.name, href="#", on_click=S.open_view(did).prevent_default, weight="medium",
                              class_name="deposit-name"), min_width="220px"),
        rx.table.cell(rx.code(d.code), class_name="deposit-code"),
        rx.table.cell(d.product, white_space="nowrap"),
        rx.table.cell(d.start, white_space="nowrap"),
        rx.table.cell(d.maturity, white_space="nowrap"),
        rx.table.cell(d.rate, text_align="right", font_variant_numeric="tabular-nums"),
        rx.table.cell(rx.hstack(rx.badge(d.deal_status, variant="soft",
                                         color_scheme=rx.cond(d.deal_status == "Live", "green", "amber")),
                                rx.cond(d.closed, rx.badge("Closed", variant="soft", color_scheme="gray")),
                                spacing="1", wrap="wrap"),
                      class_name="deposit-deal-status"),
        rx.table.cell(d.balance, text_align="right", font_variant_numeric="tabular-nums", class_name="deposit-balance"),
        rx.table.cell(
            row_menu(
                rx.menu.item(rx.icon("eye", size=14), "View", on_click=S.open_view(did)),
                rx.menu.item(rx.icon("list", size=14), "AMM transactions", on_click=S.open_amm(did)),
                staff_items,
                id="deposit-actions-" + did.to_string(),
            ),
            text_align="right", width="48px",
        ),
        class_name="deposit-row", id="deposit-row-" + did.to_string(), align="center",
        _hover={"background": rx.color("gray", 3)},
    )


def deposits_page() -> rx.Component:
    header = rx.table.row(
        plain_header("Name"), plain_header("Code"), plain_header("Product"), plain_header("Start"),
        plain_header("Maturity"), rx.table.column_header_cell("Rate", text_align="right"), plain_header("Deal status"),
        rx.table.column_header_cell("Balance", text_align="right"), plain_header(""),
    )
    buy = rx.cond(S.can_edit, rx.button(rx.icon("plus", size=16), "Buy", variant="soft", on_click=S.open_form("buy"),
                                         id="deposit-open-buy-empty"))
    body = table_rows(S.rows, _row, COLUMNS, loading=S.loading & (S.rows.length() == 0),
                      empty=empty_row(COLUMNS, S.empty_text, buy), id="deposits-table")
    summary = rx.hstack(
        rx.text("Cash account balance", size="2", color=rx.color("gray", 10)),
        rx.text(S.cash_text, size="2", weight="medium", font_variant_numeric="tabular-nums", id="deposit-cash"),
        spacing="2", align="center",
    )
    return page(
        "Term deposits and at-call accounts",
        summary,
        table_card(header, body),
        deposit_modals(),
        crumbs=[("Portfolios", routes.url("portfolios.list")), (S.portfolio_name, S.holdings_url),
                ("Term deposits", None)],
        actions=_actions(),
    )


def register(app: rx.App) -> None:
    app.add_page(deposits_page, route=routes.ROUTES["clients.addTransaction"],
                 title=f"Term deposits | {TITLE}", on_load=[AppState.check_login, S.on_load])
