"""Firms end to end: a superuser creates a firm through the form (with the form's validation
texts), finds it in the firms list, then edits it."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

SUPERUSER = "superuser@example.com"
TIMEOUT = 20_000


def _field_error(page: Page, text: str):
    return page.locator(".field-error").filter(has_text=text)


def test_superuser_creates_finds_and_edits_a_firm(page: Page, login) -> None:
    name = f"Kestrel Advisory {uuid.uuid4().hex[:6]}"
    login(page, SUPERUSER)

    page.goto("/firms")
    expect(page.locator("#new-firm")).to_be_visible(timeout=TIMEOUT)
    page.locator("#new-firm").click()
    page.wait_for_url(re.compile(r".*/firms/new$"), timeout=TIMEOUT)
    expect(page.locator("#name")).to_be_visible(timeout=TIMEOUT)

    # the first submit marks every invalid field: the firm name is required
    page.locator("#firm-save").click()
    expect(_field_error(page, "Please, enter firm name.")).to_be_visible(timeout=TIMEOUT)

    # after the first submit the form validates as the user types
    page.locator("#name").fill(name)
    page.locator("#website").fill("not a website")
    page.locator("#email").click()
    expect(_field_error(page, "Please, enter firm name.")).to_have_count(0, timeout=TIMEOUT)
    expect(_field_error(page, "Please, enter a valid website.")).to_be_visible(timeout=TIMEOUT)
    page.locator("#firm-save").click()
    expect(_field_error(page, "Please, enter a valid website.")).to_be_visible(timeout=TIMEOUT)
    expect(page).to_have_url(re.compile(r".*/firms/new$"))

    page.locator("#website").fill("https://kestrel.example.com.au")
    page.locator("#email").fill("office@kestrel.example.com.au")
    page.locator("#phone").fill("(02) 9000 1234")
    page.locator("#licensee-name").fill("Kestrel Licensee Pty Ltd")
    page.locator("#licensee-email").fill("compliance@kestrel.example.com.au")
    page.locator("#fee").fill("0.11")
    page.locator("#minFee").fill("19.95")
    page.locator("#maxFee").fill("150")
    page.locator("#ausiexCode").fill("KES001")
    page.locator("#firm-save").click()

    expect(page.get_by_text("Firm is created")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/firms/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text(name, timeout=TIMEOUT)
    expect(page.locator("#maxFee")).to_have_value("150.00")

    # the new firm is in the list
    page.goto("/firms")
    page.locator("#firm-search").fill("Kestrel")
    row = page.locator(".firm-row").filter(has_text=name)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    expect(row).to_contain_text("office@kestrel.example.com.au")

    # open it, edit it
    row.locator(".firm-name").click()
    page.wait_for_url(re.compile(r".*/firms/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#firm-edit")).to_be_visible(timeout=TIMEOUT)
    page.locator("#firm-edit").click()
    page.wait_for_url(re.compile(r".*/firms/\d+/edit$"), timeout=TIMEOUT)
    expect(page.locator("#phone")).to_have_value("(02) 9000 1234", timeout=TIMEOUT)
    page.locator("#phone").fill("(02) 9000 5678")
    page.locator("#firm-save").click()

    expect(page.get_by_text("Firm is updated")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/firms/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#phone")).to_have_value("(02) 9000 5678", timeout=TIMEOUT)
    expect(page.locator("#firm-edit")).to_be_visible()
