"""app.services.audit's trail read as its edges read it (the API, the screens): the filters read
once from the sent texts into the service's AuditFilter, the page answered as (rows, total) with
each event rendered as the payload a client reads."""
from __future__ import annotations

from app.api.schemas import path_id, rendered
from app.services import audit


def list_events(*, actor, limit=None, offset=None, **filters):
    page = audit.list_events(actor=actor, limit=limit, offset=offset,
                             filters=audit.read_filter(**{k: None if v is None else str(v) for k, v in filters.items()}))
    return rendered(list(page.rows)), page.total


def portfolio_history(*, actor, investment_id, limit=None, offset=None):
    number = investment_id if isinstance(investment_id, int) else path_id(investment_id)
    page = audit.portfolio_history(actor=actor, investment_id=number, limit=limit, offset=offset)
    return rendered(list(page.rows)), page.total
