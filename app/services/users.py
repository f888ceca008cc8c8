"""Users and the own profile: list, read, create (with activation mail), update, soft delete,
photo and signature uploads, password and e-mail change."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Iterable, TypedDict, TypeVar

from sqlalchemy import ColumnElement, func, or_
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Firm, Portfolio, PortfolioUser, User
from app.db.types import stored_id, utcnow
from app.domain import addresses, auth_rules
from app.domain import validators as v
from app.domain.errors import INVALID_FORM, Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.permissions import (
    NOT_ALLOWED, Actor, can_delete_user, can_edit_user, can_edit_model, can_list_users, creatable_roles,
    in_firm, require, visible_roles,
)
from app.domain.roles import Role, UserStatus
from app.domain.addresses import Address
from app.domain.users import (
    ProfileForm, UserForm, clean_ar_number, clean_new_password, clean_person, parse_role, parse_status,
)
from app.services import audit, files, listing, tokens
from app.services.listing import Page
from app.services.security import hash_password, verify_password
from app.services.tenancy import (
    USER_NOT_FOUND, load_model, load_user, people_of_firm, readable_portfolios, readable_users,
)

USER_CHANGED = "This user was changed by someone else. Reload and apply your changes again."
CREATED, UPDATED, DELETED, PROFILE_UPDATED = "User is created", "User is updated", "User is deleted", "Profile is updated"
EMAIL_CHANGE_SENT = "We sent a confirmation link to {email}. Your e-mail changes when you open it."
EMAIL_UNIQUE = v.UNIQUE.format(label="Email")
Row = TypeVar("Row")


# ---- what the service answers ------------------------------------------------------------------
@dataclass(frozen=True)
class NamedRef:
    """A firm or an adviser as a user names them."""
    id: int
    name: str


@dataclass(frozen=True)
class UserView:
    """A user as the REST calls, the lists, the forms and the profile read them."""
    id: int
    email: str
    first_name: str
    last_name: str
    preferred_name: str | None
    name: str
    phone: str | None
    ar_number: str | None  # an adviser's authorised representative number
    role: Role
    role_title: str
    status: UserStatus
    status_title: str
    firm_id: int | None
    firm: NamedRef | None
    adviser_id: int | None
    adviser: NamedRef | None
    photo_url: str | None
    signature_url: str | None
    default_logo_url: str | None
    activated: bool
    created_at: datetime | None
    logined_at: datetime | None
    address: Address
    version: int


@dataclass(frozen=True)
class UserSummary:
    """A user as a shortened list gives them (a picker's option)."""
    id: int
    name: str
    role: str
    firm_id: int | None


@dataclass(frozen=True)
class ProfileUpdate:
    """The saved profile and its toast (a new e-mail waits for its confirmation)."""
    user: UserView
    message: str


def _full_name(user: User) -> str:
    return f"{user.first_name} {user.last_name}"


def public_user(user: User, firm: Firm | None = None, adviser: User | None = None) -> UserView:
    return UserView(
        id=stored_id(user), email=user.email, first_name=user.first_name, last_name=user.last_name,
        preferred_name=user.preferred_name, name=_full_name(user), phone=user.phone, ar_number=user.ar_number,
        role=Role(user.role),
        role_title=Role(user.role).title, status=UserStatus(user.status), status_title=UserStatus(user.status).title,
        firm_id=user.firm_id, firm=NamedRef(stored_id(firm), firm.name) if firm else None,
        adviser_id=user.adviser_id,
        adviser=NamedRef(stored_id(adviser), _full_name(adviser)) if adviser else None,
        photo_url=files.url_of(user.photo), signature_url=files.url_of(user.signature),
        default_logo_url=files.url_of(user.default_logo), activated=user.password_hash is not None,
        created_at=user.created_at, logined_at=user.logined_at, address=addresses.of_row(user), version=user.version,
    )


def _public(session: Session, user: User) -> UserView:
    firm = session.get(Firm, user.firm_id) if user.firm_id else None
    adviser = session.get(User, user.adviser_id) if user.adviser_id else None
    return public_user(user, firm, adviser)


def _email_taken(session: Session, email: str, except_id: int | None = None) -> bool:
    stmt = select(User.id).where(User.email == email)
    if except_id is not None:
        stmt = stmt.where(User.id != except_id)
    return session.exec(stmt).first() is not None


# ---- list -------------------------------------------------------------------------------------
def _listed(
    *, actor: Actor, roles: Iterable[str] | None, statuses: Iterable[str] | None, search: str | None,
    firm_id: int | None, adviser_id: int | None, model_id: int | None, created_from: datetime | None,
    created_to: datetime | None, logined_from: datetime | None, logined_to: datetime | None, limit: int | None,
    offset: int | None, sort: str, order: str, include_current_user: bool,
    shape: Callable[[User, Firm | None, User | None], Row],
) -> Page[Row]:
    """The users of a list's page, each shaped from the user, their firm and their adviser, and the
    count of all that match."""
    require(can_list_users(actor))
    limit_i, offset_i = listing.page(limit, offset)
    allowed = visible_roles(actor)
    wanted = {r for r in (parse_role(x) for x in (roles or [])) if r is not None} or set(allowed)
    wanted &= allowed
    wanted_status = {st for st in (parse_status(x) for x in (statuses or [])) if st is not None} or {UserStatus.ACTIVE, UserStatus.DISABLED}

    where: list[ColumnElement[bool]] = [col(User.role).in_([r.value for r in wanted] or ["-"]), col(User.status).in_([st.value for st in wanted_status])]
    where.append(readable_users(actor, firm_id))
    if adviser_id:
        where.append(col(User.adviser_id) == adviser_id)
    if model_id is not None:
        where.append(_holds_model(actor, model_id))
    if not include_current_user:
        where.append(col(User.id) != actor.id)
    if search and search.strip():
        term = search.strip().lower()
        full_name = func.lower(User.first_name + " " + User.last_name)
        # autoescape: '%' and '_' typed by the user are literal characters, not wildcards
        where.append(or_(*(column.contains(term, autoescape=True) for column in (
            full_name, func.lower(User.email), func.lower(func.coalesce(User.preferred_name, ""))))))
    for column, lo, hi in ((col(User.created_at), created_from, created_to),
                           (col(User.logined_at), logined_from, logined_to)):
        if lo is not None:
            where.append(column >= lo)
        if hi is not None:
            where.append(column <= hi)

    adviser = aliased(User)
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(User).where(*where)).one()
        columns = {
            "name": (func.lower(User.first_name), func.lower(User.last_name), User.id),
            "email": (User.email, User.id),
            "role": (User.role, User.id),
            "status": (User.status, User.id),
            "firm": (func.lower(func.coalesce(Firm.name, "")), User.id),
            "created_at": (User.created_at, User.id),
            "logined_at": (User.logined_at, User.id),
        }
        stmt = (
            select(User, Firm, adviser)
            .join(Firm, col(Firm.id) == User.firm_id, isouter=True)
            .join(adviser, col(adviser.id) == User.adviser_id, isouter=True)
            .where(*where)
            .order_by(*listing.order_by(sort, order, columns, "name"))
            .offset(offset_i)
            .limit(limit_i)
        )
        return Page(tuple(shape(u, f, a) for u, f, a in s.exec(stmt).all()), int(total))


