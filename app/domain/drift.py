"""Drift: how far a portfolio has moved from its model. Pure figures, no I/O.

The portfolio is valued as the engine values it (design/engine.md "Portfolio value"): each listed
holding at its last close to the cent, plus cash, open deposits and custom holdings. Per class, the
current share of that value is set against the class's allocation and its min / max band - the
model's, or the portfolio's own class allocation when it is switched on, as the engine does. A
class outside its band is breached by the percentage points between its current share and the
nearer edge of the band (0 inside; a class without a min counts from 0 %, without a max up to
100 %). Per asset, the current share is set against the asset's model weight: its percentage
under the percentages method; under equal amounts the class allocation shared equally by the
class's first `assets_limit` assets in priority order (the others weigh 0). Listed assets of the
cash class under equal amounts share what the cash class leaves above the minimum cash, which
depends on the portfolio's settings: they show no weight. A holding the model does not contain
weighs 0 (the engine sells it).

Percentages are rounded half-up to two decimals, and breaches are measured on the rounded
figures, so that what the screen shows adds up.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Mapping

from app.domain import validators as v
from app.domain.allocations import ClassAllocation
from app.domain.errors import ValidationError
from app.domain.engine.prepared import PreparedModel
from app.domain.money import to_cents

ZERO = Decimal(0)
HUNDRED = Decimal(100)
PCT = Decimal("0.01")
BELOW, ABOVE, INSIDE = "below", "above", "inside"

# The histogram of the dashboard: the largest breach of each portfolio, in percentage points.
BREACH_BUCKETS: tuple[tuple[str, Decimal, Decimal | None], ...] = (
    ("In band", ZERO, ZERO),
    ("0-2 pp", ZERO, Decimal(2)),
    ("2-5 pp", Decimal(2), Decimal(5)),
    ("5-10 pp", Decimal(5), Decimal(10)),
    ("10+ pp", Decimal(10), None),
)


def pct(part: Decimal, whole: Decimal) -> Decimal:
    """part / whole as a percentage, two decimals half-up (0 when the whole is not positive)."""
    if whole <= 0:
        return ZERO.quantize(PCT)
    return (part * HUNDRED / whole).quantize(PCT, rounding=ROUND_HALF_UP)


def read_min_breach(text: str | None) -> Decimal | None:
    """The minimum breach filter as typed: empty for none, else a number of points not below 0,
    refused with the validators' texts (002 s7: 'Please, enter a valid number. ', 'Please, enter
    positive value')."""
    typed = "" if text is None else str(text).strip()
    error = v.positive(typed)
    if error:
        raise ValidationError(error, {"min_breach": error})
    return v.parse_decimal(typed)


def breach(current: Decimal, minimum: Decimal | None, maximum: Decimal | None) -> tuple[Decimal, str]:
    """Percentage points outside [min, max] (0 inside) and which side."""
    if minimum is not None and current < minimum:
        return (minimum - current).quantize(PCT), BELOW
    if maximum is not None and current > maximum:
        return (current - maximum).quantize(PCT), ABOVE
    return ZERO.quantize(PCT), INSIDE


# The colour of a breach, one rule for every screen (the dashboard's badges, the holdings' class
# bars): inside the band success, outside it warning, SEVERE_BREACH points or more outside danger.
SEVERE_BREACH = Decimal(5)
SUCCESS, WARNING, DANGER = "success", "warning", "danger"


def breach_colour(points: Decimal) -> str:
    """success | warning | danger for a breach of `points` percentage points (0: inside the band)."""
    if points <= 0:
        return SUCCESS
    return DANGER if points >= SEVERE_BREACH else WARNING


def band_colour(current: Decimal, minimum: Decimal | None, maximum: Decimal | None) -> str:
    """The colour of a class's current share (rounded to two decimals, as drift measures it) against
    its band [min, max]."""
    return breach_colour(breach(current.quantize(PCT, rounding=ROUND_HALF_UP), minimum, maximum)[0])


