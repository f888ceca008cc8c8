"""Portfolio form rules (spec 001 s3-s9, 002 s3-s5): vocabulary, defaults, approval switch rules,
receiver lists, allocation limits, class / industry group totals, exceptions, list filters."""
from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain import portfolios as p
from app.domain import validators as v

VALID = {"name": "Smith Family", "type": "SAVINGS"}


def clean(**changes):
    return p.clean_portfolio(p.read_portfolio_form({**VALID, **changes}))


def test_vocabulary_and_constants():
    assert [t.value for t in p.PortfolioType] == ["SMSF", "SAVINGS", "TRUST", "COMPANY", "SOLE_TRADER"]
    assert p.TYPE_TITLES == {"SMSF": "Self Managed Super Fund", "SAVINGS": "Savings", "TRUST": "Trust",
                             "COMPANY": "Company", "SOLE_TRADER": "Sole Trader"}
    assert p.TAX_TREATMENTS == ("fifo", "lifo", "highest_cost", "minimise_cgt") and p.DEFAULT_TAX_TREATMENT == "fifo"
    assert set(p.TAX_TREATMENT_TITLES) == set(p.TAX_TREATMENTS)
    assert p.EXCEPTION_TITLES == {"dont_hold": "Don't hold", "substitute": "Substitute",
                                  "manual_trade_decision": "Manual Trade Decision", "lock": "Lock"}
    assert p.ACTIVITY_STATUSES == ("all", "active", "inactive") and p.DEFAULT_ACTIVITY == "active"
    assert p.ACTIVITY_TITLES["all"] == "All portfolios"
    assert (p.BROKER_ALL, p.BROKER_NA) == (-1, -2)
    assert p.PAGE_SIZES == (20, 50, 100) and p.DEFAULT_PAGE_SIZE == 100
    assert (p.DEFAULT_SORT, p.DEFAULT_ORDER) == ("name", "asc")
    assert p.INVALID_FORM == "Please, fill all required fields with valid data."
    assert p.SAVED == "Portfolio is created/updated" and p.DELETED == "Portfolio is deleted"
    assert p.CONFIRM_DELETE == "Are you sure you want to delete portfolio?"
    assert p.MODEL_UNLINKED == "Model unlinked"


def test_a_minimal_payload_takes_the_creation_defaults():
    values, errors, message = clean()
    assert errors == {} and message is None
    assert values["inactive"] is True
    assert values["sell_look_back_period"] == 0
    assert values["tax_treatment"] == "fifo"
    assert values["approval_settings"] == p.default_approval_settings()
    assert values["classes"] == [] and values["industry_groups"] == [] and values["exceptions"] == []


def test_name_and_type_are_required_with_the_form_message():
    _, errors, message = p.clean_portfolio(p.read_portfolio_form({}))
    assert errors == {"name": "Please, enter portfolio name. ", "type": "Please, select portfolio type. "}
    assert message == "Please, fill all required fields with valid data."
    _, errors, _ = clean(type="PENSION")
    assert errors == {"type": v.DEFAULT}


@pytest.mark.parametrize("kind, required, dropped", [
    ("TRUST", "trustee_name", ("company_name", "company_abn")),
    ("SMSF", "trustee_name", ("company_name", "company_abn")),
    ("COMPANY", "company_name", ("trustee_name", "trustee_abn")),
])
def test_type_specific_names(kind, required, dropped):
    _, errors, message = clean(type=kind)
    assert errors == {required: f"Please, enter {required.replace('_', ' ')}. "} and message == p.INVALID_FORM
    values, errors, _ = clean(type=kind, trustee_name="Smith Pty Ltd", company_name="Smith Holdings",
                              trustee_abn="53 004 085 616", company_abn="12345678901")
    assert errors == {}
    assert values[required] in ("Smith Pty Ltd", "Smith Holdings")
    for key in dropped:
        assert values[key] is None
    _, errors, _ = clean(type=kind, trustee_name="T", company_name="C", trustee_abn="123", company_abn="ABC")
    assert set(errors) == {required.replace("name", "abn")} and p.ABN in errors.values()


def test_savings_and_sole_trader_carry_no_type_specific_names():
    values, errors, _ = clean(type="sole_trader", trustee_name="X", company_name="Y")
    assert errors == {} and values["type"] == "SOLE_TRADER"
    assert values["trustee_name"] is None and values["company_name"] is None


def test_tax_treatment_and_look_back():
    assert clean(tax_treatment="highest_cost")[0]["tax_treatment"] == "highest_cost"
    assert clean(tax_treatment="average")[1] == {"tax_treatment": v.DEFAULT}
    assert clean(sell_look_back_period="30")[0]["sell_look_back_period"] == 30
    assert clean(sell_look_back_period="-1")[1] == {"sell_look_back_period": v.NUMBER}
    assert clean(sell_look_back_period="4000")[1] == {"sell_look_back_period": "Value has to be less than 3651."}


