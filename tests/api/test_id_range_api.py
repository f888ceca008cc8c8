"""A path id that no row can have (beyond a 32-bit id, zero, not a number) is "not found", with the
resource's own text: it never reaches the database as a value PostgreSQL refuses (a 500)."""
from __future__ import annotations

import pytest

from tests import factories as f

BEYOND = str(2**31)  # one past the largest id a row can hold
HUGE = str(2**40)

NOT_FOUND = {
    "/api/firms/{id}": "NotFoundError: Firm not found",
    "/api/users/{id}": "NotFoundError: User not found",
    "/api/models/{id}": "NotFoundError: Model not found",
    "/api/industry-groups/{id}": "NotFoundError: Industry group not found",
    "/api/investments/{id}": "NotFoundError: Portfolio not found",
    "/api/assets/{id}": "NotFoundError: Asset not found",
}


@pytest.fixture
def world(db):
    return f.make_world()


@pytest.mark.parametrize("path", sorted(NOT_FOUND))
@pytest.mark.parametrize("bad_id", [BEYOND, HUGE, "0", "abc"])
def test_an_id_no_row_can_have_is_not_found(client, world, path, bad_id):
    response = client.get(path.format(id=bad_id), headers=f.headers(world.superuser))
    assert f.failure(response, 404)["message"] == NOT_FOUND[path]
