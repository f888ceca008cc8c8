"""Firms (app.services.firms) on a real database: permissions, validation, listing, soft delete, logos."""
from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain import validators as v
from app.domain.errors import INVALID_FORM, AuthenticationError, Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.roles import Role, UserStatus
from app.domain.firms import read_firm_form
from app.domain.parsing import as_id
from app.domain.wire import rendered
from app.services import auth, files, firms
from tests import factories as f


def _listed(**query):
    """A page of firms as the payload reads them, and the count of all."""
    rows, total = firms.list_firms(**query)
    return rendered(rows), total

FULL = {
    "name": "Coastal Capital",
    "abn": "53004085616",
    "car": "1234567",
    "phone": "(02) 9250 1234",
    "email": "info@coastal.com.au",
    "website": "https://coastal.com.au",
    "licensee": {
        "name": "Coastal Licensee Pty Ltd", "abn": "12345678901", "afsl": "456789", "phone": "0292509999",
        "email": "compliance@coastal.com.au", "website": "coastal-licensee.com.au",
        "fsgLink": "https://coastal-licensee.com.au/fsg", "privacyPolicyLink": "https://coastal-licensee.com.au/privacy",
    },
    "fee": "0.11",
    "maxFee": "250.00",
    "minFee": "19.95",
    "ausiexCode": "CCP001",
}


# ---- create / read / update / delete by the superuser ----------------------------------------------
def test_superuser_creates_reads_updates_and_deletes_a_firm(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    created = rendered(firms.create_firm(actor=su, form=read_firm_form(FULL)))
    assert created["name"] == "Coastal Capital"
    assert created["licensee"]["afsl"] == "456789"
    assert (created["fee"], created["maxFee"], created["minFee"], created["ausiexCode"]) == ("0.11", "250.00", "19.95", "CCP001")
    assert created["version"] == 1
    row = f.get_firm_row(created["id"])
    assert (row.fee, row.max_fee, row.min_fee) == (Decimal("0.11"), Decimal("250.00"), Decimal("19.95"))
    assert isinstance(row.max_fee, Decimal)

    got = rendered(firms.get_firm(actor=su, firm_id=created["id"]))
    assert got == created

    updated = rendered(firms.update_firm(actor=su, firm_id=created["id"], form=read_firm_form({**FULL, "name": "Coastal Capital Group", "version": 1})))
    assert updated["name"] == "Coastal Capital Group" and updated["version"] == 2

    firms.delete_firm(actor=su, firm_id=created["id"])
    with pytest.raises(NotFound) as err:
        firms.get_firm(actor=su, firm_id=created["id"])
    assert err.value.message == "Firm not found"
    assert f.get_firm_row(created["id"]).deleted_at is not None  # soft
    assert firms.list_firms(actor=su) == ([], 0)
    with pytest.raises(NotFound):
        firms.delete_firm(actor=su, firm_id=created["id"])


@pytest.mark.parametrize("firm_id", ["abc", None, "", 999999, "-1"])
def test_unknown_firm_ids_are_not_found(db, firm_id):
    su = f.actor(f.make_user(Role.SUPERUSER))
    with pytest.raises(NotFound):
        firms.get_firm(actor=su, firm_id=as_id(firm_id) or 0)


# ---- validation -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, field, text",
    [
        ({"name": ""}, "name", "Please, enter firm name. "),
        ({"name": "   "}, "name", "Please, enter firm name. "),
        ({"name": "x" * 201}, "name", "Max length should be 200 characters. "),
        ({"website": "not a website"}, "website", "Please, enter a valid website. "),
        ({"website": "http://nodot"}, "website", "Please, enter a valid website. "),
        ({"email": "info@"}, "email", "Please, enter a valid email. "),
        ({"abn": "1234"}, "abn", "Length must be exactly 11 characters. "),
        ({"abn": "1234567890a"}, "abn", "Please, enter a valid number. "),
        ({"car": "12-34"}, "car", "Please, enter a valid number. "),
        ({"phone": "02-9250"}, "phone", "Please, enter a valid value. "),
        ({"licensee": {**FULL["licensee"], "email": "bad"}}, "licensee.email", "Please, enter a valid email. "),
        ({"licensee": {**FULL["licensee"], "fsgLink": "bad link"}}, "licensee.fsgLink", "Please, enter a valid website. "),
        ({"licensee": {**FULL["licensee"], "afsl": "A1"}}, "licensee.afsl", "Please, enter a valid number. "),
        ({"fee": "abc"}, "fee", "Please, enter a valid number. "),
        ({"fee": "-1"}, "fee", "Please, enter positive value"),
        ({"fee": "100"}, "fee", "Value has to be less than 100."),
        ({"fee": "+1"}, "fee", "Please, enter a valid number. "),
        ({"maxFee": "10.005"}, "maxFee", "Max 2 decimals"),
        ({"minFee": "-5"}, "minFee", "Please, enter positive value"),
        ({"maxFee": "10", "minFee": "20"}, "maxFee", "Max must not be less than Min"),
        ({"maxFee": "20", "minFee": "20"}, "maxFee", "Max must not be less than Min"),
        ({"maxFee": "10", "minFee": "20"}, "minFee", "Min must be less than Max"),
        ({"ausiexCode": "ab123"}, "ausiexCode", "Broker code must begin with three uppercase letters."),
        ({"ausiexCode": "AB1"}, "ausiexCode", "Broker code must begin with three uppercase letters."),
    ],
)
def test_invalid_firm_is_refused_and_nothing_is_written(db, change, field, text):
    su = f.actor(f.make_user(Role.SUPERUSER))
    with pytest.raises(ValidationError) as err:
        firms.create_firm(actor=su, form=read_firm_form({**FULL, **change}))
    assert err.value.message == INVALID_FORM == "Please, fill all required fields with valid data"
    assert err.value.fields[field] == text
    assert f.count_firms() == 0

    firm = f.make_firm("Keep Me")
    with pytest.raises(ValidationError) as err:
        firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({**FULL, **change}))
    assert err.value.fields[field] == text
    row = f.get_firm_row(firm.id)
    assert (row.name, row.version) == ("Keep Me", 1)


