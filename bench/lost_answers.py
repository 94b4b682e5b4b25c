"""Bench: a long hang of Telegram's front at many tables, its held sends landing late.

Run: `python bench/lost_answers.py` (200 tables, a 45 s hang; about 4 minutes), or e.g.
`python bench/lost_answers.py --tables 50 --hang 20`.

The bot runs in its own process (`bench/bot_runner.py`, as `bench/bot_load.py` starts it), the
fake Bot API and the players in this one. The tables are opened with relaxed limits by one bot
process; a second one, with Telegram's limits (30 new messages a second, 20 a minute per group),
resumes them, and each table plays one action per `--interval` seconds. After `--warm` seconds
the fake holds every call (getUpdates excepted) for `--hang` seconds; a call the bot gave up on
meanwhile is carried out all the same when the hang ends, its answer lost: each such send
posted a message the bot never heard of. Play goes on for `--after` seconds after the hang.

Printed:
- moves again: per table, the seconds from the hang's end until a press made after it was
  answered and shown (p50, p90, max), and the tables that did not move again;
- the sends carried out with their answers lost, and how many of those messages are still
  there at the end (stale duplicates);
- the sweep's calls after the hang: editMessageReplyMarkup (a look at an id: the bot makes no
  other) and deleteMessage, and all calls, 429s included.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from bot_load import RELAXED, BotProcess, _open_all  # noqa: E402
from load_world import NEW_MESSAGE_METHODS, FakeSide, Table, World  # noqa: E402

from tests.fakebot import FakeTelegram  # noqa: E402


class Watch:
    """When each table's presses were made and answered, and what the fake did, by method."""

    def __init__(self, tg: FakeTelegram, side: FakeSide) -> None:
        self.pressed: dict[int, list[float]] = {}
        self.shown: dict[int, list[tuple[float, float]]] = {}  # (pressed, shown)
        self.calls: list[tuple[float, str, bool]] = []  # (when, method, injected)
        self.lost: list[tuple[int, int]] = []  # (chat, message id) posted, the answer lost
        self._wrap_table()
        account = side._account

        def counted(call: Any, seconds: float) -> None:
            self.calls.append((time.monotonic(), call.method, call.injected))
            account(call, seconds)

        side._account = counted  # type: ignore[method-assign]
        carried = tg._lost

        def lost(call: Any, done: Any) -> None:
            carried(call, done)
            tg.log.clear()  # the bench's accounting empties the log as it counts
            result = call.result if isinstance(call.result, dict) else {}
            if call.ok and call.method in NEW_MESSAGE_METHODS and "message_id" in result:
                self.lost.append((int(call.params["chat_id"]), int(result["message_id"])))

        tg._lost = lost  # type: ignore[method-assign]

    def _wrap_table(self) -> None:
        watch = self
        press, settled = Table.press, Table.settled

        async def pressed(table: Table, *args: Any) -> None:
            watch.pressed.setdefault(table.index, []).append(time.monotonic())
            await press(table, *args)

        def shown(table: Table, tg: FakeTelegram) -> bool:
            pending = table.pending is not None
            done = settled(table, tg)
            if pending and done:
                watch.shown.setdefault(table.index, []).append(
                    (watch.pressed[table.index][-1], time.monotonic())
                )
            return done

        Table.press = pressed  # type: ignore[method-assign]
        Table.settled = shown  # type: ignore[method-assign]


async def play(tg: FakeTelegram, table: Table, interval: float, until: float, delay: float) -> None:
    """Press a random legal button at most once per `interval` seconds until `until`, chosen
    after the wait (`load_world.play_frap` chooses before it: a hang's late edits would leave
    the button chosen gone)."""
    await asyncio.sleep(delay)
    while time.monotonic() < until:
        await asyncio.sleep(max(0.0, table.last_press + interval - time.monotonic()))
        try:
            user, message, data = await table.until(lambda: table.next_move(tg), timeout=30.0)
        except TimeoutError:
            table.stuck += 1
            table.pending, table.last_key, table.last_message = None, (-1, -1), None
            continue
        if time.monotonic() < until:
            await table.press(tg, user, message, data)


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    async with FakeTelegram(
        bot_username="frapbot", group_limit=RELAXED, global_limit=RELAXED
    ) as tg:
        side = FakeSide(tg)
        world = World(side, args.seed)
        tables = world.add_tables(args.tables)
        db = tmp / "lost.sqlite3"
        setup = BotProcess(tg, "frap", db, tmp / "setup.log", relaxed=True, seed=args.seed)
        await setup.start()
        await _open_all(tg, tables, "frap", setup)
        await setup.quit()
        side.set_limits(group_limit=20, global_limit=30)
        watch = Watch(tg, side)
        bot = BotProcess(tg, "frap", db, tmp / "bot.log", relaxed=False, seed=args.seed + 7)
        await bot.start()
        until = time.monotonic() + args.warm + args.hang + args.after
        rng = random.Random(args.seed)
        players = [
            asyncio.create_task(play(tg, t, args.interval, until, rng.uniform(0, args.interval)))
            for t in tables
        ]
        await asyncio.sleep(args.warm)
        tg.outage(502, hang=True, carry_out=True)
        began = time.monotonic()
        await asyncio.sleep(args.hang)
        tg.end_outage()
        ended = time.monotonic()
        await asyncio.gather(*players)
        await bot.quit()
        left = sum(
            any(m.message_id == message for m in tg.messages(chat)) for chat, message in watch.lost
        )
    again = []
    for table in tables:
        after = [s for p, s in watch.shown.get(table.index, []) if p >= ended]
        again.append(min(after) - ended if after else None)
    return {
        "tables": len(tables),
        "hang": ended - began,
        "again": again,
        "lost": len(watch.lost),
        "left": left,
        "after": Counter(m for t, m, _ in watch.calls if t >= ended),
        "during": Counter(m for t, m, _ in watch.calls if began <= t < ended),
    }


def report(r: dict[str, Any]) -> None:
    moved = sorted(a for a in r["again"] if a is not None)
    stuck = len(r["again"]) - len(moved)
    print(f"{r['tables']} tables, a hang of {r['hang']:.0f} s")
    if moved:
        p90 = moved[min(len(moved) - 1, int(0.9 * len(moved)))]
        print(
            f"moves again after the hang: p50 {statistics.median(moved):.1f} s, "
            f"p90 {p90:.1f} s, max {moved[-1]:.1f} s; tables that did not move again: {stuck}"
        )
    else:
        print(f"no table moved again ({stuck})")
    print(f"sends carried out, answers lost: {r['lost']}; still there at the end: {r['left']}")
    after = r["after"]
    print(
        f"after the hang: editMessageReplyMarkup {after['editMessageReplyMarkup']}, "
        f"deleteMessage {after['deleteMessage']}, all calls {sum(after.values())}"
    )
    print("calls after the hang by method:", dict(after.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hang", type=float, default=45.0, help="seconds Telegram holds calls")
    parser.add_argument("--warm", type=float, default=15.0, help="seconds of play before")
    parser.add_argument("--after", type=float, default=60.0, help="seconds of play after")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between actions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report(asyncio.run(run(args, Path(tmp))))


if __name__ == "__main__":
    main()
