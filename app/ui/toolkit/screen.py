"""The screen toolkit: the mechanics every screen state shares, written once.

- `guarded`: the error funnel. A handler body raises the services' errors; the decorator turns an
  AuthenticationError into the sign-in redirect and a DomainError into the error toast (with
  AppState._fail), for plain, generator and async handlers alike.
- `Viewer`: the signed-in user's role as a screen's own var (see why in its docstring).
- `screen_load`: the on_load preamble. Resolves the actor (check_login, first in every page's
  on_load, sends a signed-out user to sign in), sends a client home from a staff-only screen, runs
  the screen's `load(self, actor)`, and on failure shows the message (or the screen's default) and,
  where the screen names one, goes back to its list.
- `Confirm`: one confirmation dialog per screen; what is confirmed (action and id) is held on the
  server, so a browser cannot confirm something it was never asked about.
- `UploadDialog`: the upload modal's open / close / error / busy mechanics; `UploadFailure`: the
  dialog of a refused file.
- `FormDialog`: a modal form of text fields with per-field errors, checked as it changes once saved.
- `SavingForm`: a form page's Save and the unsaved-changes dialog's Save.
- `ExportLinks`: a screen's Excel and PDF download links.

Paging and sorting live in app.ui.toolkit.lists (Paged, ListControls); formatters in app.ui.display.
A mixin's hooks (`_reload`, `_confirmed`, `_export_path`) are implemented by the screen."""
from __future__ import annotations

import asyncio
import functools
import inspect
from typing import Any, Callable, ClassVar, cast

import reflex as rx

from app.domain.errors import AuthenticationError, DomainError, GENERIC, ValidationError
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.uploads import MAX_UPLOAD_BYTES
from app.ui.states.base import AppState, toast_error, toast_sorry
from app.ui.toolkit.rows import Detail


def events(*items: Any) -> list[Any]:
    """Events to send, flattening lists and dropping None: `return events(toast, self._reload())`."""
    out: list[Any] = []
    for item in items:
        if item is None:
            continue
        if isinstance(item, (list, tuple)):
            out.extend(events(*item))
        else:
            out.append(item)
    return out


# ---- the error funnel -------------------------------------------------------------------------------
def guarded(handler: Callable) -> Callable:
    """Turn the services' errors raised by `handler` into what the user sees (AppState._fail)."""
    if inspect.isasyncgenfunction(handler):
        @functools.wraps(handler)
        async def async_gen_wrapper(self, *args, **kwargs):
            try:
                async for item in handler(self, *args, **kwargs):
                    yield item
            except (AuthenticationError, DomainError) as exc:
                yield self._fail(exc)
        return async_gen_wrapper
    if inspect.iscoroutinefunction(handler):
        @functools.wraps(handler)
        async def async_wrapper(self, *args, **kwargs):
            try:
                return await handler(self, *args, **kwargs)
            except (AuthenticationError, DomainError) as exc:
                return self._fail(exc)
        return async_wrapper
    if inspect.isgeneratorfunction(handler):
        @functools.wraps(handler)
        def gen_wrapper(self, *args, **kwargs):
            try:
                return (yield from handler(self, *args, **kwargs))
            except (AuthenticationError, DomainError) as exc:
                yield self._fail(exc)
        return gen_wrapper

    @functools.wraps(handler)
    def wrapper(self, *args, **kwargs):
        try:
            return handler(self, *args, **kwargs)
        except (AuthenticationError, DomainError) as exc:
            return self._fail(exc)
    return wrapper


class SorryFailures(rx.State, mixin=True):
    """The transaction areas (spec 002 s8): a refusal is 'Sorry!' with the server's message (or the
    screen's SORRY_DEFAULT when it has none); a sign-in failure goes to sign in as anywhere."""

    SORRY_DEFAULT: ClassVar[str] = ""

    def _fail(self, exc: Exception):
        if isinstance(exc, DomainError) and not isinstance(exc, AuthenticationError):
            return toast_sorry(exc.message or self.SORRY_DEFAULT)
        return AppState._fail(cast(AppState, self), exc)  # every screen mixing this in is an AppState


