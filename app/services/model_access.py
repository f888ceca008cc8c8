"""The one place that decides which models an actor may see and change (firm-scoped reads)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import exists, or_
from sqlmodel import Session, select

from app.db.tables import Model, ModelSharedFirm
from app.domain.errors import NotFound, PermissionDenied
from app.domain.models import Availability
from app.domain.permissions import NOT_ALLOWED, Actor, can_edit_model, is_staff

MODEL_NOT_FOUND = "Model not found"


def visible_clause(actor: Actor):
    """WHERE clause of the models an actor can see: own firm's, shared with the firm, or open to all."""
    if actor.is_superuser:
        return Model.deleted_at.is_(None)
    return firm_clause(actor.firm_id)


def firm_clause(firm_id: int | None):
    """WHERE clause of the models a firm can see (and link its portfolios to, when active and
    available): its own, those shared with it, and those open to all."""
    shared = exists().where(ModelSharedFirm.model_id == Model.id, ModelSharedFirm.firm_id == firm_id)
    return (Model.deleted_at.is_(None)) & or_(
        Model.firm_id == firm_id,
        Model.availability == Availability.ALL.value,
        (Model.availability == Availability.WITH_PRACTICE.value) & shared,
    )


def load_model(session: Session, actor: Actor, model_id: Any, *, for_edit: bool = False) -> Model:
    """The model if the actor may see it (404 otherwise, never revealing other firms' models);
    with for_edit, also refuse (403) when the actor's firm does not own it."""
    if not is_staff(actor):
        raise PermissionDenied(NOT_ALLOWED)
    try:
        model_id = int(model_id)
    except (TypeError, ValueError):
        raise NotFound(MODEL_NOT_FOUND)
    model = session.exec(select(Model).where(Model.id == model_id, visible_clause(actor))).first()
    if model is None:
        raise NotFound(MODEL_NOT_FOUND)
    if for_edit and not can_edit_model(actor, model.firm_id):
        raise PermissionDenied(NOT_ALLOWED)
    return model
