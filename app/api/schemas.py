"""The shapes of the REST contract shared by every router: the envelope, lists and failures.

Success: {"success": true, "result": T}. Lists: result {"rows": [...], "totals": [{"count": n}]}.
Failure: {"success": false, "message": "<ErrorKind>: <text>", "errors": {field: text}?, "result": ...?}.

Payload models describe the fields a client may rely on; those whose services add more keys
than listed allow extra keys (extra="allow"), so declaring the schema never drops data.
"""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Annotated, Any, Generic, Optional, TypeVar, Union, get_type_hints

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model

from app.domain import wire

T = TypeVar("T")

# A service's typed value as its payload reads it (the one renderer, beside the wire names it reads).
rendered = wire.rendered

# Request field types. The services parse and validate these themselves, with the specification's
# texts, so the types are as loose as those texts need: an id is a number or its text, an amount a
# number or its text (a JSON number arrives as Decimal, never float), a date 'YYYY-MM-DD' text.
Id = Union[int, str]
Amount = Union[Decimal, str]
Flag = Union[bool, int, str]

# A response field read from a service's Decimal or date (payload_of's `types`, a model read from a
# service's value): the amount's digits ('1234.50', as rendered writes them), the day 'YYYY-MM-DD'.
AsText = Annotated[str, BeforeValidator(rendered)]


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON schema with its $defs written in place (it is embedded in other schemas)."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return walk(dict(defs[ref.rsplit("/", 1)[1]]))
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


def Sent(documented: Any, runtime: Any = Any) -> Any:  # noqa: N802 - used as a type
    """A field documented as `documented` (or null) but handed to the service as sent (checked
    here only as `runtime`): for the older forms whose services answer a wrong JSON type with the
    specification's own per-field text (a title of [1] is 'Please, enter title. ', a number as a
    title is its text), which a stricter parse here would replace with the generic 'invalid form'."""
    from typing import Annotated

    from pydantic import TypeAdapter, WithJsonSchema

    return Annotated[runtime, WithJsonSchema(_inlined(TypeAdapter(Optional[documented]).json_schema()))]


def RowsOf(row: type[BaseModel]) -> Any:  # noqa: N802 - used as a type
    """A form's list of rows: read here as a list of objects and handed to the service, which
    checks each row with the specification's per-row texts ('allocation_classes.0.max', ...);
    documented with the row's fields."""
    return Sent(list[row], Optional[list[dict[str, Any]]])


class Row(BaseModel):
    """A row of a form's list (documentation: the service reads the row)."""
    model_config = ConfigDict(extra="allow")


class Allocation(Row):
    """A row of a form's allocation to a class, type or industry group: its share and its band."""
    allocation: Optional[Amount] = Field(None, description="percent")
    min: Optional[Amount] = None
    max: Optional[Amount] = None


SentText = Sent(str)
SentId = Sent(Id)
SentAmount = Sent(Amount)


class Envelope(BaseModel, Generic[T]):
    success: bool = True
    result: T


class Count(BaseModel):
    count: int


class Page(BaseModel, Generic[T]):
    """A list: its rows and the totals the specification names ([{count}])."""
    rows: list[T]
    totals: list[Count]


class CountTotals(Page[T], Generic[T]):
    """The portfolios' lists: totals is one object {count} (spec 001 s7)."""
    totals: Count  # type: ignore[assignment]


class Rows(BaseModel, Generic[T]):
    rows: list[T]


class Open(BaseModel):
    """A payload whose listed fields are guaranteed; the service may add more."""
    model_config = ConfigDict(extra="allow")


class Counted(Open, Generic[T]):
    """A list answered with its count beside it ({rows, count}); a screen's list adds its own keys."""
    rows: list[T]
    count: int


