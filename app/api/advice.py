"""Target portfolios, records of advice, trade instructions and bulk calculation (spec 001 s7,
002 s7; paths the spec does not show are in the same style).

POST /api/investments/{id}/target-portfolio                calculate a new version
GET  /api/investments/{id}/target-portfolio               query version -> the one the actor is shown (or null)
GET  /api/target-portfolios                               query investment_id, limit, offset, where, orderBy, orderDirection
                                                          -> versions (where: {"investment_id": n, "version": {"$ne": null},
                                                          "status": {"$in": [...]}}; orderBy created_at|version|status)
GET  /api/target-portfolios/{id}                          one version
PUT  /api/target-portfolios/{id}/validate                 body row_version
PUT  /api/target-portfolios/{id}/rofa                     body action approve|decline, row_version (record of advice)
GET  /api/target-portfolios/{id}/rofa                     the record of advice
GET  /api/target-portfolios/{id}/rofa/export              the record of advice as PDF (token query allowed)
PUT  /api/target-portfolios/{id}/comments                 body type, description, comment_id
POST /api/target-portfolios/{id}/recalculate              body row_version, overrides -> the edited result (not stored)
PUT  /api/target-portfolios/{id}                          body row_version, overrides -> a new saved version
POST /api/investments-trigger-rebalance                   body investment_ids -> a bulk run of target portfolios
POST /api/investments-generate-ti                         body investment_ids -> new trade recommendations
POST /api/bulk-calculate                                  body kind tp|tr, model_ids -> a bulk run
GET  /api/bulk-runs/{id}                                  the run's counts and per-portfolio errors
POST /api/bulk-runs/{id}/resume                           start its pending items again
GET  /api/investments/{id}/trade-instructions             query version -> the instruction (or null)
GET  /api/trade-instructions                              query investment_id, limit, offset -> versions
GET  /api/trade-instructions/{id}/history                 query offset -> 10 per page
PUT  /api/trade-instructions/{id}/validate                body row_version
PUT  /api/trade-instructions/{id}/decline-all             body row_version
PUT  /api/trade-instructions/{id}/confirm                 body decisions {tx id: approved|declined}, notes, is_approve_all
POST /api/trade-instructions/{id}/transactions            body code, action, quantity, price
PUT  /api/trade-transactions/{id}                         body quantity, price
DELETE /api/trade-transactions/{id}
GET  /api/target-portfolios/{id}/email                    who "Email" (send again) would send the record of advice to
POST /api/target-portfolios/{id}/email                    send the record of advice again to the people its switches name
GET  /api/trade-instructions/{id}/email                   the same for trade recommendations
POST /api/trade-instructions/{id}/email
"""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentActor, answers, download, listing, ok
from app.services import bulk_runs, notices, records_of_advice, target_portfolios as tps, trade_instructions as tis

from app.api.payloads import (
    BulkRunOut, CommentOut, InstructionEventOut, ResumedOut, TargetPortfolioOut, TradeInstructionOut,
    TradeTransactionOut,
)
from app.api.schemas import (
    WHERE_INVALID, Amount, AsText, Body, Flag, Id, Page, Row, Sent, path_id, payload_of, query_number, rendered,
    where_of,
)
from app.domain.advice.target_portfolios import (
    Client, Practice, RecordOfAdvice, TargetEdit, read_edits, summary_payload, tp_payload,
)
from app.domain.advice.texts import CONFIRM_APPROVE_ROA, CONFIRM_DECLINE_ROA
from app.domain.advice_words import AdviceLine
from app.domain.firm_documents import AssetComment, Branding, Letterhead, RofaTemplate
from app.domain.parsing import as_id, ids_of
from app.domain.timezones import client_offset, iso_json
from app.domain.users import Person

if TYPE_CHECKING:
    from app.services.records_of_advice import RecordDocument
    from app.services.tax_reports import AdviceTax
from app.domain.errors import ValidationError


