"""Vocabularies whose values the user sees by a title: each member is written once with its stored
value and its title, so a new value cannot be added without the text the screens show for it."""
from __future__ import annotations

from enum import Enum
from typing import Self


class TitledEnum(str, Enum):
    """A str enum whose members are declared as `NAME = "value", "Title"`. The member is still the
    plain string value (comparisons, `.value`, JSON); `.title` is the text shown for it."""

    title: str  # type: ignore[assignment]  # the member's title, by design in place of str.title

    def __new__(cls, value: str, title: str = "") -> TitledEnum:  # (a default: Kind(value) looks a member up)
        member = str.__new__(cls, value)
        member._value_ = value
        member.title = title
        return member

    @classmethod
    def titles(cls) -> dict[Self, str]:
        """{member: title}, in declaration order."""
        return {member: member.title for member in cls}

    @classmethod
    def value_titles(cls) -> dict[str, str]:
        """{stored value: title}, in declaration order (for lookups by the plain string)."""
        return {member.value: member.title for member in cls}

    @classmethod
    def title_of(cls, value: str, default: str | None = None) -> str:
        """The title of a stored value; for a value not of this vocabulary, `default` (the value
        itself when no default is given)."""
        try:
            return cls(value).title
        except ValueError:
            return value if default is None else default
