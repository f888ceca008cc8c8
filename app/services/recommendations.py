"""Long-term and short-term (analyst) recommendations of a model: list, add, change, delete, delete
all, CSV/Excel upload to one or many models (amend or replace) and CSV download.

Reading needs a model the actor can see (tenancy.load_model); every write needs the right to
edit it (for_edit=True): clients are refused, other firms' models are not found. Writes lock the
model row, so two people adding the same asset at once cannot both succeed. Short-term
recommendations are never removed: they are marked deleted, and every change stamps the model's
analyst_recommendations_date (the engine reads it to know the recommendations changed)."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app.db.engine import session_scope
from app.db.tables import Asset, LongTermRecommendation, Model, ModelAsset, ShortTermRecommendation
from app.db.types import utcnow
from app.domain import recommendations as rules
from app.domain import validators as v
from app.domain.errors import INVALID_FORM, DomainError, NotFound, ValidationError
from app.domain.models import UPLOAD_TYPES
from app.domain.permissions import Actor, can_edit_model, require_staff
from app.domain.recommendations import Kind, LineError, UploadLine
from app.domain.uploads import parsed_upload
from app.domain.parsing import as_id
from app.domain.timezones import client_offset as browser_offset, iso_json
from app.domain.money import number_json
from app.exports import recommendations_csv
from app.services import tenancy
from app.services.models import ModelSummary

ACTIVE, DELETED = "active", "deleted"
REPLACE = UPLOAD_TYPES[1]


# ---- shapes --------------------------------------------------------------------------------------
def long_term_row(rec: LongTermRecommendation, asset: Asset) -> dict[str, Any]:
    return {
        "id": rec.id,
        "model_id": rec.model_id,
        "asset_id": rec.asset_id,
        "asset": {"id": asset.id, "code": asset.code, "name": asset.name},
        "action": rec.action,
        "comment": rec.comment,
        "is_new": False,
        "created_at": iso_json(rec.created_at),
        "updated_at": iso_json(rec.updated_at),
    }


def short_term_row(rec: ShortTermRecommendation, asset: Asset, in_model: bool) -> dict[str, Any]:
    return {
        "id": rec.id,
        "asset_id": rec.asset_id,
        "code": asset.code,
        "name": asset.name,
        "action": rec.action,
        "price": number_json(rec.price),
        "yield": number_json(rec.yield_),
        "comment": rec.comment,
        "status": rec.status,
        "model_id": rec.model_id,
        "is_new": False,
        "model_asset": in_model,  # the asset is one of the model's assets
        "created_at": iso_json(rec.created_at),
        "updated_at": iso_json(rec.updated_at),
    }


def _model_summary(actor: Actor, model: Model) -> dict[str, Any]:
    return {"id": model.id, "name": model.name, "firm_id": model.firm_id, "status": model.status,
            "analyst_recommendations": model.analyst_recommendations,
            "analyst_recommendations_date": iso_json(model.analyst_recommendations_date),
            "can_edit": can_edit_model(actor, model.firm_id)}


# ---- helpers -------------------------------------------------------------------------------------
def _model_for_write(s: Session, actor: Actor, model_id: Any) -> Model:
    """The model if the actor may change it, locked until the transaction ends (PostgreSQL)."""
    model = tenancy.load_model(s, actor, model_id, for_edit=True)
    s.exec(select(Model.id).where(Model.id == model.id).with_for_update()).first()
    return model


def _usable_asset(s: Session, actor: Actor, model: Model, asset_id: Any) -> Asset | None:
    number = as_id(asset_id)
    if number is None:
        return None
    return s.exec(select(Asset).where(Asset.id == number, tenancy.readable_assets(actor, model.firm_id))).first()


def _refuse(errors: Mapping[str, str]) -> None:
    """A hold without a comment is told with the specification's own text; anything else with the
    form text and the per-field texts."""
    if not errors:
        return
    if dict(errors) == {"comment": rules.COMMENT_REQUIRED}:
        raise ValidationError(rules.COMMENT_REQUIRED, dict(errors))
    raise ValidationError(INVALID_FORM, dict(errors))


def _clean_form(kind: Kind, data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The recommendation's cleaned values and per-field errors; a hold also needs a comment."""
    values, errors = rules.clean_recommendation(kind, data)
    if "action" not in errors and rules.is_hold_without_comment(kind, values["action"], values["comment"]):
        errors["comment"] = rules.COMMENT_REQUIRED
    return values, errors


