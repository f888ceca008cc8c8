"""Editing a target portfolio end to end (spec 001 s4 mode EDIT, s5 texts, s8 'Target Portfolio
saved'; 002 s8 'Are you sure you want to remove this asset?', s9 11 columns while editable), on
tests.factories_advice.make_book(1) written into the app's database on the demo universe (see
test_trade_instructions_e2e.seed_book), its model's equities class limited to 3 assets:

the adviser calculates, presses Edit, sets BHP's target units (Enter): the other assets are
recalculated with their reasons; Undo restores the calculated result; BHP is set again (leaving the
field); WES is added (code typed in lower case), CSL (chosen in the asset picker) is refused with
'Assets limit is exceeded' and the previous result stays; WES set to zero units is offered for deletion and removed; units that are not a whole number mark the field and Save
answers 'Please, validate data first.'; Save stores version 2 ('Target Portfolio saved') showing BHP
with the units set and the reason 'set by the adviser'. Editing version 2 starts from its edits; Cancel
with a change asks (the leave dialog) and Don't Save leaves the edit mode with nothing stored.
('Recalculating in proccess. Please, wait', Save pressed while a step recalculates, depends on a
recalculation of some milliseconds outlasting the Save's way to the server: it is checked on the
screen's state in tests/service/test_target_portfolio_edit_state.py.)
Screenshots at 1440x900 and 390x844: tests/e2e/artifacts/tp-edit-*.png."""
from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

import tests.factories_advice as factories_advice
from app.api.schemas import rendered
from app.domain import advice
from app.domain.model_rules import read_form
from app.services import models
from tests.e2e.test_trade_instructions_e2e import app_database, seed_book
from tests.factories import PASSWORD
from tests.factories_models import payload
from tests.e2e.browser import see_toast

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
EQUITIES = "Australian Equities"
ASSETS_LIMIT = 3  # BHP and CBA take two places of the equities class: one asset may be added


def _limited_model(actor, u, **overrides):
    data = payload(u, **overrides)
    data["allocation_classes"][0]["assets_limit"] = ASSETS_LIMIT
    return rendered(models.create_model(actor=actor, form=read_form(data)))


def _line(page: Page, code: str) -> Locator:
    return page.locator(f".tp-line[data-code='{code}']")


def _units_field(page: Page, code: str) -> Locator:
    return _line(page, code).locator("input[name='units']")


def _shown_units(page: Page, code: str) -> str:
    """The target units a line shows outside the edit mode, without the thousands separators."""
    return _line(page, code).locator(".tp-target-units").inner_text().replace(",", "")


def _steps(page: Page, text: str) -> None:
    """The edit bar counts the steps (set at once with the start of a recalculation), then the
    recalculation ends."""
    expect(page.locator("#tp-edit-steps")).to_have_text(text, timeout=TIMEOUT)
    expect(page.locator("#tp-edit-bar")).to_have_attribute("data-recalculating", "false", timeout=TIMEOUT)


def _no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways: {width}px"


