"""The recommendation rules and the upload parser (app.domain.recommendations), without a database,
with hypothesis fuzzing: any bytes give lines and line errors or a FileProblem, never a crash."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from app.domain import recommendations as r
from app.domain.recommendations import FileProblem, Kind, LineError, UploadLine
from app.exports import recommendations_csv as export
from tests import factories as f
from tests import factories_recommendations as fr


# ---- one recommendation --------------------------------------------------------------------------
def _clean(kind, data):
    """clean_recommendation of the form read from `data`, its values as the keys a row of the kind stores."""
    values, errors = r.clean_recommendation(kind, r.read_form(data))
    stored = {"action": values.action, "comment": values.comment}
    if kind is Kind.SHORT_TERM:
        stored.update(price=values.price, **{"yield": values.yield_})
    return stored, errors


def test_clean_long_term():
    values, errors = _clean(Kind.LONG_TERM, {"action": " Buy ", "comment": "  why  "})
    assert values == {"action": "buy", "comment": "why"} and errors == {}
    values, errors = _clean(Kind.LONG_TERM, {"action": "ACC"})
    assert errors == {"action": "Please, enter a valid value. "}
    _, errors = _clean(Kind.LONG_TERM, {})
    assert errors == {"action": "Please, select action. "}


def test_clean_short_term():
    values, errors = _clean(Kind.SHORT_TERM, {"action": "sl/sell", "price": "12.3456789", "yield": "4.56789"})
    assert errors == {}
    assert values == {"action": "SL/SELL", "comment": None, "price": Decimal("12.345679"), "yield": Decimal("4.5679")}
    _, errors = _clean(Kind.SHORT_TERM, {"action": "SL/BUY", "price": "1.2.3", "yield": "-1"})
    assert errors == {"action": "Please, enter a valid value. ", "price": "Please, enter a valid number. ",
                      "yield": "Please, enter positive value"}


def test_hold_without_comment():
    assert r.is_hold_without_comment(Kind.LONG_TERM, "HOLD", "  ")
    assert r.is_hold_without_comment(Kind.SHORT_TERM, "hold", None)
    assert not r.is_hold_without_comment(Kind.SHORT_TERM, "FFL/HOLD", None)
    assert not r.is_hold_without_comment(Kind.LONG_TERM, "hold", "x")


def test_every_short_term_code_is_accepted():
    assert r.SHORT_TERM_ACTIONS == ("ACC", "BUY", "HOLD", "SA", "SB", "SELL", "TAP", "TSP", "FFL/HOLD", "FFL/SA", "FFL/SELL",
                                    "FFL/TAP", "FFL/TSP", "SL/SELL", "SL/TAP", "SL/TSP")
    for code in r.SHORT_TERM_ACTIONS:
        assert r.action_error(Kind.SHORT_TERM, code.lower()) is None
    assert r.action_error(Kind.SHORT_TERM, "SL/BUY") == "Please, enter a valid value. "


@pytest.mark.parametrize("value,expected", [
    ("12.5", (Decimal("12.5"), None)), ("$12.50", (Decimal("12.50"), None)), (" 7 ", (Decimal("7"), None)),
    ("", (None, None)), (None, (None, None)), ("0", (None, "Please, enter positive value")),
    ("1,000", (None, "Please, enter a valid number. ")), ("NaN", (None, "Please, enter a valid number. ")),
    ("Infinity", (None, "Please, enter a valid number. ")), ("+5", (None, "Please, enter a valid number. ")),
])
def test_parse_price(value, expected):
    assert r.parse_price(value) == expected


def test_parse_yield():
    assert r.parse_yield("4.5%") == (Decimal("4.5"), None)
    assert r.parse_yield("0") == (Decimal("0"), None)
    assert r.parse_yield("99999.99994") == (Decimal("99999.9999"), None)
    assert r.parse_yield("99999.99995") == (None, "Value has to be less than 100000.")


def test_upload_type():
    assert r.clean_upload_type(None) == ("amend", None)
    assert r.clean_upload_type(" Replace ") == ("replace", None)
    assert r.clean_upload_type("merge") == ("amend", "Please, enter a valid value. ")


@pytest.mark.parametrize("content_type,ok", [
    ("text/csv", True), ("application/vnd.ms-excel", True), ("application/octet-stream", True), ("", True), (None, True),
    ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", True), ("text/csv;charset=UTF-8", True),
    ("image/png", False), ("text/plain", False), ("application/zip", False), ("multipart/form-data", False),
])
def test_file_type(content_type, ok):
    assert r.file_type_error(content_type) == (None if ok else "Invalid file type!")


# ---- files ---------------------------------------------------------------------------------------
def test_parse_long_terms_csv():
    data = b"\xef\xbb\xbfCode,Action,Comment,Extra\r\nbhp, BUY ,core\r\n\r\n,,\r\nCBA,hold,\"keep, for now\"\r\n"
    lines, errors = r.parse_upload(Kind.LONG_TERM, data)
    assert errors == []
    assert lines == [UploadLine(2, "BHP", "buy", "core"), UploadLine(5, "CBA", "hold", "keep, for now")]


def test_parse_columns_in_any_order_semicolons_and_missing_optional_columns():
    lines, errors = r.parse_upload(Kind.SHORT_TERM, b"action;asset code;limit price\nbuy;bhp;$3.10\n")
    assert errors == [] and lines == [UploadLine(2, "BHP", "BUY", None, Decimal("3.10"), None)]


def test_parse_names_every_bad_line():
    data = f.csv_bytes([("BHP", "BUY", "", "1", "2"), ("", "BUY", "", "", ""), ("CBA", "BUYY", "", "x", ""),
                         ("bhp", "SELL", "", "", ""), ("CSL", "", "", "", "200000"), ("T" * 21, "BUY", "", "", "")],
                        fr.ST_HEADER)
    lines, errors = r.parse_upload(Kind.SHORT_TERM, data)
    assert [line.code for line in lines] == ["BHP"]
    assert [str(e) for e in errors] == [
        "Line 3: asset code is missing",
        "Line 4: invalid action BUYY",
        "Line 4: invalid price x (Please, enter a valid number.)",
        "Line 5: asset BHP is repeated (line 2)",
        "Line 6: action is missing",
        "Line 6: invalid yield 200000 (Value has to be less than 100000.)",
        "Line 7: unknown asset code " + "T" * 21,
    ]


def test_parse_xlsx():
    data = f.xlsx_bytes([("bhp", "Buy", "from excel", 12.5, 4), (None, None, None), ("CBA", "SELL", None, 0.1, None)],
                         fr.ST_HEADER)
    lines, errors = r.parse_upload(Kind.SHORT_TERM, data)
    assert errors == []
    assert lines == [UploadLine(2, "BHP", "BUY", "from excel", Decimal("12.5"), Decimal("4")),
                     UploadLine(4, "CBA", "SELL", None, Decimal("0.1"), None)]


def test_parse_cp1252_and_formula_guard():
    data = "code,action,comment\nBHP,buy,caf\u00e9 '=1+1\nCBA,sell,'-5% drop\n".encode("cp1252")
    lines, errors = r.parse_upload(Kind.LONG_TERM, data)
    assert errors == [] and [line.comment for line in lines] == ["caf\u00e9 '=1+1", "-5% drop"]


@pytest.mark.parametrize("data,text", [
    (b"", r.FILE_EMPTY), (b"\r\n , \r\n", r.FILE_EMPTY), (b"code,action\n", r.FILE_EMPTY),
    (b"code,comment\nBHP,x\n", "The header row must name the columns code, action, comment (missing: action)"),
    (b"PK\x03\x04garbage", r.FILE_UNREADABLE), (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", r.LEGACY_EXCEL),
    (b"code,action\nBHP,buy\x00\n", r.FILE_UNREADABLE),
    (b"code,action\n" + b"BHP,buy\n" * (r.MAX_LINES + 1), "The file has more than 10000 lines"),
])
def test_file_problems(data, text):
    with pytest.raises(FileProblem) as err:
        r.parse_upload(Kind.LONG_TERM, data)
    assert str(err.value) == text


def test_describe_errors_orders_and_caps():
    errors = [LineError(9, "b"), LineError(2, "a"), LineError(9, "a"), LineError(2, "a")]
    assert r.describe_errors(errors) == "Line 2: a; Line 9: b; Line 9: a"
    many = [LineError(n, "x") for n in range(2, 62)]
    text = r.describe_errors(many)
    assert text.endswith("Line 51: x; and 10 more") and text.count("Line ") == 50


# ---- fuzz ----------------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(list(Kind)), data=st.binary(max_size=400))
def test_fuzz_any_bytes(kind, data):
    try:
        lines, errors = r.parse_upload(kind, data)
    except FileProblem as problem:
        assert str(problem)
        return
    for line in lines:
        assert line.code and line.code == line.code.upper() and line.action in kind.actions
    assert all(isinstance(e, LineError) and e.line >= 2 for e in errors)


_cell = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=15)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(list(Kind)), rows=st.lists(st.lists(_cell, max_size=6), max_size=8),
       header=st.permutations(["code", "action", "comment", "price", "yield", "other"]))
def test_fuzz_text_tables(kind, rows, header):
    data = f.csv_bytes(rows, header)
    try:
        lines, errors = r.parse_upload(kind, data)
    except FileProblem as problem:
        assert str(problem)
        return
    assert len({line.code for line in lines}) == len(lines)  # a code is applied once
    assert {line.line for line in lines}.isdisjoint({e.line for e in errors})  # a bad line is never applied


_good_code = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=6)
_comment = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(_good_code, st.sampled_from(r.SHORT_TERM_ACTIONS), _comment,
                               st.decimals(min_value=Decimal("0.000001"), max_value=Decimal("99999999"), places=6),
                               st.decimals(min_value=0, max_value=Decimal("9999"), places=4)),
                     unique_by=lambda row: row[0], max_size=10))
def test_fuzz_export_then_parse_round_trip(rows):
    """What the download writes, the upload reads back unchanged."""
    from datetime import datetime, timezone

    data = export.build(Kind.SHORT_TERM, [
        {"code": code, "name": "N", "action": action, "comment": comment, "price": format(price, "f"),
         "yield": format(yld, "f"), "updated_at": datetime(2025, 1, 2, tzinfo=timezone.utc)}
        for code, action, comment, price, yld in rows], offset_minutes=-600)
    if not rows:
        with pytest.raises(FileProblem):
            r.parse_upload(Kind.SHORT_TERM, data)
        return
    lines, errors = r.parse_upload(Kind.SHORT_TERM, data)
    assert errors == []
    assert [(l.code, l.action, l.comment, l.price, l.yield_) for l in lines] == [
        (code, action, comment.strip() or None, price, yld) for code, action, comment, price, yld in rows]


# ---- export helpers ------------------------------------------------------------------------------
def test_export_helpers():
    from datetime import datetime, timezone

    from app.domain.timezones import client_offset

    now = datetime(2025, 6, 30, 15, 30, tzinfo=timezone.utc)
    assert client_offset("-600") == -600 and client_offset("x") == 0 and client_offset("9999") == 0
    assert export.filename(Kind.LONG_TERM, 'Growth/Income "A"', now, -600) == "Growth Income A - Long Term Recommendations - 01-07-2025.csv"
    assert export.filename(Kind.SHORT_TERM, "M", now, 0).endswith("Short Term Recommendations - 30-06-2025.csv")
    header = export.content_disposition("Café – model.csv")
    assert header.startswith('attachment; filename="Caf_ _ model.csv"; filename*=UTF-8\'\'Caf%C3%A9%20%E2%80%93%20model.csv')
    assert r.formula_guard("=SUM(A1)") == "'=SUM(A1)" and r.formula_guard("ok") == "ok" and r.formula_guard(None) == ""


@pytest.mark.parametrize("text", ["'@", "@x", "'x", "x", "", "''=a", "=1", "'", "-5", "'+"])
def test_formula_guard_round_trips(text):
    from app.domain.recommendations import _strip_formula_guard, formula_guard

    assert _strip_formula_guard(formula_guard(text)) == text
