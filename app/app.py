"""The Reflex application: every page, plus the REST API mounted under /api on the same port."""
import reflex as rx

from app.api.main import create_api
from app.ui.pages import registry

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/styles.css"],
    head_components=[rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml")],
)
registry.register_pages(app)
