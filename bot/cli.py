"""The command line: `python -m bot [--force]` runs the bot; `check`, `backup`, `health` and
`ratings` are the operator's database commands; `worker` runs the computer players' searches for
a bot whose COMPUTER_BROKER is set (bot/remote.py); `--help` on each, `--version`. A name that
begins with "-" is never taken for a file (`backup --help` once wrote a database named `--help`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from contextlib import closing
from importlib import metadata
from pathlib import Path
from typing import NoReturn

from pydantic import ValidationError

from . import health
from .config import DatabaseSettings, Settings, WorkerSettings
from .rating import Rating
from .storage import Problem, Storage

PROG = "python -m bot"
WHERE = "set it in the environment or in .env (in the directory the bot starts in)"


class Parser(argparse.ArgumentParser):
    """argparse's parser; an error names the command's --help."""

    commands: dict[str, Parser]

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}; see `{self.prog} --help`\n")


def parser() -> Parser:
    """The bot's command line and its subcommands."""
    root = Parser(
        prog=PROG,
        description="The card-game bot for Telegram groups. Without a command it runs the bot "
        "(long polling, or a webhook when WEBHOOK_URL is set); its settings come from the "
        "environment or .env (see docs/operating.md).",
    )
    root.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    root.add_argument(
        "--force",
        action="store_true",
        help="start even if the start-up check finds a problem (as FORCE_START=1 does)",
    )
    commands = root.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    check = commands.add_parser(
        "check",
        help="check the configuration and the database as the start-up does",
        description="Check what the bot checks when it starts: its configuration (the "
        "environment and .env) and the database's ledger. A line per problem on stderr; exit "
        "status 1 if any. With DB, only that database is checked (a backup, say).",
    )
    check.add_argument("db", nargs="?", metavar="DB", help="a database file (default: DB_PATH)")
    backup = commands.add_parser(
        "backup",
        help="copy the live database to FILE, then check the copy",
        description="Copy the database at DB_PATH to FILE with SQLite's online backup (the bot "
        "may be running: the copy is one consistent moment), then check the copy.",
    )
    backup.add_argument("file", metavar="FILE", help="the backup to write (a new file name)")
    probe = commands.add_parser(
        "health",
        help="whether the running bot is healthy (Docker's HEALTHCHECK)",
        description="Exit status 0 and `ok` if the running bot's heartbeat in the database is "
        "fresh and Telegram answers it, else 1 and a line per problem.",
    )
    probe.add_argument("db", nargs="?", metavar="DB", help="a database file (default: DB_PATH)")
    league = commands.add_parser(
        "ratings",
        help="print the chats' league ratings, or rebuild them from the rated results",
        description="Print every chat's league: per chat, season and game, each rated player "
        "(a user id, or a computer player's) with mu, sigma, the rating shown and the results "
        "rated. --rebuild first recomputes them all from the rated results, in the order "
        "played (after a change of the rating model); `check` says whether they match.",
    )
    league.add_argument("db", nargs="?", metavar="DB", help="a database file (default: DB_PATH)")
    league.add_argument("--rebuild", action="store_true", help="recompute every rating first")
    league.add_argument("--json", action="store_true", help="one JSON document on stdout")
    worker = commands.add_parser(
        "worker",
        help="run the computer players' searches for bots on COMPUTER_BROKER",
        description="Take the computer players' searches from the broker at COMPUTER_BROKER "
        "(e.g. redis://broker:6379/0, set in the environment or .env, with the bot's "
        "COMPUTER_SECRET, which signs them) and run them, one at a "
        "time in each of N processes; a process that dies is replaced. Start as many "
        "as you like, on any machine that reaches the broker; stop with Ctrl+C or SIGTERM.",
    )
    worker.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="N",
        help="worker processes (default: one per core)",
    )
    worker.add_argument(
        "--log-level", default="WARNING", choices=("DEBUG", "INFO", "WARNING", "ERROR")
    )
    root.commands = {
        "check": check,
        "backup": backup,
        "health": probe,
        "ratings": league,
        "worker": worker,
    }
    return root


def version() -> str:
    """The installed package's version (pyproject.toml's)."""
    try:
        return metadata.version("frapbot")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def arguments(args: list[str]) -> argparse.Namespace:
    """Parsed `args`; exits with status 2 and the usage on a mistake, 0 after --help."""
    root = parser()
    parsed = root.parse_args(args)
    for name in ("db", "file"):
        value = getattr(parsed, name, None)
        if value is not None and value.startswith("-"):  # given after `--`
            root.commands[parsed.command].error(
                f"{value!r} is not a file name (a name may not begin with '-'; "
                f"write ./{value} if you mean it)"
            )
    return parsed


