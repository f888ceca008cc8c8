"""Users and the own profile (app.services.users) on a real database."""
from __future__ import annotations

import dataclasses

import pytest

from app.domain import auth_rules
from app.domain import validators as v
from app.domain.errors import INVALID_FORM, AuthenticationError, Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.roles import Role, UserStatus
from app.domain.users import read_profile_form, read_user_form
from app.services import auth, files, users
from tests import factories as f

NEW = {"first_name": "Nora", "last_name": "Newman", "email": "nora@example.com"}


def _page(page):
    return list(page.rows), page.total


def _names(rows):
    return [r.name for r in rows]


# ---- list -----------------------------------------------------------------------------------------
def test_default_list_is_name_ascending_with_totals(db):
    firm = f.make_firm()
    admin = f.make_user(Role.ADMINISTRATOR, firm, first_name="Mia", last_name="Admin")
    for first, last in [("zoe", "Zed"), ("Adam", "Young"), ("adam", "Abbot"), ("Bella", "Xu")]:
        f.make_user(Role.CLIENT, firm, first_name=first, last_name=last)
    rows, total = _page(users.list_users(actor=f.actor(admin)))
    assert total == 5
    assert _names(rows) == ["adam Abbot", "Adam Young", "Bella Xu", "Mia Admin", "zoe Zed"]
    assert {"id", "email", "role", "role_title", "status", "status_title", "firm", "created_at", "logined_at", "version"} <= {x.name for x in dataclasses.fields(rows[0])}
    assert rows[0].firm == users.NamedRef(firm.id, firm.name)

    rows, total = _page(users.list_users(actor=f.actor(admin), limit=2, offset=1))
    assert total == 5 and _names(rows) == ["Adam Young", "Bella Xu"]
    rows, _ = _page(users.list_users(actor=f.actor(admin), sort="name", order="desc", limit=1))
    assert _names(rows) == ["zoe Zed"]
    rows, _ = _page(users.list_users(actor=f.actor(admin), sort="__class__", limit=1))  # unknown sort: name
    assert _names(rows) == ["adam Abbot"]
    rows, _ = _page(users.list_users(actor=f.actor(admin), include_current_user=False))
    assert "Mia Admin" not in _names(rows)


def test_list_filters_by_role_status_and_search(db):
    w = f.make_world()
    extra = f.make_user(Role.CLIENT, w.firm_a, first_name="Disabled", last_name="Person", status=UserStatus.DISABLED,
                        email="dis.abled@example.com")
    gone = f.make_user(Role.CLIENT, w.firm_a, first_name="Deleted", last_name="Person", status=UserStatus.DELETED)
    admin = f.actor(w.admin_a)

    rows, total = _page(users.list_users(actor=admin))
    assert total == 4 and gone.id not in [r.id for r in rows]  # active and disabled by default
    rows, total = _page(users.list_users(actor=admin, roles=["client"]))
    assert {r.id for r in rows} == {w.client_a.id, extra.id}
    rows, _ = _page(users.list_users(actor=admin, roles=["adviser", "administrator"]))
    assert {r.id for r in rows} == {w.adviser_a.id, w.admin_a.id}
    rows, _ = _page(users.list_users(actor=admin, roles=["superuser"]))  # not visible to an administrator
    assert rows == []
    rows, _ = _page(users.list_users(actor=admin, roles=["nonsense"]))  # an unknown role is no filter
    assert len(rows) == 4
    rows, _ = _page(users.list_users(actor=admin, statuses=["deleted"]))
    assert [r.id for r in rows] == [gone.id] and rows[0].status_title == "Deleted"
    rows, _ = _page(users.list_users(actor=admin, statuses=["disabled", "deleted"]))
    assert {r.id for r in rows} == {gone.id, extra.id}

    for term in ("disabled person", "DIS.ABLED@", "  abled  "):
        rows, total = _page(users.list_users(actor=admin, search=term))
        assert [r.id for r in rows] == [extra.id] and total == 1
    rows, _ = _page(users.list_users(actor=admin, search="%"))  # a literal percent sign, not a wildcard
    assert rows == []


