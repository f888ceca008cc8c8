"""Notices: every cell of events x switches x receivers x attachments (the table below is written
out here, not read from the code under test), the call sites (validate, approve, decline, confirm,
auto-approval), "Send again", SMTP delivery with the PDF read back, and a failed send retried."""
from __future__ import annotations

import io
import json
import smtplib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from pypdf import PdfReader
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import OutboxAttachment, OutboxMail, Portfolio, TargetPortfolio, TradeInstruction
from app.db.types import utcnow
from app.domain.errors import PermissionDenied, ValidationError
from app.domain.notices import Event
from app.domain.portfolios import APPROVAL_FLAGS
from app.domain.firm_documents import Branding, DocumentSettings, RofaTemplate
from app.services import firms, mail, notice_documents, notices
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from app.settings import settings
from tests import factories as f
from tests.factories import actor, update_row
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio_world, post
from tests.factories_recommendations import make_short_term

CLIENT_OTHERS = "accountant@ledger.example.com, Spouse@Family.example.com"
ADVISER_OTHERS = "compliance@harbour-test.example.com"

# (event, audience) -> (switches that must all be on, the switch that attaches the PDF); a cell
# missing from the table means that audience is never told of that event.
TP_REQUEST = (("tp_approval_required", "tp_approval_request"), "tp_approval_request_pdf")
TR_REQUEST = (("tr_approval_required", "tr_approval_request"), "tr_approval_request_pdf")
TP_OTHERS = {"client_others": (("client_send_tp_to_other_email",), "client_other_email_attach_roa_pdf"),
             "adviser_others": (("adviser_send_tp_to_other_email",), "adviser_other_email_attach_roa_pdf")}
TR_OTHERS = {"client_others": (("client_send_tr_to_other_email",), "client_other_email_attach_tr_pdf"),
             "adviser_others": (("adviser_send_tr_to_other_email",), "adviser_other_email_attach_tr_pdf")}
TP_DECISION = {"owners": (("tp_approval_notification_client",), "client_attach_roa_pdf"),
               "adviser": (("tp_approval_notification_adviser",), "adviser_attach_roa_pdf"), **TP_OTHERS}
TR_DECISION = {"owners": (("tr_approval_notification_client",), "client_attach_tr_pdf"),
               "adviser": (("tr_approval_notification_adviser",), "adviser_attach_tr_pdf"), **TR_OTHERS}
MATRIX = {
    Event.TP_VALIDATED: {"owners": TP_REQUEST, **TP_OTHERS},
    Event.TP_APPROVED: TP_DECISION,
    Event.TP_DECLINED: TP_DECISION,
    Event.TR_VALIDATED: {"owners": TR_REQUEST, **TR_OTHERS},
    Event.TR_APPROVED: TR_DECISION,
    Event.TR_AUTO_APPROVED: TR_DECISION,
    Event.TR_DECLINED: TR_DECISION,
}
AUDIENCES = ("owners", "client_others", "adviser", "adviser_others")
SUBJECTS = {
    Event.TP_VALIDATED: "Record of advice for Smith Family",
    Event.TP_APPROVED: "Record of advice approved: Smith Family",
    Event.TP_DECLINED: "Record of advice declined: Smith Family",
    Event.TR_VALIDATED: "Trade recommendations for Smith Family",
    Event.TR_APPROVED: "Trade recommendations approved: Smith Family",
    Event.TR_AUTO_APPROVED: "Trade recommendations approved automatically: Smith Family",
    Event.TR_DECLINED: "Trade recommendations declined: Smith Family",
}


def _settings(**on) -> str:
    """Every flag off but those given; both receiver lists of each kind filled."""
    values = {flag: False for flag in APPROVAL_FLAGS}
    values.update(tr_auto_approval="never", client_tp_other_email=CLIENT_OTHERS, client_tr_other_email=CLIENT_OTHERS,
                  adviser_tp_other_email=ADVISER_OTHERS, adviser_tr_other_email=ADVISER_OTHERS)
    values.update(on)
    return json.dumps(values)


def _addresses(w, audience: str) -> set[str]:
    return {"owners": {w.client.email}, "adviser": {w.adviser.email},
            "client_others": {"accountant@ledger.example.com", "spouse@family.example.com"},
            "adviser_others": {"compliance@harbour-test.example.com"}}[audience]


