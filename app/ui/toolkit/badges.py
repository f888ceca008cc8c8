"""The colour of a status badge: one table per vocabulary, for every screen that shows it (so a
status looks the same on the portfolio's screen, in the firm's reports and in the approval list).
Waiting for validation is amber and waiting for approval blue, for target portfolios and trade
recommendations alike; decided is green, refused red; anything else gray. A badge reads its status
in words; its contrast is the theme's (assets/styles.css: a soft badge writes in step 12 of its
colour, at 4.5:1 or more on its tint, so amber and blue read as well as the others)."""
from __future__ import annotations

from typing import Any, Mapping

import reflex as rx

OTHER = "gray"
# a target portfolio's status ("not_enough_cash": a draft without enough cash, as the reports key it)
TP_COLORS: Mapping[str, str] = {"draft": "amber", "not_enough_cash": "orange", "validated": "blue", "active": "green",
                                "declined": "red", "failed": "red"}
# a trade recommendations version's status
TI_COLORS: Mapping[str, str] = {"pending_validation": "amber", "pending_approval": "blue", "approved": "green",
                                "partially_approved": "teal", "declined": "red", "not_validated": "red",
                                "failed": "red"}
# one recommended trade's status
TX_COLORS: Mapping[str, str] = {"approved": "green", "executed": "green", "declined": "red", "not_valid": "red",
                                "not_canceled": "red"}


def color_of(colors: Mapping[str, str], status: str) -> str:
    """A status's colour, in a state."""
    return colors.get(status, OTHER)


def color_match(colors: Mapping[str, str], status: Any) -> Any:
    """A status var's colour, in a page."""
    return rx.match(status, *colors.items(), OTHER)
