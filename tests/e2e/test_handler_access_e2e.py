"""Every public Reflex event handler, called over the real websocket as a browser would, by each
role of one firm with another firm's ids: nothing changes in the database and nothing of the other
firm (nor any password hash or token digest) comes back in the state sent to the browser.

The handlers are discovered from the state classes, so a new one is covered without a change
here; one that needs no check is listed, with the reason, in tests/access/allowlist.py. The test
signs in through the page, then takes over the page's own socket (Playwright's WebSocket routing):
it sends `42/_event,["event", {...}]` frames in the browser's wire format and reads the server's
answers without handing them to the page (so a redirect or a script never runs). After each
handler a sentinel `setvar` answers once the state lock has passed it, so the answers of each
handler are known. Screens' pages are also opened with the other firm's ids in their URLs."""
from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import pkgutil
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, text

from tests.access.allowlist import HANDLERS as ALLOWED
from tests.e2e.conftest import DEMO_PASSWORD

TIMEOUT = 30_000
ROLES = ("adviser@harbour.example.com", "admin@harbour.example.com", "client@harbour.example.com")
HOME = "harbour"
OTHER_DOMAIN = "southerncross.example.com"
# rows that using the app writes by itself (a session's last use, a download ticket, a failed sign-in)
UNWATCHED = {"session_tokens", "download_tickets", "signin_failures", "alembic_version", "outbox_mail"}


# ---- the handlers ------------------------------------------------------------------------------------
def _state_classes() -> list[type]:
    import app.ui.states as states_package
    from app.ui.states.base import AppState

    for module in pkgutil.iter_modules(states_package.__path__):
        importlib.import_module(f"app.ui.states.{module.name}")
    importlib.import_module("app.ui.pages.registry")  # component states (pickers) live beside the pages

    def walk(cls):
        yield cls
        for sub in sorted(cls.get_substates(), key=lambda c: c.__name__):
            yield from walk(sub)

    return list(walk(AppState))


@dataclass
class Handler:
    state: type
    name: str
    wire: str
    params: list[tuple[str, str]]  # (name, annotation text)

    @property
    def key(self) -> str:
        return f"{self.state.__name__}.{self.name}"


def _handlers() -> list[Handler]:
    from reflex_base.utils import format

    from app.ui.states.base import AppState

    inherited = {name: h.fn for name, h in AppState.event_handlers.items()}
    found = []
    for state in _state_classes():
        for name, handler in sorted(state.event_handlers.items()):
            if state is not AppState and inherited.get(name) is handler.fn:
                continue  # AppState's own handlers are called once, on AppState
            signature = inspect.signature(handler.fn)
            params = [(p, str(signature.parameters[p].annotation)) for p in list(signature.parameters)[1:]]
            found.append(Handler(state, name, format.format_event_handler(handler), params))
    return found


# ---- the other firm's ids ----------------------------------------------------------------------------
@dataclass
class Other:
    ids: dict[str, int]
    markers: set[str]
    secrets: set[str]
    own_markers: set[str] = field(default_factory=set)  # the signed-in firm's names: seen on its own pages
    own_ids: dict[str, int] = field(default_factory=dict)


def _firm_ids(c, firm: int) -> dict[str, int]:
    """One object of each kind the firm owns."""

    def first(sql: str) -> int:
        value = c.execute(text(sql), {"f": firm}).scalar()
        assert value is not None, sql
        return int(value)

    portfolio = "SELECT id FROM investments WHERE firm_id = :f"
    return {
        "firm": firm,
        "user": first("SELECT min(id) FROM users WHERE firm_id = :f AND role = 'client'"),
        "adviser": first("SELECT min(id) FROM users WHERE firm_id = :f AND role = 'adviser'"),
        "portfolio": first(f"SELECT min(id) FROM ({portfolio}) p"),
        "model": first("SELECT min(id) FROM models WHERE firm_id = :f"),
        "target": first(f"SELECT min(id) FROM target_portfolios WHERE investment_id IN ({portfolio})"),
        "instruction": first(f"SELECT min(id) FROM trade_instructions WHERE investment_id IN ({portfolio})"),
        "trade": first(f"SELECT min(t.id) FROM trade_transactions t JOIN trade_instructions i "
                       f"ON i.id = t.trade_instruction_id WHERE i.investment_id IN ({portfolio})"),
        "cash": first(f"SELECT min(id) FROM cash_transactions WHERE investment_id IN ({portfolio})"),
        "order": first(f"SELECT min(id) FROM broker_orders WHERE investment_id IN ({portfolio})"),
        "deposit": first(f"SELECT min(id) FROM deposits WHERE investment_id IN ({portfolio})"),
    }


