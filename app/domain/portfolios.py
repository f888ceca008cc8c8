"""Client portfolio (investment) rules: pure, no database (spec 001 s2-s9, 002 s3-s5).

- Vocabulary: portfolio types, tax treatments, exception actions, the list's activity and broker
  filters, page sizes and default sort.
- Approval settings: the named switches with their creation defaults (001 s9), the live switch
  rules (`apply_switch`) and the stored invariants (`clean_approval`), and the four "send to other
  e-mail" switches that need a valid comma-separated receiver list (002 s5).
- `PortfolioForm`, read once at the edge from the payload by `read_portfolio_form` (the screen and
  the demo builders make it directly); `clean_portfolio(form)` validates it and returns
  `(values, errors, message)`:
  `values` the typed values the service stores, `errors` {field: text} keyed as the payload names
  them ("name", "allocation_classes.0.max", "approval_settings.client_tp_other_email", ...) and
  `message` None when it may be saved, else the form-level text. References (users, classes,
  groups, assets, custom holdings, institution, broker) are the service's to check.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from decimal import ROUND_HALF_UP, Decimal
from datetime import date
from typing import Any, Mapping, TypedDict, cast

from app.domain import validators as v
from app.domain.advice import AUTO_APPROVAL_CHOICES, AUTO_APPROVAL_LABELS, AUTO_APPROVAL_NEVER
from app.domain.allocations import ALREADY_SELECTED, HUNDRED, allocation_total, check_allocation_row, chosen_id
from app.domain.ledger import TaxTreatment
from app.domain.money import MONEY_LIMIT, to_cents
from app.domain.parsing import as_bool, as_id
from app.domain.titled import TitledEnum


# ---- vocabulary ----------------------------------------------------------------------------------
class PortfolioType(TitledEnum):
    SMSF = "SMSF", "Self Managed Super Fund"
    SAVINGS = "SAVINGS", "Savings"
    TRUST = "TRUST", "Trust"
    COMPANY = "COMPANY", "Company"
    SOLE_TRADER = "SOLE_TRADER", "Sole Trader"


TYPE_TITLES: dict[str, str] = PortfolioType.value_titles()
# which type-specific names a type carries
TRUSTEE_TYPES = frozenset({PortfolioType.TRUST.value, PortfolioType.SMSF.value})
COMPANY_TYPES = frozenset({PortfolioType.COMPANY.value})

TAX_TREATMENTS = tuple(t.value for t in TaxTreatment)  # fifo, lifo, highest_cost, minimise_cgt (app.domain.ledger)
DEFAULT_TAX_TREATMENT = TaxTreatment.FIFO.value
TAX_TREATMENT_TITLES: dict[str, str] = TaxTreatment.value_titles()


class ExceptionAction(TitledEnum):
    DONT_HOLD = "dont_hold", "Don't hold"
    SUBSTITUTE = "substitute", "Substitute"
    MANUAL_TRADE_DECISION = "manual_trade_decision", "Manual Trade Decision"
    LOCK = "lock", "Lock"


EXCEPTION_TITLES: dict[str, str] = ExceptionAction.value_titles()

# the list (001 s3 "Portfolio list filter", s4, s9)
ACTIVITY_ALL, ACTIVITY_ACTIVE, ACTIVITY_INACTIVE = "all", "active", "inactive"
ACTIVITY_STATUSES = (ACTIVITY_ALL, ACTIVITY_ACTIVE, ACTIVITY_INACTIVE)
ACTIVITY_TITLES = {ACTIVITY_ALL: "All portfolios", ACTIVITY_ACTIVE: "Active", ACTIVITY_INACTIVE: "Inactive"}
DEFAULT_ACTIVITY = ACTIVITY_ACTIVE
BROKER_ALL = -1  # every broker (no filter)
BROKER_NA = -2   # portfolios without a broker
BROKER_FILTER_TITLES = {BROKER_ALL: "All brokers", BROKER_NA: "N/A"}
PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 100
DEFAULT_SORT, DEFAULT_ORDER = "name", "asc"
SORTS = ("name", "type", "model", "adviser", "broker", "inactive", "created_at", "updated_at")

# ---- texts ---------------------------------------------------------------------------------------
# quoted by the specification
INVALID_FORM = "Please, fill all required fields with valid data."
CLASS_TOTAL = "Total class allocation has to be 100%."
INDUSTRY_TOTAL = "Total industry group allocation has to be less or equal to 100%."
SAVED = "Portfolio is created/updated"
DELETED = "Portfolio is deleted"
CONFIRM_DELETE = "Are you sure you want to delete portfolio?"
MODEL_UNLINKED = "Model unlinked"
LOAD_FAILED = "Opps, something went wrong"
# ours (the specification names the rule, not the text)
MODEL_LINKED = "Model linked"
PORTFOLIO_CHANGED = "This portfolio was changed by someone else. Reload it and apply your changes again."
RECEIVERS_EMPTY = "Please, enter at least one e-mail address (separate several with commas)."
RECEIVERS_INVALID = "Please, enter valid e-mail addresses separated by commas."
CONFIRM_LINK = "Link the model {name} to this portfolio?"
CONFIRM_LINK_CROSS_FIRM = ("The model {name} belongs to a different firm. Linking it sets the class of this "
                           "portfolio's custom assets to cash. Do you want to link it?")
CONFIRM_UNLINK = "Are you sure you want to unlink the model {name} from this portfolio?"
CONFIRM_UNLINK_CROSS_FIRM = ("The model {name} belongs to a different firm. Unlinking it sets the class of this "
                             "portfolio's custom assets to cash. Do you want to unlink it?")
CUSTOM_CLASSES_CHANGED = "The class of the portfolio's custom assets was set to cash."
NO_MODEL_LINKED = "The portfolio is not linked to a model"
MODEL_NOT_LINKABLE = "This model is not available for this portfolio"
HOLDER_NOT_IN_FIRM = "Holders must be clients of the portfolio's firm."
ADVISER_NOT_IN_FIRM = "The adviser must be an adviser of the portfolio's firm."
SELECT_FIRM = v.REQUIRED_SELECT.format(label="firm")
SUBSTITUTE_REQUIRED = v.REQUIRED_SELECT.format(label="substitution")
EXCEPTION_TARGET_REQUIRED = v.REQUIRED_SELECT.format(label="asset")
SAME_SUBSTITUTE = "The substitution must differ from the asset."
BSB = "Please, enter a valid BSB (6 digits)."
ABN = "Please, enter a valid ABN (11 digits)."
LOOK_BACK_MAX = 3650  # days

LABELS = {  # what the required texts call the fields
    "name": "portfolio name", "type": "portfolio type", "trustee_name": "trustee name",
    "company_name": "company name", "allocation": "allocation",
}
NAME_MAX = 200

# ---- allocation limits and fees (001 s3; the percentages_* variants apply to percentages models) ----
PERCENT_LIMITS = ("min_asset_allocation", "max_exposure", "min_cash_allocation", "percentages_max_exposure",
                  "percentages_min_cash_balance")
MONEY_LIMITS = ("min_asset_allocation_value", "max_asset_allocation_value", "min_trade_amount",
                "min_cash_allocation_value", "percentages_min_trade_amount", "percentages_min_cash_balance_value")
LIMIT_FIELDS = PERCENT_LIMITS + MONEY_LIMITS
LIMIT_LABELS: dict[str, str] = {
    "min_asset_allocation": "Min asset allocation %",
    "min_asset_allocation_value": "Min asset allocation $",
    "max_asset_allocation_value": "Max asset allocation $",
    "max_exposure": "Max exposure per asset %",
    "min_trade_amount": "Min trade amount $",
    "min_cash_allocation": "Min cash allocation %",
    "min_cash_allocation_value": "Min cash allocation $",
    "percentages_max_exposure": "Max exposure per asset % (percentages models)",
    "percentages_min_trade_amount": "Min trade amount $ (percentages models)",
    "percentages_min_cash_balance": "Min cash balance % (percentages models)",
    "percentages_min_cash_balance_value": "Min cash balance $ (percentages models)",
}
FEE_FIELDS = ("fee_percent", "fee_limit_min", "fee_limit_max")
TEXT_FIELDS = {  # field: max length
    "bank_account": 10, "broker_account": 40, "hin": 20, "facility_id": 40,
}
SWITCH_FIELDS = ("class_allocation", "industry_group_allocation", "suspend_rebalancing", "suspend_tr_calculation")
PERCENT_PLACES = Decimal("0.0001")


def management_fee(value: Decimal, percent: Decimal | None, minimum: Decimal | None,
                   maximum: Decimal | None) -> Decimal | None:
    """The adviser's fee on a portfolio value: percent of the value to the cent, raised to the
    minimum then lowered to the maximum (a maximum below the minimum wins); None without a percent
    or a value."""
    if percent is None or not value:
        return None
    fee = to_cents(value * percent / 100)
    if minimum is not None:
        fee = max(fee, minimum)
    if maximum is not None:
        fee = min(fee, maximum)
    return fee


# ---- approval settings (001 s3, s9; 002 s4, s5) ----------------------------------------------------
APPROVAL_FLAGS = (
    "tp_validation_required", "tp_approval_required", "tp_approval_request", "tp_approval_request_pdf",
    "tr_validation_required", "tr_approval_required", "tr_approval_request", "tr_approval_request_pdf",
    "tp_approval_notification_client", "tr_approval_notification_client",
    "client_attach_roa_pdf", "client_attach_tr_pdf",
    "client_send_tp_to_other_email", "client_send_tr_to_other_email",
    "client_other_email_attach_roa_pdf", "client_other_email_attach_tr_pdf",
    "tp_approval_notification_adviser", "tr_approval_notification_adviser",
    "adviser_attach_roa_pdf", "adviser_attach_tr_pdf",
    "adviser_send_tp_to_other_email", "adviser_send_tr_to_other_email",
    "adviser_other_email_attach_roa_pdf", "adviser_other_email_attach_tr_pdf",
)
APPROVAL_ON_BY_DEFAULT = frozenset({"tp_validation_required", "tr_validation_required", "tp_approval_required",
                                    "tp_approval_request", "tr_approval_request", "tr_approval_required"})
AUTO_APPROVAL = "tr_auto_approval"
# the four "send to other e-mail" switches -> their receiver lists
RECEIVER_FIELDS: dict[str, str] = {
    "client_send_tp_to_other_email": "client_tp_other_email",
    "client_send_tr_to_other_email": "client_tr_other_email",
    "adviser_send_tp_to_other_email": "adviser_tp_other_email",
    "adviser_send_tr_to_other_email": "adviser_tr_other_email",
}
APPROVAL_TEXTS = tuple(RECEIVER_FIELDS.values())
APPROVAL_KEYS = APPROVAL_FLAGS + (AUTO_APPROVAL,) + APPROVAL_TEXTS
# switch rules: approval required -> its request follows; a request -> its pdf
REQUEST_OF = {"tp_approval_required": "tp_approval_request", "tr_approval_required": "tr_approval_request"}
PDF_OF = {"tp_approval_request": "tp_approval_request_pdf", "tr_approval_request": "tr_approval_request_pdf"}
RECEIVERS_MAX = 1000
APPROVAL_LABELS: dict[str, str] = {
    "tp_validation_required": "Validation required",
    "tp_approval_required": "Approval required",
    "tp_approval_request": "Send approval request",
    "tp_approval_request_pdf": "Attach the record of advice PDF to the request",
    "tr_validation_required": "Validation required",
    "tr_approval_required": "Approval required",
    "tr_approval_request": "Send approval request",
    "tr_approval_request_pdf": "Attach the trade recommendations PDF to the request",
    "tr_auto_approval": "Auto-approval",
    "tp_approval_notification_client": "Notify when a target portfolio is approved",
    "tr_approval_notification_client": "Notify when trades are approved",
    "client_attach_roa_pdf": "Attach the record of advice PDF",
    "client_attach_tr_pdf": "Attach the trade recommendations PDF",
    "client_send_tp_to_other_email": "Send target portfolio notices to other e-mails",
    "client_tp_other_email": "Other e-mails for target portfolio notices",
    "client_send_tr_to_other_email": "Send trade notices to other e-mails",
    "client_tr_other_email": "Other e-mails for trade notices",
    "client_other_email_attach_roa_pdf": "Attach the record of advice PDF for other e-mails",
    "client_other_email_attach_tr_pdf": "Attach the trade recommendations PDF for other e-mails",
    "tp_approval_notification_adviser": "Notify when a target portfolio is approved",
    "tr_approval_notification_adviser": "Notify when trades are approved",
    "adviser_attach_roa_pdf": "Attach the record of advice PDF",
    "adviser_attach_tr_pdf": "Attach the trade recommendations PDF",
    "adviser_send_tp_to_other_email": "Send target portfolio notices to other e-mails",
    "adviser_tp_other_email": "Other e-mails for target portfolio notices",
    "adviser_send_tr_to_other_email": "Send trade notices to other e-mails",
    "adviser_tr_other_email": "Other e-mails for trade notices",
    "adviser_other_email_attach_roa_pdf": "Attach the record of advice PDF for other e-mails",
    "adviser_other_email_attach_tr_pdf": "Attach the trade recommendations PDF for other e-mails",
}
AUTO_APPROVAL_OPTIONS = tuple((choice, AUTO_APPROVAL_LABELS[choice]) for choice in AUTO_APPROVAL_CHOICES)


def approval_settings_of(stored_text: str | None) -> dict[str, Any]:
    """A portfolio's stored approval settings (JSON text) completed with the creation defaults
    (keys added later read as defaults; unreadable text reads as none stored)."""
    try:
        stored = json.loads(stored_text) if stored_text else {}
    except ValueError:
        stored = {}
    settings = default_approval_settings()
    if isinstance(stored, dict):
        settings.update({k: stored[k] for k in APPROVAL_KEYS if k in stored})
    return settings


def default_approval_settings() -> dict[str, Any]:
    """The approval settings of a new portfolio (001 s9)."""
    settings: dict[str, Any] = {flag: flag in APPROVAL_ON_BY_DEFAULT for flag in APPROVAL_FLAGS}
    settings[AUTO_APPROVAL] = AUTO_APPROVAL_NEVER
    settings.update({key: "" for key in APPROVAL_TEXTS})
    return settings


def apply_switch(settings: Mapping[str, Any], key: str, value: Any) -> dict[str, Any]:
    """The settings after the user sets one switch, with the rules of 001 s9 / 002 s4 applied:
    tp/tr approval required sets its approval request to the same value; turning an approval
    request off turns its PDF off; turning tr approval required off sets auto-approval to never."""
    out = dict(settings)
    if key == AUTO_APPROVAL:
        choice = str(value or "")
        if choice in AUTO_APPROVAL_CHOICES and (choice == AUTO_APPROVAL_NEVER or as_bool(out.get("tr_approval_required"))):
            out[AUTO_APPROVAL] = choice
        return out
    if key not in APPROVAL_FLAGS:
        return out
    on = as_bool(value)
    out[key] = on
    if key in REQUEST_OF:
        out[REQUEST_OF[key]] = on
        if not on:
            out[PDF_OF[REQUEST_OF[key]]] = False
    if key in PDF_OF and not on:
        out[PDF_OF[key]] = False
    if key == "tr_approval_required" and not on:
        out[AUTO_APPROVAL] = AUTO_APPROVAL_NEVER
    return out


def receivers_error(value: Any) -> str | None:
    """The text for a receiver list (comma-separated e-mails), or None when it is valid."""
    key = v.notification_receivers(value)
    if key == v.NOTIFICATION_RECEIVERS_EMPTY:
        return RECEIVERS_EMPTY
    if key == v.NOTIFICATION_RECEIVERS_INVALID:
        return RECEIVERS_INVALID
    if len(str(value)) > RECEIVERS_MAX:
        return v.MAX_LENGTH.format(n=RECEIVERS_MAX)
    return None


def normalise_receivers(value: Any) -> str:
    """'a@x.com ,b@y.com' -> 'a@x.com, b@y.com' (the entries as typed, trimmed)."""
    text = "" if value is None else str(value)
    entries = [entry.strip() for entry in text.split(",")]
    return ", ".join(entry for entry in entries if entry)


def clean_approval(raw: Mapping[str, bool | str] | None) -> tuple[dict[str, Any], dict[str, str]]:
    """(settings, errors keyed by setting name) of the switches sent (PortfolioForm.approval_settings):
    every setting present (defaults for the missing),
    the stored invariants (no PDF without its request, no auto-approval without tr approval
    required) and the receiver lists: required and valid when their switch is on, valid when given."""
    settings = default_approval_settings()
    errors: dict[str, str] = {}
    data = raw if isinstance(raw, Mapping) else {}
    for flag in APPROVAL_FLAGS:
        if flag in data:
            settings[flag] = as_bool(data.get(flag))
    choice = str(data.get(AUTO_APPROVAL) or AUTO_APPROVAL_NEVER)
    if choice not in AUTO_APPROVAL_CHOICES:
        errors[AUTO_APPROVAL] = v.DEFAULT
        choice = AUTO_APPROVAL_NEVER
    settings[AUTO_APPROVAL] = choice
    for request, pdf in PDF_OF.items():
        if not settings[request]:
            settings[pdf] = False
    if not settings["tr_approval_required"]:
        settings[AUTO_APPROVAL] = AUTO_APPROVAL_NEVER
    for switch, field in RECEIVER_FIELDS.items():
        text = data.get(field)
        text = "" if text is None else str(text)
        if settings[switch] or text.strip():
            error = receivers_error(text)
            if error:
                errors[field] = error
                settings[field] = text
                continue
        settings[field] = normalise_receivers(text)
    return settings, errors


# ---- small parsers ---------------------------------------------------------------------------------
def activity_of(value: Any) -> str:
    text = str(value or "").strip().lower()
    return text if text in ACTIVITY_STATUSES else DEFAULT_ACTIVITY


def broker_filter_of(value: Any) -> int:
    """The broker filter: BROKER_ALL (-1, also for empty or junk), BROKER_NA (-2) or a broker id."""
    text = str(value if value is not None else "").strip()
    if text == str(BROKER_NA):
        return BROKER_NA
    broker = as_id(text)
    return broker if broker is not None else BROKER_ALL


# ---- the list's filters --------------------------------------------------------------------------------
@dataclass(frozen=True)
class PortfolioFilter:
    """The portfolio list's context and filters (001 s3 "Portfolio list filter"), read once from the
    query: an id of 0 names nothing (text that is no id), None is no filter; `activity` None: not
    asked (clients then see every portfolio they hold, others the active ones)."""
    client_id: int | None = None
    adviser_id: int | None = None
    firm_id: int | None = None
    model_id: int | None = None
    model_ids: tuple[int, ...] | None = None
    activity: str | None = None
    broker: int = BROKER_ALL
    approved: bool = False
    tp_calculation: bool = False  # portfolios a target portfolio can be calculated for
    ti_calculation: bool = False  # ... and trade recommendations


def _filter_id(value: Any, *, every: tuple[str, ...] = ("-1", "-2")) -> int | None:
    """An id filter as sent: None when empty (or one of `every`, the list's "all"), else the id,
    0 for text that names none."""
    if v.is_empty(value) or str(value).strip() in every:
        return None
    return as_id(value) or 0


def read_filter(*, client_id: Any = None, adviser_id: Any = None, firm_id: Any = None, model_id: Any = None,
                model_ids: Any = None, activity_status: Any = None, broker_id: Any = None, approved: Any = None,
                tp_calculation: Any = None, tp_bulk_calculation: Any = None, ti_calculation: Any = None,
                ti_bulk_calculation: Any = None) -> PortfolioFilter:
    """The list's query parameters as sent (text, or ids from a screen) as its filter."""
    return PortfolioFilter(
        client_id=_filter_id(client_id, every=()), adviser_id=_filter_id(adviser_id), firm_id=_filter_id(firm_id),
        model_id=_filter_id(model_id),
        model_ids=None if model_ids is None else tuple(i for i in (as_id(x) for x in model_ids) if i is not None),
        activity=None if v.is_empty(activity_status) else activity_of(activity_status),
        broker=broker_filter_of(broker_id), approved=as_bool(approved),
        tp_calculation=as_bool(tp_calculation) or as_bool(tp_bulk_calculation),
        ti_calculation=as_bool(ti_calculation) or as_bool(ti_bulk_calculation),
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _optional_text(value: Any) -> str | None:
    text = _text(value)
    return text or None


def _percent(errors: v.FieldErrors, field: str, value: Any) -> Decimal | None:
    """A percentage 0..100 (4 places kept), or None when empty; errors under `field`."""
    row = check_allocation_row(value)
    if "allocation" in row:
        errors.check(field, row["allocation"])
        return None
    number = v.parse_decimal(value)
    return None if number is None else number.quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP)


def _money(errors: v.FieldErrors, field: str, value: Any) -> Decimal | None:
    """Dollars >= 0 with at most 2 decimals, or None when empty."""
    error = v.float_(value) or v.positive(value) or v.two_decimals(value) or v.less_than(value, MONEY_LIMIT)
    if error:
        errors.check(field, error)
        return None
    number = v.parse_decimal(value)
    return None if number is None else to_cents(number)


def clean_bsb(value: Any) -> tuple[str | None, str | None]:
    """(BSB as 'XXX-XXX', error): six digits, optionally written with a hyphen or a space."""
    text = _text(value)
    if not text:
        return None, None
    digits = text.replace("-", "").replace(" ", "")
    if len(digits) != 6 or not digits.isascii() or not digits.isdigit():
        return None, BSB
    return f"{digits[:3]}-{digits[3:]}", None


def _abn(errors: v.FieldErrors, field: str, value: Any) -> str | None:
    text = _text(value).replace(" ", "")
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) != 11:
        errors.check(field, ABN)
        return None
    return text


