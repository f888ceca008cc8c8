"""Firms: list, read, create, update (with logo removal flags), delete, logo uploads."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from sqlalchemy import case, func
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Asset, Firm, User
from app.db.types import stored_id, utcnow
from app.domain import addresses
from app.domain.addresses import Address
from app.domain.errors import INVALID_FORM, Conflict, NotFound, ValidationError
from app.domain.firms import FirmForm, clean_firm
from app.domain.firm_documents import (
    COMMENT_UNKNOWN, DocumentSettings, FirmBranding, Letterhead, branding_of, comments_json, document_errors, template_of,
)
from app.domain.permissions import (
    Actor, can_create_firm, can_delete_firm, can_edit_firm, can_list_firms, require,
)
from app.domain.money import number_text
from app.domain.roles import Role, UserStatus
from app.domain.wire import wire
from app.services import audit, files, listing
from app.services.tenancy import FIRM_NOT_FOUND, load_firm, people_of_firm, readable_firms

FIRM_CHANGED = "This firm was changed by someone else. Reload it and apply your changes again."
CREATED, UPDATED, DELETED = "Firm is created", "Firm is updated", "Firm is deleted"


# ---- what the service answers ----------------------------------------------------------------------
@dataclass(frozen=True)
class LicenseeView:
    """The firm's licensee: its name, numbers, contacts, links and logo (URL)."""
    name: str | None
    abn: str | None
    afsl: str | None
    phone: str | None
    email: str | None
    website: str | None
    fsg_link: str | None = field(metadata=wire("fsgLink"))
    privacy_policy_link: str | None = field(metadata=wire("privacyPolicyLink"))
    logo: str | None


@dataclass(frozen=True)
class FirmDetail:
    """A firm as the REST calls, the list and the form read it: logos as URLs, the fee as its
    number without trailing zeros, the dollar limits as stored, and its live advisers and clients."""
    id: int
    name: str
    abn: str | None
    car: str | None
    phone: str | None
    email: str | None
    website: str | None
    logo: str | None
    licensee_logo: str | None
    licensee: LicenseeView
    fee: Decimal | None
    max_fee: Decimal | None = field(metadata=wire("maxFee"))
    min_fee: Decimal | None = field(metadata=wire("minFee"))
    ausiex_code: str | None = field(metadata=wire("ausiexCode"))
    order_expiry_days: int | None = field(metadata=wire("orderExpiryDays"))
    order_good_till_cancelled: bool = field(metadata=wire("orderGoodTillCancelled"))
    stop_loss_limit_gap: Decimal | None = field(metadata=wire("stopLossLimitGap"))
    address: Address
    advisers: int
    clients: int
    created_at: datetime
    version: int


@dataclass(frozen=True)
class FirmOption:
    """A firm as a selector offers it."""
    id: int
    name: str


@dataclass(frozen=True)
class PeopleCount:
    """A firm's live advisers and clients."""
    advisers: int = 0
    clients: int = 0


def _plain(value: Decimal | None) -> Decimal | None:
    """A number without trailing zeros or exponent ('12.50' -> 12.5), as the payload shows it."""
    return None if value is None else Decimal(number_text(Decimal(value)))


def public_firm(firm: Firm, counts: PeopleCount | None = None) -> FirmDetail:
    people = counts or PeopleCount()
    logo = files.url_of(firm.logo)
    licensee_logo = files.url_of(firm.licensee_logo)
    return FirmDetail(
        id=stored_id(firm),
        name=firm.name,
        abn=firm.abn,
        car=firm.car,
        phone=firm.phone,
        email=firm.email,
        website=firm.website,
        logo=logo,
        licensee_logo=licensee_logo,
        licensee=LicenseeView(
            name=firm.licensee_name,
            abn=firm.licensee_abn,
            afsl=firm.licensee_afsl,
            phone=firm.licensee_phone,
            email=firm.licensee_email,
            website=firm.licensee_website,
            fsg_link=firm.licensee_fsg_link,
            privacy_policy_link=firm.licensee_privacy_policy_link,
            logo=licensee_logo,
        ),
        fee=_plain(firm.fee),
        # the dollar limits keep their stored places ('250.00')
        max_fee=None if firm.max_fee is None else Decimal(firm.max_fee),
        min_fee=None if firm.min_fee is None else Decimal(firm.min_fee),
        ausiex_code=firm.ausiex_code,
        order_expiry_days=firm.order_expiry_days,
        order_good_till_cancelled=bool(firm.order_good_till_cancelled),
        stop_loss_limit_gap=_plain(firm.stop_loss_limit_gap),
        address=addresses.of_row(firm),
        advisers=people.advisers,
        clients=people.clients,
        created_at=firm.created_at,
        version=firm.version,
    )


def _counts(session: Session, firm_ids: list[int]) -> dict[int, PeopleCount]:
    if not firm_ids:
        return {}
    live = User.status != UserStatus.DELETED.value
    rows = session.exec(
        select(
            User.firm_id,
            func.sum(case((User.role == Role.ADVISER.value, 1), else_=0)),
            func.sum(case((User.role == Role.CLIENT.value, 1), else_=0)),
        ).where(col(User.firm_id).in_(firm_ids), live).group_by(col(User.firm_id))
    ).all()
    return {fid: PeopleCount(advisers=int(a or 0), clients=int(c or 0)) for fid, a, c in rows if fid is not None}


