"""`python -m bot [--force]`: run the bot (long polling, or a webhook when WEBHOOK_URL is set);
`check`, `backup` and `health` (bot/cli.py)."""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

from . import cli
from .app import StartRefused, build
from .config import Settings
from .updates import run


def main() -> int:
    """Load settings, run the bot; a missing or malformed token is one clear line, not a trace."""
    args = sys.argv[1:]
    if args[:1] in (["check"], ["backup"], ["health"]):
        return cli.main(args)
    try:
        # --force: start even if the start-up check finds a problem (as FORCE_START=1 does)
        settings = Settings(**({"force_start": True} if "--force" in args else {}))  # type: ignore[arg-type]
    except ValidationError as exc:
        for error in exc.errors():
            field = ".".join(str(p) for p in error["loc"]).upper()
            where = f"{field}: " if field else ""  # a rule across variables names none
            print(f"configuration error: {where}{error['msg']}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its log lines carry the token in URLs
    try:
        run(build(settings), settings)
    except StartRefused as refused:  # issue 11: one line naming the chat and the check
        print(refused, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
