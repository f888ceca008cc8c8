"""Bulk calculation on real RQ workers and Redis: a worker process killed mid-run leaves the
run resumable, and the re-run completes it with exactly one version per portfolio."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from app.db.engine import session_scope
from app.db.tables import BulkRun, TargetPortfolio
from app.domain.wire import rendered
from app.services import bulk_runs
from tests.factories import actor
from tests.factories_advice import make_book

ROOT = Path(__file__).resolve().parents[2]


def _counts(run_id: int) -> tuple[int, int, int]:
    with session_scope() as s:
        run = s.get(BulkRun, run_id)
        return run.done, run.failed, run.total


def _worker(database_url: str, redis_url: str, *, burst: bool) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}
    args = [sys.executable, "-m", "app.cli", "worker"] + (["--burst"] if burst else [])
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def test_killed_worker_then_resume_completes_without_duplicates(db, database_url, redis_url):
    book = make_book(24)
    run = rendered(bulk_runs.start_for_models(actor=actor(book.adviser), kind="tp", model_ids=[book.model["id"]], chunk_size=1))
    worker = _worker(database_url, redis_url, burst=False)
    try:
        deadline = time.monotonic() + 60
        while _counts(run["id"])[0] < 3:
            assert worker.poll() is None, worker.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the worker made no progress"
            time.sleep(0.05)
    finally:
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and the job it is running, mid-chunk
        worker.wait(timeout=10)
    done, failed, total = _counts(run["id"])
    assert total == 24 and done + failed < total, "the kill should leave work undone"

    assert bulk_runs.resume(actor=actor(book.adviser), run_id=run["id"], chunk_size=4) == total - done - failed
    finisher = _worker(database_url, redis_url, burst=True)
    assert finisher.wait(timeout=120) == 0, finisher.stderr.read().decode()[-2000:]

    assert _counts(run["id"]) == (24, 0, 24)
    with session_scope() as s:
        per_portfolio = dict(s.execute(select(TargetPortfolio.investment_id, func.count())
                                       .where(TargetPortfolio.bulk_run_id == run["id"])
                                       .group_by(TargetPortfolio.investment_id)).all())
    assert per_portfolio == {pid: 1 for pid in book.portfolio_ids}
    assert rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))["status"] == "done"


def test_a_run_whose_queue_redis_lost_finishes_after_the_sweep(db, database_url, redis_url):
    """Redis restarted without persistence: the run's queued chunks are gone. Nothing is lost in
    the database, and the sweep that resumes stalled runs finishes it once a worker is back."""
    import redis
    from datetime import timedelta

    book = make_book(6)
    run = rendered(bulk_runs.start_for_models(actor=actor(book.adviser), kind="tp", model_ids=[book.model["id"]], chunk_size=2))
    redis.Redis.from_url(redis_url).flushdb()  # the restart
    idle = _worker(database_url, redis_url, burst=True)
    assert idle.wait(timeout=60) == 0, idle.stderr.read().decode()[-2000:]
    assert _counts(run["id"]) == (0, 0, 6)
    waiting = rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))
    assert waiting["status"] == "queued" and waiting["waiting"] is False  # not yet: it was queued a moment ago
    with session_scope() as s:  # as if queued a minute ago: the progress modal says it waits for a worker
        s.get(BulkRun, run["id"]).created_at -= timedelta(minutes=1)
    assert rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))["waiting"] is True

    # not stalled yet: nothing is queued twice while the run may still be moving
    assert bulk_runs.resume_stalled() == []
    assert bulk_runs.resume_stalled(stall_after=timedelta(0)) == [run["id"]]
    finisher = _worker(database_url, redis_url, burst=True)
    assert finisher.wait(timeout=120) == 0, finisher.stderr.read().decode()[-2000:]
    assert _counts(run["id"]) == (6, 0, 6)
    with session_scope() as s:
        per_portfolio = dict(s.execute(select(TargetPortfolio.investment_id, func.count())
                                       .where(TargetPortfolio.bulk_run_id == run["id"])
                                       .group_by(TargetPortfolio.investment_id)).all())
    assert per_portfolio == {pid: 1 for pid in book.portfolio_ids}
    assert bulk_runs.resume_stalled(stall_after=timedelta(0)) == []  # done: nothing left to resume
    assert rendered(bulk_runs.get(actor=actor(book.adviser), run_id=run["id"]))["waiting"] is False
