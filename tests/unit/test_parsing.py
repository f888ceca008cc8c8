"""Ids and flags as every door reads them."""
import pytest

from app.domain.parsing import as_bool, as_id


@pytest.mark.parametrize("value, parsed", [
    (7, 7), ("7", 7), (" 12 ", 12), (7.0, 7), ({"id": "9", "name": "x"}, 9), (2**31 - 1, 2**31 - 1),
    (0, None), (-3, None), ("-3", None), (2**31, None), ("99999999999", None), (7.5, None), ("7.0", None),
    ("", None), (None, None), (True, None), ("١٢", None), ("abc", None), ({}, None),
])
def test_as_id(value, parsed):
    assert as_id(value) == parsed


@pytest.mark.parametrize("value, parsed", [
    (True, True), ("true", True), ("on", True), ("1", True), (1, True), ("yes", True),
    (False, False), ("false", False), ("0", False), (0, False), ("off", False),
])
def test_as_bool(value, parsed):
    assert as_bool(value) is parsed


def test_as_bool_default_for_empty():
    assert as_bool("", default=True) is True and as_bool(None) is False
