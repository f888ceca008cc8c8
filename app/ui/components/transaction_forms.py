"""The transaction modals of a portfolio's cash and asset screens (spec 002 s2/s4/s5/s8):

- asset_transaction_modal(S): large, static backdrop; adds a purchase, sell, dividend, interest,
  capital return or reconstruction (the type switch changes the form), edits one, or shows it
  read-only (with Edit where the user may); contract note fields for purchases and sells;
- recreate_confirm(S): the question asked before an errored (or cancelled) transaction's edit is
  saved as a new transaction;
- delete_confirm(S): 'Are you sure you want to delete this transaction?';
- upload_modal(S) and upload_failure_dialog(S): a CSV or .xlsx file of transactions, and the error
  dialog naming the refused lines;
- cash_transaction_modal(S), opening_balance_modal(S), cash_detail_modal(S): the cash screen's.

`S` is a state of app.ui.states.transactions (TransactionForms mixed in; the cash modals need
CashTransactionsState)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.domain import transaction_rules as rules
from app.ui.components.widgets import (
    cancel_button, close_button, confirm_dialog, confirm_dialog_of, date_input, field, field_error, modal,
    spreadsheet_upload_modal, text_input,
)
from app.ui.states.transactions import (
    ASSET_STATUS_OPTIONS, CASH_FORM_OPTIONS, CASH_STATUS_OPTIONS, FORM_OPTIONS, UPLOAD_FAILED, UPLOAD_ID, Detail,
    Option,
)

STATIC = {"on_pointer_down_outside": rx.prevent_default, "on_interact_outside": rx.prevent_default,
          "on_escape_key_down": rx.prevent_default}
UPLOAD_COLUMNS = ", ".join(rules.UPLOAD_COLUMNS)


# ---- small parts --------------------------------------------------------------------------------
def _select(value: Any, options: list[Option], on_change: Any, id_: str, error: Any = "", disabled: Any = False,
            placeholder: str = "") -> rx.Component:
    return rx.select.root(
        rx.select.trigger(placeholder=placeholder, id=id_, width="100%",
                          color=rx.cond(error != "", rx.color("red", 11), "inherit"),
                          variant=rx.cond(disabled, "soft", "surface")),
        rx.select.content(*[rx.select.item(o.label, value=o.value) for o in options]),
        value=value, on_change=on_change, disabled=disabled, name=id_,
    )


def _date(value: Any, on_change: Any, id_: str, error: Any = "", read_only: Any = False) -> rx.Component:
    return date_input(value, on_change, id_, error=error, read_only=read_only)


def _details(rows: Any, id_: str) -> rx.Component:
    def item(d: Detail) -> rx.Component:
        return rx.vstack(rx.text(d.label, size="1", color=rx.color("gray", 10)),
                         rx.text(d.value, size="2", weight="medium", font_variant_numeric="tabular-nums"),
                         spacing="0", min_width="0", class_name="detail-item")

    return rx.grid(rx.foreach(rows, item), columns=rx.breakpoints(initial="2", sm="3"), spacing="3", width="100%",
                   id=id_)


def _footer(*buttons: rx.Component) -> rx.Component:
    return rx.hstack(*buttons, justify="end", spacing="3", width="100%", margin_top="8px", wrap="wrap")


# ---- the asset transaction modal ------------------------------------------------------------------
def _af_input(S: Any, key: str, label: str, required: bool = False, hint: str = "", **props) -> rx.Component:
    error = S.form_errors.get(key, "")
    return field(label, text_input(f"af-{key.replace('_', '-')}", getattr(S.form, key), lambda value: S.set_form_field(key, value),
                                   error=error, read_only=S.af_read_only, **props),
                 error=error, required=required, hint=hint)


def _af_money(S: Any, key: str, label: str, required: bool = False, hint: str = "") -> rx.Component:
    return _af_input(S, key, label, required=required, hint=hint, input_mode="decimal", placeholder="0.00")


def _af_date(S: Any, key: str, label: str, required: bool = False) -> rx.Component:
    error = S.form_errors.get(key, "")
    return field(label, _date(getattr(S.form, key), lambda value: S.set_form_field(key, value), f"af-{key.replace('_', '-')}",
                              error, S.af_read_only), error=error, required=required)


def _type_switch(S: Any) -> rx.Component:
    """The add form's type: each type has its own form (spec 002 s2)."""
    return rx.flex(
        *[rx.button(o.label, size="1", type="button", on_click=S.set_af_form(o.value),
                    variant=rx.cond(S.af_form == o.value, "solid", "soft"),
                    color_scheme=rx.cond(S.af_form == o.value, "indigo", "gray"), id=f"af-type-{o.value}".replace("_", "-"))
          for o in FORM_OPTIONS],
        gap="2", wrap="wrap", id="af-type",
    )


