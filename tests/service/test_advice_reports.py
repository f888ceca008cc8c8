"""The cash report and the pending target portfolios report (spec 002 s7/s9): figures to the cent,
status filters, sorts, paging, tenancy, roles, the bounded number of queries, the exports, and the
'target portfolio updated' event the pending report reloads on.

Most tests run on a hand-made firm whose target portfolio rows carry known figures (written as a
calculation stores them: the result JSON with value, cash_after and min_cash), so every figure is
checked by hand; one test runs the real calculation, validation and approval."""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.db.engine import session_scope
from app.db.tables import Portfolio
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.wire import rendered
from app.jobs import progress
from tests import advice_reports_edge as reports
from tests.advice_edge import tps
from app.services.bulk_runs import firm_topic
from tests.factories import actor, at
from tests.factories_advice import make_book, make_target_portfolio
from tests.factories_models import count_queries
from tests.factories_portfolios import cash, make_portfolio, make_portfolio_world

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


def _tp(portfolio, version: int, status: str, *, value: str | None, cash_after: str | None = None,
        min_cash: str | None = None, **fields) -> int:
    """A target portfolio row whose result JSON holds these cash figures."""
    result = {"value": value, "cash": cash_after, "cash_after": cash_after, "min_cash": min_cash,
              "assets": [], "holdings": [], "classes": []}
    return make_target_portfolio(portfolio, version, status, value=value, result=result, **fields).id


@dataclass
class Firm:
    w: object
    alpha: Portfolio
    beta: Portfolio
    charlie: Portfolio
    delta: Portfolio
    echo: Portfolio


@pytest.fixture
def firm(db) -> Firm:
    """Firm A (adviser, admin, client) with five portfolios, firm B with one:

    portfolio        cash       target portfolios (newest last)
    Alpha Fund       8,765.44   v1 Approved (value 20,000.00, after 1,500.25, min 400.00), v2 draft (20,100.00)
    beta Trust         300.00   v1 Approval Required (50,000.00, after 100.00, min 500.00)
    Charlie Super        0.00   v1 Not Enough Cash (7,000.00, after -50.00, min 70.00)
    Delta Co             0.00   v1 Calculation Error
    =Echo Holdings   2,000.00   v1 Approved (10,000.00, after 50.00, min 100.00)
    a deleted portfolio with an approved target; firm B's 'Other Family' approved (99,999.99).
    """
    w = make_portfolio_world()
    A = w.firm
    alpha = w.portfolio
    with session_scope() as s:
        p = s.get(Portfolio, alpha.id)
        p.name = "Alpha Fund"
        s.add(p)
    beta = make_portfolio(A, holders=[w.client], adviser=w.adviser, name="beta Trust")
    charlie = make_portfolio(A, holders=[w.stranger], adviser=w.adviser, name="Charlie Super")
    delta = make_portfolio(A, holders=[w.client], adviser=w.adviser, name="Delta Co")
    echo = make_portfolio(A, holders=[w.co_holder], adviser=w.adviser, name="=Echo Holdings")
    gone = make_portfolio(A, holders=[w.client], adviser=w.adviser, name="Gone",
                          deleted_at=datetime(2026, 1, 1, tzinfo=timezone.utc))

    cash(alpha, "10000.00")
    cash(alpha, "1234.56", action="decrease")
    cash(alpha, "500.00", status="pending")  # not executed: not counted
    cash(beta, "300.00")
    cash(echo, "2000.00")
    cash(w.other_portfolio, "5.00")

    _tp(alpha, 1, "active", value="20000.00", cash_after="1500.25", min_cash="400.00", day="2026-02-01",
        approved="2026-02-03", validated="2026-02-02", by=w.adviser)
    _tp(alpha, 2, "draft", value="20100.00", cash_after="900.00", min_cash="402.00", day="2026-03-01", by=w.adviser)
    _tp(beta, 1, "validated", value="50000.00", cash_after="100.00", min_cash="500.00", day="2026-02-20",
        validated="2026-02-21", by=w.adviser)
    _tp(charlie, 1, "draft", value="7000.00", cash_after="-50.00", min_cash="70.00", day="2026-03-05",
        not_enough_cash=True, by=w.superuser)
    _tp(delta, 1, "failed", value=None, day="2026-01-10", error="The portfolio is not linked to a model", by=w.adviser)
    _tp(echo, 1, "active", value="10000.00", cash_after="50.00", min_cash="100.00", day="2026-01-15",
        approved="2026-01-20")
    _tp(gone, 1, "active", value="1.00", cash_after="1.00", min_cash="1.00")
    _tp(w.other_portfolio, 1, "active", value="99999.99", cash_after="5.00", min_cash="1.00", approved="2026-02-01")
    return Firm(w, alpha, beta, charlie, delta, echo)


