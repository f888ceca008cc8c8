"""Large single-sheet workbooks, fast: openpyxl writes the workbook (styles, header row, column
widths, frozen panes) and the data rows are streamed into its sheet as XML, with inline strings.

openpyxl spends about 14 microseconds a cell even in write-only mode; a firm's trade file has
half a million cells. Inline strings are never formulas, so a text cell that starts with
= + - @ stays text."""
from __future__ import annotations

import io
import re
import zipfile
from decimal import Decimal
from typing import Iterable, Sequence
from xml.sax.saxutils import escape

from openpyxl import Workbook
from openpyxl.utils import get_column_letter

SHEET_PATH = "xl/worksheets/sheet1.xml"
# characters XML 1.0 does not allow (openpyxl refuses them too)
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_DIMENSION = re.compile(rb'<dimension ref="[^"]*"\s*/>')

Value = str | int | Decimal | None


# what escaping or dropping changes: most cells (codes, names, numbers as text) have none of it
_SPECIAL = re.compile(r"[&<>\x00-\x08\x0b\x0c\x0e-\x1f]")


def _text_cell(ref: str, value: str) -> str:
    text = escape(_ILLEGAL.sub("", value)) if _SPECIAL.search(value) else value
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f'<c r="{ref}" t="inlineStr"><is><t{space}>{text}</t></is></c>'


def _row_xml(number: int, letters: Sequence[str], values: Sequence[Value]) -> str:
    cells = []
    for letter, value in zip(letters, values):
        if value is None or value == "":
            continue
        if isinstance(value, bool):
            value = str(value)
        if isinstance(value, (int, Decimal)):
            cells.append(f'<c r="{letter}{number}"><v>{value:f}</v></c>' if isinstance(value, Decimal)
                         else f'<c r="{letter}{number}"><v>{value}</v></c>')
        else:
            cells.append(_text_cell(f"{letter}{number}", str(value)))
    return f'<row r="{number}">{"".join(cells)}</row>'


def with_rows(workbook: Workbook, rows: Iterable[Sequence[Value]], *, first_row: int, columns: int) -> bytes:
    """The saved `workbook` (one sheet, its rows above `first_row` written by openpyxl) with
    `rows` appended from `first_row` on: text as inline strings, int and Decimal as numbers,
    None and '' as empty cells. The rows are consumed once and compressed as they come, a
    thousand at a time, so memory stays flat however many there are."""
    if len(workbook.worksheets) != 1:
        raise ValueError("with_rows writes single-sheet workbooks")
    letters = [get_column_letter(c) for c in range(1, columns + 1)]
    template = io.BytesIO()
    workbook.save(template)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(template.getvalue())) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename != SHEET_PATH:
                target.writestr(item, data)
                continue
            # the row count is not known before the rows are read: the optional <dimension> goes
            data = _DIMENSION.sub(b"", data.replace(b"<sheetData/>", b"<sheetData></sheetData>"), count=1)
            head, tail = data.split(b"</sheetData>", 1)
            entry = zipfile.ZipInfo(item.filename, date_time=item.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            with target.open(entry, "w") as sheet:
                sheet.write(head)
                batch: list[str] = []
                for number, values in enumerate(rows, start=first_row):
                    batch.append(_row_xml(number, letters, values))
                    if len(batch) == 1000:
                        sheet.write("".join(batch).encode("utf-8"))
                        batch = []
                sheet.write("".join(batch).encode("utf-8"))
                sheet.write(b"</sheetData>" + tail)
    return out.getvalue()