def test_search_matches_the_preferred_name(db):
    firm = f.make_firm()
    admin = f.make_user(Role.ADMINISTRATOR, firm)
    target = f.make_user(Role.CLIENT, firm, preferred_name="Bazza")
    rows, _ = _page(users.list_users(actor=f.actor(admin), search="bazz"))
    assert [r.id for r in rows] == [target.id]


def test_list_created_at_range(db):
    firm = f.make_firm()
    admin = f.make_user(Role.ADMINISTRATOR, firm, created_at=f.at(2023, 1, 1))
    jan = f.make_user(Role.CLIENT, firm, created_at=f.at(2024, 1, 10, 0))
    feb = f.make_user(Role.CLIENT, firm, created_at=f.at(2024, 2, 10, 23))
    rows, total = _page(users.list_users(actor=f.actor(admin), created_from=f.at(2024, 1, 1, 0), created_to=f.at(2024, 1, 31, 23)))
    assert [r.id for r in rows] == [jan.id] and total == 1
    rows, _ = _page(users.list_users(actor=f.actor(admin), created_from=f.at(2024, 1, 11, 0)))
    assert [r.id for r in rows] == [feb.id]
    rows, _ = _page(users.list_users(actor=f.actor(admin), created_to=f.at(2023, 12, 31, 23)))
    assert [r.id for r in rows] == [admin.id]


def test_firm_filter_is_for_the_superuser_only(db):
    w = f.make_world()
    rows, total = _page(users.list_users(actor=f.actor(w.admin_a), firm_id=w.firm_b.id))
    assert total == 3 and {r.firm_id for r in rows} == {w.firm_a.id}
    rows, total = _page(users.list_users(actor=f.actor(w.superuser), firm_id=w.firm_b.id))
    assert total == 3 and {r.firm_id for r in rows} == {w.firm_b.id}
    rows, total = _page(users.list_users(actor=f.actor(w.superuser)))
    assert total == 7


def test_clients_cannot_list_users(db):
    w = f.make_world()
    with pytest.raises(PermissionDenied):
        users.list_users(actor=f.actor(w.client_a))


def test_adviser_filter_and_short_rows(db):
    w = f.make_world()
    other = f.make_user(Role.ADVISER, w.firm_a)
    theirs = f.make_user(Role.CLIENT, w.firm_a, adviser_id=other.id)
    rows, _ = _page(users.list_users(actor=f.actor(w.admin_a), adviser_id=other.id))
    assert [r.id for r in rows] == [theirs.id]
    assert rows[0].adviser == users.NamedRef(other.id, f"{other.first_name} {other.last_name}")
    short, _ = _page(users.list_user_summaries(actor=f.actor(w.admin_a), adviser_id=other.id))
    assert short == [users.UserSummary(theirs.id, f"{theirs.first_name} {theirs.last_name}", "client", w.firm_a.id)]


# ---- create ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, field, text",
    [
        ({"first_name": ""}, "first_name", "Please, enter first name. "),
        ({"first_name": "   "}, "first_name", "Please, enter first name. "),
        ({"last_name": None}, "last_name", "Please, enter last name. "),
        ({"email": ""}, "email", "Please, enter email. "),
        ({"email": "nora@"}, "email", "Please, enter a valid email. "),
        ({"email": "no ra@example.com"}, "email", "Please, enter a valid email. "),
        ({"phone": "02-1234"}, "phone", "Please, enter a valid value. "),
        ({"first_name": "x" * 101}, "first_name", "Max length should be 100 characters. "),
        ({"role": None}, "role", "Please, select user type. "),
        ({"role": "wizard"}, "role", "Please, select user type. "),
    ],
)
def test_create_validation_texts(db, change, field, text):
    w = f.make_world()
    with pytest.raises(ValidationError) as err:
        users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "role": "client", **change}))
    assert err.value.message == INVALID_FORM
    assert err.value.fields[field] == text
    assert users.list_users(actor=f.actor(w.superuser), search="nora").total == 0
    assert f.outbox() == []


