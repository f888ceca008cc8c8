"""What the engine answers: a target portfolio (design/engine.md "Output") and trade
recommendations. Immutable values; `to_dict` gives JSON-ready data (Decimals as strings) and
`from_dict` reads it back, so a stored target (target_portfolios.result) can feed
`generate_trades` later.

Reading is on the path of every bulk trade-recommendation run (each portfolio's stored target is
reloaded), so `from_dict` does not interpret type hints per value: each result class gets a reader
compiled once from its type hints (see `_compile`), equal in effect to the generic reading."""
from __future__ import annotations

import types
import typing
from dataclasses import MISSING, dataclass, fields, is_dataclass
from decimal import Decimal
from typing import Any, Callable, TypeVar

from app.domain.engine.snapshot import AddedAsset, TargetOverride

ZERO = Decimal(0)
T = TypeVar("T")


@dataclass(frozen=True)
class Reason:
    """Why a number is what it is: a stable machine code (reasons.*) and the text shown."""

    code: str
    text: str


_REASONS: dict[tuple[str, str], Reason] = {}


def intern_reason(code: str, text: str) -> Reason:
    """One Reason object per distinct (code, text): most texts repeat across portfolios, so a bulk
    run (and reading stored targets) makes each once."""
    key = (code, text)
    reason = _REASONS.get(key)
    if reason is None:
        if len(_REASONS) > 100_000:
            _REASONS.clear()
        reason = _REASONS[key] = Reason(code, text)
    return reason


@dataclass(frozen=True)
class AssetTarget:
    asset_id: int
    code: str
    class_id: int
    industry_group_id: int | None
    kind: str  # model | equivalent | substitute | alternate | unmodelled | replaced
    model_asset_id: int | None  # the model asset whose place it takes
    rank: int  # priority order in the whole portfolio (0 = highest)
    action: str  # the recommendation's code as given ('FFL/SELL'); SELL for unmodelled holdings without one
    base_action: str  # 'SELL'
    recommendation_source: str  # short_term | long_term | default | none
    comment: str | None
    limit_price: Decimal | None
    exception: str | None  # snapshot.EXCEPTION_ACTIONS
    manual_trade_decision: bool
    fixed: bool  # HOLD or Lock: target units = current units
    price: Decimal | None  # last close
    current_units: Decimal
    target_units: Decimal
    delta_units: Decimal
    current_value: Decimal
    target_value: Decimal
    delta_value: Decimal
    current_percent: Decimal
    target_percent: Decimal
    weight_percent: Decimal  # the value the allocation gave it (after caps), before whole units, min trade and cash
    brokerage: Decimal  # of the trade at last close
    full_sell: bool
    stop_loss: bool
    urgent: bool
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class HoldingTarget:
    """A deposit or custom holding: never traded, counts toward its class."""

    kind: str  # deposit | custom
    id: int
    name: str
    class_id: int
    value: Decimal
    percent: Decimal
    exception: str | None
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class AllocationTarget:
    """A class or an industry group: its target (allocation), bounds and result, % of the portfolio."""

    id: int | None
    title: str
    is_cash: bool
    target_percent: Decimal | None
    min: Decimal | None
    max: Decimal | None
    current_value: Decimal
    current_percent: Decimal
    result_value: Decimal
    result_percent: Decimal
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class Target:
    portfolio_id: int | None
    model_id: int
    model_version: int
    allocation_method: str
    value: Decimal  # V: listed assets at last close + cash + deposits + custom holdings
    cash: Decimal  # before trades (pending trades counted)
    cash_after: Decimal
    min_cash: Decimal
    min_trade_amount: Decimal
    buys: Decimal  # value of the buys at last close
    sells: Decimal
    brokerage: Decimal
    not_enough_cash: bool
    assets: tuple[AssetTarget, ...]
    holdings: tuple[HoldingTarget, ...]
    classes: tuple[AllocationTarget, ...]
    industry_groups: tuple[AllocationTarget, ...]
    reasons: tuple[Reason, ...]
    # the adviser's edits the target honours (snapshot.overrides / added; empty for a calculation)
    overrides: tuple[TargetOverride, ...] = ()
    added: tuple[AddedAsset, ...] = ()

    @property
    def value_after(self) -> Decimal:
        """The portfolio's value after the trades at unchanged prices (= value - brokerage)."""
        return (sum((a.target_value for a in self.assets), ZERO) + sum((h.value for h in self.holdings), ZERO)
                + self.cash_after)

    def asset(self, asset_id: int) -> AssetTarget | None:
        return next((a for a in self.assets if a.asset_id == asset_id), None)

    def to_dict(self) -> dict[str, Any]:
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Target":
        return from_dict(cls, data)


# ---- trade recommendations ---------------------------------------------------------------------
@dataclass(frozen=True)
class TradeFigures:
    """The money of one transaction (spec 002 s5)."""

    value: Decimal  # units x price, to the cent
    brokerage: Decimal
    amount: Decimal  # buys: value + brokerage; sells: value
    cost_base: Decimal  # buys: value + brokerage (the parcel's cost); sells: value - brokerage
    pending: Decimal  # the amount, or 0 below the minimum trade amount


