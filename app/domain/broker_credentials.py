"""The broker credentials form (spec 002 s2 widgets, s3: macquarieAuthCode, macquarieAuthPass,
macquarieCodeExpiryDate): the rules of a save, without the secret ever leaving it.

A save sends what changes: an empty code or password keeps the saved one (the form never shows
them again, only "saved" or "not set"). A save leaves complete credentials: a code, a password and
the code's expiry date; removing them is its own action.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from app.domain import validators as v

SAVED, NOT_SET = "saved", "not set"  # what the form shows of a secret
CODE, PASSWORD, EXPIRY = "macquarieAuthCode", "macquarieAuthPass", "macquarieCodeExpiryDate"
LABELS = {CODE: "Macquarie authorisation code", PASSWORD: "Macquarie password", EXPIRY: "code expiry date"}
CODE_MAX, PASSWORD_MAX = 100, 200


@dataclass(frozen=True)
class CredentialsChange:
    """A checked save: the new code and password (None: keep the saved one) and the expiry date."""
    auth_code: str | None
    password: str | None
    code_expiry_date: dt.date | None


def _secret(value: Any) -> tuple[str | None, str | None]:
    """(the text, None) or (None, DEFAULT) for a value that is not text. Surrounding spaces of a
    code are not part of it; a password is taken as typed."""
    if value is None:
        return None, None
    if not isinstance(value, str):
        return None, v.DEFAULT
    return (value if value.strip() else None), None


def clean_credentials(*, auth_code: Any, password: Any, code_expiry_date: Any, has_code: bool,
                      has_password: bool) -> tuple[CredentialsChange, v.FieldErrors]:
    """The save's values and its field errors (the specification's texts), given whether a code and
    a password are saved already."""
    errors = v.FieldErrors()
    code, problem = _secret(auth_code)
    errors.check(CODE, problem)
    code = code.strip() if code else None
    secret, problem = _secret(password)
    errors.check(PASSWORD, problem)
    errors.check(CODE, v.max_length(code, CODE_MAX))
    errors.check(PASSWORD, v.max_length(secret, PASSWORD_MAX))

    expiry: dt.date | None = None
    if isinstance(code_expiry_date, (dt.date, str)) or code_expiry_date is None:
        errors.check(EXPIRY, v.date(code_expiry_date))
        expiry = v.parse_date(code_expiry_date) if not v.is_empty(code_expiry_date) else None
    else:
        errors.check(EXPIRY, v.DATE)

    # a save leaves complete credentials (removing them is its own action)
    errors.check(CODE, v.required(code or (SAVED if has_code else None), LABELS[CODE]))
    errors.check(PASSWORD, v.required(secret or (SAVED if has_password else None), LABELS[PASSWORD]))
    errors.check(EXPIRY, v.required(expiry, LABELS[EXPIRY]))
    return CredentialsChange(auth_code=code, password=secret, code_expiry_date=expiry), errors


def is_expired(expiry: dt.date | None, today: dt.date) -> bool:
    """The code no longer works after its expiry date."""
    return expiry is not None and expiry < today
