"""The asset universe screen (assets.list): the table of listed assets with search, class and
industry group filters, sorting and pages; a row opens the asset's details with its recent price
history; the superuser also imports prices (CSV / Excel) and creates or edits assets.

Every handler resolves the signed-in user from the token and goes through app.services.assets,
which checks permission and scopes by firm. The id of the asset shown or edited stays in
backend-only vars; anything else a browser sends is re-checked by the service."""
from __future__ import annotations

import logging
from typing import Any, ClassVar, Mapping

import reflex as rx

from app.domain import prices as price_rules
from app.domain.assets import ASSET_FORM_KEYS, ASSET_SORTS, clean_asset
from app.domain.errors import GENERIC, INVALID_FORM, AuthenticationError, DomainError
from app.domain.permissions import Actor
from app.services import assets
from app.ui.display import close_price, day, input_number
from app.ui.parse import to_int as _int
from app.ui.rows.assets import (
    NONE, AssetRow, ColourOption, PriceImport, RecentPrice, Rejected, asset_form, asset_view, colour_options,
    firm_colour_options,
)
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.toolkit.lists import ListControls
from app.ui.toolkit.rows import performance_of
from app.ui.toolkit.screen import FormDialog, UploadDialog, events, guarded, screen_load

log = logging.getLogger("app.ui.assets")

ALL = "all"
UPLOAD_ID = "prices-upload"
UPLOAD_FAILED = "The file upload was unsuccessful"
UPLOAD_COMPLETE = "The file upload is now complete"
HISTORY_DAYS = 180
RECENT_ROWS = 10
PICK_TARGET = "assets.find"  # the asset picker's target key for "Find asset"


