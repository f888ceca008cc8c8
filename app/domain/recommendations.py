"""Long-term and short-term (analyst) recommendations: the specification's texts, the rules of one
recommendation row, and the upload file parser (CSV or Excel).

Pure: no database. The services resolve asset codes, check what a model already holds and apply
the plan; the screens validate as the user types with the same functions."""
from __future__ import annotations

import csv
import io
import re
from contextlib import closing
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Iterable, Mapping, Sequence

from app.domain import validators as v
from app.domain import workbooks
from app.domain.models import LONG_TERM_ACTIONS, SHORT_TERM_ACTIONS, UPLOAD_TYPES

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
INVALID_FILE_TYPE = "Invalid file type!"
SELECT_MODEL = "Select at least one model"
SELECT_MODEL_TOAST = "Please! Select at least one model"

# ours (the specification does not show these)
LONG_TERM_ADDED = "Long Term Recommendation was added"
LONG_TERM_UPDATED = "Long Term Recommendation was updated"
LONG_TERM_DELETED = "Long Term Recommendation was deleted"
HOLD_DELETE_QUESTION = "A hold recommendation without a comment is not kept. Do you want to delete the recommendation for {code}?"
RECOMMENDATION_NOT_FOUND = "Recommendation not found"
UNKNOWN_ASSET = "Unknown asset code {code}"
SELECT_FILE = "Please, select file. "
FILE_TOO_LARGE = "The file is too large: the limit is 5 MB"
FILE_UNREADABLE = "The file could not be read: upload a CSV file or an Excel workbook (.xlsx)"
LEGACY_EXCEL = "Excel 97-2003 workbooks (.xls) cannot be read: save the file as .xlsx or CSV"
WORKBOOK_TOO_LARGE = "The workbook is too large once unpacked: the limit is {mb} MB"
FILE_EMPTY = "The file has no recommendations"
TOO_MANY_LINES = "The file has more than {n} lines"
MISSING_COLUMNS = "The header row must name the columns {columns} (missing: {missing})"

COMMENT_MAX = 2000
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_LINES = 10_000
MAX_REPORTED_LINES = 50
PRICE_LIMIT = Decimal(10) ** 12  # NUMERIC(18, 6)
YIELD_LIMIT = Decimal(10) ** 5  # NUMERIC(9, 4)

HOLD_LONG = "hold"
HOLD_SHORT = "HOLD"

ACCEPTED_CONTENT_TYPES = frozenset({
    "",
    "text/csv", "application/csv", "text/x-csv", "text/comma-separated-values",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/octet-stream",
})


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
def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def normalise_action(kind: Kind, value: Any) -> str:
    """Long-term actions are stored lowercase (buy), short-term codes uppercase (FFL/SELL)."""
    text = _text(value)
    return text.lower() if kind is Kind.LONG_TERM else text.upper()


def action_error(kind: Kind, value: Any) -> str | None:
    action = normalise_action(kind, value)
    if not action:
        return v.REQUIRED_SELECT.format(label="action")
    return None if action in kind.actions else v.DEFAULT


def comment_error(value: Any) -> str | None:
    return v.MAX_LENGTH.format(n=COMMENT_MAX) if len(_text(value)) > COMMENT_MAX else None


def clean_comment(value: Any) -> str | None:
    return _text(value) or None


def is_hold_without_comment(kind: Kind, action: Any, comment: Any) -> bool:
    return normalise_action(kind, action) == kind.hold and not _text(comment)


def parse_amount(value: Any, *, places: int, limit: Decimal, allow_zero: bool, symbol: str = "") -> tuple[Decimal | None, str | None]:
    """A price or yield: optional; a plain decimal, not negative (a price above zero), under `limit`.
    `symbol` ('$' or '%') may lead or trail the number as spreadsheets write it."""
    if v.is_empty(value):
        return None, None
    if isinstance(value, str):
        text = value.strip()
        if symbol:
            text = text.removeprefix(symbol).removesuffix(symbol).strip()
        value = text
    number, error = v.given_number(value)
    if error:
        return None, error
    if number < 0 or (number == 0 and not allow_zero):
        return None, v.POSITIVE
    number = v._round(number, places)  # noqa: SLF001 - the shared half-up rounding
    if number >= limit:
        return None, v.LESS_THAN.format(n=f"{limit:,.0f}".replace(",", ""))
    return number, None


def parse_price(value: Any) -> tuple[Decimal | None, str | None]:
    return parse_amount(value, places=6, limit=PRICE_LIMIT, allow_zero=False, symbol="$")


def parse_yield(value: Any) -> tuple[Decimal | None, str | None]:
    return parse_amount(value, places=4, limit=YIELD_LIMIT, allow_zero=True, symbol="%")


