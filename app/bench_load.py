"""python -m app.cli bench load: drives the running app on loopback with simulated advisers over
the websocket (as a browser does: socket.io frames on /_event) plus REST clients, for a bounded
time, and prints p50 / p95 / p99 per action, errors and throughput.

Each simulated adviser opens the sign-in page on its own connection as the browser does (the
hydrate event rides in the socket.io CONNECT packet; the page's on_load runs), types the e-mail and
the password (the inputs' change handlers) and submits the form, whose fields the sign-in handler
reads. It then loops: the portfolio list, a portfolio's holdings, a draft target portfolio opened
and put into edit mode and back, with a short think time. An action's time runs from sending its
event to the server's answer to a sentinel event sent right after it (events of one connection are
handled in order), so it includes everything the handler did and sent. Each answer must show the
handler's work (the screen's state in the delta, the edit mode on and off): an answer without it is
an error. The REST clients call the portfolio list and holdings at a fixed total rate with a
session token.

Before it connects, the driver checks every event handler it will send against the handlers the
app registers (the server answers an unknown handler with nothing but the log line "No registered
handler found for event", so a renamed handler would otherwise pass unnoticed): a missing one stops
the run with a message naming it and a non-zero exit.

The demo data is enough: the advisers sign in as the demo advisers (several sessions each); the
edit mode needs one of the first demo adviser's portfolios with a draft target portfolio (the demo
data has one)."""
from __future__ import annotations

import asyncio
import importlib
import json
import random
import re
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Message, Ping, Request, TextMessage

from app import profiling

DEMO_ADVISERS = ("adviser@harbour.example.com", "adviser@southerncross.example.com")
DEMO_PASSWORD = "Demo1234"
THINK_SECONDS = (0.5, 1.5)
SERVER_FAILURES = ("Sorry, something went wrong", "The database is not answering", "Connection problem")
SIGNED_IN = re.compile(r'"token_rx_state_":"[^"]+"')  # the session token the sign-in stores in the browser
ACTIONS = ("portfolio list", "holdings", "target portfolio", "target portfolio edit",
           "REST portfolio list", "REST holdings")  # what a run times (sign-in apart)


class BenchLoadError(RuntimeError):
    """The benchmark cannot run as asked; the message says why."""


# ---- the event handlers the driver sends ----------------------------------------------------------
@dataclass(frozen=True)
class Handler:
    """An event handler as the code names it: its state class (module, class name) and handler."""

    module: str
    state: str
    name: str

    @property
    def label(self) -> str:
        return f"{self.state}.{self.name}"


HYDRATE = Handler("reflex.state", "State", "hydrate_and_load")  # the browser's first event of a page
SET_EMAIL = Handler("app.ui.states.login", "LoginState", "set_email")
SET_PASSWORD = Handler("app.ui.states.login", "LoginState", "set_typed_password")
SIGN_IN = Handler("app.ui.states.login", "LoginState", "signin")
NAVIGATE = Handler("app.ui.states.base", "AppState", "navigate")  # the sentinel after every event
PORTFOLIO_LIST = Handler("app.ui.states.portfolios", "PortfoliosListState", "on_load")
HOLDINGS = Handler("app.ui.states.holdings", "HoldingsState", "on_load")
TARGET = Handler("app.ui.states.target_portfolio", "TargetPortfolioState", "on_load")
START_EDIT = Handler("app.ui.states.target_portfolio", "TargetPortfolioState", "start_edit")
CANCEL_EDIT = Handler("app.ui.states.target_portfolio", "TargetPortfolioState", "cancel_edit")
HANDLERS = (HYDRATE, SET_EMAIL, SET_PASSWORD, SIGN_IN, NAVIGATE, PORTFOLIO_LIST, HOLDINGS, TARGET, START_EDIT,
            CANCEL_EDIT)


class MissingHandlers(BenchLoadError):
    """Handlers the driver would send that the app does not register."""

    def __init__(self, missing: list[Handler]):
        self.missing = missing
        names = ", ".join(f"{h.label} (in {h.module})" for h in missing)
        super().__init__(f"the app has no event handler {names}: the server would log 'No registered handler found "
                         f"for event' and answer nothing. Make app/bench_load.py send what the screen sends today.")


