"""Target portfolio and record of advice end to end, on a book made by tests.factories_advice
(a firm, its adviser and client, a model with a short-term recommendation, one funded portfolio):

- the adviser opens the holdings actions menu, 'Calculate Target Portfolio' asks to confirm the
  calculation, the new version shows 'Validation Required', its class tables (11 columns while
  editable) and every asset's reasons; the market commentary, typed with bold words and a bulleted
  list, saves with a feedback line that clears itself and shows formatted when the screen is opened again; Validate
  (double clicked) asks to confirm and the version becomes 'Approval Required' once, its tables
  keeping Price and Model weight;
  the versions list opens that version;
- the client follows the link of the e-mail the validation sent, signs in, reads the record of
  advice on a phone (Overview, Fee, Recommendation, Authority with Next), approves with the
  confirmation and sees 'Record of advice approved'; the PDF link downloads a PDF.
Screenshots at 1440x900 and 390x844 go to tests/e2e/artifacts/tp-*.png and rofa-*.png."""
from __future__ import annotations

import re
import uuid
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from app.domain import advice
from tests import factories_models
from tests._harness import MailSink
from tests.e2e.browser import type_commentary
from tests.factories import PASSWORD
from tests.factories_advice import Book, make_book

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def book(app_server, monkeypatch) -> Iterator[Book]:
    """make_book(1) written into the running app's database. The demo data the app starts with
    already has BHP, CBA ... and the classes and groups the factories name, so this book's codes
    and titles carry a suffix of their own."""
    from app.db.engine import reset_engine
    from app.settings import settings

    tag = uuid.uuid4().hex[:4].upper()
    make_asset, make_class, make_group = (factories_models.make_asset, factories_models.make_class,
                                          factories_models.make_group)
    monkeypatch.setattr(factories_models, "make_asset",
                        lambda code=None, *args, **kw: make_asset(f"{code}{tag}" if code else None, *args, **kw))
    monkeypatch.setattr(factories_models, "make_class", lambda title, **kw: make_class(f"{title} {tag}", **kw))
    monkeypatch.setattr(factories_models, "make_group", lambda title, *a, **kw: make_group(f"{title} {tag}", *a, **kw))
    previous = settings.database_url
    reset_engine(app_server.database_url)
    try:
        yield make_book(1)
    finally:
        settings.database_url = previous
        reset_engine()


def _no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways: {width}px"


