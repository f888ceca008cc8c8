"""Recommendation screens: a model's long-term (models.long-terms) and short-term (models.short-terms)
recommendations with inline editing, delete, delete all, upload (amend | replace) and CSV download;
and the bulk upload screens (bulk-upload.long-terms, bulk-upload.short-terms) that apply one file to
many models.

Every handler resolves the signed-in user from the token and goes through
app.services.recommendations, which checks permission (read: the model is visible; write: the
actor may edit it) and scopes by firm. Ids of what is loaded stay in backend-only vars; row keys
sent by the browser are only looked up among the rows this state holds."""
from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.domain import recommendations as rules
from app.domain import validators as v
from app.domain.model_rules import owner_filter
from app.domain.assets import normalise_code
from app.domain.errors import GENERIC, AuthenticationError, DomainError, NotFound, ValidationError
from app.domain.permissions import Actor
from app.domain.recommendations import Kind
from app.domain.uploads import SELECT_FILE
from app.services import assets as asset_service
from app.services import recommendations as service
from app.services.models import ModelSummary
from app.ui import routes
from app.ui.components.asset_picker import AssetPickerState, take_pick
from app.ui.display import count_of, text as _text
from app.ui.rows.recommendations import (
    EDIT_FIELDS, RecRow, at_rest, new_rec_row, rec_row, upload_headline, with_asset, with_errors,
)
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.model_selection import ModelSelection
from app.ui.toolkit.screen import Confirm, UploadDialog, UploadFailure, guarded, screen_load

PAGE_ROUTES = {"models.long-terms": Kind.LONG_TERM, "models.short-terms": Kind.SHORT_TERM}
BULK_ROUTES = {"bulk-upload.long-terms": Kind.LONG_TERM, "bulk-upload.short-terms": Kind.SHORT_TERM}
TITLES = {Kind.LONG_TERM: "Long Term Recommendations", Kind.SHORT_TERM: "Short Term Recommendations"}
UPLOAD_ID = "rec-upload"
BULK_UPLOAD_ID = "bulk-upload-file"
CODE_MAX = 20
TEXT_MAX = 40
LONG_TERM_OPTIONS = [("buy", "Buy"), ("sell", "Sell"), ("hold", "Hold")]


class RecommendationUpload(UploadFailure, UploadDialog, mixin=True):
    """The upload modal of both screens: amend or replace, and the failure dialog of a refused file."""

    SELECT_FILE: ClassVar[str] = SELECT_FILE

    upload_type: str = "amend"

    def _open_upload(self):
        self.upload_type = "amend"
        self.upload_error = ""
        self.upload_open = True

    @rx.event
    def set_upload_type(self, value: str):
        self.upload_type = value if value in ("amend", "replace") else "amend"

    async def _send(self, actor: Actor, kind: Kind, model_ids: list[int], upload: rx.UploadFile):
        """The service's result, or None when the file was refused (the failure dialog says why)."""
        try:
            data, content_type = await self._file_of([upload])
            return await asyncio.to_thread(service.upload, actor=actor, kind=kind, model_ids=model_ids,
                                           content_type=content_type, data=data,
                                           upload_type=self.upload_type)
        except AuthenticationError:
            raise
        except DomainError as exc:
            self.upload_open = False
            self._show_failure(exc.message)
            return None
        finally:
            self.uploading = False


