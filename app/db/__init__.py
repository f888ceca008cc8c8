"""Database access: engine, sessions and the SQLModel tables (imported here so metadata is complete)."""
from app.db.engine import get_engine, session_scope, reset_engine  # noqa: F401
from app.db import tables  # noqa: F401
