"""Properties of a portfolio's book over postings-like sequences (hypothesis), complementing
tests/unit/test_ledger.py (which checks the ledger's parcels, reconstructions and capital returns
on plain trade lists): here each entry is an asset or cash transaction with a kind and a status,
taken through the same domain pieces the services use - transaction_rules.ledger_trade and
UnitsBook (the units check, in entry order), transactions.EFFECTS / cash_amount / signed /
is_counted (the cash side) - and compared with independent arithmetic:

- holdings are the executed parcels: units = executed buys - executed sells, the parcels' units add
  up to it, and transactions not executed never move units;
- a sell is refused exactly when, in date order with what was accepted before it, the units held
  would go below zero;
- the cash balance is the sum of the counted (executed) cash transactions, to the cent;
- FIFO gains are to the cent: every disposal in cents, realised gain = proceeds - cost taken
  exactly, equal to the exact (fraction) FIFO gain within half a cent per parcel touched, and
  exactly equal once everything is sold."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal as D
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from app.domain import ledger as L
from app.domain import transaction_rules as rules
from app.domain.errors import ValidationError
from app.domain.transactions import EFFECTS, Cash, Kind, Status, cash_amount, is_counted, signed

START = dt.date(2026, 1, 1)
ASSETS = (1, 2)


@dataclass(frozen=True)
class Entry:
    """A postings-like row: an asset transaction (asset set) or a plain cash movement."""

    kind: str            # an asset Kind value, or 'credit' / 'withdrawal'
    status: str
    day: dt.date
    asset: int | None = None
    quantity: D | None = None
    price: D | None = None
    fee: D | None = None
    gst: D | None = None
    amount: D | None = None


money = st.decimals(min_value=D("0.01"), max_value=D("5000"), places=2)
fees = st.one_of(st.none(), st.decimals(min_value=D(0), max_value=D("30"), places=2))
prices = st.decimals(min_value=D("0.000001"), max_value=D("300"), places=6)
units = st.integers(min_value=1, max_value=500).map(D)
statuses = st.sampled_from([s.value for s in Status])
days = st.integers(min_value=0, max_value=60).map(lambda n: START + dt.timedelta(days=n))


@st.composite
def entries(draw, weighted_executed=True):
    status = st.one_of(st.just(Status.EXECUTED.value), statuses) if weighted_executed else statuses
    kind = draw(st.sampled_from(["asset_buy", "parcel", "dividend", "interest", "capital_return", "credit",
                                 "withdrawal"]))
    day, s = draw(days), draw(status)
    if kind in ("asset_buy", "parcel"):
        return Entry(kind, s, day, draw(st.sampled_from(ASSETS)), draw(units), draw(prices), draw(fees), draw(fees))
    if kind in ("dividend", "interest", "capital_return"):
        return Entry(kind, Status.EXECUTED.value, day, draw(st.sampled_from(ASSETS)), amount=draw(money))
    return Entry(kind, s, day, amount=draw(money))


sequences = st.lists(entries(), min_size=1, max_size=25)


def trade_of(e: Entry) -> L.Trade | None:
    return rules.ledger_trade(e.kind, trade_day=e.day, quantity=e.quantity, price=e.price, fee=e.fee, gst=e.gst,
                              amount=e.amount)


def post_all(seq: list[Entry]) -> tuple[rules.UnitsBook, list[Entry]]:
    """What the services do, entry by entry: check the units, then keep it (executed ones join the book)."""
    book = rules.UnitsBook()
    accepted = []
    for e in seq:
        if e.asset is None:
            accepted.append(e)
            continue
        trade = trade_of(e)
        try:
            book.check(e.asset, trade)
        except ValidationError as exc:
            assert exc.message == "Not enough assets to sell"
            continue
        accepted.append(e)
        if is_counted(e.status):
            book.add(e.asset, trade)
    return book, accepted


def cash_side(e: Entry) -> tuple[str, D] | None:
    """(direction, amount) of the cash transaction an entry posts (None: it posts none)."""
    if e.asset is None:
        return (Cash.IN.value if e.kind == "credit" else Cash.OUT.value), e.amount
    direction = EFFECTS[Kind(e.kind)].cash
    if direction is Cash.NONE:
        return None
    return direction.value, cash_amount(e.kind, quantity=e.quantity, price=e.price, fee=e.fee, gst=e.gst,
                                        amount=e.amount)


def by_hand(e: Entry) -> D:
    """The signed cash effect computed independently (Decimal arithmetic, half-up cents)."""
    def cents(x: D) -> D:
        return x.quantize(D("0.01"), rounding="ROUND_HALF_UP")

    extra = (e.fee or 0) + (e.gst or 0)
    if e.kind == "asset_buy":
        return -cents(e.quantity * e.price + extra)
    if e.kind == "parcel":
        return cents(e.quantity * e.price - extra)
    if e.kind == "withdrawal":
        return -e.amount
    return e.amount  # credit, dividend, interest, capital return


@settings(max_examples=300, deadline=None)
@given(sequences)
def test_holdings_are_the_executed_parcels(seq):
    book, accepted = post_all(seq)
    for asset in ASSETS:
        pos = book.position(asset)
        mine = [e for e in accepted if e.asset == asset and e.status == "executed"]
        bought = sum((e.quantity for e in mine if e.kind == "asset_buy"), D(0))
        sold = sum((e.quantity for e in mine if e.kind == "parcel"), D(0))
        assert pos.units == bought - sold == sum((p.units for p in pos.parcels), D(0))
        assert {p.bought_on for p in pos.parcels} <= {e.day for e in mine if e.kind == "asset_buy"}
        # the same as applying the executed trades alone: what is not executed moves nothing
        assert pos == L.apply([trade_of(e) for e in mine if trade_of(e) is not None])


@settings(max_examples=300, deadline=None)
@given(sequences, entries())
def test_a_sell_is_refused_exactly_when_units_would_go_negative(seq, extra):
    book, accepted = post_all(seq)
    if extra.kind != "parcel":
        return
    timeline = sorted([e for e in accepted if e.asset == extra.asset and e.status == "executed"
                       and e.kind in ("asset_buy", "parcel")] + [extra], key=lambda e: e.day)
    running, never_negative = D(0), True
    for e in timeline:  # sorted() is stable: the new sell comes after the same day's earlier ones
        running += e.quantity if e.kind == "asset_buy" else -e.quantity
        never_negative = never_negative and running >= 0
    try:
        book.check(extra.asset, trade_of(extra))
        accepted_now = True
    except ValidationError:
        accepted_now = False
    assert accepted_now is never_negative


@settings(max_examples=300, deadline=None)
@given(sequences)
def test_cash_balance_is_the_sum_of_counted_cash_transactions(seq):
    _, accepted = post_all(seq)
    balance = D(0)
    for e in accepted:
        side = cash_side(e)
        if side is not None and is_counted(e.status):
            balance += signed(side[0], side[1])
    expected = sum((by_hand(e) for e in accepted if e.status == "executed"), D(0))
    assert balance == expected and balance == balance.quantize(D("0.01"))
    # and transactions in any other status leave it alone
    assert all(not is_counted(s) for s in ("pending", "pending_approval", "processing", "processing_error"))


@st.composite
def fifo_histories(draw):
    """Executed buys and sells of one asset that never oversell, in date order."""
    trades, held, day = [], 0, START
    for _ in range(draw(st.integers(1, 14))):
        day += dt.timedelta(days=draw(st.integers(0, 3)))
        if held == 0 or draw(st.booleans()):
            n = draw(st.integers(1, 300))
            trades.append(rules.ledger_trade("asset_buy", trade_day=day, quantity=D(n), price=draw(prices),
                                             fee=draw(fees), gst=draw(fees)))
            held += n
        else:
            n = draw(st.integers(1, held))
            trades.append(rules.ledger_trade("parcel", trade_day=day, quantity=D(n), price=draw(prices),
                                             fee=draw(fees)))
            held -= n
    if draw(st.booleans()) and held:  # sometimes sell out
        trades.append(rules.ledger_trade("parcel", trade_day=day + dt.timedelta(days=1), quantity=D(held),
                                         price=draw(prices)))
    return trades


def exact_fifo_gain(trades: list[L.Trade]) -> tuple[Fraction, int]:
    """FIFO with exact fractions: (realised gain, parcels touched by sells)."""
    parcels: list[list[Fraction]] = []  # [units, cost per unit]
    gain, touched = Fraction(0), 0
    for t in trades:
        if t.kind == "buy":
            cost = L.to_cents(t.units * t.price + t.fee)
            parcels.append([Fraction(t.units), Fraction(cost) / Fraction(t.units)])
            continue
        proceeds = Fraction(L.to_cents(t.units * t.price - t.fee))
        left = Fraction(t.units)
        cost_taken = Fraction(0)
        for parcel in parcels:
            if left == 0:
                break
            if parcel[0] == 0:
                continue
            take = min(left, parcel[0])
            cost_taken += take * parcel[1]
            parcel[0] -= take
            left -= take
            touched += 1
        gain += proceeds - cost_taken
    return gain, touched


@settings(max_examples=300, deadline=None)
@given(fifo_histories())
def test_fifo_gains_to_the_cent(trades):
    pos = L.apply(trades)
    assert all(d.gain == d.gain.quantize(D("0.01")) and d.proceeds == d.proceeds.quantize(D("0.01"))
               for d in pos.disposals)
    buys_cost = sum((L.to_cents(t.units * t.price + t.fee) for t in trades if t.kind == "buy"), D(0))
    proceeds = sum((L.to_cents(t.units * t.price - t.fee) for t in trades if t.kind == "sell"), D(0))
    # every cent is accounted for: realised = proceeds - (bought cost - cost still held)
    assert pos.realised_gain == proceeds - (buys_cost - pos.cost_base)
    exact, touched = exact_fifo_gain(trades)
    assert abs(Fraction(pos.realised_gain) - exact) <= Fraction(1, 200) * touched
    if pos.units == 0:
        assert Fraction(pos.realised_gain) == exact == Fraction(proceeds - buys_cost)
