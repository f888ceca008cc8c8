"""app.services.target_portfolios, records_of_advice and advice_display called as their edges call
them (the API, the screens): ids and row versions read as the API reads them (an id that may be
text through path_id), the edits of edit mode read once (read_edits), the client's offset read
from its text; the typed answers rendered as the payloads a client reads. Whatever else the tests
use of a module is the module's own."""
from __future__ import annotations

from app.api import advice as advice_api
from app.api.schemas import path_id, rendered
from app.domain.advice.target_portfolios import TargetEdit, read_edits, summary_payload, tp_payload
from app.domain.parsing import as_id
from app.domain.timezones import client_offset as read_offset
from app.services import advice_display as typed_display
from app.services import records_of_advice as typed_records
from app.services import target_portfolios as typed


def _id(value):
    return value if isinstance(value, int) else path_id(str(value))


def _sent(value):
    """A row_version or an id a body may leave out (as app.api.advice reads it)."""
    return None if value is None or value == "" else (as_id(value) or 0)


def _edits(overrides):
    """The edits as sent, read once; the screen's own (already TargetEdit) as they are."""
    if isinstance(overrides, (list, tuple)) and overrides and all(isinstance(e, TargetEdit) for e in overrides):
        return tuple(overrides)
    return read_edits(overrides)


class _Edge:
    """The module as its edges call it; any other name is the module's own."""

    module = None

    def __getattr__(self, name):
        return getattr(self.module, name)


class _TargetPortfolios(_Edge):
    module = typed

    @staticmethod
    def calculate(*, actor, investment_id):
        return tp_payload(typed.calculate(actor=actor, investment_id=_id(investment_id)))

    @staticmethod
    def get(*, actor, tp_id):
        return tp_payload(typed.get(actor=actor, tp_id=_id(tp_id)))

    @staticmethod
    def current(*, actor, investment_id, version=None):
        return typed.current(actor=actor, investment_id=_id(investment_id),
                             version=None if version in (None, "") else _id(version))

    @staticmethod
    def get_current(*, actor, investment_id, version=None):
        view = _TargetPortfolios.current(actor=actor, investment_id=investment_id, version=version)
        return None if view is None else tp_payload(view)

    @staticmethod
    def versions(*, actor, investment_id, limit=None, offset=None, order="desc", order_by="created_at",
                 statuses=None, versioned=False):
        page = typed.versions(actor=actor, investment_id=_id(investment_id), limit=limit, offset=offset, order=order,
                              order_by=order_by, statuses=statuses, versioned=versioned)
        return list(page.rows), page.total

    @staticmethod
    def list_versions(**sent):
        rows, total = _TargetPortfolios.versions(**sent)
        return [summary_payload(r) for r in rows], total

    @staticmethod
    def validate(*, actor, tp_id, row_version=None):
        return tp_payload(typed.validate(actor=actor, tp_id=_id(tp_id), row_version=_sent(row_version)))

    @staticmethod
    def decide(*, actor, tp_id, action, row_version=None):
        decided = typed.decide(actor=actor, tp_id=_id(tp_id), action=action, row_version=_sent(row_version))
        return tp_payload(decided.view, message=decided.message)

    @staticmethod
    def edit_preview(*, actor, tp_id, row_version, overrides):
        return typed.edit_preview(actor=actor, tp_id=_id(tp_id), row_version=_sent(row_version),
                                  edits=_edits(overrides))

    @staticmethod
    def edit_step(*, actor, tp_id, row_version, overrides):
        view = _TargetPortfolios.edit_preview(actor=actor, tp_id=tp_id, row_version=row_version, overrides=overrides)
        return tp_payload(view, mode=typed.MODE_EDIT)

    @staticmethod
    def save_edit(*, actor, tp_id, row_version, overrides):
        saved = typed.save_edit(actor=actor, tp_id=_id(tp_id), row_version=_sent(row_version), edits=_edits(overrides))
        return tp_payload(saved.view, message=saved.message)

    @staticmethod
    def save_comment(*, actor, tp_id, type, description, comment_id=None):  # noqa: A002 - the payload's name
        return rendered(typed.save_comment(actor=actor, tp_id=_id(tp_id), type=type, description=description,
                                           comment_id=_sent(comment_id)))


class _RecordsOfAdvice(_Edge):
    module = typed_records

    @staticmethod
    def record(*, actor, tp_id, settings=None):
        return advice_api.record_payload(typed_records.document(actor=actor, tp_id=_id(tp_id), settings=settings))

    @staticmethod
    def read(*, actor, tp_id, template=None):
        return typed_records.read(actor=actor, tp_id=_id(tp_id), template=template)

    @staticmethod
    def capital_gains(*, actor, tp_id):
        return typed_records.capital_gains(actor=actor, tp_id=_id(tp_id))

    @staticmethod
    def export_pdf(*, actor, tp_id, client_offset=None):
        return typed_records.export_pdf(actor=actor, tp_id=_id(tp_id), client_offset=read_offset(client_offset))

    @staticmethod
    def preview_pdf(*, actor, firm_id, settings=None):
        return typed_records.preview_pdf(actor=actor, firm_id=_id(firm_id), settings=settings)

    @staticmethod
    def awaiting_decision(*, actor, now=None):
        return rendered(typed_records.awaiting_decision(actor=actor, now=now))


class _AdviceDisplay(_Edge):
    module = typed_display

    @staticmethod
    def tp_permissions(*, actor, investment_id):
        return rendered(typed_display.permissions(actor=actor, investment_id=_id(investment_id)))


tps = target_portfolios = _TargetPortfolios()
records_of_advice = _RecordsOfAdvice()
advice_display = _AdviceDisplay()
