"""Sign-in, password recovery and access control, end to end in the browser.

(a) a wrong password shows the specification's text; each demo role lands on its own home;
(b) the recovery flow: modal -> e-mail (SMTP sink) -> reset page -> 10-second countdown -> sign in
    with the new password; the used link is refused with the specification's text;
(c) a client is refused the administrator screens (sent home) and the administrator API (403), and
    an administrator cannot read another firm (404).
"""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from app.domain import auth_rules
from app.domain.permissions import NOT_ALLOWED, home_route
from app.domain.roles import Role
from app.ui import routes
from tests._harness import MailSink

DEMO_PASSWORD = "Demo1234"
CLIENT = "client@harbour.example.com"


def _path(url: str) -> str:
    return urlsplit(url).path.rstrip("/") or "/"


def _home(role: Role) -> str:
    return routes.url(home_route(role))


def _api_token(page, app_server, email: str, password: str = DEMO_PASSWORD) -> str:
    response = page.request.post(f"{app_server.url}/api/signin", data={"email": email, "password": password})
    assert response.ok, response.text()
    return response.json()["result"]["token"]


def _reset_link(app_server, email: str) -> str:
    """The reset link of the next recovery e-mail to `email`, as a path on the app under test."""
    message = app_server.mail.wait_for(email, timeout=30, subject="Reset")
    links = [link for link in MailSink.links(message) if "/reset-password/" in link]
    assert links, f"no reset link in: {MailSink.text(message)!r}"
    parts = urlsplit(links[0])
    return parts.path  # the page's base_url is app_server.url, whatever host PUBLIC_URL names


# ---- (a) sign in ------------------------------------------------------------------------------
def test_wrong_password_shows_the_specification_text(page):
    page.goto("/login")
    page.locator("#email").fill("adviser@harbour.example.com")
    page.locator("#password").fill("Wrong-password-1")
    page.locator("#signin").click()
    expect(page.locator("#login-error")).to_have_text(auth_rules.SIGNIN_FAILED)
    assert _path(page.url) == "/login"
    expect(page.locator("#password")).to_have_value("")


@pytest.mark.parametrize(
    ("email", "role"),
    [
        ("superuser@example.com", Role.SUPERUSER),
        ("admin@harbour.example.com", Role.ADMINISTRATOR),
        ("adviser@harbour.example.com", Role.ADVISER),
        (CLIENT, Role.CLIENT),
        ("admin@southerncross.example.com", Role.ADMINISTRATOR),
        ("adviser@southerncross.example.com", Role.ADVISER),
        ("client@southerncross.example.com", Role.CLIENT),
    ],
)
def test_each_demo_role_lands_on_its_home(page, login, email, role):
    login(page, email)
    home = _home(role)
    page.wait_for_url(lambda u: _path(u) == home, timeout=20_000)
    expect(page.locator("#page-title")).to_be_visible(timeout=20_000)
    expect(page.locator("#user-menu")).to_be_visible()


# ---- (b) password recovery --------------------------------------------------------------------
def _restore_client_password(page, app_server) -> None:
    """Put the demo password back through the public API, so later tests can sign in as the client."""
    response = page.request.post(f"{app_server.url}/api/password-recovery", data={"email": CLIENT})
    assert response.ok, response.text()
    token = _reset_link(app_server, CLIENT).rsplit("/", 1)[1]
    response = page.request.post(f"{app_server.url}/api/reset-password",
                                 data={"token": token, "password": DEMO_PASSWORD, "rptPassword": DEMO_PASSWORD})
    assert response.ok, response.text()


def test_password_recovery_flow(page, login, app_server):
    new_password = "Harbour2468"
    page.goto("/login")
    page.locator("#forgot-password").click()
    expect(page.locator("#recovery-email")).to_be_visible()
    page.locator("#recovery-email").fill(CLIENT)
    page.locator("#recovery-submit").click()
    expect(page.locator("#recovery-sent")).to_be_visible()
    # the modal closes itself after 10 seconds
    expect(page.locator("#recovery-sent")).to_be_hidden(timeout=20_000)

    link = _reset_link(app_server, CLIENT)
    changed = False
    try:
        page.goto(link)
        expect(page.locator("#reset")).to_be_visible(timeout=20_000)

        # an empty form is refused with the specification's texts
        page.locator("#reset").click()
        expect(page.get_by_text("Please, fill all required fields with valid data")).to_be_visible()
        expect(page.locator(".field-error", has_text="Please, enter password.")).to_be_visible()

        page.locator("#password").fill(new_password)
        page.locator("#rptPassword").fill(new_password)
        page.locator("#reset").click()
        changed = True
        expect(page.locator("#countdown")).to_contain_text("Redirecting to sign in in", timeout=15_000)
        # nobody is signed in in this browser: after the 10-second countdown the page goes to sign in
        page.wait_for_url(lambda u: _path(u) == "/login", timeout=25_000)

        # the link works once
        page.goto(link)
        expect(page.get_by_text(auth_rules.RECOVERY_LINK_INVALID).first).to_be_visible(timeout=20_000)
        page.wait_for_url(lambda u: _path(u) == "/login", timeout=20_000)

        # the old password no longer works, the new one does
        page.locator("#email").fill(CLIENT)
        page.locator("#password").fill(DEMO_PASSWORD)
        page.locator("#signin").click()
        expect(page.locator("#login-error")).to_have_text(auth_rules.SIGNIN_FAILED)
        login(page, CLIENT, new_password)
        page.wait_for_url(lambda u: _path(u) == _home(Role.CLIENT), timeout=20_000)
    finally:
        if changed:
            _restore_client_password(page, app_server)


# ---- (c) access control -----------------------------------------------------------------------
@pytest.mark.parametrize("screen", ["firms.list", "users.list"])
def test_client_is_sent_home_from_administrator_screens(page, login, screen):
    login(page, CLIENT)
    home = _home(Role.CLIENT)
    page.wait_for_url(lambda u: _path(u) == home, timeout=20_000)
    page.goto(routes.url(screen))
    page.wait_for_url(lambda u: _path(u) == home, timeout=20_000)
    expect(page.get_by_text(NOT_ALLOWED).first).to_be_visible(timeout=10_000)
    expect(page.locator("#page-title")).to_have_text("Portfolio List", timeout=20_000)
    expect(page.locator(".firm-row")).to_have_count(0)
    expect(page.locator(".user-row")).to_have_count(0)


def test_client_is_refused_the_administrator_api(page, app_server):
    token = _api_token(page, app_server, CLIENT)
    response = page.request.get(f"{app_server.url}/api/users", headers={"x-token": token})
    assert response.status == 403
    body = response.json()
    assert body["success"] is False
    assert NOT_ALLOWED in body["message"]


def test_administrator_cannot_read_another_firm(page, app_server):
    superuser = _api_token(page, app_server, "superuser@example.com")
    response = page.request.get(f"{app_server.url}/api/firms?limit=100", headers={"x-token": superuser})
    assert response.ok, response.text()
    firm_ids = {row["name"]: row["id"] for row in response.json()["result"]["rows"]}
    harbour, southern = firm_ids["Harbour Wealth Partners"], firm_ids["Southern Cross Advisory"]

    admin = _api_token(page, app_server, "admin@harbour.example.com")
    own = page.request.get(f"{app_server.url}/api/firms/{harbour}", headers={"x-token": admin})
    assert own.status == 200 and own.json()["result"]["id"] == harbour

    other = page.request.get(f"{app_server.url}/api/firms/{southern}", headers={"x-token": admin})
    assert other.status == 404
    assert other.json()["success"] is False
