"""Model portfolio screens: the list (models.view), the model form (models.createModel,
models.changeModel with ?preview=1, models.version read-only), the details (models.details) and
the history (models.history)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.components.asset_picker import asset_picker
from app.ui.components.industry_allocations import (
    ADD_LABEL, industry_allocations_table, industry_group_picker, industry_totals_bar,
)
from app.ui.components.layout import page
from app.ui.components.rich_text import SUMMARY_HEIGHT, rich_text, rich_text_editor
from app.ui.toolkit.lists import row_href
from app.ui.components.widgets import (
    clickable_row, confirm_dialog_of, empty_row, field, form_actions, field_error, form_grid, form_skeleton,
    label_for, list_count, list_footer, load_more_controls, page_size_select, pagination, plain_header, row_menu,
    search_input, section, sort_header, table_card, table_rows, text_input,
)
from app.ui.pages.users import option_select
from app.ui.states.base import AppState
from app.ui.rows.models import ModelRow
from app.ui.states.models import ModelDetailsState, ModelFormState, ModelHistoryState, ModelsListState

TITLE = "Wealth Advice"
F = ModelFormState
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums"}


def _status_badge(title: Any, status: Any) -> rx.Component:
    return rx.badge(title, color_scheme=rx.cond(status == "active", "green", "gray"), variant="soft",
                    class_name="model-status")


# ---- list -------------------------------------------------------------------------------------------
def _new_model_button(id_: str = "new-model", variant: str = "solid") -> rx.Component:
    return rx.button(rx.icon("plus", size=16), "New model", id=id_, variant=variant, on_click=ModelsListState.new_model)


def _row_actions(row: ModelRow) -> rx.Component:
    open_ = ModelsListState.open_row
    return row_menu(
        rx.menu.item("View Details", on_click=open_("models.details", row.id)),
        rx.cond(row.can_edit, rx.menu.item("Edit", on_click=open_("models.changeModel", row.id))),
        # spec 000 s6: View Portfolios for all; View Clients for the superuser and the owner firm
        rx.menu.item("View Portfolios", on_click=open_("models.portfolios", row.id)),
        rx.cond(row.can_edit, rx.menu.item("View Clients", on_click=open_("models.clients", row.id))),
        rx.menu.item("Long Term Recommendations", on_click=open_("models.long-terms", row.id)),
        rx.menu.item("Short Term Recommendations", on_click=open_("models.short-terms", row.id)),
        rx.cond(row.can_edit, rx.fragment(
            rx.menu.separator(),
            rx.menu.item("Delete", color="red", on_click=ModelsListState.ask_delete(row.id), class_name="row-delete"),
        )),
        id="model-actions-" + row.id.to_string(),
    )


def _model_row(row: ModelRow) -> rx.Component:
    return clickable_row(
        rx.table.cell(rx.text(row.name, weight="medium", class_name="model-name"), min_width="180px"),
        rx.table.cell(_status_badge(row.status_title, row.status)),
        rx.table.cell(row.method_title, white_space="nowrap"),
        rx.cond(AppState.is_superuser, rx.table.cell(rx.text(row.firm_name, white_space="nowrap"))),
        rx.table.cell(row.availability_title, white_space="nowrap"),
        rx.table.cell(row.assets_count, **NUMBER),
        rx.table.cell(rx.cond(row.updated_at != "", rx.moment(row.updated_at, format="DD/MM/YYYY"), ""),
                      white_space="nowrap", font_variant_numeric="tabular-nums"),
        rx.table.cell(_row_actions(row), on_click=rx.stop_propagation, text_align="right", width="48px"),
        href=row_href("models.details", row.id),
        align="center",
        class_name="model-row",
        id="model-row-" + row.id.to_string(),
    )


def models_list_page() -> rx.Component:
    s, o, on = ModelsListState.sort, ModelsListState.order, ModelsListState.toggle_sort
    columns = rx.cond(AppState.is_superuser, 8, 7)
    header = rx.table.row(
        sort_header("Name", "name", s, o, on),
        sort_header("Status", "status", s, o, on),
        plain_header("Method"),
        rx.cond(AppState.is_superuser, sort_header("Firm", "firm", s, o, on)),
        plain_header("Availability"),
        rx.table.column_header_cell("Assets", text_align="right"),
        sort_header("Updated", "updated_at", s, o, on),
        plain_header(""),
    )
    empty = rx.table.row(rx.table.cell(
        rx.vstack(
            rx.text(rx.cond(ModelsListState.filtered, "No model matches your search.",
                            "There are no models yet: a model appears here once it is created."),
                    color=rx.color("gray", 10)),
            _new_model_button("new-model-empty", "soft"),
            align="center", spacing="3", padding_y="32px", text_align="center",
            # stays in view when the table scrolls sideways on a phone
            position="sticky", left="0", max_width="calc(100vw - 64px)"),
        col_span=columns))
    body = table_rows(ModelsListState.rows, _model_row, 7,
                      loading=ModelsListState.loading & (ModelsListState.rows.length() == 0), empty=empty,
                      id="models-table")
    footer = list_footer(list_count(ModelsListState.showing, id_="models-showing"), load_more_controls(ModelsListState))
    toolbar = rx.flex(
        search_input("Search models by name", ModelsListState.search, ModelsListState.set_search, "model-search",
                     icon_size=16, width=["100%", "100%", "300px"]),
        rx.cond(AppState.is_superuser,
                rx.box(option_select(ModelsListState.firm_filter, ModelsListState.firm_options,
                                     ModelsListState.set_firm_filter, id="firm-filter"),
                       min_width="200px")),
        rx.flex(
            rx.button(rx.icon("upload", size=14), "Upload long-term recommendations", variant="soft", size="2",
                      id="upload-long-terms", on_click=ModelsListState.upload_long_terms),
            rx.button(rx.icon("upload", size=14), "Upload short-term recommendations", variant="soft", size="2",
                      id="upload-short-terms", on_click=ModelsListState.upload_short_terms),
            # bulk calculation (superusers and advisers, spec 001 s6)
            rx.cond((AppState.user_role == "superuser") | (AppState.user_role == "adviser"), rx.fragment(
                rx.button(rx.icon("calculator", size=14), "Calculate Target Portfolios", variant="soft", size="2",
                          id="bulk-calculate-tp", on_click=AppState.navigate(routes.url("bulk-calculate.calculateTP"))),
                rx.button(rx.icon("calculator", size=14), "Calculate Trade Recommendations", variant="soft", size="2",
                          id="bulk-calculate-tr", on_click=AppState.navigate(routes.url("bulk-calculate.calculateTR"))),
            )),
            wrap="wrap", spacing="3", margin_left=["0", "0", "auto"],
        ),
        wrap="wrap", spacing="3", align="center", width="100%",
    )
    return page(
        "Models",
        toolbar,
        table_card(header, body, footer),
        confirm_dialog_of(ModelsListState),
        crumbs=[("Models", None)],
        actions=_new_model_button(),
    )


# ---- form: shared pieces ------------------------------------------------------------------------------
def _err(key: Any) -> Any:
    return F.errors.get(key, "")


def _field_error(key: Any, id_: Any = None) -> rx.Component:
    return field_error(_err(key), id_)


def _number(id_: Any, value: Any, on_change: Any, error: Any, placeholder: str = "", width: str = "100%",
            read_only: Any = None) -> rx.Component:
    control = text_input(id_, value, on_change, error=error, read_only=F.read_only if read_only is None else read_only,
                         placeholder=rx.cond(F.read_only, "", placeholder), input_mode="decimal", text_align="right")
    return rx.box(control, width=width, min_width=width if width != "100%" else "0")


def _tab_table(rows: Any, row: Any, headers: list[str], empty: str) -> rx.Component:
    """A form tab's table of the model's lines (types, equivalents, percentages), or `empty` without any."""
    return rx.cond(
        rows.length() > 0,
        rx.box(rx.table.root(
            rx.table.header(rx.table.row(*[plain_header(label) for label in headers])),
            rx.table.body(rx.foreach(rows, row)),
            variant="ghost", size="1", width="100%"), overflow_x="auto", width="100%"),
        rx.text(empty, size="2", color=rx.color("gray", 10)),
    )


def _small_field(label: str, control: rx.Component, error: Any, control_id: Any = None) -> rx.Component:
    """A compact field (a class row's numbers): its caption, the label of `control_id` when it is a control."""
    return rx.vstack(
        label_for(label, control=control_id, size="1", color=rx.color("gray", 11)),
        control,
        field_error(error),
        spacing="1", width="100%", align="stretch",
    )


def _totals_bar(label: str, id_: str, error_key: str) -> rx.Component:
    """The class allocation totals bar (spec 002 s4 colours), in the shared totals bar's look."""
    return rx.vstack(
        rx.text(label, size="2", weight="medium"),
        industry_totals_bar(F.class_bar.label, F.class_bar.color, F.class_bar.width, _err(error_key), prefix=id_),
        spacing="1", width="100%",
    )


def _asset_chip(code: Any, name: Any) -> rx.Component:
    return rx.hstack(
        rx.text(code, weight="bold", size="2", font_family="var(--code-font-family)"),
        rx.text(name, size="2", color=rx.color("gray", 11), overflow="hidden", text_overflow="ellipsis",
                white_space="nowrap", max_width="240px"),
        spacing="2", align="center", min_width="0",
    )


def _pick_button(label: Any, target: Any, id_: Any, icon: str = "search") -> rx.Component:
    return rx.button(rx.icon(icon, size=14), label, type="button", size="1", variant="soft", white_space="nowrap",
                     on_click=F.open_picker(target), id=id_)


# ---- form: top ------------------------------------------------------------------------------------------
def _firm_field() -> rx.Component:
    error = _err("ownerId")
    select = option_select(F.firm_id, F.firm_options, F.set_firm, id="model-firm", placeholder="Choose the firm",
                           error=error, disabled=F.read_only | (F.mode != "new"))
    return rx.cond(
        F.can_choose_firm,
        field("Firm", select, error, required=True),
        field("Firm", text_input("model-owner", F.owner_label, None, read_only=True)),
    )


def _method_field() -> rx.Component:
    return field(
        "Allocation method",
        rx.select.root(
            rx.select.trigger(id="model-method", width="100%"),
            rx.select.content(rx.select.item("Equal Amounts", value="equal_amounts"),
                              rx.select.item("Percentages", value="percentages")),
            value=F.method, on_change=F.set_method, disabled=F.read_only,
        ),
        _err("allocation_method"),
    )


def _switch(label: str, key: str, checked: Any, hint: str = "") -> rx.Component:
    """A yes/no setting: a switch, or (read-only) a plain On / Off mark, since a disabled switch reads as off."""
    sid = f"switch-{key.replace('_', '-')}"
    shown = rx.cond(
        F.read_only,
        rx.badge(rx.cond(checked, rx.icon("check", size=12), rx.icon("minus", size=12)), rx.cond(checked, "On", "Off"),
                 color_scheme=rx.cond(checked, "green", "gray"), variant="soft", id=sid),
        rx.switch(checked=checked, on_change=lambda value: F.set_switch(key, value), id=sid),
    )
    return rx.hstack(
        shown,
        rx.vstack(label_for(label, control=sid),
                  rx.text(hint, size="1", color=rx.color("gray", 10)) if hint else rx.fragment(),
                  spacing="0"),
        spacing="3", align="center",
    )


def _model_section() -> rx.Component:
    name_error = _err("name")
    return section(
        "Model",
        form_grid(
            field("Name", text_input("model-name", F.name, F.set_name, error=name_error, read_only=F.read_only,
                                     placeholder=rx.cond(F.read_only, "", "e.g. Growth Portfolio"), max_length=200),
                  name_error, required=True),
            _firm_field(),
            _method_field(),
            field("Status", rx.box(_status_badge(F.status_title, F.status), padding_y="6px")),
        ),
        rx.grid(
            _switch("Analyst recommendations", "analyst_recommendations", F.analyst_recommendations),
            _switch("Class allocation", "class_allocation", F.class_allocation),
            _switch("Type allocation", "type_allocation", F.type_allocation),
            _switch("Industry group allocation", "industry_group_allocation", F.industry_group_allocation),
            columns=rx.breakpoints(initial="1", sm="2", lg="4"), spacing="4", width="100%",
        ),
    )


# ---- form: classes tab -------------------------------------------------------------------------------------
def _class_asset_row(i: Any, asset: Any, j: Any) -> rx.Component:
    prefix = "allocation_classes." + i.to_string() + ".assets." + j.to_string()
    base = "class-" + i.to_string() + "-asset-" + j.to_string()
    alt = rx.cond(
        asset.alt.id != 0,
        rx.hstack(
            rx.badge("Alt", variant="soft", color_scheme="blue", size="1"),
            _asset_chip(asset.alt.code, asset.alt.name),
            rx.cond(~F.read_only, rx.hstack(
                rx.icon_button(rx.icon("pencil", size=12), size="1", variant="ghost", type="button",
                               aria_label="Change alternate", on_click=F.open_picker("alt:" + i.to_string() + ":" + j.to_string())),
                rx.icon_button(rx.icon("x", size=12), size="1", variant="ghost", color_scheme="gray", type="button",
                               aria_label="Remove alternate", on_click=F.clear_alternate(i, j)),
                spacing="1")),
            spacing="2", align="center", class_name="asset-alternate",
        ),
        rx.cond(F.read_only, rx.text("\u2014", color=rx.color("gray", 9)),
                _pick_button("Add alternate", "alt:" + i.to_string() + ":" + j.to_string(), base + "-alt")),
    )
    return rx.table.row(
        rx.table.cell(_asset_chip(asset.code, asset.name)),
        rx.table.cell(
            rx.vstack(
                rx.box(text_input(base + "-priority", asset.priority, lambda v: F.set_asset_priority(i, j, v),
                                  error=_err(prefix + ".priority"), read_only=F.read_only, input_mode="numeric",
                                  size="1", aria_label="Priority of " + asset.code), width="72px"),
                _field_error(prefix + ".priority"),
                spacing="1"),
        ),
        rx.table.cell(rx.vstack(alt, _field_error(prefix + ".alt_asset_id"), _field_error(prefix + ".asset_id"),
                                spacing="1")),
        rx.table.cell(
            rx.cond(~F.read_only,
                    rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost", color_scheme="red", type="button",
                                   aria_label="Remove asset", on_click=F.remove_asset(i, j), class_name="remove-asset")),
            text_align="right",
        ),
        align="center",
        class_name="class-asset",
    )


