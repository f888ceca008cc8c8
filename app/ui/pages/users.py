"""Users screens: the list of every user context and the user form (new / edit / view)."""
from __future__ import annotations

from typing import Any, Callable

import reflex as rx

from app.ui.components.address import address_fields
from app.ui import routes
from app.ui.components.layout import page
from app.ui.components import widgets
from app.ui.components.widgets import (
    clickable_row, confirm_dialog_of, empty_row, field, form_actions, file_src, form_grid, image_picker,
    image_remove_dialog, list_count, list_footer, option_select, page_controls, plain_header, row_menu, search_input,
    section, sort_header, status_badge, table_card, table_rows, text_input,
)
from app.ui.states.base import AppState
from app.ui.rows.users import UserRow
from app.ui.states.users import IN_RECORD, KIND_TITLES, LIST_CONTEXTS, NEW_TITLES, UserFormState, UsersState

TITLE = "Wealth Advice"


# ---- shared pieces -------------------------------------------------------------------------------
# option_select: the shared select (widgets; named for screen readers), imported here as other screens take it


def date_input(value: Any, on_change: Any, id: str, label: str) -> rx.Component:
    return widgets.date_input(value, on_change, id, size="2", aria_label=label)


def date_cell(value: Any, fmt: str) -> rx.Component:
    return rx.table.cell(rx.cond(value != "", rx.moment(value, format=fmt), rx.text("\u2014", color=rx.color("gray", 9))),
                         white_space="nowrap")


# ---- the list -------------------------------------------------------------------------------------
def _name_cell(row: UserRow) -> rx.Component:
    return rx.table.cell(
        rx.hstack(
            rx.avatar(src=file_src(row.photo_url), fallback=row.initials, size="1", radius="full"),
            rx.text(row.name, weight="medium", class_name="user-name"),
            spacing="3", align="center",
        ),
        white_space="nowrap",
    )


def _row_actions(row: UserRow) -> rx.Component:
    return row_menu(
        rx.menu.item("View Details", on_click=AppState.navigate(row.view_url)),
        rx.cond(row.can_edit, rx.menu.item("Edit Details", on_click=AppState.navigate(row.edit_url))),
        rx.cond(row.clients_url != "", rx.menu.item("View Clients", on_click=AppState.navigate(row.clients_url))),
        rx.cond(row.portfolios_url != "", rx.menu.item("View Portfolios", on_click=AppState.navigate(row.portfolios_url))),
        rx.cond(row.add_portfolio_url != "", rx.menu.item("Add Portfolio", on_click=AppState.navigate(row.add_portfolio_url))),
        rx.cond(row.can_delete, rx.fragment(
            rx.menu.separator(),
            rx.menu.item("Delete", color="red", on_click=UsersState.ask_delete(row.id, row.name), class_name="row-delete"),
        )),
        id=f"row-actions-{row.id}",
    )


def _row(row: UserRow, kind: str) -> rx.Component:
    return clickable_row(
        _name_cell(row),
        rx.table.cell(rx.text(row.email, title=row.email, max_width="260px", overflow="hidden", text_overflow="ellipsis",
                              white_space="nowrap")),
        rx.table.cell(row.role_title) if kind == "users" else rx.fragment(),
        rx.cond(UsersState.show_firm, rx.table.cell(rx.text(row.firm, title=row.firm, max_width="200px", overflow="hidden",
                                                            text_overflow="ellipsis", white_space="nowrap"))),
        rx.table.cell(row.adviser, white_space="nowrap") if kind == "clients" else rx.fragment(),
        rx.table.cell(status_badge(row.status_title, row.status)),
        date_cell(row.created_at, "DD/MM/YYYY"),
        date_cell(row.logined_at, "DD/MM/YYYY HH:mm"),
        rx.table.cell(_row_actions(row), on_click=rx.stop_propagation, text_align="right"),
        href=row.open_url,
        class_name="user-row",
        id=f"user-row-{row.id}",
        align="center",
    )


def _header(kind: str) -> rx.Component:
    s, o, on = UsersState.sort, UsersState.order, UsersState.toggle_sort
    return rx.table.row(
        sort_header("Name", "name", s, o, on),
        sort_header("Email", "email", s, o, on),
        sort_header("Role", "role", s, o, on) if kind == "users" else rx.fragment(),
        rx.cond(UsersState.show_firm, sort_header("Firm", "firm", s, o, on)),
        plain_header("Adviser") if kind == "clients" else rx.fragment(),
        sort_header("Status", "status", s, o, on),
        sort_header("Created", "created_at", s, o, on),
        sort_header("Last login", "logined_at", s, o, on),
        plain_header(""),
    )


