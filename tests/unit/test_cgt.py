"""Capital gains tax estimate (spec 002 s9): figures, wording and a rounding property."""
from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.cgt import (
    CLIENT_TYPE_PLACEHOLDER,
    SoldAsset,
    asset_gain,
    cgt_estimate_text,
    client_type_wording,
    estimate_gain,
    format_aud,
    net_gain,
    round_cents,
)

# A: 50 / 100 * (100 - 60) = 0.5 * 40 = 20 (gain) -> with 50% discount: 20 * 0.5 = 10.00
A = SoldAsset("AAA", D("50"), D("100"), D("60"))
# B: 25 / 100 * (100 - 140) = 0.25 * -40 = -10 (loss, never discounted) -> -10.00
B = SoldAsset("BBB", D("25"), D("100"), D("140"))
# C: 1000 / 2000 * (2000 - 1500) = 0.5 * 500 = 250 (gain) -> with 50% discount: 125.00
C = SoldAsset("CCC", D("1000"), D("2000"), D("1500"))
# A + B + C at 50%: 10 - 10 + 125 = 125.00
TRADES = [A, B, C]


def text(sold, *, discount="50", hin="0", account_type=4, portfolio_type="SMSF", owners=1):
    return cgt_estimate_text(
        sold, discount_percent=D(discount), hin_percent=D(hin), account_type=account_type,
        portfolio_type=portfolio_type, owner_count=owners,
    )


# --- figures ---------------------------------------------------------------------------------


def test_hand_computed_total():
    assert asset_gain(A, D(50)) == D("10.00")
    assert asset_gain(B, D(50)) == D("-10.00")
    assert asset_gain(C, D(50)) == D("125.00")
    assert estimate_gain(TRADES, D(50)) == D("125.00")


def test_discount_applies_only_to_gains():
    # no discount: A 20, B -10, C 250 -> 260.00
    assert estimate_gain(TRADES, D(0)) == D("260.00")
    # B is a loss: any discount leaves it at -10.00
    for pct in (0, 33, 50, 100):
        assert asset_gain(B, D(pct)) == D("-10.00")
    # 100% discount wipes gains, keeps losses: 0 - 10 + 0 = -10.00
    assert estimate_gain(TRADES, D(100)) == D("-10.00")


def test_rounding_half_up_to_the_cent():
    # 250 * (1 - 33.33/100) = 250 * 0.6667 = 166.675 -> 166.68 (half-up)
    assert asset_gain(C, D("33.33")) == D("166.68")
    # loss tie: 1 / 2 * (2 - 2.01) = 0.5 * -0.01 = -0.005 -> -0.01 (half away from zero)
    assert asset_gain(SoldAsset("T", D(1), D(2), D("2.01")), D(0)) == D("-0.01")
    # pending/value inexact: 1 / 3 * (3 - 2.985) = 0.015 / 3 = 0.005 exactly -> 0.01
    assert asset_gain(SoldAsset("T", D(1), D(3), D("2.985")), D(0)) == D("0.01")


def test_value_zero_contributes_zero():
    assert asset_gain(SoldAsset("Z", D(10), D(0), D(5)), D(50)) == D("0.00")
    assert estimate_gain([A, SoldAsset("Z", D(10), D(0), D(5))], D(50)) == D("10.00")


def test_no_assets_total_is_zero():
    assert estimate_gain([], D(50)) == D("0.00")


@pytest.mark.parametrize(
    "hin, expected",
    [
        ("0", "125.00"),   # 125 * (1 - 0) = 125.00
        ("50", "62.50"),   # 125 * (1 - 0.5) = 62.50
        ("100", "0.00"),   # 125 * (1 - 1) = 0.00
        ("33", "83.75"),   # 125 * 0.67 = 83.75
    ],
)
def test_net_gain_hin(hin, expected):
    assert net_gain(D("125.00"), D(hin)) == D(expected)


def test_net_gain_of_a_loss_and_rounding():
    assert net_gain(D("-10.00"), D(50)) == D("-5.00")  # -10 * 0.5
    assert net_gain(D("0.01"), D(50)) == D("0.01")  # 0.005 -> 0.01 half-up


@pytest.mark.parametrize("bad", ["-1", "100.01", "NaN"])
def test_percent_out_of_range_rejected(bad):
    with pytest.raises(ValueError):
        net_gain(D(1), D(bad))
    with pytest.raises(ValueError):
        estimate_gain([A], D(bad))


# --- money formatting --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount, shown",
    [
        ("1234.56", "$1,234.56"),
        ("-1234.56", "-$1,234.56"),
        ("0", "$0.00"),
        ("-0.004", "$0.00"),
        ("0.005", "$0.01"),
        ("1234567.891", "$1,234,567.89"),
        ("12", "$12.00"),
    ],
)
def test_format_aud(amount, shown):
    assert format_aud(D(amount)) == shown


# --- client-type wording -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "ptype, one, many",
    [
        ("SAVINGS", "portfolio holder", "portfolio holders"),
        ("Savings", "portfolio holder", "portfolio holders"),
        ("SOLE_TRADER", "portfolio holder", "portfolio holders"),
        ("Sole Trader", "portfolio holder", "portfolio holders"),
        ("COMPANY", "director", "directors"),
        ("Company", "director", "directors"),
        ("TRUST", "trustee", "trustees"),
        ("Trust", "trustee", "trustees"),
        ("SMSF", "trustee", "trustees"),
        ("Self Managed Super Fund", "trustee", "trustees"),
    ],
)
def test_client_type_wording(ptype, one, many):
    assert client_type_wording(ptype, 1) == one
    assert client_type_wording(ptype, 0) == one
    assert client_type_wording(ptype, 2) == many
    assert client_type_wording(ptype, 5) == many