# ---- who is looking --------------------------------------------------------------------------------
class Viewer(rx.State, mixin=True):
    """The signed-in user's role as the screen's own var, kept current by `screen_load`.

    A screen's computed vars that depend on the role read `viewer_role`, never the frame's
    `user_role`: a computed var of a screen that depends on a var of AppState makes every event of
    every screen load, recompute and store that screen's state too (with Redis, one fetch and one
    write of each such screen per click)."""

    viewer_role: str = ""

    def _reset_screen(self) -> None:
        """Every var of the screen back to its default, but who is looking (screen_load set it)."""
        role = self.viewer_role
        self.reset()
        self.viewer_role = role

    @rx.var
    def viewer_is_superuser(self) -> bool:
        return self.viewer_role == Role.SUPERUSER.value


# ---- the on_load preamble -------------------------------------------------------------------------
def screen_load(*, clients: bool = True, failed: str = GENERIC,
                back: Callable[[Any, Actor], str] | None = None) -> Callable:
    """Decorate `def load(self, actor)` into the screen's `on_load` handler.

    clients: whether a client may open the screen (if not, they go home with the refusal);
    failed: the toast when the load fails with no message of its own;
    back: where to go when the load fails (the list of a one-object screen), from (self, actor); ''
          stays on the screen."""
    def decorate(load: Callable) -> Callable:
        def _failure(self, actor: Actor, exc: Exception):
            if isinstance(exc, AuthenticationError):
                return self._fail(exc)
            if not isinstance(exc, DomainError):
                raise exc
            if "loading" in self.base_vars:
                self.loading = False  # the skeleton gives way to the empty screen
            shown = toast_error(exc.message or failed)
            target = back(self, actor) if back is not None else ""
            return [shown, rx.redirect(target)] if target else shown

        def _actor_or_refusal(self):
            try:
                actor = self._actor()
            except AuthenticationError:
                return None, None  # check_login, first in on_load, sends the user to sign in
            if not clients and actor.role is Role.CLIENT:
                return None, self._send_client_home(actor)
            if "viewer_role" in self.base_vars:
                self.viewer_role = actor.role.value
            return actor, None

        # a list takes its page, size, sort, search and filters from its address (lists.py)
        from app.ui.toolkit.lists import loaded_from_address, loading_from_address

        if inspect.isgeneratorfunction(load):
            def on_load(self):
                actor, refusal = _actor_or_refusal(self)
                if actor is None:
                    yield refusal
                    return
                loading_from_address(self)
                try:
                    result = yield from load(self, actor)
                    again = loaded_from_address(self)
                except (AuthenticationError, DomainError) as exc:
                    yield _failure(self, actor, exc)
                    return
                for item in events(result, again):
                    yield item
        else:
            def on_load(self):
                actor, refusal = _actor_or_refusal(self)
                if actor is None:
                    return refusal
                loading_from_address(self)
                try:
                    result = load(self, actor)
                    again = loaded_from_address(self)
                except (AuthenticationError, DomainError) as exc:
                    return _failure(self, actor, exc)
                return events(result, again) if again is not None else result

        on_load.__doc__ = load.__doc__
        on_load.__module__ = load.__module__
        # the handler keeps the decorated method's own name: a state with two loads (a portfolio's screen
        # and a client's) must not register both under one name
        on_load.__name__, on_load.__qualname__ = load.__name__, load.__qualname__
        return on_load
    return decorate


