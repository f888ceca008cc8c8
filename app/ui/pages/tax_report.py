"""portfolios.tax-report and clients.tax-report: the financial-year tax report.

The portfolio's screen: the year picker (the financial years of its history, newest first) with
the Excel and PDF downloads, the summary (income, franking credits, capital gains netted to the net
capital gain, the loss carried in and out), the carried-forward loss form (staff only; the
service's refusal under the field), any flagged sale, then the income table, the realised gains and
losses by parcel, capital returns and the unrealised position at 30 June - tables like the holdings
screen's (numbers right-aligned in tabular figures, negative money in red). The client's screen
(`/my-tax-report`, from My portfolios) shows the year's totals across their portfolios and a line
per portfolio linking to its own report; both are read-only for a client."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.widgets import download_button, field, option_select, plain_header, table_card, text_input
from app.ui.states.base import AppState
from app.ui.rows.tax_report import CapitalReturnRow, GainRow, IncomeRow, PortfolioTaxRow, SummaryRow, UnrealisedRow
from app.ui.states.tax_report import OVERSOLD, TaxReportState

S = TaxReportState
TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
MUTED = rx.color("gray", 11)


def _money(amount: Any, **props: Any) -> rx.Component:
    """An Amount in a right-aligned cell, red when below zero."""
    return rx.table.cell(rx.text(amount.text, color=rx.cond(amount.negative, rx.color("red", 11), "inherit"), size="2"),
                         **NUMBER, **props)


def _num(value: Any) -> rx.Component:
    return rx.table.cell(value, **NUMBER)


def _num_header(label: str) -> rx.Component:
    return rx.table.column_header_cell(label, white_space="nowrap", text_align="right")


def _code(value: Any) -> rx.Component:
    return rx.text(value, weight="medium", font_family="var(--code-font-family)", size="2")


def _heading(title: str, id_: str) -> rx.Component:
    return rx.heading(title, size="4", as_="h2", id=id_)


def _empty_text(text: str) -> rx.Component:
    return rx.text(text, size="2", color=MUTED)


# ---- the toolbar -------------------------------------------------------------------------------------
def _toolbar() -> rx.Component:
    return rx.flex(
        rx.box(option_select(S.year, S.years, S.pick_year, "tax-year", aria_label="Financial year"),
               min_width="300px"),
        rx.text(S.entity, rx.cond(S.treatment != "", " \u00b7 " + S.treatment, ""), size="2", color=MUTED,
                id="tax-entity"),
        rx.spacer(),
        rx.hstack(download_button("Export to Excel", "file-spreadsheet", S.excel_path, "tax-excel"),
                  download_button("Export to PDF", "file-text", S.pdf_path, "tax-pdf"), spacing="2"),
        wrap="wrap", spacing="3", width="100%", align="center",
    )


# ---- the summary and the carried-forward loss -----------------------------------------------------------
def _summary_row(row: SummaryRow) -> rx.Component:
    weight = rx.cond(row.strong, "bold", "regular")
    return rx.table.row(
        rx.table.row_header_cell(rx.text(row.title, size="2", weight=weight)),
        rx.table.cell(rx.text(row.amount.text, size="2", weight=weight,
                              color=rx.cond(row.amount.negative, rx.color("red", 11), "inherit")),
                      **NUMBER, id="tax-" + row.key),
    )


def _summary() -> rx.Component:
    return rx.card(
        rx.vstack(
            _heading("Summary", "tax-summary-heading"),
            rx.table.root(rx.table.body(rx.foreach(S.summary, _summary_row)), variant="ghost", size="1", width="100%"),
            spacing="2", width="100%",
        ),
        width="100%", max_width="560px", id="tax-summary",
    )


def _loss_form() -> rx.Component:
    control = text_input("carried-forward-loss", S.loss_amount, S.set_loss_amount, S.loss_error,
                         input_mode="decimal", placeholder="0.00")
    return rx.card(
        rx.form(
            rx.vstack(
                _heading("Carried-forward capital loss", "tax-loss-heading"),
                rx.text("The net capital loss from earlier years brought into ", S.label,
                        ". It is applied after this year's losses, to gains without the discount first. 0 clears it.",
                        size="2", color=MUTED),
                field("Loss brought in ($)", control, S.loss_error, required=True),
                rx.hstack(rx.spacer(),
                          rx.button("Save", type="submit", loading=S.loss_saving, id="tax-loss-save"), width="100%"),
                spacing="3", width="100%",
            ),
            on_submit=S.save_loss, reset_on_submit=False, width="100%",
        ),
        width="100%", max_width="420px", id="tax-loss-form",
    )


def _flags() -> rx.Component:
    return rx.foreach(S.flags, lambda flag: rx.callout(flag, icon="triangle-alert", color_scheme="red", size="1",
                                                        width="100%", class_name="tax-flag", role="alert"))


# ---- the tables ----------------------------------------------------------------------------------------
def _income_row(row: IncomeRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row.day, white_space="nowrap"), rx.table.cell(_code(row.code), white_space="nowrap"),
        rx.table.cell(row.kind), rx.table.cell(row.description),
        _money(row.franked), _money(row.unfranked), _money(row.franking_credits), _money(row.interest),
        _money(row.other), _money(row.cash),
        class_name="income-row",
    )


def _total_row(span: int, *cells: rx.Component) -> rx.Component:
    """A table's bold total line: "Total" across the first `span` columns, then `cells`."""
    return rx.table.row(
        rx.table.cell(rx.text("Total", weight="bold", size="2"), col_span=span, background=rx.color("gray", 2)),
        *cells, font_weight="bold", background=rx.color("gray", 2),
    )


