"""What every game goes through at the bot, walked once per game of the registry and for the
toy game of the tests (`tests/toy_game.py`): a restart mid-deal, /stopgame mid-deal, forged
and stale presses, the lobby. A game's own rules (its scores, its forged bids, a pulya's
settlement) stay in its own tests; here only what the host promises whatever the game is.

Everyone plays in English, so what a player is told is read off the catalog (`locales.t`)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import callbacks, computer, games
from bot.table.live import OpenTable
from locales import t
from tests import toy_game
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    push_callback,
    running_bot,
    with_button,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage
from tests.fakebot.models import FakeChat

LANG = "en"
GAMES = [*games.ORDER, toy_game.GAME]  # the registry's, in its order, and the toy game
QUICK = {"computer_pause_min": 0.0, "computer_pause_max": 0.01}


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each game in turn; the toy game registered (its one registry line) for its turn only."""
    if request.param == toy_game.GAME:
        toy_game.register(monkeypatch)
    return str(request.param)


def seats(game: str) -> int:
    """How many people sit down: three, or as many as the game takes if it takes fewer or more."""
    low, high = games.ui(game).players
    return min(max(3, low), high)


def newgame(game: str) -> str:
    return f"/newgame {games.ui(game).aliases[0]}"


def text(message: StoredMessage | None) -> str:
    assert message is not None
    return message.text


def said(key: str, **values: Any) -> str:
    """What a player of this module is told for a catalog key."""
    return t(LANG, key, **values)


# ---- a table in play ----------------------------------------------------------------------------


@dataclass
class Table:
    """A table of `game` dealt its first deal: the bot, the group, the people at it."""

    bot: RunningBot
    group: FakeChat
    users: list[FakeUser]

    @property
    def tg(self) -> FakeTelegram:
        return self.bot.tg

    @property
    def live(self) -> OpenTable:
        live = self.bot.service.table_in(GROUP_ID)
        assert live is not None
        return live


@asynccontextmanager
async def dealt(
    tg: FakeTelegram, db: Path, game: str, again: Table | None = None, *, extra: int = 0
) -> AsyncIterator[Table]:
    """The bot running on `db` with a table of `game` in the group, opened and dealt; or (`again`)
    started again on the database where `again` was dealt. `extra` more people are in the group
    and have started the bot, but do not sit down (the last of `users`)."""
    if again is None:
        n = seats(game)
        group, users = make_players(tg, n + extra, lang=LANG)
    else:
        group, users = again.group, again.users
    async with running_bot(tg, db, seed=5, **QUICK) as bot:
        await bot.idle()
        if again is None:
            for user in users[n:]:
                await user.start()
            await open_table(bot, group, users[:n], newgame(game))
        table = Table(bot, group, users)
        assert table.live.in_deal
        yield table


def the_mover(table: Table) -> tuple[FakeUser, StoredMessage, list[str]]:
    """The one player who may move now: his control message and the moves on it."""
    movers = []
    for user in table.users:
        message = control_message(table.tg, user)
        moves = moves_now(message)
        if message is not None and moves:
            movers.append((user, message, moves))
    assert len(movers) == 1, [m[0] for m in movers]
    return movers[0]


async def move(table: Table, rng: random.Random, times: int = 1) -> None:
    """The mover presses a random button of his, `times` times over."""
    for _ in range(times):
        user, message, moves = the_mover(table)
        await user.press(message, data=rng.choice(moves))
        await table.bot.idle()


async def finish(table: Table, rng: random.Random) -> int:
    """Random presses until the deal in play ends (a match deals the next one at once: until the
    deal in play is another); the deal's id, finished."""
    live = table.live
    deal_id = live.deal_id
    assert deal_id is not None
    for _ in range(400):
        if live.deal_id != deal_id or not live.in_deal:
            break
        await move(table, rng)
    row = await table.bot.service.storage.tables.deal(deal_id)
    assert row is not None and row.status == "finished", row
    return deal_id


async def money(table: Table) -> tuple[dict[int, int], int]:
    """Each player's chips in the group and the group's pots."""
    storage = table.bot.service.storage
    balances = {user.user_id: b for user, b in await storage.money.balances(GROUP_ID)}
    return balances, (await storage.chats.chat(GROUP_ID)).pot


Shown = tuple[int, int, str, list[tuple[str, str | None]]]  # a chat, a message, its text, buttons


def seen(table: Table) -> list[Shown]:
    """Every message of the bot's that the players see: in the group and their private chats."""
    chats: list[FakeChat | FakeUser] = [table.group, *table.users]
    return [
        (m.chat.id, m.message_id, m.text, m.buttons)
        for c in chats
        for m in bot_messages(table.tg, c)
    ]


def kept(messages: list[Shown]) -> list[tuple[int, int, list[tuple[str, str | None]]]]:
    """The messages without their text: a restart may word one anew (a hint shown once)."""
    return [(chat, message, buttons) for chat, message, _, buttons in messages]


