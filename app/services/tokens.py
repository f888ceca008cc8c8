"""Single-use e-mailed tokens (activation, recovery, e-mail change) and the mails that carry them."""
from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from app.db.tables import ActionToken, User
from app.db.types import utcnow
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
        select(ActionToken).where(ActionToken.user_id == user.id, ActionToken.purpose == purpose.value, ActionToken.used_at.is_(None))
    ):
        old.used_at = now
        session.add(old)
    token = new_token()
    session.add(
        ActionToken(token_hash=token_digest(token), purpose=purpose.value, user_id=user.id, new_email=new_email,
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


def consume(session: Session, row: ActionToken) -> None:
    row.used_at = utcnow()
    session.add(row)


def _link(path: str) -> str:
    return settings.public_url.rstrip("/") + path


def send_activation(session: Session, user: User) -> None:
    token = issue(session, user, TokenPurpose.ACTIVATION)
    mail.queue(
        session,
        to=user.email,
        subject="Activate your Wealth Advice account",
        body=(
            f"Hello {user.first_name},\n\nAn account has been created for you. Set your password to activate it:\n"
            f"{_link('/activation/' + token)}\n\nThe link works once and expires in "
            f"{settings.activation_token_hours // 24} days.\n"
        ),
    )


def send_recovery(session: Session, user: User) -> None:
    token = issue(session, user, TokenPurpose.RECOVERY)
    mail.queue(
        session,
        to=user.email,
        subject="Reset your Wealth Advice password",
        body=(
            f"Hello {user.first_name},\n\nWe received a request to reset your password. Choose a new one here:\n"
            f"{_link('/reset-password/' + token)}\n\nThe link works once and expires in "
            f"{settings.recovery_token_minutes} minutes. If you did not ask for this, ignore this e-mail.\n"
        ),
    )


def send_email_change(session: Session, user: User, new_email: str) -> None:
    token = issue(session, user, TokenPurpose.EMAIL_CHANGE, new_email=new_email)
    mail.queue(
        session,
        to=new_email,
        subject="Confirm your new e-mail address",
        body=(
            f"Hello {user.first_name},\n\nConfirm that {new_email} is your new sign-in e-mail:\n"
            f"{_link('/email-change/' + token)}\n\nUntil you confirm, you keep signing in with {user.email}.\n"
        ),
    )
