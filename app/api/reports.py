"""Trade reports, broker files and order status (spec 001 s7; paths it does not show are in the same style).

GET  /api/reports/trade-file-generate                     query firmId -> the trade file rows and each portfolio's cash summary
POST /api/reports/trade-file-report-export                body transactions, firmId, downloadAll -> the trade file (.xlsx)
POST /api/reports/trade-file-report-desktop-broker-export same -> the Desktop Broker file (.csv)
POST /api/reports/trade-file-ausiex-export                same -> the AUSIEX file (.csv)
GET  /api/reports/desktop-broker-export-excel             query firmId (token query allowed) -> the Desktop Broker trade file page as .xlsx
GET  /api/reports/trade-recommendations-generate          query adviser, order, status[] (spv, spa, sad) -> the approval report
PUT  /api/reports/trade-recommendations-validate          body trade_instructions -> 'Trades validated'
PUT  /api/reports/trade-recommendations-confirm           body trade_instructions, notes, is_approve_all -> 'Trades confirmed'
GET  /api/reports/trade-instructions-export-excel         query adviser, order, status[], mode standart|simple (token query allowed)
GET  /api/reports/trade-instructions-export-pdf           query adviser, order, status[] (token query allowed)
GET  /api/investments/{id}/trade-instructions/export-excel query version -> one portfolio's trade recommendations
GET  /api/investments/{id}/trade-instructions/export-pdf   the same as PDF
GET  /api/orders                                          query firmId, status placed|executed|error|all, limit, offset
PUT  /api/orders/{id}/execute                             body price, fee, quantity, trade_date, settlement_date, contract_note
PUT  /api/orders/{id}/reject                              body reason
POST /api/orders/confirmations-upload                     multipart file (+ firmId): the broker's execution file, all lines or none
"""
from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Optional, Union

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_json

from app.api.deps import CurrentActor, ok
from app.exports.recommendations_csv import content_disposition
from app.services import orders, trade_approval_report as approval, trade_file

router = APIRouter(tags=["reports"])


def _file(name: str, data: bytes, media_type: str) -> Response:
    return Response(content=data, media_type=media_type, headers={"Content-Disposition": content_disposition(name)})


# ---- typed payloads -----------------------------------------------------------------------------------
class TradeFileRowOut(BaseModel):
    recommendation_id: int
    investment_id: int
    investment_name: str
    broker_id: Optional[int]
    broker_name: str
    action: str = Field(description="BUY or SELL")
    instruction: str = Field(description="the recommendation's action code at generation (BUY, SELL, SL/SELL ...)")
    asset_code: str
    asset_id: int
    amount: Decimal
    pending_amount: Decimal
    min_trade_amount: Decimal
    brokerage: Decimal
    limit_price: Optional[Decimal]
    last_close_price: Optional[Decimal]
    quantity: Decimal
    limit_vs_price_percentage: Optional[Decimal]
    limit_vs_price_value: Optional[Decimal]
    type: str = Field(description="New, Amend, Cancel or Maintain")
    status: str = Field(description="Approved (not sent yet) or Placed")
    transaction_type: str = Field(description="market, limit or stop_loss")
    asset_class_title: str
    asset_type_id: Optional[int]
    adviser_id: Optional[int]
    adviser_name: str
    firm_id: int
    hin: str
    broker_account: str
    hidden: bool
    selected: bool
    raw_pending_amount: Decimal
    recommended_quantity: Decimal
    current_units: Optional[Decimal]
    full_sell: bool
    stop_loss: bool
    urgent: bool
    placed_transaction_id: Optional[int]
    expiry: Optional[date]


class CashSummaryOut(BaseModel):
    investment_id: int
    investment_name: str
    sumAmountBuyForPortfolio: Decimal
    sumAmountSellForPortfolio: Decimal
    sumCashAssets: Decimal
    minCashBalance: Decimal
    availableCash: Decimal
    background: Optional[str] = Field(description="red or yellow (001 s9 cash colour tests), or null")
    text: Optional[str] = Field(description="red or yellow text colour, or null")


class TradeFileOut(BaseModel):
    firmId: Optional[int]
    rows: list[TradeFileRowOut]
    cash: list[CashSummaryOut]


class TradeFileEnvelope(BaseModel):
    success: bool = True
    result: TradeFileOut


