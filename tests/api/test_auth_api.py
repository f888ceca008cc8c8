"""/api sign-in, sign-out, activation, recovery, reset, e-mail change and profile password, over HTTP."""
from __future__ import annotations

import pytest

from app.domain import validators as v
from app.domain.roles import Role, UserStatus
from app.settings import settings
from tests import factories as f

SIGNIN_FAILED = "AuthenticationError: Your email or password was incorrect"
SESSION_EXPIRED = "AuthenticationError: Your session has expired. Please sign in again."
NEW_PASSWORD = "Brand9New"


# ---- sign-in ---------------------------------------------------------------------------------------
def test_signin_success_envelope(client):
    user = f.make_user(Role.ADMINISTRATOR, f.make_firm("Signin Firm"), email="admin@signin.example.com")
    result = f.ok_result(client.post("/api/signin", json={"email": "Admin@Signin.example.com", "password": f.PASSWORD}))
    assert set(result) == {"token", "user"}
    assert isinstance(result["token"], str) and len(result["token"]) >= 32
    u = result["user"]
    assert (u["id"], u["email"], u["role"], u["firm_id"]) == (user.id, "admin@signin.example.com", "administrator", user.firm_id)
    assert u["logined_at"] is not None
    assert not any("password" in key for key in u)
    me = f.ok_result(client.get("/api/me", headers={"x-token": result["token"]}))
    assert me["id"] == user.id and me["firm"]["name"] == "Signin Firm"


@pytest.mark.parametrize(
    "body",
    [
        {"email": "known@example.com", "password": "Wrong1234"},
        {"email": "unknown@example.com", "password": f.PASSWORD},
        {"email": "not an email", "password": f.PASSWORD},
        {"email": "known@example.com"},
        {"email": 12345, "password": ["x"]},
        {},
    ],
)
def test_signin_failures(client, body):
    f.make_user(Role.CLIENT, f.make_firm(), email="known@example.com")
    assert f.failure(client.post("/api/signin", json=body), 401) == {"success": False, "message": SIGNIN_FAILED}


def test_signin_throttled_after_five_failures(client):
    f.make_user(Role.CLIENT, f.make_firm(), email="victim@example.com")
    f.add_signin_failures("victim@example.com", 4)
    f.failure(client.post("/api/signin", json={"email": "victim@example.com", "password": "Wrong1234"}), 401)
    body = f.failure(client.post("/api/signin", json={"email": "victim@example.com", "password": f.PASSWORD}), 429)
    assert body["message"] == "TooManyRequestsError: Too many failed sign-in attempts. Please try again in 15 minutes."


def test_disabled_and_deleted_users_are_refused(client):
    firm = f.make_firm()
    f.make_user(Role.ADVISER, firm, email="disabled@example.com", status=UserStatus.DISABLED)
    f.make_user(Role.ADVISER, firm, email="deleted@example.com", status=UserStatus.DELETED)
    body = f.failure(client.post("/api/signin", json={"email": "disabled@example.com", "password": f.PASSWORD}), 401)
    assert body["message"] == "AuthenticationError: Your account is disabled. Please contact your administrator."
    body = f.failure(client.post("/api/signin", json={"email": "deleted@example.com", "password": f.PASSWORD}), 401)
    assert body["message"] == SIGNIN_FAILED


# ---- tokens ----------------------------------------------------------------------------------------
def test_session_token_by_header_and_download_tickets_by_query(client):
    user = f.make_user(Role.ADVISER, f.make_firm())
    token = f.session_token(user)
    assert f.ok_result(client.get("/api/me", headers={"x-token": token}))["id"] == user.id
    # the session token itself is never taken from a URL; a link carries a ticket for its path, once
    assert f.failure(client.get("/api/me", params={"token": token}), 401)["message"] == SESSION_EXPIRED
    ticket = f.ticket(token, "/api/me")
    assert f.failure(client.get("/api/firms", params={"token": ticket}), 401)["message"] == SESSION_EXPIRED
    assert f.ok_result(client.get("/api/me", params={"token": ticket}))["id"] == user.id
    assert f.failure(client.get("/api/me", params={"token": ticket}), 401)["message"] == SESSION_EXPIRED
    assert f.failure(client.get("/api/me"), 401)["message"] == SESSION_EXPIRED
    assert f.failure(client.get("/api/me", headers={"x-token": "forged"}), 401)["message"] == SESSION_EXPIRED


