"""Long-term and short-term (analyst) recommendations of a model: list, add, change, delete, delete
all, CSV/Excel upload to one or many models (amend or replace) and CSV download.

Reading needs a model the actor can see (tenancy.load_model); every write needs the right to
edit it (for_edit=True): clients are refused, other firms' models are not found. Writes lock the
model row, so two people adding the same asset at once cannot both succeed. Short-term
recommendations are never removed: they are marked deleted, and every change stamps the model's
analyst_recommendations_date (the engine reads it to know the recommendations changed)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence, TypeVar

from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Asset, LongTermRecommendation, Model, ModelAsset, ShortTermRecommendation
from app.db.types import stored_id, utcnow
from app.domain import recommendations as rules
from app.domain import validators as v
from app.domain.errors import INVALID_FORM, DomainError, NotFound, ValidationError
from app.domain.models import UPLOAD_TYPES
from app.domain.permissions import Actor, can_edit_model, require_staff
from app.domain.recommendations import Kind, RecommendationForm, RecommendationValues, UploadLine
from app.domain.uploads import SELECT_FILE, LineError, file_type_error, parsed_upload
from app.domain.parsing import as_id
from app.domain.timezones import iso_json
from app.domain.money import number_json
from app.domain.wire import only_when_set, wire
from app.exports import recommendations_csv
from app.services import listing, tenancy
from app.services.models import ModelSummary

ACTIVE, DELETED = "active", "deleted"
REPLACE = UPLOAD_TYPES[1]


# ---- what the screens and the API read -----------------------------------------------------------
@dataclass(frozen=True)
class RecommendedAsset:
    id: int
    code: str
    name: str


@dataclass(frozen=True)
class LongTermView:
    """A long-term recommendation (GET /api/long-terms' rows; create and update add their toast)."""
    id: int
    model_id: int
    asset_id: int
    asset: RecommendedAsset
    action: str
    comment: str | None
    is_new: bool
    created_at: str | None
    updated_at: str | None
    message: str | None = field(default=None, metadata=only_when_set())


@dataclass(frozen=True)
class ShortTermView:
    """A short-term (analyst) recommendation (GET /api/recommendations' rows; an update also says
    whether it deleted the recommendation, a hold without a comment)."""
    id: int
    asset_id: int
    code: str
    name: str
    action: str
    price: str | None
    yield_: str | None = field(metadata=wire("yield"))
    comment: str | None
    status: str
    model_id: int
    is_new: bool
    model_asset: bool  # the asset is one of the model's assets
    created_at: str | None
    updated_at: str | None
    deleted: bool | None = field(default=None, metadata=only_when_set())
    message: str | None = field(default=None, metadata=only_when_set())


@dataclass(frozen=True)
class RecommendationsModel:
    """The model whose recommendations a screen shows."""
    id: int
    name: str
    firm_id: int
    status: str
    analyst_recommendations: bool
    analyst_recommendations_date: str | None
    can_edit: bool


@dataclass(frozen=True)
class RecommendationsPage:
    """A screen's first load: the model and its recommendations of one kind."""
    model: RecommendationsModel
    long_terms: tuple[LongTermView, ...] = ()
    short_terms: tuple[ShortTermView, ...] = ()

    @property
    def rows(self) -> tuple[LongTermView | ShortTermView, ...]:
        """The recommendations shown (of the kind asked for)."""
        return (*self.long_terms, *self.short_terms)


@dataclass(frozen=True)
class UploadedModel:
    model_id: int
    name: str
    success: bool
    message: str


@dataclass(frozen=True)
class UploadResult:
    """What an upload did: its message, how many models failed, and each model's outcome."""
    message: str
    failed: int
    rows: tuple[UploadedModel, ...]


def long_term_row(rec: LongTermRecommendation, asset: Asset, message: str | None = None) -> LongTermView:
    return LongTermView(
        id=stored_id(rec), model_id=rec.model_id, asset_id=rec.asset_id,
        asset=RecommendedAsset(id=stored_id(asset), code=asset.code, name=asset.name), action=rec.action,
        comment=rec.comment, is_new=False, created_at=iso_json(rec.created_at), updated_at=iso_json(rec.updated_at),
        message=message)


def short_term_row(rec: ShortTermRecommendation, asset: Asset, in_model: bool, *, deleted: bool | None = None,
                   message: str | None = None) -> ShortTermView:
    return ShortTermView(
        id=stored_id(rec), asset_id=rec.asset_id, code=asset.code, name=asset.name, action=rec.action,
        price=number_json(rec.price), yield_=number_json(rec.yield_), comment=rec.comment, status=rec.status,
        model_id=rec.model_id, is_new=False, model_asset=in_model, created_at=iso_json(rec.created_at),
        updated_at=iso_json(rec.updated_at), deleted=deleted, message=message)


def _model_summary(actor: Actor, model: Model) -> RecommendationsModel:
    return RecommendationsModel(
        id=stored_id(model), name=model.name, firm_id=model.firm_id, status=model.status,
        analyst_recommendations=model.analyst_recommendations,
        analyst_recommendations_date=iso_json(model.analyst_recommendations_date),
        can_edit=can_edit_model(actor, model.firm_id))


# ---- helpers -------------------------------------------------------------------------------------
Recommendation = LongTermRecommendation | ShortTermRecommendation
RecommendationT = TypeVar("RecommendationT", LongTermRecommendation, ShortTermRecommendation)


def _model_for_write(s: Session, actor: Actor, model_id: int | None) -> Model:
    """The model if the actor may change it, locked until the transaction ends (PostgreSQL)."""
    model: Model = tenancy.load_model(s, actor, model_id, for_edit=True)
    s.exec(select(col(Model.id)).where(Model.id == model.id).with_for_update()).first()
    return model


def _usable_asset(s: Session, actor: Actor, model: Model, asset_id: int | None) -> Asset | None:
    if asset_id is None:
        return None
    return s.exec(select(Asset).where(Asset.id == asset_id, tenancy.readable_assets(actor, model.firm_id))).first()


def _refuse(errors: Mapping[str, str]) -> None:
    """A hold without a comment is told with the specification's own text; anything else with the
    form text and the per-field texts."""
    if not errors:
        return
    if dict(errors) == {"comment": rules.COMMENT_REQUIRED}:
        raise ValidationError(rules.COMMENT_REQUIRED, dict(errors))
    raise ValidationError(INVALID_FORM, dict(errors))


def _clean_form(kind: Kind, form: RecommendationForm) -> tuple[RecommendationValues, dict[str, str]]:
    """The recommendation's cleaned values and per-field errors; a hold also needs a comment."""
    values, errors = rules.clean_recommendation(kind, form)
    if "action" not in errors and rules.is_hold_without_comment(kind, values.action, values.comment):
        errors["comment"] = rules.COMMENT_REQUIRED
    return values, errors


def _new_recommendation_target(s: Session, actor: Actor, form: RecommendationForm,
                               errors: dict[str, str]) -> tuple[Model, Asset]:
    """The model (writable by the actor) and the asset a new recommendation is for; refuses the
    form, with `errors` and an unusable asset, if anything is wrong."""
    model = _model_for_write(s, actor, form.model_id)
    asset = _usable_asset(s, actor, model, form.asset_id)
    if asset is None:
        errors["asset_id"] = v.REQUIRED_SELECT.format(label="asset")
    _refuse(errors)
    assert asset is not None  # (refused above)
    return model, asset


def _stamp_short_terms(model: Model, s: Session) -> None:
    model.analyst_recommendations_date = utcnow()
    s.add(model)


# ---- the screens' first load ------------------------------------------------------------------------
def recommendations_page(*, actor: Actor, model_id: int, kind: Kind) -> RecommendationsPage:
    """The model (id, name, can_edit ...) and its recommendations of one kind, in one call."""
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        head = _model_summary(actor, model)
        if kind is Kind.LONG_TERM:
            return RecommendationsPage(model=head, long_terms=tuple(_long_terms(s, model)))
        return RecommendationsPage(model=head, short_terms=tuple(_short_terms(s, model)))


# ---- long-term ----------------------------------------------------------------------------------
def _long_terms(s: Session, model: Model) -> list[LongTermView]:
    found = s.exec(
        select(LongTermRecommendation, Asset).join(Asset, col(Asset.id) == LongTermRecommendation.asset_id)
        .where(LongTermRecommendation.model_id == model.id).order_by(col(Asset.code), col(LongTermRecommendation.id))
    ).all()
    return [long_term_row(rec, asset) for rec, asset in found]


def list_long_terms(*, actor: Actor, model_id: int | None) -> listing.Page[LongTermView]:
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        rows = _long_terms(s, model)
        return listing.Page(rows=tuple(rows), total=len(rows))


def _load_recommendation(s: Session, actor: Actor, table: type[RecommendationT],
                         rec_id: int) -> tuple[RecommendationT, Model]:
    """A long- or short-term recommendation (`table`) and its model, for a change by a staff member
    who may edit the model; 404 otherwise (and for a short-term one no longer active)."""
    require_staff(actor)
    rec = s.get(table, rec_id) if rec_id else None
    if rec is None or getattr(rec, "status", ACTIVE) != ACTIVE:
        raise NotFound(rules.RECOMMENDATION_NOT_FOUND)
    try:
        return rec, _model_for_write(s, actor, rec.model_id)
    except NotFound:
        raise NotFound(rules.RECOMMENDATION_NOT_FOUND) from None


def create_long_term(*, actor: Actor, form: RecommendationForm) -> LongTermView:
    """The form's model_id, asset_id, action (buy | sell | hold) and comment. A new hold needs a
    comment."""
    require_staff(actor)
    values, errors = _clean_form(Kind.LONG_TERM, form)
    with session_scope() as s:
        model, asset = _new_recommendation_target(s, actor, form, errors)
        taken = s.exec(select(col(LongTermRecommendation.id)).where(LongTermRecommendation.model_id == model.id,
                                                                    LongTermRecommendation.asset_id == asset.id)).first()
        duplicate = rules.LONG_TERM_DUPLICATE.format(code=asset.code)
        if taken is not None:
            raise ValidationError(duplicate, {"asset_id": duplicate})
        rec = LongTermRecommendation(model_id=stored_id(model), asset_id=stored_id(asset), action=values.action,
                                     comment=values.comment, created_by=actor.id, updated_by=actor.id)
        s.add(rec)
        try:
            s.flush()
        except IntegrityError:  # the same asset added at the same moment by someone else
            raise ValidationError(duplicate, {"asset_id": duplicate}) from None
        return long_term_row(rec, asset, rules.LONG_TERM_ADDED)


def update_long_term(*, actor: Actor, rec_id: int, form: RecommendationForm) -> LongTermView:
    """Action and comment (what is not sent stays). A hold is kept only with a comment: the screen
    asks whether to delete instead (spec 000 s4)."""
    with session_scope() as s:
        rec, model = _load_recommendation(s, actor, LongTermRecommendation, rec_id)
        saved = RecommendationForm(action=rec.action, comment=rec.comment)
        values, errors = _clean_form(Kind.LONG_TERM, form.over(saved))
        _refuse(errors)
        rec.action, rec.comment = values.action, values.comment
        rec.updated_by, rec.updated_at = actor.id, utcnow()
        s.add(rec)
        s.flush()
        asset = s.get(Asset, rec.asset_id)
        assert asset is not None  # (a recommendation's asset is kept)
        return long_term_row(rec, asset, rules.LONG_TERM_UPDATED)


def delete_long_term(*, actor: Actor, rec_id: int) -> None:
    with session_scope() as s:
        rec, _ = _load_recommendation(s, actor, LongTermRecommendation, rec_id)
        s.delete(rec)


def delete_all_long_terms(*, actor: Actor, model_id: int | None) -> int:
    require_staff(actor)
    with session_scope() as s:
        model = _model_for_write(s, actor, model_id)
        count = s.exec(select(func.count()).select_from(LongTermRecommendation)
                       .where(LongTermRecommendation.model_id == model.id)).one()
        if not count:
            raise ValidationError(rules.NOTHING_TO_REMOVE)
        s.exec(delete(LongTermRecommendation).where(col(LongTermRecommendation.model_id) == model.id))
        return int(count)


# ---- short-term ---------------------------------------------------------------------------------
def _short_terms(s: Session, model: Model) -> list[ShortTermView]:
    found = s.exec(
        select(ShortTermRecommendation, Asset).join(Asset, col(Asset.id) == ShortTermRecommendation.asset_id)
        .where(ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.status == ACTIVE)
        .order_by(col(Asset.code), col(ShortTermRecommendation.id))
    ).all()
    in_model = set(s.exec(select(col(ModelAsset.asset_id)).where(ModelAsset.model_id == model.id)).all())
    return [short_term_row(rec, asset, asset.id in in_model) for rec, asset in found]


def list_short_terms(*, actor: Actor, model_id: int | None) -> listing.Page[ShortTermView]:
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        rows = _short_terms(s, model)
        return listing.Page(rows=tuple(rows), total=len(rows))


def _in_model(s: Session, model: Model, asset_id: int) -> bool:
    return s.exec(select(col(ModelAsset.id)).where(
        ModelAsset.model_id == model.id, ModelAsset.asset_id == asset_id)).first() is not None


def create_short_term(*, actor: Actor, form: RecommendationForm) -> ShortTermView:
    """The form's model_id, asset_id, action (a code of SHORT_TERM_ACTIONS), comment, price and
    yield. Created active; a new hold needs a comment; one active recommendation per asset."""
    require_staff(actor)
    values, errors = _clean_form(Kind.SHORT_TERM, form)
    with session_scope() as s:
        model, asset = _new_recommendation_target(s, actor, form, errors)
        taken = s.exec(select(col(ShortTermRecommendation.id)).where(
            ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.asset_id == asset.id,
            ShortTermRecommendation.status == ACTIVE)).first()
        if taken is not None:
            duplicate = rules.SHORT_TERM_DUPLICATE.format(code=asset.code)
            raise ValidationError(duplicate, {"asset_id": duplicate})
        rec = ShortTermRecommendation(model_id=stored_id(model), asset_id=stored_id(asset), action=values.action,
                                      comment=values.comment, price=values.price, yield_=values.yield_, status=ACTIVE,
                                      created_by=actor.id, updated_by=actor.id)
        s.add(rec)
        _stamp_short_terms(model, s)
        s.flush()
        s.refresh(rec)
        return short_term_row(rec, asset, _in_model(s, model, stored_id(asset)), message=rules.SHORT_TERM_ADDED)


def update_short_term(*, actor: Actor, rec_id: int, form: RecommendationForm) -> ShortTermView:
    """Action, comment, price, yield (what is not sent stays). An update to hold without a comment
    deletes the recommendation (spec 001 s4): the answer then has deleted true."""
    with session_scope() as s:
        rec, model = _load_recommendation(s, actor, ShortTermRecommendation, rec_id)
        saved = RecommendationForm(action=rec.action, comment=rec.comment, price=number_json(rec.price),
                                   yield_=number_json(rec.yield_))
        values, errors = rules.clean_recommendation(Kind.SHORT_TERM, form.over(saved))
        _refuse(errors)
        rec.updated_by, rec.updated_at = actor.id, utcnow()
        _stamp_short_terms(model, s)
        asset = s.get(Asset, rec.asset_id)
        assert asset is not None  # (a recommendation's asset is kept)
        if rules.is_hold_without_comment(Kind.SHORT_TERM, values.action, values.comment):
            rec.status = DELETED
            s.add(rec)
            s.flush()
            return short_term_row(rec, asset, _in_model(s, model, rec.asset_id), deleted=True,
                                  message=rules.SHORT_TERM_DELETED)
        rec.action, rec.comment, rec.price, rec.yield_ = values.action, values.comment, values.price, values.yield_
        s.add(rec)
        s.flush()
        s.refresh(rec)
        return short_term_row(rec, asset, _in_model(s, model, rec.asset_id), deleted=False,
                              message=rules.SHORT_TERM_UPDATED)


def mark_short_terms_deleted(*, actor: Actor, ids: Iterable[int]) -> int:
    """PUT /api/recommendations-mark-as-deleted: every listed active recommendation is marked deleted
    (all or none: one that is not found or not editable refuses the whole call). The ids as read
    from the request (app.domain.parsing.ids_of: what is no id left out)."""
    require_staff(actor)
    numbers = list(dict.fromkeys(ids))
    if not numbers:
        raise ValidationError(rules.NOTHING_TO_REMOVE)
    with session_scope() as s:
        models: dict[int, Model] = {}
        recs = []
        for number in numbers:
            rec, model = _load_recommendation(s, actor, ShortTermRecommendation, number)
            models[stored_id(model)] = model
            recs.append(rec)
        now = utcnow()
        for rec in recs:
            rec.status, rec.updated_by, rec.updated_at = DELETED, actor.id, now
            s.add(rec)
        for model in models.values():
            _stamp_short_terms(model, s)
        return len(recs)


def delete_all_short_terms(*, actor: Actor, model_id: int | None) -> int:
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
           .where(col(ShortTermRecommendation.model_id) == model.id, col(ShortTermRecommendation.status) == ACTIVE)
           .values(status=DELETED, updated_by=actor.id, updated_at=utcnow()))


