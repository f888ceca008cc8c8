"""A portfolio's broker credentials (spec 002 s2 widgets: Macquarie authorisation code, password and
code expiry date).

The code and the password are stored encrypted (Fernet: AES-128-CBC with an HMAC) with the key of
the BROKER_CREDENTIALS_KEY setting; without one, a key is made on first use and kept in
DATA_DIR/broker_credentials.key (readable by its owner only). They are never answered over REST or
shown on a screen after saving: readers get "saved" or "not set" and the expiry date. Every change
is audited without the values. Staff of the portfolio's firm (superusers: every firm) read and
change them; clients may not.

`for_broker` (internal, never exposed) gives the clear values to the code that talks to the broker.
"""
from __future__ import annotations

import base64
import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from sqlmodel import Session

from app.db.engine import session_scope
from app.db.tables import Portfolio
from app.db.types import stored_id, utcnow
from app.domain import broker_credentials as rules
from app.domain.errors import INVALID_FORM, ValidationError
from app.domain.permissions import Actor, require_staff
from app.services import audit
from app.services.tenancy import load_portfolio
from app.settings import settings

if TYPE_CHECKING:
    from cryptography.fernet import Fernet

SAVED_MESSAGE = "Broker credentials are saved"
REMOVED_MESSAGE = "Broker credentials are removed"
KEY_FILE = "broker_credentials.key"
BAD_KEY = "BROKER_CREDENTIALS_KEY is not a Fernet key (32 url-safe base64-encoded bytes)"
UNREADABLE = "The saved broker credentials cannot be read with the configured key"


@dataclass(frozen=True)
class CredentialsUpdate:
    """What the form sends: an empty code or password keeps the saved one. (The REST body hands
    over what was sent, and clean_credentials answers a code or a password that is no text with
    the field's own error.)"""
    auth_code: str | None = None
    password: str | None = None
    code_expiry_date: str | dt.date | None = None


@dataclass(frozen=True)
class CredentialsStatus:
    """What a reader may know of a portfolio's credentials: never the code or the password."""
    investment_id: int
    auth_code: str          # "saved" | "not set"
    password: str           # "saved" | "not set"
    code_expiry_date: dt.date | None
    expired: bool
    updated_at: dt.datetime | None
    message: str | None = None


@dataclass(frozen=True)
class BrokerLogin:
    """The clear credentials, for the broker connection only."""
    auth_code: str
    password: str
    code_expiry_date: dt.date | None


# ---- the key --------------------------------------------------------------------------------------
def _key() -> bytes:
    configured = settings.broker_credentials_key.strip()
    if configured:
        return configured.encode()
    path = Path(settings.data_dir) / KEY_FILE
    if not path.exists():
        from cryptography.fernet import Fernet

        path.parent.mkdir(parents=True, exist_ok=True)
        try:  # made once, by whichever process is first; owner-only
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(Fernet.generate_key())
    return path.read_bytes().strip()


def _fernet() -> Fernet:
    from cryptography.fernet import Fernet

    key = _key()
    try:
        if len(base64.urlsafe_b64decode(key)) != 32:
            raise ValueError(BAD_KEY)
        return Fernet(key)
    except (ValueError, TypeError) as exc:
        raise RuntimeError(BAD_KEY) from exc


def _seal(text: str) -> str:
    return _fernet().encrypt(text.encode("utf-8")).decode("ascii")


def _open(token: str) -> str:
    from cryptography.fernet import InvalidToken

    try:
        return _fernet().decrypt(token.encode("ascii")).decode("utf-8")
    except InvalidToken as exc:
        raise RuntimeError(UNREADABLE) from exc


# ---- reading and writing --------------------------------------------------------------------------
def _status(p: Portfolio, message: str | None = None) -> CredentialsStatus:
    return CredentialsStatus(
        investment_id=stored_id(p), auth_code=rules.SAVED if p.broker_auth_code_secret else rules.NOT_SET,
        password=rules.SAVED if p.broker_auth_pass_secret else rules.NOT_SET,
        code_expiry_date=p.broker_code_expiry_date,
        expired=rules.is_expired(p.broker_code_expiry_date, utcnow().date()),
        updated_at=p.broker_credentials_updated_at, message=message)


def credentials_status(*, actor: Actor, investment_id: int) -> CredentialsStatus:
    require_staff(actor)
    with session_scope() as s:
        return _status(load_portfolio(s, actor, investment_id, for_edit=True))


def _audit(s: Session, actor: Actor, p: Portfolio, action: str, after: Mapping[str, object]) -> None:
    audit.record(s, actor, action, "portfolio", p.id, label=p.name, firm_id=p.firm_id, after=after)


def save_credentials(*, actor: Actor, investment_id: int, update: CredentialsUpdate) -> CredentialsStatus:
    """Save the form: a new code and password are encrypted, an empty one keeps the saved one;
    audited as which parts changed and the expiry date, never the values."""
    require_staff(actor)
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id, for_edit=True, lock=True)
        change, errors = rules.clean_credentials(
            auth_code=update.auth_code, password=update.password, code_expiry_date=update.code_expiry_date,
            has_code=bool(p.broker_auth_code_secret), has_password=bool(p.broker_auth_pass_secret))
        if not errors.ok:
            raise ValidationError(INVALID_FORM, errors)
        changed: dict[str, object] = {}
        if change.auth_code is not None:
            p.broker_auth_code_secret = _seal(change.auth_code)
            changed["authorisation code"] = "changed"
        if change.password is not None:
            p.broker_auth_pass_secret = _seal(change.password)
            changed["password"] = "changed"
        if change.code_expiry_date != p.broker_code_expiry_date:
            changed["code expiry date"] = change.code_expiry_date
            p.broker_code_expiry_date = change.code_expiry_date
        if changed:
            p.broker_credentials_updated_at = utcnow()
            s.add(p)
            s.flush()
            _audit(s, actor, p, "portfolio.broker_credentials_changed", changed)
        return _status(p, SAVED_MESSAGE)


def remove_credentials(*, actor: Actor, investment_id: int) -> CredentialsStatus:
    require_staff(actor)
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id, for_edit=True, lock=True)
        if p.broker_auth_code_secret or p.broker_auth_pass_secret or p.broker_code_expiry_date:
            p.broker_auth_code_secret = p.broker_auth_pass_secret = None
            p.broker_code_expiry_date = None
            p.broker_credentials_updated_at = utcnow()
            s.add(p)
            s.flush()
            _audit(s, actor, p, "portfolio.broker_credentials_removed", {"broker credentials": "removed"})
        return _status(p, REMOVED_MESSAGE)


def for_broker(s: Session, portfolio: Portfolio) -> BrokerLogin | None:
    """The clear credentials of a portfolio, for the broker connection (never for a reader); None
    when they are not complete."""
    if not (portfolio.broker_auth_code_secret and portfolio.broker_auth_pass_secret):
        return None
    return BrokerLogin(auth_code=_open(portfolio.broker_auth_code_secret),
                       password=_open(portfolio.broker_auth_pass_secret),
                       code_expiry_date=portfolio.broker_code_expiry_date)
