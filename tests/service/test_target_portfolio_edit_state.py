"""The target portfolio screen's edit mode (app.ui.states.target_portfolio.TargetPortfolioState), its
handlers called on a real state instance against a real database: the history of steps (each the
whole list of edits), Undo, Save refused while a step recalculates ('Recalculating in proccess.
Please, wait') or with invalid units ('Please, validate data first.'), a failed step dropped with
the result kept, Remove of an asset whose target reached zero, the new version saved, and a
version with edits starting the history from them.

A step's recalculation runs in a background event on the server; here `_recalculated` does what
that event does (target_portfolios.edit_preview, then the state's `_step_done`), so that the moment
between the step and its result can be looked at."""
from __future__ import annotations

from typing import Any

import pytest
import reflex as rx

from app.domain import advice
from app.domain.errors import DomainError
from app.services import auth
from tests.advice_edge import tps
from app.ui.states.base import AppState
from app.ui.states.target_portfolio import MODE_EDIT, TargetPortfolioState
from tests._harness import statements_during
from tests.factories import PASSWORD, actor
from tests.factories_advice import make_book


@pytest.fixture
def screen(db):
    book = make_book(1)
    pid = book.portfolio_ids[0]
    tps.calculate(actor=actor(book.adviser), investment_id=pid)
    root = rx.State(_reflex_internal_init=True)
    state = root.get_substate(TargetPortfolioState.get_full_name().split(".")[1:])
    state.token, _ = auth.signin(email=book.adviser.email, password=PASSWORD)
    state.portfolio_id = pid
    state._load(state._actor())
    return state


def _call(state, name: str, *args) -> list[Any]:
    """The events a handler gives (generators run to the end)."""
    out = type(state).event_handlers[name].fn(state, *args)
    if out is None:
        return []
    if hasattr(out, "__next__"):
        return [e for item in out if item is not None for e in (item if isinstance(item, list) else [item])]
    return out if isinstance(out, list) else [out]


def _said(events: list[Any], text: str) -> bool:
    return any(text in repr(e) for e in events)


def _recalculated(state) -> list[Any]:
    """What the background event `recalculate` does once the step's recalculation ends."""
    assert state.recalculating
    a = state._actor()
    try:
        view = tps.edit_preview(actor=a, tp_id=state.tp_id, row_version=state._row_version, overrides=state._current())
        error = None
    except DomainError as exc:
        view, error = None, exc.message
    state._step_done(view, error)
    return [error] if error else []


def _sent(state) -> list[dict[str, Any]]:
    """The edits of the last step (typed, app.domain.advice.target_portfolios.TargetEdit) in the form
    the REST edit step takes them: {asset_id?, code, target_units} or {asset_id?, code, class_id}."""
    out = []
    for e in state._current():
        entry: dict[str, Any] = {"asset_id": e.asset_id} if e.asset_id else {}
        entry["code"] = e.code
        if e.target_units is not None:
            entry["target_units"] = format(e.target_units, "f")
        else:
            entry["class_id"] = e.class_id
        out.append(entry)
    return out


def _lines(state) -> dict[str, Any]:
    return {line.code: line for c in state.classes for line in c.lines if line.kind == "asset"}


def _versions(state) -> int:
    return tps.list_versions(actor=state._actor(), investment_id=state.portfolio_id)[1]


