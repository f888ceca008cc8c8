"""Price files and price arithmetic (pure: no I/O, no database).

A price file is CSV or Excel (.xlsx) with a header row naming the columns `code`, `date` and
`close` (any order, any case, other columns ignored), then one close price per line:

    code,date,close
    BHP,28/06/2024,45.12
    CBA,2024-06-28,127.5

- Dates are DD/MM/YYYY or YYYY-MM-DD (or real date cells in Excel); a close is a positive
  decimal (plain digits and one decimal point; Excel number cells are taken as they are).
- The file is checked in two steps. A *malformed* file (wrong type, unreadable, no header, a
  missing column, no price line at all, too big) raises ValidationError with the reason and
  nothing is written. A well-formed file is split into good lines and *rejected* lines, each
  rejection naming its line number (the row number a spreadsheet shows: the header is line 1)
  and why ("Line 7: close must be a positive number"). The service imports the good lines and
  reports the rejected ones; unknown asset codes are rejected there (it needs the database). A
  file in which every line is rejected is refused (NOTHING_IMPORTED), its rejections reported.
- `parse_price_file` never raises anything but ValidationError, whatever bytes it is given.

Returns are percentages (Decimal, 4 places, half-up) of the close against an earlier close:
`period_return(last, reference)`; the reference of an N-month return is the close on or before
the same day N months before the newest close (`months_before`).
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import re
from contextlib import closing
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Iterable, Iterator

from app.domain import workbooks
from app.domain.errors import ValidationError
from app.domain.validators import date_parts

# ---- texts ---------------------------------------------------------------------------------------
INVALID_FILE_TYPE = "Invalid file type!"
EMPTY_FILE = "The file is empty."
TOO_BIG = "The file is too big: the limit is {mb} MB."
TOO_MANY_LINES = "The file has too many lines: the limit is {n}."
UNREADABLE_EXCEL = "The file could not be read as an Excel workbook (.xlsx)."
LEGACY_EXCEL = "Excel 97-2003 workbooks (.xls) cannot be read: save the file as .xlsx or CSV."
WORKBOOK_TOO_BIG = "The workbook is too big once unpacked: the limit is {mb} MB."
UNREADABLE_CSV = "The file could not be read as CSV: {why}."
NOT_TEXT = "The file is neither CSV text nor an Excel workbook."
MISSING_COLUMNS = "The file has no {columns}: the first line must name the columns code, date and close."
NO_LINES = "The file has no price lines."
NOTHING_IMPORTED = "No price was imported: every line of the file was rejected."

UNKNOWN_CODE = "unknown asset code {code}"
CODE_REQUIRED = "code is required"
INVALID_DATE = "invalid date"
FUTURE_DATE = "date is in the future"
CLOSE_POSITIVE = "close must be a positive number"
DUPLICATE = "duplicate of line {line}"

# ---- limits ----------------------------------------------------------------------------------------
ACCEPTED_CONTENT_TYPES = frozenset({
    "text/csv",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/octet-stream",
})
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_LINES = 200_000
MAX_CODE_LENGTH = 20
MAX_CLOSE = Decimal("999999999999")  # NUMERIC(18,6): 12 integer digits
MIN_YEAR = 1900
PRICE_PLACES = Decimal("0.000001")
RETURN_PLACES = Decimal("0.0001")
MAX_RETURN = Decimal("99999.9999")  # NUMERIC(9,4): beyond it a return is shown as N/A
COLUMNS = ("code", "date", "close")

# ISO dates as price files write them: one-digit months and days, maybe a midnight time
_DATE_ISO = re.compile(r"^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[T ]00:00(?::00(?:\.0+)?)?)?$")
_DECIMAL = re.compile(r"^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")
_XLSX_MAGIC = b"PK\x03\x04"
_XLS_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True)
class PriceLine:
    line: int
    code: str
    price_date: dt.date
    close: Decimal


@dataclass(frozen=True)
class Rejection:
    line: int
    code: str
    reason: str

    @property
    def message(self) -> str:
        return f"Line {self.line}: {self.reason}"

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "code": self.code, "reason": self.reason, "message": self.message}


@dataclass
class ParsedPrices:
    lines: list[PriceLine] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)


# ---- the file type -------------------------------------------------------------------------------
def accepted_content_type(content_type: str | None) -> bool:
    """Spreadsheets (legacy and modern), CSV, octet-stream or no type at all (spec 002)."""
    if content_type is None:
        return True
    base = str(content_type).split(";", 1)[0].strip().lower()
    return base == "" or base in ACCEPTED_CONTENT_TYPES


def check_file_type(content_type: str | None) -> None:
    if not accepted_content_type(content_type):
        raise ValidationError(INVALID_FILE_TYPE, {"file": INVALID_FILE_TYPE})


def _malformed(text: str) -> ValidationError:
    return ValidationError(text, {"file": text})


# ---- cells ---------------------------------------------------------------------------------------
def parse_code(value: Any) -> str:
    """A code cell uppercased and trimmed ('' when empty or not text-like)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().upper()


