"""Outgoing e-mail. Every message is written to the outbox in the caller's transaction; what
happens next runs only after that transaction commits (so a rolled-back action never mails
anyone, and nothing here can undo or block the action itself):

1. the documents it carries (record of advice, trade recommendations PDFs) are built and their
   bytes kept with the message (`OutboxAttachment`);
2. when SMTP_URL is set, it is delivered: a plain-text part, an HTML part (with the firm's logo
   inline when the HTML shows it) and the attachments.

A message whose documents could not be built or whose delivery failed keeps the error and is tried
again by the periodic sweep (`retry_due`, every minute) from `next_attempt_at` on, later each time
(1, 2, 4 ... up to 60 minutes); it is never dropped. A message queued with SMTP configured is
given a first `next_attempt_at` a minute ahead, so that a process dying between the commit and the
delivery leaves it to the sweep."""
from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage, MIMEPart
from typing import Callable, Iterable, Sequence
from urllib.parse import unquote, urlparse

from sqlalchemy import event, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Firm, OutboxAttachment, OutboxMail
from app.db.types import stored_id, utcnow
from app.domain.errors import NotFound, not_found
from app.domain.permissions import Actor, can_read_outbox, require
from app.domain.wire import wire
from app.services.listing import Page
from app.settings import settings

log = logging.getLogger(__name__)
_PENDING_KEY = "outbox_pending"
PDF = "application/pdf"
LOGO_CID = "firm-logo"
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(minutes=60)
RETRY_BATCH = 50


@dataclass(frozen=True)
class PendingDocument:
    """A document to attach, built after the action commits: `document` names the builder
    (app.services.notice_documents.DOCUMENT_BUILDERS), `object_id` what to build, `reader_id` whose view."""

    file_name: str
    document: str
    object_id: int
    reader_id: int | None


@dataclass(frozen=True)
class AttachmentInfo:
    id: int
    file_name: str
    content_type: str
    size: int | None  # None: not built yet


@dataclass(frozen=True)
class MailSummary:
    """A message as the REST outbox lists it."""

    id: int
    to_address: str = field(metadata=wire("to"))
    subject: str
    body: str
    created_at: datetime
    sent_at: datetime | None
    error: str | None


@dataclass(frozen=True)
class OutboxEntry:
    """A message as the outbox screen lists it."""

    id: int
    to_address: str
    subject: str
    body: str
    html: str | None
    created_at: datetime
    sent_at: datetime | None
    error: str | None
    attempts: int
    next_attempt_at: datetime | None
    attachments: tuple[AttachmentInfo, ...]

    def summary(self) -> MailSummary:
        return MailSummary(id=self.id, to_address=self.to_address, subject=self.subject, body=self.body,
                           created_at=self.created_at, sent_at=self.sent_at, error=self.error)


# Documents built while mails are processed, kept for the next mail that carries the same one:
# (document, object id, reader id) -> (file name, PDF bytes)
Built = dict[tuple[str, int, "int | None"], tuple[str, bytes]]


# ---- queueing (in the caller's transaction) ---------------------------------------------------------
def queue(session: Session, *, to: str, subject: str, body: str, html: str | None = None,
          firm_id: int | None = None, documents: Sequence[PendingDocument] = ()) -> OutboxMail:
    mail = OutboxMail(to_address=to, subject=subject[:300], body=body, html=html, firm_id=firm_id,
                      next_attempt_at=utcnow() + FIRST_RETRY if settings.smtp_url or documents else None)
    session.add(mail)
    session.flush()
    for doc in documents:
        session.add(OutboxAttachment(mail_id=stored_id(mail), file_name=doc.file_name, content_type=PDF,
                                     document=doc.document, object_id=doc.object_id, reader_id=doc.reader_id))
    if settings.smtp_url or documents:
        pending = session.info.setdefault(_PENDING_KEY, [])
        if not pending:
            event.listen(session, "after_commit", _process_after_commit, once=True)
        pending.append(mail.id)
    return mail


def queue_each(session: Session, addresses: Iterable[str], *, subject: str, body: str) -> int:
    """One e-mail to each of the addresses, once per address however often it is named; how many
    were queued."""
    unique = list(dict.fromkeys(addresses))
    for address in unique:
        queue(session, to=address, subject=subject, body=body)
    return len(unique)


