"""Outgoing e-mail. Every message is written to the outbox in the caller's transaction and,
when SMTP_URL is set, delivered only after that transaction commits (so a rolled-back action
never mails anyone)."""
from __future__ import annotations

import logging
import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlparse
from typing import Iterable

from sqlalchemy import event
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import OutboxMail
from app.db.types import utcnow
from app.domain.errors import NotFound, not_found
from app.domain.permissions import Actor, can_read_outbox, require
from app.settings import settings

log = logging.getLogger(__name__)
_PENDING_KEY = "outbox_pending"


def queue(session: Session, *, to: str, subject: str, body: str) -> OutboxMail:
    mail = OutboxMail(to_address=to, subject=subject, body=body)
    session.add(mail)
    session.flush()
    if settings.smtp_url:
        pending = session.info.setdefault(_PENDING_KEY, [])
        if not pending:
            event.listen(session, "after_commit", _deliver_after_commit, once=True)
        pending.append(mail.id)
    return mail


def queue_each(session: Session, addresses: Iterable[str], *, subject: str, body: str) -> int:
    """One e-mail to each of the addresses, once per address however often it is named; how many
    were queued."""
    unique = list(dict.fromkeys(addresses))
    for address in unique:
        queue(session, to=address, subject=subject, body=body)
    return len(unique)


def _deliver_after_commit(session: Session) -> None:
    ids = session.info.pop(_PENDING_KEY, [])
    for mail_id in ids:
        try:
            deliver(mail_id)
        except Exception:  # delivery problems are recorded on the row, never undo the action
            log.exception("mail %s not delivered", mail_id)


def deliver(mail_id: int) -> None:
    with session_scope() as s:
        mail = s.get(OutboxMail, mail_id)
        if mail is None or mail.sent_at is not None:
            return
        try:
            _smtp_send(mail)
            mail.sent_at = utcnow()
            mail.error = None
        except (OSError, smtplib.SMTPException) as exc:
            mail.error = str(exc)[:2000]
        s.add(mail)


def _smtp_send(mail: OutboxMail) -> None:
    url = urlparse(settings.smtp_url)
    msg = EmailMessage()
    msg["From"] = settings.mail_from
    msg["To"] = mail.to_address
    msg["Subject"] = mail.subject
    msg.set_content(mail.body)
    use_ssl = url.scheme == "smtps"
    cls = smtplib.SMTP_SSL if use_ssl else smtplib.SMTP
    with cls(url.hostname or "localhost", url.port or (465 if use_ssl else 25), timeout=15) as smtp:
        if url.scheme == "smtp+starttls":
            smtp.starttls()
        if url.username:
            smtp.login(unquote(url.username), unquote(url.password or ""))
        smtp.send_message(msg)


# ---- reading the outbox (embedded mode: superusers read mail the app would have sent) ----------
def list_outbox(*, actor: Actor, limit: int = 50, offset: int = 0) -> tuple[list[OutboxMail], int]:
    require(can_read_outbox(actor))
    from sqlalchemy import func

    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(OutboxMail)).one()
        rows = s.exec(select(OutboxMail).order_by(col(OutboxMail.id).desc()).offset(offset).limit(limit)).all()
        return list(rows), int(total)


def get_outbox_mail(*, actor: Actor, mail_id: int) -> OutboxMail:
    require(can_read_outbox(actor))
    with session_scope() as s:
        mail = s.get(OutboxMail, mail_id)
        if mail is None:
            raise NotFound(not_found("Mail"))
        return mail
