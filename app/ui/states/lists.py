"""List mechanics shared by the list screens: sort column and direction, search text, page size.

A screen state mixes this in (`class X(ListControls, AppState)`), names the sortable columns in
SORT_KEYS and implements `_reload()` (load the first page again; it returns the events to send)."""
from __future__ import annotations

from typing import Any, ClassVar

import reflex as rx

from app.services.listing import DEFAULT_PAGE_SIZE, PAGE_SIZES

SEARCH_MAX = 200


class ListControls(rx.State, mixin=True):
    SORT_KEYS: ClassVar[tuple[str, ...]] = ()

    sort: str = "name"
    order: str = "asc"
    search: str = ""
    page_size: str = str(DEFAULT_PAGE_SIZE)

    def _reload(self) -> Any:  # pragma: no cover - each list loads its own rows
        raise NotImplementedError

    def _limit(self) -> int:
        """The page size as a number (the default unless it is one of the offered sizes)."""
        size = int(self.page_size) if self.page_size.isdigit() else 0
        return size if size in PAGE_SIZES else DEFAULT_PAGE_SIZE

    @rx.event
    def toggle_sort(self, key: str):
        """Sort by `key`; the same key again reverses the direction."""
        if key not in self.SORT_KEYS:
            return None
        if self.sort == key:
            self.order = "desc" if self.order == "asc" else "asc"
        else:
            self.sort, self.order = key, "asc"
        return self._reload()

    @rx.event
    def set_search(self, value: str):
        self.search = str(value or "")[:SEARCH_MAX]
        return self._reload()

    @rx.event
    def set_page_size(self, value: str):
        if value not in {str(size) for size in PAGE_SIZES}:
            return None
        self.page_size = value
        return self._reload()
