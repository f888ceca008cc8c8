"""The doors that need no access check, each with the reason. The generated access-control tests
(tests/api/test_access_matrix.py over REST, tests/e2e/test_handler_access_e2e.py over the Reflex
websocket) read this list: every other route and public event handler must refuse another firm's
ids and forbidden actions, and change nothing."""
from __future__ import annotations

# "METHOD /api/path" -> why anyone (or any signed-in user) may call it
REST: dict[str, str] = {}

# "StateClass.handler" -> why it needs no check
_PUBLIC_SIGN_IN = ("the public sign-in page: it takes only what the visitor types; a recovery request mails a link to "
                   "the address's owner and answers the same whoever asks")
_OWN_PROFILE = "changes only the signed-in user's own profile (no id is taken from the browser)"

HANDLERS: dict[str, str] = {
    "AppState.signout": "ends the caller's own session and nothing else (and the sweep needs the session)",
    "LoginState.request_recovery": _PUBLIC_SIGN_IN,
    "LoginState.signin": _PUBLIC_SIGN_IN,
    "ProfileState.save": _OWN_PROFILE,
    "ProfileState.save_and_leave": _OWN_PROFILE,
    "ProfileState.confirm_remove_image": _OWN_PROFILE,
}
