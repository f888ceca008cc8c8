"""portfolios.target-portfolio, portfolios.target-portfolio-version and
portfolios.target-portfolio-versions (spec 001 s2/s4/s6/s9, 002 s4/s8/s9).

The pieces that show a target portfolio (status, steps, figures, class tables with the reasons of
every number, class bars, industry groups) take any state that mixes in TPDisplay, so the record of
advice (app.ui.pages.rofa) shows the same. The edit mode's controls (units fields, Remove, Add asset)
appear only when `edit` is a Var of TargetPortfolioState (the target portfolio screen)."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.capital_gains import capital_gains_panel
from app.ui import routes
from app.ui.components.asset_picker import asset_picker
from app.ui.components.layout import page
from app.ui.components.portfolio_crumbs import portfolio_crumbs
from app.ui.components.rich_text import TARGET_PORTFOLIO_HEIGHT, rich_text, rich_text_editor
from app.ui.components.widgets import (
    cancel_button, clickable_row, confirm_dialog_of, empty_row, list_footer, page_controls, plain_header, table_card,
    table_rows,
)
from app.ui.states.advice_versions import VERSION_PAGE_SIZES
from app.ui.states.base import AppState
from app.ui.rows.target_portfolio import GroupRow, Step, TPClass, TPLine, VersionRow
from app.ui.states.target_portfolio import (
    CODE_MAX, COMMENT_TITLES, UNITS_INVALID, TPVersionsState, TargetPortfolioState,
)

S = TargetPortfolioState
V = TPVersionsState
TITLE = "Wealth Advice"
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums", "white_space": "nowrap"}
DATE_TIME = "DD/MM/YYYY HH:mm"
COLUMNS, COLUMNS_EDITABLE = 9, 11  # the target asset table's column span (002 s9)
NO_TP_STAFF = "No target portfolio has been calculated for this portfolio yet."
NO_TP_OTHERS = "There is no approved target portfolio for this portfolio yet."
NOT_ENOUGH_CASH_TEXT = ("Not Enough Cash: the cash after trades stays below the minimum cash even with every buy cut, "
                        "so this target portfolio cannot be validated.")


def _when(flag: Any, component: rx.Component) -> rx.Component:
    """`component` when `flag` (a Python bool or a Var) holds."""
    if isinstance(flag, bool):
        return component if flag else rx.fragment()
    return rx.cond(flag, component)


def _tone(sign: Any, up: str = "green", down: str = "red") -> Any:
    return rx.match(sign, ("up", rx.color(up, 11)), ("down", rx.color(down, 11)), rx.color("gray", 12))


# ---- the head: status, who and when ----------------------------------------------------------------
def tp_status_badge(state: Any, id_: str = "tp-status") -> rx.Component:
    return rx.badge(state.tp_status_label, color_scheme=state.tp_status_color, variant="soft", size="2", id=id_,
                    custom_attrs={"data-status": state.tp_status})


def _step(step: Step) -> rx.Component:
    return rx.vstack(
        rx.text(step.label, size="1", color=rx.color("gray", 10)),
        rx.text(rx.cond(step.name != "", step.name, "\u2014"), size="2", weight="medium"),
        rx.cond(step.at != "", rx.text(rx.moment(step.at, format=DATE_TIME), size="1", color=rx.color("gray", 11))),
        spacing="0", class_name="tp-step", custom_attrs={"data-label": step.label},
    )


def tp_head(state: Any) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text("Status", size="1", color=rx.color("gray", 10)),
                tp_status_badge(state),
                spacing="1",
            ),
            rx.vstack(
                rx.text("Version", size="1", color=rx.color("gray", 10)),
                rx.text(state.tp_version, size="2", weight="medium", id="tp-version"),
                spacing="1",
            ),
            rx.vstack(
                rx.text("Model", size="1", color=rx.color("gray", 10)),
                rx.text(rx.cond(state.tp_model != "", state.tp_model, "\u2014"), size="2", weight="medium",
                        id="tp-model"),
                spacing="1",
            ),
            rx.foreach(state.steps, _step),
            gap="24px", wrap="wrap", align="start", width="100%", id="tp-head",
        ),
        width="100%", size="2",
    )


def tp_alerts(state: Any) -> rx.Component:
    """Calculation Error with its message, Not Enough Cash, and the result's own notes."""
    return rx.fragment(
        rx.cond(state.is_failed, rx.callout.root(
            rx.callout.icon(rx.icon("triangle-alert")),
            rx.vstack(rx.text("Calculation Error", weight="bold", size="3"),
                      rx.text(state.error_message, size="3", id="tp-error"), spacing="1"),
            color_scheme="red", size="3", width="100%", role="alert",
        )),
        rx.cond(state.not_enough_cash & ~state.is_failed, rx.callout(
            NOT_ENOUGH_CASH_TEXT, icon="circle-alert", color_scheme="orange", size="2", width="100%", id="tp-not-enough-cash",
        )),
        rx.cond(state.notes.length() > 0, rx.callout.root(
            rx.callout.icon(rx.icon("info")),
            rx.vstack(rx.foreach(state.notes, lambda n: rx.text(n, size="2")), spacing="1"),
            color_scheme="gray", size="1", width="100%", id="tp-notes",
        )),
    )


