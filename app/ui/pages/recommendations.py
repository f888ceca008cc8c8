"""Recommendation screens: a model's long-term (models.long-terms) and short-term (models.short-terms)
recommendations, and the bulk upload screens (bulk-upload.long-terms, bulk-upload.short-terms)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain.models import SHORT_TERM_ACTIONS
from app.domain.recommendations import UPLOAD_FAILED
from app.ui import routes
from app.ui.toolkit.screen import open_upload_events
from app.ui.components.asset_picker import AssetPickerState, asset_picker
from app.ui.components.layout import page
from app.ui.components.model_selection import model_selection_header, model_selection_row, model_selection_toolbar
from app.ui.components.widgets import (
    cancel_button, confirm_dialog_of, download_button, empty_row, field_error, file_drop_zone, modal, plain_header,
    table_card, table_rows, upload_button,
)
from app.ui.states.base import AppState
from app.ui.states.recommendations import (
    BULK_UPLOAD_ID, LONG_TERM_OPTIONS, UPLOAD_ID, BulkUploadState, ModelRecommendationsState,
)

TITLE = "Wealth Advice"
S = ModelRecommendationsState
B = BulkUploadState
SHORT_TERM_OPTIONS = [(code, code) for code in SHORT_TERM_ACTIONS]
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}


# ---- shared pieces ----------------------------------------------------------------------------------

def _select(options: list[tuple[str, str]], value: Any, on_change: Any, id_: Any, error: Any) -> rx.Component:
    return rx.select.root(
        rx.select.trigger(id=id_, width="100%", color=rx.cond(error != "", rx.color("red", 11), "inherit")),
        rx.select.content(*[rx.select.item(label, value=code) for code, label in options]),
        value=value,
        on_change=on_change,
        size="2",
    )


def _action_color(action: Any) -> Any:
    upper = action.to(str).upper()
    return rx.cond(upper.contains("HOLD"), "amber",
                   rx.cond(upper.contains("SELL") | upper.contains("SA") | upper.contains("SL/"), "red",
                           rx.cond(upper.contains("TAP") | upper.contains("TSP"), "orange", "green")))


def _upload_type_choice(state: Any) -> rx.Component:
    def option(value: str, label: str, text: str) -> rx.Component:
        return rx.el.label(
            rx.hstack(
                rx.radio_group.item(value=value, id=f"upload-type-{value}"),
                rx.vstack(rx.text(label, size="2", weight="medium"), rx.text(text, size="1", color=rx.color("gray", 10)),
                          spacing="0"),
                spacing="3", align="start",
            ),
            cursor="pointer",
        )

    return rx.radio_group.root(
        rx.vstack(
            option("amend", "Amend", "Add the file's recommendations and update those of the same assets; keep the rest."),
            option("replace", "Replace", "Remove the current recommendations: the file's become the whole list."),
            spacing="3",
        ),
        value=state.upload_type,
        on_change=state.set_upload_type,
        name="upload-type",
    )


def _upload_dialog(state: Any, upload_id: str, title: Any, description: Any) -> rx.Component:
    """The upload modal (spec 002 s2): amend or replace, the file, confirm and cancel."""
    zone = file_drop_zone(upload_id, "Drop a CSV or Excel file here, or click to choose one", note="Columns: " + description)
    confirm = upload_button("Confirm", upload_id, state.upload, state.no_file, state.uploading)
    return modal(
        title,
        rx.vstack(
            rx.text("Upload type", size="2", weight="medium"),
            _upload_type_choice(state),
            rx.text("File", size="2", weight="medium", margin_top="8px"),
            zone,
            field_error(state.upload_error, "upload-error"),
            rx.cond(state.uploading, rx.hstack(rx.spinner(size="1"), rx.text("Uploading...", size="1"), spacing="2")),
            rx.hstack(
                cancel_button(on_click=state.close_upload, id="upload-cancel", disabled=state.uploading),
                confirm,
                justify="end", spacing="3", width="100%", margin_top="8px",
            ),
            spacing="2", width="100%",
        ),
        open_=state.upload_open, on_open_change=state.set_upload_open, max_width="520px",
    )


def _failure_dialog(state: Any) -> rx.Component:
    """'The file upload was unsuccessful' with the server's message (spec 000 s8, 002 s8)."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(UPLOAD_FAILED, id="upload-failure-title", custom_attrs={"as": "h2"}),
            rx.box(
                rx.alert_dialog.description(state.failure_message, size="2", id="upload-failure-message",
                                            white_space="pre-wrap"),
                max_height="50vh", overflow_y="auto",
            ),
            rx.hstack(rx.button("OK", on_click=state.close_failure, id="upload-failure-ok"), justify="end", margin_top="16px"),
            max_width="560px", aria_labelledby="upload-failure-title",
        ),
        open=state.failure_open,
    )