def _sent() -> dict[str, list[tuple[str, str | None, bytes | None]]]:
    """Each address's messages: (subject, attachment name, attachment bytes)."""
    out: dict[str, list] = {}
    with session_scope() as s:
        for m in s.exec(select(OutboxMail).order_by(OutboxMail.id)).all():
            files = s.exec(select(OutboxAttachment).where(OutboxAttachment.mail_id == m.id)).all()
            assert len(files) <= 1
            out.setdefault(m.to_address.lower(), []).append(
                (m.subject, files[0].file_name if files else None, files[0].data if files else None))
    return out


def _clear_outbox() -> None:
    with session_scope() as s:
        for a in s.exec(select(OutboxAttachment)).all():
            s.delete(a)
        s.flush()
        for m in s.exec(select(OutboxMail)).all():
            s.delete(m)


@pytest.fixture
def advice_world(db):
    """A portfolio (owner: client; co_holder holds but does not own) with an approved record of
    advice and validated trade recommendations pending approval."""
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    make_short_term(SimpleNamespace(id=model["id"]), u.stocks[1], "BUY")
    update_row(Portfolio, w.portfolio.id, model_id=model["id"], inactive=False)
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    _clear_outbox()
    return SimpleNamespace(w=w, tp_id=tp["id"], ti_id=ti["id"])


def _notify(world, event: Event) -> None:
    w = world.w
    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        if event.value.startswith("tp_"):
            notices.notify_target(s, p=p, tp=s.get(TargetPortfolio, world.tp_id), event=event, actor_id=w.adviser.id)
        else:
            notices.notify_trades(s, p=p, ti=s.get(TradeInstruction, world.ti_id), event=event,
                                  actor_id=None if event is Event.TR_AUTO_APPROVED else w.adviser.id)


@pytest.mark.parametrize("event", list(MATRIX), ids=lambda e: e.value)
def test_every_cell_of_the_switch_matrix(advice_world, event):
    """For each event: nothing with every switch off; then each audience alone, with its switches
    on and the attach switch off, then on; an audience without a cell gets nothing when every
    switch of the panel is on but its own would-be switches."""
    w = advice_world.w
    cells = MATRIX[event]
    pdf = "Smith Family - Record of Advice v1" if event.value.startswith("tp_") else "Smith Family - Trade Recommendations v1"
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings())
    _notify(advice_world, event)
    assert _sent() == {}, "every switch off: nobody is told"
    for audience in AUDIENCES:
        cell = cells.get(audience)
        if cell is None:
            # the adviser is not told of a validation, whatever the adviser's switches
            update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
                **{flag: True for flag in APPROVAL_FLAGS if flag.startswith(("tp_approval_notification",
                                                                             "tr_approval_notification", "adviser_attach"))}))
            _notify(advice_world, event)
            assert not set(_sent()) & _addresses(w, audience), (event, audience)
            _clear_outbox()
            continue
        send, attach = cell
        for attached in (False, True):
            update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
                **{flag: True for flag in send}, **({attach: True} if attached else {})))
            _notify(advice_world, event)
            sent = _sent()
            assert set(sent) == _addresses(w, audience), (event, audience, attached, sorted(sent))
            for address, messages in sent.items():
                [(subject, name, data)] = messages
                assert SUBJECTS[event] in subject
                if attached:
                    assert name.startswith(pdf) and name.endswith(".pdf") and data.startswith(b"%PDF")
                else:
                    assert name is None
            _clear_outbox()
        if len(send) > 1:  # every switch of the cell is needed: one alone sends nothing
            for flag in send:
                update_row(Portfolio, w.portfolio.id, approval_settings=_settings(**{flag: True}))
                _notify(advice_world, event)
                assert not set(_sent()) & _addresses(w, audience), (event, audience, flag)
                _clear_outbox()
    assert w.co_holder.email not in _sent()


def test_one_message_per_address_with_the_pdf_when_any_audience_attaches_it(advice_world):
    w = advice_world.w
    update_row(Portfolio, w.portfolio.id, approval_settings=json.dumps({
        **json.loads(_settings(tp_approval_notification_adviser=True, adviser_send_tp_to_other_email=True,
                               adviser_other_email_attach_roa_pdf=True)),
        "adviser_tp_other_email": f"{w.adviser.email.upper()}, {ADVISER_OTHERS}"}))
    _notify(advice_world, Event.TP_APPROVED)
    sent = _sent()
    assert len(sent[w.adviser.email]) == 1 and sent[w.adviser.email][0][1] is not None
    assert len(sent["compliance@harbour-test.example.com"]) == 1


