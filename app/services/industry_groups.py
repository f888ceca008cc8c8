"""Industry groups: the shared taxonomy of listed assets (spec 002: get, getMainList, create, update,
delete, reorder).

Staff (everyone but clients) read them; only the superuser changes them (`can_manage_universe`).
Groups are kept in `idx` order, 0..n-1 without gaps; a new group goes to the end. Writes that
check titles or positions hold one lock for the rest of their transaction, so
two superusers cannot create the same title or interleave a reorder (PostgreSQL: an advisory
lock; SQLite: a write that changes nothing takes the database's write lock first).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from sqlalchemy import delete as sql_delete, func, text
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Asset, IndustryGroup, ModelIndustryGroup
from app.db.types import stored_id, utcnow
from app.domain import industry_groups as rules
from app.domain import validators as v
from app.domain.allocations import flag_unknown_choices
from app.domain.errors import INVALID_FORM, Conflict, NotFound, ValidationError
from app.domain.industry_groups import GroupPosition, IndustryGroupForm
from app.domain.parsing import as_id
from app.domain.permissions import Actor, can_manage_universe, require, require_staff
from app.services.tenancy import readable_assets

# texts (re-exported for the API, the screens and the tests)
SAVED, DELETED, REORDERED = rules.SAVED, rules.DELETED, rules.REORDERED
NOT_FOUND = rules.NOT_FOUND
HAS_ASSETS_HELPER = rules.HAS_ASSETS_HELPER


class HasLinkedAssets(Conflict):
    """A group some asset links to is not deleted: the message, and what to do first (`helper`, which the
    API answers as errors.helper)."""

    def __init__(self, title: str) -> None:
        super().__init__(rules.has_assets_message(title), {"helper": HAS_ASSETS_HELPER})
        self.helper = HAS_ASSETS_HELPER

_LOCK_KEY = 730_020_001  # pg_advisory_xact_lock key of industry group writes


@dataclass(frozen=True)
class IndustryGroupOption:
    """A group as the pickers list it (spec: getMainList)."""
    id: int
    title: str
    color: str


@dataclass(frozen=True)
class IndustryGroupView(IndustryGroupOption):
    """A group as the list and the forms show it: its place in the order and its linked assets
    (those the reader may see)."""
    idx: int
    assets_count: int


def public_group(group: IndustryGroup, assets_count: int = 0) -> IndustryGroupView:
    return IndustryGroupView(id=stored_id(group), title=group.title, color=group.color, idx=group.idx,
                             assets_count=int(assets_count))


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


def _load(session: Session, group_id: int) -> IndustryGroup:
    number = as_id(group_id)  # a number past the 32-bit ids names nothing
    group = session.get(IndustryGroup, number) if number is not None else None
    if group is None:
        raise NotFound(NOT_FOUND)
    return group


def _asset_counts(session: Session, actor: Actor, group_ids: list[int]) -> dict[int, int]:
    """Linked assets per group that the actor may see (all of them for the superuser)."""
    if not group_ids:
        return {}
    rows = session.exec(
        select(col(Asset.industry_group_id), func.count(col(Asset.id)))
        .where(col(Asset.industry_group_id).in_(group_ids), readable_assets(actor))
        .group_by(col(Asset.industry_group_id))
    ).all()
    return {gid: int(n) for gid, n in rows if gid is not None}


def _renumber(groups: list[IndustryGroup], session: Session) -> None:
    now = utcnow()
    for position, group in enumerate(groups):
        if group.idx != position:
            group.idx = position
            group.updated_at = now
            session.add(group)


def _result(session: Session, actor: Actor, group: IndustryGroup) -> IndustryGroupView:
    session.flush()
    group_id = stored_id(group)
    return public_group(group, _asset_counts(session, actor, [group_id]).get(group_id, 0))


# ---- reads ------------------------------------------------------------------------------------
def list_industry_groups(*, actor: Actor) -> list[IndustryGroupView]:
    """Every group in idx order with its count of linked assets (spec: get)."""
    require_staff(actor)
    with session_scope() as s:
        groups = _ordered(s)
        counts = _asset_counts(s, actor, [stored_id(g) for g in groups])
        return [public_group(g, counts.get(stored_id(g), 0)) for g in groups]


def main_list(*, actor: Actor) -> list[IndustryGroupOption]:
    """id, title and colour of every group in idx order, for pickers (spec: getMainList)."""
    require_staff(actor)
    with session_scope() as s:
        return [IndustryGroupOption(id=stored_id(g), title=g.title, color=g.color) for g in _ordered(s)]


def get_industry_group(*, actor: Actor, group_id: int) -> IndustryGroupView:
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
    for group in session.exec(select(IndustryGroup)).all():
        key = rules.title_key(group.title)
        if key in wanted and wanted[key] not in found:
            found[wanted[key]] = stored_id(group)
    return found


def flag_unknown(session: Session, errors: v.FieldErrors, rows: Iterable[Mapping[str, int]]) -> None:
    """A model's or portfolio's industry group allocation rows (industry_group_id, index): an
    error on each row whose group does not exist."""
    listed = [dict(row) for row in rows]
    group_ids = {g["industry_group_id"] for g in listed}
    known: set[int] = {i for i in session.exec(select(col(IndustryGroup.id)).where(col(IndustryGroup.id).in_(group_ids))).all()
                       if i is not None} if group_ids else set()
    flag_unknown_choices(errors, listed, "industry_groups_allocations", "industry_group_id", "industry group", known)


# ---- writes (superuser) -------------------------------------------------------------------------
def _refuse(errors: v.FieldErrors) -> None:
    if not errors.ok:
        raise ValidationError(errors.get("title") or errors.get("color") or errors.get("idx") or INVALID_FORM, errors)


def create_industry_group(*, actor: Actor, form: IndustryGroupForm) -> IndustryGroupView:
    """A new group at the end of the list; without a colour it gets the first unused palette
    colour. (A position asked for is not read: a new group goes last.)"""
    require(can_manage_universe(actor))
    with session_scope() as s:
        _lock(s)
        groups = _ordered(s)
        values, errors = rules.clean_industry_group(form.values(), other_titles=[g.title for g in groups])
        _refuse(errors)
        group = IndustryGroup(title=values["title"], color=values.get("color") or rules.next_color(g.color for g in groups),
                              idx=len(groups))
        _renumber(groups, s)  # close any gap left by older data before appending
        s.add(group)
        return _result(s, actor, group)


def update_industry_group(*, actor: Actor, group_id: int, form: IndustryGroupForm) -> IndustryGroupView:
    """Rename, recolour and/or move one group (idx: its new 0-based position; the others shift)."""
    require(can_manage_universe(actor))
    with session_scope() as s:
        _lock(s)
        group = _load(s, group_id)
        groups = _ordered(s)
        payload = form.values()
        if payload["title"] is None:
            payload["title"] = group.title  # a recolour or a move alone keeps the title
        values, errors = rules.clean_industry_group(payload, other_titles=[g.title for g in groups if g.id != group.id])
        position = _position(form, len(groups), errors)
        _refuse(errors)
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


def _position(form: IndustryGroupForm, count: int, errors: v.FieldErrors) -> int | None:
    """The 0-based position asked for (clamped to the end), None when not asked; errors when invalid."""
    if form.idx_unreadable or (form.idx is not None and form.idx < 0):
        errors.check("idx", v.NUMBER)
        return None
    if form.idx is None:
        return None
    return min(form.idx, max(count - 1, 0))


def delete_industry_group(*, actor: Actor, group_id: int) -> None:
    """Refused while any asset is linked to the group ('The industry group {title} has linked assets.',
    helper text in `fields['helper']`). Model allocations to the group go with it."""
    require(can_manage_universe(actor))
    with session_scope() as s:
        _lock(s)
        group = _load(s, group_id)
        linked = s.exec(select(func.count(col(Asset.id))).where(Asset.industry_group_id == group.id)).one()
        if linked:
            raise HasLinkedAssets(group.title)
        s.execute(sql_delete(ModelIndustryGroup).where(col(ModelIndustryGroup.industry_group_id) == group.id))
        s.delete(group)
        s.flush()
        _renumber(_ordered(s), s)


def reorder_industry_groups(*, actor: Actor, items: Sequence[GroupPosition] | None) -> list[IndustryGroupView]:
    """Apply a whole new order in one transaction. `items` (rules.read_order of what was sent)
    names every current group exactly once with distinct positions; anything else changes
    nothing. Stored positions are renumbered 0..n-1 in the order of the given idx values."""
    require(can_manage_universe(actor))
    wanted = _checked_order(items)
    with session_scope() as s:
        _lock(s)
        groups = _ordered(s)
        by_id = {stored_id(g): g for g in groups}
        if set(wanted) != set(by_id):
            raise Conflict(rules.REORDER_STALE)
        ordered = [by_id[gid] for gid in sorted(wanted, key=lambda gid: wanted[gid])]
        _renumber(ordered, s)
        s.flush()
        counts = _asset_counts(s, actor, list(by_id))
        return [public_group(g, counts.get(stored_id(g), 0)) for g in ordered]


def _checked_order(items: Sequence[GroupPosition] | None) -> dict[int, int]:
    """{id: idx} of a reorder, or ValidationError(REORDER_INVALID): every entry with an id and a
    position, no id and no position twice, no position below 0."""
    if not items:
        raise ValidationError(rules.REORDER_INVALID)
    wanted: dict[int, int] = {}
    positions: set[int] = set()
    for item in items:
        gid, idx = item.id, item.idx
        if gid is None or idx is None or gid in wanted or idx in positions or idx < 0:
            raise ValidationError(rules.REORDER_INVALID)
        wanted[gid] = idx
        positions.add(idx)
    return wanted