router = APIRouter(tags=["advice"])


# ---- request bodies ---------------------------------------------------------------------------------
class RowVersionBody(Body):
    row_version: Optional[Id] = Field(None, description="the row_version read; a newer one answers 409")


class DecisionBody(RowVersionBody):
    action: str = Field("", description="approve or decline")


class CommentBody(Body):
    type: str = Field("", description="the commentary's type")
    description: str = ""
    comment_id: Optional[Id] = None


class Override(Body):
    """{asset_id | code, target_units} sets an asset's units (0 removes it); without target_units
    the asset is added (to class_id, or its own class)."""
    asset_id: Optional[Id] = None
    code: Optional[str] = None
    target_units: Optional[Amount] = None
    class_id: Optional[Id] = None


class EditBody(RowVersionBody):
    overrides: list[Override] = Field(default_factory=list, description="every edit so far, in the order made")


class InvestmentIdsBody(Body):
    investment_ids: Union[list[Id], Id] = Field(default_factory=list)
    model: Optional[Flag] = Field(None, description="generateTI from models: investment_ids are model ids, "
                                                    "calculated in the background (a bulk run)")


class BulkBody(Body):
    kind: str = Field("", description="tp (target portfolios) or tr (trade recommendations)")
    model_ids: Union[list[Id], Id] = Field(default_factory=list)


class Decision(Row):
    id: Id
    decision: str = Field(description="approved or declined")


_DECISIONS = Optional[Union[dict[str, str], list[dict[str, Any]]]]


class ConfirmBody(RowVersionBody):
    decisions: Sent(Union[dict[str, str], list[Decision]], _DECISIONS) = Field(
        None, description="{transaction id: approved | declined} (or [{id, decision}])")
    notes: Sent(Union[dict[str, str], list[Decision]], _DECISIONS) = Field(
        None, description="{note id: approved | declined} (or [{id, decision}])")
    is_approve_all: Flag = False


class TransactionBody(Body):
    code: Optional[str] = None
    action: Optional[str] = Field(None, description="buy (increase) or sell (decrease)")
    quantity: Optional[Amount] = None
    price: Optional[Amount] = None


class TransactionEditBody(Body):
    quantity: Optional[Amount] = None
    price: Optional[Amount] = None


def _row_version(body: Optional[RowVersionBody]) -> Optional[Id]:
    """The row_version a write was sent with (none: the body may be left out)."""
    return body.row_version if body is not None else None


def _sent_id(value: Optional[Id]) -> int | None:
    """An id or a row_version a body may leave out: None when it does (or sends ""), else the number
    (0 for text that is none, which names no row and matches no row_version)."""
    return None if value is None or value == "" else (as_id(value) or 0)


def _edits(body: Optional[EditBody]) -> tuple[int | None, tuple[TargetEdit, ...]]:
    """Edit mode's row_version and the adviser's edits so far, in the order made, read once."""
    body = body or EditBody()
    return _sent_id(body.row_version), read_edits([o.model_dump(exclude_unset=True) for o in body.overrides])


@router.post("/investments/{investment_id}/target-portfolio", **answers(TargetPortfolioOut))
def calculate_target(actor: CurrentActor, investment_id: str):
    return ok(tp_payload(tps.calculate(actor=actor, investment_id=path_id(investment_id))))


@router.get("/investments/{investment_id}/target-portfolio", **answers(Optional[TargetPortfolioOut]))
def current_target(actor: CurrentActor, investment_id: str, version: str | None = None):
    view = tps.current(actor=actor, investment_id=path_id(investment_id),
                       version=None if version in (None, "") else path_id(version))
    return ok(None if view is None else tp_payload(view))


