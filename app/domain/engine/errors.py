"""The engine's one error type: a portfolio or model it cannot calculate. The service stores the
message on a 'Calculation Error' version (advice.TPStatus.FAILED)."""
from __future__ import annotations

from app.domain import advice
from app.domain.errors import ValidationError

# texts (ours: the specification shows only that a calculation can fail)
NO_CASH_CLASS = "The model {model} has no cash class"
MODEL_TOTAL = "The model {model} cannot be used: its class allocations add up to {total}%, not 100%"
MODEL_PERCENTAGE_MISSING = "The model {model} cannot be used: asset {code} has no percentage"
MODEL_CLASS_PERCENTAGES = ("The model {model} cannot be used: the percentages of the assets of class {title} "
                           "add up to {total}%, not its allocation of {allocation}%")
CUSTOM_TOTAL = "Total class allocation has to be 100%."  # spec 002 s5 (portfolio form)
MISSING_PRICE = "Asset {codes} has no last close price"
MISSING_PRICES = "Assets {codes} have no last close price"
OVERSOLD = "Pending trades sell more {code} than the portfolio holds"
NO_VALUE = "The portfolio has no holdings or cash to allocate"
UNKNOWN_ACTION = "Unknown recommendation action {action} for asset {code}"
# the adviser's edits (spec 001 s5 "Target portfolio"; see target.py "Edits" for when each applies)
ASSETS_LIMIT = advice.ASSETS_LIMIT  # 'Assets limit is exceeded'
NOT_ENOUGH_CASH_TO_ADD = advice.NOT_ENOUGH_CASH_TO_ADD  # 'Not enough cash to add asset'
NOT_ENOUGH_CASH_TO_SET = "Not enough cash to buy the target units set for {codes}"  # ours
NOT_IN_TARGET = "Asset {code} is not in the target portfolio: add it first"
ALREADY_IN_TARGET = "Asset {code} is already in the target portfolio"
UNKNOWN_ASSET = "Asset #{asset_id} is unknown"
CLASS_NOT_IN_MODEL = "Asset {code} can only be added to a class of the model"
OVERRIDE_UNITS = "The target units of {code} must be a whole number, zero or more"


class CalculationError(ValidationError):
    """The calculation cannot be done; `code` says why in a stable, machine-readable way:
    no_cash_class, model_total, model_percentage, custom_total, missing_price, oversold, no_value,
    unknown_action; and for the adviser's edits: assets_limit, not_enough_cash_to_add,
    not_enough_cash_to_set, not_in_target, already_in_target, unknown_asset, class_not_in_model,
    override_units."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