@pytest.mark.parametrize("ptype", [None, "", "PARTNERSHIP", "Family Office"])
def test_unknown_client_type_placeholder(ptype):
    assert client_type_wording(ptype, 1) == CLIENT_TYPE_PLACEHOLDER == "<Client_Type>"
    assert "<Client_Type>" in text(TRADES, portfolio_type=ptype)


# --- text --------------------------------------------------------------------------------------


def test_text_super_fund_taxed():
    t = text(TRADES, account_type=4, hin="0", portfolio_type="SMSF", owners=2)
    assert "net capital gain of $125.00" in t
    assert "superannuation fund" in t and "tax on this gain" in t
    assert "trustees" in t
    assert "Australian dollars" in t
    assert "exempt" not in t


def test_text_super_fund_partly_pension():
    t = text(TRADES, account_type=4, hin="50")
    assert "net capital gain of $62.50" in t  # 125 * 0.5
    assert "50% of the fund supporting pensions" in t


def test_text_super_fund_all_pension_exempt():
    t = text(TRADES, account_type=4, hin="100")
    assert "pensions" in t and "retirement phase" in t and "exempt" in t
    assert "no capital gains tax is payable" in t
    assert "$125.00" in t  # the gross gain is still shown


def test_text_all_pension_with_a_net_loss_states_a_loss():
    # B alone: 25 / 100 * (100 - 140) = -10.00, never discounted; all in pension
    t = text([B], account_type=4, hin="100")
    assert "a capital loss of $10.00 for the fund" in t and "-$" not in t
    assert "exempt" in t and "no capital gains tax is payable" in t


def test_text_all_pension_whatever_the_account_type():
    # spec 002 s9: at 100 percent the text says pensions are exempt
    t = text(TRADES, account_type=7, hin="100", portfolio_type="SAVINGS")
    assert "pensions" in t and "exempt" in t and "no capital gains tax is payable" in t
    assert "a capital gain of $125.00 for the portfolio" in t
    assert "marginal tax rate" not in t and "the fund" not in t


def test_text_marginal_rate():
    t = text(TRADES, account_type=7, portfolio_type="SAVINGS", owners=1)
    assert "net capital gain of $125.00" in t
    assert "assessable income" in t and "marginal tax rate" in t
    assert "portfolio holder " in t
    assert "superannuation" not in t


def test_text_other_account_type_neutral():
    t = text(TRADES, account_type=1, portfolio_type="COMPANY", owners=3)
    assert "net capital gain of $125.00" in t
    assert "directors" in t
    assert "marginal" not in t and "superannuation" not in t and "pension" not in t


def test_text_net_loss():
    # discount 100: gains 0, loss -10 -> net -10 * (1 - 0) = -10.00
    t = text(TRADES, discount="100", account_type=7)
    assert "capital loss of $10.00 is estimated" in t
    assert "offset future capital gains" in t
    assert "-$" not in t


def test_text_large_amount_formatting():
    big = SoldAsset("BIG", D("1234567.89"), D("1234567.89"), D("0"))
    # 1 * 1,234,567.89 with no discount, hin 0
    t = text([big], discount="0", account_type=7)
    assert "$1,234,567.89" in t


def test_text_no_sold_assets():
    t = text([], account_type=7, portfolio_type="TRUST", owners=1)
    assert "No capital gains arise from the recommended trades" in t
    assert "trustee" in t


# --- property ----------------------------------------------------------------------------------


def _exact(asset: SoldAsset, discount: D) -> Fraction:
    if asset.value == 0:
        return Fraction(0)
    g = Fraction(asset.pending) / Fraction(asset.value) * (Fraction(asset.value) - Fraction(asset.cost))
    if g > 0:
        g *= 1 - Fraction(discount) / 100
    return g


def _round_half_up(f: Fraction) -> Fraction:
    sign = -1 if f < 0 else 1
    return sign * Fraction(int(abs(f) * 100 + Fraction(1, 2)), 100)


money = st.decimals(min_value=D("0"), max_value=D("1000000"), places=2, allow_nan=False, allow_infinity=False)
assets = st.builds(SoldAsset, st.text(min_size=1, max_size=4), money, money, money)
percents = st.decimals(min_value=D("0"), max_value=D("100"), places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(assets, max_size=8), percents, st.randoms())
def test_estimate_is_sum_of_rounded_contributions(sold, discount, rnd):
    total = estimate_gain(sold, discount)
    rounded = sum((_round_half_up(_exact(a, discount)) for a in sold), Fraction(0))
    exact = sum((_exact(a, discount) for a in sold), Fraction(0))
    cents = Fraction(1, 100) * len(sold)
    assert abs(Fraction(total) - rounded) <= cents
    assert abs(Fraction(total) - exact) <= cents
    assert Fraction(total) == rounded  # the single-division formula makes it exact here
    assert total == round_cents(total)
    # deterministic, and independent of the order of the assets
    assert estimate_gain(sold, discount) == total
    shuffled = list(sold)
    rnd.shuffle(shuffled)
    assert estimate_gain(shuffled, discount) == total
    kwargs = dict(discount_percent=discount, hin_percent=D(25), account_type=4, portfolio_type="SMSF", owner_count=1)
    assert cgt_estimate_text(sold, **kwargs) == cgt_estimate_text(sold, **kwargs)
