"""The recommended portfolio in words a client reads: for every line the trade it makes ("Buy 199",
"Sell 642", "Hold", or "Not bought" for a model asset neither held nor bought) and the model's recommendation behind it in plain words (the action codes of
spec 002 s9 - ACC, BUY, HOLD, SA, SB, SELL, TAP, TSP and their FFL/ and SL/ forms - with their
meaning, design/engine.md "Actions"), plus the cash account's line. Pure: built from the engine's
result (app.domain.engine.results.Target) and the names behind its ids."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from app.domain.engine.results import AssetTarget, Target
from app.domain.money import format_aud

ZERO = Decimal(0)

# base action -> (its name, what it means for the holding)
ACTION_MEANINGS: dict[str, tuple[str, str]] = {
    "BUY": ("Buy", "hold it at the model's weight"),
    "ACC": ("Accumulate", "buy up to the model's weight, without selling down a larger holding"),
    "SB": ("Speculative buy", "a smaller position, at half the weight of a buy"),
    "HOLD": ("Hold", "keep the units you have and buy no more"),
    "SELL": ("Sell", "sell the whole holding"),
    "SA": ("Sell all", "sell the whole holding"),
    "TAP": ("Take a profit", "sell the part above the model's weight"),
    "TSP": ("Take some profit", "sell half of the part above the model's weight"),
}
FAST_FOLLOW_WORDS = "to be acted on promptly"
NOT_BOUGHT = "Not bought"  # a model asset neither held nor bought (its recommendation forbids buying it)
STOP_LOSS_WORDS = "as a stop-loss order at the recommended price"
EXCEPTION_WORDS = {
    "dont_hold": "You asked not to hold this asset.",
    "substitute": "It takes the place of an asset you asked to substitute.",
    "manual_trade_decision": "You decide this trade yourself (manual trade decision).",
    "lock": "You asked to keep this holding unchanged (locked).",
}
KIND_WORDS = {
    "equivalent": "An equivalent of the model's asset.",
    "substitute": "Your substitute for the model's asset.",
    "alternate": "The model's alternate for an asset it holds.",
    "unmodelled": "Not in the model.",
    "added": "Added by your adviser.",
}


def action_words(code: str | None) -> str:
    """'FFL/TAP' -> 'Take a profit: sell the part above the model's weight, to be acted on promptly
    (FFL/TAP)'; an unknown or empty code reads as it is."""
    text = (code or "").strip().upper()
    if not text:
        return ""
    prefix, _, base = text.partition("/") if "/" in text else ("", "", text)
    meaning = ACTION_MEANINGS.get(base)
    if meaning is None or prefix not in ("", "FFL", "SL"):
        return text
    name, what = meaning
    extra = {"FFL": f", {FAST_FOLLOW_WORDS}", "SL": f", {STOP_LOSS_WORDS}"}.get(prefix, "")
    return f"{name}: {what}{extra} ({text})"


def whole(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def trade_words(delta_units: Decimal | None) -> str:
    """'Buy 199', 'Sell 642' or 'Hold' (whole units, thousands separated)."""
    units = whole(delta_units or ZERO)
    if units > 0:
        return f"Buy {units:,}"
    if units < 0:
        return f"Sell {-units:,}"
    return "Hold"


Side = Literal["BUY", "SELL", "HOLD"]  # what a line of advice does with its asset


def trade_side(delta_units: Decimal | None) -> Side:
    units = whole(delta_units or ZERO)
    return "BUY" if units > 0 else "SELL" if units < 0 else "HOLD"


@dataclass(frozen=True)
class AdviceLine:
    """One line of the recommended portfolio as a client reads it. `kind` is asset | holding | cash;
    `reason` the model's recommendation in words (with the analyst's comment), `detail` the
    calculation's own reasons (the detailed layout prints them)."""

    kind: str
    code: str
    name: str
    trade: str
    side: Side
    reason: str
    detail: str
    price: Decimal | None
    current_units: Decimal | None
    target_units: Decimal | None
    current_value: Decimal
    target_value: Decimal
    target_percent: Decimal | None


def _reason(a: AssetTarget) -> str:
    parts = []
    if a.exception and a.exception in EXCEPTION_WORDS:
        parts.append(EXCEPTION_WORDS[a.exception])
    if a.kind in KIND_WORDS:
        parts.append(KIND_WORDS[a.kind])
    words = action_words(a.action)
    if words:
        parts.append(f"Recommendation: {words}." if a.recommendation_source != "default"
                     else f"No recommendation for it: {words}.")
    if a.comment:
        parts.append(f"Analyst: {a.comment}")
    return " ".join(parts)


def advice_lines(result: Target, asset_names: dict[int, tuple[str, str]] | None = None) -> tuple[AdviceLine, ...]:
    """Every listed asset (largest target first), then deposits and custom holdings (never traded),
    then the cash account (its value now and after the trades)."""
    names = asset_names or {}
    lines = []
    for a in sorted(result.assets, key=lambda a: (-a.target_value, -a.current_value, a.code)):
        held_or_bought = whole(a.current_units) != 0 or whole(a.target_units) != 0
        lines.append(AdviceLine(
            kind="asset", code=a.code, name=names.get(a.asset_id, ("", ""))[0],
            trade=trade_words(a.delta_units) if held_or_bought else NOT_BOUGHT,
            side=trade_side(a.delta_units), reason=_reason(a), detail="; ".join(r.text for r in a.reasons if r.text),
            price=a.limit_price or a.price, current_units=a.current_units, target_units=a.target_units,
            current_value=a.current_value, target_value=a.target_value, target_percent=a.target_percent))
    for h in result.holdings:
        lines.append(AdviceLine(
            kind="holding", code="Deposit" if h.kind == "deposit" else "Custom", name=h.name, trade="Hold",
            side="HOLD", reason="Not traded: its value counts toward its class.",
            detail="; ".join(r.text for r in h.reasons if r.text), price=None, current_units=None, target_units=None,
            current_value=h.value, target_value=h.value, target_percent=h.percent))
    share = (result.cash_after * 100 / result.value) if result.value else None
    change = result.cash_after - result.cash
    lines.append(AdviceLine(
        kind="cash", code="Cash", name="Cash account", trade="Hold" if not change else
        ("Add " if change > 0 else "Use ") + format_aud(abs(change)), side="HOLD",
        reason="Cash after the trades: the sells come in, the buys and the brokerage go out.",
        detail=f"minimum cash {format_aud(result.min_cash)}" if result.min_cash else "", price=None, current_units=None,
        target_units=None, current_value=result.cash, target_value=result.cash_after, target_percent=share))
    return tuple(lines)


def recommendation_words(text: str | None) -> str:
    """What a trade keeps of its recommendation ('TAP: Resources rallied', 'BUY') in words: 'Take a
    profit: sell the part above the model's weight (TAP). Analyst: Resources rallied'. Any other
    text (a note's own words) is left as it is."""
    text = (text or "").strip()
    code, sep, comment = text.partition(": ") if ": " in text else (text, "", "")
    words = action_words(code)
    if not words or words == code.strip().upper():
        return text
    return f"{words}. Analyst: {comment.strip()}" if comment.strip() else words
