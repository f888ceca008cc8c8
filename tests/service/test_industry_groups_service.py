"""Industry groups (app.services.industry_groups) on a real database: who may read and change them,
the texts of spec 002, unique titles, delete blocked by linked assets, reorder validation and
atomicity, and concurrent writers."""
from __future__ import annotations

import threading
from dataclasses import asdict

import pytest

from app.api.schemas import path_id
from app.domain.industry_groups import read_form, read_order
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.permissions import NOT_ALLOWED
from app.services import industry_groups as ig
from tests import factories as f
from tests import factories_assets as fa
from tests import factories_industry_groups as g
from tests import factories_models as fm


@pytest.fixture
def world(db):
    return f.make_world()


@pytest.fixture
def su(world):
    return f.actor(world.superuser)


# ---- reading ---------------------------------------------------------------------------------------
def test_staff_read_groups_in_order_with_linked_asset_counts(world, su):
    energy, materials, financials = fa.make_group("Energy", idx=2), fa.make_group("Materials", idx=0), fa.make_group("Financials", idx=1)
    fa.make_asset("WDS", group=energy)
    fa.make_asset("STO", group=energy)
    fa.make_asset("BHP", group=materials)
    fa.make_asset("PRIV", group=energy, firm=world.firm_b.id)  # firm B's own asset

    rows = ig.list_industry_groups(actor=su)
    assert [(r.title, r.idx, r.assets_count) for r in rows] == [
        ("Materials", 0, 1), ("Financials", 1, 0), ("Energy", 2, 3)]
    assert set(asdict(rows[0])) == {"id", "title", "color", "idx", "assets_count"}

    for user in (world.admin_a, world.adviser_a):
        rows = ig.list_industry_groups(actor=f.actor(user))
        # firm A does not count firm B's private asset
        assert [(r.title, r.assets_count) for r in rows] == [("Materials", 1), ("Financials", 0), ("Energy", 2)]
        assert [asdict(o) for o in ig.main_list(actor=f.actor(user))] == [
            {"id": materials.id, "title": "Materials", "color": "#3e63dd"},
            {"id": financials.id, "title": "Financials", "color": "#3e63dd"},
            {"id": energy.id, "title": "Energy", "color": "#3e63dd"},
        ]
    assert [r.assets_count for r in ig.list_industry_groups(actor=f.actor(world.admin_b))] == [1, 0, 3]
    one = ig.get_industry_group(actor=f.actor(world.adviser_b), group_id=energy.id)
    assert asdict(one) == {"id": energy.id, "title": "Energy", "color": "#3e63dd", "idx": 2, "assets_count": 3}


def test_clients_may_not_read_industry_groups(world):
    group = fa.make_group("Energy")
    client = f.actor(world.client_a)
    for call in (lambda: ig.list_industry_groups(actor=client), lambda: ig.main_list(actor=client),
                 lambda: ig.get_industry_group(actor=client, group_id=group.id)):
        with pytest.raises(PermissionDenied) as err:
            call()
        assert err.value.message == NOT_ALLOWED


@pytest.mark.parametrize("group_id", ["abc", None, "", 0, -1, 999999, "1.5"])
def test_unknown_groups_are_not_found(su, group_id):
    with pytest.raises(NotFound) as err:
        ig.get_industry_group(actor=su, group_id=path_id(group_id))
    assert err.value.message == "Industry group not found"
    with pytest.raises(NotFound):
        ig.update_industry_group(actor=su, group_id=path_id(group_id), form=read_form({"title": "X"}))
    with pytest.raises(NotFound):
        ig.delete_industry_group(actor=su, group_id=path_id(group_id))


# ---- only the superuser changes them -----------------------------------------------------------------
@pytest.mark.parametrize("who", ["admin_a", "adviser_a", "client_a"])
def test_only_the_superuser_changes_industry_groups(world, who):
    energy, materials = fa.make_groups("Energy", "Materials")
    actor = f.actor(getattr(world, who))
    before = g.state()
    calls = [
        lambda: ig.create_industry_group(actor=actor, form=read_form({"title": "Utilities"})),
        lambda: ig.update_industry_group(actor=actor, group_id=energy.id, form=read_form({"title": "Oil", "color": "#000000"})),
        lambda: ig.delete_industry_group(actor=actor, group_id=materials.id),
        lambda: ig.reorder_industry_groups(actor=actor, items=read_order([{"id": energy.id, "idx": 1}, {"id": materials.id, "idx": 0}])),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied) as err:
            call()
        assert err.value.message == NOT_ALLOWED
    assert g.state() == before


