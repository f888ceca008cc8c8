"""Shared widgets: form fields with their error text, sortable headers, pagination, load more,
confirmation dialog, empty state, money / percent / date display.

Accessible (WCAG 2.2 AA) here, once for every screen: a field's label is tied to its control (a
`<label for>`: Radix's Text drops `html_for`, so `label_for` writes the attribute itself), errors
are announced (role=alert), a select is named (its field's label, or `aria_label`, or the filter
names of FILTER_NAMES), a sortable header is a button with aria-sort, a list row that opens its
record is reached with Tab and opens with Enter (or holds a link, `href`), a dialog closes on Escape
(its state hears it) and the page size is a labelled select."""
from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import VarData
from reflex_base.vars.base import Var
from reflex_base.constants import Dirs
from reflex_base.utils.imports import ImportVar

PAGE_SIZES = ["20", "50", "100"]


# ---- stored files ---------------------------------------------------------------------------
# Stored files are served by the API (/api/files/<key>) on the backend's origin: the page's own
# origin in production (single port), the backend port beside a dev server.
BACKEND_ORIGIN = Var(
    _js_expr="getBackendURL(env.UPLOAD).origin",
    _var_data=VarData(imports={f"$/{Dirs.STATE_PATH}": "getBackendURL", "$/env.json": ImportVar(tag="env", is_default=True)}),
).to(str)


# The browser's offset from UTC in minutes, as JavaScript gives it (downloads send it to the API).
CLIENT_OFFSET = Var(_js_expr="String(new Date().getTimezoneOffset())").to(str)


def download_event(path: Any):
    """on_click of a download: the API path (with its query) is fetched with a single-use ticket."""
    from app.ui.states.base import AppState

    return AppState.download(BACKEND_ORIGIN + Var.create(path).to(str), CLIENT_OFFSET)


def download_button(label: str, icon: str, path: Any, id_: str, **props: Any) -> rx.Component:
    """A download button (Excel, PDF, CSV exports)."""
    return rx.button(rx.icon(icon, size=14), label, variant="soft", id=id_, on_click=download_event(path), **props)


def file_src(path: Any) -> Var:
    """The <img> source of an API file path; data URLs (staged previews) and '' stay as they are."""
    path = Var.create(path).to(str)
    return rx.cond(path.startswith("/"), BACKEND_ORIGIN + path, path)


# ---- forms ------------------------------------------------------------------------------------
# The controls a label may name (the element that carries the component's id in the page).
# A bound text field is wrapped in a DebounceInput that carries the id to the <input> it renders.
_LABELLED_TAGS = frozenset({"TextField.Root", "TextArea", "Select.Trigger", "Switch", "Checkbox", "RadioGroup.Root",
                            "Slider", "DebounceInput", "input", "select", "textarea"})


def control_id(control: Any) -> str | None:
    """The id of the first labelable control in `control` (itself or a descendant), if it is plain text."""
    pending = [control]
    while pending:
        node = pending.pop(0)
        if not isinstance(node, rx.Component):
            continue
        ident = getattr(node, "id", None)
        if isinstance(ident, str) and ident and getattr(node, "tag", None) in _LABELLED_TAGS:
            return ident
        pending.extend(getattr(node, "children", []) or [])
    return None


def label_for(*children: Any, control: Any = None, **props: Any) -> rx.Component:
    """A `<label>` (Radix text styling) for the control whose id is `control` (a str, or a Var for a
    row's control). Use it rather than `rx.text(as_="label", html_for=...)`: Radix's Text passes
    `html_for` on as a style, not as `for`."""
    if control is not None:
        props["custom_attrs"] = {**props.get("custom_attrs", {}), "htmlFor": control}
    props.setdefault("size", "2")
    props.setdefault("weight", "medium")
    return rx.text(*children, as_="label", **props)


def field_error(error: Any, id_: Any = None, **props: Any) -> rx.Component:
    """The specification's error text under a field, announced (role=alert); nothing while `error` is ''."""
    return rx.cond(error != "", rx.text(error, size="1", color=rx.color("red", 11), class_name="field-error", id=id_,
                                        role="alert", **props))


