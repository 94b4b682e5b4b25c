"""The league: each chat's rating per season and game (bot/rating.py), kept beside the chips.

A rated result is a finished deal of a game played deal by deal, or the deal a match's settlement
is booked against (a pulya's end, or its stop): its players ranked by the chips that deal's
ledger rows gave each. `rate` writes it inside the transaction of the step that booked those
chips: the result in `rated` (the players in seat order, each with his chips and his rating
after it) and each player's rating in `ratings`. The ratings are a function of the results, in
order: `replay` recomputes them (`python -m bot ratings --rebuild`, a chat's move to a
supergroup), and the check (`python -m bot check`) holds the stored ones to it and each result
to its deal's ledger rows.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .. import rating
from ..rating import Rating
from .db import Part
from .rows import Problem

SAME = 1e-9  # a stored mu or sigma is its replay's to this


@dataclass(frozen=True, slots=True)
class Result:
    """One rated result: its deal, the chat's season then, the game, and per player (seat
    order) his chips in it and his rating after it."""

    deal_id: int
    table_id: int
    season: int
    game: str
    players: tuple[tuple[int, int, Rating], ...]  # (user id, chips, rating after)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place in a chat's league for one game: his rating now, and what it was before
    the chat's last table of that game (the evening's change)."""

    user_id: int
    now: Rating
    before: Rating


def season_of(db: sqlite3.Connection, chat_id: int) -> int:
    """The chat's season now: how many it has closed (/newseason starts new ratings)."""
    return int(
        db.execute("SELECT COUNT(*) FROM seasons WHERE chat_id = ?", (chat_id,)).fetchone()[0]
    )


def rate(
    db: sqlite3.Connection, chat_id: int, game: str, deal_id: int, players: Sequence[int]
) -> None:
    """Inside the transaction that booked the deal's last chips: rate `players` (seat order) by
    the chips the deal gave each, and keep the result."""
    if len(players) < 2:
        return
    sums = dict(
        db.execute(
            "SELECT user_id, SUM(amount) FROM ledger WHERE deal_id = ? GROUP BY user_id",
            (deal_id,),
        ).fetchall()
    )
    season = season_of(db, chat_id)
    chips = [int(sums.get(uid, 0)) for uid in players]
    after = _moved(db, chat_id, season, game, players, chips)
    db.execute(
        "INSERT INTO rated (deal_id, chat_id, season, game, players, rated_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (deal_id, chat_id, season, game, _players_json(players, chips, after), time.time()),
    )


def replay(db: sqlite3.Connection, chat_id: int) -> int:
    """Inside a transaction: the chat's ratings recomputed from its results in order, each
    result's ratings after it rewritten too (a change of model is replayed over the history).
    Returns how many results were replayed."""
    db.execute("DELETE FROM ratings WHERE chat_id = ?", (chat_id,))
    rows = db.execute(
        "SELECT deal_id, season, game, players FROM rated WHERE chat_id = ? ORDER BY deal_id",
        (chat_id,),
    ).fetchall()
    for row in rows:
        entries = json.loads(row["players"])
        players = [int(e[0]) for e in entries]
        chips = [int(e[1]) for e in entries]
        after = _moved(db, chat_id, row["season"], row["game"], players, chips)
        db.execute(
            "UPDATE rated SET players = ? WHERE deal_id = ?",
            (_players_json(players, chips, after), row["deal_id"]),
        )
    return len(rows)


def _moved(
    db: sqlite3.Connection,
    chat_id: int,
    season: int,
    game: str,
    players: Sequence[int],
    chips: Sequence[int],
) -> list[Rating]:
    """The players' ratings after a result that gave each his `chips`, kept as theirs now."""
    before = [_current(db, chat_id, season, game, uid) for uid in players]
    after = rating.rate(before, list(chips))
    _keep(db, chat_id, season, game, players, after)
    return after


