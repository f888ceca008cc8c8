"""The product behaves like a web app: dates are dd/mm/yyyy whatever the browser's locale, in-table
links are real links to their screen's address, lists keep their filter, page and sort in the
address (Back, reload and a bookmark restore them), and a double click on Validate acts once."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

TIMEOUT = 30_000


@pytest.mark.browser_context_args(locale="en-US", timezone_id="America/New_York")
def test_dates_are_typed_and_shown_dd_mm_yyyy_in_an_en_us_browser(page, login):
    login(page, "admin@harbour.example.com")
    page.goto("/portfolios")
    expect(page.locator(".portfolio-name").first).to_be_visible(timeout=TIMEOUT)
    page.locator("[id^='portfolio-actions-']").first.click()
    page.get_by_role("menuitem", name="Edit Details").click()
    soa = page.locator("#soa_date")
    expect(soa).to_be_visible(timeout=TIMEOUT)
    form_url = page.url
    expect(soa).to_have_attribute("placeholder", "dd/mm/yyyy")
    assert soa.get_attribute("type") == "text"  # never the browser's own (mm/dd/yyyy here) date field
    soa.fill("")
    soa.press_sequentially("25122026", delay=30)  # digits only: shown as the date they make
    expect(soa).to_have_value("25/12/2026", timeout=TIMEOUT)
    page.locator("#portfolio-save").click()
    expect(page.get_by_text("Portfolio is created/updated")).to_be_visible(timeout=TIMEOUT)
    page.goto(form_url)
    expect(page.locator("#soa_date")).to_have_value("25/12/2026", timeout=TIMEOUT)
    # typed with slashes, a day that does not exist stays as typed (the form names the mistake)
    page.locator("#soa_date").fill("13/12/2026")
    expect(page.locator("#soa_date")).to_have_value("13/12/2026", timeout=TIMEOUT)


def test_table_links_are_real_links_a_new_tab_opens_their_screen(page, context, login):
    login(page, "admin@harbour.example.com")
    page.goto("/portfolios")
    link = page.locator(".portfolio-row a").first
    expect(link).to_be_visible(timeout=TIMEOUT)
    href = link.get_attribute("href")
    assert re.fullmatch(r"/portfolios/\d+/holdings", href or ""), href
    # Ctrl+click (as a middle click or "open in new tab"): the browser opens the link's own address
    # in a new tab, and this tab stays on the list
    with context.expect_page(timeout=TIMEOUT) as opened:
        link.click(modifiers=["Control"])
    tab = opened.value
    tab.wait_for_load_state()
    assert urlsplit(tab.url).path == href
    expect(tab.locator("#crumb-portfolio")).to_be_visible(timeout=TIMEOUT)
    # the breadcrumb's portfolio link is the holdings' own address too
    expect(tab.locator("#crumb-portfolio")).to_have_attribute("href", href)
    tab.close()
    assert urlsplit(page.url).path.rstrip("/") == "/portfolios"
    # a plain click opens it here, in the app
    link.click()
    page.wait_for_url(re.compile(rf".*{re.escape(href)}$"), timeout=TIMEOUT)
    # the model and firm lists' rows link to their screens as well
    page.goto("/models")
    expect(page.locator(".model-row a").first).to_have_attribute("href", re.compile(r"^/models/\d+$"), timeout=TIMEOUT)


def test_a_list_keeps_its_sort_and_search_in_its_address_back_and_reload_restore_them(page, login):
    login(page, "admin@harbour.example.com")
    page.goto("/portfolios")
    expect(page.locator(".portfolio-row").first).to_be_visible(timeout=TIMEOUT)
    adviser = page.locator("th", has=page.locator("button.wa-sort", has_text="Adviser"))
    adviser.locator("button.wa-sort").click()
    expect(adviser).to_have_attribute("aria-sort", "ascending", timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*/portfolios/?\?sort=adviser$"), timeout=TIMEOUT)
    adviser.locator("button.wa-sort").click()  # again: descending
    page.wait_for_url(re.compile(r".*/portfolios/?\?sort=adviser&order=desc$"), timeout=TIMEOUT)
    page.locator("#portfolio-search").fill("Fund")
    page.wait_for_url(re.compile(r".*/portfolios/?\?.*search=Fund"), timeout=TIMEOUT)
    names = page.locator(".portfolio-name")
    expect(names.first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".portfolio-row").filter(has_not_text="Fund")).to_have_count(0, timeout=TIMEOUT)
    shown = names.all_inner_texts()
    assert shown

    # a row opens its holdings; the browser's Back shows the list as it was left
    page.locator(".portfolio-row a").first.click()
    page.wait_for_url(re.compile(r".*/portfolios/\d+/holdings$"), timeout=TIMEOUT)
    page.go_back()
    page.wait_for_url(re.compile(r".*/portfolios/?\?.*sort=adviser"), timeout=TIMEOUT)
    expect(adviser).to_have_attribute("aria-sort", "descending", timeout=TIMEOUT)
    expect(page.locator("#portfolio-search")).to_have_value("Fund")
    expect(names).to_have_count(len(shown), timeout=TIMEOUT)
    assert names.all_inner_texts() == shown

    # a reload (or a bookmark of the address) too
    page.reload()
    expect(adviser).to_have_attribute("aria-sort", "descending", timeout=TIMEOUT)
    expect(page.locator("#portfolio-search")).to_have_value("Fund")
    expect(names).to_have_count(len(shown), timeout=TIMEOUT)
    assert names.all_inner_texts() == shown


def test_a_screens_breadcrumb_cancel_and_back_return_to_the_list_as_it_was_left(page, login):
    """Going back returns to the previous list with its filters, page and sort restored: the clients
    list (a status filter and the name sort, descending) from a client's screen by its breadcrumb and
    by the browser's Back; the portfolios list (a search and the adviser sort) from a portfolio's
    holdings by its breadcrumb; the models list (a search) from the model form by its Cancel."""
    login(page, "admin@harbour.example.com")
    page.goto("/clients")
    names = page.locator(".user-name")
    expect(names.first).to_be_visible(timeout=TIMEOUT)
    page.locator("#status-filter").click()
    page.get_by_role("option", name="Active").click()
    page.wait_for_url(re.compile(r".*/clients/?\?.*status_filter=active"), timeout=TIMEOUT)
    name = page.locator("th", has=page.locator("button.wa-sort", has_text="Name"))
    name.locator("button.wa-sort").click()
    expect(name).to_have_attribute("aria-sort", "descending", timeout=TIMEOUT)
    page.wait_for_url(re.compile(r".*order=desc"), timeout=TIMEOUT)
    expect(page.locator(".user-row").filter(has_not_text="Active")).to_have_count(0, timeout=TIMEOUT)
    shown = names.all_inner_texts()
    assert shown == sorted(shown, key=str.lower, reverse=True)
    left = page.url

    def as_left() -> None:
        page.wait_for_url(left, timeout=TIMEOUT)
        expect(name).to_have_attribute("aria-sort", "descending", timeout=TIMEOUT)
        expect(page.locator("#status-filter")).to_have_text("Active")
        expect(names).to_have_count(len(shown), timeout=TIMEOUT)
        assert names.all_inner_texts() == shown

    # a client's row opens their portfolios; the breadcrumb 'Clients' goes back to the list as it was left
    page.locator(".user-row a").nth(1).click()
    page.wait_for_url(re.compile(r".*/clients/\d+/portfolios$"), timeout=TIMEOUT)
    crumb = page.locator("#breadcrumbs a", has_text="Clients")
    expect(crumb).to_have_attribute("href", "/clients")  # the link itself: the list's own address
    crumb.click()
    as_left()
    # and so does the browser's Back
    page.locator(".user-row a").first.click()
    page.wait_for_url(re.compile(r".*/clients/\d+/portfolios$"), timeout=TIMEOUT)
    page.go_back()
    as_left()

    # the portfolios list: a search and the adviser sort
    page.goto("/portfolios")
    rows = page.locator(".portfolio-name")
    expect(rows.first).to_be_visible(timeout=TIMEOUT)
    adviser = page.locator("th", has=page.locator("button.wa-sort", has_text="Adviser"))
    adviser.locator("button.wa-sort").click()
    expect(adviser).to_have_attribute("aria-sort", "ascending", timeout=TIMEOUT)
    page.locator("#portfolio-search").fill("Trust")
    page.wait_for_url(re.compile(r".*/portfolios/?\?.*search=Trust"), timeout=TIMEOUT)
    expect(page.locator(".portfolio-row").filter(has_not_text="Trust")).to_have_count(0, timeout=TIMEOUT)
    listed = rows.all_inner_texts()
    portfolios = page.url

    def portfolios_as_left() -> None:
        page.wait_for_url(portfolios, timeout=TIMEOUT)
        expect(adviser).to_have_attribute("aria-sort", "ascending", timeout=TIMEOUT)
        expect(page.locator("#portfolio-search")).to_have_value("Trust")
        expect(rows).to_have_count(len(listed), timeout=TIMEOUT)
        assert rows.all_inner_texts() == listed

    page.locator(".portfolio-row a").first.click()
    page.wait_for_url(re.compile(r".*/portfolios/\d+/holdings$"), timeout=TIMEOUT)
    page.locator("#breadcrumbs a", has_text="Portfolios").first.click()
    portfolios_as_left()

    # the models list: a search; the model form's Cancel returns to it as it was left
    page.goto("/models")
    models = page.locator(".model-row")
    expect(models.first).to_be_visible(timeout=TIMEOUT)
    page.locator("#model-search").fill("Growth")
    page.wait_for_url(re.compile(r".*/models/?\?.*search=Growth"), timeout=TIMEOUT)
    expect(models.filter(has_not_text="Growth")).to_have_count(0, timeout=TIMEOUT)
    found = models.count()
    searched = page.url
    page.goto("/models/new")
    page.locator("#model-cancel").click()
    page.wait_for_url(searched, timeout=TIMEOUT)
    expect(page.locator("#model-search")).to_have_value("Growth")
    expect(models).to_have_count(found, timeout=TIMEOUT)


def test_date_ranges_the_minimum_breach_and_the_panel_filters_survive_a_reload_and_back(page, login):
    """The users list's date ranges, the dashboard's minimum breach and the asset transactions panel's
    status filters are in the address like every other list's filters: a reload (or Back, or a
    bookmark) shows the list as it was left."""
    login(page, "admin@harbour.example.com")
    # the users list: a created-from day typed dd/mm/yyyy is kept as its ISO day in the address
    page.goto("/users")
    expect(page.locator(".user-row").first).to_be_visible(timeout=TIMEOUT)
    created_from = page.locator("#created-from")
    created_from.press_sequentially("01012020", delay=30)
    page.wait_for_url(re.compile(r".*/users/?\?.*created_from=2020-01-01"), timeout=TIMEOUT)
    page.reload()
    expect(page.locator("#created-from")).to_have_value("01/01/2020", timeout=TIMEOUT)
    expect(page.locator(".user-row").first).to_be_visible(timeout=TIMEOUT)
    # a day the date input would not give is not taken from an address
    page.goto("/users?created_to=yesterday")
    expect(page.locator(".user-row").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#created-to")).to_have_value("")

    # the dashboard's minimum breach
    page.goto("/dashboard")
    expect(page.locator(".drift-row").first).to_be_visible(timeout=TIMEOUT)
    page.locator("#min-breach").fill("15")
    page.locator("#min-breach").blur()
    page.wait_for_url(re.compile(r".*/dashboard/?\?.*min_breach=15"), timeout=TIMEOUT)
    page.reload()
    expect(page.locator("#min-breach")).to_have_value("15", timeout=TIMEOUT)
    expect(page.locator(".drift-row").first).to_be_visible(timeout=TIMEOUT)
    badges = page.locator(".drift-breach").all_inner_texts()
    assert badges and all(float(b.split()[0]) >= 15 for b in badges), badges
    page.locator("#min-breach").fill("")
    page.locator("#min-breach").blur()
    page.wait_for_url(re.compile(r".*/dashboard/?(\?(?!.*min_breach).*)?$"), timeout=TIMEOUT)
    page.goto("/dashboard?min_breach=-5")  # what the box refuses, the address cannot set
    expect(page.locator(".drift-row").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#min-breach")).to_have_value("")

    # the asset transactions panel's status filters: a portfolio's holdings, then its panel
    page.goto("/portfolios")
    href = page.locator(".portfolio-row a").first.get_attribute("href", timeout=TIMEOUT)
    panel = (href or "").replace("/holdings", "/asset-transactions")
    page.goto(panel)
    placed = page.locator("#filter-placed")
    expect(placed).to_have_attribute("aria-pressed", "false", timeout=TIMEOUT)
    placed.click()
    page.locator("#filter-executed").click()
    page.wait_for_url(re.compile(r".*/asset-transactions/?\?.*filters=placed%2Cexecuted(&|$)"), timeout=TIMEOUT)
    page.goto("/portfolios")
    page.go_back()
    expect(page.locator("#filter-placed")).to_have_attribute("aria-pressed", "true", timeout=TIMEOUT)
    expect(page.locator("#filter-executed")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#filter-draft")).to_have_attribute("aria-pressed", "false")
    page.locator("#filter-placed").click()  # untick: the address follows
    page.wait_for_url(re.compile(r".*/asset-transactions/?\?.*filters=executed(&|$)"), timeout=TIMEOUT)