def _pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def _names(report) -> list[str]:
    return [r.portfolio_name for r in report.rows]


# ---- cash report --------------------------------------------------------------------------------------
def test_cash_report_default_is_approved_with_figures_to_the_cent(firm):
    w = firm.w
    report = reports.cash_report(actor=actor(w.adviser))
    assert _names(report) == ["=Echo Holdings", "Alpha Fund"]  # portfolio_name ascending
    echo, alpha = report.rows
    assert (alpha.status, alpha.status_label, alpha.version) == ("active", "Approved", 1)  # v1, not the newer draft
    assert alpha.date == at("2026-02-03", hour=9)
    assert alpha.value == Decimal("20000.00")
    assert alpha.cash == Decimal("8765.44")                # 10,000.00 - 1,234.56 (the pending 500 not counted)
    assert alpha.cash_after == Decimal("1500.25")
    assert alpha.min_cash == Decimal("400.00")
    assert alpha.cash_to_invest == Decimal("8365.44")      # 8,765.44 - 400.00
    assert alpha.owners == w.client.first_name + " Tester"  # the co-holder is not an owner
    assert alpha.adviser == f"{w.adviser.first_name} Tester"
    assert (echo.cash, echo.cash_to_invest) == (Decimal("2000.00"), Decimal("1900.00"))
    assert report.total_amount == Decimal("10765.44")
    assert report.totals == {"value": Decimal("30000.00"), "cash": Decimal("10765.44"),
                             "placed_buys": Decimal("0.00"), "cash_after": Decimal("1550.25"), "min_cash": Decimal("500.00"),
                             "cash_to_invest": Decimal("10265.44")}
    assert rendered(report.available_statuses) == [
        {"value": "draft", "label": "Validation Required"}, {"value": "not_enough_cash", "label": "Not Enough Cash"},
        {"value": "validated", "label": "Approval Required"}, {"value": "active", "label": "Approved"}]
    assert report.statuses == ["active"] and report.count == 2


def test_cash_report_status_filters(firm):
    a = actor(firm.w.adviser)
    validated = reports.cash_report(actor=a, status="validated")
    assert _names(validated) == ["beta Trust"]
    row = validated.rows[0]
    assert (row.cash, row.min_cash, row.cash_to_invest) == (Decimal("300.00"), Decimal("500.00"), Decimal("-200.00"))
    assert row.date == at("2026-02-21", hour=9) and validated.total_amount == Decimal("300.00")

    nec = reports.cash_report(actor=a, status="Not Enough Cash")
    assert _names(nec) == ["Charlie Super"] and nec.rows[0].cash_after == Decimal("-50.00")
    assert nec.rows[0].cash_to_invest == Decimal("-70.00")

    # several statuses: each portfolio's newest matching one (Alpha's newer draft wins over its approved one)
    both = reports.cash_report(actor=a, status=["approved", "draft"])
    assert [(r.portfolio_name, r.status, r.version) for r in both.rows] == [
        ("=Echo Holdings", "active", 1), ("Alpha Fund", "draft", 2)]
    assert both.rows[1].cash_after == Decimal("900.00") and both.rows[1].date == at("2026-03-01", hour=9)

    everything = reports.cash_report(actor=a, status="all")
    assert len(everything.rows) == 4 and "Delta Co" not in _names(everything)  # a Calculation Error has no figures
    with pytest.raises(ValidationError):
        reports.cash_report(actor=a, status="failed")
    with pytest.raises(ValidationError):
        reports.cash_report(actor=a, status="bogus")


