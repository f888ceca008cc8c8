"""Firms screens: the firms list (firms.list) and the firm form (firms.new, firms.view, firms.edit)."""
from __future__ import annotations

import reflex as rx

from app.ui.components.address import address_fields
from app.ui import routes
from app.ui.components.layout import page
from app.ui.toolkit.lists import row_href
from app.ui.components.widgets import (
    clickable_row, confirm_dialog_of, empty_row, field, form_actions, file_src, form_grid, form_skeleton, image_picker,
    image_remove_dialog, list_count, list_footer, load_more_controls, option_select, plain_header, row_menu,
    search_input, section, sort_header, table_card, table_rows, text_input,
)
from app.domain.firm_documents import LAYOUT_DESCRIPTIONS
from app.ui.states.base import AppState
from app.ui.states.firms import FIELD_NAMES, FirmFormState, FirmsListState

TITLE = "Wealth Advice"
LIST_COLUMNS = 7

# ---- list -----------------------------------------------------------------------------------------
def _new_firm_button(id_: str = "new-firm") -> rx.Component:
    return rx.cond(
        AppState.is_superuser,
        rx.button(rx.icon("plus", size=16), "New firm", id=id_, on_click=FirmsListState.new_firm),
    )


def _firm_row(row) -> rx.Component:
    number = {"text_align": "right", "font_variant_numeric": "tabular-nums"}
    return clickable_row(
        rx.table.cell(
            rx.hstack(
                rx.center(
                    rx.cond(row["logo"] != "",
                            rx.image(src=file_src(row["logo"]), alt="", max_width="100%", max_height="100%",
                                     object_fit="contain"),
                            rx.text(row["initials"], size="1", weight="bold", color=rx.color("gray", 11))),
                    width="40px", min_width="40px", height="32px", padding="2px", border_radius="6px",
                    background=rx.color("gray", 3), overflow="hidden",
                ),
                rx.text(row["name"], weight="medium", class_name="firm-name"),
                align="center", spacing="3", min_width="200px",
            ),
        ),
        rx.table.cell(row["advisers"], **number),
        rx.table.cell(row["clients"], **number),
        rx.table.cell(row["email"], white_space="nowrap"),
        rx.table.cell(row["phone"], white_space="nowrap"),
        rx.table.cell(rx.moment(row["created_at"], format="DD/MM/YYYY"), white_space="nowrap",
                      font_variant_numeric="tabular-nums"),
        rx.table.cell(
            row_menu(
                rx.menu.item("View Details", on_click=FirmsListState.open_row("firms.view", row["id"])),
                rx.cond(FirmsListState.can_edit_rows,
                        rx.menu.item("Edit Details", on_click=FirmsListState.open_row("firms.edit", row["id"]))),
                rx.menu.item("View Advisers", on_click=FirmsListState.open_row("firms.advisers", row["id"])),
                rx.menu.item("View Clients", on_click=FirmsListState.open_row("firms.clients", row["id"])),
                rx.menu.item("View Portfolios", on_click=FirmsListState.open_row("firms.portfolios", row["id"])),
                rx.cond(
                    AppState.is_superuser,
                    rx.fragment(
                        rx.menu.separator(),
                        rx.menu.item("Delete", color="red", on_click=FirmsListState.ask_delete(row["id"])),
                    ),
                ),
                id="firm-actions-" + row["id"].to_string(),
            ),
            on_click=rx.stop_propagation,
            text_align="right",
            width="48px",
        ),
        href=row_href("firms.view", row["id"]),
        align="center",
        class_name="firm-row",
    )


