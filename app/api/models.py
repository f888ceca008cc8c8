"""Model portfolios (spec 000 s7; paths the spec does not show are in the same style).

GET    /api/models                           query limit, offset, sort, order, search, link, firmId, tp_calculation,
                                             tr_calculation, str_upload, recommendations_upload
                                             -> result.rows and result.totals[0].count
GET    /api/models/{id}                      the model (the form's read shape, with can_edit)
POST   /api/models                           the model payload -> the saved model with `message`
                                             (bodies are read into the service's ModelForm by model_rules.read_form)
PUT    /api/models/{id}                      the model payload with `version` -> the saved model with `message`
DELETE /api/models/{id}                      soft delete -> {message: 'Model is deleted'}
GET    /api/models/{id}/history              query limit, offset, where {"model_id": id}, orderBy (created_at |
                                             version_id), orderDirection -> {count, rows}; created_at desc by default
GET    /api/models/{id}/versions/{version}   the model as saved in that version (is_version: true)
GET    /api/models/{id}/details              the details screen: model and assets by class with returns
GET    /api/models-form-options              query firmId -> classes, types, industry groups, firms
"""
from __future__ import annotations

from typing import Annotated, Any, Optional, Union

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentActor, ListQuery, answers, listing, ok
from app.api.resources import Resource
from app.api.schemas import (
    WHERE_INVALID, Allocation, Amount, Body, Flag, Id, Page, Row, RowsOf, Sent, path_id, query_number, rendered, sent,
    where_of,
)
from app.domain.errors import ValidationError
from app.domain import model_rules
from app.domain.model_rules import owner_filter
from app.domain.parsing import as_bool, as_id
from app.services import models

from app.api.payloads import ModelDetailsOut, ModelFormOptionsOut, ModelFormOut, ModelHistoryOut, ModelOut


router = APIRouter(tags=["models"])


class ModelClassAsset(Row):
    asset_id: Id
    alt_asset_id: Optional[Id] = Field(None, description="the alternative asset")
    priority: Optional[int] = None


class ModelClassRow(Allocation):
    class_id: Id
    assets_limit: Optional[int] = None
    priority: Optional[int] = None
    assets: Optional[list[ModelClassAsset]] = None


class ModelTypeRow(Allocation):
    type_id: Id


class ModelGroupRow(Allocation):
    industry_group_id: Id
    priority: Optional[int] = None


class EquivalentRow(Row):
    asset_id: Id
    eq_asset_id: Id


class PercentageRow(Row):
    asset_id: Id
    allocation: Optional[Amount] = Field(None, description="percent of the model")
    alternative: Optional[Id] = None


class CommentaryRow(Row):
    type: str
    description: Optional[str] = None


class FirmPick(Row):
    id: Id


class ModelBody(Body):
    """The model form. Its nested rows are checked one by one by the service, with the
    specification's texts per row and field, so they are passed through as sent."""
    # extra="allow": the form's further keys are kept as sent; the form reader
    # (app.domain.model_rules.read_form) is the one place that knows every key.
    model_config = ConfigDict(extra="allow")
    name: Optional[str] = None
    status: Optional[str] = Field(None, description="draft, active or inactive")
    allocation_method: Optional[str] = Field(None, description="equal_amounts or percentages")
    ownerId: Optional[Id] = Field(None, description="the owner firm (a superuser creating a model)")
    version: Optional[Id] = Field(None, description="the version read (editing); a newer one answers 409")
    investment: Optional[Flag] = None
    all: Optional[Flag] = Field(None, description="linked to all firms")
    firms: Sent(list[Union[Id, FirmPick]], Optional[list[Any]]) = Field(None, description="the firm ids (or picked options {id}) it is linked to")
    analyst_recommendations: Optional[Flag] = None
    class_allocation: Optional[Flag] = None
    type_allocation: Optional[Flag] = None
    industry_group_allocation: Optional[Flag] = None
    allocation_classes: RowsOf(ModelClassRow) = None
    allocation_types: RowsOf(ModelTypeRow) = None
    industry_groups_allocations: RowsOf(ModelGroupRow) = None
    equivalents: RowsOf(EquivalentRow) = None
    assets_percentages_allocations: RowsOf(PercentageRow) = None
    commentaries: RowsOf(CommentaryRow) = None


class ModelQuery(ListQuery):
    """The model list's query: its page, order and search, and the list's filters."""
    link: str | None = None
    firm_id: str | None = Field(None, alias="firmId")
    tp_calculation: str | None = None
    tr_calculation: str | None = None
    str_upload: str | None = None
    recommendations_upload: str | None = None


@router.get("/models", **answers(Page[ModelOut]))
def list_models(actor: CurrentActor, query: Annotated[ModelQuery, Query()]):
    found = models.list_models(
        actor=actor, limit=query_number(query.limit), offset=query_number(query.offset), sort=query.sort,
        order=query.order, search=query.search, firm_id=owner_filter(query.firm_id), link=as_bool(query.link),
        tp_calculation=as_bool(query.tp_calculation), tr_calculation=as_bool(query.tr_calculation),
        str_upload=as_bool(query.str_upload), recommendations_upload=as_bool(query.recommendations_upload))
    return listing(rendered(found.rows), found.total)


@router.get("/models-form-options", **answers(ModelFormOptionsOut))
def form_options(actor: CurrentActor, firm_id: str | None = Query(None, alias="firmId")):
    return ok(rendered(models.model_form_options(actor=actor, firm_id=as_id(firm_id))))


def _form(body: Optional[ModelBody]) -> model_rules.ModelForm:
    """The form the service takes, read once from the keys the client sent."""
    return model_rules.read_form(sent(body))


model = Resource(router, "/models", "model_id", ModelOut, ModelBody, form_of=_form)
model.get(models.get_model)
model.create(models.create_model)
model.update(models.update_model)
model.delete(models.delete_model)


class HistoryWhere(BaseModel):
    """The `where` of a model's history (000 s7): the model, which must be the path's."""
    model_config = ConfigDict(extra="forbid")
    model_id: Optional[Union[int, str]] = None


@router.get("/models/{model_id}/history", **answers(ModelHistoryOut))
def model_history(actor: CurrentActor, model_id: str, limit: str | None = None, offset: str | None = None,
                  where: str | None = None, order_by: str = Query("created_at", alias="orderBy"),
                  order_direction: str = Query("desc", alias="orderDirection")):
    found = where_of(HistoryWhere, where)
    if found is not None and found.model_id is not None and str(found.model_id) != model_id:
        raise ValidationError(WHERE_INVALID, {"model_id": WHERE_INVALID})
    history = models.model_history(actor=actor, model_id=path_id(model_id), limit=query_number(limit),
                                   offset=query_number(offset), order_by=order_by, order=order_direction)
    return ok({"count": history.total, "rows": rendered(history.rows)})


@router.get("/models/{model_id}/versions/{version}", **answers(ModelFormOut))
def model_version(actor: CurrentActor, model_id: str, version: str):
    return ok(rendered(models.get_model_version(actor=actor, model_id=path_id(model_id), version=path_id(version))))


@router.get("/models/{model_id}/details", **answers(ModelDetailsOut))
def model_details(actor: CurrentActor, model_id: str):
    return ok(rendered(models.model_details(actor=actor, model_id=path_id(model_id))))
