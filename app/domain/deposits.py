"""Term deposits and at-call accounts (spec 002 s3 Deposit, s4 term deposit forms, s5, s9). Pure:
no I/O. The service (app.services.deposits), the REST API and the deposit modals all use these
rules, so each is written once.

Vocabulary (spec): product types Term Deposits and At Call Account; deal statuses 'Pending – Rate to
Confirm', 'Pending – AMM to Process', 'Pending – Bank to Process', 'Live'; AMM transaction types
Redemption, Interest Accrual, Rate Change, Placement, Withdrawal.

Names and codes (spec s3): a deposit is named provider name + TD/ACA + term + maturity date + rate
("Westpac TD 6 months 05/07/2026 4.50%"); parts it does not have are left out, so an at-call
account reads as its short name provider + ACA + rate ("Macquarie ACA 4.35%"). Its asset code is
TD or ACA followed by its DealID ("TD12345").

The forms (spec s4): Buy, Sell, Interest Accrual and Deposit; the type select toggles between them.
Buy is always offered; Sell only when the portfolio has open deposits; Interest Accrual and Deposit
only when it has open at-call accounts. The buy form's type follows the product type (td_buy or
aca_buy); the sell form's the chosen deposit's (td_sell or aca_sell); Interest Accrual is always
aca_income and Deposit aca_deposit. A fifth form, Interest Payment (td_income), records the
interest a term deposit pays to the cash account; it is reached from a term deposit's row.
TransactionType is Credit for money coming out of a deposit or paid as interest (sells and
income) and Debit for money placed in one (buys and at-call deposits).

Rules where the specification is silent (ours):
- Every deposit transaction entered through the forms is recorded as executed: the book moves at
  once (a placement takes the cash out of the cash account, a redemption puts it back).
- A new buy starts 'Pending – Rate to Confirm' when no rate is given, else 'Pending – Bank to
  Process'. Giving the rate later moves a 'Rate to Confirm' deal on to 'Pending – Bank to Process'.
  Staff may move a deal forward by hand along DEAL_TRANSITIONS; 'Bank to Process' and 'Live' need
  a rate; 'Live' is final.
- Reprocess (spec s7, the AMM modal) applies to a deposit transaction that is in error or still
  pending (not yet sent): it goes back to processing (shown as Placed), and a deal that is not
  Live goes back to 'Pending – AMM to Process'.
- Dates of a deposit's transactions are calendar days, never before the deposit's start date.
  A transaction's instant is the ASX close of its day (app.domain.prices.close_instant), which is
  that same day in every browser offset from UTC-6 to UTC+17; its day is read back in Sydney.
- A sell (redemption or withdrawal) may not exceed the deposit's balance (executed placements and
  accruals in, redemptions out). A term deposit whose balance comes to zero through a redemption
  is closed; an at-call account stays open at a zero balance.
- DealID is optional on a buy (the service then uses the deposit's own number) and unique within
  the portfolio, so that codes do not collide.
- Placing a deposit does not require cash in the cash account: the cash list shows a negative
  balance in red, which is how an adviser sees an opening balance still to be recorded.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable, Mapping

from app.domain import validators as v
from app.domain.money import format_aud
from app.domain.timezones import day_text
from app.domain.errors import INVALID_FORM, ValidationError, not_found
from app.domain.money import MONEY_LIMIT, to_cents
from app.domain.parsing import as_bool, as_id
from app.domain.prices import close_instant, months_before
from app.domain.titled import TitledEnum
from app.domain.transactions import (
    AMM_TYPES, AT_CALL_ACCOUNT, DEAL_STATUSES, PRODUCT_TYPES, PROVIDER_TYPES, TERM_DEPOSITS, Kind, Status,
)

RATE_TO_CONFIRM, AMM_TO_PROCESS, BANK_TO_PROCESS, LIVE = DEAL_STATUSES
REDEMPTION, INTEREST_ACCRUAL, RATE_CHANGE, PLACEMENT, WITHDRAWAL = AMM_TYPES
CREDIT, DEBIT = "Credit", "Debit"
DEFAULT_AUTO_MATURED = True  # spec s9: cash and interest-accrual term deposits default to AutoMatured true
SYDNEY = "Australia/Sydney"

# ---- texts (ours where the spec gives none) ---------------------------------------------------------
DEPOSIT_NOT_FOUND = not_found("Deposit")
TRANSACTION_NOT_FOUND = not_found("Transaction")
ADDED = "Transaction added"
UPDATED = "Transaction updated"
REPROCESS_TITLE = "Success"
REPROCESSED = "Transaction was sended to reprocessing"
BEFORE_START = "The date can't be before the deposit start date {start}."
OVER_BALANCE = "The amount can't be more than the deposit balance {balance}."
BELOW_ZERO = "This change would leave the deposit balance below zero."
MATURITY_BEFORE_START = "The maturity date has to be after the start date."
START_AFTER_TRANSACTIONS = "The start date can't be after the deposit's transaction of {day}."
AT_CALL_ONLY = "Please, select an at-call account: this form is for at-call accounts only."
TERM_ONLY = "Please, select a term deposit: interest payments are recorded for term deposits only."
DEPOSIT_CLOSED = "This deposit is closed."
PRODUCT_MISMATCH = "The institution does not offer this product type."
DEAL_ID_UNIQUE = v.UNIQUE.format(label="Deal ID")
DEAL_STATUS_CHANGE = "The deal status can't change from '{old}' to '{new}'."
RATE_NEEDED = "Please, enter rate. "
NOTHING_TO_REPROCESS = "There is no transaction in error or pending to reprocess."
NOT_EDITABLE = "This transaction can't be changed while it is {status}."
PRODUCT_TYPE_FIXED = "The product type of a deposit can't be changed."

# ---- limits --------------------------------------------------------------------------------------
IDENTITY_MAX = 40
PROVIDER_NAME_MAX = 200
DESCRIPTION_MAX = 500
MAX_TERM_MONTHS = 120
MAX_RATE = Decimal(100)
MAX_AMOUNT = MONEY_LIMIT
RATE_PLACES = Decimal("0.0001")
_IDENTITY = re.compile(r"^[A-Za-z0-9._/-]+$")
_TIME = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])$")


# ---- the forms -------------------------------------------------------------------------------------
class Form(TitledEnum):
    BUY = "buy", "Buy"
    SELL = "sell", "Sell"
    INTEREST_ACCRUAL = "interest_accrual", "Interest Accrual"
    DEPOSIT = "deposit", "Deposit"
    INCOME = "income", "Interest Payment"


FORM_LABELS: dict[Form, str] = Form.titles()
# The four forms the type select toggles between (spec s2/s4), in order.
TYPE_FORMS = (Form.BUY, Form.SELL, Form.INTEREST_ACCRUAL, Form.DEPOSIT)

# Field keys of the forms (the spec's names; `amount` and `description` are ours).
IDENTITY_KEYS = ("institution_id", "ProviderName", "ProviderType", "ProviderID", "FacilityID", "AccountNumber", "DealID")
BUY_KEYS = ("ProviderProductType", *IDENTITY_KEYS, "StartDate", "MaturityDate", "MaturityTerm", "Rate",
            "AutoMatured", "CutOffTime", "amount", "description")
MOVE_KEYS = ("deposit_id", "StartDate", "amount", "description")


def as_form(value: Any) -> Form | None:
    try:
        return Form(str(value))
    except ValueError:
        return None


def is_term(product_type: str | None) -> bool:
    return product_type == TERM_DEPOSITS


def is_at_call(product_type: str | None) -> bool:
    return product_type == AT_CALL_ACCOUNT


def buy_kind(product_type: str) -> Kind:
    return Kind.TD_BUY if is_term(product_type) else Kind.ACA_BUY


def sell_kind(product_type: str) -> Kind:
    return Kind.TD_SELL if is_term(product_type) else Kind.ACA_SELL


def form_kind(form: Form, product_type: str) -> Kind:
    """The asset transaction type a form writes (spec s4)."""
    if form is Form.BUY:
        return buy_kind(product_type)
    if form is Form.SELL:
        return sell_kind(product_type)
    if form is Form.INTEREST_ACCRUAL:
        return Kind.ACA_INCOME
    if form is Form.DEPOSIT:
        return Kind.ACA_DEPOSIT
    return Kind.TD_INCOME


KIND_FORM: dict[Kind, Form] = {
    Kind.TD_BUY: Form.BUY, Kind.ACA_BUY: Form.BUY, Kind.TD_SELL: Form.SELL, Kind.ACA_SELL: Form.SELL,
    Kind.ACA_INCOME: Form.INTEREST_ACCRUAL, Kind.ACA_DEPOSIT: Form.DEPOSIT, Kind.TD_INCOME: Form.INCOME,
}
SELL_KINDS = frozenset({Kind.TD_SELL, Kind.ACA_SELL})
BUY_KINDS = frozenset({Kind.TD_BUY, Kind.ACA_BUY})


def transaction_type(kind: Kind | str) -> str:
    """TransactionType: Credit for money out of a deposit or paid as interest, Debit for money placed."""
    k = Kind(kind)
    return CREDIT if k in (Kind.TD_SELL, Kind.ACA_SELL, Kind.TD_INCOME, Kind.ACA_INCOME) else DEBIT


AMM_TYPE_OF: dict[Kind, str] = {
    Kind.TD_BUY: PLACEMENT,
    Kind.ACA_BUY: PLACEMENT,
    Kind.ACA_DEPOSIT: PLACEMENT,
    Kind.TD_SELL: REDEMPTION,
    Kind.ACA_SELL: WITHDRAWAL,
    Kind.ACA_INCOME: INTEREST_ACCRUAL,
    Kind.TD_INCOME: INTEREST_ACCRUAL,
}


def amm_type(kind: Kind | str) -> str:
    """The AMM transaction type of a deposit transaction. (Rate Change is the AMM's own event: a
    rate confirmed or changed updates the deposit's rate; it records no transaction here.)"""
    return AMM_TYPE_OF[Kind(kind)]


@dataclass(frozen=True)
class Enabled:
    """Which forms are offered for a portfolio (spec s4)."""

    buy: bool
    sell: bool
    interest_accrual: bool
    deposit: bool
    income: bool

    def allows(self, form: Form) -> bool:
        return {Form.BUY: self.buy, Form.SELL: self.sell, Form.INTEREST_ACCRUAL: self.interest_accrual,
                Form.DEPOSIT: self.deposit, Form.INCOME: self.income}[form]


def enabled_forms(deposits: Iterable[tuple[str, bool]]) -> Enabled:
    """From the portfolio's deposits as (product type, open): Sell when it has an open deposit,
    Interest Accrual and Deposit when it has an open at-call account, Interest Payment when it has
    an open term deposit; Buy always."""
    open_types = {product for product, is_open in deposits if is_open}
    has_aca = AT_CALL_ACCOUNT in open_types
    return Enabled(buy=True, sell=bool(open_types), interest_accrual=has_aca, deposit=has_aca,
                   income=TERM_DEPOSITS in open_types)


def form_fits(form: Form, product_type: str) -> str | None:
    """None when a form may be used on a deposit of this product type, else the text."""
    if form in (Form.INTEREST_ACCRUAL, Form.DEPOSIT) and not is_at_call(product_type):
        return AT_CALL_ONLY
    if form is Form.INCOME and not is_term(product_type):
        return TERM_ONLY
    return None


# ---- names and codes ----------------------------------------------------------------------------
def product_code(product_type: str) -> str:
    return "TD" if is_term(product_type) else "ACA"


def asset_code(product_type: str, deal_id: str | None) -> str:
    """TD or ACA followed by the DealID (spec s3)."""
    return f"{product_code(product_type)}{(deal_id or '').strip()}"


def rate_text(rate: Decimal | str | None) -> str:
    """'4.50%' (two decimals, up to four when the rate has them); '' when there is no rate."""
    if rate in (None, ""):
        return ""
    number = Decimal(str(rate))
    exponent = number.normalize().as_tuple().exponent
    places = min(max(2, -exponent if isinstance(exponent, int) else 2), 4)
    return f"{number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)}%"


def term_text(months: int | None) -> str:
    if not months:
        return ""
    return "1 month" if months == 1 else f"{months} months"


def deposit_name(provider_name: str, product_type: str, maturity_term: int | None, maturity_date: dt.date | None,
                 rate: Decimal | str | None) -> str:
    """provider name + TD/ACA + term + maturity date + rate, leaving out the parts it lacks."""
    parts = [(provider_name or "").strip(), product_code(product_type), term_text(maturity_term),
             day_text(maturity_date), rate_text(rate)]
    return " ".join(p for p in parts if p)


def short_name(provider_name: str, product_type: str, rate: Decimal | str | None) -> str:
    """provider + TD/ACA + rate: the at-call account's short name."""
    parts = [(provider_name or "").strip(), product_code(product_type), rate_text(rate)]
    return " ".join(p for p in parts if p)


# ---- dates -------------------------------------------------------------------------------------------
def add_months(day: dt.date, months: int) -> dt.date:
    """The same day `months` later, clamped to the end of a shorter month."""
    return months_before(day, -months)


def whole_months(start: dt.date, end: dt.date) -> int:
    """Whole months from start to end (0 when less than one)."""
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if months > 0 and add_months(start, months) > end:
        months -= 1
    return max(months, 0)


def trade_instant(day: dt.date) -> dt.datetime:
    """The stored instant of a transaction entered for a calendar day."""
    return close_instant(day)


def trade_day(instant: dt.datetime | None) -> dt.date | None:
    """The calendar day of a stored instant (read in Sydney)."""
    if instant is None:
        return None
    from zoneinfo import ZoneInfo

    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=dt.timezone.utc)
    return instant.astimezone(ZoneInfo(SYDNEY)).date()


