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
from pydantic import BaseModel, ConfigDict

from app.api.deps import CurrentActor, listing, ok
from app.exports.recommendations_csv import content_disposition
from app.services import custom_holdings, holdings

from app.api.payloads import (
    AssetClassOption, CustomHoldingOut, DeletedOut, HoldingsOut, OwnershipOut, PortfolioAssetOut, Valid,
)
from app.api.schemas import CountTotals, Envelope, Page, SentAmount, SentId, SentText


router = APIRouter(tags=["holdings"])


class CustomHoldingBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: SentId = None
    investment_id: SentId = None
    name: SentText = None
    class_id: SentId = None
    fee: SentAmount = None
    value: SentAmount = None


def _file(name: str, data: bytes, media_type: str) -> Response:
    return Response(content=data, media_type=media_type,
                    headers={"Content-Disposition": content_disposition(name), "Cache-Control": "no-store"})


@router.get("/investments/{investment_id}/assets", response_model_exclude_unset=True, response_model=Envelope[Page[PortfolioAssetOut]])
def list_assets(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None,
                firm_id: str | None = None):
    rows, total = holdings.list_assets(actor=actor, portfolio_id=investment_id, limit=limit, offset=offset,
                                       firm_id=firm_id)
    return listing(rows, total)


@router.get("/investments/{investment_id}/holdings", response_model_exclude_unset=True, response_model=Envelope[HoldingsOut])
def get_holdings(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None):
    return ok(holdings.get_holdings(actor=actor, portfolio_id=investment_id, limit=limit, offset=offset))


@router.get("/investments/{investment_id}/holdings/export-excel", response_class=Response, responses={200: {
    "description": "the holdings workbook", "content": {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}}}})
def export_excel(actor: CurrentActor, request: Request, investment_id: str):
    return _file(*holdings.export(actor=actor, portfolio_id=investment_id, file_format="xlsx",
                                  client_offset=request.query_params.get("client-timezone-offset")))


@router.get("/investments/{investment_id}/holdings/export-pdf", response_class=Response,
            responses={200: {"description": "the holdings as PDF", "content": {"application/pdf": {}}}})
def export_pdf(actor: CurrentActor, request: Request, investment_id: str):
    return _file(*holdings.export(actor=actor, portfolio_id=investment_id, file_format="pdf",
                                  client_offset=request.query_params.get("client-timezone-offset")))


@router.get("/investments-asset-ownership", response_model_exclude_unset=True, response_model=Envelope[CountTotals[OwnershipOut]])
def asset_ownership(actor: CurrentActor, date: str | None = None):
    """Who held which listed asset at the end of `date` (YYYY-MM-DD; default today)."""
    rows = holdings.asset_ownership(actor=actor, on=date)
    return ok({"rows": rows, "totals": {"count": len(rows)}})


@router.get("/investments/{investment_id}/custom-holdings", response_model_exclude_unset=True, response_model=Envelope[Page[CustomHoldingOut]])
def list_custom_holdings(actor: CurrentActor, investment_id: str):
    rows = custom_holdings.list_for_portfolio(actor=actor, portfolio_id=investment_id)
    return listing(rows, len(rows))


@router.get("/investments/{investment_id}/custom-holding-classes", response_model_exclude_unset=True, response_model=Envelope[list[AssetClassOption]])
def custom_holding_classes(actor: CurrentActor, investment_id: str):
    return ok(custom_holdings.class_options(actor=actor, portfolio_id=investment_id))


@router.post("/custom-holdings/validate", response_model_exclude_unset=True, response_model=Envelope[Valid])
def validate_custom_holding(actor: CurrentActor, body: CustomHoldingBody):
    return ok(custom_holdings.validate(actor=actor, data=body.model_dump()))


@router.post("/custom-holdings", response_model_exclude_unset=True, response_model=Envelope[CustomHoldingOut])
def create_custom_holding(actor: CurrentActor, body: CustomHoldingBody):
    return ok(custom_holdings.create(actor=actor, data=body.model_dump(exclude={"id"})))


@router.get("/custom-holdings/{holding_id}", response_model_exclude_unset=True, response_model=Envelope[CustomHoldingOut])
def get_custom_holding(actor: CurrentActor, holding_id: str):
    return ok(custom_holdings.get(actor=actor, holding_id=holding_id))


@router.put("/custom-holdings/{holding_id}", response_model_exclude_unset=True, response_model=Envelope[CustomHoldingOut])
def update_custom_holding(actor: CurrentActor, holding_id: str, body: CustomHoldingBody):
    return ok(custom_holdings.update(actor=actor, holding_id=holding_id,
                                     data=body.model_dump(exclude_unset=True, exclude={"id", "investment_id"})))


@router.delete("/custom-holdings/{holding_id}", response_model_exclude_unset=True, response_model=Envelope[DeletedOut])
def delete_custom_holding(actor: CurrentActor, holding_id: str):
    return ok(custom_holdings.delete(actor=actor, holding_id=holding_id))
