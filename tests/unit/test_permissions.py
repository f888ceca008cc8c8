"""The role rules of app.domain.permissions, as a matrix."""
from __future__ import annotations

import pytest

from app.domain import permissions as p
from app.domain.errors import PermissionDenied
from app.domain.permissions import Actor
from app.domain.roles import Role
from tests.factories import actor

SU, ADMIN, ADVISER, CLIENT = Role.SUPERUSER, Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT
OWN, OTHER = 1, 2


def test_actor_basics():
    a = actor(SU)
    assert a.is_superuser and a.firm_id is None and a.name == "Ann Example"
    assert not actor(ADMIN).is_superuser
    assert Actor(id=1, role=CLIENT, firm_id=1, email="x@y.z").name == ""


def test_require():
    p.require(True)
    with pytest.raises(PermissionDenied) as err:
        p.require(False)
    assert err.value.message == "You are not allowed to perform this action" and err.value.status == 403
    with pytest.raises(PermissionDenied) as err:
        p.require(False, "Custom")
    assert err.value.message == "Custom"


@pytest.mark.parametrize(
    "role, own, other, none",
    [(SU, True, True, True), (ADMIN, True, False, False), (ADVISER, True, False, False), (CLIENT, True, False, False)],
)
def test_in_firm(role, own, other, none):
    a = actor(role)
    assert (p.in_firm(a, OWN), p.in_firm(a, OTHER), p.in_firm(a, None)) == (own, other, none)


def test_in_firm_without_a_firm_sees_nothing():
    orphan = Actor(id=5, role=ADMIN, firm_id=None, email="o@example.com")
    assert not p.in_firm(orphan, None) and not p.in_firm(orphan, OWN)


# role: (list, create, delete, view own, view other, edit own, edit other)
FIRM_MATRIX = {
    SU: (True, True, True, True, True, True, True),
    ADMIN: (True, False, False, True, False, True, False),
    ADVISER: (True, False, False, True, False, False, False),
    CLIENT: (False, False, False, True, False, False, False),
}


@pytest.mark.parametrize("role", list(Role))
def test_firm_permissions(role):
    a = actor(role)
    got = (p.can_list_firms(a), p.can_create_firm(a), p.can_delete_firm(a), p.can_view_firm(a, OWN), p.can_view_firm(a, OTHER),
           p.can_edit_firm(a, OWN), p.can_edit_firm(a, OTHER))
    assert got == FIRM_MATRIX[role]


def test_role_sets():
    assert p.creatable_roles(actor(SU)) == frozenset(Role)
    assert p.creatable_roles(actor(ADMIN)) == {ADMIN, ADVISER, CLIENT}
    assert p.creatable_roles(actor(ADVISER)) == {CLIENT}
    assert p.creatable_roles(actor(CLIENT)) == frozenset()
    assert p.visible_roles(actor(SU)) == frozenset(Role)
    assert p.visible_roles(actor(ADMIN)) == {ADMIN, ADVISER, CLIENT}
    assert p.visible_roles(actor(ADVISER)) == {ADMIN, ADVISER, CLIENT}
    assert p.visible_roles(actor(CLIENT)) == frozenset()
    assert [r for r in Role if p.can_list_users(actor(r))] == [SU, ADMIN, ADVISER]
    assert [r for r in Role if p.can_choose_firm(actor(r))] == [SU]
    assert [r for r in Role if p.can_read_outbox(actor(r))] == [SU]


# (actor role, target role) -> (view, edit, delete) for a target in the actor's own firm
SAME_FIRM = {
    (SU, SU): (True, True, True), (SU, ADMIN): (True, True, True), (SU, ADVISER): (True, True, True), (SU, CLIENT): (True, True, True),
    (ADMIN, SU): (False, False, False), (ADMIN, ADMIN): (True, True, True), (ADMIN, ADVISER): (True, True, False),
    (ADMIN, CLIENT): (True, True, True),
    (ADVISER, SU): (False, False, False), (ADVISER, ADMIN): (True, False, False), (ADVISER, ADVISER): (True, False, False),
    (ADVISER, CLIENT): (True, True, True),
    (CLIENT, SU): (False, False, False), (CLIENT, ADMIN): (False, False, False), (CLIENT, ADVISER): (False, False, False),
    (CLIENT, CLIENT): (False, False, False),
}


@pytest.mark.parametrize("pair", sorted(SAME_FIRM, key=lambda k: (k[0].value, k[1].value)))
def test_user_permissions_in_the_own_firm(pair):
    actor_role, target_role = pair
    a = actor(actor_role)
    firm = None if target_role is SU else OWN
    got = (p.can_view_user(a, target_role, firm, 7), p.can_edit_user(a, target_role, firm, 7), p.can_delete_user(a, target_role, firm, 7))
    assert got == SAME_FIRM[pair]


@pytest.mark.parametrize("actor_role", [ADMIN, ADVISER, CLIENT])
@pytest.mark.parametrize("target_role", [ADMIN, ADVISER, CLIENT])
def test_nobody_but_the_superuser_reaches_another_firm(actor_role, target_role):
    a = actor(actor_role)
    assert not p.can_view_user(a, target_role, OTHER, 7)
    assert not p.can_edit_user(a, target_role, OTHER, 7)
    assert not p.can_delete_user(a, target_role, OTHER, 7)
    su = actor(SU)
    assert p.can_view_user(su, target_role, OTHER, 7) and p.can_edit_user(su, target_role, OTHER, 7)


@pytest.mark.parametrize("role", list(Role))
def test_everyone_sees_and_edits_themselves_but_never_deletes_themselves(role):
    a = actor(role, user_id=42)
    firm = a.firm_id
    assert p.can_view_user(a, role, firm, 42)
    assert p.can_edit_user(a, role, firm, 42)
    assert not p.can_delete_user(a, role, firm, 42)


def test_home_routes():
    assert p.home_route(SU) == "dashboard"
    assert p.home_route(ADMIN) == "dashboard"
    assert p.home_route(ADVISER) == "dashboard"
    assert p.home_route(CLIENT) == "portfolios.me"
    from app.ui import routes

    for role in Role:
        assert p.home_route(role) in routes.ROUTES
