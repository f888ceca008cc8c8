"""portfolios.tax-report and clients.tax-report: the financial-year tax report (app.services.tax_reports).

One state for both screens: the portfolio's (`/portfolios/[id]/tax-report`, staff and the
portfolio's holders; `?year=2026` opens that financial year) and the client's own across their
portfolios (`/my-tax-report`, read-only; staff open a client's with `?client=<id>`). The year picker
offers the financial years of the history, newest first, and opens on the last completed one. Staff
enter the net capital loss carried into the year on the portfolio's screen; the service refuses a
bad amount with its text, shown under the field. Every figure is formatted here (money as
$1,234.56, negative in red; dates DD/MM/YYYY; listed units whole)."""
from __future__ import annotations

from functools import partial
from typing import Callable, TypeVar

import reflex as rx

from app.db.types import utcnow
from app.domain import tax
from app.domain.errors import ValidationError
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.tax_report import ClientTaxReport, TaxReport
from app.domain.timezones import day_text
from app.services import holdings as holdings_service
from app.services import tax_reports as tax_service
from app.ui.display import input_number
from app.ui.parse import form_text, positive_int
from app.ui.rows.tax_report import (
    CapitalReturnRow, GainRow, IncomeRow, PortfolioTaxRow, SummaryRow, UnrealisedRow, default_year, gain_rows,
    gain_total, income_rows, income_total, portfolio_rows, summary_rows, unrealised_rows, unrealised_total,
    year_options,
)
from app.ui.states.base import AppState, toast_success
from app.ui.states.portfolio_header import PortfolioHeader
from app.ui.toolkit.rows import Amount, Option, amount_of, field_errors, offers
from app.ui.toolkit.screen import ExportLinks, guarded, screen_load

LOAD_FAILED = "The tax report could not be loaded."
OVERSOLD = "Oversold"


YearReport = TypeVar("YearReport", TaxReport, ClientTaxReport)


def of_year(read: Callable[..., YearReport], year: int | None) -> YearReport:
    """The report of `year`; with none, of the last completed financial year when the history reaches
    it, else of the newest one offered (the first read tells which years there are)."""
    if year is not None:
        return read(year=year)
    today = utcnow().date()
    first = read(year=tax.financial_year_of(today) - 1)
    wanted = default_year(first.years, today)
    return first if wanted == first.year else read(year=wanted)


