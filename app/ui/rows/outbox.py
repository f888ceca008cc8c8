"""What the outbox shows of a mail: its status, its size and its body cut into text and links."""
from __future__ import annotations

import dataclasses
import re

from app.services import mail as mail_service


_URL = re.compile(r"https?://[^\s<>\"']+")


_TRAILING = ".,;:!?)]}"


def status_of(row: mail_service.OutboxEntry) -> str:
    if row.sent_at is not None:
        return "delivered"
    if row.error:
        return "error"
    return "pending"


def body_segments(body: str) -> list[dict[str, str]]:
    """The body as text and link pieces, so the dialog can make the links clickable."""
    out: list[dict[str, str]] = []
    pos = 0
    for m in _URL.finditer(body or ""):
        url = m.group(0)
        while url and url[-1] in _TRAILING:
            url = url[:-1]
        if m.start() > pos:
            out.append({"text": body[pos:m.start()], "href": ""})
        out.append({"text": url, "href": url})
        pos = m.start() + len(url)
    if pos < len(body or ""):
        out.append({"text": body[pos:], "href": ""})
    return out


@dataclasses.dataclass
class MailView:
    """The e-mail open in the reading dialog: its header, delivery status and body as link pieces."""

    to_address: str = ""
    subject: str = ""
    created_at: str = ""
    status: str = ""
    error: str = ""
    attempts: str = ""       # "3 attempts, next at <ISO>" while a failed send waits for its retry
    next_attempt_at: str = ""
    segments: list[dict[str, str]] = dataclasses.field(default_factory=list)
    attachments: list[dict[str, str]] = dataclasses.field(default_factory=list)  # name, size


def size_text(size: int | None) -> str:
    """An attachment's size as a reader expects it (being built while the document is not written)."""
    if size is None:
        return "being prepared"
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"
