"""The engine's imports run one way: the graph built from the source (every import, a deferred one
inside a function too) has no cycle. (`bot/` is next: issue 23.)"""

from __future__ import annotations

import ast
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


@pytest.mark.parametrize("package", ["engine"])
def test_no_import_runs_in_a_circle(package: str) -> None:
    assert cycles(import_graph(package)) == []