def field(label: str, control: rx.Component, error: Any = "", required: bool = False, hint: str = "") -> rx.Component:
    """Label above (tied to the control: a screen reader reads it with the field), control, then the
    specification's error text (shown once the form was submitted, and announced)."""
    return rx.vstack(
        label_for(label, rx.cond(required, rx.text.span(" *", color=rx.color("red", 11), aria_hidden="true"),
                                 rx.fragment()),
                  control=control_id(control)),
        control,
        rx.cond(error != "", rx.text(error, size="1", color=rx.color("red", 11), class_name="field-error", role="alert"),
                rx.text(hint, size="1", color=rx.color("gray", 10)) if hint else rx.fragment()),
        spacing="1",
        width="100%",
        align="stretch",
    )


def text_input(name: str, value: Any, on_change: Any, error: Any = "", read_only: Any = False, **props) -> rx.Component:
    """A text field bound to the state; with `value` None the browser keeps the text (passwords:
    what is typed goes to the server, but the state never sends it back)."""
    if value is not None:
        props["value"] = value
    props = email_props(props)
    return rx.input(
        on_change=on_change,
        id=name,
        name=name,
        read_only=read_only,
        color_scheme=rx.cond(error != "", "red", "gray"),
        variant=rx.cond(read_only, "soft", "surface"),
        width="100%",
        **props,
    )


# ---- dates: dd/mm/yyyy whatever the browser's locale --------------------------------------------
DATE_PLACEHOLDER = "dd/mm/yyyy"
# what is typed, as the state keeps it: a whole dd/mm/yyyy (or ddmmyyyy, or d.m.yyyy) that is a real
# date becomes ISO yyyy-mm-dd; anything else (half typed, not a date) goes as typed, so the screen's
# and the service's checks (validators.parse_date reads both) name what is wrong
_TYPED_TO_ISO = (
    '((v) => { const t = String(v ?? "").trim(); '
    'const m = t.match(/^(\\d{1,2})[\\/.\\-](\\d{1,2})[\\/.\\-](\\d{4})$/) || t.match(/^(\\d{2})(\\d{2})(\\d{4})$/); '
    'if (!m) return t; const d = Number(m[1]), mo = Number(m[2]), y = Number(m[3]); '
    'const at = new Date(Date.UTC(y, mo - 1, d)); '
    'if (y < 1000 || at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return t; '
    'return String(y) + "-" + String(mo).padStart(2, "0") + "-" + String(d).padStart(2, "0"); })'
)
# what is shown: an ISO date as dd/mm/yyyy, anything else (what is being typed) as it is
_ISO_TO_SHOWN = (
    '((v) => { const t = String(v ?? ""); const m = t.match(/^(\\d{4})-(\\d{2})-(\\d{2})/); '
    'return m ? m[3] + "/" + m[2] + "/" + m[1] : t; })'
)


def _js_call(fn: str, value: Any) -> Var:
    value = Var.create(value)
    return Var(_js_expr=f"{fn}({value!s})", _var_type=str, _var_data=value._get_all_var_data())


def date_input(value: Any, on_change: Any, id_: str, error: Any = "", read_only: Any = False,
               minimum: Any = None, **props: Any) -> rx.Component:
    """The product's one date field: shows and takes dd/mm/yyyy whatever the browser's locale (a
    native date input follows the locale: mm/dd/yyyy in an en-US browser). The state keeps the date
    as ISO yyyy-mm-dd (as a native date input gave it) once a whole real date is typed; until then
    it keeps the text as typed. `on_change` is the state's handler (or a lambda) of that value.
    `minimum` (ISO) is the earliest date the state and the service take, written on the field as
    `data-min` (a text field has no `min`); the check itself is theirs."""
    def changed(typed: Var) -> Any:
        return on_change(_js_call(_TYPED_TO_ISO, typed))

    minimum = props.pop("min", minimum)
    if minimum is not None:
        props.setdefault("custom_attrs", {})["data-min"] = minimum
    return rx.input(
        value=_js_call(_ISO_TO_SHOWN, value), on_change=changed, id=id_, name=props.pop("name", id_),
        type="text", input_mode="numeric", placeholder=DATE_PLACEHOLDER, auto_complete="off", max_length=10,
        read_only=read_only, color_scheme=rx.cond(error != "", "red", "gray"),
        variant=rx.cond(read_only, "soft", "surface"), min_width="0", width=props.pop("width", "100%"),
        **props,
    )


