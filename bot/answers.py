"""The answers to the information commands: /pot, /balance, /top, /stats, /history (a deal
in full) and /export's ledger file, built from storage and the service; a handler decodes the
command, calls one of these and posts what it returns (HTML), so another front end can show
the same answers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from locales import t

from . import export, games, names, rating, stats
from .chat import lines as chat_lines
from .chat import stats_view
from .format import name, signed
from .service import GameService
from .storage import DealRow, Storage

HISTORY_SHOWN = 5
TOP_SHOWN = 10
BALANCES_SHOWN = 50


async def pot(storage: Storage, chat_id: int, lang: str) -> str:
    """/pot: each game's pot that holds chips (one pot per game)."""
    return chat_lines.pots(lang, await storage.chats.chat(chat_id))


async def balance(
    service: GameService, chat_id: int, lang: str, wanted: int | None, query: str
) -> str:
    """/balance: every player's chips in the chat with the pots and a match's standing; only
    player `wanted`'s (a reply to him) or those whose name holds `query` (lower case), if given."""
    storage = service.storage
    everyone = await storage.money.balances(chat_id)
    rows = everyone
    if wanted is not None or query:
        rows = [
            (u, b)
            for u, b in rows
            if u.user_id == wanted
            or (query and (query in u.name.lower() or query == (u.username or "").lower()))
        ]
        if not rows:
            return t(lang, "balance.nobody")
    standing = service.match_standing(chat_id, lang)
    if not rows:
        return standing or t(lang, "balance.empty")
    chat = await storage.chats.chat(chat_id)
    labels = names.distinct(u for u, _ in everyone)
    lines = [t(lang, "balance.title")]
    lines += [f"{name(labels[u.user_id])}: <b>{signed(b)}</b>" for u, b in rows[:BALANCES_SHOWN]]
    if not query and wanted is None:
        lines.append(chat_lines.pots(lang, chat))
        lines += [] if standing is None else ["", standing]
    return "\n".join(lines)


async def top(service: GameService, chat_id: int, lang: str, args: Sequence[str] = ()) -> str:
    """/top [game] [season]: the chat's league for a game (the one named, else the open
    table's, else the last rated here, else the chat's): each player's rating, its change over
    the last table of that game, the results rated and the chips held, in columns; a match in
    play's standing under it. With a season's number, the table that closed season ended with
    (its ratings and its balances)."""
    storage = service.storage
    number = next((int(a) for a in args if a.isdigit()), None)
    word = " ".join(a for a in args if not a.isdigit())
    game = games.parse(word) if word else None
    closed = await storage.money.seasons(chat_id)
    past = None if number is None or number == closed + 1 else number - 1  # counted from 0
    if (word and game is None) or (past is not None and not 0 <= past < closed):
        return t(lang, "top.usage", games=games.choices(), seasons=closed + 1)
    playing = service.table_in(chat_id)
    if game is None and playing is not None and past is None:
        game = playing.row.game
    if game is None:
        rated = await storage.league.rated_games(chat_id, past)
        game = rated[0] if rated else (await storage.chats.chat(chat_id)).game
    ui = games.ui(game)
    if past is None:
        title = t(lang, "top.title", game=ui.title(lang))
        standing = service.match_standing(chat_id, lang)
    else:
        title = t(lang, "top.title_season", game=ui.title(lang), n=past + 1)
        standing = None
    standings = (await storage.league.standings(chat_id, game, season=past))[:TOP_SHOWN]
    after = [] if standing is None else ["", standing]
    if not standings:
        return "\n".join([title, t(lang, "top.none"), *after])
    if past is None:
        chips = {user.user_id: bal for user, bal in await storage.money.balances(chat_id)}
    else:
        chips = await storage.money.season_balances(chat_id, past)
    users = await storage.chats.users(s.user_id for s in standings)
    labels = names.distinct(users.values())
    head = [
        ui.text(lang, f"top.{column}") for column in ("rank", "rating", "change", "deals", "chips")
    ]
    rows = [
        [
            f"{i}.",
            s.now.label.ljust(len(str(s.now.shown)) + 1),  # the numbers aligned, "?" or not
            signed(s.now.shown - s.before.shown) if s.before.deals else "",
            str(s.now.deals),
            signed(chips.get(s.user_id, 0)),
            name(labels.get(s.user_id, "?")),
        ]
        for i, s in enumerate(standings, 1)
    ]
    table = "\n".join(_columns([[*head, ""], *rows]))
    lines = [title, f"<pre>{table}</pre>"]
    if any(s.now.provisional for s in standings):
        lines.append(t(lang, "top.provisional", n=rating.PROVISIONAL_DEALS))
    return "\n".join(lines + after)


