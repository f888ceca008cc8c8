"""Demo industry groups: the twelve sector groups of the demo universe, each with its own colour.

Idempotent: the marker is the last group of the set ('Diversified (ETFs and funds)'); the set is
written in one transaction, so once the marker exists nothing more is done (groups the superuser
renamed or deleted later stay that way). Before that, groups are got or created by title
(case-insensitive), new ones appended in this order. The asset-universe demo links its assets to
these by title (`load_demo_industry_groups()` returns {title: id})."""
from __future__ import annotations

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import IndustryGroup
from app.db.types import stored_id
from app.domain.industry_groups import title_key

DEMO_GROUPS: tuple[tuple[str, str], ...] = (
    ("Financials", "#3e63dd"),
    ("Materials", "#ad7f58"),
    ("Health Care", "#e54666"),
    ("Real Estate", "#8e4ec6"),
    ("Energy", "#f76b15"),
    ("Information Technology", "#0090ff"),
    ("Consumer Discretionary", "#d6409f"),
    ("Consumer Staples", "#30a46c"),
    ("Communication Services", "#00a2c7"),
    ("Utilities", "#ffb224"),
    ("Industrials", "#12a594"),
    ("Diversified (ETFs and funds)", "#8d8d86"),
)
MARKER_TITLE = DEMO_GROUPS[-1][0]


def load_demo_industry_groups() -> dict[str, int]:
    """Create the demo groups once; return {demo title: id} of those that exist now."""
    with session_scope() as s:
        groups = list(s.exec(select(IndustryGroup).order_by(col(IndustryGroup.idx), col(IndustryGroup.id))).all())
        by_key = {title_key(g.title): g for g in groups}
        if title_key(MARKER_TITLE) not in by_key:
            next_idx = max((g.idx for g in groups), default=-1) + 1
            for title, color in DEMO_GROUPS:
                if title_key(title) in by_key:
                    continue
                group = IndustryGroup(title=title, color=color, idx=next_idx)
                next_idx += 1
                s.add(group)
                s.flush()
                by_key[title_key(title)] = group
        return {title: stored_id(by_key[title_key(title)]) for title, _ in DEMO_GROUPS if title_key(title) in by_key}