class ModelRecommendationsState(Confirm, RecommendationUpload, AppState):
    """models.long-terms and models.short-terms: the kind comes from the route on every load."""

    UPLOAD_ID: ClassVar[str] = UPLOAD_ID

    kind: str = Kind.LONG_TERM.value
    loading: bool = True
    model_name: str = ""
    details_url: str = ""  # display only (breadcrumb); handlers use _model_id
    download_path: str = ""  # the export call of this model, without the token
    can_edit: bool = False
    firm_id: int = 0  # the model's firm: the asset picker's scope (the service checks the asset again)
    rows: list[RecRow] = []

    _model_id: int = 0
    _firm_id: int = 0
    _new_keys: int = 0

    # ---- loading --------------------------------------------------------------------------------
    def _kind(self) -> Kind:
        return Kind(self.kind)

    def _load_failed(self, kind: Kind, message: str, model_id: int | None):
        """Long-term: the message; short-term: 'Sorry' and the message (spec 001 s2). Then the details."""
        target = routes.url("models.details", id=model_id) if model_id else routes.url("models.view")
        if kind is Kind.SHORT_TERM:
            toast = rx.toast.error("Sorry", description=message or rules.SHORT_TERMS_LOAD_FAILED, position="top-right",
                                   duration=6000)
        else:
            toast = toast_error(message or GENERIC)
        return [toast, rx.redirect(target)]

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        kind = routes.page_value(self.router.url.path, PAGE_ROUTES, Kind.LONG_TERM)
        self.reset()
        self.kind = kind.value
        model_id = self._path_id()
        try:
            page = service.recommendations_page(actor=actor, model_id=model_id or 0, kind=kind)
        except AuthenticationError:
            raise
        except DomainError as exc:
            self.loading = False
            return self._load_failed(kind, exc.message, model_id)
        model = page.model
        self._model_id, self._firm_id = model.id, model.firm_id
        self.firm_id = self._firm_id
        self.model_name = model.name
        self.can_edit = model.can_edit
        self.details_url = routes.url("models.details", id=self._model_id)
        segment = "long-terms" if kind is Kind.LONG_TERM else "recommendations"
        self.download_path = f"/api/{segment}/{self._model_id}/export-csv"
        self.rows = [rec_row(r) for r in page.rows]
        self.loading = False
        return None

    def _reload(self, actor: Actor) -> None:
        """The saved rows again, keeping rows that are still being edited (new ones first)."""
        page = service.recommendations_page(actor=actor, model_id=self._model_id, kind=self._kind())
        self.can_edit = page.model.can_edit
        editing = {r.key: r for r in self.rows if r.editing}
        fresh = [editing.get(f"r{r.id}") or rec_row(r) for r in page.rows]
        self.rows = [r for r in editing.values() if r.is_new] + fresh
        self._sync_dirty()

    # ---- helpers ----------------------------------------------------------------------------------
    def _find(self, key: Any) -> RecRow | None:
        return next((r for r in self.rows if r.key == key), None)

    def _put(self, row: RecRow) -> None:
        self.rows = [row if r.key == row.key else r for r in self.rows]
        self._sync_dirty()

    def _drop(self, key: str) -> None:
        self.rows = [r for r in self.rows if r.key != key]
        self._sync_dirty()

    def _sync_dirty(self) -> None:
        self.form_dirty = any(r.editing for r in self.rows)

    def _writer(self) -> Actor | None:
        """The actor when this screen may change things, else None (the service checks again)."""
        actor = self._actor()
        return actor if self.can_edit and self._model_id else None

    def _form_of(self, row: RecRow) -> rules.RecommendationForm:
        """The row's inputs as the service's form (a new row's with its model and asset)."""
        new = row.is_new
        return rules.RecommendationForm(model_id=self._model_id if new else None,
                                        asset_id=(row.asset_id or None) if new else None, action=row.e_action,
                                        comment=row.e_comment, price=row.e_price, yield_=row.e_yield)

    def _errors_for(self, row: RecRow) -> dict[str, str]:
        """The same rules as the service (app.domain.recommendations), for the row's inputs."""
        kind = self._kind()
        _, errors = rules.clean_recommendation(kind, self._form_of(row))
        if row.is_new:
            if not row.asset_id:
                errors["code"] = (rules.UNKNOWN_ASSET.format(code=row.e_code) if row.e_code
                                  else v.REQUIRED_SELECT.format(label="asset"))
            if "action" not in errors and rules.is_hold_without_comment(kind, row.e_action, row.e_comment):
                errors["comment"] = rules.COMMENT_REQUIRED
        return errors

    # ---- rows: add, edit, cancel ---------------------------------------------------------------------
    @rx.event
    @guarded
    def add_row(self):
        if self._writer() is not None:
            self._new_keys += 1
            self.rows = [new_rec_row(self._kind(), f"n{self._new_keys}")] + self.rows
            self._sync_dirty()

    @rx.event
    @guarded
    def edit_row(self, key: str):
        if self._writer() is None:
            return
        row = self._find(key)
        if row is not None and not row.editing:
            self._put(at_rest(row, editing=True))

    @rx.event
    def cancel_row(self, key: str):
        """A new row goes; an existing one shows its saved action and comment again (spec 000 s4)."""
        row = self._find(key)
        if row is not None and row.is_new:
            self._drop(key)
        elif row is not None:
            self._put(at_rest(row))

    @rx.event
    def set_edit(self, key: str, field: str, value: Any):
        row = self._find(key)
        if row is None or not row.editing or field not in EDIT_FIELDS:
            return None
        text = _text(value)
        if field == "code":
            if not row.is_new:
                return None
            text = normalise_code(text)[:CODE_MAX]
            row = dataclasses.replace(row, e_code=text, asset_id=0, name="")  # a changed code clears the asset
        elif field == "comment":
            row = dataclasses.replace(row, e_comment=text[: rules.COMMENT_MAX + 1])
        else:
            typed: dict[str, Any] = {f"e_{field}": text[:TEXT_MAX] if field != "action" else text}
            row = dataclasses.replace(row, **typed)
        if row.tried:
            row = with_errors(row, self._errors_for(row))
        self._put(row)
        return None

    @rx.event
    @guarded
    def lookup_code(self, key: str):
        """The typed code, uppercased, looked up among the assets the model's firm may use; an
        unknown code is marked invalid and the asset cleared (spec 002 s5)."""
        row = self._find(key)
        if row is None or not row.is_new or not row.editing:
            return None
        actor = self._writer()
        if actor is None:
            return None
        code = row.e_code
        found = _find_asset(actor, code, self._firm_id)
        if not code:
            row = dataclasses.replace(row, asset_id=0, name="", err_code=v.REQUIRED_SELECT.format(label="asset") if row.tried else "")
        elif found is None:
            row = dataclasses.replace(row, asset_id=0, name="", err_code=rules.UNKNOWN_ASSET.format(code=code))
        else:
            row = with_asset(row, found.id, found.code, found.name)
        self._put(row)
        return None

    @rx.event
    async def asset_picked(self, target: str):
        """The asset picker's choice for a new row (target: the row's key)."""
        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, target)
        row = self._find(target)
        if asset is None or row is None or not row.is_new or not row.editing:
            return None
        row = with_asset(row, int(asset["id"]), asset["code"], asset["name"])
        if row.tried:
            row = with_errors(row, self._errors_for(row))
        self._put(row)
        return None

    # ---- saving ---------------------------------------------------------------------------------
    def _save(self, actor: Actor, row: RecRow) -> tuple[bool, list]:
        """(saved, events) for one editing row."""
        kind = self._kind()
        row = dataclasses.replace(row, tried=True)
        if row.is_new and not row.asset_id and row.e_code:
            found = _find_asset(actor, row.e_code, self._firm_id)
            if found is not None:
                row = with_asset(row, found.id, found.code, found.name)
        errors = self._errors_for(row)
        if row.is_new and not errors:
            duplicate = next((r for r in self.rows if not r.is_new and r.asset_id == row.asset_id), None)
            if duplicate is not None:
                errors["code"] = kind.duplicate.format(code=row.code)
        row = with_errors(row, errors)
        self._put(row)
        if errors:
            return False, [toast_error(upload_headline(errors))]
        if not row.is_new and rules.is_hold_without_comment(kind, row.e_action, row.e_comment) and kind is Kind.LONG_TERM:
            # an existing long-term hold without a comment: ask whether to delete it (spec 000 s4)
            self._ask("hold", rules.HOLD_DELETE_QUESTION.format(code=row.code), row.id)
            return False, []
        form = self._form_of(row)
        try:
            if row.is_new:
                saved = (service.create_long_term if kind is Kind.LONG_TERM else service.create_short_term)(actor=actor, form=form)
            elif kind is Kind.LONG_TERM:
                saved = service.update_long_term(actor=actor, rec_id=row.id, form=form)
            else:
                saved = service.update_short_term(actor=actor, rec_id=row.id, form=form)
        except ValidationError as exc:
            self._put(with_errors(row, {("code" if k == "asset_id" else k): t for k, t in exc.fields.items()}))
            return False, [toast_error(exc.message)]
        except DomainError as exc:
            return False, [self._fail(exc)]
        if isinstance(saved, service.ShortTermView) and saved.deleted:  # a hold without a comment deletes it (001 s4)
            self._drop(row.key)
        elif row.is_new:
            others = [r for r in self.rows if r.key != row.key]
            self.rows = [r for r in others if r.is_new] + sorted(
                [r for r in others if not r.is_new] + [rec_row(saved)], key=lambda r: (r.code, r.id))
        else:
            self._put(rec_row(saved))
        self._sync_dirty()
        return True, [toast_success(saved.message or "")]

    @rx.event
    @guarded
    def save_row(self, key: str):
        row = self._find(key)
        if row is None or not row.editing:
            return None
        actor = self._writer()
        return None if actor is None else self._save(actor, row)[1]

    @rx.event
    @guarded
    def save_and_leave(self):
        """The leave dialog's Save: every row being edited is saved; then go where the user was going."""
        self.leave_open = False
        actor = self._writer()
        shown: list = []
        ok = actor is not None
        for row in [r for r in self.rows if r.editing]:
            if actor is None:
                break
            saved, more = self._save(actor, row)
            shown.extend(more)
            ok = ok and saved
        if ok and not self.confirm_open:
            self.form_dirty = False
            shown.append(rx.redirect(self.leave_to or "/"))
        return shown

    # ---- delete, delete all -----------------------------------------------------------------------
    @rx.event
    def ask_delete(self, key: str):
        row = self._find(key)
        if row is not None and not row.is_new and self.can_edit:
            self._ask("delete", f"Are you sure you want to delete the recommendation for {row.code}?", row.id)

    @rx.event
    def ask_delete_all(self):
        if not self.can_edit:
            return None
        if not any(not r.is_new for r in self.rows):
            return toast_error(rules.NOTHING_TO_REMOVE)
        what = "long term recommendations" if self._kind() is Kind.LONG_TERM else "short term recommendations"
        self._ask("delete_all", f"Are you sure you want to delete all {what} of {self.model_name}?")
        return None

    def _confirmed(self, action: str, rec_id: int):
        """Delete all, or one saved row (asked from its menu, or a long-term hold saved without a comment)."""
        kind = self._kind()
        actor = self._writer()
        if actor is None:
            return None
        row = self._find(f"r{rec_id}")
        if action != "delete_all" and row is None:
            return None
        row_id, key = (row.id, row.key) if row is not None else (0, "")
        try:
            if action == "delete_all":
                if kind is Kind.LONG_TERM:
                    service.delete_all_long_terms(actor=actor, model_id=self._model_id)
                else:
                    service.delete_all_short_terms(actor=actor, model_id=self._model_id)
                self.rows = [r for r in self.rows if r.is_new]
                self._sync_dirty()
                return toast_success(rules.LONG_TERMS_ALL_DELETED if kind is Kind.LONG_TERM
                                     else rules.SHORT_TERMS_ALL_DELETED)
            if kind is Kind.LONG_TERM:
                service.delete_long_term(actor=actor, rec_id=row_id)
            else:
                service.mark_short_terms_deleted(actor=actor, ids=[row_id])
        except AuthenticationError:
            raise
        except DomainError as exc:
            # spec 000 s8: a failed long-term delete says so
            return toast_error(rules.LONG_TERMS_NOT_DELETED if kind is Kind.LONG_TERM else exc.message)
        self._drop(key)
        return toast_success(rules.LONG_TERM_DELETED if kind is Kind.LONG_TERM else rules.SHORT_TERM_DELETED)

    # ---- download -----------------------------------------------------------------------------
    @rx.event
    def nothing_to_download(self):
        return toast_error(rules.NOTHING_TO_DOWNLOAD)

    # ---- upload ---------------------------------------------------------------------------------
    @rx.event
    def open_upload(self):
        return self._open_upload() if self.can_edit else None

    @rx.event
    @guarded
    async def upload(self, files: list[rx.UploadFile]):
        actor = self._writer()
        if actor is None:
            return
        if not self._start_upload(files):
            return
        yield
        if await self._send(actor, self._kind(), [self._model_id], files[0]) is None:
            yield rx.clear_selected_files(UPLOAD_ID)
            return
        self.upload_open = False
        try:
            self._reload(actor)
        except DomainError as exc:
            yield self._fail(exc)
        yield [rx.clear_selected_files(UPLOAD_ID), toast_success(rules.UPLOAD_DONE)]

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def title(self) -> str:
        return TITLES[Kind(self.kind)]

    @rx.var
    def is_short(self) -> bool:
        return self.kind == Kind.SHORT_TERM.value

    @rx.var
    def saved_count(self) -> int:
        return len([r for r in self.rows if not r.is_new])

    @rx.var
    def count_text(self) -> str:
        return count_of(len([r for r in self.rows if not r.is_new]), "recommendation")