def before_start(day: dt.date, start: dt.date) -> str | None:
    """The spec s5 rule: a deposit's transaction is never dated before the deposit starts."""
    return BEFORE_START.format(start=day_text(start)) if day < start else None


# ---- deal statuses ---------------------------------------------------------------------------------
DEAL_TRANSITIONS: dict[str, frozenset[str]] = {
    RATE_TO_CONFIRM: frozenset({AMM_TO_PROCESS, BANK_TO_PROCESS, LIVE}),
    AMM_TO_PROCESS: frozenset({BANK_TO_PROCESS, LIVE}),
    BANK_TO_PROCESS: frozenset({AMM_TO_PROCESS, LIVE}),
    LIVE: frozenset(),
}
NEEDS_RATE = frozenset({BANK_TO_PROCESS, LIVE})


def deal_moves(current: str) -> list[str]:
    """The deal statuses staff may move a deal in `current` to, in DEAL_STATUSES's order (none from a
    status that is not one)."""
    return sorted(DEAL_TRANSITIONS.get(current, frozenset()), key=DEAL_STATUSES.index)


def initial_deal_status(rate: Decimal | None) -> str:
    """A new buy: 'Pending – Rate to Confirm' without a rate, else 'Pending – Bank to Process'."""
    return RATE_TO_CONFIRM if rate is None else BANK_TO_PROCESS


