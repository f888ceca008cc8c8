"""Target portfolios, the record of advice, trade instructions and bulk runs over HTTP: the
calls, the envelope, the texts, roles and tenancy."""
from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from app.jobs import runner
from app.settings import settings
from tests import factories as f
from tests.factories_advice import make_book
from tests.factories_portfolios import make_portfolio_world


@pytest.fixture(autouse=True)
def _jobs_in_process(monkeypatch):
    monkeypatch.setattr(settings, "redis_url", "")


def test_calculate_validate_approve_generate_validate_confirm(client):
    book = make_book(1)
    pid = book.portfolio_ids[0]
    adviser, owner = f.headers(book.adviser), f.headers(book.client)
    tp = f.ok_result(client.post(f"/api/investments/{pid}/target-portfolio", headers=adviser))
    assert tp["status"] == "draft" and tp["result"]["assets"]
    assert f.failure(client.post(f"/api/investments/{pid}/target-portfolio", headers=owner), 403)
    assert f.ok_result(client.get(f"/api/investments/{pid}/target-portfolio", headers=owner)) is None
    f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/validate", headers=adviser, json={"row_version": 1}))
    stale = f.failure(client.put(f"/api/target-portfolios/{tp['id']}/validate", headers=adviser, json={"row_version": 1}), 409)
    assert stale["message"].startswith("ConflictError: ")
    rec = f.ok_result(client.get(f"/api/target-portfolios/{tp['id']}/rofa", headers=owner))
    assert rec["can_decide"] and rec["confirm_approve"] == "Do you confirm your authorisation to proceed?"
    rofa_path = f"/api/target-portfolios/{tp['id']}/rofa/export"
    pdf = client.get(f"{rofa_path}?token={f.ticket(f.session_token(book.client), rofa_path)}")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert "Record of Advice" in "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    approved = f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/rofa", headers=owner, json={"action": "approve"}))
    assert approved["message"] == "Target Portfolio approved"
    versions = client.get(f"/api/target-portfolios?investment_id={pid}", headers=owner).json()["result"]
    assert versions["totals"][0]["count"] == 1

    [ti] = f.ok_result(client.post("/api/investments-generate-ti", headers=adviser, json={"investment_ids": [pid]}))
    assert ti["status"] == "pending_validation" and ti["transactions"]
    validated = f.ok_result(client.put(f"/api/trade-instructions/{ti['id']}/validate", headers=adviser, json={}))
    assert validated["message"] == "Trades validated"
    done = f.ok_result(client.put(f"/api/trade-instructions/{ti['id']}/confirm", headers=owner,
                                  json={"is_approve_all": True}))
    assert done["status"] == "approved" and done["message"] == "Trades confirmed"
    history = client.get(f"/api/trade-instructions/{ti['id']}/history", headers=adviser).json()["result"]
    assert history["totals"][0]["count"] == 3
    # the capital gains of the sells, typed: null when the advice sells nothing held, else by parcel
    for path in (f"/api/target-portfolios/{tp['id']}/capital-gains", f"/api/trade-instructions/{ti['id']}/capital-gains"):
        gains = f.ok_result(client.get(path, headers=owner))
        sells = [t for t in ti["transactions"] if t["action"] in ("SELL", "TAP", "SL", "SL/SELL")]
        if gains is None:
            continue
        assert set(gains) == {"treatment", "net", "minimised", "fifo", "saving", "comparison", "waits", "sells"}
        for sell in gains["sells"]:
            assert sum(float(pc["net"]) for pc in sell["parcels"]) == pytest.approx(float(sell["net"]))
        assert sells or not gains["sells"]


