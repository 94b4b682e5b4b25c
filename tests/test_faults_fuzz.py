"""Hostile input. Thousands of random and forged button presses and commands with junk
arguments are thrown at two running games: no exception escapes a handler, every press gets an
answer, every command a reply, and neither the game state nor the ledger changes."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Run
from hypothesis import strategies as st

import locales
from bot import callbacks, games
from bot.games.family import codes
from bot.games.family.table import deal as deal_of
from bot.games.family.ui import FamilyUI
from bot.service import GameService
from engine.frap import Phase
from tests.bot_harness import (
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    push_callback,
    running_bot,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser, StoredMessage

GROUP_COMMANDS = (
    "join", "leave", "startgame", "stopgame", "newgame", "pot", "balance", "top", "history",
    "rules", "settings", "help", "start", "language",
)  # fmt: skip
PRESSES_PER_EXAMPLE = 70
COMMANDS_PER_EXAMPLE = 12
KEPT_WITH_DEAL = ("review", "review_message")


@dataclass(repr=False)
class Scene:
    """Two tables in two groups, a bystander, and every button data the bot ever showed."""

    bot: RunningBot
    tg: FakeTelegram
    groups: list[FakeChat]
    players: list[list[FakeUser]]
    bystander: FakeUser  # in both groups, never opened the bot's private chat
    seen: list[str]
    shown: dict[int, list[StoredMessage]]  # the bot's messages by chat, as at the start
    tables: list[tuple[int, int, int]]  # (table id, deal number, step) of each game

    @property
    def service(self) -> GameService:
        return self.bot.service


async def _press_first(bot: RunningBot, users: list[FakeUser], codes: str) -> bool:
    """The player to act presses the first of `codes` their message offers; False if none."""
    for user in users:
        message = control_message(bot.tg, user)
        if message is None:
            continue
        offered = {d.rsplit(":", 1)[1]: d for _, d in action_buttons(message) if d[:2] == "a:"}
        for code in codes.split():
            if code in offered:
                await user.press(message, data=offered[code])
                await bot.idle()
                return True
    return False


async def _open(bot: RunningBot, group: FakeChat, users: list[FakeUser]) -> None:
    for user in users:
        await user.start()
    await users[0].send(group, "/newgame")
    await bot.idle()
    for user in users[1:]:
        await user.send(group, "/join")
    await bot.idle()
    await users[0].send(group, "/startgame")
    await bot.idle()


def _shown_callback_data(tg: FakeTelegram) -> list[str]:
    """Every callback_data the bot ever put on a button (old deals, old steps included)."""
    seen: dict[str, None] = {}
    for call in tg.log:
        markup = call.params.get("reply_markup")
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard", []):
                for button in row:
                    if "callback_data" in button:
                        seen[button["callback_data"]] = None
    return list(seen)


@pytest.fixture
async def scene(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Scene]:
    tg.group_limit = tg.flood.global_limit = 1_000_000  # junk commands get many replies
    owner = tg.user(900, "Owner")  # the groups' creator: an admin who never plays or presses
    bystander = tg.user(901, "Mallory")
    groups = [tg.group(-100700, "Evens", members=[bystander]), tg.group(-100800, "Odds")]
    groups[1].add(bystander)
    players = [
        [tg.user(1000 + i, name) for i, name in enumerate(["Alice", "Bob", "Carol"])],
        [tg.user(2000 + i, name) for i, name in enumerate(["Dave", "Eve"])],
    ]
    for group, users in zip(groups, players, strict=True):
        group.add(owner, creator=True)
        for user in users:
            group.add(user)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=21) as bot:
        # the second table plays a whole deal, then a few moves of the next one
        await _open(bot, groups[1], players[1])
        rng = random.Random(21)
        for _ in range(200):
            if not await _press_first(bot, players[1], " ".join(rng.sample("FWPn", 4))):
                moves = [
                    (u, m, d)
                    for u in players[1]
                    if (m := control_message(tg, u))
                    for _, d in action_buttons(m)
                    if not d.endswith(":L")
                ]
                if not moves:
                    break
                user, message, data = rng.choice(moves)
                await user.press(message, data=data)
                await bot.idle()
        result = bot_messages(tg, groups[1])[-1]
        await players[1][0].press(result, data=next(d for _, d in result.buttons if d))
        await bot.idle()
        await _press_first(bot, players[1], "P")
        # the first table: a frap, a whist and a pass, so that the declarer is buying (toggles)
        await _open(bot, groups[0], players[0])
        for codes in ("F", "W", "P"):
            assert await _press_first(bot, players[0], codes)
        live = bot.service.find(2)
        assert (
            live is not None and deal_of(live) is not None and deal_of(live).phase is Phase.BUYING
        )
        chats = [*groups, *(u.dm for users in players for u in users)]
        shown = {chat.id: bot_messages(tg, chat) for chat in chats}
        tables = [(lv.row.table_id, lv.row.deal_no, lv.step) for lv in bot.service._live.values()]
        yield Scene(bot, tg, groups, players, bystander, _shown_callback_data(tg), shown, tables)


async def _snapshot(service: GameService) -> Any:
    """Everything a press or command must not change: live tables and the whole database."""
    live = {
        table_id: (
            lv.row,
            deal_of(lv).to_record() if deal_of(lv) else None,
            lv.deal_seats,
            (dict(lv.play.selection), dict(lv.play.auto), lv.play.note) if lv.play else None,
        )
        for table_id, lv in service._live.items()
    }
    db = service.storage.jobs.connection
    tables = {}
    for name in ("chats", "balances", "tables", "deals", "ledger"):
        async with db.execute(f"SELECT * FROM {name} ORDER BY 1, 2") as cursor:
            rows = await cursor.fetchall()
        # a finished deal's review (a replayed Review button's) and the message it was posted
        # in are kept beside it: no change
        tables[name] = [
            tuple(v for k, v in zip(row.keys(), row, strict=True) if k not in KEPT_WITH_DEAL)
            for row in rows
        ]
    sql = "SELECT user_id, lang, started, blocked FROM users WHERE started ORDER BY 1"
    async with db.execute(sql) as cur:  # (a stranger pressing Join is only recorded)
        tables["users"] = [tuple(row) for row in await cur.fetchall()]
    return live, tables


def _would_apply(service: GameService, user_id: int, data: str) -> bool:
    """Whether a press is simply a legal move of the player whose turn it is (not a forgery)."""
    try:
        press = callbacks.decode(data)
    except callbacks.BadCallback:
        return False
    live = service.find(press.table_id)
    if press.kind not in ("a", "t") or live is None or deal_of(live) is None or not live.in_deal:
        return False
    looking = press.step == callbacks.ANY_STEP and press.code == codes.LOOK  # F7: any step
    if press.deal_no != live.row.deal_no or (press.step != live.step and not looking):
        return False
    if user_id not in live.deal_seats:
        return False
    seat = live.deal_seats.index(user_id)
    try:
        if press.kind == "a":
            ui = games.ui(live.row.game)
            assert isinstance(ui, FamilyUI)
            deal_of(live).apply(ui.codes.parse_action(seat, press.code))
            return True
        cards = callbacks.parse_cards_code(press.code)
    except Exception:
        return False
    return (
        deal_of(live).phase is Phase.BUYING
        and deal_of(live).to_act == seat
        and set(cards) <= set(deal_of(live).hands[seat])
    )


def _forged(draw: Any, scene: Scene) -> str:
    """Callback data built from the real shapes with one or more fields wrong."""
    table_id, deal_no, at = draw(st.sampled_from(scene.tables))
    table = draw(st.sampled_from([table_id, 0, 3, 99, -1, 2**31, 10**30]))
    deal = draw(st.sampled_from([deal_no, deal_no - 1, deal_no + 1, 0]))
    step = draw(
        st.one_of(
            st.sampled_from([at, at - 1, at + 1, 0, -5]),
            st.integers(-(10**20), 10**20),
        )
    )
    code = draw(
        st.one_of(
            st.sampled_from(["P", "F", "D", "W", "L", "n", "c1", "c0", "b", "pAS", "x7H", "y2C"]),
            st.sampled_from(["bASAS", "b7S8S9SJSQS", "pZZ", "p10H", "b7", "tAS", ""]),
            st.text(alphabet="bpxytcLFDWPn0123456789AKQJTSHDC♠", max_size=14),
        )
    )
    kind = draw(st.sampled_from(["a", "a", "t", "n", "j", "l", "s", "c", "x", ""]))
    shapes = {
        "n": f"n:{table}:{deal}",
        "j": f"j:{table}",
        "l": f"l:{table}",
        "s": f"s:{table}",
        "c": f"c:{code}",
    }
    data: str = shapes.get(kind, f"{kind}:{table}:{deal}:{step}:{code}")
    return data


def _payload(draw: Any, scene: Scene) -> str | None:
    choice = draw(st.integers(0, 9))
    if choice <= 1:
        return draw(st.text(max_size=70))  # garbage, up to too long in bytes
    if choice == 2:
        return draw(st.one_of(st.none(), st.just(""), st.text(min_size=65, max_size=300)))
    if choice <= 5:
        return draw(st.sampled_from(scene.seen))  # replayed: old deals, old steps, other seats
    if choice == 6:  # a real one, mangled
        data = draw(st.sampled_from(scene.seen))
        cut = draw(st.integers(0, len(data)))
        return data[:cut] + draw(st.text(max_size=6)) + data[cut:]
    return _forged(draw, scene)


def _presser(draw: Any, scene: Scene) -> tuple[FakeUser, StoredMessage]:
    """A user and a message they can see: any player in their private chat, or any member of a
    group on one of the bot's group messages."""
    if draw(st.booleans()):
        user = draw(st.sampled_from([u for users in scene.players for u in users]))
        messages = scene.shown[user.id]
    else:
        index = draw(st.integers(0, 1))
        user = draw(st.sampled_from([*scene.players[index], scene.bystander]))
        messages = scene.shown[scene.groups[index].id]
    return user, draw(st.sampled_from(messages))


