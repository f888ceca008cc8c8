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

from typing import Any, Optional

from fastapi import APIRouter, Query, Request

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


def _answer(actor, kind: str, file_type: Optional[str], client_offset: Optional[str], **query: Any):
    if file_type not in (None, ""):
        result = reports.export(actor=actor, kind=kind, file_type=file_type, client_offset=client_offset, **query)
        return download(result.name, result.data, result.media_type)
    loader = reports.cash_report if kind == reports.CASH else reports.pending_report
    return ok(reports.report_json(loader(actor=actor, **query)))


@router.get("/target-portfolios-cash-report/generate", **answers(ReportOut), responses=_RESPONSES)
def cash_report(actor: CurrentActor, request: Request, client_offset: ClientOffset = None,
                order: Optional[str] = None, sort: Optional[str] = None,
                firm_id: Optional[str] = Query(None, alias="firmId"),
                file_type: Optional[str] = Query(None, alias="fileType"),
                target_portfolio_status: Optional[str] = Query(None, alias="targetPortfolioStatus"),
                limit: Optional[str] = None, offset: Optional[str] = None):
    query: dict[str, Any] = dict(firm_id=firm_id, status=_statuses(request), sort=sort, order=order)
    if not file_type:
        query.update(limit=limit, offset=offset)
    return _answer(actor, reports.CASH, file_type, client_offset, **query)


@router.get("/target-portfolios-pending-report/generate", **answers(ReportOut), responses=_RESPONSES)
def pending_report(actor: CurrentActor, request: Request, client_offset: ClientOffset = None,
                   order: Optional[str] = None, sort: Optional[str] = None,
                   firm_id: Optional[str] = Query(None, alias="firmId"),
                   file_type: Optional[str] = Query(None, alias="fileType"),
                   target_portfolio_status: Optional[str] = Query(None, alias="targetPortfolioStatus"),
                   not_enough_cash: Optional[str] = Query(None, alias="notEnoughCash"),
                   limit: Optional[str] = None, offset: Optional[str] = None):
    query: dict[str, Any] = dict(firm_id=firm_id, status=_statuses(request), not_enough_cash=not_enough_cash,
                                 sort=sort, order=order)
    if not file_type:
        query.update(limit=limit, offset=offset)
    return _answer(actor, reports.PENDING, file_type, client_offset, **query)
