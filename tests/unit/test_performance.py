"""Performance figures (app.domain.performance), checked by hand: TWR chain-linking with flows at
their dates, the income / capital split, the money-weighted return (IRR), annualising, the
periods of the Australian financial year, and the model's return with the reasons for the gap."""
from __future__ import annotations

import math
from datetime import date
from decimal import Decimal as D

import pytest

from app.domain import performance as P

AS_OF = date(2026, 3, 15)


def points(*rows):
    """(day, value, flow, income) rows as valuation days of a portfolio that holds only cash."""
    books = [P.DayBook(day, D(str(value)), {}, D(str(flow)), D(str(income))) for day, value, flow, income in rows]
    return P.value_days(books, P.Closes({}))


def figures(period, pts, as_of, *, closes=None, weights=None):
    return P.period_figures(period, P.Series(pts, closes or P.Closes({}), weights), as_of)


# ---- TWR -----------------------------------------------------------------------------------------
def test_a_period_with_no_flows_compounds_its_days_and_the_irr_agrees():
    pts = points((date(2026, 2, 28), 1000, 1000, 0), (date(2026, 3, 2), 1100, 0, 0), (date(2026, 3, 3), 1210, 0, 0))
    f = figures(P.Period.MONTH, pts, date(2026, 3, 3))
    assert f.base == date(2026, 2, 28) and f.days == 3 and not f.annualised
    assert f.twr == pytest.approx(0.21, abs=1e-12)          # 1.1 * 1.1 - 1
    assert f.irr == pytest.approx(0.21, abs=1e-9)           # no flows: money-weighted = time-weighted
    assert f.start_value == D(1000) and f.end_value == D(1210) and f.net_flows == 0


def test_a_deposit_in_the_middle_of_a_period_does_not_count_as_return():
    pts = points((date(2026, 2, 27), 1000, 1000, 0),
                 (date(2026, 3, 2), 1050, 0, 0),       # +5 %
                 (date(2026, 3, 3), 1600, 500, 0),     # 500 in at the start of the day: 1600 / 1550
                 (date(2026, 3, 4), 1632, 0, 0))       # +2 %
    f = figures(P.Period.MONTH, pts, date(2026, 3, 4))
    assert f.twr == pytest.approx(1.05 * (1600 / 1550) * 1.02 - 1, abs=1e-12)   # 11.55 %
    assert f.twr == pytest.approx(0.105548387, abs=1e-9)
    assert f.net_flows == D(500)
    # not annualised (4 days from the close of 28 February): the IRR is the period's rate; as a
    # year's rate it solves -1000 - 500 (1+x)^(-2/365) + 1632 (1+x)^(-4/365) = 0 (the 500 at the
    # start of 3 March, the close of the 2nd)
    assert f.days == 4 and not f.annualised and f.start_value == D(1000)
    annual = (1 + f.irr) ** (365 / f.days) - 1
    npv = -1000 - 500 * (1 + annual) ** (-2 / 365) + 1632 * (1 + annual) ** (-4 / 365)
    assert abs(npv) < 1e-6
    assert f.irr != pytest.approx(f.twr, abs=1e-4)   # the 500 came in after the better day


def test_a_withdrawal_is_taken_out_at_the_start_of_its_day():
    pts = points((date(2026, 2, 28), 1000, 1000, 0), (date(2026, 3, 2), 1100, 0, 0), (date(2026, 3, 3), 550, -600, 0))
    f = figures(P.Period.MONTH, pts, date(2026, 3, 3))
    assert f.twr == pytest.approx(0.21, abs=1e-12)          # 1100/1000 * 550/500
    assert f.net_flows == D(-600)


def test_the_first_day_opening_balance_gives_no_return_since_inception():
    pts = points((date(2026, 3, 2), 1000, 1000, 0), (date(2026, 3, 3), 1050, 0, 0))
    f = figures(P.Period.INCEPTION, pts, date(2026, 3, 3))
    assert f.base == date(2026, 3, 1) and f.start_value == 0
    assert f.twr == pytest.approx(0.05, abs=1e-12)


def test_income_and_capital_growth_add_up_to_the_twr():
    pts = points((date(2026, 2, 28), 1000, 1000, 0),
                 (date(2026, 3, 2), 1030, 0, 10),      # 3 %: 1 % income, 2 % capital
                 (date(2026, 3, 3), D("1060.90"), 0, 0))  # 3 % capital
    f = figures(P.Period.MONTH, pts, date(2026, 3, 3))
    assert f.twr == pytest.approx(0.0609, abs=1e-12)
    assert f.income == pytest.approx(0.01, abs=1e-12)
    assert f.capital == pytest.approx(0.02 + 1.03 * 0.03, abs=1e-12)   # 5.09 %
    assert f.income + f.capital == pytest.approx(f.twr, abs=1e-12)
    assert f.income_received == D(10)


