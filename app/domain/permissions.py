"""Who may do what. Pure rules over the acting user; services call these before any read or write.

Tenancy is by firm: everyone but the superuser works inside their own firm.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.domain.errors import PermissionDenied
from app.domain.roles import Role

NOT_ALLOWED = "You are not allowed to perform this action"


@dataclass(frozen=True)
class Actor:
    """The signed-in user as services see it (resolved on the server from the session token)."""

    id: int
    role: Role
    firm_id: int | None
    email: str
    first_name: str = ""
    last_name: str = ""

    @property
    def is_superuser(self) -> bool:
        return self.role is Role.SUPERUSER

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


def require(condition: bool, message: str = NOT_ALLOWED) -> None:
    if not condition:
        raise PermissionDenied(message)


def in_firm(actor: Actor, firm_id: int | None) -> bool:
    """True when the actor may see data owned by firm_id."""
    return actor.is_superuser or (firm_id is not None and actor.firm_id == firm_id)


# ---- firms --------------------------------------------------------------------------------------
def can_list_firms(actor: Actor) -> bool:
    return actor.role in (Role.SUPERUSER, Role.ADMINISTRATOR, Role.ADVISER)


def can_create_firm(actor: Actor) -> bool:
    return actor.is_superuser


def can_delete_firm(actor: Actor) -> bool:
    return actor.is_superuser


def can_view_firm(actor: Actor, firm_id: int) -> bool:
    return in_firm(actor, firm_id)


def can_edit_firm(actor: Actor, firm_id: int) -> bool:
    return actor.is_superuser or (actor.role is Role.ADMINISTRATOR and actor.firm_id == firm_id)


# ---- users --------------------------------------------------------------------------------------
# Which roles each role may create and edit (inside its own firm, but the superuser).
_MANAGEABLE_ROLES: dict[Role, frozenset[Role]] = {
    Role.SUPERUSER: frozenset({Role.SUPERUSER, Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT}),
    Role.ADMINISTRATOR: frozenset({Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT}),
    Role.ADVISER: frozenset({Role.CLIENT}),
    Role.CLIENT: frozenset(),
}
# Which roles each role may see in user lists.
_VISIBLE_ROLES: dict[Role, frozenset[Role]] = {
    Role.SUPERUSER: frozenset(Role),
    Role.ADMINISTRATOR: frozenset({Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT}),
    Role.ADVISER: frozenset({Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT}),
    Role.CLIENT: frozenset(),
}
# Deleting: advisers are never deleted by advisers or administrators (spec: Delete hidden on advisers).
_DELETABLE_ROLES: dict[Role, frozenset[Role]] = {
    Role.SUPERUSER: frozenset({Role.SUPERUSER, Role.ADMINISTRATOR, Role.ADVISER, Role.CLIENT}),
    Role.ADMINISTRATOR: frozenset({Role.ADMINISTRATOR, Role.CLIENT}),
    Role.ADVISER: frozenset({Role.CLIENT}),
    Role.CLIENT: frozenset(),
}


def can_list_users(actor: Actor) -> bool:
    return actor.role is not Role.CLIENT


def visible_roles(actor: Actor) -> frozenset[Role]:
    return _VISIBLE_ROLES[actor.role]


def creatable_roles(actor: Actor) -> frozenset[Role]:
    return _MANAGEABLE_ROLES[actor.role]


def can_view_user(actor: Actor, role: Role, firm_id: int | None, user_id: int) -> bool:
    if user_id == actor.id:
        return True
    return role in _VISIBLE_ROLES[actor.role] and in_firm(actor, firm_id)


def can_edit_user(actor: Actor, role: Role, firm_id: int | None, user_id: int) -> bool:
    if user_id == actor.id:
        return True
    return role in _MANAGEABLE_ROLES[actor.role] and in_firm(actor, firm_id)


def can_delete_user(actor: Actor, role: Role, firm_id: int | None, user_id: int) -> bool:
    if user_id == actor.id:
        return False
    return role in _DELETABLE_ROLES[actor.role] and in_firm(actor, firm_id)


def can_choose_firm(actor: Actor) -> bool:
    """Only a superuser picks the firm of a user or record; others always act in their own firm."""
    return actor.is_superuser


def can_read_outbox(actor: Actor) -> bool:
    return actor.is_superuser


# ---- asset universe, industry groups, models ---------------------------------------------------
def is_staff(actor: Actor) -> bool:
    return actor.role is not Role.CLIENT


BULK_CALCULATORS = frozenset({Role.SUPERUSER, Role.ADVISER})  # the roles that may calculate (001 s6)


def can_bulk_calculate(actor: Actor) -> bool:
    """Bulk calculation of target portfolios and trade recommendations: superusers and advisers."""
    return actor.role in BULK_CALCULATORS


def require_staff(actor: Actor) -> None:
    """Clients are refused before anything is looked up (403, never 404)."""
    require(is_staff(actor))


def can_manage_universe(actor: Actor) -> bool:
    """The shared asset universe, prices and industry groups are kept by the superuser."""
    return actor.is_superuser


def can_create_model(actor: Actor) -> bool:
    return is_staff(actor)


def can_edit_model(actor: Actor, owner_firm_id: int) -> bool:
    """Edit, share, delete, View Clients: superusers or users whose firm owns the model (spec 000 s6)."""
    return actor.is_superuser or (is_staff(actor) and actor.firm_id == owner_firm_id)


# ---- home destinations ----------------------------------------------------------------------
# Route names (see app.ui.routes). Spec 002 s2: clients land on their own portfolios, the superuser
# on the clients list; advisers and administrators on their dashboard (work queues and drift).
HOME_ROUTE: dict[Role, str] = {
    Role.SUPERUSER: "dashboard",  # the dashboard of all firms; Clients stays first in the menu
    Role.ADMINISTRATOR: "dashboard",
    Role.ADVISER: "dashboard",
    Role.CLIENT: "portfolios.me",
}


def home_route(role: Role) -> str:
    return HOME_ROUTE[role]
