"""Pending trades on the holdings read model: approved trade recommendations not executed yet,
'Placed' while a broker order (an asset transaction in processing) carries them out, with the
order's quantity; figures worked by hand from rows written directly, then the whole chain (approve,
place with a broker file, execute) through the services."""
from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal as D
from types import SimpleNamespace

import pytest

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, Firm, Portfolio, TradeTransaction
from app.domain.errors import NotFound
from app.domain.wire import rendered
from app.services import holdings, orders, trade_file
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from tests.factories import actor, update_row
from tests.factories_advice import make_trade, make_trade_instruction
from tests.factories_assets import make_asset, make_class
from tests.factories_models import count_queries, make_model, make_universe
from tests.factories_portfolios import cash, make_broker, make_portfolio_world, post
from tests.factories_recommendations import make_short_term


def _holdings(*, actor, portfolio_id, limit=None, offset=0):
    """The holdings result as the API renders it (a page of shares when a limit is given)."""
    shares_page = None if limit is None else holdings.page_bounds(limit, offset)
    return rendered(holdings.get_holdings(actor=actor, portfolio_id=portfolio_id, shares_page=shares_page))


def _order(portfolio, asset, trade_id: int, quantity: str, status: str = "processing") -> int:
    kind = "asset_buy" if _action(trade_id) == "increase" else "parcel"
    row = post(portfolio, kind, status=status, asset_id=asset.id, quantity=quantity, price=asset.last_close_price,
               fee="19.95")
    update_row(AssetTransaction, row.id, trade_transaction_id=trade_id)
    return row.id


def _action(trade_id: int) -> str:
    with session_scope() as s:
        return s.get(TradeTransaction, trade_id).action


@pytest.fixture
def book(db):
    """Smith Family holds 100 BHP; its approved trades:
    - BUY 120 CBA, not placed                          -> Approved, 120
    - SELL 40 BHP, placed for 40                       -> Placed, 40
    - BUY 50 WES, placed for 45 (the trade file's quantity) -> Placed, 45
    - BUY 10 CSL, its order rejected by the broker     -> Approved, 10
    and trades that are not pending: an executed BUY of NAB, a declined BUY of RIO, a BUY of TLS
    still pending approval, and an approved BUY in another portfolio."""
    w = make_portfolio_world()
    equities = make_class("Australian Equities")
    a = {code: make_asset(code, equities, name=code, last_close_price=D(price)) for code, price in
         (("BHP", "45.10"), ("CBA", "120.00"), ("WES", "60.00"), ("CSL", "280.00"), ("NAB", "35.00"),
          ("RIO", "118.00"), ("TLS", "4.00"))}
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=a["BHP"].id, quantity=100, price="30.00", fee="10.00")
    ti = make_trade_instruction(w.portfolio.id, validated=True).id
    ids = SimpleNamespace(
        cba=make_trade(ti, a["CBA"], "increase", "120").id,
        bhp=make_trade(ti, a["BHP"], "decrease", "40").id,
        wes=make_trade(ti, a["WES"], "increase", "50").id,
        csl=make_trade(ti, a["CSL"], "increase", "10").id,
        nab=make_trade(ti, a["NAB"], "increase", "30", status="executed").id,
        rio=make_trade(ti, a["RIO"], "increase", "5", status="declined").id,
        tls=make_trade(ti, a["TLS"], "increase", "500", status="pending_approval").id,
    )
    ids.bhp_order = _order(w.portfolio, a["BHP"], ids.bhp, "40")
    ids.wes_order = _order(w.portfolio, a["WES"], ids.wes, "45")
    _order(w.portfolio, a["CSL"], ids.csl, "10", status="processing_error")
    _order(w.portfolio, a["NAB"], ids.nab, "30", status="executed")
    other_ti = make_trade_instruction(w.other_portfolio.id, validated=True).id
    make_trade(other_ti, a["CBA"], "increase", "7")
    return SimpleNamespace(w=w, a=a, ti=ti, ids=ids)


def test_pending_trades_by_hand(book):
    h = holdings.load(actor=actor(book.w.adviser), portfolio_id=book.w.portfolio.id)
    got = [(p.code, p.side, p.units, p.status) for p in h.pending_trades]
    assert got == [
        ("BHP", "SELL", D("40"), "Placed"),
        ("CBA", "BUY", D("120"), "Approved"),
        ("CSL", "BUY", D("10"), "Approved"),
        ("WES", "BUY", D("45"), "Placed"),
    ]
    by_code = {p.code: p for p in h.pending_trades}
    assert by_code["BHP"].order_id == book.ids.bhp_order and by_code["WES"].order_id == book.ids.wes_order
    assert by_code["CBA"].order_id is None and by_code["CSL"].order_id is None
    assert by_code["CBA"].trade_id == book.ids.cba and by_code["CBA"].asset_id == book.a["CBA"].id
    # pending trades move nothing: the shares are the executed ones (BHP 100; the executed NAB order 30)
    assert {s.code: s.quantity for s in h.shares} == {"BHP": D("100"), "NAB": D("30")}


