"""Model portfolios (app.services.models) on a real database: saves and versions, validation texts,
ownership and tenancy, listing, details, form options and the engine loader."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import Asset, Model, ModelVersion
from app.db.types import utcnow
from app.api.schemas import rendered
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.model_spec import ModelSpec
from app.domain.roles import Role
from app.domain.model_rules import owner_filter, read_form
from app.domain.parsing import as_id
from app.domain.timezones import iso_json
from app.services import models
from app.services.assets import FirmRef, GroupRef
from tests import factories as f
from tests import factories_assets as fa
from tests import factories_models as fm

INVALID = "Please, fill all required fields with valid data."
NOT_ALLOWED = "You are not allowed to perform this action"
NOT_FOUND = "Model not found"
CHANGED = "This model was changed by someone else. Reload it and apply your changes again."


@pytest.fixture
def world(db):
    return f.make_world()


@pytest.fixture
def u(db):
    return fm.make_universe()


def _count(table) -> int:
    with session_scope() as s:
        return len(s.exec(select(table.id if hasattr(table, "id") else table.model_id)).all())


# ---- create ---------------------------------------------------------------------------------------
def test_admin_creates_an_active_model(world, u):
    admin = f.actor(world.admin_a)
    before = utcnow()
    result = rendered(models.create_model(actor=admin, form=read_form(fm.payload(u, ownerId=world.firm_b.id))))
    assert result["message"] == "Model created and activated."
    assert result["status"] == "active" and result["status_title"] == "Active"
    assert result["allocation_method"] == "equal_amounts" and result["allocation_method_title"] == "Equal Amounts"
    assert result["owner"] == [{"id": world.firm_a.id, "name": "Alpha Advisory"}]  # ownerId ignored: own firm
    assert result["ownerId"] == world.firm_a.id
    assert result["version"] == result["version_id"] == 1 and result["can_edit"] is True
    assert result["availability"] == "only_superuser" and result["investment"] is True and result["all"] is False
    classes = result["allocation_classes"]
    assert [(c["title"], c["allocation"], c["is_cash"]) for c in classes] == [
        ("Australian Equities", "60", False), ("Fixed Income", "35", False), ("Cash", "5", True)]
    assert classes[0]["min"] == "50" and classes[0]["max"] == "70" and classes[0]["assets_limit"] == 5
    bhp = classes[0]["assets"][0]
    assert (bhp["code"], bhp["name"], bhp["url"]) == ("BHP", "BHP Group", "https://www.bhp.com")
    assert bhp["alt_asset"] == {"id": u.stocks[5].id, "code": "RIO", "name": "Rio Tinto"}
    assert classes[0]["assets"][1]["alt_asset"] is None
    assert result["allocation_types"] == [{"type_id": u.share.id, "title": "Share", "allocation": "60", "min": None, "max": None}]
    assert result["industry_groups_allocations"] == [{"industry_group_id": u.banks.id, "title": "Banks", "color": "#1f77b4",
                                                      "allocation": "30", "min": None, "max": "40", "priority": 1}]
    assert result["equivalents"] == [{"asset_id": u.stocks[1].id, "eq_asset_id": u.stocks[4].id,
                                      "asset": {"id": u.stocks[1].id, "code": "CBA", "name": "Commonwealth Bank"},
                                      "eq": {"id": u.stocks[4].id, "code": "NAB", "name": "National Australia Bank"}}]
    assert result["commentaries"] == [{"type": "market", "description": "Markets are steady."},
                                      {"type": "recommendation", "description": "Stay the course."}]

    row = fm.model_row(result["id"])
    assert row.firm_id == world.firm_a.id and row.version == 1 and row.created_by == world.admin_a.id
    versions = fm.version_rows(result["id"])
    assert [(v.version, v.moderator_id) for v in versions] == [(1, world.admin_a.id)]
    assets = fm.model_asset_rows(result["id"])
    assert assets[u.stocks[0].id].inclusion_price == Decimal("45.000000")
    assert assets[u.stocks[0].id].included_at >= before
    assert rendered(models.get_model(actor=admin, model_id=result["id"])) == {k: v for k, v in result.items() if k != "message"}


def test_draft_messages_and_a_draft_needs_only_a_name(world, u):
    admin = f.actor(world.adviser_a)
    created = rendered(models.create_model(actor=admin, form=read_form({"name": "Idea", "status": "draft"})))
    assert created["message"] == "Model created as draft."
    assert [(c["title"], c["allocation"]) for c in created["allocation_classes"]] == [("Cash", "0")]  # cash always there
    assert created["availability"] == "nobody"
    saved = rendered(models.update_model(actor=admin, model_id=created["id"], form=read_form(fm.payload(u, version=1))))
    assert saved["message"] == "Model saved and activated." and saved["version"] == 2
    saved = rendered(models.update_model(actor=admin, model_id=created["id"], form=read_form(fm.payload(u, status="draft", version=2))))
    assert saved["message"] == "Model saved as draft." and saved["status"] == "draft"


def test_no_cash_class_in_db(db):
    world = f.make_world()
    u = fm.make_universe(with_cash=False)
    with pytest.raises(ValidationError) as err:
        models.create_model(actor=f.actor(world.admin_a), form=read_form({"name": "X", "status": "draft"}))
    assert err.value.message == "There is no cash class in db"
    assert _count(Model) == 0
    assert u.equities.id


def test_cash_class_is_added_when_the_payload_lacks_it(world, u):
    data = fm.payload(u)
    data["allocation_classes"] = data["allocation_classes"][:2]
    data["allocation_classes"][1]["allocation"] = "40"
    result = rendered(models.create_model(actor=f.actor(world.admin_a), form=read_form(data)))
    assert [(c["title"], c["allocation"]) for c in result["allocation_classes"]][-1] == ("Cash", "0")


def test_superuser_chooses_the_owner_firm_and_cannot_change_it(world, u):
    su = f.actor(world.superuser)
    with pytest.raises(ValidationError) as err:
        models.create_model(actor=su, form=read_form(fm.payload(u)))
    assert (err.value.message, err.value.fields) == (INVALID, {"ownerId": "Please, select firm. "})
    deleted = f.make_firm("Gone", deleted_at=utcnow())
    for bad in (999999, deleted.id, "abc"):
        with pytest.raises(ValidationError) as err:
            models.create_model(actor=su, form=read_form(fm.payload(u, ownerId=bad)))
        assert err.value.fields == {"ownerId": "Please, select firm. "}
    created = rendered(models.create_model(actor=su, form=read_form(fm.payload(u, ownerId=world.firm_b.id))))
    assert created["owner"] == [{"id": world.firm_b.id, "name": "Bravo Wealth"}]
    updated = rendered(models.update_model(actor=su, model_id=created["id"], form=read_form(fm.payload(u, ownerId=world.firm_a.id, version=1))))
    assert updated["ownerId"] == world.firm_b.id  # the firm field is disabled on an edit
    assert rendered(models.get_model(actor=f.actor(world.admin_b), model_id=created["id"]))["can_edit"] is True


def test_clients_are_refused_everything(world, u):
    model = fm.make_model(f.actor(world.admin_a), u)
    client = f.actor(world.client_a)
    calls = [
        lambda: models.list_models(actor=client),
        lambda: models.get_model(actor=client, model_id=model["id"]),
        lambda: models.create_model(actor=client, form=read_form(fm.payload(u))),
        lambda: models.update_model(actor=client, model_id=model["id"], form=read_form(fm.payload(u, version=1))),
        lambda: models.delete_model(actor=client, model_id=model["id"]),
        lambda: models.model_history(actor=client, model_id=model["id"]),
        lambda: models.get_model_version(actor=client, model_id=model["id"], version=1),
        lambda: models.model_details(actor=client, model_id=model["id"]),
        lambda: models.model_form_options(actor=client),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied) as err:
            call()
        assert err.value.message == NOT_ALLOWED


# ---- validation through the service (nothing is saved) -----------------------------------------------
def _refused(actor, data, message, fields=None):
    before = _count(Model), _count(ModelVersion)
    with pytest.raises(ValidationError) as err:
        models.create_model(actor=actor, form=read_form(data))
    assert err.value.message == message
    if fields is not None:
        assert err.value.fields == fields
    assert (_count(Model), _count(ModelVersion)) == before
    return err.value


def test_validation_texts(world, u):
    admin = f.actor(world.admin_a)
    _refused(admin, fm.payload(u, name=""), INVALID, {"name": "Please, enter model name. "})
    data = fm.payload(u)
    data["allocation_classes"][0]["allocation"] = "50"
    _refused(admin, data, "Total allocation has to be 100%.", {"allocation_classes": "Total allocation has to be 100%."})
    data = fm.payload(u, equivalents=[{"asset_id": u.stocks[1].id, "eq_asset_id": None}])
    _refused(admin, data, "Please, select all equivalents", {"equivalents.0": "Please, select all equivalents"})
    data = fm.payload(u)
    data["allocation_classes"][0]["max"] = "60"
    data["allocation_classes"][1]["max"] = "35"
    data["allocation_classes"][2]["max"] = "4"
    _refused(admin, data, "Sum of Max allocations should be more than 100.")
    data = fm.payload(u, industry_groups_allocations=[
        {"industry_group_id": u.banks.id, "allocation": "70"}, {"industry_group_id": u.miners.id, "allocation": "31"}])
    _refused(admin, data, "Industry groups total allocation has to be less or equal to 100%.")
    data = fm.payload(u)
    data["allocation_classes"][0]["min"] = "80"
    err = _refused(admin, data, INVALID)
    assert err.fields == {"allocation_classes.0.min": "Min must be less than Max",
                          "allocation_classes.0.max": "Max must not be less than Min"}


def test_assets_must_be_usable_by_the_owner_firm_and_in_their_class(world, u):
    admin = f.actor(world.admin_a)
    private_b = fa.make_asset("BPRIV", u.equities, firm=world.firm_b, price="10.00")
    private_a = fa.make_asset("APRIV", u.equities, firm=world.firm_a, price="10.00")
    data = fm.payload(u)
    data["allocation_classes"][0]["assets"].append({"asset_id": private_b.id})
    _refused(admin, data, f"Asset {private_b.id} is not available",
             {"allocation_classes.0.assets.2.asset_id": f"Asset {private_b.id} is not available"})

    data = fm.payload(u)
    data["allocation_classes"][0]["assets"].append({"asset_id": u.fixed[1].id})  # IAF is fixed income
    data["allocation_classes"][0]["assets"].append({"asset_id": 987654})
    _refused(admin, data, "Assets IAF, 987654 are not available",
             {"allocation_classes.0.assets.2.asset_id": "Asset IAF is not available",
              "allocation_classes.0.assets.3.asset_id": "Asset 987654 is not available"})

    data = fm.payload(u)
    data["allocation_classes"][0]["assets"][1]["alt_asset_id"] = private_b.id
    _refused(admin, data, f"Asset {private_b.id} is not available")
    data = fm.payload(u, equivalents=[{"asset_id": u.stocks[1].id, "eq_asset_id": private_b.id}])
    _refused(admin, data, f"Asset {private_b.id} is not available", {"equivalents.0": f"Asset {private_b.id} is not available"})

    data = fm.payload(u)
    data["allocation_classes"][0]["assets"].append({"asset_id": private_a.id})  # the firm's own asset is fine
    created = rendered(models.create_model(actor=admin, form=read_form(data)))
    assert [a["code"] for a in created["allocation_classes"][0]["assets"]] == ["BHP", "CBA", "APRIV"]
    # the superuser creating for firm B may use B's private assets, not A's
    su = f.actor(world.superuser)
    data = fm.payload(u, ownerId=world.firm_b.id)
    data["allocation_classes"][0]["assets"] = [{"asset_id": private_b.id}, {"asset_id": private_a.id}]
    _refused(su, data, f"Asset {private_a.id} is not available")


def test_unknown_classes_types_and_groups(world, u):
    admin = f.actor(world.admin_a)
    other_firms_class = fa.make_class("B only", firm=world.firm_b, idx=0)
    data = fm.payload(u, allocation_types=[{"type_id": 99999}], industry_groups_allocations=[{"industry_group_id": 99999}])
    data["allocation_classes"][0]["class_id"] = other_firms_class.id
    data["allocation_classes"][0]["assets"] = []
    err = _refused(admin, data, INVALID)
    assert err.fields == {"allocation_classes.0.class_id": "Please, select class. ",
                          "allocation_types.0.type_id": "Please, select type. ",
                          "industry_groups_allocations.0.industry_group_id": "Please, select industry group. "}


def test_sharing_firms_must_exist_and_differ_from_the_owner(world, u):
    admin = f.actor(world.admin_a)
    gone = f.make_firm("Gone", deleted_at=utcnow())
    for bad in ([999999], [gone.id], [world.firm_a.id], ["x"]):
        _refused(admin, fm.payload(u, firms=bad), "Please, select firm for sharing", {"firms": "Please, select firm for sharing"})
    created = rendered(models.create_model(actor=admin, form=read_form(fm.payload(u, firms=[world.firm_b.id]))))
    assert created["availability"] == "with_practice"
    assert created["sharedFirms"] == [{"id": world.firm_b.id, "name": "Bravo Wealth"}] and created["firms"] == [world.firm_b.id]
    # shared firms are stored whatever the availability (they matter only for with practice)
    off = rendered(models.create_model(actor=admin, form=read_form(fm.payload(u, firms=[world.firm_b.id], investment=False))))
    assert off["availability"] == "nobody" and off["firms"] == [world.firm_b.id]


def test_percentages_model(world, u):
    admin = f.actor(world.admin_a)
    created = rendered(models.create_model(actor=admin, form=read_form(fm.percentages_payload(u))))
    assert created["allocation_method_title"] == "Percentages"
    assert [(c["title"], c["allocation"]) for c in created["allocation_classes"]] == [
        ("Australian Equities", "55"), ("Fixed Income", "40"), ("Cash", "5")]
    assert [(p["asset_id"], p["allocation"]) for p in created["assets_percentages_allocations"]] == [
        (u.stocks[0].id, "30"), (u.stocks[1].id, "25"), (u.fixed[0].id, "40")]
    data = fm.percentages_payload(u)
    data["assets_percentages_allocations"][0]["allocation"] = "31"
    _refused(admin, data, "Total allocation has to be 100%.")
    data = fm.percentages_payload(u)
    data["assets_percentages_allocations"].pop()
    _refused(admin, data, INVALID, {f"assets_percentages_allocations.asset_{u.fixed[0].id}": "Please, enter allocation. "})


# ---- versions, history, conflicts ----------------------------------------------------------------------
def test_each_save_is_a_new_version_with_history(world, u):
    admin, adviser = f.actor(world.admin_a), f.actor(world.adviser_a)
    created = fm.make_model(admin, u)
    mid = created["id"]
    bhp_included = fm.model_asset_rows(mid)[u.stocks[0].id].included_at
    fm.set_price(u.stocks[0].id, "50.00")
    data = fm.payload(u, name="Balanced Growth II", version=1)
    data["allocation_classes"][0]["assets"].append({"asset_id": u.stocks[2].id})  # CSL is new
    second = rendered(models.update_model(actor=adviser, model_id=mid, form=read_form(data)))
    assert second["version"] == 2 and second["name"] == "Balanced Growth II"
    rows = fm.model_asset_rows(mid)
    assert rows[u.stocks[0].id].included_at == bhp_included  # kept from the previous version
    assert rows[u.stocks[0].id].inclusion_price == Decimal("45.000000")
    assert rows[u.stocks[2].id].inclusion_price == Decimal("290.000000") and rows[u.stocks[2].id].included_at > bhp_included
    third = rendered(models.update_model(actor=admin, model_id=mid, form=read_form(fm.payload(u, name="Balanced Growth III", status="draft", version=2))))
    assert third["version"] == 3

    rows, count = _page(models.model_history(actor=admin, model_id=mid))
    assert count == 3
    assert [r.version_id for r in rows] == [3, 2, 1]  # newest first
    names = {world.admin_a.id: (world.admin_a.first_name, "Tester"), world.adviser_a.id: (world.adviser_a.first_name, "Tester")}
    assert [(r.moderator.first_name, r.moderator.last_name) for r in rows] == [
        names[world.admin_a.id], names[world.adviser_a.id], names[world.admin_a.id]]
    assert all(r.model_id == mid and r.created_at for r in rows)
    rows, count = _page(models.model_history(actor=admin, model_id=mid, limit=2, offset=2))
    assert count == 3 and [r.version_id for r in rows] == [1]

    first = rendered(models.get_model_version(actor=admin, model_id=mid, version=1))
    assert first["is_version"] is True and first["name"] == "Balanced Growth" and first["version_id"] == 1
    assert [a["code"] for a in first["allocation_classes"][0]["assets"]] == ["BHP", "CBA"]
    second_again = rendered(models.get_model_version(actor=admin, model_id=mid, version=as_id("2")))
    assert [a["code"] for a in second_again["allocation_classes"][0]["assets"]] == ["BHP", "CBA", "CSL"]
    saved = models.saved_version(actor=adviser, model_id=mid, version=as_id("2"))
    assert saved.model == models.get_model_version(actor=adviser, model_id=mid, version=2)
    history = {r.version_id: r for r in models.model_history(actor=admin, model_id=mid).rows}
    assert saved.saved_by == " ".join(names[world.adviser_a.id]) and iso_json(saved.saved_at) == iso_json(history[2].created_at)
    assert rendered(models.get_model(actor=admin, model_id=mid))["name"] == "Balanced Growth III"
    assert [v.version for v in fm.version_rows(mid)] == [1, 2, 3]  # nothing overwritten
    for bad in (4, 0, "x", None):
        with pytest.raises(NotFound) as err:
            models.get_model_version(actor=admin, model_id=mid, version=as_id(bad) or 0)  # as the edge reads it
        assert err.value.message == "Model version not found"


def test_a_stale_version_is_a_conflict(world, u):
    admin = f.actor(world.admin_a)
    created = fm.make_model(admin, u)
    models.update_model(actor=admin, model_id=created["id"], form=read_form(fm.payload(u, name="First edit", version=1)))
    with pytest.raises(Conflict) as err:
        models.update_model(actor=admin, model_id=created["id"], form=read_form(fm.payload(u, name="Second edit", version=1)))
    assert err.value.message == CHANGED
    assert rendered(models.get_model(actor=admin, model_id=created["id"]))["name"] == "First edit"
    assert len(fm.version_rows(created["id"])) == 2


def test_a_failed_update_changes_nothing(world, u):
    admin = f.actor(world.admin_a)
    created = fm.make_model(admin, u)
    data = fm.payload(u, name="Broken", version=1)
    data["allocation_classes"][0]["allocation"] = "10"
    with pytest.raises(ValidationError):
        models.update_model(actor=admin, model_id=created["id"], form=read_form(data))
    assert rendered(models.get_model(actor=admin, model_id=created["id"])) == {k: v for k, v in created.items() if k != "message"}


# ---- tenancy ------------------------------------------------------------------------------------------
def test_other_firms_models_are_not_found(world, u):
    model = fm.make_model(f.actor(world.admin_a), u)
    other = f.actor(world.admin_b)
    calls = [
        lambda: models.get_model(actor=other, model_id=model["id"]),
        lambda: models.update_model(actor=other, model_id=model["id"], form=read_form(fm.payload(u, version=1))),
        lambda: models.delete_model(actor=other, model_id=model["id"]),
        lambda: models.model_history(actor=other, model_id=model["id"]),
        lambda: models.get_model_version(actor=other, model_id=model["id"], version=1),
        lambda: models.model_details(actor=other, model_id=model["id"]),
    ]
    for call in calls:
        with pytest.raises(NotFound) as err:
            call()
        assert err.value.message == NOT_FOUND
    assert _page(models.list_models(actor=other)) == ([], 0)


def test_shared_model_is_visible_to_the_shared_firm_but_not_editable(world, u):
    model = fm.make_model(f.actor(world.admin_a), u, firms=[world.firm_b.id])
    for person in (world.admin_b, world.adviser_b):
        other = f.actor(person)
        got = rendered(models.get_model(actor=other, model_id=model["id"]))
        assert got["can_edit"] is False
        assert rendered(models.model_details(actor=other, model_id=model["id"]))["model"]["id"] == model["id"]
        rows, total = _page(models.list_models(actor=other))
        assert total == 1 and rows[0].can_edit is False
        for call in (lambda: models.update_model(actor=other, model_id=model["id"], form=read_form(fm.payload(u, version=1))),
                     lambda: models.delete_model(actor=other, model_id=model["id"])):
            with pytest.raises(PermissionDenied) as err:
                call()
            assert err.value.message == NOT_ALLOWED
    third = f.make_firm("Third")
    assert _page(models.list_models(actor=f.actor(f.make_user(Role.ADMINISTRATOR, third)))) == ([], 0)
    # sharing without the practice switch: nobody, so the shared firm no longer sees it
    models.update_model(actor=f.actor(world.admin_a), model_id=model["id"],
                        form=read_form(fm.payload(u, firms=[world.firm_b.id], investment=False, version=1)))
    with pytest.raises(NotFound):
        models.get_model(actor=f.actor(world.admin_b), model_id=model["id"])


def test_availability_all_is_visible_to_everyone(world, u):
    model = fm.make_model(f.actor(world.admin_a), u, all=True)
    assert model["availability"] == "all"
    third = f.make_firm("Third")
    for person in (world.admin_b, world.adviser_b, f.make_user(Role.ADVISER, third)):
        got = rendered(models.get_model(actor=f.actor(person), model_id=model["id"]))
        assert got["id"] == model["id"] and got["can_edit"] is False
        with pytest.raises(PermissionDenied):
            models.delete_model(actor=f.actor(person), model_id=model["id"])


def test_delete_is_soft_then_not_found(world, u):
    admin = f.actor(world.admin_a)
    model = fm.make_model(admin, u)
    assert rendered(models.delete_model(actor=admin, model_id=model["id"])) == {"message": "Model is deleted"}
    for call in (lambda: models.get_model(actor=admin, model_id=model["id"]),
                 lambda: models.delete_model(actor=admin, model_id=model["id"]),
                 lambda: models.update_model(actor=admin, model_id=model["id"], form=read_form(fm.payload(u, version=1)))):
        with pytest.raises(NotFound):
            call()
    row = fm.model_row(model["id"])
    assert row.deleted_at is not None and row.updated_by == world.admin_a.id
    assert len(fm.version_rows(model["id"])) == 1  # history stays
    assert _page(models.list_models(actor=admin)) == ([], 0)
    assert _page(models.list_models(actor=f.actor(world.superuser))) == ([], 0)


# ---- list -----------------------------------------------------------------------------------------
def _page(page):
    return list(page.rows), page.total


def _names(rows):
    return [r.name for r in rows]


def test_list_sort_filter_paging_and_row_shape(world, u):
    admin_a, admin_b, su = f.actor(world.admin_a), f.actor(world.admin_b), f.actor(world.superuser)
    fm.make_model(admin_a, u, name="delta")
    fm.make_model(admin_a, u, name="Alpha", status="draft")
    fm.make_model(admin_a, u, name="charlie", all=True)
    fm.make_model(admin_b, u, name="Bravo", firms=[world.firm_a.id])
    fm.make_model(admin_b, u, name="Echo")  # B only

    rows, total = _page(models.list_models(actor=admin_a))
    assert total == 4 and _names(rows) == ["Alpha", "Bravo", "charlie", "delta"]  # name ascending, case-insensitive
    row = rows[0]
    assert {x.name for x in dataclasses.fields(row)} >= {
        "id", "name", "status", "status_title", "allocation_method", "allocation_method_title", "firm", "owner",
        "availability", "assets_count", "updated_at", "version", "can_edit", "portfolios_count"}
    assert row.firm == FirmRef(world.firm_a.id, "Alpha Advisory") and row.owner == (row.firm,)
    assert row.status_title == "Draft" and row.assets_count == 3 and row.can_edit is True
    assert rows[1].can_edit is False  # Bravo is B's, shared with A

    assert _names(models.list_models(actor=admin_a, order="desc").rows) == ["delta", "charlie", "Bravo", "Alpha"]
    assert _names(models.list_models(actor=admin_a, limit=2, offset=1).rows) == ["Bravo", "charlie"]
    assert models.list_models(actor=admin_a, limit=2, offset=1).total == 4
    assert _names(models.list_models(actor=admin_a, sort="status").rows) == ["Bravo", "charlie", "delta", "Alpha"]
    assert _names(models.list_models(actor=admin_a, sort="status", order="desc").rows) == ["Alpha", "delta", "charlie", "Bravo"]
    assert _names(models.list_models(actor=admin_a, sort="firm", order="desc").rows) == ["Bravo", "delta", "charlie", "Alpha"]
    assert _names(models.list_models(actor=admin_a, sort="created_at", order="desc").rows) == ["Bravo", "charlie", "Alpha", "delta"]
    assert _names(models.list_models(actor=admin_a, sort="__class__").rows) == ["Alpha", "Bravo", "charlie", "delta"]
    assert _names(models.list_models(actor=admin_a, search="AR").rows) == ["charlie"]
    assert _names(models.list_models(actor=admin_a, search="%").rows) == []  # literal, not a wildcard
    assert models.list_models(actor=admin_a, firm_id=world.firm_b.id).total == 4  # only the superuser filters by firm

    rows, total = _page(models.list_models(actor=su))
    assert total == 5 and all(r.can_edit for r in rows)
    assert _names(models.list_models(actor=su, firm_id=world.firm_b.id).rows) == ["Bravo", "Echo"]
    assert _names(models.list_models(actor=su, firm_id=owner_filter(str(world.firm_a.id))).rows) == ["Alpha", "charlie", "delta"]
    assert models.list_models(actor=su, firm_id=owner_filter("-2")).total == 5
    assert models.list_models(actor=su, firm_id=owner_filter("")).total == 5
    assert models.list_models(actor=su, firm_id=owner_filter("junk")).total == 0


def test_list_purpose_filters(world, u):
    admin_a, admin_b = f.actor(world.admin_a), f.actor(world.admin_b)
    fm.make_model(admin_a, u, name="A active")
    fm.make_model(admin_a, u, name="A draft", status="draft")
    fm.make_model(admin_a, u, name="A hidden", investment=False)
    fm.make_model(admin_a, u, name="A no analyst", analyst_recommendations=False)
    fm.make_model(admin_b, u, name="B shared", firms=[world.firm_a.id])
    fm.make_model(admin_b, u, name="B all", all=True)

    assert _names(models.list_models(actor=admin_a, link=True).rows) == ["A active", "A no analyst", "B all", "B shared"]
    assert _names(models.list_models(actor=admin_a, tp_calculation=True).rows) == [
        "A active", "A hidden", "A no analyst", "B all", "B shared"]
    assert _names(models.list_models(actor=admin_a, tr_calculation=True).rows) == [
        "A active", "A hidden", "A no analyst", "B all", "B shared"]
    assert _names(models.list_models(actor=admin_a, str_upload=True).rows) == ["A active", "A draft", "A hidden"]
    assert _names(models.list_models(actor=admin_a, recommendations_upload=True).rows) == [
        "A active", "A draft", "A hidden", "A no analyst"]
    assert models.list_models(actor=admin_a, link=False).total == 6


# ---- details and options ------------------------------------------------------------------------------
def test_details_per_class_with_returns(world, u):
    admin = f.actor(world.admin_a)
    model = fm.make_model(admin, u)
    fm.set_price(u.stocks[0].id, "49.50")  # BHP up 10% since inclusion at 45
    details = rendered(models.model_details(actor=admin, model_id=model["id"]))
    assert details["model"]["id"] == model["id"] and details["model"]["can_edit"] is True
    assert [(c["title"], c["allocation"], c["is_cash"]) for c in details["classes"]] == [
        ("Australian Equities", "60", False), ("Fixed Income", "35", False), ("Cash", "5", True)]
    bhp, cba = details["classes"][0]["assets"]
    assert (bhp["code"], bhp["price"], bhp["one_month_return"], bhp["since_inclusion_return"], bhp["dividend_yield"]) == (
        "BHP", "49.50", "2.5000", "10.0000", "5.1000")
    assert bhp["industry_group"] == {"id": u.miners.id, "title": "Materials", "color": "#ff7f0e"}
    assert bhp["alt_asset"]["code"] == "RIO" and bhp["alt_asset"]["price"] == "118.00"
    assert bhp["alt_asset"]["since_inclusion_return"] is None
    assert cba["one_month_return"] == "-1.2500" and cba["since_inclusion_return"] == "0.0000" and cba["alt_asset"] is None
    csl_like = details["classes"][1]["assets"][0]
    assert csl_like["code"] == "VAF" and csl_like["one_month_return"] is None and csl_like["industry_group"] is None
    assert details["classes"][2]["assets"] == []


def test_form_options(world, u):
    own = fa.make_class("A's own class", firm=world.firm_a, idx=0)
    fa.make_class("B's own class", firm=world.firm_b, idx=0)
    options = models.model_form_options(actor=f.actor(world.adviser_a))
    titles = [c.title for c in options.classes]
    assert "A's own class" in titles and "B's own class" not in titles and "Cash" in titles
    assert models.ClassOption(u.cash.id, "Cash", True) in options.classes
    assert [t.title for t in options.types] == ["ETF", "Share"]
    assert options.industry_groups == (GroupRef(u.banks.id, "Banks", "#1f77b4"),
                                       GroupRef(u.miners.id, "Materials", "#ff7f0e"))
    assert options.firms == (FirmRef(world.firm_b.id, "Bravo Wealth"),)  # firms to share with
    su_options = models.model_form_options(actor=f.actor(world.superuser), firm_id=world.firm_a.id)
    assert own.id in [c.id for c in su_options.classes]
    assert [x.name for x in su_options.firms] == ["Alpha Advisory", "Bravo Wealth"]
    assert own.id not in [c.id for c in models.model_form_options(actor=f.actor(world.superuser)).classes]


# ---- the engine loader -----------------------------------------------------------------------------
def test_engine_loader_loads_twenty_models_in_few_queries(world, u):
    admin = f.actor(world.admin_a)
    ids = []
    for i in range(19):
        ids.append(fm.make_model(admin, u, name=f"Model {i:02d}")["id"])
    ids.append(rendered(models.create_model(actor=admin, form=read_form(fm.percentages_payload(u, name="Percent"))))["id"])
    with session_scope() as s:
        with fm.count_queries() as statements:
            specs = models.load_models_for_engine(s, ids + [999999])
    assert len(statements) <= 8, statements
    assert set(specs) == set(ids)
    spec = specs[ids[0]]
    assert isinstance(spec, ModelSpec) and spec.firm_id == world.firm_a.id and spec.status == "active"
    assert [(c.title, c.allocation) for c in spec.classes] == [
        ("Australian Equities", Decimal("60")), ("Fixed Income", Decimal("35")), ("Cash", Decimal("5"))]
    assert spec.cash_class.is_cash and spec.cash_class.allocation == Decimal("5")
    eq = spec.classes[0]
    assert (eq.min, eq.max, eq.assets_limit, eq.priority) == (Decimal("50"), Decimal("70"), 5, 1)
    bhp = eq.assets[0]
    assert (bhp.asset.code, bhp.alternate.code, bhp.asset.industry_group_id) == ("BHP", "RIO", u.miners.id)
    assert bhp.asset.last_close_price == Decimal("45") and bhp.percentage is None
    assert spec.equivalents_of(u.stocks[1].id) == (u.stocks[4].id,)
    assert spec.types[0].type_id == u.share.id and spec.industry_groups[0].allocation == Decimal("30")
    percent = specs[ids[-1]]
    assert percent.is_percentages and percent.percentages() == {
        u.stocks[0].id: Decimal("30"), u.stocks[1].id: Decimal("25"), u.fixed[0].id: Decimal("40")}
    with session_scope() as s:
        assert models.load_models_for_engine(s, []) == {}


def test_single_model_reads_use_few_queries(world, u):
    admin = f.actor(world.admin_a)
    model = fm.make_model(admin, u)
    with fm.count_queries() as statements:
        models.get_model(actor=admin, model_id=model["id"])
    assert len(statements) <= 12
    with fm.count_queries() as statements:
        models.model_details(actor=admin, model_id=model["id"])
    assert len(statements) <= 14
    for i in range(30):
        fm.make_model(admin, u, name=f"M{i}")
    with fm.count_queries() as statements:
        rows, _ = _page(models.list_models(actor=admin))
    assert len(rows) == 31 and len(statements) <= 6
    with fm.count_queries() as statements:
        models.update_model(actor=admin, model_id=model["id"], form=read_form(fm.payload(u, version=1)))
    assert len(statements) <= 40


# ---- demo data ------------------------------------------------------------------------------------
def test_demo_models_wait_for_assets_then_load_once(db):
    from app.services import demo
    from app.services.demo_models import load_demo_models

    demo.load_demo_data()
    with session_scope() as s:
        has_assets = s.exec(select(Asset.id)).first() is not None
    if not has_assets:
        assert _count(Model) == 0  # no universe yet: skipped quietly
        fm.make_universe()
        assert load_demo_models() == 5
    assert _count(Model) == 5
    assert load_demo_models() == 0 and _count(Model) == 5  # idempotent
    demo.load_demo_data()
    assert _count(Model) == 5

    harbour_admin = f.actor(f.user_by_email("admin@harbour.example.com"))
    rows, total = _page(models.list_models(actor=harbour_admin))
    assert [r.name for r in rows] == ["Balanced Growth", "Conservative (work in progress)", "Income Focus"]
    balanced = rows[0]
    assert balanced.status == "active" and balanced.version == 2 and balanced.availability == "with_practice"
    history, _ = _page(models.model_history(actor=harbour_admin, model_id=balanced.id))
    assert [(h.version_id, h.moderator.first_name) for h in history] == [(2, "Olivia"), (1, "James")]
    assert rendered(models.get_model(actor=harbour_admin, model_id=rows[2].id))["allocation_method"] == "percentages"
    southern = f.actor(f.user_by_email("admin@southerncross.example.com"))
    assert sorted(r.name for r in models.list_models(actor=southern).rows) == [
        "Australian Blue Chip", "Balanced Growth", "Growth Leaders", "Income Focus"]
    details = rendered(models.model_details(actor=southern, model_id=balanced.id))
    assert details["classes"][0]["assets"] and details["model"]["can_edit"] is False

    with session_scope() as s:  # a deleted demo model is not made again
        row = s.get(Model, balanced.id)
        row.deleted_at = utcnow()
        s.add(row)
    assert load_demo_models() == 0