def test_bank_and_broker_details():
    values, errors, _ = clean(bank_bsb="062 000", bank_account="12345678", broker="7", hin="x0012345678",
                              broker_account="AC-1", facility_id="F1", institution_id="3")
    assert errors == {}
    assert values["bank_bsb"] == "062-000" and values["bank_account"] == "12345678"
    assert values["broker_id"] == 7 and values["hin"] == "X0012345678" and values["institution_id"] == 3
    _, errors, _ = clean(bank_bsb="12345", bank_account="12-34", hin="X-1")
    assert errors == {"bank_bsb": p.BSB, "bank_account": v.NUMBER, "hin": v.DEFAULT}
    assert clean(broker={"id": 4})[0]["broker_id"] == 4
    assert clean(broker_id="abc")[1] == {"broker": "Please, select broker. "}


def test_fees_empty_fee_is_null_and_clears_the_max():
    values, errors, _ = clean(fee_percent="", fee_limit_min="10", fee_limit_max="250")
    assert errors == {} and values["fee_percent"] is None and values["fee_limit_max"] is None
    assert values["fee_limit_min"] == Decimal("10.00")
    values, errors, _ = clean(fee_percent="1.1", fee_limit_min="10", fee_limit_max="250.5")
    assert errors == {} and values["fee_percent"] == Decimal("1.1000") and values["fee_limit_max"] == Decimal("250.50")
    _, errors, _ = clean(fee_percent="1", fee_limit_min="300", fee_limit_max="250")
    assert errors == {"fee_limit_min": v.MIN_NOT_LESS_THAN_MAX, "fee_limit_max": v.MAX_LESS_THAN_MIN}
    _, errors, _ = clean(fee_percent="101", fee_limit_min="1.234")
    assert errors == {"fee_percent": "Value has to be less than 100.", "fee_limit_min": v.DECIMALS}


def test_asset_allocation_limits():
    # a max less than or equal to the min is invalid
    _, errors, _ = clean(min_asset_allocation_value="5000", max_asset_allocation_value="5000")
    assert errors == {"min_asset_allocation_value": v.MIN_NOT_LESS_THAN_MAX,
                      "max_asset_allocation_value": v.MAX_LESS_THAN_MIN}
    # a max without a value is cleared; a min without a max (or the reverse) raises no min-max error
    values, errors, _ = clean(min_asset_allocation_value="5000", max_asset_allocation_value="  ")
    assert errors == {} and values["max_asset_allocation_value"] is None
    values, errors, _ = clean(max_asset_allocation_value="20000")
    assert errors == {} and values["max_asset_allocation_value"] == Decimal("20000.00")
    values, errors, _ = clean(**{f: "12.5" for f in p.PERCENT_LIMITS}, **{f: "100" for f in p.MONEY_LIMITS
                                                                           if f != "min_asset_allocation_value"})
    assert errors == {}
    assert all(values[f] == Decimal("12.5000") for f in p.PERCENT_LIMITS)
    _, errors, _ = clean(max_exposure="-1", min_trade_amount="abc")
    assert errors == {"max_exposure": v.POSITIVE, "min_trade_amount": v.NUMBER}
    assert set(p.LIMIT_LABELS) == set(p.LIMIT_FIELDS)


def test_class_allocation_total_has_to_be_100_when_on():
    rows = [{"class_id": 1, "allocation": "60", "min": "50", "max": "70"}, {"class_id": 2, "allocation": "30"}]
    values, errors, message = clean(class_allocation=True, allocation_classes=rows)
    assert errors == {"allocation_classes": "Total class allocation has to be 100%."}
    assert message == "Total class allocation has to be 100%."
    values, errors, message = clean(class_allocation=False, allocation_classes=rows)
    assert errors == {} and message is None and len(values["classes"]) == 2
    rows[1]["allocation"] = "40"
    values, errors, _ = clean(class_allocation="1", allocation_classes=rows)
    assert errors == {} and values["classes"][0] == {"class_id": 1, "index": 0, "allocation": Decimal("60.0000"),
                                                     "min": Decimal("50.0000"), "max": Decimal("70.0000")}
    # row rules: numbers 0..100, max above min, one row per class; the total error joins the others
    _, errors, message = clean(class_allocation=True, allocation_classes=[
        {"class_id": 1, "allocation": "100", "min": "20", "max": "10"}, {"class_id": 1, "allocation": "0"}])
    assert errors == {"allocation_classes.0.min": v.MIN_NOT_LESS_THAN_MAX,
                      "allocation_classes.0.max": v.MAX_LESS_THAN_MIN,
                      "allocation_classes.1.class_id": p.ALREADY_SELECTED}
    assert message == p.INVALID_FORM


