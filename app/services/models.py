"""Model portfolios: list, read, create, update (every save is a new version), delete, history,
old versions, the details screen, the form's options, and the engine's bulk loader.

Writes are one transaction each: the Model row, its component rows replaced (delete + bulk insert)
and a ModelVersion row holding the JSON snapshot of the read shape (who and when). `Model.version`
is the current version number; an update names the version it edited and is refused with
ConflictError when the model moved on meanwhile (checked again atomically by the UPDATE).
Tenancy and edit rights: app.services.tenancy (404 for invisible models, 403 for edits by
a firm that does not own the model).
"""
from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from typing import Any, Iterable, Mapping

from sqlalchemy import delete, func, insert, select as sa_select, update
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetType, Firm, IndustryGroup, Model, ModelAsset, ModelClass, ModelCommentary,
    ModelEquivalent, ModelIndustryGroup, ModelSharedFirm, ModelType, ModelVersion, User,
)
from app.db.types import stored_id, utcnow
from app.domain import model_rules as rules
from app.domain import validators as v
from app.domain.allocations import flag_unknown_choices
from app.domain.errors import Conflict, NotFound, ValidationError
from app.domain.model_spec import (
    AssetRef, ClassSpec, EquivalentSpec, IndustryGroupSpec, ModelAssetSpec, ModelSpec, TypeSpec,
)
from app.domain.models import HISTORY_PAGE_SIZES, AllocationMethod, Availability, ModelStatus, switches_of
from app.domain.permissions import Actor, can_create_model, can_edit_model, require, require_staff
from app.domain.money import percent_4dp_text, percent_trimmed_text
from app.domain.prices import price_text, since_inclusion_return
from app.domain.users import PersonName
from app.domain.timezones import iso_json
from app.services import assets as asset_service
from app.services import audit, industry_groups, listing
from app.services.assets import FirmRef, GroupRef, TitledRef
from app.services.listing import Page
from app.services.tenancy import (
    asset_classes_of, asset_types_of, editable_models, firms_of_model, firms_to_own_or_share, load_model, readable_assets,
    readable_models, usable_ids,
)

pct = percent_trimmed_text
ENGINE_CHUNK = 2000  # ids per IN (...) list when loading models for the engine
ALL_FIRMS = "-2"     # the firm filter's "All Firms" value (spec 002 s9)

_COMPONENT_TABLES = (ModelClass, ModelAsset, ModelType, ModelIndustryGroup, ModelEquivalent, ModelCommentary,
                     ModelSharedFirm)


def _brief(asset_id: int | None, code: str | None, name: str | None) -> dict[str, Any] | None:
    return None if asset_id is None else {"id": asset_id, "code": code, "name": name}


