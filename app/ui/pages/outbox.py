"""Outbox (superuser): the e-mails the product sent, newest first; a click reads one."""
from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    clickable_row, close_button, empty_row, list_footer, modal, page_controls, plain_header, table_card, table_rows,
)
from app.ui.states.base import AppState
from app.ui.states.outbox import OutboxState

TITLE = "Wealth Advice"
DATE_TIME = "DD/MM/YYYY HH:mm"


def _status(status) -> rx.Component:
    return rx.badge(
        rx.match(status, ("delivered", "Delivered"), ("error", "Error"), "Pending"),
        color_scheme=rx.match(status, ("delivered", "green"), ("error", "red"), "amber"),
        variant="soft",
    )


def _row(row) -> rx.Component:
    return clickable_row(
        rx.table.cell(rx.text(row["to"], size="2"), white_space="nowrap"),
        rx.table.cell(rx.text(row["subject"], size="2", weight="medium"), white_space="nowrap"),
        rx.table.cell(rx.moment(row["created_at"], format=DATE_TIME), white_space="nowrap"),
        rx.table.cell(rx.cond(row["attachments"] != "",
                              rx.hstack(rx.icon("paperclip", size=14, aria_hidden="true", flex_shrink="0"),
                                        rx.text(row["attachments"], size="2"), spacing="1", align="center"),
                              rx.text("", size="2")), class_name="outbox-attachments", white_space="nowrap"),
        rx.table.cell(_status(row["status"])),
        on_click=OutboxState.open_mail(row["id"]),
        class_name="outbox-row",
    )


def _mail_dialog() -> rx.Component:
    return modal(
        OutboxState.mail.subject,
        rx.grid(
            rx.text("To", size="2", color=rx.color("gray", 10)),
            rx.text(OutboxState.mail.to_address, size="2", id="mail-to", overflow_wrap="anywhere", min_width="0"),
            rx.text("Date", size="2", color=rx.color("gray", 10)),
            rx.text(rx.moment(OutboxState.mail.created_at, format=DATE_TIME), size="2", id="mail-date"),
            rx.text("Status", size="2", color=rx.color("gray", 10)),
            rx.box(_status(OutboxState.mail.status)),
            columns="auto 1fr",
            spacing_x="4",
            spacing_y="2",
            align_items="center",
        ),
        rx.cond(OutboxState.mail.error != "",
                rx.callout.root(
                    rx.callout.icon(rx.icon("circle-alert")),
                    rx.callout.text(OutboxState.mail.error),
                    rx.cond(OutboxState.mail.attempts != "",
                            rx.callout.text(OutboxState.mail.attempts, " from ",
                                            rx.moment(OutboxState.mail.next_attempt_at, format=DATE_TIME))),
                    color_scheme="red", size="1", margin_top="12px", id="mail-error")),
        rx.cond(OutboxState.mail.attachments.length() > 0, rx.box(
            rx.text("Attachments", size="2", weight="medium", color=rx.color("gray", 11)),
            rx.foreach(OutboxState.mail.attachments, lambda a: rx.hstack(
                rx.icon("paperclip", size=14, aria_hidden="true"),
                rx.text(a["name"], size="2", class_name="mail-attachment-name"),
                rx.text(a["size"], size="1", color=rx.color("gray", 10)),
                spacing="2", align="center")),
            id="mail-attachments", margin_top="12px")),
        rx.box(
            rx.text(
                rx.foreach(
                    OutboxState.mail.segments,
                    lambda seg: rx.cond(
                        seg["href"] != "",
                        rx.link(seg["text"], href=seg["href"], is_external=True, class_name="mail-link",
                                word_break="break-all"),
                        rx.text.span(seg["text"]),
                    ),
                ),
                size="2",
                white_space="pre-wrap",
                overflow_wrap="anywhere",
            ),
            id="mail-body",
            margin_top="16px",
            padding="16px",
            border_radius="8px",
            background=rx.color("gray", 2),
            border=f"1px solid {rx.color('gray', 4)}",
            max_height="50vh",
            overflow_y="auto",
        ),
        rx.hstack(
            close_button(id="mail-close"),
            justify="end",
            margin_top="16px",
        ),
        open_=OutboxState.mail_open, on_open_change=lambda _: OutboxState.close_mail(), max_width="640px",
        title_id="mail-subject",
    )


def outbox_page() -> rx.Component:
    return page(
        "Outbox",
        rx.cond(
            ~OutboxState.smtp_configured,
            rx.callout("No SMTP server is configured: e-mails are not delivered, they are kept here. "
                       "Open one to read it and follow its links.",
                       icon="info", color_scheme="blue", size="1", width="100%", id="outbox-embedded"),
        ),
        table_card(
            rx.table.row(plain_header("To"), plain_header("Subject"), plain_header("Date"), plain_header("Attachments"),
                         plain_header("Status")),
            table_rows(
                OutboxState.rows, _row, 5, loading=OutboxState.loading,
                empty=empty_row(5, "No e-mail has been sent yet. Sign-in links and the notices the portfolios' "
                                   "approval settings ask for will appear here."),
            ),
            list_footer(
                rx.text(OutboxState.total, " e-mails", size="1", color=rx.color("gray", 10), id="outbox-total"),
                page_controls(OutboxState),
            ),
        ),
        _mail_dialog(),
        crumbs=[("Outbox", None)],
        actions=rx.button(rx.icon("refresh-cw", size=14), "Refresh", variant="soft", on_click=OutboxState.refresh,
                          id="outbox-refresh"),
    )


def register(app: rx.App) -> None:
    app.add_page(outbox_page, route=routes.ROUTES["outbox"], title=f"Outbox | {TITLE}",
                 on_load=[AppState.check_login, OutboxState.on_load])