def _new_recommendation_target(s: Session, actor: Actor, data: Mapping[str, Any],
                               errors: dict[str, str]) -> tuple[Model, Asset]:
    """The model (writable by the actor) and the asset a new recommendation is for; refuses the
    form, with `errors` and an unusable asset, if anything is wrong."""
    model = _model_for_write(s, actor, data.get("model_id"))
    asset = _usable_asset(s, actor, model, data.get("asset_id"))
    if asset is None:
        errors["asset_id"] = v.REQUIRED_SELECT.format(label="asset")
    _refuse(errors)
    return model, asset


def _stamp_short_terms(model: Model, s: Session) -> None:
    model.analyst_recommendations_date = utcnow()
    s.add(model)


# ---- the screens' first load ------------------------------------------------------------------------
def recommendations_page(*, actor: Actor, model_id: Any, kind: Kind | str) -> dict[str, Any]:
    """The model (id, name, can_edit ...) and its recommendations of one kind, in one call."""
    kind = Kind(kind)
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        rows = _long_terms(s, model) if kind is Kind.LONG_TERM else _short_terms(s, model)
        return {"model": _model_summary(actor, model), "rows": rows}


# ---- long-term ----------------------------------------------------------------------------------
def _long_terms(s: Session, model: Model) -> list[dict[str, Any]]:
    found = s.exec(
        select(LongTermRecommendation, Asset).join(Asset, Asset.id == LongTermRecommendation.asset_id)
        .where(LongTermRecommendation.model_id == model.id).order_by(Asset.code, LongTermRecommendation.id)
    ).all()
    return [long_term_row(rec, asset) for rec, asset in found]


def list_long_terms(*, actor: Actor, model_id: Any) -> tuple[list[dict[str, Any]], int]:
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        rows = _long_terms(s, model)
        return rows, len(rows)


def _load_recommendation(s: Session, actor: Actor, table, rec_id: Any):
    """A long- or short-term recommendation (`table`) and its model, for a change by a staff member
    who may edit the model; 404 otherwise (and for a short-term one no longer active)."""
    require_staff(actor)
    number = as_id(rec_id)
    rec = s.get(table, number) if number else None
    if rec is None or getattr(rec, "status", ACTIVE) != ACTIVE:
        raise NotFound(rules.RECOMMENDATION_NOT_FOUND)
    try:
        model = _model_for_write(s, actor, rec.model_id)
    except NotFound:
        raise NotFound(rules.RECOMMENDATION_NOT_FOUND) from None
    return rec, model


def _load_long_term(s: Session, actor: Actor, rec_id: Any) -> tuple[LongTermRecommendation, Model]:
    return _load_recommendation(s, actor, LongTermRecommendation, rec_id)