# ---- download ----------------------------------------------------------------------------------
def export_csv(*, actor: Actor, model_id: int, kind: Kind, client_offset: int = 0) -> tuple[str, bytes]:
    """(file name, CSV bytes) of the model's recommendations; 'There are no recommendations to
    download' when there is none. Times and the file's date are in the browser's offset (minutes,
    app.domain.timezones.client_offset reads it). The rows given the file are its own (its columns)."""
    offset = client_offset
    with session_scope() as s:
        model = tenancy.load_model(s, actor, model_id)
        rows: list[dict[str, object]]
        if kind is Kind.LONG_TERM:
            longs = s.exec(
                select(LongTermRecommendation, Asset).join(Asset, col(Asset.id) == LongTermRecommendation.asset_id)
                .where(LongTermRecommendation.model_id == model.id).order_by(col(Asset.code))).all()
            rows = [{"code": a.code, "name": a.name, "action": r.action, "comment": r.comment, "updated_at": r.updated_at}
                    for r, a in longs]
        else:
            shorts = s.exec(
                select(ShortTermRecommendation, Asset).join(Asset, col(Asset.id) == ShortTermRecommendation.asset_id)
                .where(ShortTermRecommendation.model_id == model.id, ShortTermRecommendation.status == ACTIVE)
                .order_by(col(Asset.code))).all()
            rows = [{"code": a.code, "name": a.name, "action": r.action, "comment": r.comment, "price": number_json(r.price),
                     "yield": number_json(r.yield_), "updated_at": r.updated_at} for r, a in shorts]
        if not rows:
            raise ValidationError(rules.NOTHING_TO_DOWNLOAD)
        name = recommendations_csv.filename(kind, model.name, utcnow(), offset)
        return name, recommendations_csv.build(kind, rows, offset)


