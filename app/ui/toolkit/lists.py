"""Paging and sorting, written once for every list and table screen.

`Paged`: the page number, the page size (one of PAGE_SIZES), the total, the page buttons shown, and
the handlers to change page or page size. A page out of range is clamped to the nearest page.
`ListControls` adds the sort column and direction (SORT_KEYS; DESCENDING_FIRST names the columns that
sort newest or largest first) and the search text. Either one calls the screen's `_reload()` (load
the page again; it returns the events to send) after a change. `LoadMore` is a ListControls list
that grows by a page at a time instead of turning pages. `InRecord`: the breadcrumbs of a list shown
inside one record's pages (a client's portfolios, a firm's advisers). `RowPages`: a list whose rows
open their own pages. `FirmChoice`: the superuser's firm select of a list or report."""
from __future__ import annotations

import json
import math
from typing import Any, Callable, ClassVar, Mapping
from urllib.parse import urlencode

import reflex as rx

from app.domain.engine.trade_file import ALL_FIRMS
from app.domain.errors import AuthenticationError, DomainError, GENERIC
from app.domain.permissions import Actor
from app.services import firms as firm_service
from app.services.listing import DEFAULT_PAGE_SIZE, PAGE_SIZES
from app.ui import routes
from app.ui.parse import to_int
from app.ui.states.base import AppState, toast_error
from app.ui.toolkit.rows import Option, offers

SEARCH_MAX = 200
PAGE_WINDOW = 6  # page buttons shown at once

# The list's state in its address (002 s9: page key page, limit key limit_per_page), so that the
# browser's Back, a reload, a bookmark or a copied link show the list as it was left.
PAGE_KEY, LIMIT_KEY, SORT_KEY, ORDER_KEY, SEARCH_KEY = "page", "limit_per_page", "sort", "order", "search"
FIRM_KEY = "firm"  # the superuser's firm choice (FirmChoice)


def loading_from_address(state: Any) -> None:
    """screen_load, before the screen's load: a list takes its state from its address."""
    if isinstance(state, Paged):
        state._take_address()


def loaded_from_address(state: Any) -> Any:
    """screen_load, after the screen's load: a load that reset the list to its defaults takes the
    address's state again and loads those rows (the events to send, or None)."""
    if isinstance(state, Paged) and state._take_address():
        return state._reload()
    return None