def test_only_the_name_is_required(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    created = rendered(firms.create_firm(actor=su, form=read_firm_form({"name": "  Minimal  "})))
    assert created["name"] == "Minimal"
    assert created["fee"] is None and created["maxFee"] is None and created["licensee"]["name"] is None


def test_max_fee_is_cleared_when_the_fee_is_empty(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    created = rendered(firms.create_firm(actor=su, form=read_firm_form({"name": "No Fee", "fee": "", "maxFee": "250", "minFee": "10"})))
    assert created["fee"] is None and created["maxFee"] is None and created["minFee"] == "10.00"
    assert f.get_firm_row(created["id"]).max_fee is None
    # an empty fee is null, and a max below the min raises nothing once the max is cleared
    created = rendered(firms.create_firm(actor=su, form=read_firm_form({"name": "No Fee 2", "fee": None, "maxFee": "5", "minFee": "10"})))
    assert created["maxFee"] is None


def test_fee_values_keep_their_precision(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    created = rendered(firms.create_firm(actor=su, form=read_firm_form({"name": "Precise", "fee": "0.095", "maxFee": "300", "minFee": "15.5"})))
    assert (created["fee"], created["maxFee"], created["minFee"]) == ("0.095", "300.00", "15.50")
    assert rendered(firms.get_firm(actor=su, firm_id=created["id"]))["fee"] == "0.095"


def test_version_conflict(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    firm = f.make_firm("Versioned")
    firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "First edit", "version": 1}))
    with pytest.raises(Conflict) as err:
        firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "Stale edit", "version": 1}))
    assert err.value.status == 409
    assert f.get_firm_row(firm.id).name == "First edit"
    # no version sent: last write wins
    assert rendered(firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "Unversioned"})))["version"] == 3


# ---- permissions ----------------------------------------------------------------------------------------
def test_administrator_reads_and_updates_only_the_own_firm(db):
    w = f.make_world()
    admin = f.actor(w.admin_a)
    assert rendered(firms.get_firm(actor=admin, firm_id=w.firm_a.id))["name"] == "Alpha Advisory"
    assert rendered(firms.update_firm(actor=admin, firm_id=w.firm_a.id, form=read_firm_form({**FULL, "name": "Alpha Renamed"})))["name"] == "Alpha Renamed"
    for call in (
        lambda: rendered(firms.get_firm(actor=admin, firm_id=w.firm_b.id)),
        lambda: rendered(firms.update_firm(actor=admin, firm_id=w.firm_b.id, form=read_firm_form({"name": "Hijacked"}))),
        lambda: rendered(firms.upload_logo(actor=admin, firm_id=w.firm_b.id, content_type="image/png", data=f.png_bytes())),
    ):
        with pytest.raises(NotFound):
            call()
    assert f.get_firm_row(w.firm_b.id).name == "Bravo Wealth"
    rows, total = _listed(actor=admin)
    assert total == 1 and [r["id"] for r in rows] == [w.firm_a.id]


