"""Whether the running bot is healthy, for Docker's HEALTHCHECK and an operator's host.

The bot writes a heartbeat to its database every HEARTBEAT_EVERY seconds: the time, and when
Telegram last answered. The heartbeat is old when the event loop is stuck or the database
refuses writes (a full disk, a lock); `python -m bot health` reads it from the database, and
`/healthz` (on METRICS_PORT) answers from the bot itself.
Either fails when the heartbeat is older than HEALTH_MAX_BEAT_AGE or Telegram has not answered
for HEALTH_MAX_SILENCE. `/healthz` answers from the bot's first second: 503 "starting" (with
"Telegram unreachable" while it is) until the tables are resumed, and 503 "stopping" once the bot
was told to stop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path

from aiohttp import web

from .config import DatabaseSettings
from .metrics import Telegram
from .storage import Storage, StorageUnavailable

log = logging.getLogger(__name__)


def problems(
    beat_at: float | None,
    telegram_at: float | None,
    settings: DatabaseSettings,
    now: float | None = None,
) -> list[str]:
    """What is wrong, one line each (none: healthy), from the heartbeat's two Unix times."""
    now = time.time() if now is None else now
    found = []
    if beat_at is None:
        found.append("no heartbeat: the bot is not running")
    elif now - beat_at > settings.health_max_beat_age:
        found.append(
            f"the heartbeat is {now - beat_at:.0f} s old: the bot is stuck, stopped, "
            "or cannot write its database"
        )
    if beat_at is not None and telegram_at is None:
        found.append("Telegram has not answered since the bot started")
    elif telegram_at is not None and now - telegram_at > settings.health_max_silence:
        found.append(f"Telegram has not answered for {now - telegram_at:.0f} s")
    return found


STARTING = "starting"
STOPPING = "stopping"


class Heartbeat:
    """Writes the heartbeat while the bot runs; `problems()` is /healthz's answer."""

    def __init__(self, storage: Storage, telegram: Telegram, settings: DatabaseSettings) -> None:
        self.storage = storage
        self.telegram = telegram
        self.settings = settings
        # STARTING until the tables are resumed (None: ready), STOPPING once told to stop
        self.stage: str | None = STARTING
        self.written: float | None = None  # Unix time of the last heartbeat written
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                await self.storage.messages.beat(self.telegram.last_answer_wall, os.getpid())
                self.written = time.time()
                if self._failing:
                    log.warning("the database takes writes again")
                self._failing = False
            except StorageUnavailable as exc:
                if not self._failing:
                    log.warning("heartbeat not written: %s", exc)
                self._failing = True
            await asyncio.sleep(self.settings.heartbeat_every)

    def problems(self) -> list[str]:
        if self.stage == STARTING and self.telegram.down_since is not None:
            return [f"{STARTING}: Telegram unreachable"]
        if self.stage == STARTING and self.telegram.last_answer is None:
            return [f"{STARTING}: waiting for Telegram's first answer"]
        if self.stage is not None:
            return [self.stage]
        return problems(self.written, self.telegram.last_answer_wall, self.settings)


def healthz(heartbeat: Heartbeat) -> web.Response:
    """/healthz's answer, wherever it is served (METRICS_PORT, the Mini App's server): 200 `ok`,
    or 503 and a line per problem."""
    found = heartbeat.problems()
    if found:
        return web.Response(status=503, text="\n".join(found) + "\n")
    return web.Response(status=200, text="ok\n")


def command(path: str, settings: DatabaseSettings) -> int:
    """`python -m bot health`: 0 and "ok" if the bot's heartbeat is fresh, else 1 and a line
    per problem (read-only: it never waits for the bot's locks)."""
    if not Path(path).is_file():
        print(f"no database at {path}", file=sys.stderr)
        return 1
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT beat_at, telegram_at FROM heartbeat WHERE id = 1").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            print(f"cannot read {path}: {exc}", file=sys.stderr)
            return 1
        row = None
    beat_at, telegram_at = row or (None, None)
    found = problems(beat_at, telegram_at, settings)
    for line in found:
        print(line, file=sys.stderr)
    if found:
        return 1
    print("ok")
    return 0
