"""The address form's rules (spec 002 s2 widgets, s5 shared validators and texts)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.domain import addresses as a

SYDNEY = {"propertyName": " Harbour House ", "unitNumber": "3", "streetNumber": "12A", "streetName": "George Street",
          "suburb": "Sydney", "state": "nsw", "postcode": "2000", "country": ""}


def test_an_empty_address_is_valid_and_empty():
    for raw in (None, {}, {key: "" for key in a.KEYS}, {"suburb": "   "}):
        address, errors = a.clean_address(raw)
        assert errors.ok and address.is_empty and address.lines() == []


def test_an_australian_address_is_trimmed_with_its_state_code_and_country():
    address, errors = a.clean_address(SYDNEY)
    assert errors.ok
    assert address == a.Address(property_name="Harbour House", unit_number="3", street_number="12A",
                                 street_name="George Street", suburb="Sydney", state="NSW", postcode="2000",
                                 country="Australia")
    assert address.lines() == ["Harbour House", "3/12A George Street", "Sydney NSW 2000"]
    assert address.as_form()["streetName"] == "George Street"


def test_a_partial_address_names_what_is_missing_in_the_specifications_texts():
    _, errors = a.clean_address({"streetNumber": "12"})
    assert errors == {
        "address.streetName": "Please, enter street name. ",
        "address.suburb": "Please, enter suburb. ",
        "address.state": "Please, select state. ",
        "address.postcode": "Please, enter postcode. ",
    }


@pytest.mark.parametrize("field,value,text", [
    ("streetNumber", "12#", "Please, enter a valid street number (e.g 12D, 12345). "),
    ("unitNumber", "3/4", "Please, enter a valid street number (e.g 12D, 12345). "),
    ("streetName", "George Strasse", "Please, enter a valid street type. "),
    ("postcode", "200", "Length must be exactly 4 characters. "),
    ("postcode", "20a0", "Please, enter a valid number. "),
    ("state", "Sydney", "Please, enter a valid value. "),
    ("suburb", "x" * 101, "Max length should be 100 characters. "),
])
def test_bad_parts_get_the_specifications_text(field, value, text):
    _, errors = a.clean_address({**SYDNEY, field: value})
    assert errors == {f"address.{field}": text}


def test_street_types_are_read_from_the_end_of_the_street_name_in_any_case():
    for street in ("The Esplanade", "Pitt st", "Old South Head Rd.", "Broadway"):
        assert a.clean_address({**SYDNEY, "streetName": street})[1].ok, street


def test_outside_australia_state_and_postcode_are_free():
    address, errors = a.clean_address({"streetNumber": "10", "streetName": "Queen Street", "suburb": "Auckland Central",
                                       "postcode": "1010", "country": "New Zealand"})
    assert errors.ok
    assert address.lines() == ["10 Queen Street", "Auckland Central 1010", "New Zealand"]


def test_a_value_that_is_not_text_is_refused():
    assert a.clean_address({**SYDNEY, "postcode": 2000})[1] == {"address.postcode": "Please, enter a valid value. "}
    assert a.clean_address(["George Street"])[1] == {"address": "Please, enter a valid value. "}


def test_rows_keep_the_address_in_their_columns():
    address, _ = a.clean_address(SYDNEY)
    row = SimpleNamespace()
    a.apply_to(row, address)
    assert row.address_street_name == "George Street" and row.address_postcode == "2000"
    assert a.of_row(row) == address
    a.apply_to(row, a.EMPTY)
    assert a.of_row(row).is_empty