def _detail(session: Session, firm: Firm) -> FirmDetail:
    firm_id = stored_id(firm)
    return public_firm(firm, _counts(session, [firm_id]).get(firm_id))


def list_firms(*, actor: Actor, limit: int | None = None, offset: int | None = None, sort: str | None = "name",
               order: str | None = "asc", search: str | None = None) -> tuple[list[FirmDetail], int]:
    """A page of the firms the actor may see, and the count of all that match."""
    require(can_list_firms(actor))
    limit_i, offset_i = listing.page(limit, offset)
    with session_scope() as s:
        where = [readable_firms(actor)]
        if search and search.strip():
            # autoescape: '%' and '_' typed by the user are literal characters, not wildcards
            where.append(func.lower(Firm.name).contains(search.strip().lower(), autoescape=True))
        total = s.exec(select(func.count()).select_from(Firm).where(*where)).one()
        advisers = select(func.count()).where(people_of_firm(Firm.id), User.role == Role.ADVISER.value,
                                              User.status != UserStatus.DELETED.value).scalar_subquery()
        clients = select(func.count()).where(people_of_firm(Firm.id), User.role == Role.CLIENT.value,
                                             User.status != UserStatus.DELETED.value).scalar_subquery()
        columns = {"name": (func.lower(Firm.name), Firm.id), "created_at": (Firm.created_at, Firm.id),
                   "advisers": (advisers, Firm.id), "clients": (clients, Firm.id)}
        stmt = select(Firm).where(*where).order_by(*listing.order_by(sort, order, columns, "name")).offset(offset_i).limit(limit_i)
        firms = s.exec(stmt).all()
        counts = _counts(s, [stored_id(f) for f in firms])
        return [public_firm(f, counts.get(stored_id(f))) for f in firms], int(total)


def firm_options(*, actor: Actor) -> list[FirmOption]:
    """id and name of every firm the actor may pick (the superuser's firm selectors)."""
    with session_scope() as s:
        stmt = select(Firm.id, Firm.name).where(readable_firms(actor)).order_by(func.lower(Firm.name))
        return [FirmOption(id=i, name=n) for i, n in s.exec(stmt).all() if i is not None]


def brand_logo(*, actor: Actor) -> str | None:
    """The logo at the top of the actor's frame: their firm's, else the superuser's default logo."""
    with session_scope() as s:
        firm = s.get(Firm, actor.firm_id) if actor.firm_id else None
        if firm is not None and firm.logo:
            return files.url_of(firm.logo)
        default = s.exec(
            select(User.default_logo).where(User.role == Role.SUPERUSER.value, col(User.default_logo).is_not(None),
                                            User.status == UserStatus.ACTIVE.value).order_by(col(User.updated_at).desc())
        ).first()
        return files.url_of(default)


def get_firm(*, actor: Actor, firm_id: int) -> FirmDetail:
    with session_scope() as s:
        return _detail(s, load_firm(s, actor, firm_id))


def create_firm(*, actor: Actor, form: FirmForm) -> FirmDetail:
    require(can_create_firm(actor))
    values, errors = clean_firm(form)
    address, address_errors = addresses.clean_address(form.address)
    errors.update(address_errors)
    if not errors.ok:
        raise ValidationError(INVALID_FORM, errors)
    with session_scope() as s:
        firm = Firm(**values)
        addresses.apply_to(firm, address)
        s.add(firm)
        audit.created(s, actor, "firm.created", "firm", firm)
        s.refresh(firm)  # answer with the stored values (money as NUMERIC gives them: "300.00", not "300")
        return public_firm(firm)


def update_firm(*, actor: Actor, firm_id: int, form: FirmForm) -> FirmDetail:
    """Save the firm form; an address left out of the form stays as it is."""
    values, errors = clean_firm(form)
    address, address_errors = addresses.clean_address(form.address)
    errors.update(address_errors)
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        require(can_edit_firm(actor, stored_id(firm)))
        if not errors.ok:
            raise ValidationError(INVALID_FORM, errors)
        if form.version not in (None, "") and form.version != str(firm.version):
            raise Conflict(FIRM_CHANGED)
        before = audit.snapshot(firm)
        removed = files.unlink_flagged(firm, form.removals(), {"isLogoRemoved": "logo",
                                                               "isLicenseeLogoRemoved": "licensee_logo"})
        for column, value in values.items():
            setattr(firm, column, value)
        if form.address is not None:  # null or left out: the address stays
            addresses.apply_to(firm, address)
        firm.updated_at = utcnow()
        firm.version += 1
        s.add(firm)
        s.flush()
        s.refresh(firm)  # answer with the stored values, as a later GET would
        audit.changed(s, actor, "firm.updated", "firm", firm, before)
        result = _detail(s, firm)
    for key in removed:  # files go only once the row no longer points at them
        files.remove(key)
    return result


