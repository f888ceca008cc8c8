"""app.domain.workbooks: an uploaded .xlsx is measured before openpyxl opens it."""
from __future__ import annotations

import io
import zipfile

import pytest

from app.domain import workbooks as wb


def _book(rows: list[list[object]]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _zip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return out.getvalue()


def _kind(data: bytes, max_rows: int = 100) -> str | None:
    try:
        wb.check_archive(data, max_rows=max_rows)
    except wb.WorkbookProblem as problem:
        return problem.kind
    return None


def test_a_workbook_within_the_limits_is_read_row_by_row():
    data = _book([["code", "action"], ["BHP", "buy"], [None, 3]])
    assert _kind(data) is None
    assert list(wb.sheet_rows(data, max_rows=100)) == [["code", "action"], ["BHP", "buy"], [None, 3]]


@pytest.mark.parametrize("data", [b"", b"not a zip", b"PK\x03\x04" + bytes(100), _zip({"hello.txt": b"hi"}),
                                  _zip({"xl/workbook.xml": b"<workbook"})])
def test_what_is_no_workbook_is_unreadable(data):
    with pytest.raises(wb.WorkbookProblem) as problem:
        list(wb.sheet_rows(data, max_rows=100))
    assert problem.value.kind == wb.UNREADABLE


def test_the_unpacked_size_and_the_number_of_parts_are_limited(monkeypatch):
    data = _book([["x" * 5000]])
    monkeypatch.setattr(wb, "MAX_UNPACKED_BYTES", 4000)
    assert _kind(data) == wb.TOO_LARGE
    monkeypatch.setattr(wb, "MAX_UNPACKED_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(wb, "MAX_PARTS", 3)
    assert _kind(data) == wb.TOO_LARGE


@pytest.mark.parametrize("chunk", [7, 64, 1024 * 1024])
def test_rows_and_cells_are_counted_across_the_inflated_chunks(monkeypatch, chunk):
    monkeypatch.setattr(wb, "_CHUNK", chunk)
    monkeypatch.setattr(wb, "_OVERLAP", 64)
    data = _book([[i, i] for i in range(50)])
    assert _kind(data, max_rows=24) is None  # 50 rows: within 2 x (24 + 1)
    assert _kind(data, max_rows=23) == wb.TOO_MANY_ROWS
    monkeypatch.setattr(wb, "MAX_CELLS", 99)
    assert _kind(data, max_rows=1000) == wb.TOO_MANY_ROWS  # 100 cells
    monkeypatch.setattr(wb, "MAX_CELLS", 100)
    assert _kind(data, max_rows=1000) is None


def test_prefixed_tags_count_too():
    sheet = (b'<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>'
             + b'<x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row>' * 30 + b"</x:sheetData></x:worksheet>")
    data = _zip({"xl/workbook.xml": b"<workbook/>", "xl/worksheets/sheet1.xml": sheet})
    assert _kind(data, max_rows=14) is None
    assert _kind(data, max_rows=13) == wb.TOO_MANY_ROWS
