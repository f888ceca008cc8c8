"""Python's cyclic garbage collector held off while a bulk chunk runs.

A chunk of 250 portfolios makes a few hundred thousand short-lived objects (the engine's working
lines, results, rows to write), some of them in reference cycles. With the collector on, Python
walks the young objects again every 700 allocations, and the chunk spends a fifth of its load and
calculation doing so. Held off, the chunk runs straight through and one collection of the young
generations afterwards frees its cycles (its objects are all still young: none was collected, so
none was promoted). Reference counting frees everything else as usual meanwhile.

The pause is counted: with two in-process threads (the embedded default) the collector comes back
when the last chunk running ends."""
from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_running = 0
_was_enabled = True


@contextmanager
def paused() -> Iterator[None]:
    global _running, _was_enabled
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            last = _running == 0
            if last and _was_enabled:
                gc.enable()
        if last:
            gc.collect(1)  # the chunk's own objects, all in the young generations


def freeze_startup() -> None:
    """Moves what a worker loaded at start (modules, tables, compiled queries) out of the
    collector's sight for good: a full collection then walks only what the jobs made."""
    gc.collect()
    gc.freeze()