def _date_range(label: str, id_: str) -> rx.Component:
    """A from / to pair of date inputs (days in the browser's offset) over UsersState.{id_}_from / _to."""
    def end(edge: str) -> rx.Component:
        key = f"{id_}_{edge}"
        return rx.box(date_input(getattr(UsersState, key), lambda value: UsersState.set_date_filter(key, value),
                                 f"{id_}-{edge}", f"{label} {edge}"),
                      flex="1", max_width=["none", "none", "150px"], min_width="0")

    return rx.flex(
        rx.text(label, size="1", color=rx.color("gray", 10), white_space="nowrap", min_width="56px"),
        rx.hstack(
            end("from"),
            rx.text("\u2013", color=rx.color("gray", 9)),
            end("to"),
            align="center", spacing="2", width="100%",
        ),
        direction=rx.breakpoints(initial="column", md="row"),
        align=rx.breakpoints(initial="start", md="center"),
        spacing="2", width=rx.breakpoints(initial="100%", md="auto"),
    )


def _toolbar(route_name: str) -> rx.Component:
    return rx.flex(
        search_input("Search by name or e-mail", UsersState.search, UsersState.set_search, "search",
                     debounce_timeout=350, name="search", width=["100%", "100%", "260px"]),
        rx.box(option_select(UsersState.status_filter, UsersState.status_options, lambda v: UsersState.set_choice("status_filter", v),
                             id="status-filter"), min_width="140px"),
        rx.box(option_select(UsersState.role_filter, UsersState.role_options, lambda v: UsersState.set_choice("role_filter", v),
                             id="role-filter"), min_width="140px") if route_name == "users.list" else rx.fragment(),
        rx.cond(UsersState.show_firm,
                rx.box(option_select(UsersState.firm_filter, UsersState.firm_options, UsersState.set_firm_filter,
                                     id="firm-filter"), min_width="180px")),
        _date_range("Created", "created"),
        _date_range("Last login", "logined"),
        rx.cond(UsersState.has_filters,
                rx.button(rx.icon("x", size=14), "Clear", variant="ghost", color_scheme="gray", on_click=UsersState.clear_filters,
                          id="clear-filters")),
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def _new_action(route_name: str) -> rx.Component:
    if route_name == "users.list":
        return rx.cond(
            UsersState.new_options.length() > 0,
            rx.menu.root(
                rx.menu.trigger(rx.button(rx.icon("plus", size=16), "New", rx.icon("chevron-down", size=14), id="new-user")),
                rx.menu.content(rx.foreach(UsersState.new_options,
                                           lambda o: rx.menu.item(o.label, on_click=AppState.navigate(o.value),
                                                                  class_name="new-user-option"))),
            ),
        )
    return rx.cond(UsersState.new_url != "",
                   rx.button(rx.icon("plus", size=16), UsersState.new_label, id="new-user",
                             on_click=AppState.navigate(UsersState.new_url)))


def _list_crumbs(route_name: str) -> list[tuple[Any, Any]]:
    kind, _ = LIST_CONTEXTS[route_name]
    if route_name in IN_RECORD:
        return [(UsersState.parent_title, UsersState.parent_url), (UsersState.context_name, UsersState.context_url),
                (KIND_TITLES[kind], None)]
    return [(KIND_TITLES[kind], None)]


def users_list_page(route_name: str) -> rx.Component:
    kind, _ = LIST_CONTEXTS[route_name]
    columns = 7 + (1 if kind == "users" else 0) + (1 if kind == "clients" else 0) + 1
    new_in_empty = rx.cond(UsersState.new_url != "", rx.button(rx.icon("plus", size=16), UsersState.new_label, variant="soft",
                                                               on_click=AppState.navigate(UsersState.new_url)))
    title: Any = KIND_TITLES[kind]
    if route_name in IN_RECORD:
        title = rx.cond(UsersState.context_name != "", UsersState.context_name + " \u00b7 " + KIND_TITLES[kind], KIND_TITLES[kind])
    return page(
        title,
        _toolbar(route_name),
        table_card(
            _header(kind),
            table_rows(UsersState.rows, lambda row: _row(row, kind), columns, loading=UsersState.loading,
                       empty=empty_row(columns, UsersState.empty_text, new_in_empty), id="users-table"),
            list_footer(list_count(UsersState.showing, id_="showing"), page_controls(UsersState)),
        ),
        confirm_dialog_of(UsersState),
        crumbs=_list_crumbs(route_name),
        actions=_new_action(route_name),
    )


# ---- the form -------------------------------------------------------------------------------------
def _person_field(label: str, name: str, required: bool = False, **props) -> rx.Component:
    f = UserFormState
    error = f.errors[name].to(str)
    control = text_input(name, getattr(f, name), lambda value: f.set_person_field(name, value), error, f.read_only, **props)
    return field(label, control, error, required)


def _read_only(value: Any, id: str) -> rx.Component:
    return rx.input(value=value, read_only=True, variant="soft", width="100%", id=id, name=id)


def _membership() -> rx.Component:
    f = UserFormState
    role_control = rx.cond(
        f.role_fixed | f.read_only,
        _read_only(f.role_title, "role"),
        option_select(f.role, f.role_options, f.set_role, id="role", placeholder="Select user type",
                      error=f.errors["role"].to(str)),
    )
    firm_control = rx.cond(
        f.read_only,
        _read_only(f.firm_name, "firm_id"),
        option_select(f.firm_id, f.firm_options, f.set_firm, id="firm_id", placeholder="Select firm",
                      error=f.errors["firm_id"].to(str)),
    )
    adviser_control = rx.cond(
        f.read_only,
        _read_only(rx.cond(f.adviser_name != "", f.adviser_name, "No adviser"), "adviser_id"),
        option_select(f.adviser_id, f.adviser_options, f.set_adviser, id="adviser_id"),
    )
    status_control = rx.cond(
        f.mode == "edit",
        rx.select.root(
            rx.select.trigger(id="status", width="100%"),
            rx.select.content(rx.select.item("Active", value="active"), rx.select.item("Disabled", value="disabled")),
            value=f.status, on_change=f.set_status, name="status",
        ),
        rx.box(status_badge(f.status_title, f.status), padding_y="6px"),
    )
    return form_grid(
        field("User type", role_control, f.errors["role"].to(str), required=True),
        rx.cond(f.shows_firm, field("Firm", firm_control, f.errors["firm_id"].to(str), required=True)),
        rx.cond(f.shows_adviser, field("Adviser", adviser_control, f.errors["adviser_id"].to(str))),
        rx.cond(f.shows_ar_number, field(
            "Authorised representative no.",
            text_input("ar_number", f.ar_number, f.set_ar_number, f.errors["ar_number"].to(str), f.read_only,
                       input_mode="numeric"),
            f.errors["ar_number"].to(str))),
        rx.cond(f.mode != "new", field("Status", status_control, f.errors["status"].to(str))),
    )


def _details_form() -> rx.Component:
    f = UserFormState
    return rx.form(
        rx.vstack(
            section(
                "Details",
                form_grid(
                    _person_field("First name", "first_name", required=True),
                    _person_field("Last name", "last_name", required=True),
                    _person_field("Preferred name", "preferred_name"),
                    _person_field("Email", "email", required=True, type="email"),
                    _person_field("Phone", "phone", type="tel"),
                ),
            ),
            section("Address", address_fields(f, f.read_only)),
            section("Access", _membership()),
            form_actions(
                f.read_only, f.cancel, "user-cancel",
                rx.button(rx.cond(f.mode == "new", "Create", "Save"), type="submit", id="user-save", loading=f.saving),
            ),
            spacing="4", width="100%",
        ),
        on_submit=f.save,
        width="100%",
    )


def _info_card() -> rx.Component:
    f = UserFormState
    return rx.cond(
        f.mode != "new",
        section(
            "Account",
            rx.vstack(
                rx.hstack(rx.text("Created", size="2", color=rx.color("gray", 10)), rx.spacer(),
                          rx.cond(f.account.created_at != "", rx.moment(f.account.created_at, format="DD/MM/YYYY"), rx.text("\u2014")),
                          width="100%"),
                rx.hstack(rx.text("Last login", size="2", color=rx.color("gray", 10)), rx.spacer(),
                          rx.cond(f.account.logined_at != "", rx.moment(f.account.logined_at, format="DD/MM/YYYY HH:mm"), rx.text("\u2014")),
                          width="100%"),
                rx.cond(~f.account.activated & ~f.is_deleted,
                        rx.callout("The user has not activated the account yet.", icon="mail", size="1",
                                   color_scheme="amber", width="100%")),
                rx.cond(f.is_deleted,
                        rx.callout("This user is deleted and can no longer be changed.", icon="lock", size="1",
                                   color_scheme="red", width="100%", id="user-deleted")),
                spacing="2", width="100%",
            ),
        ),
        rx.callout("An activation e-mail is sent to the new user, who then sets a password.", icon="mail", size="1",
                   width="100%"),
    )


def _images() -> rx.Component:
    f = UserFormState
    editable = ~f.read_only
    return rx.vstack(
        section("Photo", image_picker(f, "photo", "Photo", editable, round_=True, fallback=f.initials_of_user)),
        section("Signature", image_picker(f, "signature", "Signature", editable)),
        _info_card(),
        spacing="4", width="100%",
    )


def _form_actions() -> rx.Component:
    f = UserFormState
    return rx.cond(
        f.loaded & (f.mode == "view"),
        rx.hstack(
            rx.cond(f.clients_url != "", rx.button(rx.icon("users", size=14), "View Clients", variant="soft",
                                                   on_click=AppState.navigate(f.clients_url), id="user-clients")),
            rx.cond(f.can_delete, rx.button(rx.icon("trash-2", size=14), "Delete", variant="soft", color_scheme="red",
                                            on_click=f.ask_delete, id="user-delete")),
            rx.cond(f.can_edit, rx.button(rx.icon("pencil", size=14), "Edit", on_click=AppState.navigate(f.edit_url),
                                          id="user-edit")),
            spacing="2", wrap="wrap",
        ),
    )


def _form_crumbs(mode: str) -> list[tuple[Any, Any]]:
    f = UserFormState
    if mode == "edit":
        return [(f.kind_title, f.kind_url), (f.display_name, f.view_url), ("Edit", None)]
    return [(f.kind_title, f.kind_url), (f.page_title, None)]


def user_form_page(route_name: str) -> rx.Component:
    f = UserFormState
    _kind, _, mode = route_name.partition(".")
    skeleton = rx.grid(*[rx.skeleton(rx.box(height="180px"), loading=True) for _ in range(2)],
                       columns=rx.breakpoints(initial="1", md="2"), spacing="4", width="100%")
    return page(
        rx.cond(f.loaded, f.page_title, ""),
        rx.cond(
            f.loaded,
            rx.grid(
                rx.box(_details_form(), grid_column=rx.breakpoints(initial="auto", lg="span 2")),
                _images(),
                columns=rx.breakpoints(initial="1", lg="3"),
                spacing="4",
                width="100%",
                align="start",
            ),
            skeleton,
        ),
        confirm_dialog_of(f),
        image_remove_dialog(f),
        crumbs=_form_crumbs(mode),
        actions=_form_actions(),
        on_save_leave=f.save_and_leave,
    )


# ---- registration ---------------------------------------------------------------------------------
def _page_fn(builder: Callable[[str], rx.Component], route_name: str) -> Callable[[], rx.Component]:
    def component() -> rx.Component:
        return builder(route_name)

    component.__name__ = f"page_{route_name.replace('.', '_').replace('-', '_')}"
    return component


def _title(route_name: str) -> str:
    kind, _, mode = route_name.partition(".")
    if route_name in LIST_CONTEXTS:
        return KIND_TITLES[LIST_CONTEXTS[route_name][0]]
    if mode == "new":
        return NEW_TITLES[kind]
    return {"users": "User", "clients": "Client", "advisers": "Adviser"}[kind]


def register(app: rx.App) -> None:
    for name in LIST_CONTEXTS:
        app.add_page(_page_fn(users_list_page, name), route=routes.ROUTES[name], title=f"{_title(name)} | {TITLE}",
                     on_load=[AppState.check_login, UsersState.on_load])
    for kind in ("users", "clients", "advisers"):
        for mode in ("new", "view", "edit"):
            name = f"{kind}.{mode}"
            app.add_page(_page_fn(user_form_page, name), route=routes.ROUTES[name], title=f"{_title(name)} | {TITLE}",
                         on_load=[AppState.check_login, UserFormState.on_load])
