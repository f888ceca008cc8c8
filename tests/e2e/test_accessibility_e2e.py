"""Accessibility (WCAG 2.2 AA) end to end, on the demo data.

- axe-core (installed by scripts/_bootstrap.sh into .tools/axe-core; AXE_CORE_JS names its
  axe.min.js) runs in Chromium over every route of app.ui.routes, signed out and as each role: one
  pass per role over its routes in one page. A critical or serious violation fails the test unless
  ALLOWED lists it (rule, route) with the reason, a moderate one unless MODERATE_KEPT lists its rule
  with the reason; minor ones are printed. Every screen has exactly one h1 and its headings in order.
  ROLE_ROUTES shares the staff routes out between the staff roles (each screen is one component
  tree whatever the role, so one role's visit checks it) and `test_every_route_is_checked` keeps
  that table complete: a new route fails it until a role visits it.
- The frame: a skip link first, landmarks, one h1 per screen, aria-current on the menu's entry,
  and after navigation the focus on the new screen's heading.
- The shared confirmation dialog: it takes focus, keeps it while Tab goes round, closes on Escape
  and gives the focus back to the button that opened it; axe runs with it open.
- The login: the fields are labelled and a wrong password is announced (role=alert).
- The client on a phone (390x844): each trade's side, units, price and amount on screen with its
  Approve / Decline (44x44 px); the client's screens reflow at 390 px, 320 px and 200% zoom with no box
  scrolling inside the page.
- The client's keyboard path: a record of advice approved (Next / Previous keep the focus with the
  step, the confirmation's focus) and trade recommendations decided and confirmed, keyboard only.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from app.ui import routes
from tests._harness import ROOT, MailSink

TIMEOUT = 30_000
AXE_JS = Path(os.environ.get("AXE_CORE_JS") or ROOT / ".tools" / "axe-core" / "node_modules" / "axe-core" / "axe.min.js")
FAILING = ("critical", "serious")
# WCAG 2.0 / 2.1 / 2.2 A and AA, and axe's best practices (landmarks, headings, region)
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                                    "best-practice"]},
               "resultTypes": ["violations"]}

SUPERUSER = "superuser@example.com"
ADMIN = "admin@harbour.example.com"
ADVISER = "adviser@harbour.example.com"
# the Harbour client who holds a record of advice awaiting approval (Paddington Super Fund) and trade
# recommendations awaiting approval (Tamarama Savings)
CLIENT = "amelia.fraser@harbour.example.com"
RESET_FOR = "client@southerncross.example.com"  # the public pass opens this user's password reset link

# Critical or serious violations known and not yet fixed: (axe rule, route name or "*") -> why. None is left;
# a new entry needs its reason and the screen it is on.
ALLOWED: dict[tuple[str, str], str] = {}

# Moderate violations still tolerated, by rule, with the reason; any other moderate violation fails.
MODERATE_KEPT: dict[str, str] = {}
# Structure rules that fail the test whatever their impact: one h1 per screen, headings in order.
STRUCTURE = frozenset({"page-has-heading-one", "heading-order"})

# Routes not visited: why each is covered otherwise.
NOT_VISITED: dict[str, str] = {
    "home": "'/' shows a spinner and sends each role to its home screen, which its pass checks",
    "activation": "needs a new user's single-use link; it is the reset-password form (account.py), which is checked",
    "email-change": "needs a pending e-mail change's single-use link; the same card as reset-password, checked",
}

# Each role's routes. Clients see their own portfolios' screens; the staff routes are shared out.
ROLE_ROUTES: dict[str, tuple[str, ...]] = {
    "public": ("login", "reset-password"),
    CLIENT: ("portfolios.me", "profile", "portfolios.view", "portfolios.holdings", "portfolios.cash-transactions",
             "portfolios.asset-transactions", "portfolios.target-portfolio", "portfolios.rofa",
             "portfolios.trade-instructions", "portfolios.performance", "clients.performance",
             "portfolios.tax-report", "clients.tax-report"),
    ADVISER: ("dashboard", "clients.list", "clients.new", "clients.view", "clients.edit", "clients.portfolios",
              "clients.new-portfolio", "portfolios.list", "portfolios.view", "portfolios.edit", "portfolios.holdings",
              "portfolios.history", "portfolios.performance", "portfolios.tax-report", "portfolios.buy", "portfolios.cash-transactions", "portfolios.asset-transactions",
              "portfolios.add-transaction", "clients.addTransaction", "portfolios.target-portfolio",
              "portfolios.target-portfolio-version", "portfolios.target-portfolio-versions", "portfolios.rofa",
              "portfolios.trade-instructions", "portfolios.trade-instructions-version",
              "portfolios.trade-instructions-versions", "bulk-calculate.calculateTP", "bulk-calculate.calculateTR",
              "reports.trade-recommendations", "reports.desktop-broker-trade-file", "reports.orders",
              "reports.order-reconciliation", "reports.cash",
              "reports.pending-target-portfolios", "models.view", "models.details", "models.history", "models.clients",
              "models.version", "models.long-terms", "models.short-terms", "models.portfolios", "industry-groups",
              "assets.list"),
    ADMIN: ("users.list", "users.new", "users.view", "users.edit", "advisers.list", "advisers.new", "advisers.view",
            "advisers.edit", "advisers.clients", "advisers.portfolios", "advisers.new-portfolio", "models.createModel",
            "models.changeModel", "bulk-upload.long-terms", "bulk-upload.short-terms", "audit"),
    SUPERUSER: ("dashboard", "firms.list", "firms.new", "firms.view", "firms.edit", "firms.clients", "firms.advisers",
                "firms.portfolios", "outbox"),
}


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    route: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.route}: {self.rule} ({self.impact}) {self.help} at {', '.join(self.targets[:4])}"


def _engine(url: str):
    return create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _params(database_url: str) -> dict[str, dict[str, object]]:
    """The demo data's ids each route needs, by role (the client's are the client's own)."""
    with _engine(database_url).connect() as db:
        def one(sql: str, **args: object) -> object:
            value = db.execute(text(sql), args).scalar()
            assert value is not None, f"demo data missing: {sql} {args}"
            return value

        def user(email: str) -> object:
            return one("select id from users where email = :e", e=email)

        def portfolio(name: str) -> object:
            return one("select id from investments where name = :n", n=name)

        firm = one("select id from firms where name = 'Harbour Wealth Partners'")
        model = one("select id from models where firm_id = :f and deleted_at is null order by id", f=firm)
        model_version = one("select max(version) from model_versions where model_id = :m", m=model)
        client = user(CLIENT)
        adviser = user(ADVISER)
        # a portfolio with a target portfolio, its record of advice and trade recommendations
        chain = portfolio("Seaforth Investments Pty Ltd")
        tp = one("select id from target_portfolios where investment_id = :p order by version desc", p=chain)
        tp_version = one("select version from target_portfolios where id = :t", t=tp)
        ti_version = one("select max(version) from trade_instructions where investment_id = :p", p=chain)
        awaiting = portfolio("Paddington Super Fund")  # the client's record of advice awaiting approval
        awaiting_tp = one("select id from target_portfolios where investment_id = :p and status = 'validated'",
                          p=awaiting)
        trades = portfolio("Tamarama Savings")  # the client's trade recommendations awaiting approval
        staff = {
            "firms.view": {"id": firm}, "firms.edit": {"id": firm}, "firms.clients": {"id": firm},
            "firms.advisers": {"id": firm}, "firms.portfolios": {"id": firm},
            "users.view": {"id": client}, "users.edit": {"id": client},
            "clients.view": {"id": client}, "clients.edit": {"id": client}, "clients.portfolios": {"id": client},
            "clients.new-portfolio": {"id": client},
            "advisers.view": {"id": adviser}, "advisers.edit": {"id": adviser}, "advisers.clients": {"id": adviser},
            "advisers.portfolios": {"id": adviser}, "advisers.new-portfolio": {"id": adviser},
            "models.details": {"id": model}, "models.changeModel": {"id": model}, "models.history": {"id": model},
            "models.version": {"id": model, "version": model_version}, "models.long-terms": {"id": model},
            "models.short-terms": {"id": model}, "models.portfolios": {"id": model}, "models.clients": {"id": model},
            "portfolios.target-portfolio-version": {"id": chain, "version": tp_version},
            "portfolios.rofa": {"id": chain, "rofa_id": tp},
            "portfolios.trade-instructions-version": {"id": chain, "version": ti_version},
        }
        for name, path in routes.ROUTES.items():
            if path.startswith("/portfolios/[id]") and name not in staff:
                staff[name] = {"id": chain}
        mine = {"portfolios.rofa": {"id": awaiting, "rofa_id": awaiting_tp},
                "portfolios.trade-instructions": {"id": trades}}
        for name, path in routes.ROUTES.items():
            if path.startswith("/portfolios/[id]") and name not in mine:
                mine[name] = {"id": awaiting}
    return {"staff": staff, "client": mine}


