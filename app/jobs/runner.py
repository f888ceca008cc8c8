"""Where background work runs: RQ workers on Redis when REDIS_URL is set, otherwise a small pool of
threads inside the app process (the embedded default). Callers name a task by its dotted path, so
the same call works in both modes:

    job_id = enqueue("app.jobs.tasks.calculate_chunk", run_id, portfolio_ids)
"""
from __future__ import annotations

import importlib
import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from app.settings import settings

log = logging.getLogger(__name__)

QUEUE = "default"
JOB_TIMEOUT = 60 * 60        # seconds one job may run on a worker
RESULT_TTL = 60 * 60         # seconds a finished job's result is kept in Redis
IN_PROCESS_THREADS = 2

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_futures: set[Future] = set()


def resolve(task: str) -> Callable[..., Any]:
    module, _, name = task.rpartition(".")
    return getattr(importlib.import_module(module), name)


def uses_redis() -> bool:
    return bool(settings.redis_url)


def queue():
    """The RQ queue (only with REDIS_URL)."""
    from redis import Redis
    from rq import Queue

    return Queue(QUEUE, connection=Redis.from_url(settings.redis_url))


def _run_logged(func: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    try:
        return func(*args, **kwargs)
    except Exception:  # the task records its own failure; keep the thread pool alive
        log.exception("background task %s failed", getattr(func, "__name__", func))
        raise


def enqueue(task: str, *args: Any, job_id: str | None = None, **kwargs: Any) -> str:
    """Runs `task(*args, **kwargs)` in the background and returns the job id."""
    func = resolve(task)
    if uses_redis():
        job = queue().enqueue_call(func, args=args, kwargs=kwargs or None, job_id=job_id, timeout=JOB_TIMEOUT,
                                   result_ttl=RESULT_TTL, failure_ttl=RESULT_TTL)
        return job.id
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=IN_PROCESS_THREADS, thread_name_prefix="job")
        future = _pool.submit(_run_logged, func, args, kwargs)
        _futures.add(future)
    future.add_done_callback(lambda f: _futures.discard(f))
    return job_id or f"local-{id(future)}"


def wait_in_process(timeout: float = 60.0) -> None:
    """Waits until the in-process jobs started so far have finished (tests, CLI)."""
    from concurrent.futures import wait

    with _lock:
        pending = list(_futures)
    if pending:
        wait(pending, timeout=timeout)