def _other_firm(database_url: str) -> Other:
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect() as c:
        firm = c.execute(text("SELECT DISTINCT firm_id FROM users WHERE email LIKE :d"), {"d": f"%@{OTHER_DOMAIN}"}).scalar_one()
        home = c.execute(text("SELECT DISTINCT firm_id FROM users WHERE email LIKE :d"), {"d": f"%@{HOME}.example.com"}).scalar_one()

        ids, own_ids = _firm_ids(c, firm), _firm_ids(c, home)
        mine = {r[0] for r in c.execute(text("SELECT name FROM investments WHERE firm_id = :h"), {"h": home})}
        markers = {r[0] for r in c.execute(text("SELECT name FROM investments WHERE firm_id = :f"), {"f": firm})} - mine
        markers |= {r[0] for r in c.execute(text("SELECT email FROM users WHERE firm_id = :f"), {"f": firm})}
        secrets = {r[0] for r in c.execute(text("SELECT password_hash FROM users WHERE password_hash IS NOT NULL"))}
        secrets |= {r[0] for r in c.execute(text("SELECT token_hash FROM session_tokens"))}
        secrets |= {r[0] for r in c.execute(text("SELECT token_hash FROM action_tokens"))}
    engine.dispose()
    return Other(ids=ids, markers={m for m in markers if m and len(m) >= 6}, secrets=secrets,
                 own_markers={m for m in mine if m and len(m) >= 6}, own_ids=own_ids)


KINDS = (  # a parameter or state variable name -> the kind of the other firm's object it names
    (("portfolio", "investment", "pid"), "portfolio"), (("model",), "model"), (("firm",), "firm"),
    (("adviser",), "adviser"), (("user", "client", "owner", "person"), "user"),
    (("target", "tp", "rofa"), "target"), (("instruction", "ti_"), "instruction"),
    (("trade", "tx", "transaction"), "trade"), (("cash",), "cash"), (("order",), "order"),
    (("deposit",), "deposit"),
)


def _kind(name: str) -> str:
    lowered = name.lower()
    for words, kind in KINDS:
        if any(w in lowered for w in words):
            return kind
    return "portfolio"


def _value(name: str, annotation: str, other: Other) -> Any:
    number = other.ids[_kind(name)]
    if "bool" in annotation:
        return True
    if "dict" in annotation or "Mapping" in annotation:
        return {"id": number, "investment_id": other.ids["portfolio"], "firm_id": other.ids["firm"],
                "model_id": other.ids["model"], "user_id": other.ids["user"]}
    if "list" in annotation or "Sequence" in annotation:
        return [number]
    if "int" in annotation or name.endswith("id") or name.endswith("ids"):
        return number
    return str(number)


# ---- the database ------------------------------------------------------------------------------------
BIG = 20_000  # rows: a table this large (the price history) is compared by its count and last id


def _snapshot(engine) -> dict[str, str]:
    out = {}
    with engine.connect() as c:
        tables = [r[0] for r in c.execute(text(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            if engine.dialect.name == "postgresql" else "SELECT name FROM sqlite_master WHERE type = 'table'"))]
        for table in sorted(set(tables) - UNWATCHED):
            digest = hashlib.sha256()
            count = c.execute(text(f'SELECT count(*) FROM "{table}"')).scalar()
            if count > BIG:
                last = c.execute(text(f'SELECT max(id) FROM "{table}"')).scalar()
                out[table] = f"{count} rows to id {last}"
                continue
            for row in c.execute(text(f'SELECT * FROM "{table}" ORDER BY 1')):
                digest.update(repr(tuple(row)).encode())
            out[table] = digest.hexdigest()
    return out


# ---- the socket ----------------------------------------------------------------------------------------
@dataclass
class Socket:
    server: Any = None
    frames: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    intercept: bool = False


def _route(page, sock: Socket) -> None:
    def handler(ws):
        server = ws.connect_to_server()
        sock.server = server

        def from_page(message):
            server.send(message)

        def from_server(message):
            if isinstance(message, str):
                with sock.lock:
                    sock.frames.append(message)
            # while the test drives the socket, the page only gets the keep-alive pings
            if not sock.intercept or message == "2":
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r".*/_event/.*"), handler)


def _frame(name: str, payload: dict[str, Any], path: str = "/") -> str:
    return "42/_event," + json.dumps(["event", {"name": name, "payload": payload,
                                                "router_data": {"pathname": path, "asPath": path}}])


def _call(page, sock: Socket, wire: str, payload: dict[str, Any], path: str, serial: int) -> list[str]:
    """Sends one event, then a sentinel (AppState.navigate to a path nobody has, answered once the
    state lock has passed the event); returns the server's frames in between."""
    from app.ui.states.base import AppState

    with sock.lock:
        start = len(sock.frames)
    sock.server.send(_frame(wire, payload, path))
    mark = f"/sentinel-{serial}"
    sock.server.send(_frame(f"{AppState.get_full_name()}.navigate", {"path": mark}, path))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with sock.lock:
            answers = sock.frames[start:]
        if any(mark in a for a in answers):
            return answers
        page.wait_for_timeout(10)
    raise AssertionError(f"no answer after {wire}")


