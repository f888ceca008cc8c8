"""Reading the first sheet of an uploaded .xlsx workbook without trusting it.

An .xlsx is a zip of XML parts: a few hundred kilobytes can unpack to gigabytes (a zip bomb), and
openpyxl would inflate and parse all of it, for a long time and in a lot of memory. So before
openpyxl sees the file, the zip's directory is read: more than MAX_PARTS parts, or parts whose
sizes add up to more than MAX_UNPACKED_BYTES, refuse the file (TOO_LARGE). The sizes the
directory declares bound what is inflated (zipfile stops at the declared size and then refuses
the part's checksum), so a forged directory cannot smuggle more.

openpyxl parses every worksheet's XML once as it opens the workbook (to find the sheet's size when
the sheet does not name it), so a sheet of millions of tiny rows takes minutes even when the
reader stops after its own line limit. The row and cell tags of every worksheet are therefore
counted first on the inflated bytes (a fast scan, no XML parsing): more rows than twice the
reader's line limit, or more than MAX_CELLS cells, refuse the file (TOO_MANY_ROWS). Any other
damage (random bytes, a zip that is no workbook, broken XML) is UNREADABLE. The callers turn
each kind into their own texts.
"""
from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Generator
from typing import Any

MAX_UNPACKED_BYTES = 64 * 1024 * 1024
MAX_PARTS = 1000
MAX_CELLS = 1_000_000

UNREADABLE = "unreadable"
TOO_LARGE = "too_large"
TOO_MANY_ROWS = "too_many_rows"


class WorkbookProblem(Exception):
    """The workbook cannot be used: `kind` is UNREADABLE, TOO_LARGE or TOO_MANY_ROWS."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


_ROW_OR_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,30}:)?(row|c)[\s/>]")
_CHUNK = 1024 * 1024
_OVERLAP = 64  # longer than any tag the pattern matches


def _check_sheet(archive: zipfile.ZipFile, part: zipfile.ZipInfo, max_rows: int, max_cells: int) -> None:
    """Counts the row and cell tags of a worksheet part on the inflated stream (no XML parsing),
    stopping as soon as one count is past its limit (TOO_MANY_ROWS)."""
    rows = cells = 0
    tail = b""
    with archive.open(part) as stream:
        while True:
            chunk = stream.read(_CHUNK)
            window = tail + chunk
            cut = len(window) - _OVERLAP if chunk else len(window)  # a tag across the boundary: next window
            for match in _ROW_OR_CELL.finditer(window):
                if match.start() >= cut:
                    break
                if match.group(1) == b"row":
                    rows += 1
                else:
                    cells += 1
            if rows > max_rows or cells > max_cells:
                raise WorkbookProblem(TOO_MANY_ROWS)
            if not chunk:
                return
            tail = window[max(cut, 0):]


def check_archive(data: bytes, *, max_rows: int) -> None:
    """Raises WorkbookProblem unless `data` is a zip whose parts, unpacked, fit MAX_PARTS and
    MAX_UNPACKED_BYTES, and each of whose worksheets (openpyxl reads every sheet's XML once when it
    opens the workbook) has at most 2 x (max_rows + 1) rows and MAX_CELLS cells: the work of
    opening and reading it is bounded by the reader's own line limit."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
            if len(parts) > MAX_PARTS or sum(max(0, p.file_size) for p in parts) > MAX_UNPACKED_BYTES:
                raise WorkbookProblem(TOO_LARGE)
            if not any(p.filename == "xl/workbook.xml" for p in parts):
                raise WorkbookProblem(UNREADABLE)
            for part in parts:
                if part.filename.startswith("xl/worksheets/") and part.filename.endswith(".xml"):
                    _check_sheet(archive, part, 2 * (max_rows + 1), MAX_CELLS)
    except WorkbookProblem:
        raise
    except Exception:  # zipfile raises many kinds: a bad zip, an encrypted part, an unknown compression, zlib errors
        raise WorkbookProblem(UNREADABLE) from None


def sheet_rows(data: bytes, *, max_rows: int, max_col: int | None = None) -> Generator[list[Any], None, None]:
    """The cell values of the first sheet, row by row (checked by check_archive first). Stop
    iterating whenever you like: the workbook is closed either way."""
    check_archive(data, max_rows=max_rows)
    try:
        from openpyxl import load_workbook

        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds (BadZipFile, KeyError, XML errors ...) for broken files
        raise WorkbookProblem(UNREADABLE) from None
    try:
        if not workbook.worksheets:
            raise WorkbookProblem(UNREADABLE)
        sheet = workbook.worksheets[0]
        try:
            for values in sheet.iter_rows(max_col=max_col, values_only=True):
                yield list(values)
        except WorkbookProblem:
            raise
        except GeneratorExit:
            raise
        except Exception:
            raise WorkbookProblem(UNREADABLE) from None
    finally:
        try:
            workbook.close()
        except Exception:  # pragma: no cover - closing a read-only workbook does not fail in practice
            pass
