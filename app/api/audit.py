"""The audit trail over REST.

GET /api/audit-events                      who, action, object_type, object_id, date_from, date_to,
                                           firm_id (superuser), limit, offset -> rows + count
GET /api/audit-events/export-excel         the same filters as .xlsx (download ticket, client-timezone-offset)
GET /api/investments/{id}/history          a portfolio's own history
"""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from app.api.deps import CurrentActor, answers, download, listing
from app.db.types import utcnow
from app.domain.audit_trail import AuditEntry
from app.exports import audit_xlsx
from app.domain.timezones import client_offset
from app.services import audit, listing as rows

from app.api.payloads import AuditEventOut
from app.api.schemas import Page, path_id, query_number, rendered

router = APIRouter(tags=["audit"])
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _filters(who: str | None, action: str | None, object_type: str | None, object_id: str | None,
             date_from: str | None, date_to: str | None, firm_id: str | None) -> audit.AuditFilter:
    return audit.read_filter(who=who, action=action, object_type=object_type, object_id=object_id,
                             date_from=date_from, date_to=date_to, firm_id=firm_id)


def _page(page: rows.Page[AuditEntry]) -> dict[str, Any]:
    return listing(rendered(list(page.rows)), page.total)


@router.get("/audit-events", **answers(Page[AuditEventOut]))
def list_events(actor: CurrentActor, who: str | None = None, action: str | None = None, object_type: str | None = None,
                object_id: str | None = None, date_from: str | None = None, date_to: str | None = None,
                firm_id: str | None = None, limit: str | None = None, offset: str | None = None):
    return _page(audit.list_events(actor=actor, limit=query_number(limit), offset=query_number(offset),
                                   filters=_filters(who, action, object_type, object_id, date_from, date_to, firm_id)))


@router.get("/audit-events/export-excel", response_class=Response,
            responses={200: {"content": {XLSX: {}}, "description": "The audit trail as an Excel workbook"}})
def export_events(actor: CurrentActor, who: str | None = None, action: str | None = None,
                  object_type: str | None = None, object_id: str | None = None, date_from: str | None = None,
                  date_to: str | None = None, firm_id: str | None = None,
                  offset: Annotated[str | None, Query(alias="client-timezone-offset")] = None):
    events = audit.all_events(actor=actor,
                              filters=_filters(who, action, object_type, object_id, date_from, date_to, firm_id))
    minutes = client_offset(offset)
    return download(audit_xlsx.filename(utcnow(), minutes), audit_xlsx.build(events, minutes), XLSX)


@router.get("/investments/{investment_id}/history", **answers(Page[AuditEventOut]))
def portfolio_history(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None):
    return _page(audit.portfolio_history(actor=actor, investment_id=path_id(investment_id), limit=query_number(limit),
                                         offset=query_number(offset)))
