"""The deposit modals (spec 002 s2): the term deposit transaction form (Buy, Sell, Interest Accrual,
Deposit, and Interest Payment; large, static backdrop), the read-only term deposit modal and the
term deposit AMM modal (large, static, read-only with Reprocess where allowed). Put
`deposit_modals()` on a page once; open them through app.ui.states.deposits.DepositState."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.widgets import cancel_button, close_button, date_input, field, form_grid, label_for, modal, plain_header, text_input
from app.ui.states.deposits import INPUT_NAMES, DepositState as S


def _err(key: str) -> Any:
    return S.form_errors.get(key, "")


def _value(key: str) -> Any:
    """The typed form's input named `key` (the specification's name)."""
    return getattr(S.form, INPUT_NAMES[key])


def _input(key: str, label: str, required: bool = False, read_only: Any = False, **props) -> rx.Component:
    slug = key.lower().replace("_", "-")
    return field(label, text_input(f"deposit-{slug}", _value(key), lambda value: S.set_form_field(key, value),
                                   error=_err(key), read_only=read_only, **props),
                 _err(key), required)


def _date(key: str, label: str, minimum: Any = "", required: bool = False, id_: str = "") -> rx.Component:
    return field(label, date_input(_value(key), lambda value: S.set_form_field(key, value),
                                   id_ or f"deposit-{key.lower()}", error=_err(key), name=key,
                                   minimum=minimum if not isinstance(minimum, str) or minimum else None),
                 _err(key), required)


def _select(label: str, value: Any, options: Any, on_change: Any, id_: str, error: Any = "", disabled: Any = False,
            required: bool = False, placeholder: str = "") -> rx.Component:
    """A select of plain strings (options a list Var of str)."""
    control = rx.select.root(
        rx.select.trigger(placeholder=placeholder or f"Select {label.lower()}", id=id_, width="100%",
                          color=rx.cond(error != "", rx.color("red", 11), "inherit")),
        rx.select.content(rx.foreach(options, lambda o: rx.select.item(o, value=o))),
        value=value, on_change=on_change, disabled=disabled,
    )
    return field(label, control, error, required)


def _option_select(label: str, value: Any, options: Any, on_change: Any, id_: str, error: Any = "",
                   disabled: Any = False, required: bool = False, placeholder: str = "") -> rx.Component:
    """A select of Option(value, label) rows."""
    control = rx.select.root(
        rx.select.trigger(placeholder=placeholder or f"Select {label.lower()}", id=id_, width="100%",
                          color=rx.cond(error != "", rx.color("red", 11), "inherit")),
        rx.select.content(rx.foreach(options, lambda o: rx.select.item(o.label, value=o.value))),
        value=value, on_change=on_change, disabled=disabled,
    )
    return field(label, control, error, required)


def _read_only(label: str, value: Any, id_: str) -> rx.Component:
    return field(label, rx.input(value=value, read_only=True, variant="soft", id=id_, width="100%"))


def _type_buttons() -> rx.Component:
    """Selecting the type toggles between the four forms; Sell, Interest Accrual and Deposit only when
    the portfolio has the deposits they need (spec 002 s4)."""
    return rx.cond(
        S.is_edit,
        rx.fragment(),
        rx.hstack(
            rx.foreach(S.type_forms, lambda o: rx.button(
                o.label,
                variant=rx.cond(S.form_type == o.value, "solid", "soft"),
                color_scheme=rx.cond(S.form_type == o.value, "indigo", "gray"),
                disabled=(o.value != "buy") & ~S.enabled[o.value].to(bool),
                on_click=S.set_form_type(o.value),
                type="button", size="2", id="deposit-type-" + o.value, class_name="deposit-type",
            )),
            spacing="2", wrap="wrap", id="deposit-types",
        ),
    )


def _identity_fields() -> rx.Component:
    """The provider identity: editable while buying, disabled once a deposit is chosen (spec 002 s5)."""
    return form_grid(
        _option_select("Institution", S.form.institution_id, S.institutions, S.choose_institution,
                       "deposit-institution", _err("institution_id"), disabled=S.locked, required=True,
                       placeholder="Select provider"),
        _input("ProviderName", "Provider name", read_only=S.locked),
        _select("Provider type", S.form.provider_type, S.provider_types,
                lambda v: S.set_form_field("ProviderType", v), "deposit-providertype", _err("ProviderType"),
                disabled=S.locked),
        _input("ProviderID", "Provider ID", read_only=S.locked),
        _input("FacilityID", "Facility ID", read_only=S.locked),
        _input("AccountNumber", "Account number", read_only=S.locked),
        _input("DealID", "Deal ID", read_only=S.locked, placeholder=rx.cond(S.locked, "", "Given by the bank or AMM")),
        columns="3",
    )


def _buy_fields() -> rx.Component:
    return rx.vstack(
        form_grid(
            _select("Product type", S.form.product_type, S.product_types, S.set_product_type,
                    "deposit-product", _err("ProviderProductType"), disabled=S.locked, required=True),
            _read_only("Type", S.kind_label, "deposit-kind"),
        ),
        _identity_fields(),
        form_grid(
            _date("StartDate", "Start date", required=True, id_="deposit-start"),
            _input("amount", "Amount ($)", required=True, input_mode="decimal", placeholder="e.g. 10000"),
            rx.cond(S.is_term, _date("MaturityDate", "Maturity date", minimum=S.form.start_date,
                                     id_="deposit-maturity")),
            rx.cond(S.is_term, _input("MaturityTerm", "Term (months)", input_mode="numeric", placeholder="e.g. 6")),
            _input("Rate", "Rate (%)", input_mode="decimal", placeholder="Leave empty while the rate is to confirm"),
            _input("CutOffTime", "Cut-off time", placeholder="HH:MM"),
            rx.cond(S.is_edit, _select("Deal status", S.form.deal_status, S.deal_statuses,
                                       lambda v: S.set_form_field("DealStatus", v), "deposit-deal-status",
                                       _err("DealStatus"))),
            _read_only("TransactionType", S.transaction_type, "deposit-transaction-type"),
            columns="3",
        ),
        rx.hstack(rx.switch(checked=S.form.auto_matured, on_change=S.set_auto_matured, id="deposit-auto-matured"),
                  label_for("Auto matured", control="deposit-auto-matured"),
                  spacing="3", align="center"),
        spacing="4", width="100%",
    )


def _move_fields() -> rx.Component:
    chosen = S.form.deposit_id != ""
    return rx.vstack(
        form_grid(
            _option_select("Deposit", S.form.deposit_id, S.deposit_options, S.choose_deposit, "deposit-choice",
                           _err("deposit_id"), disabled=S.is_edit, required=True),
            _read_only("Type", S.kind_label, "deposit-kind"),
        ),
        rx.cond(
            chosen,
            form_grid(
                _input("ProviderName", "Provider name", read_only=True),
                _input("ProviderType", "Provider type", read_only=True),
                _input("AccountNumber", "Account number", read_only=True),
                _input("DealID", "Deal ID", read_only=True),
                columns="4",
            ),
        ),
        form_grid(
            _date("StartDate", "Date", minimum=S.date_min, required=True, id_="deposit-date"),
            _input("amount", "Amount ($)", required=True, input_mode="decimal"),
            _read_only("TransactionType", S.transaction_type, "deposit-transaction-type"),
            columns="3",
        ),
        rx.cond(S.balance_hint != "", rx.text(S.balance_hint, size="1", color=rx.color("gray", 10), id="deposit-balance-hint")),
        spacing="4", width="100%",
    )


def deposit_form_dialog() -> rx.Component:
    return modal(
        S.form_heading,
        rx.vstack(
            _type_buttons(),
            rx.cond(S.is_buy, _buy_fields(), _move_fields()),
            _input("description", "Description"),
            rx.hstack(
                cancel_button(type="button", on_click=S.close_form, id="deposit-cancel"),
                rx.button(rx.icon("check", size=16), "Save", type="button", loading=S.saving, on_click=S.save_form,
                          id="deposit-save"),
                justify="end", spacing="3", width="100%",
            ),
            spacing="4", width="100%",
        ),
        open_=S.form_open, on_open_change=S.set_form_open, max_width="880px", id_="deposit-form",
        title_id="deposit-form-title", keep_open=True,
    )


def _tx_table(rows: Any, amm: bool) -> rx.Component:
    header = [plain_header("Date")]
    if amm:
        header.append(plain_header("AMM type"))
    header += [plain_header("Type"), plain_header("Status"), plain_header("TransactionType"),
               rx.table.column_header_cell("Amount", text_align="right")]
    header.append(plain_header(""))

    def row(t) -> rx.Component:
        cells = [rx.table.cell(t.date, white_space="nowrap")]
        if amm:
            cells.append(rx.table.cell(rx.text(t.amm_type, weight="medium"), class_name="amm-type"))
        cells += [
            rx.table.cell(t.type_label),
            rx.table.cell(rx.badge(t.status_label, variant="soft", color_scheme=rx.match(
                t.status, ("executed", "green"), ("processing_error", "red"), ("processing", "blue"), "gray")),
                class_name="tx-status"),
            rx.table.cell(t.transaction_type),
            rx.table.cell(t.amount, text_align="right", font_variant_numeric="tabular-nums"),
        ]
        if not amm:
            cells.append(rx.table.cell(rx.cond(
                S.can_edit & t.can_edit,
                rx.icon_button(rx.icon("pencil", size=14), size="1", variant="ghost", aria_label="Edit",
                               on_click=S.edit_viewed(t.id), class_name="deposit-tx-edit"),
            ), text_align="right"))
        if amm:
            cells.append(rx.table.cell(rx.cond(
                t.can_reprocess,
                rx.button(rx.icon("refresh-cw", size=14), "Reprocess", size="1", variant="soft",
                          loading=S.reprocessing, on_click=S.reprocess(t.id), id="reprocess-" + t.id.to_string()),
            ), text_align="right"))
        return rx.table.row(*cells, class_name="amm-row" if amm else "deposit-tx-row")

    return rx.box(
        rx.table.root(
            rx.table.header(rx.table.row(*header)),
            rx.table.body(rx.cond(rows.length() > 0, rx.foreach(rows, row),
                                  rx.table.row(rx.table.cell("No transactions.", col_span=len(header),
                                                             color=rx.color("gray", 10))))),
            variant="ghost", size="1", width="100%",
        ),
        overflow_x="auto", max_height="360px", overflow_y="auto", width="100%",
    )


def deposit_view_dialog() -> rx.Component:
    """The read-only term deposit modal."""
    details = rx.grid(
        rx.foreach(S.view.details, lambda d: rx.vstack(
            rx.text(d.label, size="1", color=rx.color("gray", 10)), rx.text(d.value, size="2", weight="medium"),
            spacing="0")),
        columns=rx.breakpoints(initial="2", sm="4"), spacing="3", width="100%", id="deposit-view-details",
    )
    return modal(
        S.view.title,
        rx.vstack(
            details,
            rx.heading("Transactions", size="3", as_="h3"),
            _tx_table(S.view.rows, amm=False),
            rx.hstack(close_button(id="deposit-view-close"), justify="end", width="100%"),
            spacing="4", width="100%",
        ),
        open_=S.view.open, on_open_change=S.set_view_open, max_width="880px", id_="deposit-view",
        title_id="deposit-view-title",
    )


def deposit_amm_dialog() -> rx.Component:
    """The term deposit AMM modal: read-only, Reprocess on a transaction in error or still pending."""
    return modal(
        rx.hstack(rx.text("AMM transactions"), rx.text(S.amm.title, weight="regular", color=rx.color("gray", 11)),
                  spacing="3", wrap="wrap"),
        rx.vstack(
            rx.hstack(rx.text("Deal status", size="2", color=rx.color("gray", 10)),
                      rx.badge(S.amm.deal_status, variant="soft", id="amm-deal-status"), spacing="2", align="center"),
            _tx_table(S.amm.rows, amm=True),
            rx.hstack(close_button(id="deposit-amm-close"), justify="end", width="100%"),
            spacing="4", width="100%",
        ),
        open_=S.amm.open, on_open_change=S.set_amm_open, max_width="960px", id_="deposit-amm",
        title_id="deposit-amm-title", keep_open=True,
    )


def deposit_modals() -> rx.Component:
    return rx.fragment(deposit_form_dialog(), deposit_view_dialog(), deposit_amm_dialog())


__all__ = ["deposit_amm_dialog", "deposit_form_dialog", "deposit_modals", "deposit_view_dialog"]