def _settled(page: Page) -> None:
    """The screen has loaded: its heading is there and no skeleton is left."""
    expect(page.locator("h1").first).to_be_attached(timeout=TIMEOUT)
    try:
        page.wait_for_function("() => !document.querySelector('.rt-Skeleton')", timeout=10_000)
    except Exception:  # a screen still loading a part is checked as it stands
        pass
    page.wait_for_timeout(300)


def _axe(page: Page, route: str) -> list[Violation]:
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    found = page.evaluate("async (options) => (await axe.run(document, options)).violations.map(v => ({"
                          "rule: v.id, impact: v.impact || '', help: v.help,"
                          "targets: v.nodes.map(n => n.target.join(' '))}))", AXE_OPTIONS)
    return [Violation(v["rule"], v["impact"], route, v["help"], tuple(v["targets"])) for v in found]


def _failing(violations: list[Violation]) -> list[Violation]:
    """Critical and serious violations not in ALLOWED, moderate ones not in MODERATE_KEPT, and any
    violation of the structure rules (one h1, headings in order) whatever axe rates it."""
    return [v for v in violations
            if (v.impact in FAILING and (v.rule, v.route) not in ALLOWED and (v.rule, "*") not in ALLOWED)
            or (v.impact == "moderate" and v.rule not in MODERATE_KEPT)
            or v.rule in STRUCTURE]


