"""Industry group allocations for forms (spec 002: "an industry group allocations table and an
industry-group picker modal appear in forms"): the model form and the portfolio form.

Three parts, each a function of the host state's vars and event handlers:

- `industry_allocations_table(rows, on_change=..., on_remove=...)`: one row per chosen group
  (colour dot, title, allocation %, min %, max %, priority, remove);
- `industry_group_picker(open_, options, on_pick=..., on_open_change=..., search=..., on_search=...)`:
  the modal listing the groups not yet added, searchable by title;
- `industry_totals_bar(label, color, width)`: 'Total: 85.0%' over a bar that is danger (red) above
  100 and success (green) otherwise (`app.domain.allocations.industry_total_color`).

The easy way: inherit `IndustryAllocationsMixin` and render `industry_allocations(State)`:

    class PortfolioFormState(IndustryAllocationsMixin, AppState):
        def _ig_editable(self) -> bool:            # optional: False makes every handler a no-op
            return self.mode != "view"

        @rx.event
        def on_load(self):
            actor = self._actor()
            self._ig_load_options(actor)           # the picker's groups (GET main list)
            self._ig_fill(portfolio["industry_groups_allocations"])  # [{industry_group_id, allocation, min, max, priority}]

        def _save(self):
            self.ig_submitted = True
            if not self._ig_validate():            # row errors show under the cells
                return toast_error(INVALID_FORM)
            payload["industry_groups_allocations"] = self._ig_payload()
            # total above 100: self.ig_total_error = '<the form's own text>' (shown under the bar)

    # page
    industry_allocations(PortfolioFormState, read_only=PortfolioFormState.read_only)

Each change sets the host's `form_dirty` (the leave guard) and calls the host's
`_ig_changed()` hook, if it has one, after the row changed (e.g. to validate live).
A state with its own rows (e.g. a list of dataclasses) can use the three parts directly:

    industry_allocations_table(State.groups, on_change=lambda row, i, key, value: State.set_group_field(i, key, value),
                               on_remove=lambda row, i: State.remove_group(i), read_only=State.read_only)

and inherit `IndustryGroupPicker` for the picker's open flag and search (`ig_picker_open`,
`ig_picker_search`, `set_ig_picker_open`, `set_ig_picker_search`; `_ig_editable` as above).

Element ids: `{prefix}-add` (the add button), `{prefix}-picker`, `{prefix}-picker-search`,
`{prefix}-option-{id}`, `{prefix}-row-{id}` with inputs `{prefix}-{allocation|min|max|priority}-{id}`
and `{prefix}-remove-{id}`, `{prefix}-total` (the caption; `data-color` holds the colour name).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping, TypedDict

import reflex as rx

from app.domain import allocations as al
from app.domain import validators as v
from app.domain.money import number_text
from app.domain.permissions import Actor
from app.services import industry_groups as ig_service
from app.ui.components.widgets import field_error, modal
from app.ui.parse import to_int as _int

FIELDS = ("allocation", "min", "max", "priority")
COLUMN_LABELS = {"allocation": "Allocation %", "min": "Min %", "max": "Max %", "priority": "Priority"}
TEXT_MAX = 20
ADD_LABEL = "Add industry group"
PICKER_TITLE = "Add industry groups"
EMPTY_TEXT = "No industry group allocations yet. Add an industry group to set its allocation."
NOTHING_TO_ADD = "Every industry group is already added."
NO_MATCH = "No industry group matches your search."


class IgRow(TypedDict):
    industry_group_id: int
    title: str
    color: str
    allocation: str
    min: str
    max: str
    priority: str
    allocation_error: str
    min_error: str
    max_error: str
    priority_error: str


class IgOption(TypedDict):
    id: int
    title: str
    color: str


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return number_text(value)  # Decimal('20.500') -> '20.5', Decimal('20.00') -> '20'

    return str(value)


def blank_row(option: Mapping[str, Any], priority: int) -> IgRow:
    return IgRow(industry_group_id=int(option["id"]), title=str(option.get("title") or ""),
                 color=str(option.get("color") or ""), allocation="", min="", max="", priority=str(priority),
                 allocation_error="", min_error="", max_error="", priority_error="")


def row_errors(row: Mapping[str, Any]) -> dict[str, str]:
    """The per-cell texts of one row: allocation, min and max from 0 to 100 with max above min,
    priority a whole number."""
    errors = al.check_allocation_row(row.get("allocation"), row.get("min"), row.get("max"))
    priority_err = v.number(row.get("priority"))
    if priority_err:
        errors["priority"] = priority_err
    return errors


def _number_or_none(value: Any) -> Any:
    """'' -> None; a valid number -> its text (Decimal-exact); anything else as typed (the service refuses it)."""
    text = str(value or "").strip()
    if not text:
        return None
    try:
        number = v.parse_decimal(text)
    except ValueError:
        return text
    return format(number, "f")


class IndustryGroupPicker(rx.State, mixin=True):
    """The industry-group picker's open flag and search text, for a form with its own rows (the
    model form) or with IndustryAllocationsMixin's. Opening it on a read-only form does nothing."""

    ig_picker_open: bool = False
    ig_picker_search: str = ""

    def _ig_editable(self) -> bool:
        """Override: False (a read-only form) turns every editing handler into a no-op."""
        return True

    @rx.event
    def set_ig_picker_open(self, open_: bool):
        if open_ and not self._ig_editable():
            return
        self.ig_picker_open = bool(open_)
        self.ig_picker_search = ""

    @rx.event
    def set_ig_picker_search(self, value: str):
        self.ig_picker_search = str(value or "")[:100]