def test_email_must_be_unique(db):
    w = f.make_world()
    f.make_user(Role.CLIENT, w.firm_b, email="taken@example.com")
    for email in ("taken@example.com", "  TAKEN@Example.com "):
        with pytest.raises(ValidationError) as err:
            users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "email": email, "role": "client"}))
        assert err.value.fields == {"email": "Email should be unique."}
    # a deleted user's address stays taken
    f.make_user(Role.CLIENT, w.firm_a, email="ghost@example.com", status=UserStatus.DELETED)
    with pytest.raises(ValidationError):
        users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "email": "ghost@example.com", "role": "client"}))


def test_superuser_must_pick_a_firm_for_firm_users(db):
    w = f.make_world()
    su = f.actor(w.superuser)
    for role in ("administrator", "adviser"):
        with pytest.raises(ValidationError) as err:
            users.create_user(actor=su, form=read_user_form({**NEW, "role": role}))
        assert err.value.fields == {"firm_id": "Please, select firm. "}
    with pytest.raises(ValidationError) as err:  # a deleted firm cannot be picked
        deleted = f.make_firm(deleted_at=f.at(2024, 1, 1))
        users.create_user(actor=su, form=read_user_form({**NEW, "role": "adviser", "firm_id": deleted.id}))
    assert err.value.fields == {"firm_id": "Please, select firm. "}
    created = users.create_user(actor=su, form=read_user_form({**NEW, "role": "adviser", "firm_id": w.firm_b.id}))
    assert created.firm_id == w.firm_b.id and created.role == "adviser" and created.status == "active"
    other = users.create_user(actor=su, form=read_user_form({**NEW, "email": "root2@example.com", "role": "superuser", "firm_id": w.firm_b.id}))
    assert other.firm_id is None  # a superuser belongs to no firm


def test_administrator_creates_users_in_the_own_firm_only(db):
    w = f.make_world()
    created = users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "role": "adviser", "firm_id": w.firm_b.id}))
    assert created.firm_id == w.firm_a.id
    assert created.activated is False and f.outbox(NEW["email"])
    with pytest.raises(PermissionDenied):
        users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "email": "su@example.com", "role": "superuser"}))
    admin2 = users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "email": "admin2@example.com", "role": "administrator"}))
    assert admin2.firm_id == w.firm_a.id


def test_adviser_creates_clients_only_and_owns_them(db):
    w = f.make_world()
    adviser = f.actor(w.adviser_a)
    client = users.create_user(actor=adviser, form=read_user_form({**NEW, "role": "client", "firm_id": w.firm_b.id}))
    assert client.firm_id == w.firm_a.id and client.adviser_id == w.adviser_a.id
    for role in ("adviser", "administrator", "superuser"):
        with pytest.raises(PermissionDenied) as err:
            users.create_user(actor=adviser, form=read_user_form({**NEW, "email": f"{role}@example.com", "role": role}))
        assert err.value.status == 403
    assert users.list_users(actor=f.actor(w.superuser), search="@example.com").total == 1


def test_client_cannot_create_users(db):
    w = f.make_world()
    with pytest.raises(PermissionDenied):
        users.create_user(actor=f.actor(w.client_a), form=read_user_form({**NEW, "role": "client"}))


def test_client_adviser_must_be_an_adviser_of_the_same_firm(db):
    w = f.make_world()
    for bad in (w.adviser_b.id, w.admin_a.id, 999999):
        with pytest.raises(ValidationError) as err:
            users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "role": "client", "adviser_id": bad}))
        assert err.value.fields == {"adviser_id": "Please, select adviser. "}
    ok = users.create_user(actor=f.actor(w.admin_a), form=read_user_form({**NEW, "role": "client", "adviser_id": w.adviser_a.id}))
    assert ok.adviser.id == w.adviser_a.id


