"""User and profile form rules (spec 002 s5)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, TypeVar

from app.domain import validators as v
from app.domain.roles import Role, UserStatus

USER_SORTS = ("name", "email", "role", "status", "firm", "created_at", "logined_at")
PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 100


@dataclass(frozen=True)
class PersonName:
    """Who acted on a record, as the records show them."""

    first_name: str
    last_name: str

    @property
    def full(self) -> str:
        return f"{self.first_name or ''} {self.last_name or ''}".strip()


def known_as(first: str | None, last: str | None, preferred: str | None = None) -> str:
    """A client as the portfolio screens, reports and files name them: the preferred name (else the
    first name) and the last name."""
    return f"{preferred or first or ''} {last or ''}".strip()


@dataclass(frozen=True)
class Person(PersonName):
    """A user a record names, with their id (the adviser and the clients of a record of advice)."""

    id: int


@dataclass(frozen=True)
class DecisionTrail:
    """Who took a target portfolio or trade recommendations version through its statuses, and
    when (the columns of db.tables.DecisionTrail, with the people named)."""

    created_at: datetime | None
    validated_at: datetime | None
    approved_at: datetime | None
    declined_at: datetime | None
    creator: PersonName | None
    validator: PersonName | None
    approver: PersonName | None
    decliner: PersonName | None
    moderator: PersonName | None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def clean_person(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """Name, e-mail and phone: the fields a user form and the profile share."""
    errors = v.FieldErrors()
    values = {
        "first_name": _text(data.get("first_name")),
        "last_name": _text(data.get("last_name")),
        "preferred_name": _text(data.get("preferred_name")),
        "phone": _text(data.get("phone")),
        "email": (_text(data.get("email")) or "").lower() or None,
    }
    errors.check("first_name", v.required(values["first_name"], "first name"), v.max_length(values["first_name"], 100))
    errors.check("last_name", v.required(values["last_name"], "last name"), v.max_length(values["last_name"], 100))
    errors.check("preferred_name", v.max_length(values["preferred_name"], 100))
    errors.check("phone", v.phone_with_brackets(values["phone"]), v.max_length(values["phone"], 40))
    errors.check("email", v.required(values["email"], "email"), v.email(values["email"]))
    return values, errors


def clean_ar_number(value: Any, role: Role | None, errors: v.FieldErrors) -> str | None:
    """An adviser's authorised representative number (digits, as ASIC issues it); other roles have none."""
    number = _text(value)
    if role is not Role.ADVISER:
        return None
    errors.check("ar_number", v.only_number(number), v.max_length(number, 40))
    return number


def parse_role(value: Any) -> Role | None:
    try:
        return Role(str(value)) if value else None
    except ValueError:
        return None


def parse_status(value: Any) -> UserStatus | None:
    try:
        return UserStatus(str(value).lower()) if value else None
    except ValueError:
        return None


def clean_new_password(password: Any, repeat: Any) -> v.FieldErrors:
    """A new password with its repetition (activation, reset, profile)."""
    errors = v.FieldErrors()
    errors.check("password", v.required(password, "password"), v.password(password))
    errors.check("rptPassword", v.repeat_password(password, repeat))
    return errors


# ---- the forms as read at the edge (the API's bodies, the screens' handlers) -----------------------
PERSON_FIELDS = ("first_name", "last_name", "preferred_name", "phone", "email")


@dataclass(frozen=True)
class UserForm:
    """A user form as sent (create, edit): each field the text that was sent, None when left out
    or sent empty of meaning; ids read as numbers (None when not sent or naming nothing). `sent`
    names the fields the form carried: on an edit, a field left out keeps the saved value."""

    first_name: str | None = None
    last_name: str | None = None
    preferred_name: str | None = None
    email: str | None = None
    phone: str | None = None
    ar_number: str | None = None  # an adviser's authorised representative number
    role: str | None = None
    status: str | None = None
    firm_id: int | None = None
    adviser_id: int | None = None
    address: Mapping[str, Any] | None = None  # the address form ({propertyName, ...}); None: left out
    photo_removed: bool = False
    signature_removed: bool = False
    version: str | None = None  # the version the form was read at, as sent (compared as text)
    sent: frozenset[str] = frozenset()

    def has(self, name: str) -> bool:
        return name in self.sent

    def person(self, names: tuple[str, ...] = PERSON_FIELDS) -> dict[str, str | None]:
        """The sent fields among `names` (name, e-mail and phone), as clean_person reads them."""
        return {name: getattr(self, name) for name in names if name in self.sent}

    def removals(self) -> dict[str, bool]:
        """The image removal flags by the form's names (files.unlink_flagged reads them)."""
        return {"isPhotoRemoved": self.photo_removed, "isSignatureRemoved": self.signature_removed}


@dataclass(frozen=True)
class ProfileForm(UserForm):
    """The profile form: a user form with the password change (old, new, repeated)."""

    old_password: str | None = None
    password: str | None = None
    rpt_password: str | None = None


_FORM_NAMES = {"isPhotoRemoved": "photo_removed", "isSignatureRemoved": "signature_removed",
               "oldPassword": "old_password", "rptPassword": "rpt_password"}


def read_user_form(data: Mapping[str, Any]) -> UserForm:
    """A sent user form (by the payload's names): texts as text, ids as numbers, flags as truth."""
    return _read(data, UserForm)


def read_profile_form(data: Mapping[str, Any]) -> ProfileForm:
    """A sent profile form, read as read_user_form reads a user form, with its passwords."""
    return _read(data, ProfileForm)


Form = TypeVar("Form", bound=UserForm)


def _read(data: Mapping[str, Any], kind: type[Form]) -> Form:
    from dataclasses import fields

    from app.domain.parsing import as_id

    names = {f.name for f in fields(kind)} - {"sent"}
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = _FORM_NAMES.get(key, key)
        if name not in names:
            continue
        if name in ("firm_id", "adviser_id"):
            values[name] = as_id(value)
        elif name in ("photo_removed", "signature_removed"):
            values[name] = bool(value)
        elif name == "address":
            values[name] = value if isinstance(value, Mapping) else None
        else:
            values[name] = None if value is None else str(value)
    return kind(**values, sent=frozenset(values))
