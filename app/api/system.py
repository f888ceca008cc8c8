from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse

from app.api.deps import CurrentActor, answers, listing, ok
from app.services import files, mail

from app.api.payloads import HealthOut, MailOut
from app.api.schemas import Page, rendered

router = APIRouter(tags=["system"])


@router.get("/health", **answers(HealthOut))
def health():
    return ok({"status": "ok"})


@router.get("/files/{key}", include_in_schema=False)
def stored_file(key: str):
    # Keys are random and unguessable, so images load in <img> tags without a header.
    return FileResponse(files.path_of(key), media_type=files.content_type_of(key),
                        headers={"Cache-Control": "private, max-age=86400", "X-Content-Type-Options": "nosniff"})


@router.get("/outbox", **answers(Page[MailOut]))
def outbox(actor: CurrentActor, limit: int = Query(50, ge=1, le=1000), offset: int = Query(0, ge=0, le=2**31 - 1)):
    page = mail.list_outbox(actor=actor, limit=limit, offset=offset)
    return listing(rendered([m.summary() for m in page.rows]), page.total)
