"""Auto-approval of validated trade recommendations: the choices and when each one falls due."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

AUTO_APPROVAL_NEVER = "never"
AUTO_APPROVAL_NEXT_DAY = "next_day_10am"
AUTO_APPROVAL_CHOICES = (AUTO_APPROVAL_NEVER, AUTO_APPROVAL_NEXT_DAY) + tuple(f"{n}_days" for n in range(1, 11))
AUTO_APPROVAL_LABELS = {AUTO_APPROVAL_NEVER: "Never", AUTO_APPROVAL_NEXT_DAY: "Next day 10 AM",
                        **{f"{n}_days": f"{n} day" + ("s" if n > 1 else "") for n in range(1, 11)}}
# "10 AM" is the practices' local time (the product serves Australian firms).
PRACTICE_TZ = ZoneInfo("Australia/Sydney")


def auto_approval_title(choice: str) -> str:
    """What an auto-approval choice is called ('' for a value that is not one)."""
    return AUTO_APPROVAL_LABELS.get(choice, "")


def auto_approve_deadline(choice: str, validated_at: datetime) -> datetime | None:
    """When pending items are approved automatically (UTC), or None for 'never'."""
    if choice not in AUTO_APPROVAL_CHOICES:
        raise ValueError(f"unknown auto-approval choice {choice!r}")
    if choice == AUTO_APPROVAL_NEVER:
        return None
    if validated_at.tzinfo is None:
        validated_at = validated_at.replace(tzinfo=timezone.utc)
    if choice == AUTO_APPROVAL_NEXT_DAY:
        local_day: date = validated_at.astimezone(PRACTICE_TZ).date() + timedelta(days=1)
        return datetime.combine(local_day, time(10, 0), PRACTICE_TZ).astimezone(timezone.utc)
    days = int(choice.split("_", 1)[0])
    return (validated_at + timedelta(days=days)).astimezone(timezone.utc)