def _class_card(line: Any, i: Any) -> rx.Component:
    prefix = "allocation_classes." + i.to_string()
    base = "class-" + i.to_string()

    def num(label: str, key: str, placeholder: str = "") -> rx.Component:
        error = _err(prefix + "." + key)
        return _small_field(label, _number(base + "-" + key, getattr(line, key), lambda v: F.set_class_field(i, key, v),
                                           error, placeholder), error, control_id=base + "-" + key)

    allocation = rx.cond(
        F.is_percentages & ~line.is_cash,
        _small_field("Allocation %", rx.text("From asset percentages", size="1", color=rx.color("gray", 10),
                                             padding_y="6px"), ""),
        num("Allocation %", "allocation", "0"),
    )
    assets_table = rx.cond(
        line.assets.length() > 0,
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(plain_header("Asset"), plain_header("Priority"), plain_header("Alternate"),
                                             plain_header(""))),
                rx.table.body(rx.foreach(line.assets, lambda asset, j: _class_asset_row(i, asset, j))),
                variant="ghost", size="1", width="100%",
            ),
            overflow_x="auto", width="100%",
        ),
        rx.text("No assets in this class yet.", size="1",
                color=rx.color("gray", 10)),
    )
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading(line.title, size="3", as_="h2", class_name="class-title"),
                rx.cond(line.is_cash, rx.badge("System", variant="soft", color_scheme="gray")),
                rx.spacer(),
                rx.cond(~F.read_only,
                        rx.hstack(
                            _pick_button("Add asset", "class:" + i.to_string(), base + "-add-asset", icon="plus"),
                            rx.cond(~line.is_cash,
                                    rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="soft", color_scheme="red",
                                                   type="button", aria_label="Remove class",
                                                   on_click=F.remove_class(i), id=base + "-remove")),
                            spacing="2")),
                width="100%", align="center",
            ),
            rx.grid(
                allocation,
                num("Min %", "min"),
                num("Max %", "max"),
                num("Assets limit", "assets_limit"),
                num("Priority", "priority"),
                columns=rx.breakpoints(initial="2", sm="3", md="5"), spacing="3", width="100%",
            ),
            _field_error(prefix + ".class_id"),
            assets_table,
            spacing="3", width="100%",
        ),
        width="100%", class_name="model-class", id=base,
    )


