"""app.services.trade_instructions called as its API calls it: ids, versions and row versions read as
the routes read them (text through path_id, a sent number through as_id), units and prices as typed;
the typed answer rendered as the payload a client reads. Every other name is the module's own.

    from tests import trade_instructions_edge as tis
"""
from __future__ import annotations

from app.api.schemas import path_id, query_number, rendered
from app.domain.parsing import as_id
from app.services import trade_instructions as typed


def _id(value):
    return value if isinstance(value, int) else path_id(value)


def _number(value):
    """A version or row_version as the routes read it (None: not sent; 0: no number)."""
    return None if value is None or value == "" else (as_id(value) or 0)


def _query(value):
    return value if value is None or isinstance(value, int) else query_number(value)


def _text(value):
    return None if value is None else str(value)


def generate(*, actor, investment_ids):
    return rendered(typed.generate(actor=actor, investment_ids=[as_id(i) or 0 for i in investment_ids]))


def get(*, actor, investment_id, version=None):
    return rendered(typed.get(actor=actor, investment_id=_id(investment_id), version=_number(version)))


def list_versions(*, actor, investment_id, limit=None, offset=None):
    found = typed.list_versions(actor=actor, investment_id=_id(investment_id), limit=_query(limit),
                                offset=_query(offset))
    return rendered(found.rows), found.total


def history(*, actor, ti_id, offset=0):
    found = typed.history(actor=actor, ti_id=_id(ti_id), offset=_query(offset))
    return rendered(found.rows), found.total


def validate(*, actor, ti_id, row_version=None):
    return rendered(typed.validate(actor=actor, ti_id=_id(ti_id), row_version=_number(row_version)))


def decline_all(*, actor, ti_id, row_version=None):
    return rendered(typed.decline_all(actor=actor, ti_id=_id(ti_id), row_version=_number(row_version)))


def confirm(*, actor, ti_id, decisions=None, notes=None, is_approve_all=False, row_version=None):
    return rendered(typed.confirm(actor=actor, ti_id=_id(ti_id), decisions=decisions, notes=notes,
                                  is_approve_all=is_approve_all, row_version=_number(row_version)))


def add_transaction(*, actor, ti_id, code, action, quantity, price=None):
    return rendered(typed.add_transaction(actor=actor, ti_id=_id(ti_id), code=code, action=action,
                                          quantity=_text(quantity), price=_text(price)))


def update_transaction(*, actor, tx_id, quantity=None, price=None):
    return rendered(typed.update_transaction(actor=actor, tx_id=_id(tx_id), quantity=_text(quantity),
                                             price=_text(price)))


def delete_transaction(*, actor, tx_id):
    return rendered(typed.delete_transaction(actor=actor, tx_id=_id(tx_id)))


def can_calculate(*, actor, investment_id):
    return rendered(typed.can_calculate(actor=actor, investment_id=_id(investment_id)))


def __getattr__(name):
    return getattr(typed, name)
