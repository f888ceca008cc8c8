"""`calculate_target(snapshot) -> Target`: the target portfolio (design/engine.md, steps 1-7).

Each step is a module of this package that takes the named records of the steps before it and
returns its own (working.py says which fields of the working rows each step writes):

| step                                   | module          | returns                               |
|----------------------------------------|-----------------|---------------------------------------|
| -  the snapshot's model, limits        | (here)          | working.Inputs                        |
| 0  positions and V                     | positions.py    | Positions                             |
| 1  class targets                       | classes.py      | Classes (ClassState rows)             |
| 2  places: equivalents, exceptions ... | places.py       | Places (Line rows)                    |
| 2  assets limit, minimum, budgets      | eligibility.py  | Eligibility (cash floor, asset cap)   |
| 3-4 split and caps (water-filling)     | allocation.py   | Allocation (industry groups, leftover)|
|                                        | waterfill.py    | Shape, Solution (one class)           |
| 5  whole units                         | units.py        | (Line.tgt)                            |
| 6  minimum trade amount                | min_trade.py    | (Line.tgt)                            |
| 7  cash                                | cash.py         | CashAfter                             |
| the answer                             | output.py       | results.Target                        |

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

from decimal import Decimal, localcontext

from app.domain.engine.allocation import allocate
from app.domain.engine.cash import keep_min_cash
from app.domain.engine.classes import class_targets
from app.domain.engine.eligibility import eligible_assets
from app.domain.engine.limits import limits_for
from app.domain.engine.min_trade import apply_min_trade
from app.domain.engine.output import build_target
from app.domain.engine.places import place_assets
from app.domain.engine.positions import positions
from app.domain.engine.prepared import prepare_model
from app.domain.engine.results import Target
from app.domain.engine.snapshot import Snapshot
from app.domain.engine.units import whole_units
from app.domain.engine.working import CTX, PCT, ZERO, Inputs, pct


def calculate_target(snapshot: Snapshot) -> Target:
    """The target portfolio of `snapshot` (see the module text). Raises CalculationError when the
    model or the portfolio cannot be calculated."""
    with localcontext(CTX):
        inputs = read_inputs(snapshot)
        inputs.prep.check(inputs.custom)
        pos = positions(snapshot, inputs.prep)  # 0
        classes = class_targets(inputs, pos)  # 1
        places = place_assets(inputs, pos, classes)  # 2
        eligibility = eligible_assets(inputs, pos, classes, places)  # 2
        allocation = allocate(inputs, pos, classes, places)  # 3-4
        whole_units(places)  # 5
        apply_min_trade(inputs, places, eligibility, allocation)  # 6
        after = keep_min_cash(inputs, pos, places, eligibility)  # 7
        return build_target(inputs, pos, classes, places, eligibility, allocation, after)


def read_inputs(snapshot: Snapshot) -> Inputs:
    """What every step reads of the snapshot."""
    model = snapshot.model
    prep = prepare_model(model)
    limits = limits_for(snapshot.settings, model.allocation_method)
    return Inputs(snapshot=snapshot, model=model, prep=prep, settings=snapshot.settings, limits=limits,
                  mta=limits.min_trade_amount, custom=bool(snapshot.settings.class_allocation),
                  percentages=prep.percentages)


def percent_of(value: Decimal, total: Decimal) -> Decimal:
    """value as a % of total, 4 decimals half-up (0 when total is 0)."""
    if not total:
        return ZERO.quantize(PCT)
    with localcontext(CTX):
        return pct(value, total)