def test_cash_report_sorts_and_pages(firm):
    a = actor(firm.w.adviser)
    assert _names(reports.cash_report(actor=a, sort="cash", order="desc")) == ["Alpha Fund", "=Echo Holdings"]
    assert _names(reports.cash_report(actor=a, sort="portfolio_name", order="desc")) == ["Alpha Fund", "=Echo Holdings"]
    assert _names(reports.cash_report(actor=a, order="portfolio_name", sort="desc")) == ["Alpha Fund", "=Echo Holdings"]
    assert _names(reports.cash_report(actor=a, sort="cash_after")) == ["=Echo Holdings", "Alpha Fund"]
    assert _names(reports.cash_report(actor=a, sort="getattr_me", order="asc")) == ["=Echo Holdings", "Alpha Fund"]
    page = reports.cash_report(actor=a, limit=1, offset=1)
    assert _names(page) == ["Alpha Fund"] and page.count == 2 and page.total_amount == Decimal("10765.44")


def test_cash_report_tenancy_and_roles(firm):
    w = firm.w
    for who in (w.adviser, w.admin):
        report = reports.cash_report(actor=actor(who), status="all")
        assert "Other Family" not in _names(report) and "Gone" not in _names(report)
        assert reports.cash_report(actor=actor(who), firm_id="-1").firm_id == w.firm.id
        with pytest.raises(NotFound):
            reports.cash_report(actor=actor(who), firm_id=str(w.other_firm.id))
    with pytest.raises(PermissionDenied):
        reports.cash_report(actor=actor(w.client))
    with pytest.raises(NotFound):
        reports.pending_report(actor=actor(w.other_adviser), firm_id=w.firm.id)

    everyone = reports.cash_report(actor=actor(w.superuser), firm_id="-1")
    assert _names(everyone) == ["=Echo Holdings", "Alpha Fund", "Other Family"]
    assert everyone.total_amount == Decimal("10770.44") and everyone.firm_name == "All firms"
    assert everyone.rows[2].firm == "Other Test"
    other = reports.cash_report(actor=actor(w.superuser), firm_id=w.other_firm.id)
    assert _names(other) == ["Other Family"] and other.rows[0].cash_to_invest == Decimal("4.00")
    assert reports.cash_report(actor=actor(w.other_adviser)).total_amount == Decimal("5.00")

    # administrators see no drafts on the target portfolio screens, nor here
    admin = reports.cash_report(actor=actor(w.admin), status="all")
    assert sorted(_names(admin)) == ["=Echo Holdings", "Alpha Fund", "beta Trust"]
    assert {s.value for s in admin.available_statuses} == {"validated", "active"}


# ---- pending report -------------------------------------------------------------------------------------
def test_pending_report_rows_newest_first(firm):
    w = firm.w
    report = reports.pending_report(actor=actor(w.adviser), now=NOW)
    assert [(r.portfolio_name, r.status_label, r.days_waiting) for r in report.rows] == [
        ("Charlie Super", "Not Enough Cash", 5), ("Alpha Fund", "Validation Required", 9),
        ("beta Trust", "Approval Required", 18), ("Delta Co", "Calculation Error", 59)]
    charlie, alpha, beta, delta = report.rows
    assert charlie.calculated_by == f"{w.superuser.first_name} Tester" and charlie.owners == f"{w.stranger.first_name} Tester"
    assert alpha.date == at("2026-03-01", hour=9) and alpha.value == Decimal("20100.00") and alpha.tp_id
    assert delta.error_message == "The portfolio is not linked to a model" and delta.value is None
    assert report.total_amount == Decimal("77100.00")  # 7,000 + 20,100 + 50,000 (no value for the error)
    assert [s.value for s in report.available_statuses] == ["draft", "not_enough_cash", "validated", "failed"]
    assert "=Echo Holdings" not in _names(report)  # approved: nothing pending


