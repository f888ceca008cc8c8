"""Long-term and short-term (analyst) recommendations: the specification's texts, the rules of one
recommendation row, and the upload file parser (CSV or Excel).

Pure: no database. The services resolve asset codes, check what a model already holds and apply
the plan; the screens validate as the user types with the same functions."""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from enum import Enum
from typing import Iterable, Mapping

from app.domain import validators as v
from app.domain.errors import not_found
from app.domain.models import LONG_TERM_ACTIONS, SHORT_TERM_ACTIONS, UPLOAD_TYPES
from app.domain.parsing import as_id
from app.domain.uploads import (  # noqa: F401  (a recommendation upload is read as every upload is)
    FILE_TOO_LARGE, FILE_UNREADABLE, INVALID_FILE_TYPE, LEGACY_EXCEL, MAX_LINES, MAX_UPLOAD_BYTES, SELECT_FILE,
    TOO_MANY_LINES, WORKBOOK_TOO_LARGE, FileProblem, LineError, file_type_error, header_positions, named_lines,
    read_rows, reasons_by_line,
)

# ---- texts (spec 000 s4/s5/s8, 001 s4/s5/s8, 002 s5) -------------------------------------------
COMMENT_REQUIRED = "Please fill out the comment"
LONG_TERM_DUPLICATE = "Asset {code} already exists in Long Term Recommendations"
SHORT_TERM_DUPLICATE = "Asset {code} already exists in recommendations"
NOTHING_TO_REMOVE = "There are no recommendations to remove"
NOTHING_TO_DOWNLOAD = "There are no recommendations to download"
LONG_TERMS_NOT_DELETED = "Recommendations is not deleted."
LONG_TERMS_ALL_DELETED = "All Long Term Recommendations are deleted."
SHORT_TERM_DELETED = "Recommendation was deleted"
SHORT_TERM_ADDED = "Recommendation was added"
SHORT_TERM_UPDATED = "Recommendation was updated"
SHORT_TERMS_ALL_DELETED = "All recommendations was deleted"
SHORT_TERMS_LOAD_FAILED = "Cannot get the list of recommendations"
UPLOAD_FAILED = "The file upload was unsuccessful"
UPLOAD_DONE = "The file upload is now complete"
UPLOAD_DONE_ALL = "The file upload is now complete for all models"
SELECT_MODEL = "Select at least one model"
SELECT_MODEL_TOAST = "Please! Select at least one model"

# ours (the specification does not show these)
LONG_TERM_ADDED = "Long Term Recommendation was added"
LONG_TERM_UPDATED = "Long Term Recommendation was updated"
LONG_TERM_DELETED = "Long Term Recommendation was deleted"
HOLD_DELETE_QUESTION = "A hold recommendation without a comment is not kept. Do you want to delete the recommendation for {code}?"
RECOMMENDATION_NOT_FOUND = not_found("Recommendation")
UNKNOWN_ASSET = "Unknown asset code {code}"
FILE_EMPTY = "The file has no recommendations"
MISSING_COLUMNS = "The header row must name the columns {columns} (missing: {missing})"

COMMENT_MAX = 2000
MAX_REPORTED_LINES = 50
PRICE_LIMIT = Decimal(10) ** 12  # NUMERIC(18, 6)
YIELD_LIMIT = Decimal(10) ** 5  # NUMERIC(9, 4)

HOLD_LONG = "hold"
HOLD_SHORT = "HOLD"



class Kind(str, Enum):
    LONG_TERM = "long_term"
    SHORT_TERM = "short_term"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("code", "action", "comment") if self is Kind.LONG_TERM else ("code", "action", "comment", "price", "yield")

    @property
    def actions(self) -> tuple[str, ...]:
        return LONG_TERM_ACTIONS if self is Kind.LONG_TERM else SHORT_TERM_ACTIONS

    @property
    def hold(self) -> str:
        return HOLD_LONG if self is Kind.LONG_TERM else HOLD_SHORT

    @property
    def duplicate(self) -> str:
        return LONG_TERM_DUPLICATE if self is Kind.LONG_TERM else SHORT_TERM_DUPLICATE


# ---- one recommendation -------------------------------------------------------------------------
def _text(value: object) -> str:
    return "" if value is None else str(value).strip()


def normalise_action(kind: Kind, value: str | None) -> str:
    """Long-term actions are stored lowercase (buy), short-term codes uppercase (FFL/SELL)."""
    text = _text(value)
    return text.lower() if kind is Kind.LONG_TERM else text.upper()


def action_error(kind: Kind, value: str | None) -> str | None:
    action = normalise_action(kind, value)
    if not action:
        return v.REQUIRED_SELECT.format(label="action")
    return None if action in kind.actions else v.DEFAULT


def comment_error(value: str | None) -> str | None:
    return v.MAX_LENGTH.format(n=COMMENT_MAX) if len(_text(value)) > COMMENT_MAX else None


def clean_comment(value: str | None) -> str | None:
    return _text(value) or None


