"""Portfolio screens: the list in every context, the portfolio form (new / edit / view) and the buy
screen that links a model (spec 001 s2, 002 s2)."""
from __future__ import annotations

from typing import Any, Callable

import reflex as rx

from app.domain import portfolios as rules
from app.ui.components.address import address_fields
from app.ui.components.broker_credentials import broker_credentials_card
from app.ui import routes
from app.ui.components.asset_picker import asset_picker
from app.ui.components.industry_allocations import industry_allocations, industry_totals_bar
from app.ui.components.layout import page
from app.ui.components.widgets import (
    cancel_button, clickable_row, confirm_dialog_of, date_input, empty_row, field, field_error, form_actions, form_grid,
    form_skeleton, label_for, list_count, list_footer, load_more_button, page_controls, plain_header, row_menu, search_input,
    section, sort_header, table_card, table_rows, text_input,
)
from app.ui.pages.users import option_select
from app.ui.states.base import AppState
from app.ui.pages.performance import my_performance_link
from app.ui.pages.tax_report import my_tax_report_link
from app.ui.rows.portfolios import AwaitingRow, PortfolioRow
from app.ui.states.portfolios import (
    CRUMB, LIST_CONTEXTS, LIST_TITLE, PortfolioBuyState, PortfolioFormState, PortfoliosListState,
)

TITLE = "Wealth Advice"
L = PortfoliosListState
F = PortfolioFormState
B = PortfolioBuyState
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums"}


def _status_badge(title: Any, inactive: Any) -> rx.Component:
    return rx.badge(title, color_scheme=rx.cond(inactive, "gray", "green"), variant="soft", class_name="portfolio-status")


def _muted(text: Any) -> rx.Component:
    return rx.cond(text != "", rx.text(text, size="2"), rx.text("\u2014", color=rx.color("gray", 9)))


# ---- the list -------------------------------------------------------------------------------------
def _row_actions(row: PortfolioRow) -> rx.Component:
    return row_menu(
        rx.menu.item("View Holdings", on_click=AppState.navigate(row.holdings_url)),
        rx.menu.item("History", on_click=AppState.navigate(row.history_url), class_name="row-history"),
        rx.cond(L.staff, rx.fragment(
            rx.menu.item("Edit Details", on_click=AppState.navigate(row.edit_url)),
            rx.menu.item(rx.cond(row.has_model, "Change Model", "Link Model"), on_click=AppState.navigate(row.buy_url)),
            rx.cond(row.has_model, rx.menu.item("Unlink Model", on_click=L.ask_unlink(row.id))),
            rx.menu.separator(),
            rx.menu.item("Delete", color="red", on_click=L.ask_delete(row.id), class_name="row-delete"),
        )),
        id="portfolio-actions-" + row.id.to_string(),
    )


def _row(row: PortfolioRow) -> rx.Component:
    def clipped(text: Any, width: str) -> rx.Component:
        return rx.text(text, title=text, max_width=width, overflow="hidden", text_overflow="ellipsis",
                       white_space="nowrap", size="2")

    return clickable_row(
        rx.table.cell(rx.text(row.name, weight="medium", class_name="portfolio-name"), min_width="160px"),
        rx.table.cell(row.type_title, white_space="nowrap"),
        rx.table.cell(clipped(row.holders, "220px")),
        rx.table.cell(_muted(row.adviser), white_space="nowrap"),
        rx.table.cell(rx.cond(row.model != "", clipped(row.model, "200px"),
                              rx.text("Not linked", size="2", color=rx.color("gray", 9))), class_name="portfolio-model"),
        rx.table.cell(_muted(row.broker), white_space="nowrap"),
        rx.cond(L.show_firm, rx.table.cell(clipped(row.firm, "180px"))),
        rx.table.cell(_status_badge(row.status_title, row.inactive)),
        rx.table.cell(_row_actions(row), on_click=rx.stop_propagation, text_align="right", width="48px"),
        href=row.holdings_url,
        align="center",
        class_name="portfolio-row",
        id="portfolio-row-" + row.id.to_string(),
    )


def _header() -> rx.Component:
    s, o, on = L.sort, L.order, L.toggle_sort
    return rx.table.row(
        sort_header("Name", "name", s, o, on),
        sort_header("Type", "type", s, o, on),
        plain_header("Holders"),
        sort_header("Adviser", "adviser", s, o, on),
        sort_header("Model", "model", s, o, on),
        sort_header("Broker", "broker", s, o, on),
        rx.cond(L.show_firm, plain_header("Firm")),
        sort_header("Status", "inactive", s, o, on),
        plain_header(""),
    )


