"""Reflex configuration. Runtime settings come from app.settings, the one place that reads the environment."""
import reflex as rx
from reflex_base.plugins.sitemap import SitemapPlugin

from app.settings import settings

config = rx.Config(
    app_name="app",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    redis_url=settings.redis_url or None,
    disable_plugins=[SitemapPlugin],
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(appearance="light", accent_color="indigo", gray_color="slate", radius="medium", scaling="95%"),
        ),
    ],
)