def test_pending_report_filters_and_sorts(firm):
    a = actor(firm.w.adviser)
    nec = reports.pending_report(actor=a, not_enough_cash="1")
    assert _names(nec) == ["Charlie Super"] and nec.total_amount == Decimal("7000.00") and nec.not_enough_cash
    assert _names(reports.pending_report(actor=a, not_enough_cash="1", status="validated")) == []
    assert _names(reports.pending_report(actor=a, not_enough_cash="0", status="validated")) == ["beta Trust"]
    failed = reports.pending_report(actor=a, status="failed")
    assert _names(failed) == ["Delta Co"] and failed.total_amount == Decimal("0.00")
    assert _names(reports.pending_report(actor=a, status="draft,validated")) == ["Alpha Fund", "beta Trust"]
    with pytest.raises(ValidationError):
        reports.pending_report(actor=a, status="active")
    assert _names(reports.pending_report(actor=a, sort="date", order="asc")) == [
        "Delta Co", "beta Trust", "Alpha Fund", "Charlie Super"]
    assert _names(reports.pending_report(actor=a, sort="value", order="desc")) == [
        "beta Trust", "Alpha Fund", "Charlie Super", "Delta Co"]  # no value: last either way
    assert _names(reports.pending_report(actor=a, sort="value", order="asc")) == [
        "Charlie Super", "Alpha Fund", "beta Trust", "Delta Co"]
    assert _names(reports.pending_report(actor=a, sort="portfolio_name", order="asc")) == [
        "Alpha Fund", "beta Trust", "Charlie Super", "Delta Co"]
    assert _names(reports.pending_report(actor=a, limit=2, offset=2)) == ["beta Trust", "Delta Co"]


def test_pending_report_tenancy_and_roles(firm):
    w = firm.w
    assert _names(reports.pending_report(actor=actor(w.other_adviser))) == []
    assert len(reports.pending_report(actor=actor(w.superuser)).rows) == 4
    assert _names(reports.pending_report(actor=actor(w.superuser), firm_id=w.other_firm.id)) == []
    admin = reports.pending_report(actor=actor(w.admin))
    assert _names(admin) == ["beta Trust"] and rendered(admin.available_statuses) == [
        {"value": "validated", "label": "Approval Required"}]
    with pytest.raises(PermissionDenied):
        reports.pending_report(actor=actor(w.client))
    with pytest.raises(NotFound):
        reports.pending_report(actor=actor(w.superuser), firm_id="999999")


def test_reports_read_in_a_fixed_number_of_queries(firm):
    w = firm.w

    def counts() -> tuple[int, int]:
        with count_queries() as cash_sql:
            reports.cash_report(actor=actor(w.superuser), status="all")
        with count_queries() as pending_sql:
            reports.pending_report(actor=actor(w.superuser))
        return len(cash_sql), len(pending_sql)

    before = counts()
    for n in range(12):
        p = make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name=f"More {n:02d}")
        cash(p, "10.00")
        _tp(p, 1, "active", value="100.00", cash_after="1.00", min_cash="1.00", approved="2026-02-01")
        _tp(p, 2, "draft", value="100.00", cash_after="1.00", min_cash="1.00")
    assert counts() == before


# ---- exports --------------------------------------------------------------------------------------------
def test_cash_report_excel_and_pdf(firm):
    a = actor(firm.w.adviser)
    file = reports.export(actor=a, kind="cash", file_type="xlsx", client_offset="-600")
    assert file.name.startswith("Harbour Test - Cash Report - ") and file.name.endswith(".xlsx")
    ws = load_workbook(io.BytesIO(file.data)).active
    values = [[c.value for c in row] for row in ws.iter_rows()]
    header = next(r for r in values if r[0] == "Portfolio")
    assert header[:6] == ["Portfolio", "Owners", "Adviser", "Model", "Status", "Date"]  # no firm column for one firm
    echo = next(r for r in values if r[0] == "=Echo Holdings")  # a text cell, not a formula
    assert echo[4] == "Approved" and echo[5].date().isoformat() == "2026-01-20"
    assert echo[6:] == [10000, 2000, 0, 50, 100, 1900]  # value, cash, placed buys, after, minimum, to invest
    alpha = next(r for r in values if r[0] == "Alpha Fund")
    assert alpha[6:] == [20000, 8765.44, 0, 1500.25, 400, 8365.44]
    total = next(r for r in values if r[0] == "Total")
    assert total[7] == 10765.44
    cell = next(c for row in ws.iter_rows() for c in row if c.value == "=Echo Holdings")
    assert cell.data_type == "s"

    pdf = reports.export(actor=a, kind="cash", file_type="pdf", status="validated")
    assert pdf.media_type == "application/pdf" and pdf.name.endswith(".pdf")
    text = _pdf_text(pdf.data)
    assert "Cash Report" in text and "beta Trust" in text and "-$200.00" in text and "Alpha Fund" not in text
    with pytest.raises(ValidationError):
        reports.export(actor=a, kind="cash", file_type="doc")

    nothing = reports.export(actor=a, kind="cash", file_type="xlsx", status="declined")
    rows = [[c.value for c in row] for row in load_workbook(io.BytesIO(nothing.data)).active.iter_rows()]
    assert ["Status", "Declined"] == rows[2][:2] and ["Portfolios", 0] == rows[3][:2]
    assert any(r[0] == "No portfolio has a target portfolio in the chosen status." for r in rows)
    assert next(r for r in rows if r[0] == "Total")[8] == 0
    every = reports.export(actor=a, kind="cash", file_type="pdf", status="all")
    assert "Status All statuses" in _pdf_text(every.data)


