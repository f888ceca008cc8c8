"""Request plumbing shared by every router: the acting user and the response envelope."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request

from app.domain.permissions import Actor
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


def ok(result: Any = None) -> dict[str, Any]:
    return {"success": True, "result": result}


def listing(rows: list[Any], total: int) -> dict[str, Any]:
    return ok({"rows": rows, "totals": [{"count": total}]})


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


async def read_upload(upload) -> tuple[str | None, bytes]:
    """Read at most one byte past the image limit: bigger files are refused without buffering them."""
    from app.domain.validators import MAX_IMAGE_BYTES

    data = await upload.read(MAX_IMAGE_BYTES + 1)
    return upload.content_type, data