# ---- upload ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Clear:
    """Replace: the model's recommendations go first."""


@dataclass(frozen=True)
class _Create:
    asset: Asset
    line: UploadLine


@dataclass(frozen=True)
class _Update:
    rec: Recommendation
    line: UploadLine


@dataclass(frozen=True)
class _Remove:
    """An existing recommendation updated to hold without a comment."""
    rec: Recommendation


Plan = list[_Clear | _Create | _Update | _Remove]


def _plan(s: Session, actor: Actor, kind: Kind, model: Model, lines: Sequence[UploadLine],
          upload_type: str) -> tuple[Plan, list[LineError]]:
    """What the file does to one model, without writing, step by step; and the lines that cannot
    be applied to this model."""
    found = tenancy.find_assets_by_codes(s, actor, [line.code for line in lines], firm_id=model.firm_id)
    errors = [rules.unknown_code_error(line.line, line.code) for line in lines if line.code not in found]
    plan: Plan = []
    existing: dict[int, Recommendation] = {}
    if upload_type == REPLACE:
        plan.append(_Clear())
    elif kind is Kind.LONG_TERM:
        for long_term in s.exec(select(LongTermRecommendation)
                                .where(LongTermRecommendation.model_id == model.id)).all():
            existing[long_term.asset_id] = long_term
    else:
        for short_term in s.exec(select(ShortTermRecommendation).where(ShortTermRecommendation.model_id == model.id,
                                                                       ShortTermRecommendation.status == ACTIVE)
                                 .order_by(col(ShortTermRecommendation.id))).all():
            existing.setdefault(short_term.asset_id, short_term)
    for line in lines:
        asset = found.get(line.code)
        if asset is None:
            continue
        rec = existing.get(stored_id(asset))
        if rules.is_hold_without_comment(kind, line.action, line.comment):
            if rec is None:  # a new hold needs a comment
                errors.append(rules.hold_comment_error(line.line, line.code))
            else:  # an existing one updated to hold without a comment goes (spec 000 s4, 001 s4)
                plan.append(_Remove(rec))
            continue
        plan.append(_Update(rec, line) if rec is not None else _Create(asset, line))
    return plan, errors


