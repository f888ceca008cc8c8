"""The price-file parser and price arithmetic (app.domain.prices): pure, no database."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.domain import prices as p
from app.domain.errors import ValidationError
from tests.factories import CSV, XLSX, csv_bytes, xlsx_bytes
from tests.factories_assets import PRICE_HEADER

TODAY = dt.date(2024, 7, 1)


def parse(data: bytes, content_type: str | None = CSV, filename: str = "prices.csv") -> p.ParsedPrices:
    return p.parse_price_file(filename, content_type, data, today=TODAY)


# ---- the file type ----------------------------------------------------------------------------------
@pytest.mark.parametrize("content_type", [
    "text/csv", "application/vnd.ms-excel", XLSX, "application/octet-stream", "", None, "text/csv; charset=utf-8",
    "TEXT/CSV",
])
def test_accepted_types(content_type):
    assert p.accepted_content_type(content_type)
    assert parse(csv_bytes([("BHP", "28/06/2024", "45.12")], PRICE_HEADER), content_type).lines


@pytest.mark.parametrize("content_type", ["image/png", "application/pdf", "text/plain", "application/json", "text/html"])
def test_other_types_are_refused_before_reading(content_type):
    with pytest.raises(ValidationError) as err:
        parse(csv_bytes([("BHP", "28/06/2024", "45.12")], PRICE_HEADER), content_type)
    assert err.value.message == "Invalid file type!"
    assert err.value.fields == {"file": "Invalid file type!"}


# ---- good files ---------------------------------------------------------------------------------------
def test_csv_lines_with_both_date_forms_any_column_order_and_case():
    data = b"Close,CODE,Date,extra\n45.12,bhp,28/06/2024,x\n127.5, cba ,2024-06-27,\n0.005,ZIP,1/7/2024,\n"
    parsed = parse(data)
    assert parsed.rejected == []
    assert [(x.line, x.code, x.price_date, x.close) for x in parsed.lines] == [
        (2, "BHP", dt.date(2024, 6, 28), Decimal("45.120000")),
        (3, "CBA", dt.date(2024, 6, 27), Decimal("127.500000")),
        (4, "ZIP", dt.date(2024, 7, 1), Decimal("0.005000")),
    ]


def test_utf8_bom_crlf_blank_lines_and_semicolons():
    data = "\ufeffcode;date;close\r\n\r\nBHP;28/06/2024;45.12\r\n;;\r\nCBA;27/06/2024;127.50\r\n".encode("utf-8")
    parsed = parse(data)
    assert [(x.line, x.code) for x in parsed.lines] == [(3, "BHP"), (5, "CBA")]
    assert parsed.rejected == []


def test_excel_workbook_with_date_cells_numbers_and_text():
    data = xlsx_bytes([
        ("BHP", dt.datetime(2024, 6, 28), 45.12),
        ("cba", "27/06/2024", "127.5"),
        (360, dt.date(2024, 6, 26), 12),  # Life360's code is a number in Excel
        ("WES", "2024-06-25", -3),
    ], PRICE_HEADER, sheet="Prices")
    parsed = parse(data, XLSX, "prices.xlsx")
    assert [(x.line, x.code, x.price_date, x.close) for x in parsed.lines] == [
        (2, "BHP", dt.date(2024, 6, 28), Decimal("45.120000")),
        (3, "CBA", dt.date(2024, 6, 27), Decimal("127.500000")),
        (4, "360", dt.date(2024, 6, 26), Decimal("12.000000")),
    ]
    assert [r.message for r in parsed.rejected] == ["Line 5: close must be a positive number"]


# ---- rejected lines ---------------------------------------------------------------------------------
def test_bad_lines_are_named_with_their_reasons():
    data = csv_bytes([
        ("BHP", "28/06/2024", "45.12"),         # 2 ok
        ("", "28/06/2024", "1"),                # 3
        ("CBA", "31/02/2024", "1"),             # 4
        ("CBA", "28/06/2024", "0"),             # 5
        ("CBA", "28/06/2024", "-1"),            # 6
        ("CBA", "28/06/2024", "\"1,234.50\""),  # 7
        ("CBA", "28/06/2024", "abc"),           # 8
        ("CBA", "2024/06/28", "1"),             # 9
        ("CBA", "28/06/2099", "1"),             # 10
        ("BHP", "2024-06-28", "46"),            # 11 duplicate of line 2
        ("CBA", "not a date", "x"),             # 12 two reasons
        ("CBA", "28/06/1899", "1"),             # 13
        ("CBA", "28/06/2024", "1e3"),           # 14
        ("CBA", "28/06/2024", "1000000000000"),  # 15 too big for the column
    ], PRICE_HEADER)
    parsed = parse(data)
    assert [x.line for x in parsed.lines] == [2]
    assert [r.message for r in parsed.rejected] == [
        "Line 3: code is required",
        "Line 4: invalid date",
        "Line 5: close must be a positive number",
        "Line 6: close must be a positive number",
        "Line 7: close must be a positive number",
        "Line 8: close must be a positive number",
        "Line 9: invalid date",
        "Line 10: date is in the future",
        "Line 11: duplicate of line 2",
        "Line 12: invalid date; close must be a positive number",
        "Line 13: invalid date",
        "Line 14: close must be a positive number",
        "Line 15: close must be a positive number",
    ]
    assert parsed.rejected[0].as_dict() == {"line": 3, "code": "", "reason": "code is required",
                                            "message": "Line 3: code is required"}


def test_a_short_row_is_a_rejected_line_not_a_crash():
    parsed = parse(b"code,date,close\nBHP,28/06/2024\nCBA\n")
    assert [r.message for r in parsed.rejected] == ["Line 2: close must be a positive number",
                                                   "Line 3: invalid date; close must be a positive number"]


# ---- malformed files ------------------------------------------------------------------------------
@pytest.mark.parametrize("data, text", [
    (b"", "The file is empty."),
    (b"   \n\n", "The file is empty."),
    (b"code,date\nBHP,28/06/2024\n", "The file has no close column: the first line must name the columns code, date and close."),
    (b"symbol,day,price\nBHP,28/06/2024,1\n",
     "The file has no code, date and close columns: the first line must name the columns code, date and close."),
    (b"code,date,close\n", "The file has no price lines."),
    (b"code,date,close\n,,\n", "The file has no price lines."),
    (b"\x00\x01\x02binary", "The file is neither CSV text nor an Excel workbook."),
    (b"PK\x03\x04 not really a zip", "The file could not be read as an Excel workbook (.xlsx)."),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "Excel 97-2003 workbooks (.xls) cannot be read: save the file as .xlsx or CSV."),
])
def test_malformed_files_raise_with_the_reason(data, text):
    with pytest.raises(ValidationError) as err:
        parse(data)
    assert err.value.message == text
    assert err.value.fields == {"file": text}


def test_csv_named_xlsx_is_malformed():
    with pytest.raises(ValidationError) as err:
        parse(csv_bytes([("BHP", "28/06/2024", "1")], PRICE_HEADER), XLSX, "prices.xlsx")
    assert err.value.message == "The file could not be read as an Excel workbook (.xlsx)."


def test_too_big_file(monkeypatch):
    monkeypatch.setattr(p, "MAX_FILE_BYTES", 100)
    with pytest.raises(ValidationError) as err:
        parse(csv_bytes([("BHP", "28/06/2024", "1")] * 10, PRICE_HEADER))
    assert err.value.message == "The file is too big: the limit is 0 MB."


def test_too_many_lines(monkeypatch):
    monkeypatch.setattr(p, "MAX_LINES", 3)
    with pytest.raises(ValidationError) as err:
        parse(csv_bytes([("BHP", f"0{d}/06/2024", "1") for d in range(1, 6)], PRICE_HEADER))
    assert err.value.message == "The file has too many lines: the limit is 3."


# ---- fuzz: nothing but ValidationError, whatever the bytes --------------------------------------
def _check_result(parsed: p.ParsedPrices) -> None:
    for line in parsed.lines:
        assert line.code and len(line.code) <= p.MAX_CODE_LENGTH
        assert Decimal(0) < line.close <= p.MAX_CLOSE
        assert dt.date(p.MIN_YEAR, 1, 1) <= line.price_date <= TODAY + dt.timedelta(days=1)
    for rejection in parsed.rejected:
        assert rejection.message.startswith(f"Line {rejection.line}: ")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=2000), content_type=st.sampled_from([CSV, XLSX, "", None, "application/octet-stream"]),
       filename=st.sampled_from(["p.csv", "p.xlsx", "p", ""]))
def test_fuzz_arbitrary_bytes(data, content_type, filename):
    try:
        parsed = p.parse_price_file(filename, content_type, data, today=TODAY)
    except ValidationError as exc:
        assert exc.message and exc.fields.get("file") == exc.message
        return
    _check_result(parsed)


_cell = st.one_of(st.text(max_size=12), st.sampled_from(["BHP", "cba", "28/06/2024", "2024-06-28", "45.12", "0", "-1",
                                                          "1e5", "31/02/2024", "\"", ",", ";", "\r", "\n"]))


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(_cell, max_size=5), max_size=12),
       header=st.sampled_from(["code,date,close", "date,close,code", "code,close", "CODE;DATE;CLOSE", ""]))
def test_fuzz_csv_like_text(rows, header):
    text = header + "\n" + "\n".join(",".join(row) for row in rows)
    try:
        parsed = parse(text.encode("utf-8", "replace"))
    except ValidationError as exc:
        assert exc.message
        return
    _check_result(parsed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(st.tuples(
    st.one_of(st.none(), st.text(max_size=8), st.integers(-5, 5000), st.floats(allow_nan=True, allow_infinity=True)),
    st.one_of(st.none(), st.dates(), st.text(max_size=12), st.integers(-5, 60000), st.floats(allow_nan=False)),
    st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.text(max_size=8),
              st.decimals(allow_nan=False, allow_infinity=False)),
), max_size=8))
def test_fuzz_excel_cells(rows):
    # openpyxl refuses control characters in text cells when writing: that is not what is tested here
    clean = [tuple("".join(ch for ch in c if ch.isprintable()) if isinstance(c, str) else c for c in row) for row in rows]
    data = xlsx_bytes(clean, PRICE_HEADER, sheet="Prices")
    try:
        parsed = parse(data, XLSX, "p.xlsx")
    except ValidationError as exc:
        assert exc.message
        return
    _check_result(parsed)


# ---- price arithmetic ------------------------------------------------------------------------------
@pytest.mark.parametrize("day, months, expected", [
    (dt.date(2024, 6, 28), 1, dt.date(2024, 5, 28)),
    (dt.date(2024, 3, 31), 1, dt.date(2024, 2, 29)),
    (dt.date(2023, 3, 31), 1, dt.date(2023, 2, 28)),
    (dt.date(2024, 1, 15), 1, dt.date(2023, 12, 15)),
    (dt.date(2024, 6, 28), 6, dt.date(2023, 12, 28)),
    (dt.date(2024, 8, 31), 6, dt.date(2024, 2, 29)),
])
def test_months_before(day, months, expected):
    assert p.months_before(day, months) == expected


@pytest.mark.parametrize("last, ref, expected", [
    ("110", "100", Decimal("10.0000")),
    ("100", "110", Decimal("-9.0909")),
    ("1.234567", "1.111111", Decimal("11.1110")),
    ("2", "3", Decimal("-33.3333")),
    ("1", "3", Decimal("-66.6667")),
    ("50", "50", Decimal("0.0000")),
    (None, "1", None),
    ("1", None, None),
    ("1", "0", None),
    ("999999999999", "0.000001", None),  # beyond NUMERIC(9,4)
])
def test_period_and_since_inclusion_returns(last, ref, expected):
    last_d = Decimal(last) if last is not None else None
    ref_d = Decimal(ref) if ref is not None else None
    assert p.period_return(last_d, ref_d) == expected
    assert p.since_inclusion_return(last_d, ref_d) == expected


def test_reference_close_is_on_or_before():
    history = [(dt.date(2024, 5, 24), Decimal("9")), (dt.date(2024, 5, 27), Decimal("10")), (dt.date(2024, 5, 29), Decimal("11"))]
    assert p.reference_close(history, dt.date(2024, 5, 28)) == Decimal("10")
    assert p.reference_close(history, dt.date(2024, 5, 29)) == Decimal("11")
    assert p.reference_close(history, dt.date(2024, 5, 1)) is None


def test_close_instant_is_four_pm_in_sydney():
    assert p.close_instant(dt.date(2024, 6, 28)).isoformat() == "2024-06-28T06:00:00+00:00"  # AEST
    assert p.close_instant(dt.date(2024, 1, 15)).isoformat() == "2024-01-15T05:00:00+00:00"  # AEDT


@pytest.mark.parametrize("value, text", [
    (Decimal("45.120000"), "45.12"), (Decimal("45"), "45.00"), (Decimal("0.005000"), "0.005"),
    (Decimal("1.234567"), "1.234567"), (None, None),
])
def test_price_text(value, text):
    assert p.price_text(value) == text
