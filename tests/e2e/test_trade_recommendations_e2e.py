"""The trade recommendations report end to end, on data of its own: a fresh firm's portfolio with
Desktop Broker (tests.factories_advice.make_book on the demo data's assets, as the orders test
seeds it) whose target portfolio is approved, then:

- trade file view: the adviser's approved trades are listed and selected; an invalid price gap and
  an expiry before today show their texts and change nothing; a 2% price gap (after the question)
  moves every order price; the Desktop Broker file, after the question naming the orders, the
  broker and the portfolios, downloads with its name and the adjusted prices, and the rows then
  show Placed, still selected; exporting again with nothing new gives the service's text;
- approval view: the superuser picks the adviser, shows pending statuses, validates the portfolio
  ('Trades validated', Pending approval; Validate is busy meanwhile), approves all (leaving the
  page now asks first) and confirms ('Trades approved.', Approved); the Excel and PDF links answer
  with files."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

import tests.factories_advice as factories_advice
from app.db.engine import session_scope
from app.db.tables import Broker, Portfolio
from app.domain import advice, orders as order_rules
from app.domain.engine import trade_file as rules
from app.services import trade_file
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from app.ui.display import close_price
from app.ui.states.trade_recommendations import EXPIRY_ERROR
from tests.e2e.test_orders_e2e import _demo_universe, app_database
from tests.factories import PASSWORD, actor
from tests.factories_portfolios import DEFAULT_APPROVAL

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
SUPERUSER = "superuser@example.com"


def seed(url: str, monkeypatch: pytest.MonkeyPatch, *, approve_trades: bool) -> SimpleNamespace:
    """A fresh firm's portfolio with Desktop Broker and an approved target portfolio, its trade
    recommendations calculated (and, with approve_trades, validated and approved by the client)."""
    with app_database(url):
        monkeypatch.setattr(factories_advice, "make_universe", lambda **_: _demo_universe())
        book = factories_advice.make_book(1)
        pid = book.portfolio_ids[0]
        adviser, client = actor(book.adviser), actor(book.client)
        with session_scope() as s:
            broker = s.exec(select(Broker).where(Broker.name == "Desktop Broker")).one()
            p = s.get(Portfolio, pid)
            p.broker_id, p.broker_account, p.inactive = broker.id, f"DB-{pid:05d}", False
            p.approval_settings = json.dumps(DEFAULT_APPROVAL)
            s.add(p)
        tp = tps.calculate(actor=adviser, investment_id=pid)
        tps.validate(actor=adviser, tp_id=tp["id"])
        tps.decide(actor=client, tp_id=tp["id"], action="approve")
        [ti] = tis.generate(actor=adviser, investment_ids=[pid])
        rows = []
        if approve_trades:
            tis.validate(actor=adviser, ti_id=ti["id"])
            tis.confirm(actor=client, ti_id=ti["id"], is_approve_all=True)
            report = trade_file.generate(actor=adviser)
            rows = [r for r in report.rows if not r.hidden]
            assert len(rows) >= 2, "the model's trades give at least two orders"
            default_expiry = report.default_expiry[book.firm.id]
        return SimpleNamespace(book=book, pid=pid, rows=rows, ti_id=ti["id"], account=f"DB-{pid:05d}",
                               default_expiry=order_rules.expiry_text(default_expiry) if approve_trades else "")


def _toast(page: Page, text: str) -> None:
    """The toast is shown; then wait until the toasts close (top-right, over the page's actions)."""
    expect(page.get_by_text(text, exact=True).first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("[data-sonner-toast]")).to_have_count(0, timeout=TIMEOUT)


def _gapped(row: trade_file.TradeFileRow, percent: Decimal) -> Decimal:
    base = row.limit_price if row.limit_price is not None else row.last_close_price
    return rules.adjust_price(base, "increase" if row.action == "BUY" else "decrease", rules.GAP_PERCENTAGE, percent)


# ---- the trade file view ----------------------------------------------------------------------------------
def test_adviser_adjusts_and_exports_the_desktop_broker_file(page: Page, login, app_server, monkeypatch) -> None:
    data = seed(app_server.database_url, monkeypatch, approve_trades=True)
    count = len(data.rows)
    login(page, data.book.adviser.email, PASSWORD)
    page.goto("/reports/trade-recommendations")
    expect(page.locator("#page-title")).to_have_text("Trade Recommendations", timeout=TIMEOUT)
    expect(page.locator("#nav-reports-trade-recommendations")).to_be_visible()

    # the adviser's own firm loads by itself: every approved trade, New, selected by the domain rule
    expect(page.locator(".file-row")).to_have_count(count, timeout=TIMEOUT)
    expect(page.locator(".file-status")).to_have_text(["Approved"] * count)
    expect(page.locator(".file-type")).to_have_text(["New"] * count)
    # before anything is chosen, each order shows the expiry it would get: the firm's default
    expect(page.locator(".file-expiry-default")).to_have_text([data.default_expiry] * count)
    for box in page.locator(".file-select").all():
        expect(box).to_have_attribute("data-state", "checked")
    expect(page.locator("#file-count")).to_contain_text(f"{count} trades, 0 placed, {count} selected")
    expect(page.locator(".cash-row")).to_have_count(1)
    page.screenshot(path=f"{ARTIFACTS}/trade-file.png", full_page=True)

    # the filter box filters on the client side; the column headers sort
    first = data.rows[0]
    page.locator("#file-filter").fill(first.asset_code)
    expect(page.locator(".file-row")).to_have_count(sum(1 for r in data.rows if first.asset_code in r.asset_code),
                                                    timeout=TIMEOUT)
    page.locator("#file-filter").fill("")
    expect(page.locator(".file-row")).to_have_count(count, timeout=TIMEOUT)

    # invalid adjustments show their texts and change nothing
    limits_before = page.locator(".file-limit").all_inner_texts()
    page.locator("#adj-gap").fill("1.234")
    page.locator("#adj-expiry").fill((date.today() - timedelta(days=1)).strftime("%d/%m/%Y"))
    page.locator("#adj-apply").click()
    expect(page.locator("#adj-gap-error")).to_have_text("Max 2 decimals", timeout=TIMEOUT)
    expect(page.locator("#adj-expiry-error")).to_have_text(EXPIRY_ERROR)
    expect(page.locator("#confirm-message")).to_have_count(0)
    assert page.locator(".file-limit").all_inner_texts() == limits_before
    page.screenshot(path=f"{ARTIFACTS}/trade-file-adjustment-errors.png")

    # a last-close-vs-limit filter no row passes: nothing changes
    page.locator("#adj-gap").fill("0")
    page.locator("#adj-expiry").fill("")
    page.locator("#adj-filter-on").click()
    page.locator("#adj-limit-percentage").fill("50")
    page.locator("#adj-apply").click()
    expect(page.locator("#confirm-message")).to_have_text(rules.CONFIRM_ADJUSTMENTS, timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    _toast(page, rules.FILTER_NOT_FOUND)
    assert page.locator(".file-limit").all_inner_texts() == limits_before
    page.locator("#adj-filter-on").click()

    # a valid one is asked about, then moves every order price by 2% (up for buys, down for sells)
    expiry = date.today() + timedelta(days=7)
    page.locator("#adj-gap").fill("2")
    page.locator("#adj-expiry").fill(expiry.strftime("%d/%m/%Y"))
    expect(page.locator("#adj-gap-error")).to_have_count(0)
    page.locator("#adj-apply").click()
    expect(page.locator("#confirm-message")).to_have_text(rules.CONFIRM_ADJUSTMENTS, timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    _toast(page, f"Adjusted {count} trade recommendations")
    for r in data.rows:
        row = page.locator(f".file-row[data-id='{r.recommendation_id}']")
        expect(row.locator(".file-limit")).to_have_text(close_price(_gapped(r, Decimal(2))), timeout=TIMEOUT)
        expect(row.locator(".file-expiry")).to_have_text(expiry.strftime("%d/%m/%Y"))
    assert page.locator(".file-limit").all_inner_texts() != limits_before
    page.screenshot(path=f"{ARTIFACTS}/trade-file-adjusted.png", full_page=True)

    # the Desktop Broker file: asked first (the orders go live), then its name, and the adjusted
    # prices and expiry in it
    page.locator("#export-desktop-broker").click()
    expect(page.locator("#confirm-message")).to_contain_text(
        f"Place {count} orders with Desktop Broker for 1 portfolio?", timeout=TIMEOUT)
    with page.expect_download(timeout=TIMEOUT) as info:
        page.locator("#confirm-ok").click()
    download = info.value
    firm = re.escape(data.book.firm.name)
    assert re.fullmatch(rf"{firm} - Desktop Broker Trade File - \d{{8}}-\d{{4}}\.csv", download.suggested_filename), \
        download.suggested_filename
    with open(download.path(), newline="") as fh:
        lines = list(csv.reader(io.StringIO(fh.read())))
    assert lines[0] == list(order_rules.COLUMNS[order_rules.DESKTOP_BROKER])
    sent = {(line[1], line[2]): line for line in lines[1:]}
    assert len(sent) == count
    for r in data.rows:
        line = sent[("B" if r.action == "BUY" else "S", r.asset_code)]
        assert line[0] == data.account and line[4] == "Limit"
        assert Decimal(line[5]) == _gapped(r, Decimal(2))
        assert line[6] == expiry.strftime("%d/%m/%Y")
    _toast(page, f"{order_rules.FILE_TITLES[order_rules.DESKTOP_BROKER]}: {count} orders placed")

    # the report is read again: the sent rows are Placed (Maintain), and the selection is kept
    expect(page.locator(".file-status")).to_have_text(["Placed"] * count, timeout=TIMEOUT)
    expect(page.locator(".file-type")).to_have_text(["Maintain"] * count)
    expect(page.locator("#file-count")).to_contain_text(f"{count} trades, {count} placed, {count} selected")
    page.screenshot(path=f"{ARTIFACTS}/trade-file-placed.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=f"{ARTIFACTS}/trade-file-phone.png", full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})

    # nothing new to send: the service's text instead of a file
    page.locator("#export-desktop-broker").click()
    _toast(page, order_rules.NOTHING_TO_EXPORT)


# ---- the approval view --------------------------------------------------------------------------------------
def test_superuser_validates_and_confirms_an_advisers_trades(page: Page, login, app_server, monkeypatch) -> None:
    data = seed(app_server.database_url, monkeypatch, approve_trades=False)
    adviser = data.book.adviser
    login(page, SUPERUSER)
    page.goto("/reports/trade-recommendations")
    expect(page.locator("#page-title")).to_have_text("Trade Recommendations", timeout=TIMEOUT)

    # the superuser's trade file waits for a firm and Load
    expect(page.locator("#file-table")).to_contain_text("press Load", timeout=TIMEOUT)
    expect(page.locator("#file-load")).to_be_visible()

    # approval: pick the adviser; with the default statuses (approved / declined only) nothing shows
    page.locator("#view-approval").click()
    page.locator("#adviser-filter").click()
    page.get_by_role("option", name=f"{adviser.first_name} {adviser.last_name} ({data.book.firm.name})").click()
    expect(page.locator("#status-sad")).to_have_attribute("data-state", "checked", timeout=TIMEOUT)
    expect(page.locator("#status-spv")).to_have_attribute("data-state", "unchecked")
    expect(page.locator("#approval-table")).to_contain_text("No trade recommendations in these statuses",
                                                            timeout=TIMEOUT)
    page.locator("#status-spv").click()
    page.locator("#status-spa").click()
    group = page.locator(f".group-row[data-ti='{data.ti_id}']")
    expect(group.locator(".group-status")).to_have_text("Pending validation", timeout=TIMEOUT)
    expect(group.locator(".group-portfolio")).to_have_text("Calc 000")
    items = page.locator(f".item-row[data-ti='{data.ti_id}']")
    expect(items.first).to_be_visible()
    page.screenshot(path=f"{ARTIFACTS}/trade-approval-pending-validation.png", full_page=True)

    # validate the chosen portfolio, after the question; Validate is busy while it runs (the
    # portfolio held locked here keeps it running; SQLite has no row locks, so there the run may
    # end before the button can be seen busy, and only its outcome is checked)
    group.locator(".group-select").click()
    page.locator("#approval-validate").click()
    expect(page.locator("#approval-question")).to_have_text(advice.CONFIRM_VALIDATE, timeout=TIMEOUT)
    with app_database(app_server.database_url), session_scope() as s:
        s.exec(select(Portfolio).where(Portfolio.id == data.pid).with_for_update()).one()
        page.locator("#approval-ask-ok").click()
        if s.get_bind().dialect.name == "postgresql":
            expect(page.locator("#approval-validate")).to_be_disabled(timeout=TIMEOUT)
    _toast(page, advice.TRADES_VALIDATED)
    expect(group.locator(".group-status")).to_have_text("Pending approval", timeout=TIMEOUT)

    # approve all: the decisions are unconfirmed, so leaving the page asks first
    page.locator("#approval-approve-all").click()
    expect(page.locator(".choices").first).to_have_attribute("data-choice", "approved", timeout=TIMEOUT)
    expect(page.locator("#unconfirmed-decisions")).to_have_attribute("data-unconfirmed", "true")
    page.locator("#nav-reports-orders").click()
    expect(page.get_by_text("Do you want to save changes?")).to_be_visible(timeout=TIMEOUT)
    page.locator("#leave-cancel").click()
    expect(page).to_have_url(re.compile(r"/reports/trade-recommendations"))
    page.screenshot(path=f"{ARTIFACTS}/trade-approval-decided.png", full_page=True)

    # confirm: every trade approved
    page.locator("#approval-confirm").click()
    expect(page.locator("#approval-question")).to_have_text(advice.CONFIRM_DECISIONS, timeout=TIMEOUT)
    page.locator("#approval-ask-ok").click()
    _toast(page, advice.TRADES_APPROVED)
    expect(group.locator(".group-status")).to_have_text("Approved", timeout=TIMEOUT)
    expect(page.locator("#unconfirmed-decisions")).to_have_attribute("data-unconfirmed", "false")
    expect(items.locator(".item-status").first).to_have_text("Approved")
    page.screenshot(path=f"{ARTIFACTS}/trade-approval-approved.png", full_page=True)

    # the exports carry the adviser, the statuses and the token
    for link, magic, variant in (("#approval-excel", b"PK", ""), ("#approval-excel-simple", b"PK", "Simple - "),
                                 ("#approval-pdf", b"%PDF", "")):
        with page.expect_download(timeout=TIMEOUT) as download:
            page.locator(link).click()
        url = download.value.url
        assert f"adviser={adviser.id}" in url and "token=" in url and "client-timezone-offset=" in url
        assert open(download.value.path(), "rb").read(len(magic)) == magic
        assert f"Trade Recommendations - {variant}{adviser.first_name} {adviser.last_name}" in \
            download.value.suggested_filename