class IndustryAllocationsMixin(IndustryGroupPicker, mixin=True):
    """Rows, picker and totals of an industry group allocations editor; see the module docstring."""

    ig_rows: list[IgRow] = []
    ig_options: list[IgOption] = []
    ig_submitted: bool = False  # row errors show once the form was submitted, then live
    ig_total_error: str = ""  # the host's text when the total is refused (model and portfolio texts differ)

    # ---- host hooks and helpers -----------------------------------------------------------------
    def _ig_touch(self) -> None:
        if hasattr(self, "form_dirty"):
            self.form_dirty = True
        if self.ig_submitted:
            self._ig_validate()
        hook = getattr(self, "_ig_changed", None)
        if callable(hook):
            hook()

    def _ig_load_options(self, actor: Actor) -> None:
        """The picker's groups: id, title and colour of every industry group, in order."""
        self.ig_options = [IgOption(id=g.id, title=g.title, color=g.color)
                           for g in ig_service.main_list(actor=actor)]

    def _ig_fill(self, entries: Iterable[Mapping[str, Any]] | None) -> None:
        """Rows from saved entries ({industry_group_id, allocation, min, max, priority}, title and
        color optional: taken from the options when missing)."""
        known = {o["id"]: o for o in self.ig_options}
        rows: list[IgRow] = []
        for entry in entries or []:
            gid = _int(entry.get("industry_group_id"))
            if gid is None or any(r["industry_group_id"] == gid for r in rows):
                continue
            option = known.get(gid, {})
            row = blank_row({"id": gid, "title": entry.get("title") or option.get("title", ""),
                             "color": entry.get("color") or option.get("color", "")}, len(rows) + 1)
            row.update(allocation=_text(entry.get("allocation")), min=_text(entry.get("min")), max=_text(entry.get("max")),
                       priority=_text(entry.get("priority")) if entry.get("priority") is not None else row["priority"])
            rows.append(row)
        self.ig_rows = rows
        self.ig_picker_open = False
        self.ig_picker_search = ""
        self.ig_submitted = False
        self.ig_total_error = ""

    def _ig_payload(self) -> list[dict[str, Any]]:
        """[{industry_group_id, allocation, min, max, priority}] with numbers as exact texts (None when empty)."""
        return [{"industry_group_id": r["industry_group_id"], "allocation": _number_or_none(r["allocation"]),
                 "min": _number_or_none(r["min"]), "max": _number_or_none(r["max"]),
                 "priority": _number_or_none(r["priority"])} for r in self.ig_rows]

    def _ig_total(self) -> Decimal:
        return al.allocation_total(r["allocation"] for r in self.ig_rows)

    def _ig_validate(self) -> bool:
        """Show each row's errors under its cells; True when every row is valid (the total is the host's rule)."""
        ok = True
        rows: list[IgRow] = []
        for row in self.ig_rows:
            errors = row_errors(row)
            ok = ok and not errors
            rows.append(IgRow(**{**row, **{f"{key}_error": errors.get(key, "") for key in FIELDS}}))
        self.ig_rows = rows
        return ok

    def _ig_show_errors(self, errors: Mapping[int, Mapping[str, str]]) -> None:
        """Errors from the service, by industry group id: {id: {'allocation': text, ...}}."""
        self.ig_rows = [IgRow(**{**r, **{f"{key}_error": (errors.get(r["industry_group_id"]) or {}).get(key, "")
                                          for key in FIELDS}}) for r in self.ig_rows]

    # ---- events -----------------------------------------------------------------------------------
    @rx.event
    def add_ig(self, group_id: int):
        if not self._ig_editable():
            return
        gid = _int(group_id)
        option = next((o for o in self.ig_options if o["id"] == gid), None)
        if option is None or any(r["industry_group_id"] == gid for r in self.ig_rows):
            return
        self.ig_rows = self.ig_rows + [blank_row(option, len(self.ig_rows) + 1)]
        self._ig_touch()

    @rx.event
    def remove_ig(self, group_id: int):
        if not self._ig_editable():
            return
        gid = _int(group_id)
        if not any(r["industry_group_id"] == gid for r in self.ig_rows):
            return
        self.ig_rows = [r for r in self.ig_rows if r["industry_group_id"] != gid]
        self._ig_touch()

    @rx.event
    def set_ig_field(self, group_id: int, key: str, value: str):
        gid = _int(group_id)
        if not self._ig_editable() or key not in FIELDS:
            return
        text = str(value if value is not None else "")[:TEXT_MAX]
        rows = [IgRow(**{**r, key: text}) if r["industry_group_id"] == gid else r for r in self.ig_rows]
        if rows == self.ig_rows:
            return
        self.ig_rows = rows
        self._ig_touch()

    # ---- what the editor shows ----------------------------------------------------------------------
    @rx.var
    def ig_available(self) -> list[IgOption]:
        """Groups not yet added that match the picker's search."""
        added = {r["industry_group_id"] for r in self.ig_rows}
        needle = self.ig_picker_search.strip().casefold()
        return [o for o in self.ig_options if o["id"] not in added and needle in o["title"].casefold()]

    @rx.var
    def ig_all_added(self) -> bool:
        added = {r["industry_group_id"] for r in self.ig_rows}
        return all(o["id"] in added for o in self.ig_options)

    @rx.var
    def ig_total_label(self) -> str:
        return al.total_text(al.allocation_total(r["allocation"] for r in self.ig_rows))

    @rx.var
    def ig_total_color(self) -> str:
        return al.industry_total_color(al.allocation_total(r["allocation"] for r in self.ig_rows))

    @rx.var
    def ig_bar_width(self) -> str:
        return al.bar_width(al.allocation_total(r["allocation"] for r in self.ig_rows))


