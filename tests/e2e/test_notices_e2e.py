"""Notices end to end, on the demo data: the Harbour portfolio whose record of advice awaits
client@harbour.example.com has every notice switched on. The client approves it; the adviser's
message arrives at the test SMTP server with the record of advice PDF attached (read back with
pypdf), and the superuser's outbox lists the message with its attachment's file name."""
from __future__ import annotations

import io
import re

from playwright.sync_api import Page, expect
from pypdf import PdfReader

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
CLIENT = "client@harbour.example.com"
ADVISER = "adviser@harbour.example.com"


def _awaiting_record(database_url: str) -> tuple[int, int, str]:
    """(portfolio id, target portfolio id, portfolio name) of the record awaiting the demo client on
    the portfolio the demo gave a record of advice (every notice switched on); when another browser
    test of the session has decided it already, the adviser calculates and validates a new one."""
    from sqlalchemy import create_engine, text

    query = text(
        "SELECT i.id, t.id, i.name, t.status FROM investments i "
        "JOIN investment_users iu ON iu.investment_id = i.id AND iu.is_owner "
        "JOIN users u ON u.id = iu.user_id AND u.email = :email "
        "JOIN target_portfolios t ON t.investment_id = i.id "
        "WHERE i.approval_settings LIKE :switched_on "
        "ORDER BY t.id DESC LIMIT 1")
    params = {"email": CLIENT, "switched_on": "%compliance@harbour.example.com%"}  # every notice on
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(query, params).one()
        if row[3] != "validated":
            from sqlmodel import select

            from app.db.engine import session_scope
            from app.db.tables import User
            from tests.advice_edge import tps
            from app.services.auth import actor_of
            from tests.e2e.test_orders_e2e import app_database

            with app_database(database_url):
                with session_scope() as s:
                    adviser = actor_of(s.exec(select(User).where(User.email == ADVISER)).one())
                tp = tps.calculate(actor=adviser, investment_id=int(row[0]))
                tps.validate(actor=adviser, tp_id=tp["id"], row_version=tp["row_version"])
            with engine.connect() as conn:
                row = conn.execute(query, params).one()
    finally:
        engine.dispose()
    return int(row[0]), int(row[1]), str(row[2])


def test_the_client_approves_and_the_adviser_gets_the_pdf(page: Page, login, app_server):
    pid, tp_id, name = _awaiting_record(app_server.database_url)
    login(page, CLIENT)
    page.goto(f"/portfolios/{pid}/rofa/{tp_id}")
    expect(page.locator("#rofa-status")).to_have_text("Approval Required", timeout=TIMEOUT)
    page.locator("#rofa-tab-authority").click()
    page.locator("#rofa-approve").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#authority-status")).to_have_text("Approved", timeout=TIMEOUT)

    # the adviser's message about this record (an earlier browser test may have approved another)
    for _ in range(5):
        message = app_server.mail.wait_for(ADVISER, timeout=60, subject="Record of advice approved")
        text = message.get_body(("plain",)).get_content()
        if f"/portfolios/{pid}/rofa/{tp_id}" in text:
            break
    assert message["Subject"] == f"Record of advice approved: {name}"
    assert "Harbour Wealth Partners" in text and f"/portfolios/{pid}/rofa/{tp_id}" in text
    # in the firm's branding (the demo's Harbour: default layout, #1F4E79, its footer and disclaimer)
    html = message.get_body(("html",)).get_content()
    assert "background:#1F4E79" in html and "Harbour Wealth Partners - confidential" in text
    [pdf] = [p for p in message.iter_attachments() if p.get_content_type() == "application/pdf"]
    file_name = pdf.get_filename()
    assert file_name.endswith(".pdf") and "Record of Advice" in file_name
    words = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.get_content())).pages)
    assert name in words
    # the letterhead names the adviser with their own authorised representative number
    assert re.search(r"Authorised representative no\. 100123[45]", re.sub(r"\s+", " ", words))

    # the superuser's outbox lists the message with its attachment by file name
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url(re.compile(r"/login$"), timeout=TIMEOUT)
    login(page, "superuser@example.com")
    page.goto("/outbox")
    # (the newest first; an earlier approval of the same portfolio in the session may be listed too)
    row = page.locator(".outbox-row", has_text=f"Record of advice approved: {name}").filter(has_text=ADVISER).first
    expect(row).to_be_visible(timeout=TIMEOUT)
    expect(row.locator(".outbox-attachments")).to_contain_text(file_name)
    row.click()
    expect(page.locator("#mail-attachments")).to_contain_text(file_name, timeout=TIMEOUT)
    expect(page.locator("#mail-subject")).to_have_text(re.compile("Record of advice approved"))
    page.screenshot(path=f"{ARTIFACTS}/outbox-notice.png", full_page=True)
