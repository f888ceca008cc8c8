"""Profile (/api/me) and users (/api/users), with photo, signature and default logo uploads."""
from __future__ import annotations

import json
from datetime import date, datetime, time, timezone
from typing import Annotated, Any, Optional

from fastapi import APIRouter, File, Query, Request, UploadFile
from starlette.datastructures import UploadFile as StarletteUpload
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentActor, WholeNumberListQuery, answers, listing, ok, read_upload
from app.api.resources import Resource
from app.domain.errors import ValidationError
from app.domain.parsing import as_id
from app.domain.permissions import Actor
from app.domain.uploads import SELECT_FILE
from app.domain.validators import DATE
from app.domain.users import UserForm, read_profile_form, read_user_form
from app.services import users

from app.api.payloads import AddressBody, Named, UserOut
from app.api.schemas import Page, Rows, SentId, SentText, path_id, read_by_hand, rendered, sent


router = APIRouter(tags=["users"])


class UserBody(BaseModel):
    model_config = ConfigDict(extra="allow")
    first_name: SentText = None
    last_name: SentText = None
    preferred_name: SentText = None
    email: SentText = None
    phone: SentText = None
    ar_number: SentText = Field(None, description="An adviser's authorised representative number (digits)")
    role: SentText = None
    status: SentText = None
    firm_id: SentId = None
    adviser_id: SentId = None
    address: Optional[AddressBody] = None
    isPhotoRemoved: bool | None = None
    isSignatureRemoved: bool | None = None
    version: SentId = None


class ProfileBody(UserBody):
    oldPassword: SentText = None
    password: SentText = None
    rptPassword: SentText = None


class LogoForm(BaseModel):
    """multipart/form-data of POST /api/logo: the logo, or isLogoRemoved to remove it."""
    file: Optional[bytes] = Field(None, description="PNG, JPEG, GIF, WEBP or BMP, under 2,048,000 bytes")
    isLogoRemoved: Optional[str] = Field(None, description="1 or true: remove the default logo")


class LogoRemovedBody(BaseModel):
    isLogoRemoved: Optional[bool] = None


def _range(raw: str | None, field: str) -> tuple[datetime | None, datetime | None]:
    """`{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}` -> start of the first day, end of the last (UTC)."""
    if not raw:
        return None, None
    try:
        parsed = json.loads(raw)
        bounds: list[datetime | None] = []
        for key, edge in (("from", time.min), ("to", time.max)):
            value = parsed.get(key) if isinstance(parsed, dict) else None
            if not value:
                bounds.append(None)
            elif len(value) == 10:
                bounds.append(datetime.combine(date.fromisoformat(value), edge, tzinfo=timezone.utc))
            else:
                moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
                bounds.append(moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc))
        return bounds[0], bounds[1]
    except (ValueError, TypeError, AttributeError):
        raise ValidationError(DATE, {field: DATE})


async def _set_image(actor: Actor, user_id: int, kind: str, upload: StarletteUpload) -> dict[str, Any]:
    """A user's photo, signature or (the superuser's own) default logo from an uploaded file."""
    content_type, data = await read_upload(upload)
    return ok(rendered(users.set_user_image(actor=actor, user_id=user_id, kind=kind, content_type=content_type,
                                            data=data)))


def _user_form(body: UserBody) -> UserForm:
    return read_user_form(sent(body))


def _number(text: str | None) -> int | None:
    """An id a query names: None when it names none; text that is no id reads as 0 (names no row)."""
    return None if text in (None, "") else path_id(text)


# ---- profile -----------------------------------------------------------------------------------
@router.get("/me", **answers(UserOut))
def get_me(actor: CurrentActor):
    return ok(rendered(users.get_me(actor=actor)))


@router.put("/me", **answers(UserOut))
def update_me(actor: CurrentActor, body: ProfileBody):
    saved = users.update_me(actor=actor, form=read_profile_form(sent(body)))
    return ok({**rendered(saved.user), "message": saved.message})


@router.post("/me-photo-upload", **answers(UserOut))
async def me_photo(actor: CurrentActor, file: UploadFile = File(...)):
    return await _set_image(actor, actor.id, "photo", file)


@router.post("/me-signature-upload", **answers(UserOut))
async def me_signature(actor: CurrentActor, signature: UploadFile = File(...)):
    return await _set_image(actor, actor.id, "signature", signature)


@router.post("/logo", openapi_extra=read_by_hand(("multipart/form-data", LogoForm), ("application/json", LogoRemovedBody)), **answers(UserOut))
async def default_logo(actor: CurrentActor, request: Request):
    """The superuser's default logo: multipart `file`, or a JSON/form body with isLogoRemoved."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/"):
        form = await request.form()
        upload = form.get("file")
        if isinstance(upload, StarletteUpload):
            return await _set_image(actor, actor.id, "logo", upload)
        removed = str(form.get("isLogoRemoved", "")).lower() in ("1", "true")
    else:
        payload = await request.json() if content_type.startswith("application/json") else {}
        removed = bool(payload.get("isLogoRemoved")) if isinstance(payload, dict) else False
    if removed:
        return ok(rendered(users.remove_default_logo(actor=actor)))
    raise ValidationError(SELECT_FILE, {"file": SELECT_FILE})


# ---- users -------------------------------------------------------------------------------------
@router.get("/users", **answers(Page[UserOut]))
def list_users(
    actor: CurrentActor,
    query: Annotated[WholeNumberListQuery, Query()],
    role: Annotated[list[str] | None, Query(alias="role[]")] = None,
    status: Annotated[list[str] | None, Query(alias="status[]")] = None,
    firm_id: str | None = None,
    model_id: str | None = None,
    adviser_id: str | None = None,
    created_at: str | None = None,
    logined_at: str | None = None,
    shortened: int = 0,
    include_current_user: int = 1,
):
    created_from, created_to = _range(created_at, "created_at")
    logined_from, logined_to = _range(logined_at, "logined_at")
    listed = users.list_user_summaries if shortened else users.list_users
    found = listed(
        actor=actor, roles=role, statuses=status, firm_id=as_id(firm_id), adviser_id=as_id(adviser_id),
        model_id=_number(model_id), created_from=created_from, created_to=created_to, logined_from=logined_from,
        logined_to=logined_to, include_current_user=bool(include_current_user), **query.model_dump(),
    )
    return listing(rendered(found.rows), found.total)


user = Resource(router, "/users", "user_id", UserOut, UserBody, form_of=_user_form)
user.create(users.create_user)
user.get(users.get_user)
user.update(users.update_user)
user.delete(users.delete_user, message=users.DELETED)


@router.post("/users-photo-upload/{user_id}", **answers(UserOut))
async def user_photo(actor: CurrentActor, user_id: str, file: UploadFile = File(...)):
    return await _set_image(actor, path_id(user_id), "photo", file)


@router.post("/users-signature/{user_id}", **answers(UserOut))
async def user_signature(actor: CurrentActor, user_id: str, signature: UploadFile = File(...)):
    return await _set_image(actor, path_id(user_id), "signature", signature)


@router.get("/advisers-options", **answers(Rows[Named]))
def adviser_options(actor: CurrentActor, firm_id: str | None = None):
    return ok({"rows": rendered(users.adviser_options(actor=actor, firm_id=as_id(firm_id)))})