# ---- create ------------------------------------------------------------------------------------------
def test_create_appends_trims_and_gives_an_unused_palette_colour(su):
    first = ig.create_industry_group(actor=su, form=read_form({"title": "  Energy  "}))
    assert first.title == "Energy" and first.idx == 0 and first.assets_count == 0
    assert first.color == "#3e63dd"
    second = ig.create_industry_group(actor=su, form=read_form({"title": "Materials"}))
    assert second.idx == 1 and second.color == "#12a594"  # the next unused colour
    third = ig.create_industry_group(actor=su, form=read_form({"title": "Utilities", "color": "#AABBCC"}))
    assert third.color == "#aabbcc" and third.idx == 2
    assert g.order() == ["Energy", "Materials", "Utilities"]
    assert ig.get_industry_group(actor=su, group_id=third.id) == third


@pytest.mark.parametrize(
    "data, field, text",
    [
        ({}, "title", "Please, enter title. "),
        ({"title": ""}, "title", "Please, enter title. "),
        ({"title": "   "}, "title", "Please, enter title. "),
        ({"title": None}, "title", "Please, enter title. "),
        ({"title": "x" * 101}, "title", "Max length should be 100 characters. "),
        ({"title": "Utilities", "color": "red"}, "color", "Please, choose a valid color (#rrggbb). "),
        ({"title": "Utilities", "color": "#12345"}, "color", "Please, choose a valid color (#rrggbb). "),
        ({"title": "Utilities", "color": "#12345g"}, "color", "Please, choose a valid color (#rrggbb). "),
        ({"title": "Utilities", "color": ""}, "color", "Please, choose a valid color (#rrggbb). "),
    ],
)
def test_create_refuses_invalid_input_and_writes_nothing(su, data, field, text):
    fa.make_group("Energy")
    before = g.state()
    with pytest.raises(ValidationError) as err:
        ig.create_industry_group(actor=su, form=read_form(data))
    assert err.value.fields[field] == text
    assert err.value.message == text
    assert g.state() == before


@pytest.mark.parametrize("title", ["Energy", "energy", "  ENERGY ", "EnErGy"])
def test_titles_are_unique_whatever_the_case(su, title):
    fa.make_group("Energy")
    with pytest.raises(ValidationError) as err:
        ig.create_industry_group(actor=su, form=read_form({"title": title}))
    assert err.value.message == "Title should be unique."
    assert err.value.fields == {"title": "Title should be unique."}
    assert g.order() == ["Energy"]


def test_max_length_title_is_accepted(su):
    assert ig.create_industry_group(actor=su, form=read_form({"title": "x" * 100})).title == "x" * 100


# ---- update ------------------------------------------------------------------------------------------
def test_rename_recolour_and_move(su):
    energy, materials, financials, utilities = fa.make_groups("Energy", "Materials", "Financials", "Utilities")
    renamed = ig.update_industry_group(actor=su, group_id=energy.id, form=read_form({"title": "Energy & Resources"}))
    assert renamed.title == "Energy & Resources" and renamed.color == "#3e63dd" and renamed.idx == 0

    recoloured = ig.update_industry_group(actor=su, group_id=energy.id, form=read_form({"color": "#E54666"}))
    assert recoloured.title == "Energy & Resources" and recoloured.color == "#e54666"

    same = ig.update_industry_group(actor=su, group_id=materials.id, form=read_form({"title": "MATERIALS"}))
    assert same.title == "MATERIALS"  # its own title in another case is not a duplicate

    moved = ig.update_industry_group(actor=su, group_id=energy.id, form=read_form({"title": "Energy", "color": "#e54666", "idx": 2}))
    assert moved.idx == 2
    assert g.order() == ["MATERIALS", "Financials", "Energy", "Utilities"]
    assert [r.idx for r in g.group_rows()] == [0, 1, 2, 3]

    ig.update_industry_group(actor=su, group_id=utilities.id, form=read_form({"idx": 0}))
    assert g.order() == ["Utilities", "MATERIALS", "Financials", "Energy"]
    ig.update_industry_group(actor=su, group_id=utilities.id, form=read_form({"idx": "99"}))  # past the end: last
    assert g.order() == ["MATERIALS", "Financials", "Energy", "Utilities"]


