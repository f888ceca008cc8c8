"""How the target portfolio screens present the engine's result (app.ui.states.target_portfolio):
class tables with assets, deposits, custom holdings and the cash account, signed changes, the
class colour against min / max, titles from the labels, who acted, and the versions rows."""
from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

from app.domain.advice.target_portfolios import ResultNames, TPSummary
from app.domain.users import PersonName
from app.domain.engine.results import Target
from app.ui.display import signed_money, signed_whole_units as signed_units
from app.ui.states.target_portfolio import build_classes, build_groups, build_steps, status_color, version_row

RESULT = {
    "value": "10000.00", "cash": "6000.00", "cash_after": "1000.00", "min_cash": "500.00", "buys": "5200.00",
    "sells": "210.00", "brokerage": "10.00",
    "assets": [
        {"asset_id": 1, "code": "BHP", "class_id": 2, "industry_group_id": 7, "action": "BUY", "price": "45.000000",
         "current_units": "10.000000", "target_units": "100", "delta_units": "90.000000", "current_value": "450.00",
         "target_value": "4500.00", "delta_value": "4050.00", "current_percent": "4.5000", "target_percent": "45.0000",
         "weight_percent": "50.0000", "exception": None, "full_sell": False, "recommendation_source": "short_term",
         "reasons": [{"code": "model_weight", "text": "model weight: an equal share of Equities"}]},
        {"asset_id": 2, "code": "XYZ", "class_id": 2, "industry_group_id": None, "action": "SA", "price": "3.000000",
         "current_units": "70", "target_units": "0", "delta_units": "-70", "current_value": "210.00",
         "target_value": "0", "delta_value": "-210.00", "current_percent": "2.1000", "target_percent": "0.0000",
         "weight_percent": None, "exception": "lock", "full_sell": True, "comment": "exit now",
         "reasons": [{"code": "recommendation_sa", "text": "recommendation SA"}]},
    ],
    "holdings": [{"kind": "custom", "id": 5, "name": "Beach House", "class_id": 9, "value": "3000.00",
                  "percent": "30.0000", "reasons": [{"code": "not_traded", "text": "never traded"}]}],
    "classes": [
        {"id": 2, "title": "", "is_cash": False, "target_percent": "60.0000", "min": "50.0000", "max": "55.0000",
         "current_value": "660.00", "current_percent": "6.6000", "result_value": "4500.00", "result_percent": "58.0000",
         "reasons": [{"code": "above_max", "text": "above its maximum"}]},
        {"id": 1, "title": "Cash", "is_cash": True, "target_percent": "5.0000", "min": None, "max": None,
         "current_value": "6000.00", "current_percent": "60.0000", "result_value": "1000.00",
         "result_percent": "10.0000", "reasons": []},
        {"id": 9, "title": "", "is_cash": False, "target_percent": "0.0000", "min": None, "max": None,
         "current_value": "3000.00", "current_percent": "30.0000", "result_value": "3000.00",
         "result_percent": "30.0000", "reasons": []},
        {"id": 4, "title": "Empty", "is_cash": False, "target_percent": "0", "min": None, "max": None,
         "current_value": "0", "current_percent": "0", "result_value": "0", "result_percent": "0", "reasons": []},
    ],
    "industry_groups": [{"id": 7, "title": "", "target_percent": None, "min": None, "max": "40.0000",
                         "current_percent": "4.5000", "result_percent": "45.0000", "result_value": "4500.00",
                         "reasons": []}],
    "reasons": [],
}
NAMES = ResultNames(assets={1: ("BHP Group", "https://www.bhp.com"), 2: ("XYZ Ltd", "")},
                    classes={2: "Equities", 9: "Property"}, industry_groups={7: ("Materials", "#ff7f0e")})
# what the engine also writes of every result, asset and holding, that the tables above do not need
TARGET_REST = {"portfolio_id": 3, "model_id": 1, "model_version": 1, "allocation_method": "equal",
               "min_trade_amount": "0", "not_enough_cash": False}
