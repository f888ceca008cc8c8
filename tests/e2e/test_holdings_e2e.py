"""Holdings end to end, as the Harbour adviser on a portfolio of Liam O'Connor's seeded with cash and
BHP shares through the one posting function: the header cards and the BHP row show the figures the
holdings service computes; a custom holding added through the modal raises the total; a second one
with the same name marks the name field ('Name should be unique.') until the name is edited; closing
the modal with changes asks 'Do you want to save changes?'; the Excel export downloads a real
workbook; a client sees the same holdings read-only."""
from __future__ import annotations

import io
import json
import re
import uuid
from datetime import datetime, timezone
from decimal import Decimal

from openpyxl import load_workbook
from playwright.sync_api import Page, expect
from sqlmodel import Session, create_engine, select

from app.db.tables import (
    Asset, AssetClass, CashTransaction, Firm, Model, ModelClass, Portfolio, PortfolioUser, User,
)
from app.domain.cgt import format_aud
from app.services import holdings, postings

ADVISER = "adviser@harbour.example.com"
CLIENT = "client@harbour.example.com"
TIMEOUT = 30_000
APPROVAL = {"tp_validation_required": True, "tr_validation_required": True, "tp_approval_required": True,
            "tp_approval_request": True, "tr_approval_request": True, "tr_approval_required": True,
            "tr_auto_approval": "never"}


def _engine(url: str):
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return create_engine(url)


def _seed(database_url: str, targets: dict[str, str] | None = None,
          bands: dict[str, tuple[str, str]] | None = None) -> tuple[int, str, Decimal, Decimal]:
    """A Harbour portfolio held by Liam O'Connor: a $50,000 credit and 100 BHP bought at $40 with
    $9.95 brokerage; with `targets` ({class title: percent}) linked to a new model allocating so,
    each class within `bands` ({class title: (min, max)}) where given.
    Returns (id, name, total value, BHP value) as the service computes them."""
    name = f"E2E Holdings {uuid.uuid4().hex[:6]}"
    engine = _engine(database_url)
    try:
        with Session(engine, expire_on_commit=False) as s:
            firm = s.exec(select(Firm).where(Firm.name == "Harbour Wealth Partners")).one()
            client = s.exec(select(User).where(User.email == CLIENT)).one()
            adviser = s.exec(select(User).where(User.email == ADVISER)).one()
            bhp = s.exec(select(Asset).where(Asset.code == "BHP")).one()
            model_id = None
            if targets:
                model = Model(firm_id=firm.id, name=f"E2E Model {uuid.uuid4().hex[:6]}", status="active")
                s.add(model)
                s.flush()
                for title, allocation in targets.items():
                    klass = s.exec(select(AssetClass).where(AssetClass.title == title, AssetClass.firm_id.is_(None))).one()
                    low, high = (bands or {}).get(title, (None, None))
                    s.add(ModelClass(model_id=model.id, class_id=klass.id, allocation=Decimal(allocation),
                                     min=Decimal(low) if low else None, max=Decimal(high) if high else None))
                model_id = model.id
            p = Portfolio(firm_id=firm.id, name=name, type="SAVINGS", adviser_id=adviser.id, inactive=False,
                          model_id=model_id, approval_settings=json.dumps(APPROVAL))
            s.add(p)
            s.flush()
            s.add(PortfolioUser(investment_id=p.id, user_id=client.id, is_owner=True))
            day = datetime(2026, 1, 5, tzinfo=timezone.utc)
            s.add(CashTransaction(investment_id=p.id, type="cash", action="increase", status="executed",
                                  price=Decimal("50000.00"), trade_at=day, created_at=day, updated_at=day))
            postings.record(s, actor_id=adviser.id, portfolio=p, kind="asset_buy", status="executed", trade_at=day,
                            asset_id=bhp.id, quantity=Decimal(100), price=Decimal("40"), fee=Decimal("9.95"))
            s.flush()
            h = holdings.compute(s, p)
            s.commit()
            return p.id, name, h.totals.value, h.shares[0].value
    finally:
        engine.dispose()