def test_signout_revokes_the_token(client):
    f.make_user(Role.ADVISER, f.make_firm(), email="leaving@example.com")
    token = f.ok_result(client.post("/api/signin", json={"email": "leaving@example.com", "password": f.PASSWORD}))["token"]
    assert f.ok_result(client.post("/api/signout", headers={"x-token": token})) is None
    assert f.failure(client.get("/api/me", headers={"x-token": token}), 401)["message"] == SESSION_EXPIRED
    f.failure(client.post("/api/signout", headers={"x-token": token}), 401)


def test_signout_needs_the_session_token_in_the_header(client):
    user = f.make_user(Role.ADVISER, f.make_firm())
    token = f.session_token(user)
    f.failure(client.post("/api/signout", params={"token": token}), 401)
    assert f.ok_result(client.get("/api/me", headers={"x-token": token}))["id"] == user.id
    f.ok_result(client.post("/api/signout", headers={"x-token": token}))
    f.failure(client.get("/api/me", headers={"x-token": token}), 401)


def test_expired_token_is_refused(client):
    user = f.make_user(Role.SUPERUSER)
    token = f.session_token(user)
    f.expire_session(token)
    assert f.failure(client.get("/api/me", headers={"x-token": token}), 401)["message"] == SESSION_EXPIRED
    assert f.failure(client.get("/api/firms", headers={"x-token": token}), 401)["message"] == SESSION_EXPIRED


# ---- activation ------------------------------------------------------------------------------------
def _invite_through_the_api(client, email="fresh@example.com"):
    w = f.make_world()
    f.ok_result(client.post("/api/users", headers=f.headers(w.admin_a),
                            json={"first_name": "Fresh", "last_name": "User", "email": email, "role": "client"}))
    return w


def test_activation_flow(client):
    _invite_through_the_api(client)
    (mail,) = f.outbox("fresh@example.com")
    token = f.token_from(mail.body, "activation")
    assert f.ok_result(client.get(f"/api/activation/{token}")) == {"email": "fresh@example.com", "first_name": "Fresh"}

    body = f.failure(client.post("/api/activation", json={"token": token, "password": "weak", "rptPassword": "weak"}), 400)
    assert body == {"success": False, "message": "ValidationError: Please, fill all required fields with valid data",
                    "errors": {"password": v.PASSWORD}}
    body = f.failure(client.post("/api/activation", json={"token": token, "password": NEW_PASSWORD, "rptPassword": "Other9New"}), 400)
    assert body["errors"] == {"rptPassword": "Password and password confirmation must match. "}

    assert f.ok_result(client.post("/api/activation", json={"token": token, "password": NEW_PASSWORD, "rptPassword": NEW_PASSWORD})) is None
    f.ok_result(client.post("/api/signin", json={"email": "fresh@example.com", "password": NEW_PASSWORD}))

    used = "ValidationError: This activation link is expired or have already been used"
    assert f.failure(client.get(f"/api/activation/{token}"), 400)["message"] == used
    body = f.failure(client.post("/api/activation", json={"token": token, "password": "Again1234", "rptPassword": "Again1234"}), 400)
    assert body["message"] == used
    f.failure(client.post("/api/signin", json={"email": "fresh@example.com", "password": "Again1234"}), 401)


def test_expired_activation_token(client):
    _invite_through_the_api(client)
    token = f.last_token("fresh@example.com", "activation")
    f.expire_action_token(token)
    assert f.failure(client.get(f"/api/activation/{token}"), 400)["message"] == \
        "ValidationError: This activation link is expired or have already been used"