def test_administrator_cannot_create_or_delete_firms(db):
    w = f.make_world()
    admin = f.actor(w.admin_a)
    with pytest.raises(PermissionDenied) as err:
        firms.create_firm(actor=admin, form=read_firm_form(FULL))
    assert err.value.status == 403
    with pytest.raises(PermissionDenied):
        firms.delete_firm(actor=admin, firm_id=w.firm_a.id)
    with pytest.raises(PermissionDenied):
        firms.delete_firm(actor=admin, firm_id=w.firm_b.id)
    assert f.count_firms() == 2
    assert f.get_firm_row(w.firm_a.id).deleted_at is None


def test_adviser_reads_but_does_not_edit_the_own_firm(db):
    w = f.make_world()
    adviser = f.actor(w.adviser_a)
    assert rendered(firms.get_firm(actor=adviser, firm_id=w.firm_a.id))["id"] == w.firm_a.id
    with pytest.raises(PermissionDenied):
        firms.update_firm(actor=adviser, firm_id=w.firm_a.id, form=read_firm_form({"name": "Changed"}))
    with pytest.raises(PermissionDenied):
        firms.upload_logo(actor=adviser, firm_id=w.firm_a.id, content_type="image/png", data=f.png_bytes())
    with pytest.raises(NotFound):
        firms.get_firm(actor=adviser, firm_id=w.firm_b.id)


def test_client_cannot_list_firms(db):
    w = f.make_world()
    with pytest.raises(PermissionDenied):
        firms.list_firms(actor=f.actor(w.client_a))
    with pytest.raises(PermissionDenied):
        firms.create_firm(actor=f.actor(w.client_a), form=read_firm_form(FULL))
    with pytest.raises(PermissionDenied):
        firms.update_firm(actor=f.actor(w.client_a), firm_id=w.firm_a.id, form=read_firm_form({"name": "Changed"}))


def test_deleting_a_firm_signs_its_users_out_and_keeps_them_out(db):
    w = f.make_world()
    token_a = f.session_token(w.adviser_a)
    token_b = f.session_token(w.adviser_b)
    firms.delete_firm(actor=f.actor(w.superuser), firm_id=w.firm_a.id)
    with pytest.raises(AuthenticationError):
        auth.authenticate(token_a)
    assert all(r.revoked_at is not None for r in f.session_rows(w.adviser_a.id))
    with pytest.raises(AuthenticationError):
        auth.signin(email=w.admin_a.email, password=f.PASSWORD)
    assert auth.authenticate(token_b).id == w.adviser_b.id  # the other firm goes on
    assert auth.signin(email=w.admin_b.email, password=f.PASSWORD)
    assert [o["id"] for o in rendered(firms.firm_options(actor=f.actor(w.superuser)))] == [w.firm_b.id]


# ---- list ----------------------------------------------------------------------------------------------
def test_list_paging_sorting_search_and_counts(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    names = ["delta", "Alpha", "charlie", "Bravo", "echo"]
    made = {n: f.make_firm(n) for n in names}
    f.make_user(Role.ADVISER, made["echo"])
    f.make_user(Role.ADVISER, made["echo"])
    f.make_user(Role.ADVISER, made["Bravo"])
    f.make_user(Role.CLIENT, made["Bravo"])
    f.make_user(Role.ADVISER, made["Bravo"], status=UserStatus.DELETED)  # deleted users do not count
    f.make_firm("zulu (deleted)", deleted_at=f.at(2024, 1, 1))

    rows, total = _listed(actor=su)
    assert total == 5
    assert [r["name"] for r in rows] == ["Alpha", "Bravo", "charlie", "delta", "echo"]  # name ascending, any case
    bravo = rows[1]
    assert (bravo["advisers"], bravo["clients"]) == (1, 1)

    rows, total = _listed(actor=su, limit=2, offset=2)
    assert total == 5 and [r["name"] for r in rows] == ["charlie", "delta"]
    rows, _ = _listed(actor=su, sort="name", order="desc", limit=2)
    assert [r["name"] for r in rows] == ["echo", "delta"]
    rows, _ = _listed(actor=su, sort="advisers", order="desc", limit=1)
    assert rows[0]["name"] == "echo" and rows[0]["advisers"] == 2
    rows, _ = _listed(actor=su, sort="'; drop table firms; --")  # unknown sorts fall back to name
    assert [r["name"] for r in rows][0] == "Alpha"

    rows, total = _listed(actor=su, search="HAR")
    assert total == 1 and rows[0]["name"] == "charlie"
    rows, total = _listed(actor=su, search="a", limit=1)
    assert total == 4 and len(rows) == 1


def test_search_treats_wildcards_literally(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    f.make_firm("Alpha")
    f.make_firm("100% Advice")
    f.make_firm("Under_score")
    assert [r["name"] for r in _listed(actor=su, search="%")[0]] == ["100% Advice"]
    assert [r["name"] for r in _listed(actor=su, search="_")[0]] == ["Under_score"]


# ---- logos ------------------------------------------------------------------------------------------------
def test_logo_upload_stores_a_real_image(db, data_dir):
    su = f.actor(f.make_user(Role.SUPERUSER))
    firm = f.make_firm()
    png = f.png_bytes()
    result = rendered(firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=png))
    assert result["logo"].startswith("/api/files/") and result["logo"].endswith(".png")
    assert result["licensee_logo"] is None
    key = result["logo"].rsplit("/", 1)[1]
    assert files.path_of(key).read_bytes() == png
    assert f.stored_files(data_dir) == [key]

    # a new logo replaces the file of the old one
    second = rendered(firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=f.png_bytes(color=(1, 2, 3))))
    new_key = second["logo"].rsplit("/", 1)[1]
    assert f.stored_files(data_dir) == [new_key]

    # the licensee logo is separate
    lic = rendered(firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=png, licensee=True))
    assert lic["logo"] == second["logo"]
    assert lic["licensee_logo"] and lic["licensee"]["logo"] == lic["licensee_logo"]
    assert len(f.stored_files(data_dir)) == 2


