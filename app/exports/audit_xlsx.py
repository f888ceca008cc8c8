"""The audit trail as an Excel workbook: one row per event, newest first, times in the browser's
offset; before and after as 'field: old -> new' lines. Built from the rows the service reads."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Iterable, Mapping

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill

from app.domain.timezones import file_day, local_time
from app.exports.xlsx_stream import with_rows

HEADER = ("When", "Who", "Action", "Object", "Changes", "From")
WIDTHS = (18, 34, 28, 40, 80, 16)


def _value(value: Any) -> str:
    if value is None or value == "":
        return "empty"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def changes_text(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """One line per field: 'phone: empty -> 02 9000 1234' (only after: 'kind: desktop_broker')."""
    lines = []
    for key in sorted(set(before) | set(after)):
        if key in before:
            lines.append(f"{key}: {_value(before.get(key))} -> {_value(after.get(key))}")
        else:
            lines.append(f"{key}: {_value(after.get(key))}")
    return "\n".join(lines)


def filename(now: datetime, offset_minutes: int) -> str:
    return f"Audit Trail - {file_day(now, offset_minutes)}.xlsx"


def build(events: Iterable[Mapping[str, Any]], offset_minutes: int) -> bytes:
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
            at = local_time(datetime.fromisoformat(e["at"]), offset_minutes)
            label = e.get("object_label") or ""
            obj = f"{e['object_type_title']} {label}".strip() if label else e["object_type_title"]
            yield (f"{at:%d/%m/%Y %H:%M:%S}", e.get("actor_email") or "", e["action_title"], obj,
                   changes_text(e.get("before") or {}, e.get("after") or {}), e.get("ip") or "")

    return with_rows(wb, rows(), first_row=2, columns=len(HEADER))
