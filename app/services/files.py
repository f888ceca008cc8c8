"""Stored files (logos, photos, signatures). Files live under DATA_DIR/files with random keys;
the key is unguessable, so an <img> can load it from /api/files/{key} without a header."""
from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any, Mapping

from app.domain import validators
from app.domain.errors import NotFound, ValidationError, not_found
from app.settings import settings

FILE_NOT_FOUND = not_found("File")
_KEY = re.compile(r"^[a-f0-9]{32}\.(png|jpg|gif|webp|bmp)$")
CONTENT_TYPES = {"png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "bmp": "image/bmp"}


def check_image(content_type: str | None, data: bytes, field: str = "file") -> None:
    """Refuse anything that is not a real image under the size limit, before anything is stored."""
    error = validators.image_upload(content_type, data)
    if error:
        raise ValidationError(error, {field: error})


def unlink_flagged(row: Any, data: Mapping[str, Any], flags: Mapping[str, str]) -> list[str]:  # any table with image columns
    """Clear each image column of `row` whose removal flag (`flags`: flag -> column) the form set;
    the keys of the files no longer pointed at, to remove once the change is saved."""
    removed = []
    for flag, column in flags.items():
        key = getattr(row, column)
        if data.get(flag) and key:
            removed.append(key)
            setattr(row, column, None)
    return removed


def save_image(content_type: str | None, data: bytes, field: str = "file") -> str:
    check_image(content_type, data, field)
    key = f"{secrets.token_hex(16)}.{validators.image_extension(data)}"
    settings.files_dir.mkdir(parents=True, exist_ok=True)
    (settings.files_dir / key).write_bytes(data)
    return key


def path_of(key: str) -> Path:
    if not _KEY.match(key or ""):
        raise NotFound(FILE_NOT_FOUND)
    path = settings.files_dir / key
    if not path.is_file():
        raise NotFound(FILE_NOT_FOUND)
    return path


def content_type_of(key: str) -> str:
    return CONTENT_TYPES[key.rsplit(".", 1)[1]]


def remove(key: str | None) -> None:
    if key and _KEY.match(key):
        (settings.files_dir / key).unlink(missing_ok=True)


def url_of(key: str | None) -> str | None:
    return f"/api/files/{key}" if key else None
