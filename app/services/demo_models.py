"""Demo model portfolios for the demo firms, built from the demo asset universe through the models
service (so every model has its version history, saved by the firms' own people).

Runs after the asset universe and the demo people: it quietly does nothing when the demo users,
the cash class or the listed assets are missing. Idempotent per model: a model is made only when
its firm has no model of that name (deleted ones count, so a model a user deleted stays deleted).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from sqlmodel import col, func, select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetClass, AssetType, IndustryGroup, Model, User
from app.db.types import stored_id
from app.domain.model_rules import (
    AssetRowForm, ClassRowForm, CommentaryForm, EquivalentRowForm, GroupRowForm, ModelForm, PercentageRowForm, TypeRowForm,
)
from app.services.auth import actor_of

# Well-known ASX codes preferred when the universe has them (else any assets of the class, by code).
PREFERRED = ("BHP", "CBA", "CSL", "NAB", "WBC", "ANZ", "WES", "MQG", "RIO", "FMG", "WOW", "TLS", "GMG", "TCL", "WDS",
             "ALL", "COL", "STO", "QBE", "SUN", "VAS", "VGS", "IVV", "VAF", "IAF", "VGB", "VAP", "VGE", "BILL", "AAA")
# (firm administrator, adviser who also edits, models)
HARBOUR = ("admin@harbour.example.com", "adviser@harbour.example.com")
SOUTHERN = ("admin@southerncross.example.com", "adviser@southerncross.example.com")
HUNDRED = Decimal(100)
CASH_SHARE = Decimal(5)
CLASS_WEIGHTS = {1: ["95"], 2: ["65", "30"], 3: ["55", "25", "15"], 4: ["50", "20", "15", "10"]}
MARKET = ("Australian shares held up through the month as resources rallied on firmer commodity prices, "
          "while bond yields eased on expectations of a steady cash rate.")
RECOMMENDATION = ("We keep a quality tilt: strong balance sheets, reliable dividends and diversified earnings. "
                  "Rebalance portfolios that drifted more than 5% from the model.")


@dataclass(frozen=True)
class Universe:
    """What the demo models are built from: the cash class, the shared classes with their priced
    shared assets (in preference order), the shared asset types and the industry groups' titles."""
    cash_id: int
    by_class: list[tuple[AssetClass, list[Asset]]]
    types: list[AssetType]
    groups: dict[int, str]


def _universe() -> Universe | None:
    with session_scope() as s:
        cash = s.exec(select(AssetClass).where(col(AssetClass.is_cash).is_(True))).first()
        if cash is None:
            return None
        classes = s.exec(select(AssetClass).where(col(AssetClass.is_cash).is_(False), col(AssetClass.firm_id).is_(None))
                         .order_by(col(AssetClass.idx), col(AssetClass.id))).all()
        assets = s.exec(select(Asset).where(col(Asset.firm_id).is_(None), col(Asset.last_close_price).is_not(None))
                        .order_by(col(Asset.code))).all()
        types = s.exec(select(AssetType).where(col(AssetType.firm_id).is_(None)).order_by(col(AssetType.id))).all()
        groups = {stored_id(g): g.title for g in s.exec(select(IndustryGroup)).all()}
    rank = {code: i for i, code in enumerate(PREFERRED)}
    by_class: list[tuple[AssetClass, list[Asset]]] = []
    for cls in classes:
        members = sorted((a for a in assets if a.class_id == cls.id), key=lambda a: (rank.get(a.code, len(rank)), a.code))
        if members:
            by_class.append((cls, members))
    if not by_class:
        return None
    return Universe(stored_id(cash), by_class, list(types), groups)


def _users(emails: tuple[str, ...]) -> list[User] | None:
    with session_scope() as s:
        rows = {u.email: u for u in s.exec(select(User).where(col(User.email).in_(emails))).all()}
    return [rows[e] for e in emails] if all(e in rows for e in emails) else None


def _exists(firm_id: int | None, name: str) -> bool:
    with session_scope() as s:
        return s.exec(select(Model.id).where(Model.firm_id == firm_id, func.lower(Model.name) == name.lower())).first() is not None


def _equal_amounts(name: str, universe: Universe, *, per_class: tuple[int, ...], status: str = "active",
                   investment: bool = True, everyone: bool = False, firms: tuple[int, ...] = (),
                   skip: int = 0) -> ModelForm:
    chosen = universe.by_class[:len(per_class)]
    weights = CLASS_WEIGHTS[len(chosen)]
    classes: list[ClassRowForm] = []
    used: list[Asset] = []
    for (cls, members), weight, count in zip(chosen, weights, per_class):
        picked = members[skip:skip + count] or members[:count]
        spare = [a for a in members if a not in picked]
        allocation = Decimal(weight)
        assets = []
        for i, asset in enumerate(picked):
            alt = spare[i].id if i < 2 and i < len(spare) else None  # the first two carry an alternate
            assets.append(AssetRowForm(asset_id=asset.id, alt_asset_id=alt, priority=str(i + 1)))
            used.append(asset)
        classes.append(ClassRowForm(class_id=cls.id, allocation=str(allocation), min=str(max(allocation - 10, Decimal(0))),
                                    max=str(min(allocation + 10, HUNDRED)), assets_limit=str(len(picked) + 2),
                                    priority=str(len(classes) + 1), assets=tuple(assets)))
    classes.append(ClassRowForm(class_id=universe.cash_id, allocation=str(CASH_SHARE), min="2", max="15",
                                priority=str(len(classes) + 1)))
    first_members = chosen[0][1]
    unused = [a for a in first_members if a not in used]
    equivalents = (EquivalentRowForm(asset_id=used[1].id, eq_asset_id=unused[0].id),) if len(used) > 1 and unused else ()
    return _form(name, status, "equal_amounts", universe, classes, (), equivalents, used,
                 investment=investment, everyone=everyone, firms=firms)


