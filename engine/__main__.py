"""`python -m engine replay FILE`: replay a hand record and print its outcome as JSON;
`python -m engine score FILE`: score a whole Preferans pulya (`pref-pulya/1`).
`python -m engine play GAME --players N`: play against computer players in the terminal."""

from __future__ import annotations

import argparse
import json
import sys

from .ai import LEVELS
from .errors import ReplayError
from .games import GAMES, summary
from .preferans import pulya_record
from .preferans.pulya_record import PulyaError
from .record import read


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a bad or illegal record)."""
    parser = argparse.ArgumentParser(prog="python -m engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser("replay", help="replay a frap-hand/1 record")
    replay_cmd.add_argument("file")
    score_cmd = commands.add_parser("score", help="score a pref-pulya/1 record")
    score_cmd.add_argument("file")
    play_cmd = commands.add_parser("play", help="play against computer players")
    play_cmd.add_argument("game", choices=sorted(GAMES))
    play_cmd.add_argument("--players", type=int, default=4)
    play_cmd.add_argument("--level", choices=sorted(LEVELS), default="rules")
    play_cmd.add_argument("--seed", type=int, default=None)
    play_cmd.add_argument("--deals", type=int, default=100)
    args = parser.parse_args(argv)
    if args.command == "score":
        return score(args.file)
    if args.command == "play":
        game = GAMES[args.game]
        if args.players not in game.seats:
            seats = game.seats
            parser.error(f"{game.name} is for {seats.start}–{seats.stop - 1} players")
        return game.terminal(
            args.players, LEVELS[args.level], args.seed, args.deals, sys.stdin.readline,
            sys.stdout,
        )  # fmt: skip
    try:
        result = summary(read(args.file))
    except (ReplayError, OSError, ValueError) as exc:  # ValueError: bad JSON or UTF-8
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


def score(path: str) -> int:
    """Print a pulya's totals and balances (HAND_FORMAT.md); 2 for a bad or impossible record."""
    try:
        sheet, names = pulya_record.load(read(path))
    except (ReplayError, PulyaError, OSError, ValueError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(pulya_record.report(sheet, names), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
