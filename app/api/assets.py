"""The asset universe: classes, types, assets, lookups, picker search, price history and the price upload.

The query and the bodies are read here into the service's typed arguments (ids as numbers, the
forms as rules.AssetForm and rules.TitleForm); the answers are its dataclasses rendered as payloads."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Query, UploadFile
from pydantic import Field

from app.api.deps import CurrentActor, ListQuery, answers, listing, ok, read_upload
from app.api.resources import Resource, Service
from app.domain import prices as price_rules
from app.services import assets

from app.api.payloads import AssetClassOut, AssetOut, AssetTypeOut, PriceOut, PriceUploadOut
from app.api.schemas import Body, Page, SentAmount, SentId, SentText, path_id, query_number, rendered
from app.domain import assets as rules
from app.domain.parsing import as_bool, as_id

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


def _title_form(body: TitleBody) -> rules.TitleForm:
    return rules.read_title_form(body.model_dump())


def _asset_form(body: AssetBody) -> rules.AssetForm:
    return rules.read_asset_form(body.model_dump())



def _or(number: int | None, default: int) -> int:
    return default if number is None else number


# ---- classes and types ------------------------------------------------------------------------------
def _titled_list(path: str, id_param: str, out: type, list_: Service, create: Service, update: Service,
                 delete: Service) -> None:
    """The routes of a titled list (asset classes, asset types): the firm's view, create, rename, delete."""
    def endpoint(actor: CurrentActor, firmId: str | None = None):
        return listing(rendered(list_(actor=actor, firm_id=as_id(firmId))))

    endpoint.__name__ = endpoint.__qualname__ = list_.__name__
    router.add_api_route(path, endpoint, methods=["GET"], name=list_.__name__, **answers(Page[out]))
    resource = Resource(router, path, id_param, out, TitleBody, form_of=_title_form)
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
    page = assets.list_assets(
        actor=actor, limit=query_number(query.limit), offset=query_number(query.offset), sort=query.sort,
        order=query.order, search=query.search, class_id=as_id(query.class_id), type_id=as_id(query.type_id),
        industry_group_id=as_id(query.industry_group_id), firm_id=as_id(query.firm_id))
    return listing(rendered(page.rows), page.total)


@router.get("/assets-search", **answers(Page[AssetOut]))
def search_assets(actor: CurrentActor, query: str | None = None, firmId: str | None = None, classId: str | None = None,
                  limit: str | None = None):
    found = assets.search_assets(actor=actor, query=query, firm_id=as_id(firmId), class_id=as_id(classId),
                                 limit=_or(query_number(limit), assets.PICKER_LIMIT_DEFAULT))
    return listing(rendered(found))


@router.get("/assets-by-code/{code}", **answers(AssetOut))
def asset_by_code(actor: CurrentActor, code: str, has_class: str | None = None, firmId: str | None = None):
    return ok(rendered(assets.get_asset_by_code(actor=actor, code=code, has_class=as_bool(has_class),
                                                firm_id=as_id(firmId))))


asset_items = Resource(router, "/assets", "asset_id", AssetOut, AssetBody, form_of=_asset_form)
asset_items.get(assets.get_asset)


@router.get("/assets/{asset_id}/prices", **answers(Page[PriceOut]))
def price_history(actor: CurrentActor, asset_id: str, limit: str | None = None):
    history = assets.price_history(actor=actor, asset_id=path_id(asset_id),
                                   limit=_or(query_number(limit), assets.HISTORY_DEFAULT))
    return listing(rendered(history.rows), history.total)


asset_items.create(assets.create_asset)
asset_items.update(assets.update_asset)


# ---- prices ------------------------------------------------------------------------------------------
@router.post("/asset-prices-upload", **answers(PriceUploadOut))
async def upload_prices(actor: CurrentActor, file: UploadFile = File(...)):
    """Multipart `file`: CSV or Excel (.xlsx) with the columns code, date, close. A malformed file
    answers 400 with the reason and writes nothing; rejected lines come back in result.rejected,
    and a file in which every line is rejected answers 400 with them there."""
    content_type, data = await read_upload(file, price_rules.MAX_FILE_BYTES)
    return ok(rendered(assets.import_prices(actor=actor, filename=file.filename, content_type=content_type, data=data)))
