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
import logging
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypedDict

import reflex as rx

from app.domain import recommendations as rules
from app.domain import validators as v
from app.domain.errors import GENERIC, INVALID_FORM, AuthenticationError, DomainError, ValidationError
from app.domain.recommendations import Kind
from app.domain.roles import Role
from app.services import assets as asset_service
from app.services import firms as firm_service
from app.services import recommendations as service
from app.ui import routes
from app.ui.components.asset_picker import AssetPickerState, take_pick
from app.ui.states.base import AppState, toast_error, toast_success

log = logging.getLogger("app.ui.recommendations")

PAGE_ROUTES = {"models.long-terms": Kind.LONG_TERM, "models.short-terms": Kind.SHORT_TERM}
BULK_ROUTES = {"bulk-upload.long-terms": Kind.LONG_TERM, "bulk-upload.short-terms": Kind.SHORT_TERM}
TITLES = {Kind.LONG_TERM: "Long Term Recommendations", Kind.SHORT_TERM: "Short Term Recommendations"}
UPLOAD_ID = "rec-upload"
BULK_UPLOAD_ID = "bulk-upload-file"
ALL_FIRMS = "-2"
CODE_MAX = 20
TEXT_MAX = 40
EDIT_FIELDS = ("code", "action", "comment", "price", "yield")
LONG_TERM_OPTIONS = [("buy", "Buy"), ("sell", "Sell"), ("hold", "Hold")]


class RecRow(TypedDict):
    key: str  # "r<id>" for saved rows, "n<k>" for new ones
    id: int
    asset_id: int
    code: str
    name: str
    action: str
    comment: str
    price: str
    yld: str  # yield ("yield" is a keyword)
    price_text: str  # $1,234.50
    yield_text: str  # 4.5%
    in_model: bool
    is_new: bool
    editing: bool
    tried: bool  # a save was attempted: errors show, and then live
    # what the row's inputs hold while editing
    e_code: str
    e_action: str
    e_comment: str
    e_price: str
    e_yield: str
    err_code: str
    err_action: str
    err_comment: str
    err_price: str
    err_yield: str


class UploadResult(TypedDict):
    model_id: int
    name: str
    success: bool
    message: str


class BulkModel(TypedDict):
    id: int
    name: str
    firm: str
    status: str


class FirmOption(TypedDict):
    id: str
    name: str


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def money_text(value: Any) -> str:
    """'$1,234.50' from '1234.5': at least two decimals, more when the price has them; '' when empty."""
    if value in (None, ""):
        return ""
    number = Decimal(str(value))
    places = min(max(2, -number.normalize().as_tuple().exponent), 6)
    return f"${number:,.{places}f}"


def percent_text(value: Any) -> str:
    """'4.5%' (one decimal, rounded half-up); '' when empty."""
    if value in (None, ""):
        return ""
    return f"{Decimal(str(value)).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def _row(kind: Kind, rec: dict[str, Any]) -> RecRow:
    if kind is Kind.LONG_TERM:
        code, name, price, yld, in_model = rec["asset"]["code"], rec["asset"]["name"], "", "", False
    else:
        code, name, price, yld, in_model = rec["code"], rec["name"], _text(rec["price"]), _text(rec["yield"]), bool(rec["model_asset"])
    return RecRow(key=f"r{rec['id']}", id=int(rec["id"]), asset_id=int(rec["asset_id"]), code=code, name=name,
                  action=rec["action"], comment=_text(rec["comment"]), price=price, yld=yld,
                  price_text=money_text(price), yield_text=percent_text(yld), in_model=in_model,
                  is_new=False, editing=False, tried=False, e_code=code, e_action=rec["action"],
                  e_comment=_text(rec["comment"]), e_price=price, e_yield=yld, err_code="", err_action="",
                  err_comment="", err_price="", err_yield="")


def _new_row(kind: Kind, key: str) -> RecRow:
    action = "buy" if kind is Kind.LONG_TERM else "BUY"  # a new row starts as buy (spec 000 s4)
    return RecRow(key=key, id=0, asset_id=0, code="", name="", action=action, comment="", price="", yld="",
                  price_text="", yield_text="",
                  in_model=False, is_new=True, editing=True, tried=False, e_code="", e_action=action, e_comment="",
                  e_price="", e_yield="", err_code="", err_action="", err_comment="", err_price="", err_yield="")


