"""Orders a firm could send with real money: one broker per file, stop losses as conditional
orders, placed orders never sent again as new, every order with an expiry, fills as brokers report
them (partial, several prices, duplicates), the expiry sweep, previews and the day's reconciliation.
Each file is read back as the broker's operations desk would read it."""
from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from decimal import Decimal as D
from types import SimpleNamespace

import pytest
from openpyxl import load_workbook
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, BrokerOrder, BrokerOrderFill, BrokerOrderVersion, CashTransaction, Firm
from app.db.tables import TradeTransaction
from app.domain.errors import Conflict, NotFound, ValidationError
from app.services import engine_inputs, holdings, orders, trade_file
from tests.factories import actor, update_row
from tests.factories_advice import make_trade, make_trade_instruction
from tests.factories_models import make_universe
from tests.factories_portfolios import cash, make_broker, make_portfolio, make_portfolio_world, post

TODAY = date.today()


def _csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode())))


def _sheet(data: bytes) -> list[dict[str, object]]:
    rows = list(load_workbook(io.BytesIO(data)).active.iter_rows(values_only=True))
    return [dict(zip(rows[0], r)) for r in rows[1:]]


@pytest.fixture
def book(db):
    """Three portfolios of one firm with approved trades: Watsons Bay at Desktop Broker (a limit buy
    of 1,103 CBA and a stop-loss sell of 500 BHP at $30.54), Paddington at CommSec (a market buy of
    100 CBA), Rose Bay with no broker (a buy of 10 VAF)."""
    w = make_portfolio_world()
    u = make_universe()
    desktop = make_broker(name="Desktop Broker", code="DTBRK")
    commsec = make_broker(name="CommSec", code="COMSC")
    make_broker(name="AUSIEX", code="AUSIEX")
    update_row(Firm, w.firm.id, ausiex_code="HWP001")
    bhp, cba, vaf = u.stocks[0], u.stocks[1], u.fixed[0]
    watsons = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name="Watsons Bay Super Fund",
                             broker_id=desktop.id, broker_account="7300001", hin="X4100000001")
    paddington = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name="Paddington Super Fund",
                                broker_id=commsec.id, broker_account="7300000", hin="X4100000000")
    rose_bay = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name="Rose Bay Family Trust")
    for p in (watsons, paddington, rose_bay):
        cash(p, "500000.00")
    post(watsons, "asset_buy", asset_id=bhp.id, quantity=2000, price="40.00", fee="10.00")
    ti = make_trade_instruction(watsons)
    # a buy's file quantity is floor((amount - brokerage) / price): the amounts carry the brokerage
    buy = make_trade(ti, cba, "increase", "1103", price="118.50", amount="130725.45", limit_price=D("118.50"))
    stop = make_trade(ti, bhp, "decrease", "500", price="33.20", limit_price=D("30.54"), stop_loss=True,
                      current_units=D("2000"))
    other = make_trade(make_trade_instruction(paddington), cba, "increase", "100", price="120.00", amount="12019.95")
    loose = make_trade(make_trade_instruction(rose_bay), vaf, "increase", "10", price="46.00", amount="479.95")
    return SimpleNamespace(w=w, u=u, watsons=watsons, paddington=paddington, rose_bay=rose_bay, buy=buy, stop=stop,
                           other=other, loose=loose, adviser=actor(w.adviser))


def _all(b) -> list[dict]:
    return [{"id": t.id} for t in (b.buy, b.stop, b.other, b.loose)]


def _open_orders() -> list[BrokerOrder]:
    with session_scope() as s:
        return list(s.exec(select(BrokerOrder).order_by(BrokerOrder.id)).all())


