"""The reusable industry group allocations editor (app.ui.components.industry_allocations): the
mixin's handlers on a real state instance, the payload it gives the host, and that every part
compiles for a mixin host and for a host with its own dataclass rows. Also the screen's drop rule."""
from __future__ import annotations

import dataclasses

import reflex as rx

from app.ui.components.industry_allocations import (
    IndustryAllocationsMixin, industry_allocations, industry_allocations_table, industry_group_picker, row_errors,
)
from app.ui.states.base import AppState
from app.ui.states.industry_groups import moved


class IgHostState(IndustryAllocationsMixin, AppState):
    locked: bool = False

    def _ig_editable(self) -> bool:
        return not self.locked


@dataclasses.dataclass
class Line:
    industry_group_id: int = 0
    title: str = ""
    color: str = ""
    allocation: str = ""
    min: str = ""
    max: str = ""
    priority: str = ""

class IgLinesState(AppState):
    lines: list[Line] = []
    options: list[dict[str, str]] = []
    picker: bool = False

    @rx.event
    def set_line(self, index: int, key: str, value: str):
        pass

    @rx.event
    def drop_line(self, index: int):
        pass

    @rx.event
    def add_line(self, group_id: int):
        pass

    @rx.event
    def set_picker(self, value: bool):
        self.picker = value


OPTIONS = [{"id": 1, "title": "Energy", "color": "#f76b15"}, {"id": 2, "title": "Materials", "color": "#ad7f58"},
           {"id": 3, "title": "Consumer Staples", "color": "#30a46c"}, {"id": 4, "title": "Consumer Discretionary", "color": "#d6409f"}]


def _host() -> IgHostState:
    root = rx.State(_reflex_internal_init=True)
    host = root.get_substate(IgHostState.get_full_name().split(".")[1:])
    host.ig_options = [dict(o) for o in OPTIONS]
    return host


def _call(host, name: str, *args):
    return type(host).event_handlers[name].fn(host, *args)


def test_add_change_remove_and_totals():
    host = _host()
    _call(host, "add_ig", 1)
    _call(host, "add_ig", "2")
    _call(host, "add_ig", 1)  # already there
    _call(host, "add_ig", 99)  # not an option
    assert [(r["industry_group_id"], r["title"], r["priority"]) for r in host.ig_rows] == [(1, "Energy", "1"), (2, "Materials", "2")]
    assert host.form_dirty is True

    _call(host, "set_ig_field", 1, "allocation", "40")
    _call(host, "set_ig_field", 2, "allocation", "45.05")
    _call(host, "set_ig_field", 2, "title", "Hacked")  # not an editable field
    assert host.ig_total_label == "Total: 85.1%" and host.ig_total_color == "success" and host.ig_bar_width == "85.1%"
    _call(host, "set_ig_field", 1, "allocation", "60")
    assert host.ig_total_label == "Total: 105.1%" and host.ig_total_color == "danger" and host.ig_bar_width == "100.0%"
    assert host.ig_rows[1]["title"] == "Materials"

    assert [o["id"] for o in host.ig_available] == [3, 4]
    _call(host, "set_ig_picker_search", "DISC")
    assert [o["title"] for o in host.ig_available] == ["Consumer Discretionary"]
    assert host.ig_all_added is False

    _call(host, "remove_ig", 1)
    assert [r["industry_group_id"] for r in host.ig_rows] == [2]
    assert host.ig_total_label == "Total: 45.1%"


def test_read_only_host_ignores_every_edit():
    host = _host()
    host._ig_fill([{"industry_group_id": 1, "allocation": "20"}])
    host.locked = True
    host.form_dirty = False
    _call(host, "add_ig", 2)
    _call(host, "set_ig_field", 1, "allocation", "90")
    _call(host, "remove_ig", 1)
    _call(host, "set_ig_picker_open", True)
    assert [(r["industry_group_id"], r["allocation"]) for r in host.ig_rows] == [(1, "20")]
    assert host.ig_picker_open is False and host.form_dirty is False


def test_fill_payload_and_validation():
    from decimal import Decimal

    host = _host()
    host._ig_fill([
        {"industry_group_id": 2, "allocation": Decimal("20.500"), "min": Decimal("10"), "max": None, "priority": 3},
        {"industry_group_id": 1, "title": "Energy", "allocation": "15"},
        {"industry_group_id": 2, "allocation": "99"},  # a repeat is dropped
        {"industry_group_id": "x"},
    ])
    assert [(r["industry_group_id"], r["title"], r["color"], r["allocation"], r["min"], r["max"], r["priority"])
            for r in host.ig_rows] == [(2, "Materials", "#ad7f58", "20.5", "10", "", "3"), (1, "Energy", "#f76b15", "15", "", "", "2")]
    assert host._ig_payload() == [
        {"industry_group_id": 2, "allocation": "20.5", "min": "10", "max": None, "priority": "3"},
        {"industry_group_id": 1, "allocation": "15", "min": None, "max": None, "priority": "2"},
    ]
    assert host._ig_validate() is True

    _call(host, "set_ig_field", 2, "max", "5")
    _call(host, "set_ig_field", 1, "allocation", "abc")
    assert host.ig_rows[0]["max_error"] == ""  # errors show only once the form was submitted
    host.ig_submitted = True
    assert host._ig_validate() is False
    assert host.ig_rows[0]["min_error"] == "Min must be less than Max"
    assert host.ig_rows[0]["max_error"] == "Max must not be less than Min"
    assert host.ig_rows[1]["allocation_error"] == "Please, enter a valid number. "
    _call(host, "set_ig_field", 1, "allocation", "12")  # live once submitted
    assert host.ig_rows[1]["allocation_error"] == ""

    host._ig_show_errors({2: {"allocation": "From the service"}})
    assert host.ig_rows[0]["allocation_error"] == "From the service" and host.ig_rows[0]["max_error"] == ""


def test_row_errors_priority():
    assert row_errors({"allocation": "10", "priority": "01"}) == {"priority": "Please, enter a valid number. "}
    assert row_errors({"allocation": "10", "priority": "2"}) == {}


def test_the_parts_compile_for_a_mixin_host_and_for_dataclass_rows():
    rendered = str(industry_allocations(IgHostState, read_only=IgHostState.locked))
    for needle in ("ig-add", "ig-picker", "ig-picker-search", "ig-total", "Add industry group", "data-color"):
        assert needle in rendered

    table = industry_allocations_table(IgLinesState.lines,
                                       on_change=lambda row, i, key, value: IgLinesState.set_line(i, key, value),
                                       on_remove=lambda row, i: IgLinesState.drop_line(i),
                                       error_of=lambda row, i, key: "", prefix="model-ig")
    assert "model-ig-allocation-" in str(table)
    picker = industry_group_picker(IgLinesState.picker, IgLinesState.options,
                                   on_pick=lambda option: IgLinesState.add_line(option["id"]),
                                   on_open_change=IgLinesState.set_picker, prefix="model-ig")
    assert "model-ig-picker" in str(picker)


def test_drop_takes_the_target_place():
    assert moved([1, 2, 3, 4], 1, 3) == [2, 3, 1, 4]  # down: after the target
    assert moved([1, 2, 3, 4], 4, 2) == [1, 4, 2, 3]  # up: before the target
    assert moved([1, 2, 3, 4], 2, 2) == [1, 2, 3, 4]
    assert moved([1, 2, 3, 4], 9, 2) == [1, 2, 3, 4]