def list_users(
    *, actor: Actor, roles: Iterable[str] | None = None, statuses: Iterable[str] | None = None,
    search: str | None = None, firm_id: int | None = None, adviser_id: int | None = None, model_id: int | None = None,
    created_from: datetime | None = None, created_to: datetime | None = None, logined_from: datetime | None = None,
    logined_to: datetime | None = None, limit: int | None = None, offset: int | None = None, sort: str = "name",
    order: str = "asc", include_current_user: bool = True,
) -> Page[UserView]:
    """A page of the users the actor may list (the roles, statuses and firm they may see), filtered
    and sorted as asked (an unknown sort: by name)."""
    return _listed(actor=actor, roles=roles, statuses=statuses, search=search, firm_id=firm_id, adviser_id=adviser_id,
                    model_id=model_id, created_from=created_from, created_to=created_to, logined_from=logined_from,
                    logined_to=logined_to, limit=limit, offset=offset, sort=sort, order=order,
                    include_current_user=include_current_user, shape=public_user)


def list_user_summaries(
    *, actor: Actor, roles: Iterable[str] | None = None, statuses: Iterable[str] | None = None,
    search: str | None = None, firm_id: int | None = None, adviser_id: int | None = None, model_id: int | None = None,
    created_from: datetime | None = None, created_to: datetime | None = None, logined_from: datetime | None = None,
    logined_to: datetime | None = None, limit: int | None = None, offset: int | None = None, sort: str = "name",
    order: str = "asc", include_current_user: bool = True,
) -> Page[UserSummary]:
    """The same page as list_users, each user shortened to their id, name, role and firm."""
    return _listed(actor=actor, roles=roles, statuses=statuses, search=search, firm_id=firm_id, adviser_id=adviser_id,
                    model_id=model_id, created_from=created_from, created_to=created_to, logined_from=logined_from,
                    logined_to=logined_to, limit=limit, offset=offset, sort=sort, order=order,
                    include_current_user=include_current_user,
                    shape=lambda u, _f, _a: UserSummary(stored_id(u), _full_name(u), u.role, u.firm_id))


