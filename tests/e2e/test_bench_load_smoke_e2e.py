"""`python -m app.cli bench load` against the app the browser tests start, at a small load (5
advisers on the websocket + 2 REST requests a second for 10 s): it signs in as the browser does,
every action it times (the portfolio list, holdings, a draft target portfolio opened, put into edit
mode and back, the two REST calls) is timed at least once and nothing fails. A handler of those
screens renamed or removed makes it fail here: the driver checks each handler it sends before it
starts, each answer must show the handler's work, and the server must not have logged an unknown
handler. Latencies are printed, never asserted."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import httpx

from app.bench_load import ACTIONS, DEMO_ADVISERS, DEMO_PASSWORD
from tests._harness import ROOT

ROW = re.compile(r"^(?P<action>[A-Za-z][A-Za-z ]*?)\s+(?P<count>\d+)\s+(?P<errors>\d+)(?:\s+\d+){0,3}\s*$")


def _ensure_a_draft(url: str) -> None:
    """The edit mode is offered on a draft target portfolio: the demo data has one; if an earlier
    test of this session validated it, calculate another."""
    with httpx.Client(base_url=url, timeout=60) as client:
        token = client.post("/api/signin", json={"email": DEMO_ADVISERS[0], "password": DEMO_PASSWORD}
                            ).json()["result"]["token"]
        headers = {"x-token": token}
        rows = client.get("/api/investments?limit=100", headers=headers).json()["result"]["rows"]
        for row in rows:
            current = client.get(f"/api/investments/{row['id']}/target-portfolio", headers=headers).json()
            if (current.get("result") or {}).get("status") == "draft":
                return
        with_model = next(r for r in rows if r.get("model"))
        made = client.post(f"/api/investments/{with_model['id']}/target-portfolio", headers=headers).json()
        assert made["result"]["status"] == "draft", made


def test_bench_load_smoke_times_every_action_without_errors(app_server) -> None:
    _ensure_a_draft(app_server.url)
    log_before = app_server.log_path.stat().st_size
    command = [sys.executable, "-m", "app.cli", "bench", "load", "--url", app_server.url,
               "--advisers", "5", "--rps", "2", "--seconds", "10", "--warmup", "0",
               "--profile", str(app_server.data_dir / "profile")]
    done = subprocess.run(command, cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"),
                          capture_output=True, text=True, timeout=120)
    print(done.stdout, done.stderr, sep="\n")
    assert done.returncode == 0, f"bench load exited {done.returncode}:\n{done.stdout}\n{done.stderr}"

    table = {m["action"]: (int(m["count"]), int(m["errors"]))
             for m in map(ROW.match, done.stdout.splitlines()) if m}
    for action in (*ACTIONS, "sign in"):
        assert action in table, f"{action} missing from the output:\n{done.stdout}"
        count, errors = table[action]
        assert count >= 1, f"{action} was never timed:\n{done.stdout}"
        assert errors == 0, f"{action} had {errors} errors:\n{done.stdout}\n{done.stderr}"
    assert re.search(r"errors: 0;", done.stdout), done.stdout

    # --profile: the server's time by event handler, from the web processes' own profile
    profile = done.stdout.split("server time by event handler", 1)
    assert len(profile) == 2, f"no profile printed:\n{done.stdout}\n{done.stderr}"
    rows = {line.split()[0]: line.split()[1:] for line in profile[1].splitlines()[2:] if line and line[0].isalpha()}
    assert "holdings_state.on_load" in rows or any(name.endswith(".on_load") for name in rows), profile[1]
    everything = next(line for line in profile[1].splitlines() if line.startswith("all events"))
    count, total, load, store, delta, emit, handler, sql, queries = everything.split()[2:]
    assert int(count) > 0 and float(total) > 0 and float(delta) > 0, everything
    assert float(queries) > 0, everything  # the screens read the database
    assert re.search(r"web processes' CPU: [\d.]+ s for [\d,]+ events = [\d.]+ ms per event", profile[1]), profile[1]

    with open(app_server.log_path, errors="replace") as log:
        log.seek(log_before)
        during = log.read()
    assert "No registered handler found for event" not in during, during[-3000:]
