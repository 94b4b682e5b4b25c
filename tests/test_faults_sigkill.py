"""`kill -9` the bot process at random points of 50 games, restart it on the same database,
and let every game finish its deal — the ledger must balance and no deal may be settled twice.

The bot runs as a real subprocess (`python -m bot`) against the fake Telegram server, which runs
in the test's event loop. Scripted players press random legal buttons from what their private
control messages show, and repeat an action that produced nothing (an update lost in a kill).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage import Storage
from engine.actions import Action
from engine.events import ChipsMoved
from engine.record import replay, start
from tests.bot_harness import action_buttons, bot_messages, control_message
from tests.fakebot import FakeChat, FakeTelegram, FakeUser, StoredMessage

ROOT = Path(__file__).resolve().parent.parent
GAMES = 50
KILLS = 6
SEED = 4
RETRY_AFTER = 4.0  # seconds without any change before an action is repeated
SETTLE = 0.15  # a chat's messages must be this still before a player reads them


class BotProcess:
    """`python -m bot` as a subprocess pointed at the fake server."""

    def __init__(self, tg: FakeTelegram, db: Path, log: Path) -> None:
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "BOT_TOKEN": tg.token,
            "BOT_API_URL": tg.base_url,
            "BOT_FILE_API_URL": tg.base_file_url,
            "DB_PATH": str(db),
            "TURN_TIMEOUT": "3",
            "AWAY_DELAY": "0.3",
            "GROUP_MESSAGES_PER_MINUTE": "100000",
            "MESSAGES_PER_SECOND": "100000",
            "POLL_TIMEOUT": "1",
            "LOG_LEVEL": "WARNING",
            "PTB_TIMEDELTA": "true",
        }
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        with self.log.open("ab") as out:
            out.write(f"---- start {self.starts}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=ROOT, env=self.env, stdout=out, stderr=out
            )
        self.starts += 1

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9


@dataclass
class Game:
    """One group and its scripted players."""

    index: int
    group: FakeChat
    players: list[FakeUser]
    rng: random.Random
    looked_at: float = -1.0  # the time of the last change the players reacted to
    last_key: str = ""
    last_action: float = 0.0
    actions: int = 0
    repeats: int = 0  # actions done again because nothing came of them (lost in a kill)
    done: bool = False
    log: list[str] = field(default_factory=list)


class Changes:
    """When each chat last changed (a message sent or edited), read off the fake's call log."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self.read = 0
        self.at: dict[int, float] = {}

    def update(self) -> None:
        now = time.monotonic()
        log = self.tg.log
        for call in log[self.read :]:
            if call.ok and call.method in ("sendMessage", "editMessageText", "sendDocument"):
                self.at[int(call.params["chat_id"])] = now
        self.read = len(log)

    def last(self, game: Game) -> float:
        chats = [game.group.id, *(p.id for p in game.players)]
        return max(self.at.get(chat, 0.0) for chat in chats)


def _latest(messages: list[StoredMessage], prefix: str) -> StoredMessage | None:
    for message in reversed(messages):
        if any(d and d.startswith(prefix) for _, d in message.buttons):
            return message
    return None


async def _step(tg: FakeTelegram, game: Game, changed: float) -> None:
    """Look at what the players see; do the next thing (or repeat one that got lost)."""
    now = time.monotonic()
    if now - changed < SETTLE:
        return
    if changed <= game.looked_at and now - game.last_action < RETRY_AFTER:
        return
    game.looked_at = changed
    group_messages = bot_messages(tg, game.group)
    if _latest(group_messages, "n:") is not None:
        game.done = True
        return
    creator = game.players[0]
    lobby = _latest(group_messages, "j:")
    dealt = any("сдача №" in m.text for m in group_messages)
    actions: list[tuple[str, Coroutine[Any, Any, object]]] = []
    if lobby is None and not dealt:
        actions.append(("newgame", creator.send(game.group, "/newgame")))
    elif lobby is not None and not dealt:
        table_id = next(d for _, d in lobby.buttons if d and d.startswith("j:"))[2:]
        # who sits is the lobby's «За столом …» line (its creator is named above it, seated or not)
        seated = next((ln for ln in lobby.text.splitlines() if ln.startswith("За столом")), "")
        missing = [p for p in game.players if p.first_name not in seated]
        for player in missing:
            actions.append((f"join {player.first_name}", player.start(f"j{table_id}")))
        if not missing:
            actions.append(("startgame", creator.send(game.group, "/startgame")))
    else:
        movers = []
        for player in game.players:
            message = control_message(tg, player)
            if message is None:
                continue
            buttons = action_buttons(message)
            moves = [b for b in buttons if not b[1].endswith(":L")]
            if moves:
                movers.append((player, message, moves))
            elif buttons and "Откройте карты, чтобы" in message.text:
                movers.append((player, message, buttons))  # F7: the dark declarer looks first
        if movers:
            player, message, buttons = game.rng.choice(movers)
            _, data = game.rng.choice(buttons)
            actions.append((f"{player.first_name} {data}", player.press(message, data=data)))
    key = " ".join(k for k, _ in actions)
    if not actions or (key == game.last_key and now - game.last_action < RETRY_AFTER):
        for _, coroutine in actions:
            coroutine.close()
        return
    for _, coroutine in actions:
        await coroutine
    game.repeats += key == game.last_key
    game.log.append(key)
    game.actions += 1
    game.last_key, game.last_action = key, now


