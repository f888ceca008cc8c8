"""The industry groups screen (route industry-groups): the list in idx order with colour, title and
linked assets; the superuser adds, renames, recolours, reorders (drag or move up/down) and deletes.

Every handler resolves the signed-in user from the token and goes through
app.services.industry_groups, which checks permission; the id being edited or deleted stays in
backend-only vars. The editor validates with the service's own rules (clean_industry_group)."""
from __future__ import annotations

import reflex as rx

from app.domain import industry_groups as rules
from app.domain.errors import Conflict, DomainError, GENERIC, ValidationError
from app.domain.permissions import Actor, can_manage_universe
from app.services import industry_groups as service
from app.ui.parse import to_int as _int
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.toolkit.screen import Confirm, events, guarded, screen_load
from app.ui.toolkit.rows import field_errors

NO_ERRORS = {"title": "", "color": ""}


def _blocked_toast(message: str, helper: str):
    """A refused delete: the message, and the helper text under it."""
    return rx.toast.error(message, description=helper, position="top-right", duration=8000)


def moved(ids: list[int], moving: int, target: int) -> list[int]:
    """The order after dropping `moving` on `target`: it takes the target's place (the rows between shift)."""
    if moving == target or moving not in ids or target not in ids:
        return list(ids)
    order = [i for i in ids if i != moving]
    order.insert(ids.index(target), moving)
    return order