def visible_pages(page: int, pages: int, window: int = PAGE_WINDOW) -> list[int]:
    """The page numbers to show as buttons: a window of `window` pages around `page`."""
    pages = max(1, pages)
    start = max(1, min(page - window // 2, pages - window + 1))
    return list(range(start, min(pages, start + window - 1) + 1))


class Paged(rx.State, mixin=True):
    PAGE_SIZES: ClassVar[tuple[int, ...]] = PAGE_SIZES
    DEFAULT_SIZE: ClassVar[int] = DEFAULT_PAGE_SIZE
    NOTHING_SHOWN: ClassVar[str] = "Showing 0 of 0"  # what `showing` says of an empty list
    # the screen's own filters kept in the address with the page: a text var's name -> how a text
    # from the address is read into it (as the screen reads its own choice; None refuses it)
    ADDRESS_FILTERS: ClassVar[Mapping[str, Callable[[str], Any]]] = {}
    # select filters kept in the address: a var's name -> the name of the var holding its options (a
    # value is taken once the options are loaded, if they offer it); `set_choice(name, value)` picks one
    ADDRESS_CHOICES: ClassVar[Mapping[str, str]] = {}

    page: int = 1
    page_size: str = str(DEFAULT_PAGE_SIZE)
    total: int = 0

    def _reload(self) -> Any:  # pragma: no cover - each list loads its own rows
        raise NotImplementedError

    # ---- the address ----------------------------------------------------------------------------
    def _address_fields(self) -> dict[str, tuple[str, Callable[[str], Any]]]:
        """query key -> (the var it sets, how a text from the address is read: None refuses it)."""
        firm = {FIRM_KEY: ("firm_filter", lambda v: v if self.show_firm and offers(self.firm_options, v) else None)} \
            if isinstance(self, FirmChoice) else {}
        return {PAGE_KEY: ("page", lambda v: to_int(v) if (to_int(v) or 0) >= 1 else None),
                LIMIT_KEY: ("page_size", lambda v: v if to_int(v) in self.PAGE_SIZES else None),
                **firm, **{name: (name, read) for name, read in self.ADDRESS_FILTERS.items()},
                **{name: (name, self._offered_by(options)) for name, options in self.ADDRESS_CHOICES.items()}}

    def _offered_by(self, options: str) -> Callable[[str], Any]:
        """How an address's value of a select filter is read: taken if the select offers it."""
        return lambda v: v if offers(getattr(self, options), v) else None

    def _take_address(self) -> bool:
        """The list's state as its address names it; whether anything changed."""
        query = self.router.url.query_parameters or {}
        fields = type(self).get_fields()
        changed = False
        for key, (name, read) in self._address_fields().items():
            value = query.get(key)
            wanted = read(value[:SEARCH_MAX]) if isinstance(value, str) and name in fields else None
            if wanted is not None:
                if getattr(self, name) != wanted:
                    setattr(self, name, wanted)
                    changed = True
        return changed

    def _address(self) -> str:
        """The screen's address with the list's state as it is now (what differs from the defaults)."""
        fields = type(self).get_fields()
        ours = self._address_fields()
        query = {k: v for k, v in (self.router.url.query_parameters or {}).items()
                 if k not in ours and isinstance(v, str)}
        for key, (name, _) in ours.items():
            value = getattr(self, name)
            default = fields[name].default if name in fields else None
            if value not in (None, "", []) and str(value) != str(default):
                # a list filter (several statuses ticked) is one comma-separated value
                query[key] = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        return self.router.url.path + (f"?{urlencode(query)}" if query else "")

    def _keep_address(self) -> Any:
        """The browser's address follows the list (no new history entry, no navigation)."""
        address = self._address()
        return rx.call_script(f"window.history.replaceState(window.history.state, '', {json.dumps(address)})")

    def _reloaded(self) -> list[Any]:
        shown = self._reload()
        return [*(shown if isinstance(shown, (list, tuple)) else [shown] if shown is not None else []),
                self._keep_address()]

    def _limit(self) -> int:
        """The page size as a number (the screen's default unless it is one of the offered sizes)."""
        size = to_int(self.page_size) or 0
        return size if size in self.PAGE_SIZES else self.DEFAULT_SIZE

    def _offset(self) -> int:
        return (self.page - 1) * self._limit()

    def _page_count(self) -> int:
        return max(1, math.ceil(self.total / self._limit()))

    def _reload_first_page(self) -> Any:
        """A filter, the sort or the page size changed: back to the first page, loaded again (and
        the address says so)."""
        self.page = 1
        return self._reloaded()

    def _clamp_page(self) -> None:
        """After a reload: a page past the end (rows removed, a narrower filter) becomes the last."""
        self.page = min(max(1, self.page), self._page_count())

    def _fetch_page(self, fetch: Callable[[], tuple[list[Any], int]]) -> list[Any]:
        """The rows of the page from `fetch()` (which reads the page and its size), with the total. A
        page emptied since it was shown (its rows deleted or moved on) steps back to the last one."""
        rows, self.total = fetch()
        if not rows and self.total and self.page > 1:
            self._clamp_page()
            rows, self.total = fetch()
        return rows

    def _chosen(self) -> Any:
        """A select filter took a new value: the list from its first page (a screen that does more
        on a choice says so here)."""
        return self._reload_first_page()

    @rx.event
    def set_choice(self, name: str, value: str):
        """A select filter of ADDRESS_CHOICES: a value its select offers, or the filter's default
        (the all choice), is taken and the list reloaded; anything else is ignored."""
        options = self.ADDRESS_CHOICES.get(name)
        field = type(self).get_fields().get(name)
        if options is None or field is None:
            return None
        if not (offers(getattr(self, options), value) or value == field.default):
            return None
        setattr(self, name, value)
        return self._chosen()

    @rx.event
    def go_page(self, page: Any):
        number = to_int(page)
        if number is None:
            return None
        self.page = min(max(1, number), self._page_count())
        return self._reloaded()

    @rx.event
    def set_page_size(self, value: str):
        if to_int(value) not in self.PAGE_SIZES:
            return None
        self.page_size = str(value)
        return self._reload_first_page()

    @rx.var
    def pages(self) -> int:
        return self._page_count()

    @rx.var
    def visible(self) -> list[int]:
        return visible_pages(self.page, self._page_count())

    @rx.var
    def showing(self) -> str:
        """'Showing 21–40 of 95', or the screen's NOTHING_SHOWN."""
        if not self.total:
            return self.NOTHING_SHOWN
        first = (self.page - 1) * self._limit() + 1
        return f"Showing {first}\u2013{min(self.total, self.page * self._limit())} of {self.total}"


class ListControls(Paged, mixin=True):
    SORT_KEYS: ClassVar[tuple[str, ...]] = ()
    DESCENDING_FIRST: ClassVar[tuple[str, ...]] = ()

    sort: str = "name"
    order: str = "asc"
    search: str = ""

    def _address_fields(self) -> dict[str, tuple[str, Callable[[str], Any]]]:
        return {**super()._address_fields(),
                SORT_KEY: ("sort", lambda v: v if v in self.SORT_KEYS else None),
                ORDER_KEY: ("order", lambda v: v if v in ("asc", "desc") else None),
                SEARCH_KEY: ("search", lambda v: v)}

    @rx.event
    def toggle_sort(self, key: str):
        """Sort by `key`; the same key again reverses the direction. Back to the first page."""
        if key not in self.SORT_KEYS:
            return None
        if self.sort == key:
            self.order = "desc" if self.order == "asc" else "asc"
        else:
            self.sort, self.order = key, "desc" if key in self.DESCENDING_FIRST else "asc"
        return self._reload_first_page()

    @rx.event
    def set_search(self, value: str):
        self.search = str(value or "")[:SEARCH_MAX]
        return self._reload_first_page()


def _row_id(row: Any) -> Any:
    return row["id"] if isinstance(row, dict) else getattr(row, "id", None)


class LoadMore(ListControls, mixin=True):
    """A list that shows its first page and adds the next on "Load more" (firms, models, portfolios).
    The screen declares `rows` and implements `_fetch(actor, offset, limit) -> (rows, total)`; a failed
    load shows the service's message or LIST_FAILED (spec 000 s8)."""

    LIST_FAILED: ClassVar[str] = GENERIC

    loading: bool = True
    loading_more: bool = False

    def _fetch(self, actor: Actor, offset: int, limit: int) -> tuple[list[Any], int]:  # pragma: no cover
        raise NotImplementedError

    def _list_failed(self, exc: Exception) -> Any:
        if isinstance(exc, DomainError) and not isinstance(exc, AuthenticationError):
            return toast_error(exc.message or self.LIST_FAILED)
        return self._fail(exc)

    def _reload(self, limit: int | None = None) -> Any:
        """The first page again (or as many rows as were shown, after a delete)."""
        self.loading = True
        try:
            self.rows, self.total = self._fetch(self._actor(), 0, limit or self._limit())
        except (AuthenticationError, DomainError) as exc:
            self.rows, self.total = [], 0
            return self._list_failed(exc)
        finally:
            self.loading = False
        return None

    def _reload_after_delete(self) -> Any:
        """One row fewer, the rest as they were shown."""
        return self._reload(max(len(self.rows) - 1, self._limit()))

    @rx.event
    def load_more(self):
        if self.loading_more or len(self.rows) >= self.total:
            return None
        self.loading_more = True
        yield
        try:
            more, self.total = self._fetch(self._actor(), len(self.rows), self._limit())
            known = {_row_id(r) for r in self.rows}
            self.rows = self.rows + [r for r in more if _row_id(r) not in known]
        except (AuthenticationError, DomainError) as exc:
            yield self._list_failed(exc)
        finally:
            self.loading_more = False

    @rx.var
    def has_more(self) -> bool:
        return len(self.rows) < self.total

    @rx.var
    def showing(self) -> str:
        return f"Showing {len(self.rows)} of {self.total}"


# the kind of record a list is inside -> (the title of the records' list, its route, the record's own page)
RECORD_PAGES: dict[str, tuple[str, str, str]] = {
    "client": ("Clients", "clients.list", "clients.view"),
    "adviser": ("Advisers", "advisers.list", "advisers.view"),
    "firm": ("Firms", "firms.list", "firms.view"),
    "model": ("Models", "models.view", "models.details"),
}


class InRecord(rx.State, mixin=True):
    """The breadcrumbs of a list inside one record's pages: the records' list, then the record."""

    parent_title: str = ""
    parent_url: str = ""
    context_name: str = ""
    context_url: str = ""

    def _inside(self, kind: str, record_id: int, name: str) -> None:
        """The list is the record's (its id and name), a record of `kind` (one of RECORD_PAGES)."""
        self.parent_title, parent_route, own_route = RECORD_PAGES[kind]
        self.parent_url = routes.url(parent_route)
        self.context_name, self.context_url = name, routes.url(own_route, id=record_id)


def row_href(route_name: str, row_id: Any) -> Any:
    """The address of a row's page (a route taking the row's id) as a Var of the row: the href of
    the row's link (widgets.clickable_row), so a new tab, a bookmark or a copied link open it."""
    head, _, tail = routes.ROUTES[route_name].partition("[id]")
    return rx.Var.create(head) + rx.Var.create(row_id).to(str) + tail


class RowPages(rx.State, mixin=True):
    """A list whose rows open their own pages: ROW_ROUTES names the routes (each taking the row's
    id) a row may open; leaving goes through the unsaved-changes guard."""

    ROW_ROUTES: ClassVar[frozenset[str]] = frozenset()

    @rx.event
    def open_row(self, route_name: str, row_id: Any):
        row_id = to_int(row_id)
        if route_name not in self.ROW_ROUTES or row_id is None:
            return None
        return AppState.navigate(routes.url(route_name, id=row_id))


class FirmChoice(rx.State, mixin=True):
    """The superuser's firm select: the all-firms choice first, then every live firm; everyone
    else reads their own firm and has no select. A screen names its all-firms choice (ALL_FIRMS,
    ALL_FIRMS_LABEL) as the specification gives it: ('-2', 'All Firms') on the trade file, orders
    and bulk screens (the default), ('-1', 'All firms') on the reports and the dashboard. It calls
    `_load_firms(actor)` on load; a choice (`set_firm_filter`) reloads a Paged list from its first
    page, or does what the screen's `_firm_chosen()` says."""

    ALL_FIRMS: ClassVar[str] = str(ALL_FIRMS)
    ALL_FIRMS_LABEL: ClassVar[str] = "All Firms"

    show_firm: bool = False
    firm_filter: str = str(ALL_FIRMS)
    firm_options: list[Option] = []

    def _load_firms(self, actor: Actor, keep: bool = False) -> None:
        """The select's choices for `actor`, on the all-firms choice (or, with `keep`, on the firm
        chosen before where it is still offered)."""
        chosen = self.firm_filter
        self.show_firm = actor.is_superuser
        self.firm_options = [Option(value=self.ALL_FIRMS, label=self.ALL_FIRMS_LABEL)] if actor.is_superuser else []
        if actor.is_superuser:
            try:
                self.firm_options += [Option(value=str(o.id), label=o.name) for o in firm_service.firm_options(actor=actor)]
            except DomainError:
                pass  # the select keeps the all-firms choice alone
        offered = keep and any(o.value == chosen for o in self.firm_options)
        self.firm_filter = chosen if offered else self.ALL_FIRMS

    def _firm_id(self) -> str:
        """The chosen firm's id, or the all-firms id (everyone but the superuser: their own firm)."""
        return self.firm_filter if self.show_firm else self.ALL_FIRMS

    def _pick_firm(self, value: str) -> bool:
        """Take the choice if the select offers it; False (nothing changed) otherwise."""
        if not self.show_firm or not offers(self.firm_options, value):
            return False
        self.firm_filter = value
        return True

    def _firm_chosen(self) -> Any:
        """Another firm was chosen: the events to send (a Paged list, its first page again)."""
        return self._reload_first_page()

    @rx.event
    def set_firm_filter(self, value: str):
        if not self._pick_firm(str(value or self.ALL_FIRMS)):
            return None
        try:
            return self._firm_chosen()
        except (AuthenticationError, DomainError) as exc:
            return self._fail(exc)
