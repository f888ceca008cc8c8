"""The end-to-end harness itself: the app answers on one port and a demo user can sign in."""
from playwright.sync_api import expect


def test_health_and_pages_on_one_port(page, app_server):
    response = page.request.get(f"{app_server.url}/api/health")
    assert response.ok
    assert response.json()["success"] is True
    page.goto("/login")
    expect(page.locator("#signin")).to_be_visible()


def test_superuser_signs_in(page, login):
    login(page, "superuser@example.com")
    assert "/login" not in page.url
