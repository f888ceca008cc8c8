"""Custom holdings (spec 002 s3/s5/s6): validate, create, update, delete; the unique name per
portfolio marks the name field; the class must be usable by the portfolio's firm; staff write,
clients read; other firms' portfolios and holdings are not found."""
from __future__ import annotations

from decimal import Decimal as D

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import CustomHolding, PortfolioException
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.domain.custom_holdings import read_form
from app.domain.wire import rendered
from app.services import custom_holdings as service
from app.services import holdings
from tests.factories import actor
from tests.factories_assets import make_cash_class, make_class
from tests.factories_portfolios import make_custom_holding, make_portfolio, make_portfolio_world

class ch:  # noqa: N801 - the service as these tests call it: the form as sent, the answer as the API renders it
    @staticmethod
    def create(*, actor, data):
        return rendered(service.create(actor=actor, form=read_form(data)))

    @staticmethod
    def update(*, actor, holding_id, data):
        return rendered(service.update(actor=actor, holding_id=holding_id, form=read_form(data)))

    @staticmethod
    def validate(*, actor, data):
        return rendered(service.validate(actor=actor, form=read_form(data)))

    @staticmethod
    def delete(*, actor, holding_id):
        return rendered(service.delete(actor=actor, holding_id=holding_id))

    @staticmethod
    def get(*, actor, holding_id):
        return rendered(service.get(actor=actor, holding_id=holding_id))

    @staticmethod
    def list_for_portfolio(*, actor, portfolio_id):
        return rendered(service.list_for_portfolio(actor=actor, portfolio_id=portfolio_id))

    @staticmethod
    def class_options(*, actor, portfolio_id):
        return rendered(service.class_options(actor=actor, portfolio_id=portfolio_id))


INVALID = "Please, fill all required fields with valid data"
UNIQUE = "Name should be unique."


@pytest.fixture
def w(db):
    return make_portfolio_world()


@pytest.fixture
def prop(db):
    return make_class("Property")


def _rows(portfolio_id: int) -> list[CustomHolding]:
    with session_scope() as s:
        return list(s.exec(select(CustomHolding).where(CustomHolding.investment_id == portfolio_id)
                           .order_by(CustomHolding.id)).all())


def test_create_update_delete_and_totals(w, prop):
    a = actor(w.adviser)
    made = ch.create(actor=a, data={"investment_id": w.portfolio.id, "name": "  Beach House ", "class_id": prop.id,
                                    "fee": "0.75", "value": "250000.5"})
    assert made == {"id": made["id"], "investment_id": w.portfolio.id, "name": "Beach House", "class_id": prop.id,
                    "classTitle": "Property", "class_type": "asset", "fee": "0.75", "value": "250000.50",
                    "message": "Custom holding is created"}
    assert holdings.load(actor=a, portfolio_id=w.portfolio.id).totals.value == D("250000.50")

    updated = ch.update(actor=actor(w.admin), holding_id=made["id"], data={"value": "260000", "fee": None})
    assert updated["value"] == "260000.00" and updated["fee"] is None and updated["name"] == "Beach House"
    assert updated["message"] == "Custom holding is updated"
    cash_class = make_cash_class()
    moved = ch.update(actor=a, holding_id=made["id"], data={"class_id": cash_class.id, "name": "Beach house (family)"})
    assert moved["class_type"] == "cash" and moved["classTitle"] == "Cash" and moved["value"] == "260000.00"
    assert ch.list_for_portfolio(actor=actor(w.client), portfolio_id=w.portfolio.id) == [
        {k: v for k, v in moved.items() if k != "message"}]
    assert ch.get(actor=actor(w.client), holding_id=made["id"])["name"] == "Beach house (family)"

    with session_scope() as s:
        s.add(PortfolioException(investment_id=w.portfolio.id, custom_holding_id=made["id"], action="lock"))
    assert ch.delete(actor=actor(w.superuser), holding_id=made["id"]) == {"id": made["id"], "message": "Custom holding is deleted"}
    assert _rows(w.portfolio.id) == []
    with session_scope() as s:
        assert s.exec(select(PortfolioException)).all() == []
    with pytest.raises(NotFound, match="Custom holding not found"):
        ch.delete(actor=actor(w.superuser), holding_id=made["id"])


@pytest.mark.parametrize("data, fields", [
    ({}, {"name": "Please, enter name. ", "class_id": "Please, select class. ", "value": "Please, enter value. "}),
    ({"name": "x" * 201, "value": "abc"}, {"name": "Max length should be 200 characters. ",
                                           "value": "Please, enter a valid number. "}),
    ({"value": "-5", "fee": "1.234"}, {"value": "Please, enter positive value", "fee": "Max 2 decimals"}),
    ({"value": "10.001", "fee": "100"}, {"value": "Max 2 decimals", "fee": "Value has to be less than 100."}),
    ({"value": "1e5", "fee": "+1"}, {"value": "Please, enter a valid number. ", "fee": "Please, enter a valid number. "}),
])
def test_field_errors(w, prop, data, fields):
    base = {"investment_id": w.portfolio.id, "name": "Art", "class_id": prop.id, "value": "100"}
    body = {**base, **data} if data else {"investment_id": w.portfolio.id}
    with pytest.raises(ValidationError) as err:
        ch.create(actor=actor(w.adviser), data=body)
    assert err.value.message == INVALID
    assert {k: err.value.fields[k] for k in fields} == fields
    with pytest.raises(ValidationError) as err2:
        ch.validate(actor=actor(w.adviser), data=body)
    assert err2.value.fields == err.value.fields
    assert _rows(w.portfolio.id) == []