def _income_total(row: IncomeRow) -> rx.Component:
    return _total_row(4, _money(row.franked), _money(row.unfranked),
                      _money(row.franking_credits, id="income-total-credits"), _money(row.interest),
                      _money(row.other), _money(row.cash, id="income-total-cash"))


def _table_section(heading: rx.Component, label: str, header: rx.Component, rows: Any, row: Any,
                   total: rx.Component, empty: str) -> rx.Component:
    """A section of the report: its heading, then its table with a total line, or `empty` without rows."""
    return rx.vstack(
        heading,
        rx.cond(rows.length() > 0, table_card(header, rx.table.body(rx.foreach(rows, row), total), label=label),
                _empty_text(empty)),
        spacing="2", width="100%",
    )


def _income() -> rx.Component:
    header = rx.table.row(plain_header("Date"), plain_header("Code"), plain_header("Type"), plain_header("Detail"),
                          _num_header("Franked"), _num_header("Unfranked"), _num_header("Franking credits"),
                          _num_header("Interest"), _num_header("Other"), _num_header("Cash received"))
    return _table_section(_heading("Income", "tax-income-heading"), "Income", header, S.income, _income_row,
                          _income_total(S.income_totals), "No income in this financial year.")


def _gain_row(row: GainRow) -> rx.Component:
    flagged = row.flag != ""
    return rx.table.row(
        rx.table.cell(rx.vstack(_code(row.code), rx.text(row.name, size="1", color=MUTED), spacing="0"),
                      white_space="nowrap"),
        rx.table.cell(row.event),
        rx.table.cell(row.acquired, white_space="nowrap"), rx.table.cell(row.sold, white_space="nowrap"),
        _num(row.units), _money(row.cost_base), _money(row.proceeds), _money(row.gain),
        rx.table.cell(row.method), _money(row.losses_applied), _money(row.discount), _money(row.net),
        rx.table.cell(rx.cond(flagged, rx.vstack(rx.badge(OVERSOLD, color_scheme="red"),
                                                 rx.text(row.flag, size="1", color=rx.color("red", 11)),
                                                 spacing="1", min_width="220px"))),
        class_name=rx.cond(flagged, "gain-row gain-flagged", "gain-row"),
        background=rx.cond(flagged, rx.color("red", 2), "transparent"),
    )


def _gain_total(row: GainRow) -> rx.Component:
    return _total_row(5, _money(row.cost_base), _money(row.proceeds), _money(row.gain), rx.table.cell(""),
                      _money(row.losses_applied), _money(row.discount), _money(row.net, id="gains-total-net"),
                      rx.table.cell(""))


def _gains() -> rx.Component:
    header = rx.table.row(plain_header("Asset"), plain_header("Event"), plain_header("Acquired"), plain_header("Sold"),
                          _num_header("Units"), _num_header("Cost base"), _num_header("Proceeds"),
                          _num_header("Gain / loss"), plain_header("Discount method"), _num_header("Losses applied"),
                          _num_header("Discount applied"), _num_header("Net gain"), plain_header("Note"))
    return _table_section(_heading("Realised capital gains and losses", "tax-gains-heading"),
                          "Realised capital gains and losses", header, S.gains, _gain_row, _gain_total(S.gain_totals),
                          "No capital gains or losses realised in this financial year.")


def _return_row(row: CapitalReturnRow) -> rx.Component:
    return rx.table.row(rx.table.cell(row.day, white_space="nowrap"), rx.table.cell(_code(row.code)), _money(row.amount))


def _capital_returns() -> rx.Component:
    header = rx.table.row(plain_header("Date"), plain_header("Code"), _num_header("Amount"))
    total = _total_row(2, _money(S.capital_returns_total))
    return rx.cond(S.capital_returns.length() > 0, rx.vstack(
        _heading("Capital returns", "tax-returns-heading"),
        rx.text("Returns of capital lower the cost base of the parcels held.", size="2", color=MUTED),
        table_card(header, rx.table.body(rx.foreach(S.capital_returns, _return_row), total), label="Capital returns"),
        spacing="2", width="100%"))