def _toolbar() -> rx.Component:
    return rx.flex(
        search_input("Search by portfolio, holder or model", L.search, L.set_search, "portfolio-search",
                     debounce_timeout=350, name="search", width=["100%", "100%", "300px"]),
        # the activity filter is hidden from clients (001 s6)
        rx.cond(~AppState.is_client,
                rx.box(option_select(L.activity, L.activity_options, L.set_activity, id="activity-filter"),
                       min_width="160px")),
        rx.box(option_select(L.broker_filter, L.broker_options, L.set_broker_filter, id="broker-filter"),
               min_width="180px"),
        rx.cond(L.filtered, rx.button(rx.icon("x", size=14), "Clear", variant="ghost", color_scheme="gray",
                                      on_click=L.clear_filters, id="clear-filters")),
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def _add_new(variant: str = "solid", id_: str = "portfolio-new") -> rx.Component:
    return rx.cond(L.new_url != "", rx.button(rx.icon("plus", size=16), "Add New", variant=variant, id=id_,
                                              on_click=AppState.navigate(L.new_url)))


# ---- client home: what awaits the client's decision ------------------------------------------------
AWAITING_TITLE = "Awaiting your decision"
NOTHING_AWAITING = "Nothing awaits your decision: your adviser will let you know when there is."


def _awaiting_row(row: AwaitingRow) -> rx.Component:
    icon = rx.cond(row.kind == "record", rx.icon("file-check", size=18), rx.icon("arrow-left-right", size=18))
    return rx.link(
        rx.flex(
            rx.center(icon, width="36px", height="36px", border_radius="8px", flex_shrink="0",
                      background=rx.color("accent", 3), color=rx.color("accent", 11)),
            rx.vstack(
                rx.text(row.portfolio, weight="bold", size="2", class_name="awaiting-portfolio"),
                rx.text(row.what, size="2", color=rx.color("gray", 11), class_name="awaiting-what"),
                spacing="0", min_width="0", flex="1",
            ),
            rx.vstack(
                rx.text("Sent ", rx.moment(row.sent_at, format="DD/MM/YYYY"), size="1", color=rx.color("gray", 11),
                        white_space="nowrap", class_name="awaiting-sent"),
                rx.text("Waiting ", row.waiting, size="1", weight="medium", white_space="nowrap",
                        color=rx.color("amber", 11), class_name="awaiting-waiting"),
                spacing="0", align="end",
            ),
            rx.icon("chevron-right", size=16, color=rx.color("gray", 9), flex_shrink="0"),
            gap="12px", align="center", width="100%", padding="10px 16px",
            border_top=f"1px solid {rx.color('gray', 4)}", _hover={"background": rx.color("gray", 3)},
        ),
        href=row.url, underline="none", color="inherit", width="100%", display="block",
        class_name="awaiting-item", id="awaiting-" + row.key,
        custom_attrs={"data-kind": row.kind, "data-portfolio": row.portfolio},
    )


def _awaiting_panel() -> rx.Component:
    """Client home: every record of advice and every set of trades awaiting the client, each one
    click from the screen where the client decides."""
    return rx.card(
        rx.hstack(
            rx.icon("bell", size=16, color=rx.color("accent", 11)),
            rx.text(AWAITING_TITLE, size="3", weight="bold"),
            rx.cond(L.awaiting.length() > 0,
                    rx.badge(L.awaiting.length(), color_scheme="amber", variant="solid", radius="full",
                             id="awaiting-count")),
            spacing="2", align="center", padding="12px 16px",
        ),
        rx.cond(
            L.awaiting_loading,
            rx.box(rx.skeleton(rx.box(height="40px", width="100%"), loading=True), padding="0 16px 12px"),
            rx.cond(
                L.awaiting.length() > 0,
                rx.box(rx.foreach(L.awaiting, _awaiting_row), width="100%"),
                rx.text(NOTHING_AWAITING, size="2", color=rx.color("gray", 11), padding="0 16px 14px", as_="div",
                        id="awaiting-none"),
            ),
        ),
        width="100%", size="1", padding="0", id="awaiting-panel",
    )


def _list_crumbs(route_name: str) -> list[Any]:
    if LIST_CONTEXTS[route_name] in ("client", "adviser", "firm", "model"):
        return [(L.parent_title, L.parent_url), (L.context_name, L.context_url), (CRUMB, None)]
    return [(CRUMB, None)]


def portfolios_list_page(route_name: str) -> rx.Component:
    columns = rx.cond(L.show_firm, 9, 8)
    body = table_rows(L.rows, _row, 8, loading=L.loading,
                      empty=empty_row(columns, L.empty_text, _add_new("soft", "portfolio-new-empty")),
                      id="portfolios-table")
    footer = list_footer(list_count(L.showing, id_="portfolios-showing"), page_controls(L))
    title: Any = LIST_TITLE
    if LIST_CONTEXTS[route_name] in ("client", "adviser", "firm", "model"):
        title = rx.cond(L.context_name != "", L.context_name + " \u00b7 " + LIST_TITLE, LIST_TITLE)
    return page(
        title,
        _awaiting_panel() if LIST_CONTEXTS[route_name] == "me" else rx.fragment(),
        _toolbar(),
        table_card(_header(), body, footer),
        confirm_dialog_of(L),
        crumbs=_list_crumbs(route_name),
        actions=rx.hstack(my_performance_link(), my_tax_report_link(), spacing="2", wrap="wrap")
        if LIST_CONTEXTS[route_name] == "me" else _add_new(),
    )


# ---- the form: shared pieces ----------------------------------------------------------------------
def _err(key: Any) -> Any:
    return F.errors.get(key, "")


def _error_text(key: Any, id_: Any = None) -> rx.Component:
    return field_error(_err(key), id_)


def _text_field(label: str, key: str, required: bool = False, hint: str = "", **props) -> rx.Component:
    error = _err(key)
    control = text_input(key, getattr(F, key), lambda value: F.set_field(key, value), error, F.read_only, **props)
    return field(label, control, error, required, hint)


def _read(value: Any, id_: str) -> rx.Component:
    return rx.input(value=value, read_only=True, variant="soft", width="100%", id=id_, name=id_)


def _select(label: str, key: str, options: Any, shown: Any, required: bool = False, placeholder: str = "Select") \
        -> rx.Component:
    error = _err("broker" if key == "broker_id" else "adviser" if key == "adviser_id" else key)
    control = rx.cond(
        F.read_only,
        _read(shown, key),
        option_select(getattr(F, key), options, lambda value: F.set_select(key, value), id=key, placeholder=placeholder,
                      error=error),
    )
    return field(label, control, error, required)


def _static_select(label: str, key: str, pairs: list[tuple[str, str]], shown: Any, required: bool = False) -> rx.Component:
    error = _err(key)
    control = rx.cond(
        F.read_only,
        _read(shown, key),
        rx.select.root(
            rx.select.trigger(placeholder="Select", id=key, width="100%",
                              color=rx.cond(error != "", rx.color("red", 11), "inherit")),
            rx.select.content(*[rx.select.item(text, value=value) for value, text in pairs]),
            value=getattr(F, key), on_change=lambda value: F.set_select(key, value), name=key,
        ),
    )
    return field(label, control, error, required)


def _switch(label: str, checked: Any, on_change: Callable[[Any], Any], id_: str, hint: str = "",
            disabled: Any = False) -> rx.Component:
    """A yes/no setting: a switch, or (read-only) an On / Off mark, since a disabled switch reads as off."""
    shown = rx.cond(
        F.read_only,
        rx.badge(rx.cond(checked, rx.icon("check", size=12), rx.icon("minus", size=12)), rx.cond(checked, "On", "Off"),
                 color_scheme=rx.cond(checked, "green", "gray"), variant="soft", id=id_),
        rx.switch(checked=checked, on_change=on_change, id=id_, disabled=disabled),
    )
    return rx.hstack(
        shown,
        rx.vstack(label_for(label, control=id_),
                  rx.text(hint, size="1", color=rx.color("gray", 10)) if hint else rx.fragment(), spacing="0"),
        spacing="3", align="center",
    )


def _number(key: str, value: Any, on_change: Any, error: Any, placeholder: str = "") -> rx.Component:
    return text_input(key, value, on_change, error=error, read_only=F.read_only, input_mode="decimal",
                      text_align="right", placeholder=rx.cond(F.read_only, "", placeholder))


# ---- the form: sections -------------------------------------------------------------------------------
def _identity() -> rx.Component:
    inactive = rx.cond(
        F.can_edit_inactive & ~F.read_only,
        _switch("Inactive", F.inactive, F.set_inactive, "portfolio-inactive",
                hint="Only a superuser changes this. New portfolios start inactive."),
        rx.hstack(rx.text("Status", size="2", weight="medium"),
                  _status_badge(rx.cond(F.inactive, "Inactive", "Active"), F.inactive),
                  spacing="3", align="center", id="portfolio-status"),
    )
    return section(
        "Portfolio",
        form_grid(
            field("Name", text_input("portfolio-name", F.name, lambda value: F.set_field("name", value), _err("name"),
                                     F.read_only, placeholder=rx.cond(F.read_only, "", "e.g. Smith Family Super"),
                                     max_length=200), _err("name"), required=True),
            _static_select("Type", "type", list(rules.TYPE_TITLES.items()), F.type_title, required=True),
            rx.cond(F.shows_trustee, _text_field("Trustee name", "trustee_name", required=True, max_length=200)),
            rx.cond(F.shows_trustee, _text_field("Trustee ABN", "trustee_abn", input_mode="numeric", max_length=14)),
            rx.cond(F.shows_company, _text_field("Company name", "company_name", required=True, max_length=200)),
            rx.cond(F.shows_company, _text_field("Company ABN", "company_abn", input_mode="numeric", max_length=14)),
            field("Statement of advice date",
                  rx.cond(F.read_only, _read(F.soa_date_text, "soa_date"),
                          date_input(F.soa_date, lambda value: F.set_field("soa_date", value), "soa_date")),
                  _err("soa_date")),
            field("Firm", _read(F.firm_label, "portfolio-firm")),
        ),
        inactive,
    )


def _holder_row(holder: Any) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.text(holder.name, weight="medium"), class_name="holder-name"),
        rx.table.cell(
            rx.cond(F.read_only,
                    rx.cond(holder.is_owner, rx.badge("Owner", variant="soft", color_scheme="indigo"),
                            rx.text("Holder", size="2", color=rx.color("gray", 10))),
                    rx.hstack(rx.switch(checked=holder.is_owner, on_change=lambda value: F.set_owner(holder.id, value),
                                        size="1", id="holder-owner-" + holder.id.to_string(),
                                        aria_label="Owner: " + holder.name),
                              rx.text("Owner", size="2", aria_hidden="true"), spacing="2", align="center")),
        ),
        rx.table.cell(
            rx.cond(~F.read_only,
                    rx.icon_button(rx.icon("x", size=14), size="1", variant="ghost", color_scheme="red", type="button",
                                   aria_label="Remove holder", on_click=F.remove_holder(holder.id))),
            text_align="right", width="40px",
        ),
        align="center", class_name="holder-row",
    )


