"""Users screens: the list of every user context and the user form (new / edit / view)."""
from __future__ import annotations

from typing import Any, Callable

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    file_src,
    confirm_dialog, empty_row, field, form_grid, list_footer, page_size_select, pagination, plain_header, row_menu,
    section, skeleton_rows, sort_header, status_badge, table_card, text_input,
)
from app.ui.states.base import AppState
from app.ui.states.users import KIND_TITLES, LIST_CONTEXTS, NEW_TITLES, UserFormState, UserRow, UsersState

TITLE = "Wealth Advice"
IMAGE_HINT = "PNG, JPEG, GIF, WEBP or BMP, less than 2Mb."


# ---- shared pieces (the profile uses them too) --------------------------------------------------
def option_select(value: Any, options: Any, on_change: Any, id: str, placeholder: str = "", error: Any = "",
                  disabled: Any = False, **props) -> rx.Component:
    """A select over a list of Option(value, label) state items."""
    return rx.select.root(
        rx.select.trigger(placeholder=placeholder, id=id, width="100%",
                          color=rx.cond(error != "", rx.color("red", 11), "inherit")),
        rx.select.content(rx.foreach(options, lambda o: rx.select.item(o.label, value=o.value))),
        value=value,
        on_change=on_change,
        disabled=disabled,
        name=id,
        **props,
    )


def date_input(value: Any, on_change: Any, id: str, label: str) -> rx.Component:
    return rx.input(type="date", value=value, on_change=on_change, id=id, size="2", aria_label=label, width="100%",
                    min_width="0")


def date_cell(value: Any, fmt: str) -> rx.Component:
    return rx.table.cell(rx.cond(value != "", rx.moment(value, format=fmt), rx.text("\u2014", color=rx.color("gray", 9))),
                         white_space="nowrap")


def image_card(title: str, kind: str, url: Any, on_drop: Any, on_remove: Any, editable: Any, error: Any = "",
               round_: bool = False, fallback: Any = "", description: str = "") -> rx.Component:
    """A photo / signature / logo with its preview, upload and remove (checked by the service)."""
    preview = rx.cond(
        url != "",
        rx.image(src=file_src(url), alt=title, width="100%", height="100%", object_fit="contain" if not round_ else "cover",
                 id=f"{kind}-preview"),
        rx.center(rx.text(fallback, size="6", weight="bold", color=rx.color("gray", 10)) if round_
                  else rx.icon("image", size=28, color=rx.color("gray", 8)), width="100%", height="100%"),
    )
    return section(
        title,
        rx.hstack(
            rx.box(preview, width="96px" if round_ else "160px", height="96px", min_width="96px",
                   border_radius="50%" if round_ else "8px", overflow="hidden",
                   border=f"1px solid {rx.color('gray', 5)}", background=rx.color("gray", 2)),
            rx.cond(
                editable,
                rx.vstack(
                    rx.upload(
                        rx.button(rx.icon("upload", size=14), "Upload", variant="soft", type="button", size="2",
                                  id=f"{kind}-upload-button"),
                        id=f"{kind}-upload",
                        multiple=False,
                        on_drop=on_drop,
                        border="none",
                        padding="0",
                    ),
                    rx.cond(url != "", rx.button(rx.icon("trash-2", size=14), "Remove", variant="soft", color_scheme="red",
                                                 type="button", size="2", on_click=on_remove, id=f"{kind}-remove")),
                    spacing="2",
                ),
            ),
            spacing="4",
            align="center",
        ),
        rx.cond(error != "", rx.text(error, size="1", color=rx.color("red", 11), class_name="field-error", id=f"{kind}-error"),
                rx.cond(editable, rx.text(IMAGE_HINT, size="1", color=rx.color("gray", 10)))),
        description=description,
    )


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
        rx.cond(row.can_delete, rx.fragment(
            rx.menu.separator(),
            rx.menu.item("Delete", color="red", on_click=UsersState.ask_delete(row.id, row.name), class_name="row-delete"),
        )),
        id=f"row-actions-{row.id}",
    )


def _row(row: UserRow, kind: str) -> rx.Component:
    return rx.table.row(
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
        on_click=AppState.navigate(row.open_url),
        cursor="pointer",
        _hover={"background": rx.color("gray", 3)},
        class_name="user-row",
        id=f"user-row-{row.id}",
        align="center",
    )


def _header(kind: str) -> rx.Component:
    s, o, on = UsersState.sort, UsersState.order, UsersState.sort_by
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


def _date_range(label: str, lo: Any, on_lo: Any, hi: Any, on_hi: Any, id_: str) -> rx.Component:
    """A from / to pair of date inputs (days in the browser's offset)."""
    return rx.flex(
        rx.text(label, size="1", color=rx.color("gray", 10), white_space="nowrap", min_width="56px"),
        rx.hstack(
            rx.box(date_input(lo, on_lo, f"{id_}-from", f"{label} from"), flex="1", max_width=["none", "none", "150px"],
                   min_width="0"),
            rx.text("\u2013", color=rx.color("gray", 9)),
            rx.box(date_input(hi, on_hi, f"{id_}-to", f"{label} to"), flex="1", max_width=["none", "none", "150px"],
                   min_width="0"),
            align="center", spacing="2", width="100%",
        ),
        direction=rx.breakpoints(initial="column", md="row"),
        align=rx.breakpoints(initial="start", md="center"),
        spacing="2", width=rx.breakpoints(initial="100%", md="auto"),
    )


