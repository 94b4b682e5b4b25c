"""Build a database with many running tables, quickly, for the start-up measurement.

The tables are made by the bot's own GameService (as the handlers would call it) with a stub bot
in place of Telegram: every table opens, seats four players, deals, and plays a few random legal
moves; the presenter records each message slot (message id and digest) exactly as a running bot
would, so a restarted bot finds every message up to date and has nothing to re-send.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot import callbacks  # noqa: E402
from bot.games.family import codes  # noqa: E402
from bot.games.family.table import deal as deal_of  # noqa: E402
from bot.presenter import Presenter  # noqa: E402
from bot.service import GameService, Person  # noqa: E402
from bot.storage import Storage  # noqa: E402
from engine.actions import Do  # noqa: E402

FRAP = codes.Codes()  # the buttons of Frap, the game a new table plays


class StubBot:
    """Enough of bot.client.api.FrapBot for the presenter: numbered messages per chat, edits
    accepted."""

    rate_limiter = None  # no Telegram limits to spare: a turn ping is always a new message

    def __init__(self) -> None:
        self._next: defaultdict[int, int] = defaultdict(int)
        self.sweeps: list[asyncio.Task[None]] = []  # no lost answers to sweep up after
        self.last_posts: dict[int, int] = {}  # no lost answers to look for after a restart

    def recall(self, *_: Any) -> None:
        """Nothing to look for."""

    async def post_text(self, chat_id: int, text: str, keyboard: str, **_: Any) -> int:
        """A new message id in the chat."""
        self._next[chat_id] += 1
        return self._next[chat_id]

    async def edit_text(self, *_: Any) -> None:
        """Accept an edit."""

    async def delete_message(self, *_: Any) -> None:
        """Accept a deletion (a slot posted anew)."""


class SlotBuffer:
    """The presenter's view of storage, keeping message slots in memory until `save`: it stands
    for the storage and for its messages part both (the presenter writes `storage.messages`)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.messages = self
        self.slots: dict[str, tuple[int, int, str]] = {}

    async def remember_messages(
        self, rows: list[tuple[str, int, int, str]], *, forget: Sequence[str] = ()
    ) -> None:
        """Remember slots (written later in one transaction); forget the retired ones."""
        for slot, chat_id, message_id, digest in rows:
            self.slots[slot] = (chat_id, message_id, digest)
        for slot in forget:
            self.slots.pop(slot, None)

    async def save(self) -> None:
        """Write every slot at once."""
        rows = [(name, *row) for name, row in self.slots.items()]
        await self.storage.jobs.transaction(
            lambda db: db.executemany(
                "INSERT OR REPLACE INTO messages (slot, chat_id, message_id, content_hash) "
                "VALUES (?, ?, ?, ?)",
                rows,
            )
        )


def group_id(i: int) -> int:
    """The chat id of start-up table `i` (kept apart from the load tables' ids)."""
    return -1_002_000_000_000 - i


def user_id(i: int, j: int) -> int:
    """The user id of player `j` at start-up table `i`."""
    return 20_000_000 + 100 * i + j


async def build(
    path: str, tables: int, *, seed: int = 1, turn_timeout: int = 90, max_moves: int = 10
) -> dict[str, int]:
    """Create `tables` running tables of four players at `path`; returns a few counts."""
    storage = await Storage.open(path, lang="ru", ante=10, turn_timeout=turn_timeout)
    await storage.jobs.connection.execute("PRAGMA synchronous=OFF")  # the builder only: speed
    master = random.Random(seed)
    slots = SlotBuffer(storage)
    presenter = Presenter(StubBot(), slots)  # type: ignore[arg-type]
    service = GameService(storage, presenter, "frapbot", random.Random(seed), lobby_timeout=1800)
    gate = asyncio.Semaphore(16)

    async def one(i: int, rng: random.Random) -> int:
        async with gate:
            return await _table(service, i, rng, max_moves)

    seeds = [random.Random(master.random()) for _ in range(tables)]
    moves = sum(await asyncio.gather(*(one(i, rng) for i, rng in enumerate(seeds))))
    await presenter.flush()
    await presenter.save()
    await slots.save()
    for timer in service._timers.values():
        timer.cancel()
    await storage.close()
    return {"tables": tables, "moves": moves, "slots": len(slots.slots)}


async def _table(service: GameService, i: int, rng: random.Random, max_moves: int) -> int:
    """Open table `i`, deal, and play up to `max_moves` random moves; returns the moves."""
    moves = 0
    chat = group_id(i)
    people = [Person(user_id(i, j), f"S{i}x{j}", None, "ru") for j in range(4)]
    for person in people:
        await service.touch(person, started=True)
    live = await service.lobby.new_table(chat, f"Start {i}", people[0])
    for person in people[1:]:
        await service.lobby.join(chat, person)
    await service.start(chat, people[0], is_admin=True)
    for _ in range(rng.randrange(max_moves + 1)):
        deal = deal_of(live)
        if deal is None or deal.finished or deal.to_act is None:
            break
        seat = deal.to_act
        legal = deal.legal_actions(seat)
        playable = [a for a in legal if a.do is not Do.LOOK] or legal
        action = rng.choice(playable)
        press = callbacks.Press(
            "a", live.row.table_id, live.row.deal_no, live.step, FRAP.action_code(action)
        )
        await service.act(live.deal_seats[seat], press)
        moves += 1
        after = deal_of(live)
        if after is not None and after.finished:
            break
    return moves


if __name__ == "__main__":
    import time

    target = sys.argv[1] if len(sys.argv) > 1 else "/tmp/frap-startup.sqlite3"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    started = time.perf_counter()
    print(asyncio.run(build(target, count)), f"{time.perf_counter() - started:.1f}s")
