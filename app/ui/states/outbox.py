"""The superuser's outbox: every e-mail the product sent (or, without SMTP, kept to be read here)."""
from __future__ import annotations

from typing import ClassVar

import reflex as rx

from app.domain.errors import PermissionDenied
from app.domain.permissions import NOT_ALLOWED, Actor, can_read_outbox, home_route
from app.services import mail as mail_service
from app.settings import settings
from app.ui import routes
from app.ui.parse import to_int
from app.ui.rows.outbox import MailView, body_segments, size_text, status_of
from app.ui.states.base import AppState
from app.ui.toolkit.lists import Paged
from app.ui.toolkit.screen import guarded, screen_load

class OutboxState(Paged, AppState):
    PAGE_SIZES: ClassVar[tuple[int, ...]] = (20, 50, 100)
    DEFAULT_SIZE: ClassVar[int] = 50

    rows: list[dict[str, str]] = []
    page_size: str = "50"
    loading: bool = True
    smtp_configured: bool = False

    mail_open: bool = False
    mail: MailView = MailView()

    def _load(self, actor: Actor) -> None:
        if not can_read_outbox(actor):
            raise PermissionDenied(NOT_ALLOWED)
        page = mail_service.list_outbox(actor=actor, limit=self._limit(), offset=self._offset())
        if not page.rows and page.total and self.page > 1:
            self.page = 1
            page = mail_service.list_outbox(actor=actor, limit=self._limit(), offset=self._offset())
        self.total, self.rows = page.total, [
            {"id": str(row.id), "to": row.to_address, "subject": row.subject, "created_at": row.created_at.isoformat(),
             "status": status_of(row), "attachments": ", ".join(a.file_name for a in row.attachments)}
            for row in page.rows]
        self.loading = False

    @rx.event
    @screen_load(back=lambda self, actor: routes.url(home_route(actor.role)))
    def on_load(self, actor: Actor):
        self.loading = True
        self.page = 1
        self.mail_open, self.smtp_configured = False, bool(settings.smtp_url)
        self._load(actor)

    @guarded
    def _reload(self):
        self._load(self._actor())

    @rx.event
    def refresh(self):
        return self._reload()

    @rx.event
    @guarded
    def open_mail(self, mail_id: str):
        if (number := to_int(mail_id)) is None:
            return None
        row = mail_service.get_outbox_mail(actor=self._actor(), mail_id=number)
        waiting = row.sent_at is None and row.error and row.next_attempt_at is not None
        self.mail = MailView(to_address=row.to_address, subject=row.subject, created_at=row.created_at.isoformat(),
                             status=status_of(row), error=row.error or "",
                             attempts=(f"{row.attempts} attempt{'' if row.attempts == 1 else 's'}; tried again "
                                       "automatically") if waiting else "",
                             next_attempt_at=row.next_attempt_at.isoformat() if waiting and row.next_attempt_at else "",
                             segments=body_segments(row.body),
                             attachments=[{"name": a.file_name, "size": size_text(a.size)} for a in row.attachments])
        self.mail_open = True
        return None

    @rx.event
    def close_mail(self):
        self.mail_open = False
