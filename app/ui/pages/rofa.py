"""portfolios.rofa: the record of advice (spec 002 s2/s4/s8): tabs Overview, Fee, Recommendation and
Authority with Next / Previous, Approve / Decline with their confirmations, and the PDF download.
Clients read and approve it on phones: everything stacks at 390px and tables scroll in their cards."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.capital_gains import capital_gains_panel
from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.rich_text import rich_text
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.widgets import cancel_button, download_button, file_src
from app.ui.pages.target_portfolio import (
    DATE_TIME, tp_alerts, tp_class_bars, tp_class_tables, tp_figures, tp_groups, tp_status_badge,
)
from app.ui.states.base import AppState
from app.domain.advice.target_portfolios import SUPERUSER_NOTE
from app.ui.rows.rofa import WordsLine
from app.ui.states.rofa import TABS, TAB_TITLES, RofaState

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
            rx.cond(S.approved, "Approved by ", "Declined by "), S.decided_by,
            rx.cond(S.decided_by_superuser, SUPERUSER_NOTE, ""), " on ",
            rx.moment(S.decided_at, format=DATE_TIME),
            size="2", color=rx.color("gray", 11), id=f"{prefix}-decided")),
        rx.cond(S.pending & ~S.is_failed, rx.text("Awaiting the client's authority", size="2",
                                                   color=rx.color("gray", 11))),
        spacing="3", align="center", wrap="wrap", id=f"{prefix}-status-line",
    )


# ---- the firm's letterhead and the trades in words -------------------------------------------------------
def _letterhead() -> rx.Component:
    """The firm's letterhead, as on the PDF: logo, name, ABN, authorised representative number,
    licensee and AFSL, adviser; a rule in the firm's colour."""
    head = S.letterhead
    small = {"size": "1", "color": rx.color("gray", 10)}
    return rx.card(
        rx.flex(
            rx.hstack(
                rx.cond(head.logo != "", rx.image(src=file_src(head.logo), alt=head.firm + " logo", max_height="44px",
                                                  max_width="140px", object_fit="contain", id="rofa-logo")),
                rx.vstack(
                    rx.text(head.firm, weight="bold", size="4", id="rofa-firm"),
                    rx.cond(head.abn != "", rx.text("ABN " + head.abn, **small)),
                    rx.cond(head.representative != "", rx.text(head.representative, **small, id="rofa-representative")),
                    spacing="0",
                ),
                spacing="3", align="center",
            ),
            rx.spacer(),
            rx.vstack(
                rx.cond(head.licensee != "", rx.text(rx.text.span("Licensee ", color=rx.color("gray", 10)), head.licensee,
                                                     size="2", id="rofa-licensee")),
                rx.cond(head.adviser != "", rx.text(rx.text.span("Adviser ", color=rx.color("gray", 10)), head.adviser,
                                                    size="2")),
                rx.cond(head.adviser_representative != "", rx.text(head.adviser_representative, **small,
                                                                   id="rofa-adviser-representative")),
                spacing="1", align=rx.breakpoints(initial="start", sm="end"),
            ),
            wrap="wrap", gap="12px", width="100%", align="center",
        ),
        width="100%", size="2", id="rofa-letterhead",
        style={"border_top": "4px solid " + S.colour},
        custom_attrs={"data-layout": S.layout, "data-colour": S.colour},
    )


def _words_line(line: WordsLine) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.hstack(rx.text(line.code, weight="bold", size="2"),
                      rx.cond(line.name != "", rx.text(line.name, size="1", color=rx.color("gray", 10))),
                      spacing="2", align="baseline", wrap="wrap"),
            rx.text(line.reason, size="1", color=rx.color("gray", 11), class_name="words-reason"),
            rx.cond((S.layout == "detailed") & (line.detail != ""),
                    rx.text("Calculation: ", line.detail, size="1", color=rx.color("gray", 9))),
            spacing="1", flex="1", min_width="0",
        ),
        rx.vstack(
            rx.badge(line.trade, color_scheme=line.color, variant="soft", size="2", class_name="words-trade"),
            rx.text(line.target_value, " \u00b7 ", line.target_percent, size="1", color=rx.color("gray", 10),
                    font_variant_numeric="tabular-nums", white_space="nowrap"),
            spacing="1", align="end",
        ),
        gap="12px", width="100%", padding_y="8px", border_bottom=f"1px solid {rx.color('gray', 4)}",
        class_name="words-line", custom_attrs={"data-code": line.code, "data-kind": line.kind},
        background=rx.cond(line.kind == "cash", rx.color("gray", 2), "transparent"),
    )


