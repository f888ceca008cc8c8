"""The trade file report, broker files, placing and executing orders: from approved trades to the
broker and back, against a real database."""
from __future__ import annotations

import csv
import io
import json
from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from openpyxl import load_workbook
from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, Firm, Portfolio, TradeTransaction
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.parsing import firm_choice
from app.services import holdings, orders, trade_file
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from tests.factories import actor, update_row
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_broker, make_portfolio_world, post
from tests.factories_recommendations import make_short_term


@pytest.fixture
def chain(db):
    """A portfolio with approved trade recommendations (a buy of CBA and VAF with its cash)."""
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    make_short_term(SimpleNamespace(id=model["id"]), u.stocks[1], "BUY")
    desktop = make_broker(name="Desktop Broker", code="DTBRK")
    update_row(Portfolio, w.portfolio.id, model_id=model["id"], inactive=False, hin="X0001234567", broker_account="DB-778812",
               broker_id=desktop.id)
    update_row(Firm, w.firm.id, ausiex_code="AX-HARB")
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    tis.confirm(actor=actor(w.client), ti_id=ti["id"], is_approve_all=True)
    return SimpleNamespace(w=w, u=u, ti=ti)


def test_trade_file_lists_approved_trades_with_the_file_rules(chain):
    report = trade_file.generate(actor=actor(chain.w.adviser))
    assert report.rows, "approved trades are in the file"
    for row in report.rows:
        assert row.type == "New" and row.status == "Approved" and row.selected
        assert row.investment_name == "Smith Family" and row.hin == "X0001234567"
    # market buys: units = floor((amount - brokerage) / last close)
    #   BHP 25,605.00 / 45.00 = 569; CBA 30,120.00 / 120.00 = 251; VAF 35,144.00 / 46.00 = 764
    assert sorted((r.asset_code, r.pending_amount, r.brokerage, r.last_close_price, r.quantity) for r in report.rows
                  if r.action == "BUY" and r.transaction_type == "market" and not r.hidden) == [
        ("BHP", Decimal("25605.00"), Decimal("0.00"), Decimal("45"), Decimal("569")),
        ("CBA", Decimal("30120.00"), Decimal("0.00"), Decimal("120"), Decimal("251")),
        ("VAF", Decimal("35144.00"), Decimal("0.00"), Decimal("46"), Decimal("764")),
    ]
    [summary] = report.cash
    # cash: 100,000.00 - (100 x 40.00 + 10.00) = 95,990.00; buys: 25,605.00 + 30,120.00 + 35,144.00 = 90,869.00
    assert summary.sumCashAssets == Decimal("95990.00")
    assert summary.sumAmountBuyForPortfolio == Decimal("90869.00")


def test_tenancy_and_roles(chain):
    w = chain.w
    assert trade_file.generate(actor=actor(w.other_adviser)).rows == []
    with pytest.raises(NotFound):
        trade_file.generate(actor=actor(w.other_adviser), firm_id=w.firm.id)
    with pytest.raises(PermissionDenied):
        trade_file.generate(actor=actor(w.client))
    assert trade_file.generate(actor=actor(w.superuser), firm_id=firm_choice("-2")).rows
    assert trade_file.generate(actor=actor(w.superuser), firm_id=w.other_firm.id).rows == []
    row = trade_file.generate(actor=actor(w.adviser)).rows[0]
    with pytest.raises(NotFound):
        trade_file.export(actor=actor(w.other_adviser), kind="desktop_broker",
                          lines=trade_file.read_export_lines([{"id": row.recommendation_id}]))


