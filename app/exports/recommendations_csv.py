"""CSV downloads of a model's long-term and short-term recommendations.

The columns are those of the upload files (code, action, comment; short-term also price and yield),
so a downloaded file can be edited and uploaded again; name and the time of the last change (in
the browser's offset) are extra columns the upload ignores."""
from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any, Iterable, Mapping
from urllib.parse import quote

from app.domain.recommendations import Kind, formula_guard
from app.domain.timezones import file_day, local_moment_text
from app.exports.file_names import safe_name

TITLES = {Kind.LONG_TERM: "Long Term Recommendations", Kind.SHORT_TERM: "Short Term Recommendations"}


def filename(kind: Kind, model_name: str, now: datetime, offset_minutes: int) -> str:
    """'<model> - Long Term Recommendations - 31-12-2025.csv' (the date in the browser's offset)."""
    return f"{safe_name(model_name, 'Model')} - {TITLES[kind]} - {file_day(now, offset_minutes)}.csv"


def content_disposition(name: str) -> str:
    """attachment with an ASCII fallback name and the exact UTF-8 name (RFC 6266)."""
    ascii_name = name.encode("ascii", "replace").decode("ascii").replace("?", "_").replace('"', "'")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"


def build(kind: Kind, rows: Iterable[Mapping[str, Any]], offset_minutes: int) -> bytes:
    """The CSV file (UTF-8 with a byte-order mark, so Excel reads the names right)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    if kind is Kind.LONG_TERM:
        writer.writerow(["code", "name", "action", "comment", "updated"])
        for row in rows:
            writer.writerow([row["code"], formula_guard(row["name"]), row["action"], formula_guard(row["comment"] or ""),
                             local_moment_text(row["updated_at"], offset_minutes)])
    else:
        writer.writerow(["code", "name", "action", "comment", "price", "yield", "updated"])
        for row in rows:
            writer.writerow([row["code"], formula_guard(row["name"]), row["action"], formula_guard(row["comment"] or ""),
                             row["price"] or "", row["yield"] or "", local_moment_text(row["updated_at"], offset_minutes)])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
