"""The doors that need no access check, each with the reason. The generated access-control tests
(tests/api/test_access_matrix.py over REST, tests/e2e/test_handler_access_e2e.py over the Reflex
websocket) read this list: every other route and public event handler must refuse another firm's
ids and forbidden actions, and change nothing."""
from __future__ import annotations

# "METHOD /api/path" -> why anyone (or any signed-in user) may call it
REST: dict[str, str] = {}

# "StateClass.handler" -> why it needs no check
HANDLERS: dict[str, str] = {}