def email_props(props: dict[str, Any]) -> dict[str, Any]:
    """An e-mail field is a text field with the e-mail keyboard: the browser's own validation bubble
    never shows, so the specification's text ('Please, enter a valid email. ') under the field is
    the only message."""
    if props.get("type") != "email":
        return props
    return {**props, "type": "text", "input_mode": "email", "auto_complete": props.get("auto_complete", "email"),
            "auto_capitalize": "none", "spell_check": False}


# The toolbars' filter selects, by id: the name a screen reader reads for each (they have no label
# on screen; the choice shown, e.g. "All advisers", is the value, not the name).
FILTER_NAMES: dict[str, str] = {
    "firm-filter": "Firm", "bulk-firm-filter": "Firm", "audit-firm-filter": "Firm", "model-filter": "Model",
    "adviser-filter": "Adviser", "status-filter": "Status", "role-filter": "Role", "activity-filter": "Activity",
    "broker-filter": "Broker", "audit-action-filter": "Action", "audit-object-filter": "Record",
    "class-filter": "Class", "group-filter": "Industry group",
}


def option_select(value: Any, options: Any, on_change: Any, id: str, placeholder: str = "", error: Any = "",
                  disabled: Any = False, aria_label: str | None = None, **props: Any) -> rx.Component:
    """A select over a list of Option(value, label) state items. Its name for screen readers is its
    field's label (widgets.field ties them), else `aria_label`, else the filter's name (FILTER_NAMES)."""
    name = aria_label if aria_label is not None else FILTER_NAMES.get(id)
    named = {"custom_attrs": {"aria-label": name}} if name else {}
    return rx.select.root(
        rx.select.trigger(placeholder=placeholder, id=id, width="100%",
                          color=rx.cond(error != "", rx.color("red", 11), "inherit"), **named),
        rx.select.content(rx.foreach(options, lambda o: rx.select.item(o.label, value=o.value))),
        value=value,
        on_change=on_change,
        disabled=disabled,
        name=id,
        **props,
    )


def search_input(placeholder: str, value: Any, on_change: Any, id_: str, icon_size: int = 14,
                 debounce_timeout: int = 300, **props: Any) -> rx.Component:
    """A toolbar's search field: the magnifier, then what is typed (sent after a short pause)."""
    props.setdefault("aria_label", placeholder)  # the placeholder leaves once typing starts: the name stays
    return rx.input(rx.input.slot(rx.icon("search", size=icon_size)), placeholder=placeholder, value=value,
                    on_change=on_change, debounce_timeout=debounce_timeout, id=id_, **props)


def form_grid(*children: rx.Component, columns: str = "2") -> rx.Component:
    return rx.grid(*children, columns=rx.breakpoints(initial="1", sm=columns), spacing="4", width="100%")


def form_skeleton(sections: int = 3, height: str = "120px") -> rx.Component:
    """A form's section cards (a title and `height` of fields each) while it loads."""
    return rx.vstack(
        *[rx.card(rx.vstack(rx.skeleton(rx.box(height="18px", width="160px"), loading=True),
                            rx.skeleton(rx.box(height=height, width="100%"), loading=True), spacing="3"),
                  width="100%") for _ in range(sections)],
        spacing="4", width="100%",
    )


def section(title: str, *children: rx.Component, description: str = "") -> rx.Component:
    """A form's section card; its title is an h2 under the page's h1."""
    return rx.card(
        rx.vstack(
            rx.vstack(rx.heading(title, size="3", as_="h2"),
                      rx.text(description, size="1", color=rx.color("gray", 10)) if description else rx.fragment(),
                      spacing="1"),
            *children,
            spacing="4",
            width="100%",
        ),
        width="100%",
        size="2",
    )


