"""Australian tax rules (app.domain.tax) and the "Minimise capital gains tax" parcel order of the
ledger: every figure below was worked out by hand (the working is in the comments)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from app.domain import ledger as L
from app.domain import tax as T

IND, TRUST, SUPER, CO = T.Entity.INDIVIDUAL, T.Entity.TRUST, T.Entity.SUPER_FUND, T.Entity.COMPANY


def day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


# ---- financial year -----------------------------------------------------------------------------
def test_financial_year_runs_1_july_to_30_june_named_by_its_end():
    fy = T.financial_year(2026)
    assert (fy.start, fy.end) == (day("2025-07-01"), day("2026-06-30"))
    assert fy.label == "FY2026 (1 July 2025 - 30 June 2026)"
    assert T.financial_year_of(day("2026-06-30")) == 2026
    assert T.financial_year_of(day("2026-07-01")) == 2027
    assert T.financial_year_of(day("2026-01-15")) == 2026
    assert day("2025-07-01") in fy and day("2025-06-30") not in fy and day("2026-07-01") not in fy


# ---- entities and the discount -----------------------------------------------------------------
def test_entity_of_portfolio_types_and_discount_rates():
    assert [T.entity_of(t) for t in ("SAVINGS", "SOLE_TRADER", "TRUST", "SMSF", "COMPANY", None)] == \
        [IND, IND, TRUST, SUPER, CO, IND]
    assert T.discount_rate(IND) == D("0.5") and T.discount_rate(TRUST) == D("0.5")
    assert T.discount_rate(CO) == 0
    assert D("0.3333333") < T.discount_rate(SUPER) < D("0.3333334")


def test_twelve_month_rule_excludes_the_acquisition_and_event_days():
    # bought 1 July 2024: counting starts 2 July 2024; 12 months end 1 July 2025 -> a sale on
    # 1 July 2025 is held 364 counted days (not eligible), one on 2 July 2025 is eligible
    assert T.first_discount_day(day("2024-07-01")) == day("2025-07-02")
    assert not T.discount_eligible(day("2024-07-01"), day("2025-07-01"))
    assert T.discount_eligible(day("2024-07-01"), day("2025-07-02"))
    # 29 February: counting starts 1 March 2024 -> eligible from 1 March 2025
    assert T.first_discount_day(day("2024-02-29")) == day("2025-03-01")
    # 28 February 2024: counting starts 29 February 2024, no 29 February in 2025 -> 1 March 2025
    assert T.first_discount_day(day("2024-02-28")) == day("2025-03-01")
    assert not T.discount_eligible(None, day("2030-01-01"))


def test_days_to_discount_within_sixty_days():
    assert T.days_to_discount(day("2024-07-01"), day("2025-06-01")) == 31  # until 2 July 2025
    assert T.days_to_discount(day("2024-07-01"), day("2025-05-02")) is None  # 61 days: too far
    assert T.days_to_discount(day("2024-07-01"), day("2025-05-03")) == 60
    assert T.days_to_discount(day("2024-07-01"), day("2025-07-02")) is None  # already eligible


def test_discount_by_entity_on_one_eligible_gain():
    # $1,000 held over 12 months: individual and trust 50% -> $500; super fund 1/3 -> $333.33
    # discount, $666.67 net; a company no discount
    assert T.net_capital_gain([(D(1000), True)], IND).net_capital_gain == D("500.00")
    assert T.net_capital_gain([(D(1000), True)], TRUST).net_capital_gain == D("500.00")
    sf = T.net_capital_gain([(D(1000), True)], SUPER)
    assert (sf.discount, sf.net_capital_gain) == (D("333.33"), D("666.67"))
    co = T.net_capital_gain([(D(1000), True)], CO)
    assert (co.discount, co.net_capital_gain) == (0, D("1000.00"))
    # held under 12 months: no discount for anyone
    assert T.net_capital_gain([(D(1000), False)], IND).net_capital_gain == D("1000.00")


def test_a_loss_covering_part_of_a_discountable_gain():
    # gain $1,000 (eligible) less a $400 loss = $600, then 50% discount -> $300
    r = T.net_capital_gain([(D(1000), True), (D(-400), False)], IND)
    assert (r.current_losses, r.current_losses_applied, r.discount, r.net_capital_gain) == \
        (D(400), D(400), D("300.00"), D("300.00"))
    assert r.lines[0].current_loss_applied == D(400) and r.lines[0].net == D("300.00")
    assert r.loss_carried_forward == 0


def test_losses_go_to_non_discountable_gains_first():
    # A $1,000 eligible, B $300 not eligible, loss $500: B takes $300, A $200 -> A $800 less 50% = $400
    # (the other order would leave $500 / 2 + $300 = $550)
    r = T.net_capital_gain([(D(1000), True), (D(300), False), (D(-500), True)], IND)
    a, b, loss = r.lines
    assert (b.current_loss_applied, a.current_loss_applied) == (D(300), D(200))
    assert (a.discount, a.net, b.net, loss.net) == (D("400.00"), D("400.00"), 0, 0)
    assert r.net_capital_gain == D("400.00")


def test_current_year_losses_before_the_carried_forward_loss():
    # A $1,000 eligible, B $200 not; this year's loss $100 -> B ($100 left); carried-forward $500 ->
    # B's $100 then A $400 -> A $600 less 50% = $300; nothing carried forward
    r = T.net_capital_gain([(D(1000), True), (D(200), False), (D(-100), False)], IND, D(500))
    a, b, _ = r.lines
    assert (b.current_loss_applied, b.prior_loss_applied, a.prior_loss_applied) == (D(100), D(100), D(400))
    assert (r.prior_losses_applied, r.net_capital_gain, r.loss_carried_forward) == (D(500), D("300.00"), 0)


def test_losses_beyond_the_gains_carry_forward():
    # gains $300, loss $1,000, carried-forward $200: $700 of this year's loss and the $200 are left
    r = T.net_capital_gain([(D(300), True), (D(-1000), False)], IND, D(200))
    assert (r.current_losses_applied, r.prior_losses_applied, r.net_capital_gain, r.loss_carried_forward) == \
        (D(300), 0, 0, D(900))
    with pytest.raises(ValueError):
        T.net_capital_gain([], IND, D(-1))


def test_lines_re_add_to_the_totals():
    gains = [(D("1234.57"), True), (D("99.99"), False), (D("-333.33"), True), (D("10.01"), True)]
    r = T.net_capital_gain(gains, SUPER, D("50"))
    assert sum((ln.net for ln in r.lines), D(0)) == r.net_capital_gain
    assert sum((ln.discount for ln in r.lines), D(0)) == r.discount
    assert r.total_gains - r.current_losses_applied - r.prior_losses_applied - r.discount == r.net_capital_gain


def test_pension_phase_share_of_a_super_fund_is_exempt():
    assert T.taxable_capital_gain(D(900), SUPER, D(100)) == 0
    assert T.taxable_capital_gain(D(900), SUPER, D(40)) == D("540.00")
    assert T.taxable_capital_gain(D(900), IND, D(100)) == D(900)  # only a super fund's pensions


def test_franking_gross_up():
    # fully franked $700 carries $300 credits: franked $700, grossed up $1,000
    d = T.split_dividend(D(700), D(300))
    assert (d.franked, d.unfranked, d.franking_credits, d.grossed_up) == (D(700), 0, D(300), D(1000))
    # $1,000 with $150 credits: franked $150 x 70/30 = $350, unfranked $650, grossed up $1,150
    d = T.split_dividend(D(1000), D(150))
    assert (d.franked, d.unfranked, d.grossed_up) == (D("350.00"), D("650.00"), D("1150.00"))
    assert T.split_dividend(D(80), None).unfranked == D(80)


def test_cost_base_rules():
    assert T.reduced_cost_base(D(1000), D(300)) == (D(700), 0)
    assert T.reduced_cost_base(D(1000), D(1200)) == (0, D(200))  # G1: the excess is a gain
    assert T.reconstructed_cost_base(D(1000)) == D(1000)


def test_capital_return_and_reconstruction_through_the_ledger():
    # $1,000 cost; a $300 return of capital -> $700; sold for $1,200 -> gain $500
    p = L.apply([L.Trade("buy", day("2024-01-10"), D(100), D(10)),
                 L.Trade("capital_return", day("2024-03-01"), D(0), D(0), amount=D(300)),
                 L.Trade("sell", day("2024-04-01"), D(100), D(12))])
    assert p.disposals[0].cost_base == D(700) and p.disposals[0].gain == D(500)
    # a 2:1 split keeps the $1,000 cost base and the acquisition date: 200 units sold at $6 over
    # 12 months later -> $200 gain, discount-eligible
    p = L.apply([L.Trade("buy", day("2024-01-10"), D(100), D(10)),
                 L.Trade("reconstruction", day("2024-06-01"), D(0), D(0), ratio="2:1"),
                 L.Trade("sell", day("2025-01-11"), D(200), D(6))])
    d = p.disposals[0]
    assert (d.cost_base, d.gain, d.parcel_bought_on) == (D(1000), D(200), day("2024-01-10"))
    assert T.discount_eligible(d.parcel_bought_on, d.sold_on)


# ---- minimise capital gains tax ----------------------------------------------------------------
def test_minimise_order_losses_then_eligible_dearest_then_the_rest():
    parcels = [T.ParcelView(day("2024-01-02"), D(10)),   # 0 eligible, gain
               T.ParcelView(day("2025-03-01"), D(14)),   # 1 loss at $12
               T.ParcelView(day("2024-06-01"), D(11)),   # 2 eligible, gain
               T.ParcelView(day("2025-02-01"), D(13)),   # 3 loss
               T.ParcelView(day("2025-04-01"), D("11.5"))]  # 4 not eligible, gain
    assert T.minimise_gain_order(parcels, day("2025-06-02"), D(12)) == [1, 3, 2, 0, 4]


def _three_parcels():
    return [L.Trade("buy", day("2024-01-02"), D(100), D(10)),    # $1,000, eligible by June 2025
            L.Trade("buy", day("2025-01-02"), D(100), D(15)),    # $1,500, a loss at $12
            L.Trade("buy", day("2025-05-01"), D(100), D(11)),    # $1,100, not eligible
            L.Trade("sell", day("2025-06-02"), D(150), D(12))]


def test_minimise_cgt_treatment_takes_the_loss_then_the_discounted_parcel():
    # 100 of the $15 parcel: $1,200 - $1,500 = -$300; 50 of the $10 parcel: $600 - $500 = $100
    p = L.apply(_three_parcels(), L.TaxTreatment.MINIMISE_CGT)
    got = [(d.parcel_bought_on, d.units, d.gain) for d in p.disposals]
    assert got == [(day("2025-01-02"), D(100), D(-300)), (day("2024-01-02"), D(50), D(100))]
    assert p.units == D(150)
    mine = T.net_capital_gain([(d.gain, T.discount_eligible(d.parcel_bought_on, d.sold_on)) for d in p.disposals], IND)
    assert (mine.net_capital_gain, mine.loss_carried_forward) == (0, D(200))
    # FIFO: 100 of $10 (+$200, eligible) and 50 of $15 (-$150): $50 left, halved -> $25
    fifo = L.apply(_three_parcels(), L.TaxTreatment.FIFO)
    fifo_net = T.net_capital_gain([(d.gain, T.discount_eligible(d.parcel_bought_on, d.sold_on))
                                   for d in fifo.disposals], IND)
    assert fifo_net.net_capital_gain == D("25.00")
    assert fifo.units == p.units  # the same units are sold; only the parcels differ


def test_a_sale_beyond_the_holding_is_flagged_when_not_strict():
    trades = [L.Trade("buy", day("2025-01-02"), D(10), D(1)), L.Trade("sell", day("2025-02-03"), D(15), D(2))]
    with pytest.raises(Exception):
        L.apply(trades)
    p = L.apply(trades, strict=False)
    d = p.disposals[0]
    # only the 10 matched units' share of the $30 is realised: $20 - $10 = $10; 5 units unmatched
    assert (d.units, d.proceeds, d.gain, d.unmatched_units) == (D(10), D(20), D(10), D(5))
