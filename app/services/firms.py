"""Firms: list, read, create, update (with logo removal flags), delete, logo uploads."""
from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy import case, func
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Firm, User
from app.db.types import utcnow
from app.domain.errors import INVALID_FORM, Conflict, ValidationError
from app.domain.firms import clean_firm
from app.domain.permissions import (
    Actor, can_create_firm, can_delete_firm, can_edit_firm, can_list_firms, require,
)
from app.domain.money import number_json
from app.domain.roles import Role, UserStatus
from app.services import audit, files, listing
from app.services.tenancy import load_firm, people_of_firm, readable_firms

FIRM_CHANGED = "This firm was changed by someone else. Reload it and apply your changes again."
CREATED, UPDATED, DELETED = "Firm is created", "Firm is updated", "Firm is deleted"


def public_firm(firm: Firm, counts: Mapping[str, int] | None = None) -> dict[str, Any]:
    return {
        "id": firm.id,
        "name": firm.name,
        "abn": firm.abn,
        "car": firm.car,
        "phone": firm.phone,
        "email": firm.email,
        "website": firm.website,
        "logo": files.url_of(firm.logo),
        "licensee_logo": files.url_of(firm.licensee_logo),
        "licensee": {
            "name": firm.licensee_name,
            "abn": firm.licensee_abn,
            "afsl": firm.licensee_afsl,
            "phone": firm.licensee_phone,
            "email": firm.licensee_email,
            "website": firm.licensee_website,
            "fsgLink": firm.licensee_fsg_link,
            "privacyPolicyLink": firm.licensee_privacy_policy_link,
            "logo": files.url_of(firm.licensee_logo),
        },
        "fee": number_json(firm.fee),
        "maxFee": None if firm.max_fee is None else str(firm.max_fee),
        "minFee": None if firm.min_fee is None else str(firm.min_fee),
        "ausiexCode": firm.ausiex_code,
        "advisers": int((counts or {}).get("advisers", 0)),
        "clients": int((counts or {}).get("clients", 0)),
        "created_at": firm.created_at.isoformat(),
        "version": firm.version,
    }


def _counts(session: Session, firm_ids: list[int]) -> dict[int, dict[str, int]]:
    if not firm_ids:
        return {}
    live = User.status != UserStatus.DELETED.value
    rows = session.exec(
        select(
            User.firm_id,
            func.sum(case((User.role == Role.ADVISER.value, 1), else_=0)),
            func.sum(case((User.role == Role.CLIENT.value, 1), else_=0)),
        ).where(col(User.firm_id).in_(firm_ids), live).group_by(User.firm_id)
    ).all()
    return {fid: {"advisers": a or 0, "clients": c or 0} for fid, a, c in rows}


def list_firms(*, actor: Actor, limit: Any = None, offset: Any = None, sort: Any = "name", order: Any = "asc",
               search: Any = None) -> tuple[list[dict[str, Any]], int]:
    require(can_list_firms(actor))
    limit_i, offset_i = listing.page(limit, offset)
    with session_scope() as s:
        where = [readable_firms(actor)]
        if search and str(search).strip():
            # autoescape: '%' and '_' typed by the user are literal characters, not wildcards
            where.append(func.lower(Firm.name).contains(str(search).strip().lower(), autoescape=True))
        total = s.exec(select(func.count()).select_from(Firm).where(*where)).one()
        advisers = select(func.count()).where(people_of_firm(Firm.id), User.role == Role.ADVISER.value,
                                              User.status != UserStatus.DELETED.value).scalar_subquery()
        clients = select(func.count()).where(people_of_firm(Firm.id), User.role == Role.CLIENT.value,
                                             User.status != UserStatus.DELETED.value).scalar_subquery()
        columns = {"name": (func.lower(Firm.name), Firm.id), "created_at": (Firm.created_at, Firm.id),
                   "advisers": (advisers, Firm.id), "clients": (clients, Firm.id)}
        stmt = select(Firm).where(*where).order_by(*listing.order_by(sort, order, columns, "name")).offset(offset_i).limit(limit_i)
        firms = s.exec(stmt).all()
        counts = _counts(s, [f.id for f in firms])
        return [public_firm(f, counts.get(f.id)) for f in firms], int(total)