# ---- which page each screen state serves ------------------------------------------------------------------
class _Pages:
    """Records app.add_page calls: the routes whose on_load runs each state."""

    def __init__(self) -> None:
        self.routes: dict[str, list[str]] = {}

    def add_page(self, component: Any = None, route: str = "", on_load: Any = None, **_: Any) -> None:
        for handler in on_load if isinstance(on_load, list) else [on_load] if on_load is not None else []:
            self.routes.setdefault(handler.state_full_name, []).append(route)


def _paths(ids: dict[str, int]) -> dict[str, str]:
    """Each state's page path with these ids in it."""
    from app.ui.pages import registry

    pages = _Pages()
    registry.register_pages(pages)
    kinds = (("/portfolios/", "portfolio"), ("/models/", "model"), ("/firms/", "firm"), ("/clients/", "user"),
             ("/advisers/", "adviser"), ("/users/", "user"))
    out = {}
    for state, routes in pages.routes.items():
        route = next((r for r in routes if "[" in r), routes[0])
        kind = next((k for prefix, k in kinds if route.startswith(prefix)), "portfolio")
        out[state] = (route.replace("[id]", str(ids[kind])).replace("[rofa_id]", str(ids["target"]))
                      .replace("[version]", "1").replace("[token]", "not-a-token"))
    return out


def _sign_in(page, email: str) -> None:
    page.goto("/login")
    for _ in range(5):
        page.locator("#email").fill(email)
        page.locator("#password").fill(DEMO_PASSWORD)
        page.wait_for_timeout(200)
        if page.locator("#email").input_value() == email:
            break
    page.locator("#signin").click()
    page.wait_for_url(lambda u: "/login" not in u, timeout=TIMEOUT)
    expect(page.locator("#user-menu")).to_be_visible(timeout=TIMEOUT)


def _seen(marker: str, text_: str) -> bool:
    """`marker` in frames of JSON, as typed or JSON-escaped."""
    return marker in text_ or json.dumps(marker)[1:-1] in text_


def _leaks(answers: list[str], other: Other) -> list[str]:
    text_ = "\n".join(answers)
    return sorted({m for m in other.markers if _seen(m, text_)} | {"a password hash or token digest" for s in other.secrets
                                                                    if s in text_})


# ---- the tests -------------------------------------------------------------------------------------------
def test_the_allow_list_names_only_handlers_that_exist():
    keys = {h.key for h in _handlers()}
    assert not set(ALLOWED) - keys, f"allow-listed handlers that no longer exist: {sorted(set(ALLOWED) - keys)}"


@pytest.mark.parametrize("email", ROLES)
def test_every_event_handler_refuses_another_firms_ids(browser, app_server, email):
    handlers = [h for h in _handlers() if h.key not in ALLOWED]
    other = _other_firm(app_server.database_url)
    engine = create_engine(app_server.database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    context = browser.new_context(base_url=app_server.url, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    sock = Socket()
    _route(page, sock)
    try:
        _sign_in(page, email)
        # the detector sees names in the frames: the landing page sent the signed-in firm's own
        if "client@" not in email:
            deadline = time.monotonic() + 15
            while True:
                with sock.lock:
                    landing = "\n".join(sock.frames)
                if any(_seen(m, landing) for m in other.own_markers):
                    break
                assert time.monotonic() < deadline, "the landing page showed none of the firm's portfolio names"
                page.wait_for_timeout(100)
        sock.intercept = True
        problems: list[str] = []
        serial = 0
        by_state: dict[type, list[Handler]] = {}
        for h in handlers:
            by_state.setdefault(h.state, []).append(h)
        # every screen opened on the firm's own objects: no password hash or token digest in its state
        own_paths = _paths(other.own_ids)
        for state, group in by_state.items():
            for h in group:
                if h.name == "on_load" and state.get_full_name() in own_paths:
                    serial += 1
                    answers = "\n".join(_call(page, sock, h.wire, {}, own_paths[state.get_full_name()], serial))
                    if any(secret in answers for secret in other.secrets):
                        problems.append(f"{h.key} at {own_paths[state.get_full_name()]} sent a password hash or token digest")
        paths = _paths(other.ids)
        before = _snapshot(engine)
        for state, group in by_state.items():
            path = paths.get(state.get_full_name(), "/")
            # the screen's page opened with the other firm's ids first, then every handler
            group = sorted(group, key=lambda h: h.name != "on_load")
            for h in group:
                serial += 1
                payload = {name: _value(name, annotation, other) for name, annotation in h.params}
                answers = _call(page, sock, h.wire, payload, path, serial)
                leaked = _leaks(answers, other)
                if leaked:
                    problems.append(f"{h.key} at {path} sent {leaked}")
            after = _snapshot(engine)
            changed = sorted(t for t in before if before[t] != after.get(t))
            if changed:
                problems.append(f"{state.__name__} at {path} ({', '.join(h.name for h in group)}) changed {changed}")
            before = after
        assert not problems, f"{email}:\n" + "\n".join(problems)
    finally:
        context.close()
        engine.dispose()