def test_a_step_undo_and_save_refused_while_recalculating(screen):
    s = screen
    before = {code: line.units_raw for code, line in _lines(s).items()}
    bhp = _lines(s)["BHP"]
    assert s.can_edit and s.mode == ""
    _call(s, "start_edit")
    assert s.mode == MODE_EDIT and s.edit_steps == 0 and not s.edit_changed and not s.form_dirty

    new_units = int(bhp.units_raw) + 200
    assert _call(s, "commit_units", bhp.asset_id, f"{new_units:,}") != []  # the step's recalculation starts
    assert s.recalculating and s.edit_steps == 1 and s.edit_changed and s.form_dirty
    assert _sent(s) == [{"asset_id": bhp.asset_id, "code": "BHP", "target_units": str(new_units)}]

    # Save, another step, Undo, Add asset or Remove while it runs: 'Recalculating in proccess. Please, wait'
    assert _said(_call(s, "save_edit"), advice.RECALCULATING)
    assert _said(_call(s, "commit_units", _lines(s)["CBA"].asset_id, "7"), advice.RECALCULATING)
    assert _said(_call(s, "undo"), advice.RECALCULATING)
    assert _said(_call(s, "add_asset", {"code": "WES", "class_id": bhp_class(s)}), advice.RECALCULATING)
    assert _versions(s) == 1 and s.edit_steps == 1

    assert _recalculated(s) == []
    after = _lines(s)
    assert after["BHP"].units_raw == str(new_units) and after["BHP"].units_input == str(new_units)
    assert "Set by adviser" in after["BHP"].flags
    assert any(r.startswith(f"set by the adviser: {new_units} units") for r in after["BHP"].reasons)
    assert after["CBA"].units_raw != before["CBA"]  # the rest recalculated
    # committing the same units again is no step
    assert _call(s, "commit_units", bhp.asset_id, str(new_units)) == [] and s.edit_steps == 1

    _call(s, "undo")
    assert s.recalculating and s.edit_steps == 0
    _recalculated(s)
    assert {code: line.units_raw for code, line in _lines(s).items()} == before
    assert _call(s, "undo") == [] and not s.recalculating  # nothing left to undo


def bhp_class(state) -> int:
    return next(c.id for c in state.classes if any(line.code == "BHP" for line in c.lines))


def test_invalid_units_mark_the_field_and_save_asks_to_validate_first(screen):
    s = screen
    _call(s, "start_edit")
    cba = _lines(s)["CBA"]
    for text in ("1.5", "-3", "abc", ""):
        assert _call(s, "submit_units", {"asset_id": str(cba.asset_id), "units": text}) == []
        line = _lines(s)["CBA"]
        assert line.invalid and line.units_input == text and s.invalid_count == 1 and not s.recalculating
    assert s.form_dirty and s.edit_steps == 0
    assert _said(_call(s, "save_edit"), advice.VALIDATE_FIRST) and _versions(s) == 1
    _call(s, "commit_units", cba.asset_id, cba.units_raw)  # back to its units: valid, and no step
    assert not _lines(s)["CBA"].invalid and s.invalid_count == 0 and s.edit_steps == 0 and not s.form_dirty


def test_a_failed_step_is_dropped_and_the_result_stays(screen):
    s = screen
    _call(s, "start_edit")
    _call(s, "add_asset", {"code": "wes", "class_id": str(bhp_class(s))})
    assert _sent(s) == [{"code": "WES", "class_id": bhp_class(s)}]
    _recalculated(s)
    assert _lines(s)["WES"].added and "Added" in _lines(s)["WES"].flags and s.edit_steps == 1
    shown = {code: line.units_raw for code, line in _lines(s).items()}

    _call(s, "add_asset", {"code": "zzz", "class_id": bhp_class(s)})
    assert s.edit_steps == 2
    assert _recalculated(s) == ["Asset ZZZ is not found"]
    assert s.edit_steps == 1 and not s.recalculating and _sent(s) == [{"code": "WES", "class_id": bhp_class(s)}]
    assert {code: line.units_raw for code, line in _lines(s).items()} == shown
    # a class the result does not have, or no code: no step
    assert _call(s, "add_asset", {"code": "CSL", "class_id": 999999}) == [] and s.edit_steps == 1
    assert _said(_call(s, "add_asset", {"code": "  ", "class_id": bhp_class(s)}), "Please, enter an asset code")


def test_remove_an_asset_whose_target_reached_zero(screen):
    s = screen
    _call(s, "start_edit")
    cls = bhp_class(s)
    _call(s, "add_asset", {"code": "WES", "class_id": cls})
    _recalculated(s)
    wes = _lines(s)["WES"]
    assert not wes.removable
    assert _call(s, "ask_remove", wes.asset_id) == [] and not s.confirm_open  # its target is not zero
    _call(s, "commit_units", wes.asset_id, "0")
    _recalculated(s)
    assert _lines(s)["WES"].units_raw == "0" and _lines(s)["WES"].removable

    _call(s, "ask_remove", wes.asset_id)
    assert s.confirm_open and s.confirm_message == advice.CONFIRM_REMOVE_ASSET == "Are you sure you want to remove this asset?"
    _call(s, "confirm")
    assert s.edit_steps == 3 and _sent(s) == []  # an added asset leaves with its edits
    _recalculated(s)
    assert "WES" not in _lines(s)

    # another asset set to zero is already removed: nothing more to offer
    cba = _lines(s)["CBA"]
    _call(s, "commit_units", cba.asset_id, "0")
    _recalculated(s)
    assert _lines(s)["CBA"].units_raw == "0" and not _lines(s)["CBA"].removable


