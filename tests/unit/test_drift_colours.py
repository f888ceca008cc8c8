"""One rule for the colour of a class against its band (app.domain.drift), read by the dashboard's
breach badges and the holdings' class bars."""
from decimal import Decimal as D

import pytest

from app.domain import drift


@pytest.mark.parametrize("current,low,high,colour", [
    ("11.9", "5", "15", "success"),     # above its 10% target, inside its band (the holdings once said red)
    ("11.3", "10", "20", "success"),    # below its 15% target, inside its band (once amber)
    ("4.99", "5", "15", "warning"),     # just below
    ("20", None, "15", "danger"),       # 5 points above: severe
    ("19.994", None, "15", "warning"),  # 4.99 once rounded to two decimals as drift measures
    ("0", None, None, "success"),       # no band: 0 to 100
])
def test_band_colour(current, low, high, colour):
    assert drift.band_colour(D(current), D(low) if low else None, D(high) if high else None) == colour


def test_breach_colour_edges():
    assert [drift.breach_colour(D(x)) for x in ("0", "0.01", "4.99", "5", "12")] == [
        "success", "warning", "warning", "danger", "danger"]