def test_a_brokers_file_holds_only_its_own_portfolios_and_says_what_it_left_out(book):
    out = trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines(_all(book)))
    lines = _csv(out.data)
    assert lines[0] == ["Account Number", "Buy/Sell", "Security Code", "Quantity", "Order Type", "Limit Price",
                        "Expiry Date", "Reference"]
    # the operations desk sees one order: Watsons Bay's limit buy; the stop loss is not a plain sell
    assert [line[:6] for line in lines[1:]] == [["7300001", "B", "CBA", "1103", "Limit", "118.5"]]
    assert out.placed == 1 and out.portfolios == 1 and out.broker == "Desktop Broker"
    assert out.left_out == [
        "1 order of 1 portfolio at CommSec was not written: it belongs to another broker's file",
        "1 order not written: no broker is set for Rose Bay Family Trust",
        "1 stop loss not written: Desktop Broker takes no conditional orders. Place it with the broker by hand: "
        "Sell 500 BHP in Watsons Bay Super Fund, stop loss at $30.54, then market",
    ]
    # what was left out stays to be placed
    rows = {r.recommendation_id: r for r in trade_file.generate(actor=book.adviser).rows}
    assert rows[book.buy.id].status == "Placed"
    assert {rows[t.id].status for t in (book.stop, book.other, book.loose)} == {"Approved"}


def test_stop_loss_goes_out_as_a_conditional_order(book):
    update_row(Firm, book.w.firm.id, stop_loss_limit_gap=D("2.00"))
    preview = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines(_all(book)), preview=True)
    sheet = {r["Code"]: r for r in _sheet(preview.data)}
    assert sheet["BHP"]["Order Type"] == "Stop Loss" and D(str(sheet["BHP"]["Trigger Price"])) == D("30.54")
    assert D(str(sheet["BHP"]["Limit Price"])) == D("29.929")  # triggered: sell no lower than 2% under the trigger
    assert sheet["CBA"]["Broker"] in ("Desktop Broker", "CommSec") and sheet["VAF"]["Broker"] is None
    assert preview.placed == 0 and "(preview, not placed)" in preview.name and _open_orders() == []

    update_row(Firm, book.w.firm.id, order_good_till_cancelled=True)
    # AUSIEX carries the stop loss as a stop-limit order (its portfolio moved to AUSIEX)
    with session_scope() as s:
        from app.db.tables import Broker, Portfolio
        ausiex = s.exec(select(Broker).where(Broker.name == "AUSIEX")).one()
        s.get(Portfolio, book.watsons.id).broker_id = ausiex.id
    out = trade_file.export(actor=book.adviser, kind="ausiex", lines=trade_file.read_export_lines([{"id": book.stop.id}]))
    header, line = _csv(out.data)
    row = dict(zip(header, line))
    assert row["Price Type"] == "STOPLMT" and row["Trigger Price"] == "30.54" and row["Limit Price"] == "29.929"
    assert row["Side"] == "SELL" and row["Good Till"] == "GTC" and row["Action"] == "NEW"
    assert row["Adviser Code"] == "HWP001" and row["Client Reference"].startswith("WA")
    [order] = _open_orders()
    assert (order.order_type, order.stop_price, order.limit_price) == ("stop_loss", D("30.54"), D("29.929"))
    [listed], _ = orders.list_orders(actor=book.adviser)
    assert listed.price_text == "Stop loss at $30.54, then limit $29.929" and listed.expiry_text == "GTC"


def test_every_order_has_an_expiry(book):
    trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": book.buy.id}]))
    [order] = _open_orders()
    assert order.expires_on == TODAY + timedelta(days=30)  # the product's default life
    update_row(Firm, book.w.firm.id, order_expiry_days=7)
    plan = trade_file.plan_export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": book.other.id}]))
    assert plan.default_expiry == TODAY + timedelta(days=7)
    assert plan.question == "Place 1 order for 1 portfolio?"
    chosen = (TODAY + timedelta(days=3)).isoformat()
    out = trade_file.export(actor=book.adviser, kind="trade_file",
                            lines=trade_file.read_export_lines([{"id": book.other.id, "expirationDate": chosen}]))
    assert _sheet(out.data)[0]["Expiry"] == (TODAY + timedelta(days=3)).strftime("%d/%m/%Y")


