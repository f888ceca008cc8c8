"""Sign-in rules without I/O: webmail links, texts and the remembered target path after login."""
from __future__ import annotations

import pytest

from app.domain import auth_rules as rules

GOOGLE, MICROSOFT, YAHOO, APPLE = (
    "https://mail.google.com/", "https://outlook.live.com/mail/", "https://mail.yahoo.com/", "https://www.icloud.com/mail/",
)


@pytest.mark.parametrize(
    "email, url",
    [
        ("a@gmail.com", GOOGLE),
        ("a@googlemail.com", GOOGLE),
        ("a@hotmail.com", MICROSOFT),
        ("a@hotmail.com.au", MICROSOFT),
        ("a@live.com", MICROSOFT),
        ("a@outlook.com", MICROSOFT),
        ("a@yahoo.com", YAHOO),
        ("a@yahoo.com.au", YAHOO),
        ("a@me.com", APPLE),
        ("a@icloud.com", APPLE),
        ("A.Person@GMAIL.COM", GOOGLE),
        ("first+tag@Gmail.com", GOOGLE),
        ("a@example.com", None),
        ("a@bigpond.com", None),
        ("a@mail.gmail.example", None),
        ("gmail.com", None),
        ("", None),
        (None, None),
    ],
)
def test_webmail_url(email, url):
    assert rules.webmail_url(email) == url


def test_texts_and_constants():
    assert rules.SIGNIN_FAILED == "Your email or password was incorrect"
    assert rules.RECOVERY_LINK_INVALID == "This recovery password link is expired or have already been used"
    assert rules.ACTIVATION_LINK_INVALID == "This activation link is expired or have already been used"
    assert rules.EMAIL_CHANGED == "Email changed"
    assert rules.TARGET_PATH_LIFETIME_MS == 1_200_000
    assert rules.COUNTDOWN_SECONDS == 10


# ---- the remembered target path (app.ui.states.base.remembered_target) -----------------------
NOW = 1_700_000_000_000
MINUTE = 60_000


@pytest.fixture(scope="module")
def remembered_target():
    from app.ui.states.base import remembered_target

    return remembered_target


@pytest.mark.parametrize(
    "path, age_ms, expected",
    [
        ("/firms", 0, "/firms"),
        ("/firms/3/edit", 19 * MINUTE, "/firms/3/edit"),
        ("/users?role=client&page=2", 5 * MINUTE, "/users?role=client&page=2"),  # the search string is kept
        ("/firms/3", 20 * MINUTE - 1, "/firms/3"),
        ("/firms/3", 20 * MINUTE, None),  # 20 minutes or older: forgotten
        ("/firms/3", 3 * 60 * MINUTE, None),
        ("/firms/3", -MINUTE, None),  # a stamp from the future is not trusted
        ("/login", MINUTE, None),  # public pages are never a target
        ("/activation/abc", MINUTE, None),
        ("/reset-password/abc", MINUTE, None),
        ("/email-change/abc", MINUTE, None),
        ("/no/such/page", MINUTE, None),
        ("https://evil.example.com/firms", MINUTE, None),
        ("", MINUTE, None),
    ],
)
def test_remembered_target(remembered_target, path, age_ms, expected):
    assert remembered_target(path, str(NOW - age_ms), now_ms=NOW) == expected


@pytest.mark.parametrize("stamp", ["", "yesterday", "12.5"])
def test_remembered_target_with_a_bad_stamp(remembered_target, stamp):
    assert remembered_target("/firms", stamp, now_ms=NOW) is None


def test_remembered_target_uses_the_clock(remembered_target):
    import time

    now = int(time.time() * 1000)
    assert remembered_target("/firms", str(now - MINUTE)) == "/firms"
    assert remembered_target("/firms", str(now - 21 * MINUTE)) is None
