"""Firms screens: the list (sort, search, page size, load more, delete) and the firm form in its
new / view / edit modes (firm information, licensee, fees, the two logos).

Every handler resolves the signed-in user from the token and goes through app.services.firms,
which checks permission and scopes by firm; ids of what is loaded stay in backend-only vars."""
from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any, ClassVar, TypedDict

import reflex as rx

from app.domain.errors import DomainError, PermissionDenied, ValidationError
from app.domain.firms import FIRM_SORTS, clean_firm, read_firm_form
from app.domain.firm_documents import (
    LAYOUT_TITLES, LAYOUTS, Branding, DocumentSettings, RofaTemplate,
    parse_document_settings,
)
from app.domain.money import percent_trimmed_text
from app.domain.permissions import NOT_ALLOWED, Actor, can_create_firm, can_edit_firm
from app.domain.roles import Role
from app.services import firms, records_of_advice
from app.services.firms import FirmDetail
from app.ui.states.address import AddressForm
from app.ui import routes
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.images import ImageStaging
from app.ui.parse import to_int
from app.ui.toolkit.lists import LoadMore, RowPages
from app.ui.toolkit.rows import Option
from app.ui.toolkit.screen import Confirm, SavingForm, Viewer, events, screen_load

log = logging.getLogger("app.ui.firms")

LOAD_ONE_FAILED = "Opps, something went wrong"
ROW_ROUTES = frozenset({"firms.view", "firms.edit", "firms.advisers", "firms.clients", "firms.portfolios"})


class FirmRow(TypedDict):
    id: int
    name: str
    initials: str
    logo: str
    advisers: int
    clients: int
    email: str
    phone: str
    created_at: str


def _row(firm: FirmDetail) -> FirmRow:
    name = firm.name or ""
    return FirmRow(
        id=firm.id,
        name=name,
        initials="".join(part[:1] for part in name.split()[:2]).upper(),
        logo=firm.logo or "",
        advisers=firm.advisers,
        clients=firm.clients,
        email=firm.email or "",
        phone=firm.phone or "",
        created_at=firm.created_at.isoformat(),
    )


class FirmsListState(Viewer, Confirm, RowPages, LoadMore, AppState):
    """/firms: superusers see every firm; administrators and advisers their own (the service scopes)."""

    SORT_KEYS: ClassVar[tuple[str, ...]] = FIRM_SORTS
    ROW_ROUTES: ClassVar[frozenset[str]] = ROW_ROUTES

    rows: list[FirmRow] = []

    def _fetch(self, actor: Actor, offset: int, limit: int) -> tuple[list[FirmRow], int]:
        found, total = firms.list_firms(actor=actor, limit=limit, offset=offset, sort=self.sort, order=self.order,
                                        search=self.search)
        return [_row(f) for f in found], total

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.confirm_open = False
        self.rows = []
        return self._reload()

    # ---- navigation (a row's pages: RowPages.open_row) ---------------------------------------------
    @rx.event
    def new_firm(self):
        return AppState.navigate(routes.url("firms.new"))

    # ---- delete ---------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self, firm_id: int):
        row = next((r for r in self.rows if r["id"] == to_int(firm_id)), None)
        if row is not None:
            self._ask("delete", f"Are you sure you want to delete firm {row['name']}?", row["id"])

    def _confirmed(self, action: str, firm_id: int):
        firms.delete_firm(actor=self._actor(), firm_id=firm_id)
        return events(toast_success(firms.DELETED), self._reload_after_delete())

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def can_edit_rows(self) -> bool:
        # administrators see only their own firm, which they may edit; advisers only read
        return self.viewer_role in (Role.SUPERUSER.value, Role.ADMINISTRATOR.value)