class AssetsState(FormDialog, UploadDialog, ListControls, AppState):
    """/assets: staff see the shared universe and their firm's assets; the superuser sees and keeps all."""
    ADDRESS_CHOICES: ClassVar[Mapping[str, str]] = {"class_filter": "class_options", "group_filter": "group_options"}

    FORM_FIELDS: ClassVar[tuple[str, ...]] = ASSET_FORM_KEYS
    LEAVE_GUARD: ClassVar[bool] = True
    SORT_KEYS: ClassVar[tuple[str, ...]] = ASSET_SORTS
    UPLOAD_ID: ClassVar[str] = UPLOAD_ID
    SELECT_FILE: ClassVar[str] = "Please, choose a CSV or Excel file first."

    sort: str = "code"
    rows: list[AssetRow] = []
    loading: bool = True
    class_filter: str = ALL
    group_filter: str = ALL
    class_options: list[ColourOption] = []
    type_options: list[ColourOption] = []
    group_options: list[ColourOption] = []
    firm_options: list[ColourOption] = []

    # details
    detail_open: bool = False
    detail_loading: bool = False
    detail: AssetRow = AssetRow()
    detail_prices_count: int = 0
    chart: list[dict[str, Any]] = []  # {"day": "DD/MM", "close": float}: floats for drawing only
    recent: list[RecentPrice] = []
    _detail_id: int = 0

    # price import (the upload modal's open / busy / error come from UploadDialog)
    price_import: PriceImport = PriceImport()

    # the asset form (the form dialog: form, form_errors, saving, form_open)
    form_mode: str = "new"
    _edit_id: int = 0

    # ---- loading ---------------------------------------------------------------------------------
    def _failed(self, exc: DomainError):
        """A failed read: the service's message, or the default text."""
        return self._fail(exc) if exc.message else toast_error(GENERIC)

    def _reload(self):
        self.loading = True
        try:
            page = assets.list_assets(
                actor=self._actor(), limit=self._limit(), offset=self._offset(), sort=self.sort, order=self.order,
                search=self.search, class_id=None if self.class_filter == ALL else _int(self.class_filter),
                industry_group_id=None if self.group_filter == ALL else _int(self.group_filter))
            self.rows, self.total = [asset_view(a) for a in page.rows], page.total
        except DomainError as exc:
            self.rows, self.total = [], 0
            return self._failed(exc)
        finally:
            self.loading = False
        return None

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.detail_open = self.upload_open = self.form_open = False
        self.rows = []
        self.loading = True
        yield
        self.loading = False
        opts = assets.filter_options(actor=actor)
        self.class_options, self.type_options = colour_options(opts.classes), colour_options(opts.types)
        self.group_options, self.firm_options = colour_options(opts.industry_groups), firm_colour_options(opts.firms)
        return self._reload()

    # ---- filters (the class and industry group selects: ListControls.set_choice) ------------------------
    @rx.event
    def clear_filters(self):
        self.search = ""
        self.class_filter = self.group_filter = ALL
        return self._reload_first_page()

    # ---- details -------------------------------------------------------------------------------------
    def _load_detail(self, asset_id: int):
        actor = self._actor()
        found = assets.get_asset(actor=actor, asset_id=asset_id)
        history = assets.price_history(actor=actor, asset_id=asset_id, limit=HISTORY_DAYS)
        self._detail_id = found.id
        self.detail = asset_view(found)
        self.detail_prices_count = history.total
        # the chart draws floats; every figure shown as text comes from the Decimals
        self.chart = [{"day": day(p.date)[:5], "close": float(p.close or 0)} for p in history.rows]
        newest_first = list(reversed(history.rows))
        recent: list[RecentPrice] = []
        for i, point in enumerate(newest_first[:RECENT_ROWS]):
            before = newest_first[i + 1].close if i + 1 < len(newest_first) else None
            change = price_rules.period_return(point.close, before)
            recent.append(RecentPrice(day=day(point.date), close=close_price(point.close),
                                      change=performance_of(change, "")))
        self.recent = recent

    def _show_detail(self, asset_id: int):
        self.detail_open = True
        self.detail_loading = True
        yield
        try:
            self._load_detail(asset_id)
        except DomainError as exc:
            self.detail_open = False
            yield self._failed(exc)
        finally:
            self.detail_loading = False

    @rx.event
    def open_asset(self, asset_id: Any):
        wanted = _int(asset_id)
        if wanted is not None:
            yield from self._show_detail(wanted)

    @rx.event
    async def asset_picked(self, target: str):
        """The asset picker's choice ("Find asset"): open that asset's details."""
        from app.ui.components.asset_picker import AssetPickerState, take_pick

        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, str(target or ""))
        if asset is not None and target == PICK_TARGET:
            for update in self._show_detail(int(asset["id"])):
                yield update

    @rx.event
    def set_detail_open(self, value: bool):
        self.detail_open = bool(value)
        if not value:
            self._detail_id = 0

    # ---- price import (superuser) -------------------------------------------------------------------
    def _reset_import(self) -> None:
        self.uploading = False
        self.upload_error = ""
        self.price_import = PriceImport()

    # The page clears the file chosen before it calls these (in the browser, at the click): a
    # clear sent back by the server could arrive after the user has already chosen the next file.
    @rx.event
    def open_upload(self):
        if not self.is_superuser:
            return
        self._reset_import()
        self.upload_open = True

    @rx.event
    def import_again(self):
        self._reset_import()

    @rx.event
    async def import_prices(self, files: list[rx.UploadFile]):
        if self.uploading:
            return
        self._reset_import()
        if not self._start_upload(files):
            return
        yield
        upload = files[0]
        try:
            actor = self._actor()
            data = await upload.read(price_rules.MAX_FILE_BYTES + 1)
            result = assets.import_prices(actor=actor, filename=upload.filename,
                                          content_type=upload.content_type, data=data)
        except AuthenticationError as exc:
            self.uploading = False
            yield self._fail(exc)
            return
        except DomainError as exc:
            self.uploading = False
            self.upload_error = exc.message
            if isinstance(exc, assets.NothingImported):  # no line could be imported: each is listed with its reason
                self._show_import(exc.report)
            yield [toast_error(UPLOAD_FAILED), rx.clear_selected_files(UPLOAD_ID)]
            return
        except Exception as exc:  # an unexpected failure must not leave the dialog spinning
            log.exception("price import failed", exc_info=exc)
            self.uploading = False
            self.upload_error = GENERIC
            yield toast_error(UPLOAD_FAILED)
            return
        self.uploading = False
        self._show_import(result)
        yield events(toast_success(UPLOAD_COMPLETE), rx.clear_selected_files(UPLOAD_ID), self._reload())

    def _show_import(self, report: assets.PriceReport) -> None:
        """The import's report in the dialog: what was written and each rejected line."""
        self.price_import = PriceImport(
            done=True, imported=report.imported, updated=report.updated, assets=report.assets,
            rejected=[Rejected(line=r.line, code=r.code, reason=r.reason) for r in report.rejected])

    # ---- the asset form (superuser) ------------------------------------------------------------------
    def _open_asset_form(self, mode: str, asset_id: int, values: dict[str, str]) -> None:
        self.form_mode, self._edit_id = mode, asset_id
        self._open_form(values)

    @rx.event
    def new_asset(self):
        if self.is_superuser:
            self._open_asset_form("new", 0, {"type_id": NONE, "industry_group_id": NONE, "firm_id": NONE})

    @rx.event
    @guarded
    def edit_asset(self):
        """Edit the asset shown in the details (its id is the backend's, never the browser's)."""
        if not self.is_superuser or not self._detail_id:
            return None
        found = assets.get_asset(actor=self._actor(), asset_id=self._detail_id)
        self._open_asset_form("edit", found.id, {
            "code": found.code, "name": found.name, "class_id": str(found.class_id),
            "type_id": str((found.type.id if found.type else None) or NONE),
            "industry_group_id": str(found.industry_group.id if found.industry_group else NONE),
            "firm_id": str(found.firm.id if found.firm else NONE),
            "dividend_yield": input_number(found.dividend_yield), "url": found.url or "",
        })
        self.detail_open = False
        return None

    def _check_form(self) -> dict[str, str]:
        return clean_asset(asset_form(self.form))[1]

    @rx.event
    def set_form_field(self, key: str, value: Any):
        if key not in ASSET_FORM_KEYS or not self.form_open:
            return None
        text = str(value if value is not None else "")[:400]
        self._form_edited({key: text.upper() if key == "code" else text})
        return None

    def _close_form(self) -> None:
        super()._close_form()
        self._edit_id = 0

    def _write(self) -> Any:
        """Create or update through the service; the events once saved."""
        actor = self._actor()
        data = asset_form(self.form)
        if self.form_mode == "edit" and self._edit_id:
            result = assets.update_asset(actor=actor, asset_id=self._edit_id, form=data)
        else:
            result = assets.create_asset(actor=actor, form=data)
        self._close_form()
        return events(toast_success(result.message), self._reload())

    @rx.event
    @guarded
    def save_asset(self):
        return self._save_form(lambda _errors: toast_error(INVALID_FORM), self._write)

    @rx.event
    @guarded
    def save_and_leave(self):
        """The leave dialog's Save: save the open form, then go where the user was going."""
        self.leave_open = False
        return self._save_form(lambda _errors: toast_error(INVALID_FORM),
                               lambda: events(self._write(), rx.redirect(self.leave_to or "/")))

    # ---- what the screen shows ------------------------------------------------------------------------
    @rx.var
    def has_filters(self) -> bool:
        return bool(self.search or self.class_filter != ALL or self.group_filter != ALL)

    @rx.var
    def empty_text(self) -> str:
        if self.has_filters:
            return "No asset matches these filters."
        return "The asset universe is empty: listed assets appear here once they are added."

    @rx.var
    def import_summary(self) -> str:
        r = self.price_import
        noun = "price" if r.imported == 1 else "prices"
        return (f"{r.imported} new {noun} imported, {r.updated} updated, for {r.assets} "
                f"asset{'' if r.assets == 1 else 's'}.")

    @rx.var
    def rejected_summary(self) -> str:
        count = len(self.price_import.rejected)
        return f"{count} line{'' if count == 1 else 's'} rejected" if count else ""

    @rx.var
    def form_title(self) -> str:
        return "Edit asset" if self.form_mode == "edit" else "New asset"

    @rx.var
    def chart_domain_note(self) -> str:
        return f"Last {len(self.chart)} closes" if self.chart else "No price history yet"
