"""The stable codes of the reasons a target carries (the UI and the record of advice show the
texts; code that reacts to a reason reads the code)."""
from __future__ import annotations

# ---- an asset's place and weight ---------------------------------------------------------------
MODEL_WEIGHT = "model_weight"  # an equal share (equal amounts) / its percentage (percentages)
SPECULATIVE_BUY = "speculative_buy"  # SB: half the weight of a BUY asset
EQUIVALENT = "equivalent"  # held in place of the model asset it is equivalent to
SUBSTITUTE = "substitute"  # Substitute exception: takes the model asset's place
REPLACED = "replaced_by_substitute"  # the model asset a Substitute exception replaces
ALTERNATE = "alternate"  # bought instead of a model asset that cannot be bought
NOT_IN_MODEL = "not_in_model"  # a holding the model does not contain: sold
OVERFLOW = "overflow"  # received the excess of capped assets of other classes

NOT_TRADED = "not_traded"  # a deposit or custom holding: never traded, counts toward its class

# ---- the adviser's edits (mode EDIT) --------------------------------------------------------------
EDITED = "edited"  # its target units were set by the adviser
ADDED = "added"  # added to its class by the adviser

# ---- recommendations ---------------------------------------------------------------------------
RECOMMENDATION_SELL = "recommendation_sell"
RECOMMENDATION_SA = "recommendation_sa"
RECOMMENDATION_HOLD = "recommendation_hold"  # held: current units kept
NEVER_BUY = "never_buy"  # HOLD / TAP / TSP: no new position is bought
ACC_KEPT = "acc_not_sold_down"
TAKE_PROFIT = "take_profit"  # TAP
TAKE_SOME_PROFIT = "take_some_profit"  # TSP
FAST_FOLLOW = "fast_follow"
STOP_LOSS = "stop_loss"

# ---- exceptions ---------------------------------------------------------------------------------
LOCKED = "locked"
EXCLUDED = "excluded_by_exception"  # Don't hold
MANUAL = "manual_trade_decision"

# ---- what cannot be bought or kept -------------------------------------------------------------
NO_PRICE = "no_price"
ASSETS_LIMIT = "assets_limit"
MIN_ASSET_ALLOCATION = "min_asset_allocation"

# ---- caps ---------------------------------------------------------------------------------------
CAPPED_MAX_EXPOSURE = "capped_max_exposure"
CAPPED_MAX_VALUE = "capped_max_value"
CAPPED_INDUSTRY_GROUP = "capped_industry_group"
CAPPED = (CAPPED_MAX_EXPOSURE, CAPPED_MAX_VALUE, CAPPED_INDUSTRY_GROUP)

# ---- trades and cash ----------------------------------------------------------------------------
BELOW_MIN_TRADE = "below_min_trade"  # the trade was dropped
RAISED_TO_MIN_TRADE = "raised_to_min_trade"  # a sell a cap requires, raised to the minimum trade
CUT_FOR_CASH = "cut_for_cash"  # a buy cut to keep the minimum cash
SOLD_FOR_CASH = "sold_for_cash"  # sold pro rata to restore the minimum cash
KEPT_FOR_CASH = "kept_for_cash"  # a sell whose brokerage exceeds its value, cancelled so cash stays >= 0
WHOLE_UNITS = "whole_units"  # the residue of whole units stays in cash

# ---- classes, industry groups and the portfolio -------------------------------------------------
ALLOCATION_CLAMPED = "allocation_clamped"  # the class allocation lies outside its min / max
CUSTOM_ALLOCATION = "custom_allocation"  # the portfolio's own class allocation applies
MIN_CASH = "min_cash"  # the cash target is the minimum cash
BELOW_MIN = "below_min"
ABOVE_MAX = "above_max"
ABOVE_CAP = "above_cap"  # an industry group above its cap (fixed holdings)
NO_ASSETS = "no_assets"  # the class has no asset that can be bought
FIXED_HOLDINGS = "fixed_holdings"  # locked, HOLD, deposits, custom holdings or one-way (ACC/TAP/TSP) holdings
LEFTOVER_TO_CASH = "leftover_to_cash"  # what no class could take stays in cash
RECEIVED_OVERFLOW = "received_overflow"
NOT_ENOUGH_CASH = "not_enough_cash"

# causes that may explain a class below its minimum (each recorded on the class when it applies)
SHORTFALL_CAUSES = frozenset({
    NOT_ENOUGH_CASH, NO_ASSETS, NO_PRICE, EXCLUDED, LOCKED, RECOMMENDATION_SELL, RECOMMENDATION_SA, RECOMMENDATION_HOLD, NEVER_BUY,
    TAKE_PROFIT, TAKE_SOME_PROFIT, ASSETS_LIMIT, MIN_ASSET_ALLOCATION, CAPPED_MAX_EXPOSURE, CAPPED_MAX_VALUE,
    CAPPED_INDUSTRY_GROUP, BELOW_MIN_TRADE, RAISED_TO_MIN_TRADE, CUT_FOR_CASH, SOLD_FOR_CASH, WHOLE_UNITS,
    REPLACED, NOT_IN_MODEL, EDITED,
})
# causes that may explain a class above its maximum
EXCESS_CAUSES = frozenset({FIXED_HOLDINGS, BELOW_MIN_TRADE, KEPT_FOR_CASH, LEFTOVER_TO_CASH, WHOLE_UNITS, MIN_CASH,
                           CUT_FOR_CASH, SOLD_FOR_CASH, ALLOCATION_CLAMPED, ACC_KEPT, TAKE_SOME_PROFIT, EDITED})
