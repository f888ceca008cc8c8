"""Test support shared by tests/conftest.py and tests/e2e/conftest.py: throw-away databases,
free ports and an SMTP sink. Kept out of the conftest files so both can import it."""
from __future__ import annotations

import email
import email.policy
import re
import socket
import tempfile
import threading
import time
import uuid
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- databases -----------------------------------------------------------------------------
def _plain_pg_url(url: str) -> str:
    """psycopg wants postgresql://; accept postgres:// and postgresql+psycopg:// too."""
    scheme, rest = url.split("://", 1)
    if not scheme.startswith("postgres"):
        raise ValueError(f"TEST_DATABASE_URL must be a PostgreSQL URL, got {scheme}://...")
    return "postgresql://" + rest


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


class ThrowawayDatabase:
    """A database that exists for one test session: a fresh PostgreSQL database on the server of
    TEST_DATABASE_URL (created here, dropped by drop()), or a SQLite file in a temporary folder."""

    def __init__(self, server_url: str | None, prefix: str = "wa_test"):
        self.server_url = server_url
        self._tmp: tempfile.TemporaryDirectory | None = None
        if server_url:
            import psycopg

            self.name = f"{prefix}_{uuid.uuid4().hex[:12]}"
            admin = _plain_pg_url(server_url)
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
            self._admin_url = admin
            plain = _with_database(admin, self.name)
            self.url = "postgresql+psycopg://" + plain.split("://", 1)[1]  # for SQLAlchemy
            self.plain_url = plain  # for DATABASE_URL (the app accepts both spellings)
        else:
            self._tmp = tempfile.TemporaryDirectory(prefix=f"{prefix}_")
            self.name = str(Path(self._tmp.name) / "app.db")
            self.url = self.plain_url = f"sqlite:///{self.name}"

    @property
    def is_postgres(self) -> bool:
        return self.server_url is not None

    def drop(self) -> None:
        if self.server_url:
            import psycopg

            with psycopg.connect(self._admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        elif self._tmp is not None:
            self._tmp.cleanup()


# --- e-mail ----------------------------------------------------------------------------------
_LINK = re.compile(r"https?://[^\s<>\"')]+")


class MailSink:
    """An SMTP server on 127.0.0.1 that keeps every message it receives.

    `messages` holds them (email.message.EmailMessage) in arrival order. `wait_for(address)`
    returns the oldest message to that address that no earlier wait_for returned, so a test can
    follow a flow mail by mail (activation, then recovery, ...)."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []  # envelope RCPT TO of each message
        self._taken: set[int] = set()
        self._lock = threading.Condition()
        self.port = free_port()
        self._controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> "MailSink":
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def _received(self, message: EmailMessage, rcpt_tos: list[str]) -> None:
        with self._lock:
            self.messages.append(message)
            self.recipients.append([r.lower() for r in rcpt_tos])
            self._lock.notify_all()

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()
            self.recipients.clear()
            self._taken.clear()

    def _matches(self, i: int, address: str, subject: str | None) -> bool:
        msg = self.messages[i]
        to_header = str(msg.get("To", "")).lower()
        if address not in self.recipients[i] and address not in to_header:
            return False
        return subject is None or subject.lower() in str(msg.get("Subject", "")).lower()

    def wait_for(self, to_address: str, timeout: float = 10, subject: str | None = None) -> EmailMessage:
        """The next message to `to_address` (optionally whose subject contains `subject`)."""
        address = to_address.lower()
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for i in range(len(self.messages)):
                    if i not in self._taken and self._matches(i, address, subject):
                        self._taken.add(i)
                        return self.messages[i]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [(r, str(m.get("Subject", ""))) for r, m in zip(self.recipients, self.messages)]
                    raise AssertionError(f"no e-mail to {to_address} within {timeout}s; received: {seen}")
                self._lock.wait(min(remaining, 0.2))

    @staticmethod
    def text(message: Message) -> str:
        """The plain-text body (or the HTML one when there is no plain part)."""
        if isinstance(message, EmailMessage):
            part = message.get_body(preferencelist=("plain", "html"))
            if part is not None:
                return part.get_content()
        payload = message.get_payload(decode=True)
        return payload.decode(message.get_content_charset() or "utf-8") if payload else ""

    @classmethod
    def links(cls, message: Message) -> list[str]:
        """Every http(s) link in the message body, in order."""
        return _LINK.findall(cls.text(message))


class _Handler:
    def __init__(self, sink: MailSink):
        self.sink = sink

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd handler hook
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode()
        message = email.message_from_bytes(raw, policy=email.policy.default)
        self.sink._received(message, list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


def statements_during(action: Callable[[], Any]) -> int:
    """How many SQL statements `action()` sends to the app's database (a screen action's queries,
    counted so that a test can bound them)."""
    from sqlalchemy import event

    from app.db.engine import get_engine

    sent: list[int] = []

    def count(*_args: Any) -> None:
        sent.append(1)

    engine = get_engine()
    event.listen(engine, "before_cursor_execute", count)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(sent)