# ---- summary figures -----------------------------------------------------------------------------
def _figure(label: str, value: Any, id_: str, warn: Any = False) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(label, size="1", color=rx.color("gray", 10), weight="medium"),
            rx.text(value, size=rx.breakpoints(initial="3", sm="5"), weight="bold", id=id_,
                    font_variant_numeric="tabular-nums",
                    color=rx.cond(warn, rx.color("red", 11), rx.color("gray", 12))),
            spacing="1",
        ),
        width="100%", size="1",
    )


def tp_figures(state: Any) -> rx.Component:
    figures = state.figures
    return rx.grid(
        _figure("Portfolio value", figures.value, "tp-value"),
        _figure("Cash now", figures.cash_now, "tp-cash"),
        _figure("Cash after trades", figures.cash_after, "tp-cash-after", figures.cash_after_low),
        _figure("Buys", figures.buys, "tp-buys"),
        _figure("Sells", figures.sells, "tp-sells"),
        _figure("Brokerage", figures.brokerage, "tp-brokerage"),
        _figure("Minimum cash", figures.min_cash, "tp-min-cash"),
        _figure("Placed buys", figures.placed_buys, "tp-placed-buys"),
        columns=rx.breakpoints(initial="2", sm="4", xl="8"), spacing="3", width="100%",
    )


# ---- class allocation: current vs target -----------------------------------------------------------
def _fill(color: Any) -> Any:
    return rx.match(color, ("success", rx.color("green", 9)), ("warning", rx.color("amber", 9)),
                    ("danger", rx.color("red", 9)), rx.color("accent", 9))


def _bar(width: Any, fill: Any, marker: Any = "", tip: Any = "", marker_tip: Any = "Target") -> rx.Component:
    """`tip`: the bar's tooltip, the figure as a percentage ('Target 14.0%')."""
    return rx.box(
        rx.box(width=width, height="100%", background=fill, border_radius="3px"),
        rx.cond(marker != "", rx.box(position="absolute", left=marker, top="-2px", bottom="-2px", width="2px",
                                     background=rx.color("gray", 12), title=marker_tip, class_name="bar-marker")),
        position="relative", width="100%", height="8px", background=rx.color("gray", 4), border_radius="3px",
        title=tip, class_name="tp-bar",
    )


def _class_bar(c: TPClass) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text(c.title, size="2", weight="medium", overflow="hidden", text_overflow="ellipsis", white_space="nowrap"),
            rx.spacer(),
            rx.text(c.current, size="1", color=rx.color("gray", 10), font_variant_numeric="tabular-nums"),
            rx.icon("arrow-right", size=12, color=rx.color("gray", 9)),
            rx.text(c.result, size="2", weight="bold", font_variant_numeric="tabular-nums", class_name="bar-result",
                    color=rx.match(c.color, ("success", rx.color("green", 11)), ("warning", rx.color("amber", 11)),
                                   ("danger", rx.color("red", 11)), rx.color("gray", 12))),
            width="100%", align="center", spacing="2",
        ),
        rx.hstack(rx.text("Now", size="1", color=rx.color("gray", 10), width="44px"),
                  _bar(c.current_width, rx.color("gray", 8), tip=c.title + " now: " + c.current + " (" + c.current_value + ")"),
                  width="100%", align="center", spacing="2"),
        rx.hstack(rx.text("Target", size="1", color=rx.color("gray", 10), width="44px"),
                  _bar(c.result_width, _fill(c.color), c.target_left,
                       tip=c.title + " after the trades: " + c.result + " (" + c.result_value + ")",
                       marker_tip="Model allocation: " + c.target),
                  width="100%", align="center", spacing="2"),
        rx.text(rx.cond(c.target != "", "model " + c.target, ""), rx.cond(c.bounds != "", " · " + c.bounds, ""),
                size="1", color=rx.color("gray", 10)),
        spacing="1", width="100%", class_name="tp-class-bar", custom_attrs={"data-class": c.title},
    )