def _current(db: sqlite3.Connection, chat_id: int, season: int, game: str, uid: int) -> Rating:
    row = db.execute(
        "SELECT mu, sigma, deals FROM ratings "
        "WHERE chat_id = ? AND season = ? AND game = ? AND user_id = ?",
        (chat_id, season, game, uid),
    ).fetchone()
    return Rating() if row is None else Rating(row["mu"], row["sigma"], row["deals"])


def _keep(
    db: sqlite3.Connection,
    chat_id: int,
    season: int,
    game: str,
    players: Sequence[int],
    after: Sequence[Rating],
) -> None:
    db.executemany(
        "INSERT INTO ratings (chat_id, season, game, user_id, mu, sigma, deals) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, season, game, user_id) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, deals = excluded.deals",
        [
            (chat_id, season, game, uid, r.mu, r.sigma, r.deals)
            for uid, r in zip(players, after, strict=True)
        ],
    )


def _players_json(players: Sequence[int], chips: Sequence[int], after: Sequence[Rating]) -> str:
    return json.dumps(
        [[uid, c, r.mu, r.sigma, r.deals] for uid, c, r in zip(players, chips, after, strict=True)]
    )


def _result(row: sqlite3.Row) -> Result:
    players = tuple(
        (int(uid), int(chips), Rating(mu, sigma, deals))
        for uid, chips, mu, sigma, deals in json.loads(row["players"])
    )
    return Result(row["deal_id"], row["table_id"], row["season"], row["game"], players)


# SQL for a season: the one given (a parameter, then the chat's id for the default), else the
# chat's current one (the number of seasons it has closed)
_SEASON = "COALESCE(?, (SELECT COUNT(*) FROM seasons WHERE chat_id = ?))"