def clean_recommendation(kind: Kind, data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The values of one recommendation (action, comment; short-term also price and yield) and the
    per-field error texts. Whether a hold needs a comment depends on new vs existing: see
    `is_hold_without_comment`."""
    errors: dict[str, str] = {}
    values: dict[str, Any] = {"action": normalise_action(kind, data.get("action")), "comment": clean_comment(data.get("comment"))}
    if (error := action_error(kind, data.get("action"))) is not None:
        errors["action"] = error
    if (error := comment_error(data.get("comment"))) is not None:
        errors["comment"] = error
    if kind is Kind.SHORT_TERM:
        values["price"], error = parse_price(data.get("price"))
        if error:
            errors["price"] = error
        values["yield"], error = parse_yield(data.get("yield", data.get("yield_")))
        if error:
            errors["yield"] = error
    return values, errors


def clean_upload_type(value: Any) -> tuple[str, str | None]:
    """amend (the default) or replace."""
    text = _text(value).lower()
    if not text:
        return UPLOAD_TYPES[0], None
    return (text, None) if text in UPLOAD_TYPES else (UPLOAD_TYPES[0], v.DEFAULT)


# ---- upload files ------------------------------------------------------------------------------
class FileProblem(ValueError):
    """The file as a whole cannot be used (wrong type, unreadable, no header ...)."""


@dataclass(frozen=True)
class UploadLine:
    line: int  # the row number a spreadsheet shows (the header is line 1)
    code: str
    action: str
    comment: str | None
    price: Decimal | None = None
    yield_: Decimal | None = None


@dataclass(frozen=True)
class LineError:
    line: int
    text: str

    def __str__(self) -> str:
        return f"Line {self.line}: {self.text}"


def reasons_by_line(errors: Iterable[LineError]) -> dict[int, list[str]]:
    """Each wrong line's reasons, each once, in the order they were found."""
    by_line: dict[int, list[str]] = {}
    for error in errors:
        reasons = by_line.setdefault(error.line, [])
        if error.text not in reasons:
            reasons.append(error.text)
    return by_line


def named_lines(numbers: Sequence[int], most: int) -> str:
    """'3, 7, 12': the first `most` line numbers, then how many more ('... and 4 more')."""
    named = ", ".join(str(n) for n in numbers[:most])
    if len(numbers) > most:
        named += f" and {len(numbers) - most} more"
    return named


def file_type_error(content_type: Any) -> str | None:
    """Spreadsheets (legacy and modern), CSV, octet-stream or no type at all; else 'Invalid file type!'."""
    base = _text(content_type).split(";", 1)[0].strip().lower()
    return None if base in ACCEPTED_CONTENT_TYPES else INVALID_FILE_TYPE


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return str(value)
        return format(Decimal(repr(value)).normalize(), "f")
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value.is_finite() else str(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value)


def _xlsx_rows(data: bytes) -> list[list[str]]:
    """The first sheet's rows, read through app.domain.workbooks (zip bombs and sheets of millions
    of rows are refused before openpyxl parses them)."""
    rows: list[list[str]] = []
    try:
        with closing(workbooks.sheet_rows(data, max_rows=MAX_LINES, max_col=30)) as sheet:
            for values in sheet:
                rows.append([_cell_text(c) for c in values])
                if len(rows) > MAX_LINES + 1:
                    break
    except workbooks.WorkbookProblem as problem:
        raise FileProblem({workbooks.TOO_LARGE: WORKBOOK_TOO_LARGE.format(mb=workbooks.MAX_UNPACKED_BYTES // 2**20),
                           workbooks.TOO_MANY_ROWS: TOO_MANY_LINES.format(n=MAX_LINES)}.get(problem.kind, FILE_UNREADABLE)
                          ) from None
    except Exception:  # a cell openpyxl cannot give
        raise FileProblem(FILE_UNREADABLE) from None
    return rows


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _csv_rows(data: bytes) -> list[list[str]]:
    text = _decode(data)
    if "\x00" in text:
        raise FileProblem(FILE_UNREADABLE)
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ","
    if "," not in first:
        delimiter = ";" if ";" in first else ("\t" if "\t" in first else ",")
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            rows.append(row)
            if len(rows) > MAX_LINES + 1:
                break
    except csv.Error:
        raise FileProblem(FILE_UNREADABLE) from None
    return rows


def read_rows(data: bytes) -> list[list[str]]:
    """The cells of a CSV file or of the first sheet of an .xlsx workbook, row by row (line 1 first)."""
    if not data:
        raise FileProblem(FILE_EMPTY)
    if len(data) > MAX_UPLOAD_BYTES:
        raise FileProblem(FILE_TOO_LARGE)
    if data[:4] == b"PK\x03\x04":
        return _xlsx_rows(data)
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise FileProblem(LEGACY_EXCEL)
    return _csv_rows(data)


_HEADER_ALIASES = {
    "code": ("code", "asset code", "asset", "ticker", "asx code"),
    "action": ("action", "recommendation"),
    "comment": ("comment", "comments", "note", "notes"),
    "price": ("price", "limit price"),
    "yield": ("yield", "yield %", "yield (%)"),
}


def _header_key(cell: Any) -> str:
    """A header cell as compared: lower case, trimmed, runs of spaces and underscores as one space,
    no byte-order mark."""
    return re.sub(r"[\s_]+", " ", str(cell or "").replace("\ufeff", "").strip().lower())


def header_positions(row: list[str], columns: Iterable[str], aliases: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Where each of `columns` stands in an upload file's header row: the first cell that names the
    column by one of its `aliases` (compared as _header_key reads them). Absent columns are left out."""
    keys = {column: {_header_key(a) for a in aliases[column]} for column in columns}
    positions: dict[str, int] = {}
    for index, cell in enumerate(row):
        key = _header_key(cell)
        for column, names in keys.items():
            if column not in positions and key in names:
                positions[column] = index
    return positions


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
    rows = read_rows(data)
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
def formula_guard(text: Any) -> str:
    """Cell text a spreadsheet will not run as a formula (the parser takes the quote off again)."""
    text = "" if text is None else str(text)
    return "'" + text if _needs_guard(text) else text
