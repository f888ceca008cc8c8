"""What the steps of the target calculation share (target.py): the arithmetic context and
constants, the texts of amounts, and the two working rows the steps fill in.

A `Line` is one asset of the calculation and a `ClassState` one asset class. They are the only
mutable things of a calculation: the steps pass them along inside their named records (classes.py
`Classes`, places.py `Places`) and each step writes its own fields:

| step (module)                      | Line                                   | ClassState                          |
|------------------------------------|----------------------------------------|-------------------------------------|
| 1 class targets (classes.py)       |                                        | effective, target, fixed, others    |
| 2 places (places.py)               | all but f, tgt, hi, cap_kind           | lines                               |
| 2 eligibility (eligibility.py)     | role, reasons (assets limit, minimum)  | fixed, target (cash), budget, flex  |
| 3-4 allocation (allocation.py)     | f, hi, cap_kind, shape, reasons        | allotted, lam, capacity, received   |
| 5 units (units.py)                 | tgt                                    |                                     |
| 6 minimum trade (min_trade.py)     | tgt, reasons                           |                                     |
| 7 cash (cash.py)                   | tgt, reasons                           |                                     |

Everything else a step finds is handed on in an immutable named record. The step records are
NamedTuples rather than frozen dataclasses: a bulk run makes them for every portfolio, and a frozen
dataclass sets each field through object.__setattr__, which measured about 1% of a calculation.
Read them by name; they are not meant to be unpacked. The records made per asset or per solve
(waterfill.Solution, prepared.AssetInfo only where a price is filled in) are kept few.
"""
from __future__ import annotations

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal, DivisionByZero, InvalidOperation, Overflow
from typing import NamedTuple, cast

from app.domain.engine import actions as A
from app.domain.engine.limits import Limits
from app.domain.engine.prepared import PreparedModel
from app.domain.engine.results import Reason, intern_reason
from app.domain.engine.snapshot import PortfolioSettings, Snapshot
from app.domain.model_spec import ModelSpec
from app.domain.money import number_text, to_cents

CTX = Context(prec=28, rounding=ROUND_HALF_EVEN, traps=[InvalidOperation, DivisionByZero, Overflow])
ZERO = Decimal(0)
ONE = Decimal(1)
HALF = Decimal("0.5")
HUNDRED = Decimal(100)
INF = Decimal("Infinity")
EPS = Decimal("1e-9")  # tolerance of the allocation arithmetic (values in dollars)
TINY = Decimal("1e-18")  # guards floor() against the last digit of an exact division
PCT = Decimal("0.0001")  # percentages are stored with 4 decimals
PCT_ZERO = ZERO.quantize(PCT)
HALF_CENT = Decimal("0.005")

# a line's role
FIXED, FLEX, OUT = "fixed", "flex", "zero"
PINNED = "pinned"  # the adviser set its target units (snapshot.overrides)
# how a flexible line follows the level of its class (allocation.py)
M_BUY, M_ACC, M_TAP, M_TSP = "BUY", "ACC", "TAP", "TSP"
ADDED_RANK = 500_000  # added assets: after every model place, before the holdings the model does not place
UNMODELLED_RANK = 1_000_000

SELL_ACTION = A.Action(A.SELL, A.SELL)

_NO_CODES: frozenset[str] = frozenset()
reason = intern_reason  # one Reason object per distinct (code, text)


def pct(value: Decimal, total: Decimal) -> Decimal:
    """value as a % of total, 4 decimals half-up, inside the engine's context."""
    return (value * HUNDRED / total).quantize(PCT, rounding=ROUND_HALF_UP)


def fmt(value: Decimal | None) -> str:
    return "" if value is None else number_text(value)


class Inputs(NamedTuple):
    """What every step reads of the snapshot: the model prepared, the limits of its method."""

    snapshot: Snapshot
    model: ModelSpec
    prep: PreparedModel
    settings: PortfolioSettings
    limits: Limits
    mta: Decimal  # the minimum trade amount (0 when not set)
    custom: bool  # the portfolio's own class allocation applies
    percentages: bool  # the model uses the percentages method