def firm_options(*, actor: Actor) -> list[dict[str, Any]]:
    """id and name of every firm the actor may pick (the superuser's firm selectors)."""
    with session_scope() as s:
        stmt = select(Firm.id, Firm.name).where(readable_firms(actor)).order_by(func.lower(Firm.name))
        return [{"id": i, "name": n} for i, n in s.exec(stmt).all()]


def brand_logo(*, actor: Actor) -> str | None:
    """The logo at the top of the actor's frame: their firm's, else the superuser's default logo."""
    with session_scope() as s:
        firm = s.get(Firm, actor.firm_id) if actor.firm_id else None
        if firm is not None and firm.logo:
            return files.url_of(firm.logo)
        default = s.exec(
            select(User.default_logo).where(User.role == Role.SUPERUSER.value, User.default_logo.is_not(None),
                                            User.status == UserStatus.ACTIVE.value).order_by(col(User.updated_at).desc())
        ).first()
        return files.url_of(default)


def get_firm(*, actor: Actor, firm_id: Any) -> dict[str, Any]:
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        return public_firm(firm, _counts(s, [firm.id]).get(firm.id))


def create_firm(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    require(can_create_firm(actor))
    values, errors = clean_firm(data)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, errors)
    with session_scope() as s:
        firm = Firm(**values)
        s.add(firm)
        audit.created(s, actor, "firm.created", "firm", firm)
        s.refresh(firm)  # answer with the stored values (money as NUMERIC gives them: "300.00", not "300")
        return public_firm(firm)


def update_firm(*, actor: Actor, firm_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    values, errors = clean_firm(data)
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        require(can_edit_firm(actor, firm.id))
        if not errors.ok:
            raise ValidationError(INVALID_FORM, errors)
        expected = data.get("version")
        if expected not in (None, "") and str(expected) != str(firm.version):
            raise Conflict(FIRM_CHANGED)
        before = audit.snapshot(firm)
        removed = files.unlink_flagged(firm, data, {"isLogoRemoved": "logo", "isLicenseeLogoRemoved": "licensee_logo"})
        for column, value in values.items():
            setattr(firm, column, value)
        firm.updated_at = utcnow()
        firm.version += 1
        s.add(firm)
        s.flush()
        s.refresh(firm)  # answer with the stored values, as a later GET would
        audit.changed(s, actor, "firm.updated", "firm", firm, before)
        result = public_firm(firm, _counts(s, [firm.id]).get(firm.id))
    for key in removed:  # files go only once the row no longer points at them
        files.remove(key)
    return result


def delete_firm(*, actor: Actor, firm_id: Any) -> None:
    """Soft delete: the firm leaves every list and its users can no longer sign in."""
    require(can_delete_firm(actor))
    from app.services.auth import revoke_sessions

    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        before = audit.snapshot(firm)
        firm.deleted_at = utcnow()
        firm.version += 1
        s.add(firm)
        audit.changed(s, actor, "firm.deleted", "firm", firm, before)
        for user_id in s.exec(select(User.id).where(people_of_firm(firm.id))).all():
            revoke_sessions(s, user_id)


def upload_logo(*, actor: Actor, firm_id: Any, content_type: str | None, data: bytes, licensee: bool = False) -> dict[str, Any]:
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        require(can_edit_firm(actor, firm.id))
    key = files.save_image(content_type, data)  # refuses non-images and oversize before storing
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        old = firm.licensee_logo if licensee else firm.logo
        if licensee:
            firm.licensee_logo = key
        else:
            firm.logo = key
        firm.updated_at = utcnow()
        firm.version += 1
        s.add(firm)
        s.flush()
        result = public_firm(firm, _counts(s, [firm.id]).get(firm.id))
    files.remove(old)
    return result
