"""Where code lives: one place per game. Shared code asks the game, it never tests which
game it has — in the bot, the engine and the engine's benches; no file grows past what a reader
takes in (the table host the largest)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from bot.games import REGISTRY
from engine.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
# every name a game goes by: the registry's, and the words a player may call it by
GAME_NAMES = frozenset({*REGISTRY, *(alias for ui in REGISTRY.values() for alias in ui.aliases)})
# A game's own packages: what may name its classes and its name. The Frap family's shared engine
# modules (deal, actions, events, views, defaults…) are the family's package until they move
# into one (engine/family/); they are listed so that code outside still may not test for them.
OWN = (
    "bot/games/family/",
    "bot/games/preferans",  # its package, or its modules beside the registry
    "engine/frap/",
    "engine/student/",
    "engine/napoleon/",
    "engine/preferans/",
    "engine/family/",
    # a game's computer player and its benches
    "engine/ai/family.py",
    "engine/ai/napoleon",  # napoleon.py, napoleon_dd.py
    "engine/ai/preferans.py",
    "engine/ai/pref_",
    "bench/pref_",
    "bench/pulya_sheet.py",
)
FAMILY_ENGINE = ("engine/deal.py",)
# The bot's benches drive the bot (a pulya's target is a chat setting): bot/'s registry is theirs.
BOT_BENCHES = ("bench/bot_", "bench/load_world.py", "bench/spy_report.py", "bench/startup_db.py")


def _sources(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def _shared(path: Path) -> bool:
    rel = _rel(path)
    return not rel.startswith((*OWN, *BOT_BENCHES)) and rel not in FAMILY_ENGINE


@cache
def game_classes() -> frozenset[str]:
    """The names of the classes a game's own packages define (its deal, its view, its UI…)."""
    names: set[str] = set()
    for path in _sources("bot", "engine"):
        if _shared(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    return frozenset(names - {"Rules"})  # (a generic word some game modules use for an alias)


def _names_a_game(value: object) -> bool:
    """A game's name: as the bot's registry or the engine's (`student_khrap`) spells it."""
    return isinstance(value, str) and (value in GAME_NAMES or value in GAMES)


def kind_tests(path: Path, classes: frozenset[str]) -> list[str]:
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
                items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
                for item in items:  # `game in ("napoleon", …)` too
                    if isinstance(item, ast.Constant) and _names_a_game(item.value):
                        found.append(f"{_rel(path)}:{node.lineno}: compares with {item.value!r}")
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
        "if live.is_preferans: pass\n"
        "ok = game in ('student_khrap', 'x')\n"
        "name = record.get('game', 'frap')\n",
        encoding="utf-8",
    )
    found = kind_tests(sample, game_classes())
    assert [line.split(": ", 1)[1] for line in found] == [
        "isinstance on ['PrefDeal']",
        "compares with 'preferans'",
        "flag is_preferans",
        "compares with 'student_khrap'",
    ]
    assert {"PrefDeal", "PulyaTables", "DealTables", "FrapUI"} <= game_classes()


SHARED = [_rel(path) for path in _sources("bot", "engine", "bench") if _shared(path)]


@pytest.mark.parametrize("module", SHARED)
def test_no_shared_module_tests_which_game_it_has(module: str) -> None:
    """STYLE.md, "One place per game": outside a game's own packages, code asks the game (its
    UI, its kind of table, the registries: bot/games, engine/games.py) and never tests which one
    it has."""
    assert kind_tests(ROOT / module, game_classes()) == []


def test_the_kind_check_reads_the_bot_the_engine_and_its_benches() -> None:
    assert {"bot/service.py", "engine/knowledge.py", "bench/ai_strength.py"} <= set(SHARED)


def test_no_file_in_the_bot_or_the_engine_reaches_600_lines() -> None:
    sizes = {_rel(p): len(p.read_text(encoding="utf-8").splitlines()) for p in _sources("bot")}
    sizes |= {_rel(p): len(p.read_text(encoding="utf-8").splitlines()) for p in _sources("engine")}
    assert {path: n for path, n in sizes.items() if n >= 600} == {}


def _public_methods(cls: type) -> set[str]:
    """The public methods and properties `cls` has from classes of the bot (a class-valued
    attribute, or what a library's base gives, is not counted)."""
    names = set()
    for name in dir(cls):
        owner = next((k for k in cls.__mro__ if name in vars(k)), None)
        if name.startswith("_") or owner is None or not owner.__module__.startswith("bot."):
            continue
        value = vars(owner)[name]
        if isinstance(value, property | staticmethod | classmethod) or inspect.isfunction(value):
            names.add(name)
    return names


def test_no_class_of_the_host_has_over_30_public_methods() -> None:
    """A class that grew a method per feature is split into parts it owns (the storage's, the
    handlers'), not into parents."""
    counts = {}
    for path in _sources("bot"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                counts[f"{module.__name__}.{name}"] = len(_public_methods(cls))
    assert {name: n for name, n in counts.items() if n > 30} == {}
    assert counts["bot.service.GameService"] > 20  # (the count sees the host's methods)


def _tracked() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    )
    return [name for name in listed.stdout.decode().split("\0") if name]


def test_no_tracked_file_is_an_option_or_a_database() -> None:
    """A file named like an option (`--help`: what `backup --help` once wrote) or an SQLite
    database (a player's data, megabytes of it) has no place in the repository."""
    names = _tracked()
    assert "bot/__main__.py" in names  # git answered for this checkout
    dashed = [n for n in names if any(part.startswith("-") for part in n.split("/"))]
    databases = []
    for name in names:
        path = ROOT / name
        if path.is_file():
            with path.open("rb") as file:
                if file.read(16) == b"SQLite format 3\0":
                    databases.append(name)
    assert dashed == [] and databases == []


# What the repository's root holds: the project's files, nothing left by a session (a profile, a
# dump, a scratch script). A new top-level file is added here on purpose, or goes in a folder.
ROOT_FILES = {
    ".dockerignore",
    ".gitignore",
    "Dockerfile",
    "README.md",
    "docker-compose.yml",
    "pyproject.toml",
    "requirements-dev.lock",
    "requirements.lock",
    "setup.py",
}


def test_the_root_holds_only_the_projects_files() -> None:
    """A profiler's dump (`b.txt`, 104 KB) once sat at the root: the root is a known list."""
    names = _tracked()
    assert "bot/__main__.py" in names  # git answered for this checkout
    strays = sorted(n for n in names if "/" not in n and n not in ROOT_FILES)
    assert strays == []
