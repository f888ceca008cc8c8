"""Holdings read model (spec 001 s2/s3): figures to the cent from known executed transactions,
grouping by class, class allocation against the model's or the portfolio's own targets with the
progress-bar colours, paging 12/20/32, tenancy and the exports' contents."""
from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.db.engine import session_scope
from app.db.tables import Portfolio, PortfolioClass
from app.domain.errors import NotFound
from app.domain.wire import rendered
from app.services import holdings
from tests.factories import actor, update_row
from tests.factories_assets import make_asset, make_cash_class, make_class
from tests.factories_models import make_model
from tests.factories_portfolios import (
    cash, make_custom_holding, make_deposit, make_institution, make_portfolio_world, post,
)


def _holdings(*, actor, portfolio_id, limit=None, offset=0):
    """The holdings result as the API renders it (a page of shares when a limit is given)."""
    shares_page = None if limit is None else holdings.page_bounds(limit, offset)
    return rendered(holdings.get_holdings(actor=actor, portfolio_id=portfolio_id, shares_page=shares_page))


def _assets(*, actor, portfolio_id, **query):
    """(rows as the API renders them, how many there are) of the listed assets held."""
    page = holdings.list_assets(actor=actor, portfolio_id=portfolio_id, **query)
    return rendered(page.rows), page.total


@pytest.fixture
def book(db):
    """A portfolio with cash, two listed assets (one partly sold), a term deposit, a pending buy
    (ignored) and a custom holding; the expected figures are worked by hand below."""
    w = make_portfolio_world()
    cash_class = make_cash_class()
    equities = make_class("Australian Equities")
    property_ = make_class("Property")
    bhp = make_asset("BHP", equities, name="BHP Group", last_close_price=D("45.10"), six_month_return=D("12.3456"),
                     dividend_yield=D("5.1"), url="https://example.com/bhp")
    cba = make_asset("CBA", equities, name="Commonwealth Bank", last_close_price=D("120.00"),
                     six_month_return=D("-3.2"))
    cash(w.portfolio, "10000.00")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=100, price="30.00", fee="10.00", day="2026-01-05")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=50, price="40.00", fee="10.00", day="2026-02-05")
    post(w.portfolio, "parcel", asset_id=bhp.id, quantity=120, price="45.00", fee="10.00", day="2026-03-05")
    post(w.portfolio, "asset_buy", asset_id=cba.id, quantity=10, price="100.00", fee="19.95", day="2026-03-06")
    post(w.portfolio, "asset_buy", asset_id=cba.id, quantity=5, price="100.00", status="pending", day="2026-03-07")
    td = make_deposit(w.portfolio, provider_name="Harbour Bank", deal_id="77123")
    post(w.portfolio, "td_buy", deposit_id=td.id, amount="2000.00", day="2026-03-08")
    make_deposit(w.portfolio, provider_name="Idle Bank", deal_id="1")  # nothing placed: not held
    house = make_custom_holding(w.portfolio, "Beach House", value="250000.00", asset_class=property_, fee="0.5")
    return dict(w=w, cash_class=cash_class, equities=equities, property=property_, bhp=bhp, cba=cba, td=td, house=house)


# cash: 10000 - 3010.00 - 2010.00 + 5390.00 - 1019.95 - 2000.00
CASH = D("7350.05")
# BHP: 30 units left of the second parcel (FIFO): 2010.00 * 30 / 50 = 1206.00; 30 x 45.10 = 1353.00
BHP_COST, BHP_VALUE = D("1206.00"), D("1353.00")
# CBA: 10 x 100 + 19.95 = 1019.95; 10 x 120.00 = 1200.00 (the pending buy does not count)
CBA_COST, CBA_VALUE = D("1019.95"), D("1200.00")
DEPOSIT = D("2000.00")
HOUSE = D("250000.00")
TOTAL = CASH + BHP_VALUE + CBA_VALUE + DEPOSIT + HOUSE  # 261903.05
# allocations (% of the total, 4 places): BHP 1353.00 / 261903.05 = 0.5166; the house 250000.00 / 261903.05 = 95.4552;
# cash and deposits 9350.05 / 261903.05 = 3.5700; shares 2553.00 / 261903.05 = 0.9748


