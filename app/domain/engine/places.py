"""Step 2 of the target calculation (target.py), first half: the places.

Every model asset in class then asset priority order takes a place, filled by its substitution
asset, a held equivalent, its alternate or itself; the adviser's added assets follow; holdings no
place takes come last (sold unless locked). Each place gets its recommendation, exception and
role (fixed, flexible, zero or pinned by the adviser). The assets limit and the minimum asset
allocation are eligibility.py.
"""
from __future__ import annotations

from decimal import Decimal

from typing import NamedTuple

from app.domain.engine import actions as A
from app.domain.engine import errors as E
from app.domain.engine import reasons as R
from app.domain.engine.classes import Classes
from app.domain.engine.positions import Positions
from app.domain.engine.prepared import AssetInfo, KnownAsset
from app.domain.engine.snapshot import (
    DONT_HOLD, EXCEPTION_ACTIONS, LOCK, MANUAL_TRADE_DECISION, SUBSTITUTE, PortfolioException, Recommendation,
    TargetOverride,
)
from app.domain.engine.working import (
    ADDED_RANK, FIXED, FLEX, HALF, M_ACC, M_BUY, M_TAP, M_TSP, ONE, OUT, PINNED, SELL_ACTION, UNMODELLED_RANK, ZERO,
    ClassState, Inputs, Line, fmt,
)


class Places(NamedTuple):
    """Step 2's answer: the lines in priority order (each also in its class's `lines`)."""

    lines: list[Line]
    pins: dict[int, Decimal]  # asset id -> the target units the adviser set
    exc_custom: dict[int, PortfolioException]  # custom holding id -> its exception


class _Recommendations(NamedTuple):
    """What a place's recommendation is read from."""

    by_asset: dict[int, Recommendation]  # asset id -> its first recommendation
    use_short: bool  # the model follows the analyst's short-term recommendations


