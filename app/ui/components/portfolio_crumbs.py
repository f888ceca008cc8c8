"""Breadcrumbs of a screen about one portfolio (spec 002 s2): Portfolios > the portfolio's name
(linking to its holdings) with its model's name > the owners' names (each linking to the client's
portfolios). `state` mixes in app.ui.states.portfolio_header.PortfolioHeader."""
from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.widgets import nav_link
from app.ui.rows.portfolio_header import OwnerLink


def _owner(owner: OwnerLink) -> rx.Component:
    return rx.hstack(
        nav_link(owner.name, href=owner.url, size="2",
                color=rx.color("gray", 11), class_name="owner-link"),
        rx.cond(owner.separator != "", rx.text(owner.separator, size="2", color=rx.color("gray", 10))),
        spacing="0", align="center",
    )


def portfolio_crumb(state: Any) -> rx.Component:
    return rx.hstack(
        nav_link(state.name, href=state.links.holdings, size="2",
                weight="medium", color=rx.color("gray", 12), id="crumb-portfolio"),
        rx.cond(state.model_name != "", rx.text("(" + state.model_name + ")", size="2", color=rx.color("gray", 10),
                                                 id="crumb-model")),
        spacing="1", align="center", overflow="hidden",
    )


def owners_crumb(state: Any) -> rx.Component:
    return rx.hstack(rx.foreach(state.owners, _owner), spacing="1", align="center", id="crumb-owners",
                     display=["none", "flex"])


def portfolio_crumbs(state: Any, *tail: Any) -> list[Any]:
    """The crumbs for layout.page(crumbs=...): Portfolios, the portfolio, its owners, then `tail`
    ((title, None) for the current screen)."""
    return [("Portfolios", state.list_url), portfolio_crumb(state), owners_crumb(state), *tail]