def _classes_tab() -> rx.Component:
    add_class = rx.cond(
        ~F.read_only,
        rx.hstack(
            rx.select.root(
                rx.select.trigger(placeholder="Add class", id="add-class", aria_label="Add class"),
                rx.select.content(rx.foreach(F.addable_classes,
                                             lambda c: rx.select.item(c.title, value=c.id.to_string()))),
                value="", on_change=F.add_class, disabled=~F.can_add_class | (F.addable_classes.length() == 0),
            ),
            rx.cond(~F.can_add_class, rx.text("Choose the firm first.", size="1", color=rx.color("gray", 10))),
            spacing="3", align="center", wrap="wrap",
        ),
    )
    return rx.vstack(
        rx.card(
            rx.vstack(
                _totals_bar("Class allocation", "class", "allocation_classes"),
                rx.cond(~F.class_allocation,
                        rx.text("Class allocation is switched off for this model.", size="1", color=rx.color("gray", 10))),
                spacing="2", width="100%"),
            width="100%",
        ),
        add_class,
        rx.foreach(F.classes, _class_card),
        spacing="3", width="100%",
    )


# ---- form: types tab ----------------------------------------------------------------------------------------
def _type_row(line: Any, i: Any) -> rx.Component:
    prefix = "allocation_types." + i.to_string()

    def cell(key: str) -> rx.Component:
        error = _err(prefix + "." + key)
        return rx.table.cell(rx.vstack(
            _number("type-" + i.to_string() + "-" + key, getattr(line, key), lambda v: F.set_type_field(i, key, v),
                    error, width="96px"),
            field_error(error),
            spacing="1"))

    return rx.table.row(rx.table.cell(rx.text(line.title, weight="medium")), cell("allocation"), cell("min"), cell("max"),
                        align="center", class_name="model-type")