def deal_status_change(current: str, new: str | None, rate: Decimal | None) -> tuple[str, str | None]:
    """(the deal status after an edit, error text or None). Without an explicit new status, giving
    the rate to a 'Rate to Confirm' deal moves it on to 'Bank to Process'."""
    if new in (None, "", current):
        if current == RATE_TO_CONFIRM and rate is not None:
            return BANK_TO_PROCESS, None
        if current in NEEDS_RATE and rate is None:
            return current, RATE_NEEDED
        return current, None
    if new not in DEAL_STATUSES or new not in deal_moves(current):
        return current, DEAL_STATUS_CHANGE.format(old=current, new=new)
    if new in NEEDS_RATE and rate is None:
        return current, RATE_NEEDED
    return new, None


def deal_status_after_reprocess(current: str) -> str:
    return current if current == LIVE else AMM_TO_PROCESS


REPROCESSABLE = frozenset({Status.PROCESSING_ERROR.value, Status.PENDING.value})


def can_reprocess(status: str) -> bool:
    """An AMM transaction in error, or still pending, may be sent again."""
    return status in REPROCESSABLE


# Statuses in which a deposit transaction may be edited: not while the AMM has it, not while it
# waits for approval.
EDITABLE_STATUSES = frozenset({Status.EXECUTED.value, Status.PENDING.value, Status.PROCESSING_ERROR.value})


