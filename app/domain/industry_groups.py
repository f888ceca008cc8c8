"""Industry group rules and texts (spec 002 s2, s5, s8). The service and the screen validate with
the same `clean_industry_group`, so the screen shows the texts the service would answer."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from app.domain import validators as v
from app.domain.errors import not_found

TITLE_MAX = 100
TITLE_REQUIRED = v.REQUIRED.format(label="title")  # 'Please, enter title. '
TITLE_UNIQUE = v.UNIQUE.format(label="Title")  # 'Title should be unique.'
COLOR_INVALID = "Please, choose a valid color (#rrggbb). "

SAVED = "Industry group saved"
DELETED = "Industry group deleted"
REORDERED = "Industry groups has been reordered"
NOT_FOUND = not_found("Industry group")
HAS_ASSETS = "The industry group {title} has linked assets."
HAS_ASSETS_HELPER = "Please, relink them to other industry groups first."
CONFIRM_DELETE = "Are you sure you want to delete {title} industry group?"
REORDER_INVALID = "Please, send every industry group once with its position."
REORDER_STALE = "The industry groups were changed by someone else. Reload the list and try again."

_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")

# Distinct, calm colours for new groups (the first one not in use is given to a new group).
PALETTE = (
    "#3e63dd", "#12a594", "#e54666", "#f76b15", "#8e4ec6", "#30a46c", "#ffb224", "#0090ff",
    "#d6409f", "#978365", "#5b5bd6", "#868e2b", "#00a2c7", "#ad7f58", "#6e56cf", "#e5484d",
)


def normalise_title(value: object) -> str:
    """The title as stored: surrounding spaces removed, inner runs of spaces kept as typed.
    Anything but text or a number (a list, an object) counts as no title."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""


def title_key(value: object) -> str:
    """What makes two titles the same: case and surrounding spaces do not count."""
    return normalise_title(value).casefold()


def normalise_color(value: object) -> str:
    return value.strip().lower() if isinstance(value, str) else ""


def clean_industry_group(data: Mapping[str, object], *, other_titles: Iterable[str] = (),
                         color_required: bool = False) -> tuple[dict[str, str], v.FieldErrors]:
    """Validate a create/update payload. Returns ({'title', 'color'?}, errors).

    `other_titles` are the titles of the other groups (uniqueness is case-insensitive).
    The colour may be left out (None or missing): a new group then gets a palette colour and an
    update keeps its colour, unless `color_required`."""
    errors = v.FieldErrors()
    values: dict[str, str] = {}
    title = normalise_title(data.get("title"))
    values["title"] = title
    taken = {title_key(t) for t in other_titles}
    errors.check("title", v.required(title, "title"), v.max_length(title, TITLE_MAX),
                 TITLE_UNIQUE if title and title_key(title) in taken else None)
    raw_color = data.get("color")
    if raw_color is None and not color_required:
        return values, errors
    color = normalise_color(raw_color)
    if not _COLOR.match(color):
        errors.check("color", COLOR_INVALID)
    else:
        values["color"] = color
    return values, errors


def next_color(used: Iterable[str]) -> str:
    """The first palette colour no group uses yet (the palette again once all are used)."""
    taken = {normalise_color(c) for c in used}
    for color in PALETTE:
        if color not in taken:
            return color
    return PALETTE[len(taken) % len(PALETTE)]


def has_assets_message(title: str) -> str:
    return HAS_ASSETS.format(title=title)


def confirm_delete_message(title: str) -> str:
    return CONFIRM_DELETE.format(title=title)


# ---- the form and the order as read at the edge (the API's body, the screen's handler) ------------
_INTEGER = re.compile(r"^-?[0-9]{1,9}$")


@dataclass(frozen=True)
class IndustryGroupForm:
    """The add / edit form as read from a request or the screen. `title` and `color` are None when
    left out (an update then keeps the group's own), else the text as stored would read it (a
    number's text; "" for anything else). `idx`: the new 0-based position, None when not asked;
    `idx_unreadable` when one was sent that is no whole number."""
    title: str | None = None
    color: str | None = None
    idx: int | None = None
    idx_unreadable: bool = False

    def values(self) -> dict[str, str | None]:
        """The fields `clean_industry_group` checks, as it reads them."""
        return {"title": self.title, "color": self.color}


@dataclass(frozen=True)
class GroupPosition:
    """One entry of a reorder: a group's id and its new rank (None where the entry had no whole number)."""
    id: int | None
    idx: int | None


def whole_number(value: object) -> int | None:
    """A whole number from an int, an integral float or a digits string; None otherwise."""
    number: int | None = None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and _INTEGER.match(value.strip()):
        number = int(value.strip())
    return number if number is not None and abs(number) < 10**9 else None


def read_form(data: Mapping[str, object]) -> IndustryGroupForm:
    """The form from the keys sent (title, color, idx), each as it was sent."""
    title, color, idx = data.get("title"), data.get("color"), data.get("idx")
    asked = idx is not None and idx != ""
    position = whole_number(idx) if asked else None
    return IndustryGroupForm(
        title=None if title is None else normalise_title(title),
        color=None if color is None else normalise_color(color),
        idx=position, idx_unreadable=asked and position is None)


def read_order(items: object) -> tuple[GroupPosition, ...] | None:
    """A reorder's entries ([{id, idx}, ...]) from what was sent; None when it is no list of them
    (the service then answers REORDER_INVALID once it has checked who asks)."""
    if not isinstance(items, (list, tuple)):
        return None
    read: list[GroupPosition] = []
    for item in items:
        if not isinstance(item, Mapping):
            return None
        read.append(GroupPosition(id=whole_number(item.get("id")), idx=whole_number(item.get("idx"))))
    return tuple(read)