class ModelRecommendationsState(AppState):
    """models.long-terms and models.short-terms: the kind comes from the route on every load."""

    kind: str = Kind.LONG_TERM.value
    loading: bool = True
    model_name: str = ""
    details_url: str = ""  # display only (breadcrumb); handlers use _model_id
    download_path: str = ""  # the export call of this model, without the token
    can_edit: bool = False
    firm_id: int = 0  # the model's firm: the asset picker's scope (the service checks the asset again)
    rows: list[RecRow] = []

    # row delete, delete all, hold-without-comment question
    confirm_open: bool = False
    confirm_message: str = ""
    confirm_label: str = "Delete"

    # upload
    upload_open: bool = False
    upload_type: str = "amend"
    upload_error: str = ""
    uploading: bool = False
    failure_open: bool = False
    failure_message: str = ""

    _model_id: int = 0
    _firm_id: int = 0
    _confirm: tuple = ()  # ("delete", key) | ("delete_all",) | ("hold", key)
    _new_keys: int = 0

    # ---- loading --------------------------------------------------------------------------------
    def _kind(self) -> Kind:
        return Kind(self.kind)

    def _reset(self, kind: Kind) -> None:
        self.kind = kind.value
        self.loading = True
        self.model_name = ""
        self.details_url = ""
        self.download_path = ""
        self.can_edit = False
        self.firm_id = 0
        self.rows = []
        self.confirm_open = False
        self.upload_open = False
        self.upload_type = "amend"
        self.upload_error = ""
        self.uploading = False
        self.failure_open = False
        self._model_id = 0
        self._firm_id = 0
        self._confirm = ()

    def _load_failed(self, kind: Kind, message: str, model_id: Any):
        """Long-term: the message; short-term: 'Sorry' and the message (spec 001 s2). Then the details."""
        target = routes.url("models.details", id=model_id) if str(model_id).isdigit() else routes.url("models.view")
        if kind is Kind.SHORT_TERM:
            toast = rx.toast.error("Sorry", description=message or rules.SHORT_TERMS_LOAD_FAILED, position="top-right",
                                   duration=6000)
        else:
            toast = toast_error(message or GENERIC)
        return [toast, rx.redirect(target)]

    @rx.event
    def on_load(self):
        name, params = routes.match(self.router.url.path)
        kind = PAGE_ROUTES.get(name or "", Kind.LONG_TERM)
        self._reset(kind)
        model_id = params.get("id", "")
        try:
            actor = self._actor()
        except AuthenticationError:
            return None  # check_login, first in on_load, sends the user to sign in
        refused = self._send_client_home(actor)
        if refused:
            return refused
        try:
            page = service.recommendations_page(actor=actor, model_id=model_id, kind=kind)
        except DomainError as exc:
            self.loading = False
            return self._load_failed(kind, exc.message, model_id)
        except Exception as exc:  # noqa: BLE001 - the screen must never stay blank
            log.exception("recommendations load failed", exc_info=exc)
            self.loading = False
            return self._load_failed(kind, "", model_id)
        model = page["model"]
        self._model_id = int(model["id"])
        self._firm_id = int(model["firm_id"])
        self.firm_id = self._firm_id
        self.model_name = model["name"]
        self.can_edit = bool(model["can_edit"])
        self.details_url = routes.url("models.details", id=self._model_id)
        segment = "long-terms" if kind is Kind.LONG_TERM else "recommendations"
        self.download_path = f"/api/{segment}/{self._model_id}/export-csv"
        self.rows = [_row(kind, r) for r in page["rows"]]
        self.loading = False
        return None

    def _reload(self, actor) -> None:
        """The saved rows again, keeping rows that are still being edited (new ones first)."""
        page = service.recommendations_page(actor=actor, model_id=self._model_id, kind=self._kind())
        self.can_edit = bool(page["model"]["can_edit"])
        editing = {r["key"]: r for r in self.rows if r["editing"]}
        fresh = [_row(self._kind(), r) for r in page["rows"]]
        fresh = [editing.get(r["key"], r) for r in fresh]
        self.rows = [r for r in editing.values() if r["is_new"]] + fresh
        self._sync_dirty()

    # ---- helpers ----------------------------------------------------------------------------------
    def _find(self, key: Any) -> RecRow | None:
        return next((r for r in self.rows if r["key"] == key), None)

    def _put(self, row: RecRow) -> None:
        self.rows = [row if r["key"] == row["key"] else r for r in self.rows]

    def _drop(self, key: str) -> None:
        self.rows = [r for r in self.rows if r["key"] != key]
        self._sync_dirty()

    def _sync_dirty(self) -> None:
        self.form_dirty = any(r["editing"] for r in self.rows)

    def _writer(self):
        """The actor when this screen may change things, else None (the service checks again)."""
        actor = self._actor()
        return actor if self.can_edit and self._model_id else None

    def _errors_for(self, row: RecRow) -> dict[str, str]:
        """The same rules as the service (app.domain.recommendations), for the row's inputs."""
        kind = self._kind()
        _, errors = rules.clean_recommendation(kind, {"action": row["e_action"], "comment": row["e_comment"],
                                                      "price": row["e_price"], "yield": row["e_yield"]})
        if row["is_new"]:
            if not row["asset_id"]:
                errors["code"] = (rules.UNKNOWN_ASSET.format(code=row["e_code"]) if row["e_code"]
                                  else v.REQUIRED_SELECT.format(label="asset"))
            if "action" not in errors and rules.is_hold_without_comment(kind, row["e_action"], row["e_comment"]):
                errors["comment"] = rules.COMMENT_REQUIRED
        return errors

    def _show_errors(self, row: RecRow, errors: dict[str, str]) -> RecRow:
        return RecRow(**{**row, "err_code": errors.get("code", errors.get("asset_id", "")),
                         "err_action": errors.get("action", ""), "err_comment": errors.get("comment", ""),
                         "err_price": errors.get("price", ""), "err_yield": errors.get("yield", "")})

    # ---- rows: add, edit, cancel ---------------------------------------------------------------------
    @rx.event
    def add_row(self):
        try:
            if self._writer() is None:
                return None
        except DomainError as exc:
            return self._fail(exc)
        self._new_keys += 1
        self.rows = [_new_row(self._kind(), f"n{self._new_keys}")] + self.rows
        self._sync_dirty()
        return None

    @rx.event
    def edit_row(self, key: str):
        try:
            if self._writer() is None:
                return None
        except DomainError as exc:
            return self._fail(exc)
        row = self._find(key)
        if row is None or row["editing"]:
            return None
        self._put(RecRow(**{**row, "editing": True, "tried": False, "e_action": row["action"], "e_comment": row["comment"],
                            "e_price": row["price"], "e_yield": row["yld"], "err_code": "", "err_action": "",
                            "err_comment": "", "err_price": "", "err_yield": ""}))
        self._sync_dirty()
        return None

    @rx.event
    def cancel_row(self, key: str):
        """A new row goes; an existing one shows its saved action and comment again (spec 000 s4)."""
        row = self._find(key)
        if row is None:
            return None
        if row["is_new"]:
            self._drop(key)
            return None
        self._put(_row(self._kind(), {"id": row["id"], "asset_id": row["asset_id"], "asset": {"code": row["code"], "name": row["name"]},
                                      "code": row["code"], "name": row["name"], "action": row["action"], "comment": row["comment"],
                                      "price": row["price"] or None, "yield": row["yld"] or None, "model_asset": row["in_model"]}))
        self._sync_dirty()
        return None

    @rx.event
    def set_edit(self, key: str, field: str, value: Any):
        row = self._find(key)
        if row is None or not row["editing"] or field not in EDIT_FIELDS:
            return None
        text = _text(value)
        if field == "code":
            if not row["is_new"]:
                return None
            text = asset_service.normalise_code(text)[:CODE_MAX]
            row = RecRow(**{**row, "e_code": text, "asset_id": 0, "name": ""})  # a changed code clears the asset
        elif field == "comment":
            row = RecRow(**{**row, "e_comment": text[: rules.COMMENT_MAX + 1]})
        else:
            row = RecRow(**{**row, f"e_{field}": text[:TEXT_MAX] if field != "action" else text})
        if row["tried"]:
            row = self._show_errors(row, self._errors_for(row))
        self._put(row)
        return None

    @rx.event
    def lookup_code(self, key: str):
        """The typed code, uppercased, looked up among the assets the model's firm may use; an
        unknown code is marked invalid and the asset cleared (spec 002 s5)."""
        row = self._find(key)
        if row is None or not row["is_new"] or not row["editing"]:
            return None
        try:
            actor = self._writer()
            if actor is None:
                return None
            code = row["e_code"]
            found = _find_asset(actor, code, self._firm_id)
        except DomainError as exc:
            return self._fail(exc)
        row = self._find(key) or row
        if not code:
            row = RecRow(**{**row, "asset_id": 0, "name": "", "err_code": v.REQUIRED_SELECT.format(label="asset") if row["tried"] else ""})
        elif found is None:
            row = RecRow(**{**row, "asset_id": 0, "name": "", "err_code": rules.UNKNOWN_ASSET.format(code=code)})
        else:
            row = RecRow(**{**row, "asset_id": found["id"], "code": found["code"], "name": found["name"],
                            "e_code": found["code"], "err_code": ""})
        self._put(row)
        return None

    @rx.event
    async def asset_picked(self, target: str):
        """The asset picker's choice for a new row (target: the row's key)."""
        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, target)
        row = self._find(target)
        if asset is None or row is None or not row["is_new"] or not row["editing"]:
            return None
        row = RecRow(**{**row, "asset_id": int(asset["id"]), "code": asset["code"], "name": asset["name"],
                        "e_code": asset["code"], "err_code": ""})
        if row["tried"]:
            row = self._show_errors(row, self._errors_for(row))
        self._put(row)
        return None

    # ---- saving ---------------------------------------------------------------------------------
    def _save(self, actor, row: RecRow) -> tuple[bool, list]:
        """(saved, events) for one editing row."""
        kind = self._kind()
        row = RecRow(**{**row, "tried": True})
        if row["is_new"] and not row["asset_id"] and row["e_code"]:
            found = _find_asset(actor, row["e_code"], self._firm_id)
            if found is not None:
                row = RecRow(**{**row, "asset_id": found["id"], "code": found["code"], "name": found["name"], "e_code": found["code"]})
        errors = self._errors_for(row)
        if row["is_new"] and not errors:
            duplicate = next((r for r in self.rows if not r["is_new"] and r["asset_id"] == row["asset_id"]), None)
            if duplicate is not None:
                errors["code"] = kind.duplicate.format(code=row["code"])
        row = self._show_errors(row, errors)
        self._put(row)
        if errors:
            return False, [toast_error(_headline(errors))]
        data = {"action": row["e_action"], "comment": row["e_comment"]}
        if kind is Kind.SHORT_TERM:
            data.update(price=row["e_price"], **{"yield": row["e_yield"]})
        if not row["is_new"] and rules.is_hold_without_comment(kind, row["e_action"], row["e_comment"]) and kind is Kind.LONG_TERM:
            # an existing long-term hold without a comment: ask whether to delete it (spec 000 s4)
            self._confirm = ("hold", row["key"])
            self.confirm_message = rules.HOLD_DELETE_QUESTION.format(code=row["code"])
            self.confirm_label = "Delete"
            self.confirm_open = True
            return False, []
        try:
            if row["is_new"]:
                data.update(model_id=self._model_id, asset_id=row["asset_id"])
                saved = (service.create_long_term if kind is Kind.LONG_TERM else service.create_short_term)(actor=actor, data=data)
            elif kind is Kind.LONG_TERM:
                saved = service.update_long_term(actor=actor, rec_id=row["id"], data=data)
            else:
                saved = service.update_short_term(actor=actor, rec_id=row["id"], data=data)
        except ValidationError as exc:
            self._put(self._show_errors(row, {("code" if k == "asset_id" else k): t for k, t in exc.fields.items()}))
            return False, [toast_error(exc.message)]
        except DomainError as exc:
            return False, [self._fail(exc)]
        if saved.get("deleted"):  # a short-term update to hold without a comment deletes it (spec 001 s4)
            self._drop(row["key"])
        else:
            fresh = _row(kind, saved)
            if row["is_new"]:
                self.rows = [r for r in self.rows if r["key"] != row["key"]]
                self.rows = [r for r in self.rows if r["is_new"]] + sorted(
                    [r for r in self.rows if not r["is_new"]] + [fresh], key=lambda r: (r["code"], r["id"]))
            else:
                self._put(fresh)
        self._sync_dirty()
        return True, [toast_success(saved["message"])]

    @rx.event
    def save_row(self, key: str):
        row = self._find(key)
        if row is None or not row["editing"]:
            return None
        try:
            actor = self._writer()
            if actor is None:
                return None
        except DomainError as exc:
            return self._fail(exc)
        return self._save(actor, row)[1]

    @rx.event
    def save_and_leave(self):
        """The leave dialog's Save: every row being edited is saved; then go where the user was going."""
        self.leave_open = False
        try:
            actor = self._writer()
        except DomainError as exc:
            return self._fail(exc)
        events: list = []
        ok = actor is not None
        for row in [r for r in self.rows if r["editing"]]:
            if actor is None:
                break
            saved, more = self._save(actor, row)
            events.extend(more)
            ok = ok and saved
        if ok and not self.confirm_open:
            self.form_dirty = False
            events.append(rx.redirect(self.leave_to or "/"))
        return events

    # ---- delete, delete all -----------------------------------------------------------------------
    @rx.event
    def ask_delete(self, key: str):
        row = self._find(key)
        if row is None or row["is_new"] or not self.can_edit:
            return None
        self._confirm = ("delete", key)
        self.confirm_message = f"Are you sure you want to delete the recommendation for {row['code']}?"
        self.confirm_label = "Delete"
        self.confirm_open = True
        return None

    @rx.event
    def ask_delete_all(self):
        if not self.can_edit:
            return None
        if not any(not r["is_new"] for r in self.rows):
            return toast_error(rules.NOTHING_TO_REMOVE)
        self._confirm = ("delete_all",)
        what = "long term recommendations" if self._kind() is Kind.LONG_TERM else "short term recommendations"
        self.confirm_message = f"Are you sure you want to delete all {what} of {self.model_name}?"
        self.confirm_label = "Delete all"
        self.confirm_open = True
        return None

    @rx.event
    def cancel_confirm(self):
        self.confirm_open = False
        self._confirm = ()

    @rx.event
    def confirm(self):
        self.confirm_open = False
        step, self._confirm = self._confirm, ()
        if not step:
            return None
        kind = self._kind()
        try:
            actor = self._writer()
            if actor is None:
                return None
        except DomainError as exc:
            return self._fail(exc)
        row = self._find(step[1]) if len(step) > 1 else None
        if step[0] in ("delete", "hold") and (row is None or row["is_new"]):
            return None
        try:
            if step[0] == "delete_all":
                if kind is Kind.LONG_TERM:
                    service.delete_all_long_terms(actor=actor, model_id=self._model_id)
                    done = rules.LONG_TERMS_ALL_DELETED
                else:
                    service.delete_all_short_terms(actor=actor, model_id=self._model_id)
                    done = rules.SHORT_TERMS_ALL_DELETED
                self.rows = [r for r in self.rows if r["is_new"]]
                self._sync_dirty()
                return toast_success(done)
            if kind is Kind.LONG_TERM:
                service.delete_long_term(actor=actor, rec_id=row["id"])
                done = rules.LONG_TERM_DELETED
            else:
                service.mark_short_terms_deleted(actor=actor, ids=[row["id"]])
                done = rules.SHORT_TERM_DELETED
        except AuthenticationError as exc:
            return self._fail(exc)
        except DomainError as exc:
            if kind is Kind.LONG_TERM:  # spec 000 s8: a failed delete says so
                return toast_error(rules.LONG_TERMS_NOT_DELETED)
            return toast_error(exc.message)
        self._drop(row["key"])
        return toast_success(done)

    # ---- download -----------------------------------------------------------------------------
    @rx.event
    def nothing_to_download(self):
        return toast_error(rules.NOTHING_TO_DOWNLOAD)

    # ---- upload ---------------------------------------------------------------------------------
    @rx.event
    def open_upload(self):
        if not self.can_edit:
            return None
        self.upload_type = "amend"
        self.upload_error = ""
        self.upload_open = True
        return rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    def close_upload(self):
        self.upload_open = False
        self.upload_error = ""
        return rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    def set_upload_type(self, value: str):
        self.upload_type = value if value in ("amend", "replace") else "amend"

    @rx.event
    def set_upload_open(self, value: bool):
        """Escape or a click outside closes the upload modal (never while uploading)."""
        if not value and not self.uploading:
            self.upload_open = False
            self.upload_error = ""

    @rx.event
    def no_file(self):
        self.upload_error = rules.SELECT_FILE

    @rx.event
    def close_failure(self):
        self.failure_open = False
        self.failure_message = ""

    @rx.event
    async def upload(self, files: list[rx.UploadFile]):
        try:
            actor = self._writer()
            if actor is None:
                return
        except DomainError as exc:
            yield self._fail(exc)
            return
        if not files:
            self.upload_error = rules.SELECT_FILE
            return
        upload = files[0]
        data = await upload.read(rules.MAX_UPLOAD_BYTES + 1)
        content_type = upload.content_type or ""
        self.uploading = True
        yield
        try:
            await asyncio.to_thread(service.upload, actor=actor, kind=self._kind(), model_ids=[self._model_id],
                                    content_type=content_type, data=data, upload_type=self.upload_type)
        except AuthenticationError as exc:
            self.uploading = False
            yield self._fail(exc)
            return
        except DomainError as exc:
            self.uploading = False
            self.upload_open = False
            self.failure_message = exc.message
            self.failure_open = True
            yield rx.clear_selected_files(UPLOAD_ID)
            return
        self.uploading = False
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
        return len([r for r in self.rows if not r["is_new"]])

    @rx.var
    def count_text(self) -> str:
        n = len([r for r in self.rows if not r["is_new"]])
        return f"{n} recommendation" + ("" if n == 1 else "s")


