# mypy: disable-error-code="method-assign,assignment,attr-defined"
"""The bot process of the load bench: the real bot (or a bare echo bot), instrumented.

Started by `bench/bot_load.py`; not meant to be run by hand. It builds the real Application with
`bot.app.build` (or a bare python-telegram-bot echo bot with the same builder settings), points it
at the fake Bot API server running in the bench's process, and answers commands on stdin with
one JSON line each on stdout:

- `snap`: cumulative CPU, RSS, counters, and the latency samples since the last `snap`;
- `profile_start` / `profile_stop PATH`: cProfile (thread CPU time) of the event loop thread;
- `quit`: stop like `python -m bot` does on SIGTERM (flush, close the database).

Instrumentation is done from here, without touching `bot/`:

- an update is "received" when the getUpdates response that carried it arrived;
- `Application.process_update` is wrapped to set a context variable while it runs;
  `Presenter.show` is wrapped to collect the slot tasks it schedules (or that already run and
  will pick up the new content) under that update. The update's latency ends when
  `process_update` has returned and all those tasks are done;
- every Bot API request is timed; the fake server stamps its own handler time into response
  headers (`X-Fake-T0`/`X-Fake-T1`, CLOCK_MONOTONIC, shared by both processes), so per update
  the union of the fake's handler intervals (and, as a bound, the union of whole request
  round trips) can be subtracted from the latency.

A request is timed from its start to its response headers: for the Frap bot (`bot.client.http.
AiohttpRequest`) with an aiohttp TraceConfig added to each AiohttpRequest it creates (about
15 µs of CPU per request), for the echo bot (stock python-telegram-bot, httpx) by wrapping
`httpx.AsyncHTTPTransport.handle_async_request`.
"""

from __future__ import annotations

import time