# ---- a confirmation dialog ------------------------------------------------------------------------
class Confirm(rx.State, mixin=True):
    """`self._ask(action, message, target_id)` opens the dialog; Confirm calls
    `self._confirmed(action, target_id)` (the screen's hook), Cancel forgets the question."""

    confirm_open: bool = False
    confirm_message: str = ""
    confirm_label: str = "Delete"  # the confirming button
    _confirm_action: str = ""
    _confirm_id: int = 0

    def _ask(self, action: str, message: str, target_id: int = 0, label: str = "Delete") -> None:
        self._confirm_action, self._confirm_id = action, target_id
        self.confirm_message, self.confirm_label = message, label
        self.confirm_open = True

    def _confirmed(self, action: str, target_id: int) -> Any:  # pragma: no cover - each screen acts
        raise NotImplementedError

    @rx.event
    def cancel_confirm(self):
        self.confirm_open = False
        self._confirm_action, self._confirm_id = "", 0

    @rx.event
    def set_confirm_open(self, value: bool):
        """Escape or a click outside closes the dialog (it never confirms)."""
        if not value:
            self.confirm_open = False
            self._confirm_action, self._confirm_id = "", 0

    @rx.event
    def confirm(self):
        action, target_id = self._confirm_action, self._confirm_id
        self.confirm_open = False
        self._confirm_action, self._confirm_id = "", 0
        if not action:
            return None
        try:
            return self._confirmed(action, target_id)
        except (AuthenticationError, DomainError) as exc:
            return self._fail(exc)


# ---- an upload modal --------------------------------------------------------------------------------
class UploadDialog(rx.State, mixin=True):
    """The upload modal: open, close (never while uploading), the file's error, busy. The screen
    names its upload component's id (UPLOAD_ID) and the text for no file chosen (SELECT_FILE),
    and writes its own `upload` handler: either `if not self._start_upload(files): return`, then
    `_upload_done` when the service has answered; or, for a file the service takes whole, the
    events of `_send_upload` with its hooks `_upload_refused` and `_uploaded`."""

    UPLOAD_ID: ClassVar[str] = "upload"
    SELECT_FILE: ClassVar[str] = "Please select a file"

    upload_open: bool = False
    upload_error: str = ""
    uploading: bool = False

    def _reset_upload(self) -> None:
        self.upload_open = False
        self.upload_error = ""
        self.uploading = False

    def _start_upload(self, files: list[Any]) -> bool:
        """Busy with the file chosen; False (and SELECT_FILE in the modal) when none was."""
        if not files:
            self.upload_error = self.SELECT_FILE
            return False
        self.uploading = True
        self.upload_error = ""
        return True

    @staticmethod
    async def _file_of(files: list[Any]) -> tuple[bytes, str]:
        """The chosen file's bytes (one past the upload limit at most, so that the service tells a
        larger file apart without the browser sending it all) and its content type."""
        return await files[0].read(MAX_UPLOAD_BYTES + 1), files[0].content_type or ""

    def _upload_done(self, error: str = "") -> Any:
        """The upload finished: an error stays in the open modal, success closes it."""
        self.uploading = False
        self.upload_error = error
        if error:
            return None
        self.upload_open = False
        return rx.clear_selected_files(self.UPLOAD_ID)

    async def _send_upload(self, actor: Actor, files: list[Any], service: Callable[..., Any]):
        """The chosen file handed to `service(actor=, data=, content_type=)` off the event loop. Yields
        the events to send: none first (the modal shows it is busy), then the screen's
        `_upload_refused(exc)` for a refused file, or its `_uploaded(actor, result)`. Any other
        failure leaves the modal no longer busy and goes on to the error funnel (`guarded`)."""
        if not self._start_upload(files):
            return
        data, content_type = await self._file_of(files)
        yield None
        try:
            result = await asyncio.to_thread(service, actor=actor, data=data, content_type=content_type)
        except ValidationError as exc:
            yield self._upload_refused(exc)
            return
        finally:
            self.uploading = False
        yield self._uploaded(actor, result)

    def _upload_refused(self, exc: ValidationError) -> Any:
        """The service refused the file: why, in the open modal."""
        return self._upload_done(exc.message)

    def _uploaded(self, actor: Actor, result: Any) -> Any:  # pragma: no cover - each screen says what follows
        raise NotImplementedError

    # The page clears the file chosen at the click that calls this (`open_upload_events`): a clear
    # sent back by the server could arrive after the user has already chosen the file.
    @rx.event
    def open_upload(self):
        self.upload_error = ""
        self.upload_open = True

    @rx.event
    def close_upload(self):
        if self.uploading:
            return None
        self.upload_open = False
        self.upload_error = ""
        return rx.clear_selected_files(self.UPLOAD_ID)

    @rx.event
    def set_upload_open(self, value: bool):
        """Escape or a click outside closes the modal (never while uploading)."""
        if not value and not self.uploading:
            self.upload_open = False
            self.upload_error = ""

    @rx.event
    def no_file(self):
        self.upload_error = self.SELECT_FILE