# ---- a model's recommendations ---------------------------------------------------------------------
def _edit_cell(row, editor: rx.Component, shown: rx.Component, **props: Any) -> rx.Component:
    """A cell of a recommendation: `editor` while its row is edited, else `shown`."""
    return rx.table.cell(rx.cond(row.editing, editor, shown), **props)


def _asset_cell(row) -> rx.Component:
    key = row.key
    editing_new = row.editing & row.is_new
    return rx.table.cell(
        rx.cond(
            editing_new,
            rx.vstack(
                rx.hstack(
                    rx.input(value=row.e_code, on_change=lambda value: S.set_edit(row.key, "code", value),
                             on_blur=lambda _value: S.lookup_code(row.key), placeholder="Asset code", id="rec-code-" + key,
                             color_scheme=rx.cond(row.err_code != "", "red", "gray"), text_transform="uppercase",
                             width="120px", max_length=20, auto_complete="off", auto_focus=True),
                    rx.icon_button(rx.icon("search", size=14), size="2", variant="soft", color_scheme="gray",
                                   on_click=AssetPickerState.open_for(row.key, S.firm_id, None, "Select asset"),
                                   id="rec-pick-" + key, aria_label="Find an asset", title="Find an asset"),
                    spacing="1", align="center",
                ),
                rx.cond(row.name != "", rx.text(row.name, size="1", color=rx.color("gray", 11), class_name="rec-asset-name")),
                field_error(row.err_code, "rec-code-error-" + key),
                spacing="1",
            ),
            rx.vstack(
                rx.hstack(rx.text(row.code, weight="bold", class_name="rec-code"),
                          rx.cond(S.is_short & row.in_model, rx.badge("In model", variant="soft", size="1")),
                          spacing="2", align="center"),
                rx.text(row.name, size="1", color=rx.color("gray", 11)),
                spacing="0",
            ),
        ),
        min_width="180px",
    )


def _action_cell(row) -> rx.Component:
    key = row.key
    on_change = lambda value: S.set_edit(row.key, "action", value)  # noqa: E731
    return _edit_cell(
        row,
        rx.vstack(
            rx.cond(S.is_short,
                    _select(SHORT_TERM_OPTIONS, row.e_action, on_change, "rec-action-" + key, row.err_action),
                    _select(LONG_TERM_OPTIONS, row.e_action, on_change, "rec-action-" + key, row.err_action)),
            field_error(row.err_action),
            spacing="1", width="130px",
        ),
        rx.badge(rx.cond(S.is_short, row.action, row.action.upper()), color_scheme=_action_color(row.action),
                 variant="soft", class_name="rec-action"),
    )


def _comment_cell(row) -> rx.Component:
    key = row.key
    return _edit_cell(
        row,
        rx.vstack(
            rx.input(value=row.e_comment, on_change=lambda value: S.set_edit(row.key, "comment", value),
                     placeholder="Comment", id="rec-comment-" + key, width="100%", min_width="200px",
                     color_scheme=rx.cond(row.err_comment != "", "red", "gray")),
            field_error(row.err_comment, "rec-comment-error-" + key),
            spacing="1", width="100%",
        ),
        rx.text(row.comment, size="2", class_name="rec-comment", white_space="pre-wrap"),
        min_width="220px",
        width="100%",
    )


