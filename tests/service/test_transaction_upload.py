"""Transaction upload (app.services.transaction_upload) on a real database: CSV and .xlsx files,
all lines or none, the line numbers of the failure, sells checked in file order."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal as D

import pytest
from sqlmodel import func, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, CashTransaction, Portfolio
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.domain.parsing import as_id
from app.domain.wire import rendered
from app.services import postings
from app.services.transaction_upload import upload_transactions
from tests import factories as f
from tests.factories import CSV, XLSX, csv_bytes, xlsx_bytes
from tests.factories_assets import make_asset
from tests.factories_portfolios import TRANSACTION_HEADER as HEADER, make_portfolio_world, post

@pytest.fixture
def w(db):
    return make_portfolio_world()


@pytest.fixture
def assets(db):
    return make_asset("BHP", last_close_price=D("50")), make_asset("CBA", last_close_price=D("100"))


def counts(pid: int) -> tuple[int, int]:
    with session_scope() as s:
        return (s.exec(select(func.count()).select_from(AssetTransaction).where(AssetTransaction.investment_id == pid)).one(),
                s.exec(select(func.count()).select_from(CashTransaction).where(CashTransaction.investment_id == pid)).one())


def book(pid: int) -> postings.Book:
    with session_scope() as s:
        return postings.book(s, s.get(Portfolio, pid))


def upload(w, data, content_type=CSV, user=None):
    return rendered(upload_transactions(actor=f.actor(user or w.adviser), investment_id=w.portfolio.id,
                                        content_type=content_type, data=data))


def refused(call) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value


GOOD = [
    ("01/01/2026", "credit", "", "", "", "", "10000", "", "", "opening cash"),
    ("05/01/2026", "purchase", "bhp", "100", "30", "9.95", "", "", "", ""),
    ("06/01/2026", "buy", "CBA", "10", "$1,000.00", "", "", "", "", ""),
    ("05/02/2026", "sell", "BHP", "60", "35", "9.95", "", "", "", ""),
    ("10/03/2026", "dividend", "BHP", "", "", "", "28.00", "12.00", "", ""),
    ("11/03/2026", "interest", "CBA", "", "", "", "1.50", "", "", ""),
    ("12/03/2026", "capital return", "BHP", "", "0.10", "", "", "", "", ""),
    ("13/03/2026", "reconstruction", "CBA", "", "", "", "", "", "2:1", ""),
    ("14/03/2026", "withdrawal", "", "", "", "", "500", "", "", "fees"),
    ("15/03/2026", "income", "", "", "", "", "20", "", "", ""),
]


@pytest.mark.parametrize("maker, content_type", [(csv_bytes, CSV), (xlsx_bytes, XLSX)])
def test_a_good_file_adds_every_line(w, assets, maker, content_type):
    bhp, cba = assets
    result = upload(w, maker(GOOD, HEADER), content_type)
    assert result == {"notice": "File uploaded", "count": 10, "asset_transactions": 7, "cash_transactions": 3}
    assert counts(w.portfolio.id) == (7, 9)  # the reconstruction moves no cash
    b = book(w.portfolio.id)
    assert b.positions[bhp.id].units == D(40) and b.positions[cba.id].units == D(20)
    expected = (D(10000) - D("3009.95") - D(10000) + D("2090.05") + D(28) + D("1.50") + D("4.00") - D(500) + D(20))
    assert b.cash_balance == expected


def test_an_xlsx_with_date_cells(w, assets):
    data = xlsx_bytes([(datetime(2026, 1, 5), "purchase", "BHP", 10, 30.5, None, None, None, None, None),
                       (date(2026, 1, 6), "sell", "BHP", 10, 31, None, None, None, None, None)], HEADER)
    assert upload(w, data, XLSX)["count"] == 2
    with session_scope() as s:
        days = sorted(r.trade_at.date() for r in s.exec(select(AssetTransaction)).all())
    assert days == [date(2026, 1, 5), date(2026, 1, 6)]


def test_one_bad_line_writes_nothing_and_names_every_bad_line(w, assets):
    rows = list(GOOD)
    rows[1] = ("05/01/2026", "purchase", "XYZ", "100", "30", "", "", "", "", "")         # line 3: unknown code
    rows[5] = ("11/03/2026", "interest", "CBA", "", "", "", "-1", "", "", "")            # line 7: negative amount
    rows[8] = ("14/03/2026", "transfer", "", "", "", "", "500", "", "", "")              # line 10: unknown type
    error = refused(lambda: upload(w, csv_bytes(rows, HEADER)))
    # line 5 sells BHP, which line 3 would have bought: it is refused too
    assert error.message == "Transactions are not uploaded due to line(s): 3, 5, 7, 10"
    assert error.fields == {"3": "code: unknown asset code XYZ", "5": "quantity: Not enough assets to sell",
                            "7": "amount: Please, enter positive value", "10": "type: unknown type transfer"}
    assert counts(w.portfolio.id) == (0, 0)


def test_sells_are_checked_in_file_order_with_what_is_held(w, assets):
    bhp, _ = assets
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=10, price="30", day="2026-01-02")
    rows = [
        ("05/01/2026", "sell", "BHP", "10", "31", "", "", "", "", ""),   # line 2: the 10 already held
        ("06/01/2026", "sell", "BHP", "1", "31", "", "", "", "", ""),    # line 3: nothing left
        ("07/01/2026", "buy", "BHP", "5", "31", "", "", "", "", ""),     # line 4
        ("08/01/2026", "sell", "BHP", "5", "31", "", "", "", "", ""),    # line 5: the 5 of line 4
        ("03/01/2026", "sell", "BHP", "1", "31", "", "", "", "", ""),    # line 6: dated before line 2's sell
        ("09/01/2026", "sell", "BHP", "1", "31", "", "", "", "", "", ),  # line 7
    ]
    error = refused(lambda: upload(w, csv_bytes(rows, HEADER)))
    assert error.message == "Transactions are not uploaded due to line(s): 3, 6, 7"
    assert set(error.fields.values()) == {"quantity: Not enough assets to sell"}
    assert counts(w.portfolio.id) == (1, 1)
    good = [rows[0], rows[2], rows[3]]
    assert upload(w, csv_bytes(good, HEADER))["count"] == 3
    assert book(w.portfolio.id).positions[bhp.id].units == 0


def test_statuses_in_the_file(w, assets):
    bhp, _ = assets
    header = HEADER + ("status",)
    rows = [("05/01/2026", "buy", "BHP", "10", "30", "", "", "", "", "", "pending"),
            ("06/01/2026", "sell", "BHP", "10", "30", "", "", "", "", "", "executed")]
    error = refused(lambda: upload(w, csv_bytes(rows, header)))  # a draft buy holds no units yet
    assert error.message == "Transactions are not uploaded due to line(s): 3"
    rows[1] = ("06/01/2026", "credit", "", "", "", "", "5", "", "", "", "bogus")
    assert refused(lambda: upload(w, csv_bytes(rows, header))).fields == {"3": "status: Please, enter a valid value."}
    rows[1] = ("06/01/2026", "credit", "", "", "", "", "5", "", "", "", "pending approval")
    assert upload(w, csv_bytes(rows, header))["count"] == 2
    with session_scope() as s:
        assert sorted(r.status for r in s.exec(select(CashTransaction)).all()) == ["pending", "pending_approval"]
    assert book(w.portfolio.id).positions == {}


@pytest.mark.parametrize("content_type, data, message", [
    ("image/png", b"date,type\n", "Invalid file type!"),
    (CSV, None, "Please, select file. "),
    (CSV, b"", "The file has no transactions"),
    (CSV, b"code,quantity\nBHP,1\n", "The header row must name the columns date, type, code, quantity, price, fee, "
                                     "gst, amount, franking_credits, ratio, description, status (missing: date, type)"),
    ("", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "Excel 97-2003 workbooks (.xls) cannot be read: save the file as .xlsx or CSV"),
    (CSV, b"x" * (5 * 1024 * 1024 + 1), "The file is too large: the limit is 5 MB"),
])
def test_file_problems(w, content_type, data, message):
    error = refused(lambda: upload(w, data, content_type))
    assert error.message == message and error.fields == {"file": message}


def test_permissions(w, assets):
    data = csv_bytes(GOOD[:1], HEADER)
    with pytest.raises(PermissionDenied):
        upload(w, data, user=w.client)  # a holder reads, never writes
    for outsider in (w.other_adviser,):
        with pytest.raises(NotFound, match="^Portfolio not found$"):
            upload(w, data, user=outsider)
    with pytest.raises(NotFound):
        upload_transactions(actor=f.actor(w.adviser), investment_id=as_id("nope"), content_type=CSV, data=data)
    # another firm's private asset is an unknown code here
    make_asset("OWN", firm=w.other_firm)
    error = refused(lambda: upload(w, csv_bytes([("05/01/2026", "buy", "OWN", "1", "1", "", "", "", "", "")], HEADER)))
    assert error.fields == {"2": "code: unknown asset code OWN"}
    assert upload(w, data, user=w.superuser)["count"] == 1
    assert upload(w, data, user=w.admin)["count"] == 1
    assert counts(w.portfolio.id) == (0, 2)
