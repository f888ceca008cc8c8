"""Client portfolio (investment) rules: pure, no database (spec 001 s2-s9, 002 s3-s5).

- Vocabulary: portfolio types, tax treatments, exception actions, the list's activity and broker
  filters, page sizes and default sort.
- Approval settings: the named switches with their creation defaults (001 s9), the live switch
  rules (`apply_switch`) and the stored invariants (`clean_approval`), and the four "send to other
  e-mail" switches that need a valid comma-separated receiver list (002 s5).
- `clean_portfolio(data)` validates a whole form payload and returns `(values, errors, message)`:
  `values` the typed values the service stores, `errors` {field: text} keyed as the payload names
  them ("name", "allocation_classes.0.max", "approval_settings.client_tp_other_email", ...) and
  `message` None when it may be saved, else the form-level text. References (users, classes,
  groups, assets, custom holdings, institution, broker) are the service's to check.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

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
TAX_TREATMENT_TITLES: dict[str, str] = {
    TaxTreatment.FIFO.value: "FIFO (first in, first out)",
    TaxTreatment.LIFO.value: "LIFO (last in, first out)",
    TaxTreatment.HIGHEST_COST.value: "Highest cost first (minimum tax)",
    TaxTreatment.MINIMISE_CGT.value: "Minimise capital gains tax",
}


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


def clean_approval(raw: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """(settings, errors keyed by setting name): every setting present (defaults for the missing),
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


