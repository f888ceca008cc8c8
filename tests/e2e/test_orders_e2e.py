"""Broker orders end to end: a portfolio of a fresh firm (tests.factories_advice.make_book on the demo
data's assets) with Desktop Broker goes through calculation, validation and the client's approval;
the adviser's approved trades are placed by exporting the Desktop Broker file through the service
(as the trade recommendations report does). Then, in the browser:

- the holdings show the trades as pending (Placed), the trade recommendations screen offers its
  Excel and PDF exports, the Desktop Broker trade file page lists the placed orders;
- on Orders, the adviser uploads the broker's execution file built from the listed orders: 'File
  uploaded', the orders move to Executed, the holdings show the new units;
- an execution file with a wrong line names the line and changes nothing; then one order's
  execution is recorded by hand and another is rejected with a reason (Error, in red)."""
from __future__ import annotations

import csv
import io
import json
from contextlib import contextmanager
from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import col, select

import tests.factories_advice as factories_advice
from app.db.engine import reset_engine, session_scope
from app.db.tables import Asset, AssetClass, AssetType, Broker, IndustryGroup, Portfolio
from app.services import holdings, orders, trade_file
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from app.settings import settings
from tests.factories import PASSWORD, actor
from tests.factories_models import Universe
from tests.factories_portfolios import DEFAULT_APPROVAL
from tests.e2e.browser import see_toast

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
ACCOUNT = "DB-{pid:05d}"
HEADER = ["code", "side", "quantity", "price", "brokerage", "trade_date", "settlement_date", "account"]


# ---- data in the app's database -------------------------------------------------------------------
@contextmanager
def app_database(url: str) -> Iterator[None]:
    """Points this test process's engine (the factories and services) at the app server's database."""
    previous = settings.database_url
    reset_engine(url)
    try:
        yield
    finally:
        settings.database_url = previous
        reset_engine()


def _demo_universe() -> Universe:
    """make_universe's shape over the demo data's classes, types, groups and assets."""
    with session_scope() as s:
        def klass(title: str) -> AssetClass:
            return s.exec(select(AssetClass).where(AssetClass.title == title, AssetClass.firm_id.is_(None))).first()

        def kind(title: str) -> AssetType:
            return s.exec(select(AssetType).where(AssetType.title == title, AssetType.firm_id.is_(None))).first()

        def group(title: str) -> IndustryGroup:
            return s.exec(select(IndustryGroup).where(IndustryGroup.title == title)).first()

        cash = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True), AssetClass.firm_id.is_(None))).first()
        codes = ["BHP", "CBA", "CSL", "WES", "NAB", "RIO", "VAF", "IAF"]
        assets = {a.code: a for a in s.exec(select(Asset).where(col(Asset.code).in_(codes))).all()}
        return Universe(cash=cash, equities=klass("Australian Equities"), bonds=klass("Fixed Income"), etf=kind("ETF"),
                        share=kind("Share"), banks=group("Financials"), miners=group("Materials"),
                        stocks=[assets[c] for c in codes[:6]], fixed=[assets[c] for c in codes[6:]])


