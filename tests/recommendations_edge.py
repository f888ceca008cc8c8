"""app.services.recommendations called as its edges call it (the API, the screens): ids, the kind,
a create's or an update's form, the browser's offset and the models of an upload read once from
what was sent (an id that may be text reads as the API reads it), and the typed answers rendered
as the payloads a client reads (a list as (rows, total)). Its other names are the service's own."""
from __future__ import annotations

from app.api.schemas import path_id, rendered
from app.domain.model_rules import owner_filter
from app.domain.parsing import as_id
from app.domain.recommendations import Kind, read_form
from app.domain.timezones import client_offset as offset_minutes
from app.services import recommendations as typed
from app.services.recommendations import *  # noqa: F401,F403 - the constants and types, as the service names them


def _id(value):
    return value if isinstance(value, int) else path_id(value)


def recommendations_page(*, actor, model_id, kind):
    page = typed.recommendations_page(actor=actor, model_id=_id(model_id), kind=Kind(kind))
    return {"model": rendered(page.model), "rows": rendered(list(page.rows))}


def list_long_terms(*, actor, model_id):
    found = typed.list_long_terms(actor=actor, model_id=as_id(model_id))
    return rendered(list(found.rows)), found.total


def list_short_terms(*, actor, model_id):
    found = typed.list_short_terms(actor=actor, model_id=as_id(model_id))
    return rendered(list(found.rows)), found.total


def create_long_term(*, actor, data):
    return rendered(typed.create_long_term(actor=actor, form=read_form(data)))


def update_long_term(*, actor, rec_id, data):
    return rendered(typed.update_long_term(actor=actor, rec_id=_id(rec_id), form=read_form(data)))


def delete_long_term(*, actor, rec_id):
    return typed.delete_long_term(actor=actor, rec_id=_id(rec_id))


def delete_all_long_terms(*, actor, model_id):
    return typed.delete_all_long_terms(actor=actor, model_id=as_id(model_id))


def create_short_term(*, actor, data):
    return rendered(typed.create_short_term(actor=actor, form=read_form(data)))


def update_short_term(*, actor, rec_id, data):
    return rendered(typed.update_short_term(actor=actor, rec_id=_id(rec_id), form=read_form(data)))


def mark_short_terms_deleted(*, actor, ids):
    return typed.mark_short_terms_deleted(actor=actor, ids=[n for n in (as_id(i) for i in ids or []) if n is not None])


def delete_all_short_terms(*, actor, model_id):
    return typed.delete_all_short_terms(actor=actor, model_id=as_id(model_id))


def export_csv(*, actor, model_id, kind, client_offset=None):
    return typed.export_csv(actor=actor, model_id=_id(model_id), kind=Kind(kind), client_offset=offset_minutes(client_offset))


def upload(*, actor, kind, model_ids, content_type, data, upload_type=None, on_model_done=None):
    return rendered(typed.upload(actor=actor, kind=Kind(kind), model_ids=typed.read_model_ids(model_ids),
                                 content_type=content_type, data=data, upload_type=upload_type,
                                 on_model_done=on_model_done))


def upload_candidates(*, actor, kind, firm_id=None):
    return typed.upload_candidates(actor=actor, kind=Kind(kind), firm_id=owner_filter(firm_id))
