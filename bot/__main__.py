"""`python -m bot [--force]`: run the bot (long polling, or a webhook when WEBHOOK_URL is set);
`check`, `backup` and `health`; `--help`, `--version` (bot/cli.py)."""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

from . import cli


def main(argv: list[str] | None = None) -> int:
    """Parse the command line; run a command, or load the settings and run the bot. A missing
    or malformed setting is one clear line per problem, not a trace."""
    parsed = cli.arguments(sys.argv[1:] if argv is None else argv)
    if parsed.command is not None:
        return cli.run_command(parsed)
    from .app import StartRefused, build  # the bot's own imports: not for --help or a command
    from .config import Settings
    from .updates import run

    try:
        # --force: start even if the start-up check finds a problem (as FORCE_START=1 does)
        settings = Settings(**({"force_start": True} if parsed.force else {}))  # type: ignore[arg-type]
    except ValidationError as exc:
        print(*cli.configuration_errors(exc), sep="\n", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its log lines carry the token in URLs
    try:
        run(build(settings), settings)
    except StartRefused as refused:  # one line naming the chat and the check
        print(refused, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
