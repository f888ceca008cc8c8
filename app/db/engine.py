from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, create_engine

from app.domain.errors import DATABASE_UNAVAILABLE, ServiceUnavailable
from app.settings import settings

_engine: Engine | None = None


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def get_engine() -> Engine:
    global _engine
    if _engine is None:
        _engine = _make_engine(settings.db_url)
    return _engine


def reset_engine(url: str | None = None) -> Engine:
    """Point the app at another database (tests, CLI --database)."""
    global _engine
    if _engine is not None:
        _engine.dispose()
    if url is not None:
        settings.database_url = url
    _engine = _make_engine(settings.db_url)
    return _engine


# PostgreSQL error classes that mean the server is out of reach (not a bad statement): connection
# exceptions, and the server shutting down or not accepting connections yet.
_UNREACHABLE_STATES = ("08", "57P01", "57P02", "57P03")


def database_unreachable(exc: BaseException) -> bool:
    """The error is PostgreSQL being out of reach (restarting, network gone), not the work's own fault."""
    if not isinstance(exc, DBAPIError):
        return False
    orig = exc.orig
    if not type(orig).__module__.startswith("psycopg"):
        return False  # SQLite's OperationalError ('database is locked') is no outage
    state = getattr(orig, "sqlstate", None)
    return exc.connection_invalidated or state is None or state.startswith(_UNREACHABLE_STATES)


@contextmanager
def session_scope() -> Iterator[Session]:
    """One unit of work: commits on success, rolls back everything on any error. When the database
    is out of reach the work is refused with ServiceUnavailable (the user's text: nothing saved, try
    again); the pool checks connections before use, so the next unit of work after the outage runs."""
    session = Session(get_engine(), expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException as exc:
        try:
            session.rollback()
        except DBAPIError:
            pass  # the connection is gone: nothing to roll back
        if isinstance(exc, DBAPIError) and database_unreachable(exc):
            raise ServiceUnavailable(DATABASE_UNAVAILABLE) from exc
        raise
    finally:
        session.close()
