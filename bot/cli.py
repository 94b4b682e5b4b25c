"""`python -m bot check`, `python -m bot backup FILE` and `python -m bot health`: the operator's
database commands."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

from . import health
from .config import DatabaseSettings
from .storage import Problem, Storage

USAGE = (
    "usage: python -m bot [--force] | python -m bot check [DB] | python -m bot backup FILE"
    " | python -m bot health [DB]"
)


def main(args: list[str]) -> int:
    """Run `check [DB]` or `backup FILE`; the exit status is non-zero on any problem."""
    command, rest = args[0], args[1:]
    if command == "check" and len(rest) <= 1:
        path = rest[0] if rest else DatabaseSettings().db_path
        return check(path)
    if command == "backup" and len(rest) == 1:
        return backup(DatabaseSettings().db_path, rest[0])
    if command == "health" and len(rest) <= 1:  # issue 25: Docker's HEALTHCHECK
        settings = DatabaseSettings()
        return health.command(rest[0] if rest else settings.db_path, settings)
    print(USAGE, file=sys.stderr)
    return 2


def check(path: str) -> int:
    """The start-up check on the database at `path`: a line per problem, status 1 if any."""
    if not Path(path).is_file():
        print(f"no database at {path}", file=sys.stderr)
        return 1
    problems = asyncio.run(_problems(path))
    for problem in problems:
        print(problem.line(), file=sys.stderr)
    if problems:
        return 1
    print(f"{path}: ok")
    return 0


def backup(path: str, target: str) -> int:
    """Copy the live database at `path` to `target` with SQLite's online backup (the bot may
    be running: the copy is one consistent moment), then check the copy."""
    if not Path(path).is_file():
        print(f"no database at {path}", file=sys.stderr)
        return 1
    partial = f"{target}.partial"  # never a half-written file under the backup's name
    Path(partial).unlink(missing_ok=True)
    with (
        closing(sqlite3.connect(path, timeout=30)) as source,
        closing(sqlite3.connect(partial)) as copy,
    ):
        source.backup(copy)  # all pages in one step: one read transaction, one snapshot
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    os.replace(partial, target)
    status = check(target)
    if status == 0:
        print(f"backup of {path} written to {target} ({Path(target).stat().st_size} bytes)")
    return status


async def _problems(path: str) -> list[Problem]:
    storage = await Storage.open(path)
    try:
        return await storage.check()
    finally:
        await storage.close()