async def forged(
    bot: RunningBot, user: FakeUser, message: StoredMessage, data: str
) -> dict[str, Any]:
    """`user` sends a press of `data` on `message` (as any client could); the bot's answer."""
    query = push_callback(bot.tg, user, message, data)
    await bot.idle()
    answer = bot.tg.callback_answer(query)
    assert answer is not None, data
    return answer


# ---- 1. a restart mid-deal ----------------------------------------------------------------------


async def test_a_restart_mid_deal_resumes_the_deal_where_it_was(
    game: str, tg: FakeTelegram, tmp_path: Path
) -> None:
    """The bot stopped cleanly mid-deal and started again on the same database: the same player
    is to move on the same control messages (edited, none posted again), and the deal plays to
    its end from the buttons shown before the restart, the money exact."""
    db = tmp_path / "db.sqlite3"
    rng = random.Random(7)
    async with dealt(tg, db, game) as table:
        await move(table, rng, times=2)
        assert table.live.in_deal
        mover, message, moves = the_mover(table)
        shown = seen(table)
        step = table.live.step
    posted = len(tg.calls("sendMessage"))
    async with dealt(tg, db, game, again=table) as table:
        assert table.live.step == step and table.live.in_deal
        assert len(tg.calls("sendMessage")) == posted  # nothing posted again
        assert kept(seen(table)) == kept(shown)  # the same messages, the same buttons
        assert the_mover(table) == (mover, message, moves)  # (a message: the same one, edited)
        edits = message.edits
        await mover.press(message, data=rng.choice(moves))  # a button shown before the restart
        await table.bot.idle()
        assert table.live.step > step and message.edits > edits  # his message, edited
        await finish(table, rng)
        # its end told in the group: the result offering the next deal (a match, or F8's redeal
        # when all pass, deals the next one at once)
        assert with_button(bot_messages(tg, table.group), "n:") or table.live.row.deal_no > 1
        assert await table.bot.service.storage.check() == []
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


# ---- 2. /stopgame mid-deal ----------------------------------------------------------------------


async def test_stopgame_mid_deal_voids_it_and_its_buttons(
    game: str, tg: FakeTelegram, tmp_path: Path
) -> None:
    """/stopgame mid-deal: refused to a player who neither opened the table nor is an admin; by
    the opener, the deal is voided and every chip of it returned, the table closed, and the
    buttons of its messages refused from then on."""
    rng = random.Random(8)
    async with dealt(tg, tmp_path / "db.sqlite3", game) as table:
        opener, other = table.users[0], table.users[1]
        await move(table, rng)
        live = table.live
        deal_id = live.deal_id
        assert deal_id is not None and live.in_deal
        await other.send(table.group, "/stopgame")
        await table.bot.idle()
        assert bot_messages(tg, table.group)[-1].text == said("err.only_creator_stop")
        assert table.bot.service.table_in(GROUP_ID) is live and live.in_deal
        mover, message, moves = the_mover(table)
        await opener.send(table.group, "/stopgame")
        await table.bot.idle()
        stopped = bot_messages(tg, table.group)[-1].text
        assert games.ui(game).text(LANG, "table.stopped") in stopped
        # the deal voided, said to the group (or, at a pulya, P14, in each player's message)
        pulya = games.ui(game).key("hand.voided")
        assert said("table.voided") in stopped or all(
            said(pulya) in text(control_message(tg, user)) for user in table.users
        )
        assert table.bot.service.table_in(GROUP_ID) is None
        assert not any(moves_now(control_message(tg, user)) for user in table.users)
        storage = table.bot.service.storage
        row = await storage.tables.deal(deal_id)
        assert row is not None and row.status == "voided"
        # the first deal voided: every ante back, nobody won or lost a chip (at a pulya, P16,
        # and the toy game, no chip had moved)
        balances, pot = await money(table)
        assert balances in ({}, {user.id: 0 for user in table.users}) and pot == 0
        assert await storage.check() == []
        shown = seen(table)
        for data in moves:  # the buttons of the old messages
            answer = await forged(table.bot, mover, message, data)
            assert answer["text"] == said("err.stale") and not answer["show_alert"]
        assert seen(table) == shown and await money(table) == (balances, pot)
    assert tg.errors == []


# ---- 3. forged and stale presses ----------------------------------------------------------------


