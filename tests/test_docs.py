"""The documentation holds together: README.md and docs/*.md link only to files (and headings)
that exist, every rule point the code, the tests and the pages cite is defined in docs/rules.md,
and the pages, the code, the tests and the catalogs say what a change stands for, never a
tracker's number."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
RULES = ROOT / "docs" / "rules.md"

# A rule point as the code writes it: "F14", "SK2", "P17c", "test_P4_…", "(K5)"; never inside a
# word or a longer number ("0xF1", "UTF8", "P100" are not points).
POINT = re.compile(r"(?<![A-Za-z0-9])(SK|F|K|N|P)(\d{1,2})(?![0-9])")
# Where docs/rules.md defines a point: "**F14 Penalties", "- K1 5 cards", "- **N1 Players"; and
# the notation it defines, "P0 = the pot".
DEFINED = re.compile(
    r"^(?:\*\*|- \*\*|- )((?:SK|F|K|N|P)\d{1,2})\b|\b((?:SK|F|K|N|P)\d{1,2}) =", re.M
)
# The files that cite points: code, tests, catalogs, the replay files' reasons, the pages.
CITING = ("engine", "bot", "tests", "locales", "bench")
SUFFIXES = (".py", ".md", ".txt", ".po", ".pot")
# A tracker's number as prose writes it ("issue", "issues", "PR" or "bug", then the number, with
# "#" or not; "#" and the number in brackets) and as a name does ("test_issue_" then the number,
# or "issue" glued to it); never inside a word ("tissue"). Its cases: test_issue_pattern_….
ISSUE = re.compile(r"(?<![a-z])issues?[\s_-]*#?\d+|§|\(#\d+\)|\bPR\s*#?\d+|\bbug\s*#\d+", re.I)
# Where a number must not appear: the pages, the code, the tests, the catalogs, the benches and
# the build and CI files; their text and their file names.
OWN = ("README.md", "docs", "bot", "engine", "locales", "bench", "tests", "pyproject.toml")
OWN += ("Dockerfile", ".ci")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code (a link there is not a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def _anchors(path: Path) -> frozenset[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return frozenset(_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, re.M))


def _links(page: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(_prose(page.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page: Path) -> None:
    """Every relative link and image names a file in the repository, and its #anchor a heading."""
    broken = []
    for target in _links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(ROOT) or not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (file.suffix != ".md" or anchor not in _anchors(file)):
            broken.append(f"{target}: no heading #{anchor}")
    assert not broken, f"{page.name}: {broken}"


def test_the_pages_are_linked_from_the_readme() -> None:
    """A newcomer reaches every page of docs/ from the front page."""
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in _links(ROOT / "README.md")}
    assert not [p.name for p in PAGES if p.parent.name == "docs" and p not in linked]


def _defined() -> set[str]:
    return {a or b for a, b in DEFINED.findall(RULES.read_text(encoding="utf-8"))}


def test_rules_define_every_point_of_every_game() -> None:
    """docs/rules.md keeps the numbering the code cites: F1–F16, K1–K6, SK1–SK13, N1–N8, P1–P18."""
    sizes = {"F": 16, "K": 6, "SK": 13, "N": 8, "P": 18}
    wanted = {f"{prefix}{n}" for prefix, size in sizes.items() for n in range(1, size + 1)}
    assert not sorted(wanted - _defined())


def _citing_files() -> list[Path]:
    files = [p for d in CITING for p in (ROOT / d).rglob("*") if p.suffix in SUFFIXES]
    return sorted(p for p in [*files, *PAGES] if p.is_file())


def test_every_cited_rule_point_is_defined() -> None:
    """A point cited anywhere (`# F14`, `test_P17c`, "(SK13)") is one docs/rules.md defines."""
    defined = _defined()
    unknown = sorted(
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}: {m.group(0)}"
        for path in _citing_files()
        for text in [path.read_text(encoding="utf-8")]
        for m in POINT.finditer(text)
        if m.group(0) not in defined
    )
    assert not unknown, unknown


def test_point_pattern_finds_citations_not_lookalikes() -> None:
    """The pattern's own cases: what it takes for a point and what it leaves."""
    found = [m.group(0) for m in POINT.finditer("F14; test_P17c (SK13) K5: N4, P0")]
    assert found == ["F14", "P17", "SK13", "K5", "N4", "P0"]
    assert not POINT.findall("0xF1 UTF8 P100 MP3 SKF2 a7F2")


def _text_files(area: str) -> list[Path]:
    """The text files of a file or a folder of the repository (no caches, no images nor fonts)."""
    root = ROOT / area
    paths = sorted(root.rglob("*")) if root.is_dir() else [root]
    return [
        p
        for p in paths
        if p.is_file() and "__pycache__" not in p.parts and b"\0" not in p.read_bytes()
    ]


def _issue_hits(path: Path) -> list[str]:
    """Where the file's name or text holds a tracker's number; this file's ISSUE line excepted."""
    name = path.relative_to(ROOT).as_posix()
    hits = [f"{name}: {m.group(0)}" for m in ISSUE.finditer(name)]
    text = path.read_bytes().decode("utf-8", errors="replace")
    lines = text.splitlines()
    for m in ISSUE.finditer(text):  # across a line's end too: "(issue\n    16: …"
        number = text[: m.start()].count("\n") + 1
        if path != Path(__file__).resolve() or not lines[number - 1].startswith("ISSUE ="):
            hits.append(f"{name}:{number}: {m.group(0)!r}")
    return hits


@pytest.mark.parametrize("area", OWN)
def test_no_issue_numbers(area: str) -> None:
    """The repository says what a change stands for ("seats follow people"), not its tracker
    number: not in the pages, the code, the comments, the catalogs, nor a test's name."""
    hits = [hit for path in _text_files(area) for hit in _issue_hits(path)]
    assert not hits, f"{len(hits)} in {area}: {hits}"


def _spelt(case: str) -> str:
    """A case of the pattern's spelt out: "W" stands for "issue", "R" for "PR", "N" for "#", so
    that this file holds no number itself."""
    return case.replace("W", "issue").replace("R", "PR").replace("N", "#")


def test_issue_pattern_finds_numbers_not_lookalikes() -> None:
    """The pattern's own cases: what it takes for a tracker's number and what it leaves."""
    text = _spelt("W 16; (Ws N3); test_W_22_forced; W12; W-7; R 7; (N5); bug N8")
    found = [m.group(0) for m in ISSUE.finditer(text)]
    assert found == [
        _spelt(c) for c in ("W 16", "Ws N3", "W_22", "W12", "W-7", "R 7", "(N5)", "bug N8")
    ]
    assert not ISSUE.findall(_spelt("tW 3; reW9; the Ws: 4 of them; an W of 2; RE 7; bug 8"))
