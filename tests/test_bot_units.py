"""Unit checks of the bot's pieces: settings, callback data (locales: test_locales.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from bot import callbacks, games
from bot.games.family.frap import UI as FRAP_UI
from bot.games.family.ui import FamilyUI
from engine.actions import Action, Do
from engine.cards import Suit, make_deck
from engine.napoleon import NapoleonDo
from engine.student import JOKER
from tests.bot_harness import bot_messages, table_of
from tests.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent


def _run_bot(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_malformed_token_is_refused_without_printing_it() -> None:
    result = _run_bot({"BOT_TOKEN": "secret-value-that-is-wrong"})
    assert result.returncode == 2
    assert "BOT_TOKEN" in result.stderr and "secret-value-that-is-wrong" not in result.stderr


FAMILY = [ui for ui in games.REGISTRY.values() if isinstance(ui, FamilyUI)]


@pytest.mark.parametrize("ui", FAMILY, ids=lambda ui: ui.game)
def test_every_action_code_fits_callback_data_and_round_trips(ui: FamilyUI) -> None:
    deck = make_deck(52)
    words = [do for kind in ui.deal.VERBS for do in kind]
    actions = [Action(3, do) for do in words if do in ui.codes.words]
    actions += [Action(3, Do.CUT, turnup=flag) for flag in (True, False)]
    actions += [Action(3, do, card=c) for c in deck for do in words if do in ui.codes.one_card]
    actions += [Action(3, Do.DISCARD, cards=combo) for combo in combinations(deck[-8:], 4)]
    if ui.game == "student_khrap":  # SK2: the joker's three ways
        actions += [Action(3, Do.PLAY, card=JOKER, joker=flag) for flag in (True, False)]
        actions += [Action(3, Do.PLAY, card=JOKER, joker=True, suit=suit) for suit in Suit]
    if ui.game == "napoleon":  # N2: a bid's height
        actions += [Action(3, NapoleonDo.BID, tricks=k) for k in range(1, 6)]
    for action in actions:
        data = callbacks.encode("a", 999_999_999, 99_999, 99_999, ui.codes.action_code(action))
        assert len(data.encode()) <= callbacks.MAX_BYTES
        press = callbacks.decode(data)
        parsed = ui.codes.parse_action(3, press.code)
        assert parsed == action and type(parsed.do) is type(action.do)


# The codes old buttons carry, each game's words' own: they must read the same after a restart.
OLD_CODES = {
    "frap": {"L": "look", "F": "frap", "D": "dark_frap", "W": "whist", "P": "pass", "n": "no_cut",
             "xAS": "dark_discard", "yAS": "cut_discard", "pAS": "play", "bASKS": "discard",
             "c1": "cut", "c0": "cut"},
    "khrap": {"K": "khrap", "Q": "dark_khrap"},
    "student_khrap": {"K": "khrap", "H": "pomogu", "B": "beru_pyat", "V": "veselyu",
                      "Z": "zavorachivayu", "zAS": "call_discard", "k1": "play", "k0": "play",
                      "k1H": "play"},
    "napoleon": {"N": "napoleon", "E": "here", "t3": "bid"},
}  # fmt: skip


@pytest.mark.parametrize("game", OLD_CODES)
def test_old_buttons_say_the_same_words(game: str) -> None:
    ui = games.ui(game)
    assert isinstance(ui, FamilyUI)
    for code, word in OLD_CODES[game].items():
        action = ui.codes.parse_action(0, code)
        assert action.do == word and action.do in ui.deal.WORDS.values()


@pytest.mark.parametrize(
    "data", ["", "x", "a:1:2:3", "a:x:1:1:P", "j:", "zz:1", "a:1:1:1:p9Z", "b" * 65]
)
def test_garbage_callback_data_is_refused(data: str) -> None:
    with pytest.raises(callbacks.BadCallback):
        press = callbacks.decode(data)
        FRAP_UI.codes.parse_action(0, press.code)


async def test_turn_timer_moves_for_a_player_who_does_not(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 3, turn_timeout=1) as (bot, group, _users):
        await asyncio.sleep(1.3)
        await bot.idle()
        table = bot_messages(tg, group)[1]
        assert "⏰" in table.text and "пас" in table.text
    assert tg.errors == []
