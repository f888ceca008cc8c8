"""The client's home (portfolios.me) end to end, on the demo data:

- the demo client signs in and lands on the home page, whose 'Awaiting your decision' panel lists
  the record of advice the demo data left awaiting approval (portfolio, date sent, how long); one
  click opens it, the client approves it (with the confirmation), comes back home and it is gone;
- the target portfolio screen links to a pending record of advice;
- at 1440x900 the portfolio list's row menu ("...") is in view (inside the viewport and inside the
  table's scrolling card), and an address that names no screen shows the not-found page inside
  the application's frame.
Screenshots at 1440x900 go to tests/e2e/artifacts/home-*.png."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

CLIENT = "client@harbour.example.com"
ADVISER = "adviser@harbour.example.com"
TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"


def _shot(page: Page, name: str, full: bool = False) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=f"{ARTIFACTS}/home-{name}.png", full_page=full)


def _sign_out(page: Page) -> None:
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url(re.compile(r"/login$"), timeout=TIMEOUT)


def test_client_approves_the_pending_record_of_advice_from_home(page: Page, login) -> None:
    login(page, CLIENT)
    expect(page).to_have_url(re.compile(r"/my-portfolios/?$"), timeout=TIMEOUT)
    panel = page.locator("#awaiting-panel")
    expect(panel).to_contain_text("Awaiting your decision", timeout=TIMEOUT)
    records = page.locator(".awaiting-item[data-kind='record']")
    expect(records).to_have_count(1, timeout=TIMEOUT)
    record = records.first
    portfolio = record.get_attribute("data-portfolio")
    assert portfolio
    expect(record.locator(".awaiting-what")).to_contain_text("Record of advice")
    expect(record.locator(".awaiting-sent")).to_have_text(re.compile(r"^Sent \d{2}/\d{2}/\d{4}$"))
    expect(record.locator(".awaiting-waiting")).to_have_text("Waiting today")
    expect(page.locator(".portfolio-row").first).to_be_visible(timeout=TIMEOUT)
    _shot(page, "client-desktop")
    page.set_viewport_size({"width": 390, "height": 844})  # clients approve advice on phones
    expect(record).to_be_visible()
    _shot(page, "client-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    page.set_viewport_size({"width": 1440, "height": 900})

    # the target portfolio screen of that portfolio links to the record of advice too
    href = record.get_attribute("href")
    pid = re.search(r"/portfolios/(\d+)/rofa/(\d+)/?$", href).group(1)
    page.goto(f"/portfolios/{pid}/target-portfolio")
    expect(page.locator("#tp-pending-rofa")).to_contain_text("A record of advice awaits your decision",
                                                             timeout=TIMEOUT)
    expect(page.locator("#tp-pending-rofa-link")).to_have_attribute("href", href)
    page.go_back()
    expect(page).to_have_url(re.compile(r"/my-portfolios/?$"), timeout=TIMEOUT)

    # one click opens it; the client approves it on the Authority tab
    page.locator(".awaiting-item[data-kind='record']").first.click(timeout=TIMEOUT)
    expect(page).to_have_url(re.compile(r"/portfolios/\d+/rofa/\d+/?$"), timeout=TIMEOUT)
    expect(page.locator("#rofa-status")).to_have_text("Approval Required", timeout=TIMEOUT)
    page.locator("#rofa-tab-authority").click()
    page.locator("#rofa-approve").click(timeout=TIMEOUT)
    expect(page.locator("#confirm-message")).to_have_text("Do you confirm your authorisation to proceed?",
                                                          timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Record of advice approved").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#authority-status")).to_have_text("Approved", timeout=TIMEOUT)

    # the toast settles below the top bar: it never covers the user menu
    toast = page.locator("[data-sonner-toast]").first
    menu = page.locator("#user-menu").bounding_box()
    page.wait_for_timeout(800)  # its slide-in animation
    box = toast.bounding_box()
    if box is not None:  # still showing
        assert box["y"] >= menu["y"] + menu["height"], (box, menu)

    # home again: nothing awaits
    page.goto("/my-portfolios")
    expect(page.locator("#awaiting-none")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".awaiting-item")).to_have_count(0)
    expect(page.locator("#awaiting-panel")).not_to_contain_text(portfolio)


def test_row_menu_in_view_and_not_found_page_in_the_frame(page: Page, login) -> None:
    login(page, ADVISER)
    page.goto("/portfolios")
    rows = page.locator(".portfolio-row")
    expect(rows.first).to_be_visible(timeout=TIMEOUT)
    menu = page.locator(".portfolio-row .row-actions").first
    expect(menu).to_be_visible()
    box = menu.bounding_box()
    viewport = page.viewport_size
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], box
    scroller = page.locator(".wa-table-scroll").first.bounding_box()
    assert scroller["x"] <= box["x"] and box["x"] + box["width"] <= scroller["x"] + scroller["width"], (box, scroller)
    status = page.locator(".portfolio-row .portfolio-status").first
    expect(status).to_be_visible()
    sbox = status.bounding_box()
    assert sbox["x"] + sbox["width"] <= scroller["x"] + scroller["width"], (sbox, scroller)
    menu.click()
    expect(page.get_by_role("menuitem", name="View Holdings")).to_be_visible(timeout=TIMEOUT)
    _shot(page, "portfolio-list-desktop")
    page.keyboard.press("Escape")

    # the target portfolio of a demo portfolio with trades (Trade · model labels, groups with reasons)
    page.locator("#portfolio-search").fill("Paddington")
    row = page.locator(".portfolio-row").filter(has_text="Paddington")
    expect(row).to_have_count(1, timeout=TIMEOUT)
    pid = row.get_attribute("id").rsplit("-", 1)[1]
    page.goto(f"/portfolios/{pid}/target-portfolio")
    expect(page.locator(".tp-line").first).to_be_visible(timeout=TIMEOUT)
    for i in range(page.locator(".tp-line[data-kind='asset']").count()):
        line = page.locator(".tp-line[data-kind='asset']").nth(i)
        side = line.locator(".tp-trade").get_attribute("data-side")
        units = line.locator(".tp-delta").inner_text()
        if side == "SELL":
            assert units.strip().startswith("-"), units
        elif side == "BUY":
            assert units.strip().startswith("+"), units
    groups = page.locator(".tp-group")
    expect(groups.first).to_be_visible()
    for i in range(groups.count()):
        expect(groups.nth(i).locator(".rt-Badge").first).to_be_visible()
    expect(page.locator(".tp-bar").first).to_have_attribute("title", re.compile(r"\d+\.\d%"))
    _shot(page, "target-portfolio-desktop", full=True)

    # Calculate Trade Recommendations without an approved target portfolio: disabled, saying why
    page.goto("/portfolios")
    page.locator("#portfolio-search").fill("Rose Bay")
    row = page.locator(".portfolio-row").filter(has_text="Rose Bay")
    expect(row).to_have_count(1, timeout=TIMEOUT)
    pid = row.get_attribute("id").rsplit("-", 1)[1]
    page.goto(f"/portfolios/{pid}/trade-instructions")
    expect(page.locator("#ti-calculate-empty")).to_be_disabled(timeout=TIMEOUT)
    expect(page.locator("#ti-calculate-empty-reason")).to_have_text(
        "There is no target portfolio to generate trade recommendations from")
    _shot(page, "trade-recommendations-disabled")
    page.goto(f"/portfolios/{pid}/holdings")
    page.locator("#holdings-actions").click(timeout=TIMEOUT)
    expect(page.locator("#action-calculate-tr")).to_have_attribute("data-disabled", "")
    expect(page.locator("#action-calculate-tr-reason")).to_contain_text("no target portfolio")
    page.keyboard.press("Escape")

    # an unknown address: the not-found page, inside the frame (sidebar, top bar with the user menu)
    page.goto("/no-such-screen/at-all")
    expect(page.locator("#not-found")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text("Page not found")
    expect(page.locator("#user-menu")).to_be_visible()
    _shot(page, "not-found-desktop")
    page.locator("#not-found-home").click()
    expect(page).to_have_url(re.compile(r"/dashboard/?$"), timeout=TIMEOUT)

    # an e-mail field: the e-mail keyboard, but no browser bubble; the specification's text shows
    page.goto("/clients/new")
    email = page.locator("input#email")
    expect(email).to_be_visible(timeout=TIMEOUT)
    assert email.get_attribute("type") == "text" and email.get_attribute("inputmode") == "email"
    email.fill("not-an-email")
    page.locator("#user-save").click()
    expect(page.locator(".field-error", has_text="Please, enter a valid email.")).to_be_visible(timeout=TIMEOUT)
    assert email.evaluate("e => e.validationMessage") == ""
