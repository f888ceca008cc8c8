"""A broker's file as a firm's operations desk would send it, end to end: a fresh firm with a
portfolio at Desktop Broker (approved trades and a stop-loss sell) and one at CommSec (approved
trades). The adviser selects everything and exports the Desktop Broker file: the question names the
orders, the broker, the portfolio and what the file leaves out; the file holds only the Desktop
Broker portfolio's orders, never the stop loss as a plain sell; the toasts say what was left out and
why, and those rows stay Approved and selected for their own files."""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

import tests.factories_advice as factories_advice
from app.db.engine import session_scope
from app.db.tables import Broker, Portfolio, TradeInstruction
from app.domain import orders as order_rules
from app.services import trade_file
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from tests.e2e.test_orders_e2e import _demo_universe, app_database
from tests.factories import PASSWORD, actor
from tests.factories_advice import make_trade
from tests.factories_portfolios import DEFAULT_APPROVAL

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"


def _seed(url: str, monkeypatch: pytest.MonkeyPatch):
    with app_database(url):
        monkeypatch.setattr(factories_advice, "make_universe", lambda **_: _demo_universe())
        book = factories_advice.make_book(2)
        adviser, client = actor(book.adviser), actor(book.client)
        with session_scope() as s:
            brokers = {b.name: b for b in s.exec(select(Broker)).all()}
            for pid, broker in zip(book.portfolio_ids, ("Desktop Broker", "CommSec")):
                p = s.get(Portfolio, pid)
                p.broker_id, p.broker_account, p.inactive = brokers[broker].id, f"AC-{pid:05d}", False
                p.approval_settings = json.dumps(DEFAULT_APPROVAL)
                s.add(p)
        for pid in book.portfolio_ids:
            tp = tps.calculate(actor=adviser, investment_id=pid)
            tps.validate(actor=adviser, tp_id=tp["id"])
            tps.decide(actor=client, tp_id=tp["id"], action="approve")
            [ti] = tis.generate(actor=adviser, investment_ids=[pid])
            tis.validate(actor=adviser, ti_id=ti["id"])
            tis.confirm(actor=client, ti_id=ti["id"], is_approve_all=True)
        desktop = book.portfolio_ids[0]
        with session_scope() as s:
            ti = s.exec(select(TradeInstruction).where(TradeInstruction.investment_id == desktop)
                        .order_by(TradeInstruction.id.desc())).first()
        bhp = book.universe.stocks[0]  # 10 held
        stop_price = (Decimal(bhp.last_close_price) * Decimal("0.92")).quantize(Decimal("0.01"))
        stop = make_trade(ti.id, bhp, "decrease", "5", price=bhp.last_close_price, limit_price=stop_price,
                          stop_loss=True, current_units=Decimal(10))
        rows = [r for r in trade_file.generate(actor=adviser).rows if not r.hidden]
        return book, desktop, stop, stop_price, rows


def test_a_desktop_broker_file_leaves_out_commsec_and_the_stop_loss_and_says_why(page: Page, login, app_server,
                                                                                  monkeypatch) -> None:
    book, desktop, stop, stop_price, rows = _seed(app_server.database_url, monkeypatch)
    mine = [r for r in rows if r.investment_id == desktop and r.recommendation_id != stop.id]
    commsec = [r for r in rows if r.investment_id != desktop]
    assert mine and commsec
    login(page, book.adviser.email, PASSWORD)
    page.goto("/reports/trade-recommendations")
    expect(page.locator(".file-row")).to_have_count(len(rows), timeout=TIMEOUT)
    expect(page.locator(f".file-row[data-id='{stop.id}'] .file-order-type")).to_have_text(
        f"Stop loss at ${stop_price:,.2f}")
    expect(page.locator("#file-count")).to_contain_text(f"{len(rows)} selected")

    page.locator("#export-desktop-broker").click()
    question = page.locator("#confirm-message")
    expect(question).to_contain_text(f"Place {len(mine)} orders with Desktop Broker for 1 portfolio?",
                                     timeout=TIMEOUT)
    expect(question).to_contain_text(f"{len(commsec)} orders of 1 portfolio at CommSec were not written: "
                                     "they belong to another broker's file")
    expect(question).to_contain_text("1 stop loss not written: Desktop Broker takes no conditional orders")
    page.screenshot(path=f"{ARTIFACTS}/broker-file-question.png")
    with page.expect_download(timeout=TIMEOUT) as info:
        page.locator("#confirm-ok").click()
    with open(info.value.path(), newline="") as fh:
        lines = list(csv.reader(io.StringIO(fh.read())))
    assert lines[0] == list(order_rules.COLUMNS[order_rules.DESKTOP_BROKER])
    assert {line[0] for line in lines[1:]} == {f"AC-{desktop:05d}"}  # only the Desktop Broker account
    assert sorted(line[2] for line in lines[1:]) == sorted(r.asset_code for r in mine)
    assert all(line[4] in ("Market", "Limit") and not (line[1] == "S" and line[2] == "BHP") for line in lines[1:])

    # the toasts say what was left out and why
    expect(page.get_by_text("at CommSec were not written", exact=False).first).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Place it with the broker by hand", exact=False).first).to_be_visible()
    page.screenshot(path=f"{ARTIFACTS}/broker-file-left-out.png")

    # what was left out stays to be placed, still selected for its own file
    for r in commsec + [next(r for r in rows if r.recommendation_id == stop.id)]:
        row = page.locator(f".file-row[data-id='{r.recommendation_id}']")
        expect(row.locator(".file-status")).to_have_text("Approved", timeout=TIMEOUT)
        expect(row.locator(".file-select")).to_have_attribute("data-state", "checked")
    for r in mine:
        expect(page.locator(f".file-row[data-id='{r.recommendation_id}'] .file-status")).to_have_text("Placed")
