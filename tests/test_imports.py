"""Imports run one way: the graph of `engine` and of `bot` built from the source (every
import, a deferred one inside a function or under TYPE_CHECKING too) has no cycle, and no module
of `bot` imports from a layer above its own (docs/architecture.md)."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` and the modules of `package` it imports."""
    paths = {_module(path): path for path in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                parts = here.split(".")
                base = parts[: len(parts) - node.level + 1] if node.level else []  # `from ..x`
                target = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:  # `from . import x`: module x, not the package
                    sub = f"{target}.{alias.name}"
                    found.add(sub if sub in paths else target)
        graph[name] = {target for target in found if target in paths and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_circle_and_a_deferred_import() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    graph = import_graph("engine")
    assert "engine.deal" in graph["engine.record"]  # `from .deal import …`
    assert "engine.preferans.scoring" in graph["engine.preferans.deal"]  # `from .scoring …`
    assert "engine.preferans.record" in graph["engine.preferans.game"]  # `from . import record`
    assert "engine.preferans" not in graph["engine.preferans.game"]
    assert "engine.games" in graph["engine.ai.levels"]  # deferred, inside `_computer`


@pytest.mark.parametrize("package", ["engine", "bot"])
def test_no_import_runs_in_a_circle(package: str) -> None:
    assert cycles(import_graph(package)) == []


# `bot`'s layers, top to bottom (docs/architecture.md): a module imports from its own layer or one
# below, never from one above. A module is in the layer of its longest listed prefix.
BOT_LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.__main__", "bot.app", "bot.updates", "bot.cli"),  # wiring
    # Telegram updates in, the host's answers out; the Mini App's server, whose
    # presses go through the handlers' one path
    ("bot.handlers", "bot.web.server"),
    # the answers to the information commands (/balance … /export); the Mini App's viewers
    ("bot.answers", "bot.web.viewers"),
    ("bot.service",),  # the table host
    ("bot.seats",),  # its lobby and seats
    ("bot.chat",),  # the chat's messages and menus, which read the registry
    ("bot.games",),  # the registry, GameUI, GameKind and Host, each kind's package
    # an open table's model and seating, the computer players, the messages kept up to date
    ("bot.table", "bot.computer", "bot.presenter"),
    (  # leaves: value types, storage, the Bot API client
        "bot",
        "bot.view",
        "bot.callbacks",
        "bot.format",
        "bot.names",
        "bot.storage",
        "bot.client",  # the Telegram client: the Bot API calls, their HTTP, the flood limits
        "bot.metrics",
        "bot.health",  # the heartbeat and /healthz, which the Mini App's server serves too
        "bot.config",
        "bot.stats",
        "bot.settlement",
        "bot.export",
    ),
)


def layer(module: str) -> int:
    """The index in BOT_LAYERS of a module's layer (0 is the top); KeyError if it has none."""
    best: tuple[int, int] | None = None
    for depth, prefixes in enumerate(BOT_LAYERS):
        for prefix in prefixes:
            inside = module == prefix or module.startswith(prefix + ".")
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), depth)
    if best is None:
        raise KeyError(module)
    return best[1]


def test_the_layer_check_places_a_module_by_its_longest_prefix() -> None:
    assert layer("bot.games.base") == layer("bot.games")
    assert layer("bot.view.message") > layer("bot.games") > layer("bot.chat.lines")
    assert layer("bot") == len(BOT_LAYERS) - 1


def test_no_bot_module_imports_from_a_layer_above_its_own() -> None:
    graph = import_graph("bot")
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if layer(target) < layer(module)
    )
    assert upward == []


# Games describe, front ends draw (pucxobot's test): what a game, the chat's pages and the
# message model say is neutral; only a front end (the Telegram client and handlers, the Mini
# App's server) knows its own types.
NEUTRAL = ("bot.games", "bot.chat", "bot.view")


def test_no_game_chat_page_or_view_module_imports_telegram() -> None:
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        module = _module(path)
        if not module.startswith(NEUTRAL):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            found += [f"{module}: {n}" for n in names if n.split(".")[0] == "telegram"]
    assert found == []


# The host (its service, lobby, open tables and game kinds) knows no front end: the chat's
# Telegram client and handlers and the Mini App's server and buttons plug into it (`ways_in`,
# `fronts`, the handlers' `Chats`), never the other way.
HOST = ("bot.service", "bot.seats", "bot.table", "bot.games")
FRONT_ENDS = ("bot.web", "bot.client", "bot.handlers")