def test_placed_orders_are_never_sent_again_as_new(book):
    trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": book.buy.id}]))
    plan = trade_file.plan_export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([]), download_all=True)
    assert (plan.orders, plan.to_place) == (0, 0)
    with pytest.raises(ValidationError) as err:
        trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([]), download_all=True)
    assert "1 order already with the broker was not sent again" in err.value.message
    again = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([]), download_all=True)
    assert [(r["Code"], r["Type"]) for r in _sheet(again.data)] == [("CBA", "Maintain")]
    assert again.placed == 0 and len(_open_orders()) == 1


def _place_buy(book) -> BrokerOrder:
    trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": book.buy.id}]))
    [order] = _open_orders()
    return order


def _units(book, code: str) -> D:
    h = holdings.load(actor=book.adviser, portfolio_id=book.watsons.id)
    return next((line.quantity for line in h.shares if line.code == code), D(0))


def _fills(*lines: str) -> bytes:
    return ("code,side,quantity,price,brokerage,trade_date,settlement_date,account,reference,fill id\n"
            + "\n".join(lines)).encode()


def test_partial_fills_add_up_to_an_average_price(book):
    order = _place_buy(book)
    day = TODAY.strftime("%d/%m/%Y")
    first = orders.upload_confirmations(actor=book.adviser, content_type="text/csv", data=_fills(
        f"CBA,BUY,400,118.40,9.95,{day},,7300001,{order.reference},F-1"))
    assert (first.count, first.fills) == (1, 1)
    [row], _ = orders.list_orders(actor=book.adviser, status="partly_filled")
    assert (row.filled_quantity, row.remaining_quantity, row.status_label) == (D(400), D(703), "Partly filled")
    assert _units(book, "CBA") == 400
    with session_scope() as s:  # the 703 still placed are what the order commits
        open_tx = s.get(AssetTransaction, order.open_transaction_id)
        assert (open_tx.status, open_tx.quantity) == ("processing", D(703))
    # the next calculation counts only the units still placed
    with session_scope() as s:
        inputs = engine_inputs.load_portfolios(s, [book.watsons.id])[book.watsons.id]
    [pending] = [engine_inputs._pending_trade(t, inputs.filled.get(t.id)) for t in inputs.pending
                 if t.id == book.buy.id]
    assert pending.units == 703

    # the rest in two fills at other prices; the same file again executes nothing
    rest = _fills(f"CBA,BUY,300,118.50,9.95,{day},,7300001,{order.reference},F-2",
                  f"CBA,BUY,403,118.45,9.95,{day},,7300001,{order.reference},F-3")
    done = orders.upload_confirmations(actor=book.adviser, content_type="text/csv", data=rest)
    assert (done.count, done.fills, done.skipped) == (1, 2, 0)
    twice = orders.upload_confirmations(actor=book.adviser, content_type="text/csv", data=rest)
    assert (twice.fills, twice.skipped) == (0, 2) and "2 fills were already recorded" in twice.notice
    [row], _ = orders.list_orders(actor=book.adviser, status="executed")
    # (400 x 118.40 + 300 x 118.50 + 403 x 118.45) / 1,103 = 130,645.35 / 1,103 = 118.445467
    assert row.price == D("118.445467") and row.fills == 3 and row.fee == D("29.85")
    assert _units(book, "CBA") == 1103
    with session_scope() as s:
        assert s.get(TradeTransaction, book.buy.id).status == "executed"
    with pytest.raises(Conflict) as err:
        orders.execute(actor=book.adviser, order_id=order.id, execution=orders.read_execution(price="118"))
    assert err.value.message == "The order is executed: it can no longer be executed"


