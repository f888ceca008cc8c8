"""Recommendation action codes as the engine reads them (design/engine.md "Actions").

The vocabulary is the specification's (app.domain.models.SHORT_TERM_ACTIONS, LONG_TERM_ACTIONS):
a base action, optionally prefixed FFL/ (fast follow: exempt from the minimum trade amount,
urgent) or SL/ (stop loss, for SELL, TAP and TSP: a stop-loss order at the recommendation price
whose quantity the trade file keeps)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.domain.engine.errors import UNKNOWN_ACTION, CalculationError
from app.domain.engine.snapshot import Recommendation

BUY = "BUY"
ACC = "ACC"
SB = "SB"
HOLD = "HOLD"
SELL = "SELL"
SA = "SA"
TAP = "TAP"
TSP = "TSP"
BASE_ACTIONS = (ACC, BUY, HOLD, SA, SB, SELL, TAP, TSP)
FAST_FOLLOW = "FFL"
STOP_LOSS = "SL"
STOP_LOSS_BASES = (SELL, TAP, TSP)  # spec 002 s5: SL applies to the sell, tap or tsp recommendations

# what each base action allows
NEVER_BUY = frozenset({HOLD, SELL, SA, TAP, TSP})
TARGET_ZERO = frozenset({SELL, SA})

DEFAULT = BUY  # no recommendation at all

# where the action came from
SOURCE_SHORT_TERM = "short_term"
SOURCE_LONG_TERM = "long_term"
SOURCE_DEFAULT = "default"


@dataclass(frozen=True)
class Action:
    code: str  # as recommended: 'FFL/SELL'
    base: str  # 'SELL'
    urgent: bool = False  # FFL
    stop_loss: bool = False  # SL

    @property
    def never_buys(self) -> bool:
        return self.base in NEVER_BUY


def _parse(code: str) -> Action | None:
    text = code.strip().upper()
    if text in BASE_ACTIONS:
        return Action(text, text)
    prefix, _, base = text.partition("/")
    if prefix == FAST_FOLLOW and base in BASE_ACTIONS:
        return Action(text, base, urgent=True)
    if prefix == STOP_LOSS and base in STOP_LOSS_BASES:
        return Action(text, base, stop_loss=True)
    return None


_PARSED: dict[str, Action | None] = {}


def parse_action(code: str, asset_code: str = "") -> Action:
    """'FFL/SELL' -> Action('FFL/SELL', 'SELL', urgent=True); long-term 'buy' -> BUY. Raises
    CalculationError for a code outside the vocabulary."""
    try:
        action = _PARSED[code]
    except KeyError:
        action = _PARSED[code] = _parse(code)
    if action is None:
        raise CalculationError("unknown_action", UNKNOWN_ACTION.format(action=code, code=asset_code))
    return action


DEFAULT_ACTION = Action(DEFAULT, DEFAULT)


@dataclass(frozen=True)
class Resolved:
    """The recommendation that applies to an asset."""

    action: Action
    limit_price: Decimal | None
    comment: str | None
    source: str  # SOURCE_*


DEFAULT_RESOLVED = Resolved(DEFAULT_ACTION, None, None, SOURCE_DEFAULT)


def resolve(rec: Recommendation | None, use_short_term: bool = True, asset_code: str = "") -> Resolved:
    """The short-term recommendation when it has an action (and the model uses analyst
    recommendations), else the long-term one, else BUY. `rec` is a snapshot.Recommendation or None."""
    if rec is None:
        return DEFAULT_RESOLVED
    if use_short_term and rec.action:
        return _resolved(parse_action(rec.action, asset_code), rec.limit_price, rec.comment or None, SOURCE_SHORT_TERM)
    if rec.long_term:
        return _resolved(parse_action(rec.long_term, asset_code), None, rec.long_term_comment or None, SOURCE_LONG_TERM)
    return DEFAULT_RESOLVED


def _resolved(action: Action, limit_price: Decimal | None, comment: str | None, source: str) -> Resolved:
    # the frozen dataclass without its field-by-field __init__ (see results.build): called per asset
    obj = object.__new__(Resolved)
    object.__setattr__(obj, "__dict__", {"action": action, "limit_price": limit_price, "comment": comment,
                                         "source": source})
    return obj
