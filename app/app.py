"""The Reflex application: every page, plus the REST API mounted under /api on the same port."""
import reflex as rx

from app import profiling
from app.api.main import create_api
from app.jobs.sweeps import lifespan_sweeper
from app.domain.errors import GENERIC
from app.ui.pages import registry


TOAST_OFFSET = {"top": "72px", "right": "24px"}  # the top bar is 60px high
TOAST_OFFSET_PHONE = {"top": "68px", "right": "12px", "left": "12px"}


def _unexpected_error(exception: Exception):
    # Anything a handler did not turn into a message itself: log it, show the generic text.
    import logging

    from app.domain.errors import DomainError

    if isinstance(exception, DomainError):  # e.g. the database out of reach: its own words
        return rx.toast.error(exception.message)
    logging.getLogger("app.ui").exception("unhandled UI error", exc_info=exception)
    return rx.toast.error(GENERIC)


def _connection_overlay() -> rx.Component:
    """When the browser loses the server, say so in the product's words (spec: 'Connection problem.')."""
    from reflex_components_core.core.banner import connection_pulser, has_too_many_connection_errors

    return rx.fragment(
        connection_pulser(),
        rx.cond(
            has_too_many_connection_errors,
            rx.callout("Connection problem.", icon="wifi-off", color_scheme="red", id="connection-problem",
                       position="fixed", top="12px", left="50%", transform="translateX(-50%)", z_index="9999"),
        ),
    )


app = rx.App(
    backend_exception_handler=_unexpected_error,
    html_lang="en-AU",
    # toasts top-right (ui.md) but below the top bar, so they never cover the user menu (nor, at the
    # bottom, the target portfolio's edit bar)
    toaster=rx.toast.provider(position="top-right", rich_colors=True, close_button=True,
                              offset=rx.Var.create(TOAST_OFFSET).to(str),
                              custom_attrs={"mobileOffset": rx.Var.create(TOAST_OFFSET_PHONE)}),
    api_transformer=create_api(),
    stylesheets=["/styles.css"],
    head_components=[rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml")],
)
app.app_wraps[(5, "Overlay")] = lambda stateful: _connection_overlay() if stateful else None
registry.register_pages(app)
profiling.install_from_env()  # WA_PROFILE_DIR: where each web process's event profile goes (bench load --profile)
app.register_lifespan_task(lifespan_sweeper)