# ---- file uploads ---------------------------------------------------------------------------------
SPREADSHEET_ACCEPT = {"text/csv": [".csv"],
                      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [".xlsx"]}


def named_upload(upload: rx.Component, name: Any) -> rx.Component:
    """An rx.upload whose hidden file input is named `name` for screen readers (the zone's own text
    is not tied to it)."""
    pending = [upload]
    while pending:
        node = pending.pop(0)
        if getattr(node, "tag", None) == "input":
            node.custom_attrs = {**(node.custom_attrs or {}), "aria-label": name}
            break
        pending.extend(getattr(node, "children", []) or [])
    return upload


def file_drop_zone(upload_id: str, prompt: str, note: Any = None, file_name_id: str = "upload-file-name",
                   **props: Any) -> rx.Component:
    """A dashed zone taking one file (dropped or chosen): the chosen file's name, else `prompt`; then
    `note` (e.g. the columns expected). `props` go to rx.upload (accept, padding ...)."""
    chosen = rx.selected_files(upload_id)
    props.setdefault("padding", "0")
    return named_upload(rx.upload(
        rx.vstack(
            rx.icon("file-spreadsheet", size=28, color=rx.color("gray", 9)),
            rx.cond(chosen.length() > 0,
                    rx.foreach(chosen, lambda name: rx.text(name, size="2", weight="medium", id=file_name_id)),
                    rx.text(prompt, size="2", color=rx.color("gray", 11), text_align="center")),
            rx.text(note, size="1", color=rx.color("gray", 10)) if note is not None else rx.fragment(),
            align="center", spacing="2", padding="20px",
        ),
        id=upload_id, multiple=False, max_files=1,
        border=f"1px dashed {rx.color('gray', 7)}", border_radius="8px", width="100%", cursor="pointer",
        background=rx.color("gray", 2),
        **props,
    ), prompt)


def spreadsheet_drop_zone(upload_id: str) -> rx.Component:
    """The drop zone of a CSV or Excel (.xlsx) file."""
    return file_drop_zone(upload_id, "Drop a CSV or Excel (.xlsx) file here, or click to choose one",
                          accept=SPREADSHEET_ACCEPT)


def upload_button(label: str, upload_id: str, on_upload: Any, on_no_file: Any, loading: Any,
                  id_: str = "upload-confirm") -> rx.Component:
    """Sends the file of `upload_id` to `on_upload`; with no file chosen it calls `on_no_file` (which
    says a file is needed)."""
    return rx.cond(
        rx.selected_files(upload_id).length() > 0,
        rx.button(rx.icon("upload", size=14), label, id=id_, loading=loading,
                  on_click=on_upload(rx.upload_files(upload_id=upload_id))),
        rx.button(rx.icon("upload", size=14), label, id=id_, on_click=on_no_file),
    )


def upload_choice(S: Any, intro: Any, zone: rx.Component, *notes: rx.Component, confirm: rx.Component,
                  cancel_id: str = "upload-cancel", **footer: Any) -> rx.Component:
    """An upload dialog's choosing step for `S` (a state with close_upload and uploading): what the
    file does, its drop zone, `notes` (the columns expected, why a file was refused), then Cancel and
    `confirm` at the right (`footer` styles that bar)."""
    return rx.vstack(
        rx.text(intro, size="2", color=rx.color("gray", 11)),
        zone,
        *notes,
        rx.hstack(cancel_button(on_click=S.close_upload, id=cancel_id, disabled=S.uploading), confirm,
                  justify="end", spacing="3", width="100%", **footer),
        spacing="3", width="100%",
    )


