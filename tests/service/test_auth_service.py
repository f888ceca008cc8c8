"""Sign-in, sessions, activation, recovery, reset and e-mail change (app.services.auth) on a real database."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import ActionToken, DownloadTicket, SessionToken, SigninFailure, User
from app.db.types import utcnow
from app.domain import auth_rules as rules
from app.domain import validators as v
from app.domain.errors import AuthenticationError, TooManyRequests, ValidationError
from app.domain.roles import Role, TokenPurpose, UserStatus
from app.domain.users import read_profile_form, read_user_form
from app.domain.wire import rendered
from app.services import auth, mail, users
from app.services.security import token_digest
from app.settings import settings
from tests import factories as f

WRONG = "Wrong1234"
NEW_PASSWORD = "Brand9New"


# ---- sign-in ------------------------------------------------------------------------------------
def test_signin_returns_a_working_session_token(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="Jane@Example.com")
    token, signed_in = auth.signin(email="  JANE@example.com ", password=f.PASSWORD)
    assert signed_in.id == user.id
    assert signed_in.logined_at is not None
    who = auth.authenticate(token)
    assert (who.id, who.role, who.firm_id, who.email) == (user.id, Role.ADVISER, user.firm_id, "jane@example.com")
    # only the digest of the token is stored
    rows = f.session_rows(user.id)
    assert [r.token_hash for r in rows] == [token_digest(token)]
    assert rows[0].expires_at > utcnow() + timedelta(hours=settings.session_token_hours) - timedelta(minutes=1)


@pytest.mark.parametrize(
    "email, password",
    [
        ("known@example.com", WRONG),  # wrong password
        ("nobody@example.com", f.PASSWORD),  # unknown e-mail
        ("not-an-email", f.PASSWORD),  # malformed
        ("", f.PASSWORD),
        ("known@example.com", ""),
        (None, None),
    ],
)
def test_signin_failures_all_say_the_same(db, email, password):
    f.make_user(Role.CLIENT, f.make_firm(), email="known@example.com")
    with pytest.raises(AuthenticationError) as err:
        auth.signin(email=email, password=password)
    assert err.value.message == "Your email or password was incorrect"


def test_unactivated_user_cannot_sign_in(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="new@example.com", password=None)
    with pytest.raises(AuthenticationError) as err:
        auth.signin(email="new@example.com", password="")
    assert err.value.message == rules.SIGNIN_FAILED
    with pytest.raises(AuthenticationError):
        auth.signin(email="new@example.com", password=f.PASSWORD)


def test_signin_is_throttled_after_five_failures(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="target@example.com")
    for _ in range(settings.signin_max_failures):
        with pytest.raises(AuthenticationError):
            auth.signin(email="target@example.com", password=WRONG)
    # even the right password is refused while the lock lasts
    with pytest.raises(TooManyRequests) as err:
        auth.signin(email="target@example.com", password=f.PASSWORD)
    assert err.value.status == 429
    assert err.value.message == f"Too many failed sign-in attempts. Please try again in {settings.signin_lockout_minutes} minutes."
    # another account is not affected
    f.make_user(Role.CLIENT, None, email="other@example.com")
    assert auth.signin(email="other@example.com", password=f.PASSWORD)
    # failures older than the window no longer count
    with session_scope() as s:
        for row in s.exec(select(SigninFailure)):
            row.created_at = utcnow() - timedelta(minutes=settings.signin_lockout_minutes + 1)
            s.add(row)
    token, _ = auth.signin(email="target@example.com", password=f.PASSWORD)
    assert auth.authenticate(token)


def test_unknown_emails_are_throttled_too(db):
    with pytest.raises(AuthenticationError):
        auth.signin(email="Ghost@example.com", password=WRONG)
    assert f.signin_failures("ghost@example.com") == 1  # counted like any other address
    f.add_signin_failures("ghost@example.com", settings.signin_max_failures - 1)
    with pytest.raises(TooManyRequests):
        auth.signin(email="ghost@example.com", password=WRONG)


def test_successful_signin_clears_the_failure_count(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="forgetful@example.com")
    f.add_signin_failures("forgetful@example.com", settings.signin_max_failures - 1)
    auth.signin(email="forgetful@example.com", password=f.PASSWORD)
    assert f.signin_failures("forgetful@example.com") == 0
    f.add_signin_failures("forgetful@example.com", settings.signin_max_failures - 1)
    auth.signin(email="forgetful@example.com", password=f.PASSWORD)  # not locked


def test_disabled_user_is_refused(db):
    f.make_user(Role.ADVISER, f.make_firm(), email="off@example.com", status=UserStatus.DISABLED)
    with pytest.raises(AuthenticationError) as err:
        auth.signin(email="off@example.com", password=f.PASSWORD)
    assert err.value.message == rules.ACCOUNT_DISABLED
    # without the right password nothing about the account is disclosed
    with pytest.raises(AuthenticationError) as err:
        auth.signin(email="off@example.com", password=WRONG)
    assert err.value.message == rules.SIGNIN_FAILED


def test_deleted_user_is_refused_like_an_unknown_one(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="gone@example.com", status=UserStatus.DELETED)
    with pytest.raises(AuthenticationError) as err:
        auth.signin(email="gone@example.com", password=f.PASSWORD)
    assert err.value.message == rules.SIGNIN_FAILED


def test_user_of_a_deleted_firm_is_refused(db):
    firm = f.make_firm(deleted_at=utcnow())
    f.make_user(Role.ADMINISTRATOR, firm, email="closed@example.com")
    with pytest.raises(AuthenticationError):
        auth.signin(email="closed@example.com", password=f.PASSWORD)


# ---- sessions -------------------------------------------------------------------------------------
def test_signout_revokes_the_token(db):
    user = f.make_user(Role.SUPERUSER)
    token = f.session_token(user)
    other = f.session_token(user)
    assert auth.authenticate(token).id == user.id
    auth.signout(token=token)
    with pytest.raises(AuthenticationError) as err:
        auth.authenticate(token)
    assert err.value.message == rules.SESSION_EXPIRED
    assert auth.authenticate(other).id == user.id  # only that session ends
    auth.signout(token=token)  # twice is harmless
    auth.signout(token="no-such-token")


@pytest.mark.parametrize("token", [None, "", "garbage"])
def test_missing_or_unknown_token_is_refused(db, token):
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)


def test_expired_session_is_refused(db):
    user = f.make_user(Role.ADVISER, f.make_firm())
    token = f.session_token(user)
    f.expire_session(token)
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)


def test_sessions_end_when_the_user_is_disabled_or_the_firm_deleted(db):
    firm = f.make_firm()
    user = f.make_user(Role.ADVISER, firm)
    token = f.session_token(user)
    f.update_user_row(user.id, status=UserStatus.DISABLED.value)
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)
    f.update_user_row(user.id, status=UserStatus.ACTIVE.value)
    assert auth.authenticate(token).id == user.id
    with session_scope() as s:
        row = s.get(type(firm), firm.id)
        row.deleted_at = utcnow()
        s.add(row)
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)


# ---- activation -----------------------------------------------------------------------------------
def _new_user(email: str = "newbie@example.com") -> users.UserView:
    w = f.make_world()
    created = users.create_user(actor=f.actor(w.admin_a), form=read_user_form({"first_name": "New", "last_name": "Bie", "email": email, "role": "adviser"}))
    return created


def test_new_user_gets_an_activation_mail(db):
    created = _new_user()
    assert created.activated is False
    mails = f.outbox("newbie@example.com")
    assert len(mails) == 1
    assert mails[0].subject == "Activate your Wealth Advice account"
    assert mails[0].sent_at is None  # no SMTP configured: kept in the outbox
    token = f.token_from(mails[0].body, "activation")
    assert settings.public_url.rstrip("/") + "/activation/" + token in mails[0].body
    assert rendered(auth.check_activation_token(token=token)) == {"email": "newbie@example.com", "first_name": "New"}


def test_activation_sets_the_password_once(db):
    _new_user()
    token = f.last_token("newbie@example.com", "activation")
    auth.activate(token=token, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)
    row = f.get_user_row(_user_id("newbie@example.com"))
    assert row.activated_at is not None and row.password_hash
    token_s, _ = auth.signin(email="newbie@example.com", password=NEW_PASSWORD)
    assert auth.authenticate(token_s)
    for call in (lambda: auth.check_activation_token(token=token),
                 lambda: auth.activate(token=token, password="Other1234", rpt_password="Other1234")):
        with pytest.raises(ValidationError) as err:
            call()
        assert err.value.message == "This activation link is expired or have already been used"
    # the second attempt changed nothing
    auth.signin(email="newbie@example.com", password=NEW_PASSWORD)


def _user_id(email: str) -> int:
    with session_scope() as s:
        return s.exec(select(User.id).where(User.email == email)).one()


@pytest.mark.parametrize(
    "password, repeat, field, text",
    [
        ("short1A", "short1A", "password", v.PASSWORD),
        ("alllowercase1", "alllowercase1", "password", v.PASSWORD),
        ("ALLUPPERCASE1", "ALLUPPERCASE1", "password", v.PASSWORD),
        ("NoDigitsHere", "NoDigitsHere", "password", v.PASSWORD),
        ("", "", "password", "Please, enter password. "),
        (NEW_PASSWORD, "", "rptPassword", "Please, repeat password. "),
        (NEW_PASSWORD, NEW_PASSWORD + "x", "rptPassword", "Password and password confirmation must match. "),
    ],
)
def test_activation_password_rules(db, password, repeat, field, text):
    _new_user()
    token = f.last_token("newbie@example.com", "activation")
    with pytest.raises(ValidationError) as err:
        auth.activate(token=token, password=password, rpt_password=repeat)
    assert err.value.message == "Please, fill all required fields with valid data"
    assert err.value.fields[field] == text
    # the token still works after a refused attempt
    assert auth.check_activation_token(token=token).email == "newbie@example.com"


def test_expired_activation_token_is_refused(db):
    _new_user()
    token = f.last_token("newbie@example.com", "activation")
    f.expire_action_token(token)
    with pytest.raises(ValidationError) as err:
        auth.check_activation_token(token=token)
    assert err.value.message == rules.ACTIVATION_LINK_INVALID
    with pytest.raises(ValidationError):
        auth.activate(token=token, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)


def test_tokens_only_work_for_their_purpose(db):
    _new_user()
    token = f.last_token("newbie@example.com", "activation")
    with pytest.raises(ValidationError) as err:
        auth.check_recovery_token(token=token)
    assert err.value.message == rules.RECOVERY_LINK_INVALID
    with pytest.raises(ValidationError):
        auth.reset_password(token=token, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)
    with pytest.raises(ValidationError):
        auth.confirm_email_change(token=token)
    assert auth.check_activation_token(token=token)


def test_activation_mail_goes_through_smtp_after_commit(db, smtp_sink):
    _new_user("smtp.newbie@example.com")
    msg = smtp_sink.wait_for("smtp.newbie@example.com", timeout=10)
    assert msg["Subject"] == "Activate your Wealth Advice account"
    links = smtp_sink.links(msg)
    assert len(links) == 1 and "/activation/" in links[0]
    token = links[0].rsplit("/", 1)[1]
    assert auth.check_activation_token(token=token).email == "smtp.newbie@example.com"
    (row,) = f.outbox("smtp.newbie@example.com")
    assert row.sent_at is not None and row.error is None


def test_mail_is_sent_only_when_the_transaction_commits(db, smtp_sink):
    with session_scope() as s:
        mail.queue(s, to="committed@example.com", subject="Hello", body="Body")
        time.sleep(0.2)
        assert smtp_sink.messages == []  # not before the commit
    assert smtp_sink.wait_for("committed@example.com", timeout=10)["Subject"] == "Hello"

    with pytest.raises(RuntimeError):
        with session_scope() as s:
            mail.queue(s, to="rolledback@example.com", subject="Never", body="Body")
            raise RuntimeError("the action fails")
    time.sleep(0.3)
    assert [m["To"] for m in smtp_sink.messages] == ["committed@example.com"]
    assert f.outbox("rolledback@example.com") == []


def test_failed_user_creation_mails_nobody(db, smtp_sink):
    w = f.make_world()
    with pytest.raises(ValidationError):
        users.create_user(actor=f.actor(w.admin_a), form=read_user_form({"first_name": "", "last_name": "X", "email": "nomail@example.com", "role": "client"}))
    time.sleep(0.2)
    assert smtp_sink.messages == []
    assert f.outbox() == []


def test_smtp_failure_is_recorded_and_does_not_undo_the_action(db):
    previous = settings.smtp_url
    from tests._harness import free_port

    settings.smtp_url = f"smtp://127.0.0.1:{free_port()}"  # nothing listens there
    try:
        created = _new_user("unreachable@example.com")
    finally:
        settings.smtp_url = previous
    assert f.get_user_row(created.id) is not None
    (row,) = f.outbox("unreachable@example.com")
    assert row.sent_at is None and row.error


# ---- recovery and reset -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "email, webmail",
    [
        ("someone@gmail.com", "https://mail.google.com/"),
        ("someone@hotmail.com", "https://outlook.live.com/mail/"),
        ("someone@icloud.com", "https://www.icloud.com/mail/"),
        ("someone@example.com", None),
    ],
)
def test_recovery_answers_the_same_for_unknown_and_known_emails(db, email, webmail):
    unknown = auth.request_recovery(email=email)
    assert rendered(unknown) == {"webmail": webmail}
    assert f.outbox() == []  # nobody to mail
    f.make_user(Role.CLIENT, f.make_firm(), email=email)
    assert auth.request_recovery(email=email) == unknown
    (row,) = f.outbox(email)
    assert row.subject == "Reset your Wealth Advice password"


@pytest.mark.parametrize("status", [UserStatus.DISABLED, UserStatus.DELETED])
def test_recovery_mails_nothing_to_inactive_accounts(db, status):
    f.make_user(Role.CLIENT, f.make_firm(), email="inactive@example.com", status=status)
    assert rendered(auth.request_recovery(email="inactive@example.com")) == {"webmail": None}
    assert f.outbox() == []


@pytest.mark.parametrize("email, text", [("not-an-email", "Please, enter a valid email. "), ("", "Please, enter email. "),
                                         ("a@b", "Please, enter a valid email. ")])
def test_recovery_needs_a_valid_email(db, email, text):
    with pytest.raises(ValidationError) as err:
        auth.request_recovery(email=email)
    assert err.value.message == text
    assert err.value.fields == {"email": text}


def test_reset_works_once_and_signs_every_session_out(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="reset@example.com")
    old_session = f.session_token(user)
    auth.request_recovery(email="RESET@example.com")
    token = f.last_token("reset@example.com", "reset-password")
    assert rendered(auth.check_recovery_token(token=token)) == {"email": "reset@example.com"}
    auth.reset_password(token=token, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)
    with pytest.raises(AuthenticationError):
        auth.authenticate(old_session)
    with pytest.raises(AuthenticationError):
        auth.signin(email="reset@example.com", password=f.PASSWORD)
    assert auth.signin(email="reset@example.com", password=NEW_PASSWORD)
    for call in (lambda: auth.check_recovery_token(token=token),
                 lambda: auth.reset_password(token=token, password="Again1234", rpt_password="Again1234")):
        with pytest.raises(ValidationError) as err:
            call()
        assert err.value.message == "This recovery password link is expired or have already been used"


def test_expired_recovery_token_is_refused(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="late@example.com")
    auth.request_recovery(email="late@example.com")
    token = f.last_token("late@example.com", "reset-password")
    f.expire_action_token(token)
    with pytest.raises(ValidationError) as err:
        auth.reset_password(token=token, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)
    assert err.value.message == rules.RECOVERY_LINK_INVALID


def test_a_newer_recovery_link_replaces_the_older_one(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="twice@example.com")
    auth.request_recovery(email="twice@example.com")
    first = f.last_token("twice@example.com", "reset-password")
    auth.request_recovery(email="twice@example.com")
    second = f.last_token("twice@example.com", "reset-password")
    with pytest.raises(ValidationError):
        auth.check_recovery_token(token=first)
    assert auth.check_recovery_token(token=second)


def test_reset_password_rules(db):
    f.make_user(Role.CLIENT, f.make_firm(), email="weak@example.com")
    auth.request_recovery(email="weak@example.com")
    token = f.last_token("weak@example.com", "reset-password")
    with pytest.raises(ValidationError) as err:
        auth.reset_password(token=token, password="weak", rpt_password="weak")
    assert err.value.fields == {"password": v.PASSWORD}
    with pytest.raises(ValidationError) as err:
        auth.reset_password(token=token, password=NEW_PASSWORD, rpt_password="Different1")
    assert err.value.fields == {"rptPassword": v.PASSWORD_MISMATCH}
    auth.reset_password(token=token, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)


# ---- e-mail change -------------------------------------------------------------------------------
def test_email_change_waits_for_the_new_address(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="before@example.com")
    result = users.update_me(actor=f.actor(user), form=read_profile_form({"email": "After@Example.com"}))
    assert result.message == "We sent a confirmation link to after@example.com. Your e-mail changes when you open it."
    assert result.user.email == "before@example.com"
    assert f.get_user_row(user.id).email == "before@example.com"
    assert f.outbox("before@example.com") == []
    token = f.last_token("after@example.com", "email-change")
    assert rendered(auth.check_email_change_token(token=token)) == {"email": "after@example.com"}
    assert auth.confirm_email_change(token=token) == "Email changed"
    assert f.get_user_row(user.id).email == "after@example.com"
    with pytest.raises(ValidationError) as err:
        auth.confirm_email_change(token=token)
    assert err.value.message == rules.EMAIL_CHANGE_LINK_INVALID
    assert auth.signin(email="after@example.com", password=f.PASSWORD)


def test_email_change_refused_when_the_address_was_taken_meanwhile(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="mine@example.com")
    users.update_me(actor=f.actor(user), form=read_profile_form({"email": "wanted@example.com"}))
    token = f.last_token("wanted@example.com", "email-change")
    f.make_user(Role.CLIENT, None, email="wanted@example.com")
    with pytest.raises(ValidationError) as err:
        auth.confirm_email_change(token=token)
    assert err.value.message == "Email should be unique."
    assert f.get_user_row(user.id).email == "mine@example.com"


def test_expired_email_change_token_is_refused(db):
    user = f.make_user(Role.ADVISER, f.make_firm(), email="slow@example.com")
    users.update_me(actor=f.actor(user), form=read_profile_form({"email": "slower@example.com"}))
    token = f.last_token("slower@example.com", "email-change")
    f.expire_action_token(token)
    with pytest.raises(ValidationError):
        auth.check_email_change_token(token=token)
    with pytest.raises(ValidationError):
        auth.confirm_email_change(token=token)
    assert f.get_user_row(user.id).email == "slow@example.com"


def test_action_tokens_are_stored_as_digests(db):
    _new_user()
    token = f.last_token("newbie@example.com", "activation")
    with session_scope() as s:
        row = s.exec(select(ActionToken)).one()
    assert row.token_hash == token_digest(token) and token not in row.token_hash
    assert row.purpose == TokenPurpose.ACTIVATION.value
    assert row.expires_at > utcnow() + timedelta(hours=settings.activation_token_hours - 1)


def test_unknown_and_deleted_accounts_answer_as_slowly_as_known_ones(db):
    """No account discovery by timing: every failed sign-in spends a password hash."""
    firm = f.make_firm()
    f.make_user(Role.CLIENT, firm, email="timing.known@example.com")
    f.make_user(Role.CLIENT, firm, email="timing.deleted@example.com", status=UserStatus.DELETED)

    emails = ("timing.known@example.com", "timing.unknown@example.com", "timing.deleted@example.com")
    times: dict[str, list[float]] = {email: [] for email in emails}
    for _ in range(3):  # below the throttle limit; the three in turn, so that a busy moment of the
        for email in emails:  # machine weighs on each of them alike
            start = time.perf_counter()
            with pytest.raises(AuthenticationError):
                auth.signin(email=email, password=WRONG)
            times[email].append(time.perf_counter() - start)
    known, unknown, deleted = (min(times[email]) for email in emails)
    # argon2 costs tens of milliseconds; skipping it answers many times faster
    assert unknown > known * 0.4
    assert deleted > known * 0.4


def test_links_of_a_deleted_user_stop_working(db):
    """A deleted user is read-only: no activation, password reset or e-mail change through old links."""
    w = f.make_world()
    created = users.create_user(actor=f.actor(w.admin_a), form=read_user_form({"first_name": "Short", "last_name": "Lived",
                                                                 "email": "short.lived@example.com", "role": "client"}))
    activation = f.last_token("short.lived@example.com", "activation")
    auth.request_recovery(email=w.client_b.email)
    recovery = f.last_token(w.client_b.email, "reset-password")
    users.update_me(actor=f.actor(w.adviser_a), form=read_profile_form({"email": "adviser.moved@example.com"}))
    change = f.last_token("adviser.moved@example.com", "email-change")

    users.delete_user(actor=f.actor(w.admin_a), user_id=created.id)
    users.delete_user(actor=f.actor(w.superuser), user_id=w.client_b.id)
    users.delete_user(actor=f.actor(w.superuser), user_id=w.adviser_a.id)

    with pytest.raises(ValidationError) as err:
        auth.check_activation_token(token=activation)
    assert err.value.message == rules.ACTIVATION_LINK_INVALID
    with pytest.raises(ValidationError):
        auth.activate(token=activation, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)
    with pytest.raises(ValidationError) as err:
        auth.reset_password(token=recovery, password=NEW_PASSWORD, rpt_password=NEW_PASSWORD)
    assert err.value.message == rules.RECOVERY_LINK_INVALID
    with pytest.raises(ValidationError) as err:
        auth.confirm_email_change(token=change)
    assert err.value.message == rules.EMAIL_CHANGE_LINK_INVALID
    assert f.get_user_row(created.id).password_hash is None
    assert f.get_user_row(w.client_b.id).password_hash == f.password_hash()
    assert f.get_user_row(w.adviser_a.id).email == w.adviser_a.email


# ---- session lifetimes and download tickets -------------------------------------------------------
def _age_session(token: str, *, last_seen: timedelta | None = None, created: timedelta | None = None) -> None:
    """Moves a session's last use (and its creation) into the past."""
    with session_scope() as s:
        row = s.exec(select(SessionToken).where(SessionToken.token_hash == token_digest(token))).one()
        if created is not None:
            row.created_at = utcnow() - created
        row.last_seen_at = utcnow() - last_seen if last_seen is not None else None
        s.add(row)