def test_adviser_adds_a_custom_holding_and_downloads_the_excel_export(page: Page, login, app_server) -> None:
    pid, name, total, bhp_value = _seed(app_server.database_url)
    login(page, ADVISER)
    page.goto(f"/portfolios/{pid}/holdings")

    # header, breadcrumbs (portfolio, owners linking to the client's portfolios) and the BHP row
    expect(page.locator("#total-value")).to_have_text(format_aud(total), timeout=TIMEOUT)
    expect(page.locator("#cash-value")).to_have_text("$45,990.05")
    expect(page.locator("#crumb-portfolio")).to_have_text(name)
    expect(page.locator("#crumb-owners")).to_contain_text("Liam O'Connor")
    bhp = page.locator(".holding-row[data-code='BHP']")
    expect(bhp).to_contain_text("BHP Group Limited")
    expect(bhp).to_contain_text(format_aud(bhp_value))
    expect(bhp).to_contain_text("$4,009.95")
    expect(bhp.locator("td").nth(2)).to_have_text("100")
    expect(page.locator(".class-header[data-class='Cash']")).to_be_visible()
    expect(page.locator(".class-header[data-class='Australian Equities']")).to_be_visible()
    expect(page.locator("#no-model")).to_be_visible()
    page.screenshot(path="tests/e2e/artifacts/holdings-desktop.png", full_page=True)

    # add a custom holding: the total goes up by its value
    page.locator("#holdings-actions").click()
    page.locator("#action-custom").click()
    expect(page.locator("#custom-holding-modal")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#ch-title")).to_have_text("New custom holding")
    page.locator("#ch-save").click()
    expect(page.locator("#custom-holding-modal")).to_contain_text("Please, enter name.", timeout=TIMEOUT)
    page.locator("#ch-name").fill("Beach House")
    page.locator("#ch-class").click()
    page.get_by_role("option", name="Property").click()
    page.locator("#ch-value").fill("250000")
    page.locator("#ch-fee").fill("0.5")
    page.screenshot(path="tests/e2e/artifacts/holdings-modal.png")
    page.locator("#ch-save").click()
    expect(page.get_by_text("Custom holding is created")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#custom-holding-modal")).to_have_count(0)
    expect(page.locator("#total-value")).to_have_text(format_aud(total + Decimal("250000")), timeout=TIMEOUT)
    house = page.locator(".holding-row[data-name='Beach House']")
    expect(house).to_contain_text("$250,000.00")
    expect(page.locator(".class-header[data-class='Property']")).to_be_visible()

    # the same name again: the name field is marked until the name is edited
    page.locator("#holdings-actions").click()
    page.locator("#action-custom").click()
    page.locator("#ch-name").fill("beach house")
    page.locator("#ch-class").click()
    page.get_by_role("option", name="Property").click()
    page.locator("#ch-value").fill("10")
    page.locator("#ch-save").click()
    modal = page.locator("#custom-holding-modal")
    expect(modal.locator(".field-error")).to_have_text(["Name should be unique."], timeout=TIMEOUT)
    page.locator("#ch-name").fill("beach house 2")
    expect(modal.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)

    # closing with changes asks first; Discard closes without saving
    page.locator("#ch-cancel").click()
    expect(page.locator("#ch-prompt-text")).to_have_text("Do you want to save changes?", timeout=TIMEOUT)
    page.locator("#ch-discard").click()
    expect(page.locator("#custom-holding-modal")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator(".holding-row[data-kind='custom']")).to_have_count(1)

    # an existing holding opens in view mode; the switch turns editing on, and turning it off with
    # changes asks first: Discard goes back to the saved values
    house.locator(".custom-name").click()
    expect(page.locator("#ch-title")).to_have_text("Custom holding", timeout=TIMEOUT)
    expect(page.locator("#ch-value")).to_have_value("250000")
    expect(page.locator("#ch-value")).to_have_attribute("readonly", "")
    expect(page.locator("#ch-save")).to_have_count(0)
    page.locator("#ch-edit-switch").click()
    expect(page.locator("#ch-title")).to_have_text("Edit custom holding", timeout=TIMEOUT)
    page.locator("#ch-value").fill("260000")
    page.locator("#ch-edit-switch").click()
    expect(page.locator("#ch-prompt-text")).to_have_text("Do you want to save changes?", timeout=TIMEOUT)
    page.locator("#ch-discard").click()
    expect(page.locator("#ch-title")).to_have_text("Custom holding", timeout=TIMEOUT)
    expect(page.locator("#ch-value")).to_have_value("250000")
    page.locator("#ch-cancel").click()
    expect(page.locator("#custom-holding-modal")).to_have_count(0, timeout=TIMEOUT)

    # the Excel export is a real workbook with the holdings
    page.locator("#holdings-actions").click()
    with page.expect_download(timeout=TIMEOUT) as info:
        page.locator("#action-excel").click()
    download = info.value
    assert re.fullmatch(re.escape(name) + r" - Holdings - \d\d-\d\d-\d{4}\.xlsx", download.suggested_filename)
    ws = load_workbook(io.BytesIO(open(download.path(), "rb").read())).active
    values = [c.value for row in ws.iter_rows() for c in row if c.value is not None]
    assert name in values and "Liam O'Connor" in values and "BHP" in values
    assert "Beach House (Custom holding)" in values and float(total + Decimal("250000")) in values

    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path="tests/e2e/artifacts/holdings-phone.png", full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})

    # deleting the custom holding asks first, then the total goes back
    house.locator(".row-actions").click()
    page.locator(".custom-delete").click()
    expect(page.locator("#confirm-message")).to_have_text(
        "Are you sure you want to delete the custom holding Beach House?", timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Custom holding is deleted")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#total-value")).to_have_text(format_aud(total), timeout=TIMEOUT)
    expect(page.locator(".holding-row[data-kind='custom']")).to_have_count(0)


