"""The frame every signed-in screen shares: sidebar menu by role, top bar with breadcrumbs and the
user menu, then page title, toolbar and content.

Accessible (WCAG 2.2 AA) for every screen at once: a skip link first, then the landmarks (the top
bar is the banner, the menu and the breadcrumbs are navigation, the content is main), the page
title as the screen's one h1 (section titles are h2, widgets.section), aria-current on the menu's
entry of the screen, and assets/a11y.js for the focus: after navigation it goes to the new
screen's heading, and the dialogs take it, keep it, close on Escape and give it back."""
from __future__ import annotations

from typing import Iterable

import reflex as rx

from app.ui import routes
from app.ui.components.widgets import cancel_button, file_src
from app.ui.states.base import AppState

SIDEBAR_WIDTH = "232px"
MAIN_ID = "main"  # the skip link's target
A11Y_SCRIPT = "/a11y.js"  # assets/a11y.js
LINKS_SCRIPT = "/links.js"  # assets/links.js: a click for a new tab on an app link is the browser's


def a11y_script() -> rx.Component:
    """The shared focus and keyboard behaviour (assets/a11y.js) and the links' (assets/links.js);
    each runs once however often it is put."""
    return rx.fragment(rx.script(src=A11Y_SCRIPT), rx.script(src=LINKS_SCRIPT))


def skip_link() -> rx.Component:
    """'Skip to main content': the first stop of Tab on every screen, out of sight until reached."""
    return rx.el.a("Skip to main content", href=f"#{MAIN_ID}", class_name="wa-skip-link", id="skip-link")


def _nav_item(label: str, icon: str, route: str, active_prefix: str) -> rx.Component:
    active = rx.State.router.url.path.startswith(active_prefix)
    return rx.link(
        rx.hstack(rx.icon(icon, size=16, aria_hidden="true"), rx.text(label, size="2", weight="medium"),
                  spacing="3", align="center"),
        on_click=AppState.navigate(routes.url(route)).prevent_default,  # no router navigation: it would re-run on_load
        href=routes.url(route),  # a real address: a new tab or a bookmark opens the screen
        aria_current=rx.cond(active, "page", "false"),
        underline="none",
        color=rx.cond(active, rx.color("accent", 11), rx.color("gray", 11)),
        background=rx.cond(active, rx.color("accent", 3), "transparent"),
        _hover={"background": rx.color("gray", 3)},  # replaces rx.link's own hover (accent text)
        class_name="wa-nav-item",
        id=f"nav-{route.replace('.', '-')}",
    )


def _nav_group(label: str) -> rx.Component:
    return rx.text(label.upper(), size="1", weight="bold", color=rx.color("gray", 11), padding="12px 12px 2px",
                   letter_spacing="0.04em")


def sidebar() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.cond(
                AppState.firm_logo != "",
                rx.image(src=file_src(AppState.firm_logo), alt=AppState.firm_name, height="32px", max_width="160px",
                         object_fit="contain"),
                rx.hstack(rx.icon("landmark", size=22, color=rx.color("accent", 9)),
                          rx.text("Wealth Advice", weight="bold", size="4"), align="center", spacing="2"),
            ),
            padding="16px",
            height="60px",
            align="center",
        ),
        rx.cond(AppState.firm_name != "", rx.text(AppState.firm_name, size="1", color=rx.color("gray", 10), padding_x="16px")),
        rx.vstack(
            rx.cond(
                AppState.is_client,
                rx.fragment(_nav_item("My portfolios", "wallet", "portfolios.me", "/my-portfolios"),
                            _nav_item("My profile", "user-round", "profile", "/profile")),
                rx.fragment(
                    _nav_item("Dashboard", "layout-dashboard", "dashboard", "/dashboard"),
                    _nav_item("Clients", "users", "clients.list", "/clients"),
                    _nav_item("Advisers", "briefcase", "advisers.list", "/advisers"),
                    rx.cond(~AppState.is_client & (AppState.user_role != "adviser"),
                            _nav_item("Users", "user-cog", "users.list", "/users")),
                    _nav_item("Firms", "building-2", "firms.list", "/firms"),
                    _nav_item("Models", "chart-pie", "models.view", "/models"),
                    _nav_item("Portfolios", "wallet", "portfolios.list", "/portfolios"),
                    _nav_group("Reports"),
                    _nav_item("Trade recommendations", "arrow-left-right", "reports.trade-recommendations",
                              "/reports/trade-recommendations"),
                    _nav_item("Desktop broker file", "file-spreadsheet", "reports.desktop-broker-trade-file",
                              "/reports/desktop-broker-trade-file"),
                    _nav_item("Orders", "list-checks", "reports.orders", "/reports/orders"),
                    _nav_item("Cash report", "banknote", "reports.cash", "/reports/cash"),
                    _nav_item("Pending target portfolios", "hourglass", "reports.pending-target-portfolios",
                              "/reports/pending-target-portfolios"),
                    _nav_group("Setup"),
                    _nav_item("Assets", "chart-candlestick", "assets.list", "/assets"),
                    _nav_item("Industry groups", "layers", "industry-groups", "/industry-groups"),
                    rx.cond(AppState.is_superuser | AppState.is_administrator,
                            _nav_item("Audit trail", "scroll-text", "audit", "/audit")),
                    rx.cond(AppState.is_superuser, _nav_item("Outbox", "mail", "outbox", "/outbox")),
                ),
            ),
            spacing="1",
            padding="8px",
            width="100%",
        ),
        # the whole sidebar is the menu's landmark: the firm's name and logo above the entries are in it
        role="navigation",
        aria_label="Main menu",
        width=SIDEBAR_WIDTH,
        min_width=SIDEBAR_WIDTH,
        height="100vh",
        overflow_y="auto",
        position="sticky",
        top="0",
        border_right=f"1px solid {rx.color('gray', 5)}",
        background=rx.color("gray", 1),
        spacing="0",
        display=["none", "none", "flex"],
    )


