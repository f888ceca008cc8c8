"""The audit trail as an Excel workbook: one row per event, newest first, times in the browser's
offset; before and after as 'Field: old -> new' lines in the screens' words. Built from the rows
the service reads."""
from __future__ import annotations

from datetime import datetime
from typing import Iterable

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill

from app.domain.audit_trail import AuditEntry
from app.domain.audit_words import change_lines, object_words
from app.domain.timezones import file_day, local_time
from app.exports.xlsx_stream import with_rows
HEADER = ("When", "Who", "Action", "Object", "Changes", "From")
WIDTHS = (18, 34, 28, 40, 80, 16)


def changes_text(e: AuditEntry) -> str:
    """An event's changes, one line per field in the screens' words (app.domain.audit_words):
    'Phone: empty -> 02 9000 1234' (only an after: 'Kind: Desktop Broker Trade File')."""
    return "\n".join(change_lines(e.action, e.object_type, e.before, e.after))


def object_text(e: AuditEntry) -> str:
    """'Portfolio: Rose Bay Family Trust' (the type alone when the event names no object)."""
    label = object_words(e.object_label or "")
    return f"{e.object_type_title}: {label}" if label else e.object_type_title


def filename(now: datetime, offset_minutes: int) -> str:
    return f"Audit Trail - {file_day(now, offset_minutes)}.xlsx"


def build(events: Iterable[AuditEntry], offset_minutes: int) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Audit trail"
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="E8EEF7")
    for col, (title, width) in enumerate(zip(HEADER, WIDTHS), start=1):
        cell = ws.cell(row=1, column=col, value=title)
        cell.font, cell.fill = bold, fill
        ws.column_dimensions[cell.column_letter].width = width
    ws.freeze_panes = "A2"

    def rows():
        for e in events:
            at = local_time(e.at, offset_minutes)
            yield (f"{at:%d/%m/%Y %H:%M:%S}", e.actor_email or "", e.action_title, object_text(e),
                   changes_text(e), e.ip or "")

    return with_rows(wb, rows(), first_row=2, columns=len(HEADER))