def is_hold_without_comment(kind: Kind, action: str | None, comment: str | None) -> bool:
    return normalise_action(kind, action) == kind.hold and not _text(comment)


def parse_amount(value: str | None, *, places: int, limit: Decimal, allow_zero: bool, symbol: str = "") -> tuple[Decimal | None, str | None]:
    """A price or yield: optional; a plain decimal, not negative (a price above zero), under `limit`.
    `symbol` ('$' or '%') may lead or trail the number as spreadsheets write it."""
    text = (value or "").strip()
    if not text:
        return None, None
    if symbol:
        text = text.removeprefix(symbol).removesuffix(symbol).strip()
    number, error = v.given_number(text)
    if number is None:
        return None, error
    if number < 0 or (number == 0 and not allow_zero):
        return None, v.POSITIVE
    number = v._round(number, places)  # noqa: SLF001 - the shared half-up rounding
    if number >= limit:
        return None, v.LESS_THAN.format(n=f"{limit:,.0f}".replace(",", ""))
    return number, None


def parse_price(value: str | None) -> tuple[Decimal | None, str | None]:
    return parse_amount(value, places=6, limit=PRICE_LIMIT, allow_zero=False, symbol="$")


def parse_yield(value: str | None) -> tuple[Decimal | None, str | None]:
    return parse_amount(value, places=4, limit=YIELD_LIMIT, allow_zero=True, symbol="%")


@dataclass(frozen=True)
class RecommendationForm:
    """One recommendation as sent (a REST body, a screen's row): each text as typed (a number sent
    as a number reads as its digits, a null as empty), None when left out (an update keeps what is
    saved); the model and the asset of a new one as their ids, None when not sent or naming none."""
    model_id: int | None = None
    asset_id: int | None = None
    action: str | None = None
    comment: str | None = None
    price: str | None = None
    yield_: str | None = None

    def over(self, saved: RecommendationForm) -> RecommendationForm:
        """This form's texts where they were sent, the saved ones where not (an update)."""
        sent = {name: getattr(self, name) for name in ("action", "comment", "price", "yield_")}
        return replace(saved, **{name: text for name, text in sent.items() if text is not None})


@dataclass(frozen=True)
class RecommendationValues:
    """A checked form's values: the action as stored (see normalise_action), the comment trimmed
    (None when empty); a short-term one's price and yield (None when empty or in error)."""
    action: str
    comment: str | None
    price: Decimal | None = None
    yield_: Decimal | None = None