def _asset_field(S: Any) -> rx.Component:
    error = S.form_errors.get("code", "")
    adding = S.form_mode == "add"
    control = rx.hstack(
        rx.input(value=S.form.code, on_change=S.set_af_code, on_blur=S.lookup_code, id="af-code", name="af-code",
                 read_only=~adding, placeholder="e.g. BHP", max_length=20,
                 color_scheme=rx.cond(error != "", "red", "gray"), variant=rx.cond(adding, "surface", "soft"),
                 width="120px", min_width="96px", text_transform="uppercase"),
        rx.cond(adding, rx.button(rx.icon("search", size=14), "Find", variant="soft", type="button",
                                  on_click=S.browse_assets, id="af-browse")),
        rx.text(S.af_asset_name, size="2", color=rx.color("gray", 11), id="af-asset-name", overflow="hidden",
                text_overflow="ellipsis", white_space="nowrap", min_width="0"),
        spacing="2", align="center", width="100%",
    )
    return field("Asset", control, error=error, required=True)


def _trade_fields(S: Any) -> rx.Component:
    status_error = S.form_errors.get("status", "")
    return rx.vstack(
        rx.grid(
            _af_input(S, "quantity", "Quantity", required=True, input_mode="decimal"),
            _af_input(S, "price", "Price per unit ($)", required=True, input_mode="decimal"),
            _af_money(S, "fee", "Brokerage ($)"),
            _af_money(S, "gst", "GST ($)"),
            columns=rx.breakpoints(initial="2", sm="4"), spacing="3", width="100%",
        ),
        rx.cond(S.af_value_hint != "", rx.text(S.af_value_hint, size="1", color=rx.color("gray", 11), id="af-value-hint")),
        rx.grid(
            _af_date(S, "settlement_at", "Settlement date"),
            field("Status", _select(S.form.status, ASSET_STATUS_OPTIONS, lambda v: S.set_form_field("status", v),
                                    "af-status", status_error, S.af_read_only), status_error),
            columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%",
        ),
        rx.box(
            rx.text("Contract note", size="2", weight="bold"),
            rx.grid(
                _af_input(S, "contract_note", "Contract note number"),
                _af_input(S, "order_id", "Order ID"),
                _af_input(S, "limit_price", "Limit price ($)", input_mode="decimal"),
                columns=rx.breakpoints(initial="1", sm="3"), spacing="3", width="100%", margin_top="8px",
            ),
            width="100%", padding="12px", border_radius="8px", background=rx.color("gray", 2),
            border=f"1px solid {rx.color('gray', 4)}", id="af-contract-fields",
        ),
        spacing="3", width="100%",
    )


def _form_fields(S: Any) -> rx.Component:
    two = rx.breakpoints(initial="1", sm="2")
    return rx.match(
        S.af_form,
        ("purchase", _trade_fields(S)),
        ("sell", _trade_fields(S)),
        ("dividend", rx.grid(
            _af_money(S, "amount", "Amount ($)", required=True),
            _af_money(S, "franking_credits", "Franking credits ($)"),
            _af_date(S, "ex_date", "Ex date"),
            columns=rx.breakpoints(initial="1", sm="3"), spacing="3", width="100%")),
        ("interest", rx.grid(_af_money(S, "amount", "Amount ($)", required=True), columns=two, spacing="3",
                             width="100%")),
        ("capital_return", rx.grid(
            _af_money(S, "amount", "Amount ($)", hint="Or a price per unit"),
            _af_input(S, "price", "Price per unit ($)", input_mode="decimal",
                      hint="Multiplied by the units held on the date"),
            columns=two, spacing="3", width="100%")),
        ("reconstruction", rx.grid(_af_input(S, "ratio", "Ratio (new:old)", required=True, placeholder="e.g. 2:1"),
                                   columns=two, spacing="3", width="100%")),
        rx.fragment(),
    )


