from __future__ import annotations

from enum import Enum

from app.domain.titled import TitledEnum


class Role(TitledEnum):
    SUPERUSER = "superuser", "Superuser"
    ADMINISTRATOR = "administrator", "Administrator"
    ADVISER = "adviser", "Adviser"
    CLIENT = "client", "Client"


ROLE_TITLES = Role.titles()


class UserStatus(str, Enum):
    ACTIVE = "active"
    DISABLED = "disabled"
    DELETED = "deleted"

    @property
    def title(self) -> str:  # type: ignore[override]  # the status as shown, by design in place of str.title
        return self.value.capitalize()


class TokenPurpose(str, Enum):
    ACTIVATION = "activation"
    RECOVERY = "recovery"
    EMAIL_CHANGE = "email_change"