def spreadsheet_upload_modal(S: Any, title: str, intro: Any, columns: Any, failure: rx.Component, upload_id: str,
                             max_width: str, **footer: Any) -> rx.Component:
    """The "Upload" dialog of a CSV or Excel (.xlsx) file for `S` (a state with upload_open,
    set_upload_open, upload, no_file, uploading and close_upload): `intro`, the drop zone, the
    `columns` expected, `failure` (how a refused file is told), then Cancel and Upload."""
    return modal(
        title,
        upload_choice(S, intro, spreadsheet_drop_zone(upload_id), rx.text(columns, size="1", color=rx.color("gray", 10)),
                      failure, confirm=upload_button("Upload", upload_id, S.upload, S.no_file, S.uploading), **footer),
        open_=S.upload_open, on_open_change=S.set_upload_open, max_width=max_width, id_="upload-modal",
    )


# ---- images -------------------------------------------------------------------------------------
IMAGE_HINT = "PNG, JPEG, GIF, WEBP or BMP, less than 2Mb."


def image_picker(state: Any, slot: str, title: str, editable: Any, name: str = "", round_: bool = False,
                 fallback: Any = "", placeholder: str = "") -> rx.Component:
    """One image of a state that mixes in states.images.ImageStaging: the preview, Upload and Remove,
    then the hint or the validator's error. `name` (the slot by default) prefixes the ids:
    `{name}-upload` (the drop zone), `{name}-upload-button`, `{name}-preview`, `{name}-remove`,
    `{name}-error`. Removal asks first: put `image_remove_dialog(state)` on the page once."""
    name = name or slot
    upload_id = f"{name}-upload"
    url = state.image_urls[slot].to(str)
    error = state.image_errors[slot].to(str)
    if round_:
        empty = rx.text(fallback, size="6", weight="bold", color=rx.color("gray", 10))
    else:
        empty = rx.vstack(rx.icon("image", size=28, color=rx.color("gray", 8)),
                          rx.text(placeholder, size="1", color=rx.color("gray", 10)) if placeholder else rx.fragment(),
                          align="center", spacing="1")
    preview = rx.cond(
        url,  # "" (nothing) and, before the first load, a missing slot both show the placeholder
        rx.image(src=file_src(url), alt=title, width="100%", height="100%", object_fit="cover" if round_ else "contain",
                 id=f"{name}-preview"),
        rx.center(empty, width="100%", height="100%"),
    )
    return rx.vstack(
        rx.hstack(
            rx.box(preview, width="96px" if round_ else "160px", height="96px", min_width="96px",
                   border_radius="50%" if round_ else "8px", overflow="hidden",
                   border=f"1px solid {rx.color('gray', 5)}", background=rx.color("gray", 2)),
            rx.cond(
                editable,
                rx.vstack(
                    named_upload(rx.upload(
                        rx.button(rx.icon("upload", size=14), "Upload", variant="soft", type="button", size="2",
                                  id=f"{upload_id}-button"),
                        id=upload_id,
                        accept={"image/*": []},
                        multiple=False,
                        max_files=1,
                        on_drop=state.stage_image(slot, rx.upload_files(upload_id=upload_id)),
                        on_drop_rejected=lambda rejected: state.reject_image(slot, rejected),
                        border="none",
                        padding="0",
                    ), f"Upload {title.lower()}"),
                    rx.cond(url, rx.button(rx.icon("trash-2", size=14), "Remove", variant="soft", color_scheme="red",
                                           type="button", size="2", on_click=state.ask_remove_image(slot),
                                           id=f"{name}-remove")),
                    spacing="2",
                ),
            ),
            spacing="4",
            align="center",
        ),
        rx.cond(error, rx.text(error, size="1", color=rx.color("red", 11), class_name="field-error", id=f"{name}-error"),
                rx.cond(editable, rx.text(IMAGE_HINT, size="1", color=rx.color("gray", 10)))),
        spacing="3",
        width="100%",
    )


def image_remove_dialog(state: Any) -> rx.Component:
    """The "Are you sure, you want to delete ...?" question of an ImageStaging state."""
    return confirm_dialog(state.image_remove_open, state.image_remove_question, state.confirm_remove_image,
                          state.cancel_remove_image)


