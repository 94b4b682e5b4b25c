"""How updates reach the bot: long polling (the default), or Telegram's webhook when WEBHOOK_URL
is set (python-telegram-bot's own server, which refuses a request without the right
`X-Telegram-Bot-Api-Secret-Token` with 403). With the Mini App too (WEBAPP_URL), the
bot's own aiohttp server (bot/web/server.py) takes the webhook on the page's port, as
python-telegram-bot's custom-webhook examples do: one port, as hosts give one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

from telegram.error import NetworkError
from telegram.ext import Application

from .app import ALLOWED_UPDATES
from .client.api import FrapBot
from .config import Settings

log = logging.getLogger(__name__)

# Telegram unreachable at start-up: tries again after 1, 2, 4… seconds, at most this many apart
# (bot.metrics.Telegram warns once that it is unreachable, and once that it answers again)
START_RETRY_CAP = 30.0


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
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # python-telegram-bot's run_* take the current one
    if not loop.run_until_complete(_stoppable(loop, initialize(app))):
        if isinstance(app.bot, FrapBot):
            loop.run_until_complete(app.bot.shutdown_requests())
        loop.close()
        return  # stopped while waiting for Telegram
    # bootstrap_retries=-1: a call of the start-up (deleteWebhook, setWebhook) that fails is
    # tried again, never the end of the bot
    if settings.webhook_url and settings.webapp_url:
        loop.run_until_complete(_serve_shared(app, settings))
        loop.close()
    elif settings.webhook_url:
        app.run_webhook(**webhook_options(settings), bootstrap_retries=-1)
    else:
        app.run_polling(
            allowed_updates=list(ALLOWED_UPDATES),
            timeout=settings.poll_timeout,
            bootstrap_retries=-1,
        )


async def initialize(app: Application, *, cap: float = START_RETRY_CAP) -> None:  # type: ignore[type-arg]
    """`app.initialize()` (the bot's getMe), tried again until Telegram answers: after 1 s, then
    twice as long each time, at most `cap` seconds apart."""
    delay = 1.0
    while True:
        try:
            await app.initialize()
            return
        except NetworkError as exc:  # unreachable, a time-out, a 5xx: not the token refused
            log.debug("start-up: Telegram not reached (%s); next try in %.0f s", exc, delay)
        await asyncio.sleep(delay)
        delay = min(cap, delay * 2)


async def _stoppable(loop: asyncio.AbstractEventLoop, job: Any) -> bool:
    """Run `job` unless SIGINT or SIGTERM comes first: whether it ran to its end."""
    task = asyncio.ensure_future(job)
    signals = (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        loop.add_signal_handler(sig, task.cancel)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return not task.cancelled()
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


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
    await app.initialize()  # done by `run` already (Telegram answered): nothing more
    try:
        if app.post_init is not None:
            await app.post_init(app)  # it starts the server (bot/app.py)
        delay = 1.0
        while not stop.is_set():  # as run_webhook's bootstrap_retries=-1 does
            try:
                await set_webhook(app, settings)
                break
            except NetworkError as exc:
                log.debug("setWebhook: Telegram not reached (%s)", exc)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), delay)
                delay = min(START_RETRY_CAP, delay * 2)
        await app.start()
        await stop.wait()
        await app.stop()
    finally:
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await app.shutdown()
