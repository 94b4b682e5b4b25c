"""The schema: every migration the database has been through, in order. A migration is never
changed once released (a database at version N runs only N+1 onwards): a change is a new one."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        lang TEXT NOT NULL,
        game TEXT NOT NULL DEFAULT 'frap',
        rules TEXT NOT NULL DEFAULT '{"preset": "classic"}',
        ante INTEGER NOT NULL,
        turn_timeout INTEGER NOT NULL,
        pot INTEGER NOT NULL DEFAULT 0,
        pot_has_penalty INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        lang TEXT,
        started INTEGER NOT NULL DEFAULT 0,
        blocked INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE balances (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        balance INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE TABLE tables (
        table_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        dealer INTEGER,
        deal_no INTEGER NOT NULL DEFAULT 0,
        deadline REAL,
        created_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_chat ON tables (chat_id) WHERE status != 'closed';
    CREATE TABLE deals (
        deal_id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES tables (table_id),
        chat_id INTEGER NOT NULL,
        deal_no INTEGER NOT NULL,
        seats TEXT NOT NULL,
        record TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing',
        created_at REAL NOT NULL,
        finished_at REAL,
        UNIQUE (table_id, deal_no)
    );
    CREATE TABLE ledger (
        entry_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        deal_id INTEGER REFERENCES deals (deal_id),
        user_id INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        reason TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX ledger_by_chat ON ledger (chat_id, user_id);
    CREATE TABLE messages (
        slot TEXT PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        content_hash TEXT NOT NULL
    );
    """,
    # 2: players who timed out twice are "away" and play automatically
    """
    ALTER TABLE tables ADD COLUMN away TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN strikes TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: the ledger is append-only: a voided deal is reversed by new rows
    """
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 4: a group that became a supergroup moves to its new chat id; its ledger rows
    # may change chat, and only that, only along a move recorded in chat_moves
    """
    CREATE TABLE chat_moves (
        old_id INTEGER PRIMARY KEY,
        new_id INTEGER NOT NULL,
        moved_at REAL NOT NULL
    );
    DROP TRIGGER ledger_no_update;
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    WHEN NOT (
        NEW.entry_id = OLD.entry_id AND NEW.deal_id IS OLD.deal_id
        AND NEW.user_id = OLD.user_id AND NEW.amount = OLD.amount AND NEW.reason = OLD.reason
        AND NEW.created_at = OLD.created_at
        AND EXISTS (
            SELECT 1 FROM chat_moves WHERE old_id = OLD.chat_id AND new_id = NEW.chat_id
        )
    )
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 5: one pot per game: Napoleon's treasure is not Frap's pot. `chats.pot` stays
    # the sum of the chat's pots; the single pot so far goes to the game of the last deal that
    # moved chips in the chat, or to Frap.
    """
    CREATE TABLE pots (
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        pot INTEGER NOT NULL DEFAULT 0,
        has_penalty INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, game)
    );
    INSERT INTO pots (chat_id, game, pot, has_penalty)
    SELECT c.chat_id,
        COALESCE((SELECT t.game FROM ledger l JOIN deals d ON d.deal_id = l.deal_id
                  JOIN tables t ON t.table_id = d.table_id
                  WHERE l.chat_id = c.chat_id ORDER BY l.entry_id DESC LIMIT 1), 'frap'),
        c.pot, c.pot_has_penalty
    FROM chats c WHERE c.pot != 0 OR c.pot_has_penalty != 0;
    UPDATE chats SET pot_has_penalty = 0;
    """,
    # 6: players who left the group or were stood up by an admin: seated until the
    # deal in play ends (the bot moves for them), then stood up
    """
    ALTER TABLE tables ADD COLUMN leaving TEXT NOT NULL DEFAULT '[]';
    """,
    # 7: /newseason: the balances and pot a chat ended a season with; the ledger rows
    # that brought them back to zero carry the reason 'season'
    """
    CREATE TABLE seasons (
        season_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        closed_at REAL NOT NULL,
        pot INTEGER NOT NULL,
        balances TEXT NOT NULL
    );
    CREATE INDEX seasons_by_chat ON seasons (chat_id);
    """,
    # 8: turn pings a player can switch off; a chat's language is taken from whoever opens its
    # first table until someone chooses one; chats that had tables keep theirs
    """
    ALTER TABLE users ADD COLUMN pings INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE chats ADD COLUMN lang_chosen INTEGER NOT NULL DEFAULT 0;
    UPDATE chats SET lang_chosen = 1 WHERE chat_id IN (SELECT chat_id FROM tables);
    """,
    # 9: whether a player has had his first turn ping, which says how to turn them off
    """
    ALTER TABLE users ADD COLUMN pinged INTEGER NOT NULL DEFAULT 0;
    """,
    # 10: the running bot's heartbeat, one row, for `python -m bot health`
    """
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        beat_at REAL NOT NULL,
        telegram_at REAL,
        pid INTEGER NOT NULL
    );
    """,
    # 11: a finished deal's review (engine/review.py, as JSON), kept once worked out: the
    # record never changes once the deal is over
    """
    ALTER TABLE deals ADD COLUMN review TEXT;
    """,
    # 12: the league (bot/storage/league.py): each rated result, its players in seat order with
    # their chips and ratings after it, and each player's rating per chat, season and game
    """
    CREATE TABLE rated (
        deal_id INTEGER PRIMARY KEY REFERENCES deals (deal_id),
        chat_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        game TEXT NOT NULL,
        players TEXT NOT NULL,
        rated_at REAL NOT NULL
    );
    CREATE INDEX rated_by_chat ON rated (chat_id, season, game);
    CREATE TABLE ratings (
        chat_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        deals INTEGER NOT NULL,
        PRIMARY KEY (chat_id, season, game, user_id)
    );
    """,
    # 13: the chat's message that shows a deal's review, once its button posted it: a later
    # press points to it instead of posting it again (a column of the deal, not a presenter
    # slot, which would keep a row in memory per deal ever reviewed)
    """
    ALTER TABLE deals ADD COLUMN review_message INTEGER;
    """,
    # 14: the id of the bot's last message in each chat: a send whose answer was lost after a
    # restart is looked for above it (bot/client/api.py), not among the previous run's messages
    """
    CREATE TABLE posts (
        chat_id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL
    );
    """,
)