def delete_firm(*, actor: Actor, firm_id: int) -> None:
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
            if user_id is not None:
                revoke_sessions(s, user_id)


def upload_logo(*, actor: Actor, firm_id: int, content_type: str | None, data: bytes,
                licensee: bool = False) -> FirmDetail:
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        require(can_edit_firm(actor, stored_id(firm)))
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
        result = _detail(s, firm)
    files.remove(old)
    return result


# ---- the client documents: record of advice layout, branding and template ------------------------------
DOCUMENTS_UPDATED = "Record of advice settings are updated"


def settings_of(firm: Firm) -> DocumentSettings:
    """The firm's record of advice settings as stored (defaults where nothing is set)."""
    return DocumentSettings(
        branding=branding_of(firm.rofa_layout, firm.rofa_colour, firm.rofa_disclaimer, firm.rofa_footer),
        template=template_of(firm.cgt_hin_percent, firm.cgt_discount_percent, firm.cgt_asset_comments),
    )


def documents(*, actor: Actor, firm_id: int) -> DocumentSettings:
    """The firm's record of advice settings, for whoever may see the firm."""
    with session_scope() as s:
        return settings_of(load_firm(s, actor, firm_id))


def _unknown_codes(s: Session, settings: DocumentSettings) -> list[str]:
    codes = [c.code for c in settings.template.asset_comments]
    if not codes:
        return []
    known = set(s.exec(select(Asset.code).where(col(Asset.code).in_(codes))).all())
    return [c for c in codes if c not in known]


def update_documents(*, actor: Actor, firm_id: int, settings: DocumentSettings) -> DocumentSettings:
    """Store the firm's record of advice layout, branding and template (administrators of the firm
    and superusers). Refused with the field's text: a layout, colour or percent out of range (the
    settings are checked again here, whoever built them) and comments on unknown asset codes."""
    errors = document_errors(settings)
    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        require(can_edit_firm(actor, stored_id(firm)))
        unknown = _unknown_codes(s, settings)
        if unknown:
            errors.check("assetComments", COMMENT_UNKNOWN.format(codes=", ".join(unknown)))
        if not errors.ok:
            raise ValidationError(INVALID_FORM, errors)
        before = audit.snapshot(firm)
        b, t = settings.branding, settings.template
        firm.rofa_layout, firm.rofa_colour = b.layout, b.colour
        firm.rofa_disclaimer, firm.rofa_footer = b.disclaimer or None, b.footer or None
        firm.cgt_hin_percent, firm.cgt_discount_percent = t.hin_percent, t.discount_percent
        firm.cgt_asset_comments = comments_json(t.asset_comments)
        firm.updated_at = utcnow()
        firm.version += 1
        s.add(firm)
        s.flush()
        s.refresh(firm)
        audit.changed(s, actor, "firm.updated", "firm", firm, before)
        return settings_of(firm)


def _path(key: str | None) -> str | None:
    if not key:
        return None
    try:
        return str(files.path_of(key))
    except NotFound:  # a key whose file is gone: the document goes without the picture
        return None


def letterhead_for(s: Session, firm_id: int | None, adviser_id: int | None = None) -> Letterhead:
    """The letterhead of the firm's documents (inside the caller's session, no permission check:
    the caller has read the document it heads): the firm, its licensee and the adviser."""
    firm = s.get(Firm, firm_id) if firm_id else None
    adviser = s.get(User, adviser_id) if adviser_id else None
    adviser_fields = dict(adviser_name=f"{adviser.first_name} {adviser.last_name}", adviser_ar_number=adviser.ar_number,
                          adviser_signature_path=_path(adviser.signature),
                          adviser_signature_url=files.url_of(adviser.signature)) if adviser else {}
    if firm is None:
        return Letterhead(firm_name="", **adviser_fields)
    return Letterhead(
        firm_name=firm.name, abn=firm.abn, car=firm.car, phone=firm.phone, email=firm.email, website=firm.website,
        logo_path=_path(firm.logo), logo_url=files.url_of(firm.logo), licensee_name=firm.licensee_name,
        licensee_afsl=firm.licensee_afsl, **adviser_fields,
    )


def branding_for(s: Session, firm_id: int) -> FirmBranding:
    """What a message from the firm shows (inside the caller's session, no permission check: for
    the e-mails the product sends on the firm's behalf)."""
    firm = s.get(Firm, firm_id)
    if firm is None:
        raise NotFound(FIRM_NOT_FOUND)
    b = settings_of(firm).branding
    head = letterhead_for(s, firm.id)
    return FirmBranding(firm_id=stored_id(firm), firm_name=firm.name, logo_url=head.logo_url, logo_path=head.logo_path,
                        colour=b.colour, licensee_line=head.licensee_line, footer=b.footer,
                        disclaimer=b.disclaimer, layout=b.layout)


def firm_branding(*, actor: Actor, firm_id: int) -> FirmBranding:
    """The firm's branding (name, logo, colour, licensee line, footer, disclaimer, layout) for
    whoever may see the firm."""
    with session_scope() as s:
        return branding_for(s, stored_id(load_firm(s, actor, firm_id)))
