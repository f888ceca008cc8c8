"""Single-use e-mailed tokens (activation, recovery, e-mail change) and the mails that carry them."""
from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from app.db.tables import ActionToken, User
from app.db.types import stored_id, utcnow
from app.domain.errors import ValidationError
from app.domain.roles import TokenPurpose, UserStatus
from app.services import mail
from app.services.security import new_token, token_digest
from app.settings import settings

_LIFETIME = {
    TokenPurpose.ACTIVATION: lambda: timedelta(hours=settings.activation_token_hours),
    TokenPurpose.RECOVERY: lambda: timedelta(minutes=settings.recovery_token_minutes),
    TokenPurpose.EMAIL_CHANGE: lambda: timedelta(hours=settings.email_change_token_hours),
}


def issue(session: Session, user: User, purpose: TokenPurpose, new_email: str | None = None) -> str:
    """A fresh token; earlier unused tokens of the same purpose for this user stop working."""
    now = utcnow()
    for old in session.exec(
        select(ActionToken).where(ActionToken.user_id == user.id, ActionToken.purpose == purpose.value,
                                  col(ActionToken.used_at).is_(None))
    ):
        old.used_at = now
        session.add(old)
    token = new_token()
    session.add(
        ActionToken(token_hash=token_digest(token), purpose=purpose.value, user_id=stored_id(user), new_email=new_email,
                    expires_at=now + _LIFETIME[purpose]())
    )
    return token


def find_valid(session: Session, token: str, purpose: TokenPurpose, invalid_text: str) -> ActionToken:
    row = session.exec(select(ActionToken).where(ActionToken.token_hash == token_digest(token or ""))).first()
    if row is None or row.purpose != purpose.value or row.used_at is not None or row.expires_at <= utcnow():
        raise ValidationError(invalid_text)
    user = session.get(User, row.user_id)
    if user is None or user.status == UserStatus.DELETED.value:  # a deleted user is read-only
        raise ValidationError(invalid_text)
    return row


def user_of(session: Session, row: ActionToken) -> User:
    """The user a valid link (`find_valid`) was sent to."""
    user = session.get(User, row.user_id)
    if user is None:  # find_valid has read them; a user row is never deleted
        raise RuntimeError(f"the user {row.user_id} of a link is gone")
    return user


def consume(session: Session, row: ActionToken) -> None:
    row.used_at = utcnow()
    session.add(row)


def _link(path: str) -> str:
    return settings.public_url.rstrip("/") + path


def _mail_link(session: Session, user: User, purpose: TokenPurpose, path: str, *, subject: str, intro: str,
               after: str, new_email: str | None = None) -> None:
    """Issue a token for `purpose` and mail its link (`path` + token): the greeting, `intro`, the link,
    then `after`. An e-mail change goes to the new address, the others to the user's."""
    token = issue(session, user, purpose, new_email=new_email)
    mail.queue(
        session,
        to=new_email or user.email,
        subject=subject,
        body=f"Hello {user.first_name},\n\n{intro}\n{_link(path + token)}\n\n{after}\n",
    )


def send_activation(session: Session, user: User) -> None:
    _mail_link(
        session, user, TokenPurpose.ACTIVATION, "/activation/",
        subject="Activate your Wealth Advice account",
        intro="An account has been created for you. Set your password to activate it:",
        after=f"The link works once and expires in {settings.activation_token_hours // 24} days.",
    )


def send_recovery(session: Session, user: User) -> None:
    _mail_link(
        session, user, TokenPurpose.RECOVERY, "/reset-password/",
        subject="Reset your Wealth Advice password",
        intro="We received a request to reset your password. Choose a new one here:",
        after=(f"The link works once and expires in {settings.recovery_token_minutes} minutes. "
               "If you did not ask for this, ignore this e-mail."),
    )


def send_email_change(session: Session, user: User, new_email: str) -> None:
    _mail_link(
        session, user, TokenPurpose.EMAIL_CHANGE, "/email-change/", new_email=new_email,
        subject="Confirm your new e-mail address",
        intro=f"Confirm that {new_email} is your new sign-in e-mail:",
        after=f"Until you confirm, you keep signing in with {user.email}.",
    )
