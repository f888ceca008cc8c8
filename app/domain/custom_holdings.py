"""A custom holding's form (spec 002 s3/s5): read once from what was sent (the REST body, the
screen's modal) and checked with the specification's per-field texts. No I/O: the class's
usability and the name's uniqueness are the service's checks (app.services.custom_holdings)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping

from app.domain import validators as v
from app.domain.errors import INVALID_FORM
from app.domain.parsing import as_id

NAME_UNIQUE = v.UNIQUE.format(label="Name")  # 'Name should be unique.'
NAME_MAX = 200
FEE_LIMIT = 100
FIELDS = ("name", "class_id", "fee", "value")


@dataclass(frozen=True)
class CustomHoldingForm:
    """A custom holding as sent: its texts as typed (None when left out; a number sent as a number
    reads as its digits), the class as its id (None when none or no id), the portfolio (creating)
    or the holding (checking a saved one) it is about, and which of the four fields were sent (an
    update changes only those)."""
    name: str | None = None
    class_id: int | None = None
    fee: str | None = None
    value: str | None = None
    portfolio_id: int | None = None
    holding_id: int | None = None
    sent: frozenset[str] = frozenset(FIELDS)


@dataclass(frozen=True)
class CustomHoldingValues:
    """A checked form's values: the name trimmed, the fee (percent) and the value (dollars) as
    numbers (None where the field is in error, or the fee left empty)."""
    name: str
    class_id: int | None
    fee: Decimal | None
    value: Decimal | None


def _sent_text(value: object) -> str | None:
    if value is None:
        return None
    return format(value, "f") if isinstance(value, Decimal) and value.is_finite() else str(value)


def read_form(data: Mapping[str, object]) -> CustomHoldingForm:
    """The form from the keys sent (name, class_id, fee, value; investment_id, id)."""
    return CustomHoldingForm(
        name=None if data.get("name") is None else str(data.get("name")), class_id=as_id(data.get("class_id")), fee=_sent_text(data.get("fee")),
        value=_sent_text(data.get("value")), portfolio_id=as_id(data.get("investment_id")),
        holding_id=as_id(data.get("id")), sent=frozenset(key for key in FIELDS if key in data))


def clean(form: CustomHoldingForm) -> tuple[CustomHoldingValues, v.FieldErrors]:
    """The form's values and the per-field errors (spec 002 s5 texts)."""
    errors = v.FieldErrors()
    name = (form.name or "").strip()
    errors.check("name", v.required(name, "name"), v.max_length(name, NAME_MAX))
    errors.check("class_id", v.required_select(form.class_id, "class"))
    value = form.value
    errors.check("value", v.required(value, "value"), v.float_(value), v.positive(value), v.two_decimals(value))
    fee = form.fee
    errors.check("fee", v.float_(fee), v.positive(fee), v.two_decimals(fee), v.less_than(fee, FEE_LIMIT))
    return CustomHoldingValues(
        name=name, class_id=form.class_id,
        fee=None if "fee" in errors else v.parse_decimal(fee),
        value=None if "value" in errors else v.parse_decimal(value),
    ), errors


def failure_message(errors: Mapping[str, str]) -> str:
    """A refusal's text: the name's clash alone says so, anything else asks for valid data."""
    return NAME_UNIQUE if dict(errors) == {"name": NAME_UNIQUE} else INVALID_FORM