T_PROCESS = time.monotonic()  # as early as possible: before the heavy imports

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextvars  # noqa: E402
import cProfile  # noqa: E402
import gc  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import weakref  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update  # noqa: E402
from telegram.ext import (  # noqa: E402
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

T_IMPORTED = time.monotonic()

# Methods that create a new message: what Telegram's flood limits (and the fake's) count.
SEND_METHODS = frozenset(
    {
        "sendMessage",
        "sendDocument",
        "sendPhoto",
        "sendAudio",
        "sendVideo",
        "sendAnimation",
        "sendVoice",
        "sendVideoNote",
        "sendMediaGroup",
        "sendLocation",
        "sendVenue",
        "sendContact",
        "sendPoll",
        "sendDice",
        "sendSticker",
        "copyMessage",
        "forwardMessage",
    }
)


class MessagesOnlyLimiter(AIORateLimiter):
    """AIORateLimiter that throttles only new messages; edits and answers go straight out.

    Telegram's documented limits (and the fake's) count new messages only; the stock
    AIORateLimiter counts every request that names a chat, edits included.
    """

    async def process_request(
        self,
        callback: Any,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        if endpoint in SEND_METHODS:
            return await super().process_request(
                callback, args, kwargs, endpoint, data, rate_limit_args
            )
        return await callback(*args, **kwargs)


# ---- instrumentation ----


@dataclass(eq=False)
class UpdateRecord:
    """One update's timeline in the bot."""

    kind: str
    t_recv: float
    t_start: float
    own_task: asyncio.Task[Any] | None
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    t_handled: float = 0.0
    pending: int = 0
    finished: bool = False


CURRENT: contextvars.ContextVar[UpdateRecord | None] = contextvars.ContextVar(
    "bench_update", default=None
)


def _union(intervals: list[tuple[float, float]], lo: float, hi: float) -> float:
    """Total length of the union of intervals clipped to [lo, hi]."""
    total = 0.0
    end = lo
    for a, b in sorted(intervals):
        a, b = max(a, end), min(b, hi)
        if b > a:
            total += b - a
            end = b
    return total


class Instrument:
    """Counters and latency samples of the bot process."""

    def __init__(self) -> None:
        self.last_poll_arrival = time.monotonic()
        self.recv_at: dict[int, float] = {}
        # per task: (client t0, client t1, fake t0, fake t1) for every Bot API request
        self.intervals: weakref.WeakKeyDictionary[asyncio.Task[Any], list[tuple[float, ...]]] = (
            weakref.WeakKeyDictionary()
        )
        self.samples: list[tuple[str, float, float, float, float, float, float, float]] = []
        self.open: set[UpdateRecord] = set()  # updates not finished yet
        self.updates_started = 0
        self.updates_done = 0
        self.api_calls = 0
        self.api_by_method: dict[str, int] = {}
        self.deals_started = 0
        self.deals_finished = 0
        self.db_tx = 0  # write transactions (Jobs.transaction)
        self.db_reads = 0  # queries (Jobs.query)
        self.db_job_seconds = 0.0  # from handing a job to the database thread to its result
        self.db_calls: dict[str, int] = {}  # the storage parts' public methods called
        self.resume: dict[str, float] = {}
        self.check: dict[str, float] = {}
        self.gc_runs = 0  # cyclic garbage collections (a pause of the whole loop each)
        self.gc_seconds = 0.0
        self.gc_max = 0.0
        self._gc_start = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        pause = time.perf_counter() - self._gc_start
        self.gc_runs += 1
        self.gc_seconds += pause
        self.gc_max = max(self.gc_max, pause)

    # -- requests --

    def on_request(self, path: str, t0: float, t1: float, headers: Any) -> None:
        method = path.rsplit("/", 1)[-1]
        if method == "getUpdates":
            self.last_poll_arrival = t1
            return
        self.api_calls += 1
        self.api_by_method[method] = self.api_by_method.get(method, 0) + 1
        task = asyncio.current_task()
        if task is None:
            return
        try:
            f0 = float(headers.get("x-fake-t0", "nan"))
            f1 = float(headers.get("x-fake-t1", "nan"))
        except ValueError:
            f0 = f1 = float("nan")
        self.intervals.setdefault(task, []).append((t0, t1, f0, f1))

    # -- updates --

    def begin(self, update: object) -> UpdateRecord:
        now = time.monotonic()
        update_id = getattr(update, "update_id", None)
        t_recv = self.recv_at.pop(update_id, now) if update_id is not None else now
        self.updates_started += 1
        record = UpdateRecord(_kind(update), t_recv, now, asyncio.current_task())
        self.open.add(record)
        return record

    def handled(self, record: UpdateRecord) -> None:
        record.t_handled = time.monotonic()
        pending = [task for task in record.tasks if not task.done()]
        record.pending = len(pending)
        if not pending:
            self._finish(record)
            return

        def done(_: asyncio.Task[Any]) -> None:
            record.pending -= 1
            if record.pending == 0:
                self._finish(record)

        for task in pending:
            task.add_done_callback(done)

    def _finish(self, record: UpdateRecord) -> None:
        record.finished = True
        t_end = time.monotonic()
        client: list[tuple[float, float]] = []
        fake: list[tuple[float, float]] = []
        tasks = [*record.tasks, *([record.own_task] if record.own_task else [])]
        for task in tasks:
            for c0, c1, f0, f1 in self.intervals.get(task, ()):
                client.append((c0, c1))
                if f0 == f0 and f1 == f1:  # not NaN
                    fake.append((f0, f1))
        total = t_end - record.t_recv
        minus_fake = total - _union(fake, record.t_recv, t_end)
        minus_http = total - _union(client, record.t_recv, t_end)
        queued = record.t_start - record.t_recv
        # to the response of the last request it caused (not the bookkeeping after it)
        last = max((c1 for c0, c1 in client if record.t_recv <= c0 <= t_end), default=t_end)
        to_reply = last - record.t_recv - _union(fake, record.t_recv, last)
        handler = (record.t_handled or t_end) - record.t_recv
        sample = (
            record.kind,
            record.t_recv,
            total,
            minus_fake,
            minus_http,
            queued,
            to_reply,
            handler,
        )
        self.samples.append(sample)
        self.updates_done += 1
        self.open.discard(record)
        record.tasks.clear()


INS = Instrument()


def _kind(update: object) -> str:
    if isinstance(update, Update):
        if update.callback_query is not None:
            data = update.callback_query.data or "?"
            return "press:" + data.split(":", 1)[0]
        if update.message is not None and update.message.text:
            return "cmd:" + update.message.text.split()[0].lstrip("/").split("@")[0]
        if update.my_chat_member is not None:
            return "member"
    return "other"


def _deep_size(obj: Any, seen: set[int]) -> int:
    """Bytes held by `obj` and what it references (not shared interned/small objects twice)."""
    if id(obj) in seen or obj is None or isinstance(obj, (bool, int, float, type)):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(_deep_size(k, seen) + _deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, (list, tuple, set, frozenset)):
        size += sum(_deep_size(item, seen) for item in obj)
    elif isinstance(obj, (str, bytes)) or asyncio.isfuture(obj):
        pass
    else:
        if hasattr(obj, "__dict__"):
            size += _deep_size(vars(obj), seen)
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if isinstance(name, str) and name != "__weakref__" and hasattr(obj, name):
                    size += _deep_size(getattr(obj, name), seen)
    return size


def _slot_bytes(service: Any, sample: int = 60) -> float:
    """Average bytes a presenter slot holds (its latest content), from the newest `sample`."""
    slots = list(service.presenter._slots.values())[-sample:]
    if not slots:
        return 0.0
    return sum(_deep_size(slot, set()) for slot in slots) / len(slots)


def _proc_status() -> dict[str, int]:
    """VmRSS and VmHWM (peak RSS) of this process, in KiB."""
    found: dict[str, int] = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":", 1)
                found[key] = int(value.split()[0])
    return found


def install_hooks() -> None:
    """Wrap the library functions the measurements need (class level, before build)."""
    original_request = httpx.AsyncHTTPTransport.handle_async_request

    async def handle_async_request(
        self: httpx.AsyncHTTPTransport, request: httpx.Request
    ) -> httpx.Response:
        t0 = time.monotonic()
        response = await original_request(self, request)
        INS.on_request(request.url.path, t0, time.monotonic(), response.headers)
        return response

    httpx.AsyncHTTPTransport.handle_async_request = handle_async_request

    original_process = Application.process_update

    async def process_update(self: Application, update: object) -> None:  # type: ignore[type-arg]
        record = INS.begin(update)
        token = CURRENT.set(record)
        try:
            await original_process(self, update)
        finally:
            CURRENT.reset(token)
            INS.handled(record)

    Application.process_update = process_update


def _counted(name: str, method: Any) -> Any:
    async def counted(*args: Any, **kwargs: Any) -> Any:
        INS.db_calls[name] = INS.db_calls.get(name, 0) + 1
        return await method(*args, **kwargs)

    return counted


def _request_timing() -> Any:
    """aiohttp request tracing that reports each request to INS, as the httpx hook does."""
    import aiohttp  # here: the echo bot does not load it (its start-up and memory are the baseline)

    async def start(session: Any, context: Any, params: Any) -> None:
        context.t0 = time.monotonic()

    async def end(session: Any, context: Any, params: Any) -> None:
        INS.on_request(params.url.path, context.t0, time.monotonic(), params.response.headers)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    return trace


def install_bot_hooks() -> None:
    """Hooks into the Frap bot: its requests, presenter slot tasks, deals started and finished,
    resume time, its storage's jobs."""
    from bot.client.http import AiohttpRequest
    from bot.presenter import Presenter
    from bot.service import GameService
    from bot.storage import Storage
    from bot.storage.chats import Chats
    from bot.storage.db import Jobs
    from bot.storage.history import History
    from bot.storage.league import League
    from bot.storage.messages import Messages
    from bot.storage.money import Money
    from bot.storage.tables import Tables

    original_request_init = AiohttpRequest.__init__
    timing = _request_timing()

    def request_init(self: AiohttpRequest, *args: Any, **kwargs: Any) -> None:
        kwargs["trace_configs"] = [*kwargs.get("trace_configs", ()), timing]
        original_request_init(self, *args, **kwargs)

    AiohttpRequest.__init__ = request_init

    original_show = Presenter.show

    def show(self: Presenter, name: str, chat_id: int, content: Any, **options: Any) -> None:
        original_show(self, name, chat_id, content, **options)
        record = CURRENT.get()
        if record is not None and not record.finished:
            slot = self._slots.get(name)
            if slot is not None and slot.task is not None and not slot.task.done():
                record.tasks.add(slot.task)

    Presenter.show = show

    # Deals started and finished, whatever the game: every kind of table writes a deal's start
    # and its last step through storage (a redeal is a new deal; a voided one never finishes).
    original_start_deal, original_save_step = Tables.start_deal, Tables.save_step

    async def start_deal(self: Tables, *args: Any, **kwargs: Any) -> int:
        deal_id = await original_start_deal(self, *args, **kwargs)
        INS.deals_started += 1
        return deal_id

    async def save_step(self: Tables, *args: Any, finished: bool = False, **kwargs: Any) -> None:
        await original_save_step(self, *args, finished=finished, **kwargs)
        INS.deals_finished += finished

    Tables.start_deal = start_deal
    Tables.save_step = save_step

    original_resume = GameService.resume

    async def resume(self: GameService) -> int:
        INS.resume["t0"] = time.monotonic()
        tables = await original_resume(self)
        INS.resume["t1"] = time.monotonic()
        INS.resume["tables"] = tables
        return tables

    GameService.resume = resume

    original_write, original_all = Jobs.transaction, Jobs.query

    async def write(self: Jobs, *args: Any) -> Any:
        INS.db_tx += 1
        t0 = time.monotonic()
        try:
            return await original_write(self, *args)
        finally:
            INS.db_job_seconds += time.monotonic() - t0

    async def all_(self: Jobs, *args: Any) -> Any:
        INS.db_reads += 1
        t0 = time.monotonic()
        try:
            return await original_all(self, *args)
        finally:
            INS.db_job_seconds += time.monotonic() - t0

    Jobs.transaction = write
    Jobs.query = all_

    # every part's public methods (bot/storage/), not the job runner's (counted above)
    for part in (Chats, Tables, Money, History, League, Messages):
        for name, method in inspect.getmembers(part, inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(part, name, _counted(name, method))

    original_check = Storage.check

    async def check(self: Storage) -> Any:
        INS.check["t0"] = time.monotonic()
        problems = await original_check(self)
        INS.check["t1"] = time.monotonic()
        return problems

    Storage.check = check


# ---- the two bots ----


def apply_tweaks(tweaks: list[str], mode: str) -> None:
    """What-if changes, off by default, to size a fix before making it in the project.

    - `pool=N`: the connection pool size for the bot's Bot API calls: the Frap bot's
      `bot.app.REQUEST_POOL_SIZE` (64), the echo bot's python-telegram-bot setting (256).
    - `nogc-freeze`: the Frap bot without `gc.freeze()` after start-up (see `bot.app`).
    - `gc-threshold=N`: the Frap bot's garbage collector passes every N net allocations
      (`bot.app.GC_THRESHOLD`, 10,000; Python's default is 700).
    - `echo-aiohttp`: the echo bot's requests over the Frap bot's transport
      (`bot.client.http.AiohttpRequest`) instead of python-telegram-bot's httpx: the same client on
      both sides, to see what the game itself costs beyond a bare bot.
    """
    for tweak in tweaks:
        name, _, value = tweak.partition("=")
        if name == "pool":
            _pool_size(int(value), mode)
        elif name == "nogc-freeze":
            gc.freeze = lambda: None
        elif name == "gc-threshold" and mode == "frap":
            import bot.app

            bot.app.GC_THRESHOLD = int(value)
        elif name == "echo-aiohttp":
            if mode == "echo":
                _echo_over_aiohttp()
        elif name:
            raise SystemExit(f"unknown tweak {tweak!r}")


def _echo_over_aiohttp() -> None:
    from bot.client.http import AiohttpRequest

    original_build = ApplicationBuilder.build
    timing = _request_timing()

    def build(self: ApplicationBuilder) -> Any:  # type: ignore[type-arg]
        self.request(AiohttpRequest(connection_pool_size=64, trace_configs=[timing]))
        self.get_updates_request(AiohttpRequest(connection_pool_size=1, trace_configs=[timing]))
        return original_build(self)

    ApplicationBuilder.build = build


def _pool_size(size: int, mode: str) -> None:
    if mode == "frap":
        import bot.app

        bot.app.REQUEST_POOL_SIZE = size
        return
    original_build = ApplicationBuilder.build

    def build(self: ApplicationBuilder) -> Any:  # type: ignore[type-arg]
        self.connection_pool_size(size)
        return original_build(self)

    ApplicationBuilder.build = build


def make_limiter(args: argparse.Namespace) -> AIORateLimiter:
    """The rate limiter: `bot.app.build`'s parameters, with the bench's overrides."""
    kind = MessagesOnlyLimiter if args.limiter == "messages-only" else AIORateLimiter
    return kind(
        overall_max_rate=args.overall_rate,
        overall_time_period=1,
        group_max_rate=args.group_rate,
        group_time_period=60,
        max_retries=3,
    )


def build_frap(args: argparse.Namespace) -> Application:  # type: ignore[type-arg]
    """The real bot from `bot.app.build`, its limiter swapped if the bench asks."""
    import bot.app
    from bot.config import Settings

    install_bot_hooks()
    if args.limiter != "bot":
        # Compare with another limiter: replace the class `build` calls.
        def limiter(**kwargs: Any) -> AIORateLimiter:
            return make_limiter(args)

        bot.app.SendLimiter = limiter  # type: ignore[assignment,misc]
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        bot_token=args.token,
        bot_api_url=args.base_url,
        bot_file_api_url=args.file_url,
        db_path=args.db,
        turn_timeout=args.turn_timeout,
        group_messages_per_minute=args.group_rate,
        messages_per_second=int(args.overall_rate),  # newer Settings; ignored by older ones
        poll_timeout=args.poll_timeout,
        log_level="WARNING",
    )
    return bot.app.build(settings, rng=random.Random(args.seed))


def build_echo(args: argparse.Namespace) -> Application:  # type: ignore[type-arg]
    """A bare echo bot on the same builder settings: commands get a reply with one button,
    a press gets answerCallbackQuery and an edit of its message (a counter, so never the same)."""

    def keyboard(n: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton(f"press {n}", callback_data=f"e:{n}")]])

    async def command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is not None:
            await message.reply_text("pong", reply_markup=keyboard(0))

    async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        n = int((query.data or "e:0").split(":")[1]) + 1
        await query.answer()
        await query.edit_message_text(
            f"pressed <b>{n}</b> times", parse_mode="HTML", reply_markup=keyboard(n)
        )

    app = (
        ApplicationBuilder()
        .token(args.token)
        .base_url(args.base_url)
        .base_file_url(args.file_url)
        .rate_limiter(make_limiter(args))
        .concurrent_updates(True)
        .build()
    )
    app.add_handler(CommandHandler(["start", "newgame", "ping"], command))
    app.add_handler(CallbackQueryHandler(press))
    return app


