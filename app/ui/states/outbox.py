"""The superuser's outbox: every e-mail the product sent (or, without SMTP, kept to be read here)."""
from __future__ import annotations

import re

import reflex as rx

from app.domain.errors import AuthenticationError, DomainError, PermissionDenied
from app.domain.permissions import NOT_ALLOWED, can_read_outbox, home_route
from app.services import mail
from app.settings import settings
from app.ui import routes
from app.ui.states.lists import visible_pages
from app.ui.states.base import AppState, toast_error

PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 50
_URL = re.compile(r"https?://[^\s<>\"']+")
_TRAILING = ".,;:!?)]}"


def status_of(row) -> str:
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


class OutboxState(AppState):
    rows: list[dict[str, str]] = []
    total: int = 0
    page: int = 1
    page_size: str = str(DEFAULT_PAGE_SIZE)
    loading: bool = True
    smtp_configured: bool = False

    mail_open: bool = False
    mail_to: str = ""
    mail_subject: str = ""
    mail_created_at: str = ""
    mail_status: str = ""
    mail_error: str = ""
    mail_segments: list[dict[str, str]] = []

    @rx.var
    def pages(self) -> int:
        size = int(self.page_size) if self.page_size.isdigit() else DEFAULT_PAGE_SIZE
        return max(1, -(-self.total // size))

    @rx.var
    def visible(self) -> list[int]:
        return visible_pages(self.page, self.pages)

    def _load(self, loading_page: bool = False):
        try:
            actor = self._actor()
        except AuthenticationError as exc:
            # on page load AppState.check_login (first in on_load) already sent the visitor to sign in
            return None if loading_page else self._fail(exc)
        if not can_read_outbox(actor):
            return [toast_error(NOT_ALLOWED), rx.redirect(routes.url(home_route(actor.role)))]
        size = int(self.page_size) if self.page_size.isdigit() and int(self.page_size) in PAGE_SIZES else DEFAULT_PAGE_SIZE
        try:
            rows, total = mail.list_outbox(actor=actor, limit=size, offset=(self.page - 1) * size)
        except PermissionDenied:
            return [toast_error(NOT_ALLOWED), rx.redirect(routes.url(home_route(actor.role)))]
        except DomainError as exc:
            self.loading = False
            return self._fail(exc)
        self.total = total
        if rows == [] and total and self.page > 1:
            self.page = 1
            return self._load()
        self.rows = [
            {
                "id": str(row.id),
                "to": row.to_address,
                "subject": row.subject,
                "created_at": row.created_at.isoformat(),
                "status": status_of(row),
            }
            for row in rows
        ]
        self.loading = False
        return None

    @rx.event
    def on_load(self):
        self.loading = True
        self.page = 1
        self.mail_open = False
        self.smtp_configured = bool(settings.smtp_url)
        return self._load(loading_page=True)

    @rx.event
    def refresh(self):
        return self._load()

    @rx.event
    def set_page(self, page: int):
        self.page = max(1, min(int(page), self.pages))
        return self._load()

    @rx.event
    def set_page_size(self, value: str):
        self.page_size = value if value.isdigit() and int(value) in PAGE_SIZES else str(DEFAULT_PAGE_SIZE)
        self.page = 1
        return self._load()

    @rx.event
    def open_mail(self, mail_id: str):
        try:
            actor = self._actor()
            row = mail.get_outbox_mail(actor=actor, mail_id=int(mail_id))
        except (TypeError, ValueError):
            return None
        except DomainError as exc:
            return self._fail(exc)
        self.mail_to = row.to_address
        self.mail_subject = row.subject
        self.mail_created_at = row.created_at.isoformat()
        self.mail_status = status_of(row)
        self.mail_error = row.error or ""
        self.mail_segments = body_segments(row.body)
        self.mail_open = True
        return None

    @rx.event
    def close_mail(self):
        self.mail_open = False