# ---- the read shape ------------------------------------------------------------------------------
def _read_shape(s: Session, model: Model) -> dict[str, Any]:
    """The model as the form shows it (and as each version's snapshot keeps it), in 7 queries."""
    mid = model.id
    shared_ids = sa_select(ModelSharedFirm.firm_id).where(ModelSharedFirm.model_id == mid)
    firms = s.execute(
        sa_select(Firm.id, Firm.name, Firm.deleted_at)
        .where(firms_of_model(model)).order_by(func.lower(Firm.name), Firm.id)
    ).all()
    shared_set = set(s.execute(shared_ids).scalars().all()) if len(firms) > 1 else set()
    owner = next(({"id": i, "name": n} for i, n, _ in firms if i == model.firm_id), {"id": model.firm_id, "name": None})
    shared = [{"id": i, "name": n} for i, n, deleted in firms if i in shared_set and deleted is None]

    classes = s.execute(
        sa_select(ModelClass, AssetClass.title, AssetClass.is_cash)
        .join(AssetClass, AssetClass.id == ModelClass.class_id)
        .where(ModelClass.model_id == mid).order_by(ModelClass.priority, ModelClass.id)
    ).all()
    alt = aliased(Asset)
    asset_rows = s.execute(
        sa_select(ModelAsset, Asset.code, Asset.name, Asset.url, alt.code, alt.name)
        .join(Asset, Asset.id == ModelAsset.asset_id)
        .outerjoin(alt, alt.id == ModelAsset.alt_asset_id)
        .where(ModelAsset.model_id == mid).order_by(ModelAsset.priority, ModelAsset.id)
    ).all()
    by_class: dict[int, list[dict[str, Any]]] = {}
    for ma, code, name, url, alt_code, alt_name in asset_rows:
        by_class.setdefault(ma.class_id, []).append({
            "asset_id": ma.asset_id, "code": code, "name": name, "url": url,
            "alt_asset_id": ma.alt_asset_id, "alt_asset": _brief(ma.alt_asset_id, alt_code, alt_name),
            "priority": ma.priority, "percentage": pct(ma.percentage),
            "included_at": iso_json(ma.included_at), "inclusion_price": price_text(ma.inclusion_price),
        })
    allocation_classes = [{
        "id": mc.class_id, "class_id": mc.class_id, "title": title, "is_cash": bool(is_cash),
        "allocation": pct(mc.allocation), "min": pct(mc.min), "max": pct(mc.max),
        "assets_limit": mc.assets_limit, "priority": mc.priority, "assets": by_class.get(mc.class_id, []),
    } for mc, title, is_cash in classes]

    types = s.execute(
        sa_select(ModelType, AssetType.title).join(AssetType, AssetType.id == ModelType.type_id)
        .where(ModelType.model_id == mid).order_by(ModelType.id)
    ).all()
    groups = s.execute(
        sa_select(ModelIndustryGroup, IndustryGroup.title, IndustryGroup.color)
        .join(IndustryGroup, IndustryGroup.id == ModelIndustryGroup.industry_group_id)
        .where(ModelIndustryGroup.model_id == mid).order_by(ModelIndustryGroup.priority, ModelIndustryGroup.id)
    ).all()
    a1, a2 = aliased(Asset), aliased(Asset)
    equivalents = s.execute(
        sa_select(ModelEquivalent.asset_id, ModelEquivalent.eq_asset_id, a1.code, a1.name, a2.code, a2.name)
        .join(a1, a1.id == ModelEquivalent.asset_id).join(a2, a2.id == ModelEquivalent.eq_asset_id)
        .where(ModelEquivalent.model_id == mid).order_by(ModelEquivalent.id)
    ).all()
    commentaries = s.execute(
        sa_select(ModelCommentary.type, ModelCommentary.description)
        .where(ModelCommentary.model_id == mid).order_by(ModelCommentary.id)
    ).all()

    investment, everyone = switches_of(Availability(model.availability))
    percentages = model.allocation_method == AllocationMethod.PERCENTAGES.value
    return {
        "id": mid,
        "name": model.name,
        "status": model.status,
        "status_title": rules.STATUS_TITLES.get(model.status, model.status),
        "allocation_method": model.allocation_method,
        "allocation_method_title": rules.METHOD_TITLES.get(model.allocation_method, model.allocation_method),
        "availability": model.availability,
        "availability_title": rules.AVAILABILITY_TITLES.get(model.availability, model.availability),
        "investment": investment,
        "all": everyone,
        "ownerId": model.firm_id,
        "owner": [owner],
        "firm": owner,
        "firms": [f["id"] for f in shared],
        "sharedFirms": shared,
        "analyst_recommendations": model.analyst_recommendations,
        "class_allocation": model.class_allocation,
        "type_allocation": model.type_allocation,
        "industry_group_allocation": model.industry_group_allocation,
        "analyst_recommendations_date": iso_json(model.analyst_recommendations_date),
        "allocation_classes": allocation_classes,
        "allocation_types": [{"type_id": t.type_id, "title": title, "allocation": pct(t.allocation),
                              "min": pct(t.min), "max": pct(t.max)} for t, title in types],
        "industry_groups_allocations": [{"industry_group_id": g.industry_group_id, "title": title, "color": color,
                                         "allocation": pct(g.allocation), "min": pct(g.min), "max": pct(g.max),
                                         "priority": g.priority} for g, title, color in groups],
        "equivalents": [{"asset_id": a, "eq_asset_id": e, "asset": _brief(a, ac, an), "eq": _brief(e, ec, en)}
                        for a, e, ac, an, ec, en in equivalents],
        "assets_percentages_allocations": [
            {"asset_id": asset["asset_id"], "class_id": c["class_id"], "allocation": asset["percentage"],
             "alternative": asset["alt_asset_id"]}
            for c in allocation_classes for asset in c["assets"]
        ] if percentages else [],
        "commentaries": [{"type": t, "description": d} for t, d in commentaries],
        "version": model.version,
        "version_id": model.version,
        "created_at": iso_json(model.created_at),
        "updated_at": iso_json(model.updated_at),
    }


def _with_actor(shape: dict[str, Any], actor: Actor, owner_firm_id: int) -> dict[str, Any]:
    return {**shape, "can_edit": can_edit_model(actor, owner_firm_id)}


