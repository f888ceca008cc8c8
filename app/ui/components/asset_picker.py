"""A reusable, searchable asset picker (spec 002: "Assets picker modal for firm and model scope").

The picker is a dialog with a search box (code prefix or name) and the matching assets (code,
name, class, last close), driven by `AssetPickerState`. It searches through
`app.services.assets.search_assets` as the signed-in user: the firm scope is the shared universe
plus the firm's own assets (a superuser names the firm; everyone else always gets their own), and
the model scope narrows it to one asset class.

How a screen uses it:

1. Render the dialog once on the page, naming the event that receives a choice::

       from app.ui.components.asset_picker import AssetPickerState, asset_picker, take_pick

       asset_picker(on_pick=MyState.asset_picked)

2. Open it with a target key of your own (which slot is being filled), and the scope::

       rx.button("Add asset", on_click=AssetPickerState.open_for("class:3", firm_id, class_id))
       # firm_id / class_id may be None (no scope); an optional 4th argument is the dialog's title

3. Receive the choice. `on_pick` is called with the target key only; read the chosen asset from
   the picker's backend state, where it was taken from the picker's own search results (never
   from what the browser sends)::

       @rx.event
       async def asset_picked(self, target: str):
           picker = await self.get_state(AssetPickerState)
           asset = take_pick(picker, target)   # None unless this target's pick is waiting
           if asset is None:
               return
           # asset: {"id", "code", "name", "class_id", "class_title", "last_close_price"}
           ...

   `take_pick` hands a pick out once. The receiving screen still saves through its own service,
   which checks that the asset is usable for the record (a choice is a convenience, not a grant).

Only one picker dialog per page: several slots share it through their target keys.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.domain.errors import AuthenticationError, DomainError
from app.services import assets
from app.ui.components.widgets import cancel_button, modal
from app.ui.display import close_price
from app.ui.states.base import AppState, toast_error
from app.ui.parse import positive_int as _int

QUERY_MAX = 50
RESULTS = 20


@dataclasses.dataclass
class PickerRow:
    id: int = 0
    code: str = ""
    name: str = ""
    class_id: int = 0
    class_title: str = ""
    price: str = ""


class AssetPickerState(AppState):
    is_open: bool = False
    title: str = "Select asset"
    query: str = ""
    target: str = ""
    results: list[PickerRow] = []

    _firm_id: int | None = None
    _class_id: int | None = None
    _found: dict[int, dict[str, Any]] = {}  # what the last search offered, by id
    _picked: dict[str, Any] = {}  # {"target": ..., "asset": {...}} waiting for take_pick

    def _search(self):
        try:
            found = assets.search_assets(actor=self._actor(), query=self.query, firm_id=self._firm_id,
                                         class_id=self._class_id, limit=RESULTS)
        except AuthenticationError as exc:
            self.is_open = False
            return self._fail(exc)
        except DomainError as exc:
            self.results, self._found = [], {}
            return toast_error(exc.message)
        self._found = {a.id: {"id": a.id, "code": a.code, "name": a.name, "class_id": a.class_id,
                              "class_title": a.class_title or "",
                              "last_close_price": None if a.last_close_price is None else format(a.last_close_price, "f")}
                       for a in found}
        self.results = [PickerRow(id=a["id"], code=a["code"], name=a["name"], class_id=a["class_id"],
                                  class_title=a["class_title"], price=close_price(a["last_close_price"]))
                        for a in self._found.values()]
        return None

    @rx.event
    def open_for(self, target: str, firm_id: Any = None, class_id: Any = None, title: str = "Select asset"):
        """Open for a slot of the caller (`target`), searching a firm's assets (and one class)."""
        self.target = str(target or "")[:100]
        self.title = str(title or "Select asset")[:100]
        self._firm_id, self._class_id = _int(firm_id), _int(class_id)
        self.query = ""
        self._picked = {}
        self.is_open = True
        return self._search()

    @rx.event
    def set_query(self, value: str):
        if not self.is_open:
            return None
        self.query = str(value or "")[:QUERY_MAX]
        return self._search()

    def _close(self) -> None:
        self.is_open = False
        self.results, self._found = [], {}

    @rx.event
    def set_open(self, value: bool):
        if not value:
            self._close()

    @rx.event
    def close(self):
        self._close()

    @rx.event
    def choose(self, asset_id: Any):
        """Keep the chosen row for the caller (only a row this picker offered) and close."""
        asset = self._found.get(_int(asset_id) or 0)
        if asset is None:
            return None
        self._picked = {"target": self.target, "asset": dict(asset)}
        self._close()
        return None