def test_figures_to_the_cent(book):
    w = book["w"]
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert TOTAL == D("261903.05")
    assert h.totals.value == TOTAL
    assert h.totals.cash == CASH and h.cash_account.value == CASH
    assert h.totals.shares_value == BHP_VALUE + CBA_VALUE and h.totals.shares_cost == BHP_COST + CBA_COST
    assert h.totals.deposits == DEPOSIT and h.totals.custom_holdings == HOUSE
    assert h.totals.cost == CASH + BHP_COST + CBA_COST + DEPOSIT + HOUSE

    bhp, cba = h.shares
    assert (bhp.code, bhp.quantity, bhp.cost, bhp.value, bhp.price) == ("BHP", D(30), BHP_COST, BHP_VALUE, D("45.10"))
    # since purchase = 1353.00 / 1206.00 - 1 = 12.18905...% ; 1200.00 / 1019.95 - 1 = 17.65282...%
    assert bhp.since_purchase == D("12.1891") and cba.since_purchase == D("17.6528")
    assert bhp.six_months_return == D("12.3456") and bhp.dividend_yield == D("5.1") and cba.dividend_yield is None
    assert cba.six_months_return == D("-3.2")
    assert bhp.allocation == D("0.5166") and bhp.url == "https://example.com/bhp"
    assert bhp.class_title == "Australian Equities" and cba.class_id == book["equities"].id

    (deposit,) = h.deposits
    assert deposit.code == "TD77123" and deposit.name == "Harbour Bank TD 05/07/2026 4.50%"
    assert deposit.cost == deposit.value == DEPOSIT and deposit.class_id == book["cash_class"].id

    (house,) = h.custom_holdings
    assert (house.name, house.value, house.fee, house.class_title, house.class_type) == \
        ("Beach House", HOUSE, D("0.5"), "Property", "asset")
    assert house.allocation == D("95.4552")

    # grouped by class: cash first (cash account + deposit), then the others by their order
    titles = [(c.title, c.value) for c in h.classes]
    assert titles == [("Cash", CASH + DEPOSIT), ("Australian Equities", BHP_VALUE + CBA_VALUE), ("Property", HOUSE)]
    assert [c.actual for c in h.classes] == [D("3.5700"), D("0.9748"), D("95.4552")]
    assert all(c.target is None and c.color is None for c in h.classes) and h.target_source is None

    sections = holdings.sections(h)
    assert [[line.kind for line in s.lines] for s in sections] == [["cash", "deposit"], ["share", "share"], ["custom"]]


def test_json_shape_matches_the_spec(book):
    w = book["w"]
    result = _holdings(actor=actor(w.client), portfolio_id=w.portfolio.id)
    share = result["shares"][0]
    assert {"name", "code", "quantity", "cost", "value", "url", "pdf_url", "sixMonthsReturn", "sincePurchase",
            "dividendYield", "class", "class_id"} <= set(share)
    assert share["quantity"] == "30" and share["cost"] == "1206.00" and share["value"] == "1353.00"
    assert share["sincePurchase"] == "12.1891" and share["pdf_url"] is None
    assert result["cash_account"]["value"] == "7350.05"
    assert result["deposits"][0]["costs"] == {"cost": "2000.00", "value": "2000.00"}
    assert set(result["custom_holdings"][0]) >= {"name", "class_id", "classTitle", "class_type", "fee", "value"}
    assert result["totals"]["value"] == "261903.05"
    assert result["can_edit"] is False  # a client reads only
    assert [u["name"] for u in result["investment"]["Users"] if u["is_owner"]] == [f"{w.client.first_name} Tester"]


def _bands(model_id: int, bands: dict[int, tuple[str, str]]) -> None:
    """The model's class bands (min, max) by class id."""
    from sqlmodel import select

    from app.db.tables import ModelClass

    with session_scope() as s:
        for row in s.exec(select(ModelClass).where(ModelClass.model_id == model_id)).all():
            if row.class_id in bands:
                row.min, row.max = (D(x) for x in bands[row.class_id])
                s.add(row)


def test_model_targets_and_bar_colours_follow_the_drift_bands(book):
    w = book["w"]
    cash_id, eq_id, prop_id = book["cash_class"].id, book["equities"].id, book["property"].id
    # the actual shares (two decimals, as drift measures them): cash 3.57%, equities 0.97%, property 95.46%
    model = make_model(w.firm.id, name="Balanced", classes={cash_id: "10", eq_id: "5", prop_id: "85"})
    _bands(model.id, {cash_id: ("2", "15"), eq_id: ("3", "10"), prop_id: ("80", "90")})
    update_row(Portfolio, w.portfolio.id, model_id=model.id)
    h = holdings.load(actor=actor(w.admin), portfolio_id=w.portfolio.id)
    assert h.portfolio.model_name == "Balanced" and h.target_source == "model"
    by_title = {c.title: c for c in h.classes}
    assert by_title["Cash"].target == D("10") and by_title["Cash"].color == "success"  # off target, inside its band
    assert by_title["Australian Equities"].color == "warning"  # 2.03 points below its band
    assert by_title["Property"].color == "danger"  # 5.46 points above: 5 or more is severe
    assert h.target_total == D("100") and h.target_total_color == "success"
    # the dashboard reads the same portfolio the same way (app.domain.drift)
    from app.services import drift
    from app.domain import drift as rules

    detail = drift.portfolio(actor=actor(w.admin), investment_id=w.portfolio.id)
    colours = {c.title: rules.band_colour(c.current, c.min, c.max) for c in detail.classes if c.in_model}
    assert colours == {t: by_title[t].color for t in colours} and len(colours) == 3