def test_unique_name_per_portfolio(w, prop):
    a = actor(w.adviser)
    first = make_custom_holding(w.portfolio, "Beach House", asset_class=prop)
    for name in ("Beach House", " beach house  ", "BEACH HOUSE"):
        with pytest.raises(ValidationError) as err:
            ch.create(actor=a, data={"investment_id": w.portfolio.id, "name": name, "class_id": prop.id, "value": "1"})
        assert err.value.message == UNIQUE and err.value.fields == {"name": UNIQUE}
        with pytest.raises(ValidationError) as err:
            ch.validate(actor=a, data={"investment_id": w.portfolio.id, "name": name, "class_id": prop.id, "value": "1"})
        assert err.value.fields == {"name": UNIQUE}
    # the same name in another portfolio is fine; the holding itself keeps its name on update
    other = make_portfolio(w.firm, holders=[w.client])
    assert ch.create(actor=a, data={"investment_id": other.id, "name": "Beach House", "class_id": prop.id, "value": "1"})
    assert ch.validate(actor=a, data={"id": first.id, "name": "Beach House", "class_id": prop.id, "value": "5"}) == {"valid": True}
    assert ch.update(actor=a, holding_id=first.id, data={"name": "beach house", "value": "5"})["name"] == "beach house"
    second = make_custom_holding(w.portfolio, "Farm", asset_class=prop)
    with pytest.raises(ValidationError) as err:
        ch.update(actor=a, holding_id=second.id, data={"name": "Beach House"})
    assert err.value.fields == {"name": UNIQUE}
    # uniqueness with another error: the general text, both fields marked
    with pytest.raises(ValidationError) as err:
        ch.create(actor=a, data={"investment_id": w.portfolio.id, "name": "Farm", "class_id": prop.id, "value": "x"})
    assert err.value.message == INVALID and err.value.fields["name"] == UNIQUE


def test_class_must_be_usable_by_the_firm(w, prop):
    theirs = make_class("Other firm's class", w.other_firm)
    ours = make_class("Our class", w.firm)
    a = actor(w.superuser)
    for class_id in (theirs.id, 999999, "abc"):
        with pytest.raises(ValidationError) as err:
            ch.create(actor=a, data={"investment_id": w.portfolio.id, "name": "X", "class_id": class_id, "value": "1"})
        assert err.value.fields == {"class_id": "Please, select class. "}
    assert ch.create(actor=a, data={"investment_id": w.portfolio.id, "name": "X", "class_id": ours.id, "value": "1"})
    titles = [c["title"] for c in ch.class_options(actor=actor(w.adviser), portfolio_id=w.portfolio.id)]
    assert "Our class" in titles and "Property" in titles and "Other firm's class" not in titles


def test_permissions(w, prop):
    body = {"investment_id": w.portfolio.id, "name": "Art", "class_id": prop.id, "value": "100"}
    for user in (w.client, w.co_holder):
        with pytest.raises(PermissionDenied):
            ch.create(actor=actor(user), data=body)
        with pytest.raises(PermissionDenied):
            ch.validate(actor=actor(user), data=body)
    for user in (w.stranger, w.other_adviser, w.other_client):
        with pytest.raises(NotFound):
            ch.create(actor=actor(user), data=body)
    holding = make_custom_holding(w.portfolio, "Art", asset_class=prop)
    for user in (w.client, w.co_holder):
        with pytest.raises(PermissionDenied):
            ch.update(actor=actor(user), holding_id=holding.id, data={"value": "1"})
        with pytest.raises(PermissionDenied):
            ch.delete(actor=actor(user), holding_id=holding.id)
        assert ch.get(actor=actor(user), holding_id=holding.id)["name"] == "Art"
    for user in (w.stranger, w.other_adviser, w.other_client):
        with pytest.raises(NotFound, match="Custom holding not found"):
            ch.update(actor=actor(user), holding_id=holding.id, data={"value": "1"})
        with pytest.raises(NotFound, match="Custom holding not found"):
            ch.delete(actor=actor(user), holding_id=holding.id)
        with pytest.raises(NotFound):
            ch.list_for_portfolio(actor=actor(user), portfolio_id=w.portfolio.id)
    assert [r.value for r in _rows(w.portfolio.id)] == [D("1000.00")]
    # staff of the firm and the superuser write
    for user in (w.admin, w.adviser, w.superuser):
        ch.update(actor=actor(user), holding_id=holding.id, data={"value": "7"})
    # the portfolio id in an update body cannot move the holding
    ch.update(actor=actor(w.adviser), holding_id=holding.id, data={"investment_id": w.other_portfolio.id, "value": "8"})
    assert _rows(w.portfolio.id)[0].value == D("8.00")
