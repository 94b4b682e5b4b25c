"""How updates reach the bot: long polling (the default), or Telegram's webhook when WEBHOOK_URL
is set (python-telegram-bot's own server, which refuses a request without the right
`X-Telegram-Bot-Api-Secret-Token` with 403). With the Mini App too (WEBAPP_URL, issue 24), the
bot's own aiohttp server (bot/web/server.py) takes the webhook on the page's port, as
python-telegram-bot's custom-webhook examples do: one port, as hosts give one."""

from __future__ import annotations

import asyncio
import signal
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
    if settings.webhook_url and settings.webapp_url:
        asyncio.run(_serve_shared(app, settings))
    elif settings.webhook_url:
        app.run_webhook(**webhook_options(settings))
    else:
        app.run_polling(allowed_updates=list(ALLOWED_UPDATES), timeout=settings.poll_timeout)


async def set_webhook(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Tell Telegram the webhook (what `start_webhook` does) when the bot's own server takes it."""
    options = webhook_options(settings)
    await app.bot.set_webhook(
        url=options["webhook_url"],
        secret_token=options["secret_token"],
        allowed_updates=options["allowed_updates"],
    )


async def _serve_shared(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Run with the webhook on the Mini App's server: the order of `run_webhook` (initialize,
    post_init, the webhook set, start; at SIGINT or SIGTERM stop, post_shutdown, shutdown)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)  # it starts the server (bot/app.py)
        await set_webhook(app, settings)
        await app.start()
        await stop.wait()
        await app.stop()
    finally:
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await app.shutdown()