def test_portfolio_own_allocation_wins_and_missing_classes_show(book):
    w = book["w"]
    other = make_class("International Equities")
    model = make_model(w.firm.id, name="Balanced", classes={book["cash_class"].id: "100"})
    update_row(Portfolio, w.portfolio.id, model_id=model.id, class_allocation=True)
    with session_scope() as s:
        s.add(PortfolioClass(investment_id=w.portfolio.id, class_id=book["property"].id, allocation=D("60"),
                             min=D("50"), max=D("96")))
        s.add(PortfolioClass(investment_id=w.portfolio.id, class_id=other.id, allocation=D("30"), min=D("20")))
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert h.target_source == "portfolio"
    by_title = {c.title: c for c in h.classes}
    assert by_title["Property"].color == "success"  # 95.46% inside 50-96
    assert by_title["International Equities"].value == 0 and by_title["International Equities"].color == "danger"
    assert by_title["Cash"].target == 0 and by_title["Cash"].color == "success"  # not in the target: no band
    assert h.target_total == D("90") and h.target_total_color == "warning"
    # a class the target names but nothing holds is still a section (empty)
    assert "International Equities" in [s.klass.title for s in holdings.sections(h)]


def test_model_without_class_allocation_gives_no_target(book):
    w = book["w"]
    model = make_model(w.firm.id, name="Balanced", classes={book["cash_class"].id: "100"}, class_allocation=False)
    update_row(Portfolio, w.portfolio.id, model_id=model.id)
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert h.target_source is None and h.portfolio.model_name == "Balanced"