class TaxReportState(PortfolioHeader, ExportLinks, AppState):
    loading: bool = True
    client_view: bool = False
    year: str = ""
    years: list[Option] = []
    label: str = ""
    title_text: str = ""
    entity: str = ""
    treatment: str = ""
    end_day: str = ""
    message: str = ""
    flags: list[str] = []
    summary: list[SummaryRow] = []
    income: list[IncomeRow] = []
    income_totals: IncomeRow = IncomeRow()
    gains: list[GainRow] = []
    gain_totals: GainRow = GainRow()
    capital_returns: list[CapitalReturnRow] = []
    capital_returns_total: Amount = Amount()
    unrealised: list[UnrealisedRow] = []
    unrealised_totals: UnrealisedRow = UnrealisedRow()
    portfolios: list[PortfolioTaxRow] = []
    net_capital_gain: Amount = Amount()
    carried_forward_out: Amount = Amount()
    # the carried-forward loss form (staff, the portfolio's screen)
    can_edit: bool = False
    loss_amount: str = ""
    loss_error: str = ""
    loss_saving: bool = False
    _client_id: int = 0

    # ---- showing a report ------------------------------------------------------------------------
    def _show_common(self, years: tuple[int, ...], year: int, label: str) -> None:
        self.years = year_options(years)
        self.year = str(year)
        self.label = label
        self.end_day = day_text(tax.financial_year(year).end)
        self.loading = False

    def _show(self, r: TaxReport) -> None:
        self._show_common(r.years, r.year, r.label)
        self.title_text = r.portfolio_name
        self.entity = f"{r.portfolio_type} ({r.entity})"
        self.treatment = r.treatment
        self.message = r.message or ""
        self.flags = list(r.flags)
        self.summary = summary_rows(r)
        self.income = income_rows(r)
        self.income_totals = income_total(r)
        self.gains = gain_rows(r)
        self.gain_totals = gain_total(r)
        self.capital_returns = [CapitalReturnRow(day=day_text(x.day), code=x.code, amount=amount_of(x.amount))
                                for x in r.capital_returns]
        self.capital_returns_total = amount_of(r.capital.capital_returns)
        self.unrealised = unrealised_rows(r)
        self.unrealised_totals = unrealised_total(r)
        self.net_capital_gain = amount_of(r.capital.net_capital_gain)
        self.carried_forward_out = amount_of(r.capital.carried_forward_out)
        self.can_edit = r.can_edit
        self.loss_amount = input_number(r.capital.carried_forward_in)
        self.loss_error = ""

    def _show_client(self, report: ClientTaxReport) -> None:
        self._show_common(report.years, report.year, report.label)
        self.title_text = report.client_name
        self.entity = report.client_name
        self.treatment = ""
        self.portfolios = portfolio_rows(report)
        t = report.income_totals
        self.summary = [
            SummaryRow("income", "Dividends and interest received", amount_of(t.cash)),
            SummaryRow("franking-credits", "Franking credits", amount_of(t.franking_credits)),
            SummaryRow("assessable", "Assessable income (grossed up)", amount_of(t.assessable), True),
            SummaryRow("net-capital-gain", "Net capital gain", amount_of(report.net_capital_gain), True),
            SummaryRow("carried-forward-out", "Net capital loss carried forward",
                       amount_of(report.carried_forward_out), True),
        ]
        self.net_capital_gain = amount_of(report.net_capital_gain)
        self.carried_forward_out = amount_of(report.carried_forward_out)
        self.can_edit = False
        self.message = "" if report.portfolios else "You hold no portfolios to report on."

    def _show_year(self, actor: Actor, year: int | None) -> None:
        """The report of the year asked for (the client's or the portfolio's)."""
        if self.client_view:
            of_client = partial(tax_service.client_report, actor=actor, client_id=self._client_id)
            self._show_client(of_year(of_client, year))
        else:
            of_portfolio = partial(tax_service.portfolio_report, actor=actor, portfolio_id=self.portfolio_id)
            self._show(of_year(of_portfolio, year))

    # ---- loading ---------------------------------------------------------------------------------
    @rx.event
    @screen_load(failed=LOAD_FAILED, back=PortfolioHeader._list_url)
    def on_load(self, actor: Actor):
        """Both screens load here (one handler: screen_load names what it wraps `on_load`): a path with
        a portfolio id is the portfolio's report, else the client's across their portfolios."""
        self._reset_screen()
        self.portfolio_id = self._portfolio_param() or 0
        self.client_view = not self.portfolio_id
        if self.client_view:
            wanted = positive_int(self._query_text("client")) if actor.role is not Role.CLIENT else None
            self._client_id = wanted or actor.id
        else:
            self._show_header(holdings_service.header(actor=actor, portfolio_id=self.portfolio_id), actor)
        self._show_year(actor, positive_int(self._query_text("year")))

    @rx.event
    @guarded
    def pick_year(self, value: str):
        """Another financial year (one the picker offers) is shown."""
        if not offers(self.years, value) or value == self.year:
            return None
        self._show_year(self._actor(), int(value))
        return None

    # ---- the carried-forward loss ----------------------------------------------------------------
    @rx.event
    def set_loss_amount(self, value: str):
        self.loss_amount = str(value or "")[:40]
        self.loss_error = ""

    @rx.event
    @guarded
    def save_loss(self, form: dict | None = None):
        if self.client_view or not self.portfolio_id or self.loss_saving:
            return None
        # what the field shows when Save is pressed: its last change may still be on its way
        submitted = form_text(form, "carried-forward-loss", 40)
        if submitted is not None:
            self.loss_amount = submitted
        actor = self._actor()
        self.loss_saving = True
        try:
            saved = tax_service.set_carried_forward_loss(actor=actor, portfolio_id=self.portfolio_id,
                                                         year=tax_service.read_year(self.year),
                                                         amount=self.loss_amount)
        except ValidationError as exc:
            self.loss_error = field_errors(exc.fields, ("amount",))["amount"] or exc.message
            return None
        finally:
            self.loss_saving = False
        self._show_year(actor, saved.year)
        return toast_success(saved.message)

    # ---- downloads -------------------------------------------------------------------------------
    def _export_path(self, kind: str) -> str:
        query = f"?year={self.year}" if self.year else ""
        if self.client_view:
            return f"/api/users/{self._client_id}/tax-report/export-{kind}{query}" if self._client_id else ""
        return f"/api/investments/{self.portfolio_id}/tax-report/export-{kind}{query}" if self.portfolio_id else ""

