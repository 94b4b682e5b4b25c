"""One place per game (issue 23): outside a game's own modules, the engine and its benches know
games only through the registry (engine/games.py) — no `isinstance` on a game's classes and no
comparison with a game's name — and no engine file is over 600 lines. (The bot's side, bot/ and
the bot's benches, reads the bot's registry, bot/games.)"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
GAME_PACKAGES = ("engine/frap", "engine/student", "engine/napoleon", "engine/preferans")
# A game's own modules, where naming it is right: its package, its computer player, its benches.
OWN = (
    *(f"{package}/" for package in GAME_PACKAGES),
    "engine/ai/family.py",
    "engine/ai/napoleon.py",
    "engine/ai/preferans.py",
    "engine/ai/pref_",
    "bench/pref_",
    "bench/pulya_sheet.py",
)
BOT_BENCHES = ("bench/bot_", "bench/load_world.py", "bench/spy_report.py", "bench/startup_db.py")


def game_classes(root: Path = ROOT) -> frozenset[str]:
    """Every class a game's package defines (its deal, actions, knowledge, rules...)."""
    return frozenset(
        node.name
        for package in GAME_PACKAGES
        for path in (root / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    )


def _names(node: ast.AST) -> Iterator[str]:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            yield inner.id
        elif isinstance(inner, ast.Attribute):
            yield inner.attr


def _game_names(node: ast.AST) -> list[str]:
    """The game names a compared operand spells: a string, or a tuple, list or set of them."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [
        item.value
        for item in items
        if isinstance(item, ast.Constant) and isinstance(item.value, str) and item.value in GAMES
    ]


def branches(source: str, classes: frozenset[str]) -> list[str]:
    """Where `source` tests which game it has: `isinstance` on a game's class, or a comparison
    with a game's name; each as `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):
            named = sorted(set(_names(node.args[1])) & classes)
            found += [f"{node.lineno}: {node.func.id} on {name}" for name in named]
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                found += [f"{node.lineno}: compared with {name!r}" for name in _game_names(operand)]
    return found


def shared_modules(root: Path = ROOT) -> list[str]:
    """The engine's and the benches' modules outside every game's own ones."""
    paths = [*(root / "engine").rglob("*.py"), *(root / "bench").glob("*.py")]
    names = (path.relative_to(root).as_posix() for path in paths)
    return sorted(name for name in names if not name.startswith((*OWN, *BOT_BENCHES)))


def test_the_finder_finds_what_the_engine_used_to_do() -> None:
    classes = frozenset({"PrefDeal", "PrefKnowledge"})
    assert branches("if isinstance(deal, PrefDeal): pass", classes) == ["1: isinstance on PrefDeal"]
    assert branches("x = isinstance(k, (Knowledge, m.PrefKnowledge))", classes) == [
        "1: isinstance on PrefKnowledge"
    ]
    assert branches('if args.game == "preferans": pass', classes) == [
        "1: compared with 'preferans'"
    ]
    assert branches('ok = game in ("student_khrap", "x")', classes) == [
        "1: compared with 'student_khrap'"
    ]
    assert branches('name = record.get("game", "frap")\nok = isinstance(x, str)', classes) == []
    assert {"PrefDeal", "PrefKnowledge", "KhrapDeal", "NapoleonDeal"} <= game_classes()
    assert "engine/knowledge.py" in shared_modules() and "bench/ai_strength.py" in shared_modules()


@pytest.mark.parametrize("module", shared_modules())
def test_no_shared_module_tests_which_game_it_has(module: str) -> None:
    source = (ROOT / module).read_text(encoding="utf-8")
    assert branches(source, game_classes()) == []


@pytest.mark.parametrize("package", ["engine"])
def test_no_file_is_over_600_lines(package: str) -> None:
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in (ROOT / package).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}