def test_export_places_once_and_execution_moves_holdings(chain):
    w = chain.w
    rows = [r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden]
    expiry = (date.today() + timedelta(days=3)).isoformat()
    body = [{"id": r.recommendation_id, "quantity": str(r.quantity), "price": None, "amount": str(r.amount),
             "expirationDate": expiry} for r in rows]
    out = trade_file.export(actor=actor(w.adviser), kind="desktop_broker", lines=trade_file.read_export_lines(body))
    assert out.placed == len(rows) and out.name.endswith(".csv")
    lines = list(csv.reader(io.StringIO(out.data.decode())))
    assert lines[0] == ["Account Number", "Buy/Sell", "Security Code", "Quantity", "Order Type", "Limit Price",
                        "Expiry Date", "Reference"]
    assert {tuple(line[:4]) for line in lines[1:]} == {("DB-778812", "B" if r.action == "BUY" else "S", r.asset_code,
                                                        f"{r.quantity.normalize():f}") for r in rows}
    assert all(line[6] == (date.today() + timedelta(days=3)).strftime("%d/%m/%Y") for line in lines[1:])

    # placed: shown as Maintain / Placed, not selected, and a second export has nothing new
    again = trade_file.generate(actor=actor(w.adviser)).rows
    assert {(r.type, r.status, r.selected) for r in again} == {("Maintain", "Placed", False)}
    with pytest.raises(ValidationError) as err:
        trade_file.export(actor=actor(w.adviser), kind="desktop_broker", lines=trade_file.read_export_lines(body))
    assert "no trades to export" in err.value.message
    with session_scope() as s:
        placed = len(s.exec(select(AssetTransaction).where(AssetTransaction.trade_transaction_id.is_not(None))).all())
    assert placed == len(rows)
    # downloadAll writes the live orders again in the firm's trade file, as Maintain, without placing
    # them twice; a broker's file never sends them again (the broker holds them), and says so
    again_all = trade_file.export(actor=actor(w.adviser), kind="trade_file", lines=trade_file.read_export_lines([]), download_all=True)
    assert again_all.placed == 0 and again_all.rows == len(rows)
    sheet = load_workbook(io.BytesIO(again_all.data)).active
    assert {row[11] for row in sheet.iter_rows(min_row=2, values_only=True)} == {"Maintain"}
    with pytest.raises(ValidationError) as err:
        trade_file.export(actor=actor(w.adviser), kind="desktop_broker", lines=trade_file.read_export_lines([]), download_all=True)
    assert f"{len(rows)} orders already with the broker were not sent again" in err.value.message

    # the broker's execution file: a wrong line writes nothing and is named
    live, total = orders.list_orders(actor=actor(w.adviser))
    assert total == len(rows) and {o.status_label for o in live} == {"Placed"}
    header = "code,side,quantity,price,brokerage,trade_date,settlement_date,account\n"
    good = [f"{o.asset_code},{o.side},{o.quantity.normalize():f},{o.price:.3f},19.95,{date.today():%d/%m/%Y},"
            f"{date.today() + timedelta(days=2):%d/%m/%Y},DB-778812" for o in live]
    bad = good + [f"ZZZ,BUY,10,1.00,0,{date.today():%d/%m/%Y},,DB-778812"]
    before = holdings_units(w)
    with pytest.raises(ValidationError) as err:
        orders.upload_confirmations(actor=actor(w.adviser), content_type="text/csv",
                                    data=(header + "\n".join(bad)).encode())
    assert f"line(s): {len(bad) + 1}" in err.value.message and "ZZZ" in err.value.message
    assert holdings_units(w) == before
    done = orders.upload_confirmations(actor=actor(w.adviser), content_type="text/csv",
                                       data=(header + "\n".join(good)).encode())
    assert done.count == len(rows)
    after = holdings_units(w)
    for o in live:
        assert after.get(o.asset_code, 0) - before.get(o.asset_code, 0) == (o.quantity if o.side == "BUY" else -o.quantity)
    with session_scope() as s:
        assert {t.status for t in s.exec(select(TradeTransaction).where(
            col(TradeTransaction.id).in_([r.recommendation_id for r in rows]))).all()} == {"executed"}
    assert trade_file.generate(actor=actor(w.adviser)).rows == []  # nothing pending any more


def holdings_units(w) -> dict[str, Decimal]:
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    return {line.code: line.quantity for line in h.shares}


def test_reject_returns_the_trade_to_the_file(chain):
    w = chain.w
    rows = [r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden]
    trade_file.export(actor=actor(w.adviser), kind="trade_file",
                      lines=trade_file.read_export_lines([{"id": rows[0].recommendation_id, "quantity": str(rows[0].quantity)}]))
    [order], _ = orders.list_orders(actor=actor(w.adviser))
    out = orders.reject(actor=actor(w.adviser), order_id=order.id, reason="Insufficient funds at broker")
    assert out.status_label == "Error"
    first = [r for r in trade_file.generate(actor=actor(w.adviser)).rows if r.recommendation_id == rows[0].recommendation_id]
    assert first[0].type == "New" and first[0].status == "Approved"
    with pytest.raises(Conflict) as closed:  # a rejected order takes no fill: 409
        orders.execute(actor=actor(w.adviser), order_id=order.id, execution=orders.read_execution(price="1.00"))
    assert closed.value.message == "The order is rejected by the broker: it can no longer be executed"
    with pytest.raises(NotFound):
        orders.reject(actor=actor(w.other_adviser), order_id=order.id)


def test_trade_file_excel_keeps_text_as_text(chain):
    w = chain.w
    update_row(Portfolio, w.portfolio.id, name="=HYPERLINK(\"x\")")
    rows = [r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden]
    out = trade_file.export(actor=actor(w.adviser), kind="trade_file",
                            lines=trade_file.read_export_lines([{"id": r.recommendation_id} for r in rows]))
    ws = load_workbook(io.BytesIO(out.data)).active
    assert [c.value for c in ws[1]][:6] == ["Portfolio", "HIN", "Broker Account", "Broker", "Side", "Code"]
    assert ws.cell(row=2, column=1).value == "=HYPERLINK(\"x\")" and ws.cell(row=2, column=1).data_type == "s"