def _people() -> rx.Component:
    add = rx.cond(
        ~F.read_only,
        rx.box(
            rx.select.root(
                rx.select.trigger(placeholder="Add holder", id="add-holder", width="100%", aria_label="Add holder"),
                rx.select.content(rx.foreach(F.addable_clients, lambda o: rx.select.item(o.label, value=o.value))),
                value="", on_change=F.add_holder, disabled=F.addable_clients.length() == 0,
            ),
            max_width="320px", width="100%",
        ),
    )
    return section(
        "Holders and adviser",
        rx.vstack(
            rx.text("Holders", size="2", weight="medium"),
            rx.cond(
                F.holders.length() > 0,
                rx.box(rx.table.root(rx.table.body(rx.foreach(F.holders, _holder_row)), variant="ghost", size="1",
                                     width="100%"), width="100%", overflow_x="auto", id="holders"),
                rx.text("No holders yet: add the clients who hold this portfolio.", size="2",
                        color=rx.color("gray", 10), id="holders"),
            ),
            add,
            field_error(F.holders_error),
            spacing="2", width="100%",
        ),
        form_grid(_select("Adviser", "adviser_id", F.adviser_options, F.adviser_label)),
        description="Holders and the adviser are people of the portfolio's firm.",
    )


def _model_card() -> rx.Component:
    return rx.cond(
        F.mode != "new",
        section(
            "Model",
            rx.flex(
                rx.cond(F.model_name != "",
                        rx.hstack(rx.icon("chart-pie", size=16, color=rx.color("accent", 9)),
                                  rx.text(F.model_name, weight="medium", id="portfolio-model"),
                                  rx.cond(F.model_cross_firm, rx.badge("Another firm's model", variant="soft",
                                                                        color_scheme="amber")),
                                  spacing="2", align="center"),
                        rx.text("Not linked to a model.", size="2", color=rx.color("gray", 10), id="portfolio-model")),
                rx.spacer(),
                rx.cond(F.can_edit, rx.hstack(
                    rx.button(rx.icon("link", size=14), rx.cond(F.model_name != "", "Change model", "Link model"),
                              variant="soft", type="button", on_click=AppState.navigate(F.buy_url), id="link-model"),
                    rx.cond(F.model_name != "",
                            rx.button(rx.icon("unlink", size=14), "Unlink", variant="soft", color_scheme="red",
                                      type="button", on_click=F.ask_unlink, id="unlink-model")),
                    spacing="2", wrap="wrap")),
                wrap="wrap", spacing="3", align="center", width="100%",
            ),
        ),
    )


