"""The bench's side of the load test: the fake Bot API server, its accounting, and scripted tables.

Everything here runs in the bench's own process (one event loop): the fake server from
`tests/fakebot` (used as is; its `_api_call` is wrapped on the instance) and the players, who
read their private control messages and press random legal buttons, like
`tests/bot_harness.play_deal` but for many tables at once and woken by the server itself instead
of polling until idle.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakebot import FakeChat, FakeTelegram, FakeUser, StoredMessage  # noqa: E402
from tests.fakebot.limits import FloodControl  # noqa: E402

NEW_MESSAGE_METHODS = ("sendMessage", "sendDocument", "sendPhoto")  # a photo: the pulya sheet
LOOK_FIRST = ("Откройте карты, чтобы", "Look at your cards to")


@dataclass
class Tally:
    """What the bot asked of the fake server (getUpdates excluded)."""

    calls: Counter[str] = field(default_factory=Counter)
    new_group: int = 0
    new_dm: int = 0
    errors: Counter[tuple[str, int]] = field(default_factory=Counter)
    too_many: int = 0  # 429 answers (flood control), injected faults excluded
    handler_seconds: float = 0.0  # the fake's own time inside its handlers

    def copy(self) -> Tally:
        """A snapshot."""
        return Tally(
            Counter(self.calls),
            self.new_group,
            self.new_dm,
            Counter(self.errors),
            self.too_many,
            self.handler_seconds,
        )

    def minus(self, earlier: Tally) -> Tally:
        """What happened since `earlier`."""
        return Tally(
            self.calls - earlier.calls,
            self.new_group - earlier.new_group,
            self.new_dm - earlier.new_dm,
            self.errors - earlier.errors,
            self.too_many - earlier.too_many,
            self.handler_seconds - earlier.handler_seconds,
        )

    @property
    def total(self) -> int:
        """All calls."""
        return sum(self.calls.values())


class FakeSide:
    """The fake server plus accounting: every call is counted, stamped with the fake's own
    handler time (response headers X-Fake-T0/X-Fake-T1, CLOCK_MONOTONIC) and wakes the table
    whose chat it touched. The call log is emptied as it is counted (it would grow without end).
    """

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self.tally = Tally()
        self.owner: dict[int, Table] = {}  # chat id (group or user's private chat) -> table
        original = tg._api_call

        async def api_call(method: str, request: Any) -> Any:
            t0 = time.monotonic()
            response = await original(method, request)
            t1 = time.monotonic()
            call = tg.log[-1]  # appended just before `original` returned, without an await
            tg.log.clear()
            response.headers["X-Fake-T0"] = repr(t0)
            response.headers["X-Fake-T1"] = repr(t1)
            if method != "getUpdates":
                self._account(call, t1 - t0)
            return response

        tg._api_call = api_call  # type: ignore[method-assign]

    def set_limits(self, group_limit: int, global_limit: int) -> None:
        """Fresh flood windows with these limits (forgets what was sent before)."""
        flood = FloodControl(group_limit, global_limit)
        self.tg.flood = flood
        self.tg.api.flood = flood

    def _account(self, call: Any, seconds: float) -> None:
        tally = self.tally
        tally.calls[call.method] += 1
        tally.handler_seconds += seconds
        if not call.ok and not call.injected:
            tally.errors[(call.method, call.status)] += 1
            if call.status == 429:
                tally.too_many += 1
        chat_id: int | None = None
        if "chat_id" in call.params:
            try:
                chat_id = int(call.params["chat_id"])
            except (TypeError, ValueError):
                chat_id = None
        elif "callback_query_id" in call.params:
            record = self.tg.world.callbacks.get(str(call.params["callback_query_id"]))
            chat_id = record.message.chat.id if record else None
        if call.ok and call.method in NEW_MESSAGE_METHODS and chat_id is not None:
            if chat_id < 0:
                tally.new_group += 1
            else:
                tally.new_dm += 1
        table = self.owner.get(chat_id) if chat_id is not None else None
        if table is not None:
            table.changed.set()


# ---- messages as the players see them ----


def latest_bot_message(chat: FakeChat, prefix: str | None = None) -> StoredMessage | None:
    """The newest live bot message in `chat` (with a button whose data starts with `prefix`)."""
    for message in reversed(chat.messages):
        if message.deleted or not message.from_bot:
            continue
        if prefix is None or any(d and d.startswith(prefix) for _, d in message.buttons):
            return message
        if prefix == "n:" and message.text.startswith("🃏"):
            return None  # the result message follows its deal's table message: stop there
    return None


def control_message(user: FakeUser) -> StoredMessage | None:
    """The user's latest private control message (the hand): it starts with 🃏."""
    for message in reversed(user.dm.messages):
        if message.from_bot and not message.deleted and message.text.startswith("🃏"):
            return message
    return None