# ---- read / update across firms ---------------------------------------------------------------------
def test_other_firm_users_are_not_found(db):
    w = f.make_world()
    admin = f.actor(w.admin_a)
    for target in (w.admin_b, w.adviser_b, w.client_b, w.superuser):
        for call in (
            lambda: users.get_user(actor=admin, user_id=target.id),
            lambda: users.update_user(actor=admin, user_id=target.id, form=read_user_form({"first_name": "Hacked"})),
            lambda: users.delete_user(actor=admin, user_id=target.id),
            lambda: users.set_user_image(actor=admin, user_id=target.id, kind="photo", content_type="image/png", data=f.png_bytes()),
        ):
            with pytest.raises(NotFound) as err:
                call()
            assert err.value.message == "User not found"
        assert f.get_user_row(target.id).first_name != "Hacked"
    for bad in ("abc", None, 0, 999999):
        with pytest.raises(NotFound):
            users.get_user(actor=admin, user_id=bad)


def test_clients_see_only_themselves(db):
    w = f.make_world()
    other = f.make_user(Role.CLIENT, w.firm_a)
    client = f.actor(w.client_a)
    assert users.get_user(actor=client, user_id=w.client_a.id).id == w.client_a.id
    for target in (other, w.adviser_a, w.admin_a):
        with pytest.raises(NotFound):
            users.get_user(actor=client, user_id=target.id)
    with pytest.raises(PermissionDenied):  # not even their own record through the users API
        users.update_user(actor=client, user_id=w.client_a.id, form=read_user_form({"first_name": "Self"}))
    assert f.get_user_row(w.client_a.id).first_name == w.client_a.first_name


def test_update_user(db):
    w = f.make_world()
    admin = f.actor(w.admin_a)
    result = users.update_user(actor=admin, user_id=w.adviser_a.id,
                               form=read_user_form({"first_name": "Renamed", "email": "RENAMED@example.com",
                                                    "firm_id": w.firm_b.id, "version": 1}))
    assert (result.first_name, result.email, result.firm_id, result.version) == ("Renamed", "renamed@example.com", w.firm_a.id, 2)
    with pytest.raises(Conflict) as err:
        users.update_user(actor=admin, user_id=w.adviser_a.id, form=read_user_form({"first_name": "Stale", "version": 1}))
    assert err.value.message == "This user was changed by someone else. Reload and apply your changes again."
    with pytest.raises(ValidationError) as err:
        users.update_user(actor=admin, user_id=w.adviser_a.id, form=read_user_form({"email": w.client_b.email}))
    assert err.value.fields == {"email": "Email should be unique."}
    with pytest.raises(ValidationError) as err:
        users.update_user(actor=admin, user_id=w.adviser_a.id, form=read_user_form({"first_name": ""}))
    assert err.value.fields == {"first_name": "Please, enter first name. "}
    assert f.get_user_row(w.adviser_a.id).first_name == "Renamed"


def test_an_advisers_authorised_representative_number(db):
    """Advisers carry their own AR number (digits); other roles never keep one; an edit that leaves it
    out keeps it."""
    w = f.make_world()
    admin = f.actor(w.admin_a)
    made = users.create_user(actor=admin, form=read_user_form({**NEW, "role": "adviser", "ar_number": " 1001234 "}))
    assert made.ar_number == "1001234"
    with pytest.raises(ValidationError) as err:
        users.update_user(actor=admin, user_id=made.id, form=read_user_form({"ar_number": "10-01234"}))
    assert err.value.fields == {"ar_number": v.only_number("10-01234")}
    assert users.update_user(actor=admin, user_id=made.id,
                             form=read_user_form({"first_name": "Nora"})).ar_number == "1001234"
    client = users.create_user(actor=admin, form=read_user_form({**NEW, "email": "c@example.com", "role": "client",
                                                                 "ar_number": "555"}))
    assert client.ar_number is None and f.get_user_row(client.id).ar_number is None


