"""The address form (spec 002 s2 widgets, s3 "address"): property name, unit, street number, street
name, suburb, state, postcode and country, for clients and other users, firms and portfolios'
holders. Checked with the shared street validators and texts (spec 002 s5).

An address is either empty (nothing typed: valid) or names at least a street, a suburb and, in
Australia, a state and a four-digit postcode. The street type the specification checks is the
last word of the street name ("George Street", "The Esplanade"), one of
`validators.STREET_TYPES`. An empty country is Australia.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from app.domain import validators as v
from app.domain.wire import wire

AUSTRALIA = "Australia"
# state or territory code -> name (the state select in Australia)
AU_STATES: dict[str, str] = {
    "ACT": "Australian Capital Territory", "NSW": "New South Wales", "NT": "Northern Territory",
    "QLD": "Queensland", "SA": "South Australia", "TAS": "Tasmania", "VIC": "Victoria", "WA": "Western Australia",
}
POSTCODE_LENGTH = 4  # Australian postcodes

# field (the dataclass) -> (key in forms and payloads, label in the texts, longest value)
FORM_KEYS: dict[str, tuple[str, str, int]] = {
    "property_name": ("propertyName", "property name", 200),
    "unit_number": ("unitNumber", "unit number", 20),
    "street_number": ("streetNumber", "street number", 20),
    "street_name": ("streetName", "street name", 200),
    "suburb": ("suburb", "suburb", 100),
    "state": ("state", "state", 60),
    "postcode": ("postcode", "postcode", 10),
    "country": ("country", "country", 100),
}
KEYS = tuple(key for key, _, _ in FORM_KEYS.values())
PREFIX = "address"  # field errors are named "address.<key>"


@dataclass(frozen=True)
class Address:
    """An address; a payload names its fields as the form does (app.domain.wire)."""
    property_name: str | None = field(default=None, metadata=wire("propertyName"))
    unit_number: str | None = field(default=None, metadata=wire("unitNumber"))
    street_number: str | None = field(default=None, metadata=wire("streetNumber"))
    street_name: str | None = field(default=None, metadata=wire("streetName"))
    suburb: str | None = None
    state: str | None = None
    postcode: str | None = None
    country: str | None = None

    @property
    def is_empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))

    @property
    def in_australia(self) -> bool:
        return (self.country or AUSTRALIA).strip().lower() == AUSTRALIA.lower()

    def as_form(self) -> dict[str, str | None]:
        """The payload's and the form's shape: {propertyName, unitNumber, ...}."""
        return {FORM_KEYS[f.name][0]: getattr(self, f.name) for f in fields(self)}

    def columns(self) -> dict[str, str | None]:
        """The table columns (address_<field>) and their values."""
        return {f"address_{f.name}": getattr(self, f.name) for f in fields(self)}

    def street_line(self) -> str:
        """'3/12 George Street' (unit / number street)."""
        number = "/".join(part for part in (self.unit_number, self.street_number) if part)
        return " ".join(part for part in (number, self.street_name) if part)

    def lines(self) -> list[str]:
        """The address as it is printed on a letter: property, street, 'Suburb STATE 2000', country
        (left out in Australia). Empty for an empty address."""
        if self.is_empty:
            return []
        locality = " ".join(part for part in (self.suburb, self.state, self.postcode) if part)
        country = None if self.in_australia else self.country
        return [line for line in (self.property_name, self.street_line(), locality, country) if line]

    def one_line(self) -> str:
        return ", ".join(self.lines())


EMPTY = Address()


def of_row(row: Any) -> Address:
    """The address stored on a user, firm or portfolio row (its address_* columns)."""
    return Address(**{name: getattr(row, f"address_{name}", None) or None for name in FORM_KEYS})


def apply_to(row: Any, address: Address) -> None:
    """Store the address on a row's address_* columns."""
    for column, value in address.columns().items():
        setattr(row, column, value)


def error_key(key: str) -> str:
    """The field error's name for a form key: 'address.streetName'."""
    return f"{PREFIX}.{key}"


def _street_type_of(street_name: str) -> str:
    return street_name.split()[-1].rstrip(".")


def clean_address(raw: Any) -> tuple[Address, v.FieldErrors]:
    """The address from the form's or the payload's {propertyName, ...} (missing keys are empty),
    trimmed, with an error per field named 'address.<key>' in the specification's texts."""
    errors = v.FieldErrors()
    if raw is None:
        return EMPTY, errors
    if not isinstance(raw, Mapping):
        errors.check(PREFIX, v.DEFAULT)
        return EMPTY, errors
    values: dict[str, str | None] = {}
    for name, (key, _label, longest) in FORM_KEYS.items():
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            errors.check(error_key(key), v.DEFAULT)
            value = None
        text = (value or "").strip()
        errors.check(error_key(key), v.max_length(text, longest))
        values[name] = text or None
    address = Address(**values)
    if address.is_empty:
        return EMPTY, errors

    def check(name: str, *results: str | None) -> None:
        errors.check(error_key(FORM_KEYS[name][0]), *results)

    check("unit_number", v.street_number(address.unit_number))
    check("street_number", v.street_number(address.street_number))
    check("street_name", v.required(address.street_name, "street name"),
          v.street_type(_street_type_of(address.street_name)) if address.street_name else None)
    check("suburb", v.required(address.suburb, "suburb"))
    if address.in_australia:
        state = (address.state or "").upper()
        check("state", v.required_select(address.state, "state"),
              None if state in AU_STATES else v.DEFAULT)
        check("postcode", v.required(address.postcode, "postcode"), v.only_number(address.postcode),
              v.exact_length(address.postcode, POSTCODE_LENGTH))
        address = replace(address, state=state or None, country=AUSTRALIA)
    return address, errors


def is_address_error(field: str) -> bool:
    return field == PREFIX or field.startswith(PREFIX + ".")