def test_the_call_sites_send_what_the_switches_say(advice_world):
    """Validation, the client's approval and decline, the trades' confirmation and the auto-approval
    sweep each queue their event's notices; the message says what happened, to which portfolio, by
    whom, and links to the screen."""
    w = advice_world.w
    on = dict(tp_approval_required=True, tp_approval_request=True, tp_approval_notification_client=True,
              tp_approval_notification_adviser=True, tr_approval_required=True, tr_approval_request=True,
              tr_approval_notification_client=True, tr_approval_notification_adviser=True)
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(**on))
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    [request] = f.outbox(w.client.email)
    assert request.subject == "Record of advice for Smith Family: your approval is requested"
    assert f"/portfolios/{w.portfolio.id}/rofa/{tp['id']}" in request.body and request.html
    assert f"{w.adviser.first_name} {w.adviser.last_name}" in request.body and "Harbour Test" in request.body
    assert f.outbox(w.adviser.email) == []
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="decline")
    [_, declined] = f.outbox(w.client.email)
    [adviser_declined] = f.outbox(w.adviser.email)
    assert declined.subject == adviser_declined.subject == "Record of advice declined: Smith Family"
    assert f"declined by {w.client.first_name} {w.client.last_name}" in adviser_declined.body
    _clear_outbox()
    # trades: the client declines one and approves the rest
    view = tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)
    first, *rest = view["transactions"]
    tis.confirm(actor=actor(w.client), ti_id=advice_world.ti_id,
                decisions={first["id"]: "declined", **{t["id"]: "approved" for t in rest}})
    [told] = f.outbox(w.adviser.email)
    assert told.subject == "Trade recommendations approved: Smith Family"
    assert f"{len(rest)} trade" in told.body and "1 trade declined" in told.body
    assert f"/portfolios/{w.portfolio.id}/trade-instructions/" in told.body
    _clear_outbox()
    # the auto-approval sweep
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(**on, tr_auto_approval="2_days"))
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    tis.validate(actor=actor(w.adviser), ti_id=ti["id"])
    assert [m.subject for m in f.outbox(w.client.email)] == ["Trade recommendations for Smith Family: your approval is requested"]
    assert tis.sweep_auto_approvals(utcnow() + timedelta(days=3)) == 1
    [auto] = f.outbox(w.adviser.email)
    assert auto.subject == "Trade recommendations approved automatically: Smith Family"
    assert "approved automatically" in auto.body


def test_delivered_by_smtp_with_text_html_and_the_pdf(advice_world, smtp_sink):
    w = advice_world.w
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
        tp_approval_required=True, tp_approval_request=True, tp_approval_notification_adviser=True,
        adviser_attach_roa_pdf=True))
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    msg = smtp_sink.wait_for(w.adviser.email, subject="Record of advice approved")
    assert msg.get_body(("plain",)).get_content().startswith("Harbour Test")
    html = msg.get_body(("html",)).get_content()
    assert "Smith Family" in html and f"/portfolios/{w.portfolio.id}/rofa/{tp['id']}" in html
    [pdf] = [part for part in msg.iter_attachments() if part.get_content_type() == "application/pdf"]
    assert pdf.get_filename() == "Smith Family - Record of Advice v2.pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.get_content())).pages)
    assert "Smith Family" in text
    [stored] = f.outbox(w.adviser.email)
    assert stored.sent_at is not None and stored.error is None
    entry = mail.get_outbox_mail(actor=actor(w.superuser), mail_id=stored.id)
    assert [a.file_name for a in entry.attachments] == [pdf.get_filename()]
    assert entry.attachments[0].size == len(pdf.get_content())


def test_the_message_follows_the_firms_branding(advice_world, smtp_sink):
    """An administrator's layout, colour, footer and disclaimer reach the delivered message."""
    w = advice_world.w
    firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id, settings=DocumentSettings(
        Branding(layout="detailed", colour="#7A1F3D", disclaimer="General advice only: read the PDS.",
                 footer="Harbour Test - private and confidential"), RofaTemplate()))
    update_row(type(w.firm), w.firm.id, licensee_name="Harbour Licensee Services", licensee_afsl="456789")
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
        tp_approval_required=True, tp_approval_request=True, tp_approval_notification_adviser=True))
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    msg = smtp_sink.wait_for(w.adviser.email, subject="Record of advice approved")
    text = msg.get_body(("plain",)).get_content()
    html = msg.get_body(("html",)).get_content()
    for words in ("Harbour Licensee Services, AFSL 456789", "General advice only: read the PDS.",
                  "Harbour Test - private and confidential"):
        assert words in text and words in html, words
    assert "background:#7A1F3D" in html


