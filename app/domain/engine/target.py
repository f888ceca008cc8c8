"""`calculate_target(snapshot) -> Target`: the target portfolio (design/engine.md, steps 1-7).

How the steps are carried out (the parts engine.md leaves to us are marked "ours"):

0. Positions: holdings plus pending (approved, not executed) trades; cash moved by their value
   and brokerage. A held asset without a last close price, or a pending sell of more than is held,
   makes the calculation fail (CalculationError). V = listed assets at last close (each to the
   cent) + cash + deposits + custom holdings; all percentages are of V.
1. Class targets: T_c = allocation_c x V, the allocation being the model's or, when the portfolio's
   custom class allocation is on, the portfolio's (min and max likewise). An allocation outside
   its class's [min, max] is brought inside (ours). The cash class target is the largest of its
   allocation, the minimum cash % and value. The minimum cash kept by step 7 (the "cash floor")
   is the minimum cash, raised so that the cash class reaches its own min % (ours).
2. Places: every model asset in class then asset priority order takes a place, filled by
   - the substitution asset of a Substitute exception (the model asset, if held, is sold);
   - else, when the model asset is not held, a held equivalent (one without Don't hold);
   - else, when the model asset has no price and is not held, its alternate (ours: the model's
     alternate is "bought instead when the asset cannot be");
   - else the model asset.
   The place's recommendation is its own asset's, else the model asset's, else BUY (ours). Then
   Lock and HOLD (held) fix the place at its current units; Don't hold, SELL, SA, no price, and
   HOLD / TAP / TSP when not held give target zero; the rest are flexible (BUY, SB, ACC, TAP, TSP).
   Holdings no place takes are sold (target zero) unless locked. At most `assets_limit` places of
   a class hold something, counting the fixed ones first, then flexible ones in priority order.
   Equal amounts: while a flexible asset's share of the class would fall below the minimum asset
   allocation, the lowest-priority flexible asset not held is dropped.
3-4. Split and caps in one water-filling per class: the class target less its fixed value
   (fixed listed assets, deposits, custom holdings) is shared by "level" lambda between the
   flexible assets: an asset's model weight is lambda x weight (weight 1, SB 1/2 under equal
   amounts; the asset's percentage, SB half of it, under percentages), and its target is
     BUY/SB  min(cap, weight)            ACC  max(current, weight), at most the cap
     TAP     min(current, weight, cap)   TSP  min(cap, current, (min(weight, current) + current) / 2)
   lambda is solved exactly so the class's flexible targets add up to its budget (assets held
   below their cap by TAP / TSP or capped leave their share to the others). What a class cannot
   take goes to the other classes in priority order, each up to its max % (the cash class takes
   none: what is left stays in cash). Industry groups over their cap scale their flexible
   members down; those become capped and the allocation is repeated until no group is over.
   Caps: the smaller of max exposure % x V and max asset allocation value; they do not move
   fixed (Lock, HOLD) holdings, and they win over ACC's "never sell down". Industry group caps:
   the portfolio's own when switched on, else the model's (max, else allocation) when its
   industry group allocation is on. Listed assets of the cash class share what the cash class
   target leaves above the cash floor (percentages: at most their percentages) (ours).
5. Units: floor(target value / last close) for flexible assets; fixed keep their units.
6. Minimum trade amount: a trade whose value at last close is below it is dropped (target =
   current), except FFL actions and full sells (any sell of the whole holding). A sell that a cap
   requires (the holding is above its asset cap, or dropping it would leave its industry group
   above its cap) is raised to the minimum trade amount instead (ours).
7. Cash after trades = cash + sells - brokerage - buys. Below the cash floor: buys are cut from
   the lowest priority up (FFL buys last); then flexible holdings are sold pro rata to their
   target values (each sell at least the minimum trade amount). When even selling every
   flexible holding would not reach the floor, nothing more is sold and the target is flagged
   Not Enough Cash (if the cash is below zero, holdings are still sold pro rata to bring it to
   zero, and sells whose brokerage exceeds their value are cancelled).

Each place's reasons say what shaped it (reasons.*); a class outside its min / max, or an
industry group above its cap, carries the causes found (e.g. capped assets, no price, cut for
cash, whole units).

Money adds up to the cent: a trade's value at last close is the change of its position's value
(each position valued to the cent), so V = V after the trades + brokerage exactly.

Edits (spec 001 s4 "mode EDIT", s5 "Target portfolio"; all ours but the two quoted texts). The
adviser's changes arrive in the snapshot and the whole calculation is run again around them, so
every change recalculates the rest:
- `AddedAsset(asset_id, class_id)`: the asset (known to the snapshot, not placed by the model nor
  already in the target; a holding the model does not place may be added) takes a place in the
  class (None: its own class; it must be a class of the model or of the portfolio's own class
  allocation), after the model's places (rank ADDED_RANK + its position in `added`). It is
  calculated like a model asset: its own recommendation and exceptions apply, its weight is an
  equal share (percentages: the average percentage of the class's model assets), it is never
  dropped by the minimum asset allocation (model assets not held are dropped instead). Reason
  `added`; kind "added".
- `TargetOverride(asset_id, target_units)`: the asset (any asset the target lists, or an added
  one) is fixed at those whole units (a later override of the same asset wins); 0 removes it
  (target zero: a held one is sold in full). Its value at last close counts toward its class and
  industry group like a locked holding, so the rest of the class shares what is left (and, through
  the usual overflow, other classes take what the class cannot); it wins over the recommendation,
  exceptions (Lock, Don't hold ...), caps, the minimum trade amount and the cash rules. Reason
  `edited` ('set by the adviser: N units'); `fixed` stays False (it trades to its units).
- Edited assets (overridden or added) are never cut nor sold for cash by step 7: the other buys
  are cut and the other flexible holdings sold first.
Errors (CalculationError, code: text):
- assets_limit: 'Assets limit is exceeded' - in a class with an assets limit, (a) an added asset
  finds no place left after the fixed holdings (Lock, HOLD), the assets set to units > 0 and the
  flexible model places in priority order; or (b) the fixed holdings and the assets set to units
  > 0 number more than the limit and one of those set is added or not held (the edit opens a
  position). Flexible model places beyond the limit are dropped as usual.
- not_enough_cash_to_add: 'Not enough cash to add asset' - after step 7 the cash is below the cash
  floor and an added asset's trade takes cash (a buy, or a sell whose brokerage exceeds its value).
- not_enough_cash_to_set: 'Not enough cash to buy the target units set for {codes}' - the same
  when no added asset but an overridden one takes cash.
  (Without an edit that takes cash, a shortfall gives the usual Not Enough Cash flag.)
- not_in_target, already_in_target, unknown_asset, class_not_in_model, override_units (units not
  whole, negative or not a number), missing_price (units > 0 on an asset without a price).
"""
from __future__ import annotations

from decimal import (
    ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal, DivisionByZero, InvalidOperation,
    Overflow, localcontext,
)

from app.domain.engine import actions as A
from app.domain.engine import errors as E
from app.domain.engine import reasons as R
from app.domain.engine.limits import Limits, brokerage_fee, limits_for
from app.domain.engine.prepared import PreparedModel, prepare_model
from app.domain.engine.results import (
    AllocationTarget, AssetTarget, HoldingTarget, Reason, Target, build, intern_reason,
)
from app.domain.engine.snapshot import (
    DECREASE, DONT_HOLD, EXCEPTION_ACTIONS, EXCEPTION_LABELS, INCREASE, LOCK, MANUAL_TRADE_DECISION, SUBSTITUTE, Snapshot,
    TargetOverride,
)
from app.domain.money import to_cents

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

