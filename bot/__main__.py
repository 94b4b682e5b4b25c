"""`python -m bot`: run the bot with long polling."""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

from .app import build
from .config import Settings


def main() -> int:
    """Load settings, start polling; a missing or malformed token is one clear line, not a trace."""
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as exc:
        for error in exc.errors():
            field = ".".join(str(p) for p in error["loc"]).upper()
            print(f"configuration error: {field}: {error['msg']}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its log lines carry the token in URLs
    app = build(settings)
    app.run_polling(
        allowed_updates=["message", "callback_query", "my_chat_member"],
        timeout=settings.poll_timeout,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
