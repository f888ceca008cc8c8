"""Bulk calculation in-process (the embedded default): a run over a model's portfolios, one
failing portfolio not stopping the others, idempotent chunks, progress events, permissions."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app.db.engine import session_scope
from app.db.tables import BulkRunItem, TargetPortfolio, TradeInstruction
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.jobs import progress, runner
from app.services import bulk_runs
from app.settings import settings
from tests.factories import actor, make_user
from tests.factories_advice import make_book, unlink_model
from app.domain.roles import Role


@pytest.fixture(autouse=True)
def in_process(monkeypatch):
    monkeypatch.setattr(settings, "redis_url", "")


def _versions(run_id: int) -> dict[int, int]:
    with session_scope() as s:
        return dict(s.execute(select(TargetPortfolio.investment_id, func.count()).where(
            TargetPortfolio.bulk_run_id == run_id).group_by(TargetPortfolio.investment_id)).all())


def test_bulk_target_portfolios_for_a_model_with_one_failure(db):
    book = make_book(6)
    unlink_model(book.portfolio_ids[2])  # not linked any more: outside the model's run
    with progress.subscribe(bulk_runs.firm_topic(book.firm.id)) as sub:
        run = bulk_runs.start_for_models(actor=actor(book.adviser), kind="tp", model_ids=f"[{book.model['id']}]",
                                         chunk_size=2)
        runner.wait_in_process()
        events = []
        while (event := sub.get(timeout=0.5)) is not None:
            events.append(event)
    final = bulk_runs.get(actor=actor(book.adviser), run_id=run["id"])
    assert final["total"] == 5 and final["done"] == 5 and final["failed"] == 0 and final["status"] == "done"
    assert sorted(e["investment_id"] for e in events) == sorted(set(book.portfolio_ids) - {book.portfolio_ids[2]})
    assert {e["event"] for e in events} == {"investment calculated"}
    assert max(e["done"] for e in events) == 5
    assert set(_versions(run["id"]).values()) == {1}


def test_failures_are_listed_and_never_stop_the_rest(db):
    book = make_book(4)
    unlink_model(book.portfolio_ids[1])
    run = bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    final = bulk_runs.get(actor=actor(book.adviser), run_id=run["id"])
    assert (final["done"], final["failed"]) == (3, 1)
    assert final["errors"] == [{"investment_id": book.portfolio_ids[1], "investment_name": "Calc 001",
                                "message": "The portfolio is not linked to a model"}]
    with session_scope() as s:
        failed = s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == book.portfolio_ids[1])).scalars().one()
    assert failed.status == "failed"


def test_running_a_chunk_again_writes_nothing_twice(db):
    book = make_book(3)
    run = bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    again = bulk_runs.run_chunk(run["id"], book.portfolio_ids)
    assert (again.done, again.failed) == (0, 0)
    assert bulk_runs.resume(actor=actor(book.adviser), run_id=run["id"]) == 0
    assert set(_versions(run["id"]).values()) == {1}


def test_bulk_trade_recommendations(db):
    book = make_book(3)
    import json
    from app.db.tables import Portfolio

    with session_scope() as s:  # no approval needed: trades come from the current target
        for pid in book.portfolio_ids:
            p = s.get(Portfolio, pid)
            p.approval_settings = json.dumps({"tp_approval_required": False, "tp_approval_request": False})
            s.add(p)
    bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    run = bulk_runs.start_for_models(actor=actor(book.adviser), kind="tr", model_ids=[book.model["id"]])
    runner.wait_in_process()
    final = bulk_runs.get(actor=actor(book.adviser), run_id=run["id"])
    assert (final["done"], final["failed"]) == (3, 0)
    with session_scope() as s:
        rows = s.exec(select(TradeInstruction).where(TradeInstruction.bulk_run_id == run["id"])).scalars().all()
    assert len(rows) == 3 and {r.status for r in rows} == {"pending_validation"}


def test_who_may_start_and_see_runs(db):
    book = make_book(1)
    with pytest.raises(ValidationError) as err:
        bulk_runs.start_for_models(actor=actor(book.adviser), kind="tp", model_ids="[]")
    assert err.value.message == "Select at least one model"
    with pytest.raises(PermissionDenied):
        bulk_runs.start_for_models(actor=actor(book.admin), kind="tp", model_ids=[book.model["id"]])
    with pytest.raises(PermissionDenied):
        bulk_runs.start_for_investments(actor=actor(book.client), kind="tp", investment_ids=book.portfolio_ids)
    stranger = make_user(Role.ADVISER, None)
    with pytest.raises(NotFound):
        bulk_runs.start_for_investments(actor=actor(stranger), kind="tp", investment_ids=book.portfolio_ids)
    run = bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    with pytest.raises(NotFound):
        bulk_runs.get(actor=actor(stranger), run_id=run["id"])