def tp_class_bars(state: Any) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text("Class allocation: now and after the trades", size="2", weight="bold"),
            rx.grid(rx.foreach(state.classes, _class_bar), columns=rx.breakpoints(initial="1", sm="2", lg="3"),
                    spacing="4", width="100%", id="tp-class-bars"),
            spacing="3", width="100%",
        ),
        width="100%", size="2",
    )


# ---- the class tables -----------------------------------------------------------------------------
def _num(content: Any, **props) -> rx.Component:
    return rx.table.cell(content, **NUMBER, **props)


def _flag(text: Any) -> rx.Component:
    return rx.badge(text, variant="outline", color_scheme="gray", size="1", class_name="tp-flag")


def _action(line: TPLine, edit: Any = False) -> rx.Component:
    """The trade the line makes (BUY / SELL / No trade, from its change in units) and, labelled
    apart, the model's recommendation: a BUY recommendation capped below the holding is a SELL."""
    trade_color = rx.match(line.trade, ("BUY", "green"), ("SELL", "red"), "gray")
    rec_color = rx.match(line.action, ("BUY", "green"), ("ACC", "green"), ("SB", "green"), ("HOLD", "gray"),
                         ("Not traded", "gray"), "red")
    trade = rx.cond(line.trade != "", rx.badge(rx.cond(line.trade == "NONE", "No trade", line.trade),
                                               color_scheme=trade_color, variant="solid", size="1",
                                               class_name="tp-trade", custom_attrs={"data-side": line.trade},
                                               title="The trade this line makes"))
    recommendation = rx.cond(
        (line.action != "") & (line.action != "Not traded"),
        rx.badge(rx.text.span("Model ", color=rx.color("gray", 10), font_weight="normal"), line.action,
                 color_scheme=rec_color, variant="outline", size="1", class_name="tp-action",
                 title="The model's recommendation"),
    )
    return rx.hstack(
        trade,
        recommendation,
        rx.foreach(line.flags, _flag),
        _when(edit, rx.cond(line.removable, _remove_button(line))),
        spacing="1", wrap="wrap",
    )


# ---- edit mode (TargetPortfolioState only) -----------------------------------------------------------
def _remove_button(line: TPLine) -> rx.Component:
    """An asset whose target reached zero is offered for deletion (001 s4); asks first (002 s8)."""
    return rx.button(rx.icon("trash-2", size=12), "Remove", size="1", variant="soft", color_scheme="red",
                     on_click=S.ask_remove(line.asset_id), disabled=S.recalculating, class_name="tp-remove",
                     custom_attrs={"data-code": line.code})


def _units_editor(line: TPLine, width: str = "100%") -> rx.Component:
    """The target units of a listed asset: committed on blur or Enter (a step, recalculated)."""
    return rx.form(
        rx.el.input(type="hidden", name="asset_id", value=line.asset_id),
        rx.input(
            name="units", default_value=line.units_input, key=line.key + "-" + S.edit_rev.to_string(),
            on_blur=lambda value: S.commit_units(line.asset_id, value), read_only=S.recalculating,
            input_mode="numeric", auto_complete="off", size="1", width=width, text_align="right",
            variant=rx.cond(line.invalid, "soft", "surface"), color_scheme=rx.cond(line.invalid, "red", "gray"),
            title=rx.cond(line.invalid, UNITS_INVALID, "Target units: Enter or leave the field to recalculate"),
            class_name="tp-units-input",
            custom_attrs={"data-code": line.code, "data-invalid": rx.cond(line.invalid, "true", "false"),
                          "aria-invalid": rx.cond(line.invalid, "true", "false"), "aria-label": "Target units " + line.code},
            style={"& input": {"text_align": "right", "font_variant_numeric": "tabular-nums"}},
        ),
        on_submit=S.submit_units, reset_on_submit=False, width=width,
    )


def _add_asset(c: TPClass) -> rx.Component:
    """Add asset of a class: a code (uppercased) or the asset picker."""
    return rx.form(
        rx.hstack(
            rx.el.input(type="hidden", name="class_id", value=c.id),
            rx.input(name="code", placeholder="Asset code", size="1", width="120px", max_length=CODE_MAX,
                     auto_complete="off", class_name="tp-add-code", style={"& input": {"text_transform": "uppercase"}},
                     custom_attrs={"aria-label": "Asset code to add to " + c.title}),
            rx.button(rx.icon("plus", size=12), "Add asset", size="1", variant="soft", type="submit",
                      disabled=S.recalculating, class_name="tp-add"),
            rx.icon_button(rx.icon("search", size=12), size="1", variant="ghost", type="button",
                           on_click=S.open_picker(c.id), disabled=S.recalculating, title="Find an asset",
                           class_name="tp-add-find"),
            spacing="2", align="center",
        ),
        on_submit=S.add_asset, reset_on_submit=True,
    )


