"""portfolios.performance and clients.performance: returns against the model (app.services.performance).

One state for both screens: the portfolio's (`/portfolios/[id]/performance`, staff and the
portfolio's holders) and the client's own across their portfolios (`/my-performance`, read-only;
staff open a client's with `?client=<id>`). It holds the periods table, the "why" table, the chart
points and the export paths; every figure is formatted here (percentages with one decimal, money
as $1,234.56, N/A when empty)."""
from __future__ import annotations


import reflex as rx

from app.domain.performance import PerformanceReport
from app.domain.permissions import Actor
from app.domain.timezones import day_text
from app.services import holdings as holdings_service
from app.services import performance as performance_service
from app.ui import routes
from app.ui.display import money
from app.ui.rows.performance import PeriodRow, PortfolioRow, chart_rows, period_rows
from app.ui.states.base import AppState
from app.ui.states.portfolio_header import PortfolioHeader
from app.ui.toolkit.rows import performance_of
from app.ui.toolkit.screen import ExportLinks, screen_load

LOAD_FAILED = "The performance could not be loaded."


class PerformanceState(PortfolioHeader, ExportLinks, AppState):
    loading: bool = True
    client_view: bool = False
    title_text: str = ""
    firm_name: str = ""
    model_text: str = ""
    model_basis: str = ""
    as_at: str = ""
    value_text: str = ""
    message: str = ""
    periods: list[PeriodRow] = []
    chart: list[dict[str, float | str]] = []
    portfolio_rows: list[PortfolioRow] = []
    has_model: bool = False
    _client_id: int = 0

    def _show(self, report: PerformanceReport) -> None:
        self.title_text = report.title
        self.firm_name = report.firm_name
        self.model_text = report.model_name or "No model linked"
        self.model_basis = report.model_basis
        self.has_model = report.model_name is not None
        self.as_at = day_text(report.as_at) if report.as_at else ""
        self.value_text = money(report.value)
        self.message = report.message or ""
        self.periods = period_rows(report)
        self.chart = chart_rows(report)
        self.portfolio_rows = [PortfolioRow(
            id=p.id, name=p.name, url=routes.url("portfolios.performance", id=p.id), model=p.model_name or "",
            value=money(p.value), fytd=performance_of(p.fytd), since_inception=performance_of(p.since_inception),
        ) for p in report.portfolios]
        self.loading = False

    @rx.event
    @screen_load(failed=LOAD_FAILED, back=PortfolioHeader._list_url)
    def on_load(self, actor: Actor):
        self.loading = True
        self.client_view = False
        self.portfolio_id = self._portfolio_param() or 0
        self._show_header(holdings_service.header(actor=actor, portfolio_id=self.portfolio_id), actor)
        self._show(performance_service.portfolio_performance(actor=actor, portfolio_id=self.portfolio_id))

    @rx.event
    @screen_load(failed=LOAD_FAILED)
    def on_load_client(self, actor: Actor):
        self.loading = True
        self.client_view = True
        self.portfolio_id = 0
        wanted = self._path_id("client") if actor.role.value != "client" else None
        report = performance_service.client_performance(actor=actor, client_id=wanted or actor.id)
        self._client_id = report.client_id or 0
        self.viewer_role = actor.role.value
        self._show(report)

    def _export_path(self, kind: str) -> str:
        if self.client_view:
            return f"/api/users/{self._client_id}/performance/export-{kind}" if self._client_id else ""
        return f"/api/investments/{self.portfolio_id}/performance/export-{kind}" if self.portfolio_id else ""