# ---- the firm form ------------------------------------------------------------------------------
FIRM_KEYS = ("name", "abn", "car", "phone", "email", "website")
LICENSEE_KEYS = ("name", "abn", "afsl", "phone", "email", "website", "fsgLink", "privacyPolicyLink")
FEE_KEYS = ("fee", "maxFee", "minFee", "ausiexCode", "orderExpiryDays", "orderGoodTillCancelled", "stopLossLimitGap")
FORM_KEYS = (*FIRM_KEYS, *(f"licensee.{k}" for k in LICENSEE_KEYS), *FEE_KEYS)


def _blank() -> dict[str, str]:
    return {key: "" for key in FORM_KEYS}


def _text(value: str | int | bool | Decimal | None) -> str:
    """A saved value as its field shows it (a number as its digits, as the REST payload writes it)."""
    if value is None:
        return ""
    return format(value, "f") if isinstance(value, Decimal) else str(value)


def _form_of(firm: FirmDetail) -> dict[str, str]:
    """The form's fields (keys of FORM_KEYS) from a saved firm."""
    licensee = firm.licensee
    return {
        "name": _text(firm.name), "abn": _text(firm.abn), "car": _text(firm.car), "phone": _text(firm.phone),
        "email": _text(firm.email), "website": _text(firm.website),
        "licensee.name": _text(licensee.name), "licensee.abn": _text(licensee.abn),
        "licensee.afsl": _text(licensee.afsl), "licensee.phone": _text(licensee.phone),
        "licensee.email": _text(licensee.email), "licensee.website": _text(licensee.website),
        "licensee.fsgLink": _text(licensee.fsg_link), "licensee.privacyPolicyLink": _text(licensee.privacy_policy_link),
        "fee": _text(firm.fee), "maxFee": _text(firm.max_fee), "minFee": _text(firm.min_fee),
        "ausiexCode": _text(firm.ausiex_code), "orderExpiryDays": _text(firm.order_expiry_days),
        "orderGoodTillCancelled": _text(firm.order_good_till_cancelled),
        "stopLossLimitGap": _text(firm.stop_loss_limit_gap),
    }


# the record of advice card: layout, branding and the CGT template (app.domain.firm_documents)
DOC_KEYS = ("layout", "colour", "disclaimer", "footer", "hinPercent", "cgtDiscount", "assetComments")
DOC_LIMITS = {"disclaimer": 4000, "assetComments": 20000}
SAVE_FIRM_FIRST = "Save the firm first: the preview shows its newest record of advice."


def _doc_form(settings: DocumentSettings) -> dict[str, str]:
    b, t = settings.branding, settings.template
    return {"layout": b.layout, "colour": b.colour, "disclaimer": b.disclaimer, "footer": b.footer,
            "hinPercent": percent_trimmed_text(t.hin_percent) or "0",
            "cgtDiscount": percent_trimmed_text(t.discount_percent) or "", "assetComments": t.comments_text}


def _doc_blank() -> dict[str, str]:
    return _doc_form(DocumentSettings(Branding(), RofaTemplate()))