FIXED, FLEX, OUT = "fixed", "flex", "zero"
PINNED = "pinned"  # the adviser set its target units (snapshot.overrides)
M_BUY, M_ACC, M_TAP, M_TSP = "BUY", "ACC", "TAP", "TSP"
ADDED_RANK = 500_000  # added assets: after every model place, before the holdings the model does not place
UNMODELLED_RANK = 1_000_000

SELL_ACTION = A.Action(A.SELL, A.SELL)


def calculate_target(snapshot: Snapshot) -> Target:
    """The target portfolio of `snapshot` (see the module text). Raises CalculationError when the
    model or the portfolio cannot be calculated."""
    with localcontext(CTX):
        return _Calculation(snapshot).run()


def percent_of(value: Decimal, total: Decimal) -> Decimal:
    """value as a % of total, 4 decimals half-up (0 when total is 0)."""
    if not total:
        return ZERO.quantize(PCT)
    with localcontext(CTX):
        return (value * HUNDRED / total).quantize(PCT, rounding=ROUND_HALF_UP)


def _pct(value: Decimal, total: Decimal) -> Decimal:
    """percent_of inside the engine's context (no context switch)."""
    return (value * HUNDRED / total).quantize(PCT, rounding=ROUND_HALF_UP)


def _fmt(value: Decimal | None) -> str:
    if value is None:
        return ""
    text = format(value.normalize(), "f")
    return text


def _money(value: Decimal) -> str:
    return f"${to_cents(value):,.2f}"


_NO_CODES: frozenset[str] = frozenset()
_PCT_TEXTS: dict[Decimal | None, str] = {}
_reason = intern_reason  # one Reason object per distinct (code, text)


class _Line:
    """One asset of the calculation (mutable while the steps run). Class attributes are the
    defaults, so a line costs only what differs from them."""

    weight = ONE
    percentage = None
    action = A.DEFAULT_ACTION
    source = A.SOURCE_DEFAULT
    limit_price = None
    comment = None
    exception = None
    manual = False
    role = OUT
    mode = M_BUY
    hi = INF
    cap_kind = None
    f = ZERO
    tgt = ZERO
    pin = None  # the adviser's target units (role PINNED)
    added = False  # an AddedAsset's place
    edited = False  # pinned or added: never cut for cash nor sold for it
    reasons: tuple | list = ()
    codes: frozenset | set = _NO_CODES
    _tv_units = None
    _tv = ZERO
    _fee_units = None
    _fee = ZERO

    def __init__(self, asset_id, code, cls, group_id, price, cur_units, cur_value, kind, model_asset_id, rank):
        self.asset_id = asset_id
        self.code = code
        self.cls = cls
        self.class_id = cls.id
        self.group_id = group_id
        self.price = price
        self.cur_units = cur_units
        self.held = cur_units > 0
        self.cur_exact = cur_units * price if self.held else ZERO
        self.cur_value = cur_value
        self.kind = kind
        self.model_asset_id = model_asset_id
        self.rank = rank

    def add(self, code: str, text: str) -> None:
        codes = self.codes
        if codes is _NO_CODES:
            self.codes = {code}
            self.reasons = [_reason(code, text)]
        elif code not in codes:
            codes.add(code)
            self.reasons.append(_reason(code, text))

    def value_of(self, units: Decimal) -> Decimal:
        """The position's value at `units`, to the cent (remembered for the last units asked)."""
        if units == self.cur_units:
            return self.cur_value
        if units == self._tv_units:
            return self._tv
        value = to_cents(units * self.price) if units else ZERO
        self._tv_units, self._tv = units, value
        return value


class _Class:
    __slots__ = (
        "id", "title", "is_cash", "allocation", "effective", "min", "max", "limit", "rank", "in_model", "target",
        "fixed", "budget", "R", "lines", "flex", "lam", "capacity", "received", "reasons", "codes", "others",
        "pct_total", "weight_text",
    )

    def __init__(self, class_id, title, is_cash, allocation, min_, max_, limit, rank, in_model, pct_total=ZERO):
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
        self.budget = ZERO
        self.R = ZERO
        self.lines: list[_Line] = []
        self.flex: list[_Line] = []
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
            self.reasons.append(_reason(code, text))

    @property
    def label(self) -> str:
        return self.title or f"class {self.id}"


# ---- the water-filling of one class ---------------------------------------------------------------
def _shape(line: _Line) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    """(a, b, L, U) with target(lambda) = min(U, max(L, a + b x lambda))."""
    hi = line.hi
    w = line.weight
    mode = line.mode
    if mode == M_BUY:
        a, b, lo, up = ZERO, w, ZERO, hi
    elif mode == M_ACC:
        a, b, lo, up = ZERO, w, min(line.cur_exact, hi), hi
    elif mode == M_TAP:
        a, b, lo, up = ZERO, w, ZERO, min(line.cur_exact, hi)
    else:  # TSP
        a, b, lo, up = line.cur_exact * HALF, w * HALF, ZERO, min(line.cur_exact, hi)
    if b <= 0:  # no weight: a constant
        c = min(up, max(lo, a))
        return c, ZERO, c, c
    return a, b, lo, up


def _at(shape: tuple[Decimal, Decimal, Decimal, Decimal], lam: Decimal | None) -> Decimal:
    a, b, lo, up = shape
    if lam is None:  # beyond every breakpoint
        return up if b > 0 else a
    v = a + b * lam
    if v < lo:
        v = lo
    if v > up:
        v = up
    return v


def _natural(line: _Line, lam: Decimal | None) -> Decimal:
    """The line's target at `lam` without its cap (to tell whether the cap binds)."""
    w = line.weight
    cur = line.cur_exact
    if lam is None:
        return INF if line.mode in (M_BUY, M_ACC) and w > 0 else cur
    x = w * lam
    mode = line.mode
    if mode == M_BUY:
        return x
    if mode == M_ACC:
        return max(cur, x)
    if mode == M_TAP:
        return min(cur, x)
    return (min(x, cur) + cur) * HALF


def _solve(flex: list[_Line], budget: Decimal) -> tuple[Decimal | None, Decimal, Decimal]:
    """Set each line's `f` so that they add up to `budget` where possible. Returns (lambda or None
    when every line is at its upper bound, the lines' capacity, the excess nobody could take)."""
    if not flex:
        return ZERO, ZERO, max(budget, ZERO)
    shapes = [_shape(line) for line in flex]
    g0 = ZERO
    capacity = ZERO
    for s in shapes:
        g0 += _at(s, ZERO)
        capacity += s[3]
    if budget <= g0:
        lam: Decimal | None = ZERO
    elif capacity != INF and budget >= capacity:
        lam = None
    else:
        points = set()
        for a, b, lo, up in shapes:
            if b > 0:
                if a < lo:
                    points.add((lo - a) / b)
                if up != INF and a < up:
                    points.add((up - a) / b)
        prev, gprev = ZERO, g0
        lam = None
        for p in sorted(points):
            if p <= 0:
                continue
            gp = ZERO
            for s in shapes:
                gp += _at(s, p)
            if gp >= budget:
                lam = prev + (budget - gprev) * (p - prev) / (gp - gprev) if gp != gprev else p
                break
            prev, gprev = p, gp
        if lam is None:  # past the last breakpoint: the unbounded lines take the rest (each is past
            slope = ZERO  # its lower bound's breakpoint, whatever the last digit of that division)
            for a, b, lo, up in shapes:
                if b > 0 and up == INF:
                    slope += b
            lam = prev + (budget - gprev) / slope
    total = ZERO
    for line, s in zip(flex, shapes):
        line.f = _at(s, lam)
        total += line.f
    excess = budget - total if lam is None and budget > total else ZERO
    return lam, capacity, excess