# ---- the form as sent ----------------------------------------------------------------------------------
# A number as sent: a Decimal for a number, else the text typed (refused by the rules below with
# the specification's texts); None when left out or empty.
SentAmount = Decimal | str | None
AMOUNT_FIELDS = FEE_FIELDS + LIMIT_FIELDS
NAME_FIELDS = ("name", "type", "trustee_name", "trustee_abn", "company_name", "company_abn", "soa_date",
               "tax_treatment", "sell_look_back_period", "bank_bsb", *TEXT_FIELDS)
# the payload's names of a field the form names otherwise (the first one sent wins)
FORM_ALIASES: dict[str, tuple[str, ...]] = {
    "holders": ("users", "Users", "owners"), "adviser_id": ("adviser", "adviser_id"),
    "broker_id": ("broker", "broker_id"),
}


@dataclass(frozen=True)
class PortfolioHolder:
    id: int
    is_owner: bool = True


@dataclass(frozen=True)
class ClassRowForm:
    """A class allocation row: the class (None: not chosen, 0: sent but naming none) and its band."""
    class_id: int | None = None
    allocation: SentAmount = None
    min: SentAmount = None
    max: SentAmount = None


@dataclass(frozen=True)
class GroupRowForm:
    industry_group_id: int | None = None
    allocation: SentAmount = None