def mobile_menu() -> rx.Component:
    return rx.box(
        rx.menu.root(
            rx.menu.trigger(rx.icon_button(rx.icon("menu"), variant="ghost", aria_label="Menu", size="3")),
            rx.menu.content(
                rx.cond(
                    AppState.is_client,
                    rx.fragment(
                        rx.menu.item("My portfolios", on_click=AppState.navigate(routes.url("portfolios.me"))),
                        rx.menu.item("My profile", on_click=AppState.navigate(routes.url("profile"))),
                    ),
                    rx.fragment(
                        rx.menu.item("Dashboard", on_click=AppState.navigate(routes.url("dashboard"))),
                        rx.menu.item("Clients", on_click=AppState.navigate(routes.url("clients.list"))),
                        rx.menu.item("Advisers", on_click=AppState.navigate(routes.url("advisers.list"))),
                        rx.cond(AppState.user_role != "adviser",
                                rx.menu.item("Users", on_click=AppState.navigate(routes.url("users.list")))),
                        rx.menu.item("Firms", on_click=AppState.navigate(routes.url("firms.list"))),
                        rx.menu.item("Models", on_click=AppState.navigate(routes.url("models.view"))),
                        rx.menu.item("Portfolios", on_click=AppState.navigate(routes.url("portfolios.list"))),
                        rx.menu.separator(),
                        rx.menu.item("Trade recommendations",
                                     on_click=AppState.navigate(routes.url("reports.trade-recommendations"))),
                        rx.menu.item("Desktop broker file",
                                     on_click=AppState.navigate(routes.url("reports.desktop-broker-trade-file"))),
                        rx.menu.item("Orders", on_click=AppState.navigate(routes.url("reports.orders"))),
                        rx.menu.item("Cash report", on_click=AppState.navigate(routes.url("reports.cash"))),
                        rx.menu.item("Pending target portfolios",
                                     on_click=AppState.navigate(routes.url("reports.pending-target-portfolios"))),
                        rx.menu.separator(),
                        rx.menu.item("Assets", on_click=AppState.navigate(routes.url("assets.list"))),
                        rx.menu.item("Industry groups", on_click=AppState.navigate(routes.url("industry-groups"))),
                        rx.cond(AppState.is_superuser | AppState.is_administrator,
                                rx.menu.item("Audit trail", on_click=AppState.navigate(routes.url("audit")))),
                        rx.cond(AppState.is_superuser,
                                rx.menu.item("Outbox", on_click=AppState.navigate(routes.url("outbox")))),
                    ),
                ),
            ),
        ),
        display=["block", "block", "none"],
    )


def breadcrumbs(crumbs: Iterable[tuple[str, str | None]]) -> rx.Component:
    """crumbs: (title, path or None for the current page). Titles may be Vars. A crumb may also be a
    component of its own (e.g. a portfolio's owners, each a link)."""
    parts: list[rx.Component] = []
    for i, crumb in enumerate(crumbs):
        if i:
            parts.append(rx.icon("chevron-right", size=14, color=rx.color("gray", 8), aria_hidden="true",
                                 flex_shrink="0"))
        if isinstance(crumb, rx.Component):
            parts.append(crumb)
            continue
        title, path = crumb
        if isinstance(path, rx.Var) or path:  # a Var path (e.g. a record's view URL) is always a link
            parts.append(rx.link(title, href=path, on_click=AppState.go_back(path).prevent_default, size="2",
                                 color=rx.color("gray", 11), class_name="wa-crumb"))
        else:
            parts.append(rx.text(title, size="2", weight="medium", color=rx.color("gray", 12), class_name="wa-crumb",
                                 aria_current="page"))
    return rx.hstack(*parts, spacing="2", align="center", id="breadcrumbs", overflow="hidden", white_space="nowrap",
                     min_width="0", role="navigation", aria_label="Breadcrumb")


