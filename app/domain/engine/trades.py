"""`generate_trades(snapshot, target) -> Trades`: the trade recommendations that take today's
portfolio to a target (design/engine.md "Trade instructions"), and `trade_figures`, the money of
one transaction, used here and whenever a user edits a transaction's units or price (spec 002 s5).
`generate_trades_to_stored(snapshot, data)` does the same from a stored target's JSON, reading
only what trading needs of each asset (a bulk run reads ten thousand stored targets).

- The target may be older than the snapshot (the last approved one): each asset's trade is its
  target units less today's units (holdings plus pending trades); fixed assets (Lock, HOLD) never
  trade; holdings the target does not list are left alone (the next calculation sees them).
- Price: the recommendation's limit price if set, else the last close (today's, else the target's).
- The recommendation's action and comment at generation time are today's; they are kept in
  `str_on_ti_generation` ('SELL' or 'SELL: comment').
- Flags: full sell (the whole holding is sold), stop loss (SL/x sells), urgent (FFL/x). Full sells
  and FFL trades are exempt from the minimum trade amount, so their pending amount is kept.
- Notes: Manual Trade Decision assets (with the trade the engine would make) instead of a
  transaction; HOLD recommendations with a comment on held assets; custom holdings with a Don't
  hold or Manual Trade Decision exception (the engine never trades them).
- Order: sells first, then buys, each in the target's priority order.
- The adviser's edits (target.py "Edits") are in the target already: an edited asset trades to
  its target units like any other (a holding the model does not place, kept by the adviser, keeps
  its own recommendation instead of SELL).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, localcontext
from typing import Any, Iterable

from app.domain import validators
from app.domain.engine import actions as A
from app.domain.engine import reasons as R
from app.domain.engine.limits import brokerage_fee, limits_for
from app.domain.engine.positions import gather_positions
from app.domain.engine.prepared import prepare_model
from app.domain.engine.results import Note, Target, TradeFigures, Trades, Transaction, build
from app.domain.engine.snapshot import (
    DECREASE, DONT_HOLD, EXCEPTION_LABELS, INCREASE, MANUAL_TRADE_DECISION, Brokerage, PortfolioException,
    Recommendation, Snapshot,
)
from app.domain.engine.working import CTX, SELL_ACTION
from app.domain.errors import ValidationError
from app.domain.money import format_aud, to_cents

ZERO = Decimal(0)
BUY_LABEL = "BUY"
SELL_LABEL = "SELL"
NOTE_MANUAL = "manual_trade_decision"
NOTE_HOLD = "hold_comment"

_BUY_WORDS = {INCREASE, "buy", "BUY"}
_SELL_WORDS = {DECREASE, "sell", "SELL"}


BrokerageTuple = tuple[Decimal | None, Decimal | None, Decimal | None]  # (percent, min, max)


def _brokerage(value: Brokerage | BrokerageTuple | None) -> Brokerage:
    if isinstance(value, Brokerage):
        return value
    if value is None:
        return Brokerage()
    percent, minimum, maximum = value
    return Brokerage(percent, minimum, maximum)


def trade_figures(action: str, units: Decimal | int | str | None, price: Decimal | int | str | None,
                  brokerage: Brokerage | BrokerageTuple | None, min_trade_amount: Decimal | int | None,
                  *, exempt: bool = False) -> TradeFigures:
    """The money of a transaction of `units` at `price` (spec 002 s5, design/engine.md):
    value = units x price to the cent; brokerage = percent x value clamped to [min, max];
    a buy's amount is value + brokerage (its cost base too), a sell's amount is its value and its
    cost base value - brokerage; pending is the amount, or 0 when the amount is below the minimum
    trade amount (unless `exempt`: FFL trades and full sells).
    `action`: increase / decrease (BUY / SELL accepted). Negative units or price: ValidationError."""
    if action in _BUY_WORDS:
        buy = True
    elif action in _SELL_WORDS:
        buy = False
    else:
        raise ValueError(f"unknown trade action {action!r}")
    try:
        units = Decimal(units if units is not None else 0)
        price = Decimal(price if price is not None else 0)
    except (ArithmeticError, ValueError, TypeError):
        raise ValidationError(validators.NUMBER) from None
    if not units.is_finite() or not price.is_finite():
        raise ValidationError(validators.NUMBER)
    if units < 0 or price < 0:
        raise ValidationError(validators.POSITIVE)
    value = to_cents(units * price)
    fee = brokerage_fee(value, _brokerage(brokerage))
    if buy:
        amount = value + fee
        cost_base = amount
    else:
        amount = value
        cost_base = value - fee
    minimum = Decimal(min_trade_amount) if min_trade_amount else ZERO
    pending = amount if exempt or amount >= minimum else ZERO
    return build(TradeFigures, {"value": value, "brokerage": fee, "amount": amount, "cost_base": cost_base,
                                "pending": pending})


def str_on_generation(action_code: str, comment: str | None) -> str:
    """What a transaction keeps of the recommendation at generation time: 'SELL' or 'SELL: comment'."""
    return f"{action_code}: {comment}" if comment else action_code


@dataclass(frozen=True, slots=True)
class TradedAsset:
    """What trading reads of one asset of a target (an AssetTarget's fields of the same names;
    `edited`: the adviser set its units)."""
    asset_id: int
    code: str
    class_id: int | None
    industry_group_id: int | None
    kind: str
    model_asset_id: int | None
    rank: int
    fixed: bool
    manual_trade_decision: bool
    price: Decimal | None
    target_units: Decimal
    edited: bool


def traded_assets(target: Target) -> list[TradedAsset]:
    return [TradedAsset(a.asset_id, a.code, a.class_id, a.industry_group_id, a.kind, a.model_asset_id, a.rank,
                        a.fixed, a.manual_trade_decision, a.price, a.target_units,
                        any(r.code == R.EDITED for r in a.reasons)) for a in target.assets]


def stored_traded_assets(data: dict[str, Any]) -> list[TradedAsset]:
    """The assets of a target stored as `Target.to_dict()` (JSON-decoded), as `traded_assets` reads
    them from the Target itself: a stored value is what `to_dict` wrote (Decimals as strings)."""
    edited = R.EDITED
    out = []
    for a in data["assets"]:
        price = a["price"]
        out.append(TradedAsset(
            a["asset_id"], a["code"], a["class_id"], a["industry_group_id"], a["kind"], a["model_asset_id"], a["rank"],
            a["fixed"], a["manual_trade_decision"], None if price is None else _decimal(price),
            _decimal(a["target_units"]), any(r["code"] == edited for r in a["reasons"])))
    return out


def _decimal(value: object) -> Decimal:
    """A stored figure as `Target.from_dict` reads it: from its text (a number, from its text too)."""
    return Decimal(value if value.__class__ is str else str(value))


def generate_trades(snapshot: Snapshot, target: Target) -> Trades:
    """The transactions and notes that take `snapshot`'s portfolio to `target` (module text)."""
    with localcontext(CTX):
        return _generate(snapshot, traded_assets(target))


