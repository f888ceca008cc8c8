"""The dashboard's queue cards and calculate action, and the pending report they open: each card opens
the report filtered to what it counted; an administrator (who is not shown drafts) reads how many
drafts wait with the advisers; the pending report's status filter offers every status the actor
may see, Calculation Error included; the minimum breach box refuses what is not a number of points
with the validators' texts; a calculation started from the dashboard says 'Rebalance triggered
for {name}' (000 s8), and the Calculate button's rule for nothing ticked says portfolio.
Services on a real database; the screens' handlers on real state instances."""
from __future__ import annotations

import pytest
import reflex as rx
from reflex.istate.data import RouterData

from app.domain import advice
from app.domain import validators as v
from app.domain.drift import read_min_breach
from app.domain.errors import ValidationError
from app.domain.wire import rendered
from app.services import advice_reports, auth, bulk_runs, drift
from app.ui import routes
from app.ui.states.advice_reports import PendingReportState
from app.ui.states.dashboard import DashboardState
from tests import factories as f
from tests.factories_advice import make_book, make_target_portfolio
from tests.factories_portfolios import make_portfolio


@pytest.fixture
def desk(db):
    """Firm A: two portfolios waiting with a draft, one with a failed calculation, one awaiting its
    client, one whose old draft was superseded by an approved version."""
    w = f.make_world()
    model = f_model(w)
    ps = [make_portfolio(w.firm_a, holders=[w.client_a], adviser=w.adviser_a, model=model, name=f"P{n}")
          for n in range(5)]
    make_target_portfolio(ps[0], 1, "draft", day="2026-03-01")
    make_target_portfolio(ps[1], 1, "draft", day="2026-03-02")
    make_target_portfolio(ps[2], 1, "failed", error="No prices")
    make_target_portfolio(ps[3], 1, "validated", validated="2026-03-03")
    make_target_portfolio(ps[4], 1, "draft", day="2026-02-01")
    make_target_portfolio(ps[4], 2, "active", day="2026-02-02", approved="2026-02-03")
    return w, ps


def f_model(w):
    from tests.factories_models import make_model

    return make_model(w.firm_a)


def _screen(cls, user, path: str = "/"):
    root = rx.State(_reflex_internal_init=True)
    state = root.get_substate(cls.get_full_name().split(".")[1:])
    state.token, _ = auth.signin(email=user.email, password=f.PASSWORD)
    state.router = RouterData.from_router_data({"asPath": path, "headers": {"origin": "http://localhost"}})
    return state


def _call(state, name: str, *args):
    out = type(state).event_handlers[name].fn(state, *args)
    if hasattr(out, "__next__"):
        out = [e for e in out if e is not None]
    return out


# ---- the administrator's drafts ------------------------------------------------------------------------------
def test_drafts_with_advisers_are_counted_for_those_not_shown_drafts(desk):
    w, _ = desk
    assert advice_reports.drafts_with_advisers(actor=f.actor(w.admin_a)) == 2
    assert advice_reports.drafts_with_advisers(actor=f.actor(w.adviser_a)) == 0  # the adviser sees them
    assert advice_reports.drafts_with_advisers(actor=f.actor(w.admin_b)) == 0  # another firm's

    q = drift.queues(actor=f.actor(w.admin_a))
    assert (q.to_validate, q.drafts_with_advisers, q.sees_drafts) == (0, 2, False)
    q = drift.queues(actor=f.actor(w.adviser_a))
    assert (q.to_validate, q.calculation_error, q.awaiting_client, q.sees_drafts) == (2, 1, 1, True)


def test_admin_card_says_drafts_with_advisers_and_cards_open_their_filter(desk):
    w, _ = desk
    state = _screen(DashboardState, w.admin_a, "/dashboard")
    _call(state, "load_queues")
    cards = {c.key: c for c in state.cards}
    assert cards["tp-validate"].count == 0 and cards["tp-validate"].detail == "2 drafts with advisers"
    assert cards["tp-validate"].url == routes.url("reports.pending-target-portfolios")  # no drafts in their report
    assert cards["roa-client"].url == routes.url("reports.pending-target-portfolios", query={"status": "validated"})

    state = _screen(DashboardState, w.adviser_a, "/dashboard")
    _call(state, "load_queues")
    cards = {c.key: c for c in state.cards}
    assert cards["tp-validate"].count == 2 and cards["tp-validate"].detail.startswith("oldest ")
    pending = lambda status: routes.url("reports.pending-target-portfolios", query={"status": status})  # noqa: E731
    assert cards["tp-validate"].url == pending("draft")
    assert cards["nec"].url == pending("not_enough_cash")
    assert cards["error"].url == pending("failed")


