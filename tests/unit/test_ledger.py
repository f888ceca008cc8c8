"""The asset ledger (app.domain.ledger): parcels, cost base, realised and unrealised gains."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from app.domain import ledger as L
from app.domain.errors import ValidationError

D1, D2, D3, D4 = (dt.date(2024, 1, d) for d in (1, 2, 3, 4))


def cents(x) -> D:
    """An oracle for the properties, independent of the ledger's own rounding: exact rational
    arithmetic, halves away from zero, to the cent."""
    exact = Fraction(x) * 100
    sign = -1 if exact < 0 else 1
    return D(sign * int(abs(exact) + Fraction(1, 2))).scaleb(-2)


def buy(day, units, price, fee="0"):
    return L.Trade("buy", day, D(units), D(price), D(fee))


def sell(day, units, price, fee="0"):
    return L.Trade("sell", day, D(units), D(price), D(fee))


def recon(day, ratio):
    return L.Trade("reconstruction", day, D(0), D(0), ratio=ratio)


def cap_return(day, amount):
    return L.Trade("capital_return", day, D(0), D(0), amount=D(amount))


# ---- hand-checked figures -------------------------------------------------------------------------
def test_to_cents_half_up():
    assert L.to_cents(D("1.005")) == D("1.01")
    assert L.to_cents(D("1.004999")) == D("1.00")
    assert L.to_cents(D("-1.005")) == D("-1.01")  # half away from zero


def test_buy_makes_a_parcel():
    # 100 * 10.123456 = 1012.3456, + fee 9.95 = 1022.2956 -> 1022.30; unit cost 1022.30 / 100 = 10.223
    pos = L.apply([buy(D1, "100", "10.123456", "9.95")])
    assert pos.units == D(100)
    assert pos.parcels == (L.Parcel(D1, D(100), D("10.223000"), D("1022.30")),)
    assert pos.cost_base == D("1022.30")
    assert pos.realised_gain == 0 and pos.disposals == ()


def test_fifo_sell_across_parcels():
    # parcel A: 100 @ 10 + 10 fee = 1010.00; parcel B: 100 @ 12 + 10 fee = 1210.00
    # sell 150 @ 15, fee 15: proceeds 2250 - 15 = 2235.00
    # FIFO takes all of A (100 units, cost 1010.00) and 50 of B (cost 1210 * 50/100 = 605.00)
    # proceeds pro rata: A 2235 * 100/150 = 1490.00, B the rest 745.00
    # gains: 1490 - 1010 = 480.00; 745 - 605 = 140.00; total 620.00
    pos = L.apply([buy(D1, "100", "10", "10"), buy(D2, "100", "12", "10"), sell(D3, "150", "15", "15")])
    assert [(d.parcel_bought_on, d.units, d.proceeds, d.cost_base, d.gain) for d in pos.disposals] == [
        (D1, D(100), D("1490.00"), D("1010.00"), D("480.00")),
        (D2, D(50), D("745.00"), D("605.00"), D("140.00")),
    ]
    assert pos.realised_gain == D("620.00")
    # remaining: 50 of B with cost 1210 - 605 = 605.00, unit cost 12.10
    assert pos.parcels == (L.Parcel(D2, D(50), D("12.100000"), D("605.00")),)
    assert pos.units == D(50) and pos.cost_base == D("605.00")


def test_lifo_and_highest_cost():
    trades = [buy(D1, "10", "5"), buy(D2, "10", "9"), buy(D3, "10", "7"), sell(D4, "10", "8")]
    # LIFO takes the newest parcel (D3, cost 70.00): gain 80.00 - 70.00 = 10.00
    lifo = L.apply(trades, L.TaxTreatment.LIFO)
    assert [(d.parcel_bought_on, d.gain) for d in lifo.disposals] == [(D3, D("10.00"))]
    # HIGHEST_COST takes the dearest (D2, cost 90.00): gain 80.00 - 90.00 = -10.00
    high = L.apply(trades, L.TaxTreatment.HIGHEST_COST)
    assert [(d.parcel_bought_on, d.gain) for d in high.disposals] == [(D2, D("-10.00"))]
    # FIFO (the default) takes the oldest (D1, cost 50.00): gain 80.00 - 50.00 = 30.00
    assert L.apply(trades).realised_gain == D("30.00")


def test_residual_cent_goes_to_the_last_parcel():
    # three parcels of 1 unit @ 1.00; sell 3 @ 0.333333: proceeds 0.999999 -> 1.00
    # shares 1.00 * 1/3 = 0.33, 0.33, and the last gets 1.00 - 0.66 = 0.34
    pos = L.apply([buy(D1, "1", "1"), buy(D2, "1", "1"), buy(D3, "1", "1"), sell(D4, "3", "0.333333")])
    assert [d.proceeds for d in pos.disposals] == [D("0.33"), D("0.33"), D("0.34")]
    assert pos.realised_gain == D("-2.00")  # 1.00 - 3.00


def test_partial_parcel_cost_base_to_the_cent():
    # 3 units for 10.00; selling 1 takes 10 * 1/3 = 3.333.. -> 3.33, leaving 6.67 on 2 units
    pos = L.apply([buy(D1, "3", "3.333333", "0.000001"), sell(D2, "1", "4")])
    assert pos.disposals[0].cost_base == D("3.33") and pos.disposals[0].gain == D("0.67")
    assert pos.parcels[0].cost_base == D("6.67") and pos.parcels[0].unit_cost == D("3.335000")


def test_selling_more_than_held_is_refused():
    with pytest.raises(ValidationError) as err:
        L.apply([buy(D1, "10", "1"), sell(D2, "10.000001", "1")])
    assert err.value.message == "Not enough assets to sell"
    with pytest.raises(ValidationError, match="Not enough assets to sell"):
        L.apply([sell(D1, "1", "1")])
    # date order decides, not list order: the sell dated before the buy is refused
    with pytest.raises(ValidationError, match="Not enough assets to sell"):
        L.apply([buy(D2, "10", "1"), sell(D1, "5", "1")])


def test_same_date_keeps_given_order():
    assert L.apply([buy(D1, "5", "1"), sell(D1, "5", "2")]).realised_gain == D("5.00")
    with pytest.raises(ValidationError):
        L.apply([sell(D1, "5", "2"), buy(D1, "5", "1")])


def test_reconstruction_listed_floors_units_keeps_cost_base():
    # 2:1 split of 101 units (cost 1010.00) -> 202 units, unit cost 5.00
    # then 1:3 consolidation: 202 / 3 = 67.33 -> 67 units, cost base still 1010.00, unit 15.074627
    pos = L.apply([buy(D1, "101", "10"), recon(D2, "2:1"), recon(D3, "1:3")])
    assert pos.parcels == (L.Parcel(D1, D(67), D("15.074627"), D("1010.00")),)


def test_reconstruction_unlisted_keeps_six_decimals():
    # 10 * 1/3 = 3.3333333.. -> 3.333333 (rounded down)
    pos = L.apply([buy(D1, "10", "1"), recon(D2, "1:3")], listed=False)
    assert pos.units == D("3.333333") and pos.cost_base == D("10.00")


def test_reconstruction_floored_to_nothing_realises_a_loss():
    # 1 unit, 1:2 -> 0.5 -> 0 units: the 5.00 cost base becomes a loss
    pos = L.apply([buy(D1, "1", "5"), buy(D2, "4", "5"), recon(D3, "1:2")])
    assert pos.units == D(2) and pos.cost_base == D("20.00")
    assert pos.realised_gain == D("-5.00")


@pytest.mark.parametrize("ratio, message", [
    ("0:1", "Please, enter a valid value. "), ("1:0", "Please, enter a valid value. "),
    ("a:b", "Please, enter a valid value. "), ("123456:1", "Please, enter a valid value. "),
    ("1-2", "Please, enter a valid value. "), ("1:2:3", "Please, enter a valid value. "),
    ("", "Please, enter ratio. "),
])
def test_bad_ratio_is_refused_with_the_validator_text(ratio, message):
    with pytest.raises(ValidationError) as err:
        L.apply([buy(D1, "10", "1"), recon(D2, ratio)])
    assert err.value.message == message


def test_capital_return_reduces_cost_base_pro_rata():
    # parcels: 100 units cost 100.00 and 200 units cost 50.00 (300 units)
    # return 90.00 pro rata by units: 30.00 and 60.00
    # parcel 1: 100 - 30 = 70.00; parcel 2: 50 - 60 -> 0.00 with 10.00 realised as a gain
    pos = L.apply([buy(D1, "100", "1"), buy(D2, "200", "0.25"), cap_return(D3, "90")])
    assert [p.cost_base for p in pos.parcels] == [D("70.00"), D("0.00")]
    assert pos.realised_gain == D("10.00")
    assert pos.units == D(300) and pos.cost_base == D("70.00")


def test_capital_return_from_price_per_unit():
    # no amount: 10 units * 0.125 = 1.25 off a 20.00 cost base
    pos = L.apply([buy(D1, "10", "2"), L.Trade("capital_return", D2, D(0), D("0.125"))])
    assert pos.cost_base == D("18.75") and pos.realised_gain == 0


def test_unrealised_gain():
    # 30 * 3.333333 = 99.99999 -> cost 100.00; at 3.456789: 103.70367 -> 103.70, gain 3.70
    pos = L.apply([buy(D1, "30", "3.333333")])
    assert pos.cost_base == D("100.00")
    assert L.unrealised_gain(pos, D("3.456789")) == D("3.70")
    assert L.unrealised_gain(L.apply([]), D("5")) == 0


def test_display_quantity():
    assert L.display_quantity(sell(D1, "5", "1")) == D(-5)
    assert L.display_quantity(buy(D1, "5", "1")) == D(5)


# ---- properties ------------------------------------------------------------------------------------
money = st.decimals(min_value=D("0.01"), max_value=D("1000"), places=2)
prices = st.decimals(min_value=D("0.000001"), max_value=D("500"), places=6)
fees = st.decimals(min_value=D(0), max_value=D("30"), places=2)
unit_counts = st.integers(min_value=1, max_value=1000).map(D)
days = st.integers(min_value=0, max_value=30).map(lambda n: dt.date(2024, 1, 1) + dt.timedelta(days=n))
treatments = st.sampled_from(list(L.TaxTreatment))
ratios = st.tuples(st.integers(1, 5), st.integers(1, 5)).map(lambda ab: f"{ab[0]}:{ab[1]}")


@st.composite
def histories(draw, with_recon=False, with_returns=False):
    """Trades in date order that never sell more than held (sells are fractions of holdings)."""
    trades, held = [], D(0)
    day = dt.date(2024, 1, 1)
    for _ in range(draw(st.integers(1, 12))):
        day += dt.timedelta(days=draw(st.integers(0, 3)))
        kinds = ["buy", "sell"] + (["reconstruction"] if with_recon else []) + (["capital_return"] if with_returns else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "buy" or held == 0 and kind == "sell":
            units = draw(unit_counts)
            trades.append(buy(day, units, draw(prices), draw(fees)))
            held += units
        elif kind == "sell":
            units = D(draw(st.integers(1, int(held))))
            trades.append(sell(day, units, draw(prices), draw(fees)))
            held -= units
        elif kind == "reconstruction":
            trades.append(recon(day, draw(ratios)))
            held = min(L.apply(trades, t).units for t in L.TaxTreatment)  # floors differ by treatment
        else:
            trades.append(cap_return(day, draw(money)))
    return trades


@settings(max_examples=200, deadline=None)
@given(histories(), treatments)
def test_units_and_cost_base_are_conserved(trades, treatment):
    pos = L.apply(trades, treatment)
    bought = sum((t.units for t in trades if t.kind == "buy"), D(0))
    sold = sum((t.units for t in trades if t.kind == "sell"), D(0))
    assert pos.units == sum((p.units for p in pos.parcels), D(0)) == bought - sold
    assert sum((d.units for d in pos.disposals), D(0)) == sold
    buys_cost = sum((cents(Fraction(t.units) * Fraction(t.price) + Fraction(t.fee)) for t in trades if t.kind == "buy"), D(0))
    assert buys_cost == pos.cost_base + sum((d.cost_base for d in pos.disposals), D(0))
    assert pos.cost_base == sum((p.cost_base for p in pos.parcels), D(0))
    for t in (t for t in trades if t.kind == "sell"):  # proceeds of each sale to the cent
        got = sum((d.proceeds for d in pos.disposals if d.sold_on == t.trade_date), D(0))
        same_day = [s for s in trades if s.kind == "sell" and s.trade_date == t.trade_date]
        assert got == sum((cents(Fraction(s.units) * Fraction(s.price) - Fraction(s.fee)) for s in same_day), D(0))


@settings(max_examples=200, deadline=None)
@given(histories(with_recon=True, with_returns=True), treatments)
def test_general_invariants(trades, treatment):
    pos = L.apply(trades, treatment)
    assert pos.realised_gain == sum((d.gain for d in pos.disposals), D(0))
    assert all(p.units > 0 and p.cost_base >= 0 for p in pos.parcels)
    assert all(d.units >= 0 for d in pos.disposals)
    assert pos.units == sum((p.units for p in pos.parcels), D(0))
    assert all(p.cost_base == p.cost_base.quantize(D("0.01")) for p in pos.parcels)
    assert L.apply(list(trades), treatment) == pos  # deterministic


@settings(max_examples=200, deadline=None)
@given(histories(with_recon=True))
def test_units_follow_reconstructions(trades):
    # replay by hand: each parcel's units scaled by a/b and floored, sells taken oldest first
    parcels: list[D] = []
    for t in trades:
        if t.kind == "buy":
            parcels.append(t.units)
        elif t.kind == "sell":
            left = t.units
            for i, u in enumerate(parcels):
                take = min(u, left)
                parcels[i] -= take
                left -= take
            parcels = [u for u in parcels if u > 0]
        else:
            a, b = (int(x) for x in t.ratio.split(":"))
            parcels = [D(u * a // b) for u in parcels if u * a // b > 0]
    assert [p.units for p in L.apply(trades).parcels] == parcels


@settings(max_examples=200, deadline=None)
@given(histories())
def test_fifo_consumes_oldest_first(trades):
    pos = L.apply(trades)
    # disposals come oldest parcel first, and the parcels still held are the newest ones
    for d1, d2 in zip(pos.disposals, pos.disposals[1:]):
        assert d1.parcel_bought_on <= d2.parcel_bought_on
    if pos.disposals and pos.parcels:
        assert pos.parcels[0].bought_on >= pos.disposals[-1].parcel_bought_on
    # and every parcel before the last one touched has been fully consumed
    consumed = {}
    for d in pos.disposals:
        consumed[d.parcel_bought_on] = consumed.get(d.parcel_bought_on, D(0)) + d.units
    assert all(p.bought_on >= max(consumed, default=dt.date.min) for p in pos.parcels)


@settings(max_examples=100, deadline=None)
@given(histories(), treatments, st.decimals(min_value=D("0.000001"), max_value=D("500"), places=6))
def test_unrealised_gain_is_market_value_less_cost(trades, treatment, price):
    pos = L.apply(trades, treatment)
    assert L.unrealised_gain(pos, price) == cents(Fraction(pos.units) * Fraction(price)) - pos.cost_base


@settings(max_examples=100, deadline=None)
@given(histories(), treatments, st.integers(1, 50))
def test_overselling_always_refused(trades, treatment, extra):
    held = L.apply(trades, treatment).units
    later = max(t.trade_date for t in trades)
    with pytest.raises(ValidationError, match="^Not enough assets to sell$"):
        L.apply(trades + [sell(later, held + extra, "1")], treatment)