@dataclass(frozen=True)
class Wire:
    """The handlers' full names as the browser sends them, and the states' names in the server's deltas."""

    events: dict[Handler, str]
    states: dict[Handler, str]

    def __getitem__(self, handler: Handler) -> str:
        return self.events[handler]


def wire_names(handlers: tuple[Handler, ...] | None = None) -> Wire:
    """Each handler's name on the wire (by default every one the driver sends), checked against the
    event handlers the app registers (the registry the server looks every event up in); raises
    MissingHandlers naming every one missing."""
    from reflex_base.registry import RegistrationContext

    events, states, missing = {}, {}, []
    for handler in HANDLERS if handlers is None else handlers:
        try:
            state = getattr(importlib.import_module(handler.module), handler.state)
        except (ImportError, AttributeError):
            missing.append(handler)
            continue
        name = f"{state.get_full_name()}.{handler.name}"
        if name not in RegistrationContext.get().event_handlers:
            missing.append(handler)
            continue
        events[handler], states[handler] = name, state.get_full_name()
    if missing:
        raise MissingHandlers(missing)
    return Wire(events, states)


# ---- a socket.io client over one websocket ----------------------------------------------------------
class Socket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, ws: WSConnection):
        self.reader, self.writer, self.ws = reader, writer, ws
        self.frames: asyncio.Queue[str] = asyncio.Queue()
        self.accepted = asyncio.Event()
        self._partial: list[str] = []
        self._pump = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, token: str, boot: dict[str, Any] | None = None) -> "Socket":
        """Connects the /_event namespace; `boot` rides in the CONNECT packet as the browser's
        hydrate event does."""
        parts = urlsplit(base)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        ws = WSConnection(ConnectionType.CLIENT)
        writer.write(ws.send(Request(host=parts.netloc, target=f"/_event/?EIO=4&transport=websocket&token={token}")))
        await writer.drain()
        sock = cls(reader, writer, ws)
        await asyncio.wait_for(sock.accepted.wait(), 30)
        opened = await sock.next_frame(30)  # engine.io open: 0{...}
        if not opened.startswith("0"):
            raise ConnectionError(f"unexpected opening frame {opened[:80]}")
        await sock.send("40/_event," + (json.dumps({"event": boot}) if boot else ""))
        connected = await sock.next_frame(30)
        if not connected.startswith("40/_event"):
            raise ConnectionError(f"socket.io connect refused: {connected[:120]}")
        return sock

    async def _read(self) -> None:
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                self.ws.receive_data(data)
                for event in self.ws.events():
                    if isinstance(event, AcceptConnection):
                        self.accepted.set()
                    elif isinstance(event, TextMessage):
                        self._partial.append(event.data)
                        if event.message_finished:
                            text = "".join(self._partial)
                            self._partial = []
                            if text == "2":  # engine.io ping: answer at once
                                await self.send("3")
                            else:
                                self.frames.put_nowait(text)
                    elif isinstance(event, Ping):
                        self.writer.write(self.ws.send(event.response()))
                    elif isinstance(event, CloseConnection):
                        return
        except (ConnectionError, asyncio.CancelledError):
            return

    async def send(self, text: str) -> None:
        self.writer.write(self.ws.send(Message(data=text)))
        await self.writer.drain()

    async def next_frame(self, timeout: float) -> str:
        return await asyncio.wait_for(self.frames.get(), timeout)

    async def close(self) -> None:
        self._pump.cancel()
        try:
            self.writer.write(self.ws.send(CloseConnection(code=1000)))
            self.writer.close()
        except Exception:
            pass


def _event(name: str, payload: dict[str, Any], path: str) -> dict[str, Any]:
    return {"name": name, "payload": payload, "router_data": {"pathname": path, "asPath": path}}


def _frame(name: str, payload: dict[str, Any], path: str) -> str:
    return "42/_event," + json.dumps(["event", _event(name, payload, path)])


