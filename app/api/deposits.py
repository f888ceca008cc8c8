"""Term deposits and at-call accounts (spec 002 s7 Deposit API; paths the spec does not show are in
the same style). Money is a string with two decimals, dates YYYY-MM-DD, field names the spec's.

GET  /api/deposits                        query where (JSON: investment_id, ProviderProductType, closed),
                                          limit, offset -> result.rows and result.totals[0].count
GET  /api/deposits/{id}                   the deposit with its transactions
GET  /api/deposits/{id}/amm-transactions  the same for the AMM modal (amm_type, can_reprocess per row)
POST /api/deposits                        Buy: investment_id, ProviderProductType, institution_id (or
                                          ProviderName + ProviderType), ProviderID, FacilityID,
                                          AccountNumber, DealID, StartDate, MaturityDate, MaturityTerm, Rate,
                                          AutoMatured, CutOffTime, amount, description
PUT  /api/deposits/{id}                   the buy form editing the deposit (dates, term, rate, AutoMatured,
                                          DealStatus, amount); the identity fields are fixed
POST /api/deposits/{id}/sell              Sell: StartDate (the day), amount, description
POST /api/deposits/{id}/interest-accrual  Interest Accrual (at-call accounts): StartDate, amount
POST /api/deposits/{id}/deposit           Deposit (at-call accounts): StartDate, amount
POST /api/deposits/{id}/income            Interest Payment (term deposits): StartDate, amount
PUT  /api/deposits/{id}/transactions/{transaction_id}  a deposit transaction's form in edit mode
POST /api/deposits/{id}/reprocess         Reprocess AMM transaction: the body is the deposit's data
                                          (optionally transaction_id) -> {title: 'Success',
                                          message: 'Transaction was sended to reprocessing', ...}
Writes answer {message: 'Transaction added' | 'Transaction updated', deposit, transaction}.
The bodies are read here into the service's DepositForm (rules.read_form) and `where` into its
DepositFilter; the answers are the service's values rendered as the payloads below.
The institutions picker's list is GET /api/institutions (portfolios router).
"""
from __future__ import annotations

from typing import Callable, Optional, Union

from fastapi import APIRouter
from pydantic import Field

from app.api.deps import CurrentActor, answers, listing, ok
from app.api.schemas import Amount, Body, Flag, Id, Lenient, Page, path_id, query_number, rendered, sent
from app.domain import deposits as rules
from app.services import deposits

from app.api.payloads import DepositDetailOut, DepositOut, DepositWriteOut, ReprocessOut

router = APIRouter(tags=["deposits"])

Text = Union[str, int]  # an identity field may be typed as a number; the service reads its text


class MoveBody(Body):
    """Sell, Interest Accrual, Deposit and Interest Payment (and a transaction's form in edit mode)."""
    investment_id: Optional[Id] = Field(None, description="when given, must be the deposit's portfolio")
    deposit_id: Optional[Id] = Field(None, description="when given, must be the deposit of the path")
    StartDate: Optional[str] = Field(None, description="the day, YYYY-MM-DD")
    amount: Optional[Amount] = Field(None, description="two decimals")
    description: Optional[str] = None


class DepositBody(MoveBody):
    """The buy form (and the same form editing a deposit, whose identity fields are fixed)."""
    ProviderProductType: Optional[str] = Field(None, description="Term Deposits or Cash Account")
    institution_id: Optional[Id] = Field(None, description="the institution picked (or ProviderName + ProviderType)")
    ProviderName: Optional[Text] = None
    ProviderType: Optional[Text] = None
    ProviderID: Optional[Text] = None
    FacilityID: Optional[Text] = None
    AccountNumber: Optional[Text] = None
    DealID: Optional[Text] = None
    MaturityDate: Optional[str] = Field(None, description="YYYY-MM-DD")
    MaturityTerm: Optional[Union[int, str]] = None
    Rate: Optional[Amount] = Field(None, description="percent a year")
    AutoMatured: Optional[Flag] = None
    CutOffTime: Optional[str] = Field(None, description="HH:MM")
    DealStatus: Optional[str] = None


class TransactionEditBody(DepositBody):
    TransactionType: Optional[str] = None


class ReprocessBody(DepositBody):
    id: Optional[Id] = Field(None, description="when given, must be the deposit of the path")
    transaction_id: Optional[Id] = Field(None, description="the AMM transaction to reprocess (default: the last)")


def _form(body: Optional[Body]) -> rules.DepositForm:
    """The form the service takes, read once from the keys the client sent."""
    return rules.read_form(sent(body))


@router.get("/deposits", **answers(Page[DepositOut]))
def list_deposits(actor: CurrentActor, where: str | None = None, limit: str | None = None, offset: str | None = None):
    page = deposits.list_deposits(actor=actor, where=rules.read_filter(where), limit=query_number(limit),
                                  offset=query_number(offset))
    return listing(rendered(page.rows), page.total)


@router.get("/deposits/{deposit_id}", **answers(DepositDetailOut))
def get_deposit(actor: CurrentActor, deposit_id: str):
    return ok(rendered(deposits.get_deposit(actor=actor, deposit_id=path_id(deposit_id))))


@router.get("/deposits/{deposit_id}/amm-transactions", **answers(DepositDetailOut))
def amm_transactions(actor: CurrentActor, deposit_id: str):
    return ok(rendered(deposits.amm_transactions(actor=actor, deposit_id=path_id(deposit_id))))


@router.post("/deposits", **answers(DepositWriteOut))
def buy(actor: CurrentActor, body: Lenient(DepositBody) = None):
    return ok(rendered(deposits.buy(actor=actor, form=_form(body))))


@router.put("/deposits/{deposit_id}", **answers(DepositWriteOut))
def update_deposit(actor: CurrentActor, deposit_id: str, body: Lenient(DepositBody) = None):
    return ok(rendered(deposits.update_deposit(actor=actor, deposit_id=path_id(deposit_id), form=_form(body))))


def _move_route(move: Callable[..., deposits.DepositWrite]):
    """POST /api/deposits/{id}/<path>: the move's form (MoveBody) to the service's function `move`."""
    def route(actor: CurrentActor, deposit_id: str, body: Lenient(MoveBody) = None):
        return ok(rendered(move(actor=actor, deposit_id=path_id(deposit_id), form=_form(body))))
    return route


# Sell, Interest Accrual, Deposit (at-call accounts) and Interest Payment (term deposits): the same
# form on a deposit; each route is named as its service function (its operation id and summary).
for _path, _move in (("sell", deposits.sell), ("interest-accrual", deposits.interest_accrual),
                     ("deposit", deposits.at_call_deposit), ("income", deposits.income)):
    router.add_api_route(f"/deposits/{{deposit_id}}/{_path}", _move_route(_move), methods=["POST"],
                         name=_move.__name__, **answers(DepositWriteOut))


@router.put("/deposits/{deposit_id}/transactions/{transaction_id}", **answers(DepositWriteOut))
def update_transaction(actor: CurrentActor, deposit_id: str, transaction_id: str,
                       body: Lenient(TransactionEditBody) = None):
    return ok(rendered(deposits.update_transaction(actor=actor, deposit_id=path_id(deposit_id),
                                                   transaction_id=path_id(transaction_id), form=_form(body))))


@router.post("/deposits/{deposit_id}/reprocess", **answers(ReprocessOut))
def reprocess(actor: CurrentActor, deposit_id: str, body: Lenient(ReprocessBody) = None):
    return ok(rendered(deposits.reprocess(actor=actor, deposit_id=path_id(deposit_id), form=_form(body))))

