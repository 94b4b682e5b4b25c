"""The golden transcripts (tests/golden_sessions.py): each seeded session shows players exactly
what it showed when it was recorded. `GOLDEN_RECORD=1` writes them anew instead."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from tests.fakebot import FakeTelegram
from tests.golden_sessions import GOLDEN, SESSIONS


@pytest.mark.parametrize("name", sorted(SESSIONS))
async def test_a_seeded_session_shows_what_it_showed_when_recorded(
    name: str, tg: FakeTelegram, tmp_path: Path
) -> None:
    text = await SESSIONS[name](tg, tmp_path / "db.sqlite3")
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("GOLDEN_RECORD"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    recorded = path.read_text(encoding="utf-8")
    if text != recorded:
        diff = difflib.unified_diff(
            recorded.splitlines(), text.splitlines(), "recorded", "now", lineterm="", n=2
        )
        pytest.fail("\n".join(list(diff)[:80]))