def gather_positions(snap: Snapshot, prep: PreparedModel) -> tuple[dict[int, tuple], dict[int, Decimal], Decimal]:
    """(asset id -> (code, class id, industry group id, last close or None), asset id -> units held
    after pending trades, cash after pending trades). A holding's data wins over a quote's, a
    quote's over the model's copy; a missing or non-positive price never hides a known one."""
    info: dict[int, tuple] = dict(prep.info)

    def merge(asset_id, code, class_id, group_id, price):
        if price is not None and price <= 0:  # no usable price: cannot be valued or bought
            price = None
        if price is None:
            row = info.get(asset_id)
            if row is not None:
                price = row[3]
        info[asset_id] = (code, class_id, group_id, price)

    for q in snap.quotes:
        merge(q.asset_id, q.code, q.class_id, q.industry_group_id, q.last_close_price)
    units: dict[int, Decimal] = {}
    for h in snap.holdings:
        merge(h.asset_id, h.code, h.class_id, h.industry_group_id, h.last_close_price)
        units[h.asset_id] = units.get(h.asset_id, ZERO) + Decimal(h.units)
    cash = to_cents(Decimal(snap.cash))
    for t in snap.pending_trades:
        value, fee = to_cents(Decimal(t.value)), to_cents(Decimal(t.brokerage))
        if t.action == INCREASE:
            units[t.asset_id] = units.get(t.asset_id, ZERO) + Decimal(t.units)
            cash -= value + fee
        elif t.action == DECREASE:
            units[t.asset_id] = units.get(t.asset_id, ZERO) - Decimal(t.units)
            cash += value - fee
        else:
            raise ValueError(f"unknown pending trade action {t.action!r}")
    return info, units, cash


