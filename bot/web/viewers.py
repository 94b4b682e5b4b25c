"""The Mini App's viewers, one per open page (its WebSocket), and what each is shown: a seat's
screen (`GameKind.screen`, as JSON by `encode`), or the public table for a group member who is not
dealt in, rebuilt and pushed over the page's WebSocket after each change of its table
(GameService tells `changed` once a change is made, under the chat's lock: a press from a chat
button or a page, a time-out, a computer's move, a stop)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from aiohttp import WSCloseCode, web

from engine.games import GAMES
from engine.review import Review
from locales import pick_language, t

from .. import computer, games
from ..chat import lobby
from ..games.base import Shown
from ..service import GameService
from ..storage import ChatRow
from ..table import seating
from ..table.live import OpenTable
from ..view.message import Choice, next_deal_choice
from ..view.review import shows_hands
from ..view.screen import Word, faces, said
from .encode import encode
from .initdata import WebUser

log = logging.getLogger(__name__)

Json = dict[str, Any]


@dataclass(eq=False)
class Viewer:
    """One open page's viewer: who opened it, at which table, its socket and a digest of the
    last view it was sent (16 bytes, not the view: a thousand idle pages hold little)."""

    user: WebUser
    table_id: int
    socket: web.WebSocketResponse
    sent: bytes = b""
    chat_id: int = 0  # the table's group (or private chat)
    made: int = 0  # the stamp of the newest view it was given (`Viewers.send`)
    told: bool = False  # its words went with its first message on this connection
    writing: asyncio.Lock = field(default_factory=asyncio.Lock)  # one message at a time


class Viewers:
    """Every viewer, by table; the views they are pushed."""

    def __init__(self, service: GameService, clock: Callable[[], float]) -> None:
        self.service = service
        self.clock = clock
        self._open: dict[int, set[Viewer]] = {}
        self._due: dict[int, asyncio.Task[None]] = {}  # by table: a push on its way
        self._closing: set[asyncio.Task[bool]] = set()  # sockets being closed (`close_where`)
        self.pushed = 0  # bytes sent to pages (the bench reads it)
        self._made = count(1)  # each view's stamp, in the order the views are made
        service.fronts.append(self)  # a front end of the tables, beside the chat's

    def __len__(self) -> int:
        return sum(len(pages) for pages in self._open.values())

    async def greet(self, page: Viewer) -> None:
        """A page connected: its table's view now, and every change's from now on (made under
        the chat's lock, like a push's, so no push can show it an older one after it)."""

        async def opened() -> tuple[Json, int]:
            self._open.setdefault(page.table_id, set()).add(page)
            return await self.view(page.user, page.table_id), next(self._made)

        view, made = await self.service.in_turn(page.chat_id, opened)
        await self.send(page, view, made)

    async def stamped(self, user: WebUser, table_id: int) -> Json:
        """`user`'s view of the table now (a page's load or the answer to its press), made under
        the chat's lock and stamped like a push's: an answer that crosses a later push on the
        way is older, and the page keeps the newer."""

        async def made() -> Json:
            return {**await self.view(user, table_id), "made": next(self._made)}

        live = self.service.find(table_id)
        return await (self.service.in_turn(live.row.chat_id, made) if live else made())

    def remove(self, page: Viewer) -> None:
        """A page closed."""
        pages = self._open.get(page.table_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._open[page.table_id]

    async def shown(self, live: OpenTable, chat: ChatRow, what: Shown) -> None:
        """Nothing to draw as a step goes: a page draws the table as it stands once the step is
        done (`changed`)."""

    def changed(self, live: OpenTable) -> None:
        """A table changed (`GameService.changed`, under the chat's lock): a push to its open
        pages once the lock is let go (many changes in a row make one push)."""
        table_id = live.row.table_id
        if table_id not in self._open or table_id in self._due:
            return
        task = asyncio.get_running_loop().create_task(self._push(table_id, live.row.chat_id))
        self._due[table_id] = task

    def close_where(self, which: Callable[[Viewer], bool]) -> None:
        """Close the pages `which` picks (their access ended): pushed nothing more from now, their
        sockets closed in the background (a page that does not answer the close frame must not
        hold up the update that ended its access)."""
        for pages in list(self._open.values()):
            for page in [page for page in pages if which(page)]:
                self.remove(page)
                task = asyncio.get_running_loop().create_task(
                    page.socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"not a member")
                )
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        """Stop the pushes on their way, close every page's socket (at shutdown)."""
        for task in list(self._due.values()):
            task.cancel()
        await asyncio.gather(*self._due.values(), return_exceptions=True)
        for pages in list(self._open.values()):
            for page in list(pages):
                await page.socket.close()
        await asyncio.gather(*self._closing, return_exceptions=True)

    async def _push(self, table_id: int, chat_id: int) -> None:

        async def position() -> tuple[list[tuple[Viewer, Json]], int]:
            """The views of one position, made at once."""
            del self._due[table_id]
            made = next(self._made)
            live = self.service.find(table_id)
            balances = await self._balances(live)
            ratings = await self._ratings(live)
            views = [
                (page, await self.view(page.user, table_id, live, balances, ratings))
                for page in list(self._open.get(table_id, ()))
            ]
            return views, made

        try:
            views, made = await self.service.in_turn(chat_id, position)
            for page, view in views:
                await self.send(page, view, made)
        except Exception:  # nobody awaits a push: say so
            log.exception("pages of table %s not pushed", table_id)

    async def send(self, page: Viewer, view: Json, made: int) -> None:
        """Send a page its view (`made`: its stamp), unless it is the one it has or older than
        one it was given: two pushes' sends may interleave, the later view goes last. The first
        message on a connection carries the page's words too (`words`), which the page keeps."""
        async with page.writing:
            if made < page.made or page.socket.closed:
                return
            page.made = made
            digest = hashlib.blake2b(_json(view).encode(), digest_size=16).digest()
            if digest == page.sent:
                return
            page.sent = digest
            extra = {} if page.told else words(view["lang"])
            text, page.told = _json({**view, "made": made, **extra}), True
            self.pushed += len(text.encode())
            try:
                await page.socket.send_str(text)
            except ConnectionError:
                self.remove(page)

    async def _balances(self, live: OpenTable | None) -> dict[int, int]:
        if live is None:
            return {}
        rows = await self.service.storage.money.balances(live.row.chat_id)
        return {user.user_id: balance for user, balance in rows}

    async def _ratings(self, live: OpenTable | None) -> dict[int, str]:
        """The league's rating in the table's game of each player seated or dealt in, as the
        page shows it ("?" after a provisional one); none for a practice table's."""
        if live is None or seating.practice(live.row.chat_id):
            return {}
        players = list(dict.fromkeys([*live.row.seats, *live.deal_seats]))
        found = await self.service.storage.league.current_ratings(
            live.row.chat_id, live.row.game, players
        )
        return {uid: r.label for uid, r in found.items()}

    async def view(
        self,
        user: WebUser,
        table_id: int,
        live: OpenTable | None = None,
        balances: dict[int, int] | None = None,
        ratings: dict[int, str] | None = None,
    ) -> Json:
        """What `user`'s page shows of the table: his seat's view if he is dealt in, else the
        public table; only what the engine's view for that seat holds (the game builds it). The
        page's words are not in it (`words`: sent once)."""
        live = live if live is not None else self.service.find(table_id)
        lang = pick_language(user.language_code)
        if live is None:
            return {
                "table": table_id,
                "status": "closed",
                "lang": lang,
                **await self._next(table_id),
            }
        if balances is None:
            balances = await self._balances(live)
        if ratings is None:
            ratings = await self._ratings(live)
        game = self.service.game(live)
        ui = games.ui(live.row.game)  # (its name)
        chat = await self.service.storage.chats.chat(live.row.chat_id)
        seated = live.play is not None and user.user_id in live.deal_seats
        seat = live.deal_seats.index(user.user_id) if seated else None
        deal = None
        if live.play is not None:
            deal = encode(game.screen(live, seat, lang, balances))
            if deal.get("result") is not None:
                deal.update(await self._ended(live, chat, lang))
        left = None
        if live.to_act is not None and live.row.deadline is not None:
            left = max(0, round(live.row.deadline - self.clock()))
        return {
            "table": table_id,
            "status": live.row.status,
            "game": ui.title(lang),
            "lang": lang,
            "chat": chat.title,
            "deal_no": live.row.deal_no,
            "step": live.step,  # how many moves the deal has seen: a page knows it is current
            "seat": seat,
            "seated": user.user_id in live.row.seats,
            "players": [live.users[uid].name for uid in live.row.seats if uid in live.users],
            "most": ui.players[1],  # the most the table seats
            # the league's rating beside each of them, and beside each seat dealt in
            "player_ratings": [ratings.get(uid) for uid in live.row.seats if uid in live.users],
            "seat_ratings": [ratings.get(uid) for uid in live.deal_seats],
            "time_left": left,
            "deal": deal,
            "sitting_out": _sitting_out(live, user.user_id) if deal is not None else [],
            "choices": _rows(self._choices(live, chat.chat_id, lang)),
        }

    async def _ended(self, live: OpenTable, chat: ChatRow, lang: str) -> Json:
        """Beside a result: the finished deal's id (the page's "Review" asks for it) and, where
        the chat shows them, every hand as dealt with the talon and the discard."""
        last = await self.service.storage.history.last_finished(live.row.table_id)
        game = GAMES.get(str(last.record.get("game"))) if last is not None else None
        if last is None or game is None:  # a game the engine cannot replay has no review
            return {}
        ended: Json = {"review": last.deal_id}
        if shows_hands(chat):
            ended["hands"] = _hands(game.hands(last.record), lang)
        return ended

    def _choices(self, live: OpenTable, chat_id: int, lang: str) -> list[list[Choice]]:
        """The group's buttons of the table, as its message in the chat shows them: the lobby's
        while it gathers players, the next deal's after a result."""
        table_id = live.row.table_id
        if live.row.status == "lobby":
            return lobby.lobby_choices(
                lang, table_id, live.row.game, computers=computer.plays(live.row.game),
                private=seating.practice(chat_id),
            )  # fmt: skip
        if live.play is not None and self.service.game(live).between_deals(live):
            return [[next_deal_choice(lang, table_id, live.row.deal_no)]]
        return []

    async def _next(self, table_id: int) -> Json:
        """For a closed table, the table its chat has opened since (a page follows it there)."""
        row = await self.service.storage.tables.table(table_id)
        newer = None if row is None else self.service.table_in(row.chat_id)
        return {} if newer is None else {"follow": newer.row.table_id}


def _sitting_out(live: OpenTable, user_id: int) -> list[Json]:
    """The seated players the deal left out (short of the bankroll, away, or seated once it was
    dealt), each with the seat dealt in that he sits after in table order; `you`: the page's."""
    dealt = live.deal_seats
    if not dealt:
        return []
    seats = live.row.seats
    out = []
    for i, uid in enumerate(seats):
        if uid in dealt or uid not in live.users:
            continue
        before = next(seats[i - j] for j in range(1, len(seats) + 1) if seats[i - j] in dealt)
        entry: Json = {"name": live.users[uid].name, "after": dealt.index(before)}
        if uid == user_id:
            entry["you"] = True
        out.append(entry)
    return out


# ---- the review (docs/playing.md "The review") ---------------------------------------------


def _hands(review: Review, lang: str) -> Json:
    """Every hand as dealt (seats out of the deal left out), the talon and the discard."""
    return {
        "seats": [
            {"seat": seat, "name": review.players[seat], "cards": encode(faces(hand, lang))}
            for seat, hand in enumerate(review.hands)
            if hand
        ],
        "talon": encode(faces(review.talon, lang)),
        "discard": encode(faces(review.discard, lang)),
    }


def review_json(review: Review, lang: str) -> Json:
    """A deal's review as the page steps through it: the hands as dealt, and each card played
    with every legal card's double-dummy value, its cost and the best cards; the page's words
    for it."""
    steps = [
        {
            "trick": step.trick, "seat": step.seat, "card": str(step.card),
            "values": [[str(card), value] for card, value in step.values],
            "cost": step.cost, "best": [str(card) for card in step.best_cards],
        }
        for step in review.steps
    ]  # fmt: skip
    only = review.only_hands
    return {
        "game": review.game,
        "declarer": review.declarer,
        "hands": _hands(review, lang),
        "steps": steps,
        "only": None if only is None else encode(said(lang, f"review.only.{only}")),
        "words": {
            **{key: t(lang, f"web.review.{key}") for key in _REVIEW_WORDS},
            # a value in tricks with its unit, by the number ("3 взятки")
            "tricks": [t(lang, "table.tricks", n=n) for n in range(MOST_TRICKS + 1)],
        },
    }


_REVIEW_WORDS = (
    "title", "back", "forward", "trick", "cost", "best", "hands", "discard", "close", "legend",
    "summary", "clean", "again",
)  # fmt: skip
MOST_TRICKS = 12  # more than a hand of any game holds


def _rows(rows: list[list[Choice]]) -> list[list[Json]]:
    return [[encode(Word(c.label, c.press, c.primary or None)) for c in row] for row in rows]


_WORDS = (
    "hand",
    "trick",
    "last_trick",
    "trump",
    "talon",
    "result",
    "watching",
    "lobby",
    "closed",
    "dealer",
    "to_act",
    "tricks",
    "chips",
    "time_left",
    "discards",
    "discard",
    "reconnecting",
    "show_last",
    "table",
    "deal",
    "your_move",
    "players",
    "empty_seat",
    "away",
    "took",
    "computer",
    "out",
    "review",
    "rating",
    "free_seat",
    "four_colours",
)  # fmt: skip (and each game's own: GameUI.page_words)


def words(lang: str) -> Json:
    """The page's own words in the player's language (catalog keys web.*): in the answer to a
    page's opening call and the first message of each connection, not in every push."""
    wanted = dict.fromkeys([*_WORDS, *(w for ui in games.REGISTRY.values() for w in ui.page_words)])
    page = {key: t(lang, f"web.{key}") for key in wanted}
    return {"words": {**page, "open_bot": t(lang, "btn.open_bot")}}


def _json(view: Json) -> str:
    return json.dumps(view, ensure_ascii=False, separators=(",", ":"))