def take_pick(picker: AssetPickerState, target: str) -> dict[str, Any] | None:
    """The asset chosen for `target` (once), or None. Call it from the `on_pick` handler."""
    picked = picker._picked
    if not picked or picked.get("target") != target:
        return None
    picker._picked = {}
    return dict(picked["asset"])


class PickerSlot(rx.State, mixin=True):
    """A form whose slots the picker fills (the model and portfolio forms): `_open_picker` opens it for
    one slot and remembers which; `_pick_for_slot(target)` hands out a pick only for that slot, so
    that a browser cannot fill a slot the picker was not opened for. The form forgets the slot
    (`_pick_target = ""`) once it has taken the pick."""

    _pick_target: str = ""

    def _open_picker(self, target: str, firm_id: Any, class_id: Any, title: str) -> Any:
        self._pick_target = target
        return AssetPickerState.open_for(target, firm_id, class_id, title)

    async def _pick_for_slot(self, target: str) -> dict[str, Any] | None:
        """The asset picked for `target` (once) when it is the slot the picker was opened for, else None."""
        picker = await self.get_state(AssetPickerState)
        asset = take_pick(picker, str(target or ""))
        return asset if asset is not None and target == self._pick_target else None


def _result_row(row: PickerRow, on_pick: Any) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.text(row.code, weight="bold"), white_space="nowrap"),
        rx.table.cell(rx.text(row.name, size="2")),
        rx.table.cell(rx.text(row.class_title, size="2", color=rx.color("gray", 11)), white_space="nowrap"),
        rx.table.cell(row.price, text_align="right", font_variant_numeric="tabular-nums", white_space="nowrap"),
        on_click=[AssetPickerState.choose(row.id), on_pick(AssetPickerState.target)],
        cursor="pointer",
        _hover={"background": rx.color("accent", 3)},
        class_name="asset-picker-row",
        custom_attrs={"data-code": row.code},
    )


def asset_picker(on_pick: Any, id_prefix: str = "asset-picker") -> rx.Component:
    """The picker dialog. `on_pick`: an event handler taking the target key (see the module docstring)."""
    return modal(
        AssetPickerState.title,
        rx.vstack(
            rx.input(
                rx.input.slot(rx.icon("search", size=16)),
                placeholder="Search by code or name",
                value=AssetPickerState.query,
                on_change=AssetPickerState.set_query.debounce(250),
                id=f"{id_prefix}-search",
                auto_focus=True,
                width="100%",
            ),
            rx.box(
                rx.table.root(
                    rx.table.header(rx.table.row(
                        rx.table.column_header_cell("Code"), rx.table.column_header_cell("Name"),
                        rx.table.column_header_cell("Class"),
                        rx.table.column_header_cell("Last close", text_align="right"),
                    ), position="sticky", top="0", background=rx.color("gray", 2), z_index="1"),
                    rx.table.body(
                        rx.cond(
                            AssetPickerState.results.length() > 0,
                            rx.foreach(AssetPickerState.results, lambda row: _result_row(row, on_pick)),
                            rx.table.row(rx.table.cell(
                                rx.text(rx.cond(AssetPickerState.query != "",
                                                "No asset matches \u201c" + AssetPickerState.query + "\u201d.",
                                                "There are no assets to choose from."),
                                        color=rx.color("gray", 10), size="2"),
                                col_span=4, padding_y="24px", text_align="center")),
                        ),
                        id=f"{id_prefix}-results",
                    ),
                    variant="ghost", size="1", width="100%",
                ),
                max_height="50vh", overflow_y="auto", width="100%",
            ),
            rx.text("Click an asset to choose it.", size="1", color=rx.color("gray", 10)),
            rx.hstack(
                rx.dialog.close(cancel_button(id=f"{id_prefix}-cancel")),
                justify="end", width="100%",
            ),
            spacing="3", width="100%",
        ),
        open_=AssetPickerState.is_open, on_open_change=AssetPickerState.set_open, max_width="640px", id_=id_prefix,
    )