@pytest.mark.parametrize(
    "data, text",
    [
        (b"just some text, not an image", "Incorrect file format"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'></svg>", "Incorrect file format"),
        (b"", "Incorrect file format"),
        (f.padded_png(2_048_000), "Image size should be less than 2Mb"),
    ],
)
def test_bad_logo_is_refused_and_nothing_stored(db, data_dir, data, text):
    su = f.actor(f.make_user(Role.SUPERUSER))
    firm = f.make_firm()
    with pytest.raises(ValidationError) as err:
        firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=data)
    assert err.value.message == text
    assert f.stored_files(data_dir) == []
    row = f.get_firm_row(firm.id)
    assert row.logo is None and row.version == 1


def test_logo_just_under_the_limit_is_accepted(db):
    su = f.actor(f.make_user(Role.SUPERUSER))
    firm = f.make_firm()
    assert rendered(firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=f.padded_png(2_047_999)))["logo"]


def test_removal_flags_drop_the_logos_and_their_files(db, data_dir):
    su = f.actor(f.make_user(Role.SUPERUSER))
    firm = f.make_firm("With Logos")
    firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=f.png_bytes())
    firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=f.png_bytes(), licensee=True)
    assert len(f.stored_files(data_dir)) == 2

    kept = rendered(firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "With Logos"})))
    assert kept["logo"] and kept["licensee_logo"]

    after = rendered(firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "With Logos", "isLogoRemoved": True})))
    assert after["logo"] is None and after["licensee_logo"]
    assert len(f.stored_files(data_dir)) == 1
    after = rendered(firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "With Logos", "isLicenseeLogoRemoved": True})))
    assert after["licensee_logo"] is None
    assert f.stored_files(data_dir) == []


def test_invalid_update_with_removal_flag_keeps_the_logo(db, data_dir):
    su = f.actor(f.make_user(Role.SUPERUSER))
    firm = f.make_firm("Logo Kept")
    firms.upload_logo(actor=su, firm_id=firm.id, content_type="image/png", data=f.png_bytes())
    with pytest.raises(ValidationError):
        firms.update_firm(actor=su, firm_id=firm.id, form=read_firm_form({"name": "", "isLogoRemoved": True}))
    assert f.get_firm_row(firm.id).logo is not None
    assert len(f.stored_files(data_dir)) == 1


def test_validators_and_service_share_texts():
    assert v.BROKER_CODE == "Broker code must begin with three uppercase letters."
    assert v.MAX_LESS_THAN_MIN == "Max must not be less than Min"
    assert v.IMAGE_FORMAT == "Incorrect file format"
    assert v.IMAGE_SIZE == "Image size should be less than 2Mb"


def test_brand_logo_is_the_firms_own_else_the_default_logo(db):
    from app.db.engine import session_scope
    from app.db.tables import Firm, User

    world = f.make_world()
    admin = f.actor(world.admin_a)
    assert firms.brand_logo(actor=admin) is None
    with session_scope() as s:
        su = s.get(User, world.superuser.id)
        su.default_logo = "a" * 32 + ".png"
        s.add(su)
    assert firms.brand_logo(actor=admin) == "/api/files/" + "a" * 32 + ".png"
    with session_scope() as s:
        firm = s.get(Firm, admin.firm_id)
        firm.logo = "b" * 32 + ".png"
        s.add(firm)
    assert firms.brand_logo(actor=admin) == "/api/files/" + "b" * 32 + ".png"