# ---- the parts ----------------------------------------------------------------------------------------
NUMBER = {"text_align": "right", "font_variant_numeric": "tabular-nums"}


def color_dot(color: Any, size: str = "12px") -> rx.Component:
    return rx.box(width=size, height=size, min_width=size, border_radius="50%", background=color,
                  border=f"1px solid {rx.color('gray', 6)}", class_name="ig-dot")


def _cell_input(value: Any, on_change: Any, error: Any, read_only: Any, id_: Any, label: str, width: str) -> rx.Component:
    return rx.vstack(
        rx.input(value=value, on_change=on_change, read_only=read_only, id=id_, aria_label=label, input_mode="decimal",
                 size="1", width=width, text_align="right",
                 color_scheme=rx.cond(error != "", "red", "gray"), variant=rx.cond(read_only, "soft", "surface")),
        field_error(error, max_width="160px"),
        spacing="1", align="end",
    )


def industry_allocations_table(
    rows: Any,
    *,
    on_change: Callable[[Any, Any, str, Any], Any],
    on_remove: Callable[[Any, Any], Any],
    read_only: Any = False,
    error_of: Callable[[Any, Any, str], Any] | None = None,
    prefix: str = "ig",
    empty_text: str = EMPTY_TEXT,
    fields: tuple[str, ...] = FIELDS,
) -> rx.Component:
    """The allocations table. `rows`: a list var whose items have industry_group_id, title, color,
    allocation, min, max and priority. `on_change(row, index, key, value)` and `on_remove(row, index)`
    return the event to send; `error_of(row, index, key)` the text under a cell (default: the row's
    `{key}_error`). `fields`: the editable columns shown (a portfolio keeps only the allocation)."""
    error_of = error_of or (lambda row, i, key: row[f"{key}_error"].to(str))

    def cell(row: Any, i: Any, key: str, label: str) -> rx.Component:
        gid = row["industry_group_id"].to_string()
        return rx.table.cell(
            _cell_input(row[key].to(str), lambda value: on_change(row, i, key, value), error_of(row, i, key), read_only,
                        f"{prefix}-{key}-" + gid, label, "64px" if key == "priority" else "84px"),
            **NUMBER,
        )

    def line(row: Any, i: Any) -> rx.Component:
        gid = row["industry_group_id"].to_string()
        return rx.table.row(
            rx.table.cell(rx.hstack(color_dot(row["color"].to(str)), rx.text(row["title"].to(str), weight="medium"),
                                    spacing="2", align="center", min_width="180px")),
            *[cell(row, i, key, COLUMN_LABELS[key]) for key in fields],
            rx.table.cell(
                rx.cond(read_only, rx.fragment(),
                        rx.icon_button(rx.icon("trash-2", size=14), size="1", variant="ghost", color_scheme="red",
                                       type="button", aria_label="Remove industry group", id=f"{prefix}-remove-" + gid,
                                       on_click=on_remove(row, i))),
                text_align="right", width="40px",
            ),
            align="center", id=f"{prefix}-row-" + gid, class_name=f"{prefix}-row",
        )

    header = rx.table.row(
        rx.table.column_header_cell("Industry group"),
        *[rx.table.column_header_cell(COLUMN_LABELS[key], text_align="right", white_space="nowrap")
          for key in fields],
        rx.table.column_header_cell(""),
    )
    body = rx.table.body(
        rx.cond(
            rows.length() == 0,
            rx.table.row(rx.table.cell(rx.text(empty_text, size="2", color=rx.color("gray", 10)), col_span=len(fields) + 2,
                                       padding_y="20px", text_align="center")),
            rx.foreach(rows, line),
        ),
    )
    return rx.box(
        rx.table.root(rx.table.header(header), body, variant="ghost", size="1", width="100%"),
        overflow_x="auto", width="100%", id=f"{prefix}-table",
    )


