"""The asset universe: classes, types, assets, lookups, picker search, price history and the price upload."""
from __future__ import annotations

from fastapi import APIRouter, File, UploadFile

from app.api.deps import CurrentActor, answers, listing, ok, read_upload
from app.domain import prices as price_rules
from app.services import assets

from app.api.payloads import AssetClassOut, AssetOut, AssetTypeOut, PriceOut, PriceUploadOut
from app.api.schemas import Body, Message, Page, SentAmount, SentId, SentText

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
@router.get("/asset-classes", **answers(Page[AssetClassOut]))
def list_classes(actor: CurrentActor, firmId: str | None = None):
    return listing(assets.list_classes(actor=actor, firm_id=firmId))


@router.post("/asset-classes", **answers(AssetClassOut))
def create_class(actor: CurrentActor, body: TitleBody):
    return ok(assets.create_class(actor=actor, data=body.model_dump()))


@router.put("/asset-classes/{class_id}", **answers(AssetClassOut))
def update_class(actor: CurrentActor, class_id: str, body: TitleBody):
    return ok(assets.update_class(actor=actor, class_id=class_id, data=body.model_dump()))


@router.delete("/asset-classes/{class_id}", **answers(Message))
def delete_class(actor: CurrentActor, class_id: str):
    return ok(assets.delete_class(actor=actor, class_id=class_id))


@router.get("/asset-types", **answers(Page[AssetTypeOut]))
def list_types(actor: CurrentActor, firmId: str | None = None):
    return listing(assets.list_types(actor=actor, firm_id=firmId))


@router.post("/asset-types", **answers(AssetTypeOut))
def create_type(actor: CurrentActor, body: TitleBody):
    return ok(assets.create_type(actor=actor, data=body.model_dump()))


@router.put("/asset-types/{type_id}", **answers(AssetTypeOut))
def update_type(actor: CurrentActor, type_id: str, body: TitleBody):
    return ok(assets.update_type(actor=actor, type_id=type_id, data=body.model_dump()))


@router.delete("/asset-types/{type_id}", **answers(Message))
def delete_type(actor: CurrentActor, type_id: str):
    return ok(assets.delete_type(actor=actor, type_id=type_id))


# ---- assets ------------------------------------------------------------------------------------------
@router.get("/assets", **answers(Page[AssetOut]))
def list_assets(actor: CurrentActor, limit: str | None = None, offset: str | None = None, sort: str = "code",
                order: str = "asc", search: str | None = None, classId: str | None = None, typeId: str | None = None,
                industryGroupId: str | None = None, firmId: str | None = None):
    return listing(*assets.list_assets(actor=actor, limit=limit, offset=offset, sort=sort, order=order, search=search,
                                       class_id=classId, type_id=typeId, industry_group_id=industryGroupId,
                                       firm_id=firmId))


@router.get("/assets-search", **answers(Page[AssetOut]))
def search_assets(actor: CurrentActor, query: str | None = None, firmId: str | None = None, classId: str | None = None,
                  limit: str | None = None):
    return listing(assets.search_assets(actor=actor, query=query, firm_id=firmId, class_id=classId, limit=limit or 20))


@router.get("/assets-by-code/{code}", **answers(AssetOut))
def asset_by_code(actor: CurrentActor, code: str, has_class: str | None = None, firmId: str | None = None):
    return ok(assets.get_asset_by_code(actor=actor, code=code, has_class=has_class, firm_id=firmId))


@router.get("/assets/{asset_id}", **answers(AssetOut))
def get_asset(actor: CurrentActor, asset_id: str):
    return ok(assets.get_asset(actor=actor, asset_id=asset_id))


@router.get("/assets/{asset_id}/prices", **answers(Page[PriceOut]))
def price_history(actor: CurrentActor, asset_id: str, limit: str | None = None):
    return listing(*assets.price_history(actor=actor, asset_id=asset_id, limit=limit or assets.HISTORY_DEFAULT))


@router.post("/assets", **answers(AssetOut))
def create_asset(actor: CurrentActor, body: AssetBody):
    return ok(assets.create_asset(actor=actor, data=body.model_dump()))


@router.put("/assets/{asset_id}", **answers(AssetOut))
def update_asset(actor: CurrentActor, asset_id: str, body: AssetBody):
    return ok(assets.update_asset(actor=actor, asset_id=asset_id, data=body.model_dump()))


# ---- prices ------------------------------------------------------------------------------------------
@router.post("/asset-prices-upload", **answers(PriceUploadOut))
async def upload_prices(actor: CurrentActor, file: UploadFile = File(...)):
    """Multipart `file`: CSV or Excel (.xlsx) with the columns code, date, close. A malformed file
    answers 400 with the reason and writes nothing; rejected lines come back in result.rejected,
    and a file in which every line is rejected answers 400 with them there."""
    content_type, data = await read_upload(file, price_rules.MAX_FILE_BYTES)
    return ok(assets.import_prices(actor=actor, filename=file.filename, content_type=content_type, data=data))
