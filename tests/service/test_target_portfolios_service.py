"""Target portfolios: calculation stored as versions, role rules, validation, the record of advice
decisions, commentary, and Calculation Error versions (spec 001 s4/s6, 002 s4)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from tests.advice_edge import records_of_advice, tps
from tests.factories import actor, make_user
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio_world, post, portfolio_row
from tests import factories as f


@pytest.fixture
def world(db):
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    from app.db.engine import session_scope
    from app.db.tables import Portfolio

    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        p.model_id = model["id"]
        p.inactive = False
        s.add(p)
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    return w, u, model


def test_adviser_calculates_a_draft_version_with_reasons(world):
    w, u, model = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    assert tp["status"] == "draft" and tp["version"] == 1 and tp["status_label"] == "Validation Required"
    result = tp["result"]
    assert Decimal(result["value"]) == Decimal("100000.00") - Decimal("4010.00") + Decimal("4500.00")
    codes = {a["code"] for a in result["assets"]}
    assert {"BHP", "CBA", "VAF"} <= codes
    assert all(a["reasons"] for a in result["assets"])
    again = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    assert again["version"] == 2


def test_who_may_calculate(world):
    w, _, _ = world
    for who in (w.client, w.admin):
        with pytest.raises(PermissionDenied):
            tps.calculate(actor=actor(who), investment_id=w.portfolio.id)
    with pytest.raises(NotFound):
        tps.calculate(actor=actor(w.other_adviser), investment_id=w.portfolio.id)
    assert tps.calculate(actor=actor(w.superuser), investment_id=w.portfolio.id)["status"] == "draft"


def test_no_model_gives_a_calculation_error_version(world):
    w, _, _ = world
    from app.db.engine import session_scope
    from app.db.tables import Portfolio

    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        p.model_id = None
        s.add(p)
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    assert tp["status"] == "failed" and tp["status_label"] == "Calculation Error"
    assert tp["error_message"] == "The portfolio is not linked to a model"


def test_validate_mail_and_client_approval(world):
    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    with pytest.raises(NotFound):  # clients never see drafts
        tps.validate(actor=actor(w.client), tp_id=tp["id"])
    validated = tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=tp["row_version"])
    assert validated["status"] == "validated" and validated["status_label"] == "Approval Required"
    assert validated["validator"]["first_name"] == w.adviser.first_name
    mails = f.outbox(w.client.email)
    assert len(mails) == 1 and f"/portfolios/{w.portfolio.id}/rofa/{tp['id']}" in mails[0].body
    assert f.outbox(w.co_holder.email) == []  # holder but not owner
    # the client sees it now (validated), and not a draft
    seen = tps.get_current(actor=actor(w.client), investment_id=w.portfolio.id)
    assert seen is None  # no approved one yet
    roa = records_of_advice.record(actor=actor(w.client), tp_id=tp["id"])
    assert roa["can_decide"] and "capital gains" in roa["cgt_estimate"]
    with pytest.raises(PermissionDenied):
        tps.decide(actor=actor(w.admin), tp_id=tp["id"], action="approve")
    with pytest.raises(PermissionDenied):
        tps.decide(actor=actor(w.co_holder), tp_id=tp["id"], action="approve")
    approved = tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    assert approved["status"] == "active" and approved["message"] == "Target Portfolio approved"
    assert tps.get_current(actor=actor(w.client), investment_id=w.portfolio.id)["id"] == tp["id"]


def test_stale_row_version_is_refused(world):
    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=tp["row_version"])
    with pytest.raises(Conflict):
        tps.decide(actor=actor(w.adviser), tp_id=tp["id"], action="decline", row_version=tp["row_version"])


def test_versions_filtered_by_role(world):
    w, _, _ = world
    first = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.validate(actor=actor(w.adviser), tp_id=first["id"])
    rows, total = tps.list_versions(actor=actor(w.adviser), investment_id=w.portfolio.id)
    assert total == 2 and [r["version"] for r in rows] == [2, 1]
    rows, total = tps.list_versions(actor=actor(w.client), investment_id=w.portfolio.id)
    assert total == 1 and rows[0]["status"] == "validated"
    with pytest.raises(NotFound):
        tps.get_current(actor=actor(w.client), investment_id=w.portfolio.id, version=2)


def test_commentary_rules(world):
    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    assert {"id": None, "type": "market", "description": "Markets are steady."} in tp["commentaries"]  # the model's
    saved = tps.save_comment(actor=actor(w.adviser), tp_id=tp["id"], type="market", description="Calm markets.")
    again = tps.save_comment(actor=actor(w.adviser), tp_id=tp["id"], type="market", description="Calmer.")
    assert saved["id"] == again["id"]
    tps.validate(actor=actor(w.adviser), tp_id=tp["id"])
    with pytest.raises(PermissionDenied):  # administrators read, never write the commentary
        tps.save_comment(actor=actor(w.admin), tp_id=tp["id"], type="market", description="x")
    owner_note = tps.save_comment(actor=actor(w.client), tp_id=tp["id"], type="recommendation", description="Agreed.")
    assert owner_note["type"] == "recommendation"
    shape = tps.get(actor=actor(w.adviser), tp_id=tp["id"])
    assert shape["commentaries"][0] == {"id": saved["id"], "type": "market", "description": "Calmer."}