def test_pending_report_excel_with_every_firm(firm):
    file = reports.export(actor=actor(firm.w.superuser), kind="pending", file_type="xlsx", firm_id="-1",
                          sort="portfolio_name", order="asc")
    ws = load_workbook(io.BytesIO(file.data)).active
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    header = next(r for r in rows if r[0] == "Portfolio")
    assert header == ["Portfolio", "Firm", "Owners", "Adviser", "Model", "Status", "Message", "Date", "Calculated By",
                      "Days Waiting", "Value"]
    body = rows[rows.index(header) + 1:]
    assert [r[0] for r in body] == ["Alpha Fund", "beta Trust", "Charlie Super", "Delta Co", "Total"]
    assert body[3][5:7] == ["Calculation Error", "The portfolio is not linked to a model"]
    assert body[4][10] == 77100
    assert file.name.startswith("All firms - Pending Target Portfolios - ")
    pdf = reports.export(actor=actor(firm.w.superuser), kind="pending", file_type="pdf")
    text = _pdf_text(pdf.data)
    assert "Pending Target Portfolios" in text and "Not Enough Cash" in text and "$77,100.00" in text


# ---- the real calculation and the live event ----------------------------------------------------------------
def test_calculated_and_approved_targets_feed_the_reports_and_announce_themselves(db):
    book = make_book(2)
    adviser = actor(book.adviser)
    first, second = book.portfolio_ids
    topic = firm_topic(book.firm.id)
    with progress.subscribe(topic) as events:
        tp = tps.calculate(actor=adviser, investment_id=first)
        event = events.get(2)
        assert event == {"event": tps.TP_UPDATED, "firm_id": book.firm.id, "investment_id": first, "tp_id": tp["id"],
                         "status": "draft"}
        validated = tps.validate(actor=adviser, tp_id=tp["id"])
        assert events.get(2)["status"] == "validated"
        tps.decide(actor=adviser, tp_id=tp["id"], action="approve", row_version=validated["row_version"])
        assert events.get(2)["status"] == "active"
        tps.calculate(actor=adviser, investment_id=second)
        assert events.get(2)["investment_id"] == second
        with pytest.raises(Conflict):  # a refused change announces nothing
            tps.decide(actor=adviser, tp_id=tp["id"], action="decline", row_version=validated["row_version"])
        assert events.get(0.3) is None

    stored = tps.get(actor=adviser, tp_id=tp["id"])["result"]
    report = reports.cash_report(actor=adviser)
    assert [r.investment_id for r in report.rows] == [first]
    row = report.rows[0]
    assert row.cash == Decimal("49590.00")  # 50,000.00 credit - 10 BHP at $40.00 - $10.00 brokerage
    assert row.cash_after == Decimal(stored["cash_after"]) and row.min_cash == Decimal(stored["min_cash"])
    assert row.value == Decimal(stored["value"]) and row.cash_to_invest == row.cash - row.min_cash

    pending = reports.pending_report(actor=adviser)
    assert [(r.investment_id, r.status) for r in pending.rows] == [(second, "draft")]
    assert pending.rows[0].calculated_by == f"{book.adviser.first_name} Tester"


def test_the_event_travels_through_redis(db, redis_url):
    """Scaled out (REDIS_URL): the pending report of another web process hears the change."""
    book = make_book(1)
    with progress.subscribe(firm_topic(book.firm.id)) as events:
        tp = tps.calculate(actor=actor(book.adviser), investment_id=book.portfolio_ids[0])
        event = events.get(5)
    assert event is not None and (event["event"], event["tp_id"], event["firm_id"]) == (
        tps.TP_UPDATED, tp["id"], book.firm.id)
