"""Bulk calculation in-process (the embedded default): a run over a model's portfolios, one
failing portfolio not stopping the others, idempotent chunks, progress events, permissions."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app.db.engine import session_scope
from app.db.tables import BulkRunItem, Portfolio, TargetPortfolio, TradeInstruction
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.jobs import progress, runner
from app.domain.parsing import ids_of
from app.domain.wire import rendered
from app.services import bulk_runs
from app.settings import settings
from tests.factories import actor, make_user, update_row
from tests.factories_advice import make_book
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
    update_row(Portfolio, book.portfolio_ids[2], model_id=None)  # not linked any more: outside the model's run
    with progress.subscribe(bulk_runs.firm_topic(book.firm.id)) as sub:
        run = rendered(bulk_runs.start_for_models(actor=actor(book.adviser), kind="tp", model_ids=ids_of(f"[{book.model['id']}]", json_text=True),
                                         chunk_size=2))
        runner.wait_in_process()
        events = []
        while (event := sub.get(timeout=0.5)) is not None:
            events.append(event)
    final = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    assert final["total"] == 5 and final["done"] == 5 and final["failed"] == 0 and final["status"] == "done"
    assert sorted(e["investment_id"] for e in events) == sorted(set(book.portfolio_ids) - {book.portfolio_ids[2]})
    assert {e["event"] for e in events} == {"investment calculated"}
    assert max(e["done"] for e in events) == 5
    assert set(_versions(run["id"]).values()) == {1}


def test_failures_are_listed_and_never_stop_the_rest(db):
    book = make_book(4)
    update_row(Portfolio, book.portfolio_ids[1], model_id=None)
    run = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids))
    runner.wait_in_process()
    final = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    assert (final["done"], final["failed"]) == (3, 1)
    assert final["errors"] == [{"investment_id": book.portfolio_ids[1], "investment_name": "Calc 001",
                                "message": "The portfolio is not linked to a model"}]
    with session_scope() as s:
        failed = s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == book.portfolio_ids[1])).scalars().one()
    assert failed.status == "failed"


def test_running_a_chunk_again_writes_nothing_twice(db):
    book = make_book(3)
    run = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids))
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
    run = rendered(bulk_runs.start_for_models(actor=actor(book.adviser), kind="tr", model_ids=[book.model["id"]]))
    runner.wait_in_process()
    final = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    assert (final["done"], final["failed"]) == (3, 0)
    with session_scope() as s:
        rows = s.exec(select(TradeInstruction).where(TradeInstruction.bulk_run_id == run["id"])).scalars().all()
    assert len(rows) == 3 and {r.status for r in rows} == {"pending_validation"}
    from app.ui.states.bulk_progress import _items

    made = {r.investment_id: r.version for r in rows}
    assert {r["investment_id"]: r["version"] for r in final["recent"]} == made
    assert {i.url for i in _items(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]).recent, "tr")} == {
        f"/portfolios/{pid}/trade-instructions/{version}" for pid, version in made.items()}


def test_who_may_start_and_see_runs(db):
    book = make_book(1)
    with pytest.raises(ValidationError) as err:
        bulk_runs.start_for_models(actor=actor(book.adviser), kind="tp", model_ids=ids_of("[]", json_text=True))
    assert err.value.message == "Select at least one model"
    with pytest.raises(PermissionDenied):
        bulk_runs.start_for_models(actor=actor(book.admin), kind="tp", model_ids=[book.model["id"]])
    with pytest.raises(PermissionDenied):
        bulk_runs.start_for_investments(actor=actor(book.client), kind="tp", investment_ids=book.portfolio_ids)
    stranger = make_user(Role.ADVISER, None)
    with pytest.raises(NotFound):
        bulk_runs.start_for_investments(actor=actor(stranger), kind="tp", investment_ids=book.portfolio_ids)
    run = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids))
    runner.wait_in_process()
    with pytest.raises(NotFound):
        bulk_runs.get(actor=actor(stranger), run_id=run["id"])


# ---- refusals, the action history, what the progress modal reads ------------------------------------
def _approve_targets_and_deactivate(portfolio_id: int) -> None:
    """The portfolio is inactive and has an approved target portfolio: an adviser may not calculate it."""
    from app.db.tables import Portfolio

    with session_scope() as s:
        for tp in s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == portfolio_id)).scalars():
            tp.status = "active"
            s.add(tp)
        p = s.get(Portfolio, portfolio_id)
        p.inactive = True
        s.add(p)


def _no_approval_needed(portfolio_ids) -> None:
    import json
    from app.db.tables import Portfolio

    with session_scope() as s:
        for pid in portfolio_ids:
            p = s.get(Portfolio, pid)
            p.approval_settings = json.dumps({"tp_approval_required": False, "tp_approval_request": False})
            s.add(p)


def test_portfolios_that_may_not_be_calculated_fail_with_the_reason_and_the_rest_run(db):
    from app.domain.permissions import NOT_ALLOWED

    book = make_book(4)
    bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    refused = book.portfolio_ids[2]
    _approve_targets_and_deactivate(refused)

    run = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids,
                                          chunk_size=2))
    assert (run["total"], run["failed"]) == (4, 1)  # recorded at once, before any chunk ran
    runner.wait_in_process()
    final = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    assert (final["status"], final["done"], final["failed"], final["total"]) == ("done", 3, 1, 4)
    assert final["errors"] == [{"investment_id": refused, "investment_name": "Calc 002", "message": NOT_ALLOWED}]
    assert sorted(_versions(run["id"])) == sorted(set(book.portfolio_ids) - {refused})  # nothing written for it

    # every portfolio refused: the run is over at once
    only = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tr", investment_ids=[refused]))
    assert (only["status"], only["done"], only["failed"], only["total"]) == ("done", 0, 1, 1)
    # a superuser may calculate it
    superuser = make_user(Role.SUPERUSER, None)
    run = rendered(bulk_runs.start_for_investments(actor=actor(superuser), kind="tp", investment_ids=[refused]))
    runner.wait_in_process()
    assert rendered(bulk_runs.get(actor=actor(superuser), run_id=run["id"]))["done"] == 1
    # a portfolio the actor may not see still refuses the whole request
    from tests.factories import make_firm
    from tests.factories_portfolios import make_portfolio

    other = make_portfolio(make_firm("Other Firm"), name="Elsewhere")
    with pytest.raises(NotFound):
        bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp",
                                        investment_ids=book.portfolio_ids + [other.id])


def test_bulk_trade_recommendations_get_the_calculated_history_entry_of_one_at_a_time(db):
    from app.db.tables import TradeAction
    from tests import trade_instructions_edge as trade_instructions

    book = make_book(4)
    _no_approval_needed(book.portfolio_ids)
    bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    update_row(Portfolio, book.portfolio_ids[3], model_id=None)  # fails: no model
    single = trade_instructions.generate(actor=actor(book.adviser), investment_ids=[book.portfolio_ids[0]])[0]

    run = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tr", investment_ids=book.portfolio_ids,
                                          chunk_size=2))
    runner.wait_in_process()
    final = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    assert (final["done"], final["failed"]) == (3, 1)
    with session_scope() as s:
        made = {t.investment_id: t for t in s.exec(select(TradeInstruction).where(
            TradeInstruction.bulk_run_id == run["id"])).scalars()}
        actions = {a.trade_instruction_id: a for a in s.exec(select(TradeAction).where(
            TradeAction.trade_instruction_id.in_([t.id for t in made.values()] + [single["id"]]))).scalars()}
        assert len(actions) == 5  # one entry per instruction, the single one included
        one = actions[single["id"]]
        for pid in book.portfolio_ids[:3]:
            entry = actions[made[pid].id]
            assert (entry.action, entry.actor_id, entry.detail) == (one.action, one.actor_id, one.detail) \
                == ("calculated", book.adviser.id, None)
            assert entry.created_at == made[pid].created_at
        failed = actions[made[book.portfolio_ids[3]].id]
        assert (failed.action, failed.actor_id) == ("calculation failed", book.adviser.id)
        assert failed.detail == made[book.portfolio_ids[3]].error_message and failed.detail
    # the instruction's history reads it as it reads one calculated on its own
    rows, total = trade_instructions.history(actor=actor(book.adviser), ti_id=made[book.portfolio_ids[1]].id)
    single_rows, _ = trade_instructions.history(actor=actor(book.adviser), ti_id=single["id"])
    assert total == 1 and rows[0].keys() == single_rows[0].keys()
    assert {k: v for k, v in rows[0].items() if k not in ("id", "created_at")} == \
        {k: v for k, v in single_rows[0].items() if k not in ("id", "created_at")}


def test_a_run_lists_the_portfolios_finished_most_recently_with_their_names(db):
    from app.domain.permissions import NOT_ALLOWED

    book = make_book(5)
    bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids)
    runner.wait_in_process()
    _approve_targets_and_deactivate(book.portfolio_ids[4])
    update_row(Portfolio, book.portfolio_ids[1], model_id=None)
    run = rendered(bulk_runs.start_for_investments(actor=actor(book.adviser), kind="tp", investment_ids=book.portfolio_ids,
                                          chunk_size=1))
    runner.wait_in_process()
    final = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    recent = final["recent"]
    names = {pid: f"Calc {n:03d}" for n, pid in enumerate(book.portfolio_ids)}
    assert sorted(r["investment_id"] for r in recent) == sorted(book.portfolio_ids)
    assert all(r["investment_name"] == names[r["investment_id"]] for r in recent)
    assert [r["finished_at"] for r in recent] == sorted((r["finished_at"] for r in recent), reverse=True)
    by_id = {r["investment_id"]: r for r in recent}
    assert (by_id[book.portfolio_ids[4]]["status"], by_id[book.portfolio_ids[4]]["message"]) == ("failed", NOT_ALLOWED)
    assert (by_id[book.portfolio_ids[1]]["status"], by_id[book.portfolio_ids[1]]["message"]) == (
        "failed", "The portfolio is not linked to a model")
    assert by_id[book.portfolio_ids[0]]["status"] == "done" and by_id[book.portfolio_ids[0]]["message"] is None
    # each finished portfolio names the version this run produced, and the progress modal links to that
    # version, even once a later calculation made another one current
    assert by_id[book.portfolio_ids[0]]["version"] == 2
    from tests.advice_edge import tps
    from app.ui.states.bulk_progress import _items

    tps.calculate(actor=actor(book.adviser), investment_id=book.portfolio_ids[0])
    read_again = bulk_runs.get(actor=actor(book.adviser), run_id=run["id"])
    again = {r["investment_id"]: r for r in rendered(read_again)["recent"]}
    assert again[book.portfolio_ids[0]]["version"] == 2
    links = {i.investment_id: i.url for i in _items(read_again.recent, "tp")}
    assert links[book.portfolio_ids[0]] == f"/portfolios/{book.portfolio_ids[0]}/target-portfolio/2"
    assert links[book.portfolio_ids[4]] == ""  # a failure links nowhere
    # bounded: the newest ones only
    three = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"], recent_limit=3))["recent"]
    assert three == recent[:3]


def test_confirmation_count_and_the_users_run_still_going(db):
    book = make_book(3)
    update_row(Portfolio, book.portfolio_ids[0], model_id=None)  # not of the model any more
    assert rendered(bulk_runs.count_for_models(actor=actor(book.adviser), model_ids=[book.model["id"]])) == {
        "portfolios": 2, "models": 1}
    with pytest.raises(ValidationError):
        bulk_runs.count_for_models(actor=actor(book.adviser), model_ids=[])
    with pytest.raises(PermissionDenied):
        bulk_runs.count_for_models(actor=actor(book.client), model_ids=[book.model["id"]])
    with pytest.raises(NotFound):
        bulk_runs.count_for_models(actor=actor(make_user(Role.ADVISER, None)), model_ids=[book.model["id"]])

    assert bulk_runs.active_run(actor=actor(book.adviser)) is None
    with session_scope() as s:  # a run created and not yet taken by a worker
        queued = bulk_runs._create(s, actor(book.adviser), "tp", book.portfolio_ids[1:], [book.model["id"]]).id
    assert bulk_runs.active_run(actor=actor(book.adviser)) == queued
    assert bulk_runs.active_run(actor=actor(book.admin)) is None  # someone else's run
    assert bulk_runs.active_run(actor=actor(book.client)) is None
    bulk_runs.run_chunk(queued, book.portfolio_ids[1:2])
    assert bulk_runs.active_run(actor=actor(book.adviser)) == queued  # running
    bulk_runs.run_chunk(queued, book.portfolio_ids[2:])
    assert bulk_runs.active_run(actor=actor(book.adviser)) is None  # done