def seed_placed_orders(url: str, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """A fresh firm's portfolio with Desktop Broker whose approved trades are placed (the Desktop
    Broker file exported through the service); its live orders and units held before."""
    with app_database(url):
        monkeypatch.setattr(factories_advice, "make_universe", lambda **_: _demo_universe())
        book = factories_advice.make_book(1)
        pid = book.portfolio_ids[0]
        adviser, client = actor(book.adviser), actor(book.client)
        account = ACCOUNT.format(pid=pid)
        with session_scope() as s:
            broker = s.exec(select(Broker).where(Broker.name == "Desktop Broker")).one()
            p = s.get(Portfolio, pid)
            p.broker_id, p.broker_account, p.inactive = broker.id, account, False
            p.approval_settings = json.dumps(DEFAULT_APPROVAL)
            s.add(p)
        tp = tps.calculate(actor=adviser, investment_id=pid)
        tps.validate(actor=adviser, tp_id=tp["id"])
        tps.decide(actor=client, tp_id=tp["id"], action="approve")
        [ti] = tis.generate(actor=adviser, investment_ids=[pid])
        tis.validate(actor=adviser, ti_id=ti["id"])
        tis.confirm(actor=client, ti_id=ti["id"], is_approve_all=True)
        rows = [r for r in trade_file.generate(actor=adviser).rows if not r.hidden]
        assert len(rows) >= 2, "the model's trades give at least two orders"
        expiry = (date.today() + timedelta(days=5)).isoformat()
        trade_file.export(actor=adviser, kind="desktop_broker", lines=trade_file.read_export_lines([
            {"id": r.recommendation_id, "quantity": str(r.quantity), "expirationDate": expiry} for r in rows]))
        live, total = orders.list_orders(actor=adviser)
        assert total == len(rows)
        return SimpleNamespace(book=book, pid=pid, account=account, live=live, name=f"Calc {0:03d}",
                               before=units_held(url, book, pid))


def units_held(url: str, book, pid: int) -> dict[str, Decimal]:
    with app_database(url):
        h = holdings.load(actor=actor(book.adviser), portfolio_id=pid)
        return {line.code: line.quantity for line in h.shares}


def execution_file(seed: SimpleNamespace, extra: list[list[str]] = ()) -> bytes:
    """The broker's execution file of every listed order (at its order price, $19.95 brokerage)."""
    today = date.today()
    lines = [HEADER] + [[o.asset_code, o.side, f"{o.quantity.normalize():f}", f"{o.price:.2f}", "19.95",
                         f"{today:%d/%m/%Y}", f"{today + timedelta(days=2):%d/%m/%Y}", seed.account]
                        for o in seed.live] + list(extra)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(lines)
    return buffer.getvalue().encode()


def _units(value: Decimal) -> str:
    return f"{value.quantize(Decimal(1)):,}"


def _upload(page: Page, name: str, data: bytes) -> None:
    page.locator("#orders-upload").click()
    expect(page.locator("#upload-modal")).to_be_visible(timeout=TIMEOUT)
    page.locator("#execution-file input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": data}])
    expect(page.locator("#upload-file-name")).to_have_text(name, timeout=TIMEOUT)
    page.locator("#upload-confirm").click()


def _open_orders(page: Page, count: int) -> None:
    page.goto("/reports/orders")
    expect(page.locator("#page-title")).to_have_text("Orders", timeout=TIMEOUT)
    expect(page.locator(".order-row")).to_have_count(count, timeout=TIMEOUT)