def test_pending_report_opens_on_the_status_of_its_link_and_offers_calculation_error(desk):
    w, ps = desk
    report = PendingReportState
    state = _screen(report, w.adviser_a, "/reports/pending-target-portfolios?status=failed")
    state._start(state._actor())
    assert state.status_filter == "failed"
    assert [r.id for r in state.rows] == [ps[2].id]
    labels = [o.label for o in state.status_options]
    assert labels == ["All statuses", "Validation Required", "Not Enough Cash", "Approval Required", "Calculation Error"]

    state = _screen(report, w.adviser_a, "/reports/pending-target-portfolios?status=draft")
    state._start(state._actor())
    assert state.status_filter == "draft" and {r.id for r in state.rows} == {ps[0].id, ps[1].id}

    state = _screen(report, w.adviser_a, "/reports/pending-target-portfolios?status=nonsense")
    state._start(state._actor())
    assert state.status_filter == "all" and len(state.rows) == 4


def test_calculation_error_is_offered_when_no_portfolio_has_one(db):
    w = f.make_world()
    make_target_portfolio(make_portfolio(w.firm_a, holders=[w.client_a]), 1, "draft")
    report = advice_reports.pending_report(actor=f.actor(w.adviser_a))
    assert [s.label for s in report.available_statuses] == ["Validation Required"]  # what is there
    assert "Calculation Error" in [s.label for s in report.offered_statuses]  # what may be chosen
    admin = advice_reports.pending_report(actor=f.actor(w.admin_a))
    assert [s.label for s in admin.offered_statuses] == ["Approval Required"]


# ---- the minimum breach box ---------------------------------------------------------------------------------
@pytest.mark.parametrize("typed,text", [("abc", v.NUMBER.strip()), ("-5", v.POSITIVE), ("1e3", v.NUMBER.strip())])
def test_min_breach_refuses_what_is_not_points(db, typed, text):
    w = f.make_world()
    state = _screen(DashboardState, w.adviser_a, "/dashboard")
    assert _call(state, "set_min_breach", typed) is None
    assert state.min_breach_error == text and state.min_breach == ""
    _call(state, "set_min_breach", " 2.5 ")
    assert state.min_breach_error == "" and state.min_breach == "2.5"
    with pytest.raises(ValidationError) as refused:
        drift.report(actor=f.actor(w.adviser_a), min_breach=read_min_breach(typed))
    assert refused.value.message == v.NUMBER if typed != "-5" else refused.value.message == v.POSITIVE


# ---- calculate ----------------------------------------------------------------------------------------------
def test_rebalance_triggered_names_what_is_calculated():
    assert advice.rebalance_triggered(["Rose Bay"]) == "Rebalance triggered for Rose Bay"
    assert advice.rebalance_triggered(["A", "B", "C"], 5) == "Rebalance triggered for A, B, C and 2 more"
    assert advice.REBALANCE_TRIGGERED == "Rebalance triggered for {name}"
    assert advice.SELECT_PORTFOLIO == "Select at least one portfolio"


def test_run_names_are_the_runs_portfolios_or_models(db):
    book = make_book(4, funded=False)
    a = f.actor(book.adviser)
    run = rendered(bulk_runs.start_for_investments(actor=a, kind="tp", investment_ids=book.portfolio_ids[:2]))
    named = bulk_runs.run_names(actor=a, run_id=run["id"])
    assert (named.names, named.total) == (["Calc 000", "Calc 001"], 2)
    run = rendered(bulk_runs.start_for_models(actor=a, kind="tp", model_ids=[book.model["id"]]))
    named = bulk_runs.run_names(actor=a, run_id=run["id"])
    assert (named.names, named.total) == ([book.model["name"]], 1)


async def _collect(gen):
    return [e async for e in gen]


