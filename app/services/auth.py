"""Sign-in, sessions, activation, password recovery and reset, e-mail change."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import NamedTuple

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import DownloadTicket, Firm, SessionToken, SigninFailure, User
from app.db.types import stored_id, utcnow
from app.domain import auth_rules as rules
from app.domain import validators as v
from app.domain.errors import AuthenticationError, TooManyRequests, ValidationError
from app.domain.errors import INVALID_FORM
from app.domain.permissions import Actor
from app.domain.roles import Role, TokenPurpose, UserStatus
from app.domain.users import clean_new_password
from app.domain.wire import only_when_set
from app.services import audit, tokens
from app.services.security import hash_password, new_token, token_digest, verify_password
from app.settings import settings


class SignedIn(NamedTuple):
    """A sign-in: the session token (sent back as the x-token header) and the user, as stored."""
    token: str
    user: User


@dataclass(frozen=True)
class LinkOwner:
    """Whose e-mailed link it is: the e-mail (the new one for an e-mail change) and, on an
    activation link, the first name."""
    email: str
    first_name: str | None = field(default=None, metadata=only_when_set())


@dataclass(frozen=True)
class RecoverySent:
    """The answer to a recovery request, the same whether or not the address has an account."""
    webmail: str | None  # the web mail of the address's provider, where known


def actor_of(user: User) -> Actor:
    return Actor(id=stored_id(user), role=Role(user.role), firm_id=user.firm_id, email=user.email,
                 first_name=user.first_name, last_name=user.last_name)


def _may_sign_in(session: Session, user: User) -> bool:
    return _active(user, session.get(Firm, user.firm_id) if user.firm_id is not None else None)


def _active(user: User, firm: Firm | None) -> bool:
    """An active user of a firm that is not deleted (a superuser has none)."""
    if user.status != UserStatus.ACTIVE.value:
        return False
    return user.firm_id is None or (firm is not None and firm.deleted_at is None)


# ---- sign-in and sessions ---------------------------------------------------------------------
def signin(*, email: str | None, password: str | None, ip: str | None = None) -> SignedIn:
    """The session token and the user (None: the field was left out). Failures are counted per
    e-mail and throttled."""
    email = (email or "").strip().lower()
    password = password or ""
    if v.is_empty(email) or v.email(email) or not password:
        raise AuthenticationError(rules.SIGNIN_FAILED)
    window_start = utcnow() - timedelta(minutes=settings.signin_lockout_minutes)
    with session_scope() as s:
        failures = s.exec(
            select(func.count()).select_from(SigninFailure).where(SigninFailure.email == email, SigninFailure.created_at > window_start)
        ).one()
        if failures >= settings.signin_max_failures:
            raise TooManyRequests(rules.SIGNIN_THROTTLED.format(minutes=settings.signin_lockout_minutes))
        user = s.exec(select(User).where(User.email == email)).first()
        # Always spend a password hash, so unknown and deleted accounts answer no faster (no discovery by timing).
        password_ok = verify_password(user.password_hash if user is not None else None, password)
        if user is None or user.status == UserStatus.DELETED.value or not password_ok:
            s.add(SigninFailure(email=email, ip=ip))
            audit.record(s, None, "signin.failed", "session", user.id if user is not None else None, actor_email=email,
                         firm_id=user.firm_id if user is not None else None, label=email)
            s.commit()
            raise AuthenticationError(rules.SIGNIN_FAILED)
        if not _may_sign_in(s, user):
            audit.record(s, None, "signin.failed", "session", user.id, actor_email=email, firm_id=user.firm_id,
                         label=email, after={"reason": "account disabled"})
            s.commit()
            raise AuthenticationError(rules.ACCOUNT_DISABLED)
        token = new_token()
        now = utcnow()
        s.add(SessionToken(token_hash=token_digest(token), user_id=stored_id(user), expires_at=now + timedelta(hours=settings.session_token_hours)))
        user.logined_at = now
        s.add(user)
        audit.record(s, actor_of(user), "signin", "session", user.id, firm_id=user.firm_id, label=email)
        # a successful sign-in clears the failure count for this e-mail
        for row in s.exec(select(SigninFailure).where(SigninFailure.email == email)):
            s.delete(row)
        s.flush()
        s.refresh(user)
        return SignedIn(token, user)


def signout(*, token: str) -> None:
    with session_scope() as s:
        row = s.exec(select(SessionToken).where(SessionToken.token_hash == token_digest(token or ""))).first()
        if row is not None and row.revoked_at is None:
            row.revoked_at = utcnow()
            s.add(row)
            user = s.get(User, row.user_id)
            if user is not None:
                audit.record(s, actor_of(user), "signout", "session", user.id, firm_id=user.firm_id, label=user.email)


def revoke_sessions(session: Session, user_id: int) -> None:
    now = utcnow()
    for row in session.exec(select(SessionToken).where(SessionToken.user_id == user_id, col(SessionToken.revoked_at).is_(None))):
        row.revoked_at = now
        session.add(row)


# A session's last use is written at most once a minute (not on every click); the idle lifetime
# is measured in minutes, so this costs it nothing.
LAST_SEEN_RESOLUTION = timedelta(seconds=60)


def _live_session(s: Session, token: str | None) -> tuple[SessionToken, User]:
    """The session row and user of a session token that is neither revoked, past its absolute or
    idle lifetime, nor of a user who may no longer sign in (else SESSION_EXPIRED)."""
    if not token:
        raise AuthenticationError(rules.SESSION_EXPIRED)
    # the user's firm in the same query: every screen event and API call starts here
    row = s.exec(
        select(SessionToken, User, Firm).join(User, col(User.id) == SessionToken.user_id)
        .outerjoin(Firm, col(Firm.id) == User.firm_id).where(SessionToken.token_hash == token_digest(token))
    ).first()
    if row is None:
        raise AuthenticationError(rules.SESSION_EXPIRED)
    session_token, user, firm = row
    now = utcnow()
    seen = session_token.last_seen_at or session_token.created_at
    if (session_token.revoked_at is not None or session_token.expires_at <= now
            or seen + timedelta(minutes=settings.session_idle_minutes) <= now or not _active(user, firm)):
        raise AuthenticationError(rules.SESSION_EXPIRED)
    if now - seen >= LAST_SEEN_RESOLUTION:
        s.execute(update(SessionToken).where(col(SessionToken.id) == session_token.id).values(last_seen_at=now))
    return session_token, user


def authenticate(token: str | None) -> Actor:
    """The actor behind a session token; AuthenticationError when missing, expired (absolute or
    idle lifetime), revoked or disabled. Each use keeps the session alive."""
    with session_scope() as s:
        _, user = _live_session(s, token)
        return actor_of(user)


# ---- download links -----------------------------------------------------------------------------
def issue_download_ticket(*, token: str | None, path: str) -> str:
    """A ticket for one download of `path` (an /api path, without its query): the link carries it
    as its `token`, so the session token itself never travels in a URL (browser history, proxy
    and server logs). It works once, for DOWNLOAD_TICKET_SECONDS, while the session lasts."""
    path = str(path or "").split("?", 1)[0]
    if not path.startswith("/api/") or len(path) > 400:
        raise ValidationError("Unknown download")
    with session_scope() as s:
        session_token, _ = _live_session(s, token)
        ticket = new_token()
        s.add(DownloadTicket(token_hash=token_digest(ticket), session_token_id=stored_id(session_token), path=path,
                             expires_at=utcnow() + timedelta(seconds=settings.download_ticket_seconds)))
        return ticket


def redeem_download_ticket(ticket: str | None, path: str) -> Actor:
    """The actor of a download ticket for `path`, spending the ticket (a second use, another path,
    an expired ticket or an ended session: SESSION_EXPIRED)."""
    if not ticket:
        raise AuthenticationError(rules.SESSION_EXPIRED)
    with session_scope() as s:
        now = utcnow()
        spent = s.execute(
            update(DownloadTicket)
            .where(col(DownloadTicket.token_hash) == token_digest(ticket), col(DownloadTicket.used_at).is_(None),
                   col(DownloadTicket.expires_at) > now, col(DownloadTicket.path) == str(path or ""))
            .values(used_at=now)
            .returning(col(DownloadTicket.session_token_id))
        ).first()
        if spent is None:
            raise AuthenticationError(rules.SESSION_EXPIRED)
        session_token = s.get(SessionToken, spent[0])
        user = s.get(User, session_token.user_id) if session_token is not None else None
        if (session_token is None or user is None or session_token.revoked_at is not None
                or session_token.expires_at <= now or not _may_sign_in(s, user)):
            raise AuthenticationError(rules.SESSION_EXPIRED)
        return actor_of(user)


# ---- activation -------------------------------------------------------------------------------
def check_activation_token(*, token: str) -> LinkOwner:
    with session_scope() as s:
        user = tokens.user_of(s, tokens.find_valid(s, token, TokenPurpose.ACTIVATION, rules.ACTIVATION_LINK_INVALID))
        return LinkOwner(email=user.email, first_name=user.first_name)


def _require_new_password(password: str | None, rpt_password: str | None) -> None:
    errors = clean_new_password(password, rpt_password)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, errors)


def _set_password_by_link(s: Session, token: str, purpose: TokenPurpose, invalid_link: str, password: str | None,
                          by: str) -> User:
    """Set the password of the user a valid e-mailed link (`token`) was sent to, record it and use
    the link up; the link's user."""
    row = tokens.find_valid(s, token, purpose, invalid_link)
    user = tokens.user_of(s, row)
    user.password_hash = hash_password(str(password))
    user.updated_at = utcnow()
    s.add(user)
    audit.record(s, actor_of(user), "password.changed", "user", user.id, firm_id=user.firm_id,
                 label=user.email, after={"by": by})
    tokens.consume(s, row)
    return user