def _types_tab() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text("Target allocation per asset type (empty: no target).", size="1", color=rx.color("gray", 10)),
            rx.cond(~F.type_allocation,
                    rx.text("Type allocation is switched off for this model.", size="1", color=rx.color("gray", 10))),
            _tab_table(F.types, _type_row, ["Type", "Allocation %", "Min %", "Max %"], "There are no asset types yet."),
            spacing="3", width="100%",
        ),
        width="100%",
    )


# ---- form: industry groups tab ------------------------------------------------------------------------------
def industry_allocations_editor() -> rx.Component:
    """The shared industry group allocations table, totals bar and picker over the form's rows."""
    def error_of(row: Any, i: Any, key: str) -> Any:
        return _err("industry_groups_allocations." + i.to_string() + "." + key)

    return rx.vstack(
        rx.hstack(
            rx.spacer(),
            rx.cond(~F.read_only, rx.button(rx.icon("plus", size=14), ADD_LABEL, size="2", variant="soft", type="button",
                                            id="ig-add", on_click=F.set_ig_picker_open(True))),
            width="100%", align="center",
        ),
        industry_allocations_table(
            F.groups,
            on_change=lambda row, i, key, value: F.set_group_field(i, key, value),
            on_remove=lambda row, i: F.remove_group(i),
            read_only=F.read_only,
            error_of=error_of,
        ),
        industry_totals_bar(F.groups_bar.label, F.groups_bar.color, F.groups_bar.width,
                            _err("industry_groups_allocations")),
        industry_group_picker(
            F.ig_picker_open, F.addable_groups,
            on_pick=lambda option: F.add_group(option["id"]),
            on_open_change=F.set_ig_picker_open,
            search=F.ig_picker_search, on_search=F.set_ig_picker_search,
            all_added=F.all_groups_added,
        ),
        spacing="3", width="100%",
    )


def _groups_tab() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.cond(~F.industry_group_allocation,
                    rx.text("Industry group allocation is switched off for this model.", size="1",
                            color=rx.color("gray", 10))),
            industry_allocations_editor(),
            spacing="3", width="100%",
        ),
        width="100%",
    )


