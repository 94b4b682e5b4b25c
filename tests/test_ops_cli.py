"""The command line (bot/cli.py): `--help` and `--version` on the bot and every command, errors
that say what to type, configuration errors in plain words, and no option ever taken for a file
name (`backup --help` once wrote a database named `--help`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import version

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "123456:AAFakeTokenForTests_0123456789abcdefXYZ"
COMMANDS = ("check", "backup", "health", "worker")


def _bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` in `cwd` (no .env there), with only `env` set."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("token", [None, TOKEN], ids=["no-token", "token"])
def test_help_describes_the_bot_and_its_commands_and_starts_nothing(
    tmp_path: Path, token: str | None
) -> None:
    env = {} if token is None else {"BOT_TOKEN": token, "BOT_API_URL": "http://127.0.0.1:9/bot"}
    done = _bot(tmp_path, "--help", **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m bot") and done.stderr == ""
    assert all(command in done.stdout for command in (*COMMANDS, "--force", "--version"))
    assert list(tmp_path.iterdir()) == []  # no database, no backup


def test_version_is_the_packages(tmp_path: Path) -> None:
    done = _bot(tmp_path, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"python -m bot {version()}"
    assert version()[0].isdigit()


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_help_and_takes_no_option_for_a_file(
    tmp_path: Path, command: str
) -> None:
    done = _bot(tmp_path, command, "--help", DB_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python -m bot {command}")
    for wrong in (["--frob"], ["--", "--help"], ["--", "-x"]):
        done = _bot(tmp_path, command, *wrong, DB_PATH=str(tmp_path / "db.sqlite3"))
        assert done.returncode == 2, (wrong, done.stderr)
        assert f"see `python -m bot {command} --help`" in done.stderr or "--help" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_mistake_says_what_to_type(tmp_path: Path) -> None:
    done = _bot(tmp_path, "backup")
    assert done.returncode == 2
    assert "required: FILE" in done.stderr and "python -m bot backup --help" in done.stderr
    done = _bot(tmp_path, "frob")
    assert done.returncode == 2 and "python -m bot --help" in done.stderr


def test_configuration_errors_are_plain_words_naming_where_to_set_them(tmp_path: Path) -> None:
    done = _bot(tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "configuration error: BOT_TOKEN is not set; set it in the environment or in .env "
        "(in the directory the bot starts in)"
    ]
    done = _bot(tmp_path, BOT_TOKEN=TOKEN, WEBHOOK_URL="https://b.example.com/")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "Value error" not in line and "WEBHOOK_SECRET is required with WEBHOOK_URL" in line
    assert "environment or .env" in line


def test_a_worker_needs_a_broker_and_says_so_in_one_line(tmp_path: Path) -> None:
    """`worker` without COMPUTER_BROKER, or with something else than a Redis URL: one line, and
    no worker started."""
    done = _bot(tmp_path, "worker")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "configuration error: COMPUTER_BROKER is not set; set it in the environment or in .env "
        "(in the directory the bot starts in)"
    ]
    done = _bot(tmp_path, "worker", COMPUTER_BROKER="http://broker:6379")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("configuration error: COMPUTER_BROKER: ")
    assert "redis://broker:6379/0" in line


def test_a_broker_without_a_secret_starts_neither_the_bot_nor_a_worker(tmp_path: Path) -> None:
    """COMPUTER_BROKER without COMPUTER_SECRET (or with one too short to sign with): one line,
    nothing started, and the secret never printed."""
    broker = {"COMPUTER_BROKER": "redis://127.0.0.1:1/0", "DB_PATH": str(tmp_path / "db")}
    for command in (("worker",), ()):
        done = _bot(tmp_path, *command, **broker, BOT_TOKEN=TOKEN)
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            "configuration error: COMPUTER_SECRET is required with COMPUTER_BROKER; "
            "set them in the environment or .env"
        ]
        done = _bot(tmp_path, *command, **broker, BOT_TOKEN=TOKEN, COMPUTER_SECRET="short-secret")
        assert done.returncode == 2
        [line] = done.stderr.splitlines()
        assert "COMPUTER_SECRET must be at least 32 characters" in line
        assert "short-secret" not in line


def test_check_checks_the_configuration_as_the_start_up_does(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    assert _bot(tmp_path, "backup", "./copy.sqlite3", DB_PATH=str(db)).returncode == 1  # none
    env = {"DB_PATH": str(db), "BOT_TOKEN": TOKEN}
    done = _bot(tmp_path, "check", **env, TIME_ZONE="Mars/Olympus")
    assert done.returncode == 1
    assert done.stderr.startswith("configuration error: TIME_ZONE: unknown time zone")