class IndustryGroupsState(Confirm, AppState):
    rows: list[service.IndustryGroupView] = []
    loading: bool = True
    can_manage: bool = False

    # the add / edit dialog
    editor_open: bool = False
    editor_mode: str = "new"  # new | edit
    editor_title: str = ""
    editor_color: str = rules.PALETTE[0]
    editor_errors: dict[str, str] = NO_ERRORS
    editor_submitted: bool = False
    saving: bool = False
    _editor_id: int = 0

    # drag and drop (display only; the drop handler re-checks everything)
    drag_id: int = 0
    over_id: int = 0
    reordering: bool = False

    # ---- loading --------------------------------------------------------------------------------
    def _reload(self):
        """The list again; a failed load shows the message and an empty list."""
        try:
            self.rows = service.list_industry_groups(actor=self._actor())
        except DomainError as exc:
            self.rows = []
            return self._fail(exc) if exc.message else toast_error(GENERIC)
        return None

    @rx.event
    @screen_load(clients=False)
    def on_load(self, actor: Actor):
        self.editor_open = self.confirm_open = False
        self.drag_id = self.over_id = 0
        self.can_manage = can_manage_universe(actor)
        self.loading = True
        failed = self._reload()
        self.loading = False
        return failed

    # ---- add / edit -----------------------------------------------------------------------------
    def _validate(self) -> None:
        others = [r.title for r in self.rows if r.id != self._editor_id]
        _, found = rules.clean_industry_group({"title": self.editor_title, "color": self.editor_color},
                                              other_titles=others)
        self.editor_errors = field_errors(found, NO_ERRORS)

    def _open_editor(self, group_id: int, title: str, color: str) -> None:
        self._editor_id = group_id
        self.editor_mode = "edit" if group_id else "new"
        self.editor_title, self.editor_color = title, color
        self.editor_errors = NO_ERRORS
        self.editor_submitted = False
        self.editor_open = True

    @rx.event
    @guarded
    def new_group(self):
        if can_manage_universe(self._actor()):
            self._open_editor(0, "", rules.next_color(r.color for r in self.rows))

    @rx.event
    @guarded
    def edit_group(self, group_id: int):
        actor = self._actor()
        row = next((r for r in self.rows if r.id == _int(group_id)), None)
        if row is not None and can_manage_universe(actor):
            self._open_editor(row.id, row.title, row.color)

    @rx.event
    def set_editor_title(self, value: str):
        self.editor_title = str(value or "")[:200]
        if self.editor_submitted:
            self._validate()

    @rx.event
    def set_editor_color(self, value: str):
        self.editor_color = str(value or "")[:20]
        if self.editor_submitted:
            self._validate()

    @rx.event
    def set_editor_open(self, open_: bool):
        if not open_:
            self.editor_open = False
            self._editor_id = 0

    @rx.event
    @guarded
    def save_group(self, _form: dict | None = None):
        if self.saving or not self.editor_open:
            return None
        actor = self._actor()
        self.editor_submitted = True
        self._validate()
        if self.editor_errors["title"] or self.editor_errors["color"]:
            return None
        form = rules.read_form({"title": self.editor_title, "color": self.editor_color})
        self.saving = True
        try:
            if self.editor_mode == "edit" and self._editor_id:
                service.update_industry_group(actor=actor, group_id=self._editor_id, form=form)
            else:
                service.create_industry_group(actor=actor, form=form)
        except ValidationError as exc:
            self.editor_errors = field_errors(exc.fields, NO_ERRORS)
            raise
        finally:
            self.saving = False
        self.editor_open = False
        self._editor_id = 0
        return events(toast_success(service.SAVED), self._reload())

    # ---- delete ---------------------------------------------------------------------------------
    @rx.event
    def ask_delete(self, group_id: int):
        row = next((r for r in self.rows if r.id == _int(group_id)), None)
        if row is not None and self.can_manage:
            self._ask("delete", rules.confirm_delete_message(row.title), row.id)

    def _confirmed(self, action: str, group_id: int):
        try:
            service.delete_industry_group(actor=self._actor(), group_id=group_id)
        except service.HasLinkedAssets as exc:
            return events(_blocked_toast(exc.message, exc.helper), self._reload())
        return events(toast_success(service.DELETED), self._reload())

    # ---- reorder --------------------------------------------------------------------------------
    @guarded
    def _apply_order(self, ids: list[int]):
        if ids == [r.id for r in self.rows]:
            return None
        actor = self._actor()
        self.reordering = True
        try:
            order = [rules.GroupPosition(id=gid, idx=i) for i, gid in enumerate(ids)]
            rows = service.reorder_industry_groups(actor=actor, items=order)
        except Conflict as exc:  # someone else changed the list: show theirs
            return events(toast_error(exc.message), self._reload())
        finally:
            self.reordering = False
        self.rows = rows
        return toast_success(service.REORDERED)

    @rx.event
    def drag_start(self, group_id: int):
        self.drag_id = _int(group_id) or 0
        self.over_id = 0

    @rx.event
    def drag_enter(self, group_id: int):
        if self.drag_id:
            self.over_id = _int(group_id) or 0

    @rx.event
    def drag_end(self):
        self.drag_id = self.over_id = 0

    @rx.event
    def drop_on(self, group_id: int):
        moving, target = self.drag_id, _int(group_id) or 0
        self.drag_id = self.over_id = 0
        if not moving or not target or moving == target or not self.can_manage:
            return None
        return self._apply_order(moved([r.id for r in self.rows], moving, target))

    @rx.event
    def move(self, group_id: int, step: int):
        """The keyboard-friendly way: one place up (-1) or down (+1)."""
        ids = [r.id for r in self.rows]
        gid, places = _int(group_id), _int(step)
        if gid is None or gid not in ids or places not in (-1, 1) or places is None or not self.can_manage:
            return None
        to = ids.index(gid) + places
        if not 0 <= to < len(ids):
            return None
        return self._apply_order(moved(ids, gid, ids[to]))

    # ---- what the screen shows --------------------------------------------------------------------
    @rx.var
    def editor_heading(self) -> str:
        return "Edit industry group" if self.editor_mode == "edit" else "New industry group"

    @rx.var
    def last_id(self) -> int:
        return self.rows[-1].id if self.rows else 0

    @rx.var
    def first_id(self) -> int:
        return self.rows[0].id if self.rows else 0

    @rx.var
    def palette(self) -> list[str]:
        return list(rules.PALETTE)