# ---- form: equivalents tab -----------------------------------------------------------------------------------
def _equivalent_row(line: Any, k: Any) -> rx.Component:
    base = "equivalent-" + k.to_string()

    def side(asset: Any, target: str, label: str, suffix: str) -> rx.Component:
        chosen = rx.hstack(
            _asset_chip(asset.code, asset.name),
            rx.cond(~F.read_only, rx.icon_button(rx.icon("pencil", size=12), size="1", variant="ghost", type="button",
                                                 aria_label="Change", on_click=F.open_picker(target + k.to_string()))),
            spacing="2", align="center",
        )
        return rx.cond(asset.id != 0, chosen,
                       rx.cond(F.read_only, rx.text("\u2014"), _pick_button(label, target + k.to_string(), base + suffix)))

    return rx.table.row(
        rx.table.cell(side(line.asset, "eq:", "Select asset", "-asset")),
        rx.table.cell(rx.icon("arrow-left-right", size=14, color=rx.color("gray", 9))),
        rx.table.cell(side(line.eq, "eqq:", "Select equivalent", "-eq")),
        rx.table.cell(_field_error("equivalents." + k.to_string())),
        rx.table.cell(rx.cond(~F.read_only,
                              rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost", color_scheme="red",
                                             type="button", aria_label="Remove equivalent",
                                             on_click=F.remove_equivalent(k))),
                      text_align="right"),
        align="center", class_name="model-equivalent",
    )


def _equivalents_tab() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.text("Assets the engine may treat as the same holding.", size="1", color=rx.color("gray", 10)),
                rx.spacer(),
                rx.cond(~F.read_only, rx.button(rx.icon("plus", size=14), "Add equivalent", size="1", variant="soft",
                                                type="button", on_click=F.add_equivalent, id="add-equivalent")),
                width="100%", align="center", wrap="wrap",
            ),
            _tab_table(F.equivalents, _equivalent_row, ["Asset", "", "Equivalent", "", ""], "No equivalents."),
            spacing="3", width="100%",
        ),
        width="100%",
    )


# ---- form: percentages tab ------------------------------------------------------------------------------------
def _percent_row(line: Any, k: Any) -> rx.Component:
    key = "assets_percentages_allocations." + k.to_string() + ".allocation"
    error = _err(key)
    alt = rx.cond(
        line.alt.id != 0,
        rx.hstack(_asset_chip(line.alt.code, line.alt.name),
                  rx.cond(~F.read_only, rx.icon_button(rx.icon("x", size=12), size="1", variant="ghost", color_scheme="gray",
                                                       type="button", aria_label="Remove alternative",
                                                       on_click=F.clear_percent_alternative(k))),
                  spacing="2", align="center"),
        rx.cond(F.read_only, rx.text("\u2014"),
                _pick_button("Add alternative", "pct:" + k.to_string(), "percent-" + k.to_string() + "-alt")),
    )
    return rx.table.row(
        rx.table.cell(rx.text(line.class_title, size="2", color=rx.color("gray", 11), white_space="nowrap")),
        rx.table.cell(_asset_chip(line.code, line.name)),
        rx.table.cell(rx.vstack(
            _number("percent-" + k.to_string(), line.allocation, lambda v: F.set_percentage(k, v), error, "0", "96px"),
            field_error(error),
            spacing="1")),
        rx.table.cell(alt),
        align="center", class_name="model-percentage",
    )


def _percentages_tab() -> rx.Component:
    return rx.card(
        rx.vstack(
            _totals_bar("Asset allocation (with the cash class)", "percent", "assets_percentages_allocations"),
            _tab_table(F.percentages, _percent_row, ["Class", "Asset", "Allocation %", "Alternative"],
                       "Add assets to the classes first: each asset gets its share of the portfolio here."),
            spacing="3", width="100%",
        ),
        width="100%",
    )


# ---- form: commentary and availability --------------------------------------------------------------------------
def _commentary_tab() -> rx.Component:
    def area(label: str, kind: str, value: Any, shown: Any) -> rx.Component:
        return rx.vstack(
            rx.text(label, size="2", weight="medium"),
            rx.cond(F.read_only, rich_text(value, f"commentary-{kind}"),
                    rich_text_editor(f"commentary-{kind}", label, shown, F.set_commentary(kind),
                                     height=SUMMARY_HEIGHT)),
            spacing="1", width="100%")

    return rx.card(rx.vstack(area("Market commentary", "market", F.market, F.market_shown),
                             area("Recommendation commentary", "recommendation", F.recommendation,
                                  F.recommendation_shown),
                             spacing="4", width="100%"), width="100%")