def firms_list_page() -> rx.Component:
    header = rx.table.row(
        sort_header("Name", "name", FirmsListState.sort, FirmsListState.order, FirmsListState.toggle_sort),
        sort_header("Advisers", "advisers", FirmsListState.sort, FirmsListState.order, FirmsListState.toggle_sort,
                    align="right"),
        sort_header("Clients", "clients", FirmsListState.sort, FirmsListState.order, FirmsListState.toggle_sort,
                    align="right"),
        plain_header("E-mail"),
        plain_header("Phone"),
        sort_header("Created", "created_at", FirmsListState.sort, FirmsListState.order, FirmsListState.toggle_sort),
        plain_header(""),
    )
    body = table_rows(
        FirmsListState.rows, _firm_row, LIST_COLUMNS,
        loading=FirmsListState.loading & (FirmsListState.rows.length() == 0),
        empty=empty_row(
            LIST_COLUMNS,
            rx.cond(FirmsListState.search != "", "No firm matches your search.",
                    "There are no firms yet: a new firm appears here once it is created."),
            _new_firm_button("new-firm-empty"),
        ),
        id="firms-table",
    )
    footer = list_footer(list_count(FirmsListState.showing, id_="firms-showing"), load_more_controls(FirmsListState))
    toolbar = rx.hstack(
        search_input("Search firms by name", FirmsListState.search, FirmsListState.set_search, "firm-search",
                     icon_size=16, width="100%", max_width="360px"),
        width="100%",
        align="center",
    )
    return page(
        "Firms",
        toolbar,
        table_card(header, body, footer),
        confirm_dialog_of(FirmsListState),
        crumbs=[("Firms", None)],
        actions=_new_firm_button(),
    )


# ---- form -----------------------------------------------------------------------------------------
def _value(path: str) -> rx.Var:
    """A text field of the form by its path ('name', 'licensee.afsl')."""
    group, _, name = path.rpartition(".")
    return getattr(FirmFormState.form.licensee if group else FirmFormState.form, name).to(str)


def _input(path: str, label: str, required: bool = False, placeholder: str = "", **props) -> rx.Component:
    key = FIELD_NAMES[path]
    error = FirmFormState.errors[key]
    return field(
        label,
        text_input(key.replace(".", "-"), _value(path), lambda value: FirmFormState.set_field(path, value),
                   error=error, read_only=FirmFormState.read_only,
                   placeholder=rx.cond(FirmFormState.read_only, "", placeholder), **props),
        error,
        required,
    )


def _logo_field(label: str, slot: str, name: str) -> rx.Component:
    return field(label, image_picker(FirmFormState, slot, label, ~FirmFormState.read_only, name=name,
                                     placeholder="No logo"))


def _firm_information() -> rx.Component:
    return section(
        "Firm information",
        form_grid(
            _input("name", "Firm name", required=True, placeholder="e.g. Harbour Wealth Partners"),
            _input("website", "Website", placeholder="https://example.com.au"),
            _input("abn", "ABN", placeholder="11 digits", input_mode="numeric"),
            _input("car", "CAR", placeholder="Corporate authorised representative no.", input_mode="numeric"),
            _input("phone", "Phone", placeholder="(02) 9000 0000", type="tel"),
            _input("email", "Email", placeholder="office@example.com.au", type="email"),
        ),
        _logo_field("Logo", "logo", "logo"),
    )


def _address() -> rx.Component:
    return section("Address", address_fields(FirmFormState, FirmFormState.read_only, prefix="firm-address"),
                   description="The practice's address, printed on its records of advice.")


def _licensee() -> rx.Component:
    return section(
        "Licensee",
        form_grid(
            _input("licensee.name", "Licensee name"),
            _input("licensee.website", "Website", placeholder="https://licensee.com.au"),
            _input("licensee.abn", "ABN", placeholder="11 digits", input_mode="numeric"),
            _input("licensee.afsl", "AFSL", placeholder="Licence number", input_mode="numeric"),
            _input("licensee.phone", "Phone", type="tel"),
            _input("licensee.email", "Email", type="email"),
            _input("licensee.fsg_link", "FSG link", placeholder="https://"),
            _input("licensee.privacy_policy_link", "Privacy policy link", placeholder="https://"),
        ),
        _logo_field("Licensee logo", "licensee", "licensee-logo"),
        description="The AFSL holder the firm operates under.",
    )


def _fees() -> rx.Component:
    return section(
        "Fees",
        form_grid(
            _input("fee", "Brokerage (%)", placeholder="e.g. 0.11", input_mode="decimal"),
            _input("ausiex_code", "Broker adviser code", placeholder="e.g. ABC123"),
            _input("min_fee", "Min fee ($)", placeholder="e.g. 19.95", input_mode="decimal"),
            _input("max_fee", "Max fee ($)", placeholder="e.g. 150.00", input_mode="decimal"),
        ),
        description="Brokerage as a percent of the trade value, limited by the minimum and maximum fee in dollars.",
    )


