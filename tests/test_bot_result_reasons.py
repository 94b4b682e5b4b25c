"""Results through the fake Bot API: a deal of every registered game ends with the deciding trick
still on the table with who took it, and a result whose reasons add up to each player's ledger
change for the deal."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

from bot import games
from locales import SEPARATOR
from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    make_players,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram

_AMOUNT = re.compile(r"[+−]?\d+$")


def _reasons_sum(line: str) -> int:
    """The sum of the amounts a result line gives as reasons ('анте −10 · 2 взятки × 7 = +14')."""
    reasons = re.sub(r" \([^()]*\)$", "", line.split(": ", 1)[1]) if ": " in line else ""
    total = 0
    for part in reasons.split(SEPARATOR) if reasons else []:
        match = _AMOUNT.search(part.strip())
        assert match, part
        total += int(match.group().replace("−", "-"))
    return total


# A match of many deals (a Preferans pulya) moves chips only at its end: tests/test_bot_preferans.py
@pytest.mark.parametrize("game", [g for g in games.ORDER if not games.KINDS[g].keeps_players])
async def test_result_reasons_add_up_to_the_ledger_and_the_last_trick_stays(
    tg: FakeTelegram, tmp_path: Path, game: str
) -> None:
    ui = games.ui(game)
    group, users = make_players(tg, 3)
    played_out = False
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5) as bot:
        await open_table(bot, group, users, f"/newgame {ui.aliases[0]}")
        rng = random.Random(5)
        for deal_no in range(1, 7):
            await play_deal(bot, users, rng)
            messages = bot_messages(tg, group)
            result = messages[-1]
            assert f"№{deal_no}" in result.text
            storage = bot.service.storage
            deal = (await storage.history.recent_deals(GROUP_ID, 1))[0]
            ledger: dict[int, int] = defaultdict(int)
            for deal_id, user_id, amount, _ in await storage.money.ledger_rows(GROUP_ID):
                if deal_id == deal.deal_id:
                    ledger[user_id] += amount
            for user in users:
                line = next(x for x in result.text.splitlines() if x.startswith(user.first_name))
                assert _reasons_sum(line) == ledger[user.id], line
            table = next(
                m for m in messages if f"сдача №{deal_no}" in m.text and "Сдача окончена" in m.text
            )
            if "Взятки:" in result.text:  # F12: the deciding trick is still shown, with its taker
                played_out = True
                assert re.search(r"Взятка \d: .* — берёт ", table.text), table.text
            next_button = next((d for _, d in result.buttons if d and d.startswith("n:")), None)
            if next_button is None:
                break  # F8: a redeal was dealt at once
            await users[1].press(result, data=next_button)
            await bot.idle()
    assert played_out
    assert tg.errors == []