def parse_price_date(value: Any) -> dt.date | None:
    """DD/MM/YYYY, YYYY-MM-DD, or a date cell; None when it is not a real date."""
    if isinstance(value, dt.datetime):
        if value.time() != dt.time(0, 0):
            return None
        value = value.date()
    if isinstance(value, dt.date):
        return value if value.year >= MIN_YEAR else None
    if not isinstance(value, str):
        return None
    parts = date_parts(value.strip(), _DATE_ISO)
    if parts is None or parts[0] < MIN_YEAR:
        return None
    try:
        return dt.date(*parts)
    except ValueError:
        return None


def parse_close(value: Any) -> Decimal | None:
    """A positive price (6 places, half-up) below the column's limit; None when it is not one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, Decimal)):
        number = Decimal(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        number = Decimal(repr(value))  # the shortest text of the cell's value, not its binary expansion
    elif isinstance(value, str):
        text = value.strip()
        if not _DECIMAL.match(text) or len(text) > 40:
            return None
        number = Decimal(text)
    else:
        return None
    try:
        if not number.is_finite():
            return None
        number = number.quantize(PRICE_PLACES, rounding=ROUND_HALF_UP)
    except InvalidOperation:
        return None
    if number <= 0 or number > MAX_CLOSE:
        return None
    return number


# ---- reading the file ---------------------------------------------------------------------------
def _csv_rows(data: bytes) -> Iterator[list[Any]]:
    if b"\x00" in data:
        raise _malformed(NOT_TEXT)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")  # Excel's "CSV" on Windows
    try:
        sample = text[:4096]
        delimiter = ","
        first_line = sample.splitlines()[0] if sample.splitlines() else ""
        if first_line.count(";") > first_line.count(",") and first_line.count(";") >= 2:
            delimiter = ";"  # CSV saved with a European list separator
        elif first_line.count("\t") > first_line.count(",") and first_line.count("\t") >= 2:
            delimiter = "\t"
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False):
            yield row
    except csv.Error as exc:
        raise _malformed(UNREADABLE_CSV.format(why=str(exc).rstrip("."))) from None


def _xlsx_rows(data: bytes) -> Iterator[list[Any]]:
    """The first sheet's rows, read through app.domain.workbooks (zip bombs and sheets of millions
    of rows are refused before openpyxl parses them)."""
    try:
        with closing(workbooks.sheet_rows(data, max_rows=MAX_LINES)) as rows:
            yield from rows
    except workbooks.WorkbookProblem as problem:
        raise _malformed({workbooks.TOO_LARGE: WORKBOOK_TOO_BIG.format(mb=workbooks.MAX_UNPACKED_BYTES // 2**20),
                          workbooks.TOO_MANY_ROWS: TOO_MANY_LINES.format(n=MAX_LINES)}.get(problem.kind, UNREADABLE_EXCEL)
                         ) from None


def _rows(filename: str | None, data: bytes) -> Iterator[list[Any]]:
    if data.startswith(_XLSX_MAGIC):
        return _xlsx_rows(data)
    if data.startswith(_XLS_MAGIC):
        raise _malformed(LEGACY_EXCEL)
    if str(filename or "").lower().endswith((".xlsx", ".xlsm")):
        raise _malformed(UNREADABLE_EXCEL)
    return _csv_rows(data)


def _blank(row: Iterable[Any]) -> bool:
    return all(cell is None or (isinstance(cell, str) and not cell.strip()) for cell in row)


def _header(row: list[Any]) -> dict[str, int]:
    names = [str(cell).strip().lower().lstrip("\ufeff") if cell is not None else "" for cell in row]
    found: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in COLUMNS and name not in found:
            found[name] = index
    missing = [c for c in COLUMNS if c not in found]
    if missing:
        named = missing[0] + " column" if len(missing) == 1 else ", ".join(missing[:-1]) + f" and {missing[-1]} columns"
        raise _malformed(MISSING_COLUMNS.format(columns=named))
    return found


def parse_price_file(filename: str | None, content_type: str | None, data: Any,
                     today: dt.date | None = None) -> ParsedPrices:
    """Check and read a whole price file. Raises ValidationError (nothing to write) when the file is
    malformed; otherwise returns the good lines and the rejected ones. Codes are not looked up here."""
    check_file_type(content_type)
    if not isinstance(data, (bytes, bytearray)):
        raise _malformed(EMPTY_FILE)
    data = bytes(data)
    if len(data) > MAX_FILE_BYTES:
        raise _malformed(TOO_BIG.format(mb=MAX_FILE_BYTES // (1024 * 1024)))
    if not data.strip():
        raise _malformed(EMPTY_FILE)
    latest = (today or dt.date.today()) + dt.timedelta(days=1)  # a day of slack for time zones

    columns: dict[str, int] | None = None
    parsed = ParsedPrices()
    seen: dict[tuple[str, dt.date], int] = {}
    count = 0
    for number, row in enumerate(_rows(filename, data), start=1):
        if _blank(row):
            continue
        if columns is None:
            columns = _header(row)
            continue
        count += 1
        if count > MAX_LINES:
            raise _malformed(TOO_MANY_LINES.format(n=MAX_LINES))

        def cell(name: str) -> Any:
            index = columns[name]
            return row[index] if index < len(row) else None

        code = parse_code(cell("code"))
        price_date = parse_price_date(cell("date"))
        close = parse_close(cell("close"))
        reasons = []
        if not code:
            reasons.append(CODE_REQUIRED)
        elif len(code) > MAX_CODE_LENGTH:
            reasons.append(UNKNOWN_CODE.format(code=code[:MAX_CODE_LENGTH] + "..."))
        if price_date is None:
            reasons.append(INVALID_DATE)
        elif price_date > latest:
            reasons.append(FUTURE_DATE)
        if close is None:
            reasons.append(CLOSE_POSITIVE)
        shown = code[:MAX_CODE_LENGTH]
        if reasons or price_date is None or close is None:  # (a missing date or close has its reason)
            parsed.rejected.append(Rejection(number, shown, "; ".join(reasons)))
            continue
        key = (code, price_date)
        if key in seen:
            parsed.rejected.append(Rejection(number, shown, DUPLICATE.format(line=seen[key])))
            continue
        seen[key] = number
        parsed.lines.append(PriceLine(number, code, price_date, close))
    if columns is None:
        raise _malformed(EMPTY_FILE)
    if count == 0:
        raise _malformed(NO_LINES)
    return parsed


def price_file_csv(lines: Iterable[tuple[str, str, str]]) -> bytes:
    """A price file's bytes from (code, date, close) texts (used by exports and tests)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in lines:
        writer.writerow(row)
    return buffer.getvalue().encode("utf-8")


