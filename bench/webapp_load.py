"""Bench of the Mini App: what open pages cost the bot.

Run: `nice -n 19 python bench/webapp_load.py` (about a minute), or with `--deals 3 --idle 1000`.

- A move's CPU: the same seeded Frap deals of four players (random legal chat buttons) played
  with no page open and with every seat's page open (each receiving every push); the process's
  CPU time per move (the bot, the fake Bot API and the players share one process, so both
  figures carry the same overhead of the fake and the players).
- Bytes pushed per move: the WebSocket frames' bytes over the moves, with every page open.
- Memory of idle pages: `--idle` pages (group members who are not seated, each his own user)
  opened at a table of the bot running as its own process (`python -m bot`, against this
  process's fake Bot API); the bot process's RSS before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from tests.bot_harness import (  # noqa: E402
    GROUP_ID,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
    with_button,
)
from tests.fakebot import FakeTelegram  # noqa: E402
from tests.fakebot.models import FakeChat, FakeUser, StoredMessage  # noqa: E402
from tests.webapp_helpers import init_data, open_socket, webapp_overrides  # noqa: E402

STARTAPP = re.compile(r"startapp=(\d+)")


def rss_mb(pid: int) -> float:
    """A process's resident memory now (MB), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


async def moves(deals: int, pages: bool, seed: int) -> tuple[float, int, int]:
    """CPU seconds, moves and bytes pushed for `deals` seeded deals."""
    async with FakeTelegram(bot_username="frapbot") as tg:
        group, users = make_players(tg, 4)
        with tempfile.TemporaryDirectory() as tmp:
            async with (
                running_bot(tg, Path(tmp) / "db.sqlite3", seed=seed, **webapp_overrides()) as bot,
                aiohttp.ClientSession() as http,
            ):
                await open_table(bot, group, users, "/newgame frap")
                table = await bot.service.storage.tables.open_table(GROUP_ID)
                assert table is not None
                web = bot.app.bot_data["web"]
                sockets = []
                if pages:
                    for user in users:
                        base = web.settings.webapp_url
                        ws = await open_socket(http, base, tg, user, table.table_id)
                        first = await ws.receive()
                        assert first.type == aiohttp.WSMsgType.TEXT, first
                        sockets.append(ws)
                    reader = asyncio.gather(*(_drain(ws) for ws in sockets))
                rng = random.Random(seed)
                pushed0, count, cpu = web.viewers.pushed, 0, 0.0
                for _ in range(deals):
                    while True:
                        movers = [(u, m) for u in users if moves_now(m := control_message(tg, u))]
                        if not movers:
                            break
                        user, message = movers[0]
                        began = time.process_time()
                        await user.press(message, data=rng.choice(moves_now(message)))
                        await bot.idle()
                        await asyncio.sleep(0.01)  # the pushes go out
                        cpu += time.process_time() - began
                        count += 1
                    result = with_button(tg.messages(group), "n:")
                    assert result is not None
                    data = next(d for _, d in result.buttons if d and d.startswith("n:"))
                    await users[0].press(result, data=data)
                    await bot.idle()
                pushed = web.viewers.pushed - pushed0
                for ws in sockets:
                    await ws.close()
                if pages:
                    await reader
    return cpu, count, pushed


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass


async def idle_pages(n: int) -> tuple[float, float]:
    """The bot process's RSS (MB) before and after `n` idle pages are open. The bot runs as
    `python -m bot`, its own process, against the fake Bot API of this one, which also opens
    the pages (group members who are not seated, each his own user)."""
    async with FakeTelegram(bot_username="frapbot") as tg:
        group, users = make_players(tg, 3)
        watchers = [tg.user(10_000 + i, f"W{i}", language_code="ru") for i in range(n)]
        for watcher in watchers:
            group.add(watcher)
        web = webapp_overrides()
        with tempfile.TemporaryDirectory() as tmp:
            settings = {
                "bot_token": tg.token, "bot_api_url": tg.base_url, "turn_timeout": 0,
                "db_path": Path(tmp) / "db.sqlite3", "log_level": "WARNING", **web,
            }  # fmt: skip
            env = {**os.environ, **{key.upper(): str(value) for key, value in settings.items()}}
            bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, cwd=ROOT
            )
            try:
                table_id = await _open_table(tg, group, users)
                await asyncio.sleep(1)
                before = rss_mb(bot.pid)
                address = f"{web['webapp_url']}/api/ws"
                connector = aiohttp.TCPConnector(limit=0)
                async with aiohttp.ClientSession(connector=connector) as http:
                    sockets = []
                    for watcher in watchers:
                        sockets.append(ws := await http.ws_connect(address))
                        await ws.send_json({"init": init_data(tg.token, watcher, str(table_id))})
                        message = await ws.receive()
                        assert message.type == aiohttp.WSMsgType.TEXT, message
                    await asyncio.sleep(1)
                    after = rss_mb(bot.pid)
                    assert not any(ws.closed for ws in sockets)
                    for ws in sockets:
                        await ws.close()
            finally:
                bot.terminate()
                await bot.wait()
    return before, after


async def _open_table(tg: FakeTelegram, group: FakeChat, users: list[FakeUser]) -> int:
    """Open and start a Frap table of `users` as they would, with the bot in another process
    (nothing to wait on but its messages); the table's id, from the group's Mini App button."""

    def last(prefix: str) -> StoredMessage | None:
        return with_button(tg.messages(group), prefix)

    for user in users:
        await user.start()
    await users[0].send(group, "/newgame frap")
    lobby = await tg.wait_for(lambda: last("j:"), timeout=30)
    for user in users[1:]:
        await user.press(lobby, data=next(d for _, d in lobby.buttons if d and d.startswith("j:")))
        await tg.wait_for(lambda u=user: u.first_name in (last("s:") or lobby).text, timeout=30)
    lobby = await tg.wait_for(lambda: last("s:"), timeout=30)
    await users[0].press(lobby, data=next(d for _, d in lobby.buttons if d and d.startswith("s:")))
    opener = await tg.wait_for(
        lambda: STARTAPP.findall(" ".join(str(m.reply_markup) for m in tg.messages(group))),
        timeout=30,
    )
    return int(opener[-1])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    bare, n0, _ = await moves(args.deals, False, args.seed)
    paged, n1, pushed = await moves(args.deals, True, args.seed)
    assert n0 == n1, (n0, n1)  # the same deals
    assert pushed > 0, "no page was pushed a view"
    print(f"moves: {n0} (Frap, 4 players, {args.deals} deals)")
    print(f"CPU per move, no page open:        {bare / n0 * 1000:.2f} ms")
    print(f"CPU per move, every seat's page:   {paged / n1 * 1000:.2f} ms ({paged / bare:.2f}×)")
    print(f"bytes pushed per move (4 pages):   {pushed / n1:.0f}")
    before, after = await idle_pages(args.idle)
    print(f"the bot's process RSS: {before:.1f} MB, with {args.idle} idle pages {after:.1f} MB")
    print(f"  ({(after - before) * 1024 / args.idle:.1f} KB a page)")


if __name__ == "__main__":
    asyncio.run(main())