def _code(line: TPLine) -> rx.Component:
    name = rx.cond(line.url != "", rx.link(line.name, href=line.url, is_external=True, size="1"),
                   rx.text(line.name, size="1", color=rx.color("gray", 10)))
    return rx.table.cell(
        rx.vstack(rx.text(line.code, weight="bold", size="2", font_family="var(--code-font-family)"),
                  rx.cond(line.name != "", name), spacing="0"),
        overflow="hidden",
    )


def _reasons_row(line: TPLine, editable: Any) -> rx.Component:
    span = rx.cond(editable, COLUMNS_EDITABLE, COLUMNS) if not isinstance(editable, bool) else (
        COLUMNS_EDITABLE if editable else COLUMNS)
    return rx.table.row(
        rx.table.cell(
            rx.hstack(
                rx.icon("info", size=12, color=rx.color("gray", 9), flex_shrink="0", margin_top="3px"),
                _reason_badges(line.reasons, "tp-reason"),
                spacing="2", align="start",
                # on a phone the table scrolls sideways: the reasons stay in view and wrap there
                position="sticky", left="8px", max_width="calc(100vw - 64px)",
            ),
            col_span=span, padding_top="0", border_bottom=f"1px solid {rx.color('gray', 4)}",
        ),
        class_name="tp-reasons", custom_attrs={"data-code": line.code},
    )


def _line(line: TPLine, editable: Any, edit: Any = False) -> rx.Component:
    delta = rx.vstack(
        rx.text(line.delta_units, size="2"),
        rx.text(line.delta_value, size="1"),
        spacing="0", align="end", color=_tone(line.delta_sign),
    )
    return rx.fragment(
        rx.table.row(
            _code(line),
            rx.table.cell(_action(line, edit)),
            _when(editable, _num(line.price)),
            _when(editable, _num(line.weight)),
            _num(line.current_units),
            _num(line.current_value),
            _num(line.current_percent),
            _num(_target_units(line, edit)),
            _num(rx.text(line.target_value, weight="medium")),
            _num(rx.text(line.target_percent, weight="medium")),
            _num(delta, class_name="tp-delta"),
            class_name="tp-line", custom_attrs={"data-code": line.code, "data-kind": line.kind},
            style={"& td": {"border_bottom": "none"}},
        ),
        rx.cond(line.reasons.length() > 0, _reasons_row(line, editable)),
    )


def _target_units(line: TPLine, edit: Any) -> rx.Component:
    shown = rx.text(line.target_units, weight="medium", class_name="tp-target-units")
    if isinstance(edit, bool) and not edit:
        return shown
    return rx.cond(edit & (line.kind == "asset"), _units_editor(line), shown)


def _reason_badges(reasons: Any, class_name: str) -> rx.Component:
    # Radix badges neither wrap nor shrink by default: long reasons would run out of the card
    return rx.flex(rx.foreach(reasons, lambda r: rx.badge(r, variant="soft", color_scheme="gray", size="1",
                                                          white_space="normal", text_align="left", flex_shrink="1",
                                                          max_width="100%", class_name=class_name)),
                   gap="4px", wrap="wrap", min_width="0")


def _side(label: str, units_: Any, value: Any, share: Any, strong: bool = False) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="1", color=rx.color("gray", 10), width="48px", flex_shrink="0"),
        rx.text(rx.cond(units_ != "", units_ + " units · ", ""), value, rx.cond(share != "", " · " + share, ""),
                size="2", weight="medium" if strong else "regular", font_variant_numeric="tabular-nums"),
        spacing="2", align="baseline", width="100%",
    )


def _line_card(line: TPLine, edit: Any = False) -> rx.Component:
    """One line on a phone: code, action and change, then now and target, then the reasons."""
    units = rx.fragment() if isinstance(edit, bool) and not edit else rx.cond(
        edit & (line.kind == "asset"),
        rx.hstack(rx.text("Units", size="1", color=rx.color("gray", 10), width="48px", flex_shrink="0"),
                  _units_editor(line, "120px"), spacing="2", align="center"),
    )
    return rx.vstack(
        rx.hstack(
            rx.vstack(
                rx.hstack(rx.text(line.code, weight="bold", size="2", font_family="var(--code-font-family)"),
                          _action(line, edit), spacing="2", align="center", wrap="wrap"),
                rx.cond(line.name != "", rx.text(line.name, size="1", color=rx.color("gray", 10))),
                spacing="1", min_width="0",
            ),
            rx.spacer(),
            rx.vstack(rx.text(line.delta_units, size="2"), rx.text(line.delta_value, size="1"), spacing="0",
                      align="end", color=_tone(line.delta_sign), flex_shrink="0", white_space="nowrap"),
            width="100%", align="start",
        ),
        _side("Now", line.current_units, line.current_value, line.current_percent),
        _side("Target", line.target_units, line.target_value, line.target_percent, strong=True),
        units,
        rx.cond(line.reasons.length() > 0, _reason_badges(line.reasons, "tp-card-reason")),
        spacing="1", width="100%", padding="10px 16px", border_top=f"1px solid {rx.color('gray', 4)}",
        class_name="tp-card-line", custom_attrs={"data-code": line.code, "data-kind": line.kind},
    )