def industry_group_picker(
    open_: Any,
    options: Any,
    *,
    on_pick: Callable[[Any], Any],
    on_open_change: Any,
    search: Any = None,
    on_search: Any = None,
    all_added: Any = None,
    prefix: str = "ig",
) -> rx.Component:
    """The picker modal. `options`: the groups not yet added (id, title, color); clicking one calls
    `on_pick(option)` and keeps the modal open so several can be added. With `search` and
    `on_search` a search box filters the list (the host filters `options`)."""

    def option(item: Any) -> rx.Component:
        return rx.button(
            color_dot(item["color"].to(str)), rx.text(item["title"].to(str), size="2"), rx.spacer(),
            rx.icon("plus", size=14, color=rx.color("gray", 10)),
            variant="ghost", color_scheme="gray", type="button", width="100%", justify="start",
            on_click=on_pick(item), id=f"{prefix}-option-" + item["id"].to_string(), class_name=f"{prefix}-option",
            padding="8px 10px", height="auto",
        )

    empty = rx.text(
        NO_MATCH if all_added is None else rx.cond(all_added, NOTHING_TO_ADD, NO_MATCH),
        size="2", color=rx.color("gray", 10), padding="12px",
    )
    return modal(
        PICKER_TITLE,
        rx.dialog.description("Choose the groups to add; each one added leaves the list.", size="2",
                              color=rx.color("gray", 10)),
        rx.vstack(
            rx.input(rx.input.slot(rx.icon("search", size=14)), placeholder="Search industry groups",
                     value=search, on_change=on_search, id=f"{prefix}-picker-search", width="100%")
            if search is not None and on_search is not None else rx.fragment(),
            rx.box(
                rx.cond(options.length() == 0, empty,
                        rx.vstack(rx.foreach(options, option), spacing="1", width="100%")),
                max_height="50vh", overflow_y="auto", width="100%", padding_right="4px",
            ),
            rx.hstack(rx.dialog.close(rx.button("Done", variant="soft", type="button", id=f"{prefix}-picker-done")),
                      justify="end", width="100%"),
            spacing="3", width="100%", margin_top="12px",
        ),
        open_=open_, on_open_change=on_open_change, max_width="440px", id_=f"{prefix}-picker",
    )