def _process_after_commit(session: Session) -> None:
    ids: list[int] = session.info.pop(_PENDING_KEY, [])
    built: Built = {}
    for mail_id in ids:
        try:
            process(mail_id, built)
        except Exception:  # problems are recorded on the row and retried; never undo the action
            log.exception("mail %s not processed", mail_id)


# ---- building the documents and delivering ----------------------------------------------------------
def _wait_after(attempts: int) -> timedelta:
    wait: timedelta = FIRST_RETRY * (2 ** max(attempts - 1, 0))
    return min(wait, LONGEST_WAIT)


# (document, object id, reader id) -> (file name, PDF bytes): plugged in by
# app.services.notice_documents, which needs the advice services that send mail themselves
DocumentBuilder = Callable[[str, int, "int | None"], tuple[str, bytes]]
_document_builder: DocumentBuilder | None = None


def set_document_builder(builder: DocumentBuilder) -> None:
    global _document_builder
    _document_builder = builder


def _build_documents(s: Session, mail: OutboxMail, built: Built) -> list[OutboxAttachment]:
    """The message's attachments, building the documents not built yet (raises when one fails)."""
    if _document_builder is None:
        raise RuntimeError("no document builder is plugged into the mail (app.services.notice_documents)")
    build_document = _document_builder
    rows = list(s.exec(select(OutboxAttachment).where(OutboxAttachment.mail_id == mail.id)
                       .order_by(col(OutboxAttachment.id))).all())
    for row in rows:
        if row.data is not None:
            continue
        key = (row.document or "", row.object_id or 0, row.reader_id)
        if key not in built:
            built[key] = build_document(row.document or "", row.object_id or 0, row.reader_id)
        name, data = built[key]
        row.file_name, row.data, row.size = name[:255], data, len(data)
        s.add(row)
    return rows


def process(mail_id: int, built: Built | None = None) -> None:
    """Builds the message's documents and, with SMTP configured, delivers it; a failure is kept on
    the message with the time of the next attempt."""
    built = {} if built is None else built
    with session_scope() as s:
        mail = s.exec(select(OutboxMail).where(OutboxMail.id == mail_id).with_for_update(skip_locked=True)).first()
        if mail is None or mail.sent_at is not None:
            return
        try:
            rows = _build_documents(s, mail, built)
            if settings.smtp_url:
                _smtp_send(s, mail, rows)
                mail.sent_at = utcnow()
            mail.error, mail.next_attempt_at = None, None
        except Exception as exc:  # a document that fails to build, a refused or unreachable server
            if not isinstance(exc, (OSError, smtplib.SMTPException)):
                log.exception("mail %s: its documents could not be built", mail_id)
            mail.attempts += 1
            mail.error = (str(exc) or type(exc).__name__)[:2000]
            mail.next_attempt_at = utcnow() + _wait_after(mail.attempts)
        else:
            if settings.smtp_url:
                mail.attempts += 1
        s.add(mail)


def deliver(mail_id: int) -> None:
    """Delivers one message now (building its documents first)."""
    process(mail_id)


def retry_due(now: datetime | None = None, limit: int = RETRY_BATCH) -> int:
    """The sweep: every message not sent whose next attempt is due is processed again (documents
    built, delivered when SMTP is configured). Returns how many were tried."""
    now = now or utcnow()
    with session_scope() as s:
        ids = [i for i in s.exec(select(OutboxMail.id).where(col(OutboxMail.sent_at).is_(None),
                                                             col(OutboxMail.next_attempt_at).is_not(None),
                                                             col(OutboxMail.next_attempt_at) <= now)
                                 .order_by(col(OutboxMail.next_attempt_at)).limit(limit)).all() if i is not None]
    built: Built = {}
    for mail_id in ids:
        try:
            process(mail_id, built)
        except Exception:
            log.exception("mail %s not processed", mail_id)
    return len(ids)


def _logo(s: Session, firm_id: int | None) -> tuple[bytes, str, str] | None:
    """(bytes, maintype, subtype) of the firm's logo, when it has one that can be read."""
    from app.services import files

    firm = s.get(Firm, firm_id) if firm_id else None
    if firm is None or not firm.logo:
        return None
    try:
        data = files.path_of(firm.logo).read_bytes()
        maintype, subtype = files.content_type_of(firm.logo).split("/", 1)
    except (NotFound, OSError, KeyError):
        return None
    return data, maintype, subtype


