"""One pot per game: migration 5 gives the single pot of a chat to the game that made
it (or Frap), and the check sees the pots and the balances sum to zero."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.storage import MIGRATIONS, Storage

OLD = 3  # the schema before the pots table


def _old_database(path: Path) -> None:
    """A database of schema 3: chat 1's pot of 30 was made by Khrap, chat 2's 20 by no recorded
    deal, chat 3 has an empty pot."""
    with closing(sqlite3.connect(path)) as db:
        for number, script in enumerate(MIGRATIONS[:OLD], start=1):
            db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        db.executescript(
            """
            INSERT INTO chats (chat_id, lang, ante, turn_timeout, pot, pot_has_penalty)
            VALUES (1, 'ru', 10, 60, 30, 1), (2, 'ru', 10, 60, 20, 0), (3, 'ru', 10, 60, 0, 0);
            INSERT INTO tables (chat_id, game, status, creator_id, created_at)
            VALUES (1, 'frap', 'closed', 7, 0), (1, 'khrap', 'closed', 7, 1);
            INSERT INTO deals (table_id, chat_id, deal_no, seats, record, status, created_at)
            VALUES (1, 1, 1, '[7, 8]', '{}', 'finished', 0), (2, 1, 1, '[7, 8]', '{}',
                    'finished', 1);
            INSERT INTO ledger (chat_id, deal_id, user_id, amount, reason, created_at)
            VALUES (1, 1, 7, -10, 'ante', 0), (1, 2, 7, -10, 'ante', 1),
                   (1, 2, 8, -10, 'ante', 1);
            INSERT INTO balances (chat_id, user_id, balance) VALUES (1, 7, -20), (1, 8, -10),
                   (2, 9, -20);
            INSERT INTO ledger (chat_id, deal_id, user_id, amount, reason, created_at)
            VALUES (2, NULL, 9, -20, 'ante', 0);
            """
        )


async def test_the_single_pot_goes_to_the_game_that_made_it_or_to_frap(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    _old_database(path)
    storage = await Storage.open(str(path))
    try:
        one, two, three = [await storage.chats.chat(chat_id) for chat_id in (1, 2, 3)]
        assert one.pots == (("khrap", 30, True),) and one.penalty_in("khrap")
        assert not one.penalty_in("frap") and one.pot_of("frap") == 0
        assert two.pots == (("frap", 20, False),)
        assert three.pots == () and three.pot == 0
        assert await storage.check() == []
    finally:
        await storage.close()


async def test_the_check_sees_a_pot_that_does_not_add_up(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    _old_database(path)
    await (await Storage.open(str(path))).close()  # migrated
    with closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE pots SET pot = pot + 5 WHERE chat_id = 1")
        db.commit()
    storage = await Storage.open(str(path))
    try:
        problems = await storage.check()
        assert [p.chat_id for p in problems] == [1] and "pots 35" in problems[0].what
    finally:
        await storage.close()


async def test_a_new_season_empties_every_games_pot(tmp_path: Path) -> None:
    """/newseason brings the balances to zero, and with them each game's pot (not
    only the chat's sum: Khrap's 30 must not stay beside a Frap pot of −30)."""
    path = tmp_path / "db.sqlite3"
    _old_database(path)
    storage = await Storage.open(str(path))
    try:
        assert await storage.money.new_season(1, closed=0) == {7: -20, 8: -10}
        chat = await storage.chats.chat(1)
        assert chat.pot == 0 and all(pot == 0 and not penalty for _, pot, penalty in chat.pots)
        assert await storage.check() == []
    finally:
        await storage.close()
