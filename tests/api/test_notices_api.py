"""Send again over HTTP: GET names the receivers and the confirmation, POST sends (the messages are
in the outbox), a client is refused, and switches that name nobody give the refusal's text."""
from __future__ import annotations

import json

import pytest

from app.db.tables import Portfolio
from app.settings import settings
from tests import factories as f
from tests.factories_advice import make_book


@pytest.fixture(autouse=True)
def _jobs_in_process(monkeypatch):
    monkeypatch.setattr(settings, "redis_url", "")


def test_send_the_record_of_advice_again(client):
    book = make_book(1)
    adviser, owner = f.headers(book.adviser), f.headers(book.client)
    [pid] = book.portfolio_ids
    tp = f.ok_result(client.post(f"/api/investments/{pid}/target-portfolio", headers=adviser))
    f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/validate", headers=adviser, json={"row_version": 1}))
    before = len(f.outbox(book.client.email))
    preview = f.ok_result(client.get(f"/api/target-portfolios/{tp['id']}/email", headers=adviser))
    assert preview["event"] == "tp_validated" and preview["version"] == 1
    assert preview["receivers"] == [{"address": book.client.email, "audience": "client_owners", "attach": False}]
    assert preview["question"] == f"Send the record of advice (version 1) again to {book.client.email}?"
    sent = f.ok_result(client.post(f"/api/target-portfolios/{tp['id']}/email", headers=adviser))
    assert sent["message"] == "Sent again to 1 person"
    mails = f.outbox(book.client.email)
    assert len(mails) == before + 1 and mails[-1].subject.startswith("Sent again: Record of advice for Calc 000")
    refused = client.post(f"/api/target-portfolios/{tp['id']}/email", headers=owner)
    assert refused.status_code == 403
    f.update_row(Portfolio, pid, approval_settings=json.dumps({"tp_approval_request": False}))
    nobody = client.post(f"/api/target-portfolios/{tp['id']}/email", headers=adviser)
    assert nobody.status_code == 400
    assert nobody.json()["message"].endswith("The approval settings of this portfolio name nobody to send it to")