def deal_key(data: str) -> tuple[int, int]:
    """(deal number, step) of an action button's data `a:table:deal:step:code`; a button valid
    at any step (F7's look: step -1) gives -1."""
    parts = data.split(":")
    return int(parts[2]), int(parts[3])


# ---- tables ----


@dataclass(eq=False)
class Table:
    """One group with four scripted players."""

    index: int
    group: FakeChat
    users: list[FakeUser]
    rng: random.Random
    game: str = ""  # what /newgame names ("": the chat's default game, Frap)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pending: tuple[str, StoredMessage, int] | None = None  # (query id, message, its edits)
    last_key: tuple[int, int] = (-1, -1)
    last_message: StoredMessage | None = None
    last_edits: int = -1
    last_press: float = 0.0
    presses: int = 0
    refused: int = 0
    stuck: int = 0
    active: bool = True

    async def until(self, ready: Any, timeout: float = 120.0) -> Any:
        """Wait until `ready()` returns something truthy (woken by the fake server)."""
        deadline = time.monotonic() + timeout
        while True:
            self.changed.clear()
            value = ready()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"table {self.index}: nothing happened for {timeout}s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(remaining, 1.0))

    # -- the press in flight --

    def settled(self, tg: FakeTelegram) -> bool:
        """No press in flight: the last one was answered and (unless refused) showed its effect."""
        if self.pending is None:
            return True
        query_id, message, edits = self.pending
        answer = tg.callback_answer(query_id)
        if answer is None:
            return False
        if answer.get("text") or answer.get("url"):  # a refusal (a successful press: no text)
            self.refused += 1
        elif message.edits == edits and not message.deleted:
            return False
        self.pending = None
        return True

    async def press(
        self, tg: FakeTelegram, user: FakeUser, message: StoredMessage, data: str
    ) -> None:
        """Press a button and remember what the table must show before the next press."""
        if data[:2] in ("a:", "t:") and deal_key(data)[1] >= 0:
            self.last_key = deal_key(data)
        self.last_message, self.last_edits = message, message.edits
        self.last_press = time.monotonic()
        query_id = await user.press(message, data=data)
        self.pending = (query_id, message, message.edits)
        self.presses += 1

    # -- what to do next --

    def next_move(self, tg: FakeTelegram) -> tuple[FakeUser, StoredMessage, str] | None:
        """A random legal button of the player to act, or the next-deal button; None: wait."""
        if not self.settled(tg):
            return None
        movers = []
        for user in self.users:
            message = control_message(user)
            if message is None:
                continue
            buttons = [(t, d) for t, d in message.buttons if d and d[:2] in ("a:", "t:")]
            moves = [b for b in buttons if not b[1].endswith(":L")]
            if not moves and buttons and any(s in message.text for s in LOOK_FIRST):
                moves = buttons  # F7: the dark declarer looks, then discards
            if not moves:
                continue
            key = deal_key(moves[0][1])
            if key[1] < 0:  # only a look (F7's dark declarer): as fresh as the last position
                key = (key[0], self.last_key[1] if key[0] == self.last_key[0] else -1)
            fresh = key > self.last_key or (
                key == self.last_key
                and (message is not self.last_message or message.edits > self.last_edits)
            )
            if fresh:
                movers.append((key, user, message, moves))
        if movers:
            best = max(m[0] for m in movers)
            _, user, message, moves = self.rng.choice([m for m in movers if m[0] == best])
            return user, message, self.rng.choice(moves)[1]
        result = latest_bot_message(self.group, "n:")
        if result is not None and not (
            result is self.last_message and result.edits == self.last_edits
        ):
            data = next(d for _, d in result.buttons if d and d.startswith("n:"))
            if int(data.split(":")[2]) >= self.last_key[0]:
                return self.rng.choice(self.users), result, data
        return None


