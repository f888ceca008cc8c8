"""Long-term (/api/long-terms*) and short-term (/api/recommendations*) recommendations: list, create,
update, delete, delete all / mark as deleted, multipart upload to one or many models, CSV export."""
from __future__ import annotations

from typing import Any, Optional, Union

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import ClientOffset, CurrentActor, answers, download, form_with_file, listing, ok, ok_message
from app.api.resources import Resource
from app.domain import recommendations as rules
from app.domain.parsing import as_id
from app.domain.uploads import MAX_UPLOAD_BYTES, SELECT_FILE
from app.domain.timezones import client_offset as offset_minutes
from app.services import recommendations

from app.api.payloads import LongTermOut, MessageCount, RecommendationUploadOut, ShortTermOut
from app.api.schemas import Body, Id, Page, SentAmount, SentId, SentText, path_id, read_by_hand, rendered, sent

router = APIRouter(tags=["recommendations"])
_CSV_RESPONSES: dict[int | str, dict[str, Any]] = {200: {"description": "the recommendations as CSV",
                                                          "content": {"text/csv": {}}}}


class LongTermBody(Body):
    model_id: SentId = None
    asset_id: SentId = None
    action: SentText = None
    comment: SentText = None


class ShortTermBody(LongTermBody):
    model_config = ConfigDict(populate_by_name=True)
    price: SentAmount = None
    yield_: SentAmount = Field(default=None, alias="yield")  # "yield" is a Python keyword


class _UploadForm(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    model_ids: list[Id] = Field(alias="model_ids[]", description="the models to load the file into (repeated)")
    file: bytes = Field(description=f"CSV or .xlsx, at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")


class LongTermUploadForm(_UploadForm):
    """multipart/form-data of POST /api/long-terms-upload."""
    uploadType: Optional[str] = Field(None, description="amend (default) or replace")


class ShortTermUploadForm(_UploadForm):
    """multipart/form-data of POST /api/recommendations-upload."""
    upload_type: Optional[str] = Field(None, description="amend (default) or replace")


class MarkDeletedBody(BaseModel):
    """The short-term recommendations to mark as deleted (or as the query's id[])."""
    id: Optional[Union[list[Id], Id]] = None
    ids: Optional[list[Id]] = None


async def _upload(actor, request: Request, kind: rules.Kind, type_keys: tuple[str, ...]) -> dict[str, Any]:
    """The file of a multipart form loaded into the models it names (model_ids[], repeated, or
    model_ids), with its upload type."""
    form, file_type, data = await form_with_file(request, limit=MAX_UPLOAD_BYTES, select_file=SELECT_FILE)
    model_ids = recommendations.read_model_ids([*form.getlist("model_ids[]"), *form.getlist("model_ids")])
    upload_type = next((str(form.get(k)) for k in type_keys if form.get(k) not in (None, "")), None)
    return ok(rendered(recommendations.upload(actor=actor, kind=kind, model_ids=model_ids, upload_type=upload_type,
                                              content_type=file_type, data=data)))


def _export(actor, model_id: str, kind: rules.Kind, client_offset: str | None) -> Response:
    name, data = recommendations.export_csv(actor=actor, model_id=path_id(model_id), kind=kind,
                                            client_offset=offset_minutes(client_offset))
    return download(name, data, "text/csv; charset=utf-8")


# ---- long-term ----------------------------------------------------------------------------------
@router.get("/long-terms", **answers(Page[LongTermOut]))
def list_long_terms(actor: CurrentActor, model_id: str | None = None):
    found = recommendations.list_long_terms(actor=actor, model_id=as_id(model_id))
    return listing(rendered(list(found.rows)), found.total)


def _form(body: Optional[LongTermBody]) -> rules.RecommendationForm:
    """A long- or short-term body as the services read it (rules.read_form knows every key)."""
    return rules.read_form(sent(body))


long_term = Resource(router, "/long-terms", "rec_id", LongTermOut, LongTermBody, form_of=_form)
long_term.create(recommendations.create_long_term)
long_term.update(recommendations.update_long_term)
long_term.delete(recommendations.delete_long_term, message=rules.LONG_TERM_DELETED)


@router.delete("/long-terms-all", **answers(MessageCount))
def delete_all_long_terms(actor: CurrentActor, model_id: str | None = None):
    count = recommendations.delete_all_long_terms(actor=actor, model_id=as_id(model_id))
    return ok_message(rules.LONG_TERMS_ALL_DELETED, count=count)


@router.post("/long-terms-upload", openapi_extra=read_by_hand(("multipart/form-data", LongTermUploadForm)),
             **answers(RecommendationUploadOut))
async def upload_long_terms(actor: CurrentActor, request: Request):
    return await _upload(actor, request, rules.Kind.LONG_TERM, ("uploadType", "upload_type"))


@router.get("/long-terms/{model_id}/export-csv", response_class=Response, responses=_CSV_RESPONSES)
def export_long_terms(actor: CurrentActor, model_id: str, client_offset: ClientOffset = None):
    return _export(actor, model_id, rules.Kind.LONG_TERM, client_offset)


# ---- short-term ---------------------------------------------------------------------------------
@router.get("/recommendations", **answers(Page[ShortTermOut]))
def list_short_terms(actor: CurrentActor, model_id: str | None = None):
    found = recommendations.list_short_terms(actor=actor, model_id=as_id(model_id))
    return listing(rendered(list(found.rows)), found.total)


@router.put("/recommendations-mark-as-deleted",
            openapi_extra=read_by_hand(("application/json", MarkDeletedBody), required=False), **answers(MessageCount))
async def mark_short_terms_deleted(actor: CurrentActor, request: Request):
    """id[] as query parameters, or a JSON body {"id": [...]} (also "id[]" or "ids")."""
    ids: list[Any] = [*request.query_params.getlist("id[]"), *request.query_params.getlist("id")]
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = await request.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            for key in ("id", "id[]", "ids"):
                value = body.get(key)
                if isinstance(value, list):
                    ids.extend(value)
                elif value not in (None, ""):
                    ids.append(value)
        elif isinstance(body, list):
            ids.extend(body)
    numbers = [n for n in (as_id(i) for i in ids) if n is not None]
    count = recommendations.mark_short_terms_deleted(actor=actor, ids=numbers)
    return ok_message(rules.SHORT_TERM_DELETED if count == 1 else rules.SHORT_TERMS_ALL_DELETED, count=count)


short_term = Resource(router, "/recommendations", "rec_id", ShortTermOut, ShortTermBody, form_of=_form)
short_term.create(recommendations.create_short_term)
short_term.update(recommendations.update_short_term)


@router.post("/recommendations-upload", openapi_extra=read_by_hand(("multipart/form-data", ShortTermUploadForm)),
             **answers(RecommendationUploadOut))
async def upload_short_terms(actor: CurrentActor, request: Request):
    return await _upload(actor, request, rules.Kind.SHORT_TERM, ("upload_type", "uploadType"))


@router.get("/recommendations/{model_id}/export-csv", response_class=Response, responses=_CSV_RESPONSES)
def export_short_terms(actor: CurrentActor, model_id: str, client_offset: ClientOffset = None):
    return _export(actor, model_id, rules.Kind.SHORT_TERM, client_offset)
