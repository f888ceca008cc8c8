"""Background tasks (plain functions RQ workers and the in-process runner call by dotted path).
Each is idempotent: running it twice for the same input leaves the same result."""
from __future__ import annotations

import time

from app.services import bulk_runs, trade_instructions
from app.settings import settings


def peak_memory_mb() -> float:
    """This process's peak resident memory in MB: VmHWM, the high-water mark of its own address
    space (Linux). ru_maxrss is not used: a process started by fork and exec keeps in it the
    resident size of the parent it was forked from."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bulk_chunk(run_id: int, investment_ids: list[int]) -> dict[str, float]:
    """Calculates one chunk of a bulk run (its still-pending items only); returns its counts,
    where the time went (seconds) and the process's peak memory so far (MB). BULK_TEST_DELAY_MS (test-only, 0 otherwise) pauses first, so an
    end-to-end test can watch the progress move."""
    if settings.bulk_test_delay_ms > 0:
        time.sleep(settings.bulk_test_delay_ms / 1000)
    timings = bulk_runs.run_chunk(run_id, investment_ids)
    return {"done": timings.done, "failed": timings.failed, "load": timings.load, "calculate": timings.calculate,
            "persist": timings.persist, "peak_mb": peak_memory_mb()}


def sweep_auto_approvals() -> int:
    """Approves trade recommendations whose auto-approval deadline has passed."""
    return trade_instructions.sweep_auto_approvals()