def build_message(s: Session, mail: OutboxMail, attachments: Sequence[OutboxAttachment]) -> EmailMessage[str, str]:
    """The MIME message: text, HTML (with the logo inline) and the attachments."""
    msg: EmailMessage[str, str] = EmailMessage()
    msg["From"] = settings.mail_from
    msg["To"] = mail.to_address
    msg["Subject"] = mail.subject
    msg.set_content(mail.body)
    if mail.html:
        html = mail.html
        logo = _logo(s, mail.firm_id) if f"cid:{LOGO_CID}" in html else None
        if logo is None:
            html = _without_logo(html)
        msg.add_alternative(html, subtype="html")
        if logo is not None:
            data, maintype, subtype = logo
            html_part = msg.get_payload(1)  # the alternative just added (a part of the message's own kind)
            if isinstance(html_part, MIMEPart):
                html_part.add_related(data, maintype=maintype, subtype=subtype, cid=f"<{LOGO_CID}>",
                                      filename=f"logo.{subtype}")
    for a in attachments:
        maintype, subtype = a.content_type.split("/", 1)
        msg.add_attachment(a.data or b"", maintype=maintype, subtype=subtype, filename=a.file_name)
    return msg


def _without_logo(html: str) -> str:
    start = html.find(f'<img src="cid:{LOGO_CID}"')
    if start < 0:
        return html
    end = html.find(">", start)
    return html[:start] + html[end + 1:]


def _smtp_send(s: Session, mail: OutboxMail, attachments: Sequence[OutboxAttachment]) -> None:
    url = urlparse(settings.smtp_url)
    msg = build_message(s, mail, attachments)
    use_ssl = url.scheme == "smtps"
    cls = smtplib.SMTP_SSL if use_ssl else smtplib.SMTP
    with cls(url.hostname or "localhost", url.port or (465 if use_ssl else 25), timeout=15) as smtp:
        if url.scheme == "smtp+starttls":
            smtp.starttls()
        if url.username:
            smtp.login(unquote(url.username), unquote(url.password or ""))
        smtp.send_message(msg)


# ---- reading the outbox (superusers: every message the app sent or keeps) ----------------------------
def _entries(s: Session, mails: Sequence[OutboxMail]) -> list[OutboxEntry]:
    ids = [stored_id(m) for m in mails]
    found: dict[int, list[AttachmentInfo]] = {i: [] for i in ids}
    if ids:
        # the columns the list shows, not the documents' bytes
        for a_id, mail_id, name, ctype, size in s.execute(
                sa_select(col(OutboxAttachment.id), col(OutboxAttachment.mail_id), col(OutboxAttachment.file_name),
                          col(OutboxAttachment.content_type), col(OutboxAttachment.size))
                .where(col(OutboxAttachment.mail_id).in_(ids)).order_by(col(OutboxAttachment.id))).all():
            if a_id is not None:
                found[mail_id].append(AttachmentInfo(id=a_id, file_name=name, content_type=ctype, size=size))
    return [OutboxEntry(id=stored_id(m), to_address=m.to_address, subject=m.subject, body=m.body, html=m.html,
                        created_at=m.created_at, sent_at=m.sent_at, error=m.error, attempts=m.attempts,
                        next_attempt_at=m.next_attempt_at, attachments=tuple(found[stored_id(m)])) for m in mails]


def list_outbox(*, actor: Actor, limit: int = 50, offset: int = 0) -> Page[OutboxEntry]:
    require(can_read_outbox(actor))
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(OutboxMail)).one()
        rows = s.exec(select(OutboxMail).order_by(col(OutboxMail.id).desc()).offset(offset).limit(limit)).all()
        return Page(rows=tuple(_entries(s, rows)), total=int(total))


def get_outbox_mail(*, actor: Actor, mail_id: int) -> OutboxEntry:
    require(can_read_outbox(actor))
    with session_scope() as s:
        mail = s.get(OutboxMail, mail_id)
        if mail is None:
            raise NotFound(not_found("Mail"))
        return _entries(s, [mail])[0]


def get_attachment(*, actor: Actor, mail_id: int, attachment_id: int) -> tuple[str, str, bytes]:
    """(file name, content type, bytes) of a built attachment of a message (superusers)."""
    require(can_read_outbox(actor))
    with session_scope() as s:
        row = s.get(OutboxAttachment, attachment_id)
        if row is None or row.mail_id != mail_id or row.data is None:
            raise NotFound(not_found("Attachment"))
        return row.file_name, row.content_type, row.data
