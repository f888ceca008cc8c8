"""Time zones and how days and times read, in one place. Instants are stored in UTC; a screen or
a file shows them in the browser's offset (`new Date().getTimezoneOffset()`: minutes, positive
west of UTC, Sydney -600), which downloads carry as `client-timezone-offset`. Days read DD/MM/YYYY
and times DD/MM/YYYY HH:MM, as Australians write them."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any, overload

MAX_OFFSET_MINUTES = 14 * 60  # the widest offset in use (UTC+14)


def client_offset(value: Any) -> int:
    """The browser's offset in minutes from what a request carries; 0 (UTC) when it is not one."""
    try:
        minutes = int(str(value).strip())
    except (TypeError, ValueError):
        return 0
    return minutes if abs(minutes) <= MAX_OFFSET_MINUTES else 0


@overload
def local_time(moment: datetime, offset_minutes: int) -> datetime: ...
@overload
def local_time(moment: datetime | None, offset_minutes: int) -> datetime | None: ...
def local_time(moment: datetime | None, offset_minutes: int) -> datetime | None:
    """A stored instant (naive ones are UTC) in the browser's offset."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone(timedelta(minutes=-offset_minutes)))


def day_text(day: date | None) -> str:
    """A day (or the day of a time) as DD/MM/YYYY; '' for none."""
    return day.strftime("%d/%m/%Y") if day else ""


def moment_text(moment: datetime | None) -> str:
    """A time as DD/MM/YYYY HH:MM, as it is (already in the offset to show); '' for none."""
    return moment.strftime("%d/%m/%Y %H:%M") if moment else ""


def local_moment_text(moment: datetime | None, offset_minutes: int) -> str:
    """A stored instant in the browser's offset as DD/MM/YYYY HH:MM; '' for none."""
    return moment_text(local_time(moment, offset_minutes))


def file_day(moment: datetime, offset_minutes: int) -> str:
    """The day a download's name carries, in the browser's offset: DD-MM-YYYY (no slashes in a file name)."""
    return local_time(moment, offset_minutes).strftime("%d-%m-%Y")


def iso_json(moment: date | datetime | None) -> str | None:
    """A day or an instant as the API carries it: ISO 8601; None stays None."""
    return None if moment is None else moment.isoformat()


def days_between(since: datetime | None, now: datetime) -> int:
    """Whole days from `since` to `now`: 0 on the day itself or without a `since` (naive times are UTC)."""
    if since is None:
        return 0
    if since.tzinfo is None:
        since = since.replace(tzinfo=timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    return max(0, (now - since).days)
