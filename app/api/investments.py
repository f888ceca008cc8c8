"""Client portfolios ("investments", spec 001 s7) and the reference data of their form.

GET    /api/investments                 query limit, offset, sort, order, client_id, adviser_id, firm_id, model_id,
                                        approved, tp_calculation, tp_bulk_calculation, ti_calculation,
                                        ti_bulk_calculation, activityStatus (all | active | inactive; default
                                        active), search, broker_id (-1 all brokers, -2 N/A)
                                        -> result.rows and result.totals.count
POST   /api/investments-by-models       the same query; body: the model ids ([1, 2] or {"model_ids": [1, 2]})
GET    /api/investments/{id}            the portfolio (the form's read shape)
POST   /api/investments                 the portfolio payload -> the saved portfolio with `message`
PUT    /api/investments/{id}            the portfolio payload with `version` -> the saved portfolio with `message`
DELETE /api/investments/{id}            soft delete -> {message: 'Portfolio is deleted'}
POST   /api/investments-buy-model       {investment_id, model_id} -> {investment_id, model_id, modelName,
                                        customAssetClassesChanged, message}
PUT    /api/investments/{id}/unlinkModel  -> {investment_id, customAssetClassesChanged, message: 'Model unlinked'}
GET    /api/investments/{id}/linkable-models  query search, limit, offset: the buy screen's models (path ours)
GET    /api/investments-form-options    query firm_id: holders, advisers, classes, groups, brokers, banks (path ours)
GET    /api/brokers                     -> result.rows
GET    /api/institutions                query where (e.g. {"product_types": {"contains": "Cash Account"}}) -> result.rows
"""
from __future__ import annotations

from typing import Annotated, Any, Optional, Union

from fastapi import APIRouter, Body as BodyParam, Query
from pydantic import ConfigDict, Field

from app.api.deps import CurrentActor, ListQuery, answers, ok, portfolio_listing
from app.api.resources import Resource
from app.api.schemas import (
    Allocation, Amount, Body, CountTotals, Flag, Id, Row, Rows, RowsOf, Sent, path_id, query_number, rendered, sent,
)
from app.domain.parsing import as_id
from app.domain.portfolios import PortfolioForm, read_filter, read_portfolio_form
from app.services import portfolios, reference_data

from app.api.payloads import (
    AddressBody, BrokerOut, InstitutionOut, LinkableModelsOut, ModelLinkOut, PortfolioFormOptionsOut, PortfolioOut,
)


router = APIRouter(tags=["investments"])


class Holder(Row):
    id: Id = Field(description="the client")
    is_owner: Optional[Flag] = Field(None, description="true by default")


class PortfolioClassRow(Allocation):
    class_id: Id


class PortfolioGroupRow(Row):
    industry_group_id: Id
    allocation: Optional[Amount] = Field(None, description="percent")


class ExceptionRow(Row):
    asset_id: Optional[Id] = Field(None, description="the asset (or custom_holding_id)")
    custom_holding_id: Optional[Id] = None
    action: Optional[str] = Field(None, description="the exception's action (Substitute names substitute_asset_id)")
    substitute_asset_id: Optional[Id] = None


class PortfolioBody(Body):
    """The portfolio form (spec 001 s7). Its nested rows (holders, classes, exceptions,
    substitutions, approval settings) are checked by the service with the specification's texts."""
    # extra="allow": the form's other names (users, Users, owners, adviser, broker) are read too,
    # once, by app.domain.portfolios.read_portfolio_form.
    model_config = ConfigDict(extra="allow")
    name: Optional[str] = None
    type: Optional[str] = Field(None, description="the portfolio type (e.g. SAVINGS)")
    version: Optional[Id] = Field(None, description="the version read (editing); a newer one answers 409")
    firm_id: Optional[Id] = None
    adviser_id: Optional[Id] = None
    broker_id: Optional[Id] = None
    institution_id: Optional[Id] = None
    inactive: Optional[Flag] = None
    hin: Optional[str] = None
    bank_account: Optional[str] = None
    bank_bsb: Optional[str] = None
    company_name: Optional[str] = None
    company_abn: Optional[str] = None
    trustee_name: Optional[str] = None
    trustee_abn: Optional[str] = None
    tax_treatment: Optional[str] = None
    soa_date: Optional[str] = Field(None, description="YYYY-MM-DD")
    fee_percent: Optional[Amount] = None
    fee_limit_min: Optional[Amount] = None
    fee_limit_max: Optional[Amount] = None
    sell_look_back_period: Optional[Union[int, str]] = None
    holders: Sent(list[Union[Id, Holder]], Optional[list[Any]]) = Field(
        None, description="the clients holding it (ids or {id, is_owner})")
    approval_settings: Optional[dict[str, Any]] = Field(None, description="the approval settings form (keys as the "
                                                                          "portfolio's approval_settings)")
    allocation_classes: RowsOf(PortfolioClassRow) = None
    industry_groups_allocations: RowsOf(PortfolioGroupRow) = None
    exceptions: RowsOf(ExceptionRow) = None
    substitution: Optional[list[dict[str, Any]]] = None
    address: Optional[AddressBody] = Field(None, description="the holder's address")


