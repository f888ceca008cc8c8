"""The audit trail over REST.

GET /api/audit-events                      who, action, object_type, object_id, date_from, date_to,
                                           firm_id (superuser), limit, offset -> rows + count
GET /api/audit-events/export-excel         the same filters as .xlsx (download ticket, client-timezone-offset)
GET /api/investments/{id}/history          a portfolio's own history
"""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel

from app.api.deps import CurrentActor, ok
from app.db.types import utcnow
from app.exports import audit_xlsx
from app.domain.timezones import client_offset
from app.exports.recommendations_csv import content_disposition
from app.services import audit

router = APIRouter(tags=["audit"])
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class AuditEventOut(BaseModel):
    id: int
    at: str
    actor_id: Optional[int] = None
    actor_email: Optional[str] = None
    firm_id: Optional[int] = None
    action: str
    action_title: str
    object_type: str
    object_type_title: str
    object_id: Optional[int] = None
    object_label: Optional[str] = None
    before: dict[str, Any]
    after: dict[str, Any]
    ip: Optional[str] = None


class AuditCount(BaseModel):
    count: int


class AuditPage(BaseModel):
    rows: list[AuditEventOut]
    totals: list[AuditCount]


class AuditPageEnvelope(BaseModel):
    success: bool
    result: AuditPage


def _filters(who, action, object_type, object_id, date_from, date_to, firm_id) -> dict[str, Any]:
    return {"who": who, "action": action, "object_type": object_type, "object_id": object_id,
            "date_from": date_from, "date_to": date_to, "firm_id": firm_id}


@router.get("/audit-events", response_model=AuditPageEnvelope)
def list_events(actor: CurrentActor, who: str | None = None, action: str | None = None, object_type: str | None = None,
                object_id: str | None = None, date_from: str | None = None, date_to: str | None = None,
                firm_id: str | None = None, limit: str | None = None, offset: str | None = None):
    rows, total = audit.list_events(actor=actor, limit=limit, offset=offset,
                                    **_filters(who, action, object_type, object_id, date_from, date_to, firm_id))
    return ok({"rows": rows, "totals": [{"count": total}]})


@router.get("/audit-events/export-excel", response_class=Response,
            responses={200: {"content": {XLSX: {}}, "description": "The audit trail as an Excel workbook"}})
def export_events(actor: CurrentActor, who: str | None = None, action: str | None = None,
                  object_type: str | None = None, object_id: str | None = None, date_from: str | None = None,
                  date_to: str | None = None, firm_id: str | None = None,
                  offset: Annotated[str | None, Query(alias="client-timezone-offset")] = None):
    events = audit.all_events(actor=actor, **_filters(who, action, object_type, object_id, date_from, date_to, firm_id))
    minutes = client_offset(offset)
    name = audit_xlsx.filename(utcnow(), minutes)
    return Response(content=audit_xlsx.build(events, minutes), media_type=XLSX,
                    headers={"Content-Disposition": content_disposition(name), "Cache-Control": "no-store"})


@router.get("/investments/{investment_id}/history", response_model=AuditPageEnvelope)
def portfolio_history(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None):
    rows, total = audit.portfolio_history(actor=actor, investment_id=investment_id, limit=limit, offset=offset)
    return ok({"rows": rows, "totals": [{"count": total}]})