def _percentages(name: str, universe: Universe, *, per_class: tuple[int, ...], everyone: bool = False) -> ModelForm:
    chosen = universe.by_class[:len(per_class)]
    picked = [(cls, a) for (cls, members), count in zip(chosen, per_class) for a in members[:count]]
    share = ((HUNDRED - CASH_SHARE) / len(picked)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    shares = [share] * len(picked)
    shares[0] += HUNDRED - CASH_SHARE - share * len(picked)
    classes: list[ClassRowForm] = []
    for cls, _ in chosen:
        assets = tuple(AssetRowForm(asset_id=a.id, alt_asset_id=None, priority=str(i + 1))
                       for i, a in enumerate(a for c, a in picked if c.id == cls.id))
        classes.append(ClassRowForm(class_id=cls.id, allocation=None, priority=str(len(classes) + 1), assets=assets))
    classes.append(ClassRowForm(class_id=universe.cash_id, allocation=str(CASH_SHARE), priority=str(len(classes) + 1)))
    percentages = tuple(PercentageRowForm(asset_id=a.id, allocation=str(s), alternative=None)
                        for (cls, a), s in zip(picked, shares))
    return _form(name, "active", "percentages", universe, classes, percentages, (), [a for _, a in picked],
                 investment=True, everyone=everyone, firms=())


def _form(name: str, status: str, method: str, universe: Universe, classes: list[ClassRowForm],
          percentages: tuple[PercentageRowForm, ...], equivalents: tuple[EquivalentRowForm, ...], used: list[Asset], *,
          investment: bool, everyone: bool, firms: tuple[int, ...]) -> ModelForm:
    """The model form as its author fills it in: the classes, shares and equivalents given, the
    first two asset types, the industry groups of the assets used (at most 35% each) and the
    month's commentaries."""
    group_ids: list[int] = []
    for asset in used:
        gid = asset.industry_group_id
        if gid is not None and gid in universe.groups and gid not in group_ids:
            group_ids.append(gid)
    industry_groups = tuple(GroupRowForm(industry_group_id=gid, allocation=None, min=None, max="35", priority=str(i + 1))
                            for i, gid in enumerate(group_ids[:4]))
    type_rows = tuple(TypeRowForm(type_id=t.id, allocation=None, min=None, max=None) for t in universe.types[:2])
    return ModelForm(
        name=name, status=status, allocation_method=method, investment=investment, all=everyone,
        firms=firms, analyst_recommendations=True, class_allocation=True, type_allocation=True,
        industry_group_allocation=True, allocation_classes=tuple(classes), allocation_types=type_rows,
        industry_groups_allocations=industry_groups, equivalents=equivalents,
        assets_percentages_allocations=percentages,
        commentaries=(CommentaryForm(type="market", description=MARKET),
                      CommentaryForm(type="recommendation", description=RECOMMENDATION)),
    )


def load_demo_models() -> int:
    """Create the demo models that do not exist yet; returns how many were made (0 when skipped)."""
    from app.domain.errors import DomainError
    from app.services import models

    universe = _universe()
    harbour, southern = _users(HARBOUR), _users(SOUTHERN)
    if universe is None or harbour is None or southern is None:
        return 0
    made = 0
    n = len(universe.by_class)
    shape = {1: (8,), 2: (6, 2), 3: (6, 2, 2), 4: (6, 2, 2, 1)}[min(n, 4)]
    small = shape[:max(1, min(n, 2))]
    plans = [
        # (author, later editor, form, keep as draft after the first save)
        (harbour[1], harbour[0], _equal_amounts("Balanced Growth", universe, per_class=shape,
                                                firms=(southern[0].firm_id or 0,))),  # (0: no firm)
        (harbour[0], None, _percentages("Income Focus", universe,
                                        per_class=tuple(min(c, 4) for c in small), everyone=True)),
        (harbour[1], None, _equal_amounts("Conservative (work in progress)", universe,
                                          per_class=tuple(min(c, 3) for c in small), status="draft", investment=False)),
        (southern[0], southern[1], _equal_amounts("Australian Blue Chip", universe,
                                                  per_class=(min(shape[0], 8),), skip=0)),
        (southern[1], None, _equal_amounts("Growth Leaders", universe,
                                           per_class=shape, skip=2)),
    ]
    for author, editor, form in plans:
        if _exists(author.firm_id, form.name or ""):
            continue
        try:
            created = models.create_model(actor=actor_of(author), form=form)
            if editor is not None:  # a second version by a colleague, for the history screen
                edited = replace(form, version=str(created.version), commentaries=(
                    CommentaryForm(type="market", description=MARKET + " Updated after the month-end review."),
                    form.commentaries[1]))
                models.update_model(actor=actor_of(editor), model_id=created.id, form=edited)
        except DomainError:
            continue  # a universe too small for this model: the others are still made
        made += 1
    return made
