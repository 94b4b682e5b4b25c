"""Unit checks of the bot's pieces: settings, callback data (locales: test_locales.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from bot import callbacks
from bot.games.family import codes
from engine.actions import Action, Do
from engine.cards import Suit, make_deck
from engine.student import JOKER
from tests.bot_harness import bot_messages, table_of
from tests.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent


def _run_bot(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_missing_token_is_one_clear_line() -> None:
    result = _run_bot({})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "configuration error: BOT_TOKEN is not set; set it in the environment or in .env "
        "(in the directory the bot starts in)"
    ]


def test_malformed_token_is_refused_without_printing_it() -> None:
    result = _run_bot({"BOT_TOKEN": "secret-value-that-is-wrong"})
    assert result.returncode == 2
    assert "BOT_TOKEN" in result.stderr and "secret-value-that-is-wrong" not in result.stderr


def test_every_action_code_fits_callback_data_and_round_trips() -> None:
    deck = make_deck(52)
    words = (Do.LOOK, Do.FRAP, Do.DARK_FRAP, Do.WHIST, Do.PASS, Do.NO_CUT, Do.KHRAP,
             Do.DARK_KHRAP, Do.POMOGU, Do.BERU_PYAT, Do.VESELYU, Do.ZAVORACHIVAYU)  # fmt: skip
    actions = [Action(3, do) for do in words]
    actions += [Action(3, Do.CUT, turnup=flag) for flag in (True, False)]
    one_card = (Do.PLAY, Do.DARK_DISCARD, Do.CUT_DISCARD, Do.CALL_DISCARD)
    actions += [Action(3, do, card=c) for c in deck for do in one_card]
    actions += [Action(3, Do.PLAY, card=JOKER, joker=flag) for flag in (True, False)]
    actions += [Action(3, Do.PLAY, card=JOKER, joker=True, suit=suit) for suit in Suit]
    actions += [Action(3, Do.DISCARD, cards=combo) for combo in combinations(deck[-8:], 4)]
    for action in actions:
        data = callbacks.encode("a", 999_999_999, 99_999, 99_999, codes.action_code(action))
        assert len(data.encode()) <= callbacks.MAX_BYTES
        press = callbacks.decode(data)
        assert codes.parse_action(3, press.code) == action


@pytest.mark.parametrize(
    "data", ["", "x", "a:1:2:3", "a:x:1:1:P", "j:", "zz:1", "a:1:1:1:p9Z", "b" * 65]
)
def test_garbage_callback_data_is_refused(data: str) -> None:
    with pytest.raises(callbacks.BadCallback):
        press = callbacks.decode(data)
        codes.parse_action(0, press.code)


async def test_turn_timer_moves_for_a_player_who_does_not(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 3, turn_timeout=1) as (bot, group, _users):
        await asyncio.sleep(1.3)
        await bot.idle()
        table = bot_messages(tg, group)[1]
        assert "⏰" in table.text and "пас" in table.text
    assert tg.errors == []
