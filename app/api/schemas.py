"""The shapes of the REST contract shared by every router: the envelope, lists and failures.

Success: {"success": true, "result": T}. Lists: result {"rows": [...], "totals": [{"count": n}]}.
Failure: {"success": false, "message": "<ErrorKind>: <text>", "errors": {field: text}?}.

Payload models describe the fields a client may rely on; those whose services add more keys
than listed allow extra keys (extra="allow"), so declaring the schema never drops data.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Generic, Optional, TypeVar, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

T = TypeVar("T")

# Request field types. The services parse and validate these themselves, with the specification's
# texts, so the types are as loose as those texts need: an id is a number or its text, an amount a
# number or its text (a JSON number arrives as Decimal, never float), a date 'YYYY-MM-DD' text.
Id = Union[int, str]
Amount = Union[Decimal, str]
Flag = Union[bool, int, str]


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


class Open(BaseModel):
    """A payload whose listed fields are guaranteed; the service may add more."""
    model_config = ConfigDict(extra="allow")


class Message(Open):
    message: str


class ErrorEnvelope(BaseModel):
    success: bool = Field(False, description="always false")
    message: str = Field(description="'<ErrorKind>: <text>'; a client shows the text after the first colon")
    errors: Optional[dict[str, Any]] = Field(None, description="per-field texts, where the failure names fields")


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