def industry_totals_bar(label: Any, color: Any, width: Any, error: Any = "", prefix: str = "ig") -> rx.Component:
    """'Total: 85.0%' over a bar filled to the total (capped at 100), coloured by
    `industry_total_color`: red (danger) above 100, green (success) otherwise."""
    fill = rx.match(color, ("danger", rx.color("red", 9)), ("warning", rx.color("amber", 9)), rx.color("green", 9))
    text_color = rx.match(color, ("danger", rx.color("red", 11)), ("warning", rx.color("amber", 11)), rx.color("green", 11))
    return rx.vstack(
        rx.hstack(
            rx.text(label, size="2", weight="medium", color=text_color, id=f"{prefix}-total",
                    custom_attrs={"data-color": color}, font_variant_numeric="tabular-nums"),
            justify="end", width="100%",
        ),
        rx.box(
            rx.box(width=width, height="100%", background=fill, border_radius="4px", transition="width 0.2s"),
            width="100%", height="8px", background=rx.color("gray", 4), border_radius="4px", overflow="hidden",
            role="progressbar", aria_label="Industry group allocation total",
        ),
        field_error(error, f"{prefix}-total-error"),
        spacing="2", width="100%",
    )


def industry_allocations(state: Any, read_only: Any = False, prefix: str = "ig",
                         fields: tuple[str, ...] = FIELDS) -> rx.Component:
    """The whole editor for a state inheriting IndustryAllocationsMixin: add button, table, totals bar, picker.
    `fields`: the editable columns (see industry_allocations_table)."""
    return rx.vstack(
        rx.hstack(
            rx.spacer(),
            rx.cond(read_only, rx.fragment(),
                    rx.button(rx.icon("plus", size=14), ADD_LABEL, size="2", variant="soft", type="button",
                              id=f"{prefix}-add", on_click=state.set_ig_picker_open(True))),
            width="100%", align="center",
        ),
        industry_allocations_table(
            state.ig_rows,
            on_change=lambda row, i, key, value: state.set_ig_field(row["industry_group_id"], key, value),
            on_remove=lambda row, i: state.remove_ig(row["industry_group_id"]),
            read_only=read_only,
            error_of=lambda row, i, key: rx.cond(state.ig_submitted, row[f"{key}_error"].to(str), ""),
            prefix=prefix,
            fields=fields,
        ),
        industry_totals_bar(state.ig_total_label, state.ig_total_color, state.ig_bar_width, state.ig_total_error,
                            prefix=prefix),
        industry_group_picker(
            state.ig_picker_open, state.ig_available,
            on_pick=lambda option: state.add_ig(option["id"]),
            on_open_change=state.set_ig_picker_open,
            search=state.ig_picker_search, on_search=state.set_ig_picker_search,
            all_added=state.ig_all_added, prefix=prefix,
        ),
        spacing="3", width="100%",
    )
