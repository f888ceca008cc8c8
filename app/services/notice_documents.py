"""The documents a notice attaches, built after the commit by app.services.mail: the record of
advice PDF and the trade recommendations PDF, each as the person it is addressed to reads it.

They live apart from app.services.notices because building them needs the advice services that
themselves send notices; the application's entry points plug them into the mail (`plug_in`, done
when the sweeps module loads, which the web process and every worker do) so that the mail never
imports what imports it."""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from app.db.engine import session_scope
from app.db.tables import TradeInstruction, User
from app.db.types import utcnow
from app.domain.advice.auto_approval import PRACTICE_TZ
from app.domain.errors import NotFound
from app.domain.notices import Document
from app.domain.permissions import Actor
from app.services import mail, records_of_advice, trade_approval_report
from app.services.auth import actor_of


def _practice_offset(now: datetime | None = None) -> int:
    """The practice's offset in minutes west of UTC (Sydney: -600, -660 in daylight saving), for
    the dates in an attached document."""
    moment = (now or utcnow()).astimezone(PRACTICE_TZ)
    offset = moment.utcoffset()
    return -int(offset.total_seconds() // 60) if offset is not None else 0


def _reader_actor(reader_id: int | None) -> Actor:
    with session_scope() as s:
        user = s.get(User, reader_id) if reader_id else None
        if user is None:
            raise NotFound("The person whose view the document is no longer exists")
        return actor_of(user)


def _record_of_advice(object_id: int, reader_id: int | None) -> tuple[str, bytes]:
    return records_of_advice.export_pdf(actor=_reader_actor(reader_id), tp_id=object_id,
                                        client_offset=_practice_offset())


def _trade_recommendations(object_id: int, reader_id: int | None) -> tuple[str, bytes]:
    actor = _reader_actor(reader_id)
    with session_scope() as s:
        ti = s.get(TradeInstruction, object_id)
        if ti is None:
            raise NotFound("The trade recommendations no longer exist")
        investment_id, version = ti.investment_id, ti.version
    out = trade_approval_report.portfolio_export(actor=actor, investment_id=investment_id, file_format="pdf",
                                                 version=version, client_offset=_practice_offset())
    return out.name, out.data


DOCUMENT_BUILDERS: dict[str, Callable[[int, int | None], tuple[str, bytes]]] = {
    Document.RECORD_OF_ADVICE.value: _record_of_advice,
    Document.TRADE_RECOMMENDATIONS.value: _trade_recommendations,
}


def build_document(document: str, object_id: int, reader_id: int | None) -> tuple[str, bytes]:
    """(file name, PDF bytes) of an attached document."""
    builder = DOCUMENT_BUILDERS.get(document)
    if builder is None:
        raise ValueError(f"unknown document {document!r}")
    return builder(object_id, reader_id)


def plug_in() -> None:
    """Hands the builders to the mail (idempotent)."""
    mail.set_document_builder(build_document)


plug_in()