def create_long_term(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """data: asset_id, model_id, action (buy | sell | hold), comment. A new hold needs a comment."""
    require_staff(actor)
    values, errors = _clean_form(Kind.LONG_TERM, data)
    with session_scope() as s:
        model, asset = _new_recommendation_target(s, actor, data, errors)
        taken = s.exec(select(LongTermRecommendation.id).where(LongTermRecommendation.model_id == model.id,
                                                               LongTermRecommendation.asset_id == asset.id)).first()
        duplicate = rules.LONG_TERM_DUPLICATE.format(code=asset.code)
        if taken is not None:
            raise ValidationError(duplicate, {"asset_id": duplicate})
        rec = LongTermRecommendation(model_id=model.id, asset_id=asset.id, action=values["action"], comment=values["comment"],
                                     created_by=actor.id, updated_by=actor.id)
        s.add(rec)
        try:
            s.flush()
        except IntegrityError:  # the same asset added at the same moment by someone else
            raise ValidationError(duplicate, {"asset_id": duplicate}) from None
        return {**long_term_row(rec, asset), "message": rules.LONG_TERM_ADDED}


def update_long_term(*, actor: Actor, rec_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Action and comment (what is not sent stays). A hold is kept only with a comment: the screen
    asks whether to delete instead (spec 000 s4)."""
    with session_scope() as s:
        rec, model = _load_long_term(s, actor, rec_id)
        merged = {"action": data.get("action", rec.action), "comment": data.get("comment", rec.comment)}
        values, errors = _clean_form(Kind.LONG_TERM, merged)
        _refuse(errors)
        rec.action, rec.comment = values["action"], values["comment"]
        rec.updated_by, rec.updated_at = actor.id, utcnow()
        s.add(rec)
        s.flush()
        asset = s.get(Asset, rec.asset_id)
        return {**long_term_row(rec, asset), "message": rules.LONG_TERM_UPDATED}


def delete_long_term(*, actor: Actor, rec_id: Any) -> None:
    with session_scope() as s:
        rec, _ = _load_long_term(s, actor, rec_id)
        s.delete(rec)


def delete_all_long_terms(*, actor: Actor, model_id: Any) -> int:
    require_staff(actor)
    with session_scope() as s:
        model = _model_for_write(s, actor, model_id)
        count = s.exec(select(func.count()).select_from(LongTermRecommendation)
                       .where(LongTermRecommendation.model_id == model.id)).one()
        if not count:
            raise ValidationError(rules.NOTHING_TO_REMOVE)
        s.exec(delete(LongTermRecommendation).where(LongTermRecommendation.model_id == model.id))
        return int(count)


# ---- short-term ---------------------------------------------------------------------------------
def _short_terms(s: Session, model: Model) -> list[dict[str, Any]]:
    found = s.exec(
        select(ShortTermRecommendation, Asset).join(Asset, Asset.id == ShortTermRecommendation.asset_id)
        .where(ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.status == ACTIVE)
        .order_by(Asset.code, ShortTermRecommendation.id)
    ).all()
    in_model = set(s.exec(select(ModelAsset.asset_id).where(ModelAsset.model_id == model.id)).all())
    return [short_term_row(rec, asset, asset.id in in_model) for rec, asset in found]


def list_short_terms(*, actor: Actor, model_id: Any) -> tuple[list[dict[str, Any]], int]:
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        rows = _short_terms(s, model)
        return rows, len(rows)


def _load_short_term(s: Session, actor: Actor, rec_id: Any) -> tuple[ShortTermRecommendation, Model]:
    return _load_recommendation(s, actor, ShortTermRecommendation, rec_id)


def _in_model(s: Session, model: Model, asset_id: int) -> bool:
    return s.exec(select(ModelAsset.id).where(ModelAsset.model_id == model.id, ModelAsset.asset_id == asset_id)).first() is not None


def create_short_term(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """data: model_id, asset_id, action (a code of SHORT_TERM_ACTIONS), comment, price, yield.
    Created active; a new hold needs a comment; one active recommendation per asset."""
    require_staff(actor)
    values, errors = _clean_form(Kind.SHORT_TERM, data)
    with session_scope() as s:
        model, asset = _new_recommendation_target(s, actor, data, errors)
        taken = s.exec(select(ShortTermRecommendation.id).where(
            ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.asset_id == asset.id,
            ShortTermRecommendation.status == ACTIVE)).first()
        if taken is not None:
            duplicate = rules.SHORT_TERM_DUPLICATE.format(code=asset.code)
            raise ValidationError(duplicate, {"asset_id": duplicate})
        rec = ShortTermRecommendation(model_id=model.id, asset_id=asset.id, action=values["action"], comment=values["comment"],
                                      price=values["price"], yield_=values["yield"], status=ACTIVE,
                                      created_by=actor.id, updated_by=actor.id)
        s.add(rec)
        _stamp_short_terms(model, s)
        s.flush()
        s.refresh(rec)
        return {**short_term_row(rec, asset, _in_model(s, model, asset.id)), "message": rules.SHORT_TERM_ADDED}


def update_short_term(*, actor: Actor, rec_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Action, comment, price, yield (what is not sent stays). An update to hold without a comment
    deletes the recommendation (spec 001 s4): the answer then has deleted true."""
    with session_scope() as s:
        rec, model = _load_short_term(s, actor, rec_id)
        merged = {
            "action": data.get("action", rec.action),
            "comment": data.get("comment", rec.comment),
            "price": data.get("price", rec.price),
            "yield": data.get("yield", data.get("yield_", rec.yield_)),
        }
        values, errors = rules.clean_recommendation(Kind.SHORT_TERM, merged)
        _refuse(errors)
        rec.updated_by, rec.updated_at = actor.id, utcnow()
        _stamp_short_terms(model, s)
        asset = s.get(Asset, rec.asset_id)
        if rules.is_hold_without_comment(Kind.SHORT_TERM, values["action"], values["comment"]):
            rec.status = DELETED
            s.add(rec)
            s.flush()
            return {**short_term_row(rec, asset, _in_model(s, model, asset.id)), "deleted": True,
                    "message": rules.SHORT_TERM_DELETED}
        rec.action, rec.comment, rec.price, rec.yield_ = values["action"], values["comment"], values["price"], values["yield"]
        s.add(rec)
        s.flush()
        s.refresh(rec)
        return {**short_term_row(rec, asset, _in_model(s, model, asset.id)), "deleted": False,
                "message": rules.SHORT_TERM_UPDATED}


def mark_short_terms_deleted(*, actor: Actor, ids: Iterable[Any]) -> int:
    """PUT /api/recommendations-mark-as-deleted: every listed active recommendation is marked deleted
    (all or none: one that is not found or not editable refuses the whole call)."""
    require_staff(actor)
    numbers = list(dict.fromkeys(n for n in (as_id(i) for i in ids or []) if n is not None))
    if not numbers:
        raise ValidationError(rules.NOTHING_TO_REMOVE)
    with session_scope() as s:
        models: dict[int, Model] = {}
        recs = []
        for number in numbers:
            rec, model = _load_short_term(s, actor, number)
            models[model.id] = model
            recs.append(rec)
        now = utcnow()
        for rec in recs:
            rec.status, rec.updated_by, rec.updated_at = DELETED, actor.id, now
            s.add(rec)
        for model in models.values():
            _stamp_short_terms(model, s)
        return len(recs)


def delete_all_short_terms(*, actor: Actor, model_id: Any) -> int:
    """Marks every active recommendation of the model deleted ('There are no recommendations to
    remove' when there is none)."""
    require_staff(actor)
    with session_scope() as s:
        model = _model_for_write(s, actor, model_id)
        count = s.exec(select(func.count()).select_from(ShortTermRecommendation).where(
            ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.status == ACTIVE)).one()
        if not count:
            raise ValidationError(rules.NOTHING_TO_REMOVE)
        _clear_short_terms(s, actor, model)
        _stamp_short_terms(model, s)
        return int(count)


def _clear_short_terms(s: Session, actor: Actor, model: Model) -> None:
    s.exec(update(ShortTermRecommendation)
           .where(ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.status == ACTIVE)
           .values(status=DELETED, updated_by=actor.id, updated_at=utcnow()))


# ---- download ----------------------------------------------------------------------------------
def export_csv(*, actor: Actor, model_id: Any, kind: Kind | str, client_offset: Any = None) -> tuple[str, bytes]:
    """(file name, CSV bytes) of the model's recommendations; 'There are no recommendations to
    download' when there is none. Times and the file's date are in the browser's offset."""
    kind = Kind(kind)
    offset = browser_offset(client_offset)
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        if kind is Kind.LONG_TERM:
            found = s.exec(
                select(LongTermRecommendation, Asset).join(Asset, Asset.id == LongTermRecommendation.asset_id)
                .where(LongTermRecommendation.model_id == model.id).order_by(Asset.code)).all()
            rows = [{"code": a.code, "name": a.name, "action": r.action, "comment": r.comment, "updated_at": r.updated_at}
                    for r, a in found]
        else:
            found = s.exec(
                select(ShortTermRecommendation, Asset).join(Asset, Asset.id == ShortTermRecommendation.asset_id)
                .where(ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.status == ACTIVE)
                .order_by(Asset.code)).all()
            rows = [{"code": a.code, "name": a.name, "action": r.action, "comment": r.comment, "price": number_json(r.price),
                     "yield": number_json(r.yield_), "updated_at": r.updated_at} for r, a in found]
        if not rows:
            raise ValidationError(rules.NOTHING_TO_DOWNLOAD)
        name = recommendations_csv.filename(kind, model.name, utcnow(), offset)
        return name, recommendations_csv.build(kind, rows, offset)


# ---- upload ------------------------------------------------------------------------------------
Plan = list[tuple]


def _plan(s: Session, actor: Actor, kind: Kind, model: Model, lines: Sequence[UploadLine],
          upload_type: str) -> tuple[Plan, list[LineError]]:
    """What the file does to one model, without writing: ('clear',), ('create', asset, line),
    ('update', rec, line), ('remove', rec); and the lines that cannot be applied to this model."""
    found = tenancy.find_assets_by_codes(s, actor, [line.code for line in lines], firm_id=model.firm_id)
    errors = [rules.unknown_code_error(line.line, line.code) for line in lines if line.code not in found]
    plan: Plan = []
    existing: dict[int, Any] = {}
    if upload_type == REPLACE:
        plan.append(("clear",))
    elif kind is Kind.LONG_TERM:
        for rec in s.exec(select(LongTermRecommendation).where(LongTermRecommendation.model_id == model.id)).all():
            existing[rec.asset_id] = rec
    else:
        for rec in s.exec(select(ShortTermRecommendation).where(ShortTermRecommendation.model_id == model.id,
                                                                ShortTermRecommendation.status == ACTIVE)
                          .order_by(ShortTermRecommendation.id)).all():
            existing.setdefault(rec.asset_id, rec)
    for line in lines:
        asset = found.get(line.code)
        if asset is None:
            continue
        rec = existing.get(asset.id)
        if rules.is_hold_without_comment(kind, line.action, line.comment):
            if rec is None:  # a new hold needs a comment
                errors.append(rules.hold_comment_error(line.line, line.code))
            else:  # an existing one updated to hold without a comment goes (spec 000 s4, 001 s4)
                plan.append(("remove", rec))
            continue
        plan.append(("update", rec, line) if rec is not None else ("create", asset, line))
    return plan, errors


def _apply(s: Session, actor: Actor, kind: Kind, model: Model, plan: Plan) -> None:
    now = utcnow()
    for step in plan:
        op = step[0]
        if op == "clear":
            if kind is Kind.LONG_TERM:
                s.exec(delete(LongTermRecommendation).where(LongTermRecommendation.model_id == model.id))
            else:
                _clear_short_terms(s, actor, model)
        elif op == "remove":
            rec = step[1]
            if kind is Kind.LONG_TERM:
                s.delete(rec)
            else:
                rec.status, rec.updated_by, rec.updated_at = DELETED, actor.id, now
                s.add(rec)
        elif op == "update":
            rec, line = step[1], step[2]
            rec.action, rec.comment, rec.updated_by, rec.updated_at = line.action, line.comment, actor.id, now
            if kind is Kind.SHORT_TERM:
                rec.price, rec.yield_ = line.price, line.yield_
            s.add(rec)
        else:  # create
            asset, line = step[1], step[2]
            if kind is Kind.LONG_TERM:
                s.add(LongTermRecommendation(model_id=model.id, asset_id=asset.id, action=line.action, comment=line.comment,
                                             created_by=actor.id, updated_by=actor.id))
            else:
                s.add(ShortTermRecommendation(model_id=model.id, asset_id=asset.id, action=line.action, comment=line.comment,
                                              price=line.price, yield_=line.yield_, status=ACTIVE,
                                              created_by=actor.id, updated_by=actor.id))
    if kind is Kind.SHORT_TERM:
        _stamp_short_terms(model, s)
    s.flush()


def _model_errors(per_model: list[tuple[Model, list[LineError]]]) -> list[LineError]:
    """Errors of a bulk upload: a line wrong for every model is named once; one wrong only for some
    models names them."""
    if len(per_model) == 1:
        return list(per_model[0][1])
    everywhere = set.intersection(*(set(errors) for _, errors in per_model))
    merged: list[LineError] = list(everywhere)
    for model, errors in per_model:
        merged.extend(LineError(e.line, f"{e.text} (model {model.name})") for e in errors if e not in everywhere)
    return merged


def _model_ids(model_ids: Any) -> list[int]:
    if model_ids is None:
        return []
    if isinstance(model_ids, (str, int)):
        model_ids = str(model_ids).replace("[", "").replace("]", "").split(",")
    numbers: list[int] = []
    for item in model_ids:
        for part in str(item).replace("[", "").replace("]", "").split(","):
            if part.strip():
                number = as_id(part)
                if number is None:
                    raise NotFound(tenancy.MODEL_NOT_FOUND)
                numbers.append(number)
    return list(dict.fromkeys(numbers))


def upload(*, actor: Actor, kind: Kind | str, model_ids: Any, content_type: str | None, data: bytes | None,
           upload_type: Any = None, on_model_done: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Apply a CSV or Excel file of recommendations to every listed model.

    The type is checked first ('Invalid file type!'); then the whole file is read and validated,
    for every model, before anything is written: one bad line (unknown asset code, wrong action,
    bad number, a new hold without a comment ...) writes nothing and the message names each line.
    amend (the default) updates or adds per asset; replace removes the model's recommendations
    (long-term deleted, short-term marked deleted) and the file's lines become the set. Each model
    is written in its own transaction. Answer: {message, rows: [{model_id, name, success, message}]}."""
    kind = Kind(kind)
    require_staff(actor)
    mode, mode_error = rules.clean_upload_type(upload_type)
    if mode_error:
        raise ValidationError(INVALID_FORM, {"upload_type": mode_error})
    ids = _model_ids(model_ids)
    if not ids:
        raise ValidationError(rules.SELECT_MODEL, {"model_ids": rules.SELECT_MODEL})
    type_error = rules.file_type_error(content_type)
    if type_error:
        raise ValidationError(type_error, {"file": type_error})
    if data is None:
        raise ValidationError(rules.SELECT_FILE, {"file": rules.SELECT_FILE})
    with session_scope() as s:  # who may: every model, before the file is even read
        models = [tenancy.load_model(s, actor, number, for_edit=True) for number in ids]
    lines, errors = parsed_upload(data, lambda read: rules.parse_upload(kind, read))
    with session_scope() as s:  # the dry run: every model, nothing written
        per_model = [(model, _plan(s, actor, kind, model, lines, mode)[1]) for model in models]
        s.rollback()
    errors = errors + _model_errors(per_model)
    if errors:
        message = rules.describe_errors(errors)
        raise ValidationError(message, {"file": message})

    results: list[dict[str, Any]] = []
    for done, model in enumerate(models, start=1):
        try:
            with session_scope() as s:
                locked = _model_for_write(s, actor, model.id)
                plan, late = _plan(s, actor, kind, locked, lines, mode)
                if late:  # changed by someone else since the dry run
                    raise ValidationError(rules.describe_errors(late))
                _apply(s, actor, kind, locked, plan)
            results.append({"model_id": model.id, "name": model.name, "success": True, "message": rules.UPLOAD_DONE})
        except DomainError as exc:
            if len(models) == 1:
                raise
            results.append({"model_id": model.id, "name": model.name, "success": False, "message": exc.message})
        if on_model_done is not None:
            on_model_done(done, len(models))
    failed = sum(1 for r in results if not r["success"])
    if failed:
        message = rules.UPLOAD_FAILED
    else:
        message = rules.UPLOAD_DONE if len(models) == 1 else rules.UPLOAD_DONE_ALL
    return {"message": message, "failed": failed, "rows": results}


def upload_long_terms(**kw: Any) -> dict[str, Any]:
    return upload(kind=Kind.LONG_TERM, **kw)


def upload_short_terms(**kw: Any) -> dict[str, Any]:
    return upload(kind=Kind.SHORT_TERM, **kw)


# ---- bulk selection ----------------------------------------------------------------------------
def upload_candidates(*, actor: Actor, kind: Kind | str, firm_id: Any = None) -> list[ModelSummary]:
    """Models the actor may upload recommendations to (the bulk selection screens), by name: the
    models list with `recommendations_upload` (models the actor may edit) for long-term uploads and
    `str_upload` (also with analyst recommendations on) for short-term ones. A superuser may filter
    by firm ('-2' or empty: all firms); everyone else sees their own firm's."""
    from app.domain.model_rules import owner_filter
    from app.services import models as models_service

    kind = Kind(kind)
    require_staff(actor)
    long_term = kind is Kind.LONG_TERM
    rows = models_service.all_models(actor=actor, firm_id=owner_filter(firm_id) if actor.is_superuser else None,
                                     recommendations_upload=long_term, str_upload=not long_term)
    return [m for m in rows if m.can_edit]
