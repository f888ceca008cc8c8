"""Firms screens: the list (sort, search, page size, load more, delete) and the firm form in its
new / view / edit modes (firm information, licensee, fees, the two logos).

Every handler resolves the signed-in user from the token and goes through app.services.firms,
which checks permission and scopes by firm; ids of what is loaded stay in backend-only vars."""
from __future__ import annotations

import dataclasses
import logging
from typing import Any, ClassVar

import reflex as rx

from app.domain.errors import DomainError, PermissionDenied, ValidationError
from app.domain.firms import FIRM_SORTS, FirmForm, clean_firm
from app.domain.firm_documents import LAYOUT_TITLES, LAYOUTS, parse_document_settings
from app.domain.permissions import NOT_ALLOWED, Actor, can_create_firm, can_edit_firm
from app.domain.roles import Role
from app.services import firms, records_of_advice
from app.services.firms import FirmDetail
from app.ui.states.address import AddressForm
from app.ui import routes
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.images import ImageStaging
from app.ui.parse import to_int
from app.ui.rows.firms import (
    FIRM_TEXTS, LICENSEE_TEXTS, FirmRow, blank_document_form, document_form, firm_form, firm_row, payload_name,
)
from app.ui.toolkit.lists import LoadMore, RowPages
from app.ui.toolkit.rows import Option, field_errors
from app.ui.toolkit.saving import RecordForm
from app.ui.toolkit.screen import Confirm, Viewer, events, guarded, screen_load

log = logging.getLogger("app.ui.firms")

LOAD_ONE_FAILED = "Opps, something went wrong"
ROW_ROUTES = frozenset({"firms.view", "firms.edit", "firms.advisers", "firms.clients", "firms.portfolios"})
FORM_MODES = {"firms.new": "new", "firms.edit": "edit"}  # the form's mode by route, else view


class FirmsListState(Viewer, Confirm, RowPages, LoadMore, AppState):
    """/firms: superusers see every firm; administrators and advisers their own (the service scopes)."""

    SORT_KEYS: ClassVar[tuple[str, ...]] = FIRM_SORTS
    ROW_ROUTES: ClassVar[frozenset[str]] = ROW_ROUTES

    rows: list[FirmRow] = []

    def _fetch(self, actor: Actor, offset: int, limit: int) -> tuple[list[FirmRow], int]:
        found, total = firms.list_firms(actor=actor, limit=limit, offset=offset, sort=self.sort, order=self.order,
                                        search=self.search)
        return [firm_row(f) for f in found], total

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


# the form's text fields ('licensee.<attribute>' for the licensee's) -> their payload names
FIELD_NAMES = {path: payload_name(path) for path in (*FIRM_TEXTS, *(f"licensee.{n}" for n in LICENSEE_TEXTS))}


# the record of advice card: layout, branding and the CGT template (app.domain.firm_documents)
# its fields, each with the most text it takes
DOC_LIMITS = {"layout": 1000, "colour": 1000, "disclaimer": 4000, "footer": 1000, "hinPercent": 1000,
              "cgtDiscount": 1000, "assetComments": 20000}
DOC_KEYS = tuple(DOC_LIMITS)
SAVE_FIRM_FIRST = "Save the firm first: the preview shows its newest record of advice."


