"""Every page and its route (paths come from app.ui.routes)."""
import reflex as rx

from app.ui import routes
from app.ui.pages import login
from app.ui.pages import industry_groups
from app.ui.pages import users, profile
from app.ui.pages import firms
from app.ui.pages import account, outbox
from app.ui.pages import models
from app.ui.pages import recommendations
from app.ui.pages import assets as assets_pages
from app.ui.pages import holdings as holdings_pages, performance as performance_pages
from app.ui.pages import tax_report as tax_report_pages
from app.ui.pages import deposits as deposits_pages
from app.ui.pages import portfolios as portfolio_pages
from app.ui.pages import transactions as transaction_pages
from app.ui.pages import target_portfolio as tp_pages, rofa as rofa_pages
from app.ui.pages import trade_instructions as ti_pages, bulk_calculate as bulk_calc_pages
from app.ui.pages import advice_reports as advice_report_pages
from app.ui.pages import orders as order_pages
from app.ui.pages import trade_recommendations as trade_recommendation_pages
from app.ui.pages import audit as audit_pages
from app.ui.pages import not_found
from app.ui.pages import dashboard as dashboard_page
from app.ui.states.base import AppState
from app.ui.states.login import LoginState

TITLE = "Wealth Advice"


def _home() -> rx.Component:
    return rx.center(rx.spinner(size="3"), min_height="100vh")


def register_pages(app: rx.App) -> None:
    app.add_page(login.login_page, route=routes.ROUTES["login"], title=f"Sign in | {TITLE}", on_load=LoginState.on_load)
    app.add_page(_home, route=routes.ROUTES["home"], title=TITLE, on_load=AppState.go_home)
    firms.register(app)
    account.register(app)
    outbox.register(app)
    users.register(app)
    profile.register(app)
    models.register(app)
    industry_groups.register(app)
    recommendations.register(app)
    assets_pages.register(app)
    holdings_pages.register(app)
    performance_pages.register(app)
    tax_report_pages.register(app)
    deposits_pages.register(app)
    portfolio_pages.register(app)
    transaction_pages.register(app)
    tp_pages.register(app)
    rofa_pages.register(app)
    ti_pages.register(app)
    bulk_calc_pages.register(app)
    advice_report_pages.register(app)
    order_pages.register(app)
    trade_recommendation_pages.register(app)
    dashboard_page.register(app)
    audit_pages.register(app)
    not_found.register(app)