def closes(product_type: str, balance_after: Decimal, redeemed: bool) -> bool:
    """A term deposit redeemed down to a zero balance is closed; an at-call account stays open."""
    return is_term(product_type) and redeemed and balance_after <= 0


# ---- form validation --------------------------------------------------------------------------------
def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _amount(errors: v.FieldErrors, raw: Any, key: str = "amount") -> Decimal | None:
    text = _text(raw)
    errors.check(key, v.required(text, key), v.float_(text), v.greater_than(text, 0), v.two_decimals(text),
                 v.less_than(text, MAX_AMOUNT))
    parsed = None if key in errors else v.parse_decimal(text)
    return None if parsed is None else to_cents(parsed)


def _day(errors: v.FieldErrors, raw: Any, key: str, label: str, required: bool) -> dt.date | None:
    text = raw.isoformat() if isinstance(raw, dt.date) else _text(raw)
    if required:
        errors.check(key, v.required(text, label))
    errors.check(key, v.date(text))
    return None if key in errors or not text else v.parse_date(text)


def _identity(errors: v.FieldErrors, data: Mapping[str, Any], key: str) -> str | None:
    text = _text(data.get(key))
    errors.check(key, v.max_length(text, IDENTITY_MAX), None if not text or _IDENTITY.match(text) else v.DEFAULT)
    return text or None