def _junk_argument() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(
            ["x", "frap junk", "-1", "0", "99999999999999999999999", "²", "١٢", "1e3", "@frapbot"]
        ),
        st.text(
            alphabet=st.characters(exclude_categories=["Cs", "Cc", "Zl", "Zp"]),
            min_size=1,
            max_size=40,
        ).filter(lambda s: s.strip() != ""),
    )


def _command(draw: Any, scene: Scene) -> tuple[FakeUser, FakeChat, str]:
    index = draw(st.integers(0, 1))
    user = draw(st.sampled_from([*scene.players[index], scene.bystander]))
    argument = draw(_junk_argument())
    if draw(st.integers(0, 4)) == 0 and user is not scene.bystander:
        command = draw(st.sampled_from(["start", "language", "help", "join", "pot"]))
        return user, user.dm, f"/{command} {argument}"
    command = draw(st.sampled_from(GROUP_COMMANDS))
    suffix = draw(st.sampled_from(["", "@frapbot"]))
    return user, scene.groups[index], f"/{command}{suffix} {argument}"


def _answered(tg: FakeTelegram, command: StoredMessage) -> bool:
    """Whether the bot answered a command: a reply to it (in private: any later message)."""
    return any(
        m.from_bot and (m.reply_to is command or command.chat.is_private)
        for m in tg.messages(command.chat)
        if m.message_id > command.message_id
    )