def _heading_faults(page: Page, route: str) -> list[str]:
    """One h1 on the screen (its title), in the page or its open dialog."""
    count = page.locator("h1").count()
    return [] if count == 1 else [f"{route}: {count} h1 elements"]


def _report(violations: list[Violation]) -> None:
    for v in violations:
        if v.impact not in FAILING:
            print(f"axe {v}")


def test_every_route_is_checked() -> None:
    visited = {name for names in ROLE_ROUTES.values() for name in names}
    missing = set(routes.ROUTES) - visited - set(NOT_VISITED)
    assert not missing, f"routes no role visits (add them to ROLE_ROUTES): {sorted(missing)}"
    assert not (visited - set(routes.ROUTES)), "ROLE_ROUTES names a route that no longer exists"
    for rule, route in ALLOWED:
        assert route == "*" or route in routes.ROUTES, f"ALLOWED names an unknown route: {route}"


@pytest.mark.parametrize("who", list(ROLE_ROUTES))
def test_no_serious_axe_violation_on_any_route(page: Page, login: Callable[..., None], app_server, who: str) -> None:
    if not AXE_JS.is_file():
        pytest.fail(f"axe-core is missing at {AXE_JS}: scripts/_bootstrap.sh installs it (bash scripts/test does)")
    params = _params(app_server.database_url)["client" if who == CLIENT else "staff"]
    if who == "public":  # a real reset link (opening it does not use it up)
        response = page.request.post(f"{app_server.url}/api/password-recovery", data={"email": RESET_FOR})
        assert response.ok, response.text()
        message = app_server.mail.wait_for(RESET_FOR, timeout=30, subject="Reset")
        link = next(link for link in MailSink.links(message) if "/reset-password/" in link)
        params = {**params, "reset-password": {"token": urlsplit(link).path.rsplit("/", 1)[1]}}
    else:
        login(page, who)
    found: list[Violation] = []
    headings: list[str] = []
    for name in ROLE_ROUTES[who]:
        path = routes.url(name, **{k: v for k, v in params.get(name, {}).items()})
        page.goto(path)
        _settled(page)
        assert page.url.split("?")[0].rstrip("/").endswith(path.rstrip("/")), f"{name}: {path} led to {page.url}"
        found += _axe(page, name)
        headings += _heading_faults(page, name)
    if who == ADVISER:  # an address that names no screen: the not-found page inside the frame
        page.goto("/no-such-screen")
        _settled(page)
        found += _axe(page, "not-found")
        headings += _heading_faults(page, "not-found")
    _report(found)
    failing = _failing(found)
    assert not failing, "axe violations (critical, serious, or moderate and not kept):\n" + \
        "\n".join(str(v) for v in failing)
    assert not headings, "screens without exactly one h1:\n" + "\n".join(headings)