def _headline(errors: dict[str, str]) -> str:
    """The toast for a refused row: the specification's own text where it has one."""
    if errors.get("comment") == rules.COMMENT_REQUIRED:
        return rules.COMMENT_REQUIRED
    if "code" in errors and len(errors) == 1:
        return errors["code"]
    return INVALID_FORM


def _find_asset(actor, code: str, firm_id: int) -> dict[str, Any] | None:
    """The usable asset with this code for the model's firm, or None."""
    from app.db.engine import session_scope

    code = asset_service.normalise_code(code)
    if not code:
        return None
    with session_scope() as s:
        found = asset_service.find_by_codes(s, actor, [code], firm_id=firm_id).get(code)
        return None if found is None else {"id": found.id, "code": found.code, "name": found.name}


# ---- bulk upload --------------------------------------------------------------------------------
class BulkUploadState(AppState):
    """bulk-upload.long-terms and bulk-upload.short-terms: choose a firm (superuser), select models,
    upload one file to all of them, see each model's outcome."""

    kind: str = Kind.LONG_TERM.value
    loading: bool = True
    firms: list[FirmOption] = []
    firm_filter: str = ALL_FIRMS
    models: list[BulkModel] = []
    selected: list[int] = []
    select_error: str = ""

    upload_open: bool = False
    upload_type: str = "amend"
    upload_error: str = ""
    uploading: bool = False

    results_open: bool = False
    results_title: str = ""
    results: list[UploadResult] = []

    failure_open: bool = False
    failure_message: str = ""

    @rx.event
    def on_load(self):
        name, _ = routes.match(self.router.url.path)
        self.kind = BULK_ROUTES.get(name or "", Kind.LONG_TERM).value
        self.loading = True
        self.firms = []
        self.firm_filter = ALL_FIRMS
        self.models = []
        self.selected = []
        self.select_error = ""
        self.upload_open = False
        self.results_open = False
        self.failure_open = False
        self.uploading = False
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        refused = self._send_client_home(actor)
        if refused:
            return refused
        try:
            if actor.is_superuser:
                self.firms = [FirmOption(id=ALL_FIRMS, name="All Firms")] + [
                    FirmOption(id=str(o["id"]), name=o["name"]) for o in firm_service.firm_options(actor=actor)]
            return self._load_models(actor)
        finally:
            self.loading = False

    def _load_models(self, actor):
        try:
            found = service.upload_candidates(actor=actor, kind=Kind(self.kind),
                                              firm_id=self.firm_filter if actor.is_superuser else None)
        except DomainError as exc:
            self.models = []
            return self._fail(exc)
        self.models = [BulkModel(id=m["id"], name=m["name"], firm=m["firm"]["name"] or "", status=m["status"]) for m in found]
        known = {m["id"] for m in self.models}
        self.selected = [i for i in self.selected if i in known]
        return None

    @rx.event
    def set_firm_filter(self, value: str):
        if value not in {f["id"] for f in self.firms}:
            return None
        self.firm_filter = value
        try:
            actor = self._actor()
        except DomainError as exc:
            return self._fail(exc)
        return self._load_models(actor)

    @rx.event
    def toggle(self, model_id: int, checked: bool):
        try:
            model_id = int(model_id)
        except (TypeError, ValueError):
            return
        if model_id not in {m["id"] for m in self.models}:
            return
        rest = [i for i in self.selected if i != model_id]
        self.selected = rest + [model_id] if checked else rest
        if self.selected:
            self.select_error = ""

    @rx.event
    def select_all(self):
        self.selected = [m["id"] for m in self.models]
        if self.selected:
            self.select_error = ""

    @rx.event
    def select_none(self):
        self.selected = []

    @rx.event
    def set_all(self, checked: bool):
        if checked:
            self.selected = [m["id"] for m in self.models]
            self.select_error = ""
        else:
            self.selected = []

    @rx.event
    def open_upload(self):
        if not self.selected:
            self.select_error = rules.SELECT_MODEL
            return toast_error(rules.SELECT_MODEL_TOAST)
        self.upload_type = "amend"
        self.upload_error = ""
        self.upload_open = True
        return rx.clear_selected_files(BULK_UPLOAD_ID)

    @rx.event
    def close_upload(self):
        self.upload_open = False
        self.upload_error = ""
        return rx.clear_selected_files(BULK_UPLOAD_ID)

    @rx.event
    def set_upload_type(self, value: str):
        self.upload_type = value if value in ("amend", "replace") else "amend"

    @rx.event
    def set_upload_open(self, value: bool):
        """Escape or a click outside closes the upload modal (never while uploading)."""
        if not value and not self.uploading:
            self.upload_open = False
            self.upload_error = ""

    @rx.event
    def no_file(self):
        self.upload_error = rules.SELECT_FILE

    @rx.event
    def close_results(self):
        self.results_open = False

    @rx.event
    def close_failure(self):
        self.failure_open = False
        self.failure_message = ""

    @rx.event
    async def upload(self, files: list[rx.UploadFile]):
        try:
            actor = self._actor()
        except DomainError as exc:
            yield self._fail(exc)
            return
        known = {m["id"] for m in self.models}
        chosen = [i for i in self.selected if i in known]
        if not chosen:
            self.upload_open = False
            self.select_error = rules.SELECT_MODEL
            yield toast_error(rules.SELECT_MODEL_TOAST)
            return
        if not files:
            self.upload_error = rules.SELECT_FILE
            return
        upload = files[0]
        data = await upload.read(rules.MAX_UPLOAD_BYTES + 1)
        content_type = upload.content_type or ""
        self.uploading = True
        yield
        try:
            result = await asyncio.to_thread(service.upload, actor=actor, kind=Kind(self.kind), model_ids=chosen,
                                             content_type=content_type, data=data, upload_type=self.upload_type)
        except AuthenticationError as exc:
            self.uploading = False
            yield self._fail(exc)
            return
        except DomainError as exc:
            self.uploading = False
            self.upload_open = False
            self.failure_message = exc.message
            self.failure_open = True
            yield rx.clear_selected_files(BULK_UPLOAD_ID)
            return
        self.uploading = False
        self.upload_open = False
        self.results = [UploadResult(model_id=r["model_id"], name=r["name"], success=r["success"], message=r["message"])
                        for r in result["rows"]]
        self.results_title = result["message"]
        self.results_open = True
        done = toast_success(result["message"]) if not result["failed"] else toast_error(result["message"])
        yield [rx.clear_selected_files(BULK_UPLOAD_ID), done]

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def title(self) -> str:
        return "Upload " + TITLES[Kind(self.kind)]

    @rx.var
    def selected_text(self) -> str:
        return f"{len(self.selected)} of {len(self.models)} selected"

    @rx.var
    def all_selected(self) -> bool:
        return bool(self.models) and len(self.selected) == len(self.models)

    @rx.var
    def is_superuser_view(self) -> bool:
        return self.user_role == Role.SUPERUSER.value
