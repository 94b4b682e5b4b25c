"""A toy game of the Frap family, defined here and nowhere else: Toy frap, which is Frap whose
frap is called "toyfrap", a word of its own (as Khrap's khrap, K2). Its own word, its deal class,
its UI with its button code and its catalog section in Russian and English are here;
`tests/test_toy_family.py` registers it and plays it through the bot. No file outside `tests/`
names it."""

from __future__ import annotations

from typing import Any, ClassVar

import locales
from bot.games.family.chat import FamilyChat
from bot.games.family.codes import Codes
from bot.games.family.frap import FrapUI
from bot.games.family.table import DealTables
from engine.actions import Do, Verb
from engine.ai.family import FamilyRules
from engine.ai.games import GameAI
from engine.deal import TrickDeal
from engine.frap import FrapDeal

GAME = "toyfrap"
CODE = "T"  # its word's button code (after "a:table:deal:step:")


class ToyDo(Verb):
    """Toy frap's own word: Frap's frap under its own name."""

    TOYFRAP = "toyfrap"


class ToyFrapDeal(FrapDeal):
    """One deal of Toy frap: Frap's (F1–F15) with its own word for the frap."""

    game: ClassVar[str] = GAME
    VERBS: ClassVar[tuple[type[Verb], ...]] = (Do, ToyDo)
    BID: ClassVar[Verb] = ToyDo.TOYFRAP


# Its computer players: Frap's rules level, declaring in its word.
AI = GameAI(FamilyRules(declare=1.9, stand=1.0, declaring=(ToyDo.TOYFRAP,)))


class ToyFrapUI(FrapUI):
    """How the bot shows Toy frap: Frap's table in its own words and its own button code."""

    game = GAME
    section = GAME
    deal: ClassVar[type[TrickDeal]] = ToyFrapDeal
    codes: ClassVar[Codes] = Codes({ToyDo.TOYFRAP: CODE})
    aliases = (GAME, "тойфрап")
    own_words = ("тойфрап", "toyfrap", "вист", "whist", "подрез", "cut in")


UI = ToyFrapUI()

# Its catalog section (`toyfrap.<key>`): the keys a Frap game has of its own, in each language.
WORDS = {
    "en": {
        "name": "Toy frap",
        "word.toyfrap": "toyfrap",
        "word.dark_frap": "dark frap",
        "btn.toyfrap": "Toyfrap",
        "btn.dark_frap": "Dark frap",
        "ask.bidding": "<b>Your bid:</b> toyfrap (I'll take 2 tricks) or pass?",
        "ask.whist": "<b>Toyfrap was declared.</b> Whist (I'll take a trick) or pass?",
        "rules.basics": "Toy frap: Frap whose frap is called toyfrap.",
        "rules.penalties.graded": "Graded penalties: toyfrap one short ×1, two short ×2.",
        "rules.penalties.flat": "Flat penalties: toyfrap ×2, dark frap ×4.",
        "stakes.bidding": "💰 A trick: {trick} · a failed toyfrap pays {one}–{none}, dark up to"
        " {dark} · a whister with no trick: {whist}",
        "stakes.whist": "💰 A trick: {trick} · if the toyfrap fails: one short {one}, no trick"
        " {none} · a whister with no trick pays {whist}",
    },
    "ru": {
        "name": "Тойфрап",
        "word.toyfrap": "тойфрап",
        "word.dark_frap": "фрап втёмную",
        "btn.toyfrap": "Тойфрап",
        "btn.dark_frap": "Фрап втёмную",
        "ask.bidding": "<b>Ваше слово:</b> тойфрап (возьму 2 взятки) или пас?",
        "ask.whist": "<b>Объявлен тойфрап.</b> Вист (возьму взятку) или пас?",
        "rules.basics": "Тойфрап: фрап, в котором фрап зовётся тойфрапом.",
        "rules.penalties.graded": "Ремиз по ставкам: тойфрап без одной ×1, без двух ×2.",
        "rules.penalties.flat": "Ремиз единый: тойфрап ×2, фрап втёмную ×4.",
        "stakes.bidding": "💰 Взятка — {trick} · ремиз тойфрапа: {one}–{none}, втёмную до"
        " {dark} · вистующий без взятки: {whist}",
        "stakes.whist": "💰 Взятка — {trick} · ремиз: без одной {one}, без взяток {none} ·"
        " вистующий без взятки платит {whist}",
    },
}


def register(monkeypatch: Any) -> None:
    """Toy frap registered (one line per registry: the engine's and the bot's) until the test
    that asks ends (`monkeypatch` undoes it), its catalog section added through locales' public
    call. Its deal class is the family's as soon as it is defined (`TrickDeal.named`)."""
    from bot import games
    from engine import games as engine_games

    for lang, words in WORDS.items():  # its section, kept: no other game reads its keys
        locales.add_messages({f"{GAME}.{key}": text for key, text in words.items()}, lang)
    monkeypatch.setattr(games, "REGISTRY", dict(games.REGISTRY))
    monkeypatch.setattr(games, "KINDS", dict(games.KINDS))
    monkeypatch.setattr(games, "ORDER", games.ORDER)
    monkeypatch.setattr(games, "DRAWINGS", dict(games.DRAWINGS))
    monkeypatch.setitem(engine_games.GAMES, GAME, engine_games.family(ToyFrapDeal, AI))
    games.register(UI, DealTables, FamilyChat)
