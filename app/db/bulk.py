"""Fast multi-row writes for bulk calculation: PostgreSQL COPY (binary-safe text format through
psycopg 3) when the database is PostgreSQL, an executemany INSERT otherwise. Rows are dicts of
column name -> Python value (Decimal, datetime, str, bool, int, None)."""
from __future__ import annotations

import threading
from typing import Any, Callable, Iterable, Sequence

from sqlalchemy import Integer, Table, any_, insert, literal, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlmodel import Session


def is_postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


SHORT_ID_LIST = 100


def among(session: Session, column: Any, ids: Iterable[int]) -> Any:
    """`column IN ids`; on PostgreSQL, a long list goes as one array parameter (`= ANY`), which
    the driver neither splits nor rewrites per id (a firm's 10,000 portfolios)."""
    values = sorted(set(ids))
    if len(values) > SHORT_ID_LIST and is_postgres(session):
        return column == any_(literal(values, ARRAY(Integer)))
    return column.in_(values)


def _table(model: Any) -> Table:
    return model.__table__ if hasattr(model, "__table__") else model


def reserve_ids(session: Session, model: Any, count: int) -> list[int]:
    """`count` fresh primary keys for `model`'s table (PostgreSQL: from its sequence; SQLite:
    after the current maximum - callers hold the write lock SQLite takes on first write)."""
    if count <= 0:
        return []
    table = _table(model)
    if is_postgres(session):
        sequence = session.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"), {"t": table.name}).scalar_one()
        return list(session.execute(text("SELECT nextval(:s) FROM generate_series(1, :n)"),
                                    {"s": sequence, "n": count}).scalars())
    start = session.execute(text(f'SELECT COALESCE(MAX(id), 0) FROM "{table.name}"')).scalar_one()
    return list(range(start + 1, start + 1 + count))


def copy_rows(session: Session, model: Any, rows: Sequence[dict[str, Any]] | Sequence[tuple],
              columns: Iterable[str] | None = None) -> int:
    """Writes `rows` into `model`'s table in the session's transaction; returns the row count.
    Rows are dicts, or tuples in the order of `columns` (no dict per row: placing a broker file
    writes tens of thousands)."""
    if not rows:
        return 0
    table = _table(model)
    names = list(columns) if columns is not None else list(rows[0].keys())
    as_tuples = isinstance(rows[0], tuple)
    if as_tuples and columns is None:
        raise ValueError("tuple rows need their columns")
    if is_postgres(session):
        raw = session.connection().connection.driver_connection  # psycopg.Connection
        quoted = ", ".join(f'"{n}"' for n in names)
        with raw.cursor() as cur:
            with cur.copy(f'COPY "{table.name}" ({quoted}) FROM STDIN') as copy:
                if as_tuples:
                    for row in rows:
                        copy.write_row(row)
                else:
                    for row in rows:
                        copy.write_row(tuple(map(row.get, names)))
        return len(rows)
    values = [dict(zip(names, row)) for row in rows] if as_tuples else [{n: row.get(n) for n in names} for row in rows]
    session.execute(insert(table), values)
    return len(rows)


class Background:
    """Runs `work` (bulk writes through the session's connection) on a thread while the caller goes
    on with work that does not touch the session, such as writing a file: PostgreSQL processes the
    rows (indexes, foreign-key checks) on its own core meanwhile. `join` waits and raises what the
    work raised. The session must not be used by the caller until `join` returns."""

    def __init__(self, work: Callable[[], None]) -> None:
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(work,), name="bulk-writes", daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as error:  # handed to the caller's thread by join
            self._error = error

    def join(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error
