"""Cash transactions, the opening balance, asset transactions and the transaction upload of a
portfolio (spec 002 s7; paths the specification does not show are in the style of 001 s7).

GET    /api/investments/{id}/cash-transactions               query page, offset, limit (or limit_per_page),
                                                             order, reverse -> {rows, count, balance, cash_in, cash_out}
POST   /api/cash-transactions                                {investment_id, type (withdrawal | credit | income),
                                                             price, trade_at, settlement_at, status, description}
GET    /api/cash-transactions/{id}                           one cash transaction
PUT    /api/cash-transactions/{id}                           the same fields (left out: unchanged)
DELETE /api/cash-transactions/{id}                           -> {notice} (+ message: a warning)
GET    /api/investments/{id}/opening-balance                 -> {id, investment_id, price, trade_at} or null
PUT    /api/investments/{id}/opening-balance                 {price, trade_at} -> ... changed, changed_fields, notice
GET    /api/investments/{id}/asset-transactions              query page, offset, limit, order, reverse -> array of
                                                             assets with totals; total_rows on the first row
GET    /api/investments/{id}/asset-transactions/{asset_id}   query statuses[], types[], offset, limit -> array
POST   /api/transactions                                     createTransaction: {investment_id, type, asset_id | code,
                                                             ...the form's fields} (a cash form type adds cash)
GET    /api/transactions/{id}                                one asset transaction
PUT    /api/transactions/{id}                                the form's fields; confirm: true to save an errored
                                                             transaction's edit as a new transaction
DELETE /api/transactions/{id}                                -> {notice} (+ message: a warning)
POST   /api/transactions/upload                              multipart: investment_id, file -> {notice, count, ...}
GET    /api/transaction-form-options                         forms, statuses, panel filters, page sizes

The bodies are read here into the service's forms (transaction_rules.read_transaction_form and
read_opening_balance), the paging query into numbers and a direction, path ids through path_id;
the answers are the service's values rendered as the payloads below.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from fastapi import APIRouter, Depends, Query, Request
from pydantic import ConfigDict, Field

from app.api.deps import CurrentActor, answers, form_with_file, ok
from app.api.resources import Resource
from app.api.schemas import Amount, Body, Flag, Id, path_id, query_number, read_by_hand, rendered, sent
from app.domain import transaction_rules as rules
from app.domain.parsing import as_id
from app.domain.uploads import MAX_UPLOAD_BYTES, SELECT_FILE
from app.services import transaction_upload, transactions

from app.api.payloads import (
    AssetPositionOut, AssetTransactionOut, CashTransactionOut, CashTransactionsOut, Notice, OpeningBalanceOut,
    TransactionFormOptionsOut, TransactionUploadOut,
)

router = APIRouter(tags=["transactions"])


class CashTransactionBody(Body):
    """A withdrawal, credit or income (on an edit, fields left out keep their value)."""
    investment_id: Optional[Id] = None
    type: Optional[str] = Field(None, description="withdrawal, credit or income")
    action: Optional[str] = None
    price: Optional[Amount] = Field(None, description="the amount (or `amount`)")
    amount: Optional[Amount] = None
    trade_at: Optional[str] = Field(None, description="YYYY-MM-DD")
    settlement_at: Optional[str] = Field(None, description="YYYY-MM-DD")
    status: Optional[str] = Field(None, description="executed by default")
    description: Optional[str] = None


class OpeningBalanceBody(Body):
    price: Optional[Amount] = None
    trade_at: Optional[str] = Field(None, description="YYYY-MM-DD")


class TransactionBody(CashTransactionBody):
    """createTransaction / an asset transaction's form: a cash form type (withdrawal, credit,
    income) adds a cash transaction, any other type an asset transaction of asset_id or code."""
    # extra="allow": each transaction type has its own form (spec 002 s7); the service's form
    # reader (app.domain.transactions) checks the fields of the type given, so they pass unchanged.
    model_config = ConfigDict(extra="allow")
    asset_id: Optional[Id] = None
    code: Optional[str] = None
    ex_date: Optional[str] = Field(None, description="YYYY-MM-DD")
    quantity: Optional[Amount] = None
    fee: Optional[Amount] = None
    gst: Optional[Amount] = None
    franking_credits: Optional[Amount] = None
    ratio: Optional[Amount] = None
    limit_price: Optional[Amount] = None
    contract_note: Optional[str] = None
    order_id: Optional[str] = None
    confirm: Optional[Flag] = Field(None, description="editing an errored transaction: save the edit as a new one")


class TransactionUploadForm(Body):
    """multipart/form-data of POST /api/transactions/upload."""
    investment_id: Id = Field(description="the portfolio")
    file: bytes = Field(description="CSV or .xlsx: the columns date, type, code, quantity, price, fee, gst, amount, "
                                    "franking_credits, ratio, description, status (date and type required); at most "
                                    f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB")


def _paging(page: str | None = None, offset: str | None = None, limit: str | None = None,
            limit_per_page: str | None = None, order: str | None = None, reverse: str | None = None) -> dict[str, Any]:
    """The query of a portfolio's transaction panels: a page (limit, or limit_per_page), its order."""
    return dict(page=query_number(page), offset=query_number(offset),
                limit=query_number(limit if limit not in (None, "") else limit_per_page), order=order,
                reverse=rules.read_reverse(reverse))


