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
from typing import Any, Optional, Union

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, Field
from pydantic_core import to_json

from app.api.deps import ClientOffset, CurrentActor, answers, download, file_format, listing, ok, read_upload
from app.api.schemas import Amount, Body, Id, Page, Rows, payload_of, query_number, rendered
from app.domain.parsing import as_id, firm_choice
from app.domain.timezones import client_offset as read_offset
from app.services import orders, trade_approval_report as approval, trade_file

from app.api.payloads import UploadOut

router = APIRouter(tags=["reports"])


# ---- typed payloads: the services' rows, described ------------------------------------------------------
TradeFileRowOut = payload_of("TradeFileRowOut", trade_file.TradeFileRow, descriptions={
    "action": "BUY or SELL",
    "instruction": "the recommendation's action code at generation (BUY, SELL, SL/SELL ...)",
    "type": "New, Amend, Cancel or Maintain",
    "status": "Approved (not sent yet) or Placed",
    "transaction_type": "market, limit or stop_loss",
})
CashSummaryOut = payload_of("CashSummaryOut", trade_file.CashSummaryRow, descriptions={
    "background": "red or yellow (001 s9 cash colour tests), or null",
    "text": "red or yellow text colour, or null",
})


class TradeFileOut(BaseModel):
    firmId: Optional[int]
    rows: list[TradeFileRowOut]
    cash: list[CashSummaryOut]


ApprovalItemOut = payload_of("ApprovalItemOut", approval.ApprovalItem, descriptions={
    "item_type": "1 transaction, 2 note"})
ApprovalGroupOut = payload_of("ApprovalGroupOut", approval.ApprovalGroup, types={"items": list[ApprovalItemOut]})
BulkOut = payload_of("BulkOut", approval.BulkOutcome)
OrderOut = payload_of("OrderOut", orders.OrderRow, descriptions={
    "status_label": "Placed, Partly filled, Executed, Expired, Cancelled or Error",
    "price_text": "the order's price in words: Market, Limit $12.50, Stop loss at $30.54, then market",
    "expiry_text": "DD/MM/YYYY, or GTC (good till cancelled)"})
ReconciliationLineOut = payload_of("ReconciliationLineOut", orders.ReconciliationLine, types={"order": OrderOut})
BrokerTotalOut = payload_of("BrokerTotalOut", orders.BrokerTotal)
ReconciliationOut = payload_of("ReconciliationOut", orders.Reconciliation, types={
    "lines": list[ReconciliationLineOut], "totals": list[BrokerTotalOut]})


# ---- request bodies ---------------------------------------------------------------------------------------
class ExportTransaction(Body):
    id: Id
    quantity: Optional[Amount] = None
    price: Optional[Amount] = None
    amount: Optional[Amount] = None
    expirationDate: Optional[str] = Field(default=None, description="YYYY-MM-DD, today or later; ends at the end of the day UTC")


class ExportBody(Body):
    transactions: list[ExportTransaction] = Field(default_factory=list)
    firmId: Optional[Id] = None
    downloadAll: bool = Field(default=False, description="also write the orders already placed")


class ValidateBody(Body):
    trade_instructions: list[Union[Id, dict[str, Any]]]


class Decision(Body):
    id: Id
    decision: str = Field(description="approved or declined")


class InstructionDecisions(Body):
    id: Id
    transactions: list[Decision] = Field(default_factory=list)


class ConfirmBody(Body):
    trade_instructions: list[Union[InstructionDecisions, Id]]
    notes: list[Decision] = Field(default_factory=list)
    is_approve_all: bool = False


class ExecuteBody(Body):
    price: Amount
    fee: Optional[Amount] = None
    quantity: Optional[Amount] = None
    trade_date: Optional[str] = None
    settlement_date: Optional[str] = None
    contract_note: Optional[str] = None


class RejectBody(Body):
    reason: Optional[str] = None


def _file(result) -> Response:
    """A broker file or report file of the services (name, data, media_type), to save."""
    return download(result.name, result.data, result.media_type)


# ---- trade file ---------------------------------------------------------------------------------------
@router.get("/reports/trade-file-generate", **answers(TradeFileOut))
def trade_file_generate(actor: CurrentActor, firm_id: Optional[str] = Query(None, alias="firmId")):
    report = trade_file.generate(actor=actor, firm_id=firm_choice(firm_id))
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
    return _file(trade_file.export(actor=actor, kind=kind, firm_id=firm_choice(body.firmId),
                                   lines=trade_file.read_export_lines([t.model_dump() for t in body.transactions]),
                                   download_all=body.downloadAll))


_FILE_RESPONSES: dict[int | str, dict[str, Any]] = {200: {"description": "the broker file", "content": {
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}, "text/csv": {}}}}
_PDF_RESPONSES: dict[int | str, dict[str, Any]] = {200: {"description": "PDF", "content": {"application/pdf": {}}}}


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
    return _file(trade_file.desktop_broker_file(actor=actor, firm_id=firm_choice(firm_id)))


# ---- approval report -------------------------------------------------------------------------------------
def _statuses(request: Request) -> list[str]:
    return request.query_params.getlist("status[]") or request.query_params.getlist("status")


@router.get("/reports/trade-recommendations-generate", **answers(Rows[ApprovalGroupOut]))
def approval_generate(actor: CurrentActor, request: Request, adviser: Optional[str] = None,
                      order: Optional[str] = None):
    groups = approval.generate(actor=actor, adviser=approval.read_adviser(adviser), order=order,
                               statuses=_statuses(request))
    return ok({"rows": [asdict(g) for g in groups]})