def _bank_and_broker() -> rx.Component:
    return section(
        "Bank and broker",
        form_grid(
            _select("Bank (cash account)", "institution_id", F.institution_options, F.institution_label),
            _text_field("BSB", "bank_bsb", placeholder=rx.cond(F.read_only, "", "062-000"), max_length=7,
                        input_mode="numeric"),
            _text_field("Bank account", "bank_account", input_mode="numeric", max_length=10),
            _select("Broker", "broker_id", F.broker_options, F.broker_label),
            _text_field("Broker account", "broker_account", max_length=40),
            _text_field("HIN", "hin", max_length=20, hint="Holder Identification Number"),
            _text_field("Facility ID", "facility_id", max_length=40),
            columns="3",
        ),
    )


def _fees_and_tax() -> rx.Component:
    return section(
        "Fees and tax",
        form_grid(
            field("Adviser fee %", _number("fee_percent", F.fee_percent, lambda v: F.set_field("fee_percent", v),
                                           _err("fee_percent"), "0.00"), _err("fee_percent")),
            field("Min fee $", _number("fee_limit_min", F.fee_limit_min, lambda v: F.set_field("fee_limit_min", v),
                                       _err("fee_limit_min")), _err("fee_limit_min")),
            field("Max fee $", _number("fee_limit_max", F.fee_limit_max, lambda v: F.set_field("fee_limit_max", v),
                                       _err("fee_limit_max")), _err("fee_limit_max"),
                  hint="Cleared when there is no fee."),
            columns="3",
        ),
        form_grid(
            _static_select("Tax treatment", "tax_treatment", list(rules.TAX_TREATMENT_TITLES.items()),
                           F.tax_treatment_title),
            field("Sell look-back period (days)",
                  _number("sell_look_back_period", F.sell_look_back_period,
                          lambda v: F.set_field("sell_look_back_period", v), _err("sell_look_back_period"), "0"),
                  _err("sell_look_back_period")),
        ),
    )