def _class_table(c: TPClass, editable: Any, edit: Any = False) -> rx.Component:
    def num_header(label: str) -> rx.Component:
        return rx.table.column_header_cell(label, text_align="right", vertical_align="bottom")

    # fixed layout: the columns of every class table line up
    header = rx.table.row(
        rx.table.column_header_cell("Code", width="150px", vertical_align="bottom"),
        rx.table.column_header_cell("Trade · model", width="170px", vertical_align="bottom"),
        _when(editable, num_header("Price")),
        _when(editable, num_header("Model weight")),
        *[num_header(label) for label in
          ("Current units", "Current value", "Current %", "Target units", "Target value", "Target %", "Change")],
    )
    min_width = rx.cond(editable, "1090px", "910px") if not isinstance(editable, bool) else (
        "1090px" if editable else "910px")
    head = rx.vstack(
        rx.hstack(
            rx.heading(c.title, size="3", as_="h2"),
            rx.text(c.current + " \u2192 " + c.result, size="2", weight="medium", font_variant_numeric="tabular-nums",
                    color=rx.match(c.color, ("success", rx.color("green", 11)), ("warning", rx.color("amber", 11)),
                                   ("danger", rx.color("red", 11)), rx.color("gray", 12))),
            rx.text(c.result_value, size="2", color=rx.color("gray", 11), font_variant_numeric="tabular-nums"),
            rx.cond(c.target != "", rx.text("model " + c.target, size="1", color=rx.color("gray", 10))),
            rx.cond(c.bounds != "", rx.text(c.bounds, size="1", color=rx.color("gray", 10))),
            _when(edit, rx.box(_add_asset(c), margin_left="auto")),
            spacing="3", align="baseline", wrap="wrap", width="100%",
        ),
        rx.cond(c.reasons.length() > 0, rx.flex(
            rx.foreach(c.reasons, lambda r: rx.badge(r, variant="soft", color_scheme="amber", size="1", white_space="normal",
                                                      flex_shrink="1", max_width="100%", class_name="tp-class-reason")),
            gap="4px", wrap="wrap")),
        spacing="2", padding="12px 16px", width="100%",
    )
    return rx.card(
        head,
        rx.box(
            rx.table.root(
                rx.table.header(header, background=rx.color("gray", 2)),
                rx.table.body(rx.foreach(c.lines, lambda line: _line(line, editable, edit))),
                variant="ghost", size="1", width="100%", min_width=min_width, style={"table_layout": "fixed"},
                class_name="wa-table",  # the code column stays in view while the table scrolls sideways
            ),
            overflow_x="auto", width="100%", display=rx.breakpoints(initial="none", sm="block"),
            class_name="wa-table-scroll",
        ),
        # a phone shows each line as a short block instead of a wide table
        rx.box(rx.foreach(c.lines, lambda line: _line_card(line, edit)), width="100%",
               display=rx.breakpoints(initial="block", sm="none")),
        width="100%", size="1", padding="0", class_name="tp-class", custom_attrs={"data-class": c.title},
    )


def tp_class_tables(state: Any, editable: Any = False, edit: Any = False) -> rx.Component:
    """`edit`: a Var of TargetPortfolioState telling the edit mode (fields, Remove, Add asset)."""
    return rx.vstack(rx.foreach(state.classes, lambda c: _class_table(c, editable, edit)), spacing="3", width="100%",
                     id="tp-classes")


# ---- industry groups -------------------------------------------------------------------------------
def _group_row(g: GroupRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.hstack(rx.box(width="10px", height="10px", border_radius="2px",
                                       background=rx.cond(g.color != "", g.color, rx.color("gray", 8))),
                                rx.text(g.title, size="2"), spacing="2", align="center"), white_space="nowrap"),
        _num(g.cap),
        _num(g.current),
        _num(rx.text(g.result, weight="medium")),
        _num(g.result_value),
        rx.table.cell(rx.flex(rx.foreach(g.reasons, lambda r: rx.badge(r, variant="soft", color_scheme="amber", size="1",
                                                                       white_space="normal")), gap="4px", wrap="wrap"),
                      min_width="160px"),
        class_name="tp-group", custom_attrs={"data-group": g.title},
    )