# ---- tables -----------------------------------------------------------------------------------
def sort_header(label: str, key: str, sort: Any, order: Any, on_sort: Any, align: str = "left") -> rx.Component:
    """A column header that sorts by `key` (click again to reverse) with a visible arrow: a button
    (Tab, Enter), the header saying how the column is sorted (aria-sort)."""
    arrow = rx.cond(sort == key, rx.cond(order == "asc", rx.icon("arrow-up", size=12), rx.icon("arrow-down", size=12)),
                    rx.icon("arrow-up-down", size=12, opacity="0.35"))
    return rx.table.column_header_cell(
        rx.flex(
            rx.el.button(rx.text(label), rx.box(arrow, aria_hidden="true", display="inline-flex"), type="button",
                         on_click=on_sort(key), class_name="wa-sort"),
            justify="end" if align == "right" else "start",
        ),
        aria_sort=rx.cond(sort == key, rx.cond(order == "asc", "ascending", "descending"), "none"),
        white_space="nowrap",
    )


def plain_header(label: str) -> rx.Component:
    return rx.table.column_header_cell(label, white_space="nowrap")


def table_card(header: rx.Component, body: rx.Component, footer: rx.Component | None = None,
               label: str = "Table") -> rx.Component:
    """Sticky header, hairline rows, scrolls inside its card on a desktop window (the page scrolls
    on a phone or zoomed in). A table wider than its card scrolls sideways inside it with its first
    column (what the row is) and its row menu ("...") kept in view (the `wa-table` rules of
    assets/styles.css, which also size its scroll box). The scroll box is a named region the
    keyboard can reach and scroll (`label` names it)."""
    return rx.card(
        rx.box(
            rx.table.root(
                rx.table.header(header, position="sticky", top="0", background=rx.color("gray", 2), z_index="2"),
                body,
                variant="ghost",
                size="2",
                width="100%",
                class_name="wa-table",
            ),
            class_name="wa-table-scroll",
            tab_index=0,
            role="region",
            aria_label=label,
        ),
        footer if footer is not None else rx.fragment(),
        width="100%",
        size="1",
        padding="0",
        class_name="wa-table-card",
    )


def nav_link(*children: Any, href: Any, before: Any = None, **props: Any) -> rx.Component:
    """A link to a screen of the app: a real address (open in a new tab, middle click and copy link
    give the screen with its parameters); a plain click goes there in the app, asking first when a
    form has unsaved changes; a click that asks for a new tab or window is the browser's
    (assets/links.js). `before`: an event to run first (e.g. closing the dialog the link is in)."""
    from app.ui.states.base import AppState

    go = AppState.navigate(href)
    on_click = [rx.prevent_default, before, go] if before is not None else go.prevent_default
    return rx.link(*children, href=href, on_click=on_click, **props)


def clickable_row(*cells: rx.Component, on_click: Any = None, href: Any = None, **props: Any) -> rx.Component:
    """A list row that opens what it shows when clicked, highlighted under the pointer. The keyboard
    reaches it with Tab and opens it with Enter (assets/a11y.js); with `href` (the address it opens)
    its first cell's content is also a link to it, for screen readers, new tabs and bookmarks, and
    a click on the row goes there (unless `on_click` says otherwise)."""
    if on_click is None and href is not None:
        from app.ui.states.base import AppState

        on_click = AppState.navigate(href)
    if href is not None and cells:
        first = cells[0]
        first.children = [rx.link(*first.children, href=href, on_click=rx.prevent_default, color="inherit",
                                  underline="hover")]
    return rx.table.row(*cells, on_click=on_click, cursor="pointer", _hover={"background": rx.color("gray", 3)},
                        tab_index=0, class_name=" ".join(c for c in ("wa-row-open", props.pop("class_name", "")) if c),
                        **props)


def empty_row(columns: int, text: str, action: rx.Component | None = None) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.vstack(rx.text(text, color=rx.color("gray", 10)), action if action is not None else rx.fragment(),
                      align="center", spacing="3", padding_y="32px"),
            col_span=columns,
        )
    )


def skeleton_rows(columns: int, rows: int = 5) -> rx.Component:
    return rx.foreach(
        list(range(rows)),
        lambda _: rx.table.row(*[rx.table.cell(rx.skeleton(rx.text("loading"), loading=True)) for _ in range(columns)]),
    )