def asset_transaction_modal(S: Any) -> rx.Component:
    description_error = S.form_errors.get("description", "")
    head = rx.hstack(
        rx.dialog.title(S.af_title, margin="0", id="af-title", custom_attrs={"as": "h2"}),
        rx.cond((S.form_mode != "add") & (S.af_status_label != ""),
                rx.badge(S.af_status_label, variant="soft", id="af-status-badge")),
        rx.spacer(),
        rx.cond((S.form_mode == "view") & S.af_can_edit,
                rx.button(rx.icon("pencil", size=14), "Edit", size="1", variant="soft", on_click=S.switch_to_edit,
                          id="af-edit")),
        width="100%", align="center", spacing="3",
    )
    body = rx.vstack(
        rx.cond(S.form_mode == "add", _type_switch(S)),
        rx.cond((S.form_mode != "add") & (S.af_summary.length() > 0), _details(S.af_summary, "af-summary")),
        rx.grid(
            _asset_field(S),
            _af_date(S, "trade_at", "Trade date", required=True),
            columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%",
        ),
        _form_fields(S),
        field("Description", rx.text_area(value=S.form.description, on_change=lambda v: S.set_form_field("description", v),
                                          id="af-description", read_only=S.af_read_only, rows="2", width="100%",
                                          color_scheme=rx.cond(description_error != "", "red", "gray")),
              error=description_error),
        _footer(
            rx.button(rx.cond(S.af_read_only, "Close", "Cancel"), variant="soft", color_scheme="gray", type="button",
                      on_click=S.close_form, id="af-cancel"),
            rx.cond(~S.af_read_only, rx.button("Save", type="button", on_click=S.save_form, loading=S.saving,
                                               id="af-save")),
        ),
        spacing="3", width="100%",
    )
    return rx.dialog.root(
        rx.dialog.content(head, rx.box(height="12px"), body, max_width="880px", width="96vw",
                          id="asset-transaction-modal", aria_labelledby="af-title", **STATIC),
        open=S.form_open & (S.form_kind == "asset"),
        on_open_change=S.set_form_open,
    )


def recreate_confirm(S: Any) -> rx.Component:
    """A transaction in error (or cancelled in order management) is changed by a new transaction."""
    return confirm_dialog(S.af_question_open, S.af_question, S.confirm_recreate, S.cancel_recreate,
                          confirm_label="Create new transaction", danger=False)


def delete_confirm(S: Any) -> rx.Component:
    return confirm_dialog_of(S)


# ---- upload --------------------------------------------------------------------------------------
def upload_modal(S: Any) -> rx.Component:
    return spreadsheet_upload_modal(
        S, "Upload transactions", "Every line is added, or none: a file with a wrong line adds nothing.",
        "Columns (header row): " + UPLOAD_COLUMNS + ". Date and type are required; types: purchase, sell, dividend, "
        "interest, capital return, reconstruction, withdrawal, credit, income.",
        field_error(S.upload_error, "upload-error"), UPLOAD_ID, "540px", margin_top="8px", wrap="wrap",
    )


def upload_failure_dialog(S: Any) -> rx.Component:
    """'The file upload was unsuccessful' with the server's message and each refused line's reasons."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(UPLOAD_FAILED, id="upload-failure-title", custom_attrs={"as": "h2"}),
            rx.alert_dialog.description(S.failure_message, size="2", id="upload-failure-message"),
            rx.box(
                rx.foreach(S.failure_lines, lambda d: rx.hstack(
                    rx.text(d.label, size="1", weight="bold", white_space="nowrap", min_width="56px"),
                    rx.text(d.value, size="1", color=rx.color("gray", 11)),
                    spacing="2", align="start", class_name="upload-failure-line")),
                max_height="40vh", overflow_y="auto", margin_top="12px", width="100%",
            ),
            rx.hstack(rx.button("OK", on_click=S.close_failure, id="upload-failure-ok"), justify="end", margin_top="16px"),
            max_width="560px", aria_labelledby="upload-failure-title",
        ),
        open=S.failure_open,
    )


# ---- the cash screen's modals ---------------------------------------------------------------------
def _cm_input(S: Any, key: str, label: str, required: bool = False, id_: str = "", **props) -> rx.Component:
    """A field of the cash screen's form dialog (ids cm-<key> unless given)."""
    error, id_ = S.form_errors.get(key, ""), id_ or f"cm-{key.replace('_', '-')}"
    return field(label, text_input(id_, getattr(S.form, key), lambda v: S.set_form_field(key, v), error=error, **props),
                 error=error, required=required)


