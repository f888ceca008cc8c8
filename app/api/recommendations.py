"""Long-term (/api/long-terms*) and short-term (/api/recommendations*) recommendations: list, create,
update, delete, delete all / mark as deleted, multipart upload to one or many models, CSV export."""
from __future__ import annotations

from typing import Any, Optional, Union

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentActor, listing, ok
from app.domain import recommendations as rules
from app.domain.errors import ValidationError
from app.exports.recommendations_csv import content_disposition
from app.services import recommendations

from app.api.payloads import LongTermOut, MessageCount, RecommendationUploadOut, ShortTermOut
from app.api.schemas import Envelope, Id, Message, Page, SentAmount, SentId, SentText, read_by_hand

router = APIRouter(tags=["recommendations"])
_CSV_RESPONSES: dict[int | str, dict[str, Any]] = {200: {"description": "the recommendations as CSV",
                                                          "content": {"text/csv": {}}}}


class LongTermBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    model_id: SentId = None
    asset_id: SentId = None
    action: SentText = None
    comment: SentText = None


class ShortTermBody(LongTermBody):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    price: SentAmount = None
    yield_: SentAmount = Field(default=None, alias="yield")  # "yield" is a Python keyword

    def data(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True, by_alias=True)


class _UploadForm(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    model_ids: list[Id] = Field(alias="model_ids[]", description="the models to load the file into (repeated)")
    file: bytes = Field(description=f"CSV or .xlsx, at most {rules.MAX_UPLOAD_BYTES // (1024 * 1024)} MB")


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


def _sent(body: BaseModel) -> dict[str, Any]:
    return body.model_dump(exclude_unset=True)


def _csv(name: str, data: bytes) -> Response:
    return Response(content=data, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": content_disposition(name), "Cache-Control": "no-store"})


async def _upload_form(request: Request, type_keys: tuple[str, ...]) -> dict[str, Any]:
    """model_ids[] (repeated, or model_ids), the file and the upload type from a multipart form."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/"):
        raise ValidationError(rules.SELECT_FILE, {"file": rules.SELECT_FILE})
    form = await request.form()
    model_ids = [*form.getlist("model_ids[]"), *form.getlist("model_ids")]
    upload_type = next((form.get(k) for k in type_keys if form.get(k) not in (None, "")), None)
    upload = form.get("file")
    if upload is None or not hasattr(upload, "read"):
        file_type, data = None, None
    else:
        file_type = upload.content_type or ""
        data = await upload.read(rules.MAX_UPLOAD_BYTES + 1)  # one byte past the limit tells it is too big
    return {"model_ids": model_ids, "upload_type": upload_type, "content_type": file_type, "data": data}


# ---- long-term ----------------------------------------------------------------------------------
@router.get("/long-terms", response_model_exclude_unset=True, response_model=Envelope[Page[LongTermOut]])
def list_long_terms(actor: CurrentActor, model_id: str | None = None):
    rows, total = recommendations.list_long_terms(actor=actor, model_id=model_id)
    return listing(rows, total)


@router.post("/long-terms", response_model_exclude_unset=True, response_model=Envelope[LongTermOut])
def create_long_term(actor: CurrentActor, body: LongTermBody):
    return ok(recommendations.create_long_term(actor=actor, data=_sent(body)))


@router.put("/long-terms/{rec_id}", response_model_exclude_unset=True, response_model=Envelope[LongTermOut])
def update_long_term(actor: CurrentActor, rec_id: str, body: LongTermBody):
    return ok(recommendations.update_long_term(actor=actor, rec_id=rec_id, data=_sent(body)))


@router.delete("/long-terms/{rec_id}", response_model_exclude_unset=True, response_model=Envelope[Message])
def delete_long_term(actor: CurrentActor, rec_id: str):
    recommendations.delete_long_term(actor=actor, rec_id=rec_id)
    return ok({"message": rules.LONG_TERM_DELETED})


@router.delete("/long-terms-all", response_model_exclude_unset=True, response_model=Envelope[MessageCount])
def delete_all_long_terms(actor: CurrentActor, model_id: str | None = None):
    count = recommendations.delete_all_long_terms(actor=actor, model_id=model_id)
    return ok({"message": rules.LONG_TERMS_ALL_DELETED, "count": count})


@router.post("/long-terms-upload", openapi_extra=read_by_hand(("multipart/form-data", LongTermUploadForm)), response_model_exclude_unset=True, response_model=Envelope[RecommendationUploadOut])
async def upload_long_terms(actor: CurrentActor, request: Request):
    form = await _upload_form(request, ("uploadType", "upload_type"))
    return ok(recommendations.upload_long_terms(actor=actor, **form))


@router.get("/long-terms/{model_id}/export-csv", response_class=Response, responses=_CSV_RESPONSES)
def export_long_terms(actor: CurrentActor, request: Request, model_id: str):
    name, data = recommendations.export_csv(actor=actor, model_id=model_id, kind=rules.Kind.LONG_TERM,
                                            client_offset=request.query_params.get("client-timezone-offset"))
    return _csv(name, data)


# ---- short-term ---------------------------------------------------------------------------------
@router.get("/recommendations", response_model_exclude_unset=True, response_model=Envelope[Page[ShortTermOut]])
def list_short_terms(actor: CurrentActor, model_id: str | None = None):
    rows, total = recommendations.list_short_terms(actor=actor, model_id=model_id)
    return listing(rows, total)


@router.put("/recommendations-mark-as-deleted", openapi_extra=read_by_hand(("application/json", MarkDeletedBody), required=False), response_model_exclude_unset=True, response_model=Envelope[MessageCount])
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
    count = recommendations.mark_short_terms_deleted(actor=actor, ids=ids)
    message = rules.SHORT_TERM_DELETED if count == 1 else rules.SHORT_TERMS_ALL_DELETED
    return ok({"message": message, "count": count})


@router.post("/recommendations", response_model_exclude_unset=True, response_model=Envelope[ShortTermOut])
def create_short_term(actor: CurrentActor, body: ShortTermBody):
    return ok(recommendations.create_short_term(actor=actor, data=body.data()))


@router.put("/recommendations/{rec_id}", response_model_exclude_unset=True, response_model=Envelope[ShortTermOut])
def update_short_term(actor: CurrentActor, rec_id: str, body: ShortTermBody):
    return ok(recommendations.update_short_term(actor=actor, rec_id=rec_id, data=body.data()))


@router.post("/recommendations-upload", openapi_extra=read_by_hand(("multipart/form-data", ShortTermUploadForm)), response_model_exclude_unset=True, response_model=Envelope[RecommendationUploadOut])
async def upload_short_terms(actor: CurrentActor, request: Request):
    form = await _upload_form(request, ("upload_type", "uploadType"))
    return ok(recommendations.upload_short_terms(actor=actor, **form))


@router.get("/recommendations/{model_id}/export-csv", response_class=Response, responses=_CSV_RESPONSES)
def export_short_terms(actor: CurrentActor, request: Request, model_id: str):
    name, data = recommendations.export_csv(actor=actor, model_id=model_id, kind=rules.Kind.SHORT_TERM,
                                            client_offset=request.query_params.get("client-timezone-offset"))
    return _csv(name, data)