def _holds_model(actor: Actor, model_id: int) -> ColumnElement[bool]:
    """WHERE clause of the users holding a (visible) portfolio of the model (models.clients). The
    model must be one the actor sees (404 otherwise), and its clients are shown only to superusers
    and the owner firm's people (spec 000 s6: View Clients), else 403."""
    with session_scope() as s:
        model = load_model(s, actor, model_id)
        if not can_edit_model(actor, model.firm_id):
            raise PermissionDenied(NOT_ALLOWED)
        model_pk = model.id
    holders = (select(PortfolioUser.user_id).join(Portfolio, col(Portfolio.id) == PortfolioUser.investment_id)
               .where(Portfolio.model_id == model_pk, readable_portfolios(actor)))
    return col(User.id).in_(holders)


# ---- one user ---------------------------------------------------------------------------------
def get_user(*, actor: Actor, user_id: int) -> UserView:
    with session_scope() as s:
        return _public(s, load_user(s, actor, user_id))


def _clean_membership(session: Session, actor: Actor, form: UserForm, errors: v.FieldErrors,
                      current: User | None) -> tuple[Role | None, int | None, int | None]:
    """Role, firm and adviser of a created or edited user, checked against what the actor may assign."""
    role = parse_role(form.role) if form.has("role") or current is None else Role(current.role)
    if role is None:
        errors.check("role", v.required_select(None, "user type"))
        role = None
    elif role not in creatable_roles(actor) and not (current is not None and role.value == current.role and current.id == actor.id):
        raise PermissionDenied(NOT_ALLOWED)

    if actor.is_superuser:
        firm_id = form.firm_id if form.has("firm_id") or current is None else current.firm_id
        if role is Role.SUPERUSER:
            firm_id = None
        elif firm_id is None:
            errors.check("firm_id", v.required_select(None, "firm"))
        else:
            firm = session.get(Firm, firm_id)
            if firm is None or firm.deleted_at is not None:
                errors.check("firm_id", v.required_select(None, "firm"))
                firm_id = None
    else:
        firm_id = actor.firm_id  # never trust a firm sent by a client

    adviser_id = form.adviser_id if form.has("adviser_id") else (current.adviser_id if current else None)
    if role is not Role.CLIENT:
        adviser_id = None
    elif adviser_id is not None:
        adviser = session.get(User, adviser_id)
        if adviser is None or adviser.role != Role.ADVISER.value or adviser.firm_id != firm_id or adviser.status == UserStatus.DELETED.value:
            errors.check("adviser_id", v.required_select(None, "adviser"))
            adviser_id = None
    elif role is Role.CLIENT and actor.role is Role.ADVISER and current is None:
        adviser_id = actor.id  # an adviser's new client is theirs
    return role, firm_id, adviser_id


def create_user(*, actor: Actor, form: UserForm) -> UserView:
    if not creatable_roles(actor):
        raise PermissionDenied(NOT_ALLOWED)
    values, errors = clean_person(form.person())
    address, address_errors = addresses.clean_address(form.address)
    errors.update(address_errors)
    with session_scope() as s:
        role, firm_id, adviser_id = _clean_membership(s, actor, form, errors, None)
        values["ar_number"] = clean_ar_number(form.ar_number, role, errors)
        if values["email"] and "email" not in errors and _email_taken(s, values["email"]):
            errors.check("email", EMAIL_UNIQUE)
        if not errors.ok or role is None:  # no role: its error is in `errors`
            raise ValidationError(INVALID_FORM, errors)
        status = parse_status(form.status) or UserStatus.ACTIVE
        if status is UserStatus.DELETED:
            status = UserStatus.ACTIVE
        user = User(**values, role=role.value, status=status.value, firm_id=firm_id, adviser_id=adviser_id)
        addresses.apply_to(user, address)
        s.add(user)
        audit.created(s, actor, "user.created", "user", user)
        tokens.send_activation(s, user)
        return _public(s, user)


class SavedPerson(TypedDict):
    """The saved name, e-mail and phone by the form's names (PERSON_FIELDS), as clean_person reads them."""
    first_name: str | None
    last_name: str | None
    preferred_name: str | None
    phone: str | None
    email: str | None


def _saved_person(user: User) -> SavedPerson:
    """The saved name, e-mail and phone, that a form's left-out fields keep."""
    return SavedPerson(first_name=user.first_name, last_name=user.last_name, preferred_name=user.preferred_name,
                       phone=user.phone, email=user.email)