def test_industry_group_total_has_to_be_at_most_100():
    rows = [{"industry_group_id": 1, "allocation": "60"}, {"industry_group_id": 2, "allocation": "50"}]
    _, errors, message = clean(industry_group_allocation=True, industry_groups_allocations=rows)
    assert errors == {"industry_groups_allocations": "Total industry group allocation has to be less or equal to 100%."}
    assert message == "Total industry group allocation has to be less or equal to 100%."
    rows[1]["allocation"] = "40"
    values, errors, _ = clean(industry_group_allocation=True, industry_groups_allocations=rows)
    assert errors == {} and [g["allocation"] for g in values["industry_groups"]] == [Decimal("60.0000"), Decimal("40.0000")]
    _, errors, _ = clean(industry_groups_allocations=[{"industry_group_id": 1, "allocation": ""}])
    assert errors == {"industry_groups_allocations.0.allocation": "Please, enter allocation. "}


def test_exceptions():
    rows = [
        {"asset_id": 1, "action": "dont_hold"},
        {"asset_id": 2, "action": "substitute", "substitute_asset_id": 3},
        {"custom_holding_id": 9, "action": "lock"},
        {"asset_id": 4, "action": "manual_trade_decision", "substitute_asset_id": 5},
    ]
    values, errors, _ = clean(exceptions=rows)
    assert errors == {}
    assert [(e["asset_id"], e["custom_holding_id"], e["action"], e["substitute_asset_id"]) for e in values["exceptions"]] == [
        (1, None, "dont_hold", None), (2, None, "substitute", 3), (None, 9, "lock", None),
        (4, None, "manual_trade_decision", None),  # a substitution only for Substitute
    ]
    _, errors, _ = clean(exceptions=[{"action": "lock"}, {"asset_id": 1, "action": "sell"},
                                     {"asset_id": 2, "action": "substitute"},
                                     {"asset_id": 3, "action": "substitute", "substitute_asset_id": 3},
                                     {"asset_id": 2, "action": "lock"}])
    assert errors == {"exceptions.0.asset_id": p.EXCEPTION_TARGET_REQUIRED,
                      "exceptions.1.action": "Please, select action. ",
                      "exceptions.2.substitute_asset_id": p.SUBSTITUTE_REQUIRED,
                      "exceptions.3.substitute_asset_id": p.SAME_SUBSTITUTE,
                      "exceptions.4.asset_id": p.ALREADY_SELECTED}


def test_approval_defaults():
    settings = p.default_approval_settings()
    on = {k for k, value in settings.items() if value is True}
    assert on == {"tp_validation_required", "tr_validation_required", "tp_approval_required", "tp_approval_request",
                  "tr_approval_request", "tr_approval_required"}
    assert settings["tr_auto_approval"] == "never"
    assert all(settings[k] is False for k in p.APPROVAL_FLAGS if k not in on)
    assert all(settings[k] == "" for k in p.APPROVAL_TEXTS)
    assert set(settings) == set(p.APPROVAL_KEYS) and set(p.APPROVAL_LABELS) == set(p.APPROVAL_KEYS)


def test_approval_switch_rules():
    s = p.default_approval_settings()
    s = p.apply_switch(s, "tr_auto_approval", "next_day_10am")
    s = p.apply_switch(s, "tr_approval_request_pdf", True)
    assert s["tr_auto_approval"] == "next_day_10am" and s["tr_approval_request_pdf"] is True
    # turning off tr approval required: auto-approval never, its request off, so its PDF off
    off = p.apply_switch(s, "tr_approval_required", False)
    assert (off["tr_approval_required"], off["tr_approval_request"], off["tr_approval_request_pdf"],
            off["tr_auto_approval"]) == (False, False, False, "never")
    # ... and on again: the request follows, the PDF stays off, auto-approval stays never
    on = p.apply_switch(off, "tr_approval_required", True)
    assert (on["tr_approval_request"], on["tr_approval_request_pdf"], on["tr_auto_approval"]) == (True, False, "never")
    # tp approval required sets tp approval request to the same value
    tp = p.apply_switch(p.apply_switch(s, "tp_approval_request_pdf", True), "tp_approval_required", False)
    assert (tp["tp_approval_request"], tp["tp_approval_request_pdf"]) == (False, False)
    # turning off a request turns off its PDF; the requirement stays
    req = p.apply_switch(p.apply_switch(s, "tp_approval_request_pdf", True), "tp_approval_request", False)
    assert (req["tp_approval_required"], req["tp_approval_request"], req["tp_approval_request_pdf"]) == (True, False, False)
    # no auto-approval without tr approval required; unknown keys change nothing
    assert p.apply_switch(off, "tr_auto_approval", "3_days")["tr_auto_approval"] == "never"
    assert p.apply_switch(s, "tr_auto_approval", "11_days") == s
    assert p.apply_switch(s, "is_admin", True) == s