def _limit(key: str) -> rx.Component:
    error = _err(key)
    return field(rules.LIMIT_LABELS[key], _number(key, F.limits[key], lambda v: F.set_limit(key, v), error), error)


def _limits() -> rx.Component:
    equal = ("min_asset_allocation", "min_asset_allocation_value", "max_asset_allocation_value", "max_exposure",
             "min_trade_amount", "min_cash_allocation", "min_cash_allocation_value")
    percentages = ("percentages_max_exposure", "percentages_min_trade_amount", "percentages_min_cash_balance",
                   "percentages_min_cash_balance_value")
    return section(
        "Asset allocation limits",
        rx.text("Equal amounts models", size="2", weight="medium", color=rx.color("gray", 11)),
        form_grid(*[_limit(k) for k in equal], columns="3"),
        rx.text("Percentages models", size="2", weight="medium", color=rx.color("gray", 11)),
        form_grid(*[_limit(k) for k in percentages], columns="3"),
        rx.grid(
            _switch("Suspend rebalancing", F.suspend_rebalancing, lambda v: F.set_switch("suspend_rebalancing", v),
                    "switch-suspend-rebalancing", hint="No target portfolio is calculated."),
            _switch("Suspend trade recommendations", F.suspend_tr_calculation,
                    lambda v: F.set_switch("suspend_tr_calculation", v), "switch-suspend-tr",
                    hint="No trade recommendations are calculated."),
            columns=rx.breakpoints(initial="1", sm="2"), spacing="4", width="100%",
        ),
        description="A max must be more than its min; leave a field empty for no limit.",
    )


def _lines_table(header: rx.Component, lines: Any, line: Any, columns: int, none_yet: str, id_: str) -> rx.Component:
    """A table of the form's editable lines (classes, exceptions), or a line saying there are none yet."""
    return rx.box(rx.table.root(
        rx.table.header(header),
        rx.table.body(rx.cond(lines.length() > 0, rx.foreach(lines, line),
                              rx.table.row(rx.table.cell(rx.text(none_yet, size="2", color=rx.color("gray", 10)),
                                                         col_span=columns, text_align="center", padding_y="16px")))),
        variant="ghost", size="1", width="100%"), overflow_x="auto", width="100%", id=id_)


def _class_row(line: Any) -> rx.Component:
    cid = line.class_id.to_string()

    def cell(key: str, label: str) -> rx.Component:
        prefix = "class-" + key + "-" + cid
        return rx.table.cell(
            rx.box(text_input(prefix, getattr(line, key), lambda v: F.set_class_field(line.class_id, key, v),
                              read_only=F.read_only, input_mode="decimal", text_align="right", size="1",
                              aria_label=label), width="84px"),
            **NUMBER,
        )

    return rx.table.row(
        rx.table.cell(rx.hstack(rx.text(line.title, weight="medium"),
                                rx.cond(line.is_cash, rx.badge("Cash", variant="soft", color_scheme="gray")),
                                spacing="2", align="center", min_width="160px")),
        cell("allocation", "Allocation %"), cell("min", "Min %"), cell("max", "Max %"),
        rx.table.cell(rx.cond(~F.read_only, rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost",
                                                           color_scheme="red", type="button", aria_label="Remove class",
                                                           on_click=F.remove_class(line.class_id))),
                      text_align="right", width="40px"),
        align="center", class_name="class-row", id="class-row-" + cid,
    )


def _class_errors() -> rx.Component:
    """Row errors of the class table (keyed by row index in the payload)."""
    return rx.foreach(
        F.classes,
        lambda line, i: rx.fragment(*[_error_text("allocation_classes." + i.to_string() + "." + key)
                                      for key in ("class_id", "allocation", "min", "max")]),
    )


def _class_allocation() -> rx.Component:
    add = rx.cond(
        ~F.read_only,
        rx.box(rx.select.root(
            rx.select.trigger(placeholder="Add class", id="add-class", aria_label="Add class"),
            rx.select.content(rx.foreach(F.addable_classes, lambda c: rx.select.item(c.title, value=c.class_id.to_string()))),
            value="", on_change=F.add_class, disabled=F.addable_classes.length() == 0,
        )),
    )
    header = rx.table.row(plain_header("Class"),
                          *[rx.table.column_header_cell(t, text_align="right", white_space="nowrap")
                            for t in ("Allocation %", "Min %", "Max %")], plain_header(""))
    return section(
        "Class allocation",
        _switch("Custom class allocation", F.class_allocation, lambda v: F.set_switch("class_allocation", v),
                "switch-class-allocation", hint="When on, these classes replace the model's and total 100%."),
        _lines_table(header, F.classes, _class_row, 5, "No classes yet. Add a class to set its allocation.",
                     "class-table"),
        _class_errors(),
        add,
        industry_totals_bar(F.class_bar.label, F.class_bar.color, F.class_bar.width, _err("allocation_classes"),
                            prefix="class"),
    )