def _stale(form: UserForm, user: User) -> bool:
    """The form was read at another version of the user than the saved one."""
    return form.version not in (None, "") and form.version != str(user.version)


def update_user(*, actor: Actor, user_id: int, form: UserForm) -> UserView:
    removed: list[str] = []
    with session_scope() as s:
        user = load_user(s, actor, user_id)
        if (user.status == UserStatus.DELETED.value or not creatable_roles(actor)
                or not can_edit_user(actor, Role(user.role), user.firm_id, stored_id(user))):
            raise PermissionDenied(NOT_ALLOWED)
        if _stale(form, user):
            raise Conflict(USER_CHANGED)
        values, errors = clean_person({**_saved_person(user), **form.person()})
        # null or left out: the saved address stays
        address, address_errors = addresses.clean_address(
            addresses.of_row(user).as_form() if form.address is None else form.address)
        errors.update(address_errors)
        role, firm_id, adviser_id = _clean_membership(s, actor, form, errors, user)
        values["ar_number"] = clean_ar_number(form.ar_number if form.has("ar_number") else user.ar_number, role,
                                              errors)
        if values["email"] and "email" not in errors and _email_taken(s, values["email"], user.id):
            errors.check("email", EMAIL_UNIQUE)
        status = parse_status(form.status) if form.has("status") else UserStatus(user.status)
        if status is None or status is UserStatus.DELETED:
            errors.check("status", v.required_select(None, "status"))
        if user.id == actor.id and status is not UserStatus.ACTIVE:
            errors.check("status", "You cannot disable your own account")
        if not errors.ok or role is None or status is None:  # either missing: its error is in `errors`
            raise ValidationError(INVALID_FORM, errors)
        before = audit.snapshot(user)
        for column, value in values.items():
            setattr(user, column, value)
        addresses.apply_to(user, address)
        user.role, user.firm_id, user.adviser_id, user.status = role.value, firm_id, adviser_id, status.value
        removed += _apply_image_removals(user, form)
        if status is not UserStatus.ACTIVE:
            from app.services.auth import revoke_sessions

            revoke_sessions(s, stored_id(user))
        user.updated_at = utcnow()
        user.version += 1
        s.add(user)
        s.flush()
        audit.changed(s, actor, "user.updated", "user", user, before)
        result = _public(s, user)
    for key in removed:
        files.remove(key)
    return result


def delete_user(*, actor: Actor, user_id: int) -> None:
    """Soft delete: the user becomes read-only, leaves the lists and is signed out."""
    from app.services.auth import revoke_sessions

    with session_scope() as s:
        user = load_user(s, actor, user_id)
        if user.status == UserStatus.DELETED.value:
            raise NotFound(USER_NOT_FOUND)
        if not can_delete_user(actor, Role(user.role), user.firm_id, stored_id(user)):
            raise PermissionDenied(NOT_ALLOWED)
        before = audit.snapshot(user)
        user.status = UserStatus.DELETED.value
        user.updated_at = utcnow()
        user.version += 1
        s.add(user)
        audit.changed(s, actor, "user.deleted", "user", user, before)
        revoke_sessions(s, stored_id(user))


def _apply_image_removals(user: User, form: UserForm) -> list[str]:
    return files.unlink_flagged(user, form.removals(), {"isPhotoRemoved": "photo", "isSignatureRemoved": "signature"})


_IMAGE_COLUMNS = {"photo": "photo", "signature": "signature", "logo": "default_logo"}


def set_user_image(*, actor: Actor, user_id: int, kind: str, content_type: str | None, data: bytes) -> UserView:
    """Store a photo, signature or default logo; the file is checked before anything is written."""
    column = _IMAGE_COLUMNS[kind]
    with session_scope() as s:
        user = load_user(s, actor, user_id)
        if user.status == UserStatus.DELETED.value or not can_edit_user(actor, Role(user.role), user.firm_id, stored_id(user)):
            raise PermissionDenied(NOT_ALLOWED)
        if kind == "logo" and not actor.is_superuser:
            raise PermissionDenied(NOT_ALLOWED)  # spec: the default logo upload is for a superuser only
    key = files.save_image(content_type, data, field="signature" if kind == "signature" else "file")
    return _replace_image(user_id, column, key, touch=True)


def remove_default_logo(*, actor: Actor) -> UserView:
    require(actor.is_superuser)
    return _replace_image(actor.id, "default_logo", None, touch=False)


