"""Time-based rules applied by a periodic, idempotent sweep: trade recommendations whose
auto-approval deadline (next day 10 AM, or 1 to 10 days after validation) has passed are approved
(with the notices their portfolio's switches ask for), bulk runs that stopped moving (a worker
died, Redis lost its queue) are queued again, and e-mails whose documents could not be built or
whose delivery failed are tried again when their next attempt is due (app.services.mail).

The sweep runs every SWEEP_SECONDS beside the work: in each RQ worker (`python -m app.cli worker`)
and, on the embedded default (no REDIS_URL), inside the web process. Running it twice, or in
several processes at once, approves each instruction once (rows are locked and re-checked)."""
from __future__ import annotations

import asyncio
import logging
import threading

# every process that sweeps (the web process, each worker) sends mail: plug in the documents its
# notices attach
import app.services.notice_documents  # noqa: F401

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60


def sweep_once() -> int:
    from app.services import bulk_runs, orders, trade_instructions

    try:
        bulk_runs.resume_stalled()
    except Exception:  # retried at the next tick
        log.exception("resuming stalled bulk runs failed")
    try:
        orders.expire_orders()
    except Exception:  # retried at the next tick
        log.exception("expiring broker orders failed")
    try:
        return trade_instructions.sweep_auto_approvals()
    except Exception:  # a failed sweep is retried at the next tick
        log.exception("auto-approval sweep failed")
        return 0


def start_thread(interval: float = SWEEP_SECONDS) -> threading.Event:
    """Sweeps in a daemon thread until the returned event is set (workers)."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval):
            sweep_once()

    threading.Thread(target=loop, name="auto-approval-sweep", daemon=True).start()
    return stop


async def lifespan_sweeper() -> None:
    """The web process's sweeper on the embedded default (registered as a Reflex lifespan task)."""
    from app.settings import settings

    if settings.redis_url:
        return  # the RQ workers sweep
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        await asyncio.to_thread(sweep_once)