# ---- the tests -------------------------------------------------------------------------------------------
def test_adviser_uploads_the_execution_file_and_the_holdings_move(page: Page, login, app_server,
                                                                   monkeypatch) -> None:
    seed = seed_placed_orders(app_server.database_url, monkeypatch)
    placed = {(o.asset_code, o.side): o for o in seed.live}
    login(page, seed.book.adviser.email, PASSWORD)

    # the holdings show the placed trades as pending, with the order's units
    page.goto(f"/portfolios/{seed.pid}/holdings")
    expect(page.locator("#pending-trades")).to_be_visible(timeout=TIMEOUT)
    for o in seed.live:
        row = page.locator(f".pending-row[data-code='{o.asset_code}'][data-status='Placed']")
        expect(row.locator(".pending-units")).to_have_text(("+" if o.side == "BUY" else "-") + _units(o.quantity))
    page.screenshot(path=f"{ARTIFACTS}/orders-holdings-pending.png", full_page=True)

    # the trade recommendations screen links its Excel and PDF exports of this version
    page.goto(f"/portfolios/{seed.pid}/trade-instructions")
    excel = page.locator("#ti-export-excel")
    expect(excel).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#ti-export-pdf")).to_be_visible()
    page.screenshot(path=f"{ARTIFACTS}/orders-trade-instructions-exports.png")
    for link, magic in ((excel, b"PK"), (page.locator("#ti-export-pdf"), b"%PDF")):
        with page.expect_download(timeout=TIMEOUT) as download:
            link.click()
        assert "version=1&token=" in download.value.url and "client-timezone-offset=" in download.value.url
        assert "Trade Recommendations v1" in download.value.suggested_filename
        assert open(download.value.path(), "rb").read(len(magic)) == magic
        # the link's ticket worked once
        assert page.request.get(download.value.url).status == 401

    # the Desktop Broker trade file page lists the placed orders and links its Excel
    page.goto("/reports/desktop-broker-trade-file")
    expect(page.locator(".broker-row")).to_have_count(len(seed.live), timeout=TIMEOUT)
    for o in seed.live:
        row = page.locator(f".broker-row[data-code='{o.asset_code}']")
        expect(row.locator(".broker-status")).to_have_text("Placed")
        expect(row.locator(".broker-quantity")).to_have_text(_units(o.quantity))
        expect(row.locator(".order-account")).to_have_text(seed.account)
    with page.expect_download(timeout=TIMEOUT) as download:
        page.locator("#broker-excel").click()
    assert "desktop-broker-export-excel?firmId=-2&token=" in download.value.url
    assert open(download.value.path(), "rb").read(2) == b"PK"
    page.screenshot(path=f"{ARTIFACTS}/orders-desktop-broker.png", full_page=True)

    # Orders: every placed order, amber
    _open_orders(page, len(seed.live))
    expect(page.locator(".order-status")).to_have_text(["Placed"] * len(seed.live))
    placed_on = date.today().strftime("%d/%m/%Y")  # the browser runs in UTC here, as the server
    expect(page.locator(".order-placed").first).to_contain_text(placed_on, timeout=TIMEOUT)
    o = seed.live[0]
    row = page.locator(f".order-row[data-id='{o.id}']")
    expect(row.locator(".order-code")).to_have_text(o.asset_code)
    expect(row.locator(".order-type")).to_contain_text("expires " + (date.today() + timedelta(days=5)).strftime("%d/%m/%Y"))
    page.screenshot(path=f"{ARTIFACTS}/orders-placed.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=f"{ARTIFACTS}/orders-placed-phone.png", full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})

    # the broker's execution file: all executed
    _upload(page, "executions.csv", execution_file(seed))
    count = len(seed.live)
    see_toast(page, f"File uploaded: {count} orders executed")
    expect(page.locator(".order-row")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator("#orders-table")).to_contain_text("No order is with the broker")
    page.locator("#status-executed").click()
    expect(page.locator(".order-row")).to_have_count(count, timeout=TIMEOUT)
    expect(page.locator(".order-status")).to_have_text(["Executed"] * count)
    today = date.today().strftime("%d/%m/%Y")
    expect(page.locator(".order-trade-date").first).to_contain_text(today)
    page.screenshot(path=f"{ARTIFACTS}/orders-executed.png", full_page=True)

    # the portfolio's holdings show the new units, and nothing is placed any more
    page.locator(".order-actions").first.click()
    page.locator(".order-holdings").click()
    page.wait_for_url(f"**/portfolios/{seed.pid}/holdings", timeout=TIMEOUT)
    for (code, side), o in placed.items():
        expected = seed.before.get(code, Decimal(0)) + (o.quantity if side == "BUY" else -o.quantity)
        row = page.locator(f".holding-row[data-code='{code}']")
        expect(row.locator("td").nth(2)).to_have_text(_units(expected), timeout=TIMEOUT)
    expect(page.locator(".pending-row[data-status='Placed']")).to_have_count(0)
    after = units_held(app_server.database_url, seed.book, seed.pid)
    for (code, side), o in placed.items():
        assert after[code] - seed.before.get(code, Decimal(0)) == (o.quantity if side == "BUY" else -o.quantity)
    page.screenshot(path=f"{ARTIFACTS}/orders-holdings-after.png", full_page=True)


def test_a_wrong_line_changes_nothing_then_one_order_executed_and_one_rejected(page: Page, login, app_server,
                                                                               monkeypatch) -> None:
    seed = seed_placed_orders(app_server.database_url, monkeypatch)
    count = len(seed.live)
    login(page, seed.book.adviser.email, PASSWORD)
    _open_orders(page, count)

    # a file with a line no order matches: the line is named, nothing is executed
    bad_line = count + 2  # the header is line 1
    _upload(page, "bad.csv", execution_file(seed, [["ZZZ", "BUY", "10", "1.00", "0", date.today().strftime("%d/%m/%Y"),
                                                     "", seed.account]]))
    expect(page.locator("#upload-error")).to_contain_text(
        f"Executed trades are not uploaded due to line(s): {bad_line}", timeout=TIMEOUT)
    expect(page.locator(".upload-line")).to_have_count(1)
    expect(page.locator(".upload-line")).to_contain_text(f"Line {bad_line}")
    expect(page.locator(".upload-line")).to_contain_text(f"no placed order for BUY ZZZ in account {seed.account}")
    page.screenshot(path=f"{ARTIFACTS}/orders-upload-error.png")
    page.locator("#upload-cancel").click()
    expect(page.locator("#upload-modal")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator(".order-status")).to_have_text(["Placed"] * count)
    assert units_held(app_server.database_url, seed.book, seed.pid) == seed.before
    with app_database(app_server.database_url):
        assert orders.list_orders(actor=actor(seed.book.adviser))[1] == count

    # record one execution by hand: the price defaults to the order's, the trade date to today
    first = seed.live[0]
    second = next(o for o in seed.live[1:] if o.asset_code != first.asset_code)
    row = page.locator(f".order-row[data-id='{first.id}']")
    row.locator(".order-actions").click()
    page.locator(".order-execute").click()
    expect(page.locator("#execute-modal")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#ex-quantity")).to_have_value(format(first.quantity.normalize(), "f"))  # all that is placed
    expect(page.locator("#ex-price")).to_have_value(format(first.price.normalize(), "f"))
    expect(page.locator("#ex-trade-date")).to_have_value(date.today().strftime("%d/%m/%Y"))
    page.locator("#ex-fee").fill("9.95")
    page.locator("#ex-contract-note").fill("CN-1001")
    page.screenshot(path=f"{ARTIFACTS}/orders-execute-modal.png")
    page.locator("#execute-save").click()
    see_toast(page, "Trade executed")
    expect(page.locator(".order-row")).to_have_count(count - 1, timeout=TIMEOUT)

    # reject another, with a reason, after the question
    row = page.locator(f".order-row[data-id='{second.id}']")
    row.locator(".order-actions").click()
    page.locator(".order-reject").click()
    expect(page.locator("#reject-question")).to_contain_text(f"Reject the order {second.side}", timeout=TIMEOUT)
    page.locator("#reject-reason").fill("Insufficient funds at broker")
    page.locator("#reject-ok").click()
    see_toast(page, "Order rejected")
    expect(page.locator(".order-row")).to_have_count(count - 2, timeout=TIMEOUT)
    page.locator("#status-error").click()
    expect(page.locator(".order-row")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator(".order-status")).to_have_text(["Error"])
    expect(page.locator(".order-reason")).to_have_text("Insufficient funds at broker")
    page.locator("#status-all").click()
    expect(page.locator(".order-row")).to_have_count(count, timeout=TIMEOUT)
    page.screenshot(path=f"{ARTIFACTS}/orders-all.png", full_page=True)

    after = units_held(app_server.database_url, seed.book, seed.pid)
    moved = first.quantity if first.side == "BUY" else -first.quantity
    assert after[first.asset_code] - seed.before.get(first.asset_code, Decimal(0)) == moved
    assert after.get(second.asset_code, Decimal(0)) == seed.before.get(second.asset_code, Decimal(0))