def test_a_session_ends_after_its_idle_lifetime(db):
    user = f.make_user(Role.ADVISER, f.make_firm())
    token = f.session_token(user)
    idle = timedelta(minutes=settings.session_idle_minutes)
    _age_session(token, last_seen=idle - timedelta(minutes=1))
    assert auth.authenticate(token).id == user.id  # used just in time: alive, and the use is recorded
    assert f.session_rows(user.id)[0].last_seen_at > utcnow() - timedelta(minutes=1)
    _age_session(token, last_seen=idle + timedelta(seconds=1))
    with pytest.raises(AuthenticationError) as refused:
        auth.authenticate(token)
    assert refused.value.message == rules.SESSION_EXPIRED
    # never used since sign-in: the idle lifetime counts from the sign-in
    fresh = f.session_token(user)
    _age_session(fresh, created=idle + timedelta(seconds=1))
    with pytest.raises(AuthenticationError):
        auth.authenticate(fresh)


def test_a_session_used_all_day_still_ends_at_its_absolute_lifetime(db):
    user = f.make_user(Role.ADVISER, f.make_firm())
    token = f.session_token(user, expires_in=timedelta(seconds=2))
    assert auth.authenticate(token).id == user.id
    _age_session(token, last_seen=timedelta(seconds=0))
    f.expire_session(token)
    with pytest.raises(AuthenticationError):
        auth.authenticate(token)


