"""How updates reach the bot: long polling (the default), or Telegram's webhook when WEBHOOK_URL
is set (python-telegram-bot's own server, which refuses a request without the right
`X-Telegram-Bot-Api-Secret-Token` with 403)."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application

from .app import ALLOWED_UPDATES
from .config import Settings


def webhook_options(settings: Settings) -> dict[str, Any]:
    """Arguments of `Updater.start_webhook` / `Application.run_webhook` for these settings."""
    assert settings.webhook_url and settings.webhook_secret  # Settings insists on both
    return {
        "listen": settings.webhook_listen,
        "port": settings.port,
        "url_path": settings.webhook_path,
        "webhook_url": settings.webhook_url,
        "secret_token": settings.webhook_secret.get_secret_value(),
        "allowed_updates": list(ALLOWED_UPDATES),
    }


def run(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Run the bot until it is stopped (SIGINT, SIGTERM), by webhook or by polling.

    Either way python-telegram-bot tells Telegram at start-up: `setWebhook` with the URL and
    the secret (every start, so a new URL or secret takes effect), or `deleteWebhook` before
    polling (Telegram refuses getUpdates while a webhook is set). Stopping leaves a webhook
    set, so Telegram keeps the updates that come meanwhile for the next start.
    """
    if settings.webhook_url:
        app.run_webhook(**webhook_options(settings))
    else:
        app.run_polling(allowed_updates=list(ALLOWED_UPDATES), timeout=settings.poll_timeout)