def _availability_tab() -> rx.Component:
    firms_error = _err("firms")
    shared = rx.vstack(
        rx.cond(F.shared_firms.length() > 0,
                rx.flex(rx.foreach(F.shared_firms, lambda f: rx.badge(
                    f.label,
                    rx.cond(~F.read_only, rx.icon("x", size=12, cursor="pointer", on_click=F.remove_shared_firm(f.value))),
                    variant="soft", size="2", class_name="shared-firm")),
                    wrap="wrap", spacing="2"),
                rx.text("No firm chosen.", size="1", color=rx.color("gray", 10))),
        rx.cond(~F.read_only, rx.box(
            rx.select.root(
                rx.select.trigger(placeholder="Add firm", id="add-shared-firm", width="100%"),
                rx.select.content(rx.foreach(F.share_options, lambda o: rx.select.item(o.label, value=o.value))),
                value="", on_change=F.add_shared_firm, disabled=F.share_options.length() == 0,
            ), max_width="320px", width="100%")),
        field_error(firms_error, "shared-firms-error"),
        spacing="2", width="100%",
    )
    return rx.card(
        rx.vstack(
            _switch("Available for investment", "investment", F.investment,
                    "Portfolios of the owner firm may be linked to this model."),
            rx.cond(F.investment, _switch("Available to all firms", "all_firms", F.all_firms,
                                          "Every firm may link portfolios to this model.")),
            rx.cond(F.investment & ~F.all_firms,
                    rx.vstack(_switch("Share with firms", "share_firms", F.share_firms,
                                      "Choose the firms this model is shared with."),
                              rx.cond(F.share_firms, shared),
                              spacing="3", width="100%")),
            rx.callout(F.availability_text, icon="info", size="1", color_scheme="blue", id="availability-text",
                       width="100%"),
            spacing="4", width="100%",
        ),
        width="100%",
    )


# ---- form: tabs, actions, page -----------------------------------------------------------------------------------
def _tab_trigger(label: str, value: str) -> rx.Component:
    return rx.tabs.trigger(
        rx.hstack(rx.text(label),
                  rx.cond(F.tab_errors[value], rx.box(width="6px", height="6px", border_radius="50%",
                                                      background=rx.color("red", 9))),
                  spacing="1", align="center"),
        value=value, id=f"tab-{value}",
    )


def _tabs() -> rx.Component:
    return rx.tabs.root(
        rx.box(
            rx.tabs.list(
                _tab_trigger("Classes", "classes"),
                _tab_trigger("Types", "types"),
                _tab_trigger("Industry groups", "groups"),
                _tab_trigger("Equivalents", "equivalents"),
                rx.cond(F.is_percentages, _tab_trigger("Percentages", "percentages")),
                _tab_trigger("Commentary", "commentary"),
                _tab_trigger("Availability", "availability"),
                size="2",
            ),
            overflow_x="auto", width="100%",
        ),
        rx.tabs.content(_classes_tab(), value="classes", padding_top="12px"),
        rx.tabs.content(_types_tab(), value="types", padding_top="12px"),
        rx.tabs.content(_groups_tab(), value="groups", padding_top="12px"),
        rx.tabs.content(_equivalents_tab(), value="equivalents", padding_top="12px"),
        rx.tabs.content(_percentages_tab(), value="percentages", padding_top="12px"),
        rx.tabs.content(_commentary_tab(), value="commentary", padding_top="12px"),
        rx.tabs.content(_availability_tab(), value="availability", padding_top="12px"),
        value=F.tab, on_change=F.set_tab, width="100%",
    )


def _form_actions() -> rx.Component:
    return form_actions(
        F.read_only, F.cancel, "model-cancel",
        rx.button(rx.icon("file-pen", size=16), "Save as draft", type="button", variant="soft",
                  on_click=F.save("draft"), loading=F.saving, id="model-save-draft"),
        rx.button(rx.icon("check", size=16), "Save and activate", type="button", on_click=F.save("active"),
                  loading=F.saving, id="model-save-active"),
    )


def _version_banner() -> rx.Component:
    return rx.cond(
        F.show_banner,
        rx.callout.root(
            rx.callout.icon(rx.icon("history", size=16)),
            rx.callout.text("Version ", F.version_number.to_string(), " of ", F.model_title, ", saved ",
                            rx.cond(F.version_at != "", rx.moment(F.version_at, format="DD/MM/YYYY"), ""),
                            rx.cond(F.version_by != "", " by " + F.version_by, "")),
            color_scheme="blue", width="100%", id="version-banner",
        ),
    )


def _form_header_actions() -> rx.Component:
    return rx.cond(
        ~F.loading & (F.mode != "new"),
        rx.hstack(
            rx.cond((F.mode == "preview") & F.can_edit,
                    rx.button(rx.icon("pencil", size=16), "Edit", on_click=F.edit, id="model-edit")),
            rx.cond(F.mode == "version",
                    rx.button(rx.icon("history", size=16), "History", variant="soft",
                              on_click=F.go("models.history"), id="model-history")),
            rx.button(rx.icon("eye", size=16), "Details", variant="soft", on_click=F.go("models.details"),
                      id="model-details"),
            spacing="2", wrap="wrap",
        ),
    )


def model_form_page(route_name: str) -> rx.Component:
    crumbs: list = [("Models", routes.url("models.view"))]
    if route_name == "models.createModel":
        crumbs.append(("New model", None))
    elif route_name == "models.version":
        crumbs += [(F.model_title, F.details_url), ("History", F.history_url),
                   ("Version " + F.version_number.to_string(), None)]
    else:
        crumbs += [(F.model_title, F.details_url), (rx.cond(F.mode == "preview", "Preview", "Edit"), None)]
    body = rx.vstack(
        _version_banner(),
        rx.cond(F.message != "", rx.callout(F.message, icon="circle-alert", color_scheme="red", width="100%",
                                            id="model-form-message")),
        _model_section(),
        _tabs(),
        _form_actions(),
        spacing="4", width="100%",
    )
    return page(
        F.title,
        rx.cond(F.loading, form_skeleton(), body),
        confirm_dialog_of(F, confirm_label="Change firm"),
        asset_picker(on_pick=F.asset_picked),
        crumbs=crumbs,
        actions=_form_header_actions(),
        on_save_leave=F.save_and_leave,
    )


