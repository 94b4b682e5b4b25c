"""How updates reach the bot: long polling (the default), or Telegram's webhook when WEBHOOK_URL
is set (python-telegram-bot's own server, which refuses a request without the right
`X-Telegram-Bot-Api-Secret-Token` with 403). With the Mini App too (WEBAPP_URL), the
bot's own aiohttp server (bot/web/server.py) takes the webhook on the page's port, as
python-telegram-bot's custom-webhook examples do: one port, as hosts give one.

`run` starts and stops the bot in python-telegram-bot's order (initialize, post_init, the
updates, start; stop, post_shutdown, shutdown), with two differences from its `run_polling` and
`run_webhook`:

- the database, /healthz and the Mini App's server come first (bot/app.py's `prepare`), then
  Telegram is waited for as long as it takes: /healthz says why the bot is not ready meanwhile;
- SIGTERM (or SIGINT) stops the bot within SHUTDOWN_FLUSH seconds and a little, whatever
  Telegram does: no new update is taken, the ones in hand finish (each step they make is stored
  as it is made) and the messages are brought up to date, until the cut-off at SHUTDOWN_FLUSH
  ends every Telegram call still waiting (bot/client/cutoff.py); the presenter's digests are
  stored, and one line says what was not sent. A second signal cuts off at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable
from typing import Any

from telegram.error import NetworkError, TelegramError
from telegram.ext import Application

from .app import ALLOWED_UPDATES, SHUTDOWN_FLUSH, prepare
from .client.api import FrapBot
from .client.cutoff import Cutoff
from .config import Settings
from .health import STOPPING, Heartbeat

log = logging.getLogger(__name__)

# Telegram unreachable at start-up: tries again after 1, 2, 4… seconds, at most this many apart
# (bot.metrics.Telegram warns once that it is unreachable, and once that it answers again)
START_RETRY_CAP = 30.0
# seconds the last getUpdates may take at shutdown (it tells Telegram the updates taken are
# handled; without it Telegram sends them again at the next start, where they are stale)
CONFIRM_WAIT = 1.0
# seconds the updates in hand get after the cut-off: only the database's work is left to them
AFTER_CUTOFF = 2.0
SIGNALS = (signal.SIGINT, signal.SIGTERM)


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
    asyncio.set_event_loop(loop)  # python-telegram-bot takes the current one
    try:
        loop.run_until_complete(serve(app, settings))
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


async def serve(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """`run`'s work in the running loop (the module docstring says the order)."""
    heartbeat = await prepare(app, settings)  # StartRefused: nothing left open
    stopping = Stopping(app.bot_data["cutoff"], heartbeat)
    initialized = False
    try:
        # a call of the start-up that fails (getMe, deleteWebhook, setWebhook) is tried again,
        # never the end of the bot; a signal meanwhile ends the wait
        initialized = await stopping.unless_asked(initialize(app))
        if initialized:
            assert app.post_init is not None
            await app.post_init(app)  # the tables resumed (no wait for Telegram: its calls
            # end at the cut-off)
            if await stopping.unless_asked(_take_updates(app, settings)):
                await app.start()
                await stopping.asked.wait()
    finally:
        stopping.ask()  # an error ends the bot as a signal does
        await _stop(app, stopping, initialized)