def test_pending_trades_in_the_holdings_json(book):
    result = _holdings(actor=actor(book.w.adviser), portfolio_id=book.w.portfolio.id, limit=12)
    assert result["pending_trades"] == [
        {"id": book.ids.bhp, "asset_id": book.a["BHP"].id, "code": "BHP", "side": "SELL", "units": "40",
         "status": "Placed", "order_id": book.ids.bhp_order, "price_text": "Market"},
        {"id": book.ids.cba, "asset_id": book.a["CBA"].id, "code": "CBA", "side": "BUY", "units": "120",
         "status": "Approved", "order_id": None, "price_text": "Market"},
        {"id": book.ids.csl, "asset_id": book.a["CSL"].id, "code": "CSL", "side": "BUY", "units": "10",
         "status": "Approved", "order_id": None, "price_text": "Market"},
        {"id": book.ids.wes, "asset_id": book.a["WES"].id, "code": "WES", "side": "BUY", "units": "45",
         "status": "Placed", "order_id": book.ids.wes_order, "price_text": "Market"},
    ]
    # the holder reads the same; another firm's adviser does not read the portfolio at all
    mine = _holdings(actor=actor(book.w.client), portfolio_id=book.w.portfolio.id)
    assert [p["code"] for p in mine["pending_trades"]] == ["BHP", "CBA", "CSL", "WES"]
    with pytest.raises(NotFound):
        _holdings(actor=actor(book.w.other_adviser), portfolio_id=book.w.portfolio.id)
    other = _holdings(actor=actor(book.w.other_adviser), portfolio_id=book.w.other_portfolio.id)
    assert [(p["code"], p["units"], p["status"]) for p in other["pending_trades"]] == [("CBA", "7", "Approved")]


def test_pending_trades_take_a_bounded_number_of_queries(book):
    def queries() -> int:
        with count_queries() as statements:
            holdings.load(actor=actor(book.w.adviser), portfolio_id=book.w.portfolio.id)
        return len(statements)

    before = queries()
    for n in range(12):  # twelve more approved trades, half of them placed
        trade_id = make_trade(book.ti, book.a["TLS"], "increase", str(100 + n)).id
        if n % 2:
            _order(book.w.portfolio, book.a["TLS"], trade_id, str(100 + n))
    assert queries() == before
    h = holdings.load(actor=actor(book.w.adviser), portfolio_id=book.w.portfolio.id)
    assert len(h.pending_trades) == 4 + 12
    assert sum(1 for p in h.pending_trades if p.code == "TLS" and p.status == "Placed") == 6


def test_pending_trades_follow_the_orders_from_approval_to_execution(db):
    """Approved -> Placed (a Desktop Broker file) -> gone once the execution file is uploaded."""
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    make_short_term(SimpleNamespace(id=model["id"]), u.stocks[1], "BUY")
    update_row(Portfolio, w.portfolio.id, model_id=model["id"], inactive=False, broker_account="DB-778812",
               broker_id=make_broker(name="Desktop Broker", code="DTBRK").id)
    update_row(Firm, w.firm.id, ausiex_code="AX-HARB")
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    tis.confirm(actor=actor(w.client), ti_id=ti["id"], is_approve_all=True)

    def pending() -> list[tuple[str, str, D, str]]:
        h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
        return [(p.code, p.side, p.units, p.status) for p in h.pending_trades]

    rows = [r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden]
    assert rows and {(c, st) for c, _, _, st in pending()} >= {(r.asset_code, "Approved") for r in rows}
    trade_file.export(actor=actor(w.adviser), kind="desktop_broker",
                      lines=trade_file.read_export_lines([{"id": r.recommendation_id, "quantity": str(r.quantity)} for r in rows]))
    placed = {(code, side, units) for code, side, units, st in pending() if st == "Placed"}
    assert placed == {(r.asset_code, r.action, r.quantity) for r in rows}

    live, _ = orders.list_orders(actor=actor(w.adviser))
    lines = [["code", "side", "quantity", "price", "brokerage", "trade_date", "settlement_date", "account"]]
    lines += [[o.asset_code, o.side, f"{o.quantity.normalize():f}", f"{o.price:.2f}", "19.95",
               f"{date.today():%d/%m/%Y}", "", "DB-778812"] for o in live]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(lines)
    orders.upload_confirmations(actor=actor(w.adviser), content_type="text/csv", data=buffer.getvalue().encode())
    assert [p for p in pending() if p[3] == "Placed"] == []
    assert {c for c, *_ in pending()}.isdisjoint({r.asset_code for r in rows})