def test_activation_mail_delivered_by_smtp(client, smtp_sink):
    _invite_through_the_api(client, "smtp.fresh@example.com")
    msg = smtp_sink.wait_for("smtp.fresh@example.com")
    (link,) = smtp_sink.links(msg)
    assert link.startswith(settings.public_url.rstrip("/") + "/activation/")
    token = link.rsplit("/", 1)[1]
    assert f.ok_result(client.get(f"/api/activation/{token}"))["email"] == "smtp.fresh@example.com"


# ---- recovery and reset ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "email, webmail",
    [
        ("someone@gmail.com", "https://mail.google.com/"),
        ("someone@googlemail.com", "https://mail.google.com/"),
        ("someone@hotmail.com", "https://outlook.live.com/mail/"),
        ("someone@live.com", "https://outlook.live.com/mail/"),
        ("someone@outlook.com", "https://outlook.live.com/mail/"),
        ("someone@yahoo.com", "https://mail.yahoo.com/"),
        ("someone@me.com", "https://www.icloud.com/mail/"),
        ("someone@icloud.com", "https://www.icloud.com/mail/"),
        ("someone@bigpond.com", None),
    ],
)
def test_recovery_gives_no_account_discovery(client, email, webmail):
    unknown = client.post("/api/password-recovery", json={"email": email})
    assert f.ok_result(unknown) == {"webmail": webmail}
    assert f.outbox() == []
    f.make_user(Role.CLIENT, f.make_firm(), email=email)
    known = client.post("/api/password-recovery", json={"email": email})
    assert known.json() == unknown.json() and known.status_code == unknown.status_code
    assert len(f.outbox(email)) == 1


@pytest.mark.parametrize("email", ["not-an-email", "a@b", "two@@example.com"])
def test_recovery_needs_a_valid_email(client, email):
    body = f.failure(client.post("/api/password-recovery", json={"email": email}), 400)
    assert body == {"success": False, "message": "ValidationError: Please, enter a valid email. ",
                    "errors": {"email": "Please, enter a valid email. "}}


def test_reset_works_once_and_ends_other_sessions(client):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="forgot@example.com")
    other_session = f.session_token(user)
    f.ok_result(client.post("/api/password-recovery", json={"email": "forgot@example.com"}))
    token = f.last_token("forgot@example.com", "reset-password")
    assert f.ok_result(client.get(f"/api/password-recovery/{token}")) == {"email": "forgot@example.com"}

    body = f.failure(client.post("/api/reset-password", json={"token": token, "password": "short", "rptPassword": "short"}), 400)
    assert body["errors"] == {"password": v.PASSWORD}
    f.ok_result(client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD, "rptPassword": NEW_PASSWORD}))

    f.failure(client.get("/api/me", headers={"x-token": other_session}), 401)
    f.ok_result(client.post("/api/signin", json={"email": "forgot@example.com", "password": NEW_PASSWORD}))
    used = "ValidationError: This recovery password link is expired or have already been used"
    assert f.failure(client.get(f"/api/password-recovery/{token}"), 400)["message"] == used
    body = f.failure(client.post("/api/reset-password", json={"token": token, "password": "Again1234", "rptPassword": "Again1234"}), 400)
    assert body["message"] == used


def test_expired_recovery_token(client):
    f.make_user(Role.ADVISER, f.make_firm(), email="slow@example.com")
    f.ok_result(client.post("/api/password-recovery", json={"email": "slow@example.com"}))
    token = f.last_token("slow@example.com", "reset-password")
    f.expire_action_token(token)
    body = f.failure(client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD, "rptPassword": NEW_PASSWORD}), 400)
    assert body["message"] == "ValidationError: This recovery password link is expired or have already been used"


