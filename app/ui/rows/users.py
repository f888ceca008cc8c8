"""What the users screens show of a user: the list's rows and the account card."""
from __future__ import annotations

import dataclasses
from datetime import datetime


def initials_of(first: str | None, last: str | None) -> str:
    return f"{(first or '')[:1]}{(last or '')[:1]}".upper()


def iso_text(moment: datetime | None) -> str:
    """An instant as the screens' moment() reads it (ISO 8601), '' for none."""
    return moment.isoformat() if moment else ""


@dataclasses.dataclass
class UserRow:
    id: int = 0
    name: str = ""
    initials: str = ""
    email: str = ""
    role: str = ""
    role_title: str = ""
    firm: str = ""
    adviser: str = ""
    status: str = ""
    status_title: str = ""
    created_at: str = ""
    logined_at: str = ""
    photo_url: str = ""
    open_url: str = ""
    view_url: str = ""
    edit_url: str = ""
    clients_url: str = ""
    portfolios_url: str = ""  # View Portfolios (only when the user has portfolios)
    add_portfolio_url: str = ""  # Add Portfolio (clients and advisers)
    can_edit: bool = False
    can_delete: bool = False


@dataclasses.dataclass
class UserAccount:
    """The user form's Account card: when the user was created and last signed in, and whether
    they have activated the account yet."""

    activated: bool = True
    created_at: str = ""
    logined_at: str = ""
