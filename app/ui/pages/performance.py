"""portfolios.performance and clients.performance: returns against the model.

The portfolio's screen: the heading figures (value, as at, model and its basis), the value over
time (a Recharts line chart in the dashboard's style: the value, the money put in, and the value
had it followed the model), the periods table (TWR, income, capital growth, IRR, the model, the
difference) and why it differs (cash drag, drift, trades not taken, other), with Excel and PDF
downloads. The client's screen (`/my-performance`) shows the same for all their portfolios
together, and a line per portfolio linking to its own screen; it is read-only."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.widgets import download_button, plain_header, table_card
from app.ui.pages.assets import performance
from app.ui.states.base import AppState
from app.ui.rows.performance import PeriodRow, PortfolioRow
from app.ui.states.performance import PerformanceState

S = PerformanceState
TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}


def _cell(figure: Any, id_: Any = None) -> rx.Component:
    return rx.table.cell(performance(figure, size="2"), **NUMBER)


def _num_header(label: str) -> rx.Component:
    return rx.table.column_header_cell(label, white_space="nowrap", text_align="right")


def _figure(label: str, value: Any, id_: str) -> rx.Component:
    return rx.card(rx.vstack(rx.text(label, size="1", color=rx.color("gray", 11)),
                             rx.text(value, size="4", weight="bold", id=id_), spacing="1"), min_width="160px")


def _heading() -> rx.Component:
    return rx.flex(
        _figure("Value", S.value_text, "performance-value"),
        _figure("As at", S.as_at, "performance-as-at"),
        _figure("Model", S.model_text, "performance-model"),
        rx.spacer(),
        rx.hstack(download_button("Export to Excel", "file-spreadsheet", S.excel_path, "performance-excel"),
                  download_button("Export to PDF", "file-text", S.pdf_path, "performance-pdf"), spacing="2"),
        wrap="wrap", spacing="3", width="100%", align="end",
    )


def _chart() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text("Value over time", size="3", weight="bold"),
            rx.recharts.line_chart(
                rx.recharts.cartesian_grid(stroke_dasharray="3 3", vertical=False),
                rx.recharts.x_axis(data_key="day", tick_line=False, font_size=11, min_tick_gap=40),
                rx.recharts.y_axis(width=80, tick_line=False, axis_line=False, font_size=11),
                rx.recharts.graphing_tooltip(),
                rx.recharts.legend(),
                rx.recharts.line(data_key="Value", stroke=rx.color("accent", 9), dot=False, stroke_width=2,
                                 is_animation_active=False),
                rx.cond(S.has_model, rx.recharts.line(data_key="Following the model", stroke=rx.color("amber", 9),
                                                      dot=False, stroke_width=2, is_animation_active=False)),
                rx.recharts.line(data_key="Net money in", stroke=rx.color("gray", 9), dot=False,
                                 stroke_dasharray="4 4", is_animation_active=False),
                data=S.chart, width="100%", height=260,
            ),
            rx.text(S.model_basis, size="1", color=rx.color("gray", 11)),
            spacing="2", width="100%",
        ),
        id="performance-chart",
    )


def _period_row(row: PeriodRow) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.vstack(rx.text(row.title, weight="medium", size="2"),
                                           rx.text(row.dates, size="1", color=rx.color("gray", 11)), spacing="0")),
        _cell(row.twr), _cell(row.income), _cell(row.capital), _cell(row.irr), _cell(row.model), _cell(row.difference),
        id="period-" + row.key,
    )


def _why_row(row: PeriodRow) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.text(row.title, weight="medium", size="2")),
        _cell(row.difference), _cell(row.cash_drag), _cell(row.drift), _cell(row.trades_not_taken), _cell(row.other),
        id="why-" + row.key,
    )


def _periods() -> rx.Component:
    header = rx.table.row(plain_header("Period"), _num_header("Time-weighted return"), _num_header("Income"),
                          _num_header("Capital growth"), _num_header("Money-weighted (IRR)"), _num_header("Model"),
                          _num_header("Difference"))
    return table_card(header, rx.foreach(S.periods, _period_row), label="Returns by period")


def _why() -> rx.Component:
    header = rx.table.row(plain_header("Period"), _num_header("Difference"), _num_header("Cash drag"),
                          _num_header("Drift"), _num_header("Trades not taken"), _num_header("Other (income, fees, timing)"))
    return rx.vstack(
        rx.heading("Why the portfolio differs from the model", size="4", as_="h2"),
        rx.text("Return points over each period: cash held against the model's cash, model assets held at other "
                "weights, model assets not bought and assets held outside the model; other is income the closes "
                "do not carry, fees and the timing of trades.", size="2", color=rx.color("gray", 11)),
        table_card(header, rx.foreach(S.periods, _why_row), label="Why the portfolio differs from the model"),
        spacing="2", width="100%",
    )


def _portfolio_row(row: PortfolioRow) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.link(row.name, href=row.url, on_click=AppState.navigate(row.url).prevent_default)),
        rx.table.cell(row.model), rx.table.cell(row.value, **NUMBER), _cell(row.fytd), _cell(row.since_inception),
    )


def _portfolios() -> rx.Component:
    header = rx.table.row(plain_header("Portfolio"), plain_header("Model"), _num_header("Value"),
                          _num_header("Financial year to date"), _num_header("Since inception"))
    return rx.cond(S.portfolio_rows.length() > 0, rx.vstack(
        rx.heading("Portfolios", size="4", as_="h2"),
        table_card(header, rx.foreach(S.portfolio_rows, _portfolio_row), label="Portfolios"),
        spacing="2", width="100%"))


def _content() -> rx.Component:
    return rx.cond(
        S.loading,
        rx.vstack(rx.skeleton(height="80px", width="100%"), rx.skeleton(height="260px", width="100%"), width="100%"),
        rx.cond(
            S.message != "",
            rx.card(rx.text(S.message, id="performance-empty")),
            rx.vstack(_heading(), _chart(), _periods(), _why(), _portfolios(), spacing="4", width="100%"),
        ),
    )


def portfolio_performance_page() -> rx.Component:
    return page("Performance", _content(), crumbs=portfolio_crumbs(S, ("Performance", None)))


def client_performance_page() -> rx.Component:
    return page("Performance", _content(), crumbs=[("My portfolios", routes.url("portfolios.me")), ("Performance", None)])


def register(app: rx.App) -> None:
    app.add_page(portfolio_performance_page, route=routes.ROUTES["portfolios.performance"],
                 title=f"Performance | {TITLE}", on_load=[AppState.check_login, S.on_load])
    app.add_page(client_performance_page, route=routes.ROUTES["clients.performance"],
                 title=f"Performance | {TITLE}", on_load=[AppState.check_login, S.on_load_client])


def my_performance_link() -> rx.Component:
    """The client home's link to their own performance (the my-portfolios screen's action)."""
    url = routes.url("clients.performance")
    return rx.link(rx.button(rx.icon("chart-line", size=16), "My performance", variant="soft", as_="span"),
                   href=url, on_click=AppState.navigate(url).prevent_default, id="my-performance")