def test_a_wrong_fill_file_writes_nothing_and_names_each_line(book):
    order = _place_buy(book)
    day = TODAY.strftime("%d/%m/%Y")
    bad = _fills(f"CBA,BUY,400,118.40,9.95,{day},,7300001,{order.reference},F-1",
                 f"CBA,BUY,2000,118.40,9.95,{day},,7300001,{order.reference},F-2",
                 f"ZZZ,BUY,1,1.00,0,{day},,7300001,,F-3",
                 f"CBA,BUY,1,1.00,0,{day},,9999999,,F-4",
                 f"CBA,BUY,1,-1.00,0,{day},,7300001,,F-5",
                 f"CBA,BUY,1,1.00,0,31/02/2026,,7300001,,F-6")
    with pytest.raises(ValidationError) as err:
        orders.upload_confirmations(actor=book.adviser, content_type="text/csv", data=bad)
    message = err.value.message
    assert message.startswith("Executed trades are not uploaded due to line(s): 3, 4, 5, 6, 7")
    assert "quantity 2000 is more than the order's units not yet executed (703)" in message
    assert "no placed order for BUY ZZZ" in message and "in account 9999999" in message
    assert "price: -1.00 is not a price" in message and "31/02/2026 is not a date" in message
    with session_scope() as s:
        assert s.exec(select(BrokerOrderFill)).all() == []
    assert _units(book, "CBA") == 0
    # another firm's adviser cannot reach the order
    with pytest.raises(NotFound):
        orders.execute(actor=actor(book.w.other_adviser), order_id=order.id, execution=orders.read_execution(price="1"))


def test_manual_partial_execution_and_cancel(book):
    order = _place_buy(book)
    out = orders.execute(actor=book.adviser, order_id=order.id, execution=orders.read_execution(price="118.40", quantity="400", contract_note="CN-1"))
    assert (out.status, out.remaining_quantity) == ("partly_filled", D(703))
    with pytest.raises(Conflict):  # one contract note, one fill
        orders.execute(actor=book.adviser, order_id=order.id, execution=orders.read_execution(price="118.40", quantity="1", contract_note="CN-1"))
    with pytest.raises(ValidationError) as err:
        orders.execute(actor=book.adviser, order_id=order.id, execution=orders.read_execution(price="118.40", quantity="704"))
    assert err.value.message == "The quantity is more than the order's 703 units not yet executed"
    with pytest.raises(Conflict):
        orders.reject(actor=book.adviser, order_id=order.id)
    cancelled = orders.cancel(actor=book.adviser, order_id=order.id, reason="Client changed their mind")
    assert cancelled.status_label == "Cancelled" and cancelled.filled_quantity == 400
    with session_scope() as s:
        assert s.get(TradeTransaction, book.buy.id).status == "cancelled"
        assert s.exec(select(AssetTransaction).where(AssetTransaction.status == "processing")).all() == []
    assert _units(book, "CBA") == 400
    with pytest.raises(Conflict) as err:
        orders.execute(actor=book.adviser, order_id=order.id, execution=orders.read_execution(price="1"))
    assert err.value.message == "The order is cancelled: it can no longer be executed"


def test_expired_orders_release_their_cash_and_leave_the_pending_trades(book):
    order = _place_buy(book)
    with session_scope() as s:
        committed = s.get(CashTransaction, s.exec(select(CashTransaction.id).where(
            CashTransaction.linked_transaction_id == order.open_transaction_id)).one())
        assert committed.status == "processing"
    assert orders.expire_orders(today=order.expires_on) == 0  # its last day: still live
    assert orders.expire_orders(today=order.expires_on + timedelta(days=1)) == 1
    assert orders.expire_orders(today=order.expires_on + timedelta(days=1)) == 0  # once
    [row], _ = orders.list_orders(actor=book.adviser, status="expired")
    assert row.status_label == "Expired" and row.reason.startswith("Expired unexecuted on")
    with session_scope() as s:
        assert s.exec(select(CashTransaction).where(
            CashTransaction.linked_transaction_id == order.open_transaction_id)).all() == []
        assert s.get(TradeTransaction, book.buy.id).status == "expired"
        inputs = engine_inputs.load_portfolios(s, [book.watsons.id])[book.watsons.id]
    assert book.buy.id not in {t.id for t in inputs.pending}
    h = holdings.load(actor=book.adviser, portfolio_id=book.watsons.id)
    assert "CBA" not in {p.code for p in h.pending_trades}