class World:
    """Groups of four players, registered with the fake and its accounting."""

    def __init__(self, side: FakeSide, seed: int) -> None:
        self.side = side
        self.tg = side.tg
        self.master = random.Random(seed)
        self.tables: list[Table] = []

    def add_tables(self, count: int, players: int = 4, game: str = "") -> list[Table]:
        """New groups with `players` members each (the first is the group's creator), to play
        `game` ("": the default)."""
        added = []
        for _ in range(count):
            i = len(self.tables)
            group = self.tg.group(-1_001_000_000_000 - i, f"Table {i}")
            users = [
                self.tg.user(10_000_000 + 100 * i + j, f"P{i}x{j}", language_code="ru")
                for j in range(players)
            ]
            for j, user in enumerate(users):
                group.add(user, creator=j == 0)
            table = Table(i, group, users, random.Random(self.master.random()), game)
            self.side.owner[group.id] = table
            for user in users:
                self.side.owner[user.id] = table
            self.tables.append(table)
            added.append(table)
        return added


# ---- scripts ----


async def open_frap_table(tg: FakeTelegram, table: Table) -> None:
    """Everyone starts the bot privately, the creator opens a table, all join, it starts."""
    for user in table.users:
        await user.start()
    await table.until(lambda: all(latest_bot_message(u.dm) for u in table.users))
    creator = table.users[0]
    await creator.send(table.group, f"/newgame {table.game}".strip())
    lobby = await table.until(lambda: latest_bot_message(table.group, "j:"))
    join = next(d for _, d in lobby.buttons if d and d.startswith("j:"))
    start = next(d for _, d in lobby.buttons if d and d.startswith("s:"))
    for user in table.users[1:]:
        query = await user.press(lobby, data=join)
        await table.until(lambda q=query: tg.callback_answer(q) is not None)
    query = await creator.press(lobby, data=start)
    await table.until(lambda: tg.callback_answer(query) is not None)
    await table.until(lambda: table.next_move(tg))


async def open_echo_table(tg: FakeTelegram, table: Table) -> None:
    """Everyone sends /start privately and gets the echo bot's message with a button."""
    for user in table.users:
        await user.start()
    await table.until(lambda: all(latest_bot_message(u.dm, "e:") for u in table.users))


async def play_frap(
    tg: FakeTelegram, table: Table, interval: float, until: float, start_delay: float = 0.0
) -> None:
    """Press random legal buttons, at most one per `interval` seconds, until `until`."""
    if start_delay:
        await asyncio.sleep(start_delay)
    while time.monotonic() < until:
        try:
            move = await table.until(lambda: table.next_move(tg), timeout=30.0)
        except TimeoutError:
            table.stuck += 1
            table.pending = None
            table.last_key, table.last_message = (-1, -1), None
            continue
        wait = table.last_press + interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
            if time.monotonic() >= until:
                break
        user, message, data = move
        await table.press(tg, user, message, data)


async def play_echo(
    tg: FakeTelegram, table: Table, interval: float, until: float, start_delay: float = 0.0
) -> None:
    """The players take turns pressing the button of their echo message, like a deal's moves."""
    if start_delay:
        await asyncio.sleep(start_delay)
    turn = 0
    while time.monotonic() < until:
        user = table.users[turn % len(table.users)]
        turn += 1
        try:
            await table.until(lambda: table.settled(tg), timeout=30.0)
        except TimeoutError:
            table.stuck += 1
            table.pending = None
            continue
        message = latest_bot_message(user.dm, "e:")
        if message is None:
            continue
        wait = table.last_press + interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
            if time.monotonic() >= until:
                break
        data = next(d for _, d in message.buttons if d)
        await table.press(tg, user, message, data)
