"""Golden transcripts: seeded sessions of every kind of table played through the fake Bot API, every
message's every version and every button written down, so that a change meant to move code and not
behaviour is checked against what players saw before it (`tests/golden/<session>.txt`).

Re-record after a change that is meant to change what players see, and read the diff:
`GOLDEN_RECORD=1 .venv/bin/python -m pytest tests/test_golden.py -n0`.

Players act only through the Telegram surface (the buttons on their messages), so the sessions
survive any re-arrangement of the bot's insides."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.games.family.table import deal as deal_of
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    make_players,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.models import FakeChat, StoredMessage

GOLDEN = Path(__file__).parent / "golden"
# The turn pings are posted anew only while the limiter's budget spares a message: a budget no
# scripted session spends keeps every ping a new message, whatever the machine's speed.
ROOMY = {"messages_per_second": 100_000}
QUICK = {"computer_pause_min": 0.0, "computer_pause_max": 0.0, **ROOMY}


class Transcript:
    """What every chat showed after each step: a message's new versions, as they changed; or,
    `visible`, a chat's whole visible state when it changed (where computers move between the
    steps, a turn ping may be posted once or twice, so message ids are not written down)."""

    def __init__(self, tg: FakeTelegram, *, visible: bool = False) -> None:
        self.tg = tg
        self.visible = visible
        self.lines: list[str] = []
        self._seen: dict[tuple[int, int], str] = {}
        self._shown: dict[int, list[str]] = {}
        self._steps = 0

    def _name(self, chat: FakeChat) -> str:
        return chat.title if chat.title else f"dm {chat.user.first_name if chat.user else chat.id}"

    @staticmethod
    def _state(message: StoredMessage) -> str:
        if message.deleted:
            return "deleted"
        kind = "photo " if message.photo else "document " if message.document else ""
        rows = [
            "  " + " ".join(f"[{text} | {data or url}]" for text, data, url in row)
            for row in _rows(message)
        ]
        return "\n".join([f"{kind}{message.html}", *rows])

    def step(self, what: str) -> None:
        """Write down `what` was done and every message that changed since the last step."""
        self._steps += 1
        self.lines.append(f"## {self._steps}. {what}")
        for chat in sorted(self.tg.world.chats.values(), key=lambda c: c.id):
            if self.visible:
                shown = [self._state(m) for m in chat.messages if m.from_bot and not m.deleted]
                if self._shown.get(chat.id) != shown:
                    self._shown[chat.id] = shown
                    self.lines.append(f"[{self._name(chat)}]")
                    self.lines.append("\n---\n".join(shown))
                continue
            for message in chat.messages:
                if not message.from_bot:
                    continue
                key = (chat.id, message.message_id)
                state = self._state(message)
                if self._seen.get(key) == state:
                    continue
                how = "new" if key not in self._seen else "now"
                if how == "new" and message.notified:
                    how = "new 🔔"
                self._seen[key] = state
                self.lines.append(f"[{self._name(chat)} #{message.message_id} {how}]")
                self.lines.append(state)
        self.lines.append("")

    def text(self) -> str:
        return "\n".join(self.lines)


def _rows(message: StoredMessage) -> list[list[tuple[str, str | None, str | None]]]:
    markup = message.reply_markup or {}
    return [
        [(b.get("text", ""), b.get("callback_data"), b.get("url")) for b in row]
        for row in markup.get("inline_keyboard", [])
    ]


def _mover(tg: FakeTelegram, users: list[FakeUser]) -> tuple[FakeUser, StoredMessage, list[str]]:
    """The one player whose latest private message offers moves, that message and the moves."""
    found = []
    for user in users:
        latest = next((m for m in reversed(bot_messages(tg, user)) if m.buttons), None)
        moves = moves_now(latest)
        if latest is not None and moves:
            found.append((user, latest, moves))
    assert len(found) <= 1, f"more than one player may act: {[f[0] for f in found]}"
    if not found:
        raise LookupError("nobody may act")
    return found[0]


def _choose(moves: list[str], rng: random.Random) -> str:
    """A seeded choice that always gets on: a word or a card where one is offered, else a toggle
    (a discard's confirming button appears once two cards are toggled)."""
    words = [data for data in moves if data.startswith("a:")]
    return rng.choice(words or moves)


def _label(message: StoredMessage, data: str) -> str:
    return next(text for text, d in message.buttons if d == data)


async def _press_until_nobody_acts(
    bot: RunningBot, script: Transcript, users: list[FakeUser], rng: random.Random, limit: int
) -> int:
    """Each step the player to act presses a seeded choice of his buttons, until nobody may act
    or `limit` presses; the presses made."""
    for presses in range(limit):
        try:
            user, message, moves = _mover(bot.tg, users)
        except LookupError:
            return presses
        data = _choose(moves, rng)
        label = _label(message, data)
        await user.press(message, data=data)
        await bot.idle()
        script.step(f"{user.first_name} presses «{label}»")
    return limit


async def _lobby_press(bot: RunningBot, user: FakeUser, chat: FakeChat | FakeUser, prefix: str
                       ) -> str:  # fmt: skip
    lobby = next(m for m in reversed(bot_messages(bot.tg, chat)) if m.buttons)
    data = next(d for _, d in lobby.buttons if d and d.startswith(prefix))
    label = _label(lobby, data)
    await user.press(lobby, data=data)
    await bot.idle()
    return label


async def family_deal(tg: FakeTelegram, db: Path, game: str, players: int, lang: str) -> str:
    """A whole deal of a Frap-family game and the next deal's start, then the table stopped."""
    group, users = make_players(tg, players, lang=lang)
    script = Transcript(tg)
    async with running_bot(tg, db, seed=11, **ROOMY) as bot:
        await open_table(bot, group, users, f"/newgame {game}")
        script.step(f"{players} players open a {game} table, join and start")
        rng = random.Random(11)
        assert await _press_until_nobody_acts(bot, script, users, rng, 400) > 0
        await users[0].send(group, "/stopgame")
        await bot.idle()
        script.step("the creator stops the table")
    return script.text()


async def short_pulya(tg: FakeTelegram, db: Path, players: int, lang: str) -> str:
    """The first 150 presses of a Preferans pulya to 10 (several deals), then the pulya stopped
    early and settled as it stands, and the sheet asked for."""
    group, users = make_players(tg, players, lang=lang)
    script = Transcript(tg)
    async with running_bot(tg, db, seed=12, **ROOMY) as bot:
        await bot.service.storage.chats.chat(GROUP_ID, "Friends")
        await bot.service.storage.chats.set_chat(GROUP_ID, rules={"preferans": {"target": 10}})
        await open_table(bot, group, users, "/newgame preferans")
        script.step(f"{players} players open a Preferans table, join and start")
        rng = random.Random(12)
        await _press_until_nobody_acts(bot, script, users, rng, 150)
        await users[0].send(group, "/stopgame")
        await bot.idle()
        script.step("the creator stops the pulya")
        await users[1].send(group, "/pulya")
        await bot.idle()
        script.step("a player asks for the sheet")
    return script.text()


async def practice_table(tg: FakeTelegram, db: Path) -> str:
    """A practice table in a private chat against three Amateurs: one deal (the computers' moves
    are written down where the player decides again, as they land between his presses)."""
    _, (alice,) = make_players(tg, 1)
    script = Transcript(tg, visible=True)
    async with running_bot(tg, db, seed=13, **QUICK) as bot:
        await alice.start()
        await alice.send(alice.dm, "/newgame frap")
        await bot.idle()
        script.step("Alice opens a practice table in private")
        await _lobby_press(bot, alice, alice, "s:")
        rng = random.Random(13)
        for _ in range(60):
            await _settle(bot, alice)
            script.step("the computers have moved")
            try:
                _, message, moves = _mover(tg, [alice])
            except LookupError:
                break
            data = _choose(moves, rng)
            label = _label(message, data)
            await alice.press(message, data=data)
            await bot.idle()
            script.step(f"Alice presses «{label}»")
    return script.text()


async def _settle(bot: RunningBot, user: FakeUser) -> None:
    """Wait until the player may act again or the deal is over (a result with its button)."""

    def ready() -> bool:
        try:
            _mover(bot.tg, [user])
        except LookupError:
            live = bot.service.table_in(user.id)
            return live is None or deal_of(live) is None or deal_of(live).finished
        return True

    await bot.tg.wait_for(ready, timeout=30)
    await bot.idle()


async def restart_mid_deal(tg: FakeTelegram, db: Path) -> str:
    """Half a Frap deal, the bot restarted on the same database, the deal played to its end."""
    group, users = make_players(tg, 3)
    script = Transcript(tg)
    rng = random.Random(14)
    async with running_bot(tg, db, seed=14, **ROOMY) as bot:
        await open_table(bot, group, users, "/newgame frap")
        script.step("3 players open a Frap table, join and start")
        await _press_until_nobody_acts(bot, script, users, rng, 8)
    script.step("the bot stops")
    async with running_bot(tg, db, seed=15, **ROOMY) as bot:
        await bot.idle()
        script.step("the bot starts again")
        await _press_until_nobody_acts(bot, script, users, rng, 400)
    return script.text()


Session = Callable[[FakeTelegram, Path], Awaitable[str]]


def _family(game: str, players: int, lang: str) -> Session:
    return lambda tg, db: family_deal(tg, db, game, players, lang)


def _pulya(players: int, lang: str) -> Session:
    return lambda tg, db: short_pulya(tg, db, players, lang)


SESSIONS: dict[str, Session] = {
    "frap_ru_4": _family("frap", 4, "ru"),
    "khrap_ru_3": _family("khrap", 3, "ru"),
    "student_en_3": _family("student", 3, "en"),
    "napoleon_ru_4": _family("napoleon", 4, "ru"),
    "pulya_ru_3": _pulya(3, "ru"),
    "pulya_en_4": _pulya(4, "en"),
    "practice_frap_ru": practice_table,
    "restart_frap_ru": restart_mid_deal,
}