def row_menu(*items: rx.Component, id: Any = None) -> rx.Component:
    return rx.menu.root(
        rx.menu.trigger(rx.icon_button(rx.icon("ellipsis", size=16), variant="ghost", color_scheme="gray", size="1",
                                       aria_label="Actions", class_name="row-actions", id=id)),
        rx.menu.content(*items),
    )


def page_size_select(value: Any, on_change: Any, sizes: Any = None, id_: str = "page-size") -> rx.Component:
    """The page-size choice; `sizes` other than the lists' 20/50/100 (e.g. holdings' 12/20/32, or a
    state's list). "Rows per page" is the select's label; `id_` for a second list on the screen."""
    return rx.hstack(
        label_for("Rows per page", control=id_, size="1", weight="regular", color=rx.color("gray", 10),
                  id=f"{id_}-label"),
        rx.select(PAGE_SIZES if sizes is None else sizes, value=value, on_change=on_change, size="1", id=id_,
                  custom_attrs={"aria-labelledby": f"{id_}-label"}),
        align="center", spacing="2",
    )


def pagination(page: Any, pages: Any, visible: Any, on_page: Any) -> rx.Component:
    """Up to 6 page buttons around the current one, with previous and next (spec 002 s9)."""
    return rx.hstack(
        rx.icon_button(rx.icon("chevron-left", size=14), size="1", variant="soft", color_scheme="gray",
                       disabled=page <= 1, on_click=on_page(page - 1), aria_label="Previous page"),
        rx.foreach(visible, lambda p: rx.button(p, size="1", variant=rx.cond(p == page, "solid", "soft"),
                                                color_scheme=rx.cond(p == page, "indigo", "gray"), on_click=on_page(p),
                                                aria_current=rx.cond(p == page, "page", "false"))),
        rx.icon_button(rx.icon("chevron-right", size=14), size="1", variant="soft", color_scheme="gray",
                       disabled=page >= pages, on_click=on_page(page + 1), aria_label="Next page"),
        spacing="1", align="center", id="pagination", role="navigation", aria_label="Pages",
    )


def table_rows(rows: Any, row: Any, columns: Any, loading: Any, empty: rx.Component, skeleton: int = 5,
               **props: Any) -> rx.Component:
    """A list table's body: skeleton rows while `loading`, `empty` (an empty_row) when there are no
    rows, else `row(item)` for each of `rows`."""
    return rx.table.body(
        rx.cond(loading, skeleton_rows(columns, skeleton), rx.cond(rows.length() == 0, empty, rx.foreach(rows, row))),
        **props,
    )


def list_footer(*children: rx.Component) -> rx.Component:
    return rx.hstack(*children, justify="between", align="center", padding="12px 16px", wrap="wrap", spacing="3",
                     border_top=f"1px solid {rx.color('gray', 4)}")


def list_count(*text: Any, id_: Any = None) -> rx.Component:
    """The "Showing 1-20 of 45" text at the start of a list's footer."""
    return rx.text(*text, size="2", color=rx.color("gray", 11), id=id_)


def page_controls(state: Any, sizes: list[str] | None = None) -> rx.Component:
    """The page-size choice and the page buttons of a paged list's state (page_size, page, pages,
    visible, set_page_size, go_page)."""
    return rx.hstack(page_size_select(state.page_size, state.set_page_size, sizes),
                     pagination(state.page, state.pages, state.visible, state.go_page),
                     spacing="4", align="center", wrap="wrap")


def load_more_button(state: Any) -> rx.Component:
    """The "Load more" button, while a list's state has more rows (has_more, loading_more, load_more)."""
    return rx.cond(state.has_more, rx.button("Load more", variant="soft", size="2", id="load-more",
                                             loading=state.loading_more, on_click=state.load_more))


def load_more_controls(state: Any) -> rx.Component:
    """The "Load more" button and the page-size choice of a list that grows instead of paging."""
    return rx.hstack(load_more_button(state), page_size_select(state.page_size, state.set_page_size),
                     spacing="4", align="center", wrap="wrap")


