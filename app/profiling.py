"""Where a screen action's server time goes: an opt-in profile of every websocket event.

Started by `WA_PROFILE_DIR=<folder>` in a web process's environment (off otherwise: nothing is
patched). Each event handled is timed as a whole, and within it:
- `load` / `store`: the state manager reading and writing the session's state (Redis round trips
  and pickling, or the memory/disk manager);
- `delta`: computing what changed, computed vars included;
- `emit`: serialising that delta and writing it to the socket;
- `queries`: the product's SQL (count and time, within the handler);
- `handler`: the rest, the event handler's own Python.
Every second, each process writes its totals by event handler (and its CPU seconds) to
`<folder>/events-<pid>.json`; `python -m app.cli bench load --profile <folder>` clears the folder
before its run and prints the breakdown after it (`read_profiles`)."""
from __future__ import annotations

import contextvars
import json
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

PHASES = ("load", "store", "delta", "emit", "queries")
PROFILE_DIR_ENV = "WA_PROFILE_DIR"


@dataclass
class EventTotals:
    """One event handler's totals in one process (seconds of wall time)."""

    count: int = 0
    total: float = 0.0
    load: float = 0.0
    store: float = 0.0
    delta: float = 0.0
    emit: float = 0.0
    queries: float = 0.0
    query_count: int = 0

    def add(self, other: "EventTotals") -> None:
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def handler(self) -> float:
        """The handler's own Python: the event less the state manager, the delta and the emit (the
        queries are part of it and shown beside it)."""
        return max(0.0, self.total - self.load - self.store - self.delta - self.emit)


@dataclass
class ProcessProfile:
    pid: int
    cpu_seconds: float = 0.0
    events: dict[str, EventTotals] = field(default_factory=dict)


_current: contextvars.ContextVar[EventTotals | None] = contextvars.ContextVar("wa_profile_event", default=None)
_profile: ProcessProfile | None = None
_lock = threading.Lock()


def short_name(event_name: str) -> str:
    """'reflex___state____state.app___ui___states___holdings____holdings_state.on_load' ->
    'holdings_state.on_load'."""
    state, _, handler = event_name.rpartition(".")
    return f"{state.rpartition('____')[2] or state}.{handler}"


def _timed(phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """An async method whose wall time is added to the current event's `phase`."""
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        bucket = _current.get()
        if bucket is None:
            return await fn(*args, **kwargs)
        started = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        finally:
            setattr(bucket, phase, getattr(bucket, phase) + time.perf_counter() - started)

    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def _patch(cls: type, name: str, phase: str) -> None:
    original = cls.__dict__.get(name)
    if original is not None and not hasattr(original, "__wrapped__"):
        setattr(cls, name, _timed(phase, original))


def _install_reflex() -> None:
    from reflex.istate.manager import disk, memory, redis
    from reflex.state import BaseState
    from reflex_base.event.context import EventContext
    from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor

    for manager in (redis.StateManagerRedis, memory.StateManagerMemory, disk.StateManagerDisk):
        _patch(manager, "get_state", "load")
        _patch(manager, "set_state", "store")
    # the memory manager's modify_state takes the lock and the state without get_state / set_state
    _patch(memory._ModifyState, "__aenter__", "load")
    _patch(memory._ModifyState, "__aexit__", "store")
    _patch(BaseState, "_get_resolved_delta", "delta")
    _patch(EventContext, "emit_delta", "emit")

    execute = BaseStateEventProcessor._execute_event

    async def execute_timed(self: Any, *, entry: Any, registered_handler: Any) -> None:
        bucket = EventTotals(count=1)
        token = _current.set(bucket)
        started = time.perf_counter()
        try:
            await execute(self, entry=entry, registered_handler=registered_handler)
        finally:
            bucket.total = time.perf_counter() - started
            _current.reset(token)
            _record(short_name(entry.event.name), bucket)

    BaseStateEventProcessor._execute_event = execute_timed  # type: ignore[method-assign]


def _install_sql() -> None:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    @event.listens_for(Engine, "before_cursor_execute")
    def _before(conn: Any, cursor: Any, statement: Any, parameters: Any, context: Any, executemany: Any) -> None:
        conn.info["wa_profile_started"] = time.perf_counter()

    @event.listens_for(Engine, "after_cursor_execute")
    def _after(conn: Any, cursor: Any, statement: Any, parameters: Any, context: Any, executemany: Any) -> None:
        bucket = _current.get()
        started = conn.info.pop("wa_profile_started", None)
        if bucket is not None and started is not None:
            bucket.queries += time.perf_counter() - started
            bucket.query_count += 1


def _record(name: str, bucket: EventTotals) -> None:
    if _profile is None:
        return
    with _lock:
        _profile.events.setdefault(name, EventTotals()).add(bucket)


def _writer(folder: Path) -> None:
    """Every second: this process's totals to its own file (written whole, then renamed)."""
    target = folder / f"events-{os.getpid()}.json"
    while True:
        time.sleep(1.0)
        if _profile is None:
            return
        with _lock:
            _profile.cpu_seconds = time.process_time()
            data = {"pid": _profile.pid, "cpu_seconds": _profile.cpu_seconds,
                    "events": {k: asdict(v) for k, v in _profile.events.items()}}
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".part")
            partial.write_text(json.dumps(data))
            partial.replace(target)
        except OSError:
            continue


