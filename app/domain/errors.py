"""Typed domain errors carrying the exact text the user sees.

The API renders them as {"success": false, "message": "<Kind>: <text>"} with `status`;
the UI shows the text (and `fields`, per-field texts, under the form's fields). A refusal that still
has something to report (a price file none of whose lines could be imported: its rejected lines)
carries it as `result`, which the API sends along.
"""
from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Subclasses name their kind and HTTP status in the class line:
    `class NotFound(DomainError, kind="NotFoundError", status=404): ...`."""

    kind = "Error"
    status = 400

    def __init_subclass__(cls, *, kind: str | None = None, status: int | None = None, **rest: Any) -> None:
        super().__init_subclass__(**rest)
        if kind is not None:
            cls.kind = kind
        if status is not None:
            cls.status = status

    def __init__(self, message: str, fields: dict[str, str] | None = None, result: Any = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        self.result = result

    def __str__(self) -> str:
        return self.message


class ValidationError(DomainError, kind="ValidationError", status=400): ...
class AuthenticationError(DomainError, kind="AuthenticationError", status=401): ...
class PermissionDenied(DomainError, kind="PermissionError", status=403): ...
class NotFound(DomainError, kind="NotFoundError", status=404): ...
class Conflict(DomainError, kind="ConflictError", status=409): ...
class ServiceUnavailable(DomainError, kind="ServiceUnavailable", status=503): ...
class TooManyRequests(DomainError, kind="TooManyRequestsError", status=429): ...


def not_found(what: str) -> str:
    """The text of a 404 for a record of the kind `what`: "Asset" -> "Asset not found"."""
    return f"{what} not found"


INVALID_FORM = "Please, fill all required fields with valid data"
GENERIC = "Sorry, something went wrong..."
DATABASE_UNAVAILABLE = "The database is not answering. Nothing was saved; please try again in a moment."
