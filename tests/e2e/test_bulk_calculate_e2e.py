"""Bulk calculation end to end, on tests.factories_advice.make_book(12) (written into the app's
database on the demo universe, see test_trade_instructions_e2e.seed_book): the adviser opens
bulk-calculate.calculateTP from the models list with nothing selected ('Please! Select at least one
model'), then with the model preselected by the URL's id, presses Calculate, confirms ('Calculate
target portfolios for 12 portfolios of 1 model?') and watches the progress
modal count up to 12/12 (the e2e server has no Redis: the jobs run in the app's own threads and the
progress comes through the in-process bus); the run is in the database. Then
bulk-calculate.calculateTR with a JSON array of ids: the portfolios' target portfolios still need
approval, so every portfolio fails and the modal lists each with its message."""
from __future__ import annotations

import json
from urllib.parse import quote

from playwright.sync_api import Page, expect
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import BulkRun, TargetPortfolio
from app.domain import advice
from app.domain.recommendations import SELECT_MODEL, SELECT_MODEL_TOAST
from tests.e2e.test_trade_instructions_e2e import app_database, seed_book
from tests.factories import PASSWORD

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
COUNT = 12


def test_adviser_bulk_calculates_target_portfolios_and_sees_trade_recommendation_errors(
        page: Page, login, app_server, monkeypatch) -> None:
    with app_database(app_server.database_url):
        book = seed_book(monkeypatch, COUNT)
        model_id = book.model["id"]

        # from the models list; nothing selected yet
        login(page, book.adviser.email, PASSWORD)
        page.goto("/models")
        page.locator("#bulk-calculate-tp").click(timeout=TIMEOUT)
        page.wait_for_url("**/bulk-calculate/target-portfolios", timeout=TIMEOUT)
        expect(page.locator("#page-title")).to_have_text("Calculate Target Portfolios", timeout=TIMEOUT)
        row = page.locator(f".bulk-model-row[data-id='{model_id}']")
        expect(row).to_have_attribute("data-selected", "false", timeout=TIMEOUT)
        expect(page.locator("#bulk-firm-filter")).to_have_count(0)  # the firm filter is the superuser's
        page.locator("#bulk-calculate").click()
        expect(page.get_by_text(SELECT_MODEL_TOAST).first).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#select-error")).to_have_text(SELECT_MODEL)
        page.locator("#bulk-select-all").click()
        expect(row).to_have_attribute("data-selected", "true", timeout=TIMEOUT)
        expect(page.locator("#select-error")).to_have_count(0)
        page.locator("#bulk-select-none").click()
        expect(row).to_have_attribute("data-selected", "false", timeout=TIMEOUT)

        # preselected by the URL; Calculate; the modal counts up to 12/12
        page.goto(f"/bulk-calculate/target-portfolios?id={model_id}")
        expect(row).to_have_attribute("data-selected", "true", timeout=TIMEOUT)
        expect(page.locator("#bulk-selected")).to_contain_text("1 of")
        page.screenshot(path=f"{ARTIFACTS}/bulk-calculate-desktop.png", full_page=True)
        page.locator("#bulk-calculate").click()
        expect(page.locator("#bulk-confirm-message")).to_have_text(
            f"Calculate target portfolios for {COUNT} portfolios of 1 model?", timeout=TIMEOUT)
        page.locator("#bulk-confirm-calculate").click()
        expect(page.locator("#bulk-progress-title")).to_have_text("Calculating target portfolios", timeout=TIMEOUT)
        expect(page.locator("#bulk-progress-count")).to_have_text(f"{COUNT}/{COUNT}", timeout=60_000)
        expect(page.locator("#bulk-done")).to_have_text(str(COUNT))
        expect(page.locator("#bulk-failed")).to_have_text("0")
        expect(page.locator("#bulk-total")).to_have_text(str(COUNT))
        expect(page.locator("#bulk-finished")).to_be_visible()
        expect(page.locator("#bulk-progress-bar")).to_have_attribute("data-state", "complete")
        page.screenshot(path=f"{ARTIFACTS}/bulk-calculate-progress.png")
        with session_scope() as s:
            run = s.exec(select(BulkRun).where(BulkRun.created_by == book.adviser.id).order_by(BulkRun.id.desc())).first()
            assert (run.kind, run.status, run.total, run.done, run.failed) == ("tp", "done", COUNT, COUNT, 0)
            made = s.exec(select(TargetPortfolio).where(TargetPortfolio.bulk_run_id == run.id)).all()
            assert sorted(t.investment_id for t in made) == sorted(book.portfolio_ids)
        page.locator("#bulk-progress-close").click()
        expect(page.locator("#bulk-progress-title")).to_have_count(0, timeout=TIMEOUT)

        # trade recommendations of a JSON array of ids: the target portfolios are drafts that need
        # approval, so every portfolio fails, each listed with its message
        page.goto("/bulk-calculate/trade-recommendations?id=" + quote(json.dumps([model_id])))
        expect(page.locator("#page-title")).to_have_text("Calculate Trade Recommendations", timeout=TIMEOUT)
        expect(row).to_have_attribute("data-selected", "true", timeout=TIMEOUT)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{ARTIFACTS}/bulk-calculate-phone.png", full_page=True)
        page.locator("#bulk-calculate").click()
        expect(page.locator("#bulk-confirm-message")).to_have_text(
            f"Calculate trade recommendations for {COUNT} portfolios of 1 model?", timeout=TIMEOUT)
        page.locator("#bulk-confirm-calculate").click()
        expect(page.locator("#bulk-progress-title")).to_have_text("Calculating trade recommendations", timeout=TIMEOUT)
        expect(page.locator("#bulk-progress-count")).to_have_text(f"{COUNT}/{COUNT}", timeout=60_000)
        expect(page.locator("#bulk-failed")).to_have_text(str(COUNT))
        errors = page.locator(".bulk-error")
        expect(errors).to_have_count(COUNT, timeout=TIMEOUT)
        expect(errors.first.locator(".bulk-error-name")).to_have_text("Calc 000", timeout=TIMEOUT)
        expect(errors.first.locator(".bulk-error-message")).to_have_text(advice.NO_TARGET)
        page.screenshot(path=f"{ARTIFACTS}/bulk-calculate-phone-errors.png")
        page.set_viewport_size({"width": 1440, "height": 900})
        page.locator("#bulk-progress-close").click()
        expect(page.locator("#bulk-progress-title")).to_have_count(0, timeout=TIMEOUT)