@dataclass(frozen=True)
class Transaction:
    asset_id: int
    code: str
    class_id: int
    industry_group_id: int | None
    action: str  # increase | decrease
    display_action: str  # BUY | SELL
    units: Decimal
    price: Decimal  # limit price if set, else last close
    last_close_price: Decimal
    limit_price: Decimal | None
    value: Decimal
    brokerage: Decimal
    amount: Decimal
    cost_base: Decimal
    pending: Decimal
    current_units: Decimal
    target_units: Decimal
    full_sell: bool
    stop_loss: bool
    urgent: bool
    recommendation_action: str
    comment: str | None
    str_on_ti_generation: str
    manual_trade_decision: bool = False


@dataclass(frozen=True)
class Note:
    """A "please note" item: a Manual Trade Decision (with the trade the engine would make) or a
    HOLD recommendation's comment."""

    source: str  # manual_trade_decision | hold_comment
    asset_id: int | None
    custom_holding_id: int | None
    code: str
    text: str
    action: str | None = None  # increase | decrease (manual decisions)
    units: Decimal | None = None
    price: Decimal | None = None
    value: Decimal | None = None
    recommendation_action: str | None = None
    comment: str | None = None


@dataclass(frozen=True)
class Trades:
    transactions: tuple[Transaction, ...]
    notes: tuple[Note, ...]
    buys: Decimal  # sum of the buys' amounts
    sells: Decimal  # sum of the sells' cost bases (proceeds)
    brokerage: Decimal
    min_trade_amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Trades":
        return from_dict(cls, data)


def build(cls: type[T], values: dict[str, Any]) -> T:
    """A frozen result made from its complete field values without the generated __init__ (which
    sets each field through object.__setattr__): the engine makes hundreds of thousands in a bulk
    run. Equal to cls(**values); `values` must name every field."""
    obj = object.__new__(cls)
    object.__setattr__(obj, "__dict__", values)
    return obj


# ---- JSON ----------------------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return format(value, "f")
    if is_dataclass(value):
        return to_dict(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def to_dict(obj: Any) -> dict[str, Any]:
    return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj)}


_READERS: dict[type, Callable[[dict[str, Any]], Any]] = {}


def from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """The result of class `cls` from its `to_dict` data (JSON-decoded). A field missing from the
    data takes its default (e.g. `Target.overrides` of results stored before edits existed)."""
    read: Callable[[dict[str, Any]], T] = _reader(cls)  # the reader compiled for `cls` makes a `cls`
    return read(data)


def _compile(cls: type) -> Callable[[dict[str, Any]], Any]:
    """A function reading `cls` from a dict, written once from the type hints: Decimals from their
    strings, nested results by their own readers, tuples from lists, Reasons interned; None stays
    None; other values as they are. The object is made by `build` (no __init__)."""
    hints = typing.get_type_hints(cls)
    env: dict[str, Any] = {"build": build, "cls": cls, "Decimal": Decimal, "str": str, "tuple": tuple, "map": map,
                           "intern_reason": intern_reason}
    items = []
    for n, f in enumerate(fields(cls)):
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: default factories are not supported")
        if f.default is MISSING:
            get = f"d[{f.name!r}]"
        else:
            env[f"default_{n}"] = f.default
            get = f"d.get({f.name!r}, default_{n})"
        items.append(f"{f.name!r}: {_expression(hints[f.name], get, env)}")
    source = "def read(d):\n    return build(cls, {\n        " + ",\n        ".join(items) + "})\n"
    exec(compile(source, f"<reader of {cls.__name__}>", "exec"), env)  # noqa: S102 - our own generated code
    read: Callable[[dict[str, Any]], Any] = env["read"]  # the function the source above defines
    return read


def _expression(hint: Any, get: str, env: dict[str, Any]) -> str:
    """The Python expression reading one field's value `get` of type `hint`."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        hint, origin = inner[0], typing.get_origin(inner[0])
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if item is Reason:
            convert = "tuple(intern_reason(r['code'], r['text']) for r in v)"
        elif isinstance(item, type) and is_dataclass(item):
            name = f"read_{item.__name__}"
            env[name] = _reader(item)
            convert = f"tuple(map({name}, v))"
        elif item is Decimal:
            convert = "tuple(Decimal(x if x.__class__ is str else str(x)) for x in v)"
        else:
            convert = "tuple(v)"
    elif hint is Decimal:
        convert = "Decimal(v) if v.__class__ is str else Decimal(str(v))"
    elif isinstance(hint, type) and is_dataclass(hint):
        name = f"read_{hint.__name__}"
        env[name] = _reader(hint)
        convert = f"{name}(v)"
    else:
        return get  # int, str, bool, Any: as stored
    return f"(None if (v := {get}) is None else {convert})"


def _reader(cls: type) -> Callable[[dict[str, Any]], Any]:
    reader = _READERS.get(cls)
    if reader is None:
        reader = _READERS[cls] = _compile(cls)
    return reader
