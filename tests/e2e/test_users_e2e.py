"""Users screens end to end: an administrator creates a client through the form, finds it in the
clients list, the activation e-mail reaches the SMTP sink, and the client is deleted after the
confirmation."""
from __future__ import annotations

import uuid
from urllib.parse import urlsplit

from playwright.sync_api import expect


def _path(url: str) -> str:
    return urlsplit(url).path.rstrip("/")


def test_admin_creates_finds_and_deletes_a_client(page, login, app_server):
    tag = uuid.uuid4().hex[:8]
    last_name = f"Tester{tag}"
    email = f"e2e.client.{tag}@harbour.example.com"

    login(page, "admin@harbour.example.com")
    page.goto("/clients")
    page.locator("#new-user").click()
    page.wait_for_url(lambda u: _path(u) == "/clients/new")
    expect(page.locator("#user-save")).to_be_visible()

    # an empty submit marks the required fields with the specification's texts and saves nothing
    page.locator("#user-save").click()
    expect(page.locator(".field-error", has_text="Please, enter first name.")).to_be_visible()
    expect(page.locator(".field-error", has_text="Please, enter last name.")).to_be_visible()
    expect(page.locator(".field-error", has_text="Please, enter email.")).to_be_visible()
    assert _path(page.url) == "/clients/new"

    # then live: a bad e-mail shows its text while typing, a good one clears it
    page.locator("#email").fill("not-an-email")
    expect(page.locator(".field-error", has_text="Please, enter a valid email.")).to_be_visible()

    page.locator("#first_name").fill("Eve")
    page.locator("#last_name").fill(last_name)
    page.locator("#email").fill(email)
    page.locator("#phone").fill("0412345678")
    expect(page.locator(".field-error")).to_have_count(0)
    page.locator("#user-save").click()

    expect(page.get_by_text("User is created")).to_be_visible(timeout=15_000)
    page.wait_for_url(lambda u: _path(u) == "/clients")

    # the activation e-mail went to the new client
    message = app_server.mail.wait_for(email, timeout=30, subject="Activate")
    body = message.get_body(preferencelist=("plain",)) if message.is_multipart() else message
    assert "/activation/" in body.get_content()

    # the client is in the clients list (wait for the list to load before searching it)
    expect(page.locator(".user-row").first).to_be_visible(timeout=10_000)
    page.locator("#search").fill(last_name)
    expect(page.locator("#showing")).to_have_text("Showing 1\u20131 of 1", timeout=10_000)  # the search has run
    row = page.locator(".user-row", has_text=email)
    expect(row).to_have_count(1, timeout=10_000)
    expect(row).to_contain_text(f"Eve {last_name}")
    expect(row).to_contain_text("Active")

    # delete it from the row menu, after the confirmation
    row.locator(".row-actions").click()
    delete_item = page.get_by_role("menuitem", name="Delete")
    expect(delete_item).to_be_visible()
    delete_item.click()
    expect(page.locator("#confirm-message")).to_have_text("Are you sure you want to delete user?")
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("User is deleted")).to_be_visible(timeout=10_000)
    expect(page.locator(".user-row", has_text=email)).to_have_count(0)


def test_admin_gives_a_new_adviser_an_authorised_representative_number(page, login, app_server):
    """The adviser's own AR number (printed under their name on client documents): digits only,
    with the specification's text, and shown on the saved adviser."""
    tag = uuid.uuid4().hex[:8]
    email = f"e2e.adviser.{tag}@harbour.example.com"
    login(page, "admin@harbour.example.com")
    page.goto("/advisers/new")
    expect(page.locator("#user-save")).to_be_visible(timeout=15_000)
    page.locator("#first_name").fill("Ava")
    page.locator("#last_name").fill(f"Adviser{tag}")
    page.locator("#email").fill(email)
    page.locator("#ar_number").fill("10-12")
    page.locator("#user-save").click()
    expect(page.locator(".field-error", has_text="Please, enter a valid number.")).to_be_visible()
    assert _path(page.url) == "/advisers/new"
    page.locator("#ar_number").fill("1009999")
    expect(page.locator(".field-error")).to_have_count(0)
    page.locator("#user-save").click()
    expect(page.get_by_text("User is created")).to_be_visible(timeout=15_000)
    page.wait_for_url(lambda u: _path(u) == "/advisers")
    page.locator("#search").fill(f"Adviser{tag}")
    row = page.locator(".user-row", has_text=email)
    expect(row).to_have_count(1, timeout=10_000)
    row.locator(".row-actions").click()  # (the row itself opens the adviser's clients)
    page.get_by_role("menuitem", name="View Details").click()
    expect(page.locator("#ar_number")).to_have_value("1009999", timeout=15_000)