def test_the_days_reconciliation_by_broker(book):
    trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": book.buy.id}]))
    trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": book.other.id}]))
    orders_ = {o.trade_transaction_id: o for o in _open_orders()}
    orders.execute(actor=book.adviser, order_id=orders_[book.buy.id].id, execution=orders.read_execution(price="118.00", quantity="100"))
    orders.reject(actor=book.adviser, order_id=orders_[book.other.id].id, reason="No funds")
    day = orders.reconciliation(actor=book.adviser)
    events = sorted((line.order.asset_code, line.order.broker_name, line.event_label, line.units)
                    for line in day.lines)
    assert events == [("CBA", "CommSec", "Placed", D(100)), ("CBA", "CommSec", "Rejected", D(100)),
                      ("CBA", "Desktop Broker", "Partly filled", D(100)), ("CBA", "Desktop Broker", "Placed", D(1103))]
    totals = {t.broker: t for t in day.totals}
    assert (totals["Desktop Broker"].placed, totals["Desktop Broker"].partly_filled) == (1, 1)
    assert totals["Desktop Broker"].buys == D("11800.00") and totals["CommSec"].rejected == 1
    assert orders.reconciliation(actor=book.adviser, day=TODAY - timedelta(days=1)).lines == ()
    with pytest.raises(NotFound):
        orders.reconciliation(actor=actor(book.w.other_adviser), firm_id=book.w.firm.id)


def test_versions_keep_what_was_sent(book):
    order = _place_buy(book)
    with session_scope() as s:
        [version] = s.exec(select(BrokerOrderVersion).where(BrokerOrderVersion.order_id == order.id)).all()
    assert (version.version, version.action, version.quantity, version.file_kind) == (1, "New", D(1103),
                                                                                      "desktop_broker")
    assert order.reference == f"WA{order.open_transaction_id}"


def test_a_placed_row_cannot_be_reached_by_another_firm(book):
    _place_buy(book)
    with pytest.raises(NotFound):
        orders.list_orders(actor=actor(book.w.other_adviser), firm_id=book.w.firm.id)
    rows, total = orders.list_orders(actor=actor(book.w.other_adviser))
    assert (rows, total) == ([], 0)


