"""What an operator sees. /metrics (Prometheus) and /healthz on METRICS_PORT, and
`python -m bot health` for Docker's HEALTHCHECK: healthy while the bot reaches Telegram and writes
its database, unhealthy when Telegram has been silent too long or the database refuses the
heartbeat, and while the bot starts (from its first second, Telegram reachable or not)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.bot_harness import make_players, open_table, play_deal, running_bot
from tests.fakebot import FakeTelegram
from tests.webapp_helpers import webapp_overrides

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


def _health(db: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "health"],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), "DB_PATH": str(db), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def _sample(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus' text format."""
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in text.splitlines():
        head, _, value = line.rpartition(" ")
        if head == (f"{name}{{{want}}}" if want else name):
            return float(value)
    raise AssertionError(f"no {name} {labels} in the metrics")


async def test_metrics_and_health_while_playing(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    port = _free_port()
    db = tmp_path / "db.sqlite3"
    settings = {"metrics_port": port, "metrics_listen": "127.0.0.1", "heartbeat_every": 0.2}
    async with running_bot(tg, db, seed=2, health_max_silence=2, **settings) as bot:
        base = f"http://127.0.0.1:{port}"
        _, before = await _get(f"{base}/metrics")
        await open_table(bot, group, users)
        tg.fail_next("editMessageText", 429, retry_after=1)
        tg.fail_next("answerCallbackQuery", 400, description="Bad Request: query is too old")
        await play_deal(bot, users, random.Random(2))
        status, text = await _get(f"{base}/metrics")
        assert status == 200
        assert _sample(text, "frap_open_tables", game="frap") == 1
        finished = _sample(text, "frap_deals_finished_total", game="frap")
        assert finished == _sample_or_zero(before, "frap_deals_finished_total", game="frap") + 1
        sent = _sample(text, "frap_telegram_calls_total", method="sendMessage", outcome="ok")
        assert sent >= 4
        assert _sample(text, "frap_telegram_calls_total", method="editMessageText", outcome="429")
        assert _sample(
            text, "frap_telegram_calls_total", method="answerCallbackQuery", outcome="4xx"
        )
        assert _sample(text, "frap_updates_total") > _sample(before, "frap_updates_total")
        assert _sample(text, "frap_update_handling_seconds_count") > 0
        assert _sample(text, "frap_sqlite_write_seconds_count") > 0
        assert "frap_computer_move_seconds" in text
        assert tg.token not in text
        assert await _get(f"{base}/healthz") == (200, "ok\n")
        await asyncio.sleep(0.3)
        done = await asyncio.to_thread(_health, db)
        assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr

        tg.outage(502, include_get_updates=True, duration=5)  # Telegram is silent for 5 s
        await asyncio.sleep(4)  # (a long poll held when it began was answered in its first 1 s)
        status, text = await _get(f"{base}/healthz")
        assert status == 503 and "Telegram has not answered for" in text, text
        done = await asyncio.to_thread(_health, db, HEALTH_MAX_SILENCE="2")
        assert done.returncode == 1 and "Telegram has not answered for" in done.stderr
        for _ in range(300):  # healthy again once polling is back (PTB's back-off: seconds)
            if (await _get(f"{base}/healthz"))[0] == 200:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("still unhealthy 30 s after Telegram came back")
        await bot.idle()
        _, text = await _get(f"{base}/metrics")
        assert _sample(text, "frap_telegram_calls_total", method="getUpdates", outcome="5xx") > 0


def _sample_or_zero(text: str, name: str, **labels: str) -> float:
    try:
        return _sample(text, name, **labels)
    except AssertionError:
        return 0.0


@pytest.mark.parametrize("server", ["metrics port", "Mini App"])
async def test_a_database_refusing_writes_makes_the_bot_unhealthy(
    tg: FakeTelegram, tmp_path: Path, server: str
) -> None:
    """/healthz on METRICS_PORT, and on the Mini App's server (which takes the webhook too)."""
    db = tmp_path / "db.sqlite3"
    settings: dict[str, Any] = {
        "heartbeat_every": 0.1,
        "health_max_beat_age": 1,
        "db_busy_timeout": 0.1,
    }
    if server == "metrics port":
        port = _free_port()
        settings |= {"metrics_port": port, "metrics_listen": "127.0.0.1"}
    else:
        settings |= webapp_overrides()
        port = settings["port"]
    async with running_bot(tg, db, **settings):
        url = f"http://127.0.0.1:{port}/healthz"
        assert await _get(url) == (200, "ok\n")
        with closing(sqlite3.connect(db, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            await asyncio.sleep(1.5)
            status, text = await _get(url)
            assert status == 503 and "cannot write its database" in text, text
            done = await asyncio.to_thread(_health, db, HEALTH_MAX_BEAT_AGE="1")
            assert done.returncode == 1 and "cannot write its database" in done.stderr
            other.execute("ROLLBACK")
        await asyncio.sleep(0.5)
        assert await _get(url) == (200, "ok\n")  # the heartbeat is written again


async def test_a_stuck_event_loop_makes_the_bot_unhealthy(tg: FakeTelegram, tmp_path: Path) -> None:
    """The loop blocked (a handler that never yields) stops the heartbeat; the health
    command, run while the loop is still blocked, fails; once it runs again it is healthy."""
    db = tmp_path / "db.sqlite3"
    settings = {"heartbeat_every": 0.1, "health_max_beat_age": 1}
    async with running_bot(tg, db, **settings):
        await asyncio.sleep(0.3)
        assert (await asyncio.to_thread(_health, db, HEALTH_MAX_BEAT_AGE="1")).returncode == 0
        time.sleep(1.5)  # the bot's event loop (this test's) blocked
        stuck = _health(db, HEALTH_MAX_BEAT_AGE="1")  # still blocking it
        assert stuck.returncode == 1 and "the bot is stuck" in stuck.stderr, stuck.stderr
        await asyncio.sleep(0.5)
        done = await asyncio.to_thread(_health, db, HEALTH_MAX_BEAT_AGE="1")
        assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr


@pytest.mark.parametrize("case", ["no database", "never ran", "stopped long ago"])
def test_the_health_command_fails_without_a_fresh_heartbeat(tmp_path: Path, case: str) -> None:
    db = tmp_path / "db.sqlite3"
    if case != "no database":
        with closing(sqlite3.connect(db)) as sql, sql:
            sql.execute("CREATE TABLE chats (chat_id INTEGER)")
            if case == "stopped long ago":
                sql.execute(
                    "CREATE TABLE heartbeat (id INTEGER PRIMARY KEY, beat_at REAL, "
                    "telegram_at REAL, pid INTEGER)"
                )
                sql.execute("INSERT INTO heartbeat VALUES (1, ?, ?, 1)", (time.time() - 600,) * 2)
    done = _health(db)
    assert done.returncode == 1 and done.stdout == ""
    expected = {
        "no database": "no database at",
        "never ran": "no heartbeat",
        "stopped long ago": "s old: the bot is stuck, stopped, or cannot write its database",
    }[case]
    assert expected in done.stderr, done.stderr


@pytest.mark.parametrize("telegram", ["down", "502", "hang"])
async def test_healthz_answers_before_telegram_does(tmp_path: Path, telegram: str) -> None:
    """`python -m bot` started while Telegram is down (nothing listens), answers every call 502,
    or holds every call unanswered: /healthz (on METRICS_PORT and on the Mini App's server)
    answers 503 with the reason from the start, the Mini App's page is served and its API says
    the bot is starting; once Telegram answers, /healthz says 200."""
    metrics, web = _free_port(), _free_port()
    tg = FakeTelegram(bot_username="frapbot", port=_free_port())  # not yet listening
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BOT_TOKEN": tg.token,
        "BOT_API_URL": f"http://127.0.0.1:{tg.port}/bot",
        "DB_PATH": str(tmp_path / "db.sqlite3"),
        "POLL_TIMEOUT": "1",
        "METRICS_PORT": str(metrics),
        "METRICS_LISTEN": "127.0.0.1",
        "WEBAPP_URL": f"http://127.0.0.1:{web}/app",
        "WEBHOOK_LISTEN": "127.0.0.1",
        "PORT": str(web),
    }
    if telegram != "down":
        await tg.start()
        tg.outage(502, include_get_updates=True, hang=telegram == "hang")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    talk = asyncio.ensure_future(proc.communicate())
    try:
        answers = []
        for _ in range(300):  # the first answer, while Telegram has answered nothing
            with contextlib.suppress(aiohttp.ClientConnectionError):
                answers.append(await _get(f"http://127.0.0.1:{metrics}/healthz"))
                break
            await asyncio.sleep(0.05)
        assert not any(call.ok for call in tg.log)
        assert answers and answers[0][0] == 503 and answers[0][1].startswith("starting"), answers
        await asyncio.sleep(1)  # a while later: still starting, the reason said
        for url in (f"http://127.0.0.1:{port}/healthz" for port in (metrics, web)):
            status, text = await _get(url)
            assert status == 503, text
            if telegram != "hang":  # a held call is not yet a failure (until its time-out)
                assert text == "starting: Telegram unreachable\n", text
        status, page = await _get(f"http://127.0.0.1:{web}/app")
        assert status == 200 and "<html" in page.lower()
        status, text = await _get(f"http://127.0.0.1:{web}/app/api/view?table=1")
        assert status == 503 and json.loads(text)["error"] == "starting", text
        assert not any(call.ok for call in tg.log)

        if telegram == "down":
            await tg.start()
        tg.end_outage()
        for _ in range(600):  # ready once Telegram answers (the start-up's back-off: seconds)
            if await _get(f"http://127.0.0.1:{metrics}/healthz") == (200, "ok\n"):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("not ready 30 s after Telegram answered")
        assert await _get(f"http://127.0.0.1:{web}/healthz") == (200, "ok\n")
    finally:
        if proc.returncode is None:
            proc.terminate()
        _, err = await asyncio.wait_for(talk, 30)
        await tg.stop()
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode(), err.decode()