def activate(*, token: str, password: str | None, rpt_password: str | None) -> None:
    _require_new_password(password, rpt_password)
    with session_scope() as s:
        user = _set_password_by_link(s, token, TokenPurpose.ACTIVATION, rules.ACTIVATION_LINK_INVALID, password,
                                     by="activation link")
        user.activated_at = user.activated_at or utcnow()


# ---- recovery and reset -------------------------------------------------------------------------
def request_recovery(*, email: str | None) -> RecoverySent:
    """Mails a reset link when the address belongs to an active account. The answer is the same
    either way (no account discovery): the webmail link for the address's provider, if known."""
    email = (email or "").strip().lower()
    error = v.required(email, "email") or v.email(email)
    if error:
        raise ValidationError(error, {"email": error})
    with session_scope() as s:
        user = s.exec(select(User).where(User.email == email)).first()
        if user is not None and _may_sign_in(s, user):
            tokens.send_recovery(s, user)
    return RecoverySent(webmail=rules.webmail_url(email))


def check_recovery_token(*, token: str) -> LinkOwner:
    with session_scope() as s:
        row = tokens.find_valid(s, token, TokenPurpose.RECOVERY, rules.RECOVERY_LINK_INVALID)
        return LinkOwner(email=tokens.user_of(s, row).email)