def test_paging_and_assets_list(book):
    w = book["w"]
    equities = book["equities"]
    for i in range(25):
        a = make_asset(f"X{i:03d}", equities, last_close_price=D("1.00"))
        post(w.portfolio, "asset_buy", asset_id=a.id, quantity=1, price="1.00", day="2026-03-09")
    rows, total = _assets(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert total == 27 and len(rows) == 12
    assert set(rows[0]) == {"id", "code", "name", "url", "class", "class_id", "allocation", "value", "cost"}
    assert [r["code"] for r in rows[:3]] == ["BHP", "CBA", "X000"]
    rows, _ = _assets(actor=actor(w.adviser), portfolio_id=w.portfolio.id, limit=20, offset=20)
    assert len(rows) == 7
    rows, _ = _assets(actor=actor(w.adviser), portfolio_id=w.portfolio.id, limit=32)
    assert len(rows) == 27
    rows, _ = _assets(actor=actor(w.adviser), portfolio_id=w.portfolio.id, limit=1000)
    assert len(rows) == 12  # only 12, 20 or 32 per page
    page = _holdings(actor=actor(w.adviser), portfolio_id=w.portfolio.id, limit=20, offset=20)
    assert len(page["shares"]) == 7 and page["shares_count"] == 27


def test_a_sold_out_asset_and_an_unpriced_asset(db):
    w = make_portfolio_world()
    gone = make_asset("GONE", last_close_price=D("5"))
    new = make_asset("NEWCO")  # no close yet: carried at cost, since purchase N/A
    cash(w.portfolio, "1000.00")
    post(w.portfolio, "asset_buy", asset_id=gone.id, quantity=10, price="5.00")
    post(w.portfolio, "parcel", asset_id=gone.id, quantity=10, price="6.00", day="2026-01-06")
    post(w.portfolio, "asset_buy", asset_id=new.id, quantity=3, price="2.50", fee="1.00")
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert [s.code for s in h.shares] == ["NEWCO"]
    assert h.shares[0].value == h.shares[0].cost == D("8.50") and h.shares[0].since_purchase is None
    assert h.cash_account.value == D("1000.00") - D("50.00") + D("60.00") - D("8.50")


def test_empty_portfolio(db):
    w = make_portfolio_world()
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert h.totals.value == 0 and h.shares == () and h.cash_account.allocation is None
    assert [c.title for c in h.classes] == ["Cash"]


def test_cash_account_named_after_the_bank(db):
    w = make_portfolio_world()
    bank = make_institution("Harbour Credit Union")
    update_row(Portfolio, w.portfolio.id, institution_id=bank.id)
    h = holdings.load(actor=actor(w.adviser), portfolio_id=w.portfolio.id)
    assert h.cash_account.name == "Harbour Credit Union Cash Account"


def test_tenancy(book):
    w = book["w"]
    for user in (w.superuser, w.admin, w.adviser, w.client, w.co_holder):
        assert holdings.load(actor=actor(user), portfolio_id=w.portfolio.id).totals.value == TOTAL
    for user in (w.stranger, w.other_adviser, w.other_client):
        with pytest.raises(NotFound, match="Portfolio not found"):
            holdings.load(actor=actor(user), portfolio_id=w.portfolio.id)
    with pytest.raises(NotFound):
        holdings.load(actor=actor(w.adviser), portfolio_id="junk")
    # a superuser naming another firm's context does not see it
    with pytest.raises(NotFound):
        _assets(actor=actor(w.superuser), portfolio_id=w.portfolio.id, firm_id=w.other_firm.id)
    assert _assets(actor=actor(w.superuser), portfolio_id=w.portfolio.id, firm_id=w.firm.id)[1] == 2
    # the firm id a non-superuser sends changes nothing
    assert _assets(actor=actor(w.adviser), portfolio_id=w.portfolio.id, firm_id=w.other_firm.id)[1] == 2


def test_excel_export_contents(book):
    w = book["w"]
    model = make_model(w.firm.id, name="Harbour Growth",
                       classes={book["cash_class"].id: "10", book["equities"].id: "20", book["property"].id: "70"})
    update_row(Portfolio, w.portfolio.id, model_id=model.id)
    name, data, media = holdings.export(actor=actor(w.adviser), portfolio_id=w.portfolio.id, file_format="xlsx",
                                        offset=-600)
    assert name.startswith("Smith Family - Holdings - ") and name.endswith(".xlsx")
    assert media.endswith("spreadsheetml.sheet")
    ws = load_workbook(io.BytesIO(data)).active
    cells = {(c.row, c.column): c for row in ws.iter_rows() for c in row if c.value is not None}
    values = [c.value for c in cells.values()]
    assert "Smith Family" in values and "Harbour Growth" in values and f"{w.client.first_name} Tester" in values
    by_label = {ws.cell(row=r, column=1).value: ws.cell(row=r, column=2) for r in range(1, 12)}
    assert by_label["Total value"].value == float(TOTAL) and by_label["Total value"].number_format.startswith('"$"#,##0.00')
    # sections per class with their holdings
    col_a = [ws.cell(row=r, column=1).value for r in range(1, ws.max_row + 1)]
    assert any(str(v).startswith("Cash  $9,350.05") for v in col_a if v)
    assert any(str(v).startswith("Australian Equities  $2,553.00") for v in col_a if v)
    bhp_row = col_a.index("BHP") + 1
    assert ws.cell(row=bhp_row, column=3).value == 30 and ws.cell(row=bhp_row, column=3).number_format == "#,##0"
    assert ws.cell(row=bhp_row, column=5).value == 1353.0
    assert ws.cell(row=bhp_row, column=8).value == pytest.approx(0.121891)
    assert ws.cell(row=bhp_row, column=8).number_format == "[Color10]0.0%;[Red]-0.0%;0.0%"
    assert "Beach House (Custom holding)" in values and "N/A" in values  # CBA has no dividend yield


def test_pdf_export_contents(book):
    w = book["w"]
    name, data, media = holdings.export(actor=actor(w.client), portfolio_id=w.portfolio.id, file_format="pdf")
    assert data.startswith(b"%PDF") and media == "application/pdf" and name.endswith(".pdf")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 1
    text = "\n".join(page.extract_text() for page in reader.pages)
    for expected in ("Portfolio Holdings", "Smith Family", "Not linked", "$261,903.05", "$7,350.05", "BHP Group",
                     "$1,353.00", "12.2%", "-3.2%", "Beach House", "TD77123", "Harbour Bank TD 05/07/2026 4.50%", "Australian Equities", "N/A"):
        assert expected in text, expected


def test_export_many_rows_spans_pages(db):
    w = make_portfolio_world()
    cash(w.portfolio, "100000.00")
    klass = make_class("Listed")
    for i in range(70):
        a = make_asset(f"P{i:03d}", klass, last_close_price=D("2.00"))
        post(w.portfolio, "asset_buy", asset_id=a.id, quantity=10, price="1.00")
    _, data, _ = holdings.export(actor=actor(w.adviser), portfolio_id=w.portfolio.id, file_format="pdf")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 2
    assert "page 1 of" in reader.pages[0].extract_text()
