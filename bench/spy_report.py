"""Summarise a py-spy `--format raw` profile of the bot process: where its CPU goes.

Each sample's leaf frame is put in a category by its file (the HTTP client, python-telegram-bot,
SQLite, the bot, the engine, asyncio, ...); the report gives each category's share, the top leaf
functions, and the inclusive share of the bot's own functions, scaled to µs per update when the
CPU per update is known.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

CATEGORIES = (
    ("HTTP client (httpx, httpcore, anyio, h11)", ("httpx/", "httpcore/", "anyio/", "h11/")),
    ("python-telegram-bot", ("telegram/",)),
    ("SQLite (aiosqlite, sqlite3)", ("aiosqlite/", "sqlite3/")),
    ("bot/", ("bot/",)),
    ("engine/", ("engine/",)),
    ("locales/", ("locales/",)),
    ("rate limiter (aiolimiter)", ("aiolimiter/",)),
    ("asyncio event loop", ("asyncio/", "selectors.py")),
    ("json", ("json/",)),
    ("imports (importlib)", ("importlib", "<frozen")),
    ("bench instrumentation", ("bot_runner.py",)),
)
# Leaves that are waiting, not working, which py-spy's idle detection does not recognise: the
# aiosqlite worker blocked on its request queue, and the event loop in epoll_wait.
IDLE = (
    re.compile(r"_connection_worker_thread \(aiosqlite/core\.py:59\)"),
    re.compile(r"\.select \(selectors\.py:\d+\)"),
)
_FRAME = re.compile(r"^(?P<name>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")


def _file(frame: str) -> str:
    match = _FRAME.match(frame.strip())
    return match["file"] if match else frame


def category(frame: str) -> str:
    """The category of a frame, by its file."""
    where = _file(frame)
    for name, needles in CATEGORIES:
        if any(needle in where for needle in needles):
            return name
    if where.startswith("threading.py") or "concurrent/" in where:
        return "threads"
    return "other (stdlib, C)"


def summarise(path: str, per_update_us: float | None = None, top: int = 20) -> list[str]:
    """The report lines for a raw py-spy profile."""
    leaf_cat: Counter[str] = Counter()
    leaf_fn: Counter[str] = Counter()
    ours: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    total = idle = 0
    with open(path) as raw:
        for line in raw:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            frames = stack.split(";")
            if any(pattern.search(frames[-1]) for pattern in IDLE):
                idle += n
                continue
            total += n
            # py-spy puts the thread as the first frame with --threads; else frames only
            threads["event loop" if any("run_forever" in f for f in frames) else "other"] += n
            leaf = frames[-1]
            leaf_cat[category(leaf)] += n
            leaf_fn[leaf.strip()] += n
            seen = set()
            for frame in frames:
                where = _file(frame)
                if where.startswith(("bot/", "engine/", "locales/")) and frame not in seen:
                    seen.add(frame)
                    ours[frame.strip()] += n
    if not total:
        return ["  (no samples)"]

    def share(n: int) -> str:
        pct = 100 * n / total
        if per_update_us is None:
            return f"{pct:5.1f}%"
        return f"{pct:5.1f}% {per_update_us * n / total:8,.0f} µs/upd"

    lines = [
        f"  py-spy: {total} busy samples ({idle} more left out as waiting: the aiosqlite "
        f"worker on its queue, the loop in epoll); event-loop thread "
        f"{100 * threads['event loop'] / total:.0f}%, aiosqlite's worker thread "
        f"{100 * threads['other'] / total:.0f}%"
    ]
    lines.append("  by library (the leaf frame's file):")
    lines += [f"   {share(n)}  {name}" for name, n in leaf_cat.most_common()]
    lines.append("  top leaf functions:")
    lines += [f"   {share(n)}  {name}" for name, n in leaf_fn.most_common(top)]
    lines.append("  the bot's own functions, inclusive (time under them, any library):")
    lines += [f"   {share(n)}  {name}" for name, n in ours.most_common(top)]
    return lines


if __name__ == "__main__":
    print("\n".join(summarise(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else None)))
