"""What a portfolio's header shows on every portfolio screen: its owners with their links, and the
links to the portfolio's other screens."""
from __future__ import annotations

import dataclasses

from app.domain.holdings import Owner
from app.ui import routes


@dataclasses.dataclass
class OwnerLink:
    id: int = 0
    name: str = ""
    url: str = ""
    separator: str = ""


def owner_links(owners: tuple[Owner, ...], client: bool) -> list[OwnerLink]:
    """The owners shown (Header.shown_owners), each linking to the client's portfolios."""
    return [OwnerLink(id=o.id, name=o.name, separator="," if i < len(owners) - 1 else "",
                      url=routes.url("portfolios.me") if client else routes.url("clients.portfolios", id=o.id))
            for i, o in enumerate(owners)]


@dataclasses.dataclass
class PortfolioLinks:
    """The portfolio's screens, which its screens link to one another ('' until the portfolio is known)."""

    holdings: str = ""
    cash: str = ""  # the ledgers
    assets: str = ""
    deposits: str = ""
    target_portfolio: str = ""
    calculate_tp: str = ""  # the target portfolio screen, which asks to confirm the calculation first
    trade_instructions: str = ""
    calculate_tr: str = ""  # the trade recommendations screen, opening its calculate confirmation
    performance: str = ""
    tax_report: str = ""


def portfolio_links(portfolio_id: int) -> PortfolioLinks:
    if not portfolio_id:
        return PortfolioLinks()

    def url(route_name: str, **query: str) -> str:
        return routes.url(route_name, id=portfolio_id, query=query or None)

    return PortfolioLinks(
        holdings=url("portfolios.holdings"), cash=url("portfolios.cash-transactions"),
        assets=url("portfolios.asset-transactions"), deposits=url("clients.addTransaction"),
        target_portfolio=url("portfolios.target-portfolio"), calculate_tp=url("portfolios.target-portfolio", calculate="1"),
        trade_instructions=url("portfolios.trade-instructions"),
        calculate_tr=url("portfolios.trade-instructions", calculate="1"), performance=url("portfolios.performance"),
        tax_report=url("portfolios.tax-report"))