class NotNull(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    ne: None = Field(None, alias="$ne", description="null: the field is set")


class AnyOf(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    in_: list[str] = Field(alias="$in")


class VersionsWhere(BaseModel):
    """The `where` of the target portfolio versions (001 s7): the portfolio, versions that have a
    version number, statuses in a list (a list, or {"$in": [...]})."""
    model_config = ConfigDict(extra="forbid")
    investment_id: Optional[Union[int, str]] = None
    version: Optional[NotNull] = None
    status: Optional[Union[list[str], AnyOf, str]] = None

    def statuses(self) -> list[str] | None:
        if self.status is None:
            return None
        if isinstance(self.status, AnyOf):
            return self.status.in_
        return [self.status] if isinstance(self.status, str) else self.status


@router.get("/target-portfolios", **answers(Page[TargetPortfolioOut]))
def target_versions(actor: CurrentActor, investment_id: str | None = None, limit: str | None = None,
                    offset: str | None = None, where: str | None = None,
                    order_by: str = Query("created_at", alias="orderBy"),
                    order_direction: str = Query("desc", alias="orderDirection")):
    found = where_of(VersionsWhere, where) or VersionsWhere()
    if investment_id is None and found.investment_id is None:
        raise ValidationError(WHERE_INVALID, {"investment_id": WHERE_INVALID})
    if investment_id is not None and found.investment_id is not None and str(found.investment_id) != investment_id:
        raise ValidationError(WHERE_INVALID, {"investment_id": WHERE_INVALID})
    page = tps.versions(
        actor=actor, investment_id=as_id(investment_id if investment_id is not None else found.investment_id) or 0,
        limit=query_number(limit), offset=query_number(offset), order=order_direction, order_by=order_by,
        statuses=found.statuses(), versioned=found.version is not None)
    return listing([summary_payload(row) for row in page.rows], page.total)


@router.get("/target-portfolios/{tp_id}", **answers(TargetPortfolioOut))
def get_target(actor: CurrentActor, tp_id: str):
    return ok(tp_payload(tps.get(actor=actor, tp_id=path_id(tp_id))))


@router.put("/target-portfolios/{tp_id}/validate", **answers(TargetPortfolioOut))
def validate_target(actor: CurrentActor, tp_id: str, body: Optional[RowVersionBody] = None):
    return ok(tp_payload(tps.validate(actor=actor, tp_id=path_id(tp_id), row_version=_sent_id(_row_version(body)))))


@router.put("/target-portfolios/{tp_id}/rofa", **answers(TargetPortfolioOut))
def decide_record(actor: CurrentActor, tp_id: str, body: DecisionBody):
    decided = tps.decide(actor=actor, tp_id=path_id(tp_id), action=body.action or "",
                         row_version=_sent_id(body.row_version))
    return ok(tp_payload(decided.view, message=decided.message))


def _text(value: Decimal | None) -> str | None:
    """The management fee's figures as their stored digits (str of the value)."""
    return str(value) if value is not None else None


M = TypeVar("M", bound=BaseModel)


def _read(model: type[M], value: object) -> M:
    """`model` read from a service's value: its attributes and properties, nested values alike."""
    return model.model_validate(value, from_attributes=True)


# ---- the sells' capital gains (the record of advice, GET .../capital-gains) -------------------------------
class ParcelGainOut(BaseModel):
    bought_on: Optional[AsText] = Field(None, description="YYYY-MM-DD the parcel was bought")
    units: AsText
    cost_base: AsText
    proceeds: AsText
    gain: AsText = Field(description="proceeds less cost base (negative: a loss)")
    method: str = Field(description='the discount method in words, e.g. "Discount 50%"')
    loss_applied: AsText = Field(description="capital losses of the other sells applied to this gain")
    discount: AsText
    net: AsText = Field(description="what the parcel adds to the net capital gain")


class SellGainOut(BaseModel):
    code: str
    units: AsText
    price: AsText = Field(description="the price a unit the sell is estimated at")
    gain: AsText
    discount: AsText
    net: AsText
    parcels: list[ParcelGainOut]


class WaitOut(BaseModel):
    code: str
    until: AsText = Field(description="YYYY-MM-DD from which the sell would be taxed less")
    saving: AsText


class CapitalGainsOut(BaseModel):
    """The estimated capital gains of the advice's sells under the portfolio's tax treatment, each
    with the parcels it takes, beside "Minimise capital gains tax" (amounts in dollars as text)."""
    treatment: str
    net: AsText = Field(description="estimated net capital gain under the portfolio's treatment")
    minimised: AsText = Field(description='the same under "Minimise capital gains tax"')
    fifo: AsText = Field(description="the same by first in, first out")
    saving: AsText = Field(description='what "Minimise capital gains tax" saves against the portfolio\'s treatment '
                                       '(against first in, first out when it is the portfolio\'s own)')
    comparison: str = Field(description="the comparison in words, as the record of advice says it")
    waits: list[WaitOut]
    sells: list[SellGainOut]


def _gains(est: AdviceTax | None) -> CapitalGainsOut | None:
    return _read(CapitalGainsOut, est) if est is not None else None


# ---- the record of advice (GET .../rofa) ------------------------------------------------------------------
# The route documents TargetPortfolioOut, whose extra keys are allowed: these models give the keys the
# record adds their shape. Their values are read from the service's (properties included).
PracticeOut = payload_of("RecordPracticeOut", Practice)
ClientOut = payload_of("RecordClientOut", Client)
AdviserOut = payload_of("RecordAdviserOut", Person)
BrandingOut = payload_of("RecordBrandingOut", Branding)
AssetCommentOut = payload_of("RecordAssetCommentOut", AssetComment)
TemplateOut = payload_of("RecordTemplateOut", RofaTemplate, types={
    "hin_percent": AsText, "discount_percent": Optional[AsText], "asset_comments": list[AssetCommentOut]})
LineOut = payload_of("RecordLineOut", AdviceLine, types={
    "price": Optional[AsText], "current_units": Optional[AsText], "target_units": Optional[AsText],
    "current_value": AsText, "target_value": AsText, "target_percent": Optional[AsText]})


class LetterheadOut(payload_of("RecordLetterheadFields", Letterhead)):
    """The letterhead's fields and the lines the documents print from them."""
    licensee_line: str
    representative_line: str
    adviser_representative_line: str


class FeeOut(BaseModel):
    percent: Optional[str]
    min: Optional[str]
    max: Optional[str]
    amount: Optional[str]


class RofaStatusesOut(BaseModel):
    pending: bool
    approved: bool
    declined: bool


class RecordDocumentOut(BaseModel):
    """What a record of advice's documents add to its payload: letterhead, branding, template, the
    lines in words, the CGT notes and the sells' capital gains (amounts as text)."""
    letterhead: LetterheadOut
    branding: BrandingOut
    template: TemplateOut
    lines: list[LineOut]
    cgt_notes: list[AssetCommentOut]
    capital_gains: Optional[CapitalGainsOut]
    group_titles: dict[str, str] = Field(description="industry group id -> title")


class RecordOut(BaseModel):
    """The record's own keys: the practice, the clients and their adviser, the fee, the CGT
    estimate, the decision's state and the confirmations' texts."""
    date: Optional[str]
    practice: PracticeOut
    owners: list[ClientOut]
    adviser: Optional[AdviserOut]
    client_wording: str
    managmentFee: FeeOut
    cgt_estimate: str
    last_validated_tp: Optional[int]
    target_portfolio_status: str
    rofaStatuses: RofaStatusesOut
    can_decide: bool
    decided_by_superuser: bool
    client_address: list[str]
    practice_address: list[str]
    confirm_approve: str
    confirm_decline: str


def _document_out(d: RecordDocument) -> RecordDocumentOut:
    return RecordDocumentOut(
        letterhead=_read(LetterheadOut, d.letterhead), branding=_read(BrandingOut, d.branding),
        template=_read(TemplateOut, d.template), lines=[_read(LineOut, line) for line in d.lines],
        cgt_notes=[_read(AssetCommentOut, c) for c in d.cgt_notes], capital_gains=_gains(d.capital_gains),
        group_titles={str(gid): title for gid, (title, _) in d.record.tp.names.industry_groups.items()})


def _record_out(r: RecordOfAdvice) -> RecordOut:
    return RecordOut(
        date=iso_json(r.date), practice=_read(PracticeOut, r.practice), owners=[_read(ClientOut, o) for o in r.owners],
        adviser=_read(AdviserOut, r.adviser) if r.adviser else None, client_wording=r.client_wording,
        managmentFee=FeeOut(percent=_text(r.fee.percent), min=_text(r.fee.min), max=_text(r.fee.max),
                            amount=_text(r.fee.amount)),
        cgt_estimate=r.cgt_estimate, last_validated_tp=r.last_validated_tp,
        target_portfolio_status=r.tp.summary.status, rofaStatuses=_read(RofaStatusesOut, r),
        can_decide=r.can_decide, decided_by_superuser=r.decided_by_superuser,
        client_address=list(r.client_address), practice_address=list(r.practice_address),
        confirm_approve=CONFIRM_APPROVE_ROA, confirm_decline=CONFIRM_DECLINE_ROA)


def record_payload(d: RecordDocument) -> dict[str, Any]:
    """The record of advice of a target portfolio as the API shows it: what its documents add, the
    target portfolio's payload, the record's own keys (its PDF file prints the same record:
    app.services.records_of_advice.sheet)."""
    return {**_document_out(d).model_dump(), **tp_payload(d.record.tp), **_record_out(d.record).model_dump()}


@router.get("/target-portfolios/{tp_id}/rofa", **answers(TargetPortfolioOut))
def get_record(actor: CurrentActor, tp_id: str):
    return ok(record_payload(records_of_advice.document(actor=actor, tp_id=path_id(tp_id))))


@router.get("/target-portfolios/{tp_id}/rofa/export", response_class=Response,
            responses={200: {"description": "the record of advice as PDF", "content": {"application/pdf": {}}}})
def export_record(actor: CurrentActor, tp_id: str,
                  offset: str | None = Query(None, alias="client-timezone-offset")):
    name, data = records_of_advice.export_pdf(actor=actor, tp_id=path_id(tp_id), client_offset=client_offset(offset))
    return download(name, data, "application/pdf")


@router.put("/target-portfolios/{tp_id}/comments", **answers(CommentOut))
def save_comment(actor: CurrentActor, tp_id: str, body: CommentBody):
    return ok(rendered(tps.save_comment(actor=actor, tp_id=path_id(tp_id), type=body.type or "",
                                        description=body.description or "", comment_id=_sent_id(body.comment_id))))


@router.post("/target-portfolios/{tp_id}/recalculate", **answers(TargetPortfolioOut))
def recalculate_target(actor: CurrentActor, tp_id: str, body: Optional[EditBody] = None):
    """Edit mode: the target recalculated with the adviser's edits (units set, assets added)."""
    row_version, edits = _edits(body)
    view = tps.edit_preview(actor=actor, tp_id=path_id(tp_id), row_version=row_version, edits=edits)
    return ok(tp_payload(view, mode=tps.MODE_EDIT))


@router.put("/target-portfolios/{tp_id}", **answers(TargetPortfolioOut))
def save_target(actor: CurrentActor, tp_id: str, body: Optional[EditBody] = None):
    """Edit mode: save the edited target portfolio as a new version ('Target Portfolio saved')."""
    row_version, edits = _edits(body)
    saved = tps.save_edit(actor=actor, tp_id=path_id(tp_id), row_version=row_version, edits=edits)
    return ok(tp_payload(saved.view, message=saved.message))


@router.post("/investments-trigger-rebalance", **answers(BulkRunOut))
def trigger_rebalance(actor: CurrentActor, body: InvestmentIdsBody):
    return ok(rendered(bulk_runs.start_for_investments(actor=actor, kind="tp",
                                                       investment_ids=ids_of(body.investment_ids or []))))


@router.post("/investments-generate-ti", **answers(Union[list[TradeInstructionOut], BulkRunOut]))
def generate_ti(actor: CurrentActor, body: InvestmentIdsBody):
    ids = body.investment_ids or []
    if body.model:  # generateTI from models: ids are model ids, run in the background
        return ok(rendered(bulk_runs.start_for_models(actor=actor, kind="tr", model_ids=ids_of(ids, json_text=True))))
    sent = ids if isinstance(ids, list) else [ids]
    return ok(rendered(tis.generate(actor=actor, investment_ids=[as_id(i) or 0 for i in sent])))


@router.post("/bulk-calculate", **answers(BulkRunOut))
def bulk_calculate(actor: CurrentActor, body: BulkBody):
    return ok(rendered(bulk_runs.start_for_models(actor=actor, kind=body.kind or "",
                                                  model_ids=ids_of(body.model_ids or [], json_text=True))))


@router.get("/bulk-runs/{run_id}", **answers(BulkRunOut))
def get_run(actor: CurrentActor, run_id: str):
    return ok(rendered(bulk_runs.get(actor=actor, run_id=path_id(run_id))))


@router.post("/bulk-runs/{run_id}/resume", **answers(ResumedOut))
def resume_run(actor: CurrentActor, run_id: str):
    run = bulk_runs.get(actor=actor, run_id=path_id(run_id))
    return ok(ResumedOut(pending=bulk_runs.resume(actor=actor, run_id=run.id)))


def _sent_number(value: Optional[Id]) -> int | None:
    """A version or a row_version as sent: None when not sent (or empty), 0 when it is no number."""
    return None if value is None or value == "" else (as_id(value) or 0)


def _sent_text(value: Optional[Amount]) -> str | None:
    """Units or a price as typed (a JSON number as its digits), for the service to read."""
    return None if value is None else str(value)


@router.get("/investments/{investment_id}/trade-instructions", **answers(Optional[TradeInstructionOut]))
def current_instruction(actor: CurrentActor, investment_id: str, version: str | None = None):
    return ok(rendered(tis.get(actor=actor, investment_id=path_id(investment_id), version=_sent_number(version))))


@router.get("/trade-instructions", **answers(Page[TradeInstructionOut]))
def instruction_versions(actor: CurrentActor, investment_id: str, limit: str | None = None, offset: str | None = None):
    found = tis.list_versions(actor=actor, investment_id=path_id(investment_id), limit=query_number(limit),
                              offset=query_number(offset))
    return listing(rendered(found.rows), found.total)


@router.get("/trade-instructions/{ti_id}/history", **answers(Page[InstructionEventOut]))
def instruction_history(actor: CurrentActor, ti_id: str, offset: str | None = None):
    found = tis.history(actor=actor, ti_id=path_id(ti_id), offset=query_number(offset))
    return listing(rendered(found.rows), found.total)


@router.put("/trade-instructions/{ti_id}/validate", **answers(TradeInstructionOut))
def validate_instruction(actor: CurrentActor, ti_id: str, body: Optional[RowVersionBody] = None):
    return ok(rendered(tis.validate(actor=actor, ti_id=path_id(ti_id), row_version=_sent_number(_row_version(body)))))


@router.put("/trade-instructions/{ti_id}/decline-all", **answers(TradeInstructionOut))
def decline_all(actor: CurrentActor, ti_id: str, body: Optional[RowVersionBody] = None):
    return ok(rendered(tis.decline_all(actor=actor, ti_id=path_id(ti_id),
                                       row_version=_sent_number(_row_version(body)))))


@router.put("/trade-instructions/{ti_id}/confirm", **answers(TradeInstructionOut))
def confirm(actor: CurrentActor, ti_id: str, body: Optional[ConfirmBody] = None):
    body = body or ConfirmBody()
    return ok(rendered(tis.confirm(actor=actor, ti_id=path_id(ti_id), decisions=body.decisions, notes=body.notes,
                                   is_approve_all=bool(body.is_approve_all),
                                   row_version=_sent_number(body.row_version))))


@router.post("/trade-instructions/{ti_id}/transactions", **answers(TradeTransactionOut))
def add_transaction(actor: CurrentActor, ti_id: str, body: TransactionBody):
    return ok(rendered(tis.add_transaction(actor=actor, ti_id=path_id(ti_id), code=body.code, action=body.action,
                                           quantity=_sent_text(body.quantity), price=_sent_text(body.price))))


@router.put("/trade-transactions/{tx_id}", **answers(TradeTransactionOut))
def update_transaction(actor: CurrentActor, tx_id: str, body: TransactionEditBody):
    return ok(rendered(tis.update_transaction(actor=actor, tx_id=path_id(tx_id), quantity=_sent_text(body.quantity),
                                              price=_sent_text(body.price))))


@router.delete("/trade-transactions/{tx_id}", **answers(TradeTransactionOut))
def delete_transaction(actor: CurrentActor, tx_id: str):
    return ok(rendered(tis.delete_transaction(actor=actor, tx_id=path_id(tx_id))))


# ---- "Send again" (001 s2: the target portfolio's Email action; the same for trades) ----------------
class NoticeReceiverOut(BaseModel):
    address: str
    audience: str = Field(description="client_owners, client_others, adviser or adviser_others")
    attach: bool = Field(description="the PDF is attached for this receiver")


@router.get("/target-portfolios/{tp_id}/capital-gains", **answers(Optional[CapitalGainsOut]))
def target_capital_gains(actor: CurrentActor, tp_id: str):
    """The recommended sells' capital gains by parcel (null when the target portfolio sells nothing)."""
    return ok(_gains(records_of_advice.capital_gains(actor=actor, tp_id=path_id(tp_id))))


@router.get("/trade-instructions/{ti_id}/capital-gains", **answers(Optional[CapitalGainsOut]))
def instruction_capital_gains(actor: CurrentActor, ti_id: str):
    """The trade recommendations' sells (those not declined) with their capital gains by parcel."""
    return ok(_gains(tis.capital_gains(actor=actor, ti_id=path_id(ti_id))))


class SendAgainPreviewOut(BaseModel):
    event: str = Field(description="the notice repeated, e.g. tp_validated, tp_approved, tr_validated")
    version: int
    question: str = Field(description="the confirmation naming the receivers")
    receivers: list[NoticeReceiverOut]


class SentAgainOut(BaseModel):
    message: str
    event: str
    receivers: list[NoticeReceiverOut]


@router.get("/target-portfolios/{tp_id}/email", **answers(SendAgainPreviewOut))
def target_email_preview(actor: CurrentActor, tp_id: str):
    return ok(_read(SendAgainPreviewOut, notices.send_again_target_preview(actor=actor, tp_id=path_id(tp_id))))


@router.post("/target-portfolios/{tp_id}/email", **answers(SentAgainOut))
def target_email(actor: CurrentActor, tp_id: str):
    return ok(_read(SentAgainOut, notices.send_again_target(actor=actor, tp_id=path_id(tp_id))))


@router.get("/trade-instructions/{ti_id}/email", **answers(SendAgainPreviewOut))
def instruction_email_preview(actor: CurrentActor, ti_id: str):
    return ok(_read(SendAgainPreviewOut, notices.send_again_trades_preview(actor=actor, ti_id=path_id(ti_id))))


@router.post("/trade-instructions/{ti_id}/email", **answers(SentAgainOut))
def instruction_email(actor: CurrentActor, ti_id: str):
    return ok(_read(SentAgainOut, notices.send_again_trades(actor=actor, ti_id=path_id(ti_id))))
