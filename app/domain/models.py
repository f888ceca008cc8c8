"""Model portfolio vocabulary shared by services, API and UI (spec 000 s3-s5, 002)."""
from __future__ import annotations

from enum import Enum

from app.domain.titled import TitledEnum


class ModelStatus(TitledEnum):
    DRAFT = "draft", "Draft"
    ACTIVE = "active", "Active"


class AllocationMethod(str, Enum):
    EQUAL_AMOUNTS = "equal_amounts"
    PERCENTAGES = "percentages"


class Availability(TitledEnum):
    NOBODY = "nobody", "Nobody"
    WITH_PRACTICE = "with_practice", "With practice"
    ONLY_SUPERUSER = "only_superuser", "Only superuser"
    ALL = "all", "All"


def derive_availability(practice: bool, everyone: bool, shared_firms: int) -> Availability:
    """Spec 000 s4: availability from the form's two switches and the count of shared firms."""
    if not practice:
        return Availability.NOBODY
    if everyone:
        return Availability.ALL
    return Availability.WITH_PRACTICE if shared_firms > 0 else Availability.ONLY_SUPERUSER


def switches_of(availability: Availability) -> tuple[bool, bool]:
    """(practice switch, all switch) for showing a saved model's availability on the form."""
    return availability is not Availability.NOBODY, availability is Availability.ALL


LONG_TERM_ACTIONS = ("buy", "sell", "hold")
SHORT_TERM_ACTIONS = ("ACC", "BUY", "HOLD", "SA", "SB", "SELL", "TAP", "TSP", "FFL/HOLD", "FFL/SA", "FFL/SELL",
                      "FFL/TAP", "FFL/TSP", "SL/SELL", "SL/TAP", "SL/TSP")
UPLOAD_TYPES = ("amend", "replace")  # amend is the default
COMMENTARY_TYPES = ("market", "recommendation")
MODEL_PAGE_SIZES = (20, 50, 100)
HISTORY_PAGE_SIZES = (12, 20, 32)
DETAILS_GRID_COLUMNS = 4

NO_CASH_CLASS = "There is no cash class in db"