class BuyModelBody(Body):
    investment_id: Optional[Id] = None
    model_id: Optional[Id] = None


class ModelIdsBody(Body):
    model_ids: Optional[Union[list[Id], Id]] = None
    modelIds: Optional[Union[list[Id], Id]] = None
    ids: Optional[Union[list[Id], Id]] = None


class PortfolioQuery(ListQuery):
    """The portfolio list's query: its page, order and search, and the list's filters."""
    client_id: str | None = None
    adviser_id: str | None = None
    firm_id: str | None = None
    model_id: str | None = None
    approved: str | None = None
    tp_calculation: str | None = None
    tp_bulk_calculation: str | None = None
    ti_calculation: str | None = None
    ti_bulk_calculation: str | None = None
    activity_status: str | None = Field(None, alias="activityStatus")
    broker_id: str | None = None


def _list(actor, query: PortfolioQuery, model_ids=None):
    sent_in = query.model_dump()
    page = {k: sent_in.pop(k) for k in ("limit", "offset", "sort", "order", "search")}
    found = portfolios.list_portfolios(
        actor=actor, where=read_filter(model_ids=model_ids, **sent_in), limit=query_number(page["limit"]),
        offset=query_number(page["offset"]), sort=page["sort"], order=page["order"], search=page["search"])
    return portfolio_listing(rendered(found.rows), found.total)


@router.get("/investments", **answers(CountTotals[PortfolioOut]))
def list_investments(actor: CurrentActor, query: Annotated[PortfolioQuery, Query()]):
    return _list(actor, query)


@router.post("/investments-by-models", **answers(CountTotals[PortfolioOut]))
def list_investments_by_models(
    actor: CurrentActor, query: Annotated[PortfolioQuery, Query()],
    body: Optional[Union[list[Id], ModelIdsBody, Id]] = BodyParam(None, description="[1, 2] or {\"model_ids\": [1, 2]}"),
):
    ids: Any = body
    if isinstance(body, ModelIdsBody):
        data = sent(body)
        ids = data.get("model_ids", data.get("modelIds", data.get("ids", [])))
    if not isinstance(ids, list):
        ids = [ids] if ids is not None else []
    return _list(actor, query, model_ids=ids)


@router.get("/investments-form-options", **answers(PortfolioFormOptionsOut))
def form_options(actor: CurrentActor, firm_id: str | None = None):
    return ok(rendered(portfolios.form_options(actor=actor, firm_id=as_id(firm_id))))


@router.post("/investments-buy-model", **answers(ModelLinkOut))
def buy_model(actor: CurrentActor, body: BuyModelBody):
    return ok(rendered(portfolios.link_model(actor=actor, portfolio_id=as_id(body.investment_id) or 0,
                                             model_id=as_id(body.model_id))))


@router.get("/investments/{investment_id}", **answers(PortfolioOut))
def get_investment(actor: CurrentActor, investment_id: str):
    # the typed read (portfolios.PortfolioDetail) rendered as the payload the create and update answer
    return ok(rendered(portfolios.get_portfolio(actor=actor, portfolio_id=path_id(investment_id))))


def _portfolio_form(body: PortfolioBody | None) -> PortfolioForm:
    return read_portfolio_form(sent(body))


investment = Resource(router, "/investments", "investment_id", PortfolioOut, PortfolioBody, service_id="portfolio_id",
                      form_of=_portfolio_form)
investment.create(portfolios.create_portfolio, name="create_investment")
investment.update(portfolios.update_portfolio, name="update_investment")
investment.delete(portfolios.delete_portfolio, name="delete_investment")


@router.put("/investments/{investment_id}/unlinkModel", **answers(ModelLinkOut))
def unlink_model(actor: CurrentActor, investment_id: str):
    return ok(rendered(portfolios.unlink_model(actor=actor, portfolio_id=path_id(investment_id))))


@router.get("/investments/{investment_id}/linkable-models", **answers(LinkableModelsOut))
def linkable_models(actor: CurrentActor, investment_id: str, search: str | None = None, limit: str | None = None,
                    offset: str | None = None):
    return ok(rendered(portfolios.linkable_models(actor=actor, portfolio_id=path_id(investment_id), search=search,
                                                  limit=query_number(limit), offset=query_number(offset))))


@router.get("/brokers", **answers(Rows[BrokerOut]))
def list_brokers(actor: CurrentActor):
    return ok({"rows": rendered(reference_data.list_brokers(actor=actor))})


@router.get("/institutions", **answers(Rows[InstitutionOut]))
def list_institutions(actor: CurrentActor, where: str | None = None, product_type: str | None = None):
    wanted = reference_data.product_type_of(where) if where else product_type
    return ok({"rows": rendered(reference_data.list_institutions(actor=actor, product_type=wanted))})