def test_adviser_calculates_and_validates_then_the_client_approves(page: Page, browser: Browser, login, app_server,
                                                                  book: Book) -> None:
    pid = book.portfolio_ids[0]
    login(page, book.adviser.email, PASSWORD)

    # holdings -> Calculate Target Portfolio asks to confirm on the target portfolio screen
    page.goto(f"/portfolios/{pid}/holdings")
    page.locator("#holdings-actions").click(timeout=TIMEOUT)
    expect(page.locator("#action-target-portfolio")).to_be_visible()
    page.locator("#action-calculate-tp").click()
    expect(page).to_have_url(re.compile(rf"/portfolios/{pid}/target-portfolio\?calculate=1$"), timeout=TIMEOUT)
    expect(page.locator("#confirm-message")).to_have_text(advice.CONFIRM_RECALCULATE_TP, timeout=TIMEOUT)
    expect(page.locator("#tp-missing")).to_have_text("No target portfolio has been calculated for this portfolio yet.")
    page.locator("#confirm-ok").click()

    # the new version: status, who and when, figures, class tables with every asset's reasons
    expect(page.locator("#tp-status")).to_have_text("Validation Required", timeout=TIMEOUT)
    expect(page.get_by_text(re.compile(r"Target Portfolio version 1 calculated"))).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#tp-version")).to_have_text("1")
    expect(page.locator(".tp-step[data-label='Created by']")).to_contain_text(book.adviser.first_name)
    expect(page.locator("#crumb-portfolio")).to_have_text("Calc 000")
    expect(page.locator("#tp-value")).to_have_text(re.compile(r"^\$\d{2},\d{3}\.\d{2}$"))
    lines = page.locator(".tp-line[data-kind='asset']")
    expect(lines.first).to_be_visible()
    assert lines.count() >= 3
    bhp = page.locator(".tp-line[data-kind='asset']").filter(has_text="BHP Group")
    expect(bhp).to_contain_text("BUY")
    bhp_code = bhp.get_attribute("data-code")
    reasons = page.locator(f".tp-reasons[data-code='{bhp_code}'] .tp-reason")
    expect(reasons.first).to_contain_text("model weight")
    for i in range(lines.count()):  # every asset line is explained
        line_code = lines.nth(i).get_attribute("data-code")
        expect(page.locator(f".tp-reasons[data-code='{line_code}'] .tp-reason").first).to_be_visible()
    expect(page.locator(".tp-line[data-kind='cash']")).to_be_visible()
    first_table = page.locator(".tp-class").first
    expect(first_table.locator("thead th")).to_have_count(11)  # editable: 11 columns (002 s9)
    expect(page.locator(".tp-class-bar").first).to_be_visible()
    expect(page.locator("#tp-groups")).to_contain_text("Materials")
    page.screenshot(path=f"{ARTIFACTS}/tp-desktop.png", full_page=True)

    # the market commentary, formatted: the editor is a named text box 200 px high in 14 px type;
    # Ctrl+B makes bold, the toolbar's Bulleted list a list; updating, then saved, and the line
    # clears itself after about 3 s; a reload shows what was stored, formatted
    editor = page.get_by_role("textbox", name="Market commentary")
    expect(editor).to_have_attribute("id", "comment-market")
    assert editor.evaluate("e => [getComputedStyle(e).height, getComputedStyle(e).fontSize]") == ["200px", "14px"]
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    type_commentary(page, "Market commentary", "Markets were calm", " this quarter.", ["Rates on hold", "Jobs steady"])
    page.locator("#comment-market-save").click()
    expect(page.locator("#comment-market-feedback")).to_have_text("Commentary saved", timeout=TIMEOUT)
    expect(page.locator("#comment-market-feedback")).to_have_count(0, timeout=10_000)
    page.goto(f"/portfolios/{pid}/target-portfolio")  # loaded afresh (the address that calculated would ask again)
    expect(page.locator("#comment-market strong")).to_have_text("Markets were calm", timeout=TIMEOUT)
    expect(page.locator("#comment-market ul li")).to_have_text(["Rates on hold", "Jobs steady"])
    expect(page.locator("#comment-market")).to_contain_text("Markets were calm this quarter.")

    # validate: confirmation, then the returned status; a double click acts once (no second
    # validation, no conflict: the button is busy, and the service refuses the old row version)
    page.locator("#tp-validate").dblclick()
    expect(page.locator("#confirm-message")).to_have_text(advice.CONFIRM_VALIDATE, timeout=TIMEOUT)
    page.locator("#confirm-ok").dblclick()
    expect(page.locator("#tp-status")).to_have_text("Approval Required", timeout=TIMEOUT)
    expect(page.get_by_text("Target Portfolio validated: Approval Required")).to_have_count(1, timeout=TIMEOUT)
    expect(page.get_by_text(advice.EDITED_ELSEWHERE)).to_have_count(0)
    expect(page.locator(".tp-step[data-label='Validated by']")).to_contain_text(book.adviser.first_name)
    expect(page.locator("#tp-validate")).to_have_count(0)
    # no longer editable, Price and Model weight stay (11 columns)
    expect(page.locator(".tp-class").first.locator("thead th")).to_have_count(11)
    expect(page.locator(".tp-class").first.locator("thead")).to_contain_text("Model weight")
    page.set_viewport_size(PHONE)
    expect(page.locator(".tp-card-line").first).to_be_visible()
    page.locator("#tp-commentary").scroll_into_view_if_needed()
    expect(page.locator("#comment-market ul li")).to_have_text(["Rates on hold", "Jobs steady"])
    page.screenshot(path=f"{ARTIFACTS}/tp-phone.png", full_page=True)
    _no_horizontal_scroll(page)
    page.set_viewport_size({"width": 1440, "height": 900})

    # versions: newest first, a row opens its version, Cancel goes back
    page.locator("#tp-versions").click()
    expect(page).to_have_url(re.compile(rf"/portfolios/{pid}/target-portfolio-versions$"), timeout=TIMEOUT)
    row = page.locator(".version-row[data-version='1']")
    expect(row).to_contain_text("Approval Required", timeout=TIMEOUT)
    expect(page.locator("#versions-count")).to_have_text("1 version")
    page.screenshot(path=f"{ARTIFACTS}/tp-versions.png", full_page=True)
    row.click()
    expect(page).to_have_url(re.compile(rf"/portfolios/{pid}/target-portfolio/1$"), timeout=TIMEOUT)
    expect(page.locator("#tp-viewing-version")).to_have_text("Version 1", timeout=TIMEOUT)
    expect(page.locator("#tp-status")).to_have_text("Approval Required")
    tp_link = page.locator("#tp-rofa")
    expect(tp_link).to_be_visible()

    # the client follows the e-mail's link on a phone, signs in and lands on the record of advice
    message = app_server.mail.wait_for(book.client.email, timeout=30, subject="Record of advice")
    link = next(link for link in MailSink.links(message) if "/rofa/" in link)
    context = browser.new_context(viewport=PHONE, base_url=app_server.url)
    phone = context.new_page()
    try:
        phone.goto(link)
        phone.wait_for_url(re.compile(r"/login$"), timeout=TIMEOUT)
        phone.locator("#email").fill(book.client.email)
        phone.locator("#password").fill(PASSWORD)
        phone.locator("#signin").click()
        phone.wait_for_url(re.compile(rf"/portfolios/{pid}/rofa/\d+$"), timeout=TIMEOUT)
        expect(phone.locator("#rofa-status")).to_have_text("Approval Required", timeout=TIMEOUT)
        expect(phone.locator("#rofa-clients")).to_contain_text(book.client.first_name)
        expect(phone.locator("#rofa-adviser")).to_contain_text(book.adviser.first_name)
        expect(phone.locator("#rofa-practice")).to_contain_text("Calc Firm")
        # on a phone each line is a short block with its reasons (the 9-column table shows from 480px up)
        card = phone.locator(f".tp-card-line[data-code='{bhp_code}']")
        expect(card).to_be_visible()
        expect(card).to_contain_text("Target")
        expect(card.locator(".tp-card-reason").first).to_contain_text("model weight")
        expect(phone.locator(".tp-line").first).to_be_hidden()
        expect(phone.locator(".tp-class").first.locator("thead th")).to_have_count(9)
        phone.screenshot(path=f"{ARTIFACTS}/rofa-phone-overview.png", full_page=True)
        _no_horizontal_scroll(phone)

        expect(phone.locator("#rofa-previous")).to_be_disabled()
        phone.locator("#rofa-next").click()
        expect(phone.locator("#rofa-no-fee")).to_be_visible(timeout=TIMEOUT)
        phone.locator("#rofa-next").click()
        expect(phone.locator("#rofa-market strong")).to_have_text("Markets were calm", timeout=TIMEOUT)
        expect(phone.locator("#rofa-market li")).to_have_text(["Rates on hold", "Jobs steady"])
        expect(phone.locator("#rofa-cgt")).to_contain_text("capital gains")
        phone.locator("#rofa-next").click()
        expect(phone.locator("#rofa-authority")).to_be_visible(timeout=TIMEOUT)
        expect(phone.locator("#rofa-next")).to_be_disabled()
        phone.screenshot(path=f"{ARTIFACTS}/rofa-phone-authority.png", full_page=True)
        _no_horizontal_scroll(phone)

        # the PDF is fetched with a single-use ticket and the browser's offset
        with phone.expect_download(timeout=TIMEOUT) as download:
            phone.locator("#rofa-pdf").click()
        url = download.value.url
        assert re.search(r"/api/target-portfolios/\d+/rofa/export\?token=[^&]+&client-timezone-offset=-?\d+$", url), url
        assert open(download.value.path(), "rb").read(4) == b"%PDF"
        assert context.request.get(url).status == 401

        # approve: the confirmation first, then the reloaded record and the message
        phone.locator("#rofa-approve").click()
        expect(phone.locator("#confirm-message")).to_have_text("Do you confirm your authorisation to proceed?",
                                                               timeout=TIMEOUT)
        phone.locator("#confirm-ok").click()
        expect(phone.get_by_text("Record of advice approved")).to_be_visible(timeout=TIMEOUT)
        expect(phone.locator("#authority-status")).to_have_text("Approved", timeout=TIMEOUT)
        expect(phone.locator("#authority-decided")).to_contain_text(f"Approved by {book.client.first_name}")
        expect(phone.locator("#rofa-approve")).to_have_count(0)
        expect(phone.locator("#rofa-decline")).to_be_visible()
        phone.screenshot(path=f"{ARTIFACTS}/rofa-phone-approved.png", full_page=True)
        phone.set_viewport_size({"width": 1440, "height": 900})
        phone.locator("#rofa-tab-overview").click()
        expect(phone.locator("#rofa-clients")).to_be_visible(timeout=TIMEOUT)
        phone.screenshot(path=f"{ARTIFACTS}/rofa-desktop.png", full_page=True)
    finally:
        context.close()

    # the adviser sees the approval on the version
    page.reload()
    expect(page.locator("#tp-status")).to_have_text("Approved", timeout=TIMEOUT)
    expect(page.locator(".tp-step[data-label='Approved by']")).to_contain_text(book.client.first_name)
