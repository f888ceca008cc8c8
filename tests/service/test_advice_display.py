"""The target portfolio screens' reads: the actor's permissions on a portfolio without a target
portfolio, and the names behind the engine's ids (assets, classes, industry groups) that a target
portfolio as read carries."""
from __future__ import annotations

import pytest

from app.domain.errors import NotFound
from tests.advice_edge import advice_display, tps
from tests.factories import actor, make_firm, make_user
from tests.factories_advice import make_book
from tests.factories_portfolios import make_custom_holding
from app.domain.roles import Role


@pytest.fixture
def book(db):
    return make_book(1)


def test_permissions_without_a_target_portfolio(book):
    pid = book.portfolio_ids[0]
    adviser = advice_display.tp_permissions(actor=actor(book.adviser), investment_id=pid)
    assert adviser == {"calculate": True, "view_only": False, "edit_commentary": True, "decide": True}
    client = advice_display.tp_permissions(actor=actor(book.client), investment_id=pid)
    assert client["calculate"] is False and client["view_only"] is True and client["decide"] is True
    admin = advice_display.tp_permissions(actor=actor(book.admin), investment_id=pid)
    assert admin["calculate"] is False and admin["decide"] is False
    stranger = make_user(Role.ADVISER, make_firm("Elsewhere"))
    with pytest.raises(NotFound):
        advice_display.tp_permissions(actor=actor(stranger), investment_id=pid)


def test_labels_name_every_id_of_the_result(book):
    pid = book.portfolio_ids[0]
    holding = make_custom_holding(pid, "Beach House", value="20000.00")
    tp = tps.calculate(actor=actor(book.adviser), investment_id=pid)
    names = tps.current(actor=actor(book.adviser), investment_id=pid).names
    result = tp["result"]
    assert {a["asset_id"] for a in result["assets"]} == set(names.assets)
    bhp = next(a for a in result["assets"] if a["code"] == "BHP")
    assert names.assets[bhp["asset_id"]] == ("BHP Group", "https://www.bhp.com")
    assert {c["id"] for c in result["classes"]} <= set(names.classes)
    assert names.classes[bhp["class_id"]] == "Australian Equities"
    assert holding.class_id in names.classes
    assert names.industry_groups[bhp["industry_group_id"]] == ("Materials", "#ff7f0e")


def test_labels_follow_the_visibility_of_the_target_portfolio(book):
    pid = book.portfolio_ids[0]
    tp = tps.calculate(actor=actor(book.adviser), investment_id=pid)
    with pytest.raises(NotFound):  # clients never see drafts
        tps.current(actor=actor(book.client), investment_id=pid, version=tp["version"])
    stranger = make_user(Role.ADVISER, make_firm("Elsewhere"))
    with pytest.raises(NotFound):
        tps.current(actor=actor(stranger), investment_id=pid, version=tp["version"])
    with pytest.raises(NotFound):
        tps.current(actor=actor(book.adviser), investment_id=pid, version=999999)
    tps.validate(actor=actor(book.adviser), tp_id=tp["id"])
    assert tps.current(actor=actor(book.client), investment_id=pid, version=tp["version"]).names.assets


def test_labels_of_a_recalculated_result_name_the_added_assets(book):
    pid = book.portfolio_ids[0]
    tp = tps.calculate(actor=actor(book.adviser), investment_id=pid)
    wes = book.universe.stocks[3]
    assert wes.id not in tps.current(actor=actor(book.adviser), investment_id=pid).names.assets
    step = tps.edit_preview(actor=actor(book.adviser), tp_id=tp["id"], row_version=tp["row_version"],
                            overrides=[{"code": "WES"}])
    assert step.names.assets[wes.id][0] == "Wesfarmers"
    assert {a.asset_id for a in step.result.assets} == set(step.names.assets)
