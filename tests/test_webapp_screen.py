"""What a page is sent is the seat's screen as one generic encoder writes it, and stays what the
page reads: a seeded deal of every game of the registry, played through the bot, gives each seat
and a watcher the same JSON at every step as recorded (tests/golden/webapp_screens.json, a
digest per view; `GOLDEN_RECORD=1` records it anew, as the chat's transcripts, when the page's
data is meant to change), and every key the page reads is in it."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.view.screen import Held, Played, Taken, Word
from bot.web.encode import encode
from bot.web.viewers import _json
from tests.bot_harness import (
    GROUP_ID,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram
from tests.webapp_helpers import web_user, webapp_overrides

RECORD = Path(__file__).parent / "golden" / "webapp_screens.json"
PLAYERS = {"preferans": 3}
PRESSES = 60
# the keys the page (bot/web/static/*.js) reads of a deal's view, of a seat, of a card
DEAL_KEYS = {
    "phase", "mover", "seats", "trump", "trick", "last_trick", "hand", "choices", "question",
    "result", "finished",
}  # fmt: skip
SEAT_KEYS = {"seat", "name", "computer", "away", "chips", "cards", "tricks", "word", "dealer"}
CARD_KEYS = {"rank", "suit", "symbol", "code", "label"}


def _digest(view: dict[str, Any]) -> str:
    """A view's fingerprint, whatever order its keys come in (the page reads them by name)."""
    text = json.dumps(view, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _keys(deal: dict[str, Any]) -> None:
    assert deal.keys() >= DEAL_KEYS, DEAL_KEYS - deal.keys()
    for seat in deal["seats"]:
        assert seat.keys() >= SEAT_KEYS, SEAT_KEYS - seat.keys()
    for card in deal["hand"] or []:
        assert card.keys() >= CARD_KEYS
    for play in (deal["trick"] or {}).get("plays", []):
        assert CARD_KEYS | {"seat"} <= play.keys()


@pytest.mark.parametrize("game", list(games.REGISTRY))
async def test_each_seats_page_data_is_as_recorded(
    tg: FakeTelegram, tmp_path: Path, game: str
) -> None:
    group, users = make_players(tg, PLAYERS.get(game, 4) + 1)
    watcher = users.pop()
    rng = random.Random(f"{game}-screen")
    seen: list[str] = []
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7, **webapp_overrides()) as bot:
        await open_table(bot, group, users, f"/newgame {games.REGISTRY[game].aliases[0]}")
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        viewers = bot.app.bot_data["web"].viewers
        for _ in range(PRESSES):
            for user in [*users, watcher]:
                view = await viewers.view(web_user(user), table.table_id)
                if view["deal"] is not None:
                    _keys(view["deal"])
                json.loads(_json(view))  # round-trips
                seen.append(_digest(view))
            movers = [(u, m) for u in users if moves_now(m := control_message(bot.tg, u))]
            if not movers:
                break
            user, message = movers[0]
            await user.press(message, data=rng.choice(moves_now(message)))
            await bot.idle()
    recorded = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    if os.environ.get("GOLDEN_RECORD"):
        recorded[game] = seen
        RECORD.write_text(json.dumps(recorded, indent=0, sort_keys=True) + "\n")
    assert recorded.get(game) == seen


def test_the_encoder_writes_each_field_by_name_and_leaves_out_a_card_with_no_press() -> None:
    queen = ("Д", "S", "♠", "QS", "Д♠")
    face = {"rank": "Д", "suit": "S", "symbol": "♠", "code": "QS", "label": "Д♠"}
    assert encode(Held(*queen)) == {**face, "marked": False}  # not to play now: no press
    assert encode(Held(*queen, press="a:1:1:0:QS", marked=True)) == {
        **face, "press": "a:1:1:0:QS", "marked": True,
    }  # fmt: skip
    trick = Taken(2, (Played(*queen, seat=2),), taker=None)
    assert encode(trick) == {"leader": 2, "plays": [{**face, "seat": 2}], "taker": None}
    assert encode([Word("Pass", "a:1:1:0:P")]) == [{"label": "Pass", "press": "a:1:1:0:P"}]