# ---- the process ----


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _snap(app: Application) -> dict[str, Any]:  # type: ignore[type-arg]
    times = os.times()
    samples, INS.samples = INS.samples, []
    service = app.bot_data.get("service")
    return {
        "t": time.monotonic(),
        "cpu": times.user + times.system,
        **_proc_status(),
        "updates_started": INS.updates_started,
        "updates_done": INS.updates_done,
        "api_calls": INS.api_calls,
        "api_by_method": dict(INS.api_by_method),
        "db_tx": INS.db_tx,
        "db_reads": INS.db_reads,
        "db_job_seconds": INS.db_job_seconds,
        "db_calls": dict(INS.db_calls),
        "deals_started": INS.deals_started,
        "deals_finished": INS.deals_finished,
        "errors": app.bot_data.get("errors", 0),
        "gc_runs": INS.gc_runs,
        "gc_seconds": INS.gc_seconds,
        "gc_max": INS.gc_max,
        "tasks": len(asyncio.all_tasks()),
        "live_tables": len(service._live) if service else 0,
        "slots": len(service.presenter._slots) if service else 0,
        "pings_as_edits": service.presenter.renewals_skipped if service else 0,
        "slot_bytes": _slot_bytes(service) if service else 0.0,
        "samples": [[k, r, *(round(x, 6) for x in rest)] for k, r, *rest in samples],
        "open_recv": [record.t_recv for record in INS.open],
    }