def _number_cell(row, field: str, shown: str, placeholder: str) -> rx.Component:
    key = row.key
    error = getattr(row, f"err_{field}")
    return _edit_cell(
        row,
        rx.vstack(
            rx.input(value=getattr(row, f"e_{field}"), on_change=lambda value: S.set_edit(row.key, field, value),
                     placeholder=placeholder, id=f"rec-{field}-" + key, input_mode="decimal", text_align="right",
                     width="110px", color_scheme=rx.cond(error != "", "red", "gray")),
            field_error(error, f"rec-{field}-error-" + key),
            spacing="1", align="end",
        ),
        rx.text(getattr(row, shown), size="2"),
        **NUMBER,
    )


def _row_actions(row) -> rx.Component:
    key = row.key
    return _edit_cell(
        row,
        rx.hstack(
            rx.icon_button(rx.icon("check", size=16), size="1", on_click=S.save_row(row.key), id="rec-save-" + key,
                           aria_label="Save", title="Save"),
            rx.icon_button(rx.icon("x", size=16), size="1", variant="soft", color_scheme="gray",
                           on_click=S.cancel_row(row.key), id="rec-cancel-" + key, aria_label="Cancel", title="Cancel"),
            spacing="2", justify="end",
        ),
        rx.cond(
            S.can_edit,
            rx.hstack(
                rx.icon_button(rx.icon("pencil", size=14), size="1", variant="ghost", color_scheme="gray",
                               on_click=S.edit_row(row.key), id="rec-edit-" + key, aria_label="Edit", title="Edit"),
                rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost", color_scheme="red",
                               on_click=S.ask_delete(row.key), id="rec-delete-" + key, aria_label="Delete",
                               title="Delete"),
                spacing="3", justify="end",
            ),
        ),
        text_align="right",
        white_space="nowrap",
        width="80px",
    )


def _rec_row(row) -> rx.Component:
    return rx.table.row(
        _asset_cell(row),
        _action_cell(row),
        _comment_cell(row),
        rx.cond(S.is_short, _number_cell(row, "price", "price_text", "0.00")),
        rx.cond(S.is_short, _number_cell(row, "yield", "yield_text", "0.0")),
        _row_actions(row),
        align="start",
        class_name=rx.cond(row.editing, "rec-row rec-row-editing", "rec-row"),
        id="rec-row-" + row.key,
        background=rx.cond(row.editing, rx.color("accent", 2), "transparent"),
    )


def _download_button() -> rx.Component:
    """The export call with a download ticket and the browser's offset (spec 000 s7); with no
    recommendations it says so instead."""
    return rx.cond(
        S.saved_count > 0,
        download_button("Download CSV", "download", S.download_path, "rec-download"),
        rx.button(rx.icon("download", size=14), "Download CSV", variant="soft", on_click=S.nothing_to_download,
                  id="rec-download-none"),
    )


def _toolbar() -> rx.Component:
    return rx.hstack(
        rx.cond(
            S.can_edit,
            rx.fragment(
                rx.button(rx.icon("plus", size=16), "Add", on_click=S.add_row, id="rec-add"),
                rx.button(rx.icon("upload", size=14), "Upload", variant="soft", on_click=open_upload_events(S), id="rec-upload-open"),
            ),
        ),
        _download_button(),
        rx.cond(S.can_edit, rx.button(rx.icon("trash-2", size=14), "Delete all", variant="soft", color_scheme="red",
                                      on_click=S.ask_delete_all, id="rec-delete-all")),
        spacing="2", wrap="wrap", align="center",
    )