def _industry_groups() -> rx.Component:
    return section(
        "Industry group allocation",
        _switch("Custom industry group allocation", F.industry_group_allocation,
                lambda v: F.set_switch("industry_group_allocation", v), "switch-industry-group-allocation",
                hint="When on, these caps apply; their total is at most 100%."),
        industry_allocations(F, read_only=F.read_only, prefix="ig", fields=("allocation",)),
    )


def _exception_row(line: Any, i: Any) -> rx.Component:
    prefix = "exceptions." + i.to_string()
    is_substitute = line.action == rules.ExceptionAction.SUBSTITUTE.value
    target = rx.cond(
        line.asset_id != 0,
        rx.hstack(rx.text(line.code, weight="bold", size="2", font_family="var(--code-font-family)"),
                  rx.text(line.label, size="2", color=rx.color("gray", 11), overflow="hidden", text_overflow="ellipsis",
                          white_space="nowrap", max_width="220px"), spacing="2", align="center"),
        rx.hstack(rx.badge("Custom", variant="soft", color_scheme="blue"), rx.text(line.label, size="2"),
                  spacing="2", align="center"),
    )
    action = rx.cond(
        F.read_only,
        rx.text(rx.match(line.action, *[(k, t) for k, t in rules.EXCEPTION_TITLES.items()], line.action), size="2"),
        rx.select.root(
            rx.select.trigger(id="exception-action-" + i.to_string(), width="200px"),
            rx.select.content(*[rx.select.item(t, value=k) for k, t in rules.EXCEPTION_TITLES.items()]),
            value=line.action, on_change=lambda value: F.set_exception_action(i, value), size="1",
        ),
    )
    substitution = rx.cond(
        is_substitute,
        rx.hstack(
            rx.cond(line.substitute_id != 0,
                    rx.text(line.substitute_code, weight="bold", size="2", title=line.substitute_name),
                    rx.text("\u2014", color=rx.color("gray", 9))),
            rx.cond(~F.read_only, rx.button(rx.icon("search", size=12), rx.cond(line.substitute_id != 0, "Change", "Choose"),
                                            size="1", variant="soft", type="button",
                                            on_click=F.open_picker("substitute:" + i.to_string()),
                                            id="exception-substitute-" + i.to_string())),
            spacing="2", align="center",
        ),
        rx.text("\u2014", color=rx.color("gray", 9)),
    )
    return rx.table.row(
        rx.table.cell(rx.vstack(target, _error_text(prefix + ".asset_id"), spacing="1")),
        rx.table.cell(rx.vstack(action, _error_text(prefix + ".action"), spacing="1")),
        rx.table.cell(rx.vstack(substitution, _error_text(prefix + ".substitute_asset_id"), spacing="1")),
        rx.table.cell(rx.cond(~F.read_only, rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost",
                                                           color_scheme="red", type="button",
                                                           aria_label="Remove exception",
                                                           on_click=F.remove_exception(i))),
                      text_align="right", width="40px"),
        align="center", class_name="exception-row",
    )


def _exceptions() -> rx.Component:
    add = rx.cond(
        ~F.read_only,
        rx.flex(
            rx.button(rx.icon("plus", size=14), "Add asset exception", size="2", variant="soft", type="button",
                      on_click=F.open_picker("exception"), id="add-asset-exception"),
            rx.cond(F.addable_holdings.length() > 0,
                    rx.select.root(
                        rx.select.trigger(placeholder="Add custom holding exception", id="add-holding-exception"),
                        rx.select.content(rx.foreach(F.addable_holdings, lambda o: rx.select.item(o.label, value=o.value))),
                        value="", on_change=F.add_holding_exception,
                    )),
            spacing="3", wrap="wrap", align="center",
        ),
    )
    header = rx.table.row(plain_header("Asset"), plain_header("Action"), plain_header("Substitution"), plain_header(""))
    return section(
        "Exceptions",
        _lines_table(header, F.exceptions, _exception_row, 4, "No exceptions: the model applies to every asset.",
                     "exceptions-table"),
        add,
        description="Don't hold, Substitute, Manual Trade Decision or Lock an asset or custom holding.",
    )


# ---- approval settings ------------------------------------------------------------------------------------
def _approval_switch(key: str, disabled: Any = False) -> rx.Component:
    return _switch(rules.APPROVAL_LABELS[key], F.approval[key], lambda value: F.set_approval(key, value),
                   "approval-" + key.replace("_", "-"), disabled=disabled)


def _receivers(switch: str) -> rx.Component:
    key = rules.RECEIVER_FIELDS[switch]
    error = _err("approval_settings." + key)
    return rx.cond(
        F.approval[switch],
        rx.box(field(rules.APPROVAL_LABELS[key],
                     text_input("receivers-" + key.replace("_", "-"), F.receivers[key],
                                lambda value: F.set_receivers(key, value), error, F.read_only,
                                placeholder=rx.cond(F.read_only, "", "name@example.com, other@example.com")),
                     error, required=True, hint="Comma-separated e-mail addresses."),
               padding_left="44px", width="100%"),
    )