def test_other_firms_get_not_found_and_bulk_runs(client):
    w = make_portfolio_world()
    book = make_book(2)
    pid = book.portfolio_ids[0]
    other = f.headers(w.other_adviser)
    assert f.failure(client.post(f"/api/investments/{pid}/target-portfolio", headers=other), 404)
    assert f.failure(client.get(f"/api/investments/{pid}/trade-instructions", headers=other), 404)
    missing = f.failure(client.post("/api/investments-trigger-rebalance", headers=f.headers(book.adviser),
                                    json={"investment_ids": []}), 400)
    assert missing["message"] == "ValidationError: Select at least one investment"
    run = f.ok_result(client.post("/api/investments-trigger-rebalance", headers=f.headers(book.adviser),
                                  json={"investment_ids": book.portfolio_ids}))
    runner.wait_in_process()
    final = f.ok_result(client.get(f"/api/bulk-runs/{run['id']}", headers=f.headers(book.adviser)))
    assert (final["total"], final["done"], final["status"]) == (2, 2, "done")
    assert f.failure(client.get(f"/api/bulk-runs/{run['id']}", headers=other), 404)
    assert [r["investment_name"] for r in final["recent"]] and {r["status"] for r in final["recent"]} == {"done"}
    # a portfolio of another firm in the list: nothing starts
    foreign = f.failure(client.post("/api/investments-trigger-rebalance", headers=f.headers(book.adviser),
                                    json={"investment_ids": book.portfolio_ids + [w.portfolio.id]}), 404)
    assert foreign["message"] == "NotFoundError: Portfolio not found"
    # one the adviser may not calculate (inactive with an approved target portfolio, 001 s6): it fails
    # in the run with the reason, the other is calculated
    _approve_and_deactivate(pid)
    run = f.ok_result(client.post("/api/investments-trigger-rebalance", headers=f.headers(book.adviser),
                                  json={"investment_ids": book.portfolio_ids}))
    runner.wait_in_process()
    final = f.ok_result(client.get(f"/api/bulk-runs/{run['id']}", headers=f.headers(book.adviser)))
    assert (final["total"], final["done"], final["failed"], final["status"]) == (2, 1, 1, "done")
    assert final["errors"] == [{"investment_id": pid, "investment_name": "Calc 000",
                                "message": "You are not allowed to perform this action"}]
    models = f.failure(client.post("/api/bulk-calculate", headers=f.headers(book.adviser),
                                   json={"kind": "tp", "model_ids": []}), 400)
    assert models["message"] == "ValidationError: Select at least one model"


def _approve_and_deactivate(portfolio_id: int) -> None:
    from sqlmodel import select

    from app.db.engine import session_scope
    from app.db.tables import Portfolio, TargetPortfolio

    with session_scope() as s:
        for tp in s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == portfolio_id)).all():
            tp.status = "active"
            s.add(tp)
        p = s.get(Portfolio, portfolio_id)
        p.inactive = True
        s.add(p)


def test_edit_mode_over_http(client):
    book = make_book(1)
    pid = book.portfolio_ids[0]
    adviser = f.headers(book.adviser)
    tp = f.ok_result(client.post(f"/api/investments/{pid}/target-portfolio", headers=adviser))
    bhp = next(a for a in tp["result"]["assets"] if a["code"] == "BHP")
    edited = f.ok_result(client.post(f"/api/target-portfolios/{tp['id']}/recalculate", headers=adviser,
                                     json={"row_version": tp["row_version"],
                                           "overrides": [{"asset_id": bhp["asset_id"], "target_units": 5}]}))
    assert edited["mode"] == "EDIT"
    assert next(a for a in edited["result"]["assets"] if a["code"] == "BHP")["target_units"] == "5"
    saved = f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}", headers=adviser,
                                   json={"row_version": tp["row_version"],
                                         "overrides": [{"asset_id": bhp["asset_id"], "target_units": 5}]}))
    assert saved["message"] == "Target Portfolio saved" and saved["version"] == 2 and saved["status"] == "draft"
    stale = f.failure(client.put(f"/api/target-portfolios/{tp['id']}", headers=adviser,
                                 json={"row_version": tp["row_version"], "overrides": []}), 409)
    assert stale["message"].startswith("ConflictError: ")
    assert f.failure(client.post(f"/api/target-portfolios/{saved['id']}/recalculate", headers=f.headers(book.client),
                                 json={"overrides": []}), 404)


def test_record_of_advice_export_is_not_kept_in_caches(client):
    book = make_book(1)
    pid = book.portfolio_ids[0]
    tp = f.ok_result(client.post(f"/api/investments/{pid}/target-portfolio", headers=f.headers(book.adviser)))
    path = f"/api/target-portfolios/{tp['id']}/rofa/export"
    pdf = client.get(f"{path}?token={f.ticket(f.session_token(book.adviser), path)}")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert pdf.headers["content-disposition"].startswith('attachment; filename="')
    assert pdf.headers["cache-control"] == "no-store"