Paging = Depends(_paging)


def transaction_form(body: Optional[Body]) -> rules.TransactionForm:
    """The form the service takes, read once from the keys the client sent."""
    return rules.read_transaction_form(sent(body))


def counted_rows(rows: Sequence[object], total: int) -> list[Any]:
    """A panel's rows as their payloads, the first carrying total_rows (the rows of every page)."""
    shown: list[Any] = rendered(list(rows))
    if shown:
        shown[0]["total_rows"] = total
    return shown


# ---- cash transactions ---------------------------------------------------------------------------
@router.get("/investments/{investment_id}/cash-transactions", **answers(CashTransactionsOut))
def list_cash_transactions(actor: CurrentActor, investment_id: str, paging: dict = Paging):
    return ok(rendered(transactions.list_cash_transactions(actor=actor, investment_id=path_id(investment_id),
                                                           **paging)))


cash_transaction = Resource(router, "/cash-transactions", "transaction_id", CashTransactionOut, CashTransactionBody,
                            form_of=transaction_form)
cash_transaction.create(transactions.create_cash_transaction)
cash_transaction.get(transactions.get_cash_transaction)
cash_transaction.update(transactions.update_cash_transaction)
cash_transaction.delete(transactions.delete_cash_transaction, out=Notice)


# ---- opening balance -------------------------------------------------------------------------------
@router.get("/investments/{investment_id}/opening-balance", **answers(Optional[OpeningBalanceOut]))
def get_opening_balance(actor: CurrentActor, investment_id: str):
    return ok(rendered(transactions.get_opening_balance(actor=actor, investment_id=path_id(investment_id))))


@router.put("/investments/{investment_id}/opening-balance", **answers(OpeningBalanceOut))
def set_opening_balance(actor: CurrentActor, investment_id: str, body: OpeningBalanceBody):
    return ok(rendered(transactions.set_opening_balance(actor=actor, investment_id=path_id(investment_id),
                                                        form=rules.read_opening_balance(sent(body)))))


# ---- asset transactions ------------------------------------------------------------------------
@router.get("/investments/{investment_id}/asset-transactions", **answers(list[AssetPositionOut]))
def list_asset_transactions(actor: CurrentActor, investment_id: str, paging: dict = Paging):
    page = transactions.list_asset_positions(actor=actor, investment_id=path_id(investment_id), **paging)
    return ok(counted_rows(page.rows, page.total))


@router.get("/investments/{investment_id}/asset-transactions/{asset_id}", **answers(list[AssetTransactionOut]))
def list_transactions_of_asset(actor: CurrentActor, investment_id: str, asset_id: str,
                               statuses: list[str] = Query(default=[], alias="statuses[]"),
                               statuses_plain: list[str] = Query(default=[], alias="statuses", include_in_schema=False),
                               types: list[str] = Query(default=[], alias="types[]"),
                               types_plain: list[str] = Query(default=[], alias="types", include_in_schema=False),
                               offset: str | None = None, limit: str | None = None):
    found = transactions.list_transactions_of_asset(
        actor=actor, investment_id=path_id(investment_id), asset_id=path_id(asset_id),
        statuses=[*statuses, *statuses_plain], types=[*types, *types_plain], offset=query_number(offset),
        limit=query_number(limit))
    return ok(counted_rows(found.rows, found.total))


@router.get("/transaction-form-options", **answers(TransactionFormOptionsOut))
def transaction_form_options(actor: CurrentActor):
    return ok(rendered(transactions.form_options()))


@router.post("/transactions/upload", openapi_extra=read_by_hand(("multipart/form-data", TransactionUploadForm)), **answers(TransactionUploadOut))
async def upload_transactions(actor: CurrentActor, request: Request):
    """multipart/form-data: investment_id, file (CSV or .xlsx)."""
    form, content_type, data = await form_with_file(request, limit=MAX_UPLOAD_BYTES,
                                                    select_file=SELECT_FILE)
    return ok(rendered(transaction_upload.upload_transactions(actor=actor, investment_id=as_id(form.get("investment_id")),
                                                              content_type=content_type, data=data)))


asset_transaction = Resource(router, "/transactions", "transaction_id", AssetTransactionOut, TransactionBody,
                             form_of=transaction_form)
asset_transaction.create(transactions.create_transaction)
asset_transaction.get(transactions.get_asset_transaction, name="get_transaction")


@router.put("/transactions/{transaction_id}", **answers(AssetTransactionOut))
def update_transaction(actor: CurrentActor, transaction_id: str, body: TransactionBody):
    data = sent(body)
    confirm = data.get("confirm") in (True, 1, "1", "true", "True")
    return ok(rendered(transactions.update_asset_transaction(
        actor=actor, transaction_id=path_id(transaction_id), form=rules.read_transaction_form(data), confirm=confirm)))


asset_transaction.delete(transactions.delete_asset_transaction, name="delete_transaction", out=Notice)
