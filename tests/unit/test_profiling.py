"""The event profile's arithmetic (bench load --profile): handler names shortened, two readings of
the web processes' totals subtracted, processes that handled nothing left out of the CPU, and the
table's means."""
from __future__ import annotations

import json

from app import profiling
from app.profiling import EventTotals, ProcessProfile


def test_short_name_keeps_the_state_and_the_handler():
    name = "reflex___state____state.app___ui___states___holdings____holdings_state.on_load"
    assert profiling.short_name(name) == "holdings_state.on_load"
    assert profiling.short_name("plain.handler") == "plain.handler"


def test_the_handlers_own_time_is_what_the_state_manager_delta_and_emit_leave():
    t = EventTotals(count=2, total=0.010, load=0.002, store=0.001, delta=0.003, emit=0.001, queries=0.002)
    assert round(t.handler, 6) == 0.003
    assert EventTotals(count=1, total=0.001, load=0.002).handler == 0.0  # never negative


def test_since_subtracts_the_readings_and_counts_only_processes_that_handled_events(tmp_path):
    before = {1: ProcessProfile(pid=1, cpu_seconds=10.0, events={"a.on_load": EventTotals(count=5, total=0.5)}),
              2: ProcessProfile(pid=2, cpu_seconds=40.0)}
    for profile in (ProcessProfile(pid=1, cpu_seconds=12.5, events={"a.on_load": EventTotals(count=9, total=0.9),
                                                                     "b.go": EventTotals(count=1, total=0.3)}),
                    ProcessProfile(pid=2, cpu_seconds=45.0),  # compiled the app, handled nothing since
                    ProcessProfile(pid=3, cpu_seconds=1.0, events={"b.go": EventTotals(count=2, total=0.2,
                                                                                        query_count=4)})):
        (tmp_path / f"events-{profile.pid}.json").write_text(json.dumps(
            {"pid": profile.pid, "cpu_seconds": profile.cpu_seconds,
             "events": {k: vars(v) for k, v in profile.events.items()}}))
    (tmp_path / "events-9.json").write_text("{not json")  # a file caught half-written is skipped
    after = profiling.read_profiles(tmp_path)
    assert sorted(after) == [1, 2, 3]
    totals, cpu = profiling.since(before, after)
    assert totals["a.on_load"].count == 4 and round(totals["a.on_load"].total, 6) == 0.4
    assert totals["b.go"].count == 3 and totals["b.go"].query_count == 4
    assert cpu == 2.5 + 1.0  # process 2 handled no event
    lines = profiling.breakdown_lines(totals, cpu)
    everything = next(line for line in lines if line.startswith("all events"))
    assert everything.split()[2:4] == ["7", "128.6"]  # 7 events, 0.9 s / 7 = 128.6 ms
    assert lines[-1].startswith("web processes' CPU: 3.5 s for 7 events = 500.0 ms per event")
    profiling.clear_profiles(tmp_path)
    assert not list(tmp_path.glob("events-[0-9]*.json"))