def _recommendations_page() -> rx.Component:
    header = rx.table.row(
        plain_header("Asset"),
        plain_header("Action"),
        plain_header("Comment"),
        rx.cond(S.is_short, rx.table.column_header_cell("Price", text_align="right")),
        rx.cond(S.is_short, rx.table.column_header_cell("Yield", text_align="right")),
        plain_header(""),
    )
    columns = rx.cond(S.is_short, 6, 4)
    empty = empty_row(columns, rx.cond(S.can_edit, "There are no recommendations for this model yet: add one or upload a file.",
                                       "There are no recommendations for this model."),
                      rx.cond(S.can_edit, rx.button(rx.icon("plus", size=16), "Add", on_click=S.add_row, id="rec-add-empty")))
    body = table_rows(S.rows, _rec_row, 4, loading=S.loading, empty=empty, id="rec-table")
    footer = rx.hstack(
        rx.text(S.count_text, size="2", color=rx.color("gray", 11), id="rec-count"),
        rx.cond(~S.can_edit & ~S.loading, rx.text("Read only: your firm does not own this model.", size="1",
                                                  color=rx.color("gray", 10))),
        justify="between", padding="12px 16px", border_top=f"1px solid {rx.color('gray', 4)}", wrap="wrap", spacing="3",
    )
    columns_text = rx.cond(S.is_short, "code, action, comment, price, yield", "code, action, comment")
    return page(
        S.title,
        table_card(header, body, footer),
        confirm_dialog_of(S),
        _upload_dialog(S, UPLOAD_ID, "Upload " + S.title.to(str), columns_text),
        _failure_dialog(S),
        asset_picker(on_pick=S.asset_picked, id_prefix="rec-asset-picker"),
        crumbs=[("Models", routes.url("models.view")), (S.model_name, S.details_url), (S.title, None)],
        actions=_toolbar(),
        on_save_leave=S.save_and_leave,
    )


# ---- bulk upload ------------------------------------------------------------------------------------
def _bulk_row(model) -> rx.Component:
    return model_selection_row(B, model.id, model.name, model.firm, model.status_title, model.status)


def _results_dialog() -> rx.Component:
    def result(row) -> rx.Component:
        return rx.hstack(
            rx.cond(row.success, rx.icon("circle-check", size=16, color=rx.color("green", 10)),
                    rx.icon("circle-x", size=16, color=rx.color("red", 10))),
            rx.vstack(rx.text(row.name, size="2", weight="medium"),
                      rx.text(row.message, size="1", color=rx.color("gray", 11)), spacing="0"),
            spacing="2", align="start", class_name="bulk-result",
        )

    return modal(
        B.results_title,
        rx.box(rx.vstack(rx.foreach(B.results, result), spacing="3"), max_height="50vh", overflow_y="auto"),
        rx.hstack(rx.button("Close", on_click=B.close_results, id="bulk-results-close"), justify="end", margin_top="16px"),
        open_=B.results_open, max_width="520px", title_id="bulk-results-title",
    )


def _bulk_page() -> rx.Component:
    toolbar = model_selection_toolbar(
        B, rx.button(rx.icon("upload", size=14), "Upload", on_click=open_upload_events(B), id="bulk-upload"))
    header = model_selection_header(B, plain_header("Status"))
    body = table_rows(B.models, _bulk_row, 3, loading=B.loading,
                      empty=empty_row(4, "There are no models you may upload recommendations to."), id="bulk-table")
    columns_text = rx.cond(B.kind == "short_term", "code, action, comment, price, yield", "code, action, comment")
    return page(
        B.title,
        toolbar,
        field_error(B.select_error, "select-error"),
        table_card(header, body),
        _upload_dialog(B, BULK_UPLOAD_ID, B.title, columns_text),
        _results_dialog(),
        _failure_dialog(B),
        crumbs=[("Models", routes.url("models.view")), (B.title, None)],
    )


def register(app: rx.App) -> None:
    for name, title in (("models.long-terms", "Long Term Recommendations"), ("models.short-terms", "Short Term Recommendations")):
        app.add_page(_recommendations_page, route=routes.ROUTES[name], title=f"{title} | {TITLE}",
                     on_load=[AppState.check_login, ModelRecommendationsState.on_load])
    for name, title in (("bulk-upload.long-terms", "Upload Long Term Recommendations"),
                        ("bulk-upload.short-terms", "Upload Short Term Recommendations")):
        app.add_page(_bulk_page, route=routes.ROUTES[name], title=f"{title} | {TITLE}",
                     on_load=[AppState.check_login, BulkUploadState.on_load])
