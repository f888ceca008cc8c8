"""The Alembic migrations match the SQLModel tables and run both ways (on SQLite and PostgreSQL)."""
from __future__ import annotations

import os

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect
from sqlmodel import SQLModel

import app.db  # noqa: F401  (registers every table on the metadata)
from app.cli import _alembic_config, migrate_database
from tests._harness import ThrowawayDatabase


def _drift(connection) -> list:
    context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": True})
    return compare_metadata(context, SQLModel.metadata)


def _app_tables(engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def _head() -> str:
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def test_test_database_has_no_drift(db):
    migrate_database()  # already at head: a second run is a no-op
    with db.connect() as conn:
        assert _drift(conn) == []
        assert MigrationContext.configure(conn).get_current_revision() == _head()
    assert _app_tables(db) == set(SQLModel.metadata.tables)


def test_single_head():
    assert len(ScriptDirectory.from_config(_alembic_config()).get_heads()) == 1


@pytest.fixture
def scratch_engine():
    """A separate empty database on the same kind of server as the test database."""
    database = ThrowawayDatabase(os.environ.get("TEST_DATABASE_URL", "").strip() or None, prefix="wa_mig")
    engine = create_engine(database.url)
    try:
        yield engine
    finally:
        engine.dispose()
        database.drop()


def _run(engine, action, revision: str) -> None:
    with engine.begin() as connection:
        cfg = _alembic_config()
        cfg.attributes["connection"] = connection
        action(cfg, revision)


def test_downgrade_to_base_then_upgrade_to_head(scratch_engine):
    _run(scratch_engine, command.upgrade, "head")
    assert _app_tables(scratch_engine) == set(SQLModel.metadata.tables)

    _run(scratch_engine, command.downgrade, "base")
    assert _app_tables(scratch_engine) == set()
    with scratch_engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() is None

    _run(scratch_engine, command.upgrade, "head")
    with scratch_engine.connect() as conn:
        assert _drift(conn) == []
        assert MigrationContext.configure(conn).get_current_revision() == _head()


def test_every_step_goes_down_and_up_again(scratch_engine):
    """Walk the history one revision at a time: each downgrade undoes its upgrade."""
    revisions = [r.revision for r in reversed(list(ScriptDirectory.from_config(_alembic_config()).walk_revisions()))]
    for revision in revisions:
        _run(scratch_engine, command.upgrade, revision)
        before = _app_tables(scratch_engine)
        _run(scratch_engine, command.downgrade, "-1")
        _run(scratch_engine, command.upgrade, revision)
        assert _app_tables(scratch_engine) == before
    with scratch_engine.connect() as conn:
        assert _drift(conn) == []