@router.put("/reports/trade-recommendations-validate", **answers(BulkOut))
def approval_validate(actor: CurrentActor, body: ValidateBody):
    return ok(asdict(approval.validate(actor=actor,
                                       trade_instructions=approval.read_instruction_ids(body.trade_instructions))))


@router.put("/reports/trade-recommendations-confirm", **answers(BulkOut))
def approval_confirm(actor: CurrentActor, body: ConfirmBody):
    items = [t.model_dump() if isinstance(t, BaseModel) else t for t in body.trade_instructions]
    outcome = approval.confirm(actor=actor, decisions=approval.read_decisions(items, [n.model_dump() for n in body.notes]),
                               is_approve_all=body.is_approve_all)
    return ok(asdict(outcome))


@router.get("/reports/trade-instructions-export-excel", response_class=Response, responses=_FILE_RESPONSES)
def approval_excel(actor: CurrentActor, request: Request, client_offset: ClientOffset = None,
                   adviser: Optional[str] = None, order: Optional[str] = None, mode: Optional[str] = None):
    return _file(approval.export(actor=actor, file_format="xlsx", adviser=approval.read_adviser(adviser), order=order,
                                 statuses=_statuses(request), mode=mode, client_offset=read_offset(client_offset)))


@router.get("/reports/trade-instructions-export-pdf", response_class=Response, responses=_PDF_RESPONSES)
def approval_pdf(actor: CurrentActor, request: Request, client_offset: ClientOffset = None,
                 adviser: Optional[str] = None, order: Optional[str] = None):
    return _file(approval.export(actor=actor, file_format="pdf", adviser=approval.read_adviser(adviser), order=order,
                                 statuses=_statuses(request), client_offset=read_offset(client_offset)))


@router.get("/investments/{investment_id}/trade-instructions/export-pdf", name="portfolio_pdf",
            response_class=Response, responses=_PDF_RESPONSES)
@router.get("/investments/{investment_id}/trade-instructions/export-excel", name="portfolio_excel",
            response_class=Response, responses=_FILE_RESPONSES)
def portfolio_file(request: Request, actor: CurrentActor, investment_id: str, client_offset: ClientOffset = None,
                   version: Optional[str] = None):
    return _file(approval.portfolio_export(actor=actor, investment_id=as_id(investment_id) or 0,
                                           file_format=file_format(request),
                                           version=(as_id(version) or 0) if version else None,
                                           client_offset=read_offset(client_offset)))


# ---- orders ---------------------------------------------------------------------------------------------
def _order_id(text: str) -> int:
    """An order's id from the path (anything else names no order: 404 from the service)."""
    return as_id(text) or 0


@router.get("/orders", **answers(Page[OrderOut]))
def list_orders(actor: CurrentActor, firm_id: Optional[str] = Query(None, alias="firmId"), status: str = "placed",
                limit: Optional[str] = None, offset: Optional[str] = None):
    rows, total = orders.list_orders(actor=actor, firm_id=firm_choice(firm_id), status=status,
                                     limit=query_number(limit), offset=query_number(offset))
    return listing([asdict(r) for r in rows], total)


@router.put("/orders/{order_id}/execute", **answers(OrderOut))
def execute_order(actor: CurrentActor, order_id: str, body: ExecuteBody):
    row = orders.execute(actor=actor, order_id=_order_id(order_id), execution=orders.read_execution(
        price=body.price, fee=body.fee, quantity=body.quantity, trade_date=body.trade_date,
        settlement_date=body.settlement_date, contract_note=body.contract_note))
    return ok(asdict(row))


@router.put("/orders/{order_id}/reject", **answers(OrderOut))
def reject_order(actor: CurrentActor, order_id: str, body: RejectBody):
    return ok(asdict(orders.reject(actor=actor, order_id=_order_id(order_id), reason=body.reason)))


@router.get("/orders/reconciliation", **answers(ReconciliationOut))
def order_reconciliation(actor: CurrentActor, day: Optional[str] = Query(None, description="YYYY-MM-DD or DD/MM/YYYY; "
                                                                               "empty: today (UTC)"),
                         firm_id: Optional[str] = Query(None, alias="firmId")):
    """What happened to the firm's orders on one day (placed, filled, partly filled, expired, cancelled,
    rejected), with totals by broker."""
    return ok(rendered(orders.reconciliation(actor=actor, day=orders.read_day(day, "day"),
                                             firm_id=firm_choice(firm_id))))


@router.get("/orders/reconciliation/export-excel", response_class=Response, responses=_FILE_RESPONSES)
def order_reconciliation_excel(actor: CurrentActor, day: Optional[str] = None,
                               firm_id: Optional[str] = Query(None, alias="firmId")):
    return _file(orders.reconciliation_file(actor=actor, day=orders.read_day(day, "day"),
                                            firm_id=firm_choice(firm_id)))


@router.put("/orders/{order_id}/cancel", **answers(OrderOut))
def cancel_order(actor: CurrentActor, order_id: str, body: RejectBody):
    """The broker confirmed the order cancelled: what was not executed is released (409 once the order
    is executed, expired, cancelled or rejected)."""
    return ok(asdict(orders.cancel(actor=actor, order_id=_order_id(order_id), reason=body.reason)))


@router.post("/orders/confirmations-upload", **answers(UploadOut))
async def upload_confirmations(actor: CurrentActor, file: UploadFile = File(...),
                               firm_id: Optional[str] = Form(None, alias="firmId")):
    content_type, data = await read_upload(file, orders.MAX_UPLOAD_BYTES)
    return ok(asdict(orders.upload_confirmations(actor=actor, content_type=content_type, data=data,
                                                firm_id=firm_choice(firm_id))))
