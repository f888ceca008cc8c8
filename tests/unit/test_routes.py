import pytest

from app.ui import routes
from app.ui.toolkit.lists import visible_pages


@pytest.mark.parametrize(
    "path,name,params",
    [
        ("/", "home", {}),
        ("/firms", "firms.list", {}),
        ("/firms/new", "firms.new", {}),
        ("/firms/12", "firms.view", {"id": "12"}),
        ("/firms/12/edit", "firms.edit", {"id": "12"}),
        ("/firms/12/clients/", "firms.clients", {"id": "12"}),
        ("/advisers/7/clients", "advisers.clients", {"id": "7"}),
        ("/activation/abc-DEF_1", "activation", {"token": "abc-DEF_1"}),
        ("/users/3?x=1", "users.view", {"id": "3"}),
        ("/nowhere/at/all", None, {}),
    ],
)
def test_match(path, name, params):
    assert routes.match(path) == (name, params)


def test_url_builds_paths_and_refuses_missing_params():
    assert routes.url("firms.edit", id=5) == "/firms/5/edit"
    assert routes.url("clients.list", query={"status": "active"}) == "/clients?status=active"
    with pytest.raises(ValueError):
        routes.url("firms.view")


@pytest.mark.parametrize(
    "page,pages,expected",
    [(1, 1, [1]), (1, 3, [1, 2, 3]), (1, 10, [1, 2, 3, 4, 5, 6]), (5, 10, [2, 3, 4, 5, 6, 7]), (10, 10, [5, 6, 7, 8, 9, 10]), (1, 0, [1])],
)
def test_visible_pages_shows_at_most_six(page, pages, expected):
    assert visible_pages(page, pages) == expected
