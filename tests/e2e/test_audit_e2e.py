"""Audit trail end to end: a failed and a good sign-in and a portfolio change show on the
administrator's audit screen, filter by action, export to Excel, and the portfolio's history lists
its change; the adviser has no audit screen."""
from __future__ import annotations

import io
import uuid

from openpyxl import load_workbook
from playwright.sync_api import expect

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"


def test_administrator_reads_the_trail_and_a_portfolio_history(page, login, app_server):
    # a failed sign-in first, then the real one
    page.goto("/login")
    page.locator("#email").fill("admin@harbour.example.com")
    page.locator("#password").fill("Wrong9999")
    page.locator("#signin").click()
    expect(page.locator("#login-error")).to_be_visible(timeout=TIMEOUT)
    login(page, "admin@harbour.example.com")

    # rename a portfolio through its form
    page.goto("/portfolios")
    first = page.locator(".portfolio-name").first
    expect(first).to_be_visible(timeout=TIMEOUT)
    new_name = f"Audited Fund {uuid.uuid4().hex[:6]}"
    page.locator("[id^='portfolio-actions-']").first.click()
    page.get_by_role("menuitem", name="Edit Details").click()
    name_field = page.locator("#portfolio-name")
    expect(name_field).to_be_visible(timeout=TIMEOUT)
    name_field.fill(new_name)
    page.locator("#portfolio-save").click()
    expect(page.get_by_text("Portfolio is created/updated")).to_be_visible(timeout=TIMEOUT)

    page.goto("/audit")
    rows = page.locator(".audit-row")
    expect(rows.first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".audit-row[data-action='portfolio.updated']").first).to_contain_text(new_name)
    expect(page.locator(".audit-row[data-action='signin.failed']").first).to_contain_text("admin@harbour.example.com")
    expect(page.locator(".audit-row[data-action='signin']").first).to_be_visible()
    # at 1440 px the six columns fit: the last (From) ends inside the table's card
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(300)
    card = page.locator(".audit-row").first.locator("xpath=ancestor::table[1]/..").bounding_box()
    last = page.locator(".audit-row .audit-ip").first.bounding_box()
    assert last["x"] + last["width"] <= card["x"] + card["width"] + 1, (last, card)
    page.screenshot(path=f"{ARTIFACTS}/audit-trail.png", full_page=True)
    # a From date after the To date says so
    page.locator("#audit-to").fill("01/03/2026")
    page.locator("#audit-from").fill("10/03/2026")
    expect(page.locator("#audit-date-error")).to_have_text("The From date has to be on or before the To date.",
                                                           timeout=TIMEOUT)
    expect(page.locator(".audit-row")).to_have_count(0)
    page.locator("#audit-clear").click()
    expect(page.locator("#audit-date-error")).to_have_count(0, timeout=TIMEOUT)
    expect(rows.first).to_be_visible(timeout=TIMEOUT)

    # only the failed sign-ins
    page.locator("#audit-action-filter").click()
    page.get_by_role("option", name="Sign-in failed").click()
    expect(page.locator(".audit-row[data-action='signin']")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator(".audit-row[data-action='signin.failed']").first).to_be_visible()

    with page.expect_download(timeout=TIMEOUT) as download:
        page.locator("#audit-excel").click()
    assert download.value.suggested_filename.startswith("Audit Trail - ")
    sheet = load_workbook(io.BytesIO(open(download.value.path(), "rb").read())).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][:3] == ("When", "Who", "Action")
    assert {v[2] for v in values[1:]} == {"Sign-in failed"}

    # the portfolio's own history, from the list's row menu
    page.goto("/portfolios")
    row = page.locator("tr").filter(has_text=new_name)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    row.locator("[id^='portfolio-actions-']").click()
    page.get_by_role("menuitem", name="History").click()
    history = page.locator(".audit-row[data-action='portfolio.updated']")
    expect(history.first).to_contain_text(new_name, timeout=TIMEOUT)
    page.screenshot(path=f"{ARTIFACTS}/portfolio-history.png", full_page=True)


def test_advisers_have_no_audit_screen(page, login):
    login(page, "adviser@harbour.example.com")
    expect(page.locator("a[href='/audit']")).to_have_count(0)
    page.goto("/audit")
    expect(page.get_by_text("You are not allowed")).to_be_visible(timeout=TIMEOUT)