@dataclass(frozen=True)
class ExceptionRowForm:
    """An exception: an asset or a custom holding (the asset wins when both are named), its action
    and, for Substitute, the substitution."""
    asset_id: int | None = None
    custom_holding_id: int | None = None
    action: str = ""
    substitute_asset_id: int | None = None


@dataclass(frozen=True)
class PortfolioForm:
    """The portfolio form (POST/PUT /api/investments, the portfolio screen) as sent: texts as text,
    flags as truth, ids as numbers (0: sent but naming none), amounts as SentAmount. `sent` names
    the fields the form carries (an edit changes only those, see `over`), `nulls` those sent as
    null (a new portfolio takes their defaults, see `creation`)."""
    name: str | None = None
    type: str | None = None
    trustee_name: str | None = None
    trustee_abn: str | None = None
    company_name: str | None = None
    company_abn: str | None = None
    soa_date: str | None = None  # 'YYYY-MM-DD', 'DD/MM/YYYY' or an ISO timestamp (its day)
    tax_treatment: str | None = None
    sell_look_back_period: str | None = None  # days
    institution_id: int | None = None
    bank_bsb: str | None = None
    bank_account: str | None = None
    broker_id: int | None = None
    broker_account: str | None = None
    hin: str | None = None
    facility_id: str | None = None
    fee_percent: SentAmount = None
    fee_limit_min: SentAmount = None
    fee_limit_max: SentAmount = None
    # PERCENT_LIMITS, then MONEY_LIMITS
    min_asset_allocation: SentAmount = None
    max_exposure: SentAmount = None
    min_cash_allocation: SentAmount = None
    percentages_max_exposure: SentAmount = None
    percentages_min_cash_balance: SentAmount = None
    min_asset_allocation_value: SentAmount = None
    max_asset_allocation_value: SentAmount = None
    min_trade_amount: SentAmount = None
    min_cash_allocation_value: SentAmount = None
    percentages_min_trade_amount: SentAmount = None
    percentages_min_cash_balance_value: SentAmount = None
    class_allocation: bool = False
    industry_group_allocation: bool = False
    suspend_rebalancing: bool = False
    suspend_tr_calculation: bool = False
    inactive: bool = True
    allocation_classes: tuple[ClassRowForm, ...] = ()
    industry_groups_allocations: tuple[GroupRowForm, ...] = ()
    exceptions: tuple[ExceptionRowForm, ...] = ()
    # the switches sent, by APPROVAL_KEYS (flags as truth, the rest as text); None: the defaults
    approval_settings: Mapping[str, bool | str] | None = None
    holders: tuple[PortfolioHolder, ...] | None = None  # None: not named (an edit keeps them)
    adviser_id: int | None = None
    address: Mapping[str, object] | None = None  # {propertyName, ...}; None: none (an edit keeps it)
    firm_id: int | None = None  # the owner firm a superuser names for a new portfolio
    version: str | None = None  # the version an edit read, as sent
    sent: frozenset[str] = frozenset()
    nulls: frozenset[str] = frozenset()

    def creation(self) -> PortfolioForm:
        """Creation removes null fields, so their defaults apply (001 s2)."""
        return replace(self, sent=self.sent - self.nulls, nulls=frozenset())

    def over(self, saved: PortfolioForm) -> PortfolioForm:
        """An edit: the fields this form sent over the saved portfolio's (the approval switches one
        by one, unless sent as null)."""
        kept = {name: getattr(saved, name) for name in EDITED_FIELDS if name not in self.sent}
        if "approval_settings" in self.sent and self.approval_settings is not None:
            kept["approval_settings"] = {**(saved.approval_settings or {}), **self.approval_settings}
        return replace(self, **kept, sent=self.sent | saved.sent, nulls=frozenset())


