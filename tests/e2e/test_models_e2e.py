"""Models end to end: an administrator builds a model through the form (a class with an asset
picked from the demo universe), sees the total-allocation error, saves it as a draft, activates
it on edit with a formatted market commentary (shown formatted on its page), finds it Active in the models list and opens its history (two versions) and a version."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.browser import type_commentary

ADMIN = "admin@harbour.example.com"
TIMEOUT = 20_000


def test_administrator_builds_saves_and_activates_a_model(page: Page, login) -> None:
    name = f"Harbour Growth {uuid.uuid4().hex[:6]}"
    login(page, ADMIN)

    # the list's primary action opens the form
    page.goto("/models")
    expect(page.locator("#new-model")).to_be_visible(timeout=TIMEOUT)
    page.locator("#new-model").click()
    page.wait_for_url(re.compile(r".*/models/new$"), timeout=TIMEOUT)
    expect(page.locator("#model-name")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#class-0")).to_contain_text("Cash", timeout=TIMEOUT)  # the cash class is always there

    page.locator("#model-name").fill(name)

    # add a class, then an asset of that class through the asset picker
    page.locator("#add-class").click()
    page.get_by_role("option", name="Australian Equities", exact=True).click()
    expect(page.locator("#class-1")).to_contain_text("Australian Equities", timeout=TIMEOUT)
    page.locator("#class-1-add-asset").click()
    expect(page.locator("#asset-picker")).to_be_visible(timeout=TIMEOUT)
    page.locator("#asset-picker-search").fill("BHP")
    pick = page.locator(".asset-picker-row[data-code='BHP']")
    expect(pick).to_be_visible(timeout=TIMEOUT)
    pick.click()
    expect(page.locator("#class-1 .class-asset")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#class-1 .class-asset")).to_contain_text("BHP")

    # allocations that do not add up to 100: activating is refused with the spec's text
    page.locator("#class-0-allocation").fill("10")
    page.locator("#class-1-allocation").fill("80")
    expect(page.locator("#class-total")).to_have_text("Total: 90.0%", timeout=TIMEOUT)
    expect(page.locator("#class-total")).to_have_attribute("data-color", "warning")
    page.locator("#model-save-active").click()
    expect(page.locator("#model-form-message")).to_have_text("Total allocation has to be 100%.", timeout=TIMEOUT)
    expect(page.locator("#class-total-error")).to_have_text("Total allocation has to be 100%.")
    expect(page).to_have_url(re.compile(r".*/models/new$"))

    # fixed: the total turns green and the live check clears the error; save as draft
    page.locator("#class-1-allocation").fill("90")
    expect(page.locator("#class-total")).to_have_text("Total: 100.0%", timeout=TIMEOUT)
    expect(page.locator("#class-total")).to_have_attribute("data-color", "success")
    expect(page.locator("#model-form-message")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#model-save-draft").click()
    expect(page.get_by_text("Model created as draft.")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/models/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text(name, timeout=TIMEOUT)
    expect(page.locator("#details-status")).to_have_text("Draft")
    expect(page.locator(".asset-card").filter(has_text="BHP")).to_have_count(1)

    # edit and activate
    page.locator("#details-edit").click()
    page.wait_for_url(re.compile(r".*/models/\d+/edit$"), timeout=TIMEOUT)
    expect(page.locator("#class-1-allocation")).to_have_value("90", timeout=TIMEOUT)
    # the market commentary in the spec's editor (300 px high, 14 px type): a bold phrase and a list
    page.locator("#tab-commentary").click()
    editor = page.get_by_role("textbox", name="Market commentary")
    expect(editor).to_be_visible(timeout=TIMEOUT)
    assert editor.evaluate("e => [getComputedStyle(e).height, getComputedStyle(e).fontSize]") == ["300px", "14px"]
    type_commentary(page, "Market commentary", "Growth first", " for long horizons.", ["Equities overweight"])
    page.locator("#model-save-active").click()
    expect(page.get_by_text("Model saved and activated.")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/models/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#details-status")).to_have_text("Active", timeout=TIMEOUT)
    # stored as sanitised HTML and shown formatted on the model's page
    commentary = page.locator("#model-commentary-market")
    expect(commentary.locator("strong")).to_have_text("Growth first", timeout=TIMEOUT)
    expect(commentary.locator("ul li")).to_have_text(["Equities overweight"])
    expect(commentary).to_contain_text("Growth first for long horizons.")

    # the list shows it Active
    page.goto("/models")
    page.locator("#model-search").fill(name)
    row = page.locator(".model-row").filter(has_text=name)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    expect(row.locator(".model-status")).to_have_text("Active")

    # its history has two versions, newest first; the oldest opens read-only with its banner
    row.locator(".model-name").click()
    page.wait_for_url(re.compile(r".*/models/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#details-history")).to_be_visible(timeout=TIMEOUT)
    page.locator("#details-history").click()
    page.wait_for_url(re.compile(r".*/models/\d+/history$"), timeout=TIMEOUT)
    versions = page.locator(".history-row")
    expect(versions).to_have_count(2, timeout=TIMEOUT)
    expect(versions.first).to_contain_text("Version 2")
    expect(versions.last).to_contain_text("Version 1")
    expect(versions.first).to_contain_text("Olivia Bennett")
    versions.last.click()
    page.wait_for_url(re.compile(r".*/models/\d+/history/1$"), timeout=TIMEOUT)
    expect(page.locator("#version-banner")).to_contain_text(f"Version 1 of {name}, saved ", timeout=TIMEOUT)
    expect(page.locator("#version-banner")).to_contain_text("by Olivia Bennett")
    expect(page.locator("#model-save-active")).to_have_count(0)
    expect(page.locator("#model-name")).to_have_value(name)