def _unrealised_row(row: UnrealisedRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(_code(row.code), white_space="nowrap"), rx.table.cell(row.name),
        _num(row.units), _num(row.eligible_units), _money(row.cost_base), _num(row.close),
        rx.table.cell(row.close_day, white_space="nowrap"), _money(row.value), _money(row.gain),
        class_name="unrealised-row",
    )


def _unrealised_total(row: UnrealisedRow) -> rx.Component:
    return _total_row(4, _money(row.cost_base), rx.table.cell(""), rx.table.cell(""),
                      _money(row.value, id="unrealised-total-value"), _money(row.gain))


def _unrealised() -> rx.Component:
    header = rx.table.row(plain_header("Code"), plain_header("Name"), _num_header("Units"),
                          _num_header("Held 12 months+"), _num_header("Cost base"), _num_header("Close"),
                          plain_header("Close date"), _num_header("Value"), _num_header("Unrealised gain"))
    return _table_section(rx.heading("Unrealised position at ", S.end_day, size="4", as_="h2",
                                     id="tax-unrealised-heading"),
                          "Unrealised position", header, S.unrealised, _unrealised_row,
                          _unrealised_total(S.unrealised_totals), "Nothing held at the end of the financial year.")


# ---- the client's report across their portfolios -----------------------------------------------------
def _portfolio_row(row: PortfolioTaxRow) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.vstack(
            rx.link(row.name, href=row.url, on_click=AppState.navigate(row.url).prevent_default,
                    class_name="tax-portfolio-link"),
            rx.cond(row.note != "", rx.text(row.note, size="1", color=MUTED)), spacing="0")),
        rx.table.cell(row.entity),
        _money(row.income), _money(row.franking_credits), _money(row.net_capital_gain), _money(row.carried_forward_out),
        class_name="tax-portfolio-row",
    )


def _portfolios() -> rx.Component:
    header = rx.table.row(plain_header("Portfolio"), plain_header("Type"), _num_header("Dividends and interest"),
                          _num_header("Franking credits"), _num_header("Net capital gain"),
                          _num_header("Loss carried forward"))
    return rx.vstack(
        _heading("Portfolios", "tax-portfolios-heading"),
        rx.text("Each portfolio is reported for its own entity: open one for its parcels, income and unrealised position.",
                size="2", color=MUTED),
        table_card(header, rx.table.body(rx.foreach(S.portfolios, _portfolio_row)), label="Portfolios"),
        spacing="2", width="100%",
    )


# ---- the screens ---------------------------------------------------------------------------------------
def _loading() -> rx.Component:
    return rx.vstack(rx.skeleton(height="40px", width="100%"), rx.skeleton(height="220px", width="100%"),
                     rx.skeleton(height="160px", width="100%"), width="100%")


def _portfolio_content() -> rx.Component:
    return rx.cond(
        S.loading, _loading(),
        rx.vstack(
            _toolbar(),
            rx.cond(S.message != "", rx.callout(S.message, icon="info", size="1", width="100%", id="tax-empty")),
            rx.flex(rx.cond(S.message == "", _summary()), rx.cond(S.can_edit, _loss_form()),
                    spacing="4", wrap="wrap", width="100%", align="start"),
            rx.cond(S.message == "", rx.vstack(_flags(), _income(), _gains(), _capital_returns(), _unrealised(),
                                               spacing="5", width="100%")),
            spacing="4", width="100%",
        ),
    )


def _client_content() -> rx.Component:
    return rx.cond(
        S.loading, _loading(),
        rx.vstack(
            _toolbar(),
            rx.cond(S.message != "",
                    rx.callout(S.message, icon="info", size="1", width="100%", id="tax-empty"),
                    rx.vstack(_summary(), _portfolios(), spacing="4", width="100%")),
            spacing="4", width="100%",
        ),
    )


def portfolio_tax_report_page() -> rx.Component:
    return page("Tax report", _portfolio_content(), crumbs=portfolio_crumbs(S, ("Tax report", None)))


def client_tax_report_page() -> rx.Component:
    return page("Tax report", _client_content(),
                crumbs=[("My portfolios", routes.url("portfolios.me")), ("Tax report", None)])


def register(app: rx.App) -> None:
    app.add_page(portfolio_tax_report_page, route=routes.ROUTES["portfolios.tax-report"],
                 title=f"Tax report | {TITLE}", on_load=[AppState.check_login, S.on_load])
    app.add_page(client_tax_report_page, route=routes.ROUTES["clients.tax-report"],
                 title=f"Tax report | {TITLE}", on_load=[AppState.check_login, S.on_load])


def my_tax_report_link() -> rx.Component:
    """The client home's link to their own tax report (the my-portfolios screen's action)."""
    url = routes.url("clients.tax-report")
    return rx.link(rx.button(rx.icon("receipt", size=16), "My tax report", variant="soft", as_="span"),
                   href=url, on_click=AppState.navigate(url).prevent_default, id="my-tax-report")