# what an edit keeps when the form leaves it out (the address, firm and version are the edit's own)
EDITED_FIELDS = frozenset(f.name for f in fields(PortfolioForm)) - {"address", "firm_id", "version", "sent", "nulls"}


def _sent_text(value: Any) -> str | None:
    return None if value is None else str(value)


def _sent_id(value: Any) -> int | None:
    """None when not sent (or empty); 0 when sent but naming no record."""
    return None if v.is_empty(value) else (as_id(value) or 0)


def _sent_amount(value: Any) -> SentAmount:
    """A number as parse_decimal takes it (a Decimal), else its text (refused); None when empty."""
    if v.is_empty(value):
        return None
    if isinstance(value, Decimal):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(str(value))
    return str(value)


def _sent_holders(data: Mapping[str, Any]) -> tuple[PortfolioHolder, ...] | None:
    """The holders: `users` / `Users` entries {id, is_owner}, or `owners` ids (each an owner);
    None when none of them is sent (or all as null). Entries naming no user are left out."""
    for key in ("users", "Users"):
        entries = data.get(key)
        if entries is not None:
            out = []
            for entry in entries if isinstance(entries, (list, tuple)) else []:
                uid = as_id(entry.get("id") if isinstance(entry, Mapping) else entry)
                owner = as_bool(entry.get("is_owner"), default=True) if isinstance(entry, Mapping) else True
                if uid is not None:
                    out.append(PortfolioHolder(id=uid, is_owner=owner))
            return tuple(out)
    owners = data.get("owners")
    if owners is None:
        return None
    return tuple(PortfolioHolder(id=uid) for uid in (as_id(entry) for entry in (
        owners if isinstance(owners, (list, tuple)) else [owners])) if uid is not None)