class League(Part):
    """Readers of the league, its rebuild and its check."""

    async def standings(
        self, chat_id: int, game: str, table_id: int | None = None, season: int | None = None
    ) -> list[Standing]:
        """The chat's league for `game` this season (or as the closed `season`, counted from 0,
        ended), best first (a provisional rating after every settled one), each with the
        rating it had before the table `table_id` (by default the chat's last table of the
        game: the evening's change); with `table_id`, only the players it rated."""
        results = await self.results(chat_id, game, season)
        if not results:
            return []
        table = results[-1].table_id if table_id is None else table_id
        now: dict[int, Rating] = {}
        before: dict[int, Rating] = {}
        at_table: set[int] = set()
        for result in results:
            for uid, _, after in result.players:
                if result.table_id == table:
                    at_table.add(uid)
                elif uid not in at_table:
                    before[uid] = after
                now[uid] = after
        shown = now if table_id is None else {uid: now[uid] for uid in at_table}
        out = [Standing(uid, r, before.get(uid, Rating())) for uid, r in shown.items()]
        out.sort(key=lambda s: (s.now.provisional, -s.now.shown, -s.now.deals, s.user_id))
        return out

    async def current_ratings(
        self, chat_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, Rating]:
        """The ratings this season in `game` of those of `user_ids` the league has rated."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self._jobs.query(
            "SELECT user_id, mu, sigma, deals FROM ratings WHERE chat_id = ? AND game = ? "
            f"AND season = {_SEASON} AND user_id IN ({marks})",
            (chat_id, game, None, chat_id, *user_ids),
        )
        return {r["user_id"]: Rating(r["mu"], r["sigma"], r["deals"]) for r in rows}

    async def results(
        self, chat_id: int, game: str | None = None, season: int | None = None
    ) -> list[Result]:
        """The chat's rated results this season, or in `season` (counted from 0), of `game`
        or every game, oldest first."""
        rows = await self._jobs.query(
            "SELECT r.*, d.table_id FROM rated r JOIN deals d USING (deal_id) "
            f"WHERE r.chat_id = ? AND r.season = {_SEASON} AND (? IS NULL OR r.game = ?) "
            "ORDER BY r.deal_id",
            (chat_id, season, chat_id, game, game),
        )
        return [_result(row) for row in rows]

    async def rated_games(self, chat_id: int, season: int | None = None) -> list[str]:
        """The games the chat has rated results of this season (or in `season`), the latest
        played first."""
        rows = await self._jobs.query(
            f"SELECT game FROM rated WHERE chat_id = ? AND season = {_SEASON} "
            "GROUP BY game ORDER BY MAX(deal_id) DESC",
            (chat_id, season, chat_id),
        )
        return [row["game"] for row in rows]

    async def ratings(self) -> list[tuple[int, int, str, int, str, Rating]]:
        """Every stored rating: (chat, season, game, user id, the player's name, rating)."""
        rows = await self._jobs.query(
            "SELECT r.*, COALESCE(u.name, '') AS name FROM ratings r "
            "LEFT JOIN users u USING (user_id) ORDER BY chat_id, season, game, mu - 3 * sigma DESC"
        )
        return [
            (
                r["chat_id"],
                r["season"],
                r["game"],
                r["user_id"],
                r["name"],
                Rating(r["mu"], r["sigma"], r["deals"]),
            )
            for r in rows
        ]

    async def rebuild_ratings(self) -> int:
        """Every chat's ratings recomputed from its results: one transaction. Returns how many
        results were replayed."""

        def body(db: sqlite3.Connection) -> int:
            chats = db.execute("SELECT DISTINCT chat_id FROM rated").fetchall()
            db.execute("DELETE FROM ratings")
            return sum(replay(db, row["chat_id"]) for row in chats)

        replayed: int = await self._jobs.transaction(body)
        return replayed

    async def rating_problems(self) -> list[Problem]:
        """The league's check: each result's chips are its deal's ledger rows', and the stored
        ratings are what replaying the results gives."""
        problems: list[Problem] = []
        rows = await self._jobs.query(
            "SELECT r.*, d.table_id FROM rated r JOIN deals d USING (deal_id)"
        )
        results = {(row["chat_id"], row["deal_id"]): _result(row) for row in rows}
        sums = await self._jobs.query(
            "SELECT deal_id, user_id, SUM(amount) AS total FROM ledger "
            "WHERE deal_id IN (SELECT deal_id FROM rated) GROUP BY deal_id, user_id"
        )
        booked: dict[int, dict[int, int]] = {}
        for r in sums:
            booked.setdefault(r["deal_id"], {})[r["user_id"]] = int(r["total"])
        replayed: dict[tuple[int, int, str, int], Rating] = {}
        for (chat_id, deal_id), result in sorted(results.items(), key=lambda kv: kv[0][1]):
            chips = [c for _, c, _ in result.players]
            players = [uid for uid, _, _ in result.players]
            if chips != [booked.get(deal_id, {}).get(uid, 0) for uid in players]:
                what = f"deal {deal_id}: rated chips {chips} are not its ledger's"
                problems.append(Problem(chat_id, what, "league"))
            keys = [(chat_id, result.season, result.game, uid) for uid in players]
            before = [replayed.get(key, Rating()) for key in keys]
            for key, after in zip(keys, rating.rate(before, chips), strict=True):
                replayed[key] = after
        stored = {
            (chat, season, game, uid): r for chat, season, game, uid, _, r in await self.ratings()
        }
        for key in sorted(set(stored) | set(replayed)):
            if not _same(stored.get(key), replayed.get(key)):
                chat, season, game, uid = key
                what = f"{game} season {season + 1}, player {uid}: rating not its results' replay"
                problems.append(Problem(chat, what, "league"))
        return problems


def _same(a: Rating | None, b: Rating | None) -> bool:
    if a is None or b is None:
        return a is b
    close = all(math.isclose(x, y, abs_tol=SAME) for x, y in ((a.mu, b.mu), (a.sigma, b.sigma)))
    return close and a.deals == b.deals
