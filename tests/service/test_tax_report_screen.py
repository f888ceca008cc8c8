"""What the tax report screens show of the service's report (app.ui.states.tax_report), against a
real database: the year picker's choices and its default (the last completed financial year), a
sale beyond the holding shown flagged with the service's note and left out of the totals, losses
and the discount as negative (red) money, the summary's lines in the files' order, and a client's
line per portfolio linking to that portfolio's report of the same year."""
from __future__ import annotations

from datetime import date

from app.domain.tax_report import summary_lines
from app.services import tax_reports
from app.ui.states.tax_report import (
    default_year, gain_rows, gain_total, income_total, portfolio_rows, summary_rows, unrealised_rows, year_options,
)
from tests.factories import actor
from tests.factories_assets import add_prices, make_asset, make_class
from tests.factories_portfolios import make_portfolio_world, post


def test_year_picker_offers_the_history_newest_first_and_opens_on_the_last_completed_year():
    assert [o.value for o in year_options((2027, 2026, 2025))] == ["2027", "2026", "2025"]
    assert year_options((2026,))[0].label == "FY2026 (1 July 2025 - 30 June 2026)"
    assert default_year((2027, 2026, 2025), date(2026, 8, 1)) == 2026
    assert default_year((2026, 2025), date(2026, 6, 30)) == 2025
    # a history that starts in the current year: that year
    assert default_year((2027,), date(2026, 8, 1)) == 2027


def test_the_screen_rows_of_a_report_with_a_loss_and_an_oversold_sale(db):
    w = make_portfolio_world()
    eq = make_class("Equities")
    xyz, abc = make_asset("XYZ", eq, name="XYZ Ltd"), make_asset("ABC", eq, name="ABC Ltd")
    add_prices(abc, [(date(2026, 6, 30), "3.5")])
    post(w.portfolio, "asset_buy", asset_id=xyz.id, quantity=10, price="1", day="2025-08-01")
    post(w.portfolio, "parcel", asset_id=xyz.id, quantity=15, price="2", day="2025-09-01")
    post(w.portfolio, "asset_buy", asset_id=abc.id, quantity=1000, price="5", day="2025-08-01")
    post(w.portfolio, "parcel", asset_id=abc.id, quantity=1, price="2", day="2025-10-01")
    post(w.portfolio, "dividend", asset_id=abc.id, amount="70", franking_credits="30", day="2025-12-01")
    report = tax_reports.portfolio_report(actor=actor(w.adviser), portfolio_id=w.portfolio.id,
                                          year=tax_reports.read_year("2026"))

    rows = {r.code: r for r in gain_rows(report)}
    oversold, loss = rows["XYZ"], rows["ABC"]
    assert oversold.flag.startswith("Sold 15 units but only 10 were held: 5 units")
    assert (oversold.units, oversold.proceeds.text, oversold.gain.text) == ("10", "$20.00", "$10.00")
    assert (loss.acquired, loss.sold, loss.gain.text, loss.gain.negative) == ("01/08/2025", "01/10/2025", "-$3.00", True)
    assert loss.flag == "" and loss.method == "Capital loss"
    # the $3 loss takes $3 of the $10 gain: net $7 (not discountable), the oversold units counted nowhere
    total = gain_total(report)
    assert (total.gain.text, total.losses_applied.text, total.net.text) == ("$7.00", "$3.00", "$7.00")

    summary = summary_rows(report)
    assert [s.key for s in summary] == [line.key for line in summary_lines(report)]
    shown = {s.key: s.amount for s in summary}
    assert shown["net-capital-gain"].text == "$7.00" and shown["losses"].text == "-$3.00" and shown["losses"].negative
    assert shown["franking-credits"].text == "$30.00"
    assert income_total(report).cash.text == "$70.00"
    (held,) = unrealised_rows(report)
    assert (held.code, held.units, held.close, held.value.text) == ("ABC", "999", "$3.50", "$3,496.50")

    client = tax_reports.client_report(actor=actor(w.adviser), client_id=w.client.id, year=tax_reports.read_year("2026"))
    (line,) = portfolio_rows(client)
    assert line.url == f"/portfolios/{w.portfolio.id}/tax-report?year=2026"
    assert line.net_capital_gain.text == "$7.00" and line.franking_credits.text == "$30.00"
