"""The cash report and the pending target portfolios report (spec 002 s7 'Reports').

GET /api/target-portfolios-cash-report/generate     query order, sort, targetPortfolioStatus, firmId, fileType
GET /api/target-portfolios-pending-report/generate  query order, sort, firmId, fileType, targetPortfolioStatus,
                                                    notEnoughCash

Without fileType: {"success": true, "result": {"rows": [...], "totalAmount": "...", "availableStatuses":
[{"value", "label"}], "count", "totals", ...}}; `limit` and `offset` (optional) page the rows.
With fileType=xlsx or pdf: the whole report as a file, named in Content-Disposition; download links
carry the token as the `token` query parameter and `client-timezone-offset`.

targetPortfolioStatus: draft, not_enough_cash, validated, active (or approved), declined, failed
(pending report: draft, not_enough_cash, validated, failed), repeated or comma-separated; 'all'.
firmId: a superuser's firm, or -1 for All firms; others always get their own firm.
"""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.api.deps import ClientOffset, CurrentActor, answers, download, ok
from app.services import advice_reports as reports

from app.api.payloads import ReportOut

router = APIRouter(tags=["reports"])

_RESPONSES: dict[int | str, dict[str, Any]] = {200: {"description": "the report (JSON), or the file with fileType", "content": {
    "application/json": {}, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {},
    "application/pdf": {}}}}


def _statuses(request: Request) -> list[str]:
    """targetPortfolioStatus as given, repeated or not (the declared parameter documents it in OpenAPI)."""
    q = request.query_params
    return q.getlist("targetPortfolioStatus") + q.getlist("targetPortfolioStatus[]")


class ReportQuery(BaseModel):
    """The query both reports take (targetPortfolioStatus is read as repeated: see _statuses)."""
    order: Optional[str] = None
    sort: Optional[str] = None
    firm_id: Optional[str] = Field(None, alias="firmId")
    file_type: Optional[str] = Field(None, alias="fileType")
    target_portfolio_status: Optional[str] = Field(None, alias="targetPortfolioStatus")
    limit: Optional[str] = None
    offset: Optional[str] = None


class PendingReportQuery(ReportQuery):
    not_enough_cash: Optional[str] = Field(None, alias="notEnoughCash")


def _answer(actor, kind: str, request: Request, client_offset: Optional[str], query: ReportQuery):
    """The report as JSON, its rows paged by limit and offset; or with fileType the whole report as that file."""
    filters = query.model_dump(exclude={"file_type", "target_portfolio_status", "limit", "offset"})
    filters["status"] = _statuses(request)
    if query.file_type:
        result = reports.export(actor=actor, kind=kind, file_type=query.file_type, client_offset=client_offset,
                                **filters)
        return download(result.name, result.data, result.media_type)
    loader = reports.cash_report if kind == reports.CASH else reports.pending_report
    return ok(reports.report_json(loader(actor=actor, limit=query.limit, offset=query.offset, **filters)))


@router.get("/target-portfolios-cash-report/generate", **answers(ReportOut), responses=_RESPONSES)
def cash_report(actor: CurrentActor, request: Request, query: Annotated[ReportQuery, Query()],
                client_offset: ClientOffset = None):
    return _answer(actor, reports.CASH, request, client_offset, query)


@router.get("/target-portfolios-pending-report/generate", **answers(ReportOut), responses=_RESPONSES)
def pending_report(actor: CurrentActor, request: Request, query: Annotated[PendingReportQuery, Query()],
                   client_offset: ClientOffset = None):
    return _answer(actor, reports.PENDING, request, client_offset, query)