def test_expiry_before_today_is_refused(chain):
    w = chain.w
    row = trade_file.generate(actor=actor(w.adviser)).rows[0]
    with pytest.raises(ValidationError) as err:
        trade_file.export(actor=actor(w.adviser), kind="trade_file",
                          lines=trade_file.read_export_lines([{"id": row.recommendation_id, "expirationDate": (date.today() - timedelta(days=1)).isoformat()}]))
    assert err.value.message == "earlier_than_today"
    with session_scope() as s:
        assert s.exec(select(AssetTransaction).where(AssetTransaction.trade_transaction_id.is_not(None))).all() == []


def test_placed_row_shows_the_order_as_sent(chain):
    """After an export with the user's limit price and expiry, the row shows that order (its
    price, Limit, the gap to the last close), not the recommendation it came from."""
    w = chain.w
    row = next(r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden)
    assert row.limit_price is None and row.transaction_type == "market"
    expiry = date.today() + timedelta(days=3)
    price = (row.last_close_price * Decimal("1.02")).quantize(Decimal("0.001"))
    trade_file.export(actor=actor(w.adviser), kind="trade_file",
                      lines=trade_file.read_export_lines([{"id": row.recommendation_id, "price": str(price), "expirationDate": expiry.isoformat()}]))
    placed = next(r for r in trade_file.generate(actor=actor(w.adviser)).rows
                  if r.recommendation_id == row.recommendation_id)
    assert placed.status == "Placed" and placed.placed_transaction_id is not None
    assert placed.limit_price == price and placed.transaction_type == "limit"
    assert placed.limit_vs_price_percentage == Decimal("2.00")
    assert placed.expiry == expiry


def test_a_placed_row_reads_its_units_as_whole_units(chain):
    """The order's units are stored with six places; the row (and so the REST payload) says 130,
    never 130.000000."""
    w = chain.w
    row = next(r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden)
    trade_file.export(actor=actor(w.adviser), kind="trade_file",
                      lines=trade_file.read_export_lines([{"id": row.recommendation_id}]))
    placed = next(r for r in trade_file.generate(actor=actor(w.adviser)).rows
                  if r.recommendation_id == row.recommendation_id)
    assert placed.status == "Placed" and placed.quantity == row.quantity
    assert str(placed.quantity) == str(int(row.quantity))


@pytest.mark.parametrize("ids_in_query", [1_000, 0])
def test_export_places_only_the_chosen_rows(chain, monkeypatch, ids_in_query):
    """The chosen ids filter the firm's file in the query, or after reading it when a selection
    is too long for one statement: either way only they are placed."""
    monkeypatch.setattr(trade_file, "IDS_IN_QUERY", ids_in_query)
    w = chain.w
    rows = [r for r in trade_file.generate(actor=actor(w.adviser)).rows if not r.hidden]
    assert len(rows) >= 2
    out = trade_file.export(actor=actor(w.adviser), kind="trade_file", lines=trade_file.read_export_lines([{"id": rows[0].recommendation_id}]))
    assert (out.placed, out.rows) == (1, 1)
    with session_scope() as s:
        placed = s.exec(select(AssetTransaction.trade_transaction_id)
                        .where(AssetTransaction.trade_transaction_id.is_not(None))).all()
    assert placed == [rows[0].recommendation_id]


def test_long_id_lists_read_the_same(chain, monkeypatch):
    """Ids sent as one array parameter (PostgreSQL, long lists) read what an IN list reads."""
    from app.db import bulk

    w = chain.w
    short = trade_file.generate(actor=actor(w.adviser))
    monkeypatch.setattr(bulk, "SHORT_ID_LIST", 0)
    long = trade_file.generate(actor=actor(w.adviser))
    assert long.rows == short.rows and long.cash == short.cash and long.rows
    out = trade_file.export(actor=actor(w.adviser), kind="trade_file",
                            lines=trade_file.read_export_lines([{"id": r.recommendation_id} for r in long.rows if not r.hidden]))
    assert out.placed == len([r for r in long.rows if not r.hidden])


def test_the_report_says_which_expiry_an_order_gets_by_default(chain):
    """The firm's default life of an order (30 days unless it sets another; none when it keeps
    orders good till cancelled), for the rows the report shows before they are placed."""
    from app.db.types import utcnow
    firm_id = chain.w.firm.id
    today = utcnow().date()
    assert trade_file.generate(actor=actor(chain.w.adviser)).default_expiry == {firm_id: today + timedelta(days=30)}
    update_row(Firm, firm_id, order_expiry_days=5)
    assert trade_file.generate(actor=actor(chain.w.adviser)).default_expiry == {firm_id: today + timedelta(days=5)}
    update_row(Firm, firm_id, order_good_till_cancelled=True)
    assert trade_file.generate(actor=actor(chain.w.adviser)).default_expiry == {firm_id: None}