@pytest.mark.parametrize(
    "data, field, text",
    [
        ({"title": ""}, "title", "Please, enter title. "),
        ({"title": "  "}, "title", "Please, enter title. "),
        ({"title": "materials"}, "title", "Title should be unique."),
        ({"title": "Energy", "color": "blue"}, "color", "Please, choose a valid color (#rrggbb). "),
        ({"title": "Energy", "idx": "first"}, "idx", "Please, enter a valid number. "),
        ({"title": "Energy", "idx": -1}, "idx", "Please, enter a valid number. "),
        ({"title": "Energy", "idx": 1.5}, "idx", "Please, enter a valid number. "),
        ({"title": "Energy", "idx": True}, "idx", "Please, enter a valid number. "),
    ],
)
def test_update_refuses_invalid_input_and_writes_nothing(su, data, field, text):
    energy, _ = fa.make_groups("Energy", "Materials")
    before = g.state()
    with pytest.raises(ValidationError) as err:
        ig.update_industry_group(actor=su, group_id=energy.id, form=read_form(data))
    assert err.value.fields[field] == text
    assert g.state() == before


# ---- delete ------------------------------------------------------------------------------------------
def test_delete_is_blocked_while_assets_are_linked(world, su):
    energy, materials = fa.make_groups("Energy", "Materials")
    asset = fa.make_asset("WDS", group=energy, firm=world.firm_a.id)  # a firm's own asset blocks as well
    before = g.state()
    with pytest.raises(Conflict) as err:
        ig.delete_industry_group(actor=su, group_id=energy.id)
    assert err.value.message == "The industry group Energy has linked assets."
    assert err.value.fields == {"helper": "Please, relink them to other industry groups first."}
    assert g.state() == before

    # relinked elsewhere, it goes
    from app.db.engine import session_scope
    from app.db.tables import Asset

    with session_scope() as s:
        row = s.get(Asset, asset.id)
        row.industry_group_id = materials.id
        s.add(row)
    ig.delete_industry_group(actor=su, group_id=energy.id)
    assert g.order() == ["Materials"]
    assert [r.idx for r in g.group_rows()] == [0]


def test_delete_renumbers_and_drops_model_allocations_to_the_group(world, su):
    energy, materials, utilities = fa.make_groups("Energy", "Materials", "Utilities")
    fm.make_model(world.firm_a.id, industry_groups={materials.id: "20"})
    fm.make_model(world.firm_a.id, industry_groups={utilities.id: "20"})
    ig.delete_industry_group(actor=su, group_id=materials.id)
    assert g.order() == ["Energy", "Utilities"]
    assert [r.idx for r in g.group_rows()] == [0, 1]
    assert g.model_allocations(materials.id) == []
    assert len(g.model_allocations(utilities.id)) == 1
    with pytest.raises(NotFound):
        ig.delete_industry_group(actor=su, group_id=materials.id)


# ---- reorder -----------------------------------------------------------------------------------------
def test_reorder_applies_the_whole_order(su):
    a, b, c = fa.make_groups("Energy", "Materials", "Financials")
    fa.make_asset("CBA", group=c)
    rows = ig.reorder_industry_groups(actor=su, items=read_order([{"id": c.id, "idx": 0}, {"id": a.id, "idx": 1}, {"id": b.id, "idx": 2}]))
    assert [(r.title, r.idx, r.assets_count) for r in rows] == [("Financials", 0, 1), ("Energy", 1, 0), ("Materials", 2, 0)]
    assert g.order() == ["Financials", "Energy", "Materials"]
    # positions are ranks: gaps and strings are accepted, stored as 0..n-1
    ig.reorder_industry_groups(actor=su, items=read_order([{"id": str(b.id), "idx": "10"}, {"id": a.id, "idx": 30}, {"id": c.id, "idx": 20}]))
    assert g.order() == ["Materials", "Financials", "Energy"]
    assert [r.idx for r in g.group_rows()] == [0, 1, 2]


@pytest.mark.parametrize(
    "make_items",
    [
        lambda a, b, c: None,
        lambda a, b, c: [],
        lambda a, b, c: {"id": a.id, "idx": 0},
        lambda a, b, c: "1,2,3",
        lambda a, b, c: [a.id, b.id, c.id],
        lambda a, b, c: [{"id": a.id, "idx": 0}, {"id": a.id, "idx": 1}, {"id": c.id, "idx": 2}],  # same id twice
        lambda a, b, c: [{"id": a.id, "idx": 0}, {"id": b.id, "idx": 0}, {"id": c.id, "idx": 2}],  # same position twice
        lambda a, b, c: [{"id": a.id, "idx": -1}, {"id": b.id, "idx": 0}, {"id": c.id, "idx": 2}],
        lambda a, b, c: [{"id": a.id, "idx": "x"}, {"id": b.id, "idx": 1}, {"id": c.id, "idx": 2}],
        lambda a, b, c: [{"id": a.id, "idx": 0.5}, {"id": b.id, "idx": 1}, {"id": c.id, "idx": 2}],
        lambda a, b, c: [{"id": None, "idx": 0}, {"id": b.id, "idx": 1}, {"id": c.id, "idx": 2}],
        lambda a, b, c: [{"id": True, "idx": 0}, {"id": b.id, "idx": 1}, {"id": c.id, "idx": 2}],
        lambda a, b, c: [{"idx": 0}, {"id": b.id, "idx": 1}, {"id": c.id, "idx": 2}],
    ],
)
def test_reorder_refuses_malformed_lists_and_writes_nothing(su, make_items):
    a, b, c = fa.make_groups("Energy", "Materials", "Financials")
    before = g.state()
    with pytest.raises(ValidationError) as err:
        ig.reorder_industry_groups(actor=su, items=read_order(make_items(a, b, c)))
    assert err.value.message == "Please, send every industry group once with its position."
    assert g.state() == before


