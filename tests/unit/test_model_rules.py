"""Model form rules (app.domain.model_rules) and the availability derivation (spec 000 s4-s5)."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from app.domain import model_rules as rules
from app.domain.model_spec import AssetRef, ClassSpec, EquivalentSpec, ModelAssetSpec, ModelSpec
from app.domain.models import Availability, derive_availability, switches_of

CASH, EQ, FI = 1, 2, 3
BHP, CBA, VAF, RIO, NAB = 11, 12, 13, 14, 15


def data(**overrides):
    base = {
        "name": "Balanced", "status": "active", "allocation_method": "equal_amounts",
        "investment": True, "all": False, "firms": [],
        "allocation_classes": [
            {"class_id": EQ, "allocation": "60", "min": "50", "max": "70", "assets_limit": 3, "priority": 1,
             "assets": [{"asset_id": BHP, "alt_asset_id": RIO, "priority": 1}, {"asset_id": CBA, "priority": 2}]},
            {"class_id": FI, "allocation": "40", "max": "45", "priority": 2, "assets": [{"asset_id": VAF}]},
        ],
        "allocation_types": [],
        "industry_groups_allocations": [{"industry_group_id": 7, "allocation": "40"}, {"industry_group_id": 8, "allocation": "60"}],
        "equivalents": [{"asset_id": CBA, "eq_asset_id": NAB}],
        "commentaries": [{"type": "market", "description": "Calm."}, {"type": "recommendation", "description": "  "}],
    }
    base.update(overrides)
    return base


def clean(payload, **kw):
    kw.setdefault("cash_class_id", CASH)
    values, errors, message = rules.clean_model(rules.read_form(payload), **kw)
    return _plain(values), errors, message


def _plain(value):
    """The typed values as plain data (dicts and lists), for the assertions below."""
    if dataclasses.is_dataclass(value):
        return {item.name: _plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


# ---- availability (spec 000 s4) -------------------------------------------------------------------
@pytest.mark.parametrize("practice, everyone, shared, expected", [
    (False, False, 0, Availability.NOBODY),
    (False, True, 0, Availability.NOBODY),
    (False, False, 2, Availability.NOBODY),
    (False, True, 3, Availability.NOBODY),
    (True, False, 0, Availability.ONLY_SUPERUSER),
    (True, False, 1, Availability.WITH_PRACTICE),
    (True, False, 4, Availability.WITH_PRACTICE),
    (True, True, 0, Availability.ALL),
    (True, True, 2, Availability.ALL),
])
def test_availability_is_derived_from_the_two_switches_and_the_shared_firms(practice, everyone, shared, expected):
    assert derive_availability(practice, everyone, shared) is expected
    firms = list(range(100, 100 + shared))
    values, errors, message = clean(data(investment=practice, all=everyone, firms=firms))
    assert message is None and errors == {}
    assert values["availability"] == expected.value
    assert values["firms"] == firms  # stored whatever the availability


def test_switches_of_an_availability_round_trip():
    for availability in Availability:
        practice, everyone = switches_of(availability)
        shared = 1 if availability is Availability.WITH_PRACTICE else 0
        assert derive_availability(practice, everyone, shared) is availability


# ---- a valid payload ----------------------------------------------------------------------------
def test_a_valid_active_model_is_cleaned_and_the_cash_class_added():
    values, errors, message = clean(data())
    assert (message, dict(errors)) == (None, {})
    assert values["name"] == "Balanced" and values["status"] == "active"
    classes = {c["class_id"]: c for c in values["classes"]}
    assert set(classes) == {EQ, FI, CASH}
    assert classes[CASH]["allocation"] == Decimal(0) and classes[CASH]["priority"] == 3
    assert classes[EQ]["allocation"] == Decimal("60") and classes[EQ]["min"] == Decimal("50")
    assert classes[EQ]["assets_limit"] == 3
    assert [(a["asset_id"], a["alt_asset_id"]) for a in classes[EQ]["assets"]] == [(BHP, RIO), (CBA, None)]
    assert classes[FI]["assets"][0]["priority"] == 1  # defaults to its position
    assert values["commentaries"] == [{"type": "market", "description": "Calm."}]  # blank ones dropped
    assert values["equivalents"] == [{"asset_id": CBA, "eq_asset_id": NAB, "index": 0}]
    for switch in ("analyst_recommendations", "class_allocation", "type_allocation", "industry_group_allocation"):
        assert values[switch] is True  # switched on by default


def test_success_texts():
    assert rules.CREATED[rules.ModelStatus.ACTIVE] == "Model created and activated."
    assert rules.CREATED[rules.ModelStatus.DRAFT] == "Model created as draft."
    assert rules.SAVED[rules.ModelStatus.ACTIVE] == "Model saved and activated."
    assert rules.SAVED[rules.ModelStatus.DRAFT] == "Model saved as draft."
    assert rules.DELETED == "Model is deleted"


# ---- validation texts ---------------------------------------------------------------------------
INVALID = "Please, fill all required fields with valid data."


@pytest.mark.parametrize("change, field, text", [
    ({"name": ""}, "name", "Please, enter model name. "),
    ({"name": "x" * 201}, "name", "Max length should be 200 characters. "),
    ({"status": "archived"}, "status", "Please, enter a valid value. "),
    ({"allocation_method": "random"}, "allocation_method", "Please, enter a valid value. "),
])
def test_field_errors(change, field, text):
    values, errors, message = clean(data(**change))
    assert message == INVALID
    assert errors[field] == text


def test_sharing_firm_ids_must_be_ids():
    _, errors, message = clean(data(firms=["abc"]))
    assert (message, dict(errors)) == ("Please, select firm for sharing", {"firms": "Please, select firm for sharing"})
    _, errors, message = clean(data(firms=["abc"], name=""))
    assert message == INVALID and errors["firms"] == "Please, select firm for sharing"


def test_superuser_must_choose_the_owner_firm():
    _, errors, message = clean(data(), owner_required=True)
    assert (message, errors["ownerId"]) == (INVALID, "Please, select firm. ")
    values, errors, message = clean(data(ownerId="4"), owner_required=True)
    assert message is None and values["owner_id"] == 4


def _class_change(**fields):
    payload = data()
    payload["allocation_classes"][0].update(fields)
    return payload


@pytest.mark.parametrize("fields, key, text", [
    ({"allocation": "abc"}, "allocation_classes.0.allocation", "Please, enter a valid number. "),
    ({"allocation": "-5"}, "allocation_classes.0.allocation", "Please, enter positive value"),
    ({"allocation": "100.5"}, "allocation_classes.0.allocation", "Value has to be less than 100."),
    ({"allocation": ""}, "allocation_classes.0.allocation", "Please, enter allocation. "),
    ({"min": "70", "max": "50"}, "allocation_classes.0.min", "Min must be less than Max"),
    ({"min": "70", "max": "50"}, "allocation_classes.0.max", "Max must not be less than Min"),
    ({"assets_limit": "1.5"}, "allocation_classes.0.assets_limit", "Please, enter a valid number. "),
    ({"assets_limit": "0"}, "allocation_classes.0.assets_limit", "Value has to be greater than 0."),
    ({"priority": "first"}, "allocation_classes.0.priority", "Please, enter a valid number. "),
    ({"class_id": None}, "allocation_classes.0.class_id", "Please, select class. "),
    ({"class_id": FI}, "allocation_classes.1.class_id", "Already selected."),
    ({"assets": [{"asset_id": BHP, "alt_asset_id": BHP}]}, "allocation_classes.0.assets.0.alt_asset_id",
     "The alternate asset must differ from the asset."),
    ({"assets": [{"asset_id": None}]}, "allocation_classes.0.assets.0.asset_id", "Please, select asset. "),
    ({"assets": [{"asset_id": VAF}]}, "allocation_classes.1.assets.0.asset_id", "The asset is already in this model."),
])
def test_class_row_errors(fields, key, text):
    _, errors, message = clean(_class_change(**fields))
    assert message == INVALID
    assert errors[key] == text


def test_type_and_industry_group_row_errors():
    payload = data(allocation_types=[{"type_id": 5, "allocation": "x"}, {"type_id": 5}, {"type_id": None}],
                   industry_groups_allocations=[{"industry_group_id": 7, "min": "20", "max": "10"}, {"industry_group_id": None}])
    _, errors, message = clean(payload)
    assert message == INVALID
    assert errors["allocation_types.0.allocation"] == "Please, enter a valid number. "
    assert errors["allocation_types.1.type_id"] == "Already selected."
    assert errors["allocation_types.2.type_id"] == "Please, select type. "
    assert errors["industry_groups_allocations.0.max"] == "Max must not be less than Min"
    assert errors["industry_groups_allocations.1.industry_group_id"] == "Please, select industry group. "


def test_equivalents_must_be_complete_on_active_saves():
    payload = data(equivalents=[{"asset_id": CBA, "eq_asset_id": NAB}, {"asset_id": BHP, "eq_asset_id": None}, {}])
    _, errors, message = clean(payload)
    assert message == "Please, select all equivalents"
    assert errors == {"equivalents.1": "Please, select all equivalents", "equivalents.2": "Please, select all equivalents"}
    # with other errors the form-level text is the general one, the rows still marked
    payload["name"] = ""
    _, errors, message = clean(payload)
    assert message == INVALID and errors["equivalents.1"] == "Please, select all equivalents"
    # an equivalent of itself
    _, errors, message = clean(data(equivalents=[{"asset_id": CBA, "eq_asset_id": CBA}]))
    assert (message, errors["equivalents.0"]) == (INVALID, "The equivalent must differ from the asset.")


def test_total_allocation_has_to_be_100():
    payload = data()
    payload["allocation_classes"][1]["allocation"] = "30"
    _, errors, message = clean(payload)
    assert message == "Total allocation has to be 100%."
    assert errors == {"allocation_classes": "Total allocation has to be 100%."}
    payload["allocation_classes"].append({"class_id": CASH, "allocation": "10"})  # cash makes it 100
    assert clean(payload)[2] is None


def test_sum_of_max_allocations_for_equal_amounts():
    payload = data()
    payload["allocation_classes"][0]["max"] = "60"
    payload["allocation_classes"][1]["max"] = "39"
    payload["allocation_classes"].append({"class_id": CASH, "allocation": "0", "max": "0"})
    _, errors, message = clean(payload)
    assert message == "Sum of Max allocations should be more than 100."
    assert errors == {"allocation_classes": "Sum of Max allocations should be more than 100."}
    payload["allocation_classes"][1]["max"] = "40"  # exactly 100 is enough
    assert clean(payload)[2] is None
    payload["allocation_classes"][1]["max"] = None  # an empty max is no cap
    assert clean(payload)[2] is None


def test_industry_groups_total_at_most_100():
    payload = data(industry_groups_allocations=[{"industry_group_id": 7, "allocation": "60"},
                                                {"industry_group_id": 8, "allocation": "40.01"}])
    _, errors, message = clean(payload)
    assert message == "Industry groups total allocation has to be less or equal to 100%."
    assert errors == {"industry_groups_allocations": "Industry groups total allocation has to be less or equal to 100%."}


def test_a_draft_needs_only_a_name():
    payload = {"name": "Work in progress", "status": "draft",
               "allocation_classes": [{"class_id": EQ, "allocation": "", "assets": [{"asset_id": None}, {"asset_id": BHP}]},
                                      {"class_id": None}],
               "equivalents": [{"asset_id": BHP}],
               "industry_groups_allocations": [{"industry_group_id": 7, "allocation": "150"}]}
    _, errors, message = clean(payload)
    assert message == INVALID and set(errors) == {"industry_groups_allocations.0.allocation"}  # numbers still checked
    payload["industry_groups_allocations"][0]["allocation"] = "99"
    values, errors, message = clean(payload)
    assert (message, dict(errors)) == (None, {})
    assert [c["class_id"] for c in values["classes"]] == [EQ, CASH]
    assert values["classes"][0]["allocation"] == Decimal(0)  # empty stored as 0
    assert [a["asset_id"] for a in values["classes"][0]["assets"]] == [BHP]  # incomplete rows dropped
    assert values["equivalents"] == []
    assert values["availability"] == "nobody"
    _, errors, message = clean({"status": "draft"})
    assert (message, errors) == (INVALID, {"name": "Please, enter model name. "})


def test_drafts_skip_the_totals():
    payload = data(status="draft")
    payload["allocation_classes"][0]["allocation"] = "10"
    assert clean(payload)[2] is None


# ---- the percentages method ----------------------------------------------------------------------
def _percentages(rows, cash="5"):
    payload = data(allocation_method="percentages")
    payload["allocation_classes"].append({"class_id": CASH, "allocation": cash})
    payload["assets_percentages_allocations"] = rows
    return payload


def test_percentages_cover_each_asset_and_total_100_with_cash():
    rows = [{"asset_id": BHP, "class_id": EQ, "allocation": "30"}, {"asset_id": CBA, "class_id": EQ, "allocation": "25"},
            {"asset_id": VAF, "class_id": FI, "allocation": "40", "alternative": NAB},
            {"asset_id": 999, "class_id": EQ, "allocation": "50"}]  # not listed: ignored
    values, errors, message = clean(_percentages(rows))
    assert (message, dict(errors)) == (None, {})
    classes = {c["class_id"]: c for c in values["classes"]}
    assert classes[EQ]["allocation"] == Decimal("55") and classes[FI]["allocation"] == Decimal("40")
    assert classes[CASH]["allocation"] == Decimal("5")
    assert [a["percentage"] for a in classes[EQ]["assets"]] == [Decimal("30"), Decimal("25")]
    assert classes[FI]["assets"][0]["alt_asset_id"] == NAB  # the row's alternative

    _, errors, message = clean(_percentages(rows, cash="10"))
    assert message == "Total allocation has to be 100%."
    assert errors == {"assets_percentages_allocations": "Total allocation has to be 100%."}

    _, errors, message = clean(_percentages(rows[:2] + [{"asset_id": VAF, "class_id": FI, "allocation": ""}]))
    assert message == INVALID
    assert errors == {"assets_percentages_allocations.2.allocation": "Please, enter allocation. "}
    _, errors, message = clean(_percentages(rows[:2]))
    assert errors == {f"assets_percentages_allocations.asset_{VAF}": "Please, enter allocation. "}
    _, errors, _ = clean(_percentages([{"asset_id": BHP, "allocation": "x"}] + rows[1:]))
    assert errors["assets_percentages_allocations.0.allocation"] == "Please, enter a valid number. "


def test_percent_text():
    assert [rules.percent_text(Decimal(x)) for x in ("40.0000", "12.5000", "0.0000", "100", "33.3333")] == \
        ["40", "12.5", "0", "100", "33.3333"]
    assert rules.percent_text(None) is None
    assert rules.unavailable_message(["BHP"]) == "Asset BHP is not available"
    assert rules.unavailable_message(["BHP", "17"]) == "Assets BHP, 17 are not available"


# ---- the engine's tree ----------------------------------------------------------------------------
def test_model_spec_helpers():
    ref = lambda i, c: AssetRef(i, c, EQ, None, None, Decimal("1"))  # noqa: E731
    eq = ClassSpec(EQ, "Equities", False, Decimal(95), None, None, None, 1, (
        ModelAssetSpec(ref(BHP, "BHP"), 1, ref(RIO, "RIO"), Decimal(50), None, None),
        ModelAssetSpec(ref(CBA, "CBA"), 2, None, Decimal(45), None, None),
    ))
    cash = ClassSpec(CASH, "Cash", True, Decimal(5), None, None, None, 2)
    spec = ModelSpec(1, 1, "M", "active", "percentages", "all", 3, True, True, True, True, False,
                     classes=(eq, cash), equivalents=(EquivalentSpec(CBA, NAB), EquivalentSpec(VAF, CBA)))
    assert spec.is_percentages and spec.cash_class is cash
    assert spec.asset_ids == {BHP, CBA}
    assert spec.percentages() == {BHP: Decimal(50), CBA: Decimal(45)}
    assert spec.equivalents_of(CBA) == (NAB, VAF) and spec.equivalents_of(NAB) == (CBA,)
    with pytest.raises(Exception):
        spec.name = "changed"  # frozen