# ---- e-mail change ---------------------------------------------------------------------------------
def test_email_change_through_profile(client):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="old.address@example.com")
    h = f.headers(user)
    result = f.ok_result(client.put("/api/me", headers=h, json={"email": "new.address@example.com"}))
    assert result["email"] == "old.address@example.com"
    assert result["message"] == "We sent a confirmation link to new.address@example.com. Your e-mail changes when you open it."
    assert f.ok_result(client.get("/api/me", headers=h))["email"] == "old.address@example.com"
    (mail,) = f.outbox("new.address@example.com")
    token = f.token_from(mail.body, "email-change")

    assert f.ok_result(client.get(f"/api/email-change/{token}")) == {"email": "new.address@example.com"}
    assert f.ok_result(client.post("/api/email-change", json={"token": token})) == {"message": "Email changed"}
    assert f.ok_result(client.get("/api/me", headers=h))["email"] == "new.address@example.com"
    body = f.failure(client.post("/api/email-change", json={"token": token}), 400)
    assert body["message"] == "ValidationError: This email change link is expired or have already been used"


def test_email_change_to_a_taken_address(client):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="mine@example.com")
    f.make_user(Role.CLIENT, None, email="theirs@example.com")
    body = f.failure(client.put("/api/me", headers=f.headers(user), json={"email": "theirs@example.com"}), 400)
    assert body["errors"] == {"email": "Email should be unique."}
    assert f.outbox() == []


def test_email_change_mail_goes_to_the_new_address_by_smtp(client, smtp_sink):
    user = f.make_user(Role.ADMINISTRATOR, f.make_firm(), email="admin.old@example.com")
    f.ok_result(client.put("/api/me", headers=f.headers(user), json={"email": "admin.new@example.com"}))
    msg = smtp_sink.wait_for("admin.new@example.com")
    assert msg["Subject"] == "Confirm your new e-mail address"
    assert all("admin.old@example.com" not in r for r in smtp_sink.recipients)


# ---- profile password ------------------------------------------------------------------------------
def test_profile_password_change(client):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="pw@example.com")
    h = f.headers(user)
    body = f.failure(client.put("/api/me", headers=h, json={"oldPassword": "Wrong1234", "password": NEW_PASSWORD, "rptPassword": NEW_PASSWORD}), 400)
    assert body["errors"] == {"oldPassword": "Old password is incorrect"}
    body = f.failure(client.put("/api/me", headers=h, json={"oldPassword": f.PASSWORD, "password": "nouppercase1", "rptPassword": "nouppercase1"}), 400)
    assert body["errors"] == {"password": v.PASSWORD}
    body = f.failure(client.put("/api/me", headers=h, json={"oldPassword": f.PASSWORD, "password": NEW_PASSWORD, "rptPassword": "x"}), 400)
    assert body["errors"] == {"rptPassword": "Password and password confirmation must match. "}
    result = f.ok_result(client.put("/api/me", headers=h, json={"oldPassword": f.PASSWORD, "password": NEW_PASSWORD, "rptPassword": NEW_PASSWORD}))
    assert result["message"] == "Profile is updated"
    f.ok_result(client.post("/api/signin", json={"email": "pw@example.com", "password": NEW_PASSWORD}))


def test_client_profile_names_are_ignored_and_users_api_is_closed(client):
    user = f.make_user(Role.CLIENT, f.make_firm(), first_name="Carla", last_name="Client")
    h = f.headers(user)
    result = f.ok_result(client.put("/api/me", headers=h, json={"first_name": "Hacker", "last_name": "Man"}))
    assert (result["first_name"], result["last_name"]) == ("Carla", "Client")
    body = f.failure(client.put(f"/api/users/{user.id}", headers=h, json={"first_name": "Hacker"}), 403)
    assert body["message"] == "PermissionError: You are not allowed to perform this action"
    assert f.get_user_row(user.id).first_name == "Carla"


# ---- security headers -------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/me", "/api/openapi.json", "/api/no-such-route"])
def test_every_response_carries_the_security_headers(client, path):
    response = client.get(path)
    csp = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp and "object-src 'none'" in csp
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"