def tp_groups(state: Any) -> rx.Component:
    return rx.cond(state.groups.length() > 0, rx.card(
        rx.text("Industry groups", size="2", weight="bold", padding="12px 16px", as_="div"),
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(
                    plain_header("Industry group"),
                    *[rx.table.column_header_cell(label, **NUMBER) for label in ("Cap", "Current %", "Target %", "Target value")],
                    plain_header("Reasons"),
                ), background=rx.color("gray", 2)),
                rx.table.body(rx.foreach(state.groups, _group_row)),
                variant="ghost", size="1", width="100%", class_name="wa-table",
            ),
            overflow_x="auto", width="100%", class_name="wa-table-scroll",
        ),
        width="100%", size="1", padding="0", id="tp-groups",
    ))


# ---- the commentary --------------------------------------------------------------------------------
def _feedback(text: Any, tone: Any, id_: str) -> rx.Component:
    return rx.cond(text != "", rx.hstack(
        rx.cond(tone == "updating", rx.spinner(size="1")),
        rx.text(text, size="1", id=id_, custom_attrs={"data-tone": tone},
                color=rx.match(tone, ("saved", rx.color("green", 11)), ("error", rx.color("red", 11)),
                               rx.color("gray", 11))),
        spacing="2", align="center",
    ))


def _comment(kind: str, box: Any) -> rx.Component:
    editor_id = f"comment-{kind}"
    tone = box.tone
    return rx.vstack(
        rx.hstack(
            rx.text(COMMENT_TITLES[kind], size="2", weight="bold"),
            rx.spacer(),
            _feedback(box.feedback, tone, f"comment-{kind}-feedback"),
            width="100%", align="center",
        ),
        rx.cond(
            S.comments_editable,
            rx.vstack(
                rich_text_editor(editor_id, COMMENT_TITLES[kind], box.shown, S.set_comment(kind),
                                 height=TARGET_PORTFOLIO_HEIGHT),
                rx.button("Save", size="1", variant="soft", id=f"comment-{kind}-save", loading=tone == "updating",
                          on_click=rx.call_script(f"window.waRich ? window.waRich.html('{editor_id}') : null",
                                                  callback=S.save_comment(kind))),
                spacing="2", width="100%", align="end",
            ),
            rich_text(box.html, f"comment-{kind}-text"),
        ),
        spacing="2", width="100%",
    )


def _commentary() -> rx.Component:
    return rx.card(
        rx.grid(
            _comment("market", S.market),
            _comment("recommendation", S.recommendation),
            columns=rx.breakpoints(initial="1", md="2"), spacing="4", width="100%",
        ),
        width="100%", size="2", id="tp-commentary",
    )


# ---- the page ---------------------------------------------------------------------------------------
def _actions() -> rx.Component:
    """The toolbar; in edit mode the edit bar holds Undo, Save and Cancel instead."""
    edit = rx.cond(S.can_edit, rx.button(rx.icon("pencil", size=14), "Edit", variant="soft", on_click=S.start_edit,
                                         id="tp-edit"))
    return rx.cond(S.editing, rx.fragment(), rx.hstack(
        rx.cond(S.can_calculate, rx.button(rx.icon("calculator", size=14), "Calculate", on_click=S.ask_calculate,
                                           loading=S.busy == "calculate", id="tp-calculate")),
        edit,
        rx.cond(S.can_validate, rx.button(rx.icon("check", size=14), "Validate", color_scheme="green",
                                          on_click=S.ask_validate, loading=S.busy == "validate", id="tp-validate")),
        rx.cond(S.can_open_rofa, rx.button(rx.icon("mail", size=14), "Record of advice", variant="soft",
                                           on_click=AppState.navigate(S.rofa_url), id="tp-rofa",
                                           title="Email: the record of advice the client approves")),
        rx.cond(S.can_email, rx.button(rx.icon("send", size=14), "Email", variant="soft", on_click=S.ask_email,
                                       loading=S.busy == "email", id="tp-email",
                                       title="Send the record of advice again to the people the approval settings name")),
        rx.button(rx.icon("history", size=14), "Versions", variant="soft", on_click=AppState.navigate(S.versions_url),
                  id="tp-versions"),
        cancel_button(on_click=AppState.go_back(S.links.holdings), id="tp-cancel"),
        spacing="2", wrap="wrap", justify="end",
    ))