@dataclass(frozen=True)
class BuyForm:
    product_type: str
    institution_id: int | None
    provider_name: str
    provider_type: str | None
    provider_id: str | None
    facility_id: str | None
    account_number: str | None
    deal_id: str | None
    start_date: dt.date
    maturity_date: dt.date | None
    maturity_term: int | None
    rate: Decimal | None
    auto_matured: bool
    cut_off_time: str | None
    amount: Decimal
    description: str | None


def clean_buy(data: Mapping[str, Any], *, institution: tuple[str, str, Iterable[str]] | None = None,
              edit_product_type: str | None = None) -> tuple[BuyForm | None, v.FieldErrors]:
    """The buy form (and, with edit_product_type, the same form editing a deposit). `institution`
    is the chosen institution's (title, provider type, product types) when one was found; its title
    and provider type are the defaults of ProviderName and ProviderType."""
    errors = v.FieldErrors()
    product = _text(data.get("ProviderProductType")) or (edit_product_type or "")
    if edit_product_type is not None and product != edit_product_type:
        errors.check("ProviderProductType", PRODUCT_TYPE_FIXED)
    errors.check("ProviderProductType", v.required_select(product, "product type"),
                 None if product in PRODUCT_TYPES else v.DEFAULT)

    institution_raw = data.get("institution_id")
    institution_id = as_id(institution_raw)
    if not v.is_empty(institution_raw) and institution_id is None:
        errors.check("institution_id", v.DEFAULT)
    provider_name = _text(data.get("ProviderName"))
    provider_type = _text(data.get("ProviderType"))
    if institution is not None:
        title, kind, offered = institution
        provider_name = provider_name or title
        provider_type = provider_type or kind
        if product in PRODUCT_TYPES and product not in set(offered):
            errors.check("institution_id", PRODUCT_MISMATCH)
    elif institution_id is not None:
        errors.check("institution_id", v.DEFAULT)  # the service found no such institution
    if not provider_name:
        errors.check("institution_id", v.required_select(None, "provider"))
    errors.check("ProviderName", v.max_length(provider_name, PROVIDER_NAME_MAX))
    errors.check("ProviderType", v.required_select(provider_type, "provider type") if provider_name else None,
                 None if not provider_type or provider_type in PROVIDER_TYPES else v.DEFAULT)
    identity = {key: _identity(errors, data, key) for key in ("ProviderID", "FacilityID", "AccountNumber", "DealID")}

    start = _day(errors, data.get("StartDate"), "StartDate", "start date", required=True)
    maturity = term = None
    if is_term(product):
        term_raw = _text(data.get("MaturityTerm"))
        errors.check("MaturityTerm", v.number(term_raw), v.greater_than(term_raw, 0),
                     v.less_than(term_raw, MAX_TERM_MONTHS + 1))
        term = int(term_raw) if term_raw and "MaturityTerm" not in errors else None
        maturity = _day(errors, data.get("MaturityDate"), "MaturityDate", "maturity date", required=False)
        if maturity is None and "MaturityDate" not in errors:
            if term is not None and start is not None:
                maturity = add_months(start, term)
            elif term is None:
                errors.check("MaturityDate", v.required(None, "maturity date"))
        if maturity is not None and start is not None:
            if maturity <= start:
                errors.check("MaturityDate", MATURITY_BEFORE_START)
            elif term is None:
                term = whole_months(start, maturity) or None

    rate_raw = _text(data.get("Rate"))
    errors.check("Rate", v.float_(rate_raw), v.positive(rate_raw), v.less_than(rate_raw, MAX_RATE))
    rate = None
    parsed_rate = v.parse_decimal(rate_raw) if rate_raw and "Rate" not in errors else None
    if parsed_rate is not None:
        rate = parsed_rate.quantize(RATE_PLACES, rounding=ROUND_HALF_UP)

    cut_off = _text(data.get("CutOffTime"))
    errors.check("CutOffTime", None if not cut_off or _TIME.match(cut_off) else v.DEFAULT)
    if cut_off and "CutOffTime" not in errors:
        hours, minutes = cut_off.split(":")
        cut_off = f"{int(hours):02d}:{minutes}"
    amount = _amount(errors, data.get("amount"))
    description = _text(data.get("description"))
    errors.check("description", v.max_length(description, DESCRIPTION_MAX))
    if not errors.ok or start is None or amount is None:  # (both are set whenever no error was found)
        return None, errors
    return BuyForm(
        product_type=product, institution_id=institution_id, provider_name=provider_name,
        provider_type=provider_type or None, provider_id=identity["ProviderID"], facility_id=identity["FacilityID"],
        account_number=identity["AccountNumber"], deal_id=identity["DealID"], start_date=start,
        maturity_date=maturity, maturity_term=term, rate=rate,
        auto_matured=as_bool(data.get("AutoMatured"), default=DEFAULT_AUTO_MATURED),
        cut_off_time=cut_off or None, amount=amount, description=description or None,
    ), errors