class UploadFailure(rx.State, mixin=True):
    """The dialog of a refused upload: why, and each refused line where the service names them."""

    failure_open: bool = False
    failure_message: str = ""
    failure_lines: list[Detail] = []

    def _show_failure(self, message: str, lines: list[Detail] | None = None) -> None:
        self.failure_message, self.failure_lines = message, lines or []
        self.failure_open = True

    @rx.event
    def close_failure(self):
        self.failure_open = False
        self.failure_message = ""
        self.failure_lines = []


# ---- a modal form -----------------------------------------------------------------------------------
class FormDialog(rx.State, mixin=True):
    """A modal form of text fields: `_open_form(values)`, `set_form_field`, per-field errors from the
    service's ValidationError (`_form_failed`). FORM_FIELDS names the fields a browser may set (a
    screen whose forms take different fields says which in `_form_fields()`).

    A screen that checks the form itself implements `_check_form()` and saves with `_save_form`:
    the fields are checked on Save and, from that first attempt on, as they change. LEAVE_GUARD:
    an edited form holds navigation (the unsaved-changes dialog) until it is saved or closed."""

    FORM_FIELDS: ClassVar[tuple[str, ...]] = ()
    LEAVE_GUARD: ClassVar[bool] = False

    form_open: bool = False
    form: dict[str, str] = {}
    form_errors: dict[str, str] = {}
    form_submitted: bool = False
    saving: bool = False

    def _form_fields(self) -> tuple[str, ...]:
        return self.FORM_FIELDS

    def _blank_form(self, values: Any) -> Any:
        """The form the dialog opens on: each field's text from `values` (a typed form's dialog
        takes its form object as given)."""
        given = values or {}
        return {key: "" if given.get(key) is None else str(given.get(key)) for key in self._form_fields()}

    def _open_form(self, values: Any = None) -> None:
        self.form = self._blank_form(values)
        self.form_errors = {}
        self.form_submitted = False
        self.saving = False
        self.form_open = True

    def _close_form(self) -> None:
        self.form_open = False
        self.form_errors = {}
        self.saving = False
        if self.LEAVE_GUARD:
            self.form_dirty = False

    def _form_failed(self, exc: DomainError) -> Any:
        """Field errors stay beside their fields; anything else is a toast."""
        self.saving = False
        fields = getattr(exc, "fields", None) or {}
        shown = {key: message for key, message in fields.items() if key in self._form_fields()}
        self.form_errors = shown
        if shown and len(shown) == len(fields):
            return None
        return self._fail(exc)

    def _check_form(self) -> dict[str, str]:
        """The screen's check of the form: each wrong field's error text."""
        return {}

    def _field_errors(self, errors: dict[str, str]) -> dict[str, str]:
        return {key: text for key, text in errors.items() if key in self._form_fields() and text}

    def _recheck_form(self) -> None:
        """After the first save attempt the marks follow the form."""
        if self.form_submitted:
            self.form_errors = self._field_errors(self._check_form())

    def _with_edits(self, values: dict[str, str]) -> Any:
        """The form with the fields typed or chosen (a typed form's dialog replaces its attributes)."""
        return {**self.form, **values}

    def _form_edited(self, values: dict[str, str]) -> None:
        """Fields typed or chosen: checked again after the first save attempt, else their marks go."""
        self.form = self._with_edits(values)
        if self.LEAVE_GUARD:
            self.form_dirty = True
        if self.form_submitted:
            self._recheck_form()
        elif any(key in self.form_errors for key in values):
            self.form_errors = {k: v for k, v in self.form_errors.items() if k not in values}

    def _save_form(self, invalid: Callable[[dict[str, str]], Any], write: Callable[[], Any]) -> Any:
        """Save once (a second click while saving is ignored): a form `_check_form` finds wrong shows
        `invalid(errors)`; else `write()` calls the service, closes the form and returns the events
        to send. A ValidationError marks the fields it names and goes on to the error funnel
        (`guarded` on the handler)."""
        if self.saving:
            return None
        self.form_submitted = True
        self.form_errors = self._field_errors(self._check_form())
        if self.form_errors:
            return invalid(self.form_errors)
        self.saving = True
        try:
            return write()
        except ValidationError as exc:
            self.form_errors = self._field_errors(exc.fields)
            raise
        finally:
            self.saving = False

    @rx.event
    def set_form_field(self, key: str, value: str):
        if key in self._form_fields():
            self._form_edited({key: str(value or "")[:500]})

    @rx.event
    def close_form(self):
        if not self.saving:
            self._close_form()

    @rx.event
    def set_form_open(self, value: bool):
        if not value and not self.saving:
            self._close_form()


