"""Allocation totals (app.domain.allocations): the progress-bar colours of spec 002 s4, totals,
captions and row checks; plus the industry group form rules (app.domain.industry_groups)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain import allocations as al
from app.domain import industry_groups as rules


@pytest.mark.parametrize(
    "total, colour",
    [
        (Decimal("100"), "success"), (Decimal("100.000"), "success"), (Decimal("99.99"), "warning"),
        (Decimal("0"), "warning"), (Decimal("-5"), "warning"), (Decimal("100.01"), "danger"), (Decimal("250"), "danger"),
        (100, "success"), ("100.0", "success"), ("85", "warning"),
    ],
)
def test_class_total_colour(total, colour):
    assert al.class_total_color(total) == colour


@pytest.mark.parametrize(
    "total, colour",
    [
        (Decimal("0"), "success"), (Decimal("85"), "success"), (Decimal("100"), "success"), (Decimal("100.0"), "success"),
        (Decimal("100.000001"), "danger"), (Decimal("101"), "danger"), (120, "danger"), ("99.5", "success"),
    ],
)
def test_industry_total_colour(total, colour):
    assert al.industry_total_color(total) == colour


def test_colour_rules_refuse_what_is_not_a_number():
    with pytest.raises(ValueError):
        al.class_total_color("abc")
    with pytest.raises(ValueError):
        al.industry_total_color(object())


def test_colours_map_to_radix_schemes():
    assert al.BAR_COLOR_SCHEMES == {"success": "green", "warning": "amber", "danger": "red"}


def test_total_ignores_blank_and_invalid_entries_and_keeps_decimals_exact():
    assert al.allocation_total(["10.1", "20.2", "", None, "abc", "+5", Decimal("0.7")]) == Decimal("31.0")
    assert al.allocation_total([]) == Decimal(0)
    assert al.allocation_total(["33.3", "33.3", "33.4"]) == Decimal("100.0")


@pytest.mark.parametrize(
    "total, text",
    [(Decimal("85"), "Total: 85.0%"), (Decimal("85.04"), "Total: 85.0%"), (Decimal("85.05"), "Total: 85.1%"),
     (Decimal("0"), "Total: 0.0%"), (Decimal("100"), "Total: 100.0%"), (Decimal("120.55"), "Total: 120.6%")],
)
def test_total_text(total, text):
    assert al.total_text(total) == text


@pytest.mark.parametrize("total, width", [(Decimal("85"), "85.0%"), (Decimal("120"), "100.0%"), (Decimal("-3"), "0.0%"),
                                          (Decimal("33.33"), "33.3%")])
def test_bar_width_is_clamped(total, width):
    assert al.bar_width(total) == width


@pytest.mark.parametrize(
    "row, errors",
    [
        (("20", "10", "30"), {}),
        (("", "", ""), {}),
        (("abc", "", ""), {"allocation": "Please, enter a valid number. "}),
        (("-1", "", ""), {"allocation": "Please, enter positive value"}),
        (("100.5", "", ""), {"allocation": "Value has to be less than 100."}),
        (("100", "0", "100"), {}),
        (("20", "30", "10"), {"min": "Min must be less than Max", "max": "Max must not be less than Min"}),
        (("20", "10", "10"), {"min": "Min must be less than Max", "max": "Max must not be less than Min"}),
        (("20", "x", "10"), {"min": "Please, enter a valid number. "}),
        (("20", "5", None), {}),
    ],
)
def test_check_allocation_row(row, errors):
    assert al.check_allocation_row(*row) == errors


# ---- industry group rules --------------------------------------------------------------------------------
def test_clean_industry_group_texts():
    values, errors = rules.clean_industry_group({"title": "  Energy ", "color": "#AABBCC"})
    assert errors.ok and values == {"title": "Energy", "color": "#aabbcc"}
    values, errors = rules.clean_industry_group({"title": "Energy"})
    assert errors.ok and values == {"title": "Energy"}  # no colour: keep / pick one
    assert rules.clean_industry_group({"title": ""})[1] == {"title": "Please, enter title. "}
    assert rules.clean_industry_group({"title": "energy"}, other_titles=["ENERGY "])[1] == {"title": "Title should be unique."}
    assert rules.clean_industry_group({"title": "Energy", "color": "#abc"})[1] == {"color": "Please, choose a valid color (#rrggbb). "}
    assert rules.clean_industry_group({"title": "Energy"}, color_required=True)[1] == {"color": "Please, choose a valid color (#rrggbb). "}


def test_messages_and_palette():
    assert rules.has_assets_message("Energy") == "The industry group Energy has linked assets."
    assert rules.confirm_delete_message("Energy") == "Are you sure you want to delete Energy industry group?"
    assert len(set(rules.PALETTE)) == len(rules.PALETTE)
    assert rules.next_color([]) == rules.PALETTE[0]
    assert rules.next_color([rules.PALETTE[0].upper()]) == rules.PALETTE[1]
    assert rules.next_color(rules.PALETTE) in rules.PALETTE
