"""End-to-end fixtures: the app built and started once per test session, driven by Playwright
in Debian's Chromium.

`app_server` starts `reflex run --env prod --single-port` on a free port against a fresh
database (its own PostgreSQL database when TEST_DATABASE_URL is set, else a SQLite file), a
fresh DATA_DIR and an SMTP sink, after `python -m app.cli setup` (schema + demo data).
The server log is tests/e2e/artifacts/app-server.log; a failing test leaves a screenshot
tests/e2e/artifacts/<test name>.png. Every test in this folder is marked `e2e`.

    def test_sign_in(page, login):
        login(page, "adviser@harbour.example.com")
        ...
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from tests._harness import ROOT, MailSink, ThrowawayDatabase, free_port

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
E2E_DIR = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# E2E_WORKDIR lets two checkouts or two runs build side by side without sharing a build folder.
REFLEX_WORKDIR = Path(os.environ.get("E2E_WORKDIR") or ROOT / ".tools" / "e2e")
START_TIMEOUT = 300  # seconds; the first start installs the frontend packages and builds
DEMO_PASSWORD = "Demo1234"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


# --- the app under test ----------------------------------------------------------------------
@dataclass
class AppServer:
    url: str
    mail: MailSink
    database_url: str
    data_dir: Path
    log_path: Path


def _bun_path() -> str:
    paths = [str(ROOT / ".tools" / "bun" / "node_modules" / ".bin"), str(Path(sys.executable).parent)]
    return os.pathsep.join(paths + [os.environ.get("PATH", "")])


def _log_tail(path: Path, lines: int = 60) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read(4096).decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="session")
def app_server() -> Iterator[AppServer]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / "app-server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    database = ThrowawayDatabase(os.environ.get("TEST_DATABASE_URL", "").strip() or None, prefix="wa_e2e")
    data_tmp = tempfile.TemporaryDirectory(prefix="wa_e2e_data_")
    mail = MailSink().start()
    process: subprocess.Popen | None = None
    worker: subprocess.Popen | None = None
    try:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=database.plain_url,
            DATA_DIR=data_tmp.name,
            SMTP_URL=mail.url,
            PUBLIC_URL=url,
            # embedded mode: in-process jobs and Reflex's own state manager; E2E_REDIS_URL runs the
            # app as in production instead (session states in Redis, jobs on an RQ worker)
            REDIS_URL=os.environ.get("E2E_REDIS_URL", ""),
            REFLEX_USE_SYSTEM_BUN="1",
            # Reflex's build folders of its own, so a developer's `reflex run` (which uses .web and
            # .states) keeps running undisturbed; kept between sessions so packages stay installed.
            REFLEX_WEB_WORKDIR=str(REFLEX_WORKDIR / "web"),
            REFLEX_STATES_WORKDIR=str(REFLEX_WORKDIR / "states"),
            PATH=_bun_path(),
            PYTHONUNBUFFERED="1",
            # each web process writes where its events' time went (bench load --profile reads it)
            WA_PROFILE_DIR=str(Path(data_tmp.name) / "profile"),
        )
        with open(log_path, "w") as log:
            log.write(f"$ python -m app.cli setup   (DATABASE_URL={database.plain_url})\n")
            log.flush()
            setup = subprocess.run(
                [sys.executable, "-m", "app.cli", "setup"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=600,
            )
        if setup.returncode != 0:
            pytest.fail(f"`python -m app.cli setup` failed; log {log_path}:\n{_log_tail(log_path)}", pytrace=False)

        if env["REDIS_URL"]:
            with open(log_path, "a") as log:
                worker = subprocess.Popen([sys.executable, "-m", "app.cli", "worker"], cwd=ROOT, env=env, stdout=log,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        command = [sys.executable, "-m", "reflex", "run", "--env", "prod", "--single-port", "--backend-port", str(port)]
        with open(log_path, "a") as log:
            log.write(f"\n$ {' '.join(command[1:])}\n")
            log.flush()
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )

        deadline = time.monotonic() + START_TIMEOUT
        ready = False
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(
                    f"the app exited with code {process.returncode} while starting; log {log_path}:\n{_log_tail(log_path)}",
                    pytrace=False,
                )
            try:
                status, body = _get(f"{url}/api/health")
                if status == 200 and '"success"' in body and _get(f"{url}/")[0] == 200:
                    ready = True
                    break
            except OSError:
                pass
            time.sleep(1)
        if not ready:
            pytest.fail(f"the app did not answer within {START_TIMEOUT}s; log {log_path}:\n{_log_tail(log_path)}", pytrace=False)

        yield AppServer(url=url, mail=mail, database_url=database.plain_url, data_dir=Path(data_tmp.name), log_path=log_path)
    finally:
        if process is not None:
            _stop(process)
        if worker is not None:
            _stop(worker)
        mail.stop()
        try:
            database.drop()
        finally:
            data_tmp.cleanup()


# --- Playwright (pytest-playwright fixtures, Debian's Chromium) ------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium (scripts/test does it)", pytrace=False)
    return {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def base_url(app_server: AppServer) -> str:
    return app_server.url


@pytest.fixture(scope="session")
def browser_context_args(app_server: AppServer) -> dict:
    return {"viewport": {"width": 1440, "height": 900}, "base_url": app_server.url}


# Toasts sit top-right, over the pages' own action buttons, and sonner holds a toast while the pointer
# rests on it: a click the test aims at a button under a toast would hit the toast and wait. The
# tests let clicks pass through toasts (they read toasts, never click them).
TOASTS_LET_CLICKS_THROUGH = """
document.addEventListener("DOMContentLoaded", () => {
  const style = document.createElement("style");
  style.textContent = "[data-sonner-toaster], [data-sonner-toaster] * { pointer-events: none !important; }";
  document.head.appendChild(style);
});
"""


@pytest.fixture(autouse=True)
def _toasts_let_clicks_through(request: pytest.FixtureRequest) -> None:
    if "page" in request.fixturenames:
        request.getfixturevalue("context").add_init_script(TOASTS_LET_CLICKS_THROUGH)


@pytest.fixture
def login() -> Callable[..., None]:
    """login(page, email, password="Demo1234"): signs in through /login and waits to leave it."""

    def _login(page, email: str, password: str = DEMO_PASSWORD) -> None:
        page.goto("/login")
        # The sign-in form may still be taking its state from the server (e.g. the previous
        # user's e-mail after a sign-out) when we type: type again until the fields hold our text.
        for _ in range(5):
            page.locator("#email").fill(email)
            page.locator("#password").fill(password)
            page.wait_for_timeout(200)
            if page.locator("#email").input_value() == email and page.locator("#password").input_value() == password:
                break
        page.locator("#signin").click()
        page.wait_for_url(lambda u: not urlsplit(u).path.rstrip("/").endswith("/login"), timeout=30_000)

    return _login


# --- screenshots of failures ------------------------------------------------------------------
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if report.when not in ("setup", "call") or not report.failed:
        return
    page = getattr(item, "funcargs", {}).get("page")
    if page is None or page.is_closed():
        return
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.name).strip("_")
    path = ARTIFACTS / f"{name}.png"
    try:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
        report.sections.append(("screenshot", str(path)))
    except Exception as exc:  # a screenshot must never hide the real failure
        report.sections.append(("screenshot", f"not taken: {exc}"))
