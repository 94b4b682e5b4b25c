"""Where code lives (issue 23): one place per game. Shared code asks the game, it never tests which
game it has; no file grows past what a reader takes in (the table host the largest)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_NAMES = ("frap", "khrap", "student", "napoleon", "preferans")
# A game's own packages: what may name its classes and its name. The Frap family's shared engine
# modules (deal, actions, events, views, defaults…) are the family's package until they move
# into one (engine/family/); they are listed so that code outside still may not test for them.
OWN = (
    "bot/games/family/",
    "bot/games/preferans",  # its package, or its modules beside the registry
    "bot/games/pulya_sheet.py",
    "engine/frap/",
    "engine/student/",
    "engine/napoleon/",
    "engine/preferans/",
    "engine/family/",
)
FAMILY_ENGINE = ("engine/deal.py",)


def _sources(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def _shared(path: Path) -> bool:
    rel = _rel(path)
    return not rel.startswith(OWN) and rel not in FAMILY_ENGINE


def game_classes() -> set[str]:
    """The names of the classes a game's own packages define (its deal, its view, its UI…)."""
    names: set[str] = set()
    for path in _sources("bot", "engine"):
        if _shared(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    return names - {"Rules"}  # (a generic word some game modules use for a local alias)


def kind_tests(path: Path, classes: set[str]) -> list[str]:
    """Where a module tests which game it has: `isinstance` on a game's class, a comparison with
    a game's name, a flag named after a game."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            kinds = node.args[1] if len(node.args) > 1 else None
            named = {
                n.id if isinstance(n, ast.Name) else n.attr
                for n in ast.walk(kinds) if isinstance(n, ast.Name | ast.Attribute)
            } if kinds is not None else set()  # fmt: skip
            if named & classes:
                found.append(f"{_rel(path)}:{node.lineno}: isinstance on {sorted(named & classes)}")
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in GAME_NAMES:
                    found.append(f"{_rel(path)}:{node.lineno}: compares with {side.value!r}")
        if isinstance(node, ast.Attribute | ast.Name):
            word = node.attr if isinstance(node, ast.Attribute) else node.id
            if re.fullmatch(rf"(is|in|at)_({'|'.join(GAME_NAMES)})\w*", word):
                found.append(f"{_rel(path)}:{node.lineno}: flag {word}")
    return found


def test_the_kind_check_finds_each_way_of_testing_for_a_game(tmp_path: Path) -> None:
    sample = tmp_path / "kind_sample.py"
    sample.write_text(
        "if isinstance(deal, PrefDeal): pass\n"
        "if game == 'preferans': pass\n"
        "if live.is_preferans: pass\n",
        encoding="utf-8",
    )
    found = kind_tests(sample, game_classes())
    assert [line.split(": ", 1)[1] for line in found] == [
        "isinstance on ['PrefDeal']",
        "compares with 'preferans'",
        "flag is_preferans",
    ]
    assert {"PrefDeal", "PulyaTables", "DealTables", "FrapUI"} <= game_classes()


def test_no_shared_module_tests_which_game_it_has() -> None:
    """STYLE.md, "One place per game": outside a game's own packages, code asks the game (its
    UI, its kind of table, the registries) and never tests which one it has. (The engine is
    checked too once its registry lands: `engine` is listed here then.)"""
    classes = game_classes()
    found = [
        line for path in _sources("bot") if _shared(path) for line in kind_tests(path, classes)
    ]
    assert found == []
