"""The asset universe (app.services.assets) on a real database: permissions and firm scoping,
classes and types, the asset list / lookup / search, the asset form, and price imports with the
recomputed last closes and returns."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.domain.models import NO_CASH_CLASS
from app.api.schemas import path_id, rendered
from app.domain import assets as rules
from app.domain.parsing import as_bool, as_id
from app.services import assets as typed


def _number(value, default=None):
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _id(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else path_id(value)


class assets:  # noqa: N801 - stands for the module, as the edges call it
    """app.services.assets called as its edges call it (the API, the screens): the sent forms read
    once into AssetForm / TitleForm, ids and numbers parsed, the typed answer rendered as the
    payload a client reads."""
    cash_class = staticmethod(typed.cash_class)
    find_by_codes = staticmethod(typed.find_by_codes)
    recompute_prices = staticmethod(typed.recompute_prices)
    PICKER_LIMIT_MAX = typed.PICKER_LIMIT_MAX

    @staticmethod
    def list_classes(*, actor, firm_id=None):
        return rendered(typed.list_classes(actor=actor, firm_id=as_id(firm_id)))

    @staticmethod
    def list_types(*, actor, firm_id=None):
        return rendered(typed.list_types(actor=actor, firm_id=as_id(firm_id)))

    @staticmethod
    def create_class(*, actor, data):
        return rendered(typed.create_class(actor=actor, form=rules.read_title_form(data)))

    @staticmethod
    def update_class(*, actor, class_id, data):
        return rendered(typed.update_class(actor=actor, class_id=_id(class_id), form=rules.read_title_form(data)))

    @staticmethod
    def delete_class(*, actor, class_id):
        return rendered(typed.delete_class(actor=actor, class_id=_id(class_id)))

    @staticmethod
    def create_type(*, actor, data):
        return rendered(typed.create_type(actor=actor, form=rules.read_title_form(data)))

    @staticmethod
    def update_type(*, actor, type_id, data):
        return rendered(typed.update_type(actor=actor, type_id=_id(type_id), form=rules.read_title_form(data)))

    @staticmethod
    def delete_type(*, actor, type_id):
        return rendered(typed.delete_type(actor=actor, type_id=_id(type_id)))

    @staticmethod
    def list_assets(*, actor, limit=None, offset=None, sort="code", order="asc", search=None, class_id=None,
                    type_id=None, industry_group_id=None, firm_id=None):
        page = typed.list_assets(actor=actor, limit=_number(limit), offset=_number(offset), sort=sort, order=order,
                                 search=search, class_id=as_id(class_id), type_id=as_id(type_id),
                                 industry_group_id=as_id(industry_group_id), firm_id=as_id(firm_id))
        return rendered(page.rows), page.total

    @staticmethod
    def get_asset(*, actor, asset_id):
        return rendered(typed.get_asset(actor=actor, asset_id=_id(asset_id)))

    @staticmethod
    def get_asset_by_code(*, actor, code, has_class=None, firm_id=None):
        return rendered(typed.get_asset_by_code(actor=actor, code=code, has_class=as_bool(has_class),
                                                firm_id=as_id(firm_id)))

    @staticmethod
    def search_assets(*, actor, query, firm_id=None, class_id=None, limit=20):
        return rendered(typed.search_assets(actor=actor, query=query, firm_id=as_id(firm_id), class_id=as_id(class_id),
                                            limit=_number(limit, typed.PICKER_LIMIT_DEFAULT)))

    @staticmethod
    def price_history(*, actor, asset_id, limit=typed.HISTORY_DEFAULT):
        history = typed.price_history(actor=actor, asset_id=_id(asset_id), limit=_number(limit, typed.HISTORY_DEFAULT))
        return rendered(history.rows), history.total

    @staticmethod
    def filter_options(*, actor, firm_id=None):
        return rendered(typed.filter_options(actor=actor, firm_id=as_id(firm_id)))

    @staticmethod
    def create_asset(*, actor, data):
        return rendered(typed.create_asset(actor=actor, form=rules.read_asset_form(data)))

    @staticmethod
    def update_asset(*, actor, asset_id, data):
        return rendered(typed.update_asset(actor=actor, asset_id=_id(asset_id), form=rules.read_asset_form(data)))

    @staticmethod
    def import_prices(*, actor, filename, content_type, data):
        return rendered(typed.import_prices(actor=actor, filename=filename, content_type=content_type, data=data))
from tests import factories as f
from tests import factories_assets as fa


@pytest.fixture
def world(db):
    return f.make_world()


@pytest.fixture
def uni(db):
    return fa.make_asset_world()


def su(world):
    return f.actor(world.superuser)


# ---- the existing helpers ---------------------------------------------------------------------------
def test_cash_class_helper(db):
    from sqlmodel import delete

    from app.db.engine import session_scope
    from app.db.tables import AssetClass

    with session_scope() as s:  # the migration seeds one; the first test of a session still sees it
        s.exec(delete(AssetClass))
    with session_scope() as s:
        with pytest.raises(ValidationError) as err:
            assets.cash_class(s)
    assert err.value.message == NO_CASH_CLASS
    cash = fa.make_cash_class()
    with session_scope() as s:
        assert assets.cash_class(s).id == cash.id


def test_find_by_codes_is_scoped_and_uppercased(world, uni):
    private_b = fa.make_asset("BPRIV", uni.equities, firm=world.firm_b)
    from app.db.engine import session_scope

    with session_scope() as s:
        found = assets.find_by_codes(s, f.actor(world.adviser_a), [" bhp", "Cba", "BPRIV", "NOPE", ""])
        assert sorted(found) == ["BHP", "CBA"]
        assert "BPRIV" in assets.find_by_codes(s, f.actor(world.adviser_b), ["bpriv"])
        assert private_b.id


# ---- classes and types ----------------------------------------------------------------------------
def test_list_classes_cash_first_shared_plus_own_firm(world, uni):
    own = fa.make_class("Alpha Private Credit", firm=world.firm_a)
    fa.make_class("Bravo Collectibles", firm=world.firm_b)
    fa.make_asset("ALP1", own, firm=world.firm_a)

    rows = assets.list_classes(actor=f.actor(world.adviser_a))
    titles = [r["title"] for r in rows]
    assert titles[0] == "Cash" and rows[0]["is_cash"] is True
    assert set(titles) == {"Cash", "Australian Equities", "Alpha Private Credit"}
    assert next(r for r in rows if r["title"] == "Alpha Private Credit")["assets_count"] == 1
    assert next(r for r in rows if r["title"] == "Australian Equities")["assets_count"] == 3

    # the superuser sees the shared classes, or a firm's view when naming it
    assert {r["title"] for r in assets.list_classes(actor=su(world))} == {"Cash", "Australian Equities"}
    assert "Bravo Collectibles" in {r["title"] for r in assets.list_classes(actor=su(world), firm_id=world.firm_b.id)}
    # others cannot name another firm
    assert "Bravo Collectibles" not in {r["title"] for r in assets.list_classes(actor=f.actor(world.admin_a), firm_id=world.firm_b.id)}


def test_clients_cannot_read_the_universe(world, uni):
    client = f.actor(world.client_a)
    for call in (lambda: assets.list_classes(actor=client), lambda: assets.list_types(actor=client),
                 lambda: assets.list_assets(actor=client), lambda: assets.get_asset(actor=client, asset_id=uni.bhp.id),
                 lambda: assets.get_asset_by_code(actor=client, code="BHP"),
                 lambda: assets.search_assets(actor=client, query="B"),
                 lambda: assets.price_history(actor=client, asset_id=uni.bhp.id),
                 lambda: assets.filter_options(actor=client)):
        with pytest.raises(PermissionDenied):
            call()


def test_only_the_superuser_keeps_classes_and_types(world, uni):
    for user in (world.admin_a, world.adviser_a, world.client_a):
        a = f.actor(user)
        with pytest.raises(PermissionDenied):
            assets.create_class(actor=a, data={"title": "Crypto"})
        with pytest.raises(PermissionDenied):
            assets.update_class(actor=a, class_id=uni.equities.id, data={"title": "Shares"})
        with pytest.raises(PermissionDenied):
            assets.delete_class(actor=a, class_id=uni.equities.id)
        with pytest.raises(PermissionDenied):
            assets.create_type(actor=a, data={"title": "Warrant"})
        with pytest.raises(PermissionDenied):
            assets.update_type(actor=a, type_id=uni.share.id, data={"title": "Stock"})


def test_superuser_creates_renames_and_deletes_classes(world, uni):
    s = su(world)
    created = assets.create_class(actor=s, data={"title": "  Alternatives "})
    assert created["title"] == "Alternatives" and created["is_cash"] is False and created["firm_id"] is None
    assert created["message"] == "Asset class is created"
    own = assets.create_class(actor=s, data={"title": "Harbour Private", "firmId": world.firm_a.id})
    assert own["firm_id"] == world.firm_a.id

    with pytest.raises(ValidationError) as err:
        assets.create_class(actor=s, data={"title": "alternatives"})
    assert err.value.message == "Title should be unique." and err.value.fields == {"title": "Title should be unique."}
    with pytest.raises(ValidationError) as err:
        assets.create_class(actor=s, data={"title": "  "})
    assert err.value.fields == {"title": "Please, enter title. "}
    with pytest.raises(ValidationError) as err:
        assets.create_class(actor=s, data={"title": "x" * 101})
    assert err.value.fields == {"title": "Max length should be 100 characters. "}
    with pytest.raises(ValidationError):
        assets.create_class(actor=s, data={"title": "Ghost", "firmId": 999999})

    renamed = assets.update_class(actor=s, class_id=created["id"], data={"title": "Alternative Assets"})
    assert renamed["title"] == "Alternative Assets"
    assert assets.delete_class(actor=s, class_id=created["id"]) == {"message": "Asset class is deleted"}
    with pytest.raises(NotFound):
        assets.update_class(actor=s, class_id=created["id"], data={"title": "Again"})

    with pytest.raises(ValidationError) as err:
        assets.delete_class(actor=s, class_id=uni.equities.id)
    assert err.value.message == "The asset class Australian Equities has linked assets."


def test_the_cash_class_cannot_be_deleted_or_renamed_away_from_cash(world, uni):
    s = su(world)
    with pytest.raises(ValidationError) as err:
        assets.delete_class(actor=s, class_id=uni.cash.id)
    assert err.value.message == "The cash class cannot be deleted."
    with pytest.raises(ValidationError) as err:
        assets.update_class(actor=s, class_id=uni.cash.id, data={"title": "Money market"})
    assert err.value.fields == {"title": 'The cash class has to keep "Cash" in its title.'}
    assert assets.update_class(actor=s, class_id=uni.cash.id, data={"title": "Cash & Term Deposits"})["is_cash"] is True
    assert assets.list_classes(actor=s)[0]["title"] == "Cash & Term Deposits"


def test_types(world, uni):
    s = su(world)
    fa.make_type("Bravo Structured", firm=world.firm_b)
    assert [t["title"] for t in assets.list_types(actor=f.actor(world.adviser_a))] == ["ETF", "Share"]
    created = assets.create_type(actor=s, data={"title": "Hybrid"})
    assert created["message"] == "Asset type is created"
    with pytest.raises(ValidationError) as err:
        assets.create_type(actor=s, data={"title": "share"})
    assert err.value.message == "Title should be unique."
    assert assets.update_type(actor=s, type_id=created["id"], data={"title": "Hybrid Security"})["title"] == "Hybrid Security"
    with pytest.raises(ValidationError) as err:
        assets.delete_type(actor=s, type_id=uni.share.id)
    assert err.value.message == "The asset type Share has linked assets."
    assert assets.delete_type(actor=s, type_id=created["id"]) == {"message": "Asset type is deleted"}


# ---- the list -----------------------------------------------------------------------------------------
def test_list_assets_rows_and_firm_scope(world, uni):
    fa.make_asset("AONLY", uni.equities, name="Alpha Only Fund", firm=world.firm_a)
    fa.make_asset("BONLY", uni.equities, name="Bravo Only Fund", firm=world.firm_b)
    fa.add_prices(uni.bhp, [(date(2024, 5, 28), "40"), (date(2024, 6, 28), "45.12")])
    from app.db.engine import session_scope

    with session_scope() as s:
        assets.recompute_prices(s, [uni.bhp.id])

    rows, total = assets.list_assets(actor=f.actor(world.adviser_a))
    assert total == 4 and [r["code"] for r in rows] == ["AONLY", "BHP", "CBA", "VAS"]
    bhp = rows[1]
    assert bhp["name"] == "BHP Group Limited"
    assert bhp["class"] == {"id": uni.equities.id, "title": "Australian Equities"}
    assert bhp["type"] == {"id": uni.share.id, "title": "Share"}
    assert bhp["industry_group"] == {"id": uni.materials.id, "title": "Materials", "color": "#e5484d"}
    assert bhp["last_close_price"] == "45.12"
    assert bhp["last_close_date"].startswith("2024-06-28T06:00:00")
    assert bhp["dividend_yield"] == "5.1000"
    assert bhp["one_month_return"] == "12.8000"
    assert bhp["six_month_return"] is None
    assert rows[0]["firm"] == {"id": world.firm_a.id, "name": "Alpha Advisory"}
    assert rows[2]["industry_group"]["title"] == "Financials" and rows[3]["industry_group"] is None

    assert [r["code"] for r in assets.list_assets(actor=su(world))[0]] == ["AONLY", "BHP", "BONLY", "CBA", "VAS"]
    assert [r["code"] for r in assets.list_assets(actor=su(world), firm_id=world.firm_b.id)[0]] == ["BHP", "BONLY", "CBA", "VAS"]
    # an administrator naming another firm still sees their own
    assert "BONLY" not in [r["code"] for r in assets.list_assets(actor=f.actor(world.admin_a), firm_id=world.firm_b.id)[0]]


def test_list_assets_search_filters_sort_and_paging(world, uni):
    a = f.actor(world.adviser_a)
    assert [r["code"] for r in assets.list_assets(actor=a, search="bh")[0]] == ["BHP"]  # code prefix
    assert [r["code"] for r in assets.list_assets(actor=a, search="bank")[0]] == ["CBA"]  # name contains
    assert assets.list_assets(actor=a, search="%")[1] == 0  # wildcards are literal
    assert [r["code"] for r in assets.list_assets(actor=a, industry_group_id=uni.materials.id)[0]] == ["BHP"]
    assert [r["code"] for r in assets.list_assets(actor=a, type_id=uni.etf.id)[0]] == ["VAS"]
    assert assets.list_assets(actor=a, class_id=uni.cash.id)[1] == 0
    assert assets.list_assets(actor=a, class_id="junk")[1] == 3

    from app.db.engine import session_scope
    from app.db.tables import Asset

    with session_scope() as s:
        for code, value in (("BHP", "3.5"), ("CBA", "-2.25")):
            row = s.exec(__import__("sqlmodel").select(Asset).where(Asset.code == code)).one()
            row.one_month_return = Decimal(value)
            s.add(row)
    for order, expected in (("desc", ["BHP", "CBA", "VAS"]), ("asc", ["CBA", "BHP", "VAS"])):  # empty last both ways
        assert [r["code"] for r in assets.list_assets(actor=a, sort="one_month_return", order=order)[0]] == expected
    assert [r["code"] for r in assets.list_assets(actor=a, sort="name", order="asc")[0]] == ["BHP", "CBA", "VAS"]
    assert [r["code"] for r in assets.list_assets(actor=a, sort="code", order="desc")[0]] == ["VAS", "CBA", "BHP"]
    assert [r["code"] for r in assets.list_assets(actor=a, sort="industry_group")[0]] == ["CBA", "BHP", "VAS"]
    assert [r["code"] for r in assets.list_assets(actor=a, sort="nonsense; drop table")[0]] == ["BHP", "CBA", "VAS"]
    page, total = assets.list_assets(actor=a, limit=2, offset=2)
    assert total == 3 and [r["code"] for r in page] == ["VAS"]


# ---- one asset, lookups and the picker search --------------------------------------------------------
def test_get_asset_and_another_firms_private_asset_is_not_found(world, uni):
    private = fa.make_asset("BPRIV", uni.equities, firm=world.firm_b)
    got = assets.get_asset(actor=f.actor(world.adviser_a), asset_id=uni.cba.id)
    assert got["code"] == "CBA" and got["prices_count"] == 0
    for who in (world.adviser_a, world.admin_a):
        with pytest.raises(NotFound) as err:
            assets.get_asset(actor=f.actor(who), asset_id=private.id)
        assert err.value.message == "Asset not found"
        with pytest.raises(NotFound):
            assets.price_history(actor=f.actor(who), asset_id=private.id)
    assert assets.get_asset(actor=f.actor(world.adviser_b), asset_id=private.id)["firm"]["name"] == "Bravo Wealth"
    assert assets.get_asset(actor=su(world), asset_id=private.id)["code"] == "BPRIV"
    for junk in ("abc", None, -1, 0, 10**9):
        with pytest.raises(NotFound):
            assets.get_asset(actor=su(world), asset_id=junk)


def test_lookup_by_code_is_uppercased(world, uni):
    a = f.actor(world.adviser_a)
    assert assets.get_asset_by_code(actor=a, code=" bhp ")["id"] == uni.bhp.id
    with pytest.raises(NotFound) as err:
        assets.get_asset_by_code(actor=a, code="xyz")
    assert err.value.message == "Asset XYZ is not found"
    private = fa.make_asset("BPRIV", uni.equities, firm=world.firm_b)
    with pytest.raises(NotFound) as err:
        assets.get_asset_by_code(actor=a, code="bpriv")
    assert err.value.message == "Asset BPRIV is not found"
    assert assets.get_asset_by_code(actor=f.actor(world.adviser_b), code="bpriv")["id"] == private.id
    # has_class: the asset's class must be one the firm may use
    b_class = fa.make_class("Bravo Class", firm=world.firm_b)
    odd = fa.make_asset("ODD", b_class)  # a shared asset filed under firm B's class
    assert assets.get_asset_by_code(actor=a, code="odd")["id"] == odd.id
    with pytest.raises(NotFound):
        assets.get_asset_by_code(actor=a, code="odd", has_class="true")
    assert assets.get_asset_by_code(actor=f.actor(world.adviser_b), code="odd", has_class="1")["id"] == odd.id


def test_search_assets_order_and_scopes(world, uni):
    fa.make_asset("BHPX", uni.equities, name="Another Miner")
    fa.make_asset("ABHP", uni.equities, name="Alpha BHP Tracker", firm=world.firm_a)
    fa.make_asset("BBHP", uni.equities, name="Bravo BHP Tracker", firm=world.firm_b)
    growth = fa.make_class("Growth")
    fa.make_asset("BHPG", growth, name="BHP Growth Units")

    a = f.actor(world.adviser_a)
    found = [r["code"] for r in assets.search_assets(actor=a, query="bhp")]
    assert found == ["BHP", "BHPG", "BHPX", "ABHP"]  # exact, prefixes, then names
    assert set(assets.search_assets(actor=a, query="bhp")[0]) >= {"id", "code", "name", "class_id", "class_title",
                                                                  "last_close_price"}
    # model scope: one class
    assert [r["code"] for r in assets.search_assets(actor=a, query="bhp", class_id=growth.id)] == ["BHPG"]
    # firm scope for the superuser
    assert "BBHP" in [r["code"] for r in assets.search_assets(actor=su(world), query="bhp", firm_id=world.firm_b.id)]
    assert "ABHP" not in [r["code"] for r in assets.search_assets(actor=su(world), query="bhp", firm_id=world.firm_b.id)]
    # empty query lists the first assets by code; limits are clamped
    assert [r["code"] for r in assets.search_assets(actor=a, query="", limit=2)] == ["ABHP", "BHP"]
    assert len(assets.search_assets(actor=a, query="", limit="junk")) == 6
    assert len(assets.search_assets(actor=a, query="b", limit=10**6)) <= assets.PICKER_LIMIT_MAX


# ---- the asset form ---------------------------------------------------------------------------------
def test_superuser_creates_and_updates_an_asset(world, uni):
    s = su(world)
    created = assets.create_asset(actor=s, data={
        "code": " wds ", "name": "Woodside Energy Group Ltd", "class_id": uni.equities.id, "type_id": uni.share.id,
        "industry_group_id": uni.materials.id, "dividend_yield": "8.25", "url": "www.woodside.com",
    })
    assert created["code"] == "WDS" and created["message"] == "Asset is created"
    assert created["dividend_yield"] == "8.2500" and created["url"] == "https://www.woodside.com"
    assert created["firm"] is None

    with pytest.raises(ValidationError) as err:
        assets.create_asset(actor=s, data={"code": "Wds", "name": "Again", "class_id": uni.equities.id})
    assert err.value.message == "Code should be unique." and err.value.fields == {"code": "Code should be unique."}

    updated = assets.update_asset(actor=s, asset_id=created["id"], data={
        "code": "wds", "name": "Woodside Energy", "class_id": uni.equities.id, "firm_id": world.firm_a.id})
    assert updated["name"] == "Woodside Energy" and updated["firm"]["id"] == world.firm_a.id
    assert updated["type"] is None and updated["message"] == "Asset is updated"
    with pytest.raises(ValidationError) as err:
        assets.update_asset(actor=s, asset_id=created["id"], data={"code": "BHP", "name": "x", "class_id": uni.equities.id})
    assert err.value.message == "Code should be unique."
    with pytest.raises(NotFound):
        assets.update_asset(actor=s, asset_id=999999, data={"code": "Q", "name": "x", "class_id": uni.equities.id})


@pytest.mark.parametrize("change, fields", [
    ({"code": ""}, {"code": "Please, enter code. "}),
    ({"code": "B H P"}, {"code": "Please, enter a valid value. "}),
    ({"code": "X" * 21}, {"code": "Max length should be 20 characters. "}),
    ({"name": " "}, {"name": "Please, enter name. "}),
    ({"class_id": None}, {"class_id": "Please, select class. "}),
    ({"class_id": "abc"}, {"class_id": "Please, enter a valid value. "}),
    ({"dividend_yield": "-1"}, {"dividend_yield": "Please, enter positive value"}),
    ({"dividend_yield": "abc"}, {"dividend_yield": "Please, enter a valid number. "}),
    ({"dividend_yield": "100"}, {"dividend_yield": "Value has to be less than 100."}),
    ({"url": "not a url"}, {"url": "Please, enter a valid website. "}),
    ({"class_id": 999999}, {"class_id": "Asset class not found"}),
    ({"type_id": 999999}, {"type_id": "Asset type not found"}),
    ({"industry_group_id": 999999}, {"industry_group_id": "Industry group not found"}),
    ({"firm_id": 999999}, {"firm_id": "Firm not found"}),
])
def test_asset_form_validation(world, uni, change, fields):
    data = {"code": "NEW", "name": "New Co", "class_id": uni.equities.id, **change}
    with pytest.raises(ValidationError) as err:
        assets.create_asset(actor=su(world), data=data)
    assert err.value.message == "Please, fill all required fields with valid data"
    assert err.value.fields == fields
    assert assets.list_assets(actor=su(world), search="NEW")[1] == 0


def test_an_asset_cannot_use_another_firms_class(world, uni):
    b_class = fa.make_class("Bravo Class", firm=world.firm_b)
    with pytest.raises(ValidationError) as err:
        assets.create_asset(actor=su(world), data={"code": "Q1", "name": "Q", "class_id": b_class.id, "firm_id": world.firm_a.id})
    assert err.value.fields == {"class_id": "Asset class not found"}
    ok = assets.create_asset(actor=su(world), data={"code": "Q1", "name": "Q", "class_id": b_class.id, "firm_id": world.firm_b.id})
    assert ok["class"]["title"] == "Bravo Class"


def test_only_the_superuser_creates_or_updates_assets(world, uni):
    for user in (world.admin_a, world.adviser_a, world.client_a):
        with pytest.raises(PermissionDenied):
            assets.create_asset(actor=f.actor(user), data={"code": "NEW", "name": "N", "class_id": uni.equities.id})
        with pytest.raises(PermissionDenied):
            assets.update_asset(actor=f.actor(user), asset_id=uni.bhp.id, data={"code": "BHP", "name": "N", "class_id": uni.equities.id})
    assert fa.asset_row(uni.bhp.id).name == "BHP Group Limited"


def test_filter_options(world, uni):
    opts = assets.filter_options(actor=su(world))
    assert [c["title"] for c in opts["classes"]][0] == "Cash"
    assert [g["title"] for g in opts["industry_groups"]] == ["Materials", "Financials"]
    assert {x["name"] for x in opts["firms"]} == {"Alpha Advisory", "Bravo Wealth"}
    assert assets.filter_options(actor=f.actor(world.adviser_a))["firms"] == []


# ---- price imports --------------------------------------------------------------------------------
def _import(world, data, content_type=f.CSV, filename="prices.csv"):
    return assets.import_prices(actor=su(world), filename=filename, content_type=content_type, data=data)


def test_import_csv_sets_last_close_and_returns(world, uni):
    fa.add_prices(uni.bhp, [(date(2023, 12, 27), "36.80"), (date(2023, 12, 29), "39.00"), (date(2024, 5, 27), "40.00"),
                            (date(2024, 5, 29), "41.00")])
    data = f.csv_bytes([
        ("bhp", "28/06/2024", "46.00"),
        ("CBA", "2024-06-27", "120.5"),
        ("CBA", "2024-06-28", "121.75"),
        ("CBA", "2024-05-28", "110"),
    ], fa.PRICE_HEADER)
    result = _import(world, data)
    assert result == {"imported": 4, "updated": 0, "assets": 2, "rejected": [], "message": "The file upload is now complete"}

    bhp = fa.asset_row(uni.bhp.id)
    assert bhp.last_close_price == Decimal("46.000000")
    assert bhp.last_close_date.isoformat() == "2024-06-28T06:00:00+00:00"
    # 1M: the close on or before 28/05/2024 is 40.00 (27/05); 6M: on or before 28/12/2023 is 36.80 (27/12)
    assert bhp.one_month_return == Decimal("15.0000")
    assert bhp.six_month_return == Decimal("25.0000")
    cba = fa.asset_row(uni.cba.id)
    assert cba.last_close_price == Decimal("121.750000")
    assert cba.one_month_return == Decimal("10.6818")  # 121.75 / 110 - 1
    assert cba.six_month_return is None  # no close that far back
    assert fa.asset_row(uni.vas.id).last_close_price is None  # untouched

    # a later upload replaces a day and adds one: the newest close moves on
    result = _import(world, f.csv_bytes([("BHP", "28/06/2024", "45.00"), ("BHP", "01/07/2024", "47.00")], fa.PRICE_HEADER))
    assert (result["imported"], result["updated"]) == (1, 1)
    assert fa.prices_of(uni.bhp)[date(2024, 6, 28)] == Decimal("45.000000")
    bhp = fa.asset_row(uni.bhp.id)
    assert bhp.last_close_price == Decimal("47.000000") and bhp.last_close_date.date() == date(2024, 7, 1)
    assert bhp.one_month_return == Decimal("14.6341")  # 47 / 41 (29/05, on or before 01/06) - 1
    assert bhp.six_month_return == Decimal("20.5128")  # 47 / 39 (29/12, on or before 01/01) - 1


def test_import_excel_workbook(world, uni):
    data = f.xlsx_bytes([("BHP", date(2024, 6, 27), 45.5), ("bhp", "28/06/2024", "45.25"), ("VAS", date(2024, 6, 28), 97)], fa.PRICE_HEADER, sheet="Prices")
    result = _import(world, data, f.XLSX, "prices.xlsx")
    assert (result["imported"], result["updated"], result["rejected"]) == (3, 0, [])
    assert fa.prices_of(uni.bhp) == {date(2024, 6, 27): Decimal("45.500000"), date(2024, 6, 28): Decimal("45.250000")}
    assert fa.asset_row(uni.vas.id).last_close_price == Decimal("97.000000")


def test_rejected_lines_are_named_and_good_lines_imported(world, uni):
    private = fa.make_asset("BPRIV", uni.equities, firm=world.firm_b)
    data = f.csv_bytes([
        ("BHP", "28/06/2024", "45.12"),  # 2
        ("XYZ", "28/06/2024", "1.00"),   # 3
        ("CBA", "28/06/2024", "-5"),     # 4
        ("CBA", "31/13/2024", "5"),      # 5
        ("BPRIV", "28/06/2024", "2"),    # 6: the superuser keeps every firm's prices
    ], fa.PRICE_HEADER)
    result = _import(world, data)
    assert (result["imported"], result["updated"], result["assets"]) == (2, 0, 2)
    assert [(r["line"], r["code"], r["reason"]) for r in result["rejected"]] == [
        (3, "XYZ", "unknown asset code XYZ"),
        (4, "CBA", "close must be a positive number"),
        (5, "CBA", "invalid date"),
    ]
    assert [r["message"] for r in result["rejected"]] == [
        "Line 3: unknown asset code XYZ", "Line 4: close must be a positive number", "Line 5: invalid date"]
    assert fa.count_prices() == 2 and fa.asset_row(private.id).last_close_price == Decimal("2.000000")


def test_all_lines_rejected_is_refused_writes_nothing_but_reports(world, uni):
    with pytest.raises(ValidationError) as err:
        _import(world, f.csv_bytes([("NOPE", "28/06/2024", "1"), ("BHP", "x", "1")], fa.PRICE_HEADER))
    assert err.value.message == "No price was imported: every line of the file was rejected."
    report = err.value.result
    assert (report["imported"], report["updated"], report["assets"]) == (0, 0, 0)
    assert [r["message"] for r in report["rejected"]] == ["Line 2: unknown asset code NOPE", "Line 3: invalid date"]
    assert fa.count_prices() == 0


@pytest.mark.parametrize("data, content_type, text", [
    (f.csv_bytes([("BHP", "28/06/2024", "1")], fa.PRICE_HEADER), "image/png", "Invalid file type!"),
    (f.csv_bytes([("BHP", "28/06/2024", "1")], fa.PRICE_HEADER), "application/pdf", "Invalid file type!"),
    (b"code,date\nBHP,28/06/2024\n", f.CSV,
     "The file has no close column: the first line must name the columns code, date and close."),
    (b"", f.CSV, "The file is empty."),
    (b"PK\x03\x04garbage", f.XLSX, "The file could not be read as an Excel workbook (.xlsx)."),
])
def test_malformed_or_wrong_type_file_writes_nothing(world, uni, data, content_type, text):
    fa.add_prices(uni.bhp, [(date(2024, 6, 27), "45")])
    before = fa.asset_row(uni.bhp.id).last_close_price
    with pytest.raises(ValidationError) as err:
        _import(world, data, content_type)
    assert err.value.message == text
    assert fa.count_prices() == 1 and fa.asset_row(uni.bhp.id).last_close_price == before


def test_only_the_superuser_imports_prices(world, uni):
    for user in (world.admin_a, world.adviser_a, world.client_a):
        with pytest.raises(PermissionDenied):
            assets.import_prices(actor=f.actor(user), filename="p.csv", content_type=f.CSV,
                                 data=f.csv_bytes([("BHP", "28/06/2024", "45")], fa.PRICE_HEADER))
    assert fa.count_prices() == 0


def test_price_history_oldest_first_with_limit(world, uni):
    days = fa.weekdays(date(2024, 6, 28), 10)
    fa.add_prices(uni.bhp, [(d, str(40 + i)) for i, d in enumerate(days)])
    rows, total = assets.price_history(actor=f.actor(world.adviser_a), asset_id=uni.bhp.id, limit=3)
    assert total == 10
    assert rows == [{"date": days[-3].isoformat(), "close": "47.00"}, {"date": days[-2].isoformat(), "close": "48.00"},
                    {"date": days[-1].isoformat(), "close": "49.00"}]
    assert len(assets.price_history(actor=f.actor(world.adviser_a), asset_id=uni.bhp.id, limit="junk")[0]) == 10


def test_recompute_in_bulk_uses_a_few_queries(world, uni):
    """Returns for many assets are computed with a handful of statements, not one per asset."""
    from sqlalchemy import event

    from app.db import get_engine
    from app.db.engine import session_scope

    many = [fa.make_asset(f"Q{i:03d}", uni.equities) for i in range(60)]
    days = fa.weekdays(date(2024, 6, 28), 140)
    from app.db.tables import AssetPrice

    with session_scope() as s:
        s.add_all([AssetPrice(asset_id=a.id, price_date=d, close=Decimal(10 + i % 7)) for a in many for i, d in enumerate(days)])
    statements = []

    def count(*_args, **_kw):
        statements.append(1)

    event.listen(get_engine(), "before_cursor_execute", count)
    try:
        with session_scope() as s:
            assert assets.recompute_prices(s, [a.id for a in many]) == 60
    finally:
        event.remove(get_engine(), "before_cursor_execute", count)
    assert len(statements) <= 8
    row = fa.asset_row(many[0].id)
    assert row.last_close_price == Decimal(10 + 139 % 7) and row.one_month_return is not None and row.six_month_return is not None


# ---- fuzz: the import never raises anything but ValidationError and never writes a malformed file ----
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda t: ("code,date,close\n" + t).encode())))
def test_fuzz_import(world, uni, body):
    before = fa.count_prices()
    try:
        result = _import(world, body)
    except ValidationError:
        assert fa.count_prices() == before
        return
    assert fa.count_prices() == before + result["imported"]
    for rejection in result["rejected"]:
        assert rejection["message"].startswith(f"Line {rejection['line']}: ")


# ---- demo data ----------------------------------------------------------------------------------------
def test_demo_universe_is_real_complete_and_idempotent(db):
    import time

    from sqlmodel import func, select

    from app.db.engine import session_scope
    from app.db.tables import Asset, AssetPrice
    from app.services import demo_assets

    started = time.monotonic()
    assert demo_assets.load_demo_assets(today=date(2024, 6, 30)) is True  # a Sunday: closes end on Friday 28/06
    assert time.monotonic() - started < 20
    superuser = f.actor(f.make_user("superuser"))
    rows, total = assets.list_assets(actor=superuser, limit=1000)
    assert total == len(demo_assets.UNIVERSE) >= 200
    codes = {r["code"] for r in rows}
    assert {"CBA", "BHP", "CSL", "GMG", "WDS", "XRO", "WES", "WOW", "TLS", "AGL", "TCL",
            "VAS", "VGS", "IOZ", "STW", "VAF", "IAF"} <= codes
    assert {c["title"] for c in assets.list_classes(actor=superuser)} == {
        "Cash", "Australian Equities", "International Equities", "Property", "Fixed Income", "Alternatives"}
    assert {t["title"] for t in assets.list_types(actor=superuser)} == {"Share", "ETF", "Managed Fund", "Hybrid"}
    groups = {r["industry_group"]["title"] for r in rows}
    assert {"Financials", "Materials", "Health Care", "Real Estate", "Energy", "Information Technology",
            "Consumer Discretionary", "Consumer Staples", "Communication Services", "Utilities", "Industrials",
            "Diversified (ETFs and funds)"} == groups
    cba = next(r for r in rows if r["code"] == "CBA")
    assert cba["last_close_price"] == "131.50" and cba["last_close_date"].startswith("2024-06-28")
    assert cba["one_month_return"] is not None and cba["six_month_return"] is not None
    assert next(r for r in rows if r["code"] == "AAA")["class"]["title"] == "Cash"
    with session_scope() as s:
        per_asset = s.exec(select(AssetPrice.asset_id, func.count()).group_by(AssetPrice.asset_id)).all()
        assert len(per_asset) == total and {n for _, n in per_asset} == {demo_assets.TRADING_DAYS}
        assert s.exec(select(func.min(AssetPrice.price_date))).one().weekday() < 5
        prices = s.exec(select(func.count()).select_from(AssetPrice)).one()
    # the returns stored agree with the history
    history, _ = assets.price_history(actor=superuser, asset_id=cba["id"], limit=200)
    closes = [(date.fromisoformat(h["date"]), Decimal(h["close"])) for h in history]
    from app.domain import prices as price_rules

    reference = price_rules.reference_close(closes, price_rules.months_before(date(2024, 6, 28), 1))
    assert Decimal(cba["one_month_return"]) == price_rules.period_return(Decimal("131.50"), reference)

    # a second run changes nothing; the same walk is drawn for the same code
    assert demo_assets.load_demo_assets(today=date(2024, 6, 30)) is False
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(AssetPrice)).one() == prices
        assert s.exec(select(func.count()).select_from(Asset)).one() == total
    assert demo_assets.price_path("CBA", Decimal("131.50"), Decimal("0.011"), 5) == \
        demo_assets.price_path("CBA", Decimal("131.50"), Decimal("0.011"), 5)
