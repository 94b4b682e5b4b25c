"""A page only ever receives its own seat's view, or the public one. Random deals of
every game are played through the bot with a page open for every seat and one for a group
member who is not seated; every frame pushed to any page is checked, as it is sent, against the
engine's knowledge of that seat at that moment: no card the seat cannot place (another hand the
table has not seen, the stock, a hidden discard or talon) is in it, as a card or in its texts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.format import card_label
from bot.web.viewers import Viewer
from engine.cards import Card
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    action_buttons,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram
from tests.webapp_helpers import open_socket, page_buttons, web_user, webapp_overrides

GAMES = [("frap", 4), ("khrap", 4), ("student", 4), ("napoleon", 4), ("preferans", 3)]


def _codes(value: Any) -> set[str]:
    """Every card code anywhere in a frame."""
    if isinstance(value, dict):
        found = {value["code"]} if isinstance(value.get("code"), str) else set()
        for item in value.values():
            found |= _codes(item)
        return found
    if isinstance(value, list):
        return set().union(*(_codes(item) for item in value)) if value else set()
    return set()


def _texts(value: Any) -> str:
    """Every text of a frame but the cards' own labels (their codes are checked)."""
    if isinstance(value, dict):
        return "\n".join(_texts(v) for k, v in value.items() if "code" not in value)
    if isinstance(value, list):
        return "\n".join(_texts(item) for item in value)
    return value if isinstance(value, str) else ""


class Checker:
    """Checks each frame as it is sent, against the deal in play at that moment."""

    def __init__(self, bot: RunningBot) -> None:
        self.bot = bot
        self.frames: dict[int, int] = {}
        self.own_cards = 0
        server = bot.app.bot_data["web"]
        self.send = server.viewers.send
        server.viewers.send = self.checked

    async def checked(self, page: Viewer, view: dict[str, Any], made: int) -> None:
        live = self.bot.service.find(page.table_id)
        deal = (
            None
            if live is None or live.play is None
            else self.bot.service.game(live).position(live)
        )
        if deal is not None and view.get("deal"):
            uid = page.user.user_id
            seat = live.deal_seats.index(uid) if live and uid in live.deal_seats else None
            seats = range(deal.n) if seat is None else [seat]
            unseen: set[Card] = set()
            for s in seats:
                unseen |= set(self.bot.service.game(live).knowledge(live, s).unseen)
            shown = view["deal"]
            if "hands" in shown:  # the hands as dealt of the last deal over, never the one in play
                over = await self.bot.service.storage.history.finished_deal(shown["review"])
                assert over is not None and live is not None
                assert shown["finished"] or over.deal_id != live.deal_id
                shown = {key: value for key, value in shown.items() if key != "hands"}
            leaked = {str(c) for c in unseen} & _codes({**view, "deal": shown})
            assert not leaked, f"seat {seat} was sent {leaked}"
            if live is not None and live.row.game != "preferans":  # its words name bids like 7♠
                text = _texts(view["deal"])
                shown = [card_label(c, view["lang"]) for c in unseen]
                assert not [label for label in shown if label in text], (seat, text)
            if seat is not None and view["deal"].get("hand"):
                self.own_cards += 1
        self.frames[page.user.user_id] = self.frames.get(page.user.user_id, 0) + 1
        await self.send(page, view, made)


async def _same_buttons(bot: RunningBot, users: list[Any], table_id: int) -> None:
    """Each seat's page shows exactly its chat control message's buttons: labels and data."""
    pages = bot.app.bot_data["web"].viewers
    for user in users:
        message = control_message(bot.tg, user)
        chat = sorted(action_buttons(message)) if message is not None else []
        view = await pages.view(web_user(user), table_id)
        deal = view["deal"] or {}
        assert sorted(page_buttons(deal)) == chat, user


async def _play(
    bot: RunningBot, users: list[Any], rng: random.Random, presses: int, table_id: int
) -> int:
    """Random legal chat buttons, up to `presses` of them or until nobody may act."""
    for done in range(presses):
        await _same_buttons(bot, users, table_id)
        movers = [(u, m) for u in users if moves_now(m := control_message(bot.tg, u))]
        if not movers:
            return done
        user, message = movers[0]
        await user.press(message, data=rng.choice(moves_now(message)))
        await bot.idle()
    return presses


async def _next_deal(bot: RunningBot, group: Any, user: Any) -> None:
    """A family deal's result has a "next deal" button in the group (a pulya deals on itself)."""
    for message in reversed(bot.tg.messages(group)):
        data = next((d for _, d in message.buttons if d and d.startswith("n:")), None)
        if data is not None:
            await user.press(message, data=data)
            await bot.idle()
            return


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[g for g, _ in GAMES])
async def test_no_frame_holds_a_card_its_seat_may_not_see(
    tg: FakeTelegram, tmp_path: Path, game: str, players: int
) -> None:
    group, users = make_players(tg, players + 1)
    watcher = users.pop()  # a group member who is not seated: the public table
    rng = random.Random(f"{game}-24")
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", seed=24, **webapp_overrides()) as bot,
        aiohttp.ClientSession() as http,
    ):
        checker = Checker(bot)
        await open_table(bot, group, users, f"/newgame {game}")
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        base = bot.app.bot_data["web"].settings.webapp_url
        sockets = [await open_socket(http, base, tg, u, table.table_id) for u in [*users, watcher]]
        for _deal in range(2):
            assert await _play(bot, users, rng, 150, table.table_id) > 0
            await _next_deal(bot, group, users[0])
        for ws in sockets:
            await ws.close()
    assert set(checker.frames) == {u.id for u in [*users, watcher]}
    assert min(checker.frames.values()) > 5 and checker.own_cards > 10
