from __future__ import annotations

from enum import Enum


class Role(str, Enum):
    SUPERUSER = "superuser"
    ADMINISTRATOR = "administrator"
    ADVISER = "adviser"
    CLIENT = "client"

    @property
    def title(self) -> str:
        return ROLE_TITLES[self]


ROLE_TITLES = {
    Role.SUPERUSER: "Superuser",
    Role.ADMINISTRATOR: "Administrator",
    Role.ADVISER: "Adviser",
    Role.CLIENT: "Client",
}


class UserStatus(str, Enum):
    ACTIVE = "active"
    DISABLED = "disabled"
    DELETED = "deleted"

    @property
    def title(self) -> str:
        return self.value.capitalize()


class TokenPurpose(str, Enum):
    ACTIVATION = "activation"
    RECOVERY = "recovery"
    EMAIL_CHANGE = "email_change"
