"""Upload files as every upload reads them (recommendations, transactions, broker execution
files): the accepted types, the size and line limits, CSV or the first sheet of an .xlsx workbook
read into rows of text, header columns found by their names, and the texts of a file that cannot
be used. Pure: no database."""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence, TypeVar

from app.domain import workbooks
from app.domain.errors import ValidationError

INVALID_FILE_TYPE = "Invalid file type!"
SELECT_FILE = "Please, select file. "
FILE_TOO_LARGE = "The file is too large: the limit is 5 MB"
EMPTY_FILE = "The file is empty"
FILE_UNREADABLE = "The file could not be read: upload a CSV file or an Excel workbook (.xlsx)"
LEGACY_EXCEL = "Excel 97-2003 workbooks (.xls) cannot be read: save the file as .xlsx or CSV"
WORKBOOK_TOO_LARGE = "The workbook is too large once unpacked: the limit is {mb} MB"
TOO_MANY_LINES = "The file has more than {n} lines"

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_LINES = 10_000

ACCEPTED_CONTENT_TYPES = frozenset({
    "",
    "text/csv", "application/csv", "text/x-csv", "text/comma-separated-values",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/octet-stream",
})


class FileProblem(ValueError):
    """The file as a whole cannot be used (wrong type, unreadable, no header ...)."""


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
    base = ("" if content_type is None else str(content_type)).split(";", 1)[0].strip().lower()
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


def read_rows(data: bytes, empty: str = EMPTY_FILE) -> list[list[str]]:
    """The cells of a CSV file or of the first sheet of an .xlsx workbook, row by row (line 1 first);
    `empty` is the text of a file with nothing in it."""
    if not data:
        raise FileProblem(empty)
    if len(data) > MAX_UPLOAD_BYTES:
        raise FileProblem(FILE_TOO_LARGE)
    if data[:4] == b"PK\x03\x04":
        return _xlsx_rows(data)
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise FileProblem(LEGACY_EXCEL)
    return _csv_rows(data)


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


Parsed = TypeVar("Parsed")


def checked_upload(content_type: Any, data: bytes | None, parse: Callable[[bytes], Parsed]) -> Parsed:
    """An uploaded file read by `parse`, or the ValidationError on its `file` field: a type that is
    not a spreadsheet or CSV ('Invalid file type!'), no file, too large, or unusable as a whole."""
    type_error = file_type_error(content_type)
    if type_error:
        raise ValidationError(type_error, {"file": type_error})
    if data is None:
        raise ValidationError(SELECT_FILE, {"file": SELECT_FILE})
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValidationError(FILE_TOO_LARGE, {"file": FILE_TOO_LARGE})
    return parsed_upload(data, parse)


def parsed_upload(data: bytes, parse: Callable[[bytes], Parsed]) -> Parsed:
    """`parse(data)`, a file that cannot be used as a whole being a ValidationError on `file`."""
    try:
        return parse(data)
    except FileProblem as problem:
        raise ValidationError(str(problem), {"file": str(problem)}) from None