def install_from_env() -> bool:
    """Profile this web process's events when WA_PROFILE_DIR names a folder; whether it does."""
    from app.settings import settings

    folder = settings.wa_profile_dir.strip()
    if not folder or _profile is not None:
        return False
    _install_reflex()
    _install_sql()
    _start(Path(folder))
    # the server may import the app before it forks its workers: each worker counts its own events
    # and needs its own writer (a thread does not survive a fork)
    os.register_at_fork(after_in_child=lambda: _start(Path(folder)))
    return True


def _start(folder: Path) -> None:
    global _profile, _lock
    _lock = threading.Lock()
    _profile = ProcessProfile(pid=os.getpid())
    threading.Thread(target=_writer, args=(folder,), name="wa-profile-writer", daemon=True).start()


# ---- reading the folder (bench load --profile) ----------------------------------------------------
def clear_profiles(folder: Path) -> None:
    for path in folder.glob("events-*.json"):
        path.unlink(missing_ok=True)


def read_profiles(folder: Path) -> dict[int, ProcessProfile]:
    """Each process's cumulative totals as last written, by process id."""
    out: dict[int, ProcessProfile] = {}
    for path in sorted(folder.glob("events-*.json")):
        try:
            data = json.loads(path.read_text())
            profile = ProcessProfile(pid=int(data["pid"]), cpu_seconds=float(data.get("cpu_seconds") or 0),
                                     events={k: EventTotals(**v) for k, v in (data.get("events") or {}).items()})
        except (OSError, ValueError, KeyError, TypeError):
            continue
        out[profile.pid] = profile
    return out


def since(before: dict[int, ProcessProfile], after: dict[int, ProcessProfile]) -> tuple[dict[str, EventTotals], float]:
    """What the processes did between two readings: the events by handler, added over the processes
    that handled any, and those processes' CPU seconds (a process that handled no event, such as the
    one that compiled the app, is left out)."""
    totals: dict[str, EventTotals] = {}
    cpu = 0.0
    for pid, end in after.items():
        start = before.get(pid, ProcessProfile(pid=pid))
        handled = False
        for name, t in end.events.items():
            earlier = start.events.get(name, EventTotals())
            diff = EventTotals(**{k: v - getattr(earlier, k) for k, v in asdict(t).items()})
            if diff.count > 0:
                handled = True
                totals.setdefault(name, EventTotals()).add(diff)
        if handled:
            cpu += end.cpu_seconds - start.cpu_seconds
    return totals, cpu


def breakdown_lines(totals: dict[str, EventTotals], cpu_seconds: float) -> list[str]:
    """The table bench load prints: per event handler, the mean milliseconds of each part, then the
    web processes' CPU per event."""
    head = (f"{'event handler':<44}{'count':>7}{'total':>8}{'load':>7}{'store':>7}{'delta':>7}{'emit':>7}"
            f"{'handler':>8}{'sql':>7}{'queries':>8}")
    lines = [head]
    everything = EventTotals()
    for name, t in sorted(totals.items(), key=lambda kv: -kv[1].total):
        everything.add(t)
        lines.append(_line(name, t))
    if totals:
        lines.append(_line("all events", everything))
        lines.append("(mean ms of wall time per event; sql is the part of handler spent in queries)")
        lines.append(f"web processes' CPU: {cpu_seconds:.1f} s for {everything.count:,} events = "
                     f"{cpu_seconds / max(everything.count, 1) * 1000:.1f} ms per event (all work of those "
                     f"processes, REST requests and socket handling included)")
    return lines


def _line(name: str, t: EventTotals) -> str:
    n = max(t.count, 1)

    def ms(value: float) -> str:
        return f"{value / n * 1000:.1f}"

    return (f"{name[:43]:<44}{t.count:>7}{ms(t.total):>8}{ms(t.load):>7}{ms(t.store):>7}{ms(t.delta):>7}"
            f"{ms(t.emit):>7}{ms(t.handler):>8}{ms(t.queries):>7}{t.query_count / n:>8.1f}")
