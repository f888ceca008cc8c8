"""The financial-year tax report (app.services.tax_reports) against a real database: a trust's
FY2026 worked by hand, the lines re-added to the totals, the empty year, a sale beyond the holding,
the carried-forward loss form, Minimise capital gains tax agreeing with the holdings, the client's
report across portfolios, tenancy, and the Excel and PDF files read back."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.services import postings, tax_reports
from app.db.engine import session_scope
from app.db.tables import Portfolio
from tests.factories import actor, update_row
from tests.factories_assets import add_prices, make_asset, make_class
from tests.factories_portfolios import cash, make_portfolio, post


@pytest.fixture
def trust(db):
    """A trust (50% discount) on FIFO with, in FY2026 (1 July 2025 - 30 June 2026):
    - BHP: 100 bought 1/8/2024 at $40 ($4,000) sold 4/8/2025 at $45 ($4,500): +$500, held over 12 months;
    - CBA: 10 bought 1/9/2025 at $100 sold 1/12/2025 at $130: +$300, not discountable;
    - VAS: 20 bought 10/7/2025 at $100 sold 2/2/2026 at $80: -$400;
    - dividends: BHP $700 with $300 franking credits, CBA $100 unfranked; $50 cash income;
    - a $200 capital return on the other 100 BHP (bought 3/3/2025 at $50): cost base $5,000 -> $4,800;
    - a carried-forward loss of $100 entered for FY2026; a BHP sale in FY2027 that does not count.
    By hand: the $400 loss takes CBA's $300 then $100 of BHP's $500; the $100 carried forward takes
    another $100 of BHP: $300 left, halved -> net capital gain $150, nothing carried out.
    Income: franked $700, unfranked $100, credits $300, other $50; cash $850, assessable $1,150.
    At 30 June 2026: 100 BHP, cost base $4,800, close $55 -> $5,500, unrealised +$700."""
    from tests.factories_portfolios import make_portfolio_world

    w = make_portfolio_world()
    update_row(Portfolio, w.portfolio.id, type="TRUST")
    eq = make_class("Australian Equities")
    bhp, cba, vas = (make_asset(c, eq, name=f"{c} Ltd") for c in ("BHP", "CBA", "VAS"))
    add_prices(bhp, [(date(2026, 6, 30), "55"), (date(2026, 7, 15), "60")])
    add_prices(cba, [(date(2026, 6, 29), "140")])
    p = w.portfolio
    cash(p, "100000.00", day="2024-07-01")
    post(p, "asset_buy", asset_id=bhp.id, quantity=100, price="40", day="2024-08-01")
    post(p, "asset_buy", asset_id=bhp.id, quantity=100, price="50", day="2025-03-03")
    post(p, "parcel", asset_id=bhp.id, quantity=100, price="45", day="2025-08-04")
    post(p, "asset_buy", asset_id=cba.id, quantity=10, price="100", day="2025-09-01")
    post(p, "parcel", asset_id=cba.id, quantity=10, price="130", day="2025-12-01")
    post(p, "asset_buy", asset_id=vas.id, quantity=20, price="100", day="2025-07-10")
    post(p, "parcel", asset_id=vas.id, quantity=20, price="80", day="2026-02-02")
    post(p, "dividend", asset_id=bhp.id, amount="700", franking_credits="300", day="2025-09-15")
    post(p, "dividend", asset_id=cba.id, amount="100", day="2026-03-01")
    cash(p, "50.00", type="income", day="2026-01-15")
    post(p, "capital_return", asset_id=bhp.id, amount="200", day="2026-04-01")
    post(p, "parcel", asset_id=bhp.id, quantity=10, price="60", day="2026-08-03")
    tax_reports.set_carried_forward_loss(actor=actor(w.adviser), portfolio_id=p.id, year=tax_reports.read_year("2026"),
                                         amount="100")
    return w, bhp


def test_fy2026_of_a_trust_worked_by_hand(trust):
    w, bhp = trust
    r = tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id, year=tax_reports.read_year("2026"))
    assert not r.empty and r.label == "FY2026 (1 July 2025 - 30 June 2026)" and r.entity == "Trust"
    assert r.firm_name == "Harbour Test" and r.can_edit
    lines = [(g.code, g.acquired, g.sold, g.units, g.cost_base, g.proceeds, g.gain, g.eligible) for g in r.gains]
    assert lines == [
        ("BHP", date(2024, 8, 1), date(2025, 8, 4), D(100), D(4000), D(4500), D(500), True),
        ("CBA", date(2025, 9, 1), date(2025, 12, 1), D(10), D(1000), D(1300), D(300), False),
        ("VAS", date(2025, 7, 10), date(2026, 2, 2), D(20), D(2000), D(1600), D(-400), False),
    ]
    bhp_line, cba_line, vas_line = r.gains
    assert (bhp_line.loss_applied, bhp_line.discount, bhp_line.net, bhp_line.method) == \
        (D(200), D(150), D(150), "Discount 50%")
    assert (cba_line.loss_applied, cba_line.net, cba_line.method) == (D(300), 0, "Other (held under 12 months)")
    assert vas_line.method == "Capital loss"
    c = r.capital
    assert (c.gains, c.losses, c.losses_applied, c.carried_forward_in, c.carried_forward_applied, c.discount,
            c.net_capital_gain, c.carried_forward_out, c.taxable, c.capital_returns) == \
        (D(800), D(400), D(400), D(100), D(100), D(150), D(150), 0, D(150), D(200))
    t = r.income_totals
    assert (t.franked, t.unfranked, t.franking_credits, t.interest, t.other, t.cash, t.assessable) == \
        (D(700), D(100), D(300), 0, D(50), D(850), D(1150))
    assert [(x.day, x.code, x.amount) for x in r.capital_returns] == [(date(2026, 4, 1), "BHP", D(200))]
    (u,) = r.unrealised
    assert (u.code, u.units, u.eligible_units, u.cost_base, u.price, u.price_day, u.value, u.gain) == \
        ("BHP", D(100), D(100), D(4800), D(55), date(2026, 6, 30), D(5500), D(700))
    assert r.flags == () and 2026 in r.years and 2025 in r.years


def test_every_line_re_adds_to_the_totals(trust):
    w, _ = trust
    r = tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id, year=2026)
    for name in ("franked", "unfranked", "franking_credits", "interest", "other", "cash", "assessable"):
        assert sum((getattr(ln, name) for ln in r.income), D(0)) == getattr(r.income_totals, name), name
    gains = [g for g in r.gains if g.gain > 0]
    assert sum((g.gain for g in gains), D(0)) == r.capital.gains
    assert -sum((g.gain for g in r.gains if g.gain < 0), D(0)) == r.capital.losses
    assert sum((g.loss_applied for g in r.gains), D(0)) == r.capital.losses_applied + r.capital.carried_forward_applied
    assert sum((g.discount for g in r.gains), D(0)) == r.capital.discount
    assert sum((g.net for g in r.gains), D(0)) == r.capital.net_capital_gain
    assert sum((g.proceeds - g.cost_base for g in r.gains), D(0)) == sum((g.gain for g in r.gains), D(0))
    assert sum((u.gain for u in r.unrealised), D(0)) == r.unrealised_totals.gain


def test_a_year_outside_the_history_is_an_empty_report_that_says_so(trust):
    w, _ = trust
    r = tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id, year=tax_reports.read_year("2020"))
    assert r.empty and r.gains == () and r.income == ()
    assert r.message == ("No transactions fall in FY2020 (1 July 2019 - 30 June 2020): the portfolio's history "
                         "runs from 01/07/2024 to 03/08/2026.")
    with pytest.raises(ValidationError) as e:
        tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id,
                                     year=tax_reports.read_year("twenty"))
    assert e.value.message == tax_reports.UNKNOWN_YEAR


def test_a_sale_beyond_the_holding_is_flagged_and_left_out_of_the_totals(db):
    from tests.factories_portfolios import make_portfolio_world

    w = make_portfolio_world()
    asset = make_asset("XYZ", make_class("Equities"))
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=10, price="1", day="2025-08-01")
    post(w.portfolio, "parcel", asset_id=asset.id, quantity=15, price="2", day="2025-09-01")
    r = tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id, year=tax_reports.read_year("2026"))
    (line,) = r.gains
    # 10 of the 15 units are matched: $20 of the $30, less the $10 cost base = $10 (not discounted)
    assert (line.units, line.proceeds, line.gain, line.net) == (D(10), D(20), D(10), D(10))
    assert line.flag == ("Sold 15 units but only 10 were held: 5 units could not be matched to parcels and are "
                         "left out of the totals.")
    assert r.flags == (f"XYZ 01/09/2025: {line.flag}",) and r.capital.net_capital_gain == D(10)


def test_the_carried_forward_loss_form(trust):
    w, _ = trust
    staff = actor(w.adviser)
    for bad, text in (("-5", tax_reports.NEGATIVE), ("abc", tax_reports.NOT_A_NUMBER), ("", tax_reports.NOT_A_NUMBER),
                      ("NaN", tax_reports.NOT_A_NUMBER), (None, tax_reports.NOT_A_NUMBER)):
        with pytest.raises(ValidationError) as e:
            tax_reports.set_carried_forward_loss(actor=staff, portfolio_id=w.portfolio.id, year=2026,
                                                 amount=bad)
        assert e.value.message == text and e.value.fields == {"amount": text}
    saved = tax_reports.set_carried_forward_loss(actor=staff, portfolio_id=w.portfolio.id, year=2026,
                                                 amount="$1,000.005")
    assert (saved.year, saved.amount, saved.message) == (2026, D("1000.01"), "Carried-forward loss saved")
    r = tax_reports.portfolio_report(actor=staff, portfolio_id=w.portfolio.id, year=2026)
    # $400 + $1,000.01 of losses against $800 of gains: nothing taxed, $600.01 carried out
    assert (r.capital.net_capital_gain, r.capital.carried_forward_out) == (0, D("600.01"))
    with pytest.raises(PermissionDenied):
        tax_reports.set_carried_forward_loss(actor=actor(w.client), portfolio_id=w.portfolio.id, year=2026,
                                             amount="1")
    with pytest.raises(NotFound):
        tax_reports.set_carried_forward_loss(actor=actor(w.other_adviser), portfolio_id=w.portfolio.id, year=2026,
                                             amount="1")


def test_tenancy_and_the_client_view(trust):
    w, _ = trust
    with pytest.raises(NotFound):
        tax_reports.portfolio_report(actor=actor(w.other_adviser), portfolio_id=w.portfolio.id, year=2026)
    with pytest.raises(NotFound):
        tax_reports.portfolio_report(actor=actor(w.stranger), portfolio_id=w.portfolio.id, year=2026)
    mine = tax_reports.portfolio_report(actor=actor(w.client), portfolio_id=w.portfolio.id, year=2026)
    assert not mine.can_edit and mine.capital.net_capital_gain == D(150)
    with pytest.raises(NotFound):
        tax_reports.client_report(actor=actor(w.client), client_id=w.co_holder.id, year=2026)
    with pytest.raises(NotFound):
        tax_reports.client_report(actor=actor(w.other_adviser), client_id=w.client.id, year=2026)


def test_the_clients_report_across_portfolios(trust):
    w, bhp = trust
    second = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name="Smith Super", type="SMSF")
    post(second, "asset_buy", asset_id=bhp.id, quantity=10, price="40", day="2024-08-01")
    post(second, "parcel", asset_id=bhp.id, quantity=10, price="70", day="2025-09-01")
    post(second, "dividend", asset_id=bhp.id, amount="70", franking_credits="30", day="2025-10-01")
    for who in (w.client, w.adviser):
        r = tax_reports.client_report(actor=actor(who), client_id=w.client.id, year=2026)
        assert [p.portfolio_name for p in r.portfolios] == ["Smith Family", "Smith Super"]
        super_fund = r.portfolios[1]
        # $300 held over 12 months in a super fund: a third off -> $200
        assert (super_fund.entity, super_fund.capital.discount, super_fund.capital.net_capital_gain) == \
            ("Complying super fund", D(100), D(200))
        assert r.net_capital_gain == D(350) and r.income_totals.franking_credits == D(330)
        assert r.income_totals.cash == D(920)


def test_minimise_cgt_report_agrees_with_the_holdings(db):
    from tests.factories_portfolios import make_portfolio_world

    w = make_portfolio_world()
    update_row(Portfolio, w.portfolio.id, tax_treatment="minimise_cgt")
    asset = make_asset("ABC", make_class("Equities"))
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=100, price="10", day="2024-01-02")
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=100, price="15", day="2025-01-02")
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=100, price="11", day="2025-05-01")
    post(w.portfolio, "parcel", asset_id=asset.id, quantity=150, price="12", day="2025-06-02")
    r = tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id, year=2025)
    assert r.treatment == "Minimise capital gains tax"
    assert [(g.acquired, g.units, g.gain) for g in r.gains] == [(date(2025, 1, 2), D(100), D(-300)),
                                                               (date(2024, 1, 2), D(50), D(100))]
    assert (r.capital.net_capital_gain, r.capital.carried_forward_out) == (0, D(200))
    with session_scope() as s:
        held = postings.positions(s, s.get(Portfolio, w.portfolio.id))[asset.id]
    (u,) = r.unrealised
    assert (u.units, u.cost_base) == (held.units, held.cost_base) == (D(150), D(1600))


def test_excel_and_pdf_read_back(trust):
    w, _ = trust
    name, data, media = tax_reports.export(actor=actor(w.adviser), portfolio_id=w.portfolio.id, year=2026,
                                           file_format="xlsx")
    assert name == "Smith Family - Tax report FY2026.xlsx" and media.endswith("sheet")
    ws = load_workbook(io.BytesIO(data)).active
    cells = {(c.row, c.column): c.value for row in ws.iter_rows() for c in row if c.value is not None}
    assert cells[(1, 1)] == "Harbour Test"
    values = list(cells.values())
    at = values.index("Net capital gain")
    assert values[at + 1] == 150
    assert "Realised capital gains and losses" in values and "BHP" in values
    name, data, media = tax_reports.export(actor=actor(w.client), client_id=w.client.id, year=2026, file_format="pdf")
    assert name.endswith("- Tax report FY2026.pdf") and media == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "Harbour Test" in text and "Net capital gain" in text and "$150.00" in text and "$1,150.00" in text


def test_the_advice_estimate_beside_minimise_and_the_wait(db):
    """FIFO trust: 100 bought 2/1/2024 at $10, 100 bought 2/1/2025 at $15, 100 bought 10/5/2025 at $11;
    selling 150 at $12 on 2/6/2025 by FIFO: 100 x +$2 (eligible, $200) and 50 x -$3 (-$150) -> $50 / 2 =
    $25; minimised: 100 x -$3 then 50 x +$2 eligible -> -$300 + $100 -> $0. The 2/1/2025 parcel at a
    loss is not waited on; selling only 10 on 1/1/2025 takes the 2/1/2024 parcel (+$20, eligible from
    3/1/2025): waiting until 03/01/2025 halves it, $10 less."""
    from app.domain import cgt
    from tests.factories_portfolios import make_portfolio_world

    w = make_portfolio_world()
    update_row(Portfolio, w.portfolio.id, type="TRUST")
    asset = make_asset("ABC", make_class("Equities"))
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=100, price="10", day="2024-01-02")
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=100, price="15", day="2025-01-02")
    post(w.portfolio, "asset_buy", asset_id=asset.id, quantity=100, price="11", day="2025-05-10")
    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        est = tax_reports.advice_estimate(s, p, [(asset.id, "ABC", D(150), D(12))], today=date(2025, 6, 2))
        assert (est.treatment, est.net, est.minimised, est.waits) == ("FIFO (first in, first out)", D(25), 0, ())
        early = tax_reports.advice_estimate(s, p, [(asset.id, "ABC", D(10), D(12))], today=date(2025, 1, 1))
    # the sell's parcels under FIFO: the loss is applied to the discountable gain, then the discount
    [sell] = est.sells
    assert (sell.code, sell.units, sell.gain, sell.discount, sell.net) == ("ABC", D(150), D(50), D(25), D(25))
    first, second = sell.parcels
    assert (first.bought_on, first.units, first.cost_base, first.proceeds, first.gain, first.method,
            first.loss_applied, first.discount, first.net) == (
        date(2024, 1, 2), D(100), D(1000), D(1200), D(200), "Discount 50%", D(150), D(25), D(25))
    assert (second.bought_on, second.units, second.cost_base, second.proceeds, second.gain, second.method,
            second.net) == (date(2025, 1, 2), D(50), D(750), D(600), D(-150), "Other (held under 12 months)", 0)
    assert est.saving == D(25) and est.fifo == D(25) and not est.minimising
    # the same sells for a portfolio on "Minimise capital gains tax": compared with first in, first out
    update_row(Portfolio, w.portfolio.id, tax_treatment="minimise_cgt")
    with session_scope() as s:
        mine = tax_reports.advice_estimate(s, s.get(Portfolio, w.portfolio.id), [(asset.id, "ABC", D(150), D(12))],
                                           today=date(2025, 6, 2))
    assert (mine.net, mine.fifo, mine.saving) == (0, D(25), D(25))
    assert mine.comparison == (
        "Under the portfolio's tax treatment (Minimise capital gains tax) the recommended sells give an estimated "
        "net capital gain of $0.00; first in, first out would give $25.00: a saving of $25.00 in net capital gain.")
    assert [(pc.units, pc.gain) for pc in mine.sells[0].parcels] == [(D(100), D(-300)), (D(50), D(100))]
    assert early.waits == (tax_reports.Wait("ABC", date(2025, 1, 3), D(10)),)
    assert cgt.waiting_text("ABC", "03/01/2025", D(10)) == \
        "ABC: Waiting until 03/01/2025 would lower the taxable gain by $10.00."
    assert cgt.treatment_comparison_text(est.treatment, est.net, est.minimised) == (
        "Under the portfolio's tax treatment (FIFO (first in, first out)) the recommended sells give an estimated "
        "net capital gain of $25.00; \"Minimise capital gains tax\" would give $0.00.")