def _edit_bar() -> rx.Component:
    """Edit mode: what is going on (changes made, recalculating) and Undo, Save, Cancel; it ends the
    page and stays in view at the bottom of the window while the tables scroll (the toasts show at
    the top right, so they never cover its buttons)."""
    return rx.cond(S.editing, rx.box(
        rx.flex(
            rx.hstack(
                rx.icon("pencil", size=16, color=rx.color("accent", 11)),
                rx.text("Editing", weight="bold", size="2"),
                rx.text(S.edit_steps_text, size="2", color=rx.color("gray", 11), id="tp-edit-steps"),
                rx.cond(S.recalculating, rx.hstack(
                    rx.spinner(size="1"),
                    rx.text("Recalculating...", size="2", color=rx.color("amber", 11), weight="medium"),
                    spacing="2", align="center", id="tp-recalculating",
                )),
                rx.cond(S.invalid_count > 0, rx.text("Fix the units marked in red", size="2", color=rx.color("red", 11),
                                                     id="tp-edit-invalid")),
                spacing="2", align="center", wrap="wrap",
            ),
            rx.hstack(
                rx.button(rx.icon("undo-2", size=14), "Undo", variant="soft", on_click=S.undo,
                          disabled=(S.edit_steps == 0) | S.recalculating, id="tp-undo"),
                rx.button(rx.icon("save", size=14), "Save", on_click=S.save_edit, loading=S.saving,
                          disabled=~S.edit_changed & (S.invalid_count == 0) & ~S.recalculating, id="tp-save"),
                cancel_button(on_click=S.cancel_edit, id="tp-edit-cancel"),
                spacing="2",
            ),
            justify="between", align="center", gap="8px", wrap="wrap", width="100%",
        ),
        rx.text("Set the target units of an asset, add an asset to a class or remove one whose target reached zero: "
                "each change recalculates the rest. Save stores a new version.",
                size="1", color=rx.color("gray", 10), margin_top="4px", display=rx.breakpoints(initial="none", sm="block")),
        position="sticky", bottom="12px", z_index="9", width="100%", padding="10px 16px", border_radius="8px",
        background=rx.color("accent", 2), border=f"1px solid {rx.color('accent', 6)}",
        box_shadow="0 4px 16px rgba(0,0,0,0.12)", id="tp-edit-bar",
        custom_attrs={"data-recalculating": rx.cond(S.recalculating, "true", "false")},
    ))


def _missing() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.icon("target", size=28, color=rx.color("gray", 8)),
            rx.text(rx.cond(S.can_calculate | ~S.view_only, NO_TP_STAFF, NO_TP_OTHERS), color=rx.color("gray", 11),
                    id="tp-missing"),
            rx.cond(S.can_calculate, rx.button(rx.icon("calculator", size=14), "Calculate", on_click=S.ask_calculate,
                                               loading=S.busy == "calculate", id="tp-calculate-empty")),
            align="center", spacing="3", padding_y="40px",
        ),
        width="100%",
    )


def _loading() -> rx.Component:
    return rx.vstack(
        rx.grid(*[rx.skeleton(rx.box(height="64px"), loading=True) for _ in range(4)],
                columns=rx.breakpoints(initial="2", sm="4"), spacing="3", width="100%"),
        rx.skeleton(rx.box(height="240px", width="100%"), loading=True),
        spacing="3", width="100%",
    )


def _pending_rofa() -> rx.Component:
    """A record of advice awaiting the client's approval: one click to it (clients decide there)."""
    text = rx.cond(AppState.is_client, "A record of advice awaits your decision",
                   "A record of advice awaits the client's approval")
    return rx.cond(S.pending_rofa_url != "", rx.callout.root(
        rx.callout.icon(rx.icon("file-check")),
        rx.flex(
            rx.text(text, " (version ", S.pending_rofa_version.to_string(), ", sent ",
                    rx.moment(S.pending_rofa_sent, format="DD/MM/YYYY"), ").", size="2"),
            rx.link(rx.button(rx.cond(AppState.is_client, "Review and decide", "Open the record of advice"),
                              rx.icon("arrow-right", size=14), size="1", variant="solid"),
                    href=S.pending_rofa_url, id="tp-pending-rofa-link"),
            gap="12px", align="center", justify="between", wrap="wrap", width="100%",
        ),
        color_scheme="amber", size="1", width="100%", id="tp-pending-rofa",
    ))