@dataclass(frozen=True)
class DepositFacts:
    """What a movement's checks need to know of its deposit."""

    product_type: str
    start_date: dt.date
    closed: bool
    balance: Decimal  # executed balance, without the transaction being edited


@dataclass(frozen=True)
class MoveForm:
    kind: Kind
    day: dt.date
    amount: Decimal
    description: str | None


def clean_move(form: Form, data: Mapping[str, Any], deposit: DepositFacts | None) -> tuple[MoveForm | None, v.FieldErrors]:
    """A sell, interest accrual, at-call deposit or interest payment on an existing deposit
    (`deposit` None: none was chosen or found). Dates not before the deposit's start; a sell not
    more than the balance."""
    errors = v.FieldErrors()
    if deposit is None:
        errors.check("deposit_id", v.required_select(None, "deposit"))
    else:
        errors.check("deposit_id", form_fits(form, deposit.product_type), DEPOSIT_CLOSED if deposit.closed else None)
    day = _day(errors, data.get("StartDate"), "StartDate", "date", required=True)
    if day is not None and deposit is not None:
        errors.check("StartDate", before_start(day, deposit.start_date))
    amount = _amount(errors, data.get("amount"))
    if amount is not None and deposit is not None and form is Form.SELL and amount > deposit.balance:
        errors.check("amount", OVER_BALANCE.format(balance=format_aud(max(deposit.balance, Decimal(0)))))
    description = _text(data.get("description"))
    errors.check("description", v.max_length(description, DESCRIPTION_MAX))
    if not errors.ok or deposit is None or day is None or amount is None:  # (set whenever no error was found)
        return None, errors
    return MoveForm(kind=form_kind(form, deposit.product_type), day=day, amount=amount,
                    description=description or None), errors


def failure_message(errors: Mapping[str, str]) -> str:
    """The message of a refused form: the one error's own text, or the general text for several."""
    texts = list(errors.values())
    return texts[0] if len(texts) == 1 else INVALID_FORM


