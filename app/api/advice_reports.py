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
from app.api.schemas import query_number, rendered
from app.domain.parsing import as_bool, firm_choice
from app.domain.timezones import client_offset as offset_minutes
from app.services import advice_reports as reports
from app.services.listing import DEFAULT_PAGE_SIZE

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


def _limit(text: Optional[str]) -> Optional[int]:
    """The page size sent: None (every row) when none is sent; text that is no number, the default size."""
    if text in (None, ""):
        return None
    number = query_number(text)
    return DEFAULT_PAGE_SIZE if number is None else number


def _payload(report: reports.Report[reports.CashRow] | reports.Report[reports.PendingRow]) -> dict[str, Any]:
    """The loaders' result: the report's rows (each with the screen it opens), totalAmount and
    availableStatuses, and what the screens need besides, from the report's typed values."""
    return {
        "rows": [{**rendered(r), "route": {"name": reports.TARGET_ROUTE, "params": {"id": r.investment_id}}}
                 for r in report.rows],
        "totalAmount": rendered(report.total_amount),
        "availableStatuses": rendered(report.available_statuses),
        "count": report.count,
        "totals": rendered(report.totals),
        "firmId": report.firm_id,
        "targetPortfolioStatus": report.statuses,
        "notEnoughCash": report.not_enough_cash,
        "sort": report.sort,
        "order": report.order,
    }


def _answer(actor, kind: str, request: Request, client_offset: Optional[str], query: ReportQuery):
    """The report as JSON, its rows paged by limit and offset; or with fileType the whole report as that file.
    The query is read here: the firm, the statuses, the flag and the page as the service takes them."""
    statuses = reports.parse_statuses(_statuses(request), reports.CASH_STATUSES if kind == reports.CASH
                                      else reports.PENDING_STATUSES)
    firm_id = firm_choice(query.firm_id)
    nec = as_bool(query.not_enough_cash) if isinstance(query, PendingReportQuery) else False
    if query.file_type:
        result = reports.export(actor=actor, kind=kind, file_type=query.file_type,
                                client_offset=offset_minutes(client_offset), firm_id=firm_id, statuses=statuses,
                                not_enough_cash=nec, sort=query.sort, order=query.order)
        return download(result.name, result.data, result.media_type)
    limit, offset = _limit(query.limit), query_number(query.offset)
    if kind == reports.CASH:
        return ok(_payload(reports.cash_report(actor=actor, firm_id=firm_id, statuses=statuses, sort=query.sort,
                                               order=query.order, limit=limit, offset=offset)))
    return ok(_payload(reports.pending_report(actor=actor, firm_id=firm_id, statuses=statuses, not_enough_cash=nec,
                                              sort=query.sort, order=query.order, limit=limit, offset=offset)))


@router.get("/target-portfolios-cash-report/generate", **answers(ReportOut), responses=_RESPONSES)
def cash_report(actor: CurrentActor, request: Request, query: Annotated[ReportQuery, Query()],
                client_offset: ClientOffset = None):
    return _answer(actor, reports.CASH, request, client_offset, query)


@router.get("/target-portfolios-pending-report/generate", **answers(ReportOut), responses=_RESPONSES)
def pending_report(actor: CurrentActor, request: Request, query: Annotated[PendingReportQuery, Query()],
                   client_offset: ClientOffset = None):
    return _answer(actor, reports.PENDING, request, client_offset, query)