def test_a_download_ticket_works_once_for_its_path_while_the_session_lasts(db):
    user = f.make_user(Role.ADVISER, f.make_firm())
    token = f.session_token(user)
    path = "/api/reports/cash-report-generate"
    ticket = auth.issue_download_ticket(token=token, path=path + "?fileType=xlsx")
    assert len(ticket) >= 32 and ticket != token
    with pytest.raises(AuthenticationError):
        auth.redeem_download_ticket(ticket, "/api/reports/pending-target-portfolios-generate")
    assert auth.redeem_download_ticket(ticket, path).id == user.id
    with pytest.raises(AuthenticationError):
        auth.redeem_download_ticket(ticket, path)  # spent
    # an expired ticket, and a ticket whose session ended, are refused
    late = auth.issue_download_ticket(token=token, path=path)
    with session_scope() as s:
        row = s.exec(select(DownloadTicket).where(DownloadTicket.token_hash == token_digest(late))).one()
        row.expires_at = utcnow() - timedelta(seconds=1)
        s.add(row)
    with pytest.raises(AuthenticationError):
        auth.redeem_download_ticket(late, path)
    orphan = auth.issue_download_ticket(token=token, path=path)
    auth.signout(token=token)
    with pytest.raises(AuthenticationError):
        auth.redeem_download_ticket(orphan, path)
    # only a live session may ask for one, and only for the API
    with pytest.raises(AuthenticationError):
        auth.issue_download_ticket(token=token, path=path)
    with pytest.raises(ValidationError):
        auth.issue_download_ticket(token=f.session_token(user), path="https://elsewhere.example.com/api/x")
    # only the digest is stored
    with session_scope() as s:
        assert all(len(r.token_hash) == 64 and r.token_hash != ticket for r in s.exec(select(DownloadTicket)))