def place_assets(inputs: Inputs, pos: Positions, classes: Classes) -> Places:
    """Step 2: the places and their roles (CalculationError for the adviser's edits that cannot
    apply: override_units, missing_price, unknown_asset, already_in_target, class_not_in_model,
    not_in_target)."""
    prep, snap = inputs.prep, inputs.snapshot
    info, units = pos.info, pos.units
    pins = _read_pins(snap.overrides, info)
    exc_asset: dict[int, PortfolioException] = {}
    exc_custom: dict[int, PortfolioException] = {}
    for e in inputs.settings.exceptions:
        if e.action not in EXCEPTION_ACTIONS:
            continue
        if e.asset_id is not None:
            exc_asset.setdefault(e.asset_id, e)
        elif e.custom_holding_id is not None:
            exc_custom.setdefault(e.custom_holding_id, e)
    by_asset: dict[int, Recommendation] = {}
    for r in snap.recommendations:
        by_asset.setdefault(r.asset_id, r)
    recs = _Recommendations(by_asset, bool(inputs.model.analyst_recommendations))
    percentages = prep.percentages
    used = set(prep.asset_ids)
    lines: list[Line] = []

    def new_line(asset_id: int, cls: ClassState, rank: int, kind: str, model_asset_id: int | None) -> Line:
        row = info[asset_id]
        return Line(asset_id, row.code, cls, row.industry_group_id, row.last_close_price, units.get(asset_id, ZERO),
                    pos.values.get(asset_id, ZERO), kind, model_asset_id, rank)

    def held(asset_id: int) -> bool:
        return units.get(asset_id, ZERO) > 0

    def price(asset_id: int) -> Decimal | None:
        row = info.get(asset_id)
        return row.last_close_price if row else None

    def exc_of(asset_id: int) -> str | None:
        e = exc_asset.get(asset_id)
        return e.action if e is not None else None

    for pc in prep.classes:
        cls = classes.by_id[pc.class_id]
        for pa in pc.assets:
            m = pa.asset_id
            m_exc = exc_of(m)
            place: int | None = m
            kind = "model"
            note_code: str | None = None
            note_text = ""  # read only with a note_code
            if m_exc == SUBSTITUTE:
                sub = exc_asset[m].substitute_asset_id
                replaced = new_line(m, cls, pa.rank, "replaced", m)
                _set_recommendation(replaced, recs, m, None, unmodelled=True)
                replaced.exception = SUBSTITUTE
                if sub is not None and sub != m and sub not in used:
                    used.add(sub)
                    if sub not in info:  # an asset the snapshot does not know: no price, sold or never bought
                        if info is pos.info:
                            info = dict(info)
                        info[sub] = AssetInfo(f"#{sub}", cls.id, None, None)
                    place, kind = sub, "substitute"
                    replaced.add(R.REPLACED, f"replaced by the substitution asset {info[sub].code}")
                    note_code, note_text = R.SUBSTITUTE, f"substitution asset in place of {pa.spec.asset.code}"
                else:
                    place = None
                    sub_code = info[sub].code if sub in info else (f"#{sub}" if sub is not None else "none")
                    replaced.add(R.REPLACED, f"replaced by the substitution asset {sub_code}, which has its own "
                                             "place or cannot be used: its weight goes to the rest of its class")
                replaced.role = OUT
                if m in pins:
                    _pin(replaced, pins[m], recs)
                lines.append(replaced)
            elif m_exc not in (DONT_HOLD, LOCK) and not held(m):
                for eq in prep.equivalents.get(m, ()):
                    if eq not in used and held(eq) and exc_of(eq) != DONT_HOLD:
                        used.add(eq)
                        place, kind = eq, "equivalent"
                        note_code, note_text = R.EQUIVALENT, f"held as the equivalent of {pa.spec.asset.code}"
                        break
                if place == m and price(m) is None and pa.spec.alternate is not None:
                    alt = pa.spec.alternate.id
                    if alt not in used and price(alt) is not None and exc_of(alt) != DONT_HOLD:
                        used.add(alt)
                        place, kind = alt, "alternate"
                        note_code, note_text = (R.ALTERNATE,
                                                f"alternate of {pa.spec.asset.code}, which has no last close price")
            if place is None:
                continue
            line = new_line(place, cls, pa.rank, kind, m)
            if note_code:
                line.add(note_code, note_text)
            w = pa.percentage if percentages else ONE
            line.percentage = pa.percentage if percentages else None
            line.weight = w
            exc = exc_of(place) if place != m else m_exc
            if exc == SUBSTITUTE:
                exc = None
            line.exception = exc
            line.manual = exc == MANUAL_TRADE_DECISION or m_exc == MANUAL_TRADE_DECISION
            _set_recommendation(line, recs, place, m)
            _assign(line, exc, pins, recs)
            lines.append(line)
    # assets the adviser added: the last places of their classes
    for i, item in enumerate(snap.added):
        aid = item.asset_id
        if aid not in info:
            raise E.CalculationError("unknown_asset", E.UNKNOWN_ASSET.format(asset_id=aid))
        if aid in used:
            raise E.CalculationError("already_in_target", E.ALREADY_IN_TARGET.format(code=info[aid].code))
        class_id = item.class_id if item.class_id is not None else info[aid].class_id
        into = classes.by_id.get(class_id)
        if into is None or not (into.in_model or class_id in classes.custom_ids):
            raise E.CalculationError("class_not_in_model", E.CLASS_NOT_IN_MODEL.format(code=info[aid].code))
        used.add(aid)
        line = new_line(aid, into, ADDED_RANK + i, "added", None)
        line.added = line.edited = True
        line.add(R.ADDED, f"added to {into.label} by the adviser")
        if percentages:
            model_cls = prep.class_by_id.get(class_id)
            line.weight = line.percentage = (model_cls.percentage_total / len(model_cls.assets)
                                             if model_cls is not None and model_cls.assets else ONE)
        exc = exc_of(aid)
        line.exception = exc if exc != SUBSTITUTE else None
        line.manual = exc == MANUAL_TRADE_DECISION
        _set_recommendation(line, recs, aid, None)
        _assign(line, line.exception, pins, recs)
        lines.append(line)
    # holdings no place takes: sold unless locked
    extra = [aid for aid in units if units[aid] > 0 and aid not in used]
    extra.sort(key=lambda aid: (classes.get(info[aid].class_id).rank, info[aid].code, aid))
    for i, aid in enumerate(extra):
        cls = classes.get(info[aid].class_id)
        line = new_line(aid, cls, UNMODELLED_RANK + i, "unmodelled", None)
        exc = exc_of(aid)
        line.exception = exc if exc != SUBSTITUTE else None
        line.manual = exc == MANUAL_TRADE_DECISION
        _set_recommendation(line, recs, aid, None, unmodelled=True)
        if aid in pins:
            _pin(line, pins[aid], recs)
        elif exc == LOCK:
            line.role = FIXED
            line.add(R.LOCKED, "locked: the current units are kept")
        else:
            line.role = OUT
            line.add(R.NOT_IN_MODEL, "not in the model: sold")
            if exc == DONT_HOLD:
                line.add(R.EXCLUDED, "excluded by exception: Don't hold")
        if line.manual:
            line.add(R.MANUAL, "Manual Trade Decision: the trade needs a manual decision")
        lines.append(line)
    for line in lines:
        line.cls.lines.append(line)
    if pins:
        placed = {line.asset_id for line in lines}
        for aid in pins:
            if aid not in placed:
                code = info[aid].code if aid in info else f"#{aid}"
                raise E.CalculationError("not_in_target", E.NOT_IN_TARGET.format(code=code))
    return Places(lines=lines, pins=pins, exc_custom=exc_custom)