# ---- price arithmetic ----------------------------------------------------------------------------
def months_before(day: dt.date, months: int) -> dt.date:
    """The same day `months` earlier, clamped to the end of a shorter month (31/03 -> 28/02 or 29/02)."""
    index = day.year * 12 + (day.month - 1) - months
    year, month = divmod(index, 12)
    month += 1
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)  # pragma: no cover - 28 always exists


def period_return(last: Decimal | None, reference: Decimal | None) -> Decimal | None:
    """(last / reference - 1) x 100, 4 places half-up; None without both prices or beyond NUMERIC(9,4)."""
    if last is None or reference is None:
        return None
    last, reference = Decimal(last), Decimal(reference)
    if reference <= 0 or last < 0:
        return None
    value = ((last / reference - 1) * 100).quantize(RETURN_PLACES, rounding=ROUND_HALF_UP)
    return value if abs(value) <= MAX_RETURN else None


def since_inclusion_return(last_close: Decimal | None, inclusion_price: Decimal | None) -> Decimal | None:
    """A model asset's return since it was included: last close against ModelAsset.inclusion_price,
    as a percentage with 4 places (None when either price is missing or the inclusion price is 0)."""
    return period_return(last_close, inclusion_price)


ASX_ZONE = "Australia/Sydney"
ASX_CLOSE = dt.time(16, 0)


def close_instant(day: dt.date) -> dt.datetime:
    """The UTC instant of the ASX close (16:00 in Sydney) on a trading day: shown in any browser's
    offset between UTC-6 and UTC+17 it is still that day."""
    from zoneinfo import ZoneInfo

    return dt.datetime.combine(day, ASX_CLOSE, tzinfo=ZoneInfo(ASX_ZONE)).astimezone(dt.timezone.utc)


def reference_close(history: list[tuple[dt.date, Decimal]], on_or_before: dt.date) -> Decimal | None:
    """The close of the newest (date, close) on or before a day; `history` sorted by date ascending."""
    found = None
    for day, close in history:
        if day > on_or_before:
            break
        found = close
    return found


def price_text(value: Decimal | None) -> str | None:
    """A price as text: at least 2 decimals, at most 6, no trailing zeros beyond the second."""
    if value is None:
        return None
    value = Decimal(value)
    text = format(value.quantize(PRICE_PLACES, rounding=ROUND_HALF_UP), "f")
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction.ljust(2, '0')}"