def _sent_approval(raw: Any) -> dict[str, bool | str] | None:
    """The approval switches sent (unknown keys left out); None when not an object."""
    if not isinstance(raw, Mapping):
        return None
    settings: dict[str, bool | str] = {flag: as_bool(raw[flag]) for flag in APPROVAL_FLAGS if flag in raw}
    if AUTO_APPROVAL in raw:
        settings[AUTO_APPROVAL] = str(raw[AUTO_APPROVAL] or AUTO_APPROVAL_NEVER)
    settings.update({key: "" if raw[key] is None else str(raw[key]) for key in APPROVAL_TEXTS if key in raw})
    return settings


def _rows(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The rows sent under `key` (a row that is not an object reads as an empty row)."""
    rows = data.get(key) or []
    if not isinstance(rows, (list, tuple)):
        return []
    return [row if isinstance(row, Mapping) else {} for row in rows]


def _class_row(row: Mapping[str, Any]) -> ClassRowForm:
    return ClassRowForm(class_id=_sent_id(row.get("class_id")), allocation=_sent_amount(row.get("allocation")),
                        min=_sent_amount(row.get("min")), max=_sent_amount(row.get("max")))


def _group_row(row: Mapping[str, Any]) -> GroupRowForm:
    return GroupRowForm(industry_group_id=_sent_id(row.get("industry_group_id")),
                        allocation=_sent_amount(row.get("allocation")))


def _exception_row(row: Mapping[str, Any]) -> ExceptionRowForm:
    """An exception row, its asset and substitution also as the read shape names them (asset, substitution)."""
    return ExceptionRowForm(
        asset_id=as_id(row.get("asset_id") or row.get("asset")),
        custom_holding_id=as_id(row.get("custom_holding_id") or row.get("custom_holding")),
        action=_text(row.get("action")),
        substitute_asset_id=as_id(row.get("substitute_asset_id") or row.get("substitution")))


ROW_READERS = {"allocation_classes": _class_row, "industry_groups_allocations": _group_row,
               "exceptions": _exception_row}


def read_portfolio_form(data: Mapping[str, Any]) -> PortfolioForm:
    """The form from the keys sent, by the payload's names (and the aliases of FORM_ALIASES)."""
    if not isinstance(data, Mapping):
        data = {}
    values: dict[str, Any] = {}
    nulls: set[str] = set()
    for name in NAME_FIELDS:
        if name in data:
            values[name] = _sent_text(data[name])
    for name in AMOUNT_FIELDS:
        if name in data:
            values[name] = _sent_amount(data[name])
    for name in SWITCH_FIELDS:
        if name in data:
            values[name] = as_bool(data[name])
    if "inactive" in data:
        values["inactive"] = as_bool(data["inactive"], default=True)
    for name, read_row in ROW_READERS.items():
        if name in data:
            values[name] = tuple(read_row(row) for row in _rows(data, name))
    if "institution_id" in data:
        values["institution_id"] = _sent_id(data["institution_id"])
    for name, aliases in FORM_ALIASES.items():
        sent_as = next((alias for alias in aliases if alias in data), None)
        if sent_as is None:
            continue
        raw = data[sent_as]
        if name == "holders":
            values[name] = raw = _sent_holders(data)
        elif name == "broker_id":
            values[name] = _sent_id(raw.get("id") if isinstance(raw, Mapping) else raw)
        else:
            values[name] = _sent_id(raw)
        if raw is None:
            nulls.add(name)
    if "approval_settings" in data:
        values["approval_settings"] = _sent_approval(data["approval_settings"])
    if "address" in data:
        address = data["address"]
        values["address"] = address if isinstance(address, Mapping) else None
    nulls.update(name for name in values if name in data and data[name] is None)
    version = data.get("version")
    return PortfolioForm(**values, firm_id=as_id(data.get("firm_id")),
                         version=None if v.is_empty(version) else str(version).strip(),
                         sent=frozenset(values), nulls=frozenset(nulls))


def _holders(form: PortfolioForm) -> tuple[list[tuple[int, bool]], bool]:
    """[(user id, is_owner)] of the form's holders (the first of a repeated one) and whether it named them."""
    if form.holders is None:
        return [], False
    out: list[tuple[int, bool]] = []
    for holder in form.holders:
        if all(holder.id != uid for uid, _ in out):
            out.append((holder.id, holder.is_owner))
    return out, True


# ---- the form's values ------------------------------------------------------------------------------
class ClassValues(TypedDict):
    class_id: int
    index: int  # the row's place on the form (its errors are named by it)
    allocation: Decimal | None
    min: Decimal | None
    max: Decimal | None


class GroupValues(TypedDict):
    industry_group_id: int
    allocation: Decimal | None
    index: int


class ExceptionValues(TypedDict):
    asset_id: int | None
    custom_holding_id: int | None
    action: str
    substitute_asset_id: int | None
    index: int


class PortfolioValues(TypedDict):
    """What clean_portfolio makes of a form: the columns the service stores, then the rows."""
    name: str
    type: str | None
    trustee_name: str | None
    trustee_abn: str | None
    company_name: str | None
    company_abn: str | None
    soa_date: date | None
    tax_treatment: str
    sell_look_back_period: int
    institution_id: int | None
    bank_bsb: str | None
    broker_id: int | None
    bank_account: str | None
    broker_account: str | None
    hin: str | None
    facility_id: str | None
    fee_percent: Decimal | None
    fee_limit_min: Decimal | None
    fee_limit_max: Decimal | None
    min_asset_allocation: Decimal | None
    max_exposure: Decimal | None
    min_cash_allocation: Decimal | None
    percentages_max_exposure: Decimal | None
    percentages_min_cash_balance: Decimal | None
    min_asset_allocation_value: Decimal | None
    max_asset_allocation_value: Decimal | None
    min_trade_amount: Decimal | None
    min_cash_allocation_value: Decimal | None
    percentages_min_trade_amount: Decimal | None
    percentages_min_cash_balance_value: Decimal | None
    class_allocation: bool
    industry_group_allocation: bool
    suspend_rebalancing: bool
    suspend_tr_calculation: bool
    inactive: bool
    classes: list[ClassValues]
    industry_groups: list[GroupValues]
    exceptions: list[ExceptionValues]
    approval_settings: dict[str, bool | str]  # every key of APPROVAL_KEYS
    holders: list[tuple[int, bool]]  # (user id, is_owner)
    holders_named: bool  # False: an edit keeps the holders
    adviser_id: int | None
    adviser_named: bool


def clean_portfolio(form: PortfolioForm) -> tuple[PortfolioValues, v.FieldErrors, str | None]:
    """Validate a portfolio form (see the module text)."""
    errors = v.FieldErrors()
    values: dict[str, Any] = {}

    name = _text(form.name)
    errors.check("name", v.required(name, LABELS["name"]), v.max_length(name, NAME_MAX))
    values["name"] = name

    kind = _text(form.type).upper()
    if not kind:
        errors.check("type", v.required_select(kind, LABELS["type"]))
    elif kind not in TYPE_TITLES:
        errors.check("type", v.DEFAULT)
        kind = ""
    values["type"] = kind or None

    # type-specific names: kept only for the types that carry them
    trustee = _text(form.trustee_name)
    company = _text(form.company_name)
    values.update(trustee_name=None, trustee_abn=None, company_name=None, company_abn=None)
    if kind in TRUSTEE_TYPES:
        errors.check("trustee_name", v.required(trustee, LABELS["trustee_name"]), v.max_length(trustee, NAME_MAX))
        values["trustee_name"] = trustee or None
        values["trustee_abn"] = _abn(errors, "trustee_abn", form.trustee_abn)
    if kind in COMPANY_TYPES:
        errors.check("company_name", v.required(company, LABELS["company_name"]), v.max_length(company, NAME_MAX))
        values["company_name"] = company or None
        values["company_abn"] = _abn(errors, "company_abn", form.company_abn)

    soa = form.soa_date
    if soa is not None and "T" in soa:  # an ISO timestamp: its day
        soa = soa.split("T", 1)[0]
    errors.check("soa_date", v.date(soa))
    values["soa_date"] = None if v.is_empty(soa) else v.parse_date(soa)

    treatment = _text(form.tax_treatment).lower() or DEFAULT_TAX_TREATMENT
    if treatment not in TAX_TREATMENTS:
        errors.check("tax_treatment", v.DEFAULT)
        treatment = DEFAULT_TAX_TREATMENT
    values["tax_treatment"] = treatment

    look_back = _text(form.sell_look_back_period)
    if not look_back:
        values["sell_look_back_period"] = 0
    else:
        error = v.number(look_back) or v.less_than(look_back, LOOK_BACK_MAX + 1)
        errors.check("sell_look_back_period", error)
        values["sell_look_back_period"] = int(look_back) if error is None else 0

    # bank and broker
    values["institution_id"] = form.institution_id or None
    if form.institution_id == 0:
        errors.check("institution_id", v.REQUIRED_SELECT.format(label="bank"))
    bsb, bsb_error = clean_bsb(form.bank_bsb)
    errors.check("bank_bsb", bsb_error)
    values["bank_bsb"] = bsb
    values["broker_id"] = form.broker_id or None
    if form.broker_id == 0:
        errors.check("broker", v.REQUIRED_SELECT.format(label="broker"))
    for field, limit in TEXT_FIELDS.items():
        text = _text(getattr(form, field))
        check = {"bank_account": v.only_number, "hin": v.word}.get(field)
        errors.check(field, check(text) if check else None, v.max_length(text, limit))
        values[field] = text or None
    if values["hin"]:
        values["hin"] = values["hin"].upper()

    # fees: an empty fee is stored as null, and clears the max fee (002 s5 fee form)
    values["fee_percent"] = _percent(errors, "fee_percent", form.fee_percent)
    values["fee_limit_min"] = _money(errors, "fee_limit_min", form.fee_limit_min)
    values["fee_limit_max"] = _money(errors, "fee_limit_max", form.fee_limit_max)
    if v.is_empty(form.fee_percent):
        values["fee_limit_max"] = None
    elif "fee_limit_min" not in errors and "fee_limit_max" not in errors:
        low, high = v.min_max(values["fee_limit_min"], values["fee_limit_max"])
        errors.check("fee_limit_min", low)
        errors.check("fee_limit_max", high)

    # asset allocation limits: a max without a value is cleared; max <= min is refused (002 s5)
    for field in PERCENT_LIMITS:
        values[field] = _percent(errors, field, getattr(form, field))
    for field in MONEY_LIMITS:
        values[field] = _money(errors, field, getattr(form, field))
    if "min_asset_allocation_value" not in errors and "max_asset_allocation_value" not in errors:
        low, high = v.min_max(values["min_asset_allocation_value"], values["max_asset_allocation_value"])
        errors.check("min_asset_allocation_value", low)
        errors.check("max_asset_allocation_value", high)

    for switch in SWITCH_FIELDS:
        values[switch] = getattr(form, switch)
    values["inactive"] = form.inactive

    # class allocation
    classes: list[dict[str, Any]] = []
    for i, row in enumerate(form.allocation_classes):
        prefix = f"allocation_classes.{i}"
        class_id = chosen_id(errors, prefix, "class_id", row.class_id, "class", classes)
        if class_id is None:
            continue
        row_errors = check_allocation_row(row.allocation, row.min, row.max)
        cleaned: dict[str, Any] = {"class_id": class_id, "index": i}
        for key in ("allocation", "min", "max"):
            if key in row_errors:
                errors.check(f"{prefix}.{key}", row_errors[key])
                cleaned[key] = None
            else:
                number = v.parse_decimal(getattr(row, key))
                cleaned[key] = None if number is None else number.quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP)
        if cleaned["allocation"] is None and "allocation" not in row_errors:
            cleaned["allocation"] = Decimal(0)
        classes.append(cleaned)
    values["classes"] = classes
    if values["class_allocation"] and allocation_total(c["allocation"] for c in classes) != HUNDRED:
        errors.check("allocation_classes", CLASS_TOTAL)

    # industry group allocation
    groups: list[dict[str, Any]] = []
    for i, group in enumerate(form.industry_groups_allocations):
        prefix = f"industry_groups_allocations.{i}"
        group_id = chosen_id(errors, prefix, "industry_group_id", group.industry_group_id, "industry group", groups)
        if group_id is None:
            continue
        allocation = _percent(errors, f"{prefix}.allocation", group.allocation)
        if allocation is None and f"{prefix}.allocation" not in errors:
            errors.check(f"{prefix}.allocation", v.required(None, LABELS["allocation"]))
        groups.append({"industry_group_id": group_id, "allocation": allocation, "index": i})
    values["industry_groups"] = groups
    if values["industry_group_allocation"] and \
            allocation_total(g["allocation"] for g in groups if g["allocation"] is not None) > HUNDRED:
        errors.check("industry_groups_allocations", INDUSTRY_TOTAL)

    # exceptions: an asset or a custom holding, an action, and a substitution for Substitute only
    exceptions: list[dict[str, Any]] = []
    seen: set[tuple[str, int | None]] = set()
    for i, exception in enumerate(form.exceptions):
        prefix = f"exceptions.{i}"
        asset_id = exception.asset_id
        holding_id = None if asset_id is not None else exception.custom_holding_id
        action = exception.action
        substitute = exception.substitute_asset_id
        ok = True
        if asset_id is None and holding_id is None:
            errors.check(f"{prefix}.asset_id", EXCEPTION_TARGET_REQUIRED)
            ok = False
        else:
            target = ("asset", asset_id) if asset_id is not None else ("custom_holding", holding_id)
            if target in seen:
                errors.check(f"{prefix}.asset_id", ALREADY_SELECTED)
                ok = False
            seen.add(target)
        if action not in EXCEPTION_TITLES:
            errors.check(f"{prefix}.action", v.REQUIRED_SELECT.format(label="action"))
            ok = False
        if action == ExceptionAction.SUBSTITUTE.value:
            if substitute is None:
                errors.check(f"{prefix}.substitute_asset_id", SUBSTITUTE_REQUIRED)
                ok = False
            elif substitute == asset_id:
                errors.check(f"{prefix}.substitute_asset_id", SAME_SUBSTITUTE)
                ok = False
        else:
            substitute = None
        if ok:
            exceptions.append({"asset_id": asset_id, "custom_holding_id": holding_id, "action": action,
                               "substitute_asset_id": substitute, "index": i})
    values["exceptions"] = exceptions

    approval, approval_errors = clean_approval(form.approval_settings)
    for key, text in approval_errors.items():
        errors.check(f"approval_settings.{key}", text)
    values["approval_settings"] = approval

    values["holders"], values["holders_named"] = _holders(form)
    values["adviser_id"] = form.adviser_id or None
    values["adviser_named"] = "adviser_id" in form.sent or form.adviser_id is not None
    if form.adviser_id == 0:
        errors.check("adviser", v.REQUIRED_SELECT.format(label="adviser"))

    # every key of PortfolioValues is set above
    return cast(PortfolioValues, values), errors, form_message(errors)


def form_message(errors: Mapping[str, str]) -> str | None:
    """The form-level text: the total's own text when it is the only problem, else INVALID_FORM."""
    if not errors:
        return None
    keys = set(errors)
    if keys == {"allocation_classes"}:
        return CLASS_TOTAL
    if keys == {"industry_groups_allocations"}:
        return INDUSTRY_TOTAL
    return INVALID_FORM


def is_cross_firm(portfolio_firm_id: int, model_firm_id: int | None) -> bool:
    """Linking or unlinking a model of another firm sets the custom assets' class to cash (001 s2)."""
    return model_firm_id is not None and model_firm_id != portfolio_firm_id
