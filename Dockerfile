# Wealth Advice: one image for the web app (reflex, one port) and the background worker.
#   docker build -t wealth-advice .
#   docker run -p 3000:3000 -v wealth-data:/data wealth-advice      (embedded: SQLite in /data)
# With PostgreSQL, Redis and workers: see compose.yaml.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    REFLEX_USE_SYSTEM_BUN=1 \
    PATH=/opt/bun/node_modules/.bin:$PATH \
    DATA_DIR=/data \
    PORT=3000

# Node/npm only to install bun, which Reflex uses to install and build the frontend.
RUN apt-get update \
    && apt-get install -y --no-install-recommends nodejs npm unzip curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && npm install --prefix /opt/bun --no-audit --no-fund --loglevel=error bun@1.4.4 \
    && npm cache clean --force \
    && bun --version

RUN useradd --create-home --uid 1000 app \
    && mkdir -p /app /data \
    && chown app:app /app /data

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY --chown=app:app . .
USER app

# Install the frontend packages and build once at image build, so a container start only
# recompiles the pages (reflex run --env prod rebuilds the bundle for its port) and needs no
# access to the npm registry.
RUN reflex export --frontend-only --no-zip --env prod \
    && rm -rf /app/.data

VOLUME ["/data"]
EXPOSE 3000

HEALTHCHECK --interval=15s --timeout=5s --start-period=300s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${PORT}/api/health" || exit 1

# Upgrade the schema, load the demo data once, then serve frontend and API on one port.
CMD ["sh", "-c", "python -m app.cli setup && exec reflex run --env prod --single-port --backend-port \"${PORT}\""]
