"""The asset universe end to end: the superuser opens /assets (the demo universe), searches a code,
opens its details, imports a small CSV with one bad line and sees that line reported while the good
line's close reaches the table, and a file in which every line is bad refused with each line's
reason; an adviser sees the universe without the superuser's actions."""
from __future__ import annotations

from datetime import date, timedelta

from playwright.sync_api import Page, expect

from app.domain import prices as price_rules
from app.ui.states.assets import UPLOAD_FAILED

SUPERUSER = "superuser@example.com"
ADVISER = "adviser@harbour.example.com"
TIMEOUT = 30_000


def _last_weekday() -> date:
    day = date.today()
    while day.weekday() >= 5:
        day -= timedelta(days=1)
    return day


def test_superuser_searches_and_imports_prices_with_a_rejected_line(page: Page, login) -> None:
    login(page, SUPERUSER)
    page.goto("/assets")
    expect(page.locator(".asset-row").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#showing")).to_contain_text("of ", timeout=TIMEOUT)

    # search a code
    page.locator("#asset-search").fill("bhp")
    expect(page.locator(".asset-row")).to_have_count(1, timeout=TIMEOUT)
    row = page.locator(".asset-row[data-code=BHP]")
    expect(row).to_contain_text("BHP Group Limited")
    expect(row).to_contain_text("Materials")

    # its details with the price history
    row.click()
    expect(page.locator("#detail-title")).to_contain_text("BHP", timeout=TIMEOUT)
    expect(page.locator("#recent-prices tr")).to_have_count(10, timeout=TIMEOUT)
    page.locator("#detail-close").click()

    # import a CSV: one good line, one unknown code, one bad close
    day = _last_weekday().strftime("%d/%m/%Y")
    csv = f"code,date,close\nbhp,{day},51.23\nXYZQ,{day},1.00\nCBA,{day},-3\n".encode()
    page.locator("#import-prices").click()
    expect(page.locator("#import-dialog")).to_be_visible(timeout=TIMEOUT)
    page.locator("#prices-upload input[type=file]").set_input_files(
        files=[{"name": "prices.csv", "mimeType": "text/csv", "buffer": csv}])
    expect(page.locator("#import-file-name")).to_have_text("prices.csv", timeout=TIMEOUT)
    page.locator("#import-confirm").click()

    expect(page.locator("#import-summary")).to_contain_text("0 new prices imported, 1 updated, for 1 asset.",
                                                            timeout=TIMEOUT)
    expect(page.get_by_text("The file upload is now complete")).to_be_visible(timeout=TIMEOUT)
    rejected = page.locator(".rejected-line")
    expect(rejected).to_have_count(2)
    expect(rejected.nth(0)).to_contain_text("3")
    expect(rejected.nth(0)).to_contain_text("unknown asset code XYZQ")
    expect(rejected.nth(1)).to_contain_text("CBA")
    expect(rejected.nth(1)).to_contain_text("close must be a positive number")
    page.locator("#import-done").click()

    # the good line is the newest close now
    expect(page.locator(".asset-row[data-code=BHP]")).to_contain_text("$51.23", timeout=TIMEOUT)

    # a file that cannot be read changes nothing and says why
    page.locator("#import-prices").click()
    # the dialog opens empty (the server answers the click): choose the file once it has
    expect(page.locator("#import-dialog")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#import-file-name")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#prices-upload input[type=file]").set_input_files(
        files=[{"name": "bad.csv", "mimeType": "text/csv", "buffer": b"symbol,day\nBHP,1\n"}])
    expect(page.locator("#import-file-name")).to_have_text("bad.csv", timeout=TIMEOUT)
    page.locator("#import-confirm").click()
    expect(page.locator("#import-error")).to_contain_text("the first line must name the columns code, date and close",
                                                          timeout=TIMEOUT)
    page.locator("#import-cancel").click()
    expect(page.locator(".asset-row[data-code=BHP]")).to_contain_text("$51.23")

    # a file in which every line is rejected is refused: the failure (no success), and each line's reason
    page.mouse.move(0, 0)  # a toast waits while the pointer is over it
    expect(page.locator("[data-sonner-toast]")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#import-prices").click()
    # the dialog opens empty (the server answers the click): choose the file once it has
    expect(page.locator("#import-dialog")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#import-file-name")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#prices-upload input[type=file]").set_input_files(files=[{
        "name": "rejected.csv", "mimeType": "text/csv", "buffer": f"code,date,close\nXYZQ,{day},1.00\nbhp,{day},-3\n".encode()}])
    expect(page.locator("#import-file-name")).to_have_text("rejected.csv", timeout=TIMEOUT)
    page.locator("#import-confirm").click()
    expect(page.locator("#import-error")).to_have_text(price_rules.NOTHING_IMPORTED, timeout=TIMEOUT)
    expect(page.locator("[data-sonner-toast]")).to_contain_text([UPLOAD_FAILED])
    expect(page.locator("#import-summary")).to_have_count(0)
    rejected = page.locator(".rejected-line")
    expect(rejected).to_have_count(2)
    expect(rejected.nth(0)).to_contain_text("unknown asset code XYZQ")
    expect(rejected.nth(1)).to_contain_text("close must be a positive number")
    page.locator("#import-done").click()
    expect(page.locator(".asset-row[data-code=BHP]")).to_contain_text("$51.23")


def test_adviser_reads_the_universe_without_the_superusers_actions(page: Page, login) -> None:
    login(page, ADVISER)
    page.goto("/assets")
    expect(page.locator(".asset-row").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#import-prices")).to_have_count(0)
    expect(page.locator("#new-asset")).to_have_count(0)

    # the asset picker finds by name and opens the chosen asset
    page.locator("#find-asset").click()
    page.locator("#asset-picker-search").fill("commonwealth")
    choice = page.locator(".asset-picker-row[data-code=CBA]")
    expect(choice).to_be_visible(timeout=TIMEOUT)
    choice.click()
    expect(page.locator("#detail-title")).to_contain_text("Commonwealth Bank of Australia", timeout=TIMEOUT)
    expect(page.locator("#edit-asset")).to_have_count(0)