ASSET_REST = {"kind": "model", "model_asset_id": None, "rank": 0, "base_action": "", "recommendation_source": "none",
              "comment": None, "limit_price": None, "manual_trade_decision": False, "fixed": False, "brokerage": "0",
              "stop_loss": False, "urgent": False}


def _target(result: dict) -> Target:
    return Target.from_dict({**TARGET_REST, **result, "assets": [{**ASSET_REST, **a} for a in result["assets"]],
                             "holdings": [{"exception": None, **h} for h in result["holdings"]],
                             "industry_groups": [{"is_cash": False, "current_value": "0", **g} for g in result["industry_groups"]]})


def test_class_tables_hold_every_line_with_its_reasons():
    classes = build_classes(_target(RESULT), NAMES)
    assert [c.title for c in classes] == ["Equities", "Cash", "Property"]  # empty classes are left out
    equities, cash, prop = classes
    assert equities.color == "danger" and equities.bounds == "min 50.0% · max 55.0%"
    assert equities.current == "6.6%" and equities.result == "58.0%" and equities.target == "60.0%"
    assert equities.reasons == ["above its maximum"]
    bhp, xyz = equities.lines
    assert (bhp.name, bhp.url, bhp.current_units, bhp.target_units, bhp.delta_units) == (
        "BHP Group", "https://www.bhp.com", "10", "100", "+90")
    assert (bhp.delta_value, bhp.delta_sign, bhp.weight) == ("+$4,050.00", "up", "50.0%")
    assert bhp.flags == ["Short-term"]
    assert bhp.reasons == ["model weight: an equal share of Equities"]
    assert xyz.flags == ["Lock", "Full sell"] and xyz.delta_value == "-$210.00" and xyz.delta_sign == "down"
    assert xyz.reasons == ["recommendation SA", "analyst comment: exit now"]
    assert [line.kind for line in cash.lines] == ["cash"]
    assert (cash.lines[0].current_value, cash.lines[0].target_value, cash.lines[0].delta_value) == (
        "$6,000.00", "$1,000.00", "-$5,000.00")
    assert cash.lines[0].target_percent == "10.0%" and "minimum cash $500.00" in cash.lines[0].reasons
    assert [(line.kind, line.name, line.action) for line in prop.lines] == [("custom", "Beach House", "Not traded")]


def test_groups_steps_and_versions():
    [group] = build_groups(_target(RESULT), NAMES)
    assert (group.title, group.color, group.cap, group.result) == ("Materials", "#ff7f0e", "40.0%", "45.0%")
    shape = TPSummary(
        id=1, investment_id=3, version=1, status="validated", not_enough_cash=False, error_message=None, value=None,
        model_id=None, model_version=None, allocation_method=None, row_version=1,
        created_at=datetime(2026, 1, 5, tzinfo=timezone.utc), creator=PersonName("Ann", "Lee"),
        validated_at=datetime(2026, 1, 6, tzinfo=timezone.utc), validator=PersonName("Bob", "Ray"),
        approved_at=None, declined_at=None, approver=None, decliner=None, moderator=None)
    assert [(s.label, s.name) for s in build_steps(shape)] == [("Created by", "Ann Lee"), ("Validated by", "Bob Ray")]
    row = version_row(3, dataclasses.replace(shape, id=11, version=2, status="declined",
                                             declined_at=datetime(2026, 1, 7, tzinfo=timezone.utc),
                                             decliner=PersonName("Cy", "Oh"), moderator=PersonName("Cy", "Oh")))
    assert (row.decided, row.decided_by, row.url, row.color) == ("Declined", "Cy Oh", "/portfolios/3/target-portfolio/2",
                                                                 "red")
    assert status_color("draft", True) == "orange" and status_color("active") == "green"
    assert signed_money("0") == "$0.00" and signed_units("-2.4") == "-2"