def _changes(before: Any, after: Any) -> list[Any]:
    """What differs between two snapshots (readable in a failure)."""
    (live_before, db_before), (live_after, db_after) = before, after
    changed: list[Any] = [
        (table_id, live_before.get(table_id), live_after.get(table_id))
        for table_id in sorted(set(live_before) | set(live_after))
        if live_before.get(table_id) != live_after.get(table_id)
    ]
    for name in db_before:
        rows_before, rows_after = set(db_before[name]), set(db_after[name])
        if rows_before != rows_after:
            changed.append((name, rows_before - rows_after, rows_after - rows_before))
    return changed


@settings(
    phases=[Run.explicit, Run.generate],  # no shrinking: a failure may have changed the game
    max_examples=45,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
async def test_forged_presses_and_junk_commands_change_nothing(scene: Scene, data: Any) -> None:
    draw = data.draw
    tg, service = scene.tg, scene.service
    before = await _snapshot(service)
    queries = []
    for _ in range(PRESSES_PER_EXAMPLE):
        user, message = _presser(draw, scene)
        payload = _payload(draw, scene)
        if payload is not None and _would_apply(service, user.id, payload):
            continue  # a legal move of the player to act is no forgery
        queries.append(push_callback(tg, user, message, payload))
    commands = []
    for _ in range(COMMANDS_PER_EXAMPLE):
        user, chat, text = _command(draw, scene)
        commands.append(await user.send(chat, text))
    await scene.bot.idle()
    assert _changes(before, await _snapshot(service)) == []
    assert [q for q in queries if tg.callback_answer(q) is None] == []
    for command in commands:
        assert _answered(tg, command), command
    assert scene.bot.app.bot_data.get("errors", 0) == 0
    assert tg.errors == []


async def test_forged_presses_are_refused_with_a_notice(scene: Scene) -> None:
    tg, service = scene.tg, scene.service
    live = service.find(2)
    assert live is not None and deal_of(live) is not None and deal_of(live).to_act is not None
    mover = next(u for u in scene.players[0] if u.id == live.deal_seats[deal_of(live).to_act])
    other = next(u for u in scene.players[0] if u is not mover)
    hand, other_hand = control_message(tg, mover), control_message(tg, other)
    assert hand is not None and other_hand is not None
    before = await _snapshot(service)
    table, deal, step = live.row.table_id, live.row.deal_no, live.step
    cases = {
        "garbage": (mover, hand, "🂡" * 20),
        "too long": (mover, hand, "a:" + "9" * 70),
        "another table": (mover, hand, f"a:1:{deal}:{step}:b"),
        "another seat": (other, other_hand, f"a:{table}:{deal}:{step}:b"),
        "an old deal": (mover, hand, f"a:{table}:{deal - 1}:{step}:b"),
        "an old step": (mover, hand, f"a:{table}:{deal}:{step - 1}:b"),
        "a bad toggle": (mover, hand, f"t:{table}:{deal}:{step}:ZZ"),
        "a bad discard": (mover, hand, f"a:{table}:{deal}:{step}:bZZ"),
        "someone else's hand": (mover, hand, f"t:{table}:{deal}:{step}:ASAS"),
    }
    answers = {}
    for name, (user, message, payload) in cases.items():
        answers[name] = push_callback(tg, user, message, payload)
    await scene.bot.idle()
    stale = locales.t("ru", "err.stale")
    for name, query in answers.items():
        answer = tg.callback_answer(query)
        assert answer is not None and answer["text"], name
        assert answer["show_alert"] == (answer["text"] != stale), name  # an old step: a toast
    assert _changes(before, await _snapshot(service)) == []
