"""Fixtures for the whole suite.

Database: every test session works on its own throw-away database, migrated to head:
  - TEST_DATABASE_URL set (postgresql://user@host:port/any_db): a fresh database
    `wa_test_<hex>` is created on that server and dropped (WITH (FORCE)) at the end;
  - otherwise a SQLite file in a temporary folder.
Tests that touch the database request `db`, which empties every table after the test (services
commit, so a rollback per test is not possible).

Redis: `redis_url` skips the test unless TEST_REDIS_URL is set.
Mail: `smtp_sink` points the app's SMTP_URL at an in-process SMTP server for one test.
Markers: `postgres` tests are skipped unless TEST_DATABASE_URL is set; everything under
tests/e2e is marked `e2e` (see tests/e2e/conftest.py).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, settings as hypothesis_settings

from tests._harness import MailSink, ThrowawayDatabase

# Property-based tests: CI selects the "ci" profile (HYPOTHESIS_PROFILE=ci in .ci/run), which is
# derandomized (the same examples every run) and keeps no example database between runs; local
# runs keep hypothesis' random exploration.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True,
                                     suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "").strip()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if TEST_DATABASE_URL:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: set TEST_DATABASE_URL")
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's DATA_DIR for this session (files live under data_dir/files)."""
    from app.settings import settings

    path = tmp_path_factory.mktemp("data")
    previous = settings.data_dir
    settings.data_dir = path
    yield path
    settings.data_dir = previous


@pytest.fixture(scope="session")
def database_url(data_dir: Path) -> Iterator[str]:
    """URL of this session's database, migrated to head; the app's engine points at it."""
    from app.cli import migrate_database
    from app.db import get_engine, reset_engine

    database = ThrowawayDatabase(TEST_DATABASE_URL or None, prefix="wa_test")
    try:
        reset_engine(database.url)
        migrate_database()
        yield database.url
    finally:
        get_engine().dispose()
        database.drop()


def _forget_cached_models() -> None:
    """The engine's per-process model caches (keyed by model id and version): once the tables are
    emptied, the next test's models may get the same ids (SQLite reuses them), so a cached model
    of this test must not answer for them."""
    from app.domain.engine import clear_cache
    from app.services import engine_inputs

    with engine_inputs._model_lock:
        engine_inputs._model_cache.clear()
    clear_cache()


def _empty_all_tables(engine) -> None:
    from sqlalchemy import text
    from sqlmodel import SQLModel

    import app.db  # noqa: F401  (registers every table on the metadata)

    tables = [t for t in reversed(SQLModel.metadata.sorted_tables) if t.name != "alembic_version"]
    if engine.dialect.name == "sqlite":
        # Foreign keys off while emptying (cycles); the PRAGMA only works outside a transaction.
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
            try:
                for table in tables:
                    conn.execute(table.delete())
                conn.commit()
            finally:
                conn.rollback()
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
        return
    try:
        with engine.begin() as conn:
            for table in tables:
                conn.execute(table.delete())
    except Exception:
        # Cyclic foreign keys defeat a delete in dependency order; TRUNCATE ... CASCADE does not.
        names = ", ".join(f'"{t.name}"' for t in tables)
        with engine.begin() as conn:
            conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))


@pytest.fixture
def db(database_url: str, data_dir: Path):
    """The migrated test database, empty at the start of the test (yields the engine).

    Afterwards every row of every table (except alembic_version) is deleted and stored files
    are removed, so the next test starts from an empty database."""
    from app.db import get_engine
    import app.services.notice_documents  # noqa: F401  (plugged into the mail, as the app's processes do)

    engine = get_engine()
    yield engine
    _empty_all_tables(get_engine())
    _forget_cached_models()
    files = data_dir / "files"
    if files.exists():
        shutil.rmtree(files, ignore_errors=True)


@pytest.fixture
def smtp_sink() -> Iterator[MailSink]:
    """An SMTP server receiving the app's mail during this test.

    `.messages` lists what arrived (email.message.EmailMessage); `.wait_for(address, timeout=10)`
    returns the next message to that address; `.text(msg)` and `.links(msg)` read its body."""
    from app.settings import settings

    sink = MailSink().start()
    previous = settings.smtp_url
    settings.smtp_url = sink.url
    try:
        yield sink
    finally:
        settings.smtp_url = previous
        sink.stop()


@pytest.fixture
def redis_url() -> Iterator[str]:
    """TEST_REDIS_URL (skips the test when unset). The Redis database is flushed before and
    after the test, and the app's settings.redis_url points at it during the test."""
    if not TEST_REDIS_URL:
        pytest.skip("needs Redis: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/15)")
    import redis

    from app.settings import settings

    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    previous = settings.redis_url
    settings.redis_url = TEST_REDIS_URL
    try:
        yield TEST_REDIS_URL
    finally:
        settings.redis_url = previous
        client.flushdb()
        client.close()