async def _drive(tg: FakeTelegram, changes: Changes, games: list[Game], until: float) -> None:
    while time.monotonic() < until and not all(g.done for g in games):
        changes.update()
        for game in games:
            if not game.done:
                await _step(tg, game, changes.last(game))
        await asyncio.sleep(0.02)


async def _polling(tg: FakeTelegram) -> None:
    """Wait until the bot (just restarted, perhaps) is up and polling."""
    seen = len(tg.calls("getUpdates"))
    await tg.wait_for(lambda: len(tg.calls("getUpdates")) > seen + 1, timeout=30)


def _world(tg: FakeTelegram) -> list[Game]:
    master = random.Random(SEED)
    games = []
    for i in range(GAMES):
        n = master.randint(2, 4)
        group = tg.group(-1_001_000 - i, f"Table {i}")
        players = [tg.user(100_000 + 10 * i + j, f"G{i}P{j}") for j in range(n)]
        for j, player in enumerate(players):
            group.add(player, creator=j == 0)
        games.append(Game(i, group, players, random.Random(master.random())))
    return games


async def test_sigkill_at_random_points_of_50_games(tmp_path: Path) -> None:
    db = tmp_path / "frap.sqlite3"
    log = tmp_path / "bot.log"
    async with FakeTelegram(bot_username="frapbot", global_limit=100_000) as tg:
        games = _world(tg)
        changes = Changes(tg)
        bot = BotProcess(tg, db, log)
        pauses = random.Random(SEED)
        bot.start()
        kills = 0
        try:
            for _ in range(KILLS):
                await _drive(tg, changes, games, time.monotonic() + pauses.uniform(1.0, 5.0))
                if all(g.done for g in games):
                    break
                bot.kill()
                kills += 1
                bot.start()
            await _drive(tg, changes, games, time.monotonic() + 120)
            await _polling(tg)
        finally:
            code = bot.stop()
        unfinished = [(g.index, g.log[-5:]) for g in games if not g.done]
        assert not unfinished, (unfinished, log.read_text()[-3000:])
        assert code == 0 and kills >= 4
        # A restart never edits a message the bot deleted (a turn ping's old one)
        # ("message is not modified" is allowed here: a digest not yet written when killed)
        edits = [c for c in tg.errors if c.method.startswith("edit")]
        refused = [c.description for c in edits if "not modified" not in (c.description or "")]
        assert refused == [], refused
        lost = len(tg.unanswered_callbacks())
        print(
            f"{kills} kills; {sum(g.actions for g in games)} actions, "
            f"{sum(g.repeats for g in games)} repeated; {lost} presses never answered; "
            f"{len(edits)} edits refused as not modified"
        )
    await _check_database(db, games)


async def _check_database(db: Path, games: list[Game]) -> None:
    storage = await Storage.open(str(db))
    try:
        assert await storage.check() == []  # integrity; balances + pot = 0; balances = ledger
    finally:
        await storage.close()
    with closing(sqlite3.connect(db)) as sql:
        assert sql.execute("SELECT COUNT(*) FROM ledger WHERE deal_id IS NULL").fetchone() == (0,)
        for game in games:
            chat_id = game.group.id
            tables = sql.execute(
                "SELECT table_id, status FROM tables WHERE chat_id = ?", (chat_id,)
            ).fetchall()
            assert len(tables) == 1 and tables[0][1] == "playing", tables
            deals = sql.execute(
                "SELECT deal_id, deal_no, seats, record, status FROM deals WHERE table_id = ? "
                "ORDER BY deal_no",
                (tables[0][0],),
            ).fetchall()
            assert [no for _, no, *_ in deals] == list(range(1, len(deals) + 1))
            ledger = sql.execute(
                "SELECT deal_id, user_id, amount, reason FROM ledger WHERE chat_id = ?", (chat_id,)
            ).fetchall()
            pot = 0
            for index, (deal_id, _, seats, record_text, status) in enumerate(deals):
                record = json.loads(record_text)
                played = replay(record)  # every deal's record replays
                assert status == "finished" and played.finished, (deal_id, status)
                last = index == len(deals) - 1
                assert played.needs_redeal is not last  # F8 redeals, then the deal that counted
                assert record["pot"] == pot  # no chip lost or made between deals
                pot = played.pot
                booked = Counter((u, a, r) for d, u, a, r in ledger if d == deal_id)
                expected = _movements(record, tuple(json.loads(seats)))
                assert booked == expected, (deal_id, booked, expected)  # settled exactly once
            (chat_pot,) = sql.execute(
                "SELECT pot FROM chats WHERE chat_id = ?", (chat_id,)
            ).fetchone()
            assert chat_pot == pot


def _movements(record: dict, seats: tuple[int, ...]) -> Counter[tuple[int, int, str]]:  # type: ignore[type-arg]
    """The ledger rows one replay of a hand record books: antes, then every step's chips."""
    deal = start(record)
    moves: Counter[tuple[int, int, str]] = Counter(
        (seats[s], d, "ante") for s, d in enumerate(deal.delta) if d
    )
    for entry in record["actions"]:
        deal, events = deal.apply(Action.from_record(entry, deal.WORDS))
        moves.update(
            (seats[e.seat], e.amount, e.reason.value)
            for e in events
            if isinstance(e, ChipsMoved) and e.amount
        )
    return moves