class _Calculation:
    def __init__(self, snapshot: Snapshot):
        self.snap = snapshot
        self.model = snapshot.model
        self.prep: PreparedModel = prepare_model(snapshot.model)
        self.settings = snapshot.settings
        self.limits: Limits = limits_for(snapshot.settings, snapshot.model.allocation_method)
        self.mta = self.limits.min_trade_amount
        self.custom = bool(snapshot.settings.class_allocation)
        self.leftover = ZERO
        self.reasons: list[Reason] = []

    # ---- the steps ----------------------------------------------------------------------------
    def run(self) -> Target:
        self.prep.check(self.custom)
        self._positions()
        self._classes()
        self._places()
        self._limits_and_minimums()
        self._allocate_with_groups()
        self._units()
        self._min_trade()
        self._cash()
        return self._result()

    # 0. positions and V
    def _positions(self) -> None:
        snap = self.snap
        info, units, cash = gather_positions(snap, self.prep)
        missing: list[str] = []
        for asset_id in sorted(units):
            n = units[asset_id]
            code = info[asset_id][0] if asset_id in info else f"#{asset_id}"
            if n < 0:
                raise E.CalculationError("oversold", E.OVERSOLD.format(code=code))
            if n > 0 and (asset_id not in info or info[asset_id][3] is None):
                missing.append(code)
        if missing:
            missing.sort()
            text = (E.MISSING_PRICE.format(codes=missing[0]) if len(missing) == 1
                    else E.MISSING_PRICES.format(codes=", ".join(missing)))
            raise E.CalculationError("missing_price", text)
        self.info = info
        self.units = units
        self.cash = cash
        listed = ZERO
        values: dict[int, Decimal] = {}
        for asset_id in sorted(units):
            n = units[asset_id]
            if n > 0:
                value = values[asset_id] = to_cents(n * info[asset_id][3])
                listed += value
        self.values = values
        self.deposits = [(d, to_cents(Decimal(d.value))) for d in snap.deposits]
        self.customs = [(c, to_cents(Decimal(c.value))) for c in snap.custom_holdings]
        value = listed + cash + sum((v for _, v in self.deposits), ZERO) + sum((v for _, v in self.customs), ZERO)
        if value <= 0:
            raise E.CalculationError("no_value", E.NO_VALUE)
        self.V = value

    # 1. classes and their targets
    def _classes(self) -> None:
        prep, V = self.prep, self.V
        rows: dict[int, object] = {}
        if self.custom:
            total = ZERO
            for row in self.settings.classes:
                if row.class_id not in rows:
                    rows[row.class_id] = row
                    total += Decimal(row.allocation)
            if total != HUNDRED:
                raise E.CalculationError("custom_total", E.CUSTOM_TOTAL)
        self.custom_class_ids = set(rows)
        self.classes: list[_Class] = []
        self.class_by_id: dict[int, _Class] = {}
        for pc in prep.classes:
            if self.custom:
                row = rows.get(pc.class_id)
                alloc, mn, mx = (Decimal(row.allocation), row.min, row.max) if row is not None else (ZERO, None, None)
            else:
                alloc, mn, mx = pc.allocation, pc.min, pc.max
            self._add_class(_Class(pc.class_id, pc.title, pc.is_cash, alloc, mn, mx, pc.assets_limit, pc.rank, True,
                                   pc.percentage_total))
        for class_id in sorted(rows):
            if class_id not in self.class_by_id:
                row = rows[class_id]
                self._add_class(_Class(class_id, "", False, Decimal(row.allocation), row.min, row.max, None,
                                       len(self.classes), False))
        self.cash_class = self.class_by_id[prep.cash_class_id]
        for c in self.classes:
            self._class_target(c)
        # deposits and custom holdings count toward their class
        for d, value in self.deposits:
            c = self._class(d.class_id if d.class_id is not None else prep.cash_class_id)
            c.fixed += value
            c.others += value
        for ch, value in self.customs:
            c = self._class(ch.class_id)
            c.fixed += value
            c.others += value
        self.min_cash = self.limits.min_cash(V)

    def _add_class(self, c: _Class) -> None:
        self.classes.append(c)
        self.class_by_id[c.id] = c

    def _class(self, class_id: int) -> _Class:
        c = self.class_by_id.get(class_id)
        if c is None:
            c = _Class(class_id, "", False, ZERO, None, None, None, len(self.classes), False)
            self._add_class(c)
            self._class_target(c)
        return c

    def _class_target(self, c: _Class) -> None:
        eff = c.allocation
        if c.min is not None and eff < c.min:
            eff = c.min
        if c.max is not None and eff > c.max:
            eff = c.max
        if eff != c.allocation:
            c.add(R.ALLOCATION_CLAMPED, f"the allocation of {_fmt(c.allocation)}% is brought within "
                                        f"{_fmt(c.min) or '0'}%-{_fmt(c.max) or '100'}%")
        if self.custom and c.in_model:
            c.add(R.CUSTOM_ALLOCATION, "the portfolio's own class allocation applies")
        c.effective = eff
        c.target = eff * self.V / HUNDRED

    # 2. places: equivalents, exceptions, actions
    def _places(self) -> None:
        prep, snap, info, units = self.prep, self.snap, self.info, self.units
        self.pins = self._read_pins()
        exc_asset: dict[int, object] = {}
        self.exc_custom: dict[int, object] = {}
        for e in self.settings.exceptions:
            if e.action not in EXCEPTION_ACTIONS:
                continue
            if e.asset_id is not None:
                exc_asset.setdefault(e.asset_id, e)
            elif e.custom_holding_id is not None:
                self.exc_custom.setdefault(e.custom_holding_id, e)
        recs: dict[int, object] = {}
        for r in snap.recommendations:
            recs.setdefault(r.asset_id, r)
        self.recs = recs
        use_short = bool(self.model.analyst_recommendations)
        self.use_short = use_short
        percentages = prep.percentages
        used = set(prep.asset_ids)
        lines: list[_Line] = []

        def held(asset_id):
            return units.get(asset_id, ZERO) > 0

        def price(asset_id):
            row = info.get(asset_id)
            return row[3] if row else None

        def exc_of(asset_id):
            e = exc_asset.get(asset_id)
            return e.action if e is not None else None

        for pc in prep.classes:
            cls = self.class_by_id[pc.class_id]
            for pa in pc.assets:
                m = pa.asset_id
                m_exc = exc_of(m)
                place, kind = m, "model"
                note = None
                if m_exc == SUBSTITUTE:
                    sub = exc_asset[m].substitute_asset_id
                    replaced = self._line(m, cls, pa.rank, "replaced", m)
                    self._set_recommendation(replaced, m, None, unmodelled=True)
                    replaced.exception = SUBSTITUTE
                    if sub is not None and sub != m and sub not in used:
                        used.add(sub)
                        if sub not in info:
                            info[sub] = (f"#{sub}", cls.id, None, None)
                        place, kind = sub, "substitute"
                        replaced.add(R.REPLACED, f"replaced by the substitution asset {info[sub][0]}")
                        note = (R.SUBSTITUTE, f"substitution asset in place of {pa.spec.asset.code}")
                    else:
                        place = None
                        sub_code = info[sub][0] if sub in info else (f"#{sub}" if sub is not None else "none")
                        replaced.add(R.REPLACED, f"replaced by the substitution asset {sub_code}, which has its own "
                                                 "place or cannot be used: its weight goes to the rest of its class")
                    replaced.role = OUT
                    if m in self.pins:
                        self._pin(replaced)
                    lines.append(replaced)
                elif m_exc not in (DONT_HOLD, LOCK) and not held(m):
                    for e in prep.equivalents.get(m, ()):
                        if e not in used and held(e) and exc_of(e) != DONT_HOLD:
                            used.add(e)
                            place, kind = e, "equivalent"
                            note = (R.EQUIVALENT, f"held as the equivalent of {pa.spec.asset.code}")
                            break
                    if place == m and price(m) is None and pa.spec.alternate is not None:
                        alt = pa.spec.alternate.id
                        if alt not in used and price(alt) is not None and exc_of(alt) != DONT_HOLD:
                            used.add(alt)
                            place, kind = alt, "alternate"
                            note = (R.ALTERNATE, f"alternate of {pa.spec.asset.code}, which has no last close price")
                if place is None:
                    continue
                line = self._line(place, cls, pa.rank, kind, m)
                if note:
                    line.add(*note)
                w = pa.percentage if percentages else ONE
                line.percentage = pa.percentage if percentages else None
                line.weight = w
                exc = exc_of(place) if place != m else m_exc
                if exc == SUBSTITUTE:
                    exc = None
                line.exception = exc
                line.manual = exc == MANUAL_TRADE_DECISION or m_exc == MANUAL_TRADE_DECISION
                self._set_recommendation(line, place, m)
                self._assign(line, exc)
                lines.append(line)
        # assets the adviser added: the last places of their classes
        for i, item in enumerate(snap.added):
            aid = item.asset_id
            if aid not in info:
                raise E.CalculationError("unknown_asset", E.UNKNOWN_ASSET.format(asset_id=aid))
            if aid in used:
                raise E.CalculationError("already_in_target", E.ALREADY_IN_TARGET.format(code=info[aid][0]))
            class_id = item.class_id if item.class_id is not None else info[aid][1]
            cls = self.class_by_id.get(class_id)
            if cls is None or not (cls.in_model or class_id in self.custom_class_ids):
                raise E.CalculationError("class_not_in_model", E.CLASS_NOT_IN_MODEL.format(code=info[aid][0]))
            used.add(aid)
            line = self._line(aid, cls, ADDED_RANK + i, "added", None)
            line.added = line.edited = True
            line.add(R.ADDED, f"added to {cls.label} by the adviser")
            if percentages:
                pc = prep.class_by_id.get(class_id)
                line.weight = line.percentage = (pc.percentage_total / len(pc.assets)
                                                 if pc is not None and pc.assets else ONE)
            exc = exc_of(aid)
            line.exception = exc if exc != SUBSTITUTE else None
            line.manual = exc == MANUAL_TRADE_DECISION
            self._set_recommendation(line, aid, None)
            self._assign(line, line.exception)
            lines.append(line)
        # holdings no place takes: sold unless locked
        extra = [aid for aid in units if units[aid] > 0 and aid not in used]
        extra.sort(key=lambda aid: (self._class(info[aid][1]).rank, info[aid][0], aid))
        for i, aid in enumerate(extra):
            cls = self._class(info[aid][1])
            line = self._line(aid, cls, UNMODELLED_RANK + i, "unmodelled", None)
            exc = exc_of(aid)
            line.exception = exc if exc != SUBSTITUTE else None
            line.manual = exc == MANUAL_TRADE_DECISION
            self._set_recommendation(line, aid, None, unmodelled=True)
            if aid in self.pins:
                self._pin(line)
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
        self.lines = lines
        for line in lines:
            line.cls.lines.append(line)
        if self.pins:
            placed = {line.asset_id for line in lines}
            for aid in self.pins:
                if aid not in placed:
                    code = info[aid][0] if aid in info else f"#{aid}"
                    raise E.CalculationError("not_in_target", E.NOT_IN_TARGET.format(code=code))

    def _read_pins(self) -> dict[int, Decimal]:
        """asset id -> the target units the adviser set (a later override of an asset wins)."""
        pins: dict[int, Decimal] = {}
        for o in self.snap.overrides:
            try:
                units = Decimal(o.target_units)
                whole = units.is_finite() and units >= 0 and units == units.to_integral_value()
            except (ArithmeticError, TypeError, ValueError):
                whole = False
            if not whole:
                row = self.info.get(o.asset_id)
                raise E.CalculationError("override_units", E.OVERRIDE_UNITS.format(
                    code=row[0] if row else f"#{o.asset_id}"))
            pins[o.asset_id] = units.to_integral_value() + ZERO  # 100.000000 -> 100, -0 -> 0
        return pins

    def _pin(self, line: _Line) -> None:
        """The adviser's units win over the recommendation, exceptions, caps, the minimum trade
        amount and the cash rules (see "Edits" in the module text)."""
        units = self.pins[line.asset_id]
        if units > 0 and line.price is None:
            raise E.CalculationError("missing_price", E.MISSING_PRICE.format(codes=line.code))
        line.role = PINNED
        line.pin = units
        line.edited = True
        if line.kind in ("unmodelled", "replaced") and units > 0:  # kept: its own recommendation, not SELL
            resolved = A.resolve(self.recs.get(line.asset_id), self.use_short, line.code)
            line.action, line.source = resolved.action, resolved.source
            line.limit_price, line.comment = resolved.limit_price, resolved.comment
        line.add(R.EDITED, f"set by the adviser: {_fmt(units)} units" if units else
                 "set by the adviser to zero: removed")

    def _line(self, asset_id: int, cls: _Class, rank: int, kind: str, model_asset_id: int | None) -> _Line:
        code, _class_id, group_id, price = self.info[asset_id]
        return _Line(asset_id, code, cls, group_id, price, self.units.get(asset_id, ZERO),
                     self.values.get(asset_id, ZERO), kind, model_asset_id, rank)

    def _set_recommendation(self, line: _Line, asset_id: int, model_asset_id: int | None,
                            unmodelled: bool = False) -> None:
        rec = self.recs.get(asset_id)
        if rec is None and model_asset_id is not None:
            rec = self.recs.get(model_asset_id)
        resolved = A.resolve(rec, self.use_short, line.code)
        if unmodelled:
            action = resolved.action if resolved.action.base in A.TARGET_ZERO else SELL_ACTION
            line.action = action
            line.source = resolved.source if action is resolved.action else "none"
        else:
            line.action = resolved.action
            line.source = resolved.source
        line.limit_price = resolved.limit_price
        line.comment = resolved.comment

    def _assign(self, line: _Line, exc: str | None) -> None:
        a = line.action
        base = a.base
        if line.asset_id in self.pins:
            self._pin(line)
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

    # 2 (continued). assets limit, minimum asset allocation; budgets
    def _limits_and_minimums(self) -> None:
        V = self.V
        for line in self.lines:
            if line.role == FIXED:
                line.cls.fixed += line.cur_exact
            elif line.role == PINNED and line.pin:
                line.cls.fixed += line.pin * line.price
        # the cash floor: the minimum cash, raised so that the cash class reaches its min % (ours)
        cash = self.cash_class
        floor = self.min_cash
        if cash.min is not None:
            floor = max(floor, to_cents(cash.min * V / HUNDRED - cash.fixed))
        self.cash_floor = floor
        if self.min_cash > cash.target:
            cash.target = Decimal(self.min_cash)
            cash.add(R.MIN_CASH, f"the cash target is the minimum cash of {_money(self.min_cash)}")
        for c in self.classes:
            if c.limit is not None:
                fixed = sum(1 for line in c.lines if line.role == FIXED and line.held)
                pinned = [line for line in c.lines if line.role == PINNED and line.pin > 0]
                if fixed + len(pinned) > c.limit and any(line.added or not line.held for line in pinned):
                    raise E.CalculationError("assets_limit", E.ASSETS_LIMIT)
                slots = c.limit - fixed - len(pinned)
                for line in c.lines:
                    if line.role != FLEX:
                        continue
                    if slots > 0:
                        slots -= 1
                    elif line.added:
                        raise E.CalculationError("assets_limit", E.ASSETS_LIMIT)
                    else:
                        line.role = OUT
                        line.add(R.ASSETS_LIMIT, f"beyond the class's assets limit of {c.limit}")
            self._budget(c)
        min_share = self.limits.min_asset_allocation(V) if not self.prep.percentages else ZERO
        if min_share > 0:
            for c in self.classes:
                flex = [line for line in c.lines if line.role == FLEX]
                while flex:
                    weights = sum((line.weight for line in flex), ZERO)
                    unit = c.budget / weights if weights > 0 else ZERO
                    if all(unit * line.weight >= min_share for line in flex):
                        break
                    candidates = [line for line in flex if not line.held and not line.added]
                    if not candidates:
                        break
                    drop = candidates[-1]
                    drop.role = OUT
                    drop.add(R.MIN_ASSET_ALLOCATION, "not bought: its share would be below the minimum asset "
                                                     f"allocation of {_money(min_share)}")
                    flex.remove(drop)
        for c in self.classes:
            c.flex = [line for line in c.lines if line.role == FLEX]
        cap, kind = self.limits.asset_cap(V)
        self.asset_cap = cap
        if cap is not None:
            for c in self.classes:
                for line in c.flex:
                    line.hi = cap
                    line.cap_kind = kind

    def _budget(self, c: _Class) -> None:
        if c.is_cash:
            budget = c.target - c.fixed - self.cash_floor
            if self.prep.percentages and not self.custom:
                budget = min(budget, c.pct_total * self.V / HUNDRED)
            c.budget = max(budget, ZERO)
        else:
            c.budget = c.target - c.fixed

    # 3-4. split and caps
    def _allocate(self) -> None:
        V = self.V
        excess = ZERO
        for c in self.classes:
            c.R = c.budget
            c.received = ZERO
            c.lam, c.capacity, x = _solve(c.flex, c.budget)
            if not c.is_cash:  # what the cash class's listed assets cannot take is its own cash
                excess += x
        for d in self.classes:
            if excess <= EPS:
                break
            if d.is_cash or not d.flex:
                continue
            taken = sum((line.f for line in d.flex), ZERO)
            ceiling = (d.max if d.max is not None else HUNDRED) * V / HUNDRED
            room = min(ceiling - d.fixed - taken, d.capacity - taken)
            if room <= EPS:
                continue
            give = min(excess, room)
            d.R = max(d.R, taken) + give
            d.lam, d.capacity, _ = _solve(d.flex, d.R)
            absorbed = sum((line.f for line in d.flex), ZERO) - taken
            d.received += absorbed
            excess -= absorbed
        self.leftover = max(excess, ZERO)

    def _group_caps(self) -> dict[int, tuple[Decimal | None, Decimal | None, Decimal | None, int, Decimal | None]]:
        """industry group id -> (target %, min %, max %, priority, cap %). The portfolio's own
        groups when switched on, else the model's when its industry group allocation is on."""
        out = {}
        if self.settings.industry_group_allocation:
            for i, g in enumerate(self.settings.industry_groups):
                if g.industry_group_id not in out:
                    cap = Decimal(g.allocation)
                    out[g.industry_group_id] = (cap, None, cap, i, cap)
        elif self.model.industry_group_allocation:
            for g in sorted(self.model.industry_groups, key=lambda x: x.priority):
                if g.industry_group_id not in out:
                    cap = g.max if g.max is not None else g.allocation
                    out[g.industry_group_id] = (g.allocation, g.min, g.max if g.max is not None else g.allocation,
                                                g.priority, cap)
        return out

    def _allocate_with_groups(self) -> None:
        V = self.V
        self.groups = self._group_caps()
        caps = {gid: meta[4] * V / HUNDRED for gid, meta in self.groups.items() if meta[4] is not None}
        self.group_caps = caps
        members: dict[int, list[_Line]] = {}
        for line in self.lines:
            if line.group_id in caps:
                members.setdefault(line.group_id, []).append(line)
        changed = True
        for _ in range(2 * len(caps) + 3):
            self._allocate()
            changed = self._scale_groups(members, bound_only=True)
            if not changed:
                break
        if changed:  # not settled (never seen): scale the groups down once more, the excess stays in cash
            self._allocate()
            self._scale_groups(members, bound_only=False)
        # reasons of the allocation
        cap_texts = {
            "industry_group": (R.CAPPED_INDUSTRY_GROUP, "capped by its industry group's cap"),
            "max_value": (R.CAPPED_MAX_VALUE, "capped by the maximum asset allocation value of "
                                              f"{_money(self.limits.max_asset_value or ZERO)}"),
            "max_exposure": (R.CAPPED_MAX_EXPOSURE, f"capped by the maximum exposure of {_fmt(self.limits.max_exposure)}%"),
        }
        for c in self.classes:
            if c.received > EPS:
                c.add(R.RECEIVED_OVERFLOW, f"received {_money(c.received)} that capped assets of other classes "
                                           "could not take")
            for line in c.flex:
                self._weight_reason(line, c)
                if line.hi != INF and line.f >= line.hi - EPS and _natural(line, c.lam) > line.hi + EPS:
                    line.add(*cap_texts[line.cap_kind])
                if c.received > EPS:
                    line.add(R.OVERFLOW, "includes the excess of capped assets of other classes")
        if self.leftover > EPS:
            self.cash_class.add(R.LEFTOVER_TO_CASH, f"{_money(self.leftover)} no class could take stays in cash")

    def _scale_groups(self, members: dict[int, list[_Line]], bound_only: bool) -> bool:
        """Groups over their cap get their flexible members bounded (bound_only) or also cut at
        once. True when a bound changed."""
        changed = False
        for gid in sorted(self.group_caps):
            cap = self.group_caps[gid]
            flex = [line for line in members.get(gid, ()) if line.role == FLEX]
            fixed = ZERO
            for line in members.get(gid, ()):
                if line.role == FIXED:
                    fixed += line.cur_exact
                elif line.role == PINNED and line.pin:
                    fixed += line.pin * line.price
            taken = sum((line.f for line in flex), ZERO)
            if fixed + taken <= cap + EPS:
                continue
            allowed = max(cap - fixed, ZERO)
            scale = allowed / taken if taken > 0 else ZERO
            for line in flex:
                bound = line.f * scale
                if bound < line.hi:
                    line.hi = bound
                    line.cap_kind = "industry_group"
                    changed = True
                if not bound_only:
                    line.f = min(line.f, bound)
        return changed

    def _weight_reason(self, line: _Line, c: _Class) -> None:
        a = line.action
        if line.added:
            text = (f"the average percentage of {c.label}: {_fmt(line.percentage.quantize(PCT))}%"
                    if self.prep.percentages else f"an equal share of {c.label}")
        elif self.prep.percentages:
            text = _PCT_TEXTS.get(line.percentage)
            if text is None:
                text = _PCT_TEXTS[line.percentage] = (f"model percentage {_fmt(line.percentage)}% (an excluded "
                                                      "asset's share is spread pro rata in its class)")
        else:
            text = c.weight_text
            if text is None:
                text = c.weight_text = f"model weight: an equal share of {c.label}"
        line.add(R.MODEL_WEIGHT, text)
        if a.base == A.SB:
            line.add(R.SPECULATIVE_BUY, f"recommendation {a.code}: half the weight of a BUY asset")
        lam = c.lam
        if line.mode == M_ACC and lam is not None and line.cur_exact > line.weight * lam + EPS and \
                line.f > line.weight * lam + EPS:  # kept above its weight: whole, or down to its cap only
            line.add(R.ACC_KEPT, f"recommendation {a.code}: the overweight holding is not sold down"
                     + ("" if line.f >= line.cur_exact - EPS else " below its cap"))
        elif line.mode == M_TAP:
            line.add(R.TAKE_PROFIT, f"recommendation {a.code}: never bought; only the part above the model weight is sold")
        elif line.mode == M_TSP:
            line.add(R.TAKE_SOME_PROFIT, f"recommendation {a.code}: never bought; half of the part above the model "
                                         "weight is sold")

    # 5. whole units
    def _units(self) -> None:
        for line in self.lines:
            if line.role == FIXED:
                line.tgt = line.cur_units
            elif line.role == PINNED:
                line.tgt = line.pin
            elif line.role == OUT:
                line.tgt = ZERO
            else:
                f = line.f
                if abs(f - line.cur_exact) <= EPS:
                    line.tgt = line.cur_units
                else:
                    units = ((f + TINY) / line.price).to_integral_value(rounding=ROUND_FLOOR)
                    if units < 0:
                        units = ZERO
                    if line.mode in (M_TAP, M_TSP) and units > line.cur_units:
                        units = line.cur_units
                    line.tgt = units

    # 6. minimum trade amount
    def _min_trade(self) -> None:
        mta = self.mta
        if not mta or mta <= 0:
            return
        below = f"the trade is below the minimum trade amount of {_money(mta)}: not traded"
        raised = f"the sell a cap requires is raised to the minimum trade amount of {_money(mta)}"
        caps = self.group_caps
        group_total: dict[int, Decimal] = {}
        if caps:
            for line in self.lines:
                if line.group_id in caps and line.price is not None:
                    group_total[line.group_id] = group_total.get(line.group_id, ZERO) + line.tgt * line.price
        for line in self.lines:
            if line.tgt == line.cur_units or line.action.urgent or line.role == PINNED:
                continue
            if line.tgt == 0 and line.held:  # a full sell
                continue
            value = abs(line.value_of(line.tgt) - line.cur_value)
            if value >= mta:
                continue
            if line.tgt > line.cur_units:
                line.tgt = line.cur_units
                line.add(R.BELOW_MIN_TRADE, below)
                continue
            must = self.asset_cap is not None and line.cur_exact > self.asset_cap + EPS and line.role != FIXED
            gid = line.group_id
            if not must and gid in caps:
                back = (line.cur_units - line.tgt) * line.price
                must = group_total[gid] + back > caps[gid] + EPS
            if must:
                units = (mta / line.price).to_integral_value(rounding=ROUND_CEILING)
                new = min(line.tgt, line.cur_units - units)
                if new < 0:
                    new = ZERO
                if gid in caps:
                    group_total[gid] -= (line.tgt - new) * line.price
                line.tgt = new
                line.add(R.RAISED_TO_MIN_TRADE, raised)
            else:
                if gid in caps:
                    group_total[gid] += (line.cur_units - line.tgt) * line.price
                line.tgt = line.cur_units
                line.add(R.BELOW_MIN_TRADE, below)

    # 7. cash
    def _fee(self, line: _Line, units: Decimal) -> Decimal:
        """The brokerage of the trade from the current units to `units` at last close."""
        if units == line._fee_units:
            return line._fee
        d = line.value_of(units) - line.cur_value
        fee = brokerage_fee(d if d > 0 else -d, self.snap.brokerage) if units != line.cur_units else ZERO
        line._fee_units, line._fee = units, fee
        return fee

    def _effect(self, line: _Line, units: Decimal | None = None) -> Decimal:
        """The cash a line's trade moves (negative for buys), brokerage included."""
        tgt = line.tgt if units is None else units
        if tgt == line.cur_units:
            return ZERO
        d = line.value_of(tgt) - line.cur_value
        return -d - self._fee(line, tgt)

    def _cash(self) -> None:
        cash = self.cash
        for line in self.lines:
            cash += self._effect(line)
        floor = self.cash_floor
        mta = self.mta
        if cash < floor:
            buys = [line for line in self.lines if line.tgt > line.cur_units and not line.edited]
            buys.sort(key=lambda line: (line.action.urgent, -line.rank))
            for line in buys:
                deficit = floor - cash
                if deficit <= 0:
                    break
                before = self._effect(line)
                k = min(line.tgt - line.cur_units, (deficit / line.price).to_integral_value(rounding=ROUND_CEILING))
                new = line.tgt - k
                while True:
                    freed = self._effect(line, new) - before
                    if freed >= deficit or new <= line.cur_units:
                        break
                    new -= 1
                if new < line.cur_units:
                    new = line.cur_units
                if new > line.cur_units and not line.action.urgent and mta and \
                        line.value_of(new) - line.cur_value < mta:
                    new = line.cur_units
                cash += self._effect(line, new) - before
                line.tgt = new
                line.add(R.CUT_FOR_CASH, "the buy is cut to keep the minimum cash" if new > line.cur_units
                         else "not bought: cut to keep the minimum cash")
        if cash < floor:
            flex = [line for line in self.lines if line.role == FLEX and line.tgt > 0 and not line.edited]
            achievable = cash
            for line in flex:
                achievable += self._effect(line, ZERO) - self._effect(line)
            goal = floor if achievable >= floor else (ZERO if cash < 0 <= achievable else None)
            if goal is not None:
                for _ in range(25):
                    short = goal - cash
                    pool = [line for line in flex if line.tgt > 0]
                    if short <= 0 or not pool:
                        break
                    total = sum((line.tgt * line.price for line in pool), ZERO)
                    for line in pool:
                        share = short * line.tgt * line.price / total
                        k = max(ONE, (share / line.price).to_integral_value(rounding=ROUND_CEILING))
                        new = line.tgt - k
                        if new < 0:
                            new = ZERO
                        if 0 < new < line.cur_units and not line.action.urgent and mta and \
                                line.cur_value - line.value_of(new) < mta:
                            lowest = line.cur_units - (mta / line.price).to_integral_value(rounding=ROUND_CEILING)
                            new = max(min(new, lowest), ZERO)
                        before = self._effect(line)
                        line.tgt = new
                        cash += self._effect(line) - before
                        line.add(R.SOLD_FOR_CASH, "sold pro rata to restore the minimum cash")
        if cash < 0:  # sells whose brokerage exceeds their value only cost cash
            for line in sorted(self.lines, key=lambda x: -x.rank):
                if cash >= 0:
                    break
                effect = self._effect(line)
                if line.tgt < line.cur_units and effect < 0 and not line.edited:
                    line.tgt = line.cur_units
                    cash -= effect
                    line.add(R.KEPT_FOR_CASH, "not sold: its brokerage exceeds its value")
        if cash < floor:  # the edits that cost cash cannot be paid: refused (see "Edits")
            costly = [line for line in self.lines if line.edited and self._effect(line) < 0]
            if any(line.added for line in costly):
                raise E.CalculationError("not_enough_cash_to_add", E.NOT_ENOUGH_CASH_TO_ADD)
            if costly:
                raise E.CalculationError("not_enough_cash_to_set", E.NOT_ENOUGH_CASH_TO_SET.format(
                    codes=", ".join(sorted({line.code for line in costly}))))
        self.cash_after = cash
        self.not_enough_cash = cash < floor
        if self.not_enough_cash:
            self.reasons.append(Reason(R.NOT_ENOUGH_CASH, f"Not Enough Cash: the cash after trades of "
                                                          f"{_money(cash)} is below the minimum cash of {_money(floor)}"))

    # ---- the answer ---------------------------------------------------------------------------
    def _result(self) -> Target:
        V = self.V
        mta = self.mta
        assets: list[AssetTarget] = []
        buys = sells = fees = ZERO
        class_current: dict[int, Decimal] = {c.id: c.others for c in self.classes}
        class_result: dict[int, Decimal] = dict(class_current)
        class_current[self.cash_class.id] += self.cash
        class_result[self.cash_class.id] += self.cash_after
        group_current: dict[int | None, Decimal] = {}
        group_result: dict[int | None, Decimal] = {}
        residue: dict[int, Decimal] = {}
        half_up = ROUND_HALF_UP
        for line in self.lines:
            tgt = line.tgt
            cur = line.cur_units
            cv = line.cur_value
            class_id = line.class_id
            gid = line.group_id
            role = line.role
            action = line.action
            if tgt == cur:
                tv, dv, fee, tp = cv, ZERO, ZERO, None
            else:
                tv = line.value_of(tgt)
                dv = tv - cv
                fee = self._fee(line, tgt)
                if dv > 0:
                    buys += dv
                else:
                    sells -= dv
                fees += fee
                tp = (tv * HUNDRED / V).quantize(PCT, rounding=half_up) if tv else PCT_ZERO
                class_current[class_id] += cv
                class_result[class_id] += tv
                group_current[gid] = group_current.get(gid, ZERO) + cv
                group_result[gid] = group_result.get(gid, ZERO) + tv
            cp = (cv * HUNDRED / V).quantize(PCT, rounding=half_up) if cv else PCT_ZERO
            if tp is None:
                tp = cp
                if cv:
                    class_current[class_id] += cv
                    class_result[class_id] += cv
                    group_current[gid] = group_current.get(gid, ZERO) + cv
                    group_result[gid] = group_result.get(gid, ZERO) + cv
            if role == FLEX:
                weight = line.f
                floored = tgt * line.price
                if weight > floored + EPS:
                    residue[class_id] = residue.get(class_id, ZERO) + weight - floored
                wp = (weight * HUNDRED / V).quantize(PCT, rounding=half_up) if weight else PCT_ZERO
            elif role == FIXED:
                wp = cp
            elif role == PINNED:
                wp = tp
            else:
                wp = PCT_ZERO
            assets.append(build(AssetTarget, {
                "asset_id": line.asset_id, "code": line.code, "class_id": class_id, "industry_group_id": gid,
                "kind": line.kind, "model_asset_id": line.model_asset_id, "rank": line.rank, "action": action.code,
                "base_action": action.base, "recommendation_source": line.source, "comment": line.comment,
                "limit_price": line.limit_price, "exception": line.exception, "manual_trade_decision": line.manual,
                "fixed": role == FIXED, "price": line.price, "current_units": cur, "target_units": tgt,
                "delta_units": tgt - cur, "current_value": cv, "target_value": tv, "delta_value": dv,
                "current_percent": cp, "target_percent": tp, "weight_percent": wp, "brokerage": fee,
                "full_sell": tgt == 0 and line.held, "stop_loss": action.stop_loss and tgt < cur,
                "urgent": action.urgent and tgt != cur, "reasons": tuple(line.reasons),
            }))
        holdings: list[HoldingTarget] = []
        for d, value in self.deposits:
            cid = d.class_id if d.class_id is not None else self.cash_class.id
            holdings.append(HoldingTarget("deposit", d.id, d.name, cid, value, _pct(value, V), None,
                                          (_reason(R.NOT_TRADED, "a deposit: never traded, counts toward its class"),)))
        for ch, value in self.customs:
            exc = self.exc_custom.get(ch.id)
            reasons = [_reason(R.NOT_TRADED, "a custom holding: never traded, counts toward its class")]
            if exc is not None and exc.action in (DONT_HOLD, MANUAL_TRADE_DECISION):
                reasons.append(_reason(R.MANUAL, f"{EXCEPTION_LABELS[exc.action]}: needs a manual decision"))
            holdings.append(HoldingTarget("custom", ch.id, ch.name, ch.class_id, value, _pct(value, V),
                                          exc.action if exc is not None else None, tuple(reasons)))
        classes = tuple(self._class_result(c, class_current[c.id], class_result[c.id], residue.get(c.id, ZERO))
                        for c in sorted(self.classes, key=lambda c: c.rank))
        groups = self._group_results(group_current, group_result)
        return Target(
            portfolio_id=self.snap.portfolio_id, model_id=self.model.id, model_version=self.model.version,
            allocation_method=self.model.allocation_method, value=V, cash=self.cash, cash_after=self.cash_after,
            min_cash=self.cash_floor, min_trade_amount=mta, buys=buys, sells=sells, brokerage=fees,
            not_enough_cash=self.not_enough_cash, assets=tuple(assets), holdings=tuple(holdings), classes=classes,
            industry_groups=groups, reasons=tuple(self.reasons),
            overrides=tuple(TargetOverride(aid, units) for aid, units in self.pins.items()), added=self.snap.added,
        )

    def _class_result(self, c: _Class, current: Decimal, result: Decimal, residue: Decimal) -> AllocationTarget:
        V = self.V
        reasons = list(c.reasons)
        lines = c.lines
        tolerance = HALF_CENT * (len(lines) + 1)
        if c.min is not None and result < c.min * V / HUNDRED - tolerance:
            causes: dict[str, list[str]] = {}
            for line in lines:
                for code in line.codes:
                    if code in R.SHORTFALL_CAUSES:
                        causes.setdefault(code, []).append(line.code)
            if not c.flex:
                causes.setdefault(R.NO_ASSETS, [])
            if residue > 0:
                causes.setdefault(R.WHOLE_UNITS, [])
            if c.is_cash and self.not_enough_cash:
                causes.setdefault(R.NOT_ENOUGH_CASH, [])
            texts = [_cause_text(code, who) for code, who in sorted(causes.items())]
            reasons.append(Reason(R.BELOW_MIN, f"below its minimum of {_fmt(c.min)}%: " + "; ".join(texts)))
            reasons.extend(Reason(code, _cause_text(code, who)) for code, who in sorted(causes.items()))
        if c.max is not None and result > c.max * V / HUNDRED + tolerance:
            causes = {}
            kept = [line.code for line in lines if line.held and line.tgt >= line.cur_units]
            if kept or c.others > 0:
                causes[R.FIXED_HOLDINGS] = kept
            for line in lines:
                for code in line.codes:
                    if code in R.EXCESS_CAUSES:
                        causes.setdefault(code, []).append(line.code)
            for code in c.codes:
                if code in R.EXCESS_CAUSES:
                    causes.setdefault(code, [])
            if c.is_cash:
                if residue > 0 or any(other is not c and any(
                        line.role == FLEX and line.f > line.tgt * line.price for line in other.lines) for other in self.classes):
                    causes.setdefault(R.WHOLE_UNITS, [])
                for line in self.lines:
                    for code in (R.BELOW_MIN_TRADE, R.CUT_FOR_CASH, R.SOLD_FOR_CASH, R.KEPT_FOR_CASH, R.EDITED):
                        if code in line.codes:
                            causes.setdefault(code, []).append(line.code)
                for other in self.classes:
                    if R.ALLOCATION_CLAMPED in other.codes:
                        causes.setdefault(R.ALLOCATION_CLAMPED, []).append(other.label)
            texts = [_cause_text(code, who) for code, who in sorted(causes.items())]
            reasons.append(Reason(R.ABOVE_MAX, f"above its maximum of {_fmt(c.max)}%: " + "; ".join(texts)))
            reasons.extend(Reason(code, _cause_text(code, who)) for code, who in sorted(causes.items())
                           if code not in c.codes)
        return build(AllocationTarget, {
            "id": c.id, "title": c.title, "is_cash": c.is_cash, "target_percent": _pct(c.target, V), "min": c.min,
            "max": c.max, "current_value": current, "current_percent": _pct(current, V), "result_value": result,
            "result_percent": _pct(result, V), "reasons": tuple(reasons),
        })

    def _group_results(self, current: dict, result: dict) -> tuple[AllocationTarget, ...]:
        V = self.V
        capped = {line.group_id for line in self.lines if R.CAPPED_INDUSTRY_GROUP in line.codes}
        ids = [gid for gid in self.groups]
        for gid in sorted((g for g in result if g is not None), key=int):
            if gid not in self.groups:
                ids.append(gid)
        out = []
        for gid in ids:
            meta = self.groups.get(gid)
            cur = current.get(gid, ZERO)
            res = result.get(gid, ZERO)
            reasons: list[Reason] = []
            cap = self.group_caps.get(gid)
            if cap is not None and res > cap + HALF_CENT:
                fixed = [line.code for line in self.lines if line.group_id == gid and line.role == FIXED and line.held]
                edited = [line.code for line in self.lines if line.group_id == gid and line.role == PINNED and line.tgt]
                kinds = "locked, HOLD and edited" if edited else "locked and HOLD"
                reasons.append(Reason(R.ABOVE_CAP, f"above its cap: its {kinds} holdings alone exceed it ("
                                      + ", ".join(fixed + edited) + ")"))
            if cap is not None and gid in capped:
                reasons.append(Reason(R.CAPPED_INDUSTRY_GROUP, f"its assets are scaled down to its cap of {_fmt(meta[4])}%"))
            out.append(build(AllocationTarget, {
                "id": gid, "title": "", "is_cash": False, "target_percent": meta[0] if meta else None,
                "min": meta[1] if meta else None, "max": meta[2] if meta else None, "current_value": cur,
                "current_percent": _pct(cur, V) if cur else PCT_ZERO, "result_value": res,
                "result_percent": _pct(res, V) if res else PCT_ZERO, "reasons": tuple(reasons),
            }))
        return tuple(out)


