"""What the audit trail shows: an entry as a row, and a filter's choices."""
from __future__ import annotations

import dataclasses

from app.domain.audit_trail import AuditEntry
from app.exports.audit_xlsx import changes_text, object_text
from app.services.audit import Choice
from app.ui.toolkit.rows import Option


ALL = "all"


@dataclasses.dataclass
class AuditRow:
    id: int = 0
    at: str = ""
    who: str = ""
    action: str = ""
    action_title: str = ""
    object: str = ""
    changes: str = ""
    ip: str = ""


def audit_row(e: AuditEntry) -> AuditRow:
    return AuditRow(id=e.id, at=e.at.isoformat(), who=e.actor_email or "", action=e.action,
                    action_title=e.action_title, object=object_text(e), changes=changes_text(e), ip=e.ip or "")


def choices_of(first: str, options: tuple[Choice, ...]) -> list[Option]:
    return [Option(ALL, first)] + [Option(o.value, o.label) for o in options]
