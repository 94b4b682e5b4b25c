# The Frap bot: `docker build -t frapbot . && docker run -e BOT_TOKEN=... -v frapdata:/data frapbot`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DB_PATH=/data/frap.sqlite3

RUN useradd --create-home --uid 10001 frap && mkdir /data && chown frap /data
WORKDIR /app
# Every dependency pinned and hashed (docs/operating.md: how to update the lock), the build
# backend too; then the bot itself, with nothing more fetched.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
# The build compiles locales/*/LC_MESSAGES/*.po to .mo (setup.py); the import checks them.
RUN pip install --no-deps --no-build-isolation . && python -c "import locales"

USER frap
VOLUME ["/data"]
# The webhook server, when WEBHOOK_URL is set (PORT, docs/operating.md); polling needs no port.
EXPOSE 8080
# Unhealthy when the bot's heartbeat in the database is stale (event loop stuck, database not
# writable) or Telegram has not answered for HEALTH_MAX_SILENCE seconds (bot/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
