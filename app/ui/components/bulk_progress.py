"""The bulk calculation progress modal (state: app.ui.states.bulk_progress.BulkProgressState).

Render `bulk_progress_modal()` once on a page; open it with `BulkProgressState.attach(run_id)`
and add `BulkProgressState.reattach` to the page's on_load so a run still going is followed again
after a reload."""
from __future__ import annotations

import reflex as rx

from app.ui.components.widgets import modal, nav_link
from app.ui.rows.bulk_progress import RunItem
from app.ui.states.bulk_progress import BulkProgressState

P = BulkProgressState


def _count(label: str, value, id_: str, color: str = "gray") -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color=rx.color("gray", 10), weight="medium"),
        rx.text(value.to_string(), size="5", weight="bold", font_variant_numeric="tabular-nums", id=id_,
                color=rx.color(color, 11)),
        spacing="0", align="center", flex="1",
    )


def _recent(row: RunItem) -> rx.Component:
    failed = row.status == "failed"
    return rx.hstack(
        rx.cond(failed, rx.icon("circle-x", size=14, color=rx.color("red", 10), flex_shrink="0"),
                rx.icon("circle-check", size=14, color=rx.color("green", 10), flex_shrink="0")),
        # a finished portfolio links to what it produced (a real link: a new tab keeps the modal)
        rx.cond(row.url != "",
                nav_link(row.investment_name, href=row.url, before=P.close, size="2", class_name="bulk-recent-name bulk-recent-link",
                         overflow="hidden", text_overflow="ellipsis", white_space="nowrap"),
                rx.text(row.investment_name, size="2", class_name="bulk-recent-name", overflow="hidden",
                        text_overflow="ellipsis", white_space="nowrap")),
        spacing="2", align="center", class_name="bulk-recent", width="100%",
        custom_attrs={"data-status": row.status},
    )


def _error(row: RunItem) -> rx.Component:
    return rx.hstack(
        rx.icon("circle-x", size=16, color=rx.color("red", 10), flex_shrink="0"),
        rx.vstack(rx.text(row.investment_name, size="2", weight="medium", class_name="bulk-error-name"),
                  rx.text(row.message, size="1", color=rx.color("gray", 11), class_name="bulk-error-message"),
                  spacing="0"),
        spacing="2", align="start", class_name="bulk-error",
    )


def _section(title: str, body: rx.Component, id_: str) -> rx.Component:
    return rx.vstack(
        rx.text(title, size="2", weight="bold"),
        rx.box(body, max_height="22vh", overflow_y="auto", width="100%", id=id_,
               border=f"1px solid {rx.color('gray', 5)}", border_radius="6px", padding="8px 10px"),
        spacing="2", width="100%",
    )


def bulk_progress_modal() -> rx.Component:
    return modal(
        P.title,
        rx.vstack(
            rx.hstack(
                rx.text(P.finished.to_string() + "/" + P.total.to_string(), size="6", weight="bold",
                        font_variant_numeric="tabular-nums", id="bulk-progress-count"),
                rx.spacer(),
                rx.cond(P.running,
                        rx.hstack(rx.spinner(size="2"), rx.text("Calculating...", size="2"), spacing="2",
                                  align="center", id="bulk-running"),
                        rx.hstack(rx.icon("circle-check", size=16, color=rx.color("green", 10)),
                                  rx.text("Finished", size="2", weight="medium"), spacing="2", align="center",
                                  id="bulk-finished")),
                width="100%", align="center",
            ),
            rx.progress(value=P.percent, max=100, width="100%", id="bulk-progress-bar",
                        color_scheme=rx.cond(P.failed > 0, "amber", "green")),
            rx.hstack(
                _count("Done", P.done, "bulk-done", "green"),
                _count("Failed", P.failed, "bulk-failed", "red"),
                _count("Total", P.total, "bulk-total"),
                width="100%", spacing="3",
            ),
            rx.cond(P.waiting,
                    rx.callout("Waiting for a worker: nothing has finished for a while. The calculation goes on "
                               "by itself as soon as one is free; nothing done so far is lost.",
                               icon="hourglass", color_scheme="amber", size="1", width="100%", id="bulk-waiting")),
            rx.cond((P.total == 0) & ~P.running,
                    rx.text("There were no portfolios you may calculate.", size="2", color=rx.color("gray", 11),
                            id="bulk-nothing")),
            rx.cond(P.recent.length() > 0,
                    _section("Recently finished", rx.vstack(rx.foreach(P.recent, _recent), spacing="1"),
                             "bulk-recent")),
            rx.cond(P.errors.length() > 0,
                    _section("Errors", rx.vstack(rx.foreach(P.errors, _error), spacing="3"), "bulk-errors")),
            spacing="4", width="100%", margin_top="8px",
        ),
        rx.hstack(
            rx.cond(P.running, rx.text("Closing leaves the calculation running.", size="1",
                                       color=rx.color("gray", 10))),
            rx.spacer(),
            rx.button("Close", on_click=P.close, id="bulk-progress-close", variant="soft"),
            align="center", width="100%", margin_top="16px",
        ),
        open_=P.open, on_open_change=P.set_open, max_width="520px", title_id="bulk-progress-title",
    )