# ---- IRR vs TWR, annualising ---------------------------------------------------------------------
def test_irr_and_twr_differ_when_more_money_is_in_the_better_year():
    # 100 earns nothing in the first year; 100 more arrives; the 200 earn 20 % in the second year
    pts = points((date(2021, 1, 1), 100, 100, 0), (date(2022, 1, 1), 200, 100, 0), (date(2022, 12, 31), 240, 0, 0))
    f = figures(P.Period.INCEPTION, pts, date(2022, 12, 31))
    assert f.annualised and f.days == 730
    # TWR: 1.0 * 1.2 over two years, a year: sqrt(1.2) - 1 = 9.54 %
    assert f.twr == pytest.approx(math.sqrt(1.2) - 1, abs=1e-12)
    # IRR (from the close of 31/12/2020; each flow at the start of its day): 100 paid at once, 100
    # a year later, 240 received two years later: 100 u^2 + 100 u = 240 with u = 1 + x, so
    # u = (-1 + sqrt(10.6)) / 2 = 1.127882 and x = 12.79 %
    assert f.irr == pytest.approx((-1 + math.sqrt(10.6)) / 2 - 1, abs=1e-9)
    assert f.irr > f.twr


def test_the_irr_root_finder_on_a_two_year_case_solved_by_hand():
    # -100 now, -100 in a year, +231 in two: x^2 + x = 2.31 -> x = 1.1 exactly, so 10 %
    assert P.irr([(0.0, -100.0), (1.0, -100.0), (2.0, 231.0)]) == pytest.approx(0.10, abs=1e-9)
    assert P.irr([(0.0, -100.0), (1.0, 90.0)]) == pytest.approx(-0.10, abs=1e-9)
    assert P.irr([(0.0, 100.0), (1.0, 90.0)]) is None         # nothing paid in: no rate balances it
    assert P.irr([]) is None


def test_three_years_are_given_a_year_and_a_shorter_period_is_not():
    pts = points((date(2021, 1, 1), 1000, 1000, 0), (date(2024, 1, 1), 1331, 0, 0))
    f = figures(P.Period.THREE_YEARS, pts, date(2024, 1, 1))
    assert f.days == 1095 and f.annualised
    assert f.twr == pytest.approx(0.10, abs=1e-12)             # 1.331 over exactly 3 x 365 days
    assert f.irr == pytest.approx(0.10, abs=1e-9)
    assert f.capital == pytest.approx(0.10, abs=1e-12) and f.income == pytest.approx(0.0, abs=1e-12)

    short = points((date(2025, 6, 30), 1000, 1000, 0), (date(2026, 1, 1), 1100, 0, 0))
    fy = figures(P.Period.FYTD, short, date(2026, 1, 1))
    assert fy.base == date(2025, 6, 30) and not fy.annualised
    assert fy.twr == pytest.approx(0.10, abs=1e-12)            # 185 days: 10 %, not a year's rate
    assert fy.irr == pytest.approx(0.10, abs=1e-9)


def test_one_and_three_years_need_the_history_and_to_date_periods_start_at_inception():
    pts = points((date(2026, 1, 10), 1000, 1000, 0), (date(2026, 3, 13), 1100, 0, 0))
    one_year = figures(P.Period.ONE_YEAR, pts, AS_OF)
    assert not one_year.available and one_year.twr is None and one_year.irr is None
    fytd = figures(P.Period.FYTD, pts, AS_OF)
    assert fytd.available and fytd.partial and fytd.base == date(2026, 1, 9)
    assert fytd.twr == pytest.approx(0.10, abs=1e-12)


# ---- periods of the financial year ---------------------------------------------------------------
@pytest.mark.parametrize("period, base", [
    (P.Period.MONTH, date(2026, 2, 28)),
    (P.Period.QUARTER, date(2025, 12, 31)),
    (P.Period.FYTD, date(2025, 6, 30)),
    (P.Period.ONE_YEAR, date(2025, 3, 15)),
    (P.Period.THREE_YEARS, date(2023, 3, 15)),
    (P.Period.INCEPTION, date(2020, 12, 31)),
])
def test_each_period_is_measured_from_the_close_before_it(period, base):
    assert P.base_day(period, AS_OF, date(2021, 1, 1)) == base