# ---- a form's saving ------------------------------------------------------------------------------
class SavingForm(rx.State, mixin=True):
    """A form's Save and the unsaved-changes dialog's Save. Once the acting user is known and the
    screen's `_editable()` allows it, the form counts as submitted (its fields are checked from then
    on) and the screen's `_save(actor, then)` returns the events to send (`then`: where to go once
    saved; None lets the screen decide). A second click while saving is ignored. An edit calls
    `_changed()`, which checks the form again (the screen's `_validate()`) once it was submitted."""

    saving: bool = False
    submitted: bool = False

    def _editable(self) -> bool:  # pragma: no cover - each form says when it may change
        raise NotImplementedError

    def _save(self, actor: Actor, then: str | None) -> Any:  # pragma: no cover - each form saves its own
        raise NotImplementedError

    def _validate(self) -> None:  # pragma: no cover - each form checks its own fields
        raise NotImplementedError

    def _changed(self) -> None:
        """The form was edited: it holds navigation until saved, and once submitted it is checked again."""
        self.form_dirty = True
        if self.submitted:
            self._validate()

    def _saving(self, then: str | None):
        if self.saving:
            return
        self.saving = True
        yield
        try:
            actor = self._actor()
            if not self._editable():
                return
            self.submitted = True
            shown = self._save(actor, then)
        except AuthenticationError as exc:
            shown = self._fail(exc)
        finally:
            self.saving = False
        yield shown

    @rx.event
    def save(self, _form: dict | None = None):
        yield from self._saving(None)

    @rx.event
    def save_and_leave(self):
        self.leave_open = False
        yield from self._saving(self.leave_to or None)


# ---- the download links -----------------------------------------------------------------------------
class ExportLinks(rx.State, mixin=True):
    """A screen's Excel and PDF links, without the token (the page adds it and the browser's offset):
    the screen builds each with `_export_path(kind)`, kind being "excel" or "pdf"."""

    def _export_path(self, kind: str) -> str:  # pragma: no cover - each screen links its own export
        raise NotImplementedError

    @rx.var
    def excel_path(self) -> str:
        return self._export_path("excel")

    @rx.var
    def pdf_path(self) -> str:
        return self._export_path("pdf")


def open_upload_events(state: Any) -> list[Any]:
    """What a page's "Upload" button sends: the file chosen before cleared in the browser at once,
    then the state's `open_upload` (which opens the modal)."""
    return [rx.clear_selected_files(state.UPLOAD_ID), state.open_upload]
