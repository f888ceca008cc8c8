"""portfolios.rofa: the record of advice (spec 002 s2/s4/s8): tabs Overview, Fee, Recommendation and
Authority with Next / Previous, Approve / Decline with their confirmations, and the PDF download.
Clients read and approve it on phones: everything stacks at 390px and tables scroll in their cards."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.widgets import cancel_button, download_button
from app.ui.pages.target_portfolio import (
    DATE_TIME, tp_alerts, tp_class_bars, tp_class_tables, tp_figures, tp_groups, tp_status_badge,
)
from app.ui.states.base import AppState
from app.ui.states.rofa import TAB_TITLES, TABS, RofaState

S = RofaState
TITLE = "Wealth Advice"
NO_FEE = "No management fee is set for this portfolio."


def _fact(label: str, value: Any, id_: str) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color=rx.color("gray", 10)),
        rx.box(value, id=id_),
        spacing="1", min_width="0",
    )


def _text(value: Any) -> rx.Component:
    return rx.text(value, size="2", weight="medium")


def status_line(prefix: str = "rofa") -> rx.Component:
    """Where the record stands: the status label, and who approved or declined it and when."""
    return rx.hstack(
        tp_status_badge(S, id_=f"{prefix}-status"),
        rx.cond(S.decided_by != "", rx.text(
            rx.cond(S.approved, "Approved by ", "Declined by "), S.decided_by, " on ",
            rx.moment(S.decided_at, format=DATE_TIME),
            size="2", color=rx.color("gray", 11), id=f"{prefix}-decided")),
        rx.cond(S.pending & ~S.is_failed, rx.text("Awaiting the client's authority", size="2",
                                                   color=rx.color("gray", 11))),
        spacing="3", align="center", wrap="wrap", id=f"{prefix}-status-line",
    )


# ---- tabs -------------------------------------------------------------------------------------------
def _overview() -> rx.Component:
    facts = rx.card(
        rx.grid(
            _fact("Practice", rx.vstack(_text(S.practice), rx.cond(S.licensee != "", rx.text(S.licensee, size="1",
                                                                                         color=rx.color("gray", 10))),
                                        spacing="0"), "rofa-practice"),
            _fact("Clients", _text(S.clients), "rofa-clients"),
            _fact("Adviser", _text(S.adviser), "rofa-adviser"),
            _fact("Date", _text(rx.cond(S.record_date != "", rx.moment(S.record_date, format="DD/MM/YYYY"), "")),
                  "rofa-date"),
            _fact("Portfolio", _text(S.name), "rofa-portfolio"),
            _fact("Model", _text(rx.cond(S.tp_model != "", S.tp_model, "\u2014")), "rofa-model"),
            columns=rx.breakpoints(initial="2", md="3", lg="6"), spacing="4", width="100%",
        ),
        width="100%", size="2",
    )
    return rx.vstack(
        facts,
        tp_alerts(S),
        rx.cond(S.has_result, rx.vstack(
            rx.heading("Recommended portfolio", size="4", margin_top="8px"),
            rx.text("Each line shows the holding now, the recommended holding and the reasons behind it.", size="2",
                    color=rx.color("gray", 10)),
            tp_figures(S),
            tp_class_bars(S),
            tp_class_tables(S, False),
            tp_groups(S),
            spacing="3", width="100%",
        )),
        spacing="4", width="100%",
    )


def _fee_row(label: str, value: Any, id_: str) -> rx.Component:
    return rx.hstack(rx.text(label, size="2", color=rx.color("gray", 11)), rx.spacer(),
                     rx.text(rx.cond(value != "", value, "\u2014"), size="2", weight="medium", id=id_,
                             font_variant_numeric="tabular-nums"),
                     width="100%", padding_y="6px", border_bottom=f"1px solid {rx.color('gray', 4)}")


def _fee() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading("Management fee", size="4"),
            rx.cond(
                S.fee.percent != "",
                rx.vstack(
                    _fee_row("Fee", S.fee.percent + " a year of the portfolio's value", "rofa-fee-percent"),
                    _fee_row("Minimum", S.fee.min, "rofa-fee-min"),
                    _fee_row("Maximum", S.fee.max, "rofa-fee-max"),
                    _fee_row("Estimated fee on the recommended portfolio", S.fee.amount, "rofa-fee-amount"),
                    spacing="0", width="100%",
                ),
                rx.text(NO_FEE, size="2", color=rx.color("gray", 10), id="rofa-no-fee"),
            ),
            spacing="3", width="100%", max_width="640px",
        ),
        width="100%", size="2",
    )


def _commentary(title: str, value: Any, id_: str) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="3"),
        rx.text(rx.cond(value != "", value, "No commentary."), size="2", white_space="pre-wrap", id=id_,
                color=rx.cond(value != "", rx.color("gray", 12), rx.color("gray", 10))),
        spacing="2", width="100%",
    )


def _recommendation() -> rx.Component:
    return rx.vstack(
        rx.card(
            rx.grid(
                _commentary("Market commentary", S.market, "rofa-market"),
                _commentary("Recommendation", S.recommendation, "rofa-recommendation"),
                columns=rx.breakpoints(initial="1", md="2"), spacing="4", width="100%",
            ),
            width="100%", size="2",
        ),
        rx.card(
            rx.vstack(
                rx.heading("Capital gains tax estimate", size="3"),
                rx.text(S.cgt_text, size="2", id="rofa-cgt"),
                spacing="2", width="100%",
            ),
            width="100%", size="2",
        ),
        spacing="3", width="100%",
    )


def _authority() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading("Authority to proceed", size="4"),
            status_line("authority"),
            rx.text("By approving, you authorise your adviser to proceed with the recommended portfolio and its trades "
                    "as set out in this record of advice. Declining asks your adviser to review it with you.",
                    size="2", color=rx.color("gray", 11)),
            rx.cond(
                S.can_decide,
                rx.flex(
                    rx.cond(S.can_approve, rx.button(rx.icon("check", size=16), "Approve", color_scheme="green", size="3",
                                                     on_click=S.ask("approve"), loading=S.busy, id="rofa-approve")),
                    rx.cond(S.can_decline, rx.button(rx.icon("x", size=16), "Decline", color_scheme="red", variant="soft",
                                                     size="3", on_click=S.ask("decline"), loading=S.busy,
                                                     id="rofa-decline")),
                    gap="12px", wrap="wrap", width="100%",
                ),
            ),
            spacing="4", width="100%",
        ),
        width="100%", size="3", id="rofa-authority",
    )


def _nav() -> rx.Component:
    return rx.hstack(
        rx.button(rx.icon("chevron-left", size=14), "Previous", variant="soft", color_scheme="gray",
                  on_click=S.previous_tab, disabled=S.is_first_tab, id="rofa-previous"),
        rx.spacer(),
        rx.button("Next", rx.icon("chevron-right", size=14), variant="soft", on_click=S.next_tab, disabled=S.is_last_tab,
                  id="rofa-next"),
        width="100%", padding_top="8px",
    )


def _tab_content(value: str, body: rx.Component) -> rx.Component:
    return rx.tabs.content(rx.vstack(body, _nav(), spacing="3", width="100%", padding_top="16px"), value=value,
                           width="100%")


def _tabs() -> rx.Component:
    return rx.tabs.root(
        rx.box(
            rx.tabs.list(*[rx.tabs.trigger(TAB_TITLES[t], value=t, id=f"rofa-tab-{t}") for t in TABS],
                         size=rx.breakpoints(initial="1", sm="2")),
            overflow_x="auto", width="100%",
        ),
        _tab_content("overview", _overview()),
        _tab_content("fee", _fee()),
        _tab_content("recommendation", _recommendation()),
        _tab_content("authority", _authority()),
        value=S.tab, on_change=S.set_tab, width="100%",
    )


def _confirm() -> rx.Component:
    approve = S.confirm_action == "approve"
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(rx.cond(approve, "Approve", "Decline")),
            rx.alert_dialog.description(S.confirm_message, id="confirm-message"),
            rx.hstack(
                cancel_button(on_click=S.cancel_confirm, id="confirm-cancel"),
                rx.button(rx.cond(approve, "Approve", "Decline"), color_scheme=rx.cond(approve, "green", "red"),
                          on_click=S.confirm, id="confirm-ok"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="440px",
        ),
        open=S.confirm_open,
    )


def _download() -> rx.Component:
    return download_button("Download PDF", "file-down", S.pdf_path, "rofa-pdf")


def _actions() -> rx.Component:
    return rx.hstack(
        rx.cond(S.tp_id > 0, _download()),
        rx.cond(~AppState.is_client & (S.current_url != ""),
                rx.button("Target Portfolio", variant="soft", color_scheme="gray", on_click=AppState.navigate(S.current_url),
                          id="rofa-back")),
        spacing="2", wrap="wrap",
    )


def rofa_page() -> rx.Component:
    content = rx.cond(
        S.loading,
        rx.vstack(rx.skeleton(rx.box(height="80px", width="100%"), loading=True),
                  rx.skeleton(rx.box(height="240px", width="100%"), loading=True), spacing="3", width="100%"),
        rx.vstack(status_line(), _tabs(), spacing="4", width="100%"),
    )
    return page(
        "Record of Advice",
        content,
        _confirm(),
        crumbs=portfolio_crumbs(S, ("Record of Advice", None)),
        actions=_actions(),
    )


def register(app: rx.App) -> None:
    app.add_page(rofa_page, route=routes.ROUTES["portfolios.rofa"], title=f"Record of Advice | {TITLE}",
                 on_load=[AppState.check_login, RofaState.on_load])