def test_clean_approval_keeps_the_invariants():
    settings, errors = p.clean_approval({"tp_approval_request": False, "tp_approval_request_pdf": True,
                                         "tr_approval_required": "0", "tr_auto_approval": "5_days", "junk": True})
    assert errors == {}
    assert settings["tp_approval_request_pdf"] is False and settings["tr_auto_approval"] == "never"
    assert "junk" not in settings
    _, errors = p.clean_approval({"tr_auto_approval": "someday"})
    assert errors == {"tr_auto_approval": v.DEFAULT}


@pytest.mark.parametrize("switch, field", sorted(p.RECEIVER_FIELDS.items()))
def test_each_send_to_other_email_switch_needs_valid_receivers(switch, field):
    _, errors = p.clean_approval({switch: True})
    assert errors == {field: p.RECEIVERS_EMPTY}
    _, errors = p.clean_approval({switch: True, field: "a@example.com,, b@example.com"})
    assert errors == {field: p.RECEIVERS_EMPTY}
    _, errors = p.clean_approval({switch: True, field: "a@example.com, not-an-email"})
    assert errors == {field: p.RECEIVERS_INVALID}
    settings, errors = p.clean_approval({switch: True, field: " a@example.com ,b@example.com"})
    assert errors == {} and settings[field] == "a@example.com, b@example.com"
    # off: an empty list is fine, a given one must still be valid
    assert p.clean_approval({switch: False})[1] == {}
    assert p.clean_approval({switch: False, field: "nope"})[1] == {field: p.RECEIVERS_INVALID}
    _, errors, message = clean(approval_settings={switch: True})
    assert errors == {f"approval_settings.{field}": p.RECEIVERS_EMPTY} and message == p.INVALID_FORM


def test_holders_and_adviser():
    values, _, _ = clean(users=[{"id": 3, "is_owner": True}, {"id": 4, "is_owner": False}, {"id": 3}])
    assert values["holders"] == [(3, True), (4, False)] and values["holders_named"]
    values, _, _ = clean(owners=[5, "6"])
    assert values["holders"] == [(5, True), (6, True)]
    values, _, _ = clean()
    assert values["holders"] == [] and not values["holders_named"] and not values["adviser_named"]
    values, errors, _ = clean(adviser="8")
    assert values["adviser_id"] == 8 and values["adviser_named"] and errors == {}
    assert clean(adviser="x")[1] == {"adviser": "Please, select adviser. "}


def test_list_filters():
    assert p.activity_of(None) == "active" and p.activity_of("ALL") == "all" and p.activity_of("x") == "active"
    assert p.broker_filter_of(None) == -1 and p.broker_filter_of("-1") == -1 and p.broker_filter_of("-2") == -2
    assert p.broker_filter_of("7") == 7 and p.broker_filter_of("junk") == -1


def test_the_list_filter_is_read_once_from_the_query():
    assert p.read_filter() == p.PortfolioFilter()
    # "-1" and "-2" are every adviser, firm or model; text that is no id names none (0), a client too
    found = p.read_filter(client_id="-1", adviser_id="-2", firm_id="junk", model_id=" 5 ", model_ids=["3", "x", 4])
    assert (found.client_id, found.adviser_id, found.firm_id, found.model_id) == (0, None, 0, 5)
    assert found.model_ids == (3, 4)
    assert p.read_filter(activity_status=" ").activity is None and p.read_filter(activity_status="x").activity == "active"
    assert p.read_filter(broker_id="-2").broker == -2 and p.read_filter(broker_id="9").broker == 9
    both = p.read_filter(approved="true", tp_bulk_calculation="1", ti_calculation="0")
    assert both.approved and both.tp_calculation and not both.ti_calculation


def test_creation_removes_null_fields_and_cross_firm():
    assert p.read_portfolio_form({"name": "A", "fee_percent": None, "inactive": None}).creation() == \
        p.read_portfolio_form({"name": "A"})
    assert p.is_cross_firm(1, 2) and not p.is_cross_firm(1, 1) and not p.is_cross_firm(1, None)


def test_soa_date():
    assert str(clean(soa_date="2026-03-01T00:00:00Z")[0]["soa_date"]) == "2026-03-01"
    assert str(clean(soa_date="01/03/2026")[0]["soa_date"]) == "2026-03-01"
    assert clean(soa_date="31/02/2026")[1] == {"soa_date": v.DATE}
