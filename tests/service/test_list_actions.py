"""Row actions of the models, firms and users lists (spec 000 s2, s6; 002 s2): the clients of a
model (models.clients, `GET /api/users?model_id=`), and View Clients only for advisers who have
portfolios. Rules in the services on a real database; the lists' rows on real state instances."""
from __future__ import annotations

import pytest
import reflex as rx

from app.domain.errors import NotFound, PermissionDenied
from app.domain.roles import Role
from app.services import auth, users
from app.ui import routes
from app.ui.states.firms import FirmsListState
from app.ui.states.models import ModelsListState
from app.ui.states.users import LIST_CONTEXTS, UsersState
from tests import factories as f
from tests.factories_models import make_model
from tests.factories_portfolios import make_portfolio


def _ids(rows):
    return {r.id for r in rows}


@pytest.fixture
def book(db):
    """Firm A's model M held by two of its clients (one through a deleted portfolio), another model
    held by a third; firm B's client holds a portfolio of M too (M is open to all)."""
    w = f.make_world()
    model = make_model(w.firm_a, availability="all")
    other = make_model(w.firm_a)
    holder = f.make_user(Role.CLIENT, w.firm_a, first_name="Holly", last_name="Holder")
    co_holder = f.make_user(Role.CLIENT, w.firm_a, first_name="Cole", last_name="Coholder")
    gone = f.make_user(Role.CLIENT, w.firm_a, first_name="Gina", last_name="Gone")
    make_portfolio(w.firm_a, holders=[holder, co_holder], owners=[holder], model=model)
    make_portfolio(w.firm_a, holders=[gone], model=model, deleted_at=f.at("2026-01-03"))
    make_portfolio(w.firm_a, holders=[w.client_a], model=other)
    make_portfolio(w.firm_b, holders=[w.client_b], model=model)
    return w, model, holder, co_holder


def test_clients_of_a_model_are_those_holding_a_live_portfolio_of_it(book):
    w, model, holder, co_holder = book
    found = users.list_users(actor=f.actor(w.admin_a), roles=["client"], model_id=model.id)
    rows, total = found.rows, found.total
    assert _ids(rows) == {holder.id, co_holder.id} and total == 2  # not the deleted portfolio's, nor firm B's
    found = users.list_users(actor=f.actor(w.superuser), roles=["client"], model_id=str(model.id))
    rows, total = found.rows, found.total
    assert _ids(rows) == {holder.id, co_holder.id, w.client_b.id} and total == 3
    found = users.list_users(actor=f.actor(w.adviser_a), roles=["client"], model_id=model.id, search="holly")
    rows = found.rows
    assert _ids(rows) == {holder.id}


def test_clients_of_a_model_are_the_owner_firms_and_the_superusers(book):
    w, model, _, _ = book
    with pytest.raises(PermissionDenied):  # firm B sees the model (open to all) but does not own it
        users.list_users(actor=f.actor(w.admin_b), model_id=model.id)
    hidden = make_model(w.firm_a)  # availability nobody: firm B does not even see it
    with pytest.raises(NotFound):
        users.list_users(actor=f.actor(w.admin_b), model_id=hidden.id)
    with pytest.raises(NotFound):
        users.list_users(actor=f.actor(w.admin_a), model_id="junk")


def test_api_users_honours_model_id(book):
    w, model, holder, co_holder = book
    client = f.api_client()
    result = f.ok_result(client.get("/api/users", params={"model_id": model.id, "role[]": "client"},
                                    headers=f.headers(w.adviser_a)))
    assert {r["id"] for r in result["rows"]} == {holder.id, co_holder.id}
    assert result["totals"][0]["count"] == 2
    assert "Permission" in f.failure(client.get("/api/users", params={"model_id": model.id},
                                                headers=f.headers(w.admin_b)), 403)["message"]


# ---- the lists' rows on real state instances -------------------------------------------------------------
def _screen(cls, user):
    """A screen's state signed in as `user` (on no route: the users list is the full one)."""
    root = rx.State(_reflex_internal_init=True)
    state = root.get_substate(cls.get_full_name().split(".")[1:])
    state.token, _ = auth.signin(email=user.email, password=f.PASSWORD)
    return state


def test_users_list_offers_view_clients_only_for_advisers_with_portfolios(db):
    w = f.make_world()
    idle = f.make_user(Role.ADVISER, w.firm_a, first_name="Ivy", last_name="Idle")
    make_portfolio(w.firm_a, holders=[w.client_a], adviser=w.adviser_a)
    state = _screen(UsersState, w.admin_a)
    state._load(state._actor())
    by_id = {r.id: r for r in state.rows}
    assert by_id[w.adviser_a.id].clients_url == routes.url("advisers.clients", id=w.adviser_a.id)
    assert by_id[idle.id].clients_url == ""  # no portfolios: no View Clients
    assert by_id[idle.id].open_url == routes.url("advisers.clients", id=idle.id)  # the row still opens the clients
    assert by_id[w.client_a.id].clients_url == ""


def test_models_clients_is_a_users_list_route():
    assert routes.match("/models/7/clients") == ("models.clients", {"id": "7"})
    assert LIST_CONTEXTS["models.clients"] == ("clients", Role.CLIENT.value)


def test_models_and_firms_rows_open_portfolios_and_clients(db):
    w = f.make_world()
    models_list = _screen(ModelsListState, w.admin_a)
    for name in ("models.portfolios", "models.clients"):
        event = type(models_list).event_handlers["open_row"].fn(models_list, name, 5)
        assert event is not None and routes.url(name, id=5) in repr(event)
    firms_list = _screen(FirmsListState, w.superuser)
    event = type(firms_list).event_handlers["open_row"].fn(firms_list, "firms.portfolios", 3)
    assert event is not None and routes.url("firms.portfolios", id=3) in repr(event)