def generate_trades_to_stored(snapshot: Snapshot, data: dict[str, Any]) -> Trades:
    """`generate_trades` to a target stored as `Target.to_dict()` (JSON-decoded)."""
    with localcontext(CTX):
        return _generate(snapshot, stored_traded_assets(data))


def _generate(snapshot: Snapshot, assets: Iterable[TradedAsset]) -> Trades:
    prep = prepare_model(snapshot.model)
    gathered = gather_positions(snapshot, prep)
    info, units = gathered.info, gathered.units
    limits = limits_for(snapshot.settings, snapshot.model.allocation_method)
    mta = limits.min_trade_amount
    brokerage = snapshot.brokerage
    use_short = bool(snapshot.model.analyst_recommendations)
    recs: dict[int, Recommendation] = {}
    for r in snapshot.recommendations:
        recs.setdefault(r.asset_id, r)
    manual_today: set[int] = set()
    for e in snapshot.settings.exceptions:
        if e.asset_id is not None and e.action == MANUAL_TRADE_DECISION:
            manual_today.add(e.asset_id)
    sells: list[Transaction] = []
    buys: list[Transaction] = []
    notes: list[Note] = []
    for a in sorted(assets, key=lambda x: x.rank):
        current = units.get(a.asset_id, ZERO)
        rec = recs.get(a.asset_id)
        if rec is None and a.model_asset_id is not None:
            rec = recs.get(a.model_asset_id)
        resolved = A.resolve(rec, use_short, a.code)
        action = resolved.action
        if a.kind in ("unmodelled", "replaced") and action.base not in A.TARGET_ZERO and not (
                a.target_units > 0 and a.edited):  # kept by the adviser: its own
            action = SELL_ACTION
        if action.base == A.HOLD and resolved.comment and current > 0:
            notes.append(Note(source=NOTE_HOLD, asset_id=a.asset_id, custom_holding_id=None, code=a.code,
                              text=resolved.comment, recommendation_action=action.code, comment=resolved.comment))
        wanted = current if a.fixed else a.target_units
        delta = wanted - current
        if delta == 0:
            continue
        known = info.get(a.asset_id)
        last_close = known.last_close_price if known is not None and known.last_close_price is not None else a.price
        if last_close is None:
            continue  # nothing can be traded without a price (the target never buys such an asset)
        limit_price = resolved.limit_price
        price = limit_price if limit_price is not None else last_close
        side = INCREASE if delta > 0 else DECREASE
        quantity = abs(delta)
        full_sell = side == DECREASE and wanted == 0
        urgent = action.urgent
        stop_loss = action.stop_loss and side == DECREASE
        figures = trade_figures(side, quantity, price, brokerage, mta, exempt=urgent or full_sell)
        comment = resolved.comment
        if a.manual_trade_decision or a.asset_id in manual_today:
            word = BUY_LABEL if side == INCREASE else SELL_LABEL
            notes.append(Note(
                source=NOTE_MANUAL, asset_id=a.asset_id, custom_holding_id=None, code=a.code,
                text=f"{EXCEPTION_LABELS[MANUAL_TRADE_DECISION]}: the calculation would {word} "
                     f"{_units_text(quantity)} {a.code} at {price} ({format_aud(figures.value)})",
                action=side, units=quantity, price=price, value=figures.value, recommendation_action=action.code,
                comment=comment,
            ))
            continue
        tx = build(Transaction, {
            "asset_id": a.asset_id, "code": a.code, "class_id": a.class_id, "industry_group_id": a.industry_group_id,
            "action": side, "display_action": BUY_LABEL if side == INCREASE else SELL_LABEL, "units": quantity,
            "price": price, "last_close_price": last_close, "limit_price": limit_price, "value": figures.value,
            "brokerage": figures.brokerage, "amount": figures.amount, "cost_base": figures.cost_base,
            "pending": figures.pending, "current_units": current, "target_units": wanted, "full_sell": full_sell,
            "stop_loss": stop_loss, "urgent": urgent, "recommendation_action": action.code, "comment": comment,
            "str_on_ti_generation": str_on_generation(action.code, comment), "manual_trade_decision": False,
        })
        (buys if side == INCREASE else sells).append(tx)
    custom_exceptions: dict[int, PortfolioException] = {}
    for e in snapshot.settings.exceptions:
        if e.custom_holding_id is not None:
            custom_exceptions.setdefault(e.custom_holding_id, e)
    for ch in snapshot.custom_holdings:
        exc = custom_exceptions.get(ch.id)
        if exc is not None and exc.action in (DONT_HOLD, MANUAL_TRADE_DECISION):
            notes.append(Note(source=NOTE_MANUAL, asset_id=None, custom_holding_id=ch.id, code=ch.name,
                              text=f"{EXCEPTION_LABELS[exc.action]}: {ch.name} is a custom holding, which is not "
                                   "traded here; it needs a manual decision"))
    transactions = tuple(sells + buys)
    return Trades(
        transactions=transactions, notes=tuple(notes),
        buys=sum((t.amount for t in buys), ZERO), sells=sum((t.cost_base for t in sells), ZERO),
        brokerage=sum((t.brokerage for t in transactions), ZERO), min_trade_amount=mta,
    )


def _units_text(units: Decimal) -> str:
    return format(units.normalize(), "f") if units == units.to_integral_value() else format(units, "f")
