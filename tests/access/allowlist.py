"""The doors that need no access check, each with the reason. The generated access-control tests
(tests/api/test_access_matrix.py over REST, tests/e2e/test_handler_access_e2e.py over the Reflex
websocket) read this list: every other route and public event handler must refuse another firm's
ids and forbidden actions, and change nothing."""
from __future__ import annotations

# "METHOD /api/path" -> why anyone (or any signed-in user) may call it
REST: dict[str, str] = {
    "GET /api/health": "liveness probe: answers {status: ok} and reads nothing",
    "GET /api/files/{key}": ("stored images (logos, photos) for <img> tags: the key is random and unguessable, "
                             "given out only inside answers the caller may read"),
    "POST /api/signin": "the public sign-in: takes only the e-mail and password typed",
    "POST /api/signout": "ends the caller's own session and nothing else",
    "GET /api/activation/{token}": "a link mailed to the user: the single-use token in it is the check (no session yet)",
    "POST /api/activation": "a link mailed to the user: the single-use token in it is the check (no session yet)",
    "POST /api/password-recovery": ("public recovery request: mails a link to the address's owner and answers the "
                                    "same whoever asks"),
    "GET /api/password-recovery/{token}": "a link mailed to the user: the single-use token in it is the check (no session yet)",
    "POST /api/reset-password": "a link mailed to the user: the single-use token in it is the check (no session yet)",
    "GET /api/email-change/{token}": "a link mailed to the user: the single-use token in it is the check (no session yet)",
    "POST /api/email-change": "a link mailed to the user: the single-use token in it is the check (no session yet)",
    "PUT /api/me": "changes only the signed-in user's own profile (no id is taken from the request)",
    "POST /api/me-photo-upload": "changes only the signed-in user's own photo (no id is taken from the request)",
    "POST /api/me-signature-upload": "changes only the signed-in user's own signature (no id is taken from the request)",
    "GET /api/openapi.json": "the API's own description, public by design",
    "GET /api/docs": "the API's own description, public by design",
    "GET /docs/oauth2-redirect": "the API's own description, public by design",
}

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