def _replace_image(user_id: int, column: str, key: str | None, *, touch: bool) -> UserView:
    """Point the user's image `column` at `key` (None clears it) and delete the file it replaces,
    once the change is saved. `touch` also moves updated_at (removing the default logo does not)."""
    with session_scope() as s:
        user = s.get(User, user_id)
        if user is None:
            raise NotFound(USER_NOT_FOUND)
        old = getattr(user, column)
        setattr(user, column, key)
        if touch:
            user.updated_at = utcnow()
        user.version += 1
        s.add(user)
        s.flush()
        result = _public(s, user)
    files.remove(old)
    return result


# ---- own profile ------------------------------------------------------------------------------
def get_me(*, actor: Actor) -> UserView:
    with session_scope() as s:
        user = s.get(User, actor.id)
        if user is None:
            raise NotFound(USER_NOT_FOUND)
        return _public(s, user)


def update_me(*, actor: Actor, form: ProfileForm) -> ProfileUpdate:
    """Profile: names and phone change at once; a new e-mail waits for confirmation from that
    address; a new password needs the old one. Clients may change only their password and photo."""
    removed: list[str] = []
    with session_scope() as s:
        user = s.get(User, actor.id)
        if user is None:
            raise NotFound(USER_NOT_FOUND)
        if _stale(form, user):
            raise Conflict(USER_CHANGED)
        editable = {} if actor.role is Role.CLIENT else form.person()
        values, errors = clean_person({**_saved_person(user), **editable})
        new_email = values["email"] if values["email"] != user.email else None
        if new_email and "email" not in errors and _email_taken(s, new_email, user.id):
            errors.check("email", EMAIL_UNIQUE)
        wants_password = any(not v.is_empty(x) for x in (form.old_password, form.password, form.rpt_password))
        if wants_password:
            errors.check("oldPassword", v.required(form.old_password, "old password"))
            errors.update({k: t for k, t in clean_new_password(form.password, form.rpt_password).items() if k not in errors})
            if "oldPassword" not in errors and not verify_password(user.password_hash, str(form.old_password)):
                errors.check("oldPassword", auth_rules.WRONG_OLD_PASSWORD)
        if not errors.ok:
            raise ValidationError(INVALID_FORM, errors)
        before = audit.snapshot(user)
        for column in ("first_name", "last_name", "preferred_name", "phone"):
            setattr(user, column, values[column])
        if wants_password:
            user.password_hash = hash_password(str(form.password))
            audit.record(s, actor, "password.changed", "user", user.id, firm_id=user.firm_id, label=user.email,
                         after={"by": "profile"})
        removed += _apply_image_removals(user, form)
        user.updated_at = utcnow()
        user.version += 1
        s.add(user)
        if new_email:
            tokens.send_email_change(s, user, new_email)
        s.flush()
        if any(before.get(k) != getattr(user, k) for k in ("first_name", "last_name", "preferred_name", "phone", "photo",
                                                              "signature")):
            audit.changed(s, actor, "user.updated", "user", user, before)
        result = ProfileUpdate(_public(s, user), EMAIL_CHANGE_SENT.format(email=new_email) if new_email else PROFILE_UPDATED)
    for key in removed:
        files.remove(key)
    return result


# ---- administration ---------------------------------------------------------------------------
def create_superuser(*, email: str, password: str, first_name: str = "System", last_name: str = "Administrator") -> User:
    values, errors = clean_person({"email": email, "first_name": first_name, "last_name": last_name})
    errors.check("password", v.password(password))
    with session_scope() as s:
        if values["email"] and _email_taken(s, values["email"]):
            errors.check("email", EMAIL_UNIQUE)
        if not errors.ok:
            raise ValidationError(INVALID_FORM, errors)
        user = User(**values, role=Role.SUPERUSER.value, status=UserStatus.ACTIVE.value,
                    password_hash=hash_password(password), activated_at=utcnow())
        s.add(user)
        s.flush()
        return user


def adviser_options(*, actor: Actor, firm_id: int | None = None) -> list[NamedRef]:
    """Advisers a client can be assigned to (the actor's firm, or a chosen firm for a superuser)."""
    require(can_list_users(actor))
    target_firm = firm_id if actor.is_superuser else actor.firm_id
    if target_firm is None or not in_firm(actor, target_firm):
        return []
    with session_scope() as s:
        advisers = s.exec(
            select(User)
            .where(people_of_firm(target_firm), User.role == Role.ADVISER.value, User.status == UserStatus.ACTIVE.value)
            .order_by(func.lower(User.first_name), func.lower(User.last_name))
        ).all()
        return [NamedRef(stored_id(u), _full_name(u)) for u in advisers]
