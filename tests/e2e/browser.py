"""What the end-to-end tests do in the browser the same way everywhere."""
from __future__ import annotations

from playwright.sync_api import Page, expect

TIMEOUT = 30_000


def see_toast(page: Page, text: str) -> None:
    """A toast (or another element) saying exactly `text` is shown."""
    expect(page.get_by_text(text, exact=True).first).to_be_visible(timeout=TIMEOUT)


DEMO_PASSWORD = "Demo1234"


def api_token(page: Page, email: str, password: str = DEMO_PASSWORD) -> tuple[str, int]:
    """(session token, user id) of a demo user signed in over REST, for reading the API's figures."""
    answer = page.request.post("/api/signin", data={"email": email, "password": password}).json()
    assert answer["success"], answer
    return answer["result"]["token"], answer["result"]["user"]["id"]


def api_get(page: Page, token: str, path: str) -> dict:
    """The result of a GET over REST with that token (the call must succeed)."""
    answer = page.request.get(path, headers={"x-token": token}).json()
    assert answer["success"], answer
    return answer["result"]


def type_commentary(page: Page, label: str, bold: str, rest: str, bullets: list[str]) -> None:
    """Types into the rich-text editor named `label` (already emptied or new): `bold` in bold (Ctrl+B
    on and off), then `rest`, a new line, and `bullets` as a bulleted list (the toolbar's button)."""
    page.get_by_role("textbox", name=label).click()
    page.keyboard.press("Control+b")
    page.keyboard.type(bold)
    page.keyboard.press("Control+b")
    page.keyboard.type(rest)
    page.keyboard.press("Enter")
    page.get_by_role("toolbar", name=f"{label}: formatting").get_by_role("button", name="Bulleted list").click()
    for i, item in enumerate(bullets):
        if i:
            page.keyboard.press("Enter")
        page.keyboard.type(item)