def _cm_date(S: Any, key: str, label: str, required: bool = False, id_: str = "") -> rx.Component:
    error, id_ = S.form_errors.get(key, ""), id_ or f"cm-{key.replace('_', '-')}"
    return field(label, _date(getattr(S.form, key), lambda v: S.set_form_field(key, v), id_, error), error=error,
                 required=required)


def _cash_form_modal(S: Any, kind: str, prefix: str, title: Any, *parts: rx.Component,
                     description: rx.Component | None = None, **props: Any) -> rx.Component:
    """The cash screen's form dialog open on its `kind` of form: `parts`, then Cancel and Save (ids
    <prefix>-title, <prefix>-cancel, <prefix>-save); `props` style the dialog (max_width, id_)."""
    return modal(
        title,
        description if description is not None else rx.fragment(),
        rx.vstack(
            *parts,
            _footer(
                cancel_button(type="button", on_click=S.close_form, id=f"{prefix}-cancel"),
                rx.button("Save", type="button", on_click=S.save_form, loading=S.saving, id=f"{prefix}-save"),
            ),
            spacing="3", width="100%",
        ),
        open_=S.form_open & (S.form_kind == kind), on_open_change=S.set_form_open, title_id=f"{prefix}-title", **props,
    )


def cash_transaction_modal(S: Any) -> rx.Component:
    """A withdrawal, credit or income (spec 002 s2)."""
    type_error = S.form_errors.get("type", "")
    status_error = S.form_errors.get("status", "")
    description_error = S.form_errors.get("description", "")
    return _cash_form_modal(
        S, "cash", "cm", S.cm_title,
        rx.grid(
            field("Type", _select(S.form.type, CASH_FORM_OPTIONS, lambda v: S.set_form_field("type", v), "cm-type",
                                  type_error), type_error, required=True),
            _cm_input(S, "price", "Amount ($)", required=True, input_mode="decimal", placeholder="0.00"),
            _cm_date(S, "trade_at", "Date", required=True),
            _cm_date(S, "settlement_at", "Settlement date"),
            field("Status", _select(S.form.status, CASH_STATUS_OPTIONS, lambda v: S.set_form_field("status", v),
                                    "cm-status", status_error), status_error),
            columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%",
        ),
        field("Description", rx.text_area(value=S.form.description,
                                          on_change=lambda v: S.set_form_field("description", v),
                                          id="cm-description", rows="2", width="100%",
                                          color_scheme=rx.cond(description_error != "", "red", "gray")),
              error=description_error),
        rx.text("Only executed transactions count in the balance.", size="1", color=rx.color("gray", 10)),
        max_width="560px", id_="cash-transaction-modal",
    )


def opening_balance_modal(S: Any) -> rx.Component:
    """The cash screen's form dialog with its price and trade_at only."""
    return _cash_form_modal(
        S, "opening", "ob", "Opening balance",
        rx.grid(
            _cm_input(S, "price", "Amount ($)", required=True, id_="ob-price", input_mode="decimal",
                      placeholder="0.00"),
            _cm_date(S, "trade_at", "Date", required=True, id_="ob-date"),
            columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%",
        ),
        description=rx.dialog.description("The cash the portfolio held when its records here begin.", size="2",
                                          color=rx.color("gray", 10), margin_bottom="12px"),
        max_width="480px", id_="opening-balance-modal",
    )


def cash_detail_modal(S: Any) -> rx.Component:
    return modal(
        S.detail_title,
        rx.vstack(
            _details(S.detail_rows, "detail-items"),
            _footer(
                rx.cond(S.detail_linked_id > 0,
                        rx.button(rx.icon("arrow-left-right", size=14), "View asset transaction", variant="soft",
                                  on_click=S.view_linked, id="detail-linked")),
                close_button(id="detail-close"),
            ),
            spacing="4", width="100%",
        ),
        open_=S.detail_open, on_open_change=S.set_detail_open, max_width="640px", id_="cash-detail-modal",
        title_id="detail-title",
    )
