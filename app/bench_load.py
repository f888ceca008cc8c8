"""python -m app.cli bench load: drives the running app on loopback with simulated advisers over
the websocket (as a browser does: socket.io frames on /_event) plus REST clients, for a bounded
time, and prints p50 / p95 / p99 per action, errors and throughput.

Each simulated adviser signs in through the sign-in screen's handlers on its own connection, then
loops: the portfolio list, a portfolio's holdings, a target portfolio opened and put into edit mode
and back, with a short think time. An action's time runs from sending its event to the server's
answer to a sentinel event sent right after it (events of one connection are handled in order),
so it includes everything the handler did and sent. The REST clients call the portfolio list and
holdings at a fixed total rate with a session token.

The demo data is enough: the advisers sign in as the demo advisers (several sessions each)."""
from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Message, Ping, Request, TextMessage

STATE = "reflex___state____state.app___ui___states___base____app_state"
LOGIN = f"{STATE}.app___ui___states___login____login_state"
PORTFOLIOS = f"{STATE}.app___ui___states___portfolios____portfolios_list_state"
HOLDINGS = f"{STATE}.app___ui___states___holdings____holdings_state"
TARGET = f"{STATE}.app___ui___states___target_portfolio____target_portfolio_state"
DEMO_ADVISERS = ("adviser@harbour.example.com", "adviser@southerncross.example.com")
DEMO_PASSWORD = "Demo1234"
THINK_SECONDS = (0.5, 1.5)
SERVER_FAILURES = ("Sorry, something went wrong", "The database is not answering", "Connection problem")


# ---- a socket.io client over one websocket ----------------------------------------------------------
class Socket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, ws: WSConnection):
        self.reader, self.writer, self.ws = reader, writer, ws
        self.frames: asyncio.Queue[str] = asyncio.Queue()
        self.accepted = asyncio.Event()
        self._partial: list[str] = []
        self._pump = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, token: str) -> "Socket":
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
        await sock.send("40/_event,")
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


def _frame(name: str, payload: dict[str, Any], path: str) -> str:
    return "42/_event," + json.dumps(["event", {"name": name, "payload": payload,
                                                "router_data": {"pathname": path, "asPath": path}}])


# ---- one simulated adviser ------------------------------------------------------------------------
@dataclass
class Figures:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    timing: bool = True  # off during the warm-up: times are not kept, errors always are

    def add(self, action: str, seconds: float) -> None:
        if self.timing or action == "sign in":
            self.times.setdefault(action, []).append(seconds)

    def fail(self, action: str) -> None:
        self.errors[action] = self.errors.get(action, 0) + 1


class Adviser:
    def __init__(self, base: str, email: str, figures: Figures):
        self.base, self.email, self.figures = base, email, figures
        self.sock: Socket | None = None
        self.serial = 0

    async def call(self, action: str, name: str, payload: dict[str, Any], path: str, timeout: float = 30) -> str:
        """Sends the event and a sentinel; the answer is every frame before the sentinel's."""
        self.serial += 1
        mark = f"/sentinel-{self.serial}"
        started = time.perf_counter()
        await self.sock.send(_frame(name, payload, path))
        await self.sock.send(_frame(f"{STATE}.navigate", {"path": mark}, path))
        answer: list[str] = []
        deadline = started + timeout
        while True:
            frame = await self.sock.next_frame(max(0.01, deadline - time.perf_counter()))
            if mark in frame:
                break
            answer.append(frame)
        text = "\n".join(answer)
        if any(failure in text for failure in SERVER_FAILURES):  # a refusal in the product's words is no error
            self.figures.fail(action)
        else:
            self.figures.add(action, time.perf_counter() - started)
        return text

    async def sign_in(self) -> None:
        self.sock = await Socket.open(self.base, str(uuid.uuid4()))
        await self.call("sign in", f"{LOGIN}.set_email", {"value": self.email}, "/login")
        await self.call("sign in", f"{LOGIN}.set_password", {"value": DEMO_PASSWORD}, "/login")
        answer = await self.call("sign in", f"{LOGIN}.signin", {"_form": {}}, "/login")
        if "token_rx_state_" not in answer:
            raise RuntimeError(f"{self.email} could not sign in")

    async def loop(self, until: float, portfolio_ids: list[int]) -> None:
        while time.monotonic() < until:
            pid = random.choice(portfolio_ids)
            action = random.choice(("portfolio list", "holdings", "target portfolio edit"))
            try:
                if action == "portfolio list":
                    await self.call(action, f"{PORTFOLIOS}.on_load", {}, "/portfolios")
                elif action == "holdings":
                    await self.call(action, f"{HOLDINGS}.on_load", {}, f"/portfolios/{pid}/holdings")
                else:
                    path = f"/portfolios/{pid}/target-portfolio"
                    await self.call("target portfolio", f"{TARGET}.on_load", {}, path)
                    await self.call(action, f"{TARGET}.start_edit", {}, path)
                    await self.call(action, f"{TARGET}.cancel_edit", {}, path)
            except (asyncio.TimeoutError, ConnectionError):
                self.figures.fail(action)
            await asyncio.sleep(random.uniform(*THINK_SECONDS))