def _focus_in(page: Page, selector: str) -> bool:
    return page.evaluate("(s) => !!(document.activeElement && document.activeElement.closest(s))", selector)


def test_the_frame_keyboard_and_reflow(page: Page, login: Callable[..., None]) -> None:
    """Skip link, landmarks, one h1, the menu's current entry, focus on the new screen's heading,
    sortable headers and rows by keyboard, and the list letting the page scroll at 200% zoom."""
    login(page, ADMIN)
    page.goto(routes.url("users.list"))
    _settled(page)
    expect(page.locator("h1")).to_have_count(1)
    expect(page.get_by_role("banner")).to_have_count(1)
    expect(page.get_by_role("main")).to_have_count(1)
    expect(page.get_by_role("navigation", name="Main menu")).to_be_visible()
    expect(page.locator("#nav-users-list")).to_have_attribute("aria-current", "page")
    expect(page.locator("#nav-advisers-list")).to_have_attribute("aria-current", "false")
    expect(page.locator("#nav-advisers-list")).to_have_attribute("href", routes.url("advisers.list"))
    expect(page.get_by_label("Rows per page")).to_have_id("page-size")

    page.wait_for_function("() => window.__waA11y === true", timeout=TIMEOUT)  # assets/a11y.js runs
    # the skip link is first in the page, shows when reached and takes the keyboard to the content
    assert page.evaluate("() => document.querySelector('a[href], button').id") == "skip-link"
    page.locator("#skip-link").focus()
    expect(page.locator("#skip-link")).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("#main")).to_be_focused()

    # a sortable header is a button that says how the column is sorted
    # (a column not sorted yet: one press or more sorts it, so a press lost to a re-render or a
    # reconnect's reload can be repeated without undoing the first)
    header = page.locator("th[aria-sort='none']:has(button.wa-sort)").first
    expect(header).to_be_visible(timeout=TIMEOUT)
    name = header.locator("button.wa-sort").inner_text().strip()
    header = page.locator("th:has(button.wa-sort)").filter(
        has=page.get_by_role("button", name=name, exact=True)).first
    # (the list's rows drawn first: a list still loading replaces its table, and the focus with it)
    expect(page.locator(".user-row").first).to_be_visible(timeout=TIMEOUT)
    for attempt in range(3):
        try:
            button = header.locator("button.wa-sort")
            button.focus()
            expect(button).to_be_focused(timeout=5_000)
            page.keyboard.press("Enter")
            expect(header).not_to_have_attribute("aria-sort", "none", timeout=10_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    assert header.get_attribute("aria-sort") in ("ascending", "descending")

    # after a move to another screen the focus is on its heading
    page.locator("#nav-advisers-list").click()
    page.wait_for_url(re.compile(r"/advisers/?$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_be_focused(timeout=TIMEOUT)

    # a row opens its record from the keyboard
    row = page.locator("tr.wa-row-open").first
    expect(row).to_be_visible(timeout=TIMEOUT)
    # (the advisers' rows, not the users' list still drawn while the new screen loads)
    expect(row.locator("a").first).to_have_attribute("href", re.compile(r"/advisers/\d+"), timeout=TIMEOUT)
    row.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/advisers/\d+"), timeout=TIMEOUT)  # the row's record (its clients)

    # 200% zoom (640x400 CSS px): the list has no scroll box of its own; the page scrolls, never sideways
    page.set_viewport_size({"width": 640, "height": 400})
    page.goto(routes.url("users.list"))
    _settled(page)
    box = page.locator(".wa-table-card .wa-table-scroll").first
    assert box.evaluate("(el) => getComputedStyle(el).maxHeight") == "none"
    assert box.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1"), "the table scrolls inside a letterbox"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 640
    for target in page.locator("#pagination button").all():
        size = target.bounding_box()
        assert size and size["width"] >= 24 and size["height"] >= 24, f"a page button of {size}"
    assert page.evaluate(NESTED_SCROLL_JS) == [], "a box scrolls down inside the page at 200% zoom"

    # 320 px wide (WCAG 1.4.10): nothing wider than the screen, the list without a box of its own
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(routes.url("users.list"))
    _settled(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    assert page.evaluate(NESTED_SCROLL_JS) == [], "a box scrolls down inside the page at 320 px"
    expect(page.locator("#page-title")).to_be_in_viewport()


def test_the_confirmation_dialog_takes_keeps_and_gives_back_the_focus(page: Page, login: Callable[..., None]) -> None:
    login(page, ADMIN)
    page.goto(routes.url("users.list"))
    _settled(page)
    triggers = page.locator(".row-actions")
    expect(triggers.first).to_be_visible(timeout=TIMEOUT)
    opener = None
    for i in range(min(triggers.count(), 10)):  # the first row the administrator may delete
        triggers.nth(i).focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("menu")).to_be_visible(timeout=TIMEOUT)
        if page.locator(".row-delete").count():
            opener = triggers.nth(i)
            break
        page.keyboard.press("Escape")
    assert opener is not None, "no user the administrator may delete"
    page.locator(".row-delete").focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible(timeout=TIMEOUT)
    page.wait_for_function("() => !!document.activeElement.closest('[role=alertdialog]')", timeout=TIMEOUT)
    for _ in range(4):  # Tab goes round inside the dialog
        page.keyboard.press("Tab")
        assert _focus_in(page, "[role=alertdialog]"), "Tab left the dialog"
    failing = _failing(_axe(page, "users.list"))
    assert not failing, "with the dialog open:\n" + "\n".join(str(v) for v in failing)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden(timeout=TIMEOUT)
    expect(opener).to_be_focused(timeout=TIMEOUT)


def test_the_login_is_labelled_and_announces_a_wrong_password(page: Page) -> None:
    page.goto(routes.url("login"))
    expect(page.locator("h1")).to_have_text("Sign in", timeout=TIMEOUT)
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_label("Password").fill("not-the-password")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert").filter(has=page.locator("#login-error"))).to_be_visible(timeout=TIMEOUT)


# ---- the client on a phone, and the client's keyboard path ---------------------------------------------------
# The Outback client holds a record of advice awaiting approval (Fannie Bay Super Fund) and trade
# recommendations awaiting approval (Parap Savings); no other browser test decides them. The keyboard test
# decides both, so it comes after the phone test, which only looks.
KEYBOARD_CLIENT = "client@outback.example.com"
PHONE = {"width": 390, "height": 844}
ARTIFACTS = ROOT / "tests" / "e2e" / "artifacts"
# boxes that scroll down inside the page (a letterbox or nested scrolling); sideways is not asked
NESTED_SCROLL_JS = """() => [...document.querySelectorAll('#main *')].filter((el) => {
    const style = getComputedStyle(el);
    return /(auto|scroll)/.test(style.overflowY) && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1;
}).map((el) => el.id || el.className || el.tagName)"""


def _outback_records(database_url: str) -> tuple[str, str]:
    """The addresses of the Outback client's record of advice and trade recommendations awaiting them."""
    with _engine(database_url).connect() as db:
        def one(sql: str, **args: object) -> object:
            value = db.execute(text(sql), args).scalar()
            assert value is not None, f"demo data missing: {sql} {args}"
            return value

        rofa_portfolio = one("select id from investments where name = 'Fannie Bay Super Fund'")
        tp = one("select id from target_portfolios where investment_id = :p and status = 'validated'", p=rofa_portfolio)
        trades = one("select id from investments where name = 'Parap Savings'")
    return (routes.url("portfolios.rofa", id=rofa_portfolio, rofa_id=tp),
            routes.url("portfolios.trade-instructions", id=trades))


def _inside(box: dict | None, viewport: dict) -> bool:
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5 \
        and box["y"] + box["height"] <= viewport["height"] + 0.5


def test_the_client_sees_each_trade_beside_its_decision_on_a_phone(page: Page, login: Callable[..., None],
                                                                   app_server) -> None:
    _, trades_url = _outback_records(app_server.database_url)
    page.set_viewport_size(PHONE)
    login(page, KEYBOARD_CLIENT)
    page.goto(trades_url)
    expect(page.locator("#ti-status")).to_have_text("Pending approval", timeout=TIMEOUT)
    cards = page.locator("#ti-cards .tx-card")
    expect(cards.first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#ti-transactions")).to_be_hidden()  # the wide table gives way to the cards
    assert cards.count() >= 2
    for i in range(cards.count()):
        card = cards.nth(i)
        card.locator(".card-approve").scroll_into_view_if_needed()
        # side, units, price and amount on screen together with the buttons that decide the trade
        for part in (".card-code", ".card-action", ".card-units", ".card-price", ".card-amount", ".card-approve",
                     ".card-decline"):
            assert _inside(card.locator(part).bounding_box(), PHONE), f"card {i}: {part} is not on the screen"
        assert card.locator(".card-units").inner_text().strip() not in ("", "-")
        assert card.locator(".card-amount").inner_text().strip().startswith("$")
        for button in (".card-approve", ".card-decline"):
            size = card.locator(button).bounding_box()
            assert size and size["width"] >= 44 and size["height"] >= 44, f"card {i}: {button} is {size}"
    for target in page.locator("#ti-confirm, #ti-approve-all, .note-row .choices button").all():
        size = target.bounding_box()
        assert size and size["width"] >= 44 and size["height"] >= 44, f"a decision button of {size}"
    first = cards.first
    first.locator(".card-approve").click()
    expect(first.locator(".card-choices")).to_have_attribute("data-choice", "approved", timeout=TIMEOUT)
    expect(first.locator(".card-approve")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#ti-decided")).to_contain_text("1 of ")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(NESTED_SCROLL_JS) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "a11y-trade-decision-phone.png"), full_page=True)
    failing = _failing(_axe(page, "portfolios.trade-instructions"))
    assert not failing, "on a phone:\n" + "\n".join(str(v) for v in failing)


@pytest.mark.parametrize("size", [PHONE, {"width": 320, "height": 640}, {"width": 640, "height": 400}],
                         ids=["phone", "320px", "zoom-200"])
def test_the_client_screens_reflow(page: Page, login: Callable[..., None], app_server, size: dict) -> None:
    """The client's home, record of advice, holdings and trade recommendations on a phone, at 320 px and
    at 200% zoom: nothing wider than the screen, and no box that scrolls down inside the page."""
    params = _params(app_server.database_url)["client"]
    page.set_viewport_size(size)
    login(page, CLIENT)
    for name in ("portfolios.me", "portfolios.rofa", "portfolios.holdings", "portfolios.trade-instructions"):
        page.goto(routes.url(name, **params.get(name, {})))
        _settled(page)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name}: the page is {width} px wide at {size}"
        nested = page.evaluate(NESTED_SCROLL_JS)
        assert nested == [], f"{name}: boxes scroll inside the page at {size}: {nested}"
        expect(page.locator("#page-title")).to_be_in_viewport()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{size['width']}.png"), full_page=True)


def _tab_to(page: Page, selector: str, backwards: bool = False, limit: int = 300) -> None:
    """Presses Tab (Shift+Tab) until the element `selector` names has the focus."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"the keyboard never reached {selector}")


def _focus_not_dropped(page: Page) -> None:
    page.wait_for_timeout(300)  # assets/a11y.js places the focus a moment after the change
    where = page.evaluate("() => document.activeElement ? document.activeElement.tagName : ''")
    assert where not in ("", "BODY", "HTML"), "the focus fell to the page"


def _dialog_by_keyboard(page: Page, opener: str) -> None:
    """Enter on `opener` opens its confirmation; it takes the focus, Escape closes it and gives the focus
    back; Enter opens it again and Tab then Enter on its confirm button confirms."""
    page.keyboard.press("Enter")
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible(timeout=TIMEOUT)
    page.wait_for_function("() => !!document.activeElement.closest('[role=alertdialog]')", timeout=TIMEOUT)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden(timeout=TIMEOUT)
    expect(page.locator(opener)).to_be_focused(timeout=TIMEOUT)
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible(timeout=TIMEOUT)
    page.wait_for_function("() => !!document.activeElement.closest('[role=alertdialog]')", timeout=TIMEOUT)
    _tab_to(page, "#confirm-ok", limit=6)
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden(timeout=TIMEOUT)


def test_a_client_approves_advice_and_decides_trades_with_the_keyboard(page: Page, login: Callable[..., None],
                                                                      app_server) -> None:
    rofa_url, trades_url = _outback_records(app_server.database_url)
    login(page, KEYBOARD_CLIENT)

    # the record of advice: Next through its steps; the focus stays with the step shown
    page.goto(rofa_url)
    expect(page.locator("#rofa-status")).to_have_text("Approval Required", timeout=TIMEOUT)
    page.wait_for_function("() => window.__waA11y === true", timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_be_focused(timeout=TIMEOUT)
    for step in ("fee", "recommendation", "authority"):
        _tab_to(page, "#rofa-next")
        page.keyboard.press("Enter")
        expect(page.locator(f"#rofa-tab-{step}")).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
        page.wait_for_function("() => !!document.activeElement.closest('[role=tabpanel][data-state=active]')",
                               timeout=TIMEOUT)
    _tab_to(page, "#rofa-previous")
    page.keyboard.press("Enter")
    expect(page.locator("#rofa-tab-recommendation")).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    page.wait_for_function("() => !!document.activeElement.closest('[role=tabpanel][data-state=active]')",
                           timeout=TIMEOUT)
    _tab_to(page, "#rofa-next")
    page.keyboard.press("Enter")
    expect(page.locator("#rofa-tab-authority")).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    _tab_to(page, "#rofa-approve")
    _dialog_by_keyboard(page, "#rofa-approve")
    expect(page.locator("#authority-status")).to_have_text("Approved", timeout=TIMEOUT)
    _focus_not_dropped(page)

    # the trade recommendations: each trade and note approved from the keyboard, then confirmed
    page.goto(trades_url)
    expect(page.locator("#ti-status")).to_have_text("Pending approval", timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_be_focused(timeout=TIMEOUT)
    groups = page.locator(".choices")
    expect(groups.first).to_be_visible(timeout=TIMEOUT)
    for i in range(groups.count()):
        key = groups.nth(i).evaluate("(el) => el.closest('[data-key]').dataset.key")
        button = f"[data-key='{key}'] .choose-approve"
        _tab_to(page, button)
        page.keyboard.press("Enter")
        expect(groups.nth(i)).to_have_attribute("data-choice", "approved", timeout=TIMEOUT)
        expect(page.locator(button)).to_be_focused()  # the focus stays on the button pressed
        expect(page.locator(button)).to_have_attribute("aria-pressed", "true")
    _tab_to(page, "#ti-confirm", backwards=True)
    _dialog_by_keyboard(page, "#ti-confirm")
    expect(page.locator("#ti-status")).to_have_text("Approved", timeout=TIMEOUT)
    _focus_not_dropped(page)
