"""app.services.transactions called as its edges call it (the API, the screen): the sent form read
once into the service's TransactionForm or OpeningBalanceForm, ids and the paging query read as the
API reads them (an id that may be text through path_id); the typed answer rendered as the payload
a client reads."""
from __future__ import annotations

from app.api.schemas import path_id, query_number, rendered
from app.api.transactions import counted_rows
from app.domain import transaction_rules as rules
from app.services import transactions as typed


def _id(value):
    return value if isinstance(value, int) else path_id(value)


def _number(value):
    return value if value is None or isinstance(value, int) else query_number(value)


def _paging(page, offset, limit, order, reverse):
    return dict(page=_number(page), offset=_number(offset), limit=_number(limit), order=order,
                reverse=rules.read_reverse(reverse))


class tx:  # noqa: N801 - stands for the module, as the edges call it
    @staticmethod
    def list_cash_transactions(*, actor, investment_id, page=None, offset=None, limit=None, order=None, reverse=None):
        return rendered(typed.list_cash_transactions(actor=actor, investment_id=_id(investment_id),
                                                     **_paging(page, offset, limit, order, reverse)))

    @staticmethod
    def get_cash_transaction(*, actor, transaction_id):
        return rendered(typed.get_cash_transaction(actor=actor, transaction_id=_id(transaction_id)))

    @staticmethod
    def create_cash_transaction(*, actor, data):
        return rendered(typed.create_cash_transaction(actor=actor, form=rules.read_transaction_form(data)))

    @staticmethod
    def update_cash_transaction(*, actor, transaction_id, data):
        return rendered(typed.update_cash_transaction(actor=actor, transaction_id=_id(transaction_id),
                                                      form=rules.read_transaction_form(data)))

    @staticmethod
    def delete_cash_transaction(*, actor, transaction_id):
        return rendered(typed.delete_cash_transaction(actor=actor, transaction_id=_id(transaction_id)))

    @staticmethod
    def get_opening_balance(*, actor, investment_id):
        return rendered(typed.get_opening_balance(actor=actor, investment_id=_id(investment_id)))

    @staticmethod
    def set_opening_balance(*, actor, investment_id, data):
        return rendered(typed.set_opening_balance(actor=actor, investment_id=_id(investment_id),
                                                  form=rules.read_opening_balance(data)))

    @staticmethod
    def add_asset_transaction(*, actor, data):
        return rendered(typed.add_asset_transaction(actor=actor, form=rules.read_transaction_form(data)))

    @staticmethod
    def create_transaction(*, actor, data):
        return rendered(typed.create_transaction(actor=actor, form=rules.read_transaction_form(data)))

    @staticmethod
    def update_asset_transaction(*, actor, transaction_id, data, confirm=False):
        return rendered(typed.update_asset_transaction(actor=actor, transaction_id=_id(transaction_id),
                                                       form=rules.read_transaction_form(data), confirm=confirm))

    @staticmethod
    def delete_asset_transaction(*, actor, transaction_id):
        return rendered(typed.delete_asset_transaction(actor=actor, transaction_id=_id(transaction_id)))

    @staticmethod
    def get_asset_transaction(*, actor, transaction_id):
        return rendered(typed.get_asset_transaction(actor=actor, transaction_id=_id(transaction_id)))

    @staticmethod
    def list_asset_positions(*, actor, investment_id, page=None, offset=None, limit=None, order=None, reverse=None):
        found = typed.list_asset_positions(actor=actor, investment_id=_id(investment_id),
                                           **_paging(page, offset, limit, order, reverse))
        return counted_rows(found.rows, found.total)

    @staticmethod
    def list_transactions_of_asset(*, actor, investment_id, asset_id, statuses=(), types=(), offset=None, limit=None):
        found = typed.list_transactions_of_asset(actor=actor, investment_id=_id(investment_id), asset_id=_id(asset_id),
                                                 statuses=statuses, types=types, offset=_number(offset),
                                                 limit=_number(limit))
        return counted_rows(found.rows, found.total)

    @staticmethod
    def asset_totals(*, actor, investment_id):
        return rendered(typed.asset_totals(actor=actor, investment_id=_id(investment_id)))

    @staticmethod
    def form_options():
        return rendered(typed.form_options())
