"""Performance against the model, for a portfolio and for a client across their portfolios.

GET /api/investments/{id}/performance               until (DD/MM/YYYY or YYYY-MM-DD, default the latest close)
                                                    -> the periods (TWR, income, capital growth, IRR, the model,
                                                    the difference and why), the value over time, the model's basis
GET /api/investments/{id}/performance/export-excel  the same as .xlsx (token query allowed, client-timezone-offset)
GET /api/investments/{id}/performance/export-pdf    the same as .pdf
GET /api/users/{id}/performance                     a client's portfolios together (a client: their own id only),
                                                    with each portfolio's line
GET /api/users/{id}/performance/export-excel | export-pdf

Rates are percentages with two decimals as decimal strings ("12.34"), null where there is no
figure (N/A); money decimal strings; days ISO dates.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, Optional

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.api.deps import ClientOffset, CurrentActor, answers, download, file_format, ok
from app.api.schemas import path_id
from app.domain.parsing import as_id
from app.domain.timezones import client_offset as offset_minutes
from app.domain.performance import PerformanceReport, PeriodLine, PortfolioLine, ValuePoint
from app.services import performance

router = APIRouter(tags=["performance"])

_XLSX: dict[int | str, dict[str, Any]] = {200: {
    "description": "the performance workbook",
    "content": {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}}}}
_PDF: dict[int | str, dict[str, Any]] = {200: {
    "description": "the performance report as PDF", "content": {"application/pdf": {}}}}


def _s(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


class PeriodOut(BaseModel):
    period: str = Field(description="month | quarter | fytd | 1y | 3y | inception")
    title: str
    start: date = Field(description="the first day counted")
    end: date
    available: bool = Field(description="false: the history does not reach back that far (figures null)")
    partial: bool = Field(description="a to-date period measured from the first day of the history")
    annualised: bool = Field(description="rates a year (periods over one year)")
    start_value: str
    end_value: str
    net_flows: str
    income_received: str
    twr: Optional[str] = Field(None, description="time-weighted return, %")
    income: Optional[str] = Field(None, description="its income part, %")
    capital: Optional[str] = Field(None, description="its capital growth part, %")
    irr: Optional[str] = Field(None, description="money-weighted return (IRR), %")
    model: Optional[str] = Field(None, description="the model's return over the same days, %")
    difference: Optional[str] = Field(None, description="twr - model, percentage points")
    cash_drag: Optional[str] = None
    drift: Optional[str] = None
    trades_not_taken: Optional[str] = None
    other: Optional[str] = None

    @classmethod
    def of(cls, p: PeriodLine) -> PeriodOut:
        return cls(period=p.period, title=p.title, start=p.start, end=p.end, available=p.available, partial=p.partial,
                   annualised=p.annualised, start_value=format(p.start_value, "f"), end_value=format(p.end_value, "f"),
                   net_flows=format(p.net_flows, "f"), income_received=format(p.income_received, "f"),
                   twr=_s(p.twr), income=_s(p.income), capital=_s(p.capital), irr=_s(p.irr), model=_s(p.model),
                   difference=_s(p.difference), cash_drag=_s(p.cash_drag), drift=_s(p.drift),
                   trades_not_taken=_s(p.trades_not_taken), other=_s(p.other))


class ValuePointOut(BaseModel):
    day: date
    value: str
    model_value: Optional[str] = Field(None, description="had it followed the model with the same money in and out")
    invested: str = Field(description="net money put in so far")

    @classmethod
    def of(cls, v: ValuePoint) -> ValuePointOut:
        return cls(day=v.day, value=format(v.value, "f"), model_value=_s(v.model_value), invested=format(v.invested, "f"))


class PortfolioPerformanceLineOut(BaseModel):
    id: int
    name: str
    model_name: Optional[str] = None
    value: str
    fytd: Optional[str] = Field(None, description="TWR financial year to date, %")
    since_inception: Optional[str] = Field(None, description="TWR since inception, %")

    @classmethod
    def of(cls, p: PortfolioLine) -> PortfolioPerformanceLineOut:
        return cls(id=p.id, name=p.name, model_name=p.model_name, value=format(p.value, "f"), fytd=_s(p.fytd),
                   since_inception=_s(p.since_inception))


class PerformanceOut(BaseModel):
    title: str
    firm_name: str
    investment_id: Optional[int] = None
    user_id: Optional[int] = None
    model_name: Optional[str] = None
    model_basis: str
    as_at: Optional[date] = None
    inception: Optional[date] = None
    value: str
    message: Optional[str] = Field(None, description="why there are no figures")
    periods: list[PeriodOut]
    chart: list[ValuePointOut]
    portfolios: list[PortfolioPerformanceLineOut] = Field(default_factory=list,
                                                          description="a client's report: each portfolio")

    @classmethod
    def of(cls, r: PerformanceReport) -> PerformanceOut:
        return cls(title=r.title, firm_name=r.firm_name, investment_id=r.portfolio_id, user_id=r.client_id,
                   model_name=r.model_name, model_basis=r.model_basis, as_at=r.as_at, inception=r.inception,
                   value=format(r.value, "f"), message=r.message, periods=[PeriodOut.of(p) for p in r.periods],
                   chart=[ValuePointOut.of(v) for v in r.chart],
                   portfolios=[PortfolioPerformanceLineOut.of(p) for p in r.portfolios])


@router.get("/investments/{investment_id}/performance", **answers(PerformanceOut))
def portfolio_performance(actor: CurrentActor, investment_id: str, until: str | None = None):
    return ok(PerformanceOut.of(performance.portfolio_performance(actor=actor, portfolio_id=path_id(investment_id),
                                                                  until=performance.read_until(until))))


@router.get("/investments/{investment_id}/performance/export-pdf", name="portfolio_pdf", response_class=Response,
            responses=_PDF)
@router.get("/investments/{investment_id}/performance/export-excel", name="portfolio_excel", response_class=Response,
            responses=_XLSX)
def portfolio_file(request: Request, actor: CurrentActor, investment_id: str, until: str | None = None,
                   client_offset: ClientOffset = None):
    return download(*performance.export(actor=actor, portfolio_id=path_id(investment_id), file_format=file_format(request),
                                        until=performance.read_until(until), client_offset=offset_minutes(client_offset)))


@router.get("/users/{user_id}/performance", **answers(PerformanceOut))
def client_performance(actor: CurrentActor, user_id: str, until: str | None = None):
    # a client's own id reads as theirs, text that is no id too (None: the client themselves)
    return ok(PerformanceOut.of(performance.client_performance(actor=actor, client_id=as_id(user_id),
                                                               until=performance.read_until(until))))


@router.get("/users/{user_id}/performance/export-pdf", name="client_pdf", response_class=Response, responses=_PDF)
@router.get("/users/{user_id}/performance/export-excel", name="client_excel", response_class=Response, responses=_XLSX)
def client_file(request: Request, actor: CurrentActor, user_id: str, until: str | None = None,
                client_offset: ClientOffset = None):
    return download(*performance.export(actor=actor, client_id=as_id(user_id), file_format=file_format(request),
                                        until=performance.read_until(until), client_offset=offset_minutes(client_offset)))
