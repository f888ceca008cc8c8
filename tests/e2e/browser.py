"""What the end-to-end tests do in the browser the same way everywhere."""
from __future__ import annotations

from playwright.sync_api import Page, expect

TIMEOUT = 30_000


def see_toast(page: Page, text: str) -> None:
    """The toast saying `text` is shown; then it is closed with its close button, as a user would
    before reaching for the page's actions: toasts sit top-right, over those actions, and one stays
    while the pointer rests on it."""
    toast = page.locator("[data-sonner-toast]").filter(has=page.get_by_text(text, exact=True)).first
    expect(toast).to_be_visible(timeout=TIMEOUT)
    toast.locator("[data-close-button]").click()
    expect(toast).to_have_count(0, timeout=TIMEOUT)