def test_the_host_imports_no_front_end() -> None:
    graph = import_graph("bot")
    found = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith(HOST)
        for target in targets
        if target.startswith(FRONT_ENDS)
    )
    assert found == []


# A kind of table plays and stores; what a step shows it tells the host, and the chat's front end
# draws it: no kind's tables reach the presenter, the message slots or a chat drawing.
KINDS_TABLES = ("bot.games.family.table", "bot.games.preferans.table")
DRAWN_BY_FRONTS = ("bot.presenter", "bot.view.slots", "bot.view.review", "bot.chat")


def test_the_kinds_tables_draw_no_message_and_post_none() -> None:
    graph = import_graph("bot")
    drawings = {
        f"{kind.rpartition('.')[0]}.{part}" for kind in KINDS_TABLES for part in ("render", "chat")
    }
    found = sorted(
        f"{kind} -> {target}"
        for kind in KINDS_TABLES
        for target in graph[kind]
        if target.startswith(DRAWN_BY_FRONTS) or target in drawings
    )
    assert found == []


def _storage(node: ast.expr) -> bool:
    """`storage` or `<anything>.storage`."""
    return (isinstance(node, ast.Attribute) and node.attr == "storage") or (
        isinstance(node, ast.Name) and node.id == "storage"
    )


def test_the_kinds_write_nothing_to_the_storage_themselves() -> None:
    """A kind reads a few rows (`Rows`: of two parts of the storage, a few readers each) and
    says what its step stored (`Host.store`, one transaction with the table's row): no kind's
    code, the toy game's included, calls any other member of the storage or of its parts."""
    from bot.table.steps import Rows

    parts = {
        name: typing.get_type_hints(getattr(Rows, name).fget)["return"]
        for name in vars(Rows)
        if not name.startswith("_")
    }
    readable = {
        (part, name) for part, rows in parts.items() for name in vars(rows) if name[0] != "_"
    }
    root = Path(__file__).resolve().parent.parent
    sources = [*sorted((root / "bot" / "games").rglob("*.py")), root / "tests" / "toy_game.py"]
    called = set()
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)} storage"
            if not isinstance(node, ast.Attribute):
                continue
            if _storage(node.value) and node.attr not in parts:
                called.add(f"{where}.{node.attr}")
            elif (
                isinstance(node.value, ast.Attribute)
                and _storage(node.value.value)
                and (node.value.attr, node.attr) not in readable
            ):
                called.add(f"{where}.{node.value.attr}.{node.attr}")
    assert readable and sorted(called) == []


_MUTATORS = {"update", "pop", "popitem", "clear", "setdefault", "append", "extend", "remove"}


def _changed_fields(path: Path, fields: set[str]) -> set[str]:
    """`path:line .field` for each place the module assigns an attribute named as one of
    `fields` (`x.field = …`, `x.field[k] = …`, `x.field += …`, a tuple's part too) or changes
    one in place (`x.field.update(…)`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            targets = [node.func.value] if node.func.attr in _MUTATORS else []
        for target in targets:
            for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                base = part.value if isinstance(part, ast.Subscript) else part
                if isinstance(base, ast.Attribute) and base.attr in fields:
                    found.add(f"{path.relative_to(ROOT)}:{part.lineno} .{base.attr}")
    return found


def test_the_host_owns_the_seating_and_a_kind_only_its_play_state() -> None:
    """The open table is the host's seating and the game played at it: no kind's code (the toy
    game's too) changes a field of the seating (a step says what it changes: `Host.store`),
    and no code of the host replaces the kind's play state."""
    from dataclasses import fields

    from bot.table.live import OpenTable

    seating = {f.name for f in fields(OpenTable)} - {"play"}
    kinds = [*sorted((ROOT / "bot" / "games").rglob("*.py")), ROOT / "tests" / "toy_game.py"]
    host = [p for p in sorted((ROOT / "bot").rglob("*.py")) if "games" not in p.parts]
    by_kinds = set().union(*(_changed_fields(path, seating) for path in kinds))
    by_host = set().union(*(_changed_fields(path, {"play"}) for path in host))
    assert sorted(by_kinds) == [] and sorted(by_host) == []