class FirmFormState(SavingForm, AddressForm, ImageStaging, AppState):
    """firms.new, firms.view and firms.edit. `mode` is taken from the route on every load."""

    IMAGE_SLOTS: ClassVar[dict[str, str]] = {"logo": "logo", "licensee": "logo"}  # the firm's and the licensee's

    mode: str = "new"
    loading: bool = True
    form: dict[str, str] = _blank()
    errors: dict[str, str] = _blank()
    firm_name: str = ""
    view_url: str = ""  # display only (breadcrumb); handlers use _firm_id
    can_edit: bool = False

    docs: dict[str, str] = _doc_blank()
    doc_errors: dict[str, str] = {key: "" for key in DOC_KEYS}
    layout_options: list[Option] = [Option(value=k, label=LAYOUT_TITLES[k]) for k in LAYOUTS]
    previewing: bool = False

    _firm_id: int = 0
    _version: int = 0
    _saved: bool = False  # a second click on Save after success must not create the firm twice

    # ---- loading --------------------------------------------------------------------------------
    def _reset(self, mode: str) -> None:
        self.mode = mode
        self.form = _blank()
        self.errors = _blank()
        self.submitted = False
        self.saving = False
        self.firm_name = ""
        self.view_url = ""
        self.can_edit = False
        self._load_images({})
        self._fill_address(None)
        self.docs = _doc_blank()
        self.doc_errors = {key: "" for key in DOC_KEYS}
        self.previewing = False
        self._firm_id = 0
        self._version = 0
        self._saved = False

    def _fill(self, firm: FirmDetail) -> None:
        self.form = _form_of(firm)
        self.firm_name = firm.name or ""
        self._firm_id = firm.id
        self.view_url = routes.url("firms.view", id=self._firm_id)
        self._version = firm.version
        self._load_images({"logo": firm.logo, "licensee": firm.licensee_logo})
        self._fill_address(firm.address.as_form())

    @rx.event
    @screen_load(clients=False, failed=LOAD_ONE_FAILED, back=lambda self, actor: routes.url("firms.list"))
    def on_load(self, actor: Actor):
        name, params = routes.match(self.router.url.path)
        mode = {"firms.new": "new", "firms.view": "view", "firms.edit": "edit"}.get(name or "", "view")
        self._reset(mode)
        self.loading = True
        if mode == "new":
            if not can_create_firm(actor):
                raise PermissionDenied(NOT_ALLOWED)
            self.can_edit = True
            self.loading = False
            return None
        self._fill(firms.get_firm(actor=actor, firm_id=to_int(params.get("id")) or 0))
        self.docs = _doc_form(firms.documents(actor=actor, firm_id=self._firm_id))
        self.can_edit = can_edit_firm(actor, self._firm_id)
        self.loading = False
        if mode == "edit" and not self.can_edit:
            self.mode = "view"
            return rx.redirect(routes.url("firms.view", id=self._firm_id))
        return None

    # ---- editing --------------------------------------------------------------------------------
    def _payload(self) -> dict[str, Any]:
        """Exactly the REST shape of POST/PUT /api/firms."""
        form = self.form
        data: dict[str, Any] = {key: form.get(key, "") for key in FIRM_KEYS}
        data["licensee"] = {key: form.get(f"licensee.{key}", "") for key in LICENSEE_KEYS}
        data.update({key: form.get(key, "") for key in FEE_KEYS})
        data["address"] = self._address_payload()
        data["isLogoRemoved"] = self._image_removed("logo")
        data["isLicenseeLogoRemoved"] = self._image_removed("licensee")
        data["version"] = self._version or None
        return data

    def _validate(self) -> None:
        _, found = clean_firm(read_firm_form(self._payload()))
        self._show_errors({**found, **self._address_check()})
        self._show_doc_errors(parse_document_settings(self.docs)[1])

    def _show_doc_errors(self, found: dict[str, str]) -> None:
        self.doc_errors = {key: found.get(key, "") for key in DOC_KEYS}

    def _show_errors(self, found: dict[str, str]) -> None:
        errors = _blank()
        errors.update({key: text for key, text in found.items() if key in errors})
        self.errors = errors
        self._show_address_errors(found)

    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit and not self.loading and not self._saved

    def _address_editable(self) -> bool:
        return self._editable()

    def _address_changed(self) -> None:
        self._changed()

    @rx.event
    def set_doc_field(self, key: str, value: str):
        """A field of the record of advice card (layout, colour, disclaimer, footer, template)."""
        if key not in DOC_KEYS or not self._editable():
            return
        text = str(value if value is not None else "")[:DOC_LIMITS.get(key, 1000)]
        if key == "layout" and text not in LAYOUTS:
            return
        self.docs = {**self.docs, key: text}
        self._changed()

    @rx.event
    def preview(self):
        """The PDF of the firm's newest record of advice (a sample when it has none) with the settings
        as they stand on the form, saved or not."""
        if not self._firm_id or self.previewing:
            return toast_error(SAVE_FIRM_FIRST) if not self._firm_id else None
        settings, found = parse_document_settings(self.docs)
        self._show_doc_errors(found)
        if settings is None:
            return toast_error(next(iter(found.values())))
        self.previewing = True
        try:
            name, data = records_of_advice.preview_pdf(actor=self._actor(), firm_id=self._firm_id, settings=settings)
        except DomainError as exc:
            return toast_error(exc.message)
        finally:
            self.previewing = False
        return rx.download(data=data, filename=name, mime_type="application/pdf")

    @rx.event
    def set_order_gtc(self, value: bool):
        """The firm's orders without an expiry of their own are good till cancelled (a checkbox)."""
        if not self._editable():
            return
        self.form = {**self.form, "orderGoodTillCancelled": "True" if value is True else ""}
        self._changed()

    @rx.event
    def set_field(self, key: str, value: str):
        if key not in FORM_KEYS or not self._editable():
            return
        self.form = {**self.form, key: str(value if value is not None else "")[:1000]}
        self._changed()

    # ---- logos (staged by ImageStaging, written on save) -----------------------------------------
    def _image_editable(self, slot: str, actor: Actor) -> bool:
        if not self._editable():
            return False
        if self.mode == "edit" and not can_edit_firm(actor, self._firm_id):
            raise PermissionDenied(NOT_ALLOWED)
        return True

    # ---- saving ---------------------------------------------------------------------------------
    def _save(self, actor: Actor, then: str | None):
        form = read_firm_form(self._payload())
        documents, found = parse_document_settings(self.docs)
        self._show_doc_errors(found)
        if documents is None:
            return self._fail(ValidationError(next(iter(found.values())), found))
        try:
            if self.mode == "new":
                firm = firms.create_firm(actor=actor, form=form)
                done = firms.CREATED
            else:
                firm = firms.update_firm(actor=actor, firm_id=self._firm_id, form=form)
                done = firms.UPDATED
        except ValidationError as exc:
            self._show_errors(exc.fields)
            return self._fail(exc)
        except DomainError as exc:  # a Conflict (changed by someone else), NotFound, PermissionDenied
            return self._fail(exc)
        self._show_errors({})
        firm_id = firm.id
        try:  # the record of advice settings: after the firm (whose version they move on)
            firms.update_documents(actor=actor, firm_id=firm_id, settings=documents)
        except ValidationError as exc:  # an asset code the universe does not know
            self._show_doc_errors(exc.fields)
            if self.mode == "new":  # the firm exists now: its form goes on from its edit screen
                self._saved = True
                return [toast_error(exc.message), rx.redirect(routes.url("firms.edit", id=firm_id))]
            self._version = firm.version
            return self._fail(exc)
        self._saved = True
        events: list[Any] = []
        for slot, content_type, data in self._staged_images():
            try:
                firms.upload_logo(actor=actor, firm_id=firm_id, content_type=content_type, data=data,
                                  licensee=slot == "licensee")
            except DomainError as exc:
                events.append(toast_error(exc.message))
        self._forget_staged_images()
        self.form_dirty = False
        self.leave_open = False
        events.insert(0, toast_success(done))
        events.append(rx.redirect(then or routes.url("firms.view", id=firm_id)))
        return events

    @rx.event
    def edit(self):
        if not self._firm_id or not self.can_edit:
            return None
        return rx.redirect(routes.url("firms.edit", id=self._firm_id))

    @rx.event
    def cancel(self):
        if self.mode == "edit" and self._firm_id:
            return AppState.go_back(routes.url("firms.view", id=self._firm_id))
        return AppState.go_back(routes.url("firms.list"))

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def read_only(self) -> bool:
        return self.mode == "view"

    @rx.var
    def title(self) -> str:
        if self.mode == "new":
            return "New firm"
        if self.loading:
            return ""
        return self.firm_name if self.mode == "view" else f"Edit {self.firm_name}"