def _approval_group(title: str, *children: rx.Component) -> rx.Component:
    return rx.vstack(rx.text(title, size="2", weight="bold", color=rx.color("gray", 11)), *children, spacing="3",
                     width="100%", padding="12px", border=f"1px solid {rx.color('gray', 4)}", border_radius="8px")


def _approval() -> rx.Component:
    auto = rx.cond(
        F.read_only,
        _read(F.auto_approval_title, "tr-auto-approval"),
        rx.select.root(
            rx.select.trigger(id="tr-auto-approval", width="100%"),
            rx.select.content(*[rx.select.item(t, value=k) for k, t in rules.AUTO_APPROVAL_OPTIONS]),
            value=F.auto_approval, on_change=lambda value: F.set_approval(rules.AUTO_APPROVAL, value),
            disabled=~F.approval["tr_approval_required"],
        ),
    )

    def person(who: str) -> list[rx.Component]:
        return [
            _approval_switch(f"tp_approval_notification_{who}"),
            _approval_switch(f"tr_approval_notification_{who}"),
            _approval_switch(f"{who}_attach_roa_pdf"),
            _approval_switch(f"{who}_attach_tr_pdf"),
            _approval_switch(f"{who}_send_tp_to_other_email"),
            _receivers(f"{who}_send_tp_to_other_email"),
            _approval_switch(f"{who}_send_tr_to_other_email"),
            _receivers(f"{who}_send_tr_to_other_email"),
            _approval_switch(f"{who}_other_email_attach_roa_pdf"),
            _approval_switch(f"{who}_other_email_attach_tr_pdf"),
        ]

    return section(
        "Approval settings",
        rx.grid(
            _approval_group(
                "Target portfolio (record of advice)",
                _approval_switch("tp_validation_required"),
                _approval_switch("tp_approval_required"),
                _approval_switch("tp_approval_request"),
                _approval_switch("tp_approval_request_pdf", disabled=~F.approval["tp_approval_request"]),
            ),
            _approval_group(
                "Trade recommendations",
                _approval_switch("tr_validation_required"),
                _approval_switch("tr_approval_required"),
                _approval_switch("tr_approval_request"),
                _approval_switch("tr_approval_request_pdf", disabled=~F.approval["tr_approval_request"]),
                field(rules.APPROVAL_LABELS[rules.AUTO_APPROVAL], auto, _err("approval_settings.tr_auto_approval"),
                      hint="Needs trade approval required."),
            ),
            _approval_group("Client notifications", *person("client")),
            _approval_group("Adviser notifications", *person("adviser")),
            columns=rx.breakpoints(initial="1", lg="2"), spacing="4", width="100%",
        ),
        description="Turning an approval requirement off turns its request off; a request off turns its PDF off.",
    )


# ---- the form page ------------------------------------------------------------------------------------------
def _form_actions() -> rx.Component:
    return form_actions(
        F.read_only, F.cancel, "portfolio-cancel",
        rx.button(rx.icon("check", size=16), rx.cond(F.mode == "new", "Create", "Save"), type="button",
                  on_click=F.save, loading=F.saving, id="portfolio-save"),
    )


def _header_actions() -> rx.Component:
    return rx.cond(
        F.loaded & (F.mode != "new"),
        rx.hstack(
            rx.button(rx.icon("layout-list", size=16), "View Holdings", variant="soft",
                      on_click=AppState.navigate(F.holdings_url), id="portfolio-holdings"),
            rx.cond((F.mode == "view") & F.can_edit,
                    rx.button(rx.icon("pencil", size=16), "Edit", on_click=AppState.navigate(F.edit_url),
                              id="portfolio-edit")),
            rx.cond(F.can_edit, rx.button(rx.icon("trash-2", size=16), "Delete", variant="soft", color_scheme="red",
                                          on_click=F.ask_delete, id="portfolio-delete")),
            spacing="2", wrap="wrap",
        ),
    )


def _holder_address() -> rx.Component:
    return section("Holder's address", address_fields(F, F.read_only, prefix="holder-address"),
                   description="The address of the portfolio's holder (a trust's or company's, or the clients'), "
                               "printed on its records of advice.")