def user_menu() -> rx.Component:
    return rx.menu.root(
        rx.menu.trigger(
            rx.button(
                rx.avatar(src=file_src(AppState.user_photo), fallback=AppState.initials, size="2", radius="full",
                          alt="", aria_hidden="true"),  # the name beside it says who
                rx.vstack(
                    rx.text(AppState.user_name, size="2", weight="medium"),
                    rx.text(AppState.role_title, size="1", color=rx.color("gray", 10)),
                    spacing="0", align="start", display=["none", "flex"],
                ),
                rx.icon("chevron-down", size=14),
                variant="ghost", color_scheme="gray", id="user-menu", height="auto", padding="4px 8px",
            )
        ),
        rx.menu.content(
            rx.cond(~AppState.is_client,
                    rx.menu.item(rx.icon("layout-dashboard", size=14), "Dashboard",
                                 on_click=AppState.navigate(routes.url("dashboard")), id="user-menu-dashboard")),
            rx.menu.item(rx.icon("user-round", size=14), "Profile", on_click=AppState.navigate(routes.url("profile"))),
            rx.menu.separator(),
            rx.menu.item(rx.icon("log-out", size=14), "Sign out", on_click=AppState.signout, id="signout"),
        ),
    )


def leave_dialog(on_save: rx.EventHandler | None = None) -> rx.Component:
    """Leaving a dirty form: Save, Don't Save or Cancel (spec 000/002)."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Unsaved changes", custom_attrs={"as": "h2"}),
            rx.alert_dialog.description("Do you want to save changes?"),
            rx.hstack(
                cancel_button(on_click=AppState.cancel_leave, id="leave-cancel"),
                rx.button("Don't Save", variant="soft", color_scheme="red", on_click=AppState.discard_and_leave, id="leave-discard"),
                rx.button("Save", on_click=on_save, id="leave-save") if on_save is not None else rx.fragment(),
                justify="end", spacing="3", margin_top="16px",
            ),
            max_width="440px",
        ),
        open=AppState.leave_open,
        on_open_change=lambda _open: AppState.cancel_leave,  # Escape is Cancel
    )


def page(title, *content: rx.Component, crumbs: Iterable[tuple[str, str | None]] = (), actions: rx.Component | None = None,
         on_save_leave: rx.EventHandler | None = None) -> rx.Component:
    """A signed-in screen: skip link, frame (menu, top bar) + title (the screen's h1) + toolbar + content."""
    return rx.hstack(
        skip_link(),
        a11y_script(),
        sidebar(),
        rx.box(
            rx.hstack(
                mobile_menu(),
                breadcrumbs(crumbs),
                rx.spacer(),
                user_menu(),
                height="60px", align="center", padding_x=["12px", "24px"], border_bottom=f"1px solid {rx.color('gray', 5)}",
                background=rx.color("gray", 1), position="sticky", top="0", z_index="10", width="100%",
                role="banner", spacing=rx.breakpoints(initial="2", sm="3"),
            ),
            rx.vstack(
                rx.hstack(
                    rx.heading(title, size="6", weight="bold", id="page-title", as_="h1", tab_index=-1),
                    rx.spacer(),
                    actions if actions is not None else rx.fragment(),
                    width="100%", align="center", wrap="wrap", spacing="3",
                ),
                *content,
                padding=["16px", "16px", "24px"],
                spacing="4",
                width="100%",
                max_width="1400px",
                role="main",
                id=MAIN_ID,
                tab_index=-1,
            ),
            leave_dialog(on_save_leave),
            flex="1",
            min_width="0",
            background=rx.color("gray", 2),
            min_height="100vh",
        ),
        spacing="0",
        width="100%",
        align="start",
    )


def card(*children: rx.Component, **props) -> rx.Component:
    return rx.card(*children, width="100%", size="2", **props)


def centered_card(*children: rx.Component) -> rx.Component:
    """Public pages (login, activation, reset): one card centred on a calm background."""
    return rx.center(
        a11y_script(),
        rx.vstack(
            rx.hstack(rx.icon("landmark", size=28, color=rx.color("accent", 9), aria_hidden="true"),
                      rx.text("Wealth Advice", size="6", weight="bold"),
                      align="center", spacing="2", role="banner"),
            rx.card(rx.vstack(*children, spacing="4", width="100%"), width="100%", size="4", role="main"),
            rx.text("Advice, portfolios and trades for Australian advisory practices.", size="1", color=rx.color("gray", 10),
                    role="contentinfo"),
            align="center", spacing="5", width="100%", max_width="420px", padding="16px",
        ),
        min_height="100vh",
        background=f"linear-gradient(160deg, {rx.color('accent', 2)}, {rx.color('gray', 2)})",
    )