# ---- writing ------------------------------------------------------------------------------------
def _check_references(s: Session, actor: Actor, owner_firm_id: int, values: dict[str, Any]) -> dict[int, Asset]:
    """Every id of the payload must name something the owner firm may use; raises ValidationError
    naming what is not. Returns the class assets by id (for inclusion prices)."""
    errors = v.FieldErrors()
    unavailable: list[str] = []

    known_classes = usable_ids(s, AssetClass, {c["class_id"] for c in values["classes"]}, owner_firm_id)
    flag_unknown_choices(errors, values["classes"], "allocation_classes", "class_id", "class", known_classes)

    wanted: set[int] = set()
    for c in values["classes"]:
        for a in c["assets"]:
            wanted.add(a["asset_id"])
            if a["alt_asset_id"] is not None:
                wanted.add(a["alt_asset_id"])
    for e in values["equivalents"]:
        wanted.update((e["asset_id"], e["eq_asset_id"]))
    usable = {a.id: a for a in s.exec(select(Asset).where(
        col(Asset.id).in_(wanted), readable_assets(actor, owner_firm_id)))} if wanted else {}

    def refuse(field: str, asset_id: int, asset: Asset | None) -> None:
        ref = asset.code if asset is not None else str(asset_id)
        errors.check(field, rules.ASSET_NOT_AVAILABLE.format(ref=ref))
        if ref not in unavailable:
            unavailable.append(ref)

    class_assets: dict[int, Asset] = {}
    for c in values["classes"]:
        for a in c["assets"]:
            prefix = f"allocation_classes.{c['index']}.assets.{a['index']}"
            asset = usable.get(a["asset_id"])
            if asset is None or asset.class_id != c["class_id"]:
                refuse(f"{prefix}.asset_id", a["asset_id"], asset)
            else:
                class_assets[asset.id] = asset
            if a["alt_asset_id"] is not None and a["alt_asset_id"] not in usable:
                refuse(f"{prefix}.alt_asset_id", a["alt_asset_id"], None)
    for e in values["equivalents"]:
        for side in ("asset_id", "eq_asset_id"):
            if e[side] not in usable:
                refuse(f"equivalents.{e['index']}", e[side], None)

    known_types = usable_ids(s, AssetType, {t["type_id"] for t in values["types"]}, owner_firm_id)
    flag_unknown_choices(errors, values["types"], "allocation_types", "type_id", "type", known_types)

    industry_groups.flag_unknown(s, errors, values["industry_groups"])

    if values["firms"]:
        live = set(s.exec(select(Firm.id).where(col(Firm.id).in_(values["firms"]), Firm.deleted_at.is_(None))).all())
        if any(fid not in live or fid == owner_firm_id for fid in values["firms"]):
            errors.check("firms", rules.SELECT_SHARING_FIRM)

    if not errors.ok:
        if unavailable:
            message = rules.unavailable_message(unavailable)
        elif set(errors) == {"firms"}:
            message = rules.SELECT_SHARING_FIRM
        else:
            message = rules.INVALID_FORM
        raise ValidationError(message, dict(errors))
    return class_assets


def _write(s: Session, actor: Actor, model: Model, values: dict[str, Any], class_assets: Mapping[int, Asset],
           now: datetime, *, new: bool) -> dict[str, Any]:
    """Replace the model's components, then record the version snapshot. Returns the read shape.
    Assets already in the previous version keep their inclusion date and price."""
    mid = model.id
    previous: dict[int, tuple[datetime, Any]] = {}
    if not new:
        previous = {asset_id: (included_at, price) for asset_id, included_at, price in s.execute(
            sa_select(ModelAsset.asset_id, ModelAsset.included_at, ModelAsset.inclusion_price).where(ModelAsset.model_id == mid)
        ).all()}
        for table in _COMPONENT_TABLES:
            s.execute(delete(table).where(table.model_id == mid))

    class_rows, asset_rows = [], []
    for c in values["classes"]:
        class_rows.append({"model_id": mid, "class_id": c["class_id"], "allocation": c["allocation"], "min": c["min"],
                           "max": c["max"], "assets_limit": c["assets_limit"], "priority": c["priority"]})
        for a in c["assets"]:
            included_at, price = previous.get(a["asset_id"], (now, class_assets[a["asset_id"]].last_close_price))
            asset_rows.append({"model_id": mid, "class_id": c["class_id"], "asset_id": a["asset_id"],
                               "alt_asset_id": a["alt_asset_id"], "priority": a["priority"],
                               "percentage": a["percentage"], "included_at": included_at, "inclusion_price": price})
    batches = (
        (ModelClass, class_rows),
        (ModelAsset, asset_rows),
        (ModelType, [{"model_id": mid, "type_id": t["type_id"], "allocation": t["allocation"], "min": t["min"],
                      "max": t["max"]} for t in values["types"]]),
        (ModelIndustryGroup, [{"model_id": mid, "industry_group_id": g["industry_group_id"], "allocation": g["allocation"],
                               "min": g["min"], "max": g["max"], "priority": g["priority"]} for g in values["industry_groups"]]),
        (ModelEquivalent, [{"model_id": mid, "asset_id": e["asset_id"], "eq_asset_id": e["eq_asset_id"]}
                           for e in values["equivalents"]]),
        (ModelCommentary, [{"model_id": mid, "type": k["type"], "description": k["description"], "updated_at": now}
                           for k in values["commentaries"]]),
        (ModelSharedFirm, [{"model_id": mid, "firm_id": fid} for fid in values["firms"]]),
    )
    for table, rows in batches:
        if rows:
            s.execute(insert(table), rows)
    s.flush()
    shape = _read_shape(s, model)
    s.add(ModelVersion(model_id=mid, version=model.version, snapshot=json.dumps(shape), moderator_id=actor.id,
                       created_at=now))
    s.flush()
    return shape