def _var(name: str, value: Any) -> str:
    """How a state variable's new value reads in a delta."""
    return f'"{name}_rx_state_":{json.dumps(value)}'


# ---- one simulated adviser ------------------------------------------------------------------------
@dataclass
class Figures:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)  # the first error of each action, in words
    timing: bool = True  # off during the warm-up: times are not kept, errors always are
    # --profile: the folder the web processes write their totals to, read when timing starts and ends
    profile_dir: Path | None = None
    profile_start: dict[int, profiling.ProcessProfile] | None = None
    profile_end: dict[int, profiling.ProcessProfile] | None = None

    def add(self, action: str, seconds: float) -> None:
        if self.timing or action == "sign in":
            self.times.setdefault(action, []).append(seconds)

    def fail(self, action: str, reason: str) -> None:
        self.errors[action] = self.errors.get(action, 0) + 1
        self.reasons.setdefault(action, reason)


class Adviser:
    def __init__(self, base: str, email: str, figures: Figures, wire: Wire):
        self.base, self.email, self.figures, self.wire = base, email, figures, wire
        self.sock: Socket | None = None
        self.serial = 0

    async def call(self, action: str, handler: Handler, payload: dict[str, Any], path: str,
                   shows: str | re.Pattern[str] | None = None, timeout: float = 30) -> bool:
        """Sends the event and a sentinel; the answer is every frame before the sentinel's. The answer
        must hold `shows` (text or a pattern; by default the delta of the handler's state, "" for
        nothing); True when it did."""
        self.serial += 1
        mark = f"/sentinel-{self.serial}"
        started = time.perf_counter()
        await self.sock.send(_frame(self.wire[handler], payload, path))
        await self.sock.send(_frame(self.wire[NAVIGATE], {"path": mark}, path))
        answer: list[str] = []
        deadline = started + timeout
        while True:
            frame = await self.sock.next_frame(max(0.01, deadline - time.perf_counter()))
            if mark in frame:
                break
            answer.append(frame)
        text = "\n".join(answer)
        expected = shows if shows is not None else f'"{self.wire.states[handler]}":'
        failure = next((f for f in SERVER_FAILURES if f in text), None)
        if failure:  # a refusal in the product's words is no error
            self.figures.fail(action, f"{handler.label} at {path} answered '{failure}'")
            return False
        if isinstance(expected, re.Pattern):
            shown = expected.search(text) is not None
        else:
            shown = not expected or expected in text
        if not shown:
            wanted = expected.pattern if isinstance(expected, re.Pattern) else expected
            self.figures.fail(action, f"{handler.label} at {path} did not answer with {wanted[:120]} "
                                      f"(answer: {text[:200] or 'nothing'})")
            return False
        self.figures.add(action, time.perf_counter() - started)
        return True

    async def sign_in(self) -> None:
        """As the browser: open the sign-in page, type the e-mail and the password, submit the form."""
        started = time.perf_counter()
        boot = _event(self.wire[HYDRATE], {}, "/login")
        self.sock = await Socket.open(self.base, str(uuid.uuid4()), boot)
        hydrated = _var("is_hydrated", True)
        while hydrated not in await self.sock.next_frame(30):  # the page's on_load has run
            pass
        self.figures.add("sign in", time.perf_counter() - started)
        await self.call("sign in", SET_EMAIL, {"value": self.email}, "/login", shows=_var("email", self.email))
        await self.call("sign in", SET_PASSWORD, {"name": "password", "value": DEMO_PASSWORD}, "/login",
                        shows="")  # the password stays on the server: nothing comes back
        form = {"email": self.email, "password": DEMO_PASSWORD}
        if not await self.call("sign in", SIGN_IN, {"_form": form}, "/login", shows=SIGNED_IN):
            raise BenchLoadError(f"{self.email} could not sign in: {self.figures.reasons.get('sign in', '')}")

    async def loop(self, until: float, portfolio_ids: list[int], drafts: list[int]) -> None:
        while time.monotonic() < until:
            action = random.choice(("portfolio list", "holdings", "target portfolio edit"))
            try:
                if action == "portfolio list":
                    await self.call(action, PORTFOLIO_LIST, {}, "/portfolios")
                elif action == "holdings":
                    await self.call(action, HOLDINGS, {}, f"/portfolios/{random.choice(portfolio_ids)}/holdings")
                else:
                    path = f"/portfolios/{random.choice(drafts)}/target-portfolio"
                    if (await self.call("target portfolio", TARGET, {}, path, shows=_var("can_edit", True))
                            and await self.call(action, START_EDIT, {}, path, shows=_var("mode", "EDIT"))):
                        await self.call(action, CANCEL_EDIT, {}, path, shows=_var("mode", ""))
            except (asyncio.TimeoutError, ConnectionError) as exc:
                self.figures.fail(action, f"no answer ({type(exc).__name__})")
            await asyncio.sleep(random.uniform(*THINK_SECONDS))