def _read_pins(overrides: tuple[TargetOverride, ...], info: dict[int, KnownAsset]) -> dict[int, Decimal]:
    """asset id -> the target units the adviser set (a later override of an asset wins)."""
    pins: dict[int, Decimal] = {}
    for o in overrides:
        try:
            units = Decimal(o.target_units)
            whole = units.is_finite() and units >= 0 and units == units.to_integral_value()
        except (ArithmeticError, TypeError, ValueError):
            whole = False
        if not whole:
            row = info.get(o.asset_id)
            raise E.CalculationError("override_units", E.OVERRIDE_UNITS.format(
                code=row.code if row else f"#{o.asset_id}"))
        pins[o.asset_id] = units.to_integral_value() + ZERO  # 100.000000 -> 100, -0 -> 0
    return pins


def _pin(line: Line, units: Decimal, recs: _Recommendations) -> None:
    """The adviser's units win over the recommendation, exceptions, caps, the minimum trade
    amount and the cash rules (see "Edits" in target.py)."""
    if units > 0 and line.price is None:
        raise E.CalculationError("missing_price", E.MISSING_PRICE.format(codes=line.code))
    line.role = PINNED
    line.pin = units
    line.edited = True
    if line.kind in ("unmodelled", "replaced") and units > 0:  # kept: its own recommendation, not SELL
        resolved = A.resolve(recs.by_asset.get(line.asset_id), recs.use_short, line.code)
        line.action, line.source = resolved.action, resolved.source
        line.limit_price, line.comment = resolved.limit_price, resolved.comment
    line.add(R.EDITED, f"set by the adviser: {fmt(units)} units" if units else
             "set by the adviser to zero: removed")


def _set_recommendation(line: Line, recs: _Recommendations, asset_id: int, model_asset_id: int | None,
                        unmodelled: bool = False) -> None:
    rec = recs.by_asset.get(asset_id)
    if rec is None and model_asset_id is not None:
        rec = recs.by_asset.get(model_asset_id)
    resolved = A.resolve(rec, recs.use_short, line.code)
    if unmodelled:
        action = resolved.action if resolved.action.base in A.TARGET_ZERO else SELL_ACTION
        line.action = action
        line.source = resolved.source if action is resolved.action else "none"
    else:
        line.action = resolved.action
        line.source = resolved.source
    line.limit_price = resolved.limit_price
    line.comment = resolved.comment


def _assign(line: Line, exc: str | None, pins: dict[int, Decimal], recs: _Recommendations) -> None:
    a = line.action
    base = a.base
    if line.asset_id in pins:
        _pin(line, pins[line.asset_id], recs)
        a = line.action
    elif exc == LOCK:
        line.role = FIXED
        line.add(R.LOCKED, "locked: the current units are kept")
    elif exc == DONT_HOLD:
        line.role = OUT
        line.add(R.EXCLUDED, "excluded by exception: Don't hold; its weight goes to the rest of its class")
    elif line.price is None:
        line.role = OUT
        line.add(R.NO_PRICE, "no last close price: it cannot be bought")
    elif base in A.TARGET_ZERO:
        line.role = OUT
        if base == A.SA:
            line.add(R.RECOMMENDATION_SA, f"recommendation {a.code}: sell all (a full sell)")
        else:
            line.add(R.RECOMMENDATION_SELL, f"recommendation {a.code}: sold")
    elif base == A.HOLD:
        if line.held:
            line.role = FIXED
            line.add(R.RECOMMENDATION_HOLD, f"recommendation {a.code}: the current units are kept")
        else:
            line.role = OUT
            line.add(R.NEVER_BUY, f"recommendation {a.code}: no new position is bought")
    elif base in (A.TAP, A.TSP):
        if line.held:
            line.role = FLEX
            line.mode = M_TAP if base == A.TAP else M_TSP
        else:
            line.role = OUT
            line.add(R.NEVER_BUY, f"recommendation {a.code}: no new position is bought")
    else:
        line.role = FLEX
        line.mode = M_ACC if base == A.ACC else M_BUY
        if base == A.SB:
            line.weight = line.weight * HALF
    if a.urgent:
        line.add(R.FAST_FOLLOW, f"recommendation {a.code}: fast follow, exempt from the minimum trade amount")
    if a.stop_loss:
        line.add(R.STOP_LOSS, f"recommendation {a.code}: a stop-loss order at the recommendation price")
    if line.manual:
        line.add(R.MANUAL, "Manual Trade Decision: the trade needs a manual decision")
