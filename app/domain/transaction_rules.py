"""The rules of a portfolio's cash and asset transactions (spec 002 s3-s9): the texts, the
validation of every add/edit form, the delete and edit rules, the asset panel's filters, the
units check that stops a sell beyond the units held, and the transaction upload file.

Pure: no database. The services (app.services.transactions, app.services.transaction_upload)
resolve assets, lock the portfolio and write; the screens validate as the user types with the same
functions. The vocabulary (kinds, statuses, labels, cash classes, EFFECTS) is
app.domain.transactions; cost bases and gains are app.domain.ledger.

Forms and their fields (names as the REST payloads carry them; `date` and `settlement_date` are
accepted for trade_at and settlement_at):
- purchase / sell: asset (asset_id or code), trade_at, quantity > 0, price > 0, fee >= 0, gst >= 0,
  settlement_at (not before trade_at), contract_note, order_id, limit_price > 0, status;
- dividend: asset, trade_at, amount > 0, franking_credits >= 0 (at most 30/70 of the amount, the
  most a fully franked dividend carries), ex_date;
- interest: asset, trade_at, amount > 0;
- capital return: asset, trade_at, amount > 0 or a price per unit > 0 (the service multiplies
  it by the units held on the date);
- reconstruction: asset, trade_at, ratio 'a:b' (validators.ratio and its text);
- withdrawal / credit / income (cash): price (the amount) > 0, trade_at, settlement_at, status,
  description;
- opening balance: price >= 0, trade_at.
Dividends, interest, capital returns and reconstructions have no status of their own: they are
always recorded as executed (spec 002 s4 "show no status").
Money has at most 2 decimals; quantities and prices keep 6. Dates are calendar days stored at
00:00 UTC (a datetime with an offset is converted to UTC)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from decimal import Decimal, localcontext
from typing import Any, Iterable, Mapping, Sequence

from app.domain import ledger
from app.domain import validators as v
from app.domain.money import MONEY_LIMIT, to_cents
from app.domain.errors import INVALID_FORM, ValidationError, not_found
from app.domain.parsing import as_id
from app.domain.ledger import NOT_ENOUGH_ASSETS  # noqa: F401  (the transaction screens' text too)
from app.domain.uploads import (
    FileProblem, LineError, header_positions, named_lines, read_rows, reasons_by_line,
)
from app.domain.transactions import (
    ASSET_PANEL_LABELS, EFFECTS, STATUSLESS_KINDS, Cash, CashType, Kind, Status,
)

# ---- texts: the specification's (verbatim) ------------------------------------------------------
TRANSACTION_ADDED = "Transaction added"
TRANSACTION_UPDATED = "Transaction updated"
TRANSACTION_CREATED = "Transaction created"
TRANSACTION_REMOVED = "Transaction has been removed"
OPENING_BALANCE_CHANGED = "Opening balance has been changed"
FILE_UPLOADED = "File uploaded"
NOT_UPLOADED = "Transactions are not uploaded due to line(s): {lines}"
INVALID_FILE_TYPE = "Invalid file type!"
DELETE_QUESTION = "Are you sure you want to delete this transaction?"
DELETE_FAILED = "Opps, something went wrong"
INVALID = INVALID_FORM  # 'Please, fill all required fields with valid data'

# ---- texts: ours (the specification describes these without quoting them) -------------------------
PENDING_EXISTS = ("A pending transaction exists for this asset. "
                  "We recommend recalculating the trade recommendations.")
ERROR_QUESTION = ("This transaction failed in order management. "
                  "Do you want to create a new transaction with the updated data?")
CANCELLED_QUESTION = ("This transaction was cancelled in order management. "
                      "Do you want to create a new transaction with the updated data?")
TRANSACTION_NOT_FOUND = not_found("Transaction")
NO_DELETE_OPENING_BALANCE = "An opening balance cannot be deleted"
NO_DELETE_PENDING_APPROVAL = "A transaction pending approval cannot be deleted"
NO_DELETE_OM_SUCCESS = "A transaction executed in order management cannot be deleted"
NO_EDIT_PENDING = "A pending transaction cannot be changed"
NO_EDIT_PENDING_APPROVAL = "A transaction pending approval cannot be changed"
NO_EDIT_OM_SUCCESS = "A transaction executed in order management cannot be changed"
EDIT_IN_ASSET_TRANSACTIONS = "This cash transaction belongs to an asset transaction: change it in the asset transactions"
EDIT_IN_OPENING_BALANCE = "Change the opening balance in the opening balance form"
DEPOSIT_FORMS_ONLY = "Term deposit and at-call account transactions are changed in the term deposit forms"
NOT_AN_ASSET_TRANSACTION = "This transaction is not an asset transaction"
TYPE_FIXED = "The type of a transaction cannot be changed"
ASSET_FIXED = "The asset of a transaction cannot be changed"
SETTLEMENT_BEFORE_TRADE = "The settlement date cannot be before the trade date"
FRANKING_TOO_HIGH = "Franking credits cannot be more than 30/70 of the dividend"
UNKNOWN_ASSET = "unknown asset code {code}"
FILE_NO_TRANSACTIONS = "The file has no transactions"
TOO_MANY_LINES = "The file has more than {n} lines"
MISSING_COLUMNS = "The header row must name the columns {columns} (missing: {missing})"

# ---- constants -----------------------------------------------------------------------------------
PAGE_SIZES = (12, 24, 32)          # transactions lists and holdings modals (spec 002 s9)
DEFAULT_PAGE_SIZE = 12
QUANTITY_LIMIT = Decimal(10) ** 12  # NUMERIC(18, 6)
TEXT_MAX = 80                       # contract note, order id
DESCRIPTION_MAX = 500
MAX_UPLOAD_LINES = 10_000
MAX_NAMED_LINES = 50
FRANKING_SHARE = Decimal(30) / Decimal(70)

# The add-transaction forms and their kinds (the REST `type` may be the form name or the kind).
FORM_KINDS: dict[str, Kind] = {
    "purchase": Kind.ASSET_BUY, "buy": Kind.ASSET_BUY, "asset_buy": Kind.ASSET_BUY,
    "sell": Kind.PARCEL, "parcel": Kind.PARCEL,
    "dividend": Kind.DIVIDEND,
    "interest": Kind.INTEREST,
    "capital_return": Kind.CAPITAL_RETURN,
    "reconstruction": Kind.RECONSTRUCTION,
}
FORM_NAMES: dict[Kind, str] = {Kind.ASSET_BUY: "purchase", Kind.PARCEL: "sell", Kind.DIVIDEND: "dividend",
                               Kind.INTEREST: "interest", Kind.CAPITAL_RETURN: "capital_return",
                               Kind.RECONSTRUCTION: "reconstruction"}
# The cash forms: (cash type, direction).
CASH_FORMS: dict[str, tuple[CashType, Cash]] = {
    "withdrawal": (CashType.CASH, Cash.OUT),
    "credit": (CashType.CASH, Cash.IN),
    "income": (CashType.INCOME, Cash.IN),
}
TRADE_KINDS = frozenset({Kind.ASSET_BUY, Kind.PARCEL})
SELL_KINDS = frozenset({Kind.PARCEL, Kind.TD_SELL, Kind.ACA_SELL})

# The asset panel's filters (spec 002 s2): status filters, and 'dividend' for the rows without a
# status (dividends, interest, capital returns, reconstructions).
PANEL_FILTER_STATUSES: dict[str, Status] = {
    "pending": Status.PENDING_APPROVAL,
    "draft": Status.PENDING,
    "executed": Status.EXECUTED,
    "placed": Status.PROCESSING,
    "error": Status.PROCESSING_ERROR,
}
STATUSLESS_FILTER = "dividend"

# Order management outcomes (AssetTransaction.om_status).
OM_SUCCESS = "success"
OM_ERROR = "error"
OM_CANCELLED = "cancelled"


# ---- small parsers -------------------------------------------------------------------------------
def form_key(value: Any) -> str:
    """'Capital Return', 'capital-return' and 'capital_return' all name one form."""
    return re.sub(r"[\s\-]+", "_", str(value or "").strip().lower())


def asset_kind(value: Any) -> Kind | None:
    """The asset transaction kind a form name or kind value names (None: not an asset form)."""
    return FORM_KINDS.get(form_key(value))


def cash_form(value: Any, action: Any = None) -> tuple[CashType, Cash] | None:
    """The (cash type, direction) of a cash form name: withdrawal, credit or income; also the
    stored spelling, type 'cash' with action increase/decrease."""
    key = form_key(value)
    if key in CASH_FORMS:
        return CASH_FORMS[key]
    if key == CashType.CASH.value and str(action or "") in (Cash.IN.value, Cash.OUT.value):
        return CashType.CASH, Cash(str(action))
    return None


def cash_form_name(cash_type: str, action: str) -> str | None:
    """withdrawal, credit or income for a stored cash transaction (None for the others)."""
    for name, (ctype, direction) in CASH_FORMS.items():
        if ctype.value == cash_type and direction.value == action:
            return name
    return None


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def parse_amount(value: Any, *, label: str, required: bool = False, places: int = 2, allow_zero: bool = False,
                 limit: Decimal = MONEY_LIMIT) -> tuple[Decimal | None, str | None]:
    """A non-negative number (money: 2 decimals; quantities and prices: 6); (value, error text)."""
    if v.is_empty(value):
        return None, (v.REQUIRED.format(label=label) if required else None)
    if isinstance(value, str):
        value = value.strip()
    number, error = v.given_number(value)
    if error or number is None:
        return None, error
    if number < 0:
        return None, v.POSITIVE
    if number == 0 and not allow_zero:
        return None, v.GREATER_THAN.format(n=0)
    if places == 2 and v.two_decimals(number):
        return None, v.DECIMALS
    if number >= limit:
        return None, v.LESS_THAN.format(n=f"{limit:f}")
    return (to_cents(number) if places == 2 else number), None


def parse_moment(value: Any) -> datetime | None:
    """A day or a moment as an aware UTC datetime: a date (or 'DD/MM/YYYY', 'YYYY-MM-DD') is that
    day at 00:00 UTC; a datetime (or ISO text) is converted to UTC, naive ones taken as UTC.
    None when empty; ValueError when not a date."""
    if v.is_empty(value):
        return None
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        moment = moment.astimezone(timezone.utc)
    elif isinstance(value, date):
        moment = datetime(value.year, value.month, value.day, tzinfo=timezone.utc)
    elif isinstance(value, str):
        text = value.strip()
        day = v.parse_date(text)
        if day is not None:
            moment = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
        else:
            try:
                parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                raise ValueError(f"not a date: {value!r}") from None
            return parse_moment(parsed)
    else:
        raise ValueError(f"not a date: {value!r}")
    if not 1900 <= moment.year <= 2999:
        raise ValueError(f"not a date: {value!r}")
    return moment


def _moment(data: Mapping[str, Any], keys: tuple[str, ...], errors: v.FieldErrors, field_name: str, *,
            label: str, required: bool = False) -> datetime | None:
    raw = next((data[k] for k in keys if k in data and not v.is_empty(data[k])), None)
    if raw is None:
        if required:
            errors.check(field_name, v.REQUIRED.format(label=label))
        return None
    try:
        return parse_moment(raw)
    except ValueError:
        errors.check(field_name, v.DATE)
        return None


def _first(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in data and not v.is_empty(data[key]):
            return data[key]
    return None


def _description(data: Mapping[str, Any], errors: v.FieldErrors) -> str | None:
    raw = _first(data, "description", "comment")
    payload = data.get("payload")
    if raw is None and isinstance(payload, Mapping):
        raw = _first(payload, "description", "comment")
    text = _text(raw) or None
    errors.check("description", v.max_length(text, DESCRIPTION_MAX))
    return text


def clean_status(value: Any, kind: Kind | None = None, default: Status = Status.EXECUTED) -> tuple[str, str | None]:
    """A status value ('pending approval' and 'Pending approval' spell pending_approval); kinds
    without a status are always executed."""
    if kind is not None and kind in STATUSLESS_KINDS:
        return Status.EXECUTED.value, None
    if v.is_empty(value):
        return default.value, None
    key = form_key(value)
    try:
        return Status(key).value, None
    except ValueError:
        return default.value, v.DEFAULT


# ---- the forms ---------------------------------------------------------------------------------
def clean_asset_form(kind: Kind | str, data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """The values of one add/edit asset transaction form and the per-field error texts.

    Values: kind, asset_id, code (uppercased), trade_at, settlement_at, ex_date, status,
    quantity, price, fee, gst, amount, franking_credits, ratio, contract_note, order_id,
    limit_price, description (None where the form has no such field or it is empty)."""
    kind = Kind(kind)
    errors = v.FieldErrors()
    values: dict[str, Any] = {"kind": kind}
    values["asset_id"] = as_id(data.get("asset_id"))
    values["code"] = _text(data.get("code")).upper() or None
    if values["asset_id"] is None and values["code"] is None:
        errors.check("asset_id", v.REQUIRED_SELECT.format(label="asset"))
    values["trade_at"] = _moment(data, ("trade_at", "date"), errors, "trade_at", label="date", required=True)
    values["settlement_at"] = _moment(data, ("settlement_at", "settlement_date"), errors, "settlement_at",
                                      label="settlement date")
    if values["trade_at"] and values["settlement_at"] and values["settlement_at"] < values["trade_at"]:
        errors.check("settlement_at", SETTLEMENT_BEFORE_TRADE)
    values["status"], error = clean_status(data.get("status"), kind)
    errors.check("status", error)
    for key in ("quantity", "price", "fee", "gst", "amount", "franking_credits", "ratio", "ex_date",
                "contract_note", "order_id", "limit_price"):
        values[key] = None

    def amount_of(key: str, label: str, **kw: Any) -> Decimal | None:
        number, error = parse_amount(data.get(key), label=label, **kw)
        errors.check(key, error)
        return number

    if kind in TRADE_KINDS:
        values["quantity"] = amount_of("quantity", "quantity", required=True, places=6, limit=QUANTITY_LIMIT)
        values["price"] = amount_of("price", "price", required=True, places=6, limit=QUANTITY_LIMIT)
        values["fee"] = amount_of("fee", "fee", allow_zero=True)
        values["gst"] = amount_of("gst", "gst", allow_zero=True)
        values["limit_price"] = amount_of("limit_price", "limit price", places=6, limit=QUANTITY_LIMIT)
        for key in ("contract_note", "order_id"):
            values[key] = _text(data.get(key)) or None
            errors.check(key, v.max_length(values[key], TEXT_MAX))
    elif kind in (Kind.DIVIDEND, Kind.INTEREST):
        values["amount"] = amount_of("amount", "amount", required=True)
        if kind is Kind.DIVIDEND:
            values["franking_credits"] = amount_of("franking_credits", "franking credits", allow_zero=True)
            if values["amount"] is not None and values["franking_credits"] is not None:
                with localcontext() as ctx:
                    ctx.prec = 40
                    most = to_cents(values["amount"] * FRANKING_SHARE)
                if values["franking_credits"] > most:
                    errors.check("franking_credits", FRANKING_TOO_HIGH)
            values["ex_date"] = _moment(data, ("ex_date",), errors, "ex_date", label="ex date")
    elif kind is Kind.CAPITAL_RETURN:
        values["amount"] = amount_of("amount", "amount")
        values["price"] = amount_of("price", "price", places=6, limit=QUANTITY_LIMIT)
        if values["amount"] is None and values["price"] is None and "amount" not in errors and "price" not in errors:
            errors.check("amount", v.REQUIRED.format(label="amount"))
    elif kind is Kind.RECONSTRUCTION:
        ratio = _text(data.get("ratio"))
        errors.check("ratio", v.required(ratio, "ratio"), v.ratio(ratio))
        values["ratio"] = ratio or None
    else:  # deposits and the rest have their own forms
        errors.check("type", v.DEFAULT)
    values["description"] = _description(data, errors)
    return values, errors


def clean_cash_form(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """A withdrawal, credit or income: values cash_type, action, price, trade_at, settlement_at,
    status, description; and the per-field error texts."""
    errors = v.FieldErrors()
    form = cash_form(data.get("type"), data.get("action"))
    if form is None:
        errors.check("type", v.REQUIRED_SELECT.format(label="type"))
    values: dict[str, Any] = {"cash_type": form[0] if form else None, "action": form[1] if form else None}
    values["price"], error = parse_amount(_first(data, "price", "amount"), label="amount", required=True)
    errors.check("price", error)
    values["trade_at"] = _moment(data, ("trade_at", "date"), errors, "trade_at", label="date", required=True)
    values["settlement_at"] = _moment(data, ("settlement_at", "settlement_date"), errors, "settlement_at",
                                      label="settlement date")
    if values["trade_at"] and values["settlement_at"] and values["settlement_at"] < values["trade_at"]:
        errors.check("settlement_at", SETTLEMENT_BEFORE_TRADE)
    values["status"], error = clean_status(data.get("status"))
    errors.check("status", error)
    values["description"] = _description(data, errors)
    return values, errors


def clean_opening_balance(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """The opening balance form: price (zero allowed) and trade_at, both required."""
    errors = v.FieldErrors()
    values: dict[str, Any] = {}
    values["price"], error = parse_amount(_first(data, "price", "amount"), label="amount", required=True,
                                          allow_zero=True)
    errors.check("price", error)
    values["trade_at"] = _moment(data, ("trade_at", "date"), errors, "trade_at", label="date", required=True)
    return values, errors


# ---- the forms as read at the edge (the API's bodies, the screen's form handler) ----------------
# Each field is the text that was sent (a number or a day as its text): None when left out, '' when
# sent empty or null (a null clears a field on an edit, as an empty value does). The rules above
# check that text with the specification's texts, so a wrong value still gets its own field's text.
_ALIASES = {"trade_at": ("trade_at", "date"), "settlement_at": ("settlement_at", "settlement_date")}


def _sent_text(data: Mapping[str, Any], *keys: str) -> str | None:
    """The first non-empty value sent under `keys`, as text; '' when one was sent empty; None when
    none was sent."""
    sent = [data[k] for k in keys if k in data]
    if not sent:
        return None
    value = next((x for x in sent if not v.is_empty(x)), None)
    if value is None:
        return ""
    return value.isoformat() if isinstance(value, (date, datetime)) else str(value)


def _sent_id(value: Any) -> int | None:
    """None when not sent (or empty); 0 when sent but naming no record."""
    return None if v.is_empty(value) else (as_id(value) or 0)


def _sent_description(data: Mapping[str, Any]) -> str | None:
    """description (or comment), else a payload's description (or comment), as the spec's payloads
    carry it."""
    found = _sent_text(data, "description", "comment")
    payload = data.get("payload")
    if found is None and isinstance(payload, Mapping):
        found = _sent_text(payload, "description", "comment")
    return found


@dataclass(frozen=True)
class TransactionForm:
    """An asset or cash transaction's form as sent: createTransaction, the six asset forms and the
    three cash forms, and an edit of one (whose fields left out keep their value). `date`,
    `settlement_date`, `comment` and a payload's description are read as trade_at, settlement_at
    and description. Ids: None when not sent, 0 when sent but naming no record."""
    investment_id: int | None = None
    type: str | None = None
    action: str | None = None
    asset_id: int | None = None
    code: str | None = None
    trade_at: str | None = None
    settlement_at: str | None = None
    ex_date: str | None = None
    status: str | None = None
    quantity: str | None = None
    price: str | None = None
    amount: str | None = None
    fee: str | None = None
    gst: str | None = None
    franking_credits: str | None = None
    ratio: str | None = None
    limit_price: str | None = None
    contract_note: str | None = None
    order_id: str | None = None
    description: str | None = None

    def fields(self) -> dict[str, Any]:
        """The fields sent (not the ids), by their names, as clean_asset_form and clean_cash_form
        read them."""
        return {name: value for name, value in vars(self).items()
                if value is not None and name not in ("investment_id", "asset_id")}


def read_transaction_form(data: Mapping[str, Any]) -> TransactionForm:
    """The form from the keys sent (by the names the REST bodies and the screens' forms use)."""
    texts = {name: _sent_text(data, *_ALIASES.get(name, (name,))) for name in (
        "type", "action", "code", "trade_at", "settlement_at", "ex_date", "status", "quantity", "price",
        "amount", "fee", "gst", "franking_credits", "ratio", "limit_price", "contract_note", "order_id")}
    return TransactionForm(investment_id=_sent_id(data.get("investment_id")), asset_id=_sent_id(data.get("asset_id")),
                           description=_sent_description(data), **texts)


@dataclass(frozen=True)
class OpeningBalanceForm:
    """The opening balance form as sent: its amount (`price`, or `amount`) and its day (`trade_at`,
    or `date`), as text; None when left out."""
    price: str | None = None
    trade_at: str | None = None

    def fields(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items() if value is not None}


def read_opening_balance(data: Mapping[str, Any]) -> OpeningBalanceForm:
    return OpeningBalanceForm(price=_sent_text(data, "price", "amount"), trade_at=_sent_text(data, "trade_at", "date"))


def read_reverse(value: Any) -> bool:
    """A list's `reverse` as a query sends it ('true', '1', 'desc', ...; '0', 'false', 'asc'):
    descending unless it says otherwise."""
    if value is None or value == "":
        return True
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("1", "true", "yes", "desc", "descending", "-1")


def changed_fields(current: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The values that differ from the current ones (an unchanged form changes nothing)."""
    return {key: value for key, value in values.items() if current.get(key) != value}


def raise_if_invalid(errors: Mapping[str, str]) -> None:
    """The form text with the per-field texts when any field is wrong."""
    if errors:
        raise ValidationError(INVALID, dict(errors))


# ---- delete and edit rules (spec 002 s5, s6) -----------------------------------------------------
def _first_reason(*rules: tuple[bool, str]) -> str | None:
    """The text of the first rule (condition, text) that holds, in the order given; None when none does."""
    return next((text for holds, text in rules if holds), None)


def delete_refusal(*, status: str, om_status: str | None = None, cash_type: str | None = None) -> str | None:
    """Why a transaction may not be deleted (None: it may): never an opening balance, never one
    pending approval, never one whose (linked) asset transaction order management executed."""
    return _first_reason(
        (cash_type == CashType.OPENING_BALANCE.value, NO_DELETE_OPENING_BALANCE),
        (status == Status.PENDING_APPROVAL.value, NO_DELETE_PENDING_APPROVAL),
        (om_status == OM_SUCCESS, NO_DELETE_OM_SUCCESS),
    )


def can_delete(*, status: str, om_status: str | None = None, cash_type: str | None = None) -> bool:
    return delete_refusal(status=status, om_status=om_status, cash_type=cash_type) is None


def edit_refusal(*, status: str, om_status: str | None = None) -> str | None:
    """Why an asset transaction may not be edited (spec 002 s6): not while pending or pending
    approval, not once order management executed it. (Who may edit: staff, checked by the services.)"""
    return _first_reason(
        (status == Status.PENDING.value, NO_EDIT_PENDING),
        (status == Status.PENDING_APPROVAL.value, NO_EDIT_PENDING_APPROVAL),
        (om_status == OM_SUCCESS, NO_EDIT_OM_SUCCESS),
    )


def can_edit(*, status: str, om_status: str | None = None) -> bool:
    return edit_refusal(status=status, om_status=om_status) is None


def new_transaction_question(*, status: str, om_status: str | None = None) -> str | None:
    """The confirmation asked before an edit is saved as a new transaction (replacing this one):
    a transaction in processing error, or one order management cancelled (spec 002 s4)."""
    return _first_reason(
        (status == Status.PROCESSING_ERROR.value or om_status == OM_ERROR, ERROR_QUESTION),
        (om_status == OM_CANCELLED, CANCELLED_QUESTION),
    )


def cash_edit_refusal(*, cash_type: str, status: str, linked: bool, deposit: bool = False) -> str | None:
    """Why a cash transaction may not be changed in the cash transaction form."""
    return _first_reason(
        (cash_type == CashType.OPENING_BALANCE.value, EDIT_IN_OPENING_BALANCE),
        (deposit, DEPOSIT_FORMS_ONLY),
        (linked or cash_type == CashType.LINKED.value, EDIT_IN_ASSET_TRANSACTIONS),
        (status == Status.PENDING_APPROVAL.value, NO_EDIT_PENDING_APPROVAL),
    )


# ---- the asset panel --------------------------------------------------------------------------
def status_label(kind: str, status: str) -> str | None:
    """Draft / Pending approval / Executed / Placed / Error; None for the kinds without a status."""
    if Kind(kind) in STATUSLESS_KINDS:
        return None
    return ASSET_PANEL_LABELS[Status(status)]


def display_quantity(kind: str, quantity: Decimal | None) -> Decimal | None:
    """The whole quantity, negated for sells."""
    if quantity is None:
        return None
    return -quantity if Kind(kind) in SELL_KINDS else quantity


@dataclass(frozen=True)
class PanelFilter:
    """Which rows an expanded asset shows: these statuses (for kinds with a status) and, with
    `statusless`, the dividends, interest, capital returns and reconstructions."""

    statuses: frozenset[str]
    statusless: bool
    kinds: frozenset[str] | None = None  # None: every kind

    def accepts(self, kind: str, status: str) -> bool:
        if self.kinds is not None and kind not in self.kinds:
            return False
        if Kind(kind) in STATUSLESS_KINDS:
            return self.statusless
        return status in self.statuses


def panel_filter(filters: Iterable[Any] = (), types: Iterable[Any] = ()) -> PanelFilter:
    """The panel's filters (pending, draft, executed, dividend, placed, error; none: all) and an
    optional list of kinds or form names. Unknown names are ignored."""
    keys = {form_key(f) for f in filters or () if not v.is_empty(f)}
    known = {k for k in keys if k in PANEL_FILTER_STATUSES or k == STATUSLESS_FILTER}
    # a status value itself (pending_approval, processing ...) is accepted as well, unless it is
    # also a filter's name ('pending' is the filter of pending approval, 'draft' that of pending)
    raw_statuses = {k for k in keys if k in {s.value for s in Status} and k not in PANEL_FILTER_STATUSES}
    kinds: set[str] = set()
    for t in types or ():
        kind = asset_kind(t)
        if kind is None:
            try:
                kind = Kind(form_key(t))
            except ValueError:
                continue
        kinds.add(kind.value)
    kinds_filter = frozenset(kinds) if kinds else None
    if not known and not raw_statuses:
        return PanelFilter(frozenset(s.value for s in Status), True, kinds_filter)
    statuses = {PANEL_FILTER_STATUSES[k].value for k in known if k in PANEL_FILTER_STATUSES} | raw_statuses
    return PanelFilter(frozenset(statuses), STATUSLESS_FILTER in known, kinds_filter)


# ---- units: a sell never takes more than is held ---------------------------------------------
def ledger_trade(kind: str, *, trade_day: date, quantity: Decimal | None = None, price: Decimal | None = None,
                 fee: Decimal | None = None, gst: Decimal | None = None, ratio: str | None = None,
                 amount: Decimal | None = None) -> ledger.Trade | None:
    """The ledger trade an asset transaction of `kind` feeds once executed (None: it moves no
    units). The same mapping app.services.postings applies to stored rows: brokerage plus GST
    is the trade's fee; a capital return carries its amount."""
    effect = EFFECTS[Kind(kind)]
    if effect.ledger is None:
        return None
    zero = Decimal(0)
    return ledger.Trade(kind=effect.ledger, trade_date=trade_day, units=quantity or zero, price=price or zero,
                        fee=(fee or zero) + (gst or zero), ratio=ratio,
                        amount=amount if effect.ledger == "capital_return" else None)


@dataclass
class UnitsBook:
    """The executed ledger trades of a portfolio's assets, to check new trades against: a sell
    (or any trade) is refused when, in date order with everything executed before it, the asset
    would sell more than it holds. `add` keeps an accepted executed trade for the next checks
    (an upload checks its lines in file order this way)."""

    trades: dict[int, list[ledger.Trade]] = field(default_factory=dict)
    treatment: ledger.TaxTreatment = ledger.TaxTreatment.FIFO

    def position(self, asset_id: int, extra: ledger.Trade | None = None) -> ledger.Position:
        """The asset's position, with `extra` as if executed too; raises ValidationError
        ('Not enough assets to sell', or the ratio text) when the history does not hold."""
        rows = list(self.trades.get(asset_id, ()))
        if extra is not None:
            rows.append(extra)
        return ledger.apply(rows, self.treatment)

    def check(self, asset_id: int, trade: ledger.Trade | None) -> None:
        if trade is not None:
            self.position(asset_id, trade)

    def add(self, asset_id: int, trade: ledger.Trade | None) -> None:
        if trade is not None:
            self.trades.setdefault(asset_id, []).append(trade)

    def held_on(self, asset_id: int, day: date) -> Decimal:
        """Units held at the end of `day` (executed trades up to and including that day)."""
        rows = [t for t in self.trades.get(asset_id, ()) if t.trade_date <= day]
        return ledger.apply(rows, self.treatment).units


def capital_return_amount(units: Decimal, price: Decimal) -> Decimal:
    """A capital return given per unit: units held times the price, to the cent."""
    with localcontext() as ctx:
        ctx.prec = 60
        return to_cents(units * price)


# ---- the upload file ---------------------------------------------------------------------------
UPLOAD_COLUMNS = ("date", "type", "code", "quantity", "price", "fee", "gst", "amount", "franking_credits",
                  "ratio", "description", "status")
REQUIRED_UPLOAD_COLUMNS = ("date", "type")
_UPLOAD_ALIASES: dict[str, tuple[str, ...]] = {
    "date": ("date", "trade date", "trade at", "transaction date"),
    "type": ("type", "transaction type"),
    "code": ("code", "asset code", "asset", "ticker", "asx code"),
    "quantity": ("quantity", "units", "qty"),
    "price": ("price", "unit price"),
    "fee": ("fee", "brokerage"),
    "gst": ("gst",),
    "amount": ("amount", "value"),
    "franking_credits": ("franking credits", "franking credit", "franking"),
    "ratio": ("ratio",),
    "description": ("description", "comment", "note", "notes"),
    "status": ("status",),
}
_NUMERIC_COLUMNS = ("quantity", "price", "fee", "gst", "amount", "franking_credits")
# Form fields as the file names them.
_FIELD_COLUMNS = {"trade_at": "date", "asset_id": "code"}


@dataclass(frozen=True)
class UploadLine:
    """One valid line of a transaction file: the asset form's kind (with the asset code) or the
    cash form's (cash type, direction), and the cleaned form values."""

    line: int
    form: str
    kind: Kind | None
    cash: tuple[CashType, Cash] | None
    code: str | None
    values: dict[str, Any]


def _upload_header(row: list[str]) -> dict[str, int]:
    positions = header_positions(row, UPLOAD_COLUMNS, _UPLOAD_ALIASES)
    missing = [c for c in REQUIRED_UPLOAD_COLUMNS if c not in positions]
    if missing:
        raise FileProblem(MISSING_COLUMNS.format(columns=", ".join(UPLOAD_COLUMNS), missing=", ".join(missing)))
    return positions


def _shown(value: str, limit: int = 40) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _numeric_cell(text: str) -> str:
    """Spreadsheets write '$1,234.50': the symbol and thousands separators go."""
    return text.replace("$", "").replace(",", "").strip()


def _line_errors(line: int, errors: Mapping[str, str], cash: bool) -> list[LineError]:
    out = []
    for key, text in errors.items():
        column = _FIELD_COLUMNS.get(key, key)
        if cash and key == "price":
            column = "amount"
        out.append(LineError(line, f"{column}: {text.strip()}"))
    return out


def parse_upload(data: bytes) -> tuple[list[UploadLine], list[LineError]]:
    """Every valid transaction line of a CSV file or of the first sheet of an .xlsx workbook, and
    every wrong line with why (line numbers as a spreadsheet shows them: the header is line 1).
    Columns (header names, any order, case-insensitive): date, type, code, quantity, price, fee,
    gst, amount, franking_credits, ratio, description, status; date and type are required. The
    type is a form name: purchase (buy), sell, dividend, interest, capital return, reconstruction,
    withdrawal, credit, income. A cash line's amount is its `amount` column. Raises FileProblem
    when the file as a whole cannot be used. Asset codes are looked up by the service."""
    if not data:
        raise FileProblem(FILE_NO_TRANSACTIONS)
    rows = read_rows(data)
    numbered = [(n, row) for n, row in enumerate(rows, start=1) if any(_text(c) for c in row)]
    if not numbered:
        raise FileProblem(FILE_NO_TRANSACTIONS)
    positions = _upload_header(numbered[0][1])
    body = numbered[1:]
    if len(rows) > MAX_UPLOAD_LINES + 1:
        raise FileProblem(TOO_MANY_LINES.format(n=MAX_UPLOAD_LINES))
    if not body:
        raise FileProblem(FILE_NO_TRANSACTIONS)

    lines: list[UploadLine] = []
    errors: list[LineError] = []
    for n, row in body:
        cells: dict[str, str] = {}
        for column, index in positions.items():
            text = _text(row[index]) if index < len(row) else ""
            cells[column] = _numeric_cell(text) if column in _NUMERIC_COLUMNS else text
        raw_type = cells.get("type", "")
        kind = asset_kind(raw_type)
        cash = None if kind is not None else cash_form(raw_type)
        if kind is None and cash is None:
            errors.append(LineError(n, f"type: unknown type {_shown(raw_type)}" if raw_type
                                    else "type: " + v.REQUIRED_SELECT.format(label="type").strip()))
            continue
        form: dict[str, str | None] = dict(cells)
        form["date"] = cells.get("date")
        if kind is not None:
            form.pop("type", None)
            values, field_errors = clean_asset_form(kind, form)
            if "asset_id" in field_errors:
                field_errors["asset_id"] = v.REQUIRED.format(label="asset code")
        else:
            form["type"] = form_key(raw_type)
            form["price"] = cells.get("amount")
            values, field_errors = clean_cash_form(form)
        if field_errors:
            errors.extend(_line_errors(n, field_errors, cash is not None))
            continue
        lines.append(UploadLine(line=n, form=FORM_NAMES[kind] if kind else form_key(raw_type), kind=kind, cash=cash,
                                code=values.get("code") if kind else None, values=values))
    return lines, errors


def upload_failure(errors: Sequence[LineError]) -> ValidationError:
    """'Transactions are not uploaded due to line(s): 3, 7', with each line's reasons in `fields`
    (key: the line number as text)."""
    by_line = reasons_by_line(errors)
    numbers = sorted(by_line)
    named = named_lines(numbers, MAX_NAMED_LINES)
    return ValidationError(NOT_UPLOADED.format(lines=named), {str(n): "; ".join(by_line[n]) for n in numbers})