def reset_password(*, token: str, password: str | None, rpt_password: str | None) -> None:
    _require_new_password(password, rpt_password)
    with session_scope() as s:
        user = _set_password_by_link(s, token, TokenPurpose.RECOVERY, rules.RECOVERY_LINK_INVALID, password,
                                     by="recovery link")
        revoke_sessions(s, stored_id(user))  # a reset signs every other session out


# ---- e-mail change ------------------------------------------------------------------------------
def check_email_change_token(*, token: str) -> LinkOwner:
    with session_scope() as s:
        row = tokens.find_valid(s, token, TokenPurpose.EMAIL_CHANGE, rules.EMAIL_CHANGE_LINK_INVALID)
        return LinkOwner(email=row.new_email or "")


def confirm_email_change(*, token: str) -> str:
    with session_scope() as s:
        row = tokens.find_valid(s, token, TokenPurpose.EMAIL_CHANGE, rules.EMAIL_CHANGE_LINK_INVALID)
        taken = s.exec(select(User).where(User.email == row.new_email, User.id != row.user_id)).first()
        if taken is not None:
            raise ValidationError(v.UNIQUE.format(label="Email"), {"email": v.UNIQUE.format(label="Email")})
        user = tokens.user_of(s, row)
        audit.record(s, actor_of(user), "email.changed", "user", user.id, firm_id=user.firm_id, label=row.new_email,
                     before={"email": user.email}, after={"email": row.new_email})
        user.email = row.new_email or user.email
        user.updated_at = utcnow()
        user.version += 1
        s.add(user)
        tokens.consume(s, row)
    return rules.EMAIL_CHANGED