def test_cash_committed_to_placed_buys_is_one_figure_on_every_screen(db):
    """The trade report's cash summary, the cash report and the target portfolio read the same
    placed buys and the same minimum cash for a portfolio; 'to invest' nets the placed buys."""
    from app.db.tables import Portfolio
    from app.services import advice_reports, advice_queries
    from tests.advice_edge import tps
    from tests import trade_instructions_edge as tis
    from tests.factories_models import make_model
    from tests.factories_recommendations import make_short_term

    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    make_short_term(SimpleNamespace(id=model["id"]), u.stocks[1], "BUY")
    desktop = make_broker(name="Desktop Broker", code="DTBRK")
    update_row(Portfolio, w.portfolio.id, model_id=model["id"], inactive=False, broker_account="DB-1",
               broker_id=desktop.id, min_cash_allocation=D("5.00"))
    cash(w.portfolio, "100000.00")
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    tis.confirm(actor=actor(w.client), ti_id=ti["id"], is_approve_all=True)
    adviser = actor(w.adviser)
    rows = [r for r in trade_file.generate(actor=adviser).rows if not r.hidden and r.action == "BUY"]
    trade_file.export(actor=adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": rows[0].recommendation_id}]))
    with session_scope() as s:
        placed = s.exec(select(AssetTransaction).where(AssetTransaction.status == "processing")).one()
        expected = placed.amount
    [summary] = trade_file.generate(actor=adviser).cash
    [cash_row] = advice_reports.cash_report(actor=adviser).rows
    with session_scope() as s:
        from app.db.tables import Portfolio as P, TargetPortfolio
        row = s.get(TargetPortfolio, tp["id"])
        view = advice_queries.tp_view(s, adviser, s.get(P, w.portfolio.id), row)
    assert expected > 0
    assert summary.sumPlacedBuysForPortfolio == cash_row.placed_buys == view.placed_buys == expected
    assert summary.availableCash == summary.sumCashAssets - expected
    assert summary.sumAmountBuyForPortfolio == sum(r.pending_amount for r in rows[1:])  # the placed one left out
    assert summary.minCashBalance == cash_row.min_cash == view.result.min_cash
    assert cash_row.cash_to_invest == cash_row.cash - expected - cash_row.min_cash


def test_the_firm_sets_its_orders_life_and_stop_loss_limit(book):
    from app.domain.firms import read_firm_form
    from app.domain.wire import rendered
    from app.services import firms

    admin = actor(book.w.admin)
    data = rendered(firms.get_firm(actor=admin, firm_id=book.w.firm.id))
    saved = rendered(firms.update_firm(actor=admin, firm_id=book.w.firm.id, form=read_firm_form({
        **data, "orderExpiryDays": "7", "orderGoodTillCancelled": False, "stopLossLimitGap": "2.5"})))
    assert (saved["orderExpiryDays"], saved["orderGoodTillCancelled"], saved["stopLossLimitGap"]) == (7, False, "2.5")
    plan = trade_file.plan_export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": book.buy.id}]))
    assert plan.default_expiry == TODAY + timedelta(days=7)
    for days in ("0", "400", "2.5", "abc"):
        with pytest.raises(ValidationError) as err:
            firms.update_firm(actor=admin, firm_id=book.w.firm.id, form=read_firm_form({**saved, "orderExpiryDays": days}))
        assert err.value.fields["orderExpiryDays"] in ("Please, enter a whole number of days from 1 to 365. ",
                                                       "Please, enter a valid number. ")
    with pytest.raises(ValidationError) as err:
        firms.update_firm(actor=admin, firm_id=book.w.firm.id, form=read_firm_form({**saved, "stopLossLimitGap": "100"}))
    assert err.value.fields["stopLossLimitGap"] == "Value has to be less than 100."
    gtc = rendered(firms.update_firm(actor=admin, firm_id=book.w.firm.id, form=read_firm_form({**saved, "orderGoodTillCancelled": True})))
    assert gtc["orderGoodTillCancelled"] is True
    assert trade_file.plan_export(actor=book.adviser, kind="desktop_broker",
                                  lines=trade_file.read_export_lines([{"id": book.buy.id}])).default_expiry is None


def test_the_reconciliation_workbook_reads_as_the_day(book):
    trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": book.buy.id}]))
    out = orders.reconciliation_file(actor=book.adviser)
    assert out.name.startswith("Harbour Test - Orders of ") and out.name.endswith(".xlsx")
    rows = [list(r) for r in load_workbook(io.BytesIO(out.data)).active.iter_rows(values_only=True)]
    assert rows[0][0] == f"Harbour Test - Orders of {TODAY:%d/%m/%Y}"
    assert rows[2][:3] == ["Broker", "Placed", "Filled"] and rows[3][:2] == ["Desktop Broker", 1]
    line = next(r for r in rows if r[0] == "Desktop Broker" and r[6] == "Placed")
    assert line[1:6] == ["Watsons Bay Super Fund", "7300001", f"WA{_open_orders()[0].open_transaction_id}", "BUY",
                         "CBA"]
    assert line[7] == 1103 and line[9] == "Limit $118.50"


def _later_trade(book, action: str, quantity: str, version: int = 2) -> TradeTransaction:
    """A later approved recommendation for CBA in Watsons Bay (its newest trade instruction)."""
    ti = make_trade_instruction(book.watsons, version=version)
    price = D("118.50")
    amount = str(D(quantity) * price + (D("19.95") if action == "increase" else 0))
    return make_trade(ti, book.u.stocks[1], action, quantity, price="118.50", amount=amount,
                      limit_price=price, current_units=D(1103))


def test_a_later_trade_amends_the_live_order_and_the_fill_executes_both(book):
    order = _place_buy(book)
    more = _later_trade(book, "increase", "100")
    row = next(r for r in trade_file.generate(actor=book.adviser).rows if r.recommendation_id == more.id)
    assert (row.type, row.status, row.amends_order_id) == ("Amend", "Approved", order.id)
    # Desktop Broker's file takes no amendment: left out, named, still to be sent
    with pytest.raises(ValidationError) as err:
        trade_file.export(actor=book.adviser, kind="desktop_broker", lines=trade_file.read_export_lines([{"id": more.id}]))
    assert ("1 change to orders already with the broker not written: Desktop Broker takes no amendments or "
            f"cancellations in its file. Make it with the broker by hand: amend {order.reference} (Buy CBA in Watsons "
            "Bay Super Fund, to 1203 units)") in err.value.message
    plan = trade_file.plan_export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": more.id}]))
    assert plan.question == "Place 0 orders for 1 portfolio? It also amends 1 order already with the broker."
    out = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": more.id}]))
    [line] = _sheet(out.data)
    assert (line["Type"], line["Reference"], line["Quantity"], line["Side"]) == ("Amend", order.reference, 1203, "BUY")
    assert (out.placed, out.amended) == (0, 1)
    with session_scope() as s:
        book_order = s.get(BrokerOrder, order.id)
        versions = s.exec(select(BrokerOrderVersion).where(BrokerOrderVersion.order_id == order.id)
                          .order_by(BrokerOrderVersion.version)).all()
        open_tx = s.get(AssetTransaction, book_order.open_transaction_id)
        assert (book_order.quantity, book_order.reference, open_tx.quantity) == (D(1203), order.reference, D(1203))
        assert [(v.version, v.action, v.quantity, v.trade_transaction_id) for v in versions] == [
            (1, "New", D(1103), book.buy.id), (2, "Amend", D(1203), more.id)]
    rows = {r.recommendation_id: r for r in trade_file.generate(actor=book.adviser).rows}
    assert rows[book.buy.id].status == rows[more.id].status == "Placed"
    orders.execute(actor=book.adviser, order_id=order.id, execution=orders.read_execution(price="118.50"))
    with session_scope() as s:
        assert {s.get(TradeTransaction, t).status for t in (book.buy.id, more.id)} == {"executed"}
    assert _units(book, "CBA") == 1203


def test_a_later_opposite_trade_shrinks_or_cancels_the_live_order(book):
    order = _place_buy(book)
    fewer = _later_trade(book, "decrease", "103")
    out = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": fewer.id}]))
    [line] = _sheet(out.data)
    assert (line["Type"], line["Reference"], line["Quantity"], line["Side"]) == ("Amend", order.reference, 1000, "BUY")
    rest = _later_trade(book, "decrease", "1000", version=3)
    row = next(r for r in trade_file.generate(actor=book.adviser).rows if r.recommendation_id == rest.id)
    assert row.type == "Cancel"
    out = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": rest.id}]))
    [line] = _sheet(out.data)
    assert (line["Type"], line["Reference"], line["Quantity"]) == ("Cancel", order.reference, 1000)
    assert out.cancelled == 1
    [row], _ = orders.list_orders(actor=book.adviser, status="cancelled")
    assert row.id == order.id and row.reason == "Cancelled by later trade recommendations"
    with session_scope() as s:
        assert {s.get(TradeTransaction, t).status for t in (book.buy.id, fewer.id, rest.id)} == {"cancelled"}
        assert s.exec(select(AssetTransaction).where(AssetTransaction.status == "processing")).all() == []


def test_the_holdings_pending_trades_say_the_order_in_words(book):
    update_row(Firm, book.w.firm.id, stop_loss_limit_gap=D("2"))
    def pending() -> dict[str, tuple[str, D, str]]:
        h = holdings.load(actor=book.adviser, portfolio_id=book.watsons.id)
        return {p.code: (p.status, p.units, p.price_text) for p in h.pending_trades}

    assert pending() == {"BHP": ("Approved", D(500), "Stop loss at $30.54"),
                         "CBA": ("Approved", D(1103), "Limit $118.50")}
    trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": book.stop.id}, {"id": book.buy.id}]))
    more = _later_trade(book, "increase", "100")
    trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": more.id}]))
    got = pending()
    assert got["BHP"] == ("Placed", D(500), "Stop loss at $30.54, then limit $29.929")
    h = holdings.load(actor=book.adviser, portfolio_id=book.watsons.id)
    cba = sorted((p.trade_id, p.status, p.units, p.price_text) for p in h.pending_trades if p.code == "CBA")
    # the amended order carries both trades: each shows Placed with its own units and the order's price
    assert [row[1:] for row in cba] == [("Placed", D(1103), "Limit $118.50"), ("Placed", D(100), "Limit $118.50")]


def test_a_stop_loss_neither_amends_nor_is_amended(book):
    """A stop loss is a conditional order of its own: beside a live buy of the same asset it is New,
    and a later plain sell does not change a live stop loss."""
    bhp = book.u.stocks[0]
    buy = make_trade(make_trade_instruction(book.watsons, version=2), bhp, "increase", "10", price="45.00",
                     amount="469.95")
    trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": buy.id}]))
    rows = {r.recommendation_id: r for r in trade_file.generate(actor=book.adviser).rows}
    assert (rows[book.stop.id].type, rows[book.stop.id].amends_order_id) == ("New", None)
    trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": book.stop.id}]))
    sell = make_trade(make_trade_instruction(book.watsons, version=3), bhp, "decrease", "10", price="45.00",
                      current_units=D(2000))
    row = next(r for r in trade_file.generate(actor=book.adviser).rows if r.recommendation_id == sell.id)
    # the live buy of 10 is what it changes (a cancel), never the stop loss
    assert row.type == "Cancel" and row.amends_order_id != next(
        o.id for o in _open_orders() if o.order_type == "stop_loss")


def test_an_expired_market_order_keeps_the_value_it_was_placed_at(book):
    out = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": book.loose.id}]))
    assert out.placed == 1
    [order] = _open_orders()
    assert order.placed_price == D("46.00")  # VAF's last close: a market order
    orders.expire_orders(today=order.expires_on + timedelta(days=1))
    [line] = [x for x in orders.reconciliation(actor=book.adviser).lines if x.event == "placed"]
    assert line.value == D("460.00")
    [row], _ = orders.list_orders(actor=book.adviser, status="expired")
    assert row.price == D("46.00")


def test_two_later_trades_in_one_file_amend_the_order_once_each(book):
    order = _place_buy(book)
    more = _later_trade(book, "increase", "100")
    again = _later_trade(book, "increase", "50", version=3)
    out = trade_file.export(actor=book.adviser, kind="trade_file", lines=trade_file.read_export_lines([{"id": more.id}, {"id": again.id}]))
    assert [(r["Type"], r["Quantity"]) for r in _sheet(out.data)] == [("Amend", 1203), ("Amend", 1253)]
    with session_scope() as s:
        assert s.get(BrokerOrder, order.id).quantity == D(1253)