_CAUSE_TEXTS = {
    R.NO_ASSETS: "the class has no asset that can be bought",
    R.NO_PRICE: "no last close price",
    R.EXCLUDED: "excluded by a Don't hold exception",
    R.LOCKED: "locked",
    R.RECOMMENDATION_SELL: "recommendation SELL",
    R.RECOMMENDATION_SA: "recommendation SA",
    R.RECOMMENDATION_HOLD: "recommendation HOLD",
    R.NEVER_BUY: "the recommendation never buys a new position",
    R.TAKE_PROFIT: "recommendation TAP never buys",
    R.TAKE_SOME_PROFIT: "recommendation TSP never buys and sells only half of the part above the model weight",
    R.ASSETS_LIMIT: "beyond the assets limit",
    R.MIN_ASSET_ALLOCATION: "below the minimum asset allocation",
    R.CAPPED_MAX_EXPOSURE: "capped by the maximum exposure",
    R.CAPPED_MAX_VALUE: "capped by the maximum asset allocation value",
    R.CAPPED_INDUSTRY_GROUP: "capped by an industry group's cap",
    R.BELOW_MIN_TRADE: "trades below the minimum trade amount are not made",
    R.RAISED_TO_MIN_TRADE: "sells raised to the minimum trade amount",
    R.CUT_FOR_CASH: "buys cut to keep the minimum cash",
    R.SOLD_FOR_CASH: "sold to restore the minimum cash",
    R.KEPT_FOR_CASH: "sells whose brokerage exceeds their value are not made",
    R.WHOLE_UNITS: "whole units: the residue stays in cash",
    R.REPLACED: "replaced by a substitution asset",
    R.NOT_IN_MODEL: "holdings not in the model are sold",
    R.FIXED_HOLDINGS: "holdings that are kept (locked, HOLD, ACC, TAP, TSP, deposits, custom holdings)",
    R.LEFTOVER_TO_CASH: "what no class could take stays in cash",
    R.MIN_CASH: "the minimum cash",
    R.ALLOCATION_CLAMPED: "the allocation lies outside the class's min / max",
    R.ACC_KEPT: "recommendation ACC does not sell an overweight holding down",
    R.EDITED: "set by the adviser",
}


def _cause_text(code: str, who: list[str]) -> str:
    text = _CAUSE_TEXTS.get(code, code)
    names = sorted(set(who))
    return f"{text} ({', '.join(names)})" if names else text