async def test_forged_and_stale_presses_are_refused_and_change_nothing(
    game: str, tg: FakeTelegram, tmp_path: Path
) -> None:
    """Presses no honest button makes now: by someone not seated, by a seated player who is not
    the mover, with forged data (another table, a step past or to come, another deal, a code
    that is none, data that is not ours) and an old button after the deal moved on. Each is
    answered with what is wrong, and nothing changes: the step, the chips, every message."""
    async with dealt(tg, tmp_path / "db.sqlite3", game, extra=1) as table:
        *players, stranger = table.users
        old_mover, old_message, old_moves = the_mover(table)
        old = next(d for d in old_moves if d.startswith("a:"))  # a move, as the button had it
        await old_mover.press(old_message, data=old)
        await table.bot.idle()
        live = table.live
        assert live.in_deal and live.step >= 1
        mover, message, moves = the_mover(table)
        data = next(d for d in moves if d.startswith("a:"))
        press = callbacks.decode(data)
        other = next(user for user in players if user is not mover)
        step, wealth, shown = live.step, await money(table), seen(table)

        refused = [
            (stranger, data, {said("err.not_player")}),
            (other, data, {said("err.not_your_turn"), said("err.illegal")}),
        ]
        for user, pressed, told in refused:  # a refusal: an alert
            answer = await forged(table.bot, user, message, pressed)
            assert answer["text"] in told and answer["show_alert"], (user, answer)
        stale = [
            callbacks.encode("a", press.table_id + 1, press.deal_no, press.step, press.code),
            callbacks.encode("a", press.table_id, press.deal_no, press.step - 1, press.code),
            callbacks.encode("a", press.table_id, press.deal_no, 99, press.code),
            callbacks.encode("a", press.table_id, press.deal_no + 1, press.step, press.code),
            callbacks.encode("a", press.table_id, press.deal_no, press.step, "Zz"),
            f"a:{press.table_id}:x",
            "?" * 10,
            old,  # the button pressed before the deal moved on
        ]
        for pressed in stale:  # a button out of its place: a toast
            answer = await forged(table.bot, mover, message, pressed)
            assert answer["text"] == said("err.stale") and not answer["show_alert"], pressed
        answer = await forged(table.bot, old_mover, old_message, old)
        assert answer["text"] == said("err.stale")

        assert live.step == step and the_mover(table) == (mover, message, moves)
        assert await money(table) == wealth and seen(table) == shown
        await mover.press(message, data=data)  # the honest press still works
        await table.bot.idle()
        assert live.step > step or not live.in_deal
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


# ---- 4. the lobby -------------------------------------------------------------------------------


def lobby_of(tg: FakeTelegram, group: FakeChat) -> StoredMessage:
    """The group's lobby (the message with the Join button)."""
    return next(
        m for m in bot_messages(tg, group) if any((d or "")[:2] == "j:" for _, d in m.buttons)
    )


def button(message: StoredMessage, prefix: str) -> str:
    return next(d for _, d in message.buttons if d and d.startswith(prefix))


async def test_the_lobby_seats_and_unseats_and_starts_with_enough_players(
    game: str, tg: FakeTelegram, tmp_path: Path
) -> None:
    """A table opened, a second player sits down and one stands up, a computer player sits
    down where the game has them (no button where it has none), a start with too few refused
    saying how many the game takes, and a start with enough deals each person his cards."""
    ui = games.ui(game)
    low, high = ui.players
    group, users = make_players(tg, 3, lang=LANG)
    opener, second, third = users
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=6, **QUICK) as bot:
        for user in users:
            await user.start()
        await opener.send(group, newgame(game))
        await bot.idle()
        lobby = lobby_of(tg, group)
        assert ui.title(LANG) in lobby.text and opener.first_name in lobby.text
        assert said("lobby.players_range", low=low, high=high) in lobby.text

        query = await opener.press(lobby, data=button(lobby, "s:"))  # alone: too few
        await bot.idle()
        answer = tg.callback_answer(query)
        too_few = said("err.wrong_players", low=low, high=high)
        assert answer is not None and answer["text"] == too_few
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and live.row.status == "lobby"

        await second.press(lobby, data=button(lobby, "j:"))
        await bot.idle()
        assert said("lobby.players", n=2, players="Alice, Bob") in lobby.text
        await second.press(lobby, data=button(lobby, "l:"))
        await bot.idle()
        assert said("lobby.players", n=1, players="Alice") in lobby.text
        assert second.first_name not in lobby.text
        await second.press(lobby, data=button(lobby, "j:"))
        await bot.idle()
        assert said("lobby.players", n=2, players="Alice, Bob") in lobby.text
        assert live.row.seats == (opener.id, second.id)

        level = f"m:{live.row.table_id}:"
        if computer.plays(game):
            query = await opener.press(lobby, data=button(lobby, level))
            await bot.idle()
            assert computer.is_computer(live.row.seats[-1]) and "🤖" in lobby.text
        else:
            assert not any(d and d.startswith(level) for _, d in lobby.buttons)
            answer = await forged(bot, opener, lobby, f"{level}0")
            assert answer["text"] == said("err.stale") and live.row.seats == (opener.id, second.id)
        people = [u for u in users if u.id in live.row.seats]
        if len(live.row.seats) < low:  # (a game of three, no computer players: a third person)
            await third.press(lobby, data=button(lobby, "j:"))
            await bot.idle()
            people.append(third)
        assert low <= len(live.row.seats) <= high

        await opener.press(lobby, data=button(lobby, "s:"))
        await bot.idle()
        assert said("lobby.started") in lobby.text and live.in_deal
        assert all(control_message(tg, user) is not None for user in people)
        assert control_message(tg, third) is None or third in people
    assert tg.errors == []