def configuration_errors(exc: ValidationError) -> list[str]:
    """pydantic's errors in plain words, each naming the variable and where to set it."""
    lines = []
    for error in exc.errors():
        field = ".".join(str(p) for p in error["loc"]).upper()
        message = str(error["msg"]).removeprefix("Value error, ")
        if error["type"] == "missing":
            lines.append(f"configuration error: {field} is not set; {WHERE}")
        elif field:
            lines.append(f"configuration error: {field}: {message}; {WHERE}")
        else:  # a rule across variables: the message names them
            lines.append(f"configuration error: {message}; set them in the environment or .env")
    return lines


def run_command(parsed: argparse.Namespace) -> int:
    """Run `check`, `backup`, `health`, `ratings` or `worker`; the exit status is non-zero on
    any problem."""
    if parsed.command == "worker":
        return worker(parsed.processes, parsed.log_level)
    try:
        settings = DatabaseSettings()
    except ValidationError as exc:
        print(*configuration_errors(exc), sep="\n", file=sys.stderr)
        return 2
    if parsed.command == "check":
        if parsed.db is not None:
            return check(parsed.db)
        return check_all()
    if parsed.command == "backup":
        return backup(settings.db_path, parsed.file)
    if parsed.command == "ratings":
        return ratings(parsed.db or settings.db_path, rebuild=parsed.rebuild, as_json=parsed.json)
    return health.command(parsed.db or settings.db_path, settings)


def check_all() -> int:
    """`check` without DB: the configuration as the start-up loads it, then its database."""
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as exc:
        print(*configuration_errors(exc), sep="\n", file=sys.stderr)
        return 1
    return check(settings.db_path)


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
        return await storage.check() + await storage.league.rating_problems()
    finally:
        await storage.close()


def ratings(path: str, *, rebuild: bool, as_json: bool) -> int:
    """`ratings`: every stored rating, as lines or JSON; recomputed first with `rebuild`."""
    if not Path(path).is_file():
        print(f"no database at {path}", file=sys.stderr)
        return 1
    replayed, rows = asyncio.run(_ratings(path, rebuild))
    if rebuild:
        print(f"{path}: {replayed} rated results replayed", file=sys.stderr)
    if as_json:
        listed = [
            {
                "chat": chat,
                "season": season + 1,
                "game": game,
                "player": uid if uid > 0 else name,
                "user_id": uid,
                "mu": r.mu,
                "sigma": r.sigma,
                "rating": r.shown,
                "provisional": r.provisional,
                "rated": r.deals,
            }
            for chat, season, game, uid, name, r in rows
        ]
        print(json.dumps(listed, ensure_ascii=False, indent=1))
        return 0
    for chat, season, game, uid, name, r in rows:
        who = f"{name} ({uid})" if name else str(uid)
        print(
            f"chat {chat} season {season + 1} {game}: {who}: {r.shown}"
            f"{' provisional' if r.provisional else ''} (mu {r.mu:.3f}, sigma {r.sigma:.3f}, "
            f"{r.deals} rated)"
        )
    return 0


async def _ratings(
    path: str, rebuild: bool
) -> tuple[int, list[tuple[int, int, str, int, str, Rating]]]:
    storage = await Storage.open(path)
    try:
        replayed = await storage.league.rebuild_ratings() if rebuild else 0
        return replayed, await storage.league.ratings()
    finally:
        await storage.close()


def worker(processes: int, log_level: str) -> int:
    """`worker`: taskiq's worker processes on COMPUTER_BROKER's calls, one call at a time each
    (nothing fetched ahead that a killed process would take with it)."""
    try:
        url = WorkerSettings().computer_broker
    except ValidationError as exc:
        print(*configuration_errors(exc), sep="\n", file=sys.stderr)
        return 2
    if not url:
        print(f"configuration error: COMPUTER_BROKER is not set; {WHERE}", file=sys.stderr)
        return 2
    try:
        from taskiq.cli.common_args import LogLevel
        from taskiq.cli.worker.args import WorkerArgs
        from taskiq.cli.worker.run import run_worker
    except ImportError:
        print("the workers need taskiq: pip install 'frapbot[remote]'", file=sys.stderr)
        return 2
    from .computer import cores

    args = WorkerArgs(
        broker="bot.computer:worker_broker",
        modules=[],
        workers=processes or cores(),
        max_async_tasks=1,
        max_prefetch=0,
        no_parse=True,  # the task's data, checked and decoded by bot.remote: no pydantic pass
        log_level=LogLevel[log_level],
        log_format="%(asctime)s %(levelname)s %(processName)s %(name)s: %(message)s",
    )
    return run_worker(args) or 0
