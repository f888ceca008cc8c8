"""What the bulk progress panel shows of a run: its finished portfolios (each with a link to its
result) and its errors, built from app.services.bulk_runs' progress."""
from __future__ import annotations

import dataclasses

from app.services import bulk_runs
from app.ui import routes


@dataclasses.dataclass
class RunItem:
    investment_id: int = 0
    investment_name: str = ""
    status: str = ""
    message: str = ""
    url: str = ""  # a finished portfolio's: the target portfolio (or trade recommendations) it produced


# what a finished portfolio of a run of each kind links to: the screen of what the run produced
RESULT_ROUTES = {"tp": "portfolios.target-portfolio", "tr": "portfolios.trade-instructions"}


# a finished portfolio links to the very version the run produced (a later one may be current by then)
VERSION_ROUTES = {"tp": "portfolios.target-portfolio-version", "tr": "portfolios.trade-instructions-version"}


def result_url(row: bulk_runs.BulkRunFinished, kind: str) -> str:
    """A finished portfolio's link: the version it produced (its current one if the run did not say)."""
    if row.status != "done":
        return ""
    if row.version:
        return routes.url(VERSION_ROUTES[kind], id=row.investment_id, version=row.version)
    return routes.url(RESULT_ROUTES[kind], id=row.investment_id)


def finished_items(rows: tuple[bulk_runs.BulkRunFinished, ...], kind: str = "tp") -> list[RunItem]:
    return [RunItem(investment_id=r.investment_id, investment_name=r.investment_name, status=r.status,
                    message=r.message or "", url=result_url(r, kind)) for r in rows]


def error_items(rows: tuple[bulk_runs.BulkRunError, ...]) -> list[RunItem]:
    return [RunItem(investment_id=r.investment_id, investment_name=r.investment_name, status="failed",
                    message=r.message or "") for r in rows]