# ---- details ------------------------------------------------------------------------------------------------------
D = ModelDetailsState


def _figure(label: str, value: Any, sign: Any) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="1", color=rx.color("gray", 10)),
        rx.spacer(),
        rx.text(value, size="2", weight="medium", font_variant_numeric="tabular-nums",
                color=rx.match(sign, ("up", rx.color("green", 11)), ("down", rx.color("red", 11)), rx.color("gray", 12))),
        width="100%", align="center",
    )


def _figures(figures: Any) -> list[rx.Component]:
    """An asset's price and returns (AssetFigures), on the card and again for its alternate."""
    return [
        _figure("Price", figures.price, ""),
        _figure("One Month Return", figures.one_month, figures.one_month_sign),
        _figure("Since Inclusion Return", figures.since_inclusion, figures.since_inclusion_sign),
        _figure("Dividend yield", figures.dividend_yield, figures.dividend_yield_sign),
    ]


def _asset_card(asset: Any) -> rx.Component:
    alternate = rx.cond(
        D.show_alternates & asset.has_alt,
        rx.box(
            rx.vstack(
                rx.hstack(rx.badge("Alternate", variant="soft", color_scheme="blue", size="1"),
                          rx.text(asset.alt.code, weight="bold", size="2"), spacing="2", align="center"),
                rx.text(asset.alt.name, size="1", color=rx.color("gray", 11)),
                *_figures(asset.alt),
                spacing="1", width="100%",
            ),
            border_top=f"1px dashed {rx.color('gray', 6)}", padding_top="8px", width="100%", class_name="asset-alternate",
        ),
    )
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.text(asset.figures.code, weight="bold", size="3", class_name="asset-code"),
                rx.spacer(),
                rx.cond(asset.group_title != "",
                        rx.badge(asset.group_title, variant="soft", size="1",
                                 style={"background": asset.group_color + "22", "color": asset.group_color})),
                width="100%", align="center",
            ),
            rx.text(asset.figures.name, size="1", color=rx.color("gray", 11), min_height="2.6em"),
            *_figures(asset.figures),
            alternate,
            spacing="2", width="100%",
        ),
        width="100%", class_name="asset-card",
    )


def _class_block(cls: Any) -> rx.Component:
    return rx.vstack(
        rx.hstack(rx.heading(cls.title, size="4", as_="h3"), rx.badge(cls.allocation, variant="soft", size="2"),
                  spacing="3", align="center"),
        rx.cond(
            cls.assets.length() > 0,
            rx.grid(rx.foreach(cls.assets, _asset_card), columns=rx.breakpoints(initial="1", sm="2", lg="4"),
                    spacing="3", width="100%"),
            rx.text("No assets in this class.", size="2", color=rx.color("gray", 10)),
        ),
        spacing="3", width="100%", class_name="details-class",
    )


def _allocation_chart() -> rx.Component:
    return rx.recharts.bar_chart(
        rx.recharts.cartesian_grid(stroke_dasharray="3 3", vertical=False),
        rx.recharts.x_axis(data_key="title", tick_line=False, font_size=12),
        rx.recharts.y_axis(unit="%", width=48, font_size=12),
        rx.recharts.graphing_tooltip(),
        rx.recharts.bar(rx.recharts.label_list(data_key="label", position="top", font_size=12),
                        data_key="allocation", name="Allocation", fill=rx.color("accent", 9), radius=[4, 4, 0, 0],
                        is_animation_active=False),
        data=D.chart,
        height=200,
        width="100%",
        margin={"top": 20, "right": 8, "left": 0, "bottom": 0},
    )


def _details_header() -> rx.Component:
    def item(label: str, value: Any, id_: str) -> rx.Component:
        return rx.vstack(rx.text(label, size="1", color=rx.color("gray", 10)), rx.box(value, id=id_), spacing="1")

    return rx.card(
        rx.grid(
            item("Status", _status_badge(D.status_title, D.status), "details-status"),
            item("Method", rx.text(D.method_title, size="2", weight="medium"), "details-method"),
            item("Owner", rx.text(D.owner_name, size="2", weight="medium"), "details-owner"),
            item("Availability", rx.text(D.availability_title, size="2", weight="medium"), "details-availability"),
            item("Updated", rx.cond(D.updated_at != "", rx.text(rx.moment(D.updated_at, format="DD/MM/YYYY"), size="2",
                                                                 weight="medium"), ""), "details-updated"),
            columns=rx.breakpoints(initial="2", md="5"), spacing="4", width="100%",
        ),
        width="100%",
    )


