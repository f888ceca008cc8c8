"""Editing a target portfolio (spec 001 s4 mode EDIT, s5 texts): a step recalculates without
storing (the screen keeps the steps and undoes by sending fewer), saving stores a new draft
version, concurrent edits are refused, and who may edit.

The world: cash 100,000 and 100 BHP bought at 40 (BHP now 45): V = 95,990 + 4,500 = 100,490. The
model: equities 60% (BHP, CBA; min 50, max 70, limit 5), fixed income 35% (VAF; max 40), cash 5%;
the banks industry group (CBA) capped at 40%."""
from __future__ import annotations

import threading
from decimal import Decimal
from types import SimpleNamespace

import pytest

from app.db.engine import session_scope
from app.db.tables import Portfolio
from app.api.schemas import rendered
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.model_rules import read_form
from app.services import models
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from tests.factories import actor, update_row
from tests.factories_models import make_model, make_universe, payload
from tests.factories_portfolios import cash, make_portfolio_world, post
from tests.factories_recommendations import make_short_term


@pytest.fixture
def world(db):
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    update_row(Portfolio, w.portfolio.id, model_id=model["id"], inactive=False)
    cash(w.portfolio, "100000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    return SimpleNamespace(w=w, u=u, model=model, tp=tp, bhp=u.stocks[0].id, cba=u.stocks[1].id, wes=u.stocks[3].id)


def step(x, overrides, who=None, tp=None):
    tp = tp or x.tp
    return tps.edit_step(actor=actor(who or x.w.adviser), tp_id=tp["id"], row_version=tp["row_version"],
                         overrides=overrides)


def save(x, overrides, who=None, tp=None):
    tp = tp or x.tp
    return tps.save_edit(actor=actor(who or x.w.adviser), tp_id=tp["id"], row_version=tp["row_version"],
                         overrides=overrides)


def assets(shape) -> dict[str, dict]:
    return {a["code"]: a for a in shape["result"]["assets"]}


def fails(call, *args) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        call(*args)
    return info.value


def versions(x) -> int:
    return tps.list_versions(actor=actor(x.w.adviser), investment_id=x.w.portfolio.id)[1]


# ---- a step --------------------------------------------------------------------------------------
def test_a_step_recalculates_the_rest_and_stores_nothing(world):
    x = world
    shape = step(x, [{"asset_id": x.bhp, "target_units": 200}])
    assert shape["mode"] == "EDIT" and shape["id"] == x.tp["id"] and shape["version"] == 1
    got = assets(shape)
    # BHP set to 200 (9,000): CBA takes the rest of equities (51,294) but the banks cap of 40%
    # (40,196) holds it to 334 (40,080); the excess flows to fixed income up to its max of 40%:
    # VAF 40,196 = 873 (40,158); cash 95,990 - 4,500 - 40,080 - 40,158 = 11,252
    assert {c: got[c]["target_units"] for c in got} == {"BHP": "200", "CBA": "334", "VAF": "873"}
    assert "edited" in {r["code"] for r in got["BHP"]["reasons"]}
    assert "capped_industry_group" in {r["code"] for r in got["CBA"]["reasons"]}
    assert shape["result"]["cash_after"] == "11252.00"
    assert shape["overrides"] == [{"asset_id": x.bhp, "code": "BHP", "target_units": "200"}]
    assert shape["result"]["overrides"] == [{"asset_id": x.bhp, "target_units": "200"}]
    # nothing stored: the version is as calculated
    assert versions(x) == 1
    stored = tps.get(actor=actor(x.w.adviser), tp_id=x.tp["id"])
    assert stored["result"] == x.tp["result"] and stored["overrides"] == [] and "mode" not in stored


def test_undo_is_the_same_request_without_the_last_step(world):
    x = world
    first = [{"asset_id": x.bhp, "target_units": 200}]
    one = step(x, first)
    two = step(x, first + [{"code": "wes"}])  # code uppercased: WES added to its own class
    assert assets(two)["WES"]["kind"] == "added" and assets(two)["WES"]["target_units"] != "0"
    assert step(x, first)["result"] == one["result"]  # undo: the service keeps no state between steps
    assert step(x, [])["result"]["assets"] == x.tp["result"]["assets"]


def test_the_texts_of_a_failed_step(world):
    x = world
    error = fails(step, x, [{"code": "zzz"}])
    assert error.message == "Asset ZZZ is not found" and error.fields == {"overrides.0.code": "Asset ZZZ is not found"}
    error = fails(step, x, [{"code": "WES", "target_units": 10}])
    assert error.message == "Asset WES is not in the target portfolio: add it first"
    error = fails(step, x, [{"asset_id": x.bhp, "target_units": "1.5"}])
    assert error.message == "The target units of BHP must be a whole number, zero or more"
    error = fails(step, x, [{"asset_id": x.bhp, "target_units": "abc"}])
    assert error.message == "Please, enter a valid number." and "overrides.0.target_units" in error.fields
    error = fails(step, x, [{"code": "BHP"}])
    assert error.message == "Asset BHP is already in the target portfolio"
    # CBA set to 1,000 (120,000): more than the cash, even with every other buy cut
    error = fails(step, x, [{"asset_id": x.cba, "target_units": 1000}])
    assert error.message == "Not enough cash to buy the target units set for CBA"
    # WES added and set to 2,000 (120,000)
    error = fails(step, x, [{"code": "WES"}, {"code": "WES", "target_units": 2000}])
    assert error.message == "Not enough cash to add asset"
    assert versions(x) == 1


def test_adding_when_the_class_is_at_its_assets_limit(world):
    x = world
    data = payload(x.u, name="Two Equities")
    data["allocation_classes"][0]["assets_limit"] = 2
    limited = rendered(models.create_model(actor=actor(x.w.admin), form=read_form(data)))
    update_row(Portfolio, x.w.portfolio.id, model_id=limited["id"], inactive=False)
    tp = tps.calculate(actor=actor(x.w.adviser), investment_id=x.w.portfolio.id)
    error = fails(step, x, [{"code": "WES"}], None, tp)
    assert error.message == "Assets limit is exceeded"
    # CBA removed (set to 0: its allocation reached zero) frees its place for WES
    shape = step(x, [{"asset_id": x.cba, "target_units": 0}, {"code": "WES"}], None, tp)
    got = assets(shape)
    assert got["CBA"]["target_units"] == "0" and got["WES"]["target_units"] != "0"
    # saving the failing edits gives the same text
    assert fails(save, x, [{"code": "WES"}], None, tp).message == "Assets limit is exceeded"


# ---- saving --------------------------------------------------------------------------------------
def test_save_stores_a_new_draft_version_with_the_edits(world):
    x = world
    tps.save_comment(actor=actor(x.w.adviser), tp_id=x.tp["id"], type="market", description="Calm markets.")
    edits = [{"code": "WES"}, {"asset_id": x.bhp, "target_units": 200}]
    saved = save(x, edits)
    assert saved["message"] == "Target Portfolio saved"
    assert (saved["version"], saved["status"], saved["status_label"]) == (2, "draft", "Validation Required")
    assert saved["id"] != x.tp["id"] and versions(x) == 2
    assert assets(saved)["BHP"]["target_units"] == "200" and assets(saved)["WES"]["kind"] == "added"
    # the edits are kept, in the form a step takes, so the next edit starts from them
    assert saved["overrides"] == [{"asset_id": x.wes, "code": "WES", "class_id": None},
                                  {"asset_id": x.bhp, "code": "BHP", "target_units": "200"}]
    again = tps.get(actor=actor(x.w.adviser), tp_id=saved["id"])
    assert again["overrides"] == saved["overrides"] and again["result"] == saved["result"]
    nxt = step(x, again["overrides"] + [{"asset_id": x.cba, "target_units": 100}], None, again)
    assert {c: a["target_units"] for c, a in assets(nxt).items() if c in ("BHP", "CBA")} == {"BHP": "200", "CBA": "100"}
    # the commentary comes along; the edited version is left as it was
    assert [c["description"] for c in again["commentaries"] if c["type"] == "market"] == ["Calm markets."]
    old = tps.get(actor=actor(x.w.adviser), tp_id=x.tp["id"])
    assert old["status"] == "draft" and old["result"] == x.tp["result"]


def test_concurrent_edits_are_detected_not_overwritten(world):
    x = world
    save(x, [{"asset_id": x.bhp, "target_units": 200}])
    with pytest.raises(Conflict) as info:  # a second save from the same version
        save(x, [{"asset_id": x.bhp, "target_units": 300}])
    assert info.value.message == "The target portfolio was changed by someone else meanwhile: reload it and make your change again"
    with pytest.raises(Conflict):  # and a step on it: it is no longer the newest
        step(x, [])
    assert versions(x) == 2
    # a changed row_version (validated meanwhile) is refused too
    tp = tps.calculate(actor=actor(x.w.adviser), investment_id=x.w.portfolio.id)
    tps.validate(actor=actor(x.w.superuser), tp_id=tp["id"], row_version=tp["row_version"])
    with pytest.raises(Conflict):
        save(x, [], None, tp)


def test_a_declined_version_saved_goes_back_to_draft(world):
    x = world
    tp = tps.validate(actor=actor(x.w.adviser), tp_id=x.tp["id"], row_version=x.tp["row_version"])
    declined = tps.decide(actor=actor(x.w.client), tp_id=tp["id"], action="decline", row_version=tp["row_version"])
    assert declined["status"] == "declined"
    saved = save(x, [{"asset_id": x.bhp, "target_units": 150}], None, declined)
    assert (saved["status"], saved["version"], saved["message"]) == ("draft", 2, "Target Portfolio saved")
    assert tps.get(actor=actor(x.w.adviser), tp_id=declined["id"])["status"] == "declined"


def test_a_validated_version_can_be_edited_an_approved_one_cannot(world):
    x = world
    tp = tps.validate(actor=actor(x.w.adviser), tp_id=x.tp["id"], row_version=x.tp["row_version"])
    assert step(x, [{"asset_id": x.bhp, "target_units": 150}], None, tp)["mode"] == "EDIT"
    approved = tps.decide(actor=actor(x.w.client), tp_id=tp["id"], action="approve", row_version=tp["row_version"])
    error = fails(step, x, [], None, approved)
    assert error.message == "This target portfolio cannot be changed"


def test_saving_malformed_edits_asks_to_validate_first(world):
    x = world
    for edits, field in (([{"asset_id": x.bhp, "target_units": "abc"}], "overrides.0.target_units"),
                         ([{"code": "ZZZ"}], "overrides.0.code"),
                         ([{"asset_id": x.bhp, "target_units": "-5"}], "overrides"),
                         ("nonsense", "overrides")):
        error = fails(save, x, edits)
        assert error.message == "Please, validate data first." and field in error.fields, (edits, error.fields)
    assert versions(x) == 1


def test_who_may_edit(world):
    x = world
    for who in (x.w.client, x.w.admin, x.w.other_adviser):  # drafts are not theirs to see
        with pytest.raises(NotFound):
            step(x, [], who)
    assert step(x, [], x.w.superuser)["mode"] == "EDIT"
    tp = tps.validate(actor=actor(x.w.adviser), tp_id=x.tp["id"], row_version=x.tp["row_version"])
    for who in (x.w.client, x.w.admin):  # they see a validated one, and only view it
        with pytest.raises(PermissionDenied):
            step(x, [], who, tp)
        with pytest.raises(PermissionDenied):
            save(x, [], who, tp)
    # an adviser on an inactive portfolio with an approved target portfolio views only
    tps.decide(actor=actor(x.w.client), tp_id=tp["id"], action="approve", row_version=tp["row_version"])
    newest = tps.calculate(actor=actor(x.w.adviser), investment_id=x.w.portfolio.id)
    with session_scope() as s:
        p = s.get(Portfolio, x.w.portfolio.id)
        p.inactive = True
        s.add(p)
    with pytest.raises(PermissionDenied):
        save(x, [], x.w.adviser, newest)


def test_trade_recommendations_follow_the_saved_edits(world):
    x = world
    make_short_term(SimpleNamespace(id=x.model["id"]), x.u.stocks[1], "BUY")
    saved = save(x, [{"asset_id": x.bhp, "target_units": 250}])
    tp = tps.validate(actor=actor(x.w.adviser), tp_id=saved["id"], row_version=saved["row_version"])
    tps.decide(actor=actor(x.w.client), tp_id=tp["id"], action="approve", row_version=tp["row_version"])
    [ti] = tis.generate(actor=actor(x.w.adviser), investment_ids=[x.w.portfolio.id])
    assert ti["target_portfolio_id"] == saved["id"]
    bhp = next(t for t in ti["transactions"] if t["asset_id"] == x.bhp)
    assert (bhp["action"], Decimal(bhp["quantity"])) == ("increase", Decimal(150))  # 100 held, 250 set


@pytest.mark.postgres
def test_two_saves_at_the_same_time_one_wins(world):
    x = world
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def saver(units: int):
        barrier.wait()
        try:
            outcomes.append(save(x, [{"asset_id": x.bhp, "target_units": units}])["message"])
        except Conflict as exc:
            outcomes.append(exc.message)

    threads = [threading.Thread(target=saver, args=(units,)) for units in (200, 300)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == sorted(["Target Portfolio saved", "The target portfolio was changed by someone else "
                                       "meanwhile: reload it and make your change again"])
    assert versions(x) == 2
