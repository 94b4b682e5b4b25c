"""Wires the bot together: settings → storage → presenter → game service → handlers."""

from __future__ import annotations

import functools
import gc
import logging
import random
import time
from collections import deque
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import NetworkError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from locales import LANGUAGES, t

from . import metrics
from .client.api import FrapBot
from .client.chats import TelegramChats
from .client.cutoff import Cutoff, ShuttingDown
from .client.http import AiohttpRequest
from .client.ratelimit import SendLimiter
from .config import Settings
from .handlers import Handlers
from .health import Heartbeat, healthz
from .metrics import MetricsServer, Telegram
from .presenter import Presenter
from .service import GameService
from .storage import Problem, Storage
from .web.opening import Opener
from .web.server import WebServer

log = logging.getLogger(__name__)

GROUP_COMMANDS = (
    "newgame",
    "join",
    "leave",
    "startgame",
    "stopgame",
    "pulya",
    "pot",
    "balance",
    "top",
    "stats",
    "history",
    "review",
    "rules",
    "settings",
    "export",
    "kick",
    "newseason",
    "help",
)
PRIVATE_COMMANDS = ("start", "help", "language", "pings", "newgame", "stopgame")
# The updates the bot asks for: chat_member (sent only to admin bots, and only when asked for)
# tells it a player left the group, besides the left_chat_member service message.
ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member", "chat_member")
# Connections for the bot's Bot API calls (getUpdates has its own one). Every table's messages
# are edited concurrently, so a busy bot has dozens of calls in flight.
REQUEST_POOL_SIZE = 64
GC_THRESHOLD = 10_000  # net allocations between the garbage collector's youngest passes
SHUTDOWN_FLUSH = 5.0  # seconds the messages get to show the latest state at shutdown
# update_ids remembered as handled: Telegram sends an update again when it thinks the first
# delivery failed (a webhook's answer lost or late), and ids grow, so the recent ones suffice
RECENT_UPDATES = 4096


def build(settings: Settings, *, rng: random.Random | None = None) -> Application:  # type: ignore[type-arg]
    """The python-telegram-bot Application for these settings (not yet started).

    `rng` shuffles the decks (tests pass a seeded one; by default the system's randomness).
    """
    cutoff = Cutoff()  # the shutdown's end of every Telegram call (bot/client/cutoff.py)
    limiter = SendLimiter(
        per_second=settings.messages_per_second,
        per_group_minute=settings.group_messages_per_minute,
        cutoff=cutoff,
    )
    telegram = Telegram()
    bot = FrapBot(
        settings.bot_token.get_secret_value(),
        base_url=settings.bot_api_url,
        base_file_url=settings.file_api_url,
        request=AiohttpRequest(connection_pool_size=REQUEST_POOL_SIZE, telegram=telegram),
        get_updates_request=AiohttpRequest(connection_pool_size=1, telegram=telegram),
        rate_limiter=limiter,
    )
    app = (
        ApplicationBuilder()
        .application_class(FrapApplication)
        .bot(bot)
        .concurrent_updates(True)
        .post_init(_post_init(settings, rng))
        .post_shutdown(_post_shutdown)
        .build()
    )
    app.bot_data["telegram"] = telegram
    app.bot_data["cutoff"] = cutoff
    return app


