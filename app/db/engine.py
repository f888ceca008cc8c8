from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

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


@contextmanager
def session_scope() -> Iterator[Session]:
    """One unit of work: commits on success, rolls back everything on any error."""
    session = Session(get_engine(), expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