def _orders() -> rx.Component:
    S = FirmFormState
    gtc = rx.checkbox("Orders without an expiry date of their own are good till cancelled (GTC)",
                      checked=S.form.order_good_till_cancelled,
                      on_change=S.set_order_gtc,
                      disabled=S.read_only, id="order-gtc")
    return section(
        "Orders",
        form_grid(
            _input("order_expiry_days", "Order life (days)", placeholder="30", input_mode="numeric"),
            _input("stop_loss_limit_gap", "Stop loss limit under the trigger (%)", placeholder="e.g. 2 (empty: market)",
                   input_mode="decimal"),
        ),
        gtc,
        description="Every order sent to a broker expires: on the day chosen before export, else after this many "
                    "days, or never (GTC) when the firm chooses it. A triggered stop loss sells no lower than its "
                    "trigger less this percentage, or at market when it is empty.",
    )


# ---- the record of advice: layout, branding, template and preview ---------------------------------------
def _doc_input(key: str, label: str, placeholder: str = "", hint: str = "", **props) -> rx.Component:
    error = FirmFormState.doc_errors[key]
    return field(
        label,
        text_input(f"rofa-{key}", FirmFormState.docs[key], lambda value: FirmFormState.set_doc_field(key, value),
                   error=error, read_only=FirmFormState.read_only,
                   placeholder=rx.cond(FirmFormState.read_only, "", placeholder), **props),
        error, hint=hint,
    )


def _doc_area(key: str, label: str, placeholder: str = "", hint: str = "") -> rx.Component:
    error = FirmFormState.doc_errors[key]
    return field(
        label,
        rx.text_area(value=FirmFormState.docs[key], on_change=lambda value: FirmFormState.set_doc_field(key, value),
                     id=f"rofa-{key}", name=f"rofa-{key}", read_only=FirmFormState.read_only, rows="3", width="100%",
                     placeholder=rx.cond(FirmFormState.read_only, "", placeholder),
                     color_scheme=rx.cond(error != "", "red", "gray"),
                     variant=rx.cond(FirmFormState.read_only, "soft", "surface")),
        error, hint=hint,
    )


def _rofa_sample() -> rx.Component:
    """What the record of advice will look like: the letterhead in the chosen colour, the footer and
    the disclaimer, with the PDF preview of a real record of advice of the firm."""
    docs = FirmFormState.docs
    colour = docs["colour"]
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.cond(FirmFormState.image_urls["logo"] != "",
                        rx.image(src=file_src(FirmFormState.image_urls["logo"]), alt="", max_height="36px",
                                 max_width="120px", object_fit="contain")),
                rx.vstack(rx.text(rx.cond(_value("name") != "", _value("name"), "Firm name"), weight="bold", size="3"),
                          rx.text(_value("licensee.name"),
                                  rx.cond(_value("licensee.afsl") != "", ", AFSL " + _value("licensee.afsl"), ""),
                                  size="1", color=rx.color("gray", 10)),
                          spacing="0"),
                spacing="3", align="center", width="100%",
            ),
            rx.box(height="3px", width="100%", background=colour, id="rofa-sample-rule"),
            rx.text("Record of Advice", weight="bold", size="4", style={"color": colour}, id="rofa-sample-title"),
            rx.text(rx.match(docs["layout"], *[(k, t) for k, t in LAYOUT_DESCRIPTIONS.items()], ""), size="1",
                    color=rx.color("gray", 11), id="rofa-sample-layout"),
            rx.cond(docs["disclaimer"] != "", rx.text(docs["disclaimer"], size="1", color=rx.color("gray", 10),
                                                      white_space="pre-wrap")),
            rx.cond(docs["footer"] != "", rx.text(docs["footer"], " \u00b7 page 1 of 2", size="1",
                                                  color=rx.color("gray", 9), text_align="right", width="100%")),
            rx.cond(
                FirmFormState.view_url != "",
                rx.button(rx.icon("file-search", size=14), "Preview PDF", variant="soft", type="button",
                          on_click=FirmFormState.preview, loading=FirmFormState.previewing, id="rofa-preview"),
                rx.text("Save the firm first to preview its record of advice as a PDF.", size="1",
                        color=rx.color("gray", 10)),
            ),
            spacing="2", width="100%",
        ),
        width="100%", size="2", id="rofa-sample", aria_label="Record of advice preview",
    )