def bucket(largest: Decimal) -> str:
    if largest <= 0:
        return BREACH_BUCKETS[0][0]
    for label, low, high in BREACH_BUCKETS[1:]:
        if largest > low and (high is None or largest <= high):
            return label
    return BREACH_BUCKETS[-1][0]


# ---- the model side ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClassTarget(ClassAllocation):
    rank: int


@dataclass(frozen=True)
class Targets:
    """A model's classes (or the portfolio's own class allocation) and its asset weights."""

    classes: tuple[ClassTarget, ...]
    weights: Mapping[int, Decimal | None]     # model asset id -> weight % (None: depends on the portfolio)
    asset_class: Mapping[int, int]            # model asset id -> the class it sits in within the model
    cash_class_id: int | None


@dataclass(frozen=True)
class OwnClass:
    """A row of the portfolio's own class allocation."""

    class_id: int
    allocation: Decimal
    min: Decimal | None
    max: Decimal | None


def targets(model: PreparedModel, own: Iterable[OwnClass] | None = None) -> Targets:
    """The bands and weights a portfolio of `model` is measured against; `own` is the portfolio's
    own class allocation when it is switched on (classes the model has but `own` lacks get 0)."""
    rows = {r.class_id: r for r in own} if own is not None else None
    classes: list[ClassTarget] = []
    weights: dict[int, Decimal | None] = {}
    asset_class: dict[int, int] = {}
    for c in model.classes:
        if rows is None:
            allocation, low, high = c.allocation, c.min, c.max
        else:
            row = rows.get(c.class_id)
            allocation, low, high = (row.allocation, row.min, row.max) if row else (ZERO, None, None)
        classes.append(ClassTarget(c.class_id, c.title, c.is_cash, allocation, low, high, c.rank))
        places = list(c.assets)
        if model.percentages:
            for a in places:
                weights.setdefault(a.asset_id, a.percentage)
        elif c.is_cash:
            for a in places:
                weights.setdefault(a.asset_id, None)
        else:
            limit = c.assets_limit if c.assets_limit and c.assets_limit > 0 else len(places)
            share = (allocation / min(limit, len(places))) if places else ZERO
            for n, a in enumerate(places):
                weights.setdefault(a.asset_id, share.quantize(PCT, rounding=ROUND_HALF_UP) if n < limit else ZERO)
        for a in places:
            asset_class.setdefault(a.asset_id, c.class_id)
    if rows is not None:
        for class_id, row in sorted(rows.items()):
            if class_id not in {c.class_id for c in classes}:
                classes.append(ClassTarget(class_id, "", False, row.allocation, row.min, row.max, len(classes)))
    return Targets(tuple(classes), weights, asset_class, model.cash_class_id)


# ---- the portfolio side -----------------------------------------------------------------------------
@dataclass(slots=True)
class Holding:
    asset_id: int
    code: str
    name: str
    class_id: int
    units: Decimal
    price: Decimal | None   # last close (None: no price, valued at 0)


@dataclass(slots=True)
class ClassDrift:
    class_id: int
    title: str
    is_cash: bool
    in_model: bool
    value: Decimal
    current: Decimal        # % of the portfolio value
    target: Decimal         # the class allocation %
    min: Decimal | None
    max: Decimal | None
    breach: Decimal         # percentage points outside the band (0 inside)
    side: str               # below | above | inside


@dataclass(slots=True)
class AssetDrift:
    asset_id: int
    code: str
    name: str
    class_id: int
    units: Decimal
    value: Decimal
    current: Decimal            # % of the portfolio value
    weight: Decimal | None      # model weight % (None: not defined for this portfolio)
    difference: Decimal | None  # current - weight, percentage points
    in_model: bool


@dataclass(slots=True)
class Figures:
    value: Decimal
    largest_breach: Decimal
    out_of_band: int
    classes: list[ClassDrift] = field(default_factory=list)
    assets: list[AssetDrift] = field(default_factory=list)


def holding_value(h: Holding) -> Decimal:
    """A listed holding at its last close, to the cent (0 without a price)."""
    price = h.price
    return to_cents(h.units * price) if price is not None and price > 0 else ZERO


