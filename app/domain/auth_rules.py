"""Sign-in rules that need no I/O."""
from __future__ import annotations

# Spec 000: after a recovery request the modal links to the webmail of these providers.
_WEBMAIL = {
    "gmail": "https://mail.google.com/",
    "googlemail": "https://mail.google.com/",
    "hotmail": "https://outlook.live.com/mail/",
    "live": "https://outlook.live.com/mail/",
    "outlook": "https://outlook.live.com/mail/",
    "yahoo": "https://mail.yahoo.com/",
    "me": "https://www.icloud.com/mail/",
    "icloud": "https://www.icloud.com/mail/",
}

SIGNIN_FAILED = "Your email or password was incorrect"
ACCOUNT_DISABLED = "Your account is disabled. Please contact your administrator."
SIGNIN_THROTTLED = "Too many failed sign-in attempts. Please try again in {minutes} minutes."
SESSION_EXPIRED = "Your session has expired. Please sign in again."
RECOVERY_LINK_INVALID = "This recovery password link is expired or have already been used"
ACTIVATION_LINK_INVALID = "This activation link is expired or have already been used"
EMAIL_CHANGE_LINK_INVALID = "This email change link is expired or have already been used"
EMAIL_CHANGED = "Email changed"
WRONG_OLD_PASSWORD = "Old password is incorrect"
TARGET_PATH_LIFETIME_MS = 1_200_000  # remembered target path after login: 20 minutes
COUNTDOWN_SECONDS = 10


def webmail_url(email: str) -> str | None:
    """The webmail address for an e-mail's provider, when it is one the product knows."""
    if "@" not in (email or ""):
        return None
    domain = email.rsplit("@", 1)[1].lower()
    return _WEBMAIL.get(domain.split(".", 1)[0])
