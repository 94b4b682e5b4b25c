"""Bench of the Mini App (issue 24): what open pages cost the bot.

Run: `nice -n 19 python bench/webapp_load.py` (about a minute), or with `--deals 3 --idle 1000`.

- A move's CPU: the same seeded Frap deals of four players (random legal chat buttons) played
  with no page open and with every seat's page open (each receiving every push); the process's
  CPU time per move (the bot, the fake Bot API and the players share one process, so both
  figures carry the same overhead of the fake and the players).
- Bytes pushed per move: the WebSocket frames' bytes over the moves, with every page open.
- Memory of idle pages: `--idle` pages (group members who are not seated, each his own user)
  opened by a child process against the bot's port; the bot process's RSS before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

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
)
from tests.fakebot import FakeTelegram  # noqa: E402
from tests.webapp_helpers import init_data, webapp_overrides  # noqa: E402

CLIENT = """
import asyncio, sys
import aiohttp
async def main():
    urls = sys.stdin.read().split()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets = []
        for url in urls:
            ws = await http.ws_connect(url)
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            sockets.append(ws)
        print("open", len(sockets), sum(ws.closed for ws in sockets), flush=True)
        await asyncio.sleep(float(sys.argv[1]))
asyncio.run(main())
"""


def rss_mb() -> float:
    """The process's resident memory now (MB), from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


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
                table = await bot.service.storage.open_table(GROUP_ID)
                assert table is not None
                web = bot.app.bot_data["web"]
                sockets = []
                if pages:
                    for user in users:
                        init = quote(init_data(tg.token, user, str(table.table_id)))
                        ws = await http.ws_connect(f"{web.settings.webapp_url}/api/ws?init={init}")
                        await ws.receive()
                        sockets.append(ws)
                    reader = asyncio.gather(*(_drain(ws) for ws in sockets))
                rng = random.Random(seed)
                pushed0, count, cpu = web.pages.pushed, 0, 0.0
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
                    result = next(
                        m for m in reversed(tg.messages(group)) if any(
                            d and d.startswith("n:") for _, d in m.buttons
                        )
                    )  # fmt: skip
                    data = next(d for _, d in result.buttons if d and d.startswith("n:"))
                    await users[0].press(result, data=data)
                    await bot.idle()
                pushed = web.pages.pushed - pushed0
                for ws in sockets:
                    await ws.close()
                if pages:
                    await reader
    return cpu, count, pushed


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass


async def idle_pages(n: int) -> tuple[float, float]:
    """The bot process's RSS (MB) before and after `n` idle pages are opened by a child."""
    async with FakeTelegram(bot_username="frapbot") as tg:
        group, users = make_players(tg, 3)
        watchers = [tg.user(10_000 + i, f"W{i}", language_code="ru") for i in range(n)]
        for watcher in watchers:
            group.add(watcher)
        with tempfile.TemporaryDirectory() as tmp:
            async with running_bot(tg, Path(tmp) / "db.sqlite3", **webapp_overrides()) as bot:
                await open_table(bot, group, users, "/newgame frap")
                table = await bot.service.storage.open_table(GROUP_ID)
                assert table is not None
                web = bot.app.bot_data["web"]
                web.rate = (10**6, 10.0)
                base = web.settings.webapp_url
                urls = [
                    f"{base}/api/ws?init={quote(init_data(tg.token, w, str(table.table_id)))}"
                    for w in watchers
                ]
                before = rss_mb()
                child = await asyncio.create_subprocess_exec(
                    sys.executable, "-c", CLIENT, "5",
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                )  # fmt: skip
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write("\n".join(urls).encode())
                child.stdin.close()
                line = await child.stdout.readline()
                assert line.startswith(b"open"), line
                await asyncio.sleep(1)
                after = rss_mb()
                assert len(web.pages) == n, len(web.pages)
                await child.wait()
    return before, after


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    bare, n0, _ = await moves(args.deals, False, args.seed)
    paged, n1, pushed = await moves(args.deals, True, args.seed)
    assert n0 == n1, (n0, n1)  # the same deals
    print(f"moves: {n0} (Frap, 4 players, {args.deals} deals)")
    print(f"CPU per move, no page open:        {bare / n0 * 1000:.2f} ms")
    print(f"CPU per move, every seat's page:   {paged / n1 * 1000:.2f} ms ({paged / bare:.2f}×)")
    print(f"bytes pushed per move (4 pages):   {pushed / n1:.0f}")
    before, after = await idle_pages(args.idle)
    print(f"bot process RSS: {before:.1f} MB, with {args.idle} idle pages {after:.1f} MB")
    print(f"  ({(after - before) * 1024 / args.idle:.1f} KB a page)")


if __name__ == "__main__":
    asyncio.run(main())
