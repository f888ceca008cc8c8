"""Industry groups: the shared taxonomy of listed assets (spec 002: get, getMainList, create, update,
delete, reorder).

Staff (everyone but clients) read them; only the superuser changes them (`can_manage_universe`).
Groups are kept in `idx` order, 0..n-1 without gaps; a new group goes to the end. Writes that
check titles or positions hold one lock for the rest of their transaction, so
two superusers cannot create the same title or interleave a reorder (PostgreSQL: an advisory
lock; SQLite: a write that changes nothing takes the database's write lock first).
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from sqlalchemy import delete as sql_delete, func, text
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Asset, IndustryGroup, ModelIndustryGroup
from app.db.types import utcnow
from app.domain import industry_groups as rules
from app.domain import validators as v
from app.domain.allocations import flag_unknown_choices
from app.domain.errors import INVALID_FORM, Conflict, NotFound, ValidationError
from app.domain.parsing import as_id
from app.domain.permissions import Actor, can_manage_universe, require, require_staff
from app.services.tenancy import readable_assets

# texts (re-exported for the API, the screens and the tests)
SAVED, DELETED, REORDERED = rules.SAVED, rules.DELETED, rules.REORDERED
NOT_FOUND = rules.NOT_FOUND
HAS_ASSETS_HELPER = rules.HAS_ASSETS_HELPER

_LOCK_KEY = 730_020_001  # pg_advisory_xact_lock key of industry group writes
_INTEGER = re.compile(r"^-?[0-9]{1,9}$")


def public_group(group: IndustryGroup, assets_count: int = 0) -> dict[str, Any]:
    return {"id": group.id, "title": group.title, "color": group.color, "idx": group.idx,
            "assets_count": int(assets_count)}


def _lock(session: Session) -> None:
    """Serialise industry group writes until the end of the transaction."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
    elif dialect == "sqlite":
        # the first write of a transaction takes SQLite's write lock; this one changes nothing
        session.execute(text("UPDATE industry_groups SET idx = idx WHERE 1 = 0"))


def _ordered(session: Session) -> list[IndustryGroup]:
    return list(session.exec(select(IndustryGroup).order_by(col(IndustryGroup.idx), col(IndustryGroup.id))).all())


def _load(session: Session, group_id: Any) -> IndustryGroup:
    number = as_id(group_id)
    group = session.get(IndustryGroup, number) if number is not None else None
    if group is None:
        raise NotFound(NOT_FOUND)
    return group


def _asset_counts(session: Session, actor: Actor, group_ids: list[int]) -> dict[int, int]:
    """Linked assets per group that the actor may see (all of them for the superuser)."""
    if not group_ids:
        return {}
    rows = session.exec(
        select(Asset.industry_group_id, func.count(Asset.id))
        .where(col(Asset.industry_group_id).in_(group_ids), readable_assets(actor))
        .group_by(Asset.industry_group_id)
    ).all()
    return {gid: int(n) for gid, n in rows}


def _renumber(groups: list[IndustryGroup], session: Session) -> None:
    now = utcnow()
    for position, group in enumerate(groups):
        if group.idx != position:
            group.idx = position
            group.updated_at = now
            session.add(group)


def _result(session: Session, actor: Actor, group: IndustryGroup) -> dict[str, Any]:
    session.flush()
    return public_group(group, _asset_counts(session, actor, [group.id]).get(group.id, 0))


# ---- reads ------------------------------------------------------------------------------------
def list_industry_groups(*, actor: Actor) -> list[dict[str, Any]]:
    """Every group in idx order with its count of linked assets (spec: get)."""
    require_staff(actor)
    with session_scope() as s:
        groups = _ordered(s)
        counts = _asset_counts(s, actor, [g.id for g in groups])
        return [public_group(g, counts.get(g.id, 0)) for g in groups]


def main_list(*, actor: Actor) -> list[dict[str, Any]]:
    """id, title and colour of every group in idx order, for pickers (spec: getMainList)."""
    require_staff(actor)
    with session_scope() as s:
        rows = s.exec(select(IndustryGroup.id, IndustryGroup.title, IndustryGroup.color)
                      .order_by(col(IndustryGroup.idx), col(IndustryGroup.id))).all()
        return [{"id": i, "title": t, "color": c} for i, t, c in rows]


def get_industry_group(*, actor: Actor, group_id: Any) -> dict[str, Any]:
    require_staff(actor)
    with session_scope() as s:
        return _result(s, actor, _load(s, group_id))


def ids_by_title(session: Session, titles: Iterable[str]) -> dict[str, int]:
    """{title as given: id} of the groups with those titles (case-insensitive); unknown titles are absent.
    For loaders inside another unit of work (demo data, imports)."""
    wanted = {rules.title_key(t): t for t in titles if rules.title_key(t)}
    if not wanted:
        return {}
    found: dict[str, int] = {}
    for group_id, title in session.exec(select(IndustryGroup.id, IndustryGroup.title)).all():
        key = rules.title_key(title)
        if key in wanted and wanted[key] not in found:
            found[wanted[key]] = group_id
    return found