async def run(args: argparse.Namespace) -> None:
    """Start the bot like `python -m bot`, answer the bench's commands, stop on `quit`."""
    install_hooks()
    apply_tweaks([t for t in args.tweak.split(",") if t], args.mode)
    app = build_frap(args) if args.mode == "frap" else build_echo(args)
    t_built = time.monotonic()
    original_put = app.update_queue.put

    async def put(update: object) -> None:
        update_id = getattr(update, "update_id", None)
        if update_id is not None:
            INS.recv_at[update_id] = INS.last_poll_arrival
        await original_put(update)

    app.update_queue.put = put
    await app.initialize()
    t_initialized = time.monotonic()
    if app.post_init is not None:
        await app.post_init(app)
    t_post_init = time.monotonic()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(
        poll_interval=0,
        timeout=args.poll_timeout,
        allowed_updates=["message", "callback_query", "my_chat_member"],
    )
    _emit(
        {
            "event": "ready",
            "pid": os.getpid(),
            "t_process": T_PROCESS,
            "t_imported": T_IMPORTED,
            "t_built": t_built,
            "t_initialized": t_initialized,
            "t_post_init": t_post_init,
            "t_polling": time.monotonic(),
            "resume": INS.resume,
            "check": INS.check,
            **_proc_status(),
        }
    )
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    profiler: cProfile.Profile | None = None

    async def commands() -> None:
        nonlocal profiler
        while line := (await reader.readline()).decode().strip():
            command, _, arg = line.partition(" ")
            if command == "snap":
                _emit(_snap(app))
            elif command == "profile_start":
                # CPU time of the event-loop thread: wall time would count GIL waits
                # (the aiosqlite worker thread) as the cost of whatever was waiting.
                profiler = cProfile.Profile(time.thread_time)
                profiler.enable()
                _emit({"ok": True})
            elif command == "profile_stop":
                if profiler is not None:
                    profiler.disable()
                    profiler.dump_stats(arg)
                    profiler = None
                _emit({"ok": True})
            elif command == "quit":
                break
            else:
                _emit({"error": f"unknown command {command!r}"})
        stop.set()

    reader_task = asyncio.create_task(commands())
    await stop.wait()
    reader_task.cancel()
    await app.updater.stop()
    await app.stop()
    if app.post_shutdown is not None:
        await app.post_shutdown(app)
    await app.shutdown()
    _emit({"event": "stopped", **_snap(app)})


def main() -> None:
    """Parse the bench's arguments and run the bot until told to quit."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("frap", "echo"), default="frap")
    parser.add_argument("--token", required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--file-url", required=True)
    parser.add_argument("--db", default=":memory:")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-timeout", type=int, default=90)
    parser.add_argument("--poll-timeout", type=int, default=10)
    parser.add_argument("--overall-rate", type=float, default=30)
    parser.add_argument("--group-rate", type=int, default=20)
    parser.add_argument("--limiter", choices=("bot", "stock", "messages-only"), default="bot")
    parser.add_argument("--tweak", default="", help="what-ifs: pool=N (comma-separated)")
    args = parser.parse_args()
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    logging.basicConfig(
        level=logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
