"""The job runner and the progress bus, in-process and on the real Redis with an RQ worker."""
from __future__ import annotations

import pytest

from app.jobs import progress, runner
from app.settings import settings
from tests.jobs import sample_tasks


@pytest.fixture
def in_process(monkeypatch):
    monkeypatch.setattr(settings, "redis_url", "")
    sample_tasks.done.clear()


def test_in_process_runner_runs_the_task_and_publishes(in_process):
    with progress.subscribe("test-topic") as sub:
        runner.enqueue("tests.jobs.sample_tasks.note", "a")
        runner.enqueue("tests.jobs.sample_tasks.note", "b")
        runner.wait_in_process()
        events = [sub.get(timeout=2), sub.get(timeout=2)]
    assert sorted(sample_tasks.done) == ["a", "b"]
    assert sorted(e["value"] for e in events) == ["a", "b"]


def test_in_process_bus_delivers_only_to_current_subscribers(in_process):
    progress.publish("test-topic", {"event": "before"})
    with progress.subscribe("test-topic") as sub:
        assert sub.get(timeout=0.05) is None
        progress.publish("other-topic", {"event": "elsewhere"})
        progress.publish("test-topic", {"event": "now"})
        assert sub.get(timeout=1) == {"event": "now"}
    assert "test-topic" not in progress._local


def test_rq_worker_runs_enqueued_task_and_events_cross_redis(redis_url):
    from redis import Redis
    from rq import Queue, SimpleWorker

    sample_tasks.done.clear()
    with progress.subscribe("test-topic") as sub:
        job_id = runner.enqueue("tests.jobs.sample_tasks.note", "x", job_id="job-x")
        assert job_id == "job-x"
        connection = Redis.from_url(redis_url)
        SimpleWorker([Queue(runner.QUEUE, connection=connection)], connection=connection).work(burst=True)
        event = sub.get(timeout=2)
    assert event == {"event": "noted", "value": "x"}
    job = Queue(runner.QUEUE, connection=connection).fetch_job("job-x")
    assert job.return_value() == "X"
