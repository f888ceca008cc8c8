"""The queries a screen action sends are a fixed number, bounded here (bench load --profile shows
them per event handler): opening a portfolio's holdings or its target portfolio reads the database
in set-based queries, not one per holding or per line, and leaving the edit mode without a step
reads nothing (tests/service/test_target_portfolio_edit_state.py)."""
from __future__ import annotations

import pytest
import reflex as rx

from app.services import auth
from tests.advice_edge import tps
from app.ui.states.holdings import HoldingsState
from app.ui.states.target_portfolio import TargetPortfolioState
from tests._harness import statements_during
from tests.factories import PASSWORD, actor
from tests.factories_advice import make_book
from tests.factories_portfolios import post

# what the screens send today on the test book (the demo data's holdings: 24, target portfolio: 23)
HOLDINGS_MOST = 26
TARGET_PORTFOLIO_MOST = 26


def _screen(cls, book, pid):
    root = rx.State(_reflex_internal_init=True)
    state = root.get_substate(cls.get_full_name().split(".")[1:])
    state.token, _ = auth.signin(email=book.adviser.email, password=PASSWORD)
    state.portfolio_id = pid
    return state


@pytest.fixture
def book(db):
    book = make_book(3)
    # the last portfolio holds every stock of the universe, the first only one: the same queries
    for stock in book.universe.stocks[1:]:
        post(book.portfolio_ids[-1], "asset_buy", asset_id=stock.id, quantity=5, price="20.00", fee="10.00")
    for pid in book.portfolio_ids:
        tps.calculate(actor=actor(book.adviser), investment_id=pid)
    return book


def test_opening_the_holdings_and_the_target_portfolio_sends_a_bounded_number_of_queries(book):
    counts, shown = {}, {}
    for pid in book.portfolio_ids:
        holdings = _screen(HoldingsState, book, pid)
        target = _screen(TargetPortfolioState, book, pid)
        counts[pid] = (statements_during(lambda: holdings._load(holdings._actor())),
                       statements_during(lambda: target._load(target._actor())))
        assert holdings.rows and target.classes  # the screens loaded what they show
        shown[pid] = sum(1 for r in holdings.rows if r.kind == "share")
    for pid, (on_holdings, on_target) in counts.items():
        assert 0 < on_holdings <= HOLDINGS_MOST, (pid, on_holdings)
        assert 0 < on_target <= TARGET_PORTFOLIO_MOST, (pid, on_target)
    # the same number for one share held as for every one: no query per holding or per line
    assert shown[book.portfolio_ids[0]] < shown[book.portfolio_ids[-1]], shown
    assert len({on_holdings for on_holdings, _ in counts.values()}) == 1, counts
    # the target portfolio reads the parcels once more when it sells (its capital gains), never per line
    on_targets = [on_target for _, on_target in counts.values()]
    assert max(on_targets) - min(on_targets) <= 1, counts