# ---- the forms and the list filter as read at the edge (the API's bodies, the screen's handler) -------
@dataclass(frozen=True)
class DepositForm:
    """A deposit form as sent: the buy form (also editing a deposit), a movement's form (sell,
    interest accrual, at-call deposit, interest payment, also in edit mode) or a reprocess request.
    Each field is the text that was sent (a number as its text), None when left out; the rules
    above (clean_buy, clean_move) check it with the specification's texts. Ids naming another
    record than the path's: None when not sent, 0 when sent but naming nothing."""
    investment_id: int | None = None
    deposit_id: int | None = None
    id: int | None = None  # reprocess: the deposit's own id, when the body carries it
    transaction_id: int | None = None  # reprocess: the one transaction to reprocess
    product_type: str | None = None
    institution_id: str | None = None
    provider_name: str | None = None
    provider_type: str | None = None
    provider_id: str | None = None
    facility_id: str | None = None
    account_number: str | None = None
    deal_id: str | None = None
    start_date: str | None = None
    maturity_date: str | None = None
    maturity_term: str | None = None
    rate: str | None = None
    auto_matured: bool | None = None
    cut_off_time: str | None = None
    amount: str | None = None
    description: str | None = None
    deal_status: str | None = None

    def fields(self) -> dict[str, object]:
        """The form by the specification's field names, as clean_buy and clean_move read it."""
        return {
            "investment_id": self.investment_id, "deposit_id": self.deposit_id,
            "ProviderProductType": self.product_type, "institution_id": self.institution_id,
            "ProviderName": self.provider_name, "ProviderType": self.provider_type, "ProviderID": self.provider_id,
            "FacilityID": self.facility_id, "AccountNumber": self.account_number, "DealID": self.deal_id,
            "StartDate": self.start_date, "MaturityDate": self.maturity_date, "MaturityTerm": self.maturity_term,
            "Rate": self.rate, "AutoMatured": self.auto_matured, "CutOffTime": self.cut_off_time,
            "amount": self.amount, "description": self.description, "DealStatus": self.deal_status,
        }


def _sent_text(value: object) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, dt.date) else str(value)


def _sent_id(value: object) -> int | None:
    """None when not sent (or empty); 0 when sent but naming no record."""
    return None if v.is_empty(value) else (as_id(value) or 0)


def read_form(data: Mapping[str, object]) -> DepositForm:
    """The form from the keys sent, by the specification's names (as the REST bodies carry them)."""
    def text(key: str) -> str | None:
        return _sent_text(data.get(key))

    flag = data.get("AutoMatured")
    return DepositForm(
        investment_id=_sent_id(data.get("investment_id")), deposit_id=_sent_id(data.get("deposit_id")),
        id=_sent_id(data.get("id")), transaction_id=_sent_id(data.get("transaction_id")),
        product_type=text("ProviderProductType"), institution_id=text("institution_id"),
        provider_name=text("ProviderName"), provider_type=text("ProviderType"), provider_id=text("ProviderID"),
        facility_id=text("FacilityID"), account_number=text("AccountNumber"), deal_id=text("DealID"),
        start_date=text("StartDate"), maturity_date=text("MaturityDate"), maturity_term=text("MaturityTerm"),
        rate=text("Rate"), auto_matured=None if flag is None else as_bool(flag, default=DEFAULT_AUTO_MATURED),
        cut_off_time=text("CutOffTime"), amount=text("amount"), description=text("description"),
        deal_status=text("DealStatus"),
    )


@dataclass(frozen=True)
class DepositFilter:
    """getDeposits' `where`: the portfolio (0: named but naming none), the product types and
    whether closed; None for a filter not asked."""
    investment_id: int | None = None
    product_types: tuple[str, ...] | None = None
    closed: bool | None = None


def read_filter(where: object) -> DepositFilter:
    """The `where` of getDeposits: a JSON object (as text) or a mapping; anything else is refused
    with the general text."""
    if where is None or where == "":
        return DepositFilter()
    if isinstance(where, str):
        try:
            where = json.loads(where)
        except ValueError:
            raise ValidationError(v.DEFAULT, {"where": v.DEFAULT}) from None
    if not isinstance(where, Mapping):
        raise ValidationError(v.DEFAULT, {"where": v.DEFAULT})
    product = where.get("ProviderProductType")
    products = None if v.is_empty(product) else tuple(str(p) for p in (product if isinstance(product, list) else [product]))
    closed = where.get("closed")
    return DepositFilter(investment_id=_sent_id(where.get("investment_id")), product_types=products,
                         closed=None if closed is None or closed == "" else as_bool(closed))