class Stopping:
    """SIGINT and SIGTERM: `asked` is set, /healthz says "stopping", and SHUTDOWN_FLUSH seconds
    later (at once on a second signal) the cut-off ends every Telegram call."""

    def __init__(self, cutoff: Cutoff, heartbeat: Heartbeat) -> None:
        self.cutoff = cutoff
        self.heartbeat = heartbeat
        self.asked = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            loop.add_signal_handler(sig, self._signal)

    def _signal(self) -> None:
        if self.asked.is_set():
            log.info("told to stop again: Telegram's calls end now")
            self.cut()
        self.ask()

    def ask(self) -> None:
        if self.asked.is_set():
            return
        self.asked.set()
        self.heartbeat.stage = STOPPING
        self._timer = asyncio.get_running_loop().call_later(SHUTDOWN_FLUSH, self.cut)

    def cut(self) -> None:
        if not self.cutoff.done:
            self.cutoff.cut()

    def close(self) -> None:
        """The signals back to Python's own handling, the cut-off's timer cancelled."""
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)
        if self._timer is not None:
            self._timer.cancel()

    async def unless_asked(self, job: Awaitable[None]) -> bool:
        """Run `job` unless asked to stop first (then it is cancelled): whether it ran to its
        end."""
        task = asyncio.ensure_future(job)
        asked = asyncio.ensure_future(self.asked.wait())
        try:
            await asyncio.wait({task, asked}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            asked.cancel()
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return not task.cancelled()


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


async def _take_updates(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Start taking updates: polling, python-telegram-bot's webhook server, or (with the Mini
    App) the webhook on its server; tried again until Telegram answers."""
    assert app.updater is not None
    if settings.webhook_url and settings.webapp_url:
        await _set_webhook(app, settings)
    elif settings.webhook_url:
        await app.updater.start_webhook(**webhook_options(settings), bootstrap_retries=-1)
    else:

        def error_callback(exc: TelegramError) -> None:  # as Application.run_polling does
            app.create_task(app.process_error(error=exc, update=None))

        await app.updater.start_polling(
            allowed_updates=list(ALLOWED_UPDATES),
            timeout=settings.poll_timeout,
            bootstrap_retries=-1,
            error_callback=error_callback,
        )


async def set_webhook(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Tell Telegram the webhook (what `start_webhook` does) when the bot's own server takes it."""
    options = webhook_options(settings)
    await app.bot.set_webhook(
        url=options["webhook_url"],
        secret_token=options["secret_token"],
        allowed_updates=options["allowed_updates"],
    )


async def _set_webhook(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """`set_webhook`, tried again until Telegram answers (as run_webhook's bootstrap_retries=-1
    does)."""
    delay = 1.0
    while True:
        try:
            await set_webhook(app, settings)
            return
        except NetworkError as exc:
            log.debug("setWebhook: Telegram not reached (%s)", exc)
        await asyncio.sleep(delay)
        delay = min(START_RETRY_CAP, delay * 2)


async def _stop(app: Application, stopping: Stopping, initialized: bool) -> None:  # type: ignore[type-arg]
    """Stop taking updates, let the ones in hand finish (until the cut-off and AFTER_CUTOFF
    more), then close everything, the presenter's digests stored; one line about what was not
    sent."""
    cutoff = stopping.cutoff
    drain = asyncio.ensure_future(_drain(app, cutoff))
    try:
        await asyncio.wait_for(asyncio.shield(drain), SHUTDOWN_FLUSH + AFTER_CUTOFF)
    except TimeoutError:  # e.g. the database locked by another process: what is stored stays
        log.warning("stopping with updates still in hand (what they have stored stays)")
        drain.cancel()
        await asyncio.gather(drain, return_exceptions=True)
    except Exception:
        log.exception("stopping the updates failed")
    try:
        if app.post_shutdown is not None:
            await app.post_shutdown(app)  # the digests stored, the database closed
    finally:
        stopping.close()
        if initialized:
            await app.shutdown()
        elif isinstance(app.bot, FrapBot):  # Telegram never answered: PTB's shutdown skips
            await app.bot.shutdown_requests()  # the bot's HTTP clients
    line = cutoff.summary()
    if line is not None:
        log.warning("%s", line)
    log.info("stopped")


async def _drain(app: Application, cutoff: Cutoff) -> None:  # type: ignore[type-arg]
    """No new update; the ones in hand handled; the messages shown (or cut off)."""
    updater = app.updater
    if updater is not None and updater.running:
        # python-telegram-bot's last getUpdates tells Telegram the updates taken are handled;
        # Telegram down, it logs its failure with a traceback: here one line says it
        unconfirmed = _Unconfirmed(cutoff)
        logging.getLogger("telegram.ext.Updater").addFilter(unconfirmed)
        stop = asyncio.ensure_future(updater.stop())
        try:
            if not (await asyncio.wait({stop}, timeout=CONFIRM_WAIT))[0]:
                cutoff.unconfirmed = True  # Telegram hangs: no longer wait for it
                stop.cancel()
            await asyncio.gather(stop, return_exceptions=True)
        finally:
            logging.getLogger("telegram.ext.Updater").removeFilter(unconfirmed)
    if app.running:
        await app.stop()  # every update in hand handled
    service = app.bot_data.get("service")
    if service is not None:
        await service.presenter.flush()


class _Unconfirmed(logging.Filter):
    """Drops python-telegram-bot's log of its last getUpdates failing (with a traceback), and
    has the shutdown's summary say it."""

    def __init__(self, cutoff: Cutoff) -> None:
        super().__init__()
        self.cutoff = cutoff

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Error while calling `get_updates` one more time"):
            self.cutoff.unconfirmed = True
            return False
        return True