def _words() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading("What we recommend", size="3", as_="h2"),
            rx.text("Each holding's trade and the reason for it; the cash account shows what the trades leave.",
                    size="1", color=rx.color("gray", 10)),
            rx.vstack(rx.foreach(S.words, _words_line), spacing="0", width="100%", id="rofa-words"),
            spacing="2", width="100%",
        ),
        width="100%", size="2",
    )


# ---- tabs -------------------------------------------------------------------------------------------
def _overview() -> rx.Component:
    facts = rx.card(
        rx.grid(
            _fact("Practice", rx.vstack(_text(S.practice), rx.cond(S.licensee != "", rx.text(S.licensee, size="1",
                                                                                         color=rx.color("gray", 10))),
                                        spacing="0"), "rofa-practice"),
            _fact("Clients", rx.vstack(_text(S.clients), rx.cond(S.client_address != "", rx.text(
                S.client_address, size="1", color=rx.color("gray", 10))), spacing="0"), "rofa-clients"),
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
            _words(),
            tp_figures(S),
            rx.cond(S.layout != "compact", rx.vstack(
                rx.heading("Recommended portfolio", size="4", as_="h2", margin_top="8px"),
                rx.text("Each line shows the holding now, the recommended holding and the reasons behind it.", size="2",
                        color=rx.color("gray", 10)),
                tp_class_bars(S),
                tp_class_tables(S, False),
                spacing="3", width="100%",
            )),
            rx.cond(S.layout == "detailed", tp_groups(S)),
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
            rx.heading("Management fee", size="4", as_="h2"),
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
        rx.heading(title, size="3", as_="h2"),
        rich_text(value, id_),
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
                rx.heading("Capital gains tax estimate", size="3", as_="h2"),
                rx.text(S.cgt_text, size="2", id="rofa-cgt"),
                rx.foreach(S.cgt_notes, lambda note: rx.text(note, size="1", color=rx.color("gray", 11),
                                                             class_name="rofa-cgt-note")),
                spacing="2", width="100%",
            ),
            width="100%", size="2",
        ),
        capital_gains_panel(S.capital_gains, heading_level="h3"),
        spacing="3", width="100%",
    )


def _authority() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading("Authority to proceed", size="4", as_="h2"),
            status_line("authority"),
            rx.cond(
                S.withdraws,
                rx.text("You approved this record of advice. If you no longer agree with it, Withdraw approval "
                        "declines it: your authority to proceed ends and your adviser reviews the advice with you.",
                        size="2", color=rx.color("gray", 11), id="rofa-withdraw-note"),
                rx.text("By approving, you authorise your adviser to proceed with the recommended portfolio and its "
                        "trades as set out in this record of advice. Declining asks your adviser to review it with you.",
                        size="2", color=rx.color("gray", 11)),
            ),
            rx.cond(
                S.can_decide,
                rx.flex(
                    rx.cond(S.can_approve, rx.button(rx.icon("check", size=16), "Approve", color_scheme="green", size="3",
                                                     on_click=S.ask("approve"), loading=S.busy, id="rofa-approve")),
                    rx.cond(S.can_decline, rx.button(rx.icon("x", size=16),
                                                     rx.cond(S.withdraws, "Withdraw approval", "Decline"),
                                                     color_scheme="red", variant="soft", size="3",
                                                     on_click=S.ask("decline"), loading=S.busy, id="rofa-decline")),
                    gap="12px", wrap="wrap", width="100%",
                ),
            ),
            rx.cond(S.letterhead.signature != "", rx.vstack(
                rx.text("Adviser's signature", size="1", color=rx.color("gray", 10)),
                rx.image(src=file_src(S.letterhead.signature), alt="Signature of " + S.letterhead.adviser,
                         max_height="48px", max_width="200px", object_fit="contain"),
                spacing="1")),
            rx.cond(S.disclaimer != "", rx.text(S.disclaimer, size="1", color=rx.color("gray", 10),
                                                white_space="pre-wrap", id="rofa-disclaimer")),
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
            rx.alert_dialog.title(rx.cond(approve, "Approve", rx.cond(S.withdraws, "Withdraw approval", "Decline")),
                                  custom_attrs={"as": "h2"}),
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
        rx.vstack(_letterhead(), status_line(), _tabs(),
                  rx.cond(S.footer != "", rx.text(S.footer, size="1", color=rx.color("gray", 9), id="rofa-footer")),
                  spacing="4", width="100%"),
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
