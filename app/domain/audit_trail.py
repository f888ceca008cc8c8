"""An audit event as the trail shows it (the screens, the REST list, the Excel file); the trail is
written and read by app.services.audit."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.domain.wire import Json

# A row's column values as the trail keeps them (JSON: amounts and days as text), by column.
Snapshot = dict[str, Json]


@dataclass(frozen=True)
class AuditEntry:
    """An event as the trail shows it: the action and the object's type with the screen's words for
    them, and the fields that changed (before and after, by column)."""
    id: int
    at: datetime
    actor_id: int | None
    actor_email: str | None
    firm_id: int | None
    action: str
    action_title: str
    object_type: str
    object_type_title: str
    object_id: int | None
    object_label: str | None
    before: Snapshot
    after: Snapshot
    ip: str | None