def _record_of_advice() -> rx.Component:
    return section(
        "Record of advice",
        form_grid(
            field("Layout", option_select(FirmFormState.docs["layout"], FirmFormState.layout_options,
                                          lambda value: FirmFormState.set_doc_field("layout", value), id="rofa-layout",
                                          disabled=FirmFormState.read_only, aria_label="Layout"),
                  FirmFormState.doc_errors["layout"]),
            rx.hstack(
                _doc_input("colour", "Colour", placeholder="#1F3A5F", hint="# and six hexadecimal digits"),
                rx.box(width="32px", min_width="32px", height="32px", border_radius="6px", margin_top="22px",
                       background=FirmFormState.docs["colour"], border=f"1px solid {rx.color('gray', 6)}",
                       aria_hidden="true"),
                spacing="2", width="100%", align="start",
            ),
            _doc_input("footer", "Footer", placeholder="e.g. Private and confidential",
                       hint="On every page, beside the page number."),
            _doc_input("hinPercent", "HIN percent (%)", placeholder="0 to 100", input_mode="decimal",
                       hint="Of a super fund supporting pensions: 100 says pensions are exempt."),
            _doc_input("cgtDiscount", "CGT discount (%)", placeholder="By portfolio type", input_mode="decimal",
                       hint="Empty: 50% for individuals and trusts, 33.33% for super funds; companies none."),
        ),
        _doc_area("disclaimer", "Disclaimer", placeholder="e.g. This is general advice only ..."),
        _doc_area("assetComments", "Comments on assets sold (CGT)", placeholder="BHP: Held since 2009",
                  hint="One a line: the asset's code, a colon, the comment."),
        _rofa_sample(),
        description="How the firm's records of advice look (layout, colour, disclaimer, footer) and the template "
                    "data of their capital gains tax estimate.",
    )


def _form_actions() -> rx.Component:
    return form_actions(
        FirmFormState.read_only, FirmFormState.cancel, "firm-cancel",
        rx.button(rx.icon("check", size=16), "Save", type="submit", id="firm-save", loading=FirmFormState.saving),
    )


def _firm_form_page(crumbs: list) -> rx.Component:
    form = rx.form(
        rx.vstack(_firm_information(), _address(), _licensee(), _fees(), _orders(), _record_of_advice(), _form_actions(), spacing="4",
                  width="100%"),
        on_submit=FirmFormState.save,
        width="100%",
        id="firm-form",
    )
    actions = rx.cond(
        FirmFormState.read_only & FirmFormState.can_edit & ~FirmFormState.loading,
        rx.button(rx.icon("pencil", size=16), "Edit", id="firm-edit", on_click=FirmFormState.edit),
    )
    return page(
        FirmFormState.title,
        rx.cond(FirmFormState.loading, form_skeleton(), form),
        image_remove_dialog(FirmFormState),
        crumbs=[("Firms", routes.url("firms.list")), *crumbs],
        actions=actions,
        on_save_leave=FirmFormState.save_and_leave,
    )


def firm_new_page() -> rx.Component:
    return _firm_form_page([("New firm", None)])


def firm_view_page() -> rx.Component:
    return _firm_form_page([(FirmFormState.firm_name, None)])


def firm_edit_page() -> rx.Component:
    return _firm_form_page([(FirmFormState.firm_name, FirmFormState.view_url), ("Edit", None)])


def register(app: rx.App) -> None:
    app.add_page(firms_list_page, route=routes.ROUTES["firms.list"], title=f"Firms | {TITLE}",
                 on_load=[AppState.check_login, FirmsListState.on_load])
    for name, component, title in (("firms.new", firm_new_page, "New firm"), ("firms.view", firm_view_page, "Firm"),
                                   ("firms.edit", firm_edit_page, "Edit firm")):
        app.add_page(component, route=routes.ROUTES[name], title=f"{title} | {TITLE}",
                     on_load=[AppState.check_login, FirmFormState.on_load])
