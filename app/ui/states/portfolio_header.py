"""The head every screen about one portfolio shows (spec 002 s2): the portfolio's name with its
model's name and the owners' names in the breadcrumbs; the owners link to the client's portfolios
(clients.portfolios; a client goes to their own portfolios), the portfolio to its holdings.

A screen state mixes this in (`class X(PortfolioHeader, AppState)`), reads the portfolio id from
the path with `_portfolio_param()`, and shows a head loaded by a service with `_show_header()`:
holdings.load(...).portfolio or holdings.header(...) give the same `Header`. The breadcrumbs are
drawn by app.ui.components.portfolio_crumbs."""
from __future__ import annotations


import reflex as rx

from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.holdings import Header
from app.ui import routes
from app.ui.parse import positive_int as _int
from app.ui.rows.portfolio_header import OwnerLink, PortfolioLinks, owner_links, portfolio_links
from app.ui.toolkit.screen import Viewer


class PortfolioHeader(Viewer, mixin=True):
    """The head; the viewer's role is this screen's own (Viewer), so its links depend on no frame var."""

    portfolio_id: int = 0
    name: str = ""
    inactive: bool = False
    model_name: str = ""
    owners: list[OwnerLink] = []
    _portfolio_firm_id: int = 0

    def _portfolio_param(self) -> int | None:
        """The portfolio id of the browser's path (/portfolios/[id]/...)."""
        return _int(routes.param(self.router.url.path, "id"))

    def _list_url(self, actor: Actor) -> str:
        return routes.url("portfolios.me" if actor.role is Role.CLIENT else "portfolios.list")

    def _show_header(self, header: Header, actor: Actor) -> None:
        self.portfolio_id = header.id
        self.name = header.name
        self.inactive = header.inactive
        self.model_name = header.model_name or ""
        self.owners = owner_links(header.shown_owners, actor.role is Role.CLIENT)
        self._portfolio_firm_id = header.firm_id
        self.viewer_role = actor.role.value

    def _clear_header(self) -> None:
        self.name = self.model_name = ""
        self.inactive = False
        self.owners = []
        self._portfolio_firm_id = 0

    def _portfolio_url(self, route_name: str, query: dict[str, str] | None = None) -> str:
        """A screen of this portfolio ('' until the portfolio is known)."""
        return routes.url(route_name, id=self.portfolio_id, query=query) if self.portfolio_id else ""

    @rx.var
    def list_url(self) -> str:
        return routes.url("portfolios.me" if self.viewer_role == Role.CLIENT.value else "portfolios.list")

    @rx.var
    def links(self) -> PortfolioLinks:
        return portfolio_links(self.portfolio_id)
