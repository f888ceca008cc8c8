"""The asset universe (assets.list): the table, an asset's details with its price chart, the price
import and the asset form (superuser)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.layout import page
from app.ui.components.widgets import (
    FILTER_NAMES, cancel_button, clickable_row, close_button, empty_row, field, file_drop_zone, list_count,
    list_footer, modal, page_controls, plain_header, sort_header, SPREADSHEET_ACCEPT, table_card, table_rows, text_input, upload_button,
    upload_choice,
)
from app.ui.components.asset_picker import AssetPickerState, asset_picker
from app.ui.rows.assets import NONE, AssetRow
from app.ui.states.assets import ALL, PICK_TARGET, UPLOAD_FAILED, UPLOAD_ID, AssetsState
from app.ui.states.base import AppState

TITLE = "Wealth Advice"
COLUMNS = 9
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}


# ---- small pieces ---------------------------------------------------------------------------------
def performance(figure: Any, **props) -> rx.Component:
    """A return (a Performance): green when positive, red when negative, grey N/A when empty."""
    sign = figure.sign
    return rx.text(figure.text, color=rx.match(sign, ("up", rx.color("grass", 11)), ("down", rx.color("red", 11)),
                                               rx.color("gray", 11)),
                   weight=rx.cond(sign != "", "medium", "regular"), **props)


def group_label(title: Any, color: Any) -> rx.Component:
    return rx.cond(
        title != "",
        rx.hstack(rx.box(width="10px", height="10px", min_width="10px", border_radius="50%", background=color),
                  rx.text(title, size="2"), spacing="2", align="center"),
        rx.text("\u2014", color=rx.color("gray", 9)),
    )


def _close_date(value: Any) -> rx.Component:
    return rx.cond(value != "", rx.moment(value, format="DD/MM/YYYY"), rx.text("N/A", color=rx.color("gray", 11)))


def _select(value: Any, options: Any, on_change: Any, id_: str, all_label: str, with_dots: bool = False) -> rx.Component:
    def item(o):
        if with_dots:
            return rx.select.item(rx.hstack(rx.box(width="8px", height="8px", border_radius="50%", background=o.color),
                                            rx.text(o.label), spacing="2", align="center"), value=o.value)
        return rx.select.item(o.label, value=o.value)

    return rx.select.root(
        rx.select.trigger(id=id_, min_width="180px", custom_attrs={"aria-label": FILTER_NAMES[id_]}),
        rx.select.content(rx.select.item(all_label, value=ALL), rx.foreach(options, item)),
        value=value, on_change=on_change, size="2",
    )


# ---- the table ----------------------------------------------------------------------------------------
def _row(row: AssetRow) -> rx.Component:
    return clickable_row(
        rx.table.cell(rx.text(row.code, weight="bold", class_name="asset-code"), white_space="nowrap"),
        rx.table.cell(
            rx.vstack(
                rx.text(row.name, size="2"),
                rx.cond(row.firm_name != "", rx.badge(row.firm_name, variant="soft", color_scheme="amber", size="1")),
                spacing="1", min_width="180px",
            ),
        ),
        rx.table.cell(rx.text(row.class_title, size="2"), min_width="100px"),
        rx.table.cell(group_label(row.group_title, row.group_color), min_width="150px"),
        rx.table.cell(row.price, **NUMBER),
        rx.table.cell(_close_date(row.close_date), white_space="nowrap", font_variant_numeric="tabular-nums"),
        rx.table.cell(row.dividend_yield, **NUMBER),
        rx.table.cell(performance(row.one_month), **NUMBER),
        rx.table.cell(performance(row.six_month), **NUMBER),
        on_click=AssetsState.open_asset(row.id),
        align="center",
        class_name="asset-row",
        custom_attrs={"data-code": row.code},
    )


def _header() -> rx.Component:
    s = AssetsState

    def sortable(label: str, key: str, align: str = "left") -> rx.Component:
        return sort_header(label, key, s.sort, s.order, s.toggle_sort, align=align)

    return rx.table.row(
        sortable("Code", "code"), sortable("Name", "name"), sortable("Class", "class"),
        sortable("Industry group", "industry_group"), sortable("Last close", "last_close_price", "right"),
        sortable("Close date", "last_close_date"), sortable("Dividend yield", "dividend_yield", "right"),
        sortable("1M return", "one_month_return", "right"), sortable("6M return", "six_month_return", "right"),
    )


def _toolbar() -> rx.Component:
    s = AssetsState
    return rx.hstack(
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            placeholder="Search by code or name",
            value=s.search,
            on_change=s.set_search.debounce(300),
            id="asset-search",
            width="100%",
            max_width="320px",
        ),
        _select(s.class_filter, s.class_options, lambda v: s.set_choice("class_filter", v), "class-filter", "All classes"),
        _select(s.group_filter, s.group_options, lambda v: s.set_choice("group_filter", v), "group-filter", "All industry groups", with_dots=True),
        rx.cond(s.has_filters, rx.button(rx.icon("x", size=14), "Clear", variant="ghost", color_scheme="gray",
                                         on_click=s.clear_filters, id="clear-filters")),
        rx.spacer(),
        rx.button(rx.icon("text-search", size=16), "Find asset", variant="outline", color_scheme="gray", id="find-asset",
                  on_click=AssetPickerState.open_for(PICK_TARGET, None, None, "Find asset")),
        wrap="wrap", spacing="3", align="center", width="100%",
    )


def _actions() -> rx.Component:
    return rx.cond(
        AppState.is_superuser,
        rx.hstack(
            rx.button(rx.icon("upload", size=16), "Import prices", variant="soft", on_click=[rx.clear_selected_files(UPLOAD_ID), AssetsState.open_upload],
                      id="import-prices"),
            rx.button(rx.icon("plus", size=16), "New asset", on_click=AssetsState.new_asset, id="new-asset"),
            spacing="2", wrap="wrap",
        ),
    )


# ---- the details ------------------------------------------------------------------------------------
def _stat(label: str, value: rx.Component) -> rx.Component:
    return rx.vstack(rx.text(label, size="1", color=rx.color("gray", 10)), value, spacing="1", min_width="110px")


def _chart() -> rx.Component:
    return rx.cond(
        AssetsState.chart.length() > 1,
        rx.recharts.line_chart(
            rx.recharts.cartesian_grid(stroke_dasharray="3 3", vertical=False),
            rx.recharts.x_axis(data_key="day", min_tick_gap=28, tick_line=False, font_size=11),
            rx.recharts.y_axis(domain=["auto", "auto"], width=56, tick_line=False, axis_line=False, font_size=11),
            rx.recharts.graphing_tooltip(),
            rx.recharts.line(data_key="close", name="Close", stroke=rx.color("accent", 9), dot=False,
                             stroke_width=2, type_="monotone", is_animation_active=False),
            data=AssetsState.chart,
            margin={"top": 8, "right": 8, "left": 0, "bottom": 0},
            width="100%", height=220,
        ),
        rx.center(rx.text("No price history yet.", size="2", color=rx.color("gray", 10)), height="80px"),
    )


def _recent_table() -> rx.Component:
    return rx.cond(
        AssetsState.recent.length() > 0,
        rx.table.root(
            rx.table.header(rx.table.row(plain_header("Date"), rx.table.column_header_cell("Close", text_align="right"),
                                         rx.table.column_header_cell("Change", text_align="right"))),
            rx.table.body(rx.foreach(AssetsState.recent, lambda p: rx.table.row(
                rx.table.cell(p.day, font_variant_numeric="tabular-nums"),
                rx.table.cell(p.close, **NUMBER),
                rx.table.cell(performance(p.change), **NUMBER),
            )), id="recent-prices"),
            variant="ghost", size="1", width="100%",
        ),
    )


def _detail_dialog() -> rx.Component:
    s = AssetsState
    d = s.detail
    body = rx.vstack(
        rx.hstack(
            rx.badge(d.class_title, variant="soft", color_scheme="indigo"),
            rx.cond(d.type_title != "", rx.badge(d.type_title, variant="soft", color_scheme="gray")),
            rx.cond(d.firm_name != "", rx.badge("Private to " + d.firm_name, variant="soft", color_scheme="amber")),
            group_label(d.group_title, d.group_color),
            spacing="2", wrap="wrap", align="center",
        ),
        rx.grid(
            _stat("Last close", rx.text(d.price, weight="bold", size="4", font_variant_numeric="tabular-nums",
                                        id="detail-price")),
            _stat("Close date", rx.text(_close_date(d.close_date), size="2")),
            _stat("Dividend yield", rx.text(d.dividend_yield, size="2")),
            _stat("1M return", performance(d.one_month, size="2")),
            _stat("6M return", performance(d.six_month, size="2")),
            columns=rx.breakpoints(initial="2", sm="5"), spacing="4", width="100%",
        ),
        rx.vstack(
            rx.hstack(rx.text("Price history", weight="medium", size="2"), rx.spacer(),
                      rx.text(s.chart_domain_note, size="1", color=rx.color("gray", 10)), width="100%"),
            _chart(),
            spacing="2", width="100%",
        ),
        _recent_table(),
        rx.hstack(
            rx.cond(d.url != "", rx.link(rx.hstack(rx.icon("external-link", size=14), rx.text("ASX page"), spacing="1",
                                                   align="center"), href=d.url, is_external=True, size="2")),
            rx.spacer(),
            rx.cond(AppState.is_superuser, rx.button(rx.icon("pencil", size=14), "Edit", variant="soft",
                                                     on_click=s.edit_asset, id="edit-asset")),
            close_button(id="detail-close"),
            width="100%", align="center", spacing="3",
        ),
        spacing="4", width="100%",
    )
    return modal(
        rx.hstack(rx.text(d.code, weight="bold"), rx.text(d.name, weight="regular",
                                                                          color=rx.color("gray", 11)),
                                  spacing="3", wrap="wrap"),
        rx.cond(s.detail_loading, rx.center(rx.spinner(size="3"), height="240px"), body),
        open_=s.detail_open, on_open_change=s.set_detail_open, max_width="760px", id_="asset-detail",
        title_id="detail-title",
    )


# ---- the price import -----------------------------------------------------------------------------
def _import_failure() -> rx.Component:
    """The file was refused: 'The file upload was unsuccessful' and why."""
    return rx.callout.root(
        rx.callout.icon(rx.icon("triangle-alert", size=16)),
        rx.vstack(rx.text(UPLOAD_FAILED, weight="bold", size="2"),
                  rx.text(AssetsState.upload_error, id="import-error", size="2"), spacing="1"),
        color_scheme="red", size="1", width="100%")


def _import_dialog() -> rx.Component:
    s = AssetsState
    zone = file_drop_zone(
        UPLOAD_ID, "Drop a CSV or Excel file here, or click to choose one",
        note="Columns: code, date (DD/MM/YYYY or YYYY-MM-DD), close", file_name_id="import-file-name",
        accept={**SPREADSHEET_ACCEPT, "application/vnd.ms-excel": [".xls"]},
        padding="5em",  # rx.upload's own padding: the price import's zone is the larger one
    )
    start = upload_button("Import", UPLOAD_ID, s.import_prices, s.no_file, s.uploading, id_="import-confirm")
    choose = upload_choice(
        s, "Each line's close is saved for its asset and day (a day already there is replaced). Lines that "
           "cannot be read are listed afterwards; a file that cannot be read at all changes nothing.",
        zone, rx.cond(s.upload_error != "", _import_failure()), confirm=start, cancel_id="import-cancel",
    )
    done = rx.vstack(
        rx.cond(s.upload_error != "", _import_failure(),  # every line was rejected
                rx.callout(s.import_summary, icon="circle-check", color_scheme="grass", size="1", width="100%",
                           id="import-summary")),
        rx.cond(
            s.price_import.rejected.length() > 0,
            rx.vstack(
                rx.text(s.rejected_summary, weight="medium", size="2", color=rx.color("red", 11), id="rejected-summary"),
                rx.box(
                    rx.table.root(
                        rx.table.header(rx.table.row(plain_header("Line"), plain_header("Code"), plain_header("Reason")),
                                        position="sticky", top="0", background=rx.color("gray", 2)),
                        rx.table.body(rx.foreach(s.price_import.rejected, lambda r: rx.table.row(
                            rx.table.cell(r.line, font_variant_numeric="tabular-nums"),
                            rx.table.cell(rx.text(r.code, weight="medium")),
                            rx.table.cell(r.reason),
                            class_name="rejected-line",
                        )), id="rejected-lines"),
                        variant="ghost", size="1", width="100%",
                    ),
                    max_height="280px", overflow_y="auto", width="100%",
                ),
                spacing="2", width="100%",
            ),
        ),
        rx.hstack(
            rx.button("Import another file", variant="soft", on_click=[rx.clear_selected_files(UPLOAD_ID), s.import_again], id="import-again"),
            rx.button("Done", on_click=s.close_upload, id="import-done"),
            justify="end", spacing="3", width="100%",
        ),
        spacing="3", width="100%",
    )
    return modal(
        "Import prices",
        rx.cond(s.price_import.done, done, choose),
        open_=s.upload_open, on_open_change=s.set_upload_open, max_width="600px", id_="import-dialog",
    )


# ---- the asset form ---------------------------------------------------------------------------------
def _form_input(key: str, label: str, required: bool = False, **props) -> rx.Component:
    error = AssetsState.form_errors.get(key, "")
    return field(label, text_input(f"asset-{key}", AssetsState.form[key],
                                   lambda value: AssetsState.set_form_field(key, value), error=error, **props),
                 error, required)


def _form_select(key: str, label: str, options: Any, none_label: str = "", required: bool = False) -> rx.Component:
    error = AssetsState.form_errors.get(key, "")
    items = [rx.select.item(none_label, value=NONE)] if none_label else []
    control = rx.select.root(
        rx.select.trigger(placeholder=f"Select {label.lower()}", id=f"asset-{key}", width="100%",
                          color=rx.cond(error != "", rx.color("red", 11), "inherit")),
        rx.select.content(*items, rx.foreach(options, lambda o: rx.select.item(o.label, value=o.value))),
        value=AssetsState.form[key],
        on_change=lambda value: AssetsState.set_form_field(key, value),
    )
    return field(label, control, error, required)


def _form_dialog() -> rx.Component:
    s = AssetsState
    return modal(
        s.form_title,
        rx.vstack(
            rx.grid(
                _form_input("code", "Code", required=True, placeholder="e.g. BHP", max_length=20),
                _form_input("name", "Name", required=True, placeholder="e.g. BHP Group Limited"),
                _form_select("class_id", "Class", s.class_options, required=True),
                _form_select("type_id", "Type", s.type_options, none_label="No type"),
                _form_select("industry_group_id", "Industry group", s.group_options, none_label="No industry group"),
                _form_select("firm_id", "Available to", s.firm_options, none_label="Every firm (shared universe)"),
                _form_input("dividend_yield", "Dividend yield (%)", placeholder="e.g. 4.5", input_mode="decimal"),
                _form_input("url", "Link", placeholder="https://www.asx.com.au/markets/company/bhp"),
                columns=rx.breakpoints(initial="1", sm="2"), spacing="4", width="100%",
            ),
            rx.hstack(
                cancel_button(on_click=s.close_form, id="asset-cancel"),
                rx.button("Save", on_click=s.save_asset, loading=s.saving, id="asset-save"),
                justify="end", spacing="3", width="100%",
            ),
            spacing="4", width="100%",
        ),
        open_=s.form_open, on_open_change=s.set_form_open, max_width="640px", id_="asset-form",
    )


# ---- the page ------------------------------------------------------------------------------------------
def assets_page() -> rx.Component:
    s = AssetsState
    new_asset = rx.cond(AppState.is_superuser & ~s.has_filters,
                        rx.button(rx.icon("plus", size=16), "New asset", variant="soft", on_click=s.new_asset))
    body = table_rows(s.rows, _row, COLUMNS, loading=s.loading & (s.rows.length() == 0),
                      empty=empty_row(COLUMNS, s.empty_text, new_asset), id="assets-table")
    footer = list_footer(list_count(s.showing, id_="showing"), page_controls(s))
    return page(
        "Assets",
        _toolbar(),
        table_card(_header(), body, footer),
        _detail_dialog(),
        _import_dialog(),
        _form_dialog(),
        asset_picker(on_pick=s.asset_picked),
        crumbs=[("Assets", None)],
        actions=_actions(),
        on_save_leave=s.save_and_leave,
    )


def register(app: rx.App) -> None:
    app.add_page(assets_page, route=routes.ROUTES["assets.list"], title=f"Assets | {TITLE}",
                 on_load=[AppState.check_login, AssetsState.on_load])
