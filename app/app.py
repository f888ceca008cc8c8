"""The Reflex application: every page, plus the REST API mounted under /api on the same port."""
import reflex as rx

from app.api.main import create_api
from app.domain.errors import GENERIC
from app.ui.pages import registry


def _unexpected_error(exception: Exception):
    # Anything a handler did not turn into a message itself: log it, show the generic text.
    import logging

    logging.getLogger("app.ui").exception("unhandled UI error", exc_info=exception)
    return rx.toast.error(GENERIC, position="top-right")


app = rx.App(
    backend_exception_handler=_unexpected_error,
    api_transformer=create_api(),
    stylesheets=["/styles.css"],
    head_components=[rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml")],
)
registry.register_pages(app)
