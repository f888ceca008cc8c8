"""The shared bulk progress modal end to end, on tests.factories_advice.make_book(30) in the app's
database: the adviser asks for target portfolios of a model, is asked first ('Calculate target
portfolios for 30 portfolios of 1 model?'; Cancel starts nothing), confirms, and watches the counts
move and the portfolios' names appear while the run goes on; reloads the page and finds the modal
following the run again (also in a new tab); the run reaches 30/30; Close; `?run=<id>` opens the
modal on that run.

So that a run lasts long enough to watch, the app server of this test session calculates in chunks
of 2 portfolios and pauses 2 s before each, so that the run lasts about 15 s even on a busy machine
(the reload and the new tab below must find it still going) (BULK_CHUNK_SIZE, BULK_TEST_DELAY_MS:
test-only settings, set here before the session's server starts)."""
from __future__ import annotations

import os
import re

os.environ.setdefault("BULK_CHUNK_SIZE", "2")
os.environ.setdefault("BULK_TEST_DELAY_MS", "2000")

from playwright.sync_api import Page, expect  # noqa: E402
from sqlmodel import select  # noqa: E402

from app.db.engine import session_scope  # noqa: E402
from app.db.tables import BulkRun, TargetPortfolio  # noqa: E402
from tests.e2e.test_trade_instructions_e2e import app_database, seed_book  # noqa: E402
from tests.factories import PASSWORD  # noqa: E402

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
COUNT = 30


def _counts(page: Page) -> tuple[int, int]:
    text = page.locator("#bulk-progress-count").inner_text(timeout=TIMEOUT)
    finished, total = re.fullmatch(r"\s*(\d+)/(\d+)\s*", text).groups()
    return int(finished), int(total)


def _watch_moving(page: Page, seconds: float = 30) -> list[int]:
    """The finished counts seen until some portfolios are finished and others are not (never backwards)."""
    seen: list[int] = []
    for _ in range(int(seconds * 10)):
        finished, total = _counts(page)
        if not seen or seen[-1] != finished:
            seen.append(finished)
        if 0 < finished < total:
            return seen
        page.wait_for_timeout(100)
    raise AssertionError(f"the counts never moved mid-run: {seen}")


def test_progress_modal_confirms_moves_names_portfolios_and_reattaches_after_reload(
        page: Page, login, app_server, monkeypatch) -> None:
    with app_database(app_server.database_url):
        book = seed_book(monkeypatch, COUNT)
        model_id = book.model["id"]
        names = {f"Calc {n:03d}" for n in range(COUNT)}
        url = f"/bulk-calculate/target-portfolios?id={model_id}"

        login(page, book.adviser.email, PASSWORD)
        page.goto(url)
        row = page.locator(f".bulk-model-row[data-id='{model_id}']")
        expect(row).to_have_attribute("data-selected", "true", timeout=TIMEOUT)
        expect(page.locator("#bulk-progress-title")).to_have_count(0)  # nothing of the user's is running

        # asked first; Cancel starts nothing
        page.locator("#bulk-calculate").click()
        question = f"Calculate target portfolios for {COUNT} portfolios of 1 model?"
        expect(page.locator("#bulk-confirm-message")).to_have_text(question, timeout=TIMEOUT)
        page.locator("#bulk-confirm-cancel").click()
        expect(page.locator("#bulk-confirm-message")).to_have_count(0, timeout=TIMEOUT)
        with session_scope() as s:
            assert s.exec(select(BulkRun).where(BulkRun.created_by == book.adviser.id)).first() is None
        page.locator("#bulk-calculate").click()
        expect(page.locator("#bulk-confirm-message")).to_have_text(question, timeout=TIMEOUT)
        page.locator("#bulk-confirm-calculate").click()

        # the modal: counts move, names of finished portfolios appear, newest first
        expect(page.locator("#bulk-progress-title")).to_have_text("Calculating target portfolios", timeout=TIMEOUT)
        expect(page.locator("#bulk-total")).to_have_text(str(COUNT), timeout=TIMEOUT)
        seen = _watch_moving(page)
        assert seen == sorted(seen)
        expect(page.locator("#bulk-running")).to_be_visible()
        recent = page.locator(".bulk-recent-name")
        expect(recent.first).to_be_visible(timeout=TIMEOUT)
        assert set(recent.all_inner_texts()) <= names
        page.screenshot(path=f"{ARTIFACTS}/bulk-progress-mid-run.png")
        with session_scope() as s:
            run = s.exec(select(BulkRun).where(BulkRun.created_by == book.adviser.id)).one()
            run_id = run.id
            assert run.status in ("queued", "running")

        # a reload: the page opens the modal again on the run still going
        before, _ = _counts(page)
        page.reload()
        expect(page.locator("#bulk-progress-title")).to_have_text("Calculating target portfolios", timeout=TIMEOUT)
        expect(page.locator("#bulk-total")).to_have_text(str(COUNT), timeout=TIMEOUT)
        after, total = _counts(page)
        assert total == COUNT and after >= before
        # a new tab (a fresh page state) on the route without any id finds it too
        other = page.context.new_page()
        other.goto("/bulk-calculate/target-portfolios")
        expect(other.locator("#bulk-progress-title")).to_have_text("Calculating target portfolios", timeout=TIMEOUT)
        expect(other.locator("#bulk-total")).to_have_text(str(COUNT), timeout=TIMEOUT)
        other.close()

        # the run reaches the end in the re-attached modal
        expect(page.locator("#bulk-progress-count")).to_have_text(f"{COUNT}/{COUNT}", timeout=90_000)
        expect(page.locator("#bulk-done")).to_have_text(str(COUNT))
        expect(page.locator("#bulk-failed")).to_have_text("0")
        expect(page.locator("#bulk-finished")).to_be_visible()
        expect(page.locator("#bulk-progress-bar")).to_have_attribute("data-state", "complete")
        expect(recent).to_have_count(COUNT, timeout=TIMEOUT)
        assert set(recent.all_inner_texts()) == names
        page.screenshot(path=f"{ARTIFACTS}/bulk-progress-done.png")
        with session_scope() as s:
            run = s.get(BulkRun, run_id)
            assert (run.status, run.done, run.failed, run.total) == ("done", COUNT, 0, COUNT)
            made = s.exec(select(TargetPortfolio).where(TargetPortfolio.bulk_run_id == run_id)).all()
            assert sorted(t.investment_id for t in made) == sorted(book.portfolio_ids)
        page.locator("#bulk-progress-close").click()
        expect(page.locator("#bulk-progress-title")).to_have_count(0, timeout=TIMEOUT)

        # nothing running: a reload opens no modal; ?run=<id> opens the finished run
        page.reload()
        expect(row).to_have_attribute("data-selected", "true", timeout=TIMEOUT)
        page.wait_for_timeout(1000)
        expect(page.locator("#bulk-progress-title")).to_have_count(0)
        page.goto(f"/bulk-calculate/target-portfolios?run={run_id}")
        expect(page.locator("#bulk-progress-count")).to_have_text(f"{COUNT}/{COUNT}", timeout=TIMEOUT)
        expect(page.locator("#bulk-finished")).to_be_visible()
        page.locator("#bulk-progress-close").click()
        expect(page.locator("#bulk-progress-title")).to_have_count(0, timeout=TIMEOUT)