@pytest.mark.parametrize(
    "make_items",
    [
        lambda a, b, c: [{"id": a.id, "idx": 1}, {"id": b.id, "idx": 0}],  # one missing
        lambda a, b, c: [{"id": a.id, "idx": 1}, {"id": b.id, "idx": 0}, {"id": c.id, "idx": 2}, {"id": 999999, "idx": 3}],
        lambda a, b, c: [{"id": a.id, "idx": 1}, {"id": b.id, "idx": 0}, {"id": 999999, "idx": 2}],  # one unknown
    ],
)
def test_reorder_refuses_a_list_that_is_not_the_current_set(su, make_items):
    a, b, c = fa.make_groups("Energy", "Materials", "Financials")
    before = g.state()
    with pytest.raises(Conflict) as err:
        ig.reorder_industry_groups(actor=su, items=read_order(make_items(a, b, c)))
    assert err.value.message == "The industry groups were changed by someone else. Reload the list and try again."
    assert g.state() == before


def test_reorder_is_one_transaction(su, monkeypatch):
    """A failure after the positions were written leaves every position as it was."""
    a, b, c = fa.make_groups("Energy", "Materials", "Financials")
    before = g.state()

    def broken(*args, **kwargs):
        raise RuntimeError("the connection dropped")

    monkeypatch.setattr(ig, "public_group", broken)  # runs after every row was updated and flushed
    with pytest.raises(RuntimeError):
        ig.reorder_industry_groups(actor=su, items=read_order([{"id": c.id, "idx": 0}, {"id": b.id, "idx": 1}, {"id": a.id, "idx": 2}]))
    assert g.state() == before


# ---- concurrent writers ----------------------------------------------------------------------------
def test_two_superusers_creating_the_same_title_make_one_group(world, su):
    fa.make_group("Energy")
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def create():
        barrier.wait()
        try:
            ig.create_industry_group(actor=su, form=read_form({"title": "Utilities"}))
            outcomes.append("created")
        except ValidationError as exc:
            outcomes.append(exc.message)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["Title should be unique."] * 3 + ["created"]
    assert g.order() == ["Energy", "Utilities"]
    assert [r.idx for r in g.group_rows()] == [0, 1]


# ---- lookups for loaders -------------------------------------------------------------------------------
def test_ids_by_title_ignores_case_and_unknown_titles(db):
    energy, materials = fa.make_groups("Energy", "Materials")
    from app.db.engine import session_scope

    with session_scope() as s:
        assert ig.ids_by_title(s, ["energy", "MATERIALS", "Gold", ""]) == {"energy": energy.id, "MATERIALS": materials.id}
        assert ig.ids_by_title(s, []) == {}


# ---- demo data ---------------------------------------------------------------------------------------
def test_demo_groups_load_once_in_order_with_distinct_colours(su):
    from app.services.demo_industry_groups import DEMO_GROUPS, load_demo_industry_groups

    fa.make_group("energy", color="#000000")  # an existing group with a demo title is kept, not doubled
    ids = load_demo_industry_groups()
    titles = [t for t, _ in DEMO_GROUPS]
    assert list(ids) == titles
    assert titles == ["Financials", "Materials", "Health Care", "Real Estate", "Energy", "Information Technology",
                      "Consumer Discretionary", "Consumer Staples", "Communication Services", "Utilities",
                      "Industrials", "Diversified (ETFs and funds)"]
    assert g.order() == ["energy"] + [t for t in titles if t != "Energy"]
    assert len({c for _, c in DEMO_GROUPS}) == 12
    assert ids == load_demo_industry_groups()
    assert len(g.group_rows()) == 12

    # once loaded, a group the superuser deleted stays deleted
    ig.delete_industry_group(actor=su, group_id=ids["Utilities"])
    again = load_demo_industry_groups()
    assert "Utilities" not in again and len(g.group_rows()) == 11
