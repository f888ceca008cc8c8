"""`python -m app.cli worker`: an RQ worker for the product's queues."""
from __future__ import annotations

import sys

from app.settings import settings

QUEUES = ("default",)


def run_worker(burst: bool = False) -> int:
    if not settings.redis_url:
        print("REDIS_URL is not set: background jobs run inside the app process; no worker is needed.", file=sys.stderr)
        return 2
    from redis import Redis
    from rq import Queue, SimpleWorker

    import app.jobs.tasks  # noqa: F401  (loaded once, before the first job)
    from app.jobs import collector

    collector.freeze_startup()

    connection = Redis.from_url(settings.redis_url)
    # SimpleWorker runs jobs in this process (no fork per job), so what a calculation caches (the
    # models it read, the database connection pool) serves the next chunk too.
    worker = SimpleWorker([Queue(name, connection=connection) for name in QUEUES], connection=connection)
    if not burst:
        from app.jobs.sweeps import start_thread

        start_thread()
    worker.work(burst=burst, with_scheduler=True)
    return 0