# ---- REST clients ----------------------------------------------------------------------------------
async def _signin_rest(client: httpx.AsyncClient) -> dict[str, str]:
    signed = await client.post("/api/signin", json={"email": DEMO_ADVISERS[0], "password": DEMO_PASSWORD})
    if signed.status_code != 200:
        raise BenchLoadError(f"{DEMO_ADVISERS[0]} could not sign in through the API ({signed.status_code}): "
                             "run `python -m app.cli setup` for the demo data")
    return {"x-token": signed.json()["result"]["token"]}


async def _rest(base: str, rate: float, until: float, figures: Figures, portfolio_ids: list[int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        headers = await _signin_rest(client)
        interval, tasks = 1.0 / rate, []

        async def one(action: str, path: str) -> None:
            started = time.perf_counter()
            try:
                answer = await client.get(path, headers=headers)
                if answer.status_code == 200:
                    figures.add(action, time.perf_counter() - started)
                else:
                    figures.fail(action, f"GET {path} answered {answer.status_code}")
            except httpx.HTTPError as exc:
                figures.fail(action, f"GET {path}: {type(exc).__name__}")

        next_at = time.monotonic()
        while time.monotonic() < until:
            pid = random.choice(portfolio_ids)
            if random.random() < 0.5:
                tasks.append(asyncio.create_task(one("REST portfolio list", "/api/investments?limit=20")))
            else:
                tasks.append(asyncio.create_task(one("REST holdings", f"/api/investments/{pid}/holdings")))
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await asyncio.gather(*tasks)


async def _portfolios(base: str) -> tuple[list[int], list[int]]:
    """The first demo adviser's portfolios, and those of them with a draft target portfolio (the edit
    mode is offered on a draft only)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        headers = await _signin_rest(client)
        listed = await client.get("/api/investments?limit=100", headers=headers)
        ids = [int(r["id"]) for r in listed.json()["result"]["rows"]]
        drafts = []
        for pid in ids:
            current = (await client.get(f"/api/investments/{pid}/target-portfolio", headers=headers)).json()
            if (current.get("result") or {}).get("status") == "draft":
                drafts.append(pid)
        return ids, drafts


def _print_profile(figures: Figures, folder: str) -> None:
    """The web processes' breakdown of the timed part of the run (bench load --profile)."""
    if not figures.profile_end:
        print(f"bench load: no web process wrote a profile to {folder}: start the app with "
              f"{profiling.PROFILE_DIR_ENV}={folder}", file=sys.stderr)
        return
    totals, cpu = profiling.since(figures.profile_start or {}, figures.profile_end)
    print(f"\nserver time by event handler ({len(figures.profile_end)} web processes profiled, timed part only):")
    for line in profiling.breakdown_lines(totals, cpu):
        print(line)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def _start_timing(figures: Figures, warmup: float) -> None:
    await asyncio.sleep(warmup)
    figures.timing = True
    if figures.profile_dir is not None:  # the web processes' totals when timing starts
        await asyncio.sleep(1.1)  # each process writes its totals every second
        figures.profile_start = profiling.read_profiles(figures.profile_dir)


async def _run(base: str, advisers: int, rps: float, seconds: float, warmup: float, wire: Wire,
               profile_dir: Path | None = None) -> Figures:
    figures = Figures(timing=warmup <= 0, profile_dir=profile_dir)
    if profile_dir is not None:
        profiling.clear_profiles(profile_dir)
    ids, drafts = await _portfolios(base)
    if not ids:
        raise BenchLoadError("the demo adviser sees no portfolio: run `python -m app.cli setup` first")
    if not drafts:
        raise BenchLoadError(f"none of {DEMO_ADVISERS[0]}'s portfolios has a draft target portfolio to put into "
                             "edit mode: calculate one (the demo data has one)")
    # both demo advisers' own firms would do; the first's portfolios keep every call inside its firm
    people = [Adviser(base, DEMO_ADVISERS[0], figures, wire) for _ in range(advisers)]
    try:
        for batch in range(0, advisers, 10):  # sign in ten at a time, as people arrive
            await asyncio.gather(*(p.sign_in() for p in people[batch:batch + 10]))
        until = time.monotonic() + warmup + seconds
        await asyncio.gather(*(p.loop(until, ids, drafts) for p in people), _rest(base, rps, until, figures, ids),
                             _start_timing(figures, warmup))
        if profile_dir is not None:
            await asyncio.sleep(1.1)
            figures.profile_end = profiling.read_profiles(profile_dir)
    finally:
        for p in people:
            if p.sock is not None:
                await p.sock.close()
    return figures


def bench_load(url: str = "http://127.0.0.1:3000", advisers: int = 50, rps: float = 20, seconds: float = 60,
               warmup: float = 15, profile: str | None = None) -> int:
    """Times `seconds` of load after `warmup` seconds of the same load (caches filled, every web
    process past its first requests); an error counts in the warm-up too. Exits 0 only when nothing
    failed and every action was timed; 2 when the run could not start."""
    try:
        wire = wire_names()
    except MissingHandlers as exc:
        print(f"bench load: {exc}", file=sys.stderr)
        return 2
    print(f"load: {advisers} advisers over the websocket + {rps:g} REST requests/s against {url} for {seconds:g} s"
          f" (after {warmup:g} s of warm-up)")
    try:
        figures = asyncio.run(_run(url.rstrip("/"), advisers, rps, seconds, warmup, wire,
                                   Path(profile) if profile else None))
    except BenchLoadError as exc:
        print(f"bench load: {exc}", file=sys.stderr)
        return 2
    except (OSError, httpx.HTTPError) as exc:
        print(f"bench load: the app at {url} is not answering ({exc}); start it first", file=sys.stderr)
        return 2
    elapsed = seconds
    print(f"{'action':<26}{'count':>7}{'errors':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    total = errors = 0
    worst_p95 = 0.0
    for action in sorted(set(figures.times) | set(figures.errors) | set(ACTIONS)):
        times = figures.times.get(action, [])
        failed = figures.errors.get(action, 0)
        errors += failed
        total += len(times) if action != "sign in" else 0
        if times:
            p95 = _percentile(times, 0.95)
            worst_p95 = max(worst_p95, p95) if action != "sign in" else worst_p95
            print(f"{action:<26}{len(times):>7}{failed:>8}{statistics.median(times) * 1000:>9.0f}"
                  f"{p95 * 1000:>9.0f}{_percentile(times, 0.99) * 1000:>9.0f}")
        else:
            print(f"{action:<26}{0:>7}{failed:>8}")
    for action, reason in sorted(figures.reasons.items()):
        print(f"error in {action}: {reason}", file=sys.stderr)
    untimed = [a for a in ACTIONS if not figures.times.get(a)]
    if untimed:
        print(f"bench load: never timed: {', '.join(untimed)} (a longer --seconds?)", file=sys.stderr)
    print(f"throughput (sign-in left out): {total / elapsed:.1f} actions/s over {elapsed:.0f} s; errors: {errors}; "
          f"worst p95 (after sign-in): {worst_p95 * 1000:.0f} ms (target 300 ms)")
    if profile:
        _print_profile(figures, profile)
    return 0 if errors == 0 and not untimed else 1