def payload_of(name: str, source: type, *, descriptions: dict[str, str] | None = None,
               types: dict[str, Any] | None = None) -> type[BaseModel]:
    """The response model `name` of a service's dataclass: its fields in its order, each required
    (null where the dataclass allows None), so that the service's dataclass is the one place that
    lists them. `descriptions` documents fields; `types` replaces a field's type (a nested
    dataclass by its own payload)."""
    hints, descriptions, types = get_type_hints(source), descriptions or {}, types or {}
    fields: dict[str, Any] = {}
    for item in dataclasses.fields(source):
        described = Field(description=descriptions[item.name]) if item.name in descriptions else ...
        fields[item.name] = (types.get(item.name, hints[item.name]), described)
    unknown = (set(descriptions) | set(types)) - set(fields)
    if unknown:
        raise TypeError(f"{source.__name__} has no field {sorted(unknown)}")
    return create_model(name, **fields)


def path_id(text: str) -> int:
    """The id a path names, for a service that takes ids as numbers. Text that is no id (letters,
    zero, a sign, past the 32-bit ids) reads as 0, which names no row: the service still checks
    who asks first, then answers its own not found."""
    from app.domain.parsing import as_id

    return as_id(text) or 0


def query_number(text: str | None) -> int | None:
    """A whole number a query sent as text (a page's limit or offset), None when it sent none or
    no whole number (the service's default then)."""
    try:
        return int(text) if text not in (None, "") else None
    except ValueError:
        return None


class Body(BaseModel):
    """A request body: unknown keys are ignored."""
    model_config = ConfigDict(extra="ignore")

    def sent(self) -> dict[str, Any]:
        """The keys the client sent (by their wire names), as the service reads them."""
        return self.model_dump(exclude_unset=True, by_alias=True)


def _object_or_none(value: Any) -> Any:
    return value if isinstance(value, dict) else None


def Lenient(model: type[BaseModel]) -> Any:  # noqa: N802 - used as a type
    """A body the service reads as a form: left out, or not a JSON object, it is read as empty
    (so the service answers with its per-field texts)."""
    from typing import Annotated

    return Annotated[Optional[model], BeforeValidator(_object_or_none)]


def sent(body: Optional[BaseModel]) -> dict[str, Any]:
    """The keys the client sent (by their wire names); {} for no body."""
    return body.model_dump(exclude_unset=True, by_alias=True) if body is not None else {}


class Message(Open):
    message: str


class ErrorEnvelope(BaseModel):
    success: bool = Field(False, description="always false")
    message: str = Field(description="'<ErrorKind>: <text>'; a client shows the text after the first colon")
    errors: Optional[dict[str, Any]] = Field(None, description="per-field texts, where the failure names fields")
    result: Optional[Any] = Field(None, description="what the refusal still reports, where it has more to say (a "
                                                    "price file none of whose lines could be imported: result.rejected)")


ERROR_STATUSES = {
    "400": "Invalid input (ValidationError)",
    "401": "Not signed in or the session expired (AuthenticationError)",
    "403": "Not allowed for this user (PermissionError)",
    "404": "Not found, or not visible to this user (NotFoundError)",
    "405": "Method not allowed",
    "409": "Changed by someone else meanwhile, or still in use (ConflictError)",
    "429": "Too many attempts (TooManyRequestsError)",
    "503": "The database is not answering (ServiceUnavailable)",
}


def read_by_hand(*media: tuple[str, type[BaseModel]], required: bool = True) -> dict[str, Any]:
    """openapi_extra of an operation that reads its body itself (a multipart form whose missing
    file answers the specification's text, or JSON read leniently): documents the body it reads,
    one model per media type, so /api/openapi.json still describes what an integrator sends."""
    return {"requestBody": {"required": required, "content": {
        name: {"schema": _inlined(model.model_json_schema())} for name, model in media}}}


# ---- JSON query filters (the specification's `where`) --------------------------------------------
WHERE_INVALID = "The where filter is not valid"
W = TypeVar("W", bound=BaseModel)


def where_of(model: type[W], raw: Optional[str]) -> Optional[W]:
    """A `where` query parameter holding a JSON object, read into `model` (None when not sent); a
    malformed one is refused (400) rather than ignored."""
    from pydantic import ValidationError as PydanticError

    from app.domain.errors import ValidationError

    if raw in (None, ""):
        return None
    try:
        return model.model_validate_json(raw)
    except PydanticError:
        raise ValidationError(WHERE_INVALID, {"where": WHERE_INVALID}) from None
