"""`ledger.units_held` (what bulk calculation reads of each holding) is `ledger.apply(...).units`:
the same value, the same exponent (the units are stored and shown as computed) and the same
refusal, for ledgers of buys, sells, capital returns and reconstructions in any order, every tax
treatment, units of one scale (as read from the database) or of mixed scales."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from hypothesis import given, settings, strategies as st

from app.domain import ledger as L
from app.domain.errors import ValidationError

START = dt.date(2026, 1, 1)
days = st.integers(min_value=0, max_value=20).map(lambda n: START + dt.timedelta(days=n))
prices = st.decimals(min_value=D("0.000001"), max_value=D("300"), places=6)
fees = st.decimals(min_value=D(0), max_value=D("30"), places=2)


@st.composite
def trades(draw, scaled: bool):
    kind = draw(st.sampled_from(["buy", "buy", "sell", "sell", "capital_return", "reconstruction"]))
    whole = draw(st.integers(min_value=1, max_value=400))
    units = D(whole).quantize(D("0.000001")) if scaled else draw(st.sampled_from([D(whole), D(whole) / 4]))
    amount = draw(st.one_of(st.none(), st.decimals(min_value=D("-5"), max_value=D("500"), places=2)))
    return L.Trade(kind=kind, trade_date=draw(days), units=units, price=draw(prices), fee=draw(fees),
                   ratio=draw(st.sampled_from(["1:2", "3:1", "2:3"])) if kind == "reconstruction" else None,
                   amount=amount if kind == "capital_return" else None)


def _outcome(fn):
    try:
        value = fn()
    except ValidationError as exc:
        return ("refused", str(exc))
    return ("units", value, value.as_tuple().exponent)


@settings(max_examples=400, deadline=None)
@given(st.booleans().flatmap(lambda scaled: st.lists(trades(scaled), max_size=12)),
       st.sampled_from(list(L.TaxTreatment)))
def test_units_held_is_the_units_apply_leaves(ledger, treatment) -> None:
    assert _outcome(lambda: L.units_held(ledger, treatment)) == _outcome(lambda: L.apply(ledger, treatment).units)


def test_a_ledger_sold_out_holds_zero_as_apply_gives_it() -> None:
    bought = L.Trade("buy", START, D("10.000000"), D("2.50"))
    sold = L.Trade("sell", START + dt.timedelta(days=1), D("10.000000"), D("3.00"))
    assert str(L.units_held([bought, sold])) == str(L.apply([bought, sold]).units) == "0"
    assert str(L.units_held([bought])) == "10.000000"


def test_selling_more_than_held_is_refused_in_date_order() -> None:
    sale = L.Trade("sell", START, D("5.000000"), D("3.00"))
    purchase = L.Trade("buy", START + dt.timedelta(days=1), D("10.000000"), D("2.50"))
    for fn in (L.units_held, lambda t: L.apply(t).units):
        try:
            fn([purchase, sale])
        except ValidationError as exc:
            assert str(exc) == L.NOT_ENOUGH_ASSETS
        else:
            raise AssertionError("a sale before any purchase is refused")