def test_adviser_unlinks_the_model(page: Page, login, app_server) -> None:
    pid, _name, _total, _ = _seed(app_server.database_url, {"Cash": "100"})
    login(page, ADVISER)
    page.goto(f"/portfolios/{pid}/holdings")
    expect(page.locator("#crumb-model")).to_contain_text("E2E Model", timeout=TIMEOUT)
    page.locator("#holdings-actions").click()
    page.locator("#action-unlink").click()
    expect(page.locator("#confirm-message")).to_contain_text("Are you sure you want to unlink the model E2E Model",
                                                             timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Model unlinked")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#no-model")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#crumb-model")).to_have_count(0)
    expect(page.locator("#target-total")).to_have_count(0)


def test_client_sees_the_holdings_read_only_with_the_model_targets(page: Page, login, app_server) -> None:
    # nearly all of the value is cash (about 91%) against a 40-60% band: danger (5 points or more
    # outside); the shares (under 10%) against a 5-55% band: inside, success - the drift module's
    # rule, as the dashboard colours them; the targets add up to exactly 100: success
    pid, name, total, bhp_value = _seed(app_server.database_url, {"Cash": "50", "Australian Equities": "50"},
                                        {"Cash": ("40", "60"), "Australian Equities": ("5", "55")})
    shares = bhp_value * 100 / total
    assert Decimal(5) < shares < Decimal(55)
    login(page, CLIENT)
    page.goto(f"/portfolios/{pid}/holdings")
    expect(page.locator("#total-value")).to_have_text(format_aud(total), timeout=TIMEOUT)
    expect(page.locator("#crumb-model")).to_contain_text("E2E Model")
    expect(page.locator(".class-bar[data-class='Cash']")).to_have_attribute("data-color", "danger")
    expect(page.locator(".class-bar[data-class='Australian Equities']")).to_have_attribute("data-color", "success")
    expect(page.locator(".class-bar[data-class='Cash'] .bar-target")).to_have_text("/ 50.0%")
    expect(page.locator("#target-total")).to_have_text("Target Total: 100.0%")
    expect(page.locator("#target-total")).to_have_attribute("data-color", "success")
    page.screenshot(path="tests/e2e/artifacts/holdings-client.png", full_page=True)
    page.locator("#holdings-actions").click()
    expect(page.locator("#action-cash")).to_be_visible()
    expect(page.locator("#action-excel")).to_be_visible()
    for hidden in ("#action-link", "#action-unlink", "#action-custom", "#action-deposit"):
        expect(page.locator(hidden)).to_have_count(0)