def test_adviser_edits_a_target_portfolio_and_saves_a_new_version(page: Page, login, app_server, monkeypatch) -> None:
    with app_database(app_server.database_url):
        monkeypatch.setattr(factories_advice, "make_model", _limited_model)
        book = seed_book(monkeypatch, 1)
        pid = book.portfolio_ids[0]

        login(page, book.adviser.email, PASSWORD)
        page.goto(f"/portfolios/{pid}/target-portfolio")
        page.locator("#tp-calculate-empty").click(timeout=TIMEOUT)
        expect(page.locator("#confirm-message")).to_have_text(advice.CONFIRM_RECALCULATE_TP, timeout=TIMEOUT)
        page.locator("#confirm-ok").click()
        expect(page.locator("#tp-status")).to_have_text("Validation Required", timeout=TIMEOUT)
        expect(page.locator("#tp-version")).to_have_text("1")
        bhp_units, cba_units, vaf_units = (_shown_units(page, code) for code in ("BHP", "CBA", "VAF"))
        cba_value = _line(page, "CBA").locator("td").nth(8).inner_text()
        new_bhp = str(int(bhp_units) + 150)

        # Edit: the units fields, the class's Add asset; Undo and Save have nothing to do yet
        page.locator("#tp-edit").click()
        expect(page.locator("#tp-edit-bar")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#tp-edit-steps")).to_have_text("No changes yet")
        expect(page.locator("#tp-undo")).to_be_disabled()
        expect(page.locator("#tp-save")).to_be_disabled()
        for hidden in ("#tp-edit", "#tp-calculate", "#tp-validate"):
            expect(page.locator(hidden)).to_have_count(0)
        expect(page.locator(".tp-class").first.locator("thead th")).to_have_count(11)
        expect(_units_field(page, "BHP")).to_have_value(bhp_units)
        expect(_units_field(page, "CBA")).to_have_value(cba_units)
        equities = page.locator(f".tp-class[data-class='{EQUITIES}']")
        expect(equities.locator("input[name='code']")).to_be_visible()

        # a step: BHP's units (Enter); every other asset moves, each with its reasons
        _units_field(page, "BHP").fill(new_bhp)
        _units_field(page, "BHP").press("Enter")
        _steps(page, "1 change")
        expect(_units_field(page, "BHP")).to_have_value(new_bhp)
        expect(page.locator(".tp-reasons[data-code='BHP'] .tp-reason").filter(
            has_text=f"set by the adviser: {new_bhp} units")).to_have_count(1)
        expect(_line(page, "BHP")).to_contain_text("Set by adviser")
        expect(_units_field(page, "CBA")).not_to_have_value(cba_units)
        expect(_line(page, "CBA").locator("td").nth(8)).not_to_have_text(cba_value)
        expect(page.locator(".tp-reasons[data-code='CBA'] .tp-reason").first).to_be_visible()
        changed_cba = _units_field(page, "CBA").input_value()
        assert changed_cba != cba_units
        expect(page.locator("#tp-save")).to_be_enabled()
        page.screenshot(path=f"{ARTIFACTS}/tp-edit-desktop.png", full_page=True)

        # Undo: the calculated result again
        page.locator("#tp-undo").click()
        _steps(page, "No changes yet")
        expect(_units_field(page, "BHP")).to_have_value(bhp_units)
        expect(_units_field(page, "CBA")).to_have_value(cba_units)
        expect(_units_field(page, "VAF")).to_have_value(vaf_units)
        expect(page.locator("#tp-undo")).to_be_disabled()

        # set again, committed by leaving the field
        _units_field(page, "BHP").fill(new_bhp)
        _units_field(page, "BHP").press("Tab")
        _steps(page, "1 change")
        expect(_units_field(page, "CBA")).to_have_value(changed_cba)
        expect(page.locator("#tp-version")).to_have_text("1")  # nothing saved

        # Add asset: a code typed in lower case joins the class
        equities.locator("input[name='code']").fill("wes")
        equities.locator(".tp-add").click()
        _steps(page, "2 changes")
        expect(_line(page, "WES")).to_be_visible()
        expect(_line(page, "WES")).to_contain_text("Added")
        expect(page.locator(".tp-reasons[data-code='WES'] .tp-reason").filter(has_text="by the adviser")).to_have_count(1)
        expect(equities.locator("input[name='code']")).to_have_value("")

        # the class is now at its assets limit: CSL chosen in the asset picker fails, the step is
        # dropped and the result stays
        equities.locator(".tp-add-find").click()
        expect(page.locator("#tp-asset-picker")).to_contain_text(f"Add asset to {EQUITIES}", timeout=TIMEOUT)
        page.locator("#tp-asset-picker-search").fill("CSL")
        page.locator("#tp-asset-picker .asset-picker-row[data-code='CSL']").click(timeout=TIMEOUT)
        expect(page.locator("#tp-asset-picker")).to_have_count(0, timeout=TIMEOUT)
        see_toast(page, advice.ASSETS_LIMIT)
        _steps(page, "2 changes")
        expect(_line(page, "CSL")).to_have_count(0)
        expect(_line(page, "WES")).to_be_visible()
        expect(_units_field(page, "BHP")).to_have_value(new_bhp)

        # WES set to zero (Enter) is offered for deletion; removing it (confirmed) drops the asset
        expect(_line(page, "WES").locator(".tp-remove")).to_have_count(0)
        _units_field(page, "WES").fill("0")
        _units_field(page, "WES").press("Enter")
        _steps(page, "3 changes")
        expect(page.locator("#tp-version")).to_have_text("1")  # nothing saved
        remove = _line(page, "WES").locator(".tp-remove")
        expect(remove).to_be_visible()
        remove.click()
        expect(page.locator("#confirm-message")).to_have_text("Are you sure you want to remove this asset?",
                                                              timeout=TIMEOUT)
        page.locator("#confirm-ok").click()
        _steps(page, "4 changes")
        expect(_line(page, "WES")).to_have_count(0)
        expect(_units_field(page, "BHP")).to_have_value(new_bhp)

        # units that are not a whole number mark the field; Save asks to validate first
        current_cba = _units_field(page, "CBA").input_value()
        _units_field(page, "CBA").fill("1.5")
        _units_field(page, "CBA").press("Enter")
        expect(_units_field(page, "CBA")).to_have_attribute("data-invalid", "true", timeout=TIMEOUT)
        expect(page.locator("#tp-edit-invalid")).to_be_visible()
        page.locator("#tp-save").click()
        see_toast(page, advice.VALIDATE_FIRST)
        _steps(page, "4 changes")
        page.set_viewport_size(PHONE)
        card = page.locator(".tp-card-line[data-code='BHP']")
        expect(card.locator("input[name='units']")).to_have_value(new_bhp)
        page.screenshot(path=f"{ARTIFACTS}/tp-edit-phone.png", full_page=True)
        _no_horizontal_scroll(page)
        page.set_viewport_size(DESKTOP)
        _units_field(page, "CBA").fill(current_cba)
        _units_field(page, "CBA").press("Enter")
        expect(_units_field(page, "CBA")).to_have_attribute("data-invalid", "false", timeout=TIMEOUT)
        expect(page.locator("#tp-edit-invalid")).to_have_count(0)

        # Save: a new version with the units set and the reason
        page.locator("#tp-save").click()
        see_toast(page, advice.TP_SAVED)
        expect(page.locator("#tp-edit-bar")).to_have_count(0, timeout=TIMEOUT)
        expect(page.locator("#tp-version")).to_have_text("2", timeout=TIMEOUT)
        expect(page.locator("#tp-status")).to_have_text("Validation Required")
        expect(_line(page, "BHP").locator(".tp-target-units")).to_have_text(f"{int(new_bhp):,}")
        expect(page.locator(".tp-reasons[data-code='BHP'] .tp-reason").filter(
            has_text=f"set by the adviser: {new_bhp} units")).to_have_count(1)
        expect(_line(page, "WES")).to_have_count(0)
        expect(page.locator("#tp-edit")).to_be_visible()
        page.screenshot(path=f"{ARTIFACTS}/tp-edit-saved.png", full_page=True)

        # editing version 2 starts from its edits; Cancel with a change asks, Don't Save stores nothing
        page.locator("#tp-edit").click()
        expect(page.locator("#tp-edit-steps")).to_have_text("No changes yet", timeout=TIMEOUT)
        expect(_units_field(page, "BHP")).to_have_value(new_bhp)
        _units_field(page, "BHP").fill(bhp_units)
        _units_field(page, "BHP").press("Enter")
        _steps(page, "1 change")
        page.locator("#tp-edit-cancel").click()
        expect(page.locator("#leave-discard")).to_be_visible(timeout=TIMEOUT)
        page.locator("#leave-discard").click()
        expect(page.locator("#tp-edit-bar")).to_have_count(0, timeout=TIMEOUT)
        expect(page.locator("#tp-version")).to_have_text("2", timeout=TIMEOUT)
        expect(_line(page, "BHP").locator(".tp-target-units")).to_have_text(f"{int(new_bhp):,}", timeout=TIMEOUT)
        page.locator("#tp-versions").click()
        expect(page.locator("#versions-count")).to_have_text("2 versions", timeout=TIMEOUT)
        assert re.search(rf"/portfolios/{pid}/target-portfolio-versions$", page.url)
