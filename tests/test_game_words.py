"""Each game of the Frap family says its own words in its own modules: Frap's words (`Do`, in
engine/actions.py) are every family game's, and a game's other words are a `Verb` of its own
package, named by its deal (`VERBS`), with their button codes in its bot module. The family's
shared code (the deal, knowledge, views, the computer players' search and sampling, the wire,
the bot's family screens and codes) names none of them, so a sixth game edits none of its lists.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bot import games
from bot.games.family.codes import WORDS, Codes
from bot.games.family.ui import FamilyUI
from engine.actions import Do, Verb
from engine.cards import make_deck, shuffled
from engine.deal import TrickDeal
from engine.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
# Every family game of the registry, by its record name (a deal class of the tests, Toy frap's,
# is a family deal as soon as it is defined, but a game only while a test registers it).
FAMILY = sorted(game for game in GAMES if TrickDeal.named(game) is not None)
# The registries: a game's one line in each names what its own modules define.
REGISTRIES = ("engine/games.py", "bot/games/__init__.py")


def deal_of(game: str) -> type[TrickDeal]:
    """The family game's deal class."""
    deal = TrickDeal.named(game)
    assert deal is not None
    return deal


def own_words(game: str) -> list[type[Verb]]:
    """The game's words beside Frap's."""
    return [kind for kind in deal_of(game).VERBS if kind is not Do]


def _file(module: str) -> str:
    return module.replace(".", "/") + ".py"


def _ai_modules(game: str) -> set[str]:
    """The modules of a game's rules level and of its review (engine/games.py's line)."""
    entry = GAMES[game]
    choose, review = entry.computer.choose, entry.review
    owner = getattr(choose, "__self__", None)
    return {
        type(owner).__module__ if owner is not None else choose.__module__,
        getattr(review, "func", review).__module__,  # a partial of the family's, or its own
    }


def own_modules(game: str) -> tuple[str, ...]:
    """Where a game's own code is: its engine package, its bot module, and the computer player
    and review no other game shares (Napoleon's engine/ai/napoleon*.py); the rest is shared."""
    deal = deal_of(game)
    places = [deal.__module__.rsplit(".", 1)[0].replace(".", "/") + "/"]
    places.append(_file(type(games.ui(game)).__module__))
    others = set().union(*(_ai_modules(other) for other in GAMES if other != game))
    places += [_file(module) for module in sorted(_ai_modules(game) - others)]
    return tuple(places)


@pytest.mark.parametrize("game", FAMILY)
def test_a_games_own_words_are_a_verb_of_its_own_package(game: str) -> None:
    deal = deal_of(game)
    assert deal.VERBS[0] is Do
    package = deal.__module__.rsplit(".", 1)[0]
    for kind in own_words(game):
        assert issubclass(kind, Verb) and kind.__module__.startswith(package + ".")
    said = {verb.value: verb for kind in deal.VERBS for verb in kind}
    assert said == deal.WORDS  # a record's every word, by its spelling


def test_the_shared_words_are_fraps_each_one_offered_in_a_frap_deal() -> None:
    """`Do` holds no other game's word: random Frap deals offer each of its members."""
    game, rng = GAMES["frap"], random.Random(5)
    offered: set[Verb] = set()
    for _ in range(200):
        deck = shuffled(make_deck(32), rng)
        state = game.new({"preset": "classic"}, ["a", "b", "c", "d"], 0, deck)
        while game.to_act(state) is not None:
            legal = game.legal(state)
            offered.update(action.do for action in legal)
            state, _ = state.apply(rng.choice(legal))
        if offered >= set(Do):
            break
    assert set(Do) - offered == set()
    assert all(type(do) is Do for do in offered)


@pytest.mark.parametrize("game", FAMILY)
def test_a_games_buttons_code_its_own_words_beside_fraps(game: str) -> None:
    ui = games.ui(game)
    assert isinstance(ui, FamilyUI)
    assert ui.codes.words.items() >= WORDS.items()
    said = {verb for kind in own_words(game) for verb in kind}
    coded = {do for do in [*ui.codes.words, *ui.codes.one_card] if type(do) is not Do}
    assert coded <= said
    assert all(type(do) is Do or type(do) in own_words(game) for do in ui.codes.words)


def test_two_words_of_one_game_may_not_share_a_button_code() -> None:
    with pytest.raises(ValueError, match="share a button code"):
        Codes({Do.LOOK: "F"})


def _names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {
        alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }  # fmt: skip


@pytest.mark.parametrize("game", FAMILY)
def test_only_a_games_own_modules_name_its_words(game: str) -> None:
    """Shared code asks the deal (`VERBS`, `FACE_DOWN`, `CHANGES_HAND`) or the UI (`codes`);
    only the game's own modules and its registry lines name its words."""
    kinds = {kind.__name__ for kind in own_words(game)}
    allowed = (*own_modules(game), *REGISTRIES)
    naming = [
        path.relative_to(ROOT).as_posix()
        for part in ("engine", "bot")
        for path in sorted((ROOT / part).rglob("*.py"))
        if kinds & _names(path)
    ]
    assert [path for path in naming if not path.startswith(allowed)] == []