def _toolbar(route_name: str) -> rx.Component:
    return rx.flex(
        rx.input(
            rx.input.slot(rx.icon("search", size=14)),
            value=UsersState.search, on_change=UsersState.set_search, debounce_timeout=350,
            placeholder="Search by name or e-mail", id="search", name="search", width=["100%", "100%", "260px"],
        ),
        rx.box(option_select(UsersState.status_filter, UsersState.status_options, UsersState.set_status_filter,
                             id="status-filter"), min_width="140px"),
        rx.box(option_select(UsersState.role_filter, UsersState.role_options, UsersState.set_role_filter,
                             id="role-filter"), min_width="140px") if route_name == "users.list" else rx.fragment(),
        rx.cond(UsersState.show_firm,
                rx.box(option_select(UsersState.firm_filter, UsersState.firm_options, UsersState.set_firm_filter,
                                     id="firm-filter"), min_width="180px")),
        _date_range("Created", UsersState.created_from, UsersState.set_created_from, UsersState.created_to,
                    UsersState.set_created_to, "created"),
        _date_range("Last login", UsersState.logined_from, UsersState.set_logined_from, UsersState.logined_to,
                    UsersState.set_logined_to, "logined"),
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
    if route_name in ("firms.clients", "firms.advisers", "advisers.clients"):
        return [(UsersState.parent_title, UsersState.parent_url), (UsersState.context_name, UsersState.context_url),
                (KIND_TITLES[kind], None)]
    return [(KIND_TITLES[kind], None)]


def users_list_page(route_name: str) -> rx.Component:
    kind, _ = LIST_CONTEXTS[route_name]
    columns = 7 + (1 if kind == "users" else 0) + (1 if kind == "clients" else 0) + 1
    new_in_empty = rx.cond(UsersState.new_url != "", rx.button(rx.icon("plus", size=16), UsersState.new_label, variant="soft",
                                                               on_click=AppState.navigate(UsersState.new_url)))
    title: Any = KIND_TITLES[kind]
    if route_name in ("firms.clients", "firms.advisers", "advisers.clients"):
        title = rx.cond(UsersState.context_name != "", UsersState.context_name + " \u00b7 " + KIND_TITLES[kind], KIND_TITLES[kind])
    return page(
        title,
        _toolbar(route_name),
        table_card(
            _header(kind),
            rx.table.body(
                rx.cond(
                    UsersState.loading,
                    skeleton_rows(columns),
                    rx.cond(UsersState.rows.length() > 0,
                            rx.foreach(UsersState.rows, lambda row: _row(row, kind)),
                            empty_row(columns, UsersState.empty_text, new_in_empty)),
                ),
                id="users-table",
            ),
            list_footer(
                rx.text(UsersState.showing, size="2", color=rx.color("gray", 11), id="showing"),
                rx.hstack(page_size_select(UsersState.page_size, UsersState.set_page_size),
                          pagination(UsersState.page, UsersState.pages, UsersState.visible, UsersState.go_to_page),
                          spacing="4", align="center", wrap="wrap"),
            ),
        ),
        confirm_dialog(UsersState.confirm_open, "Are you sure you want to delete user?", UsersState.confirm_delete,
                       UsersState.cancel_delete),
        crumbs=_list_crumbs(route_name),
        actions=_new_action(route_name),
    )


# ---- the form -------------------------------------------------------------------------------------
def _text_field(label: str, name: str, value: Any, on_change: Any, required: bool = False, **props) -> rx.Component:
    error = UserFormState.errors[name].to(str)
    return field(label, text_input(name, value, on_change, error, UserFormState.read_only, **props), error, required)


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
        rx.cond(f.shows_firm, field("Firm", firm_control, f.errors["firm_id"].to(str), required=f.firm_required)),
        rx.cond(f.shows_adviser, field("Adviser", adviser_control, f.errors["adviser_id"].to(str))),
        rx.cond(f.mode != "new", field("Status", status_control, f.errors["status"].to(str))),
    )


def _details_form() -> rx.Component:
    f = UserFormState
    return rx.form(
        rx.vstack(
            section(
                "Details",
                form_grid(
                    _text_field("First name", "first_name", f.first_name, f.set_first_name, required=True),
                    _text_field("Last name", "last_name", f.last_name, f.set_last_name, required=True),
                    _text_field("Preferred name", "preferred_name", f.preferred_name, f.set_preferred_name),
                    _text_field("Email", "email", f.email, f.set_email, required=True, type="email"),
                    _text_field("Phone", "phone", f.phone, f.set_phone, type="tel"),
                ),
            ),
            section("Access", _membership()),
            rx.cond(
                ~f.read_only,
                rx.hstack(
                    rx.button("Cancel", type="button", variant="soft", color_scheme="gray", on_click=f.cancel, id="user-cancel"),
                    rx.button(rx.cond(f.mode == "new", "Create", "Save"), type="submit", id="user-save", loading=f.saving),
                    justify="end", width="100%", spacing="3",
                ),
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
                          rx.cond(f.created_at != "", rx.moment(f.created_at, format="DD/MM/YYYY"), rx.text("\u2014")),
                          width="100%"),
                rx.hstack(rx.text("Last login", size="2", color=rx.color("gray", 10)), rx.spacer(),
                          rx.cond(f.logined_at != "", rx.moment(f.logined_at, format="DD/MM/YYYY HH:mm"), rx.text("\u2014")),
                          width="100%"),
                rx.cond(~f.activated & ~f.is_deleted,
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
        image_card("Photo", "photo", f.photo_url, f.upload_photo, f.ask_remove("photo"), editable,
                   f.errors["photo"].to(str), round_=True, fallback=f.initials_of_user),
        image_card("Signature", "signature", f.signature_url, f.upload_signature, f.ask_remove("signature"), editable,
                   f.errors["signature"].to(str)),
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
        confirm_dialog(f.confirm_open, f.confirm_text, f.confirm, f.cancel_confirm),
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