def _commentaries() -> rx.Component:
    def block(label: str, text: Any) -> rx.Component:
        return rx.vstack(rx.text(label, size="2", weight="medium"), rich_text(text, f"model-commentary-{label.lower()}"),
                         spacing="1", width="100%")

    return section("Commentary", rx.grid(block("Market", D.market), block("Recommendation", D.recommendation),
                                         columns=rx.breakpoints(initial="1", md="2"), spacing="4", width="100%"))


def _details_actions() -> rx.Component:
    return rx.cond(
        ~D.loading,
        rx.flex(
            rx.cond(D.can_edit, rx.button(rx.icon("pencil", size=16), "Edit", on_click=D.go("models.changeModel"),
                                          id="details-edit")),
            rx.button("Long Term Recommendations", variant="soft", on_click=D.go("models.long-terms"),
                      id="details-long-terms"),
            rx.button("Short Term Recommendations", variant="soft", on_click=D.go("models.short-terms"),
                      id="details-short-terms"),
            rx.button(rx.icon("history", size=16), "History", variant="soft", on_click=D.go("models.history"),
                      id="details-history"),
            spacing="2", wrap="wrap",
        ),
    )


def model_details_page() -> rx.Component:
    body = rx.vstack(
        _details_header(),
        section("Class allocation", rx.cond(D.chart.length() > 0, _allocation_chart(),
                                            rx.text("No classes.", size="2", color=rx.color("gray", 10))),
                description="Target allocation of each asset class."),
        rx.card(
            rx.vstack(
                rx.hstack(
                    rx.heading("Assets by class", size="3", as_="h2"),
                    rx.spacer(),
                    rx.hstack(rx.switch(checked=D.show_alternates, on_change=D.set_show_alternates,
                                        id="show-alternates", disabled=~D.has_alternates),
                              label_for("Show alternates", control="show-alternates", weight="regular"),
                              spacing="2", align="center"),
                    width="100%", align="center",
                ),
                rx.cond(D.has_assets, rx.fragment(), rx.text("This model has no assets yet.", size="2",
                                                            color=rx.color("gray", 10))),
                rx.foreach(D.classes, _class_block),
                spacing="4", width="100%",
            ),
            width="100%",
        ),
        _commentaries(),
        spacing="4", width="100%",
    )
    return page(
        D.name,
        rx.cond(D.loading, form_skeleton(), body),
        crumbs=[("Models", routes.url("models.view")), (D.name, None)],
        actions=_details_actions(),
    )


# ---- history ------------------------------------------------------------------------------------------------------
H = ModelHistoryState


def _history_row(row: Any) -> rx.Component:
    return clickable_row(
        rx.table.cell(rx.moment(row.created_at, format="DD/MM/YYYY HH:mm"), white_space="nowrap",
                      font_variant_numeric="tabular-nums"),
        rx.table.cell(rx.cond(row.who != "", row.who, "\u2014"), white_space="nowrap"),
        rx.table.cell(rx.hstack(rx.text("Version ", row.version.to_string()),
                                rx.cond(row.current, rx.badge("Current", variant="soft", color_scheme="green", size="1")),
                                spacing="2", align="center"), white_space="nowrap"),
        rx.table.cell(rx.icon("chevron-right", size=14, color=rx.color("gray", 9)), text_align="right"),
        on_click=H.open_version(row.version),
        align="center",
        class_name="history-row",
    )


def model_history_page() -> rx.Component:
    header = rx.table.row(plain_header("Date"), plain_header("Changed by"), plain_header("Version"), plain_header(""))
    body = table_rows(H.rows, _history_row, 4, loading=H.loading, empty=empty_row(4, "No versions yet."),
                      id="history-table")
    footer = list_footer(
        list_count(H.showing, id_="history-showing"),
        rx.hstack(
            page_size_select(H.page_size, H.set_page_size, H.history_page_sizes, id_="history-page-size"),
            pagination(H.page, H.pages, H.visible, H.go_page),
            spacing="4", align="center", wrap="wrap",
        ),
    )
    return page(
        rx.cond(H.name != "", H.name + " \u00b7 History", "History"),
        table_card(header, body, footer),
        crumbs=[("Models", routes.url("models.view")), (H.name, H.details_url), ("History", None)],
    )


# ---- registration ------------------------------------------------------------------------------------------------
def _form_page(route_name: str):
    def component() -> rx.Component:
        return model_form_page(route_name)

    component.__name__ = f"model_form_{route_name.split('.')[-1].lower()}"
    return component


def register(app: rx.App) -> None:
    app.add_page(models_list_page, route=routes.ROUTES["models.view"], title=f"Models | {TITLE}",
                 on_load=[AppState.check_login, ModelsListState.on_load])
    for name, title in (("models.createModel", "New model"), ("models.changeModel", "Edit model"),
                        ("models.version", "Model version")):
        app.add_page(_form_page(name), route=routes.ROUTES[name], title=f"{title} | {TITLE}",
                     on_load=[AppState.check_login, ModelFormState.on_load])
    app.add_page(model_details_page, route=routes.ROUTES["models.details"], title=f"Model | {TITLE}",
                 on_load=[AppState.check_login, ModelDetailsState.on_load])
    app.add_page(model_history_page, route=routes.ROUTES["models.history"], title=f"Model history | {TITLE}",
                 on_load=[AppState.check_login, ModelHistoryState.on_load])