class ExportTransaction(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: Union[int, str]
    quantity: Optional[Union[Decimal, str]] = None
    price: Optional[Union[Decimal, str]] = None
    amount: Optional[Union[Decimal, str]] = None
    expirationDate: Optional[str] = Field(default=None, description="YYYY-MM-DD, today or later; ends at the end of the day UTC")


class ExportBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    transactions: list[ExportTransaction] = Field(default_factory=list)
    firmId: Optional[Union[int, str]] = None
    downloadAll: bool = Field(default=False, description="also write the orders already placed")


class ApprovalItemOut(BaseModel):
    trade_inst_id: int
    ti_status: str
    ti_status_label: str
    ti_count: int
    inactive: bool
    is_holder: bool
    item_type: int = Field(description="1 transaction, 2 note")
    tr_id: Optional[int]
    tr_status: Optional[str]
    tr_status_label: str
    tr_declined_at: Optional[datetime]
    tr_approved_at: Optional[datetime]
    str_id: Optional[int]
    state: Optional[str]
    source: Optional[str]
    decision: Optional[str]
    investment_id: int
    investment_name: str
    asset_code: str
    action: str
    quantity: Optional[Decimal]
    price: Optional[Decimal]
    value: Optional[Decimal]
    text: str
    pending: bool


class ApprovalGroupOut(BaseModel):
    trade_inst_id: int
    investment_id: int
    investment_name: str
    status: str
    status_label: str
    row_version: int
    created_at: datetime
    inactive: bool
    is_holder: bool
    can_validate: bool
    can_approve: bool
    items: list[ApprovalItemOut]


class ApprovalReportOut(BaseModel):
    rows: list[ApprovalGroupOut]


class ApprovalReportEnvelope(BaseModel):
    success: bool = True
    result: ApprovalReportOut


class ValidateBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    trade_instructions: list[Union[int, str, dict[str, Any]]]


class Decision(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: Union[int, str]
    decision: str = Field(description="approved or declined")


class InstructionDecisions(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: Union[int, str]
    transactions: list[Decision] = Field(default_factory=list)


class ConfirmBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    trade_instructions: list[Union[InstructionDecisions, int, str]]
    notes: list[Decision] = Field(default_factory=list)
    is_approve_all: bool = False


class BulkOut(BaseModel):
    message: str
    done: list[int]
    failed: dict[int, str]


class BulkEnvelope(BaseModel):
    success: bool = True
    result: BulkOut


class OrderOut(BaseModel):
    id: int
    investment_id: int
    investment_name: str
    account: str
    asset_code: str
    side: str
    quantity: Decimal
    price: Optional[Decimal]
    limit_price: Optional[Decimal]
    fee: Optional[Decimal]
    amount: Optional[Decimal]
    status: str
    status_label: str = Field(description="Placed, Executed or Error")
    order_type: str
    placed_at: datetime
    expires_at: Optional[datetime]
    trade_at: datetime
    settlement_at: Optional[datetime]
    recommendation_id: Optional[int]
    reason: Optional[str]


class OrdersOut(BaseModel):
    rows: list[OrderOut]
    totals: list[dict[str, int]]


class OrdersEnvelope(BaseModel):
    success: bool = True
    result: OrdersOut


class OrderEnvelope(BaseModel):
    success: bool = True
    result: OrderOut


class ExecuteBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    price: Union[Decimal, str]
    fee: Optional[Union[Decimal, str]] = None
    quantity: Optional[Union[Decimal, str]] = None
    trade_date: Optional[str] = None
    settlement_date: Optional[str] = None
    contract_note: Optional[str] = None


class RejectBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    reason: Optional[str] = None


class UploadOut(BaseModel):
    notice: str
    count: int


class UploadEnvelope(BaseModel):
    success: bool = True
    result: UploadOut


# ---- trade file ---------------------------------------------------------------------------------------
@router.get("/reports/trade-file-generate", response_model=TradeFileEnvelope)
def trade_file_generate(actor: CurrentActor, firm_id: Optional[str] = Query(None, alias="firmId")):
    report = trade_file.generate(actor=actor, firm_id=firm_id)
    # A firm's file has tens of thousands of rows: the declared fields are read straight off the
    # service's rows and written by pydantic's serializer, without validating each row again
    # (the response model still documents the payload).
    return Response(to_json(ok({"firmId": report.firm_id, "rows": _declared(report.rows, TradeFileRowOut),
                                "cash": _declared(report.cash, CashSummaryOut)})),
                    media_type="application/json")


def _declared(rows: list[Any], model: type[BaseModel]) -> list[dict[str, Any]]:
    names = tuple(model.model_fields)
    return [{name: getattr(row, name) for name in names} for row in rows]


def _export(actor, kind: str, body: ExportBody) -> Response:
    result = trade_file.export(actor=actor, kind=kind, firm_id=body.firmId,
                               transactions=[t.model_dump() for t in body.transactions],
                               download_all=body.downloadAll)
    return _file(result.name, result.data, result.media_type)


_FILE_RESPONSES = {200: {"description": "the broker file", "content": {
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}, "text/csv": {}}}}


@router.post("/reports/trade-file-report-export", response_class=Response, responses=_FILE_RESPONSES)
def trade_file_export(actor: CurrentActor, body: ExportBody):
    return _export(actor, "trade_file", body)


@router.post("/reports/trade-file-report-desktop-broker-export", response_class=Response, responses=_FILE_RESPONSES)
def desktop_broker_export(actor: CurrentActor, body: ExportBody):
    return _export(actor, "desktop_broker", body)


@router.post("/reports/trade-file-ausiex-export", response_class=Response, responses=_FILE_RESPONSES)
def ausiex_export(actor: CurrentActor, body: ExportBody):
    return _export(actor, "ausiex", body)


@router.get("/reports/desktop-broker-export-excel", response_class=Response, responses=_FILE_RESPONSES)
def desktop_broker_excel(actor: CurrentActor, firm_id: Optional[str] = Query(None, alias="firmId")):
    result = trade_file.desktop_broker_file(actor=actor, firm_id=firm_id)
    return _file(result.name, result.data, result.media_type)


# ---- approval report -------------------------------------------------------------------------------------
def _statuses(request: Request) -> list[str]:
    return request.query_params.getlist("status[]") or request.query_params.getlist("status")


@router.get("/reports/trade-recommendations-generate", response_model=ApprovalReportEnvelope)
def approval_generate(actor: CurrentActor, request: Request, adviser: Optional[str] = None,
                      order: Optional[str] = None):
    groups = approval.generate(actor=actor, adviser=adviser, order=order, statuses=_statuses(request))
    return ok({"rows": [asdict(g) for g in groups]})


@router.put("/reports/trade-recommendations-validate", response_model=BulkEnvelope)
def approval_validate(actor: CurrentActor, body: ValidateBody):
    return ok(asdict(approval.validate(actor=actor, trade_instructions=body.trade_instructions)))


@router.put("/reports/trade-recommendations-confirm", response_model=BulkEnvelope)
def approval_confirm(actor: CurrentActor, body: ConfirmBody):
    items = [t.model_dump() if isinstance(t, BaseModel) else t for t in body.trade_instructions]
    outcome = approval.confirm(actor=actor, trade_instructions=items, notes=[n.model_dump() for n in body.notes],
                               is_approve_all=body.is_approve_all)
    return ok(asdict(outcome))


@router.get("/reports/trade-instructions-export-excel", response_class=Response, responses=_FILE_RESPONSES)
def approval_excel(actor: CurrentActor, request: Request, adviser: Optional[str] = None, order: Optional[str] = None,
                   mode: Optional[str] = None):
    result = approval.export(actor=actor, file_format="xlsx", adviser=adviser, order=order,
                             statuses=_statuses(request), mode=mode,
                             client_offset=request.query_params.get("client-timezone-offset"))
    return _file(result.name, result.data, result.media_type)


@router.get("/reports/trade-instructions-export-pdf", response_class=Response,
            responses={200: {"description": "PDF", "content": {"application/pdf": {}}}})
def approval_pdf(actor: CurrentActor, request: Request, adviser: Optional[str] = None, order: Optional[str] = None):
    result = approval.export(actor=actor, file_format="pdf", adviser=adviser, order=order,
                             statuses=_statuses(request),
                             client_offset=request.query_params.get("client-timezone-offset"))
    return _file(result.name, result.data, result.media_type)


@router.get("/investments/{investment_id}/trade-instructions/export-excel", response_class=Response,
            responses=_FILE_RESPONSES)
def portfolio_excel(actor: CurrentActor, request: Request, investment_id: str, version: Optional[str] = None):
    result = approval.portfolio_export(actor=actor, investment_id=investment_id, file_format="xlsx", version=version,
                                       client_offset=request.query_params.get("client-timezone-offset"))
    return _file(result.name, result.data, result.media_type)


@router.get("/investments/{investment_id}/trade-instructions/export-pdf", response_class=Response,
            responses={200: {"description": "PDF", "content": {"application/pdf": {}}}})
def portfolio_pdf(actor: CurrentActor, request: Request, investment_id: str, version: Optional[str] = None):
    result = approval.portfolio_export(actor=actor, investment_id=investment_id, file_format="pdf", version=version,
                                       client_offset=request.query_params.get("client-timezone-offset"))
    return _file(result.name, result.data, result.media_type)


# ---- orders ---------------------------------------------------------------------------------------------
@router.get("/orders", response_model=OrdersEnvelope)
def list_orders(actor: CurrentActor, firm_id: Optional[str] = Query(None, alias="firmId"), status: str = "placed",
                limit: Optional[str] = None, offset: Optional[str] = None):
    rows, total = orders.list_orders(actor=actor, firm_id=firm_id, status=status, limit=limit, offset=offset)
    return ok({"rows": [asdict(r) for r in rows], "totals": [{"count": total}]})


@router.put("/orders/{order_id}/execute", response_model=OrderEnvelope)
def execute_order(actor: CurrentActor, order_id: str, body: ExecuteBody):
    row = orders.execute(actor=actor, order_id=order_id, price=body.price, fee=body.fee, quantity=body.quantity,
                         trade_date=body.trade_date, settlement_date=body.settlement_date,
                         contract_note=body.contract_note)
    return ok(asdict(row))


@router.put("/orders/{order_id}/reject", response_model=OrderEnvelope)
def reject_order(actor: CurrentActor, order_id: str, body: RejectBody):
    return ok(asdict(orders.reject(actor=actor, order_id=order_id, reason=body.reason)))


@router.post("/orders/confirmations-upload", response_model=UploadEnvelope)
async def upload_confirmations(actor: CurrentActor, file: UploadFile = File(...),
                               firm_id: Optional[str] = Form(None, alias="firmId")):
    data = await file.read(orders.MAX_UPLOAD_BYTES + 1)
    return ok(orders.upload_confirmations(actor=actor, content_type=file.content_type, data=data, firm_id=firm_id))