def _rows(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    rows = data.get(key) or []
    if not isinstance(rows, (list, tuple)):
        return []
    return [row if isinstance(row, Mapping) else {} for row in rows]


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


def holders_of(data: Mapping[str, Any]) -> tuple[list[tuple[int, bool]], bool]:
    """[(user id, is_owner)] of the payload's holders and whether the payload named them.
    Accepted: `users` / `Users` entries {id, is_owner}, or `owners` ids (each an owner)."""
    entries = None
    for key in ("users", "Users"):
        if key in data and data.get(key) is not None:
            entries = data.get(key)
            break
    named = entries is not None
    out: list[tuple[int, bool]] = []
    if entries is not None:
        for entry in entries if isinstance(entries, (list, tuple)) else []:
            uid = as_id(entry.get("id") if isinstance(entry, Mapping) else entry)
            owner = as_bool(entry.get("is_owner"), default=True) if isinstance(entry, Mapping) else True
            if uid is not None and all(uid != u for u, _ in out):
                out.append((uid, owner))
    elif data.get("owners") is not None:
        named = True
        owners = data.get("owners")
        for entry in owners if isinstance(owners, (list, tuple)) else [owners]:
            uid = as_id(entry)
            if uid is not None and all(uid != u for u, _ in out):
                out.append((uid, True))
    return out, named


# ---- the payload -------------------------------------------------------------------------------------
def clean_portfolio(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors, str | None]:
    """Validate a portfolio form payload (see the module text)."""
    if not isinstance(data, Mapping):
        data = {}
    errors = v.FieldErrors()
    values: dict[str, Any] = {}

    name = _text(data.get("name"))
    errors.check("name", v.required(name, LABELS["name"]), v.max_length(name, NAME_MAX))
    values["name"] = name

    kind = _text(data.get("type")).upper()
    if not kind:
        errors.check("type", v.required_select(kind, LABELS["type"]))
    elif kind not in TYPE_TITLES:
        errors.check("type", v.DEFAULT)
        kind = ""
    values["type"] = kind or None

    # type-specific names: kept only for the types that carry them
    trustee = _text(data.get("trustee_name"))
    company = _text(data.get("company_name"))
    values.update(trustee_name=None, trustee_abn=None, company_name=None, company_abn=None)
    if kind in TRUSTEE_TYPES:
        errors.check("trustee_name", v.required(trustee, LABELS["trustee_name"]), v.max_length(trustee, NAME_MAX))
        values["trustee_name"] = trustee or None
        values["trustee_abn"] = _abn(errors, "trustee_abn", data.get("trustee_abn"))
    if kind in COMPANY_TYPES:
        errors.check("company_name", v.required(company, LABELS["company_name"]), v.max_length(company, NAME_MAX))
        values["company_name"] = company or None
        values["company_abn"] = _abn(errors, "company_abn", data.get("company_abn"))

    soa = data.get("soa_date")
    if isinstance(soa, str) and "T" in soa:  # an ISO timestamp: its day
        soa = soa.split("T", 1)[0]
    errors.check("soa_date", v.date(soa))
    values["soa_date"] = None if v.is_empty(soa) else v.parse_date(soa)

    treatment = _text(data.get("tax_treatment")).lower() or DEFAULT_TAX_TREATMENT
    if treatment not in TAX_TREATMENTS:
        errors.check("tax_treatment", v.DEFAULT)
        treatment = DEFAULT_TAX_TREATMENT
    values["tax_treatment"] = treatment

    look_back = data.get("sell_look_back_period")
    if v.is_empty(look_back):
        values["sell_look_back_period"] = 0
    else:
        error = v.number(str(look_back).strip()) or v.less_than(str(look_back).strip(), LOOK_BACK_MAX + 1)
        errors.check("sell_look_back_period", error)
        values["sell_look_back_period"] = int(str(look_back).strip()) if error is None else 0

    # bank and broker
    values["institution_id"] = as_id(data.get("institution_id"))
    if not v.is_empty(data.get("institution_id")) and values["institution_id"] is None:
        errors.check("institution_id", v.REQUIRED_SELECT.format(label="bank"))
    bsb, bsb_error = clean_bsb(data.get("bank_bsb"))
    errors.check("bank_bsb", bsb_error)
    values["bank_bsb"] = bsb
    raw_broker = data.get("broker", data.get("broker_id"))
    if isinstance(raw_broker, Mapping):
        raw_broker = raw_broker.get("id")
    values["broker_id"] = as_id(raw_broker)
    if not v.is_empty(raw_broker) and values["broker_id"] is None:
        errors.check("broker", v.REQUIRED_SELECT.format(label="broker"))
    for field, limit in TEXT_FIELDS.items():
        text = _text(data.get(field))
        check = {"bank_account": v.only_number, "hin": v.word}.get(field)
        errors.check(field, check(text) if check else None, v.max_length(text, limit))
        values[field] = text or None
    if values["hin"]:
        values["hin"] = values["hin"].upper()

    # fees: an empty fee is stored as null, and clears the max fee (002 s5 fee form)
    values["fee_percent"] = _percent(errors, "fee_percent", data.get("fee_percent"))
    values["fee_limit_min"] = _money(errors, "fee_limit_min", data.get("fee_limit_min"))
    values["fee_limit_max"] = _money(errors, "fee_limit_max", data.get("fee_limit_max"))
    if v.is_empty(data.get("fee_percent")):
        values["fee_limit_max"] = None
    elif "fee_limit_min" not in errors and "fee_limit_max" not in errors:
        low, high = v.min_max(values["fee_limit_min"], values["fee_limit_max"])
        errors.check("fee_limit_min", low)
        errors.check("fee_limit_max", high)

    # asset allocation limits: a max without a value is cleared; max <= min is refused (002 s5)
    for field in PERCENT_LIMITS:
        values[field] = _percent(errors, field, data.get(field))
    for field in MONEY_LIMITS:
        values[field] = _money(errors, field, data.get(field))
    if "min_asset_allocation_value" not in errors and "max_asset_allocation_value" not in errors:
        low, high = v.min_max(values["min_asset_allocation_value"], values["max_asset_allocation_value"])
        errors.check("min_asset_allocation_value", low)
        errors.check("max_asset_allocation_value", high)

    for switch in SWITCH_FIELDS:
        values[switch] = as_bool(data.get(switch))
    values["inactive"] = as_bool(data.get("inactive"), default=True)

    # class allocation
    classes: list[dict[str, Any]] = []
    for i, row in enumerate(_rows(data, "allocation_classes")):
        prefix = f"allocation_classes.{i}"
        class_id = chosen_id(errors, prefix, "class_id", row.get("class_id"), "class", classes)
        if class_id is None:
            continue
        row_errors = check_allocation_row(row.get("allocation"), row.get("min"), row.get("max"))
        cleaned: dict[str, Any] = {"class_id": class_id, "index": i}
        for key in ("allocation", "min", "max"):
            if key in row_errors:
                errors.check(f"{prefix}.{key}", row_errors[key])
                cleaned[key] = None
            else:
                number = v.parse_decimal(row.get(key))
                cleaned[key] = None if number is None else number.quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP)
        if cleaned["allocation"] is None and "allocation" not in row_errors:
            cleaned["allocation"] = Decimal(0)
        classes.append(cleaned)
    values["classes"] = classes
    if values["class_allocation"] and allocation_total(c["allocation"] for c in classes) != HUNDRED:
        errors.check("allocation_classes", CLASS_TOTAL)

    # industry group allocation
    groups: list[dict[str, Any]] = []
    for i, row in enumerate(_rows(data, "industry_groups_allocations")):
        prefix = f"industry_groups_allocations.{i}"
        group_id = chosen_id(errors, prefix, "industry_group_id", row.get("industry_group_id"), "industry group",
                             groups)
        if group_id is None:
            continue
        allocation = _percent(errors, f"{prefix}.allocation", row.get("allocation"))
        if allocation is None and f"{prefix}.allocation" not in errors:
            errors.check(f"{prefix}.allocation", v.required(None, LABELS["allocation"]))
        groups.append({"industry_group_id": group_id, "allocation": allocation, "index": i})
    values["industry_groups"] = groups
    if values["industry_group_allocation"] and \
            allocation_total(g["allocation"] for g in groups if g["allocation"] is not None) > HUNDRED:
        errors.check("industry_groups_allocations", INDUSTRY_TOTAL)

    # exceptions: an asset or a custom holding, an action, and a substitution for Substitute only
    exceptions: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for i, row in enumerate(_rows(data, "exceptions")):
        prefix = f"exceptions.{i}"
        asset_id = as_id(row.get("asset_id") or row.get("asset"))
        holding_id = None if asset_id is not None else as_id(row.get("custom_holding_id") or row.get("custom_holding"))
        action = _text(row.get("action"))
        substitute = as_id(row.get("substitute_asset_id") or row.get("substitution"))
        ok = True
        if asset_id is None and holding_id is None:
            errors.check(f"{prefix}.asset_id", EXCEPTION_TARGET_REQUIRED)
            ok = False
        else:
            key = ("asset", asset_id) if asset_id is not None else ("custom_holding", holding_id)
            if key in seen:
                errors.check(f"{prefix}.asset_id", ALREADY_SELECTED)
                ok = False
            seen.add(key)
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

    approval, approval_errors = clean_approval(data.get("approval_settings"))
    for key, text in approval_errors.items():
        errors.check(f"approval_settings.{key}", text)
    values["approval_settings"] = approval

    values["holders"], values["holders_named"] = holders_of(data)
    raw_adviser = data.get("adviser", data.get("adviser_id"))
    values["adviser_id"] = as_id(raw_adviser)
    values["adviser_named"] = "adviser" in data or "adviser_id" in data
    if not v.is_empty(raw_adviser) and values["adviser_id"] is None:
        errors.check("adviser", v.REQUIRED_SELECT.format(label="adviser"))

    return values, errors, form_message(errors)


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


def creation_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """Creation removes null (and undefined) fields, so their defaults apply (001 s2)."""
    return {key: value for key, value in (data or {}).items() if value is not None}


def is_cross_firm(portfolio_firm_id: int, model_firm_id: int | None) -> bool:
    """Linking or unlinking a model of another firm sets the custom assets' class to cash (001 s2)."""
    return model_firm_id is not None and model_firm_id != portfolio_firm_id