def _apply(s: Session, actor: Actor, kind: Kind, model: Model, plan: Plan) -> None:
    now = utcnow()
    for step in plan:
        if isinstance(step, _Clear):
            if kind is Kind.LONG_TERM:
                s.exec(delete(LongTermRecommendation).where(col(LongTermRecommendation.model_id) == model.id))
            else:
                _clear_short_terms(s, actor, model)
        elif isinstance(step, _Remove):
            if isinstance(step.rec, LongTermRecommendation):
                s.delete(step.rec)
            else:
                step.rec.status, step.rec.updated_by, step.rec.updated_at = DELETED, actor.id, now
                s.add(step.rec)
        elif isinstance(step, _Update):
            rec, line = step.rec, step.line
            rec.action, rec.comment, rec.updated_by, rec.updated_at = line.action, line.comment, actor.id, now
            if isinstance(rec, ShortTermRecommendation):
                rec.price, rec.yield_ = line.price, line.yield_
            s.add(rec)
        else:
            line = step.line
            if kind is Kind.LONG_TERM:
                s.add(LongTermRecommendation(model_id=stored_id(model), asset_id=stored_id(step.asset), action=line.action,
                                             comment=line.comment, created_by=actor.id, updated_by=actor.id))
            else:
                s.add(ShortTermRecommendation(model_id=stored_id(model), asset_id=stored_id(step.asset), action=line.action,
                                              comment=line.comment, price=line.price, yield_=line.yield_, status=ACTIVE,
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


def read_model_ids(model_ids: object) -> list[int]:
    """The models an upload names, as sent (a list, repeated values or 'a,b'), read at the edge; text
    that is no id is refused as a model not found."""
    if model_ids is None:
        return []
    items: Iterable[object] = (str(model_ids).replace("[", "").replace("]", "").split(",")
                               if isinstance(model_ids, (str, int)) or not isinstance(model_ids, Iterable)
                               else model_ids)
    numbers: list[int] = []
    for item in items:
        for part in str(item).replace("[", "").replace("]", "").split(","):
            if part.strip():
                number = as_id(part)
                if number is None:
                    raise NotFound(tenancy.MODEL_NOT_FOUND)
                numbers.append(number)
    return list(dict.fromkeys(numbers))


def upload(*, actor: Actor, kind: Kind, model_ids: Sequence[int], content_type: str | None, data: bytes | None,
           upload_type: str | None = None, on_model_done: Callable[[int, int], None] | None = None) -> UploadResult:
    """Apply a CSV or Excel file of recommendations to every listed model.

    The type is checked first ('Invalid file type!'); then the whole file is read and validated,
    for every model, before anything is written: one bad line (unknown asset code, wrong action,
    bad number, a new hold without a comment ...) writes nothing and the message names each line.
    amend (the default) updates or adds per asset; replace removes the model's recommendations
    (long-term deleted, short-term marked deleted) and the file's lines become the set. Each model
    is written in its own transaction. `model_ids` as read_model_ids reads them."""
    require_staff(actor)
    mode, mode_error = rules.clean_upload_type(upload_type)
    if mode_error:
        raise ValidationError(INVALID_FORM, {"upload_type": mode_error})
    ids = list(dict.fromkeys(model_ids))
    if not ids:
        raise ValidationError(rules.SELECT_MODEL, {"model_ids": rules.SELECT_MODEL})
    type_error = file_type_error(content_type)
    if type_error:
        raise ValidationError(type_error, {"file": type_error})
    if data is None:
        raise ValidationError(SELECT_FILE, {"file": SELECT_FILE})
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

    results: list[UploadedModel] = []
    for done, model in enumerate(models, start=1):
        try:
            with session_scope() as s:
                locked = _model_for_write(s, actor, model.id)
                plan, late = _plan(s, actor, kind, locked, lines, mode)
                if late:  # changed by someone else since the dry run
                    raise ValidationError(rules.describe_errors(late))
                _apply(s, actor, kind, locked, plan)
            results.append(UploadedModel(stored_id(model), model.name, True, rules.UPLOAD_DONE))
        except DomainError as exc:
            if len(models) == 1:
                raise
            results.append(UploadedModel(stored_id(model), model.name, False, exc.message))
        if on_model_done is not None:
            on_model_done(done, len(models))
    failed = sum(1 for r in results if not r.success)
    if failed:
        message = rules.UPLOAD_FAILED
    else:
        message = rules.UPLOAD_DONE if len(models) == 1 else rules.UPLOAD_DONE_ALL
    return UploadResult(message=message, failed=failed, rows=tuple(results))


# ---- bulk selection ----------------------------------------------------------------------------
def upload_candidates(*, actor: Actor, kind: Kind, firm_id: int | None = None) -> list[ModelSummary]:
    """Models the actor may upload recommendations to (the bulk selection screens), by name: the
    models list with `recommendations_upload` (models the actor may edit) for long-term uploads and
    `str_upload` (also with analyst recommendations on) for short-term ones. A superuser may filter
    by firm (None: all firms; app.domain.model_rules.owner_filter reads it as sent); everyone else
    sees their own firm's."""
    from app.services import models as models_service

    require_staff(actor)
    long_term = kind is Kind.LONG_TERM
    rows = models_service.all_models(actor=actor, firm_id=firm_id if actor.is_superuser else None,
                                     recommendations_upload=long_term, str_upload=not long_term)
    return [m for m in rows if m.can_edit]