def test_adviser_cannot_edit_administrators_or_advisers(db):
    w = f.make_world()
    peer = f.make_user(Role.ADVISER, w.firm_a)
    for target in (w.admin_a, peer):
        with pytest.raises(PermissionDenied):
            users.update_user(actor=f.actor(w.adviser_a), user_id=target.id, form=read_user_form({"first_name": "X"}))
    assert users.update_user(actor=f.actor(w.adviser_a), user_id=w.client_a.id, form=read_user_form({"phone": "0400 000 000"})).phone == "0400 000 000"


def test_role_changes_are_limited_to_what_the_actor_may_create(db):
    w = f.make_world()
    with pytest.raises(PermissionDenied):
        users.update_user(actor=f.actor(w.admin_a), user_id=w.admin_a.id, form=read_user_form({"role": "superuser"}))
    with pytest.raises(PermissionDenied):
        users.update_user(actor=f.actor(w.adviser_a), user_id=w.client_a.id, form=read_user_form({"role": "adviser"}))
    assert f.get_user_row(w.client_a.id).role == "client"
    # an adviser may still save their own record with their own role
    assert users.update_user(actor=f.actor(w.adviser_a), user_id=w.adviser_a.id, form=read_user_form({"first_name": "Me"})).first_name == "Me"


def test_disabling_a_user_ends_their_sessions(db):
    w = f.make_world()
    token = f.session_token(w.client_a)
    users.update_user(actor=f.actor(w.admin_a), user_id=w.client_a.id, form=read_user_form({"status": "disabled"}))
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)
    with pytest.raises(ValidationError) as err:
        users.update_user(actor=f.actor(w.admin_a), user_id=w.admin_a.id, form=read_user_form({"status": "disabled"}))
    assert err.value.fields == {"status": "You cannot disable your own account"}
    with pytest.raises(ValidationError) as err:  # deleting goes through delete, not update
        users.update_user(actor=f.actor(w.admin_a), user_id=w.client_a.id, form=read_user_form({"status": "deleted"}))
    assert err.value.fields == {"status": "Please, select status. "}


# ---- delete ---------------------------------------------------------------------------------------
def test_delete_is_soft_and_ends_sessions(db):
    w = f.make_world()
    token = f.session_token(w.client_a)
    users.delete_user(actor=f.actor(w.admin_a), user_id=w.client_a.id)
    row = f.get_user_row(w.client_a.id)
    assert row is not None and row.status == "deleted"
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)
    rows, _ = _page(users.list_users(actor=f.actor(w.admin_a)))
    assert w.client_a.id not in [r.id for r in rows]
    rows, _ = _page(users.list_users(actor=f.actor(w.admin_a), statuses=["deleted"]))
    assert [r.id for r in rows] == [w.client_a.id]
    # a deleted user is read-only and cannot be deleted twice
    assert users.get_user(actor=f.actor(w.admin_a), user_id=w.client_a.id).status == "deleted"
    with pytest.raises(PermissionDenied):
        users.update_user(actor=f.actor(w.admin_a), user_id=w.client_a.id, form=read_user_form({"status": "active"}))
    with pytest.raises(NotFound):
        users.delete_user(actor=f.actor(w.admin_a), user_id=w.client_a.id)