def test_the_financial_year_runs_from_1_july_to_30_june():
    assert P.financial_year_start(date(2026, 6, 30)) == date(2025, 7, 1)
    assert P.financial_year_start(date(2026, 7, 1)) == date(2026, 7, 1)
    assert P.financial_year(date(2026, 6, 30)) == 2026 and P.financial_year(date(2026, 7, 1)) == 2027
    assert P.base_day(P.Period.QUARTER, date(2026, 8, 20), date(2020, 1, 1)) == date(2026, 6, 30)
    assert P.years_before(date(2024, 2, 29), 1) == date(2023, 2, 28)
    assert P.is_annualised(date(2023, 1, 1), date(2024, 1, 1)) is False
    assert P.is_annualised(date(2023, 1, 1), date(2024, 1, 2)) is True


# ---- the model and the reasons for the gap ---------------------------------------------------------
A, B = 1, 2
CLOSES = P.Closes({A: [(date(2026, 3, 1), D(10)), (date(2026, 3, 2), D(11))],     # +10 %
                   B: [(date(2026, 3, 1), D(20)), (date(2026, 3, 2), D(19))]})    # -5 %


def _held(units_a, units_b, cash):
    books = [P.DayBook(date(2026, 3, 1), D(cash), {A: D(units_a), B: D(units_b)}, D(0)),
             P.DayBook(date(2026, 3, 2), D(cash), {A: D(units_a), B: D(units_b)})]
    return P.value_days(books, CLOSES)


def test_the_model_applies_its_weights_to_the_same_closes():
    pts = _held(60, 20, 0)   # 600 in A, 400 in B: exactly the model's 60 / 40
    f = figures(P.Period.MONTH, pts, date(2026, 3, 2), closes=CLOSES, weights=lambda d: {A: 0.6, B: 0.4})
    assert f.model == pytest.approx(0.6 * 0.10 + 0.4 * -0.05, abs=1e-12)   # 4 %
    assert f.twr == pytest.approx(0.04, abs=1e-12)                           # 660 + 380 = 1040
    a = f.attribution
    assert a.cash_drag == pytest.approx(0) and a.drift == pytest.approx(0) and a.trades_not_taken == pytest.approx(0)
    assert a.other == pytest.approx(0, abs=1e-12)


def test_cash_held_against_a_rising_model_is_cash_drag():
    pts = _held(30, 10, 500)  # 300 A, 200 B, 500 cash against a fully invested 60 / 40 model
    f = figures(P.Period.MONTH, pts, date(2026, 3, 2), closes=CLOSES, weights=lambda d: {A: 0.6, B: 0.4})
    assert f.twr == pytest.approx((330 + 190 + 500) / 1000 - 1, abs=1e-12)   # 2 %
    a = f.attribution
    assert a.cash_drag == pytest.approx((0.5 - 0.0) * (0 - 0.04), abs=1e-12)  # -2 points
    assert a.drift == pytest.approx((0.3 - 0.6) * (0.10 - 0.04) + (0.2 - 0.4) * (-0.05 - 0.04), abs=1e-12)
    assert a.cash_drag + a.drift + a.trades_not_taken + a.other == pytest.approx(f.difference, abs=1e-12)


def test_a_model_asset_not_held_is_a_trade_not_taken():
    pts = _held(0, 50, 0)    # all in B; the model is all A
    f = figures(P.Period.MONTH, pts, date(2026, 3, 2), closes=CLOSES, weights=lambda d: {A: 1.0})
    assert f.model == pytest.approx(0.10) and f.twr == pytest.approx(-0.05)
    a = f.attribution
    assert a.trades_not_taken == pytest.approx((0 - 1) * (0.10 - 0.10) + (1 - 0) * (-0.05 - 0.10), abs=1e-12)
    assert a.drift == 0 and a.cash_drag == pytest.approx(0)
    assert a.cash_drag + a.drift + a.trades_not_taken + a.other == pytest.approx(f.difference, abs=1e-12)


def test_value_days_value_each_holding_at_its_last_close_to_the_cent():
    books = [P.DayBook(date(2026, 3, 5), D("10.00"), {A: D(3), B: D("0.333")})]
    (pt,) = P.value_days(books, CLOSES)
    assert pt.holdings == {A: D("33.00"), B: D("6.327")}       # 0.333 x 19
    assert pt.value == D("49.33")                                # the total to the cent


def test_the_model_path_follows_the_model_with_the_same_flows():
    books = [P.DayBook(date(2026, 3, 1), D(0), {A: D(60), B: D(20)}, D(1000)),
             P.DayBook(date(2026, 3, 2), D(-500), {A: D(60), B: D(20)}, D(-500))]   # 500 withdrawn
    pts = P.value_days(books, CLOSES)
    path = P.model_path(pts, CLOSES, lambda d: {A: 0.5})        # half in A (+10 %), half cash
    assert path == [D("1000.00"), D("525.00")]                  # (1000 - 500) x (1 + 0.5 x 10 %)
