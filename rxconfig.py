"""Reflex configuration. Runtime settings come from app.settings, the one place that reads the environment."""
import os

import reflex as rx
from reflex_base.plugins.sitemap import SitemapPlugin

from app.settings import settings

if settings.redis_url:
    # With the session states in Redis, a web process keeps a session's state (and its Redis lock)
    # between the events of that session, writing it back when another process asks for it or the
    # hold ends, instead of a load and a store per event: at 50 advisers the worst p95 fell from
    # 388-684 ms to 141-212 ms (README, bench load). REFLEX_OPLOCK_ENABLED=false turns it off.
    os.environ.setdefault("REFLEX_OPLOCK_ENABLED", "true")

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
