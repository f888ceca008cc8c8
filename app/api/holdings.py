"""A portfolio's holdings and its custom holdings (spec 001 s2/s3/s7, 002 s7 custom holding service).

GET    /api/investments/{id}/assets                 limit (12|20|32), offset, firm_id -> result.rows, result.totals[0].count
GET    /api/investments/{id}/holdings               the holdings result: cash_account, shares, deposits, custom_holdings,
                                                    classes (actual vs target), totals (optional limit/offset page the shares),
                                                    pending_trades (approved trades not executed yet: id, asset_id, code,
                                                    side BUY|SELL, units, status Approved|Placed, order_id)
GET    /api/investments/{id}/holdings/export-excel  the holdings as .xlsx (token query allowed, client-timezone-offset)
GET    /api/investments/{id}/holdings/export-pdf    the holdings as .pdf (same)
GET    /api/investments-asset-ownership             query date -> who held which asset at the end of that day
GET    /api/investments/{id}/custom-holdings        the portfolio's custom holdings
GET    /api/investments/{id}/custom-holding-classes the classes a custom holding of the portfolio may take
POST   /api/custom-holdings/validate                {investment_id | id, name, class_id, fee, value} -> {valid: true}
POST   /api/custom-holdings                         {investment_id, name, class_id, fee, value}
GET    /api/custom-holdings/{id}
PUT    /api/custom-holdings/{id}                    {name?, class_id?, fee?, value?}
DELETE /api/custom-holdings/{id}

A uniqueness failure answers 400 'ValidationError: Name should be unique.' with errors.name.
"""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.api.deps import (
    ClientOffset, CurrentActor, answers, download, file_format, listing, ok, portfolio_listing,
)
from app.domain import timezones
from app.domain.custom_holdings import read_form
from app.domain.holdings import ownership_day
from app.domain.parsing import as_id
from app.services import custom_holdings, holdings

from app.api.payloads import (
    AssetClassOption, CustomHoldingOut, DeletedOut, HoldingsOut, OwnershipOut, PortfolioAssetOut, Valid,
)
from app.api.schemas import Body, CountTotals, Page, SentAmount, SentId, SentText, path_id, query_number, rendered


router = APIRouter(tags=["holdings"])


class CustomHoldingBody(Body):
    id: SentId = None
    investment_id: SentId = None
    name: SentText = None
    class_id: SentId = None
    fee: SentAmount = None
    value: SentAmount = None


@router.get("/investments/{investment_id}/assets", **answers(Page[PortfolioAssetOut]))
def list_assets(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None,
                firm_id: str | None = None):
    found = holdings.list_assets(actor=actor, portfolio_id=path_id(investment_id), limit=query_number(limit),
                                 offset=query_number(offset), firm_id=as_id(firm_id))
    return listing(rendered(found.rows), found.total)


@router.get("/investments/{investment_id}/holdings", **answers(HoldingsOut))
def get_holdings(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None):
    shares_page = None if limit in (None, "") else holdings.page_bounds(query_number(limit), query_number(offset))
    return ok(rendered(holdings.get_holdings(actor=actor, portfolio_id=path_id(investment_id), shares_page=shares_page)))


@router.get("/investments/{investment_id}/holdings/export-pdf", name="export_pdf", response_class=Response,
            responses={200: {"description": "the holdings as PDF", "content": {"application/pdf": {}}}})
@router.get("/investments/{investment_id}/holdings/export-excel", name="export_excel", response_class=Response,
            responses={200: {"description": "the holdings workbook", "content": {
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}}}})
def export_file(request: Request, actor: CurrentActor, investment_id: str, client_offset: ClientOffset = None):
    return download(*holdings.export(actor=actor, portfolio_id=path_id(investment_id), file_format=file_format(request),
                                     offset=timezones.client_offset(client_offset)))


@router.get("/investments-asset-ownership", **answers(CountTotals[OwnershipOut]))
def asset_ownership(actor: CurrentActor, date: str | None = None):
    """Who held which listed asset at the end of `date` (YYYY-MM-DD; default today)."""
    return portfolio_listing(rendered(holdings.asset_ownership(actor=actor, on=ownership_day(date))))


@router.get("/investments/{investment_id}/custom-holdings", **answers(Page[CustomHoldingOut]))
def list_custom_holdings(actor: CurrentActor, investment_id: str):
    return listing(rendered(custom_holdings.list_for_portfolio(actor=actor, portfolio_id=path_id(investment_id))))


@router.get("/investments/{investment_id}/custom-holding-classes", **answers(list[AssetClassOption]))
def custom_holding_classes(actor: CurrentActor, investment_id: str):
    return ok(rendered(custom_holdings.class_options(actor=actor, portfolio_id=path_id(investment_id))))


@router.post("/custom-holdings/validate", **answers(Valid))
def validate_custom_holding(actor: CurrentActor, body: CustomHoldingBody):
    return ok(rendered(custom_holdings.validate(actor=actor, form=read_form(body.model_dump()))))


@router.post("/custom-holdings", **answers(CustomHoldingOut))
def create_custom_holding(actor: CurrentActor, body: CustomHoldingBody):
    return ok(rendered(custom_holdings.create(actor=actor, form=read_form(body.model_dump(exclude={"id"})))))


@router.get("/custom-holdings/{holding_id}", **answers(CustomHoldingOut))
def get_custom_holding(actor: CurrentActor, holding_id: str):
    return ok(rendered(custom_holdings.get(actor=actor, holding_id=path_id(holding_id))))


@router.put("/custom-holdings/{holding_id}", **answers(CustomHoldingOut))
def update_custom_holding(actor: CurrentActor, holding_id: str, body: CustomHoldingBody):
    form = read_form(body.model_dump(exclude_unset=True, exclude={"id", "investment_id"}))
    return ok(rendered(custom_holdings.update(actor=actor, holding_id=path_id(holding_id), form=form)))


@router.delete("/custom-holdings/{holding_id}", **answers(DeletedOut))
def delete_custom_holding(actor: CurrentActor, holding_id: str):
    return ok(rendered(custom_holdings.delete(actor=actor, holding_id=path_id(holding_id))))