class FirmFormState(RecordForm, AddressForm, ImageStaging, AppState):
    """firms.new, firms.view and firms.edit. `mode` is taken from the route on every load."""

    IMAGE_SLOTS: ClassVar[dict[str, str]] = {"logo": "logo", "licensee": "logo"}  # the firm's and the licensee's

    mode: str = "new"
    loading: bool = True
    form: FirmForm = firm_form(None)
    errors: dict[str, str] = field_errors(None, FIELD_NAMES.values())
    firm_name: str = ""
    view_url: str = ""  # display only (breadcrumb); handlers use _firm_id
    can_edit: bool = False

    docs: dict[str, str] = blank_document_form()
    doc_errors: dict[str, str] = field_errors(None, DOC_KEYS)
    layout_options: list[Option] = [Option(value=k, label=LAYOUT_TITLES[k]) for k in LAYOUTS]
    previewing: bool = False

    _firm_id: int = 0
    _version: int = 0
    _saved: bool = False  # a second click on Save after success must not create the firm twice

    # ---- loading --------------------------------------------------------------------------------
    def _fill(self, firm: FirmDetail) -> None:
        self.form = firm_form(firm)
        self.firm_name = firm.name or ""
        self._firm_id = firm.id
        self.view_url = routes.url("firms.view", id=self._firm_id)
        self._version = firm.version
        self._load_images({"logo": firm.logo, "licensee": firm.licensee_logo})
        self._fill_address(firm.address)

    @rx.event
    @screen_load(clients=False, failed=LOAD_ONE_FAILED, back=lambda self, actor: routes.url("firms.list"))
    def on_load(self, actor: Actor):
        mode = self._start(FORM_MODES, "view")
        self._load_images({})  # each image slot and the address shown empty
        self._fill_address()
        if mode == "new":
            if not can_create_firm(actor):
                raise PermissionDenied(NOT_ALLOWED)
            self.can_edit = True
            self.loading = False
            return None
        self._fill(firms.get_firm(actor=actor, firm_id=self._path_id() or 0))
        self.docs = document_form(firms.documents(actor=actor, firm_id=self._firm_id))
        self.can_edit = can_edit_firm(actor, self._firm_id)
        self.loading = False
        if mode == "edit" and not self.can_edit:
            self.mode = "view"
            return rx.redirect(routes.url("firms.view", id=self._firm_id))
        return None

    # ---- editing --------------------------------------------------------------------------------
    def _sent_form(self) -> FirmForm:
        """The form as the service takes it: the fields with the address, the logos removed and the
        version it was read at."""
        return dataclasses.replace(
            self.form, address=self._address_payload(), logo_removed=self._image_removed("logo"),
            licensee_logo_removed=self._image_removed("licensee"), version=str(self._version) if self._version else None)

    def _validate(self) -> None:
        _, found = clean_firm(self._sent_form())
        self._show_errors({**found, **self._address_check()})
        self._show_doc_errors(parse_document_settings(self.docs)[1])

    def _show_doc_errors(self, found: dict[str, str]) -> None:
        self.doc_errors = field_errors(found, DOC_KEYS)

    def _show_errors(self, found: dict[str, str]) -> None:
        self.errors = field_errors(found, FIELD_NAMES.values())
        self._show_address_errors(found)

    def _editable(self) -> bool:
        return self.mode in ("new", "edit") and self.can_edit and not self.loading and not self._saved

    @rx.event
    def set_doc_field(self, key: str, value: str):
        """A field of the record of advice card (layout, colour, disclaimer, footer, template)."""
        if key not in DOC_LIMITS:
            return
        text = str(value if value is not None else "")[:DOC_LIMITS[key]]
        if key != "layout" or text in LAYOUTS:
            self._edit(docs={**self.docs, key: text})

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
        self._edit(form=dataclasses.replace(self.form, order_good_till_cancelled=value is True))

    @rx.event
    def set_field(self, path: str, value: str):
        """A text field, by its path in FIELD_NAMES ('name', 'licensee.afsl')."""
        if path not in FIELD_NAMES:
            return
        group, _, name = path.rpartition(".")
        changed: dict[str, Any] = {name: str(value if value is not None else "")[:1000]}
        if group:
            changed = {"licensee": dataclasses.replace(self.form.licensee, **changed)}
        self._edit(form=dataclasses.replace(self.form, **changed))

    # ---- logos (staged by ImageStaging, written on save) -----------------------------------------
    def _image_editable(self, slot: str, actor: Actor) -> bool:
        if not self._editable():
            return False
        if self.mode == "edit" and not can_edit_firm(actor, self._firm_id):
            raise PermissionDenied(NOT_ALLOWED)
        return True

    # ---- saving ---------------------------------------------------------------------------------
    def _refused(self, exc: DomainError) -> None:
        if isinstance(exc, ValidationError):
            self._show_errors(exc.fields)

    @guarded
    def _save(self, actor: Actor, then: str | None):
        form = self._sent_form()
        documents, found = parse_document_settings(self.docs)
        self._show_doc_errors(found)
        if documents is None:
            return self._fail(ValidationError(next(iter(found.values())), found))
        firm = self._write_record(lambda: firms.create_firm(actor=actor, form=form),
                                  lambda: firms.update_firm(actor=actor, firm_id=self._firm_id, form=form))
        done = firms.CREATED if self.mode == "new" else firms.UPDATED
        self._show_errors({})
        firm_id = firm.id
        try:  # the record of advice settings: after the firm (whose version they move on)
            firms.update_documents(actor=actor, firm_id=firm_id, settings=documents)
        except ValidationError as exc:  # an asset code the universe does not know
            self._show_doc_errors(exc.fields)
            self.form_dirty = True  # the firm is saved, its record of advice settings are not
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
        events.insert(0, toast_success(done))
        events.append(rx.redirect(then or routes.url("firms.view", id=firm_id)))
        return events

    @rx.event
    def edit(self):
        return self._to_edit("firms.edit", self._firm_id)

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
