"""What every download's name shares: a record's name made safe to carry in a file name."""
from __future__ import annotations

import re

NAME_MAX = 120


def safe_name(text: str | None, fallback: str = "Portfolio") -> str:
    """The name without the characters a file name cannot hold, spaces folded, at most NAME_MAX
    characters; `fallback` when nothing is left."""
    safe = re.sub(r"[\\/:*?\"<>|\x00-\x1f]+", " ", text or fallback)
    return re.sub(r"\s+", " ", safe).strip()[:NAME_MAX] or fallback