class Line:
    """One asset of the calculation (mutable while the steps run; see the module text). Class
    attributes are the defaults, so a line costs only what differs from them."""

    weight: Decimal = ONE
    percentage: Decimal | None = None
    action: A.Action = A.DEFAULT_ACTION
    source: str = A.SOURCE_DEFAULT
    limit_price: Decimal | None = None
    comment: str | None = None
    exception: str | None = None
    manual = False
    role: str = OUT
    mode: str = M_BUY
    hi: Decimal = INF
    cap_kind: str | None = None
    # steps 3-4: its target as a function of the class's level lambda (waterfill.set_shape):
    # min(upper, max(lower, base + slope x lambda)), and the value the allocation gives it
    base = slope = lower = upper = ZERO
    f = ZERO
    tgt = ZERO  # its target units (steps 5-7)
    pin: Decimal | None = None  # the adviser's target units (role PINNED)
    added = False  # an AddedAsset's place
    edited = False  # pinned or added: never cut for cash nor sold for it
    reasons: tuple[Reason, ...] | list[Reason] = ()  # a list once a reason is added
    codes: frozenset[str] | set[str] = _NO_CODES  # a set once a reason is added
    _tv_units: Decimal | None = None
    _tv = ZERO
    _fee_units: Decimal | None = None
    _fee = ZERO

    def __init__(self, asset_id: int, code: str, cls: ClassState, group_id: int | None, price: Decimal | None,
                 cur_units: Decimal, cur_value: Decimal, kind: str, model_asset_id: int | None, rank: int) -> None:
        self.asset_id = asset_id
        self.code = code
        self.cls = cls
        self.class_id = cls.id
        self.group_id = group_id
        self.price = price
        self.cur_units = cur_units
        self.held = cur_units > 0
        # a held asset has a price: positions() refuses one without (missing_price)
        self.cur_exact = cur_units * cast(Decimal, price) if self.held else ZERO
        self.cur_value = cur_value
        self.kind = kind
        self.model_asset_id = model_asset_id
        self.rank = rank

    def add(self, code: str, text: str) -> None:
        codes = self.codes
        if codes is _NO_CODES:
            self.codes = {code}
            self.reasons = [reason(code, text)]
        elif code not in codes:  # not the shared empty default: the line's own set and list (above)
            cast("set[str]", codes).add(code)
            cast("list[Reason]", self.reasons).append(reason(code, text))

    def value_of(self, units: Decimal) -> Decimal:
        """The position's value at `units`, to the cent (remembered for the last units asked)."""
        if units == self.cur_units:
            return self.cur_value
        if units == self._tv_units:
            return self._tv
        # other units than the current ones, not zero: a line that can trade, so it has a price
        # (places: a line without one is zero, or fixed at its current units, which are then zero)
        value = to_cents(units * cast(Decimal, self.price)) if units else ZERO
        self._tv_units, self._tv = units, value
        return value


class ClassState:
    """One asset class of the calculation (mutable while the steps run; see the module text)."""

    __slots__ = (
        "id", "title", "is_cash", "allocation", "effective", "min", "max", "limit", "rank", "in_model", "target",
        "fixed", "budget", "allotted", "lines", "flex", "lam", "capacity", "received", "reasons", "codes", "others",
        "pct_total", "weight_text",
    )

    def __init__(self, class_id: int, title: str, is_cash: bool, allocation: Decimal, min_: Decimal | None,
                 max_: Decimal | None, limit: int | None, rank: int, in_model: bool,
                 pct_total: Decimal = ZERO) -> None:
        self.id = class_id
        self.title = title
        self.is_cash = is_cash
        self.allocation = allocation
        self.effective = allocation
        self.min = min_
        self.max = max_
        self.limit = limit
        self.rank = rank
        self.in_model = in_model
        self.target = ZERO
        self.fixed = ZERO  # fixed listed assets + deposits + custom holdings (exact)
        self.others = ZERO  # deposits + custom holdings (cents)
        self.budget = ZERO  # what its flexible assets share (step 2)
        self.allotted = ZERO  # the budget plus what it took of other classes' excess (steps 3-4)
        self.lines: list[Line] = []
        self.flex: list[Line] = []
        self.lam: Decimal | None = ZERO
        self.capacity = ZERO
        self.received = ZERO
        self.reasons: list[Reason] = []
        self.codes: set[str] = set()
        self.pct_total = pct_total
        self.weight_text: str | None = None

    def add(self, code: str, text: str) -> None:
        if code not in self.codes:
            self.codes.add(code)
            self.reasons.append(reason(code, text))

    @property
    def label(self) -> str:
        return self.title or f"class {self.id}"