# ---- REST clients ----------------------------------------------------------------------------------
async def _rest(base: str, rate: float, until: float, figures: Figures, portfolio_ids: list[int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        signed = await client.post("/api/signin", json={"email": DEMO_ADVISERS[0], "password": DEMO_PASSWORD})
        token = signed.json()["result"]["token"]
        headers = {"x-token": token}
        interval, tasks = 1.0 / rate, []

        async def one(action: str, path: str) -> None:
            started = time.perf_counter()
            try:
                answer = await client.get(path, headers=headers)
                if answer.status_code == 200:
                    figures.add(action, time.perf_counter() - started)
                else:
                    figures.fail(action)
            except httpx.HTTPError:
                figures.fail(action)

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


async def _portfolio_ids(base: str) -> list[int]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        signed = await client.post("/api/signin", json={"email": DEMO_ADVISERS[0], "password": DEMO_PASSWORD})
        token = signed.json()["result"]["token"]
        listed = await client.get("/api/investments?limit=100", headers={"x-token": token})
        return [int(r["id"]) for r in listed.json()["result"]["rows"]]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def _start_timing(figures: Figures, warmup: float) -> None:
    await asyncio.sleep(warmup)
    figures.timing = True


async def _run(base: str, advisers: int, rps: float, seconds: float, warmup: float) -> Figures:
    figures = Figures(timing=warmup <= 0)
    ids = await _portfolio_ids(base)
    if not ids:
        raise RuntimeError("the demo adviser sees no portfolio: run `python -m app.cli setup` first")
    # both demo advisers' own firms would do; the first's portfolios keep every call inside its firm
    people = [Adviser(base, DEMO_ADVISERS[0], figures) for _ in range(advisers)]
    for batch in range(0, advisers, 10):  # sign in ten at a time, as people arrive
        await asyncio.gather(*(p.sign_in() for p in people[batch:batch + 10]))
    until = time.monotonic() + warmup + seconds
    await asyncio.gather(*(p.loop(until, ids) for p in people), _rest(base, rps, until, figures, ids),
                         _start_timing(figures, warmup))
    for p in people:
        await p.sock.close()
    return figures


def bench_load(url: str = "http://127.0.0.1:3000", advisers: int = 50, rps: float = 20, seconds: float = 60,
               warmup: float = 15) -> int:
    """Times `seconds` of load after `warmup` seconds of the same load (caches filled, every web
    process past its first requests); an error counts in the warm-up too."""
    print(f"load: {advisers} advisers over the websocket + {rps:g} REST requests/s against {url} for {seconds:g} s"
          f" (after {warmup:g} s of warm-up)")
    figures = asyncio.run(_run(url.rstrip("/"), advisers, rps, seconds, warmup))
    elapsed = seconds
    print(f"{'action':<26}{'count':>7}{'errors':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    total = errors = 0
    worst_p95 = 0.0
    for action in sorted(set(figures.times) | set(figures.errors)):
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
    print(f"throughput (sign-in left out): {total / elapsed:.1f} actions/s over {elapsed:.0f} s; errors: {errors}; "
          f"worst p95 (after sign-in): {worst_p95 * 1000:.0f} ms (target 300 ms)")
    return 0 if errors == 0 else 1
