"""Tasks the job tests enqueue (importable by RQ workers by their dotted path)."""
from __future__ import annotations

import threading

from app.jobs import progress

done: list[str] = []
_lock = threading.Lock()


def note(value: str) -> str:
    with _lock:
        done.append(value)
    progress.publish("test-topic", {"event": "noted", "value": value})
    return value.upper()