def test_who_may_delete_whom(db):
    w = f.make_world()
    admin2 = f.make_user(Role.ADMINISTRATOR, w.firm_a)
    with pytest.raises(PermissionDenied):  # administrators cannot delete advisers
        users.delete_user(actor=f.actor(w.admin_a), user_id=w.adviser_a.id)
    with pytest.raises(PermissionDenied):  # advisers delete clients only
        users.delete_user(actor=f.actor(w.adviser_a), user_id=admin2.id)
    with pytest.raises(PermissionDenied):
        users.delete_user(actor=f.actor(w.client_a), user_id=w.client_a.id)
    for person in (w.superuser, w.admin_a, w.adviser_a):  # nobody deletes themselves
        with pytest.raises(PermissionDenied):
            users.delete_user(actor=f.actor(person), user_id=person.id)
    users.delete_user(actor=f.actor(w.admin_a), user_id=admin2.id)
    users.delete_user(actor=f.actor(w.adviser_a), user_id=w.client_a.id)
    users.delete_user(actor=f.actor(w.superuser), user_id=w.adviser_b.id)
    assert f.get_user_row(w.adviser_a.id).status == "active"


# ---- images ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, column", [("photo", "photo"), ("signature", "signature")])
def test_photo_and_signature_uploads(db, data_dir, kind, column):
    w = f.make_world()
    png = f.png_bytes()
    result = users.set_user_image(actor=f.actor(w.admin_a), user_id=w.client_a.id, kind=kind, content_type="image/png", data=png)
    url = getattr(result, f"{kind}_url")
    key = url.rsplit("/", 1)[1]
    assert files.path_of(key).read_bytes() == png
    assert getattr(f.get_user_row(w.client_a.id), column) == key

    field = "signature" if kind == "signature" else "file"
    for data, text in ((b"plain text", "Incorrect file format"), (f.padded_png(2_048_000), "Image size should be less than 2Mb")):
        with pytest.raises(ValidationError) as err:
            users.set_user_image(actor=f.actor(w.admin_a), user_id=w.client_a.id, kind=kind, content_type="image/png", data=data)
        assert err.value.message == text and err.value.fields == {field: text}
    assert f.stored_files(data_dir) == [key]

    flag = "isPhotoRemoved" if kind == "photo" else "isSignatureRemoved"
    after = users.update_user(actor=f.actor(w.admin_a), user_id=w.client_a.id, form=read_user_form({flag: True}))
    assert getattr(after, f"{kind}_url") is None
    assert f.stored_files(data_dir) == []


def test_own_photo_and_default_logo(db):
    w = f.make_world()
    me = users.set_user_image(actor=f.actor(w.client_a), user_id=w.client_a.id, kind="photo", content_type="image/png", data=f.png_bytes())
    assert me.photo_url
    with pytest.raises(PermissionDenied):  # the default logo is for a superuser only
        users.set_user_image(actor=f.actor(w.admin_a), user_id=w.admin_a.id, kind="logo", content_type="image/png", data=f.png_bytes())
    su = users.set_user_image(actor=f.actor(w.superuser), user_id=w.superuser.id, kind="logo", content_type="image/png", data=f.png_bytes())
    assert su.default_logo_url
    assert users.remove_default_logo(actor=f.actor(w.superuser)).default_logo_url is None
    with pytest.raises(PermissionDenied):
        users.remove_default_logo(actor=f.actor(w.admin_a))