def _content() -> rx.Component:
    return rx.cond(
        S.loading,
        _loading(),
        rx.cond(
            S.missing,
            rx.vstack(_pending_rofa(), _missing(), spacing="4", width="100%"),
            rx.vstack(
                _pending_rofa(),
                tp_head(S),
                tp_alerts(S),
                rx.cond(S.has_result, rx.vstack(
                    tp_figures(S),
                    tp_class_bars(S),
                    # Price and Model weight stay once the version is validated, approved or declined
                    tp_class_tables(S, True, S.editing),
                    tp_groups(S),
                    capital_gains_panel(S.capital_gains),
                    spacing="4", width="100%",
                )),
                rx.cond(~S.is_failed, _commentary()),
                _edit_bar(),
                spacing="4", width="100%",
            ),
        ),
    )


def target_portfolio_page() -> rx.Component:
    title = rx.hstack(
        rx.text("Target Portfolio"),
        rx.cond(S.viewing_version > 0, rx.badge("Version " + S.viewing_version.to_string(), variant="soft", size="2",
                                                id="tp-viewing-version")),
        rx.cond(S.editing, rx.badge(rx.icon("pencil", size=12), "Editing", color_scheme="amber", variant="soft", size="2",
                                    id="tp-editing")),
        spacing="3", align="center", wrap="wrap",
    )
    return page(
        title,
        _content(),
        confirm_dialog_of(S, confirm_label="Confirm", danger=False),
        asset_picker(on_pick=S.asset_picked, id_prefix="tp-asset-picker"),
        crumbs=portfolio_crumbs(S, ("Target Portfolio", None)),
        actions=_actions(),
        on_save_leave=S.save_and_leave,
    )


# ---- versions -------------------------------------------------------------------------------------------
def advice_versions_page(state: Any, screen_title: str, table: rx.Component) -> rx.Component:
    """A portfolio's versions of a piece of advice (`state` mixes in AdviceVersions): the table under
    '<screen_title> Versions', with Cancel back to the current version."""
    return page(
        f"{screen_title} Versions",
        table,
        crumbs=portfolio_crumbs(state, (screen_title, state.current_url), ("Versions", None)),
        actions=cancel_button(on_click=AppState.go_back(state.current_url), id="versions-cancel"),
    )


def _dated(at: Any, by: Any) -> rx.Component:
    return rx.table.cell(
        rx.cond(at != "", rx.vstack(rx.text(rx.moment(at, format=DATE_TIME), size="2"),
                                    rx.cond(by != "", rx.text(by, size="1", color=rx.color("gray", 10))), spacing="0"),
                rx.text("\u2014", color=rx.color("gray", 9))),
        white_space="nowrap",
    )


def _version_row(row: VersionRow) -> rx.Component:
    return clickable_row(
        rx.table.cell(rx.text(row.version, weight="bold"), **NUMBER),
        rx.table.cell(rx.badge(row.status_label, color_scheme=row.color, variant="soft"), white_space="nowrap"),
        _dated(row.created_at, row.created_by),
        _dated(row.validated_at, row.validated_by),
        rx.table.cell(
            rx.cond(row.decided != "", rx.vstack(
                rx.text(row.decided + " " , rx.moment(row.decided_at, format=DATE_TIME), size="2"),
                rx.text(row.decided_by, size="1", color=rx.color("gray", 10)), spacing="0"),
                rx.text("\u2014", color=rx.color("gray", 9))),
            white_space="nowrap",
        ),
        rx.table.cell(row.moderator, white_space="nowrap"),
        href=row.url,
        class_name="version-row", custom_attrs={"data-version": row.version},
    )


def versions_page() -> rx.Component:
    columns = 6
    header = rx.table.row(
        rx.table.column_header_cell("Version", **NUMBER), plain_header("Status"), plain_header("Created"),
        plain_header("Validated"), plain_header("Approved / Declined"), plain_header("By"),
    )
    body = table_rows(V.rows, _version_row, columns, loading=V.loading,
                      empty=empty_row(columns, "No target portfolio versions to show."), id="versions-body")
    footer = list_footer(rx.text(V.count_text, size="1", color=rx.color("gray", 10), id="versions-count"),
                         page_controls(V, VERSION_PAGE_SIZES))
    return advice_versions_page(V, "Target Portfolio", table_card(header, body, footer))


def register(app: rx.App) -> None:
    for name in ("portfolios.target-portfolio", "portfolios.target-portfolio-version"):
        app.add_page(target_portfolio_page, route=routes.ROUTES[name], title=f"Target Portfolio | {TITLE}",
                     on_load=[AppState.check_login, TargetPortfolioState.on_load])
    app.add_page(versions_page, route=routes.ROUTES["portfolios.target-portfolio-versions"],
                 title=f"Target Portfolio Versions | {TITLE}", on_load=[AppState.check_login, TPVersionsState.on_load])
