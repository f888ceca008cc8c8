"""Portfolios end to end: an administrator opens a demo client's portfolios from the clients list,
creates a trust portfolio through the form (required texts, trustee name, approval switch rules,
the receiver list), finds it in the list (All portfolios: new ones start inactive), edits it, links
a model on the buy screen and unlinks it from the form. A second firm's administrator links a model
of another firm and sees the cross-firm confirmation. Screenshots at 1440x900 and 390x844 go to
tests/e2e/artifacts/portfolios-*.png."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS

ADMIN = "admin@harbour.example.com"
SOUTHERN_ADMIN = "admin@southerncross.example.com"
CLIENT = "client@harbour.example.com"
TIMEOUT = 20_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # let toasts and dialogs settle
    page.screenshot(path=str(ARTIFACTS / f"portfolios-{name}.png"), full_page=False)


def _both_sizes(page: Page, name: str) -> None:
    _shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    _shot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def _choose(page: Page, trigger: str, option: str) -> None:
    page.locator(trigger).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_administrator_creates_edits_and_links_a_portfolio(page: Page, login) -> None:
    name = f"O'Connor Family Trust {uuid.uuid4().hex[:5]}"
    login(page, ADMIN)
    page.wait_for_url(re.compile(r".*/dashboard$"), timeout=TIMEOUT)  # the administrator's home
    page.goto("/portfolios")
    expect(page.locator("#page-title")).to_have_text("Portfolio List", timeout=TIMEOUT)
    expect(page.locator("#breadcrumbs")).to_have_text("Portfolios")
    expect(page.locator("#portfolio-new")).to_have_count(0)  # 'Add New' only with a client

    # a client's row opens the client's portfolios, which offer 'Add New'
    page.goto("/clients")
    page.locator("#search").fill("O'Connor")
    row = page.locator(".user-row").filter(has_text="Liam O'Connor")
    expect(row).to_have_count(1, timeout=TIMEOUT)
    row.locator(".user-name").click()
    page.wait_for_url(re.compile(r".*/clients/\d+/portfolios$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text("Liam O'Connor \u00b7 Portfolio List", timeout=TIMEOUT)
    page.locator("#portfolio-new").click()
    page.wait_for_url(re.compile(r".*/clients/\d+/new-portfolio.*"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text("Portfolio Details - New", timeout=TIMEOUT)
    expect(page.locator(".holder-row")).to_contain_text("Liam O'Connor")
    expect(page.locator("#portfolio-firm")).to_have_value("Harbour Wealth Partners")
    _both_sizes(page, "form-new")

    # an empty save marks the required fields with the specification's texts
    page.locator("#portfolio-save").click()
    expect(page.locator("#portfolio-form-message")).to_have_text("Please, fill all required fields with valid data.",
                                                                 timeout=TIMEOUT)
    expect(page.locator(".field-error", has_text="Please, enter portfolio name.")).to_be_visible()
    expect(page.locator(".field-error", has_text="Please, select portfolio type.")).to_be_visible()

    page.locator("#portfolio-name").fill(name)
    _choose(page, "#type", "Trust")
    expect(page.locator(".field-error", has_text="Please, enter trustee name.")).to_be_visible(timeout=TIMEOUT)
    page.locator("#trustee_name").fill("O'Connor Nominees Pty Ltd")
    _choose(page, "#tax_treatment", "LIFO (last in, first out)")
    page.locator("#fee_percent").fill("0.8")

    # approval switch rules apply live: trade approval off turns its request off
    expect(page.locator("#approval-tr-approval-request")).to_have_attribute("data-state", "checked")
    page.locator("#approval-tr-approval-required").click()
    expect(page.locator("#approval-tr-approval-request")).to_have_attribute("data-state", "unchecked", timeout=TIMEOUT)
    # a 'send to other e-mail' switch needs a valid receiver list
    page.locator("#approval-client-send-tp-to-other-email").click()
    receivers = page.locator("#receivers-client-tp-other-email")
    expect(receivers).to_be_visible(timeout=TIMEOUT)
    receivers.fill("accountant@example.com, not-an-email")
    expect(page.locator(".field-error", has_text="Please, enter valid e-mail addresses separated by commas.")) \
        .to_be_visible(timeout=TIMEOUT)
    receivers.fill("accountant@example.com, trustee@example.com")
    expect(page.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)

    page.locator("#portfolio-save").click()
    expect(page.get_by_text("Portfolio is created/updated").first).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/portfolios/\d+$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text("Portfolio Details", timeout=TIMEOUT)
    expect(page.locator("#portfolio-name")).to_have_value(name)
    expect(page.locator("#portfolio-status")).to_contain_text("Inactive")  # new portfolios start inactive
    expect(page.locator("#trustee_name")).to_have_value("O'Connor Nominees Pty Ltd")
    expect(page.locator("#receivers-client-tp-other-email")).to_have_value("accountant@example.com, trustee@example.com")
    expect(page.locator("#portfolio-model")).to_have_text("Not linked to a model.")
    _both_sizes(page, "form-view")

    # the list: hidden by the default Active filter, found under All portfolios
    page.goto("/portfolios")
    page.locator("#portfolio-search").fill(name)
    expect(page.locator("#portfolios-showing")).to_have_text("Showing 0 of 0", timeout=TIMEOUT)
    _choose(page, "#activity-filter", "All portfolios")
    row = page.locator(".portfolio-row").filter(has_text=name)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    expect(row).to_contain_text("Trust")
    expect(row).to_contain_text("Liam O'Connor")
    expect(row.locator(".portfolio-status")).to_have_text("Inactive")
    _both_sizes(page, "list")

    # edit from the row menu; saving goes back to the list
    row.locator(".row-actions").click()
    page.get_by_role("menuitem", name="Edit Details").click()
    page.wait_for_url(re.compile(r".*/portfolios/\d+/edit.*"), timeout=TIMEOUT)
    expect(page.locator("#portfolio-name")).to_have_value(name, timeout=TIMEOUT)
    renamed = name + " No 2"
    page.locator("#portfolio-name").fill(renamed)
    page.locator("#bank_bsb").fill("062000")
    # custom class allocation: refused until it totals 100
    page.locator("#switch-class-allocation").click()
    _choose(page, "#add-class", "Australian Equities")
    _choose(page, "#add-class", "Cash")
    equities = page.locator(".class-row").filter(has_text="Australian Equities")
    equities.locator("input").first.fill("90")
    page.locator(".class-row").filter(has_text="Cash").locator("input").first.fill("5")
    expect(page.locator("#class-total")).to_have_text("Total: 95.0%", timeout=TIMEOUT)
    expect(page.locator("#class-total")).to_have_attribute("data-color", "warning")
    page.locator("#portfolio-save").click()
    expect(page.locator("#portfolio-form-message")).to_have_text("Total class allocation has to be 100%.",
                                                                 timeout=TIMEOUT)
    equities.locator("input").first.fill("95")
    expect(page.locator("#class-total")).to_have_attribute("data-color", "success", timeout=TIMEOUT)
    expect(page.locator("#portfolio-form-message")).to_have_count(0, timeout=TIMEOUT)
    # an industry group cap and an asset exception picked from the universe
    page.locator("#switch-industry-group-allocation").click()
    page.locator("#ig-add").click()
    page.locator(".ig-option").filter(has_text="Materials").click()
    page.locator("#ig-picker-done").click()
    allocation = page.locator(".ig-row").filter(has_text="Materials").locator("input").first
    expect(allocation).to_be_editable(timeout=TIMEOUT)
    for _ in range(5):  # the row may re-render from the server just after it appears: type until it holds
        allocation.fill("40")
        page.wait_for_timeout(200)
        if allocation.input_value() == "40":
            break
    expect(allocation).to_have_value("40")
    expect(page.locator("#ig-total")).to_have_text("Total: 40.0%", timeout=TIMEOUT)
    page.locator("#add-asset-exception").click()
    page.locator("#asset-picker-search").fill("BHP")
    pick = page.locator(".asset-picker-row[data-code='BHP']")
    expect(pick).to_be_visible(timeout=TIMEOUT)
    pick.click()
    expect(page.locator(".exception-row")).to_contain_text("BHP", timeout=TIMEOUT)
    _choose(page, "#exception-action-0", "Lock")
    page.set_viewport_size({"width": 1440, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "portfolios-form-edit-full.png"), full_page=True)
    page.locator("#portfolio-save").click()
    expect(page.get_by_text("Portfolio is created/updated").first).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/portfolios(\?.*)?$"), timeout=TIMEOUT)

    # link a model on the buy screen
    page.locator("#portfolio-search").fill(renamed)
    _choose(page, "#activity-filter", "All portfolios")
    row = page.locator(".portfolio-row").filter(has_text=renamed)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    row.locator(".row-actions").click()
    page.get_by_role("menuitem", name="Link Model").click()
    page.wait_for_url(re.compile(r".*/portfolios/\d+/buy.*"), timeout=TIMEOUT)
    choice = page.locator(".model-choice[data-name='Balanced Growth']")
    expect(choice).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator(".model-choice[data-name='Australian Blue Chip']")).to_have_count(0)  # another firm's, not shared
    _both_sizes(page, "buy")
    choice.locator(".link-model-button").click()
    expect(page.locator("#confirm-message")).to_have_text("Link the model Balanced Growth to this portfolio?")
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Model linked: Balanced Growth").first).to_be_visible(timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/portfolios(\?.*)?$"), timeout=TIMEOUT)
    page.locator("#portfolio-search").fill(renamed)
    _choose(page, "#activity-filter", "All portfolios")
    row = page.locator(".portfolio-row").filter(has_text=renamed)
    expect(row.locator(".portfolio-model")).to_have_text("Balanced Growth", timeout=TIMEOUT)

    # its details: unlink after the confirmation
    row.locator(".row-actions").click()
    page.get_by_role("menuitem", name="Edit Details").click()
    page.wait_for_url(re.compile(r".*/portfolios/\d+/edit.*"), timeout=TIMEOUT)
    expect(page.locator("#portfolio-model")).to_have_text("Balanced Growth", timeout=TIMEOUT)
    expect(page.locator("#bank_bsb")).to_have_value("062-000")
    expect(page.locator(".class-row")).to_have_count(2)
    expect(page.locator(".exception-row")).to_contain_text("BHP")
    expect(page.locator(".ig-row")).to_contain_text("Materials")
    page.locator("#unlink-model").click()
    expect(page.locator("#confirm-message")).to_have_text(
        "Are you sure you want to unlink the model Balanced Growth from this portfolio?")
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Model unlinked").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#portfolio-model")).to_have_text("Not linked to a model.", timeout=TIMEOUT)

    # a row click opens the holdings screen
    page.goto("/portfolios")
    page.locator("#portfolio-search").fill(renamed)
    _choose(page, "#activity-filter", "All portfolios")
    page.locator(".portfolio-row").filter(has_text=renamed).locator(".portfolio-name").click()
    page.wait_for_url(re.compile(r".*/portfolios/\d+/holdings$"), timeout=TIMEOUT)


def test_cross_firm_link_asks_about_custom_assets_and_clients_only_read(page: Page, login, app_server) -> None:
    # a Southern Cross portfolio, made through the API
    token = page.request.post(f"{app_server.url}/api/signin",
                              data={"email": SOUTHERN_ADMIN, "password": "Demo1234"}).json()["result"]["token"]
    h = {"x-token": token}
    clients = page.request.get(f"{app_server.url}/api/users?role[]=client&search=Kowalski", headers=h).json()
    grace = clients["result"]["rows"][0]["id"]
    name = f"Kowalski Shares {uuid.uuid4().hex[:5]}"
    created = page.request.post(f"{app_server.url}/api/investments", headers=h, data={
        "name": name, "type": "SAVINGS", "users": [{"id": grace}]})
    assert created.ok, created.text()
    pid = created.json()["result"]["id"]

    login(page, SOUTHERN_ADMIN)
    page.goto(f"/portfolios/{pid}/buy")
    choice = page.locator(".model-choice[data-name='Income Focus']")  # Harbour's, open to all firms
    expect(choice).to_have_count(1, timeout=TIMEOUT)
    expect(choice).to_contain_text("Another firm")
    choice.locator(".link-model-button").click()
    expect(page.locator("#confirm-message")).to_have_text(
        "The model Income Focus belongs to a different firm. Linking it sets the class of this portfolio's custom "
        "assets to cash. Do you want to link it?")
    _both_sizes(page, "buy-cross-firm")
    page.locator("#confirm-ok").click()
    expect(page.get_by_text("Model linked: Income Focus").first).to_be_visible(timeout=TIMEOUT)

    page.goto(f"/portfolios/{pid}")
    expect(page.locator("#portfolio-model")).to_have_text("Income Focus", timeout=TIMEOUT)
    page.locator("#unlink-model").click()
    expect(page.locator("#confirm-message")).to_contain_text("Unlinking it sets the class of this portfolio's custom "
                                                             "assets to cash.")
    page.locator("#confirm-cancel").click()

    # the holder (a client) lands on their own portfolios, reads the details, and links nothing
    page.context.clear_cookies()
    page.evaluate("window.localStorage.clear()")
    login(page, "client@southerncross.example.com")
    page.wait_for_url(re.compile(r".*/my-portfolios$"), timeout=TIMEOUT)
    row = page.locator(".portfolio-row").filter(has_text=name)
    expect(row).to_have_count(1, timeout=TIMEOUT)  # inactive, still theirs: clients have no activity filter
    expect(page.locator("#activity-filter")).to_have_count(0)
    row.locator(".row-actions").click()
    expect(page.get_by_role("menuitem", name="Edit Details")).to_have_count(0)
    expect(page.get_by_role("menuitem", name="View Holdings")).to_be_visible()
    page.keyboard.press("Escape")
    _both_sizes(page, "client-list")
    page.goto(f"/portfolios/{pid}/edit")
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}$"), timeout=TIMEOUT)  # clients only read
    expect(page.locator("#portfolio-save")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator("#unlink-model")).to_have_count(0)
    page.goto(f"/portfolios/{pid}/buy")
    page.wait_for_url(re.compile(r".*/my-portfolios$"), timeout=TIMEOUT)