# ---- own profile ------------------------------------------------------------------------------------
def test_profile_update_and_password_change(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), first_name="Old", email="prof@example.com")
    me = f.actor(user)
    result = users.update_me(actor=me, form=read_profile_form({"first_name": "New", "phone": "(02) 1234 5678", "version": 1}))
    assert (result.user.first_name, result.user.phone, result.message) == ("New", "(02) 1234 5678", "Profile is updated")

    with pytest.raises(ValidationError) as err:
        users.update_me(actor=me, form=read_profile_form({"oldPassword": "Wrong1234", "password": "Fresh1234", "rptPassword": "Fresh1234"}))
    assert err.value.fields == {"oldPassword": auth_rules.WRONG_OLD_PASSWORD}
    with pytest.raises(ValidationError) as err:
        users.update_me(actor=me, form=read_profile_form({"password": "Fresh1234", "rptPassword": "Fresh1234"}))
    assert err.value.fields == {"oldPassword": "Please, enter old password. "}
    with pytest.raises(ValidationError) as err:
        users.update_me(actor=me, form=read_profile_form({"oldPassword": f.PASSWORD, "password": "weak", "rptPassword": "weak"}))
    assert err.value.fields == {"password": v.PASSWORD}
    with pytest.raises(ValidationError) as err:
        users.update_me(actor=me, form=read_profile_form({"oldPassword": f.PASSWORD, "password": "Fresh1234", "rptPassword": "Fresh12345"}))
    assert err.value.fields == {"rptPassword": "Password and password confirmation must match. "}
    with pytest.raises(ValidationError) as err:
        users.update_me(actor=me, form=read_profile_form({"oldPassword": f.PASSWORD, "password": "Fresh1234"}))
    assert err.value.fields == {"rptPassword": "Please, repeat password. "}
    with pytest.raises(AuthenticationError):
        auth.signin(email="prof@example.com", password="Fresh1234")

    users.update_me(actor=me, form=read_profile_form({"oldPassword": f.PASSWORD, "password": "Fresh1234", "rptPassword": "Fresh1234"}))
    assert auth.signin(email="prof@example.com", password="Fresh1234")
    with pytest.raises(Conflict):
        users.update_me(actor=me, form=read_profile_form({"first_name": "Stale", "version": 1}))


def test_client_profile_ignores_names_and_email(db):
    user = f.make_user(Role.CLIENT, f.make_firm(), first_name="Fixed", last_name="Name", email="fixed@example.com")
    result = users.update_me(actor=f.actor(user), form=read_profile_form({"first_name": "Changed", "last_name": "Other", "email": "new@example.com"}))
    assert (result.user.first_name, result.user.last_name, result.user.email) == ("Fixed", "Name", "fixed@example.com")
    assert result.message == "Profile is updated"
    assert f.outbox() == []
    # but the password can be changed
    users.update_me(actor=f.actor(user), form=read_profile_form({"oldPassword": f.PASSWORD, "password": "Client123", "rptPassword": "Client123"}))
    assert auth.signin(email="fixed@example.com", password="Client123")


def test_profile_email_change_checks_uniqueness(db):
    user = f.make_user(Role.ADMINISTRATOR, f.make_firm(), email="me@example.com")
    f.make_user(Role.CLIENT, None, email="you@example.com")
    with pytest.raises(ValidationError) as err:
        users.update_me(actor=f.actor(user), form=read_profile_form({"email": "You@Example.com"}))
    assert err.value.fields == {"email": "Email should be unique."}
    with pytest.raises(ValidationError) as err:
        users.update_me(actor=f.actor(user), form=read_profile_form({"email": "bad@"}))
    assert err.value.fields == {"email": "Please, enter a valid email. "}
    assert f.outbox() == []
    same = users.update_me(actor=f.actor(user), form=read_profile_form({"email": "ME@example.com"}))  # same address: nothing to confirm
    assert same.message == "Profile is updated" and f.outbox() == []


def test_get_me(db):
    w = f.make_world()
    me = users.get_me(actor=f.actor(w.adviser_a))
    assert me.id == w.adviser_a.id and me.firm == users.NamedRef(w.firm_a.id, "Alpha Advisory")
    assert me.activated is True and not hasattr(me, "password_hash")


def test_adviser_options(db):
    w = f.make_world()
    f.make_user(Role.ADVISER, w.firm_a, status=UserStatus.DISABLED)
    rows = users.adviser_options(actor=f.actor(w.admin_a), firm_id=w.firm_b.id)  # firm ignored for non-superusers
    assert [r.id for r in rows] == [w.adviser_a.id]
    rows = users.adviser_options(actor=f.actor(w.superuser), firm_id=w.firm_b.id)
    assert [r.id for r in rows] == [w.adviser_b.id]
    assert users.adviser_options(actor=f.actor(w.superuser)) == []
