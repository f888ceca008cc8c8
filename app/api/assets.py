"""The asset universe: classes, types, assets, lookups, picker search, price history and the price upload."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Query, UploadFile
from pydantic import Field

from app.api.deps import CurrentActor, ListQuery, answers, listing, ok, read_upload
from app.api.resources import Resource, Service
from app.domain import prices as price_rules
from app.services import assets

from app.api.payloads import AssetClassOut, AssetOut, AssetTypeOut, PriceOut, PriceUploadOut
from app.api.schemas import Body, Page, SentAmount, SentId, SentText

router = APIRouter(tags=["assets"])


class TitleBody(Body):
    title: SentText = None
    firmId: SentId = None


class AssetBody(Body):
    code: SentText = None
    name: SentText = None
    class_id: SentId = None
    type_id: SentId = None
    industry_group_id: SentId = None
    firm_id: SentId = None
    dividend_yield: SentAmount = None
    url: SentText = None


# ---- classes and types ------------------------------------------------------------------------------
def _titled_list(path: str, id_param: str, out: type, list_: Service, create: Service, update: Service,
                 delete: Service) -> None:
    """The routes of a titled list (asset classes, asset types): the firm's view, create, rename, delete."""
    def endpoint(actor: CurrentActor, firmId: str | None = None):
        return listing(list_(actor=actor, firm_id=firmId))

    endpoint.__name__ = endpoint.__qualname__ = list_.__name__
    router.add_api_route(path, endpoint, methods=["GET"], name=list_.__name__, **answers(Page[out]))
    resource = Resource(router, path, id_param, out, TitleBody, data_of=TitleBody.model_dump)
    resource.create(create)
    resource.update(update)
    resource.delete(delete)


_titled_list("/asset-classes", "class_id", AssetClassOut, assets.list_classes, assets.create_class,
             assets.update_class, assets.delete_class)
_titled_list("/asset-types", "type_id", AssetTypeOut, assets.list_types, assets.create_type, assets.update_type,
             assets.delete_type)


# ---- assets ------------------------------------------------------------------------------------------
class AssetQuery(ListQuery):
    """The asset list's query: its page, order (by code unless told) and search, and the list's filters."""
    sort: str = "code"
    class_id: str | None = Field(None, alias="classId")
    type_id: str | None = Field(None, alias="typeId")
    industry_group_id: str | None = Field(None, alias="industryGroupId")
    firm_id: str | None = Field(None, alias="firmId")


@router.get("/assets", **answers(Page[AssetOut]))
def list_assets(actor: CurrentActor, query: Annotated[AssetQuery, Query()]):
    return listing(*assets.list_assets(actor=actor, **query.model_dump()))


@router.get("/assets-search", **answers(Page[AssetOut]))
def search_assets(actor: CurrentActor, query: str | None = None, firmId: str | None = None, classId: str | None = None,
                  limit: str | None = None):
    return listing(assets.search_assets(actor=actor, query=query, firm_id=firmId, class_id=classId, limit=limit or 20))


@router.get("/assets-by-code/{code}", **answers(AssetOut))
def asset_by_code(actor: CurrentActor, code: str, has_class: str | None = None, firmId: str | None = None):
    return ok(assets.get_asset_by_code(actor=actor, code=code, has_class=has_class, firm_id=firmId))


asset_items = Resource(router, "/assets", "asset_id", AssetOut, AssetBody, data_of=AssetBody.model_dump)
asset_items.get(assets.get_asset)


@router.get("/assets/{asset_id}/prices", **answers(Page[PriceOut]))
def price_history(actor: CurrentActor, asset_id: str, limit: str | None = None):
    return listing(*assets.price_history(actor=actor, asset_id=asset_id, limit=limit or assets.HISTORY_DEFAULT))


asset_items.create(assets.create_asset)
asset_items.update(assets.update_asset)


# ---- prices ------------------------------------------------------------------------------------------
@router.post("/asset-prices-upload", **answers(PriceUploadOut))
async def upload_prices(actor: CurrentActor, file: UploadFile = File(...)):
    """Multipart `file`: CSV or Excel (.xlsx) with the columns code, date, close. A malformed file
    answers 400 with the reason and writes nothing; rejected lines come back in result.rejected,
    and a file in which every line is rejected answers 400 with them there."""
    content_type, data = await read_upload(file, price_rules.MAX_FILE_BYTES)
    return ok(assets.import_prices(actor=actor, filename=file.filename, content_type=content_type, data=data))