class FrapApplication(Application):  # type: ignore[type-arg]
    """PTB's Application, timing each update it handles (bot/metrics.py). (/healthz is served on
    METRICS_PORT, and by the Mini App's server when it runs: PTB's own webhook server takes no
    routes of ours through its public API.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handled = RecentIds(RECENT_UPDATES)

    async def process_update(self, update: object) -> None:
        if isinstance(update, Update) and not self.handled.add(update.update_id):
            log.debug("update %s skipped: handled already", update.update_id)
            return
        began = time.perf_counter()
        message = update.message if isinstance(update, Update) else None
        if message is not None and isinstance(self.bot, FrapBot):
            self.bot.seen(message.chat_id, message.message_id)  # no duplicate of the bot's
        try:
            await super().process_update(update)
        finally:
            if isinstance(update, Update):
                metrics.observe_update(time.perf_counter() - began)


class RecentIds:
    """The last `size` ids added, for telling an id seen before (a bounded set)."""

    def __init__(self, size: int) -> None:
        self._order: deque[int] = deque()
        self._ids: set[int] = set()
        self.size = size

    def add(self, value: int) -> bool:
        """Remember `value`: False if it is remembered already."""
        if value in self._ids:
            return False
        self._ids.add(value)
        self._order.append(value)
        if len(self._order) > self.size:
            self._ids.discard(self._order.popleft())
        return True


async def prepare(app: Application, settings: Settings) -> Heartbeat:  # type: ignore[type-arg]
    """What the bot sets up before Telegram first answers (it may be down for long): the database,
    opened and checked (StartRefused on a problem, unless forced), the heartbeat, and the
    servers of /healthz, /metrics and the Mini App's page, which answer 503 with the reason
    ("starting: Telegram unreachable") until `post_init` has resumed the tables. Once only:
    `post_init` calls it if the caller did not."""
    if "heartbeat" in app.bot_data:
        heartbeat: Heartbeat = app.bot_data["heartbeat"]
        return heartbeat
    storage = await Storage.open(
        settings.db_path,
        lang=settings.default_language,
        ante=settings.default_ante,
        turn_timeout=settings.turn_timeout,
        busy_timeout=settings.db_busy_timeout,
    )
    problems = await storage.check()
    if problems and not settings.force_start:  # no play on a broken ledger
        await storage.close()
        raise StartRefused(problems)
    for problem in problems:  # started with the override
        log.error("storage check failed: %s", problem.line())
    app.bot_data["storage"] = storage
    heartbeat = app.bot_data["heartbeat"] = Heartbeat(storage, app.bot_data["telegram"], settings)
    heartbeat.start()
    if settings.metrics_port is not None:
        health = functools.partial(healthz, heartbeat)
        server = MetricsServer(health, settings.metrics_listen, settings.metrics_port)
        await server.start()
        app.bot_data["metrics_server"] = server
    if settings.webapp_url:  # the Mini App (and, in webhook mode, the webhook)
        web = app.bot_data["web"] = WebServer(app, settings, heartbeat=heartbeat)
        await web.start()
    return heartbeat


def _post_init(settings: Settings, rng: random.Random | None):  # type: ignore[no-untyped-def]
    async def post_init(app: Application) -> None:  # type: ignore[type-arg]
        heartbeat = await prepare(app, settings)
        storage = heartbeat.storage
        presenter = Presenter(app.bot, storage, app.bot_data["cutoff"])
        app.bot_data["telegram"].on_back.append(presenter.wake)
        service = GameService(
            storage,
            presenter,
            app.bot.username,
            rng,
            lobby_timeout=settings.lobby_timeout,
            away_delay=settings.away_delay,
            computer_pause=(settings.computer_pause_min, settings.computer_pause_max),
            computer_workers=settings.computer_workers,
            computer_broker=settings.computer_broker,
            computer_deadline=settings.computer_deadline,
            computer_secret=(
                settings.computer_secret.get_secret_value() if settings.computer_secret else ""
            ),
            computer_queue_max=settings.computer_queue_max,
        )
        app.bot_data["service"] = service
        tables = app.bot_data["open_tables"] = service.open_games
        metrics.OPEN_TABLES.sources.append(tables)
        # the handlers, whose handle_press another front end's presses take too (a Mini App)
        chats = TelegramChats(app.bot, presenter.migrated)
        handlers = app.bot_data["handlers"] = Handlers(service, chats, settings.zone)
        register(app, handlers)
        if settings.webapp_url:  # its server started by `prepare`
            service.chat.ways_in.append(
                Opener(settings.webapp_url, app.bot.username, settings.webapp_short_name)
            )
            app.bot_data["web"].attach(service, handlers)
        resumed = await service.resume()
        log.info("resumed %d open tables", resumed)
        await _set_commands(app)
        _tune_gc()
        heartbeat.stage = None  # ready: /healthz says whether Telegram answers and the
        # heartbeat is written

    return post_init


class StartRefused(Exception):
    """The start-up check found a problem and no override was given."""

    def __init__(self, problems: list[Problem]) -> None:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(
            f"refusing to start: {problems[0].line()}{more}; see `python -m bot check`, "
            "or start with --force (FORCE_START=1) to play on anyway"
        )
        self.problems = problems


def _tune_gc() -> None:
    """The cyclic garbage collector, for a long-running bot: everything loaded at
    start-up lives as long as the bot, so it leaves the collector's passes (`freeze`); and
    nearly all a move allocates is freed by reference counting, so a pass every 700 net
    allocations (Python's default) was ~30 passes a second at 200 busy tables, each pausing
    every table (up to tens of ms), for almost nothing to collect; with a pass every 10,000,
    bench/bot_load.py's pace scenario saw one pass in 30 s."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    """Close what `prepare` and `post_init` opened: the presenter's digests not yet stored are
    written before the database is closed."""
    service: GameService | None = app.bot_data.get("service")
    if "open_tables" in app.bot_data:
        metrics.OPEN_TABLES.sources.remove(app.bot_data["open_tables"])
    if "metrics_server" in app.bot_data:
        await app.bot_data["metrics_server"].stop()
    if "heartbeat" in app.bot_data:
        await app.bot_data["heartbeat"].stop()
    if "web" in app.bot_data:
        await app.bot_data["web"].stop()
    if service is not None:
        await service.close()  # no timer may fire on a closed database
        # SIGTERM (docker stop) waits 10 s before SIGKILL: bot.updates gives the messages
        # SHUTDOWN_FLUSH of them, then cuts Telegram off, so this flush is quick
        await service.presenter.close(timeout=SHUTDOWN_FLUSH)
    if "storage" in app.bot_data:
        await app.bot_data["storage"].close()


def register(app: Application, handlers: Handlers) -> None:  # type: ignore[type-arg]
    """Map commands and buttons to handlers: the group commands by their names in the menu
    (`GROUP_COMMANDS`, each answered by the handlers' `commands` but /help, which answers
    anywhere), the rest by the part that answers them."""
    private, settings, members = handlers.private, handlers.settings, handlers.members
    app.add_handler(CommandHandler("start", private.start))
    app.add_handler(CommandHandler("help", private.help))
    app.add_handler(CommandHandler("language", settings.language))
    app.add_handler(CommandHandler("pings", settings.pings))
    for name in GROUP_COMMANDS:
        if name != "help":
            app.add_handler(CommandHandler(name, handlers.commands[name]))
    app.add_handler(CallbackQueryHandler(handlers.presses.button))
    app.add_handler(ChatMemberHandler(members.my_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, members.migrated))
    app.add_handler(ChatMemberHandler(members.member_left, ChatMemberHandler.CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, members.member_left))
    app.add_handler(MessageHandler(filters.StatusUpdate.NEW_CHAT_MEMBERS, members.member_joined))
    app.add_error_handler(_on_error)


async def _on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log a handler's unexpected exception (and count it, so tests can insist on none).

    Polling's own trouble (a 5xx, a time-out, no network: python-telegram-bot retries it) is no
    bug: bot.metrics.Telegram has logged it in one line already; nor is a call the shutdown
    ended (bot/client/cutoff.py)."""
    if update is None and isinstance(context.error, NetworkError):
        return
    if isinstance(context.error, ShuttingDown):  # counted for the shutdown's summary
        return
    log.error(
        "unhandled error for update %s", getattr(update, "update_id", "?"), exc_info=context.error
    )
    context.bot_data["errors"] = context.bot_data.get("errors", 0) + 1


async def _set_commands(app: Application) -> None:  # type: ignore[type-arg]
    """The commands' menu in every language; Telegram failing meanwhile leaves the last start's
    (one line: bot.metrics.Telegram has said whether Telegram is down)."""
    try:
        await _send_commands(app)
    except (NetworkError, ShuttingDown) as exc:
        log.warning("the commands' menu was not updated: %s", exc)


async def _send_commands(app: Application) -> None:  # type: ignore[type-arg]
    for lang in LANGUAGES:
        code = None if lang == "en" else lang
        group = [BotCommand(c, t(lang, f"cmd.{c}")) for c in GROUP_COMMANDS]
        private = [BotCommand(c, t(lang, f"cmd.{c}")) for c in PRIVATE_COMMANDS]
        await app.bot.set_my_commands(
            group, scope=BotCommandScopeAllGroupChats(), language_code=code
        )
        await app.bot.set_my_commands(
            private, scope=BotCommandScopeAllPrivateChats(), language_code=code
        )
