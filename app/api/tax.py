"""Tax reports (issue: tax time for Australian clients). Paths in the style of the others:

GET /api/investments/{id}/tax-report                      year (the financial year ending 30 June of it;
                                                          default the current one) -> the portfolio's report
GET /api/investments/{id}/tax-report/export-excel         the report as .xlsx (token query allowed)
GET /api/investments/{id}/tax-report/export-pdf           the report as .pdf
PUT /api/investments/{id}/carried-forward-losses/{year}   {amount} -> the net capital loss brought into that year
GET /api/users/{id}/tax-report                            year -> a client's report across the portfolios they hold
GET /api/users/{id}/tax-report/export-excel               the client's report as .xlsx
GET /api/users/{id}/tax-report/export-pdf                 the client's report as .pdf
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.api.deps import CurrentActor, answers, download, file_format, ok
from app.api.schemas import Body, SentAmount, path_id, payload_of, rendered
from app.domain import tax_report as lines
from app.services import tax_reports as svc

router = APIRouter(tags=["tax"])

IncomeLineOut = payload_of("TaxIncomeLineOut", lines.IncomeLine)
IncomeTotalsOut = payload_of("TaxIncomeTotalsOut", lines.IncomeTotals, descriptions={
    "assessable": "cash received plus franking credits (the gross-up)"})
GainLineOut = payload_of("TaxGainLineOut", lines.GainLine, descriptions={
    "gain": "proceeds less cost base; a loss when negative",
    "loss_applied": "current-year and carried-forward capital losses applied to this gain",
    "net": "what the line adds to the net capital gain",
    "flag": "set when a sale was of more units than were held (those units are left out of the totals)"})
CapitalTotalsOut = payload_of("TaxCapitalTotalsOut", lines.CapitalTotals)
CapitalReturnOut = payload_of("TaxCapitalReturnOut", lines.CapitalReturnLine)
UnrealisedLineOut = payload_of("TaxUnrealisedLineOut", lines.UnrealisedLine, descriptions={
    "eligible_units": "units held 12 months or more at 30 June"})
UnrealisedTotalsOut = payload_of("TaxUnrealisedTotalsOut", lines.UnrealisedTotals)
TaxReportOut = payload_of("TaxReportOut", lines.TaxReport, types={
    "income": list[IncomeLineOut], "income_totals": IncomeTotalsOut, "gains": list[GainLineOut],
    "capital": CapitalTotalsOut, "capital_returns": list[CapitalReturnOut], "unrealised": list[UnrealisedLineOut],
    "unrealised_totals": UnrealisedTotalsOut, "years": list[int], "flags": list[str]},
    descriptions={"year": "the financial year, named by the year it ends in (2026: 1 July 2025 - 30 June 2026)",
                  "empty": "true when the year is outside the portfolio's history (message says so)"})
ClientTaxReportOut = payload_of("ClientTaxReportOut", lines.ClientTaxReport, types={
    "portfolios": list[TaxReportOut], "income_totals": IncomeTotalsOut, "years": list[int]})
CarriedForwardOut = payload_of("CarriedForwardOut", svc.CarriedForward)


class CarriedForwardBody(Body):
    amount: SentAmount = None


_XLSX: dict[int | str, dict[str, Any]] = {200: {
    "description": "the tax report workbook",
    "content": {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}}}}
_PDF: dict[int | str, dict[str, Any]] = {200: {
    "description": "the tax report as PDF", "content": {"application/pdf": {}}}}


@router.get("/investments/{investment_id}/tax-report", **answers(TaxReportOut))
def portfolio_report(actor: CurrentActor, investment_id: str, year: str | None = None):
    return ok(rendered(svc.portfolio_report(actor=actor, portfolio_id=path_id(investment_id), year=svc.read_year(year))))


@router.get("/investments/{investment_id}/tax-report/export-pdf", name="portfolio_pdf", response_class=Response,
            responses=_PDF)
@router.get("/investments/{investment_id}/tax-report/export-excel", name="portfolio_excel", response_class=Response,
            responses=_XLSX)
def portfolio_file(request: Request, actor: CurrentActor, investment_id: str, year: str | None = None):
    return download(*svc.export(actor=actor, portfolio_id=path_id(investment_id), year=svc.read_year(year),
                                file_format=file_format(request)))


@router.put("/investments/{investment_id}/carried-forward-losses/{year}", **answers(CarriedForwardOut))
def set_carried_forward_loss(actor: CurrentActor, investment_id: str, year: str, body: CarriedForwardBody):
    return ok(rendered(svc.set_carried_forward_loss(actor=actor, portfolio_id=path_id(investment_id),
                                                    year=svc.read_year(year), amount=body.amount)))


@router.get("/users/{user_id}/tax-report", **answers(ClientTaxReportOut))
def client_report(actor: CurrentActor, user_id: str, year: str | None = None):
    return ok(rendered(svc.client_report(actor=actor, client_id=path_id(user_id), year=svc.read_year(year))))


@router.get("/users/{user_id}/tax-report/export-pdf", name="client_pdf", response_class=Response, responses=_PDF)
@router.get("/users/{user_id}/tax-report/export-excel", name="client_excel", response_class=Response, responses=_XLSX)
def client_file(request: Request, actor: CurrentActor, user_id: str, year: str | None = None):
    return download(*svc.export(actor=actor, client_id=path_id(user_id), year=svc.read_year(year),
                                file_format=file_format(request)))