def _drain(gen) -> list:
    """The events an async handler yields, run on a loop of its own (in a thread: the browser tests of
    the same session leave Playwright's loop running in this one)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from app.jobs import runner

    with ThreadPoolExecutor(max_workers=1) as pool:
        said = pool.submit(asyncio.run, _collect(gen)).result()
    runner.wait_in_process()  # the calculation it started ends before the next test empties the tables
    return said


def test_dashboard_calculate_toasts_rebalance_triggered_and_refuses_nothing_ticked(db):
    book = make_book(2, funded=False)
    state = _screen(DashboardState, book.adviser, "/dashboard")
    said = _drain(state._calculate([]))
    assert any(advice.SELECT_PORTFOLIO in repr(e) for e in said)
    said = _drain(state._calculate([book.portfolio_ids[0]]))
    assert any("Rebalance triggered for Calc 000" in repr(e) for e in said)


def test_bulk_calculation_of_models_toasts_rebalance_triggered(db):
    from app.ui.states.bulk_calculate import BulkCalculateState

    book = make_book(2, funded=False)
    state = _screen(BulkCalculateState, book.adviser, "/bulk-calculate/target-portfolios")
    state.kind, state._chosen = "tp", [book.model["id"]]
    said = _drain(type(state).event_handlers["run_calculation"].fn(state))
    assert any(f"Rebalance triggered for {book.model['name']}" in repr(e) for e in said)
    state.kind, state._chosen = "tr", [book.model["id"]]
    said = _drain(type(state).event_handlers["run_calculation"].fn(state))
    assert not any("Rebalance triggered" in repr(e) for e in said)  # trade recommendations are no rebalance


# ---- the trade recommendation cards ---------------------------------------------------------------------
@pytest.fixture
def trades(db):
    """One firm's trade recommendations: one pending validation, one pending the client's approval,
    and approved trades of two portfolios at Desktop Broker, one of them placed with the broker."""
    from tests.factories_advice import make_trade, make_trade_instruction
    from tests.factories_models import make_universe
    from tests.factories_portfolios import cash, make_broker, make_portfolio_world

    w = make_portfolio_world()
    u = make_universe()
    desktop = make_broker(name="Desktop Broker", code="DTBRK")
    ps = [make_portfolio(w.firm, holders=[w.client], adviser=w.adviser, name=f"Trades {n}", broker_id=desktop.id,
                         broker_account=f"730000{n}", hin=f"X410000000{n}") for n in range(4)]
    for p in ps:
        cash(p, "500000.00")
    make_trade(make_trade_instruction(ps[0], "pending_validation"), u.stocks[1], "increase", "10")
    make_trade(make_trade_instruction(ps[1], "pending_approval", validated=True), u.stocks[1], "increase", "10")
    placed = make_trade(make_trade_instruction(ps[2], validated=True), u.stocks[1], "increase", "10", price="100.00",
                        amount="1019.95")
    for code in (u.stocks[0], u.fixed[0]):
        make_trade(make_trade_instruction(ps[3], validated=True, version=1 if code is u.stocks[0] else 2), code,
                   "increase", "10", amount="2000.00")
    from app.services import trade_file

    assert trade_file.export(actor=f.actor(w.adviser), kind="desktop_broker", lines=trade_file.read_export_lines([{"id": placed.id}])).placed == 1
    return w


def test_trade_cards_open_the_report_on_exactly_what_they_counted(trades):
    from urllib.parse import urlsplit

    from app.ui.states.trade_recommendations import TradeApprovalState, TradeFileState

    w = trades
    state = _screen(DashboardState, w.adviser, "/dashboard")
    _call(state, "load_queues")
    cards = {c.key: c for c in state.cards}
    assert cards["tr-validate"].url == "/reports/trade-recommendations?view=approval&status=spv"
    assert cards["tr-approve"].url == "/reports/trade-recommendations?view=approval&status=spa"
    assert cards["tr-export"].url == "/reports/trade-recommendations?file_status=Approved"

    for key, status in (("tr-validate", "pending_validation"), ("tr-approve", "pending_approval")):
        approval = _screen(TradeApprovalState, w.adviser, cards[key].url)
        _call(approval, "open")
        groups = [line for line in approval.lines if line.is_group]
        assert approval.groups == cards[key].count == 1, key
        assert {g.status for g in groups} == {status}

    # the trade file opens on the rows not exported yet, as many as the card counted
    file = _screen(TradeFileState, w.adviser, cards["tr-export"].url)
    _call(file, "on_load")
    assert file.file_status == "Approved"
    assert file.total == cards["tr-export"].count > 0
    assert file.file_total == file.total + 1  # the placed one is in the file, not in the card
    assert {r.status for r in file.rows} == {"Approved"}
    assert urlsplit(cards["tr-export"].url).path == routes.url("reports.trade-recommendations")
    # the trade file's view and status filter are its own choices too
    _call(file, "set_file_status", "Placed")
    assert {r.status for r in file.rows} == {"Placed"} and file.total == 1
    _call(file, "set_file_status", "nonsense")
    assert file.file_status == "Placed"


def test_a_link_to_the_approval_view_opens_it(trades):
    from app.ui.states.trade_recommendations import APPROVAL_VIEW, TradeApprovalState, TradeFileState

    file = _screen(TradeFileState, trades.adviser, "/reports/trade-recommendations?view=approval&status=spa")
    sent = _call(file, "on_load")
    assert file.view == APPROVAL_VIEW
    assert [getattr(e, "fn", None) for e in sent] == [TradeApprovalState.open.fn]  # the view is read at once
    file = _screen(TradeFileState, trades.adviser, "/reports/trade-recommendations")
    assert not _call(file, "on_load") and file.view == "file"


def test_the_approval_view_keeps_its_statuses_and_order_in_the_address(trades):
    from app.ui.states.trade_recommendations import TradeApprovalState

    approval = _screen(TradeApprovalState, trades.adviser,
                       "/reports/trade-recommendations?view=approval&status=spv,spa&approval_order=status")
    _call(approval, "open")
    assert (approval.spv, approval.spa, approval.sad, approval.order) == (True, True, False, "status")
    assert {line.status for line in approval.lines if line.is_group} == {"pending_validation", "pending_approval"}
    sent = _call(approval, "set_status", "sad", True)
    script = str(sent[-1])
    assert "replaceState" in script and "status=spv%2Cspa%2Csad" in script and "approval_order=status" in script
    # an address naming a status that is not one is not taken
    other = _screen(TradeApprovalState, trades.adviser, "/reports/trade-recommendations?view=approval&status=spv,nope")
    _call(other, "open")
    assert (other.spv, other.spa, other.sad) == (False, False, True)
