"""What the advice reports show: a row of the cash report and of the pending report, and the cash totals."""
from __future__ import annotations

import dataclasses

from app.services import advice_reports as reports
from app.ui import routes
from app.ui.display import money
from app.ui.toolkit.rows import Amount


@dataclasses.dataclass
class ReportRow:
    """What a row of either report shows of its portfolio and target portfolio."""

    id: int = 0
    name: str = ""
    url: str = ""
    firm: str = ""
    owners: str = ""
    adviser: str = ""
    model: str = ""
    status: str = ""
    status_label: str = ""
    date: str = ""
    value: str = ""


@dataclasses.dataclass
class CashReportRow(ReportRow):
    cash: Amount = Amount()
    placed_buys: str = ""       # committed to buys with the broker
    cash_after: Amount = Amount()
    min_cash: str = ""
    cash_to_invest: Amount = Amount()


@dataclasses.dataclass
class CashTotals:
    """The cash report's totals row (the cash itself is the report's total amount)."""

    value: str = ""
    placed_buys: str = ""
    cash_after: str = ""
    min_cash: str = ""
    cash_to_invest: Amount = Amount()


@dataclasses.dataclass
class PendingReportRow(ReportRow):
    error_message: str = ""
    calculated_by: str = ""
    days_waiting: int = 0


def report_head(r: reports.CashRow | reports.PendingRow) -> ReportRow:
    return ReportRow(r.investment_id, r.portfolio_name, routes.url(reports.TARGET_ROUTE, id=r.investment_id), r.firm,
                     r.owners, r.adviser, r.model, r.status, r.status_label, r.date.isoformat(), money(r.value))
