"""Audit trail (/audit: superusers and administrators) and a portfolio's history
(/portfolios/[id]/history): when, who, what, which object, before -> after, from where."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    download_button, empty_row, list_footer, page_controls, pagination, plain_header, table_card, table_rows,
)
from app.ui.pages.users import date_input, option_select
from app.ui.rows.audit import AuditRow
from app.ui.states.audit import AuditState, PortfolioHistoryState
from app.ui.states.base import AppState

TITLE = "Wealth Advice"
WHEN = "DD/MM/YYYY HH:mm:ss"
COLUMNS = 6


def _action_color(action: Any) -> Any:
    return rx.cond(action.contains("failed") | action.contains("deleted"), "red",
                   rx.cond(action.contains("signin") | action.contains("signout"), "gray",
                           rx.cond(action.contains("created"), "green", "blue")))


def _cells(row: AuditRow, with_object: bool) -> rx.Component:
    # the columns wrap (an e-mail anywhere, an action between words) so that the six fit at 1440 px
    cells = [
        rx.table.cell(rx.moment(row.at, format=WHEN), white_space="nowrap", class_name="audit-at"),
        rx.table.cell(rx.text(row.who, size="2", overflow_wrap="anywhere"), class_name="audit-who",
                      min_width="120px", max_width="200px"),
        rx.table.cell(rx.badge(row.action_title, color_scheme=_action_color(row.action), variant="soft",
                               white_space="normal"), class_name="audit-action", max_width="170px"),
    ]
    if with_object:
        cells.append(rx.table.cell(rx.text(row.object, size="2", overflow_wrap="anywhere"), class_name="audit-object",
                                   min_width="140px", max_width="220px"))
    cells += [
        rx.table.cell(rx.text(row.changes, size="1", white_space="pre-wrap", overflow_wrap="anywhere",
                              font_family="var(--code-font-family)", color=rx.color("gray", 11)),
                      class_name="audit-changes", min_width="200px"),
        rx.table.cell(rx.text(row.ip, size="1", color=rx.color("gray", 10)), white_space="nowrap",
                      class_name="audit-ip"),
    ]
    return rx.table.row(*cells, class_name="audit-row", data_action=row.action)


def _row(row: AuditRow) -> rx.Component:
    return _cells(row, with_object=True)


def _history_row(row: AuditRow) -> rx.Component:
    return _cells(row, with_object=False)


def _filters() -> rx.Component:
    s = AuditState
    return rx.flex(
        rx.input(placeholder="Who (e-mail)", value=s.filters.who, on_change=s.set_who.debounce(400), id="audit-who",
                 width="220px"),
        rx.box(option_select(s.filters.action, s.actions, lambda v: s.set_filter("action", v), "audit-action-filter"),
               width="220px"),
        rx.box(option_select(s.filters.object_type, s.object_types, lambda v: s.set_filter("object_type", v),
                             "audit-object-filter"), width="180px"),
        rx.cond(s.is_superuser_view, rx.box(option_select(s.filters.firm, s.firms, lambda v: s.set_filter("firm", v),
                                                          "audit-firm-filter"),
                                            width="200px")),
        rx.vstack(
            rx.hstack(rx.text("From", size="2", color=rx.color("gray", 10)),
                      rx.box(date_input(s.filters.date_from, lambda v: s.set_filter("date_from", v), "audit-from", "From"),
                             width="150px"),
                      rx.text("to", size="2", color=rx.color("gray", 10)),
                      rx.box(date_input(s.filters.date_to, lambda v: s.set_filter("date_to", v), "audit-to", "To"),
                             width="150px"),
                      align="center", spacing="2"),
            rx.cond(s.date_error != "", rx.text(s.date_error, size="1", color=rx.color("red", 11), role="alert",
                                                id="audit-date-error")),
            spacing="1",
        ),
        rx.button("Clear", variant="ghost", color_scheme="gray", on_click=s.clear_filters, id="audit-clear"),
        gap="12px", wrap="wrap", align="center", width="100%",
    )


def audit_page() -> rx.Component:
    s = AuditState
    return page(
        "Audit trail",
        rx.text("Every sign-in and every change that matters: who, when, what changed, from where. "
                "Newest first; times in your time zone.", size="2", color=rx.color("gray", 10)),
        _filters(),
        table_card(
            rx.table.row(plain_header("When"), plain_header("Who"), plain_header("Action"), plain_header("Object"),
                         plain_header("Changes"), plain_header("From")),
            table_rows(s.rows, _row, COLUMNS, loading=s.loading,
                       empty=empty_row(COLUMNS, rx.cond(s.date_error != "", s.date_error,
                                                        "Nothing recorded matches these filters."))),
            list_footer(
                rx.text(s.total, " events", size="1", color=rx.color("gray", 10), id="audit-total"),
                page_controls(s),
            ),
        ),
        crumbs=[("Audit trail", None)],
        actions=download_button("Excel", "file-spreadsheet", s.export_path, "audit-excel"),
    )


def portfolio_history_page() -> rx.Component:
    h = PortfolioHistoryState
    return page(
        "History",
        rx.text("Changes to this portfolio: its details, owners, exceptions, approval settings and linked model.",
                size="2", color=rx.color("gray", 10)),
        table_card(
            rx.table.row(plain_header("When"), plain_header("Who"), plain_header("Action"), plain_header("Changes"),
                         plain_header("From")),
            table_rows(h.rows, _history_row, COLUMNS - 1, loading=h.loading,
                       empty=empty_row(COLUMNS - 1, "No change has been recorded for this portfolio yet.")),
            list_footer(
                rx.text(h.total, " events", size="1", color=rx.color("gray", 10), id="history-total"),
                pagination(h.page, h.pages, h.visible, h.go_page),
            ),
        ),
        crumbs=[("Portfolios", routes.url("portfolios.list")), (h.portfolio_name, h.holdings_url), ("History", None)],
    )


def register(app: rx.App) -> None:
    app.add_page(audit_page, route=routes.ROUTES["audit"], title=f"Audit trail | {TITLE}",
                 on_load=[AppState.check_login, AuditState.on_load])
    app.add_page(portfolio_history_page, route=routes.ROUTES["portfolios.history"], title=f"History | {TITLE}",
                 on_load=[AppState.check_login, PortfolioHistoryState.on_load])