def _apply(model: Model, values: dict[str, Any], actor: Actor, now: datetime) -> None:
    model.name = values["name"]
    model.status = values["status"]
    model.allocation_method = values["allocation_method"]
    model.availability = values["availability"]
    for switch in ("analyst_recommendations", "class_allocation", "type_allocation", "industry_group_allocation"):
        setattr(model, switch, values[switch])
    model.updated_by = actor.id
    model.updated_at = now


def _clean(s: Session, data: Mapping[str, Any], *, owner_required: bool) -> dict[str, Any]:
    cash = asset_service.cash_class(s)  # 'There is no cash class in db'
    values, errors, message = rules.clean_model(data if isinstance(data, Mapping) else {}, cash_class_id=cash.id,
                                                owner_required=owner_required)
    if message is not None:
        raise ValidationError(message, dict(errors))
    return values


def create_model(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    require(can_create_model(actor))
    with session_scope() as s:
        values = _clean(s, data, owner_required=actor.is_superuser)
        if actor.is_superuser:
            owner_firm_id = values["owner_id"]
            if s.exec(select(Firm.id).where(Firm.id == owner_firm_id, Firm.deleted_at.is_(None))).first() is None:
                raise ValidationError(rules.INVALID_FORM, {"ownerId": rules.SELECT_FIRM})
        else:
            owner_firm_id = actor.firm_id
        class_assets = _check_references(s, actor, owner_firm_id, values)
        now = utcnow()
        model = Model(firm_id=owner_firm_id, name=values["name"], version=1, created_by=actor.id, created_at=now)
        _apply(model, values, actor, now)
        s.add(model)
        s.flush()
        shape = _write(s, actor, model, values, class_assets, now, new=True)
        audit.created(s, actor, "model.created", "model", model)
        return {**_with_actor(shape, actor, model.firm_id), "message": rules.CREATED[ModelStatus(model.status)]}


def update_model(*, actor: Actor, model_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    with session_scope() as s:
        model = load_model(s, actor, model_id, for_edit=True)
        current = model.version
        expected = data.get("version", data.get("version_id")) if isinstance(data, Mapping) else None
        if not v.is_empty(expected) and str(expected).strip() != str(current):
            raise Conflict(rules.MODEL_CHANGED)
        values = _clean(s, data, owner_required=False)  # the owner firm never changes on an edit
        class_assets = _check_references(s, actor, model.firm_id, values)
        bumped = s.execute(
            update(Model).where(Model.id == model.id, Model.version == current).values(version=current + 1)
            .execution_options(synchronize_session=False)
        )
        if bumped.rowcount != 1:  # another save committed since we read the model
            raise Conflict(rules.MODEL_CHANGED)
        now = utcnow()
        before = audit.snapshot(model)
        model.version = current + 1
        _apply(model, values, actor, now)
        s.add(model)
        s.flush()
        shape = _write(s, actor, model, values, class_assets, now, new=False)
        audit.changed(s, actor, "model.updated", "model", model, {**before, "_version": current})
        return {**_with_actor(shape, actor, model.firm_id), "message": rules.SAVED[ModelStatus(model.status)]}


def delete_model(*, actor: Actor, model_id: Any) -> dict[str, Any]:
    """Soft delete: the model leaves every list and read (404 afterwards); its history stays."""
    with session_scope() as s:
        model = load_model(s, actor, model_id, for_edit=True)
        before = audit.snapshot(model)
        now = utcnow()
        model.deleted_at = now
        model.updated_at = now
        model.updated_by = actor.id
        s.add(model)
        audit.changed(s, actor, "model.deleted", "model", model, before)
    return {"message": rules.DELETED}


# ---- reading ------------------------------------------------------------------------------------
def get_model(*, actor: Actor, model_id: Any) -> dict[str, Any]:
    with session_scope() as s:
        model = load_model(s, actor, model_id)
        return _with_actor(_read_shape(s, model), actor, model.firm_id)


@dataclasses.dataclass(frozen=True)
class ModelSummary:
    """A model as the lists and the bulk selections read it."""
    id: int
    name: str
    status: str
    status_title: str
    allocation_method: str
    allocation_method_title: str
    analyst_recommendations: bool
    firm: FirmRef  # the owner firm
    owner: tuple[FirmRef, ...]  # the same, as the specification's list carries it
    availability: str
    assets_count: int
    portfolios_count: int
    created_at: datetime | None
    updated_at: datetime | None
    version: int
    can_edit: bool


def list_models(*, actor: Actor, limit: int | None = None, offset: int | None = None, sort: str = "name",
                order: str = "asc", search: str | None = None, firm_id: int | None = None, link: bool = False,
                tp_calculation: bool = False, tr_calculation: bool = False, str_upload: bool = False,
                recommendations_upload: bool = False) -> Page[ModelSummary]:
    """A page of the models the actor can see (spec 000 s6-s7), with the total count.

    firm_id: the superuser's owner-firm filter (None: all firms; rules.owner_filter reads it);
    ignored for others. link: active models the actor's firm may link a portfolio to (availability
    not nobody); tp_calculation / tr_calculation: active models; str_upload: models with analyst
    recommendations on that the actor may edit; recommendations_upload: models the actor may edit."""
    require_staff(actor)
    limit_i, offset_i = listing.page(limit, offset)
    where = [readable_models(actor, firm_id if actor.is_superuser else None)]
    text = (search or "").strip()
    if text:
        where.append(func.lower(Model.name).contains(text.lower(), autoescape=True))
    if link:
        where += [Model.status == ModelStatus.ACTIVE.value, Model.availability != Availability.NOBODY.value]
    if tp_calculation or tr_calculation:
        where.append(Model.status == ModelStatus.ACTIVE.value)
    if str_upload:
        where += [Model.analyst_recommendations.is_(True), editable_models(actor)]
    if recommendations_upload:
        where.append(editable_models(actor))

    columns = {
        "name": (func.lower(Model.name), Model.id),
        "status": (Model.status, func.lower(Model.name), Model.id),
        "firm": (func.lower(Firm.name), func.lower(Model.name), Model.id),
        "updated_at": (Model.updated_at, Model.id),
        "created_at": (Model.created_at, Model.id),
    }
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(Model).where(*where)).one()
        page = s.execute(
            sa_select(Model, Firm.name).outerjoin(Firm, Firm.id == Model.firm_id).where(*where)
            .order_by(*listing.order_by(sort, order, columns, "name")).offset(offset_i).limit(limit_i)
        ).all()
        ids = [m.id for m, _ in page]
        counts = dict(s.execute(
            sa_select(ModelAsset.model_id, func.count()).where(col(ModelAsset.model_id).in_(ids)).group_by(ModelAsset.model_id)
        ).all()) if ids else {}
    rows = []
    for model, firm_name in page:
        firm = FirmRef(model.firm_id, firm_name)
        rows.append(ModelSummary(
            id=model.id, name=model.name,
            status=model.status, status_title=rules.STATUS_TITLES.get(model.status, model.status),
            allocation_method=model.allocation_method,
            allocation_method_title=rules.METHOD_TITLES.get(model.allocation_method, model.allocation_method),
            analyst_recommendations=model.analyst_recommendations,
            firm=firm, owner=(firm,), availability=model.availability,
            assets_count=int(counts.get(model.id, 0)), portfolios_count=0,
            created_at=model.created_at, updated_at=model.updated_at,
            version=model.version, can_edit=can_edit_model(actor, model.firm_id),
        ))
    return Page(tuple(rows), int(total))


def all_models(*, actor: Actor, firm_id: int | None = None, link: bool = False, tp_calculation: bool = False,
               tr_calculation: bool = False, str_upload: bool = False,
               recommendations_upload: bool = False) -> list[ModelSummary]:
    """Every model `list_models` finds with these filters, by name, read a page at a time (the bulk
    selection screens list them all)."""
    rows: list[ModelSummary] = []
    while True:
        page = list_models(actor=actor, limit=listing.MAX_LIMIT, offset=len(rows), sort="name", order="asc",
                           firm_id=firm_id, link=link, tp_calculation=tp_calculation, tr_calculation=tr_calculation,
                           str_upload=str_upload, recommendations_upload=recommendations_upload)
        rows.extend(page.rows)
        if not page.rows or len(rows) >= page.total:
            return rows


HISTORY_SORTS = ("created_at", "version_id")


@dataclasses.dataclass(frozen=True)
class ModelVersionRow:
    """A saved version of a model in its history: when, and who saved it."""
    created_at: datetime | None
    moderator: PersonName  # empty names when the user is gone
    model_id: int
    version_id: int


def model_history(*, actor: Actor, model_id: int, limit: int | None = HISTORY_PAGE_SIZES[0], offset: int | None = 0,
                  order_by: str = "created_at", order: str = "desc") -> Page[ModelVersionRow]:
    """The model's versions with who saved each, by `order_by` (created_at or version_id; spec 000 s9:
    created_at descending by default) in `order` (asc or desc)."""
    limit_i, offset_i = listing.page(limit, offset, default=HISTORY_PAGE_SIZES[0])
    columns = {"created_at": (ModelVersion.created_at, ModelVersion.version), "version_id": (ModelVersion.version,)}
    with session_scope() as s:
        model = load_model(s, actor, model_id)
        count = s.exec(select(func.count()).select_from(ModelVersion).where(ModelVersion.model_id == model.id)).one()
        rows = s.execute(
            sa_select(ModelVersion.version, ModelVersion.created_at, User.first_name, User.last_name)
            .outerjoin(User, User.id == ModelVersion.moderator_id).where(ModelVersion.model_id == model.id)
            .order_by(*listing.order_by(order_by, order or "desc", columns, "created_at"))
            .offset(offset_i).limit(limit_i)
        ).all()
    return Page(tuple(ModelVersionRow(created_at, PersonName(first or "", last or ""), model.id, version)
                      for version, created_at, first, last in rows), int(count))


@dataclasses.dataclass(frozen=True)
class SavedVersion:
    """One saved version of a model: the model as it was then, and when and by whom it was saved."""

    model: dict[str, Any]  # the snapshot of the read shape, with can_edit, is_version and current_version
    saved_at: str | None
    saved_by: str  # first and last name ('' when the user is gone)


def saved_version(*, actor: Actor, model_id: Any, version: Any) -> SavedVersion:
    number = rules.as_id(version)
    with session_scope() as s:
        model = load_model(s, actor, model_id)
        found = s.execute(
            sa_select(ModelVersion, User.first_name, User.last_name)
            .outerjoin(User, User.id == ModelVersion.moderator_id)
            .where(ModelVersion.model_id == model.id, ModelVersion.version == number)
        ).first() if number is not None else None
        if found is None:
            raise NotFound(rules.VERSION_NOT_FOUND)
        row, first, last = found
        shape = json.loads(row.snapshot)
        return SavedVersion(
            model={**_with_actor(shape, actor, model.firm_id), "is_version": True, "current_version": model.version},
            saved_at=iso_json(row.created_at), saved_by=f"{first or ''} {last or ''}".strip())


def get_model_version(*, actor: Actor, model_id: Any, version: Any) -> dict[str, Any]:
    """The model as it was saved in `version` (read-only: `is_version` is true)."""
    return saved_version(actor=actor, model_id=model_id, version=version).model


def _asset_facts(asset: Asset, group: IndustryGroup | None) -> dict[str, Any]:
    return {
        "asset_id": asset.id, "code": asset.code, "name": asset.name, "url": asset.url,
        "price": price_text(asset.last_close_price), "last_close_date": iso_json(asset.last_close_date),
        "one_month_return": percent_4dp_text(asset.one_month_return),
        "dividend_yield": percent_4dp_text(asset.dividend_yield),
        "industry_group": None if group is None else {"id": group.id, "title": group.title, "color": group.color},
    }


def model_details(*, actor: Actor, model_id: Any) -> dict[str, Any]:
    """The details screen: the model, and per class its assets with prices and returns (and each
    asset's alternate, for the alternates toggle). Returns are percentage texts or None (N/A)."""
    with session_scope() as s:
        model = load_model(s, actor, model_id)
        shape = _with_actor(_read_shape(s, model), actor, model.firm_id)
        classes = s.execute(
            sa_select(ModelClass, AssetClass.title, AssetClass.is_cash).join(AssetClass, AssetClass.id == ModelClass.class_id)
            .where(ModelClass.model_id == model.id).order_by(ModelClass.priority, ModelClass.id)
        ).all()
        rows = s.execute(
            sa_select(ModelAsset, Asset, IndustryGroup).join(Asset, Asset.id == ModelAsset.asset_id)
            .outerjoin(IndustryGroup, IndustryGroup.id == Asset.industry_group_id)
            .where(ModelAsset.model_id == model.id).order_by(ModelAsset.priority, ModelAsset.id)
        ).all()
        alt_ids = {ma.alt_asset_id for ma, _, _ in rows if ma.alt_asset_id is not None}
        alternates = {a.id: (a, g) for a, g in s.execute(
            sa_select(Asset, IndustryGroup).outerjoin(IndustryGroup, IndustryGroup.id == Asset.industry_group_id)
            .where(col(Asset.id).in_(alt_ids))
        ).all()} if alt_ids else {}
    per_class: dict[int, list[dict[str, Any]]] = {}
    for ma, asset, group in rows:
        facts = _asset_facts(asset, group)
        facts.update(
            since_inclusion_return=percent_4dp_text(since_inclusion_return(asset.last_close_price, ma.inclusion_price)),
            included_at=iso_json(ma.included_at), inclusion_price=price_text(ma.inclusion_price),
            priority=ma.priority, percentage=pct(ma.percentage), alt_asset=None,
        )
        if ma.alt_asset_id in alternates:
            alt_asset, alt_group = alternates[ma.alt_asset_id]
            # the alternate was not bought at inclusion: no inclusion price, so no since-inclusion return
            facts["alt_asset"] = {**_asset_facts(alt_asset, alt_group), "since_inclusion_return": None}
        per_class.setdefault(ma.class_id, []).append(facts)
    return {
        "model": shape,
        "classes": [{"class_id": mc.class_id, "title": title, "is_cash": bool(is_cash), "allocation": pct(mc.allocation),
                     "assets": per_class.get(mc.class_id, [])} for mc, title, is_cash in classes],
    }


@dataclasses.dataclass(frozen=True)
class ClassOption:
    id: int
    title: str
    is_cash: bool


@dataclasses.dataclass(frozen=True)
class ModelFormOptions:
    """What the model form offers: asset classes and types the (owner) firm may use, industry
    groups, and the firms to own or share with."""
    classes: tuple[ClassOption, ...]
    types: tuple[TitledRef, ...]
    industry_groups: tuple[GroupRef, ...]
    firms: tuple[FirmRef, ...]


def model_form_options(*, actor: Actor, firm_id: int | None = None) -> ModelFormOptions:
    """The model form's options for the owner firm (superuser: `firm_id`, every firm to own or
    share; others: their own firm, and the firms to share with)."""
    require(can_create_model(actor))
    firm = firm_id if actor.is_superuser else actor.firm_id

    with session_scope() as s:
        classes = s.exec(select(AssetClass).where(asset_classes_of(firm))
                         .order_by(AssetClass.idx, func.lower(AssetClass.title), AssetClass.id)).all()
        types = s.exec(select(AssetType).where(asset_types_of(firm)).order_by(func.lower(AssetType.title), AssetType.id)).all()
        groups = s.exec(select(IndustryGroup).order_by(IndustryGroup.idx, func.lower(IndustryGroup.title), IndustryGroup.id)).all()
        firm_stmt = sa_select(Firm.id, Firm.name).where(firms_to_own_or_share(actor)).order_by(func.lower(Firm.name), Firm.id)
        firms = s.execute(firm_stmt).all()
        return ModelFormOptions(
            classes=tuple(ClassOption(stored_id(c), c.title, c.is_cash) for c in classes),
            types=tuple(TitledRef(t.id, t.title) for t in types),
            industry_groups=tuple(GroupRef(stored_id(g), g.title, g.color) for g in groups),
            firms=tuple(FirmRef(i, n) for i, n in firms),
        )


# ---- the engine's loader ----------------------------------------------------------------------------
def _chunks(ids: list[int], size: int = ENGINE_CHUNK) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def load_models_for_engine(session: Session, model_ids: Iterable[Any]) -> dict[int, ModelSpec]:
    """The models with these ids as immutable ModelSpec trees, in 6 queries per 2,000 models
    (whatever their size). An internal loader for calculation jobs: it checks no permission (the
    caller has loaded the portfolios it calculates) and includes deleted models (flagged)."""
    ids = sorted({i for i in (rules.as_id(x) for x in model_ids) if i is not None})
    result: dict[int, ModelSpec] = {}
    for chunk in _chunks(ids):
        result.update(_load_chunk(session, chunk))
    return result


def _load_chunk(s: Session, ids: list[int]) -> dict[int, ModelSpec]:
    models = s.exec(select(Model).where(col(Model.id).in_(ids))).all()
    if not models:
        return {}
    classes = s.execute(
        sa_select(ModelClass, AssetClass.title, AssetClass.is_cash).join(AssetClass, AssetClass.id == ModelClass.class_id)
        .where(col(ModelClass.model_id).in_(ids)).order_by(ModelClass.model_id, ModelClass.priority, ModelClass.id)
    ).all()
    alt = aliased(Asset)
    assets = s.execute(
        sa_select(ModelAsset, Asset.code, Asset.class_id, Asset.type_id, Asset.industry_group_id, Asset.last_close_price,
                  alt.code, alt.class_id, alt.type_id, alt.industry_group_id, alt.last_close_price)
        .join(Asset, Asset.id == ModelAsset.asset_id).outerjoin(alt, alt.id == ModelAsset.alt_asset_id)
        .where(col(ModelAsset.model_id).in_(ids)).order_by(ModelAsset.model_id, ModelAsset.priority, ModelAsset.id)
    ).all()
    types = s.exec(select(ModelType).where(col(ModelType.model_id).in_(ids)).order_by(ModelType.model_id, ModelType.id)).all()
    groups = s.exec(select(ModelIndustryGroup).where(col(ModelIndustryGroup.model_id).in_(ids))
                    .order_by(ModelIndustryGroup.model_id, ModelIndustryGroup.priority, ModelIndustryGroup.id)).all()
    equivalents = s.exec(select(ModelEquivalent).where(col(ModelEquivalent.model_id).in_(ids))
                         .order_by(ModelEquivalent.model_id, ModelEquivalent.id)).all()

    asset_specs: dict[tuple[int, int], list[ModelAssetSpec]] = {}
    for row in assets:
        ma = row[0]
        code, class_id, type_id, group_id, price = row[1:6]
        alt_code, alt_class, alt_type, alt_group, alt_price = row[6:11]
        alternate = None if ma.alt_asset_id is None else AssetRef(ma.alt_asset_id, alt_code, alt_class, alt_type, alt_group, alt_price)
        asset_specs.setdefault((ma.model_id, ma.class_id), []).append(ModelAssetSpec(
            asset=AssetRef(ma.asset_id, code, class_id, type_id, group_id, price), priority=ma.priority,
            alternate=alternate, percentage=ma.percentage, included_at=ma.included_at, inclusion_price=ma.inclusion_price,
        ))
    class_specs: dict[int, list[ClassSpec]] = {}
    for mc, title, is_cash in classes:
        class_specs.setdefault(mc.model_id, []).append(ClassSpec(
            class_id=mc.class_id, title=title, is_cash=bool(is_cash), allocation=mc.allocation, min=mc.min, max=mc.max,
            assets_limit=mc.assets_limit, priority=mc.priority, assets=tuple(asset_specs.get((mc.model_id, mc.class_id), ())),
        ))
    type_specs: dict[int, list[TypeSpec]] = {}
    for t in types:
        type_specs.setdefault(t.model_id, []).append(TypeSpec(t.type_id, t.allocation, t.min, t.max))
    group_specs: dict[int, list[IndustryGroupSpec]] = {}
    for g in groups:
        group_specs.setdefault(g.model_id, []).append(IndustryGroupSpec(g.industry_group_id, g.allocation, g.min, g.max, g.priority))
    eq_specs: dict[int, list[EquivalentSpec]] = {}
    for e in equivalents:
        eq_specs.setdefault(e.model_id, []).append(EquivalentSpec(e.asset_id, e.eq_asset_id))
    return {m.id: ModelSpec(
        id=m.id, firm_id=m.firm_id, name=m.name, status=m.status, allocation_method=m.allocation_method,
        availability=m.availability, version=m.version, analyst_recommendations=m.analyst_recommendations,
        class_allocation=m.class_allocation, type_allocation=m.type_allocation,
        industry_group_allocation=m.industry_group_allocation, deleted=m.deleted_at is not None,
        classes=tuple(class_specs.get(m.id, ())), types=tuple(type_specs.get(m.id, ())),
        industry_groups=tuple(group_specs.get(m.id, ())), equivalents=tuple(eq_specs.get(m.id, ())),
    ) for m in models}
