"""Load bench of the Telegram bot: the real bot against the fake Bot API, many tables.

Run: `python bench/bot_load.py` (all scenarios, about 4½ minutes), or e.g.
`python bench/bot_load.py --scenarios throughput --tables 20 --seconds 20 --py-spy`.

Processes: the bot runs alone in a child process (`bench/bot_runner.py`: `bot.app.build` plus
instrumentation), so its CPU and memory are its own; the fake Bot API server (`tests/fakebot`)
and the scripted players run in this process. Each table has four players who press random
legal buttons on their private control messages (one press in flight per table).

Scenarios:
- throughput: `--tables` tables acting as fast as the bot answers, for `--seconds` after
  `--warmup` (`--profile`: cProfile, `--py-spy`: py-spy of the bot process afterwards, for
  `--profile-seconds`). Rate limits are relaxed here (the bot's AIORateLimiter to 10^6/s
  overall and per group, the fake's flood control likewise): this scenario measures CPU, not
  Telegram's limits.
- pace: `--pace-tables` tables at one action per `--pace-interval` seconds per table, with the
  real limits (20 new messages per group per minute, 30 per second; the bot's own limiter as
  `bot.app.build` sets it). The tables are opened and dealt first with relaxed limits by one bot
  process, which is stopped; a second bot process started with the real limits resumes them;
  each table then starts playing at a random offset within `--stagger` seconds, and the
  figures are taken over the next `--pace-seconds`; updates received then and still unfinished
  `--drain` seconds after the players stop count as infinitely late. 429s are counted over the
  whole run of the second process. `--pace-limiter messages-only` swaps in a bench-side
  limiter that throttles only new messages (edits go straight out), to size that change.
- startup: a database with `--startup-tables` running tables (built by the bot's GameService
  with a stub Telegram, `bench/startup_db.py`); the time from spawning the bot process until
  `GameService.resume()` has returned. Memory per table = RSS after resuming minus RSS of the
  same bot started on an empty database, divided by the tables.

The same throughput and pace runs are made with a bare python-telegram-bot echo bot (same
builder settings and rate limiter; a press is answered with answerCallbackQuery plus an edit,
a command with a reply).

Latency: from the arrival of the getUpdates response that carried the update to the moment the
handler has returned and every presenter slot task it scheduled is done. "minus fake" subtracts
the union of the fake server's own handler intervals (stamped into response headers) on that
update's requests; "minus HTTP" subtracts the union of the whole request round trips (a lower
bound for the bot's own part; it also removes client-side HTTP work); "to the last reply" ends
at the response of the last request the update caused, before the presenter's bookkeeping.

The Frap bot sends its Bot API requests with aiohttp (`bot.client.http.AiohttpRequest`); the echo
bot is stock python-telegram-bot with its default httpx transport, the baseline.

`--tweak` (off by default; see bench/bot_runner.py) applies what-if changes inside the bot
processes, to size fixes without editing bot/: `pool=N` (the connection pool size),
`nogc-freeze` (no `gc.freeze()` after start-up), `gc-threshold=N` (the collector's pace),
`echo-aiohttp` (the echo bot on the Frap bot's HTTP client instead of python-telegram-bot's
httpx).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
for path in (str(ROOT), str(BENCH)):
    if path not in sys.path:
        sys.path.insert(0, path)

os.environ.setdefault("PTB_TIMEDELTA", "true")

import spy_report  # noqa: E402
import startup_db  # noqa: E402
from load_world import (  # noqa: E402
    FakeSide,
    Table,
    Tally,
    World,
    open_echo_table,
    open_frap_table,
    play_echo,
    play_frap,
)

from bot.storage import Storage  # noqa: E402
from tests.fakebot import FakeTelegram  # noqa: E402

RUNNER = BENCH / "bot_runner.py"
RELAXED = 1_000_000
MIN_DEALS = 10  # per-deal figures from fewer deals are not reported as a verdict
KB = 1024


# ---- the bot process ----


class BotProcess:
    """`bench/bot_runner.py` as a child process, talking JSON lines over stdin/stdout."""

    def __init__(
        self,
        tg: FakeTelegram,
        mode: str,
        db: Path,
        log: Path,
        *,
        relaxed: bool,
        limiter: str = "bot",
        seed: int = 1,
        tweak: str = "",
    ) -> None:
        self.args = [
            sys.executable,
            str(RUNNER),
            "--mode",
            mode,
            "--token",
            tg.token,
            "--base-url",
            tg.base_url,
            "--file-url",
            tg.base_file_url,
            "--db",
            str(db),
            "--seed",
            str(seed),
            "--limiter",
            limiter,
            "--tweak",
            tweak,
            "--overall-rate",
            str(RELAXED if relaxed else 30),
            "--group-rate",
            str(RELAXED if relaxed else 20),
        ]
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self.t_spawn = 0.0
        self.ready: dict[str, Any] = {}

    async def start(self, timeout: float = 120.0) -> dict[str, Any]:
        """Spawn the bot and wait until it polls; returns its `ready` report."""
        env = {**os.environ, "PTB_TIMEDELTA": "true", "PYTHONPATH": str(ROOT)}
        with self.log.open("ab") as out:
            self.t_spawn = time.monotonic()
            self.proc = await asyncio.create_subprocess_exec(
                *self.args,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=out,
                env=env,
                limit=1 << 28,
            )
        self.ready = await self._read(timeout)
        if self.ready.get("event") != "ready":
            raise RuntimeError(f"the bot did not start: {self.ready} (see {self.log})")
        return self.ready

    async def _read(self, timeout: float = 60.0) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"the bot process ended (see {self.log})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    async def command(self, text: str) -> dict[str, Any]:
        """Send one command, return its answer."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        await self.proc.stdin.drain()
        return await self._read()

    async def snap(self) -> dict[str, Any]:
        """Cumulative counters, RSS, and the latency samples since the last snap."""
        return await self.command("snap")

    async def quit(self) -> dict[str, Any]:
        """Stop the bot cleanly; returns its last snap."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(b"quit\n")
        await self.proc.stdin.drain()
        last = await self._read(120.0)
        await self.proc.wait()
        return last


# ---- figures ----


@dataclass
class Window:
    """What the bot and the fake did between two snaps."""

    before: dict[str, Any]
    after: dict[str, Any]
    tally: Tally
    presses: int
    driver_cpu: float
    samples: list[list[Any]] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return float(self.after["t"] - self.before["t"])

    def delta(self, key: str) -> float:
        return float(self.after[key] - self.before[key])

    @property
    def updates(self) -> float:
        return self.delta("updates_started")

    @property
    def cpu_per_update(self) -> float:
        return self.delta("cpu") / max(1.0, self.updates)

    @property
    def deals(self) -> float:
        return self.delta("deals_finished")

    unfinished: int = 0  # updates received in the window still not done after draining

    def take(self, snap: dict[str, Any]) -> None:
        """Keep the samples of updates received during the window."""
        t0, t1 = self.before["t"], self.after["t"]
        self.samples += [s for s in snap["samples"] if t0 <= s[1] < t1]

    def latency(self, column: int, q: float) -> float:
        """Quantile `q` of a latency column (2 total, 3 minus fake, 4 minus HTTP, 5 queued,
        6 to the last reply's response minus fake, 7 until the handler returned);
        updates still unfinished count as infinitely late."""
        values = sorted(s[column] for s in self.samples)
        values += [float("inf")] * self.unfinished
        if not values:
            return float("nan")
        return float(values[min(len(values) - 1, int(q * len(values)))])


async def measure(bot: BotProcess, side: FakeSide, tables: list[Table], seconds: float) -> Window:
    """Snap, wait `seconds`, snap again."""
    before = await bot.snap()
    tally, presses, cpu = side.tally.copy(), sum(t.presses for t in tables), _cpu()
    await asyncio.sleep(seconds)
    after = await bot.snap()
    window = Window(
        before,
        after,
        side.tally.minus(tally),
        sum(t.presses for t in tables) - presses,
        _cpu() - cpu,
    )
    window.take(after)
    return window


async def drain(bot: BotProcess, window: Window, timeout: float) -> None:
    """After the players stopped: collect the window's late samples until nothing is open."""
    deadline = time.monotonic() + timeout
    while True:
        snap = await bot.snap()
        window.take(snap)
        t0, t1 = window.before["t"], window.after["t"]
        window.unfinished = sum(t0 <= t < t1 for t in snap["open_recv"])
        if not window.unfinished or time.monotonic() > deadline:
            return
        await asyncio.sleep(0.5)


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


async def _open_all(
    tg: FakeTelegram, tables: list[Table], mode: str, bot: BotProcess, parallel: int = 50
) -> dict[str, Any]:
    """Open the tables, the first half then the rest; returns the bot's snap at half-way."""
    gate = asyncio.Semaphore(parallel)
    opener = open_frap_table if mode == "frap" else open_echo_table

    async def one(table: Table) -> None:
        async with gate:
            await opener(tg, table)

    middle = len(tables) // 2
    await asyncio.gather(*(one(table) for table in tables[:middle]))
    await asyncio.sleep(0.5)
    half = await bot.snap()
    await asyncio.gather(*(one(table) for table in tables[middle:]))
    await asyncio.sleep(0.5)
    return half


def per_table_kb(r: dict[str, Any]) -> tuple[float, float]:
    """RSS growth per table: (all tables vs empty) and (second half vs first half), in KB."""
    n = r["tables"]
    naive = (r["opened"]["VmRSS"] - r["empty"]["VmRSS"]) / n
    slope = (r["opened"]["VmRSS"] - r["half"]["VmRSS"]) / (n - n // 2)
    return naive, slope


def _db(tmp: Path, name: str) -> Path:
    return tmp / f"{name}.sqlite3"


def _game(args: argparse.Namespace) -> str:
    """What the tables' /newgame names ("": the default game, Frap, as the bench always did)."""
    return "" if args.game == "frap" else args.game


async def _chat_rules(db: Path, tables: list[Table]) -> None:
    """Preferans tables write a pulya to 50 (P14), so that a table goes on for the whole run
    (random moves close a pulya to 10 within a few dozen deals)."""
    if not any(t.game == "preferans" for t in tables):
        return
    storage = await Storage.open(str(db))
    for table in tables:
        await storage.chats.chat(table.group.id, table.group.title)
        await storage.chats.set_chat(table.group.id, rules={"preferans": {"target": 50}})
    await storage.close()


# ---- scenarios ----


async def throughput(args: argparse.Namespace, mode: str, tmp: Path) -> dict[str, Any]:
    """Tables acting as fast as the bot answers, relaxed limits: CPU per update."""
    async with FakeTelegram(
        bot_username="frapbot", group_limit=RELAXED, global_limit=RELAXED
    ) as tg:
        side = FakeSide(tg)
        world = World(side, args.seed)
        tables = world.add_tables(args.tables, game=_game(args))
        bot = BotProcess(
            tg,
            mode,
            _db(tmp, f"throughput-{mode}"),
            tmp / f"bot-{mode}.log",
            relaxed=True,
            seed=args.seed,
            tweak=args.tweak,
        )
        await _chat_rules(_db(tmp, f"throughput-{mode}"), tables)
        await bot.start()
        empty = await bot.snap()
        half = await _open_all(tg, tables, mode, bot)
        opened = await bot.snap()
        play = play_frap if mode == "frap" else play_echo
        extra = args.profile_seconds * (bool(args.profile) + bool(args.py_spy)) + 3
        until = time.monotonic() + args.warmup + args.seconds + extra
        players = [asyncio.create_task(play(tg, t, 0.0, until)) for t in tables]
        await asyncio.sleep(args.warmup)
        window = await measure(bot, side, tables, args.seconds)
        profile = spy = None
        if args.profile and mode == "frap":
            profile = await _profile(bot, args.profile_seconds, tmp)
        if args.py_spy:
            spy = await _py_spy(bot, args.profile_seconds, tmp / f"py-spy-{mode}.raw")
        await asyncio.gather(*players)
        await drain(bot, window, args.drain)
        last = await bot.quit()
        return {
            "window": window,
            "empty": empty,
            "half": half,
            "opened": opened,
            "last": last,
            "tables": len(tables),
            "profile": profile,
            "py_spy": spy,
            "stuck": sum(t.stuck for t in tables),
            "refused": sum(t.refused for t in tables),
        }


async def _profile(bot: BotProcess, seconds: float, tmp: Path) -> dict[str, Any]:
    path = tmp / "bot.prof"
    before = await bot.snap()
    await bot.command("profile_start")
    await asyncio.sleep(seconds)
    await bot.command(f"profile_stop {path}")
    after = await bot.snap()
    return {
        "path": str(path),
        "updates": after["updates_started"] - before["updates_started"],
        "cpu": after["cpu"] - before["cpu"],
    }


async def _py_spy(bot: BotProcess, seconds: float, path: Path) -> str | None:
    """Sample the bot process with py-spy (it pauses the process for each sample)."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    pid = str(bot.ready["pid"])
    args = ["record", "--pid", pid, "--duration", str(int(seconds)), "--rate", "100"]
    proc = await asyncio.create_subprocess_exec(
        exe, *args, "--format", "raw", "--output", str(path),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await proc.communicate()
    if proc.returncode != 0 or not path.exists():
        print(f"py-spy failed: {err.decode().strip()[-300:]}")
        return None
    return str(path)


async def pace(args: argparse.Namespace, mode: str, tmp: Path, limiter: str) -> dict[str, Any]:
    """`--pace-tables` tables at one action per `--pace-interval` s each, real limits."""
    async with FakeTelegram(
        bot_username="frapbot", group_limit=RELAXED, global_limit=RELAXED
    ) as tg:
        side = FakeSide(tg)
        world = World(side, args.seed + 1)
        tables = world.add_tables(args.pace_tables, game=_game(args))
        db = _db(tmp, f"pace-{mode}-{limiter}")
        log = tmp / f"bot-pace-{mode}-{limiter}.log"
        setup = BotProcess(tg, mode, db, log, relaxed=True, seed=args.seed, tweak=args.tweak)
        await _chat_rules(db, tables)
        await setup.start()
        empty = await setup.snap()
        half = await _open_all(tg, tables, mode, setup)
        opened = await setup.snap()
        await setup.quit()
        side.set_limits(group_limit=20, global_limit=30)
        tally_start = side.tally.copy()
        bot = BotProcess(
            tg, mode, db, log, relaxed=False, limiter=limiter, seed=args.seed + 7, tweak=args.tweak
        )
        ready = await bot.start()
        resumed = await bot.snap()
        play = play_frap if mode == "frap" else play_echo
        until = time.monotonic() + args.stagger + args.pace_seconds + 1
        rng = random.Random(args.seed)
        players = [
            asyncio.create_task(
                play(tg, t, args.pace_interval, until, start_delay=rng.uniform(0, args.stagger))
            )
            for t in tables
        ]
        await asyncio.sleep(args.stagger)
        window = await measure(bot, side, tables, args.pace_seconds)
        await asyncio.gather(*players)
        await drain(bot, window, args.drain)
        last = await bot.quit()
        whole = side.tally.minus(tally_start)
        return {
            "window": window,
            "empty": empty,
            "half": half,
            "opened": opened,
            "ready": ready,
            "resumed": resumed,
            "last": last,
            "tables": len(tables),
            "whole": whole,
            "stuck": sum(t.stuck for t in tables),
            "refused": sum(t.refused for t in tables),
            "limiter": limiter,
        }


async def startup(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Start-up time and memory with `--startup-tables` running tables in the database."""
    db = _db(tmp, "startup")
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(BENCH / "startup_db.py"),
        str(db),
        str(args.startup_tables),
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    built_out, _ = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError("building the start-up database failed")
    build_seconds = time.perf_counter() - started
    async with FakeTelegram(bot_username="frapbot") as tg:
        for i in range(args.startup_tables):
            group = tg.group(startup_db.group_id(i), f"Start {i}")
            for j in range(4):
                user = tg.user(startup_db.user_id(i, j), f"S{i}x{j}")
                user.started = True
                group.add(user, creator=j == 0)
        side = FakeSide(tg)
        empty_bot = BotProcess(
            tg,
            "frap",
            _db(tmp, "startup-empty"),
            tmp / "bot-startup.log",
            relaxed=False,
            tweak=args.tweak,
        )
        await empty_bot.start()
        await asyncio.sleep(2.0)
        empty = await empty_bot.snap()
        await empty_bot.quit()
        before = side.tally.copy()
        bot = BotProcess(tg, "frap", db, tmp / "bot-startup.log", relaxed=False, tweak=args.tweak)
        ready = await bot.start()
        at_ready = await bot.snap()
        await asyncio.sleep(3.0)
        settled = await bot.snap()
        await bot.quit()
        calls = side.tally.minus(before)
    return {
        "ready": ready,
        "t_spawn": bot.t_spawn,
        "empty": empty,
        "at_ready": at_ready,
        "settled": settled,
        "calls": calls,
        "build_seconds": build_seconds,
        "built": built_out.decode().strip(),
        "tables": args.startup_tables,
    }


# ---- the report ----


def _ms(seconds: float) -> str:
    if seconds == float("inf"):
        return "∞ (unfinished)"
    return f"{seconds * 1000:.1f} ms"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs"


def _mb(kib: float) -> str:
    return f"{kib / KB:.1f} MB"


def _per(n: float, d: float) -> float:
    return n / d if d else float("nan")


def describe_window(title: str, w: Window, tables: int) -> list[str]:
    """The figures of one measured window, as lines."""
    calls = w.tally.total
    by_method = ", ".join(f"{m} {n}" for m, n in w.tally.calls.most_common())
    lines = [
        f"  {title}: {tables} tables, {w.seconds:.1f} s, {w.updates:.0f} updates "
        f"({w.updates / w.seconds:.1f}/s wall), {w.presses} presses, {w.deals:.0f} deals finished",
        f"    bot CPU {w.delta('cpu'):.2f} s ({100 * w.delta('cpu') / w.seconds:.0f}% of a core): "
        f"{_us(w.cpu_per_update)} per update → {1 / w.cpu_per_update:,.0f} updates/s on one core",
        f"    bench process (fake server + players) CPU {100 * w.driver_cpu / w.seconds:.0f}% of "
        f"a core; the fake's handlers {w.tally.handler_seconds:.2f} s",
        f"    latency p50/p99: {_ms(w.latency(2, 0.5))} / {_ms(w.latency(2, 0.99))} end to end; "
        f"{_ms(w.latency(3, 0.5))} / {_ms(w.latency(3, 0.99))} minus the fake's handler time; "
        f"{_ms(w.latency(4, 0.5))} / {_ms(w.latency(4, 0.99))} minus all HTTP round trips; "
        f"queued before the handler p99 {_ms(w.latency(5, 0.99))}, until the handler returned "
        f"p50/p99 {_ms(w.latency(7, 0.5))} / {_ms(w.latency(7, 0.99))} ({len(w.samples)} samples, "
        f"{w.unfinished} unfinished); to the last reply's response (minus fake, without the "
        f"presenter's bookkeeping after it) {_ms(w.latency(6, 0.5))} / {_ms(w.latency(6, 0.99))}",
        f"    Telegram calls: {calls} ({_per(calls, w.updates):.2f} per update, "
        f"{_per(calls, w.deals):.1f} per deal): {by_method}",
        f"    new messages: group {w.tally.new_group} ({_per(w.tally.new_group, w.deals):.2f} per "
        f"deal), private {w.tally.new_dm} ({_per(w.tally.new_dm, w.deals):.2f} per deal); "
        f"429s {w.tally.too_many}; other errors {dict(w.tally.errors) or 'none'}; turn pings "
        f"sent as edits for want of Telegram's budget {w.delta('pings_as_edits'):.0f}",
        f"    SQLite: {_per(w.delta('db_tx'), w.updates):.1f} write transactions and "
        f"{_per(w.delta('db_reads'), w.updates):.1f} reads per update, each one job on the "
        f"database thread; {_ms(_per(w.delta('db_job_seconds'), w.updates))} per update from "
        f"handing the jobs over to their results",
        f"    Storage calls per update: {storage_calls(w)}",
        f"    updates by kind: {update_kinds(w)}",
        f"    RSS {_mb(w.after['VmRSS'])} (peak {_mb(w.after['VmHWM'])}; "
        f"{w.delta('VmRSS'):+.0f} KB over the window, {_per(w.delta('VmRSS'), w.deals):.1f} KB per "
        f"deal); presenter slots {w.after['slots']} (+{w.delta('slots'):.0f}, "
        f"{_per(w.delta('slots'), w.deals):.1f} per deal, never dropped, "
        f"~{w.after.get('slot_bytes', 0) / 1024:.1f} KB each); asyncio tasks "
        f"{w.after['tasks']}",
        f"    garbage collections {w.delta('gc_runs'):.0f}, {_ms(w.delta('gc_seconds'))} in all, "
        f"the longest pause since start {_ms(w.after['gc_max'])}",
    ]
    return lines


def storage_calls(w: Window) -> str:
    """Storage methods called per update in the window, most first."""
    after, before = w.after.get("db_calls", {}), w.before.get("db_calls", {})
    counts = {name: n - before.get(name, 0) for name, n in after.items()}
    ranked = sorted(((n, name) for name, n in counts.items() if n), reverse=True)
    return ", ".join(f"{name} {_per(n, w.updates):.2f}" for n, name in ranked) or "none"


def update_kinds(w: Window) -> str:
    """How many updates of each kind the window's samples hold."""
    counts: dict[str, int] = {}
    for sample in w.samples:
        counts[sample[0]] = counts.get(sample[0], 0) + 1
    return ", ".join(f"{k} {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def kinds(w: Window) -> str:
    """Latency p99 (minus fake) by update kind."""
    by: dict[str, list[float]] = {}
    for sample in w.samples:
        by.setdefault(sample[0], []).append(sample[3])
    parts = []
    for kind, values in sorted(by.items(), key=lambda kv: -len(kv[1])):
        values.sort()
        parts.append(
            f"{kind} n={len(values)} p50 {_ms(values[len(values) // 2])} "
            f"p99 {_ms(values[min(len(values) - 1, int(0.99 * len(values)))])}"
        )
    return "; ".join(parts)


def print_profile(path: str, updates: int, top: int) -> None:
    """The bot's cProfile, top functions by own time and by cumulative time, per update."""
    stats = pstats.Stats(path)
    entries = stats.stats  # type: ignore[attr-defined]
    rows = []
    for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in entries.items():
        short = filename.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
        rows.append((tottime, cumtime, calls, f"{short}:{line}({name})"))
    print(
        f"  cProfile of the bot process over {updates} updates (event-loop thread CPU "
        "per update; cProfile itself inflates it):"
    )
    print("   own time     calls/upd  function")
    for tottime, _cum, calls, where in sorted(rows, reverse=True)[:top]:
        print(f"   {_us(tottime / updates):>10}  {calls / updates:>9.1f}  {where}")
    print("   cumulative   calls/upd  function (bot/ and engine/ only)")
    ours = [r for r in rows if r[3].startswith(("bot/", "engine/", "locales/"))]
    for _tot, cumtime, calls, where in sorted(ours, key=lambda r: -r[1])[:top]:
        print(f"   {_us(cumtime / updates):>10}  {calls / updates:>9.1f}  {where}")


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


def report(results: dict[str, Any], args: argparse.Namespace) -> None:
    """Print every scenario's figures and the targets."""
    rows: list[tuple[str, str, str, str, str]] = []
    tp = results.get("throughput")
    if tp:
        print("\n== throughput (rate limits relaxed in the bot and the fake; measures CPU) ==")
        for label, key in (("ours", "frap"), ("bare echo", "echo")):
            r = tp[key]
            print("\n".join(describe_window(label, r["window"], r["tables"])))
            naive, slope = per_table_kb(r)
            print(
                f"    RSS {_mb(r['empty']['VmRSS'])} before the tables, "
                f"{_mb(r['opened']['VmRSS'])} with {r['tables']} open ({naive:.0f} KB per table;"
                f" second half {slope:.0f} KB per table); after the run "
                f"{_mb(r['last']['VmRSS'])}, peak {_mb(r['last']['VmHWM'])}; "
                f"stuck {r['stuck']}, refused {r['refused']}"
            )
        for label, key in (("ours", "frap"), ("bare echo", "echo")):
            if tp[key].get("py_spy"):
                print(f"  {label}, sampled during {args.profile_seconds:.0f} s after the window "
                      "(µs/upd: share × the window's CPU per update):")  # fmt: skip
                per = tp[key]["window"].cpu_per_update * 1e6
                print("\n".join(spy_report.summarise(tp[key]["py_spy"], per, args.profile_top)))
        if tp["frap"].get("profile"):
            prof = tp["frap"]["profile"]
            print_profile(prof["path"], prof["updates"], args.profile_top)
        ours_w, bare_w = tp["frap"]["window"], tp["echo"]["window"]
        ratio = ours_w.cpu_per_update / bare_w.cpu_per_update
        rows.append(
            (
                "CPU per update",
                _us(ours_w.cpu_per_update),
                _us(bare_w.cpu_per_update),
                "≤ 2× bare",
                f"{verdict(ratio <= 2)} ({ratio:.1f}×)",
            )
        )
        rows.append(
            (
                "updates/s on one core",
                f"{1 / ours_w.cpu_per_update:,.0f}",
                f"{1 / bare_w.cpu_per_update:,.0f}",
                "",
                "",
            )
        )
        rows.append(
            (
                "Telegram calls per update (throughput)",
                f"{_per(ours_w.tally.total, ours_w.updates):.2f}",
                f"{_per(bare_w.tally.total, bare_w.updates):.2f}",
                "",
                "",
            )
        )
        rows.append(
            (
                f"Telegram calls per deal (throughput, {ours_w.deals:.0f} deals)",
                f"{_per(ours_w.tally.total, ours_w.deals):.1f}",
                "—",
                "",
                "",
            )
        )
        group = _per(ours_w.tally.new_group, ours_w.deals)
        rows.append(
            (
                "new group messages per deal (throughput)",
                f"{group:.2f}",
                "—",
                "≤ 3",
                verdict(group <= 3),
            )
        )
        rows.append(
            (
                "new private messages per deal (throughput)",
                f"{_per(ours_w.tally.new_dm, ours_w.deals):.2f}",
                "—",
                "",
                "",
            )
        )
        rows.append(
            (
                "p99 latency, saturated (throughput)",
                _ms(ours_w.latency(3, 0.99)),
                _ms(bare_w.latency(3, 0.99)),
                "",
                "",
            )
        )
        rows.append(
            (
                "peak RSS (throughput)",
                _mb(tp["frap"]["last"]["VmHWM"]),
                _mb(tp["echo"]["last"]["VmHWM"]),
                "",
                "",
            )
        )
    for limiter, pc in results.get("pace", {}).items():
        print(f"\n== pace (real limits; the bot's rate limiter: {limiter}) ==")
        for label, key in (("ours", "frap"), ("bare echo", "echo")):
            r = pc.get(key)
            if r is None:
                continue
            w = r["window"]
            print("\n".join(describe_window(label, w, r["tables"])))
            wanted = r["tables"] / args.pace_interval
            print(
                f"    pace: {w.presses / w.seconds:.1f} presses/s achieved of {wanted:.0f}/s "
                f"wanted; stuck {r['stuck']}, refused {r['refused']}"
            )
            print(f"    p99 by kind (minus fake): {kinds(w)}")
            whole = r["whole"]
            print(
                f"    whole run with real limits: {whole.total} calls, 429s {whole.too_many}, "
                f"errors {dict(whole.errors) or 'none'}"
            )
            naive, slope = per_table_kb(r)
            print(
                f"    setup process: RSS {_mb(r['empty']['VmRSS'])} empty, "
                f"{_mb(r['opened']['VmRSS'])} with {r['tables']} tables dealt "
                f"({naive:.0f} KB per table; second half {slope:.0f} KB per table); resumed: "
                f"{_mb(r['resumed']['VmRSS'])} after resume, peak {_mb(r['last']['VmHWM'])}"
            )
        ours = pc["frap"]
        w = ours["window"]
        bare = pc.get("echo")
        bw = bare["window"] if bare else None
        tag = f" [{limiter} limiter]"
        p99 = w.latency(3, 0.99)
        rows.append(
            (
                f"p99 latency, {ours['tables']} tables{tag}",
                _ms(p99),
                _ms(bw.latency(3, 0.99)) if bw else "—",
                "< 50 ms",
                verdict(p99 < 0.050),
            )
        )
        rows.append(
            (
                f"p50 latency{tag}",
                _ms(w.latency(3, 0.5)),
                _ms(bw.latency(3, 0.5)) if bw else "—",
                "",
                "",
            )
        )
        rows.append(
            (
                f"bot CPU busy{tag}",
                f"{100 * w.delta('cpu') / w.seconds:.0f}%",
                f"{100 * bw.delta('cpu') / bw.seconds:.0f}%" if bw else "—",
                "",
                "",
            )
        )
        rows.append(
            (
                f"achieved presses/s{tag}",
                f"{w.presses / w.seconds:.0f}",
                f"{bw.presses / bw.seconds:.0f}" if bw else "—",
                f"{ours['tables'] / args.pace_interval:.0f}",
                "",
            )
        )
        group = _per(w.tally.new_group, w.deals)
        enough = w.deals >= MIN_DEALS
        rows.append(
            (
                f"new group messages per deal{tag} ({w.deals:.0f} deals)",
                f"{group:.2f}" if enough else "—",
                "—",
                "≤ 3",
                verdict(group <= 3) if enough else f"n/a (< {MIN_DEALS} deals)",
            )
        )
        rows.append(
            (
                f"429s at 1 action/s/table{tag}",
                str(ours["whole"].too_many),
                str(bare["whole"].too_many) if bare else "—",
                "0",
                verdict(ours["whole"].too_many == 0),
            )
        )
        naive, slope = per_table_kb(ours)
        bare_naive, bare_slope = per_table_kb(bare) if bare else (float("nan"), float("nan"))
        rows.append(
            (
                f"memory per table, all {ours['tables']} opened (live)",
                f"{naive:.0f} KB",
                f"{bare_naive:.0f} KB",
                "≤ 100 KB",
                verdict(naive <= 100),
            )
        )
        rows.append(
            (
                "memory per table, second half opened (live)",
                f"{slope:.0f} KB",
                f"{bare_slope:.0f} KB",
                "≤ 100 KB",
                verdict(slope <= 100),
            )
        )
        rows.append(
            (
                f"peak RSS (pace){tag}",
                _mb(ours["last"]["VmHWM"]),
                _mb(bare["last"]["VmHWM"]) if bare else "—",
                "",
                "",
            )
        )
    st = results.get("startup")
    if st:
        print("\n== start-up ==")
        ready = st["ready"]
        t0 = st["t_spawn"]
        resume = ready["resume"]
        check = ready["check"]
        total = resume["t1"] - t0
        print(f"  database: {st['built']} built in {st['build_seconds']:.1f} s")
        print(
            f"  spawn → resume() returned with {resume['tables']} tables: {total:.2f} s "
            f"(interpreter start {ready['t_process'] - t0:.2f} s, imports "
            f"{ready['t_imported'] - ready['t_process']:.2f} s, build "
            f"{ready['t_built'] - ready['t_imported']:.2f} s, initialize (getMe) "
            f"{ready['t_initialized'] - ready['t_built']:.2f} s, storage open + check "
            f"{check['t1'] - ready['t_initialized']:.2f} s (check {check['t1'] - check['t0']:.2f}"
            f" s), resume {resume['t1'] - resume['t0']:.2f} s); polling at "
            f"{ready['t_polling'] - t0:.2f} s"
        )
        calls = st["calls"]
        print(
            f"  Telegram calls from start until 3 s after ready: {calls.total} "
            f"({dict(calls.calls)}); errors {dict(calls.errors) or 'none'}"
        )
        growth = st["settled"]["VmRSS"] - st["empty"]["VmRSS"]
        per = growth / st["tables"]
        print(
            f"  RSS {_mb(st['empty']['VmRSS'])} on an empty database, "
            f"{_mb(st['settled']['VmRSS'])} with {st['tables']} tables resumed "
            f"({per:.0f} KB per table); peak {_mb(st['settled']['VmHWM'])}; presenter slots "
            f"{st['settled']['slots']}"
        )
        rows.append(
            (
                f"start-up with {st['tables']} running tables",
                f"{total:.2f} s",
                "—",
                "< 5 s",
                verdict(total < 5),
            )
        )
        rows.append(
            (
                f"memory per table (resumed, {st['tables']} tables)",
                f"{per:.0f} KB",
                "—",
                "≤ 100 KB",
                verdict(per <= 100),
            )
        )
    print("\n== targets ==")
    widths = [max(len(r[i]) for r in [*rows, _HEAD]) for i in range(5)]
    for row in [_HEAD, tuple("-" * w for w in widths), *rows]:
        print("  " + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)))


_HEAD = ("figure", "ours", "bare echo", "target", "result")


async def main_async(args: argparse.Namespace) -> None:
    """Run the chosen scenarios and print the report."""
    tmp = Path(tempfile.mkdtemp(prefix="frap-bench-"))
    scenarios = set(args.scenarios.split(","))
    results: dict[str, Any] = {}
    if args.tweak:
        print(f"what-if tweaks in the bot process: {args.tweak} (not the project as shipped)")
    try:
        if "throughput" in scenarios:
            print(f"throughput: {args.tables} tables, {args.seconds:.0f} s …", flush=True)
            results["throughput"] = {
                "frap": await throughput(args, "frap", tmp),
                "echo": await throughput(args, "echo", tmp),
            }
        if "pace" in scenarios:
            results["pace"] = {}
            for limiter in args.pace_limiter.split(","):
                print(
                    f"pace: {args.pace_tables} tables, {limiter} limiter, "
                    f"{args.pace_seconds:.0f} s …",
                    flush=True,
                )
                results["pace"][limiter] = {"frap": await pace(args, "frap", tmp, limiter)}
                if not args.skip_bare_pace:
                    results["pace"][limiter]["echo"] = await pace(args, "echo", tmp, limiter)
        if "startup" in scenarios:
            print(f"startup: {args.startup_tables} tables …", flush=True)
            results["startup"] = await startup(args, tmp)
        report(results, args)
    finally:
        if args.keep:
            print(f"\n(kept {tmp}: the databases, bot logs, profile)")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scenarios",
        default="throughput,pace,startup",
        help="comma-separated: throughput, pace, startup",
    )
    parser.add_argument("--tables", type=int, default=20, help="throughput: tables")
    parser.add_argument("--seconds", type=float, default=20, help="throughput: measured seconds")
    parser.add_argument("--warmup", type=float, default=3, help="throughput: seconds before")
    parser.add_argument("--pace-tables", type=int, default=200)
    parser.add_argument("--pace-seconds", type=float, default=30)
    parser.add_argument(
        "--pace-interval", type=float, default=1.0, help="seconds between one table's actions"
    )
    parser.add_argument(
        "--stagger", type=float, default=10, help="pace: tables start within this many seconds"
    )
    parser.add_argument(
        "--pace-limiter",
        default="bot",
        help="comma-separated: bot (the limiter bot.app.build sets: bot/client/ratelimit.py), "
        "stock (python-telegram-bot's AIORateLimiter), "
        "messages-only (a bench-side AIORateLimiter that skips edits)",
    )
    parser.add_argument(
        "--skip-bare-pace", action="store_true", help="pace: do not run the echo bot"
    )
    parser.add_argument(
        "--drain",
        type=float,
        default=20,
        help="seconds to wait for the window's late updates after the players "
        "stop (those still open count as infinitely late)",
    )
    parser.add_argument("--startup-tables", type=int, default=1000)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="throughput: also cProfile the bot for --profile-seconds",
    )
    parser.add_argument(
        "--py-spy",
        action="store_true",
        help="throughput: also sample both bots with py-spy for --profile-seconds",
    )
    parser.add_argument("--profile-seconds", type=float, default=10)
    parser.add_argument("--profile-top", type=int, default=25)
    parser.add_argument(
        "--tweak",
        default="",
        help="what-ifs in the bot processes, off by default: pool=N (connection pool size), "
        "nogc-freeze, gc-threshold=N, echo-aiohttp; comma-separated",
    )
    parser.add_argument(
        "--game",
        default="frap",
        choices=("frap", "khrap", "student", "napoleon", "preferans"),
        help="what the tables play (preferans: a pulya to 50 per table, four players, the "
        "dealer sitting out, P1)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the temp dir")
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