def flag_unknown(session: Session, errors: v.FieldErrors, rows: Iterable[Mapping[str, Any]]) -> None:
    """A model's or portfolio's industry group allocation rows (industry_group_id, index): an
    error on each row whose group does not exist."""
    rows = list(rows)
    group_ids = {g["industry_group_id"] for g in rows}
    known = set(session.exec(select(IndustryGroup.id).where(col(IndustryGroup.id).in_(group_ids))).all()) \
        if group_ids else set()
    flag_unknown_choices(errors, rows, "industry_groups_allocations", "industry_group_id", "industry group", known)


# ---- writes (superuser) -------------------------------------------------------------------------
def create_industry_group(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """A new group at the end of the list; without a colour it gets the first unused palette colour."""
    require(can_manage_universe(actor))
    with session_scope() as s:
        _lock(s)
        groups = _ordered(s)
        values, errors = rules.clean_industry_group(data, other_titles=[g.title for g in groups])
        if not errors.ok:
            raise ValidationError(errors.get("title") or errors.get("color") or INVALID_FORM, errors)
        group = IndustryGroup(title=values["title"], color=values.get("color") or rules.next_color(g.color for g in groups),
                              idx=len(groups))
        _renumber(groups, s)  # close any gap left by older data before appending
        s.add(group)
        return _result(s, actor, group)


def update_industry_group(*, actor: Actor, group_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Rename, recolour and/or move one group (idx: its new 0-based position; the others shift)."""
    require(can_manage_universe(actor))
    with session_scope() as s:
        _lock(s)
        group = _load(s, group_id)
        groups = _ordered(s)
        payload = dict(data)
        if payload.get("title") is None:
            payload["title"] = group.title  # a recolour or a move alone keeps the title
        values, errors = rules.clean_industry_group(payload, other_titles=[g.title for g in groups if g.id != group.id])
        position = _position(payload.get("idx"), len(groups), errors)
        if not errors.ok:
            raise ValidationError(errors.get("title") or errors.get("color") or errors.get("idx") or INVALID_FORM, errors)
        group.title = values["title"]
        if "color" in values:
            group.color = values["color"]
        group.updated_at = utcnow()
        s.add(group)
        if position is not None:
            groups = [g for g in groups if g.id != group.id]
            groups.insert(position, group)
        _renumber(groups, s)
        return _result(s, actor, group)


def _position(value: Any, count: int, errors) -> int | None:
    """The 0-based position asked for (clamped to the end), None when not asked; errors when invalid."""
    if value is None or value == "":
        return None
    position = _whole(value)
    if position is None or position < 0:
        errors.check("idx", v.NUMBER)
        return None
    return min(position, max(count - 1, 0))


def delete_industry_group(*, actor: Actor, group_id: Any) -> None:
    """Refused while any asset is linked to the group ('The industry group {title} has linked assets.',
    helper text in `fields['helper']`). Model allocations to the group go with it."""
    require(can_manage_universe(actor))
    with session_scope() as s:
        _lock(s)
        group = _load(s, group_id)
        linked = s.exec(select(func.count(Asset.id)).where(Asset.industry_group_id == group.id)).one()
        if linked:
            raise Conflict(rules.has_assets_message(group.title), {"helper": HAS_ASSETS_HELPER})
        s.execute(sql_delete(ModelIndustryGroup).where(col(ModelIndustryGroup.industry_group_id) == group.id))
        s.delete(group)
        s.flush()
        _renumber(_ordered(s), s)


def reorder_industry_groups(*, actor: Actor, items: Any) -> list[dict[str, Any]]:
    """Apply a whole new order in one transaction. `items`: [{id, idx}, ...] naming every current
    group exactly once with distinct positions; anything else changes nothing. Stored positions
    are renumbered 0..n-1 in the order of the given idx values."""
    require(can_manage_universe(actor))
    wanted = _parse_order(items)
    with session_scope() as s:
        _lock(s)
        groups = _ordered(s)
        by_id = {g.id: g for g in groups}
        if set(wanted) != set(by_id):
            raise Conflict(rules.REORDER_STALE)
        ordered = [by_id[gid] for gid in sorted(wanted, key=lambda gid: wanted[gid])]
        _renumber(ordered, s)
        s.flush()
        counts = _asset_counts(s, actor, list(by_id))
        return [public_group(g, counts.get(g.id, 0)) for g in ordered]


def _parse_order(items: Any) -> dict[int, int]:
    """{id: idx} from the request, or ValidationError(REORDER_INVALID)."""
    if not isinstance(items, (list, tuple)) or not items:
        raise ValidationError(rules.REORDER_INVALID)
    wanted: dict[int, int] = {}
    positions: set[int] = set()
    for item in items:
        if not isinstance(item, Mapping):
            raise ValidationError(rules.REORDER_INVALID)
        gid, idx = _whole(item.get("id")), _whole(item.get("idx"))
        if gid is None or idx is None or gid in wanted or idx in positions or idx < 0:
            raise ValidationError(rules.REORDER_INVALID)
        wanted[gid] = idx
        positions.add(idx)
    return wanted


def _whole(value: Any) -> int | None:
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