def test_a_failed_send_keeps_the_approval_records_the_error_and_is_retried(advice_world, smtp_sink):
    w = advice_world.w
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
        tp_approval_required=True, tp_approval_request=True, tp_approval_notification_client=True,
        client_attach_roa_pdf=True))
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    smtp_sink.wait_for(w.client.email)
    working = settings.smtp_url
    settings.smtp_url = "smtp://127.0.0.1:9"  # nothing listens there
    try:
        approved = tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    finally:
        settings.smtp_url = working
    assert approved["status"] == "active"
    [_, failed] = f.outbox(w.client.email)
    assert failed.sent_at is None and failed.error and failed.attempts == 1
    assert failed.next_attempt_at is not None
    assert mail.retry_due(utcnow()) == 0  # not due yet
    assert mail.retry_due(utcnow() + timedelta(minutes=2)) == 1
    msg = smtp_sink.wait_for(w.client.email, subject="Record of advice approved")
    assert any(p.get_content_type() == "application/pdf" for p in msg.iter_attachments())
    [_, done] = f.outbox(w.client.email)
    assert done.sent_at is not None and done.error is None and done.next_attempt_at is None


def test_a_document_that_cannot_be_built_is_recorded_and_built_again(advice_world, monkeypatch):
    w = advice_world.w
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
        tr_approval_notification_adviser=True, adviser_attach_tr_pdf=True))

    def broken(object_id, reader_id):
        raise RuntimeError("the PDF could not be written")

    monkeypatch.setitem(notice_documents.DOCUMENT_BUILDERS, "trade_recommendations", broken)
    view = tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tis.confirm(actor=actor(w.client), ti_id=advice_world.ti_id,
                decisions={t["id"]: "approved" for t in view["transactions"]})
    assert tis.get(actor=actor(w.adviser), investment_id=w.portfolio.id)["status"] == "approved"
    [kept] = f.outbox(w.adviser.email)
    assert kept.error == "the PDF could not be written" and kept.next_attempt_at is not None
    monkeypatch.undo()
    assert mail.retry_due(utcnow() + timedelta(minutes=2)) == 1
    entry = mail.get_outbox_mail(actor=actor(w.superuser), mail_id=kept.id)
    assert entry.error is None and entry.attachments[0].size and entry.attachments[0].file_name.endswith(".pdf")


def test_send_again_names_the_receivers_first(advice_world):
    w = advice_world.w
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings(
        tp_approval_notification_client=True, client_attach_roa_pdf=True, adviser_send_tp_to_other_email=True,
        tr_approval_required=True, tr_approval_request=True))
    preview = notices.send_again_target_preview(actor=actor(w.adviser), tp_id=advice_world.tp_id)
    assert preview.event is Event.TP_APPROVED
    assert preview.question == (f"Send the record of advice (version 1) again to {w.client.email}, "
                                "compliance@harbour-test.example.com?")
    sent = notices.send_again_target(actor=actor(w.adviser), tp_id=advice_world.tp_id)
    assert sent.message == "Sent again to 2 people"
    got = _sent()
    assert got[w.client.email][0][0] == "Sent again: Record of advice approved: Smith Family"
    assert got[w.client.email][0][1].endswith(".pdf") and got["compliance@harbour-test.example.com"][0][1] is None
    trades = notices.send_again_trades(actor=actor(w.adviser), ti_id=advice_world.ti_id)
    assert [r.address for r in trades.receivers] == [w.client.email]
    with pytest.raises(PermissionDenied):
        notices.send_again_target(actor=actor(w.client), tp_id=advice_world.tp_id)
    update_row(Portfolio, w.portfolio.id, approval_settings=_settings())
    with pytest.raises(ValidationError) as err:
        notices.send_again_target(actor=actor(w.adviser), tp_id=advice_world.tp_id)
    assert err.value.message == "The approval settings of this portfolio name nobody to send it to"
    draft = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    with pytest.raises(ValidationError):
        notices.send_again_target_preview(actor=actor(w.adviser), tp_id=draft["id"])
