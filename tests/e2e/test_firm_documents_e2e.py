"""A firm's branded record of advice end to end, on the demo data (Southern Cross Advisory):

- the administrator opens the firm form, chooses the compact layout, a colour, a footer and a HIN
  percent; a HIN percent of 140 is refused with its text; once saved, the preview downloads the
  PDF of the firm's record of advice with that footer (read back with pypdf);
- the firm's client opens the record of advice awaiting them: the screen follows the layout and
  colour (the letterhead with the licensee and AFSL, the trades in words, the footer), and its PDF
  too. Nothing is approved here (the record stays for the other browser tests).
Screenshots at 1440x900 and 390x844 go to tests/e2e/artifacts/firm-documents-*.png."""
from __future__ import annotations

import io
import re

from playwright.sync_api import Page, expect
from pypdf import PdfReader

ADMIN = "admin@southerncross.example.com"
CLIENT = "client@southerncross.example.com"
TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
COLOUR = "#0B6E4F"
FOOTER = "Southern Cross - branded for the browser test"


def _pdf_text(path: str) -> str:
    with open(path, "rb") as handle:
        reader = PdfReader(io.BytesIO(handle.read()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in reader.pages))


def _sign_out(page: Page) -> None:
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url(re.compile(r"/login$"), timeout=TIMEOUT)


def test_administrator_brands_the_record_of_advice_and_the_client_sees_it(page: Page, login) -> None:
    login(page, ADMIN)
    page.goto("/firms")
    row = page.locator(".firm-row").filter(has_text="Southern Cross Advisory")
    expect(row).to_have_count(1, timeout=TIMEOUT)
    row.locator(".firm-name").click()
    page.wait_for_url(re.compile(r".*/firms/\d+$"), timeout=TIMEOUT)
    page.locator("#firm-edit").click()
    page.wait_for_url(re.compile(r".*/firms/\d+/edit$"), timeout=TIMEOUT)
    expect(page.locator("#rofa-hinPercent")).to_have_value("100", timeout=TIMEOUT)  # the demo firm's template

    page.locator("#rofa-layout").click()
    page.get_by_role("option", name="Compact").click()
    expect(page.locator("#rofa-sample-layout")).to_contain_text("One page where it fits", timeout=TIMEOUT)
    page.locator("#rofa-colour").fill(COLOUR)
    page.locator("#rofa-footer").fill(FOOTER)
    page.locator("#rofa-hinPercent").fill("140")
    page.locator("#firm-save").click()
    error = page.locator(".field-error").filter(has_text="The HIN percent has to be between 0 and 100.")
    expect(error).to_be_visible(timeout=TIMEOUT)
    expect(page).to_have_url(re.compile(r".*/firms/\d+/edit$"))
    page.locator("#rofa-hinPercent").fill("40")
    expect(error).to_have_count(0, timeout=TIMEOUT)
    page.screenshot(path=f"{ARTIFACTS}/firm-documents-form.png", full_page=True)

    # the preview: the firm's record of advice with the settings on the form
    with page.expect_download(timeout=TIMEOUT) as download:
        page.locator("#rofa-preview").click()
    assert download.value.suggested_filename.startswith("Preview - ")
    text = _pdf_text(download.value.path())
    assert FOOTER in text and "Southern Cross Licensee Pty Ltd, AFSL 987654" in text and "Record of Advice" in text
    assert "Class allocation" not in text  # compact

    page.locator("#firm-save").click()
    expect(page.get_by_text("Firm is updated")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/firms/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#rofa-footer")).to_have_value(FOOTER, timeout=TIMEOUT)
    expect(page.locator("#rofa-hinPercent")).to_have_value("40")
    _sign_out(page)

    # the client's record of advice follows the firm's layout and colour
    login(page, CLIENT)
    record = page.locator(".awaiting-item[data-kind='record']").first
    expect(record).to_be_visible(timeout=TIMEOUT)
    record.click()
    expect(page).to_have_url(re.compile(r"/portfolios/\d+/rofa/\d+/?$"), timeout=TIMEOUT)
    head = page.locator("#rofa-letterhead")
    expect(head).to_have_attribute("data-layout", "compact", timeout=TIMEOUT)
    expect(head).to_have_attribute("data-colour", COLOUR)
    expect(page.locator("#rofa-firm")).to_have_text("Southern Cross Advisory")
    expect(page.locator("#rofa-licensee")).to_contain_text("Southern Cross Licensee Pty Ltd, AFSL 987654")
    expect(page.locator("#rofa-logo")).to_be_visible()
    expect(page.locator("#rofa-footer")).to_have_text(FOOTER)
    trades = page.locator("#rofa-words .words-trade")
    expect(trades.first).to_be_visible(timeout=TIMEOUT)
    for shown in trades.all_inner_texts():
        assert re.fullmatch(r"(Buy|Sell) [\d,]+|Hold|Not bought|(Add|Use) \$[\d,]+\.\d\d", shown), shown
    expect(page.locator(".words-line[data-kind='cash']")).to_have_count(1)
    expect(page.locator(".words-reason").first).to_contain_text(re.compile(r"\w+: .+\(([A-Z]+/)?[A-Z]+\)"))
    page.wait_for_timeout(300)
    page.screenshot(path=f"{ARTIFACTS}/firm-documents-rofa.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=f"{ARTIFACTS}/firm-documents-rofa-phone.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    page.set_viewport_size({"width": 1440, "height": 900})

    # and so does its PDF
    with page.expect_download(timeout=TIMEOUT) as download:
        page.locator("#rofa-pdf").click()
    text = _pdf_text(download.value.path())
    assert FOOTER in text and "AFSL 987654" in text and "Class allocation" not in text