# ---- dialogs ----------------------------------------------------------------------------------
# A click outside does not close a form being edited (only its Cancel or Escape).
KEEP_OPEN = {"on_pointer_down_outside": rx.prevent_default, "on_interact_outside": rx.prevent_default}


def modal(title: Any, *body: rx.Component, open_: Any, on_open_change: Any = None, id_: Any = None,
          title_id: Any = None, keep_open: bool = False, **props: Any) -> rx.Component:
    """A dialog: its title over `body`; `props` style its content (max_width ...); `keep_open` for a
    form (see KEEP_OPEN)."""
    named = {"id": id_} if id_ is not None else {}
    title_named = {"id": title_id} if title_id is not None else {}
    if title_id is not None:  # the title's own id replaces the one Radix names the dialog by
        props.setdefault("aria_labelledby", title_id)
    return rx.dialog.root(
        # the screen's title is its one h1: a dialog's title is an h2
        rx.dialog.content(rx.dialog.title(title, **title_named, custom_attrs={"as": "h2"}), *body, **named,
                          **(KEEP_OPEN if keep_open else {}), **props),
        open=open_,
        **({"on_open_change": on_open_change} if on_open_change is not None else {}),
    )


def cancel_button(**props: Any) -> rx.Component:
    """The grey "Cancel" beside a dialog's or a form's main button (`props`: on_click, id ...)."""
    return rx.button("Cancel", variant="soft", color_scheme="gray", **props)


def form_actions(read_only: Any, on_cancel: Any, cancel_id: str, *saves: rx.Component) -> rx.Component:
    """The bar under an editable form: Cancel, then its save buttons, at the right (as in a
    dialog); nothing while the form is read-only."""
    return rx.cond(
        read_only,
        rx.fragment(),
        rx.hstack(cancel_button(type="button", on_click=on_cancel, id=cancel_id), *saves,
                  justify="end", spacing="3", width="100%", wrap="wrap"),
    )


def close_button(**props: Any) -> rx.Component:
    """The grey "Close" that closes the dialog it stands in."""
    return rx.dialog.close(rx.button("Close", variant="soft", color_scheme="gray", **props))


def confirm_dialog(open_: Any, message: Any, on_confirm: Any, on_cancel: Any, confirm_label: str = "Delete",
                   title: str = "Please confirm", danger: bool = True, on_open_change: Any = None) -> rx.Component:
    """The question with Cancel and the confirming button. It takes the focus (Cancel first), keeps it,
    closes on Escape (`on_open_change`, else Cancel's `on_cancel`) and gives the focus back to what
    opened it (assets/a11y.js)."""
    extra = {"on_open_change": on_open_change if on_open_change is not None else (lambda _open: on_cancel)}
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title, custom_attrs={"as": "h2"}),
            # a question of several sentences (e.g. the orders a broker file places and what it leaves
            # out) keeps its line breaks
            rx.alert_dialog.description(message, id="confirm-message", white_space="pre-line"),
            rx.hstack(
                cancel_button(on_click=on_cancel, id="confirm-cancel"),
                rx.button(confirm_label, color_scheme="red" if danger else "indigo", on_click=on_confirm, id="confirm-ok"),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="440px",
        ),
        open=open_,
        **extra,
    )


def confirm_dialog_of(state: Any, title: str = "Please confirm", danger: bool = True,
                      confirm_label: Any = None) -> rx.Component:
    """The confirmation dialog of a screen state that mixes in app.ui.toolkit.screen.Confirm (its
    question and, unless given here, its button's label are the state's)."""
    return confirm_dialog(state.confirm_open, state.confirm_message, state.confirm, state.cancel_confirm,
                          confirm_label=state.confirm_label if confirm_label is None else confirm_label,
                          title=title, danger=danger, on_open_change=state.set_confirm_open)


# ---- display ----------------------------------------------------------------------------------
def status_badge(title: Any, status: Any) -> rx.Component:
    return rx.badge(title, color_scheme=rx.match(status, ("active", "green"), ("disabled", "amber"), ("deleted", "red"), "gray"),
                    variant="soft")
