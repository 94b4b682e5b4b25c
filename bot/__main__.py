"""`python -m bot`: run the bot (long polling, or a webhook when WEBHOOK_URL is set)."""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

from .app import build
from .config import Settings
from .updates import run


def main() -> int:
    """Load settings, run the bot; a missing or malformed token is one clear line, not a trace."""
    try:
        settings = Settings()  # type: ignore[call-arg]
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
    run(build(settings), settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
