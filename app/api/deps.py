"""Request plumbing shared by every router: the acting user, the response envelope and its
declaration, lists, downloads and uploads."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import Depends, Header, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel

from app.api.schemas import Envelope
from app.domain.errors import ValidationError
from app.domain.permissions import Actor
from app.exports.recommendations_csv import content_disposition
from app.services import auth


def current_actor(
    request: Request,
    x_token: Annotated[str | None, Header(alias="x-token")] = None,
    token: Annotated[str | None, Query(include_in_schema=False)] = None,
) -> Actor:
    """The signed-in user: the session token in the `x-token` header, or a download link's
    single-use ticket in its `token` query (good only for the path it was issued for)."""
    if x_token:
        return auth.authenticate(x_token)
    return auth.redeem_download_ticket(token, request.url.path)


CurrentActor = Annotated[Actor, Depends(current_actor)]

# The caller's offset from UTC in minutes, which the download links add for the times written
# into the file (left out of the documented parameters of the routes that read it this way).
ClientOffset = Annotated[Optional[str], Query(alias="client-timezone-offset", include_in_schema=False)]


def answers(result: Any) -> dict[str, Any]:
    """The route arguments of a JSON answer: `result` inside the envelope, with the optional
    fields the service did not set left out. `@router.get(path, **answers(Page[FirmOut]))`."""
    return {"response_model": Envelope[result], "response_model_exclude_unset": True}


def ok(result: Any = None) -> dict[str, Any]:
    return {"success": True, "result": result}


def ok_message(message: str, **more: Any) -> dict[str, Any]:
    """A write answered with its toast only ({message}, and `more` keys such as count)."""
    return ok({"message": message, **more})


def listing(rows: list[Any], total: int | None = None) -> dict[str, Any]:
    """A list (schemas.Page): its rows and their count, or the total of which they are a page
    (`listing(*service.list_x(...))` for a service that answers (rows, total))."""
    return ok({"rows": rows, "totals": [{"count": len(rows) if total is None else total}]})


class ListQuery(BaseModel):
    """The query of a list screen: a page (`limit` rows from `offset`), its order and the text
    searched for, as sent (the service reads and checks the numbers). A route takes it, or its
    own subclass with the list's filters, as `Annotated[ListQuery, Query()]`."""
    limit: str | None = None
    offset: str | None = None
    sort: str = "name"
    order: str = "asc"
    search: str | None = None


class WholeNumberListQuery(ListQuery):
    """A list query whose page numbers must be whole numbers (else the request's 400)."""
    # narrowed from the text of ListQuery (pydantic reads the field as redeclared, in its place)
    limit: int | None = None  # type: ignore[assignment]
    offset: int | None = None  # type: ignore[assignment]


def portfolio_listing(rows: list[Any], total: int | None = None) -> dict[str, Any]:
    """A list of the portfolios' kind (schemas.CountTotals): totals is one object {count}."""
    return ok({"rows": rows, "totals": {"count": len(rows) if total is None else total}})


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


def download(name: str, data: bytes, media_type: str) -> Response:
    """A file the browser saves as `name`. Every download is built from client data, so neither the
    browser nor a proxy may keep a copy (a shared computer or cache would hand it to the next user)."""
    return Response(content=data, media_type=media_type,
                    headers={"Content-Disposition": content_disposition(name), "Cache-Control": "no-store"})


FILE_FORMATS = {"excel": "xlsx", "pdf": "pdf"}


def file_format(request: Request) -> str:
    """The format a download's path names: one route function serves a report's `.../export-excel`
    and `.../export-pdf` (each declared by its own decorator, with its own name and responses)."""
    return FILE_FORMATS[request.url.path.rsplit("-", 1)[-1]]


async def read_upload(upload, limit: int | None = None) -> tuple[str | None, bytes]:
    """An uploaded file's type and at most one byte past `limit` (default: the image limit): a
    bigger file is refused by its service without being buffered whole."""
    from app.domain.validators import MAX_IMAGE_BYTES

    data = await upload.read((MAX_IMAGE_BYTES if limit is None else limit) + 1)
    return upload.content_type, data


async def form_with_file(request: Request, *, limit: int, select_file: str) -> tuple[Any, str | None, bytes | None]:
    """A multipart form a route reads by hand, and its `file` part: (form, content type, at most
    one byte past `limit`), or (form, None, None) without a file, for the service to answer. A
    request that is not multipart answers `select_file`."""
    if not request.headers.get("content-type", "").startswith("multipart/"):
        raise ValidationError(select_file, {"file": select_file})
    form = await request.form()
    upload = form.get("file")
    if upload is None or isinstance(upload, str):  # no file part, or a text field named file
        return form, None, None
    return form, upload.content_type or "", await upload.read(limit + 1)
