# The Frap bot: `docker build -t frapbot . && docker run -e BOT_TOKEN=... -v frapdata:/data frapbot`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DB_PATH=/data/frap.sqlite3

RUN useradd --create-home --uid 10001 frap && mkdir /data && chown frap /data
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
# The build compiles locales/*/LC_MESSAGES/*.po to .mo (setup.py); the import checks them.
RUN pip install . && python -c "import locales"

USER frap
VOLUME ["/data"]
# The webhook server, when WEBHOOK_URL is set (PORT, README "Deploying"); polling needs no port.
EXPOSE 8080
CMD ["python", "-m", "bot"]