def test_save_stores_a_new_version_and_the_next_edit_starts_from_its_edits(screen):
    s = screen
    _call(s, "start_edit")
    bhp = _lines(s)["BHP"]
    _call(s, "commit_units", bhp.asset_id, "321")
    _recalculated(s)
    events = _call(s, "save_edit")
    assert _said(events, advice.TP_SAVED)
    assert s.mode == "" and not s.form_dirty and s.edit_steps == 0 and s.tp_version == 2 and _versions(s) == 2
    assert _lines(s)["BHP"].target_units == "321" and s.tp_status == "draft"

    _call(s, "start_edit")
    assert s.mode == MODE_EDIT and s.edit_steps == 0 and not s.form_dirty
    assert _sent(s) == [{"asset_id": bhp.asset_id, "code": "BHP", "target_units": "321"}]
    _call(s, "commit_units", _lines(s)["CBA"].asset_id, "5")
    assert _sent(s)[0]["target_units"] == "321" and s.edit_steps == 1
    _recalculated(s)
    # Cancel with a change asks first (the leave dialog); without one it leaves at once
    _call(s, "cancel_edit")
    assert s.leave_open and s.mode == MODE_EDIT
    s.leave_open = False
    _call(s, "undo")
    _recalculated(s)
    _call(s, "cancel_edit")
    assert s.mode == "" and _lines(s)["BHP"].target_units == "321" and _versions(s) == 2


def test_save_of_the_leave_dialog_saves_then_goes_on(screen):
    s = screen
    _call(s, "start_edit")
    _call(s, "commit_units", _lines(s)["BHP"].asset_id, "77")
    _recalculated(s)
    assert s.form_dirty
    AppState.event_handlers["navigate"].fn(s, "/portfolios")  # the unsaved-changes guard holds the page
    assert s.leave_open and s.leave_to == "/portfolios"
    chained = _call(s, "save_and_leave")
    assert not s.leave_open and [e.fn.__name__ for e in chained] == ["save_edit"]
    events = _call(s, "save_edit")
    assert _said(events, advice.TP_SAVED) and _said(events, "/portfolios")
    assert s.mode == "" and not s.form_dirty and _versions(s) == 2


def test_edit_is_not_offered_for_an_older_version_nor_while_calculating(screen):
    s = screen
    tps.calculate(actor=s._actor(), investment_id=s.portfolio_id)  # version 2
    s.viewing_version = 1
    s._load(s._actor())
    assert s.tp_version == 1 and s.latest_version == 2 and not s.can_edit
    _call(s, "start_edit")
    assert s.mode == ""
    s.viewing_version = 0
    s._load(s._actor())
    assert s.can_edit
    _call(s, "start_edit")
    assert s.mode == MODE_EDIT
    for name in ("ask_calculate", "ask_validate"):
        _call(s, name)
        assert not s.confirm_open


def test_cancel_without_a_step_shows_the_stored_version_again_without_reading_it_again(screen):
    """Edit then Cancel with nothing changed: the page as it was, and not a single query (the
    stored version is what was shown); after a step and its undo, Cancel reads the stored version
    again (the step's recalculation priced the lines afresh)."""
    s = screen
    shown = [(c.title, [(line.code, line.units_raw, line.price, line.current_value) for line in c.lines]) for c in s.classes]
    _call(s, "start_edit")
    assert s.mode == MODE_EDIT
    assert statements_during(lambda: _call(s, "cancel_edit")) == 0
    assert s.mode == "" and not s.form_dirty
    assert [(c.title, [(line.code, line.units_raw, line.price, line.current_value) for line in c.lines]) for c in s.classes] == shown

    _call(s, "start_edit")
    bhp = _lines(s)["BHP"]
    _call(s, "commit_units", bhp.asset_id, str(int(bhp.units_raw) + 100))
    _recalculated(s)
    _call(s, "undo")
    _recalculated(s)
    assert s.edit_steps == 0
    assert statements_during(lambda: _call(s, "cancel_edit")) > 0
    assert s.mode == "" and [c.title for c in s.classes] == [title for title, _ in shown]
