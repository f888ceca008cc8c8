"""What the end-to-end tests do in the browser the same way everywhere."""
from __future__ import annotations

from playwright.sync_api import Page, expect

TIMEOUT = 30_000


def see_toast(page: Page, text: str) -> None:
    """A toast (or another element) saying exactly `text` is shown."""
    expect(page.get_by_text(text, exact=True).first).to_be_visible(timeout=TIMEOUT)
