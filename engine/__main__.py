"""`python -m engine replay FILE`: replay a hand record and print its outcome as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from .record import ReplayError, outcome, read, replay


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a bad or illegal record)."""
    parser = argparse.ArgumentParser(prog="python -m engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser("replay", help="replay a frap-hand/1 record")
    replay_cmd.add_argument("file")
    args = parser.parse_args(argv)
    try:
        deal = replay(read(args.file))
    except (ReplayError, OSError, ValueError) as exc:  # ValueError: bad JSON or UTF-8
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(outcome(deal), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