def _find_asset(actor: Actor, code: str, firm_id: int) -> asset_service.AssetView | None:
    """The usable asset with this code for the model's firm, or None."""
    if not normalise_code(code):
        return None
    try:
        return asset_service.get_asset_by_code(actor=actor, code=code, firm_id=firm_id)
    except NotFound:
        return None


# ---- bulk upload --------------------------------------------------------------------------------
class BulkUploadState(ModelSelection, RecommendationUpload, AppState):
    """bulk-upload.long-terms and bulk-upload.short-terms: choose a firm (superuser), select models
    (app.ui.states.model_selection), upload one file to all of them, see each model's outcome."""

    UPLOAD_ID: ClassVar[str] = BULK_UPLOAD_ID

    kind: str = Kind.LONG_TERM.value
    loading: bool = True

    results_open: bool = False
    results_title: str = ""
    results: list[service.UploadedModel] = []

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.reset()
        self.kind = routes.page_value(self.router.url.path, BULK_ROUTES, Kind.LONG_TERM).value
        try:
            self._load_firms(actor)
            return self._load_models(actor)
        finally:
            self.loading = False

    def _find_models(self, actor: Actor) -> list[ModelSummary]:
        return service.upload_candidates(actor=actor, kind=Kind(self.kind), firm_id=owner_filter(self._firm_id()))

    @rx.event
    def open_upload(self):
        return self._open_upload() if self.selected else self._no_models()

    @rx.event
    def close_results(self):
        self.results_open = False

    @rx.event
    @guarded
    async def upload(self, files: list[rx.UploadFile]):
        actor = self._actor()
        chosen = self._chosen_models()
        if not chosen:
            self.upload_open = False
            yield self._no_models()
            return
        if not self._start_upload(files):
            return
        yield
        result = await self._send(actor, Kind(self.kind), chosen, files[0])
        if result is None:
            yield rx.clear_selected_files(BULK_UPLOAD_ID)
            return
        self.upload_open = False
        self.results = list(result.rows)
        self.results_title = result.message
        self.results_open = True
        done = toast_success(result.message) if not result.failed else toast_error(result.message)
        yield [rx.clear_selected_files(BULK_UPLOAD_ID), done]

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def title(self) -> str:
        return "Upload " + TITLES[Kind(self.kind)]

