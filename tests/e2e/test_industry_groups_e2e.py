"""Industry groups end to end: the superuser creates a group (seeing the form's texts), renames and
recolours it, drags it to another position (HTML5 drag and drop in Chromium), is refused deleting a
group with linked assets (message and helper text), and deletes the new group after the
confirmation. An administrator only reads the list."""
from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect

SUPERUSER = "superuser@example.com"
ADMIN = "admin@harbour.example.com"
TIMEOUT = 20_000


def _row(page: Page, title: str):
    return page.locator(".ig-row").filter(has=page.locator(".ig-title", has_text=title))


def _titles(page: Page) -> list[str]:
    return page.locator(".ig-title").all_inner_texts()


def _menu(page: Page, title: str, item: str) -> None:
    _row(page, title).locator(".row-actions").click()
    page.get_by_role("menuitem", name=item).click()


def test_superuser_creates_renames_recolours_drags_and_deletes_a_group(page: Page, login) -> None:
    name = f"Gold Miners {uuid.uuid4().hex[:4]}"
    renamed = name.replace("Gold", "Precious Metal")
    login(page, SUPERUSER)
    page.goto("/industry-groups")
    expect(page.locator(".ig-row").first).to_be_visible(timeout=TIMEOUT)
    expect(_row(page, "Financials")).to_have_count(1)

    # create: the title is required and unique
    page.locator("#ig-new").click()
    expect(page.locator("#ig-editor")).to_be_visible(timeout=TIMEOUT)
    page.locator("#ig-save").click()
    expect(page.locator(".field-error").filter(has_text="Please, enter title.")).to_be_visible(timeout=TIMEOUT)
    page.locator("#ig-title").fill("financials")
    expect(page.locator(".field-error").filter(has_text="Title should be unique.")).to_be_visible(timeout=TIMEOUT)
    page.locator("#ig-title").fill(name)
    expect(page.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#ig-save").click()
    expect(page.get_by_text("Industry group saved").first).to_be_visible(timeout=TIMEOUT)
    expect(_row(page, name)).to_have_count(1, timeout=TIMEOUT)
    assert _titles(page)[-1] == name  # a new group goes to the end
    expect(_row(page, name).locator(".ig-assets")).to_have_text("0")

    # rename and recolour
    _menu(page, name, "Edit")
    expect(page.locator("#ig-title")).to_have_value(name, timeout=TIMEOUT)
    page.locator("#ig-title").fill(renamed)
    page.locator("#ig-color").fill("#c0a030")
    expect(page.locator("#ig-color-value")).to_have_text("#c0a030", timeout=TIMEOUT)
    page.locator("#ig-save").click()
    expect(_row(page, renamed)).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#ig-editor")).to_have_count(0, timeout=TIMEOUT)
    swatch = _row(page, renamed).locator(".ig-swatch")
    expect(swatch).to_have_css("background-color", "rgb(192, 160, 48)", timeout=TIMEOUT)

    # drag it by its handle onto the second row: it takes that place
    before = _titles(page)
    target = before[1]
    _row(page, renamed).locator(".ig-handle").drag_to(_row(page, target))
    expect(page.get_by_text("Industry groups has been reordered")).to_be_visible(timeout=TIMEOUT)
    expected = [before[0], renamed] + [t for t in before[1:] if t != renamed]
    expect(page.locator(".ig-title")).to_have_text(expected, timeout=TIMEOUT)
    page.reload()  # stored, not just shown
    expect(page.locator(".ig-title")).to_have_text(expected, timeout=TIMEOUT)

    # a group with linked assets cannot be deleted
    _menu(page, "Financials", "Delete")
    expect(page.locator("#confirm-message")).to_have_text("Are you sure you want to delete Financials industry group?",
                                                          timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("The industry group Financials has linked assets.")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Please, relink them to other industry groups first.")).to_be_visible(timeout=TIMEOUT)
    expect(_row(page, "Financials")).to_have_count(1)

    # delete the new one after the confirmation
    _menu(page, renamed, "Delete")
    expect(page.locator("#confirm-message")).to_have_text(f"Are you sure you want to delete {renamed} industry group?",
                                                          timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Industry group deleted")).to_be_visible(timeout=TIMEOUT)
    expect(_row(page, renamed)).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator(".ig-title")).to_have_text([t for t in expected if t != renamed], timeout=TIMEOUT)


def test_administrators_read_the_list_without_changing_it(page: Page, login) -> None:
    login(page, ADMIN)
    page.goto("/industry-groups")
    expect(_row(page, "Financials")).to_have_count(1, timeout=TIMEOUT)
    expect(page.get_by_text("Industry groups are kept by the superuser.")).to_be_visible()
    expect(page.locator("#ig-new")).to_have_count(0)
    expect(page.locator(".ig-handle")).to_have_count(0)
    expect(page.locator(".row-actions")).to_have_count(0)
