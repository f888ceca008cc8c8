"""Fixtures of the REST API tests.

`client`: the one TestClient fixture of these tests (built by `tests.factories.api_client`). By
default each test runs on the `db` fixture (empty at the start, emptied afterwards) and a server
error is raised in the test instead of being turned into a 500.

A module whose tests share one module-scoped world (built on `database_url` and emptied by the
module itself) says so at module level, and may ask to see server errors as 500 responses:

    API_CLIENT = {"per_test_db": False, "raise_server_exceptions": False}

Acting as a user of any role is `tests.factories.headers(user)` (a session token inserted
directly); the real `POST /api/signin` is used only where sign-in itself is under test.
Monkeypatches a test module needs (e.g. in-process jobs) stay in that module.
"""
from __future__ import annotations

import pytest

from tests import factories as f

_DEFAULTS = {"per_test_db": True, "raise_server_exceptions": True}


@pytest.fixture
def client(request: pytest.FixtureRequest, database_url: str):
    options = {**_DEFAULTS, **getattr(request.module, "API_CLIENT", {})}
    if options["per_test_db"]:
        request.getfixturevalue("db")
    return f.api_client(raise_server_exceptions=options["raise_server_exceptions"])
