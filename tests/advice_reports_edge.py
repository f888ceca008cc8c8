"""app.services.advice_reports called as its edges call it (the API's query, the screens' filters):
the status filter, the firm, the Not Enough Cash flag and the browser's offset read once from the
text sent, then the typed service called. Its other names are the service's own."""
from __future__ import annotations

from app.domain.parsing import as_bool, firm_choice
from app.domain.timezones import client_offset as offset_minutes
from app.services import advice_reports as typed
from app.services.advice_reports import *  # noqa: F401,F403 - the constants and types, as the service names them


def _query(kind, firm_id, status, sort, order):
    allowed = typed.CASH_STATUSES if kind == typed.CASH else typed.PENDING_STATUSES
    return dict(firm_id=firm_choice(firm_id), statuses=typed.parse_statuses(status, allowed), sort=sort, order=order)


def cash_report(*, actor, firm_id=None, status=None, sort=None, order=None, limit=None, offset=None):
    return typed.cash_report(actor=actor, limit=limit, offset=offset, **_query(typed.CASH, firm_id, status, sort, order))


def pending_report(*, actor, firm_id=None, status=None, not_enough_cash=None, sort=None, order=None, limit=None,
                   offset=None, now=None):
    return typed.pending_report(actor=actor, not_enough_cash=as_bool(not_enough_cash), limit=limit, offset=offset,
                                now=now, **_query(typed.PENDING, firm_id, status, sort, order))


def export(*, actor, kind, file_type, client_offset=None, firm_id=None, status=None, not_enough_cash=None, sort=None,
           order=None):
    return typed.export(actor=actor, kind=kind, file_type=file_type, client_offset=offset_minutes(client_offset),
                        not_enough_cash=as_bool(not_enough_cash), **_query(kind, firm_id, status, sort, order))