def _columns(rows: list[list[str]]) -> list[str]:
    """Rows of a monospace table: every column but the last (a name) right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join(
            [*(cell.rjust(w) for cell, w in zip(row, widths, strict=False)), row[-1]]
        ).rstrip()
        for row in rows
    ]


async def player_stats(
    storage: Storage,
    chat_id: int,
    lang: str,
    asker: tuple[int, str],
    replied_to: int | None,
    query: str | None,
) -> str:
    """/stats: a player's deals, his rating in each game the league rates him in, contracts,
    best and worst deal, biggest pot, streak, and the chat's records. The player: the one
    replied to, else the one named `query` (case folded; exactly one must match), else the
    asker (`asker`: the id and name of who asked)."""
    players = [u for u, _ in await storage.money.balances(chat_id)]
    labels = names.distinct(players)
    wanted = asker[0]
    if replied_to is not None:
        wanted = replied_to
    elif query is not None:
        found = [
            u.user_id
            for u in players
            if query in (u.name.casefold(), (u.username or "").casefold())
            or query == labels[u.user_id].casefold()
        ]
        if len(found) != 1:
            return t(lang, "balance.nobody")
        wanted = found[0]
    deals = await stats_view.gather(storage, chat_id)
    # A record may belong to one who holds no chips here yet (a pulya still being written).
    seated = {uid for deal in deals for uid in deal.deltas} | {wanted}
    more = await storage.chats.users(seated - set(labels))
    labels = names.distinct([*players, *more.values()])
    labels.setdefault(wanted, asker[1])
    rated = [
        (game, standing)
        for game in await storage.league.rated_games(chat_id)
        for standing in await storage.league.standings(chat_id, game)
        if standing.user_id == wanted
    ]
    figures = stats.player_stats(wanted, deals)
    text = stats_view.player_text(lang, labels[wanted], figures, rated)
    records = stats_view.records_text(lang, stats.chat_records(deals), labels)
    return text + ("\n\n" + records if records else "")


async def history(storage: Storage, chat_id: int, lang: str, zone: tzinfo) -> str:
    """/history: the chat's last deals by their numbers here, oldest first."""
    deals = await storage.history.numbered_deals(chat_id, limit=HISTORY_SHOWN)
    if not deals:
        return t(lang, "history.empty")
    lines = [t(lang, "history.title")]
    tables: dict[int, list[DealRow]] = {}  # a match's deals, read once for all its lines
    for number, deal in reversed(deals):  # oldest first, as they were played
        earlier = await _match_deals(storage, deal, tables)
        lines.append(chat_lines.history_line(lang, deal, number, finished(deal, zone), earlier))
    lines.append(t(lang, "history.hint"))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class DealPage:
    """/history <number>: the deal told in full, and its hand record as a file (for disputes)."""

    text: str
    record: bytes  # the hand record, JSON
    number: int
    deal_id: int


async def deal(
    storage: Storage, chat_id: int, lang: str, number: int, zone: tzinfo
) -> DealPage | None:
    """The chat's finished deal numbered `number` in full (bids, tricks, the money), or its
    history line if its record no longer replays; None if there is no such deal."""
    found = await storage.history.numbered_deals(chat_id, number=number)
    if not found:
        return None
    ((number, row),) = found
    date = finished(row, zone)
    earlier = await _match_deals(storage, row, {})
    told = chat_lines.deal_account(lang, row, number, earlier)
    if told is None:  # a record that no longer replays: its line at least
        text = chat_lines.history_line(lang, row, number, date, earlier)
    else:
        title, _, rest = told.partition("\n")
        text = "\n".join((title, t(lang, "history.played", date=date), rest))
    record = json.dumps(row.record, ensure_ascii=False, indent=1).encode()
    return DealPage(text, record, number, row.deal_id)


@dataclass(frozen=True, slots=True)
class LedgerFile:
    """/export: the chat's ledger as CSV, and the chat it belongs to (a moved group's new id)."""

    chat_id: int
    data: bytes
    filename: str


async def ledger(storage: Storage, chat_id: int) -> LedgerFile | None:
    """The chat's ledger as a CSV file; None while it has no rows."""
    chat = await storage.chats.chat(chat_id)
    entries = await storage.money.ledger_entries(chat.chat_id)
    if not entries:
        return None
    return LedgerFile(chat.chat_id, export.ledger_csv(entries), f"ledger-{abs(chat.chat_id)}.csv")


def finished(deal: DealRow, zone: tzinfo) -> str:
    """When a deal ended, in the bot's time zone (day.month hours:minutes)."""
    if deal.finished_at is None:
        return "?"
    return datetime.fromtimestamp(deal.finished_at, zone).strftime("%d.%m %H:%M")


async def _match_deals(
    storage: Storage, deal: DealRow, tables: dict[int, list[DealRow]]
) -> list[DealRow]:
    """The deals of `deal`'s match played before it, for a game whose table is a match (a
    Preferans pulya: P15's overflow depends on the sheet); none for a game played deal by
    deal. `tables` keeps each table's deals once read."""
    ui = chat_lines.own_ui(deal)
    if ui is None or ui.match_of(deal) is None:
        return []
    if deal.table_id not in tables:
        tables[deal.table_id] = await storage.tables.table_deals(deal.table_id)
    return chat_lines.match_deals(deal, tables[deal.table_id])
