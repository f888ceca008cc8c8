"""What the dashboard shows: the drift table's rows and a portfolio's drift by class and asset, the
queues' cards and what waits on a client, built from app.services.drift's and the queues' read models."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from app.domain import drift as drift_rules
from app.domain.advice.texts import CONFIRM_RECALCULATE_TP
from app.ui.display import percent_1dp, percentage_points
from app.ui.toolkit.rows import Performance


@dataclasses.dataclass
class DriftRow:
    id: int = 0
    name: str = ""
    client: str = ""
    adviser: str = ""
    model: str = ""
    firm: str = ""
    value: str = ""
    breach: str = ""
    breach_colour: str = "green"  # in band | red at drift's SEVERE_BREACH and over | amber under it
    out_of_band: int = 0
    url: str = ""
    holdings_url: str = ""


@dataclasses.dataclass
class ClassRow:
    title: str = ""
    value: str = ""
    current: str = ""
    target: str = ""
    band: str = ""
    breach: str = ""
    side: str = "inside"
    in_model: bool = True


@dataclasses.dataclass
class AssetRow:
    code: str = ""
    name: str = ""
    value: str = ""
    current: str = ""
    weight: str = ""
    difference: Performance = Performance()  # over the model's weight (up) or under it (down)


@dataclasses.dataclass
class DriftDetail:
    """One portfolio's drift as its dialog shows it (id 0: the dialog is closed)."""

    id: int = 0
    name: str = ""
    classes: list[ClassRow] = dataclasses.field(default_factory=list)
    assets: list[AssetRow] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class QueueCard:
    key: str = ""
    title: str = ""
    count: int = 0
    detail: str = ""
    url: str = ""
    tone: str = "gray"
    icon: str = "inbox"


@dataclasses.dataclass
class WaitingItem:
    name: str = ""
    days: str = ""
    url: str = ""


# the drift module's colour of a breach, in the badges' colour names
BADGE_COLOURS = {drift_rules.SUCCESS: "green", drift_rules.WARNING: "amber", drift_rules.DANGER: "red"}


def breach_colour(breach: Decimal) -> str:
    """The colour of a portfolio's largest breach (app.domain.drift.breach_colour)."""
    return BADGE_COLOURS[drift_rules.breach_colour(breach)]


def points_text(value: Decimal) -> str:
    return percentage_points(value) if value > 0 else "In band"


def difference(value: Decimal | None) -> Performance:
    """An asset's weight against the model's, in points ('+1.2 pp'); none when no weight is defined for it."""
    if value is None:
        return Performance()
    return Performance(text=f"{value:+.1f} pp", sign="up" if value > 0 else "down" if value < 0 else "")


def band_text(low: Decimal | None, high: Decimal | None) -> str:
    if low is None and high is None:
        return "-"
    return f"{percent_1dp(low, '0.0%')} - {percent_1dp(high, '100.0%')}"


def awaiting_client_question(version: int) -> str:
    """The question before a calculation that makes a new version of a portfolio whose version
    `version` awaits the client's approval."""
    return (f"Target portfolio version {version} is awaiting the client's approval; calculating makes a new version. "
            f"{CONFIRM_RECALCULATE_TP}")