def class_figures(t: Targets, listed_by_class: Mapping[int, Decimal], *, cash: Decimal,
                  deposits: Iterable[Decimal] = (), customs: Iterable[tuple[int, Decimal]] = (),
                  class_titles: Mapping[int, str] | None = None) -> Figures:
    """The class side of `figures` from the listed holdings' value per class (each holding at its
    last close to the cent, summed by class)."""
    titles = class_titles or {}
    by_class = dict(listed_by_class)
    total = sum(by_class.values(), ZERO)
    cash_class = t.cash_class_id
    cash_total = to_cents(cash) + sum((to_cents(d) for d in deposits if d > 0), ZERO)
    total += cash_total
    if cash_class is not None:
        by_class[cash_class] = by_class.get(cash_class, ZERO) + cash_total
    for class_id, value in customs:
        value = to_cents(value)
        total += value
        by_class[class_id] = by_class.get(class_id, ZERO) + value

    nil = ZERO.quantize(PCT)
    out = Figures(value=total, largest_breach=nil, out_of_band=0)
    known = set()
    for c in t.classes:
        known.add(c.class_id)
        value = by_class.get(c.class_id, ZERO)
        current = pct(value, total)
        size, side = breach(current, c.min, c.max) if total > 0 else (nil, INSIDE)
        out.classes.append(ClassDrift(c.class_id, c.title or titles.get(c.class_id, ""), c.is_cash, True, value,
                                      current, c.allocation, c.min, c.max, size, side))
        if size > 0:
            out.out_of_band += 1
            if size > out.largest_breach:
                out.largest_breach = size
    for class_id in sorted(set(by_class) - known):
        value = by_class[class_id]
        if value == 0:
            continue
        out.classes.append(ClassDrift(class_id, titles.get(class_id, ""), class_id == cash_class, False, value,
                                      pct(value, total), ZERO, None, None, nil, INSIDE))
    return out


def figures(t: Targets, holdings: Iterable[Holding], *, cash: Decimal, deposits: Iterable[Decimal] = (),
            customs: Iterable[tuple[int, Decimal]] = (), class_titles: Mapping[int, str] | None = None,
            model_assets: Mapping[int, tuple[str, str]] | None = None, with_assets: bool = True) -> Figures:
    """The drift of one portfolio. `deposits` are open deposit balances (they count toward the
    cash class, as in the engine), `customs` (class id, value) custom holdings; `model_assets` gives
    the code and name of model assets the portfolio does not hold (to list them at 0 %). Without
    `with_assets` only the classes are measured (a firm's list needs no asset rows)."""
    by_class: dict[int, Decimal] = {}
    valued: list[tuple[Holding, Decimal]] = []
    for h in holdings:
        if h.units <= 0:
            continue
        value = holding_value(h)
        by_class[h.class_id] = by_class.get(h.class_id, ZERO) + value
        if with_assets:
            valued.append((h, value))
    out = class_figures(t, by_class, cash=cash, deposits=deposits, customs=customs, class_titles=class_titles)
    total = out.value
    if not with_assets:
        return out

    nil = ZERO.quantize(PCT)
    weights = t.weights
    held_ids = set()
    for h, value in sorted(valued, key=lambda hv: hv[0].code):
        held_ids.add(h.asset_id)
        in_model = h.asset_id in weights
        weight = weights[h.asset_id] if in_model else ZERO
        current = pct(value, total)
        out.assets.append(AssetDrift(h.asset_id, h.code, h.name, h.class_id, h.units, value, current, weight,
                                     None if weight is None else current - weight, in_model))
    for asset_id, weight in weights.items():
        if asset_id in held_ids:
            continue
        code, name = (model_assets or {}).get(asset_id, ("", ""))
        out.assets.append(AssetDrift(asset_id, code, name, t.asset_class.get(asset_id, 0), ZERO, ZERO, nil, weight,
                                     None if weight is None else nil - weight, True))
    return out