def portfolio_form_page(route_name: str) -> rx.Component:
    body = rx.vstack(
        rx.cond(F.message != "", rx.callout(F.message, icon="circle-alert", color_scheme="red", width="100%",
                                            id="portfolio-form-message")),
        rx.grid(
            rx.vstack(_identity(), _people(), _model_card(), _holder_address(), spacing="4", width="100%",
                      min_width="0"),
            rx.vstack(_bank_and_broker(), broker_credentials_card(F), _fees_and_tax(), spacing="4", width="100%",
                      min_width="0"),
            columns=rx.breakpoints(initial="1", lg="2"), spacing="4", width="100%", align="start",
        ),
        _limits(),
        rx.grid(_class_allocation(), _industry_groups(), columns=rx.breakpoints(initial="1", lg="2"), spacing="4",
                width="100%", align="start"),
        _exceptions(),
        _approval(),
        _form_actions(),
        spacing="4", width="100%",
    )
    name_crumb = rx.cond(F.name != "", F.name, "Portfolio")
    crumbs: list[Any] = [(CRUMB, routes.url("portfolios.list"))]
    if route_name in ("clients.new-portfolio", "advisers.new-portfolio"):
        crumbs.append(("New", None))
    elif route_name == "portfolios.edit":
        crumbs += [(name_crumb, F.view_url), ("Edit", None)]
    else:
        crumbs.append((name_crumb, None))
    return page(
        rx.cond(F.loaded, F.page_title, ""),
        rx.cond(F.loaded, body, form_skeleton(height="96px")),
        asset_picker(on_pick=F.asset_picked),
        confirm_dialog_of(F),
        crumbs=crumbs,
        actions=_header_actions(),
        on_save_leave=F.save_and_leave,
    )


# ---- the buy screen ------------------------------------------------------------------------------------------
def _choice_row(row: Any) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.hstack(rx.text(row.name, weight="medium", class_name="model-choice-name"),
                                rx.cond(row.current, rx.badge("Linked", variant="soft", color_scheme="green")),
                                spacing="2", align="center"), min_width="180px"),
        rx.table.cell(rx.hstack(rx.text(row.firm, size="2"),
                                rx.cond(row.cross_firm, rx.badge("Another firm", variant="soft", color_scheme="amber")),
                                spacing="2", align="center"), white_space="nowrap"),
        rx.table.cell(row.method, white_space="nowrap"),
        rx.table.cell(row.assets_count, **NUMBER),
        rx.table.cell(rx.cond(row.current, rx.fragment(),
                              rx.button(rx.icon("link", size=14), "Link", size="1",
                                        on_click=B.ask_link(row.id).stop_propagation,
                                        class_name="link-model-button")),
                      text_align="right"),
        on_click=B.ask_link(row.id), cursor=rx.cond(row.current, "default", "pointer"),
        _hover={"background": rx.color("gray", 3)},
        align="center", class_name="model-choice", custom_attrs={"data-name": row.name},
    )


def portfolio_buy_page() -> rx.Component:
    header = rx.table.row(plain_header("Model"), plain_header("Firm"), plain_header("Method"),
                          rx.table.column_header_cell("Assets", text_align="right"), plain_header(""))
    body = table_rows(B.rows, _choice_row, 5, loading=B.loading,
                      empty=empty_row(5, "There is no active model this portfolio's firm may link to."),
                      id="model-choices")
    footer = list_footer(list_count("Showing ", B.rows.length().to_string(), " of ", B.total.to_string()),
                         load_more_button(B))
    current = rx.callout.root(
        rx.callout.icon(rx.icon("info", size=16)),
        rx.callout.text(
            rx.cond(B.current_model != "", "Linked to " + B.current_model + ".", "This portfolio is not linked to a model."),
            rx.cond(B.custom_holdings > 0,
                    " Linking or unlinking a model of another firm sets the class of its custom assets to cash.", ""),
        ),
        size="1", width="100%", id="buy-current",
    )
    return page(
        rx.cond(B.portfolio_name != "", "Link a model \u00b7 " + B.portfolio_name, "Link a model"),
        current,
        search_input("Search models by name", B.search, B.set_search, "model-choice-search",
                     width=["100%", "100%", "300px"]),
        table_card(header, body, footer),
        confirm_dialog_of(B, danger=False),
        crumbs=[(CRUMB, routes.url("portfolios.list")), (B.portfolio_name, B.view_url), ("Link a model", None)],
        actions=cancel_button(on_click=B.cancel, id="buy-cancel"),
    )


# ---- registration ------------------------------------------------------------------------------------------------
def _page_fn(builder: Callable[[str], rx.Component], route_name: str) -> Callable[[], rx.Component]:
    def component() -> rx.Component:
        return builder(route_name)

    component.__name__ = "portfolios_" + route_name.replace(".", "_").replace("-", "_")
    return component


def register(app: rx.App) -> None:
    for name in LIST_CONTEXTS:
        app.add_page(_page_fn(portfolios_list_page, name), route=routes.ROUTES[name], title=f"{LIST_TITLE} | {TITLE}",
                     on_load=[AppState.check_login, PortfoliosListState.on_load])
    for name in ("clients.new-portfolio", "advisers.new-portfolio", "portfolios.edit", "portfolios.view"):
        title = "Portfolio Details - New" if name.endswith("new-portfolio") else "Portfolio Details"
        app.add_page(_page_fn(portfolio_form_page, name), route=routes.ROUTES[name], title=f"{title} | {TITLE}",
                     on_load=[AppState.check_login, PortfolioFormState.on_load])
    app.add_page(portfolio_buy_page, route=routes.ROUTES["portfolios.buy"], title=f"Link a model | {TITLE}",
                 on_load=[AppState.check_login, PortfolioBuyState.on_load])
