"""What the advice screens about one portfolio share (the target portfolio, its record of advice and
the trade recommendations): the portfolio's head loaded by its id in the path, the current and
versions addresses, the load failure that goes back to the portfolios list, and the versions list
(newest first, 12 / 20 / 32 a page, spec 002 s9)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import reflex as rx

from app.domain.advice.target_portfolios import VERSION_PAGE_SIZES as ADVICE_PAGE_SIZES
from app.domain.permissions import Actor
from app.services import holdings as holdings_service
from app.ui import routes
from app.ui.parse import positive_int
from app.ui.toolkit.lists import Paged
from app.ui.states.portfolio_header import PortfolioHeader
from app.ui.toolkit.screen import guarded, screen_load

LOAD_FAILED = "Opps, something went wrong"
VERSION_PAGE_SIZES = [str(n) for n in ADVICE_PAGE_SIZES]


def load_failed(*, clients: bool = True):
    """The on_load preamble of these screens: a failure shows its message and goes back to the
    portfolios list (a client's own)."""
    return screen_load(clients=clients, failed=LOAD_FAILED, back=PortfolioHeader._list_url)


class AdviceScreen(PortfolioHeader, mixin=True):
    """A screen of one portfolio's advice. SCREEN names its route; its versions list is SCREEN-versions."""

    SCREEN: ClassVar[str] = ""

    def _open_portfolio(self, actor: Actor) -> None:
        """The portfolio of the path, with its head."""
        self.portfolio_id = self._portfolio_param() or 0
        self._load_header(actor)

    def _version_param(self) -> int | None:
        """The version of the path (/portfolios/[id]/.../[version]); None at the current one's address."""
        return positive_int(routes.param(self.router.url.path, "version"))

    def _load_header(self, actor: Actor, portfolio_id: int | None = None) -> None:
        self._show_header(holdings_service.header(actor=actor, portfolio_id=portfolio_id or self.portfolio_id), actor)

    @rx.var
    def current_url(self) -> str:
        return routes.url(self.SCREEN, id=self.portfolio_id) if self.portfolio_id else ""

    @rx.var
    def versions_url(self) -> str:
        return routes.url(f"{self.SCREEN}-versions", id=self.portfolio_id) if self.portfolio_id else ""


class AdviceVersions(Paged, AdviceScreen, mixin=True):
    """A portfolio's versions, a page at a time. The screen declares `rows` and gives
    `_versions(actor, limit, offset) -> (rows, total)`."""

    PAGE_SIZES: ClassVar[tuple[int, ...]] = ADVICE_PAGE_SIZES
    DEFAULT_SIZE: ClassVar[int] = ADVICE_PAGE_SIZES[0]

    loading: bool = True
    page_size: str = VERSION_PAGE_SIZES[0]

    if TYPE_CHECKING:  # the screen's AppState answers it
        def _actor(self) -> Actor: ...

    def _versions(self, actor: Actor, limit: int, offset: int) -> tuple[list[Any], int]:  # pragma: no cover
        raise NotImplementedError

    def _fetch(self, actor: Actor) -> None:
        self.rows = self._fetch_page(lambda: self._versions(actor, self._limit(), self._offset()))

    @guarded
    def _reload(self):
        self._fetch(self._actor())

    @rx.event
    @load_failed()
    def on_load(self, actor: Actor):
        self.loading, self.rows, self.total = True, [], 0
        self.page, self.page_size = 1, str(self.DEFAULT_SIZE)
        self._clear_header()
        try:
            self._open_portfolio(actor)
            self._fetch(actor)
        finally:
            self.loading = False