def _sent_text(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    return None if key not in data else "" if value is None else str(value)


def _sent_amount(data: Mapping[str, object], key: str) -> str | None:
    """A price or yield as the text parse_amount reads: a number sent as a number as its digits
    (never an exponent), anything empty as empty."""
    value = data.get(key)
    if key not in data:
        return None
    if v.is_empty(value):
        return ""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return format(Decimal(str(value)), "f")
    return str(value)


def read_form(data: Mapping[str, object]) -> RecommendationForm:
    """The form from the keys sent (model_id, asset_id, action, comment, price, yield or yield_)."""
    return RecommendationForm(
        model_id=as_id(data.get("model_id")), asset_id=as_id(data.get("asset_id")),
        action=_sent_text(data, "action"), comment=_sent_text(data, "comment"), price=_sent_amount(data, "price"),
        yield_=_sent_amount(data, "yield" if "yield" in data else "yield_"))


def clean_recommendation(kind: Kind, form: RecommendationForm) -> tuple[RecommendationValues, dict[str, str]]:
    """The values of one recommendation (action, comment; short-term also price and yield) and the
    per-field error texts. Whether a hold needs a comment depends on new vs existing: see
    `is_hold_without_comment`."""
    errors: dict[str, str] = {}
    if (error := action_error(kind, form.action)) is not None:
        errors["action"] = error
    if (error := comment_error(form.comment)) is not None:
        errors["comment"] = error
    values = RecommendationValues(action=normalise_action(kind, form.action), comment=clean_comment(form.comment))
    if kind is Kind.LONG_TERM:
        return values, errors
    price, error = parse_price(form.price)
    if error:
        errors["price"] = error
    yield_, error = parse_yield(form.yield_)
    if error:
        errors["yield"] = error
    return replace(values, price=price, yield_=yield_), errors


def clean_upload_type(value: str | None) -> tuple[str, str | None]:
    """amend (the default) or replace."""
    text = _text(value).lower()
    if not text:
        return UPLOAD_TYPES[0], None
    return (text, None) if text in UPLOAD_TYPES else (UPLOAD_TYPES[0], v.DEFAULT)


# ---- upload files ------------------------------------------------------------------------------
@dataclass(frozen=True)
class UploadLine:
    line: int  # the row number a spreadsheet shows (the header is line 1)
    code: str
    action: str
    comment: str | None
    price: Decimal | None = None
    yield_: Decimal | None = None


_HEADER_ALIASES = {
    "code": ("code", "asset code", "asset", "ticker", "asx code"),
    "action": ("action", "recommendation"),
    "comment": ("comment", "comments", "note", "notes"),
    "price": ("price", "limit price"),
    "yield": ("yield", "yield %", "yield (%)"),
}


def _header(kind: Kind, row: list[str]) -> dict[str, int]:
    positions = header_positions(row, kind.columns, _HEADER_ALIASES)
    missing = [c for c in ("code", "action") if c not in positions]
    if missing:
        raise FileProblem(MISSING_COLUMNS.format(columns=", ".join(kind.columns), missing=", ".join(missing)))
    return positions


def _needs_guard(text: str) -> bool:
    """Text a spreadsheet would run as a formula, or text that would read as guarded already
    (quotes followed by a formula character), which the export therefore quotes once more."""
    rest = text.lstrip("'")
    return rest[:1] in ("=", "+", "-", "@") and rest != ""


def _strip_formula_guard(text: str) -> str:
    """Exports put a quote before text that a spreadsheet would run as a formula; take it off again."""
    if text[:1] == "'" and _needs_guard(text[1:]):
        return text[1:]
    return text


def parse_upload(kind: Kind, data: bytes) -> tuple[list[UploadLine], list[LineError]]:
    """Every recommendation line of the file, and every line that is wrong and why. Raises
    FileProblem when the file as a whole cannot be used. Nothing is looked up here: the service
    names unknown asset codes."""
    rows = read_rows(data, FILE_EMPTY)
    numbered = [(n, row) for n, row in enumerate(rows, start=1) if any(_text(c) for c in row)]
    if not numbered:
        raise FileProblem(FILE_EMPTY)
    header_line, header_row = numbered[0]
    positions = _header(kind, header_row)
    body = numbered[1:]
    if len(rows) > MAX_LINES + 1:
        raise FileProblem(TOO_MANY_LINES.format(n=MAX_LINES))
    if not body:
        raise FileProblem(FILE_EMPTY)

    def cell(row: list[str], column: str) -> str:
        index = positions.get(column)
        return _text(row[index]) if index is not None and index < len(row) else ""

    lines: list[UploadLine] = []
    errors: list[LineError] = []
    first_seen: dict[str, int] = {}
    for n, row in body:
        code = cell(row, "code").upper()
        raw_action = cell(row, "action")
        comment = _strip_formula_guard(cell(row, "comment"))
        bad = False
        if not code:
            errors.append(LineError(n, "asset code is missing"))
            bad = True
        elif len(code) > 20 or not code.isprintable():
            errors.append(unknown_code_error(n, code))
            bad = True
        elif code in first_seen:
            errors.append(LineError(n, f"asset {code} is repeated (line {first_seen[code]})"))
            bad = True
        else:
            first_seen[code] = n
        if not raw_action:
            errors.append(LineError(n, "action is missing"))
            bad = True
        elif action_error(kind, raw_action):
            errors.append(LineError(n, f"invalid action {_shown(raw_action)}"))
            bad = True
        if comment_error(comment):
            errors.append(LineError(n, f"comment is longer than {COMMENT_MAX} characters"))
            bad = True
        price = yield_ = None
        if kind is Kind.SHORT_TERM:
            price, error = parse_price(cell(row, "price"))
            if error:
                errors.append(LineError(n, f"invalid price {_shown(cell(row, 'price'))} ({error.strip()})"))
                bad = True
            yield_, error = parse_yield(cell(row, "yield"))
            if error:
                errors.append(LineError(n, f"invalid yield {_shown(cell(row, 'yield'))} ({error.strip()})"))
                bad = True
        if not bad:
            lines.append(UploadLine(line=n, code=code, action=normalise_action(kind, raw_action),
                                    comment=clean_comment(comment), price=price, yield_=yield_))
    return lines, errors


def _shown(value: str, limit: int = 40) -> str:
    """A value quoted back to the user: printable and short."""
    text = "".join(ch if ch.isprintable() else "?" for ch in value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unknown_code_error(line: int, code: str) -> LineError:
    return LineError(line, f"unknown asset code {_shown(code)}")


def hold_comment_error(line: int, code: str) -> LineError:
    return LineError(line, f"{COMMENT_REQUIRED} (hold {code})")


def describe_errors(errors: Iterable[LineError]) -> str:
    """'Line 3: unknown asset code XYZ; Line 5: invalid action FOO' (line order, at most 50 named)."""
    ordered = sorted(dict.fromkeys(errors), key=lambda e: e.line)  # stable: a line's errors keep their order
    shown = [str(e) for e in ordered[:MAX_REPORTED_LINES]]
    if len(ordered) > MAX_REPORTED_LINES:
        shown.append(f"and {len(ordered) - MAX_REPORTED_LINES} more")
    return "; ".join(shown)


# ---- export ------------------------------------------------------------------------------------
def formula_guard(value: object) -> str:
    """Cell text a spreadsheet will not run as a formula (the parser takes the quote off again)."""
    text = "" if value is None else str(value)
    return "'" + text if _needs_guard(text) else text
